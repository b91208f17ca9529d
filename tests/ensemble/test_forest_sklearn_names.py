"""scikit-learn's forest names on ForestClassifier: criterion, max_samples, warm_start,
ccp_alpha (and min_impurity_decrease, max_leaf_nodes), predict_log_proba, apply and
decision_path, with scikit-learn's shapes (compared with RandomForestClassifier's)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.ensemble import RandomForestClassifier

from offcenter import ForestClassifier
from offcenter.ensemble.forest import _class_sizes, _n_bootstrap


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


def _forest(**kw):
    return ForestClassifier(n_estimators=kw.pop("n_estimators", 4), random_state=0, n_jobs=1, **kw)


def test_criterion_sets_every_trees_measure(iris):
    X, y = iris
    f = _forest(criterion="gini").fit(X, y)
    assert {t.setting_.key for t in f.estimators_} == {"gini"} and f.setting_.key == "gini"
    assert _forest(criterion="entropy").fit(X, y).setting_.key == "shannon"
    with pytest.raises(ValueError, match="unknown measure 'mse'"):
        _forest(criterion="mse").fit(X, y)


def test_ccp_alpha_prunes_every_tree(iris):
    X, y = iris
    full = _forest().fit(X, y)
    pruned = _forest(ccp_alpha=0.05).fit(X, y)
    for a, b in zip(full.estimators_, pruned.estimators_):
        assert b.get_n_leaves() <= a.get_n_leaves()
        assert b.tree_.node_count == a.prune(0.05).tree_.node_count
    assert sum(t.get_n_leaves() for t in pruned.estimators_) < sum(
        t.get_n_leaves() for t in full.estimators_
    )
    small = _forest(max_leaf_nodes=3).fit(X, y)
    assert max(t.get_n_leaves() for t in small.estimators_) <= 3


@pytest.mark.parametrize(
    "bootstrap,stratified", [(True, True), (True, False), ("balanced", True), ("balanced", False)]
)
def test_max_samples_sizes_each_sample(iris, bootstrap, stratified):
    X, y = iris
    for ms, size in [(0.2, 30), (17, 17), (None, 150)]:
        f = _forest(max_samples=ms, bootstrap=bootstrap, stratified=stratified).fit(X, y)
        assert {len(s) for s in f.samples_} == {size}, ms


def test_max_samples_rules():
    assert _n_bootstrap(None, 10, True) == 10
    assert _n_bootstrap(0.25, 10, True) == 2  # round(2.5) as scikit-learn
    assert _n_bootstrap(0.01, 10, True) == 1
    for bad in [0, -1, 0.0, 1.5, "half", True]:
        with pytest.raises(ValueError, match="max_samples"):
            _n_bootstrap(bad, 10, True)
    with pytest.raises(ValueError, match="bootstrap=False"):
        _n_bootstrap(5, 10, False)
    assert _class_sizes([90, 10], 100) == [90, 10]
    assert _class_sizes([90, 10], 50) == [45, 5]
    assert _class_sizes([90, 10], 5) == [5, 1]  # rounded 4.5/0.5: remainders, then >= 1
    assert _class_sizes([2, 2, 2], 4) == [2, 1, 1]


def test_warm_start_grows_the_missing_trees(iris):
    X, y = iris
    whole = _forest(n_estimators=6).fit(X, y)
    f = _forest(n_estimators=3, warm_start=True).fit(X, y)
    first = list(f.estimators_)
    f.set_params(n_estimators=6).fit(X, y)
    assert f.estimators_[:3] == first  # the same objects, kept
    np.testing.assert_array_equal(f.predict_proba(X), whole.predict_proba(X))
    assert [s.tolist() for s in f.samples_] == [s.tolist() for s in whole.samples_]
    with pytest.warns(UserWarning, match="without increasing n_estimators"):
        f.fit(X, y)
    with pytest.raises(ValueError, match="must be larger or equal"):
        f.set_params(n_estimators=2).fit(X, y)
    # random_state=None: the steps share one seed
    g = ForestClassifier(n_estimators=2, warm_start=True, n_jobs=1).fit(X, y)
    g.set_params(n_estimators=4).fit(X, y)
    assert len(g.estimators_) == 4 and len({id(t) for t in g.estimators_}) == 4


def test_warm_start_with_oob(iris):
    X, y = iris
    f = _forest(n_estimators=3, warm_start=True, oob_score=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # few trees: rows without OOB scores
        f.fit(X, y)
        f.set_params(n_estimators=20).fit(X, y)
        whole = _forest(n_estimators=20, oob_score=True).fit(X, y)
    np.testing.assert_array_equal(f.oob_decision_function_, whole.oob_decision_function_)
    assert f.oob_score_ == whole.oob_score_


def test_apply_decision_path_log_proba_shapes_as_sklearn():
    X, y = load_breast_cancer(return_X_y=True)
    ours = _forest(n_estimators=5, max_depth=4).fit(X, y)
    theirs = RandomForestClassifier(n_estimators=5, max_depth=4, random_state=0).fit(X, y)
    leaves = ours.apply(X)
    assert leaves.shape == theirs.apply(X).shape == (len(X), 5)
    for k, tree in enumerate(ours.estimators_):
        assert leaves[:, k].tolist() == tree.apply(X).tolist()
    ind, ptr = ours.decision_path(X)
    ind_sk, ptr_sk = theirs.decision_path(X)
    assert sp.issparse(ind) and ind.format == ind_sk.format == "csr"
    assert ptr.shape == ptr_sk.shape == (6,)
    assert ptr.tolist() == [0, *np.cumsum([t.tree_.node_count for t in ours.estimators_])]
    assert ind.shape == (len(X), ptr[-1])
    for k, tree in enumerate(ours.estimators_):
        block = ind[:, ptr[k] : ptr[k + 1]]
        assert (block != tree.decision_path(X)).nnz == 0
        # each row ends in its leaf
        assert block[np.arange(len(X)), leaves[:, k]].all()
    lp = ours.predict_log_proba(X)
    with np.errstate(divide="ignore"):
        np.testing.assert_array_equal(lp, np.log(ours.predict_proba(X)))
    assert lp.shape == theirs.predict_log_proba(X).shape
