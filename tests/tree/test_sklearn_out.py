"""The way out: ``tree_`` holds scikit-learn's Tree arrays and ``to_sklearn()`` gives a fitted
DecisionTreeClassifier that scikit-learn's own tools, dtreeviz and supertree read.

References: a scikit-learn tree read by ``from_sklearn`` must give back scikit-learn's own
arrays (node order aside); a converted tree must predict, score and route every row as the
offcenter tree (property test on float32 data with missing values and weights).
dtreeviz and supertree are optional test dependencies (requirements-dev.txt): their tests skip
when they are not installed; dtreeviz's drawing needs Graphviz's ``dot`` (Debian's graphviz,
installed by scripts/test.sh).
"""

from __future__ import annotations

import json
import shutil

import matplotlib
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_iris
from sklearn.tree import DecisionTreeClassifier, export_graphviz, export_text, plot_tree
from sklearn.tree._criterion import Criterion

from offcenter import ForestClassifier, TreeClassifier
from offcenter.tree.sklearn_compat import from_sklearn

matplotlib.use("Agg")

ARRAYS = [
    "children_left",
    "children_right",
    "feature",
    "threshold",
    "impurity",
    "n_node_samples",
    "weighted_n_node_samples",
    "value",
]


@pytest.fixture(scope="module")
def iris():
    X, y = load_iris(return_X_y=True, as_frame=True)
    return X, y


def test_tree_arrays_are_scikit_learns(iris):
    """A scikit-learn tree read back: every array equals scikit-learn's, node ids mapped."""
    X, y = iris
    sk = DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, y)
    t = from_sklearn(sk, X, y).tree_
    ids = from_sklearn(sk, X, y).sklearn_ids_  # offcenter node i is scikit-learn's ids[i]
    back = np.argsort(ids)  # scikit-learn's node j is offcenter's back[j]
    s = sk.tree_
    assert t.node_count == s.node_count == t.capacity
    assert t.max_depth == s.max_depth and t.n_outputs == s.n_outputs == 1
    assert t.max_n_classes == s.max_n_classes and t.n_classes.tolist() == s.n_classes.tolist()
    for name in ["feature", "threshold", "impurity", "n_node_samples", "weighted_n_node_samples"]:
        np.testing.assert_allclose(getattr(t, name), getattr(s, name)[ids], err_msg=name)
    np.testing.assert_allclose(t.value, s.value[ids])
    for name in ["children_left", "children_right"]:
        theirs = getattr(s, name)[ids]
        mapped = np.where(theirs < 0, theirs, back[np.maximum(theirs, 0)])
        assert getattr(t, name).tolist() == mapped.tolist()


def test_arrays_reference_values():
    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0]])
    t = TreeClassifier(measure="gini").fit(X, [0, 0, 1, 1, 1]).tree_
    assert t.children_left.tolist() == [1, -1, -1]
    assert t.children_right.tolist() == [2, -1, -1]
    assert t.feature.tolist() == [0, -2, -2]
    assert t.threshold.tolist() == [1.5, -2.0, -2.0]
    np.testing.assert_allclose(t.impurity, [0.48, 0.0, 0.0])
    assert t.n_node_samples.tolist() == [5, 2, 3]
    assert t.value.shape == (3, 1, 2)
    np.testing.assert_allclose(t.value[0, 0], [0.4, 0.6])
    # the Tree's own attributes are unchanged
    assert t.depth == t.max_depth == 1 and t.n_leaves == 2 and len(t) == 3


def test_categorical_split_has_a_clear_message():
    X = pd.DataFrame({"c": ["a", "b", "c", "a", "b", "c"], "x": [0, 1, 2, 3, 4, 5]})
    clf = TreeClassifier().fit(X, [0, 1, 1, 0, 1, 1])
    t = clf.tree_
    assert t.node_count == len(t.nodes) and t.impurity.shape == (t.node_count,)
    with pytest.raises(ValueError, match=r"node 0 splits the categorical feature 'c'"):
        t.children_left  # noqa: B018
    with pytest.raises(ValueError, match="binary numeric splits"):
        t.threshold  # noqa: B018
    with pytest.raises(ValueError, match="'c' is categorical"):
        clf.to_sklearn()
    binary = TreeClassifier(categorical="binary").fit(X, [0, 1, 1, 0, 1, 1])
    with pytest.raises(ValueError, match="two groups of categories"):
        binary.tree_.feature  # noqa: B018


def test_leaf_rule_prior_refused_when_it_differs():
    # prior 92/8; the leaf x > 0.5 holds 12 of class 0 and 8 of class 1: majority 0, but
    # class 1's share (0.4) exceeds its prior most, so leaf_rule="prior" predicts 1
    X = np.array([[0.0]] * 80 + [[1.0]] * 20)
    y = [0] * 80 + [0] * 12 + [1] * 8
    clf = TreeClassifier(leaf_rule="prior", max_depth=1).fit(X, y)
    assert clf.tree_.nodes[2].prediction == 1 and np.argmax(clf.tree_.nodes[2].proba) == 0
    with pytest.raises(ValueError, match="leaf 2 predicts 1 .* most probable class"):
        clf.to_sklearn()
    # where the two rules agree on every leaf, the tree converts
    pure = TreeClassifier(leaf_rule="prior").fit([[0.0], [0.0], [1.0], [1.0]], [0, 0, 1, 1])
    _check_same(pure, X)


def _check_same(clf, X):
    sk = clf.to_sklearn()
    assert sk.predict(X).tolist() == clf.predict(X).tolist()
    np.testing.assert_allclose(sk.predict_proba(X), clf.predict_proba(X))
    assert sk.apply(X).tolist() == clf.apply(X).tolist()
    assert (sk.decision_path(X) != clf.decision_path(X)).nnz == 0
    assert sk.get_depth() == clf.get_depth() and sk.get_n_leaves() == clf.get_n_leaves()
    return sk


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    q=st.integers(2, 4),
    measure=st.sampled_from(["shannon", "gini", "oc_shannon", "asymmetric", "hellinger"]),
    missing=st.booleans(),
    weighted=st.booleans(),
    max_depth=st.sampled_from([None, 1, 3]),
)
def test_to_sklearn_predicts_identically(seed, q, measure, missing, weighted, max_depth):
    rng = np.random.default_rng(seed)
    n = 120
    X = rng.normal(size=(n, 3)).astype(np.float32).astype(np.float64)  # float32 values
    X[:, 2] = rng.integers(0, 4, n)
    y = rng.integers(0, q, n)
    if missing:
        X[rng.random((n, 3)) < 0.15] = np.nan
    theta = None
    if measure == "oc_shannon":
        measure, theta = "shannon", "prior"
    sw = rng.uniform(0.5, 2.0, n) if weighted else None
    clf = TreeClassifier(measure=measure, theta=theta, max_depth=max_depth)
    clf.fit(X, y, sample_weight=sw)
    _check_same(clf, X)
    _check_same(clf, rng.normal(size=(50, 3)).astype(np.float32).astype(np.float64))


def test_criterion_names_what_was_computed(iris):
    X, y = iris
    assert TreeClassifier(max_depth=2).fit(X, y).to_sklearn().criterion == "entropy"
    assert TreeClassifier(measure="gini", max_depth=2).fit(X, y).to_sklearn().criterion == "gini"
    oc = TreeClassifier(theta="prior", max_depth=2).fit(X, y).to_sklearn()
    assert isinstance(oc.criterion, Criterion)  # no scikit-learn name for it
    assert "impurity = " in export_graphviz(oc) and "entropy = " not in export_graphviz(oc)
    assert oc.offcenter_setting_.startswith("off-centered")
    # a branch regrown under Gini: the tree is no longer plain Shannon
    mixed = TreeClassifier(max_depth=3).fit(X, y).regrow(2, measure="gini")
    assert isinstance(mixed.to_sklearn().criterion, Criterion)


def test_scikit_learn_tools_read_converted_trees(iris):
    X, y = iris
    clf = TreeClassifier(max_depth=3, theta="prior").fit(X, y)
    sk = clf.to_sklearn()
    text = export_text(sk, feature_names=list(X.columns))
    assert text.startswith("|--- petal length (cm) <= 2.45")
    assert text.count("class:") == clf.get_n_leaves()
    dot = export_graphviz(sk, feature_names=list(X.columns), class_names=["a", "b", "c"])
    assert dot.count("->") == clf.tree_.node_count - 1
    assert "samples = 150" in dot and "value = [50, 50, 50]" in dot
    annotations = plot_tree(sk, feature_names=list(X.columns))
    boxes = [a for a in annotations if "samples = " in a.get_text()]
    assert len(boxes) == clf.tree_.node_count
    assert annotations[0].get_text().startswith("petal length (cm) <= 2.45")
    matplotlib.pyplot.close("all")


def test_forest_members_convert(iris):
    X, y = iris
    X = X.astype(np.float32).astype(np.float64)  # scikit-learn reads float32 (module docs)
    forest = ForestClassifier(n_estimators=3, random_state=0, n_jobs=1).fit(X, y)
    for tree in forest.estimators_:
        assert tree.tree_.children_left.shape == (tree.tree_.node_count,)
        _check_same(tree, X)


def test_dtreeviz_reads_a_converted_tree(iris):
    import dtreeviz

    X, y = iris
    clf = TreeClassifier(max_depth=3, theta="prior").fit(X, y)
    viz = dtreeviz.model(
        clf.to_sklearn(),
        X_train=X,
        y_train=y,
        feature_names=list(X.columns),
        target_name="species",
        class_names=["setosa", "versicolor", "virginica"],
    )
    assert "petal length (cm) < 2.45" in viz.explain_prediction_path(X.iloc[0].to_numpy())
    samples = viz.shadow_tree.get_node_samples()  # the rows of each node, routed by dtreeviz
    assert {i: len(r) for i, r in samples.items()} == {nd.id: nd.n for nd in clf.tree_.nodes}
    viz.leaf_sizes()
    viz.ctree_leaf_distributions()
    matplotlib.pyplot.close("all")
    if shutil.which("dot") is None:
        # a failure, never a skip: scripts/test.sh installs Debian's graphviz
        pytest.fail("Graphviz's dot is not installed (apt-get install graphviz)")
    svg = viz.view().svg()
    assert svg.lstrip().startswith("<svg") and svg.count("<svg") > clf.tree_.node_count


def test_supertree_reads_a_converted_tree(iris, tmp_path):
    import supertree

    X, y = iris
    clf = TreeClassifier(max_depth=3, theta="prior").fit(X, y)
    st_ = supertree.SuperTree(clf.to_sklearn(), X, y)
    st_.save_json_tree(str(tmp_path / "tree"))
    data = json.loads((tmp_path / "tree.json").read_text())
    root = data["node_data"]
    assert root["threshold"] == pytest.approx(2.45) and root["samples"] == 150
    assert root["class_distribution"] == [[50, 50, 50]]
    assert root["left_node"]["samples"] == clf.tree_.nodes[1].n
    st_.save_html(str(tmp_path / "tree"))
    assert (tmp_path / "tree.html").stat().st_size > 1000
