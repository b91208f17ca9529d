"""The bagged forest: determinism, bootstrap, votes, class alignment, parameters."""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from offcenter.data.datasets import load
from offcenter.ensemble.forest import ForestClassifier


@pytest.fixture(scope="module")
def ecoli():
    df = load("ecoli")
    return df.drop(columns="class"), df["class"]


def test_deterministic_given_random_state(ecoli):
    X, y = ecoli
    a = ForestClassifier(n_estimators=6, max_depth=3, random_state=3).fit(X, y)
    b = ForestClassifier(n_estimators=6, max_depth=3, random_state=3).fit(X, y)
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    assert all(np.array_equal(s, t) for s, t in zip(a.samples_, b.samples_))
    c = ForestClassifier(n_estimators=6, max_depth=3, random_state=4).fit(X, y)
    assert not np.array_equal(a.predict_proba(X), c.predict_proba(X))


def test_stratified_bootstrap_keeps_class_counts(ecoli):
    X, y = ecoli
    f = ForestClassifier(n_estimators=4, max_depth=2, random_state=0).fit(X, y)
    counts = y.value_counts().sort_index().to_numpy()
    for idx in f.samples_:
        assert len(idx) == len(y)
        np.testing.assert_array_equal(y.iloc[idx].value_counts().sort_index().to_numpy(), counts)
        assert len(np.unique(idx)) < len(y)  # drawn with replacement
    plain = ForestClassifier(n_estimators=2, stratified=False, max_depth=2, random_state=0).fit(
        X, y
    )
    assert all(len(idx) == len(y) for idx in plain.samples_)
    whole = ForestClassifier(n_estimators=2, bootstrap=False, max_depth=2, random_state=0).fit(X, y)
    assert all(np.array_equal(idx, np.arange(len(y))) for idx in whole.samples_)


def test_proba_is_average_and_vote_is_majority(ecoli):
    X, y = ecoli
    f = ForestClassifier(n_estimators=5, max_depth=3, random_state=1).fit(X, y)
    mean = np.mean([t.predict_proba(X) for t in f.estimators_], axis=0)
    np.testing.assert_allclose(f.predict_proba(X), mean)
    votes = f.vote_counts(X)
    assert votes.sum(axis=1).tolist() == [5] * len(X)
    pred = f.predict(X)
    j = np.searchsorted(f.classes_, pred)
    assert np.all(votes[np.arange(len(X)), j] == votes.max(axis=1))
    assert f.score(X, y) > 0.8


def test_theta_prior_resolved_once_on_training_set(ecoli):
    X, y = ecoli
    f = ForestClassifier(
        n_estimators=3, measure="shannon", theta="prior", max_depth=2, random_state=0
    ).fit(X, y)
    prior = y.value_counts(normalize=True).sort_index().to_numpy()
    np.testing.assert_allclose(f.theta_, prior)
    for t in f.estimators_:
        np.testing.assert_allclose(t.theta_, prior)
        assert t.impurity_.off_centered


def test_max_features_resolution(ecoli):
    X, y = ecoli  # 7 features
    assert ForestClassifier(n_estimators=1, random_state=0).fit(X, y).max_features_ == 2
    assert (
        ForestClassifier(n_estimators=1, max_features="log2", random_state=0)
        .fit(X, y)
        .max_features_
        == 2
    )
    assert (
        ForestClassifier(n_estimators=1, max_features=0.5, random_state=0).fit(X, y).max_features_
        == 3
    )
    assert (
        ForestClassifier(n_estimators=1, max_features=None, random_state=0).fit(X, y).max_features_
        is None
    )
    with pytest.raises(ValueError, match="max_features"):
        ForestClassifier(n_estimators=1, max_features="half").fit(X, y)
    with pytest.raises(ValueError, match="n_estimators"):
        ForestClassifier(n_estimators=0).fit(X, y)


def test_params_and_unfitted():
    f = ForestClassifier(n_estimators=3, measure="gini")
    assert f.get_params()["measure"] == "gini"
    assert f.set_params(max_depth=2).max_depth == 2
    with pytest.raises(ValueError, match="Invalid parameter 'colour'"):
        f.set_params(colour=1)
    with pytest.raises(ValueError, match="not fitted"):
        f.predict(pd.DataFrame({"a": [1]}))
    assert repr(f) == "ForestClassifier(max_depth=2, measure='gini', n_estimators=3)"
    assert clone(f).get_params() == f.get_params()


def test_class_weight_is_passed_to_the_trees(ecoli):
    X, y = ecoli
    f = ForestClassifier(
        n_estimators=3, max_depth=2, class_weight="balanced", random_state=0, n_jobs=1
    ).fit(X, y)
    # "balanced": the whole training set's weights, the same dict for every tree
    counts = y.value_counts()
    want = {c: len(y) / (len(counts) * k) for c, k in counts.items()}
    for t in f.estimators_:
        assert t.class_weight.keys() == want.keys()
        assert all(t.class_weight[c] == pytest.approx(want[c], rel=1e-15) for c in want)
    plain = ForestClassifier(n_estimators=3, max_depth=2, random_state=0, n_jobs=1).fit(X, y)
    minority = y.value_counts().idxmin()
    # weighting the minority class up makes the forest predict it at least as often
    assert np.sum(f.predict(X) == minority) >= np.sum(plain.predict(X) == minority)


def test_random_state_instances_and_single_class(ecoli):
    X, y = ecoli
    a = ForestClassifier(
        n_estimators=2, max_depth=2, n_jobs=1, random_state=np.random.RandomState(5)
    ).fit(X, y)
    b = ForestClassifier(
        n_estimators=2, max_depth=2, n_jobs=1, random_state=np.random.RandomState(5)
    ).fit(X, y)
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    with pytest.raises(ValueError, match="single class"):
        ForestClassifier(n_estimators=2).fit(X, ["a"] * len(X))


def test_classes_missing_from_a_plain_bootstrap_are_aligned():
    # 2 examples of class "z": plain bootstrap samples often miss it
    X = pd.DataFrame({"a": np.arange(30.0)})
    y = np.array(["x"] * 14 + ["y"] * 14 + ["z"] * 2)
    f = ForestClassifier(n_estimators=8, stratified=False, max_features=None, random_state=0).fit(
        X, y
    )
    proba = f.predict_proba(X)
    assert proba.shape == (30, 3)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert set(f.predict(X)) <= {"x", "y", "z"}


def test_feature_subsets_skip_features_constant_in_the_node():
    """max_features counts the features that vary in the node (scikit-learn's rule): with
    one feature drawn per node and the other constant, every tree still splits on the
    informative one and ends in pure leaves (drawing the constant feature made half the
    roots impure leaves)."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=200)
    X = np.column_stack([np.ones(200), x, np.zeros(200)])
    y = (x > 0.3).astype(int)
    forest = ForestClassifier(n_estimators=20, max_features=1, random_state=0, n_jobs=1)
    forest.fit(X, y)
    for tree in forest.estimators_:
        leaves = [tree.tree_.nodes[i] for i in tree.tree_.leaves]
        assert all((np.asarray(leaf.counts) > 0).sum() == 1 for leaf in leaves)
        assert tree.tree_.nodes[tree.tree_.root].split is not None
    assert (forest.predict(X) == y).all()


def test_balanced_bootstrap_draws_every_class_equally(ecoli):
    X, y = ecoli
    n, q = len(y), y.nunique()
    f = ForestClassifier(n_estimators=3, bootstrap="balanced", max_depth=2, random_state=0)
    f.fit(X, y)
    want = [n // q + (1 if c < n % q else 0) for c in range(q)]
    for idx in f.samples_:
        assert len(idx) == n
        np.testing.assert_array_equal(y.iloc[idx].value_counts().sort_index().to_numpy(), want)
    # theta = "prior" stays the training set's prior, not the balanced sample's
    g = ForestClassifier(
        n_estimators=2, bootstrap="balanced", measure="shannon", theta="prior", max_depth=2
    ).fit(X, y)
    np.testing.assert_allclose(g.theta_, y.value_counts(normalize=True).sort_index().to_numpy())
    # not stratified: a multinomial draw, each class about n / q rows over many trees
    m = ForestClassifier(
        n_estimators=40, bootstrap="balanced", stratified=False, max_depth=1, random_state=1
    ).fit(X, y)
    shares = np.mean(
        [y.iloc[idx].value_counts(normalize=True).sort_index() for idx in m.samples_], 0
    )
    np.testing.assert_allclose(shares, 1 / q, atol=0.02)
    assert any(
        not np.array_equal(y.iloc[idx].value_counts().sort_index().to_numpy(), want)
        for idx in m.samples_
    )


def test_balanced_bootstrap_lifts_minority_recall():
    rng = np.random.default_rng(0)
    n = 2000
    X = pd.DataFrame(rng.normal(size=(n, 4)), columns=list("abcd"))
    y = ((X["a"] + 0.8 * X["b"] + rng.normal(scale=1.0, size=n)) > 2.6).astype(int)
    assert 0.02 < y.mean() < 0.08
    recall = {}
    for boot in (True, "balanced"):
        f = ForestClassifier(n_estimators=15, bootstrap=boot, max_depth=4, random_state=0)
        pred = f.fit(X.iloc[:1000], y.iloc[:1000]).predict(X.iloc[1000:])
        truth = y.iloc[1000:].to_numpy()
        recall[boot] = (pred[truth == 1] == 1).mean()
    assert recall["balanced"] > recall[True] + 0.2


@pytest.mark.parametrize("bad", ["yes", 2, None, "Balanced"])
def test_bootstrap_values_are_checked(ecoli, bad):
    X, y = ecoli
    with pytest.raises(ValueError, match="bootstrap must be True, False or 'balanced'"):
        ForestClassifier(n_estimators=2, bootstrap=bad).fit(X, y)


def test_plain_bootstrap_missing_the_minority_is_drawn_again():
    """One minority row among 60: about a third of plain bootstrap samples miss it; each is
    drawn again, so every tree sees both classes (no tree refuses its sample)."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=60)})
    y = np.array(["n"] * 59 + ["p"])
    f = ForestClassifier(
        n_estimators=30, stratified=False, class_weight="balanced_subsample", random_state=0
    ).fit(X, y)
    assert all(set(y[idx]) == {"n", "p"} for idx in f.samples_)
    assert f.predict(X.iloc[[59]])[0] == "p"


def test_tree_input_is_x_as_the_trees_were_fitted():
    """``tree_input``: the public way to read a fitted forest's trees one by one."""
    from sklearn.exceptions import NotFittedError

    from offcenter.ensemble.forest import tree_input

    rng = np.random.default_rng(0)
    X = pd.DataFrame({"u": rng.normal(size=60), "v": rng.normal(size=60)})
    y = np.where(X["u"] + X["v"] > 0, "a", "b")
    forest = ForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    with pytest.warns(UserWarning, match="valid feature names"):  # as predict warns
        named = tree_input(forest, X.to_numpy())
    assert isinstance(named, pd.DataFrame) and list(named.columns) == ["u", "v"]
    mean = np.mean([t.predict_proba(named) for t in forest.estimators_], axis=0)
    np.testing.assert_allclose(mean, forest.predict_proba(X))
    plain = ForestClassifier(n_estimators=2, random_state=0).fit(X.to_numpy(), y)
    with pytest.warns(UserWarning, match="fitted without feature names"):
        assert isinstance(tree_input(plain, X), np.ndarray)
    with pytest.raises(ValueError), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        tree_input(forest, X.to_numpy()[:, :1])
    with pytest.raises(NotFittedError):
        tree_input(ForestClassifier(), X)


@pytest.mark.parametrize(
    "kw",
    [
        {"bootstrap": True, "stratified": False},
        {"bootstrap": True, "max_samples": 0.5, "measure": "gini", "min_samples_leaf": 2},
        {"bootstrap": "balanced", "measure": "dkm"},
        {"bootstrap": False, "max_features": 2},
        {"class_weight": "balanced", "theta": "prior"},  # weighted rows: their own sorts
    ],
)
def test_trees_on_the_forests_presorted_columns_are_the_trees_own(kw, monkeypatch):
    """Each tree's sample sorted from the forest's one sort of each column (ties in the
    whole data's order, rows repeated by the bootstrap in a run) grows the tree that sorting
    its own sample grows: ties, missing values, repeated rows, integer columns. The forest
    presorts only without a bootstrap (``_presorts``); here its trees take the orders under
    every setting, the bootstrap's too (each tree then keeps its sample's distinct rows)."""
    from offcenter.ensemble import forest as fm

    monkeypatch.setattr(fm, "_presorts", lambda bootstrap, params: fm.PRESORT)

    rng = np.random.default_rng(7)
    n = 700
    y = rng.choice(3, size=n, p=[0.6, 0.3, 0.1])
    X = rng.normal(size=(n, 6)) + 0.8 * rng.normal(size=(3, 6))[y]
    X[:, 0] = np.round(X[:, 0])  # ties
    X[:, 2] = np.round(X[:, 2] * 2) / 2
    X[rng.random(n) < 0.1, 3] = np.nan
    params = {"n_estimators": 4, "random_state": 3, "n_jobs": 1, "min_gain": -np.inf, **kw}
    fast = ForestClassifier(**params).fit(X, y)
    monkeypatch.setattr(fm, "PRESORT", False)
    own = ForestClassifier(**params).fit(X, y)
    for a, b in zip(fast.estimators_, own.estimators_):
        assert a.to_dict()["nodes"] == b.to_dict()["nodes"]
    ints = ForestClassifier(**params).fit(np.round(X[:, :3] * 3).astype(np.int64), y)
    monkeypatch.setattr(fm, "PRESORT", True)
    ints2 = ForestClassifier(**params).fit(np.round(X[:, :3] * 3).astype(np.int64), y)
    for a, b in zip(ints.estimators_, ints2.estimators_):
        assert a.to_dict()["nodes"] == b.to_dict()["nodes"]


def test_the_forest_presorts_only_for_every_row_unweighted():
    from offcenter.ensemble.forest import _presorts

    assert _presorts(False, {"class_weight": None})
    assert not _presorts(True, {"class_weight": None})
    assert not _presorts("balanced", {"class_weight": None})
    assert not _presorts(False, {"class_weight": "balanced"})


def test_sample_orders_sort_the_sample():
    from offcenter.ensemble.forest import _sample_orders, _whole_orders

    rng = np.random.default_rng(1)
    X = np.round(rng.normal(size=(300, 4)), 1)
    X[rng.random(300) < 0.1, 1] = np.nan
    idx = np.sort(rng.integers(0, 300, 300))
    got = _sample_orders(_whole_orders(X), idx)
    Xi = X[idx]
    for j in range(4):
        assert sorted(got[j].tolist()) == list(range(300))
        np.testing.assert_array_equal(Xi[got[j], j], np.sort(Xi[:, j]))  # NaN last
    assert _sample_orders(_whole_orders(X), idx[::-1]) is None
