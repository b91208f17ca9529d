"""Two trees on the same data: first_differences, difference_reason, training_metrics."""

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm

from offcenter.data.datasets import load
from offcenter.evaluation.metrics import metrics_table, training_metrics
from offcenter.tree import TreeClassifier
from offcenter.tree.compare import (
    difference_reason,
    first_differences,
    same_split,
)


def _split(feature, threshold=None, groups=None, kind=None):
    kind = kind or ("numeric" if threshold is not None else "categorical_binary")
    return SimpleNamespace(feature=feature, kind=kind, threshold=threshold, groups=groups)


def _tree(spec):
    """A tree from {id: (split or None, children)}; ids as given, root 0."""
    nodes = [
        SimpleNamespace(id=i, split=s, children=tuple(kids))
        for i, (s, kids) in sorted(spec.items())
    ]
    return SimpleNamespace(nodes=nodes, root=0)


def _iris(**params):
    df = load("iris")
    return (
        df.drop(columns="species"),
        df["species"],
        TreeClassifier(**params).fit(df.drop(columns="species"), df["species"]),
    )


def test_identical_trees_have_no_difference():
    X, y, clf = _iris(max_depth=4)
    assert first_differences(clf, clf) == []
    again = TreeClassifier(max_depth=4).fit(X, y)
    assert first_differences(clf, again) == []
    assert first_differences(clf.tree_, again.tree_) == []  # a Tree works too


def test_constructed_difference_at_the_root():
    a = _tree({0: (_split("x", 1.5), (1, 2)), 1: (None, ()), 2: (None, ())})
    b = _tree({0: (_split("x", 2.5), (1, 2)), 1: (None, ()), 2: (None, ())})
    c = _tree({0: (_split("z", 1.5), (1, 2)), 1: (None, ()), 2: (None, ())})
    leaf = _tree({0: (None, ())})
    assert first_differences(a, b) == [(0, 0)]
    assert first_differences(a, c) == [(0, 0)]
    assert first_differences(a, leaf) == [(0, 0)]
    assert first_differences(leaf, leaf) == []
    assert "x ≤ 1.5" in difference_reason(a, b, 0, 0) and "x ≤ 2.5" in difference_reason(a, b, 0, 0)
    assert difference_reason(a, leaf, 0, 0).endswith("tree B is a leaf")


def test_constructed_differences_deeper_and_only_the_first_ones():
    # same root; left subtrees differ at node 1 (another threshold), and again below it (not
    # reported: the walk stops at the first difference); right child: a split against a leaf
    a = _tree(
        {
            0: (_split("x", 1.5), (1, 2)),
            1: (_split("y", 0.5), (3, 4)),
            2: (_split("z", 7.0), (5, 6)),
            3: (_split("x", 0.5), (7, 8)),
            **{i: (None, ()) for i in (4, 5, 6, 7, 8)},
        }
    )
    b = _tree(
        {
            0: (_split("x", 1.5), (1, 2)),
            1: (_split("y", 0.75), (3, 4)),
            2: (None, ()),
            3: (_split("x", 0.25), (5, 6)),
            **{i: (None, ()) for i in (4, 5, 6)},
        }
    )
    assert first_differences(a, b) == [(1, 1), (2, 2)]


def test_categorical_groups_match_in_any_order_and_children_follow():
    # binary groups swapped: the same test, and the children are matched by their group
    a = _tree(
        {
            0: (_split("c", groups=(("r", "g"), ("b",))), (1, 2)),
            1: (_split("x", 1.0), (3, 4)),
            **{i: (None, ()) for i in (2, 3, 4)},
        }
    )
    b = _tree(
        {
            0: (_split("c", groups=(("b",), ("g", "r"))), (1, 2)),
            1: (None, ()),
            2: (_split("x", 1.0), (3, 4)),
            **{i: (None, ()) for i in (3, 4)},
        }
    )
    assert same_split(a.nodes[0].split, b.nodes[0].split)
    assert first_differences(a, b) == []
    c = _tree(
        {
            0: (_split("c", groups=(("r",), ("g", "b"))), (1, 2)),
            **{i: (None, ()) for i in (1, 2)},
        }
    )
    assert first_differences(a, c) == [(0, 0)]
    multi = _split("c", groups=(("r",), ("g",), ("b",)), kind="categorical")
    assert not same_split(a.nodes[0].split, multi)  # another kind
    assert same_split(None, None) and not same_split(None, multi)


def test_real_trees_differ_deeper_after_an_edit():
    X, y, clf = _iris(max_depth=3)
    edited = clf.make_leaf(4)
    assert first_differences(clf, edited) == [(4, 4)]
    forced = clf.with_split(2, "petal length", threshold=4.75)
    assert first_differences(clf, forced) == [(2, 2)]
    assert "petal width ≤ 1.75" in difference_reason(clf, forced, 2, 2)


def test_pima_shannon_and_off_centered_differ_at_the_root():
    df = load("pima")
    X, y = df.drop(columns="diabetes"), df["diabetes"]
    a = TreeClassifier(measure="shannon", max_depth=3).fit(X, y)
    b = TreeClassifier(measure="shannon", theta="prior", max_depth=3).fit(X, y)
    assert first_differences(a, b) == [(0, 0)]
    reason = difference_reason(a, b, 0, 0)
    assert "glucose ≤ 127.5" in reason and "glucose ≤ 111.5" in reason


def test_training_metrics_match_sklearn():
    df = load("pima")
    X, y = df.drop(columns="diabetes"), df["diabetes"]
    clf = TreeClassifier(measure="shannon", theta="prior", max_depth=4).fit(X, y)
    m = training_metrics(clf, X, y)
    pred = clf.predict(X)
    assert m["accuracy"] == pytest.approx(skm.accuracy_score(y, pred))
    assert m["balanced accuracy"] == pytest.approx(skm.balanced_accuracy_score(y, pred))
    assert m["minority class"] == 1
    assert m["minority recall"] == pytest.approx(skm.recall_score(y, pred, pos_label=1))
    assert m["leaves"] == clf.tree_.n_leaves and m["depth"] == clf.tree_.depth == 4
    assert m["nodes"] == len(clf.tree_)


def test_minority_recall_is_zero_when_no_leaf_predicts_it():
    X = pd.DataFrame({"a": np.arange(100, dtype=float)})
    y = np.array(["big"] * 95 + ["small"] * 5)
    clf = TreeClassifier(max_depth=0).fit(X, y)  # one leaf: the majority
    m = training_metrics(clf, X, y)
    assert m["minority class"] == "small" and m["minority recall"] == 0.0
    rows = metrics_table([clf, clf], X, y, ["A", "B"])
    assert [r["tree"] for r in rows] == ["A", "B"]


def test_bad_input_is_named():
    X, y, clf = _iris(max_depth=2)
    with pytest.raises(TypeError, match="tree_a"):
        first_differences("not a tree", clf)
    with pytest.raises(ValueError, match="does not know"):
        training_metrics(clf, X, np.array(["zzz"] * len(X)))
    with pytest.raises(ValueError, match="rows"):
        training_metrics(clf, X, y[:10])
    with pytest.raises(ValueError, match="minority"):
        training_metrics(clf, X, y, minority="nope")
