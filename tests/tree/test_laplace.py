"""The Laplace leaf estimate (``leaf_estimate="laplace"``): (n_c + 1) / (n + q) per leaf."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import datasets

from offcenter import ForestClassifier, TreeClassifier
from offcenter.tree.estimator import leaf_proba


def test_reference_values():
    # hand-computed: counts (3, 1) -> (4/6, 2/6); q = 3, counts (0, 2, 5) -> (1/10, 3/10, 6/10)
    np.testing.assert_allclose(leaf_proba([[3.0, 1.0]], "laplace"), [[4 / 6, 2 / 6]])
    np.testing.assert_allclose(leaf_proba([[0.0, 2.0, 5.0]], "laplace"), [[0.1, 0.3, 0.6]])
    np.testing.assert_allclose(leaf_proba([[0.0, 0.0]], "laplace"), [[0.5, 0.5]])
    np.testing.assert_allclose(leaf_proba([[3.0, 1.0]]), [[0.75, 0.25]])
    np.testing.assert_array_equal(leaf_proba([[0.0, 0.0]]), [[0.0, 0.0]])


def test_pure_leaf_two_classes():
    X = [[0.0], [1.0], [2.0], [10.0], [11.0]]
    y = [0, 0, 0, 1, 1]
    clf = TreeClassifier(leaf_estimate="laplace").fit(X, y)
    proba = clf.predict_proba([[0.5], [10.5]])
    # a pure leaf of n rows: (n + 1) / (n + 2)
    np.testing.assert_allclose(proba, [[4 / 5, 1 / 5], [1 / 4, 3 / 4]])
    freq = TreeClassifier().fit(X, y).predict_proba([[0.5], [10.5]])
    np.testing.assert_array_equal(freq, [[1.0, 0.0], [0.0, 1.0]])


def test_weighted_counts():
    X = [[0.0], [1.0], [2.0], [3.0]]
    y = [0, 1, 0, 1]
    clf = TreeClassifier(leaf_estimate="laplace", max_depth=0).fit(
        X, y, sample_weight=[2.0, 1.0, 3.0, 0.5]
    )
    np.testing.assert_allclose(clf.predict_proba([[0.0]]), [[(5 + 1) / (6.5 + 2), 2.5 / 8.5]])


def test_iris_sums_to_one_same_tree_and_predictions():
    d = datasets.load_iris()
    lap = TreeClassifier(leaf_estimate="laplace", max_depth=3).fit(d.data, d.target)
    frq = TreeClassifier(max_depth=3).fit(d.data, d.target)
    p = lap.predict_proba(d.data)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=0, atol=1e-15)
    assert (p > 0).all()
    # same splits and predicted classes; only the probabilities differ
    assert [nd.split for nd in lap.tree_.nodes] == [nd.split for nd in frq.tree_.nodes]
    np.testing.assert_array_equal(lap.predict(d.data), frq.predict(d.data))
    leaves = lap.apply(d.data)
    counts = np.stack([lap.tree_.nodes[i].counts for i in leaves])
    np.testing.assert_allclose(p, (counts + 1) / (counts.sum(axis=1, keepdims=True) + 3))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.floats(0, 1e6, allow_subnormal=False), min_size=2, max_size=6),
)
def test_laplace_property(counts):
    p = leaf_proba([counts], "laplace")[0]
    assert abs(p.sum() - 1.0) < 1e-12
    assert (p > 0).all() and (p < 1).all()
    # the order of the classes is kept
    assert np.all(np.diff(p[np.argsort(counts, kind="stable")]) >= -1e-15)


def test_json_round_trip_and_default():
    d = datasets.load_iris()
    clf = TreeClassifier(leaf_estimate="laplace", max_depth=2).fit(d.data, d.target)
    back = TreeClassifier.from_json(clf.to_json())
    assert back.leaf_estimate == "laplace"
    np.testing.assert_array_equal(back.predict_proba(d.data), clf.predict_proba(d.data))
    old = clf.to_dict()
    del old["params"]["leaf_estimate"]  # a file written before the parameter existed
    assert TreeClassifier.from_dict(old).leaf_estimate == "frequency"
    assert TreeClassifier().leaf_estimate == "frequency"


@pytest.mark.parametrize("bad", ["Laplace", "m-estimate", None, 1])
def test_bad_value(bad):
    with pytest.raises(ValueError, match="leaf_estimate must be 'frequency' or 'laplace'"):
        TreeClassifier(leaf_estimate=bad).fit([[0.0], [1.0]], [0, 1])


def test_forest_forwards_it():
    d = datasets.load_iris()
    f = ForestClassifier(n_estimators=3, leaf_estimate="laplace", random_state=0, n_jobs=1)
    f.fit(d.data, d.target)
    assert all(t.leaf_estimate == "laplace" for t in f.estimators_)
    p = f.predict_proba(d.data)
    assert (p > 0).all()
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
