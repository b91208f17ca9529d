"""scikit-learn's method names on TreeClassifier and ForestClassifier, checked against
scikit-learn's own estimators on the same data."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.ensemble import RandomForestClassifier
from sklearn.tree import DecisionTreeClassifier

from offcenter import ForestClassifier, TreeClassifier


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


@pytest.mark.parametrize("depth", [None, 1, 3])
def test_depth_leaves_log_proba_match_sklearn(iris, depth):
    X, y = iris
    ours = TreeClassifier(measure="gini", max_depth=depth, min_gain=-np.inf).fit(X, y)
    ref = DecisionTreeClassifier(max_depth=depth, random_state=0).fit(X, y)
    assert ours.get_depth() == ref.get_depth()
    assert ours.get_n_leaves() == ref.get_n_leaves()
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X))
    with np.errstate(divide="ignore"):
        np.testing.assert_allclose(ours.predict_log_proba(X), ref.predict_log_proba(X))


def test_single_leaf_depth_zero():
    clf = TreeClassifier(max_depth=0).fit(np.arange(6.0).reshape(-1, 1), [0, 0, 0, 1, 1, 1])
    assert clf.get_depth() == 0 and clf.get_n_leaves() == 1
    assert np.isneginf(clf.predict_log_proba(np.zeros((1, 1)))).sum() == 0


def test_decision_path_is_sklearns_indicator(iris):
    X, y = iris
    ours = TreeClassifier(measure="gini", max_depth=3).fit(X, y)
    ref = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    ind = ours.decision_path(X)
    ref_ind = ref.decision_path(X)
    assert sp.isspmatrix_csr(ind) and ind.shape == (len(X), len(ours.tree_))
    assert ind.dtype == ref_ind.dtype
    # the same number of nodes on each row's path (ids differ: breadth- vs depth-first)
    np.testing.assert_array_equal(np.diff(ind.indptr), np.diff(ref_ind.indptr))
    # the paths are the lists of decision_paths, and the leaves those of apply
    paths = ours.decision_paths(X)
    for i, path in enumerate(paths):
        assert sorted(path) == ind[i].indices.tolist()
    leaves = ours.apply(X)
    assert all(ind[i, leaf] == 1 for i, leaf in enumerate(leaves))


def test_decision_path_list_form_is_deprecated(iris):
    X, y = iris
    clf = TreeClassifier(max_depth=2).fit(X, y)
    with pytest.warns(FutureWarning, match="decision_paths"):
        old = clf.decision_path(X[:5], as_list=True)
    assert old == clf.decision_paths(X[:5])


# ------------------------------------------------------------------ forest
@pytest.fixture(scope="module")
def cancer():
    return load_breast_cancer(return_X_y=True)


def test_forest_feature_importances(cancer):
    X, y = cancer
    forest = ForestClassifier(n_estimators=10, random_state=0, n_jobs=1, measure="gini").fit(X, y)
    imp = forest.feature_importances_
    assert imp.shape == (X.shape[1],)
    assert np.all(imp >= 0) and imp.sum() == pytest.approx(1.0)
    mean = np.mean([t.feature_importances_ for t in forest.estimators_], axis=0)
    np.testing.assert_allclose(imp, mean / mean.sum())
    # the same features lead as in scikit-learn's forest (worst radius/perimeter/area...)
    ref = RandomForestClassifier(n_estimators=50, random_state=0).fit(X, y)
    top_ours = set(np.argsort(imp)[-8:])
    top_ref = set(np.argsort(ref.feature_importances_)[-8:])
    assert len(top_ours & top_ref) >= 4


@pytest.mark.filterwarnings("ignore:Some inputs do not have OOB scores")
def test_forest_oob_score(cancer):
    X, y = cancer
    forest = ForestClassifier(
        n_estimators=15, random_state=1, n_jobs=1, oob_score=True, measure="gini"
    ).fit(X, y)
    dec = forest.oob_decision_function_
    assert dec.shape == (len(X), 2)
    seen = dec.sum(axis=1) > 0
    assert seen.mean() > 0.95  # with 15 trees a row is out of bag for some tree almost surely
    np.testing.assert_allclose(dec[seen].sum(axis=1), 1.0)
    # by hand: average of the probabilities of the trees that did not see the row
    i = int(np.flatnonzero(seen)[0])
    probs = [
        t.predict_proba(X[i : i + 1])[0]
        for t, s in zip(forest.estimators_, forest.samples_)
        if i not in set(s.tolist())
    ]
    np.testing.assert_allclose(dec[i], np.mean(probs, axis=0))
    assert forest.oob_score_ == pytest.approx(np.mean(forest.classes_[np.argmax(dec, axis=1)] == y))
    assert 0.85 < forest.oob_score_ < 1.0
    ref = RandomForestClassifier(n_estimators=50, oob_score=True, random_state=0).fit(X, y)
    assert abs(forest.oob_score_ - ref.oob_score_) < 0.06


@pytest.mark.filterwarnings("ignore:Some inputs do not have OOB scores")
def test_forest_oob_callable_and_errors(cancer):
    X, y = cancer
    from sklearn.metrics import balanced_accuracy_score

    forest = ForestClassifier(
        n_estimators=8, random_state=0, n_jobs=1, oob_score=balanced_accuracy_score
    ).fit(X, y)
    seen = np.ones(len(y), bool)
    pred = forest.classes_[np.argmax(forest.oob_decision_function_[seen], axis=1)]
    assert forest.oob_score_ == pytest.approx(balanced_accuracy_score(y[seen], pred))
    with pytest.raises(ValueError, match="bootstrap"):
        ForestClassifier(n_estimators=3, bootstrap=False, oob_score=True, n_jobs=1).fit(X, y)
    with pytest.raises(ValueError, match="oob_score"):
        ForestClassifier(n_estimators=3, oob_score="yes", n_jobs=1).fit(X, y)
    plain = ForestClassifier(n_estimators=3, n_jobs=1, random_state=0).fit(X, y)
    assert not hasattr(plain, "oob_score_")


@pytest.mark.filterwarnings("ignore:Some inputs do not have OOB scores")
def test_forest_n_jobs_parity(cancer):
    X, y = cancer
    kw = dict(n_estimators=6, random_state=3, oob_score=True)
    one = ForestClassifier(n_jobs=1, **kw).fit(X, y)
    two = ForestClassifier(n_jobs=2, **kw).fit(X, y)
    np.testing.assert_array_equal(one.predict_proba(X), two.predict_proba(X))
    np.testing.assert_array_equal(one.feature_importances_, two.feature_importances_)
    assert one.oob_score_ == two.oob_score_
