"""The step-through of a fitted tree (offcenter.tree.steps): orders, partial trees, verdicts."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from offcenter.data.datasets import DATASETS, load
from offcenter.tree import TreeClassifier
from offcenter.tree.steps import (
    check_step,
    classifier_at_step,
    n_steps,
    split_order,
    step_verdict,
    tree_at_step,
)


def _pima():
    df = load("pima")
    t = DATASETS["pima"].target
    return df.drop(columns=t), df[t]


def _shape(tree) -> list:
    """A tree's structure in a comparable form: per node, its parent, split and children."""
    return [
        (
            nd.id,
            nd.parent,
            None if nd.split is None else (nd.split.feature, nd.split.threshold, nd.split.groups),
            nd.children,
            nd.counts.tolist(),
        )
        for nd in tree.nodes
    ]


@st.composite
def fitted(draw, with_data: bool = False):
    n = draw(st.integers(8, 60))
    seed = draw(st.integers(0, 10_000))
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(
        {
            "a": rng.normal(size=n).round(2),
            "b": rng.integers(0, 5, size=n).astype(float),
            "c": rng.choice(["r", "g", "b"], size=n),
        }
    )
    y = rng.integers(0, draw(st.integers(2, 3)), size=n)
    if len(np.unique(y)) < 2:
        y[0], y[1] = 0, 1
    params = dict(
        measure=draw(st.sampled_from(["shannon", "gini"])),
        max_depth=draw(st.sampled_from([None, 2, 4])),
        categorical=draw(st.sampled_from(["multiway", "binary"])),
    )
    clf = TreeClassifier(**params).fit(X, y)
    return (clf, X) if with_data else clf


@given(fitted(), st.sampled_from(["breadth", "best"]))
def test_the_last_step_is_the_fitted_tree_and_step_0_the_root(clf, order):
    tree = clf.tree_
    last = tree_at_step(tree, n_steps(tree), order)
    assert _shape(last.tree) == _shape(tree)
    assert last.ids == tuple(range(len(tree)))
    first = tree_at_step(tree, 0, order)
    assert len(first.tree) == 1 and first.tree.nodes[0].is_leaf and first.node is None
    assert first.tree.nodes[0].prediction == tree.nodes[0].prediction


@given(fitted(), st.sampled_from(["breadth", "best"]))
def test_each_step_adds_exactly_one_split_and_steps_are_nested(clf, order):
    tree = clf.tree_
    order_ids = split_order(tree, order)
    assert sorted(order_ids) == [nd.id for nd in tree.nodes if nd.split is not None]
    prev = tree_at_step(tree, 0, order)
    for k in range(1, n_steps(tree) + 1):
        step = tree_at_step(tree, k, order)
        splits = {step.ids[nd.id] for nd in step.tree.nodes if nd.split is not None}
        before = {prev.ids[nd.id] for nd in prev.tree.nodes if nd.split is not None}
        assert splits - before == {step.full_node} and before <= splits  # one more split
        assert set(prev.ids) <= set(step.ids)  # nested: every node of step k-1 is kept
        new = tree.nodes[step.full_node]
        assert set(step.ids) - set(prev.ids) == set(new.children)  # and its children added
        assert step.ids[step.node] == step.full_node
        # the split made is the fitted tree's, and a parent is split before its child
        assert step.tree.nodes[step.node].split == new.split
        assert new.parent is None or new.parent in before
        for i, nd in enumerate(step.tree.nodes):  # every node is the fitted tree's node
            full = tree.nodes[step.ids[i]]
            assert np.array_equal(nd.counts, full.counts) and nd.prediction == full.prediction
        prev = step


@given(fitted())
def test_breadth_first_keeps_the_fitted_trees_ids(clf):
    tree = clf.tree_
    for k in range(n_steps(tree) + 1):
        step = tree_at_step(tree, k)
        assert step.ids == tuple(range(len(step.tree)))
        assert step.node == step.full_node


@given(fitted())
def test_best_first_splits_the_largest_weighted_gain_first(clf):
    tree = clf.tree_
    order_ids = split_order(tree, "best")
    total = tree.nodes[0].weighted_n
    done = set()
    for i in order_ids:
        open_ = [
            j
            for j, nd in enumerate(tree.nodes)
            if nd.split is not None and j not in done and (nd.parent is None or nd.parent in done)
        ]
        w = {j: tree.nodes[j].weighted_n / total * tree.nodes[j].split.gain for j in open_}
        assert w[i] == max(w.values())
        done.add(i)


@given(fitted(with_data=True), st.sampled_from(["breadth", "best"]), st.data())
def test_a_partial_tree_routes_each_row_to_the_deepest_node_of_its_path_it_keeps(
    fitted_x, order, data
):
    clf, X = fitted_x
    k = data.draw(st.integers(0, n_steps(clf.tree_)))
    step = tree_at_step(clf.tree_, k, order)
    partial = classifier_at_step(clf, k, order)
    kept = step.full_ids  # the fitted tree's id -> the partial tree's
    expected = [kept[[i for i in path if i in kept][-1]] for path in clf.decision_paths(X)]
    assert partial.apply(X).tolist() == expected
    assert partial.predict(X).tolist() == [partial.tree_.nodes[i].prediction for i in expected]


def test_a_partial_classifier_predicts_with_its_leaves():
    X, y = _pima()
    clf = TreeClassifier(measure="shannon", theta="prior", max_depth=3).fit(X, y)
    root_only = classifier_at_step(clf, 0)
    assert (root_only.predict(X) == clf.tree_.nodes[0].prediction).all()
    whole = classifier_at_step(clf, n_steps(clf.tree_))
    assert (whole.predict(X) == clf.predict(X)).all()
    one = classifier_at_step(clf, 1)
    assert len(one.tree_) == 1 + len(clf.tree_.nodes[0].children)
    # the rows of a node and its settings' optima are those of the fitted tree's node
    assert np.array_equal(one.node_indices(1), clf.node_indices(1))
    assert clf.tree_ is not one.tree_ and len(clf.tree_) > len(one.tree_)  # clf unchanged


def test_check_step_clamps_a_links_step():
    X = pd.DataFrame({"x": [0.0, 1, 2, 3, 4, 5, 6, 7]})
    clf = TreeClassifier(measure="gini").fit(X, [0, 0, 1, 1, 0, 0, 1, 1])
    assert n_steps(clf.tree_) == 3
    assert [check_step(k, clf.tree_) for k in (-4, 0, 2, 3, 99, "x", None)] == [0, 0, 2, 3, 3, 0, 0]
    with pytest.raises(ValueError, match="order must be one of"):
        split_order(clf.tree_, "depth")


def test_the_verdict_says_which_settings_make_the_trees_split():
    X, y = _pima()
    clf = TreeClassifier(measure="shannon", max_depth=2).fit(X, y)
    optima = clf.own_optima(0, ["shannon", "gini", "oc_shannon"])
    v = step_verdict(optima, clf.tree_.nodes[0].split)
    assert list(v.columns) == ["setting", "best split", "gain", "same as the tree"]
    assert len(v) == 3
    assert v["best split"].iloc[0] == "glucose <= 127.5" and bool(v["same as the tree"].iloc[0])
    for (_key, label), setting, same, pick in zip(
        optima.attrs["settings"], v["setting"], v["same as the tree"], v["best split"]
    ):
        assert setting == label
        assert same == (pick == "glucose <= 127.5")
    # a leaf: nothing is the tree's split
    leaf = next(nd for nd in clf.tree_.nodes if nd.split is None)
    assert not step_verdict(clf.own_optima(leaf.id, ["gini"]), None)["same as the tree"].any()


def test_the_verdict_of_a_categorical_split_compares_groups():
    rng = np.random.default_rng(0)
    c = rng.choice(["a", "b", "c"], size=120)
    y = (c == "a").astype(int) ^ (rng.random(120) < 0.1)
    clf = TreeClassifier(categorical="binary", max_depth=1).fit(pd.DataFrame({"c": c}), y)
    split = clf.tree_.nodes[0].split
    assert split is not None and split.groups is not None
    v = step_verdict(clf.own_optima(0, ["shannon", "gini"]), split)
    assert v["same as the tree"].all()
