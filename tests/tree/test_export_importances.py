"""feature_importances_ (impurity based, as scikit-learn's) and the Graphviz DOT export."""

from __future__ import annotations

import io
import re

import numpy as np
import pandas as pd
import pytest
from sklearn import datasets
from sklearn.tree import DecisionTreeClassifier, export_graphviz

from offcenter import TreeClassifier
from offcenter.tree.export import export_graphviz as oc_export_graphviz


def _digits():
    d = datasets.load_digits()
    return np.asarray(d.data, np.float32).astype(np.float64), d.target


@pytest.mark.parametrize("criterion,measure", [("entropy", "shannon"), ("gini", "gini")])
def test_feature_importances_match_sklearn(criterion, measure):
    X, y = _digits()  # depth 3: the same splits as sklearn's, no ties (test_tree_reference)
    sk = DecisionTreeClassifier(criterion=criterion, max_depth=3, random_state=0).fit(X, y)
    ours = TreeClassifier(measure=measure, max_depth=3).fit(X, y)
    np.testing.assert_allclose(
        ours.feature_importances_, sk.feature_importances_, rtol=0, atol=1e-12
    )
    assert ours.feature_importances_.sum() == pytest.approx(1.0)


def test_feature_importances_weighted_match_sklearn():
    X, y = _digits()
    w = np.random.default_rng(0).uniform(0.5, 2.0, len(y))
    sk = DecisionTreeClassifier(
        criterion="entropy", max_depth=2, random_state=0, class_weight="balanced"
    ).fit(X, y, sample_weight=w)
    ours = TreeClassifier(max_depth=2, class_weight="balanced").fit(X, y, sample_weight=w)
    assert [nd.split.feature_index for nd in ours.tree_.nodes if nd.split] == [
        f for f in sk.tree_.feature if f >= 0
    ]
    np.testing.assert_allclose(
        ours.feature_importances_, sk.feature_importances_, rtol=0, atol=1e-12
    )


def test_feature_importances_own_measure_and_categorical():
    rng = np.random.default_rng(1)
    n = 200
    y = rng.integers(0, 3, n)
    X = pd.DataFrame(
        {
            "num": y + rng.normal(scale=0.8, size=n),
            "cat": np.where(rng.random(n) < 0.7, np.array(list("abc"))[y], "d"),
            "noise": rng.normal(size=n),
        }
    )
    clf = TreeClassifier(theta="prior", max_depth=3).fit(X, y)
    fi = clf.feature_importances_
    # by hand: the node weight times the gain under the off-centered measure, per feature
    expect = np.zeros(3)
    for nd in clf.tree_.nodes:
        if nd.split is not None:
            expect[nd.split.feature_index] += nd.n * nd.split.gain
    np.testing.assert_allclose(fi, expect / expect.sum(), atol=1e-12)
    assert fi.shape == (3,) and fi[2] < fi[0] + fi[1]
    leaf = TreeClassifier(max_depth=0).fit(X, y)
    assert leaf.feature_importances_.tolist() == [0.0, 0.0, 0.0]
    assert not hasattr(TreeClassifier(), "feature_importances_")


def _edges(dot):
    return re.findall(r"^(\d+) -> (\d+)", dot, re.M)


def test_dot_export_like_sklearn():
    iris = datasets.load_iris()
    X = np.asarray(iris.data, np.float32).astype(np.float64)
    sk = DecisionTreeClassifier(criterion="entropy", max_depth=2, random_state=0).fit(
        X, iris.target
    )
    ours = TreeClassifier(max_depth=2).fit(X, iris.target)
    a = ours.export_graphviz(class_names=list(iris.target_names), filled=True, rounded=True)
    b = export_graphviz(sk, class_names=list(iris.target_names), filled=True, rounded=True)
    assert a.startswith("digraph Tree {") and a.rstrip().endswith("}")
    assert _edges(a) == _edges(b)
    assert a.count("[label=") == b.count("[label=")
    root = re.search(r'^0 \[label="([^"]*)"', a, re.M).group(1)
    assert root.split("\\n") == [
        "x2 <= 2.45",
        "shannon = 1.585",
        "samples = 150",
        "value = [50, 50, 50]",
        "class = setosa",
    ]
    # the root's edges say True / False as sklearn's do; fill colours are sklearn's palette
    assert 'headlabel="True"' in a and 'headlabel="False"' in a
    fills = set(re.findall(r'fillcolor="(#[0-9a-f]{6})"', a))
    assert fills <= set(re.findall(r'fillcolor="(#[0-9a-f]{6})"', b)) | {"#ffffff"}
    buf = io.StringIO()
    assert ours.export_graphviz(buf) is None and buf.getvalue() == ours.export_graphviz()


def test_dot_export_categorical_weighted_and_errors(tmp_path):
    X = pd.DataFrame(
        {
            "colour": ["red", "red", "blue", None, "green", "blue"],
            "size": [1.0, 2.0, np.nan, 4.0, 5.0, 6.0],
        }
    )
    y = ["a", "b", "a", "b", "a", "a"]
    clf = TreeClassifier().fit(X, y, sample_weight=[1, 2.5, 1, 1, 1, 0.5])
    dot = clf.export_graphviz()
    # a multiway categorical split: one edge per value (the missing category too), weighted
    # counts in value, rows in samples
    assert _edges(dot)[:4] == [("0", "1"), ("0", "2"), ("0", "3"), ("0", "4")]
    for k, v in enumerate(["blue", "green", "red", "missing"], start=1):
        assert f'0 -> {k} [label="{v}"] ;' in dot
    assert 'label="colour\\nshannon = 1.0\\nsamples = 6\\nvalue = [3.5, 3.5]' in dot
    assert "value = [0, 2.5]" in dot
    dot = oc_export_graphviz(clf, proportion=True, node_ids=True, label="root")
    assert "node #0" in dot and "samples = 100.0%" in dot and "#1\\n" in dot
    path = tmp_path / "tree.dot"
    clf.export_graphviz(str(path))
    assert path.read_text() == clf.export_graphviz()
    with pytest.raises(ValueError, match="class_names"):
        clf.export_graphviz(class_names=["x"])
    with pytest.raises(ValueError, match="label"):
        clf.export_graphviz(label="some")
