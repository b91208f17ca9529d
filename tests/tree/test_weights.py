"""Sample and class weights of TreeClassifier: weighted counts everywhere, exactly."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from offcenter import TreeClassifier
from tests.tree.tree_fitting import random_tree_data

SETTINGS = [
    {},
    {"measure": "gini"},
    {"theta": "prior"},
    {"measure": "gini", "theta": "prior"},
    {"measure": "asymmetric", "theta": "prior"},
    {"measure": "asymmetric", "theta": "prior", "consistent": True},
    {"measure": "daroczy", "beta": 3.0},
    {"theta": "prior", "alpha": 0.5},
]


def _mixed_data(rng, n=120, q=3):
    """Numeric (with NaN and ties) and categorical (with None) columns, q classes."""
    y = rng.integers(0, q, n)
    X = pd.DataFrame(
        {
            "a": np.round(rng.normal(size=n) + y, 1),
            "b": np.where(rng.random(n) < 0.1, np.nan, np.round(rng.normal(size=n) - y, 1)),
            "c": rng.choice(["u", "v", "w", None], size=n),
            "d": np.round(rng.normal(size=n), 0),
        }
    )
    return X, y


def _structure(clf):
    out = []
    for nd in clf.tree_.nodes:
        sp = nd.split
        out.append(
            (
                nd.parent,
                nd.children,
                None
                if sp is None
                else (sp.feature, sp.kind, sp.threshold, sp.groups, sp.missing_child),
            )
        )
    return out


@pytest.mark.parametrize("kw", SETTINGS, ids=lambda kw: str(kw))
def test_unit_weights_are_the_unweighted_tree(kw):
    X, y = _mixed_data(np.random.default_rng(0))
    plain = TreeClassifier(**kw).fit(X, y)
    ones = TreeClassifier(**kw).fit(X, y, sample_weight=np.ones(len(y)))
    assert ones.to_dict()["nodes"] == plain.to_dict()["nodes"]
    d = {c: 1.0 for c in np.unique(y)}
    cw = TreeClassifier(class_weight=d, **kw).fit(X, y)
    assert cw.to_dict()["nodes"] == plain.to_dict()["nodes"]


@pytest.mark.parametrize("kw", SETTINGS, ids=lambda kw: str(kw))
@pytest.mark.parametrize("seed", [1, 2])
def test_integer_weights_are_row_duplication(kw, seed):
    rng = np.random.default_rng(seed)
    X, y = _mixed_data(rng)
    k = rng.integers(0, 4, len(y))  # 0: the row is left out
    weighted = TreeClassifier(**kw).fit(X, y, sample_weight=k)
    rows = np.repeat(np.arange(len(y)), k)
    dup = TreeClassifier(**kw).fit(X.iloc[rows].reset_index(drop=True), y[rows])
    assert _structure(weighted) == _structure(dup)
    for a, b in zip(weighted.tree_.nodes, dup.tree_.nodes):
        np.testing.assert_allclose(a.counts, b.counts, rtol=0, atol=1e-9)
        assert a.impurity == pytest.approx(b.impurity, abs=1e-12)
        if a.split is not None:
            assert a.split.gain == pytest.approx(b.split.gain, abs=1e-12)
            assert a.split.score == pytest.approx(b.split.score, abs=1e-12)
        assert a.prediction == b.prediction
    np.testing.assert_allclose(weighted.predict_proba(X), dup.predict_proba(X), atol=1e-12)
    np.testing.assert_allclose(weighted.prior_, dup.prior_, atol=1e-12)


def _brute_best(clf, node, X, y, w):
    """Best gain over every threshold of every numeric feature at a node, from the weighted
    class counts and Impurity.of_counts (no engine code), with min_samples_leaf rows."""
    imp = clf.impurity_
    rows = clf.node_indices(node.id)
    q = len(clf.classes_)
    T = np.bincount(y[rows], weights=w[rows], minlength=q)
    best = -np.inf
    for j in range(X.shape[1]):
        v = X[rows, j]
        vals = np.unique(v)
        for a, b in zip(vals[:-1], vals[1:]):
            left = v <= (a + b) / 2 if (a + b) / 2 < b else v <= a
            if left.sum() < clf.min_samples_leaf or (~left).sum() < clf.min_samples_leaf:
                continue
            L = np.bincount(y[rows][left], weights=w[rows][left], minlength=q)
            R = T - L
            g = (
                imp.of_counts(T)
                - (L.sum() * imp.of_counts(L) + R.sum() * imp.of_counts(R)) / T.sum()
            )
            best = max(best, float(g))
    return best


@pytest.mark.parametrize(
    "kw", SETTINGS[:6] + [{"theta": "prior", "min_samples_leaf": 3}], ids=lambda kw: str(kw)
)
def test_weighted_splits_are_the_best_by_brute_force(kw):
    rng = np.random.default_rng(5)
    X, y, _ = random_tree_data(rng, 4, 150, 3, 0.8, 1, 0)
    w = rng.uniform(0.1, 5.0, len(y))
    clf = TreeClassifier(max_depth=3, **kw).fit(X, y, sample_weight=w)
    imp = clf.impurity_
    internal = 0
    for nd in clf.tree_.nodes:
        rows = clf.node_indices(nd.id)
        np.testing.assert_allclose(
            nd.counts, np.bincount(y[rows], weights=w[rows], minlength=4), atol=1e-9
        )
        assert nd.n == len(rows)
        assert nd.impurity == pytest.approx(float(imp.of_counts(nd.counts)), abs=1e-12)
        if nd.split is None:
            continue
        internal += 1
        kids = [clf.tree_.nodes[c] for c in nd.children]
        g = nd.impurity - sum(k.weighted_n * k.impurity for k in kids) / nd.weighted_n
        assert nd.split.gain == pytest.approx(g, abs=1e-10)
        if "alpha" not in kw:
            assert nd.split.gain == pytest.approx(_brute_best(clf, nd, X, y, w), abs=1e-10)
        # the inspection sees the same weighted candidates
        cand = clf.candidates(nd.id)
        assert cand[f"gain:{imp.key}"].max() == pytest.approx(nd.split.gain, abs=1e-10)
    assert internal >= 3


def test_class_weight_balanced_and_dict():
    rng = np.random.default_rng(3)
    X, y = _mixed_data(rng, n=200)
    y = np.where(rng.random(200) < 0.7, 0, y)  # imbalanced
    bal = TreeClassifier(class_weight="balanced", max_depth=2).fit(X, y)
    counts = np.bincount(y)
    expect = len(y) / (3 * counts)
    np.testing.assert_allclose(bal.tree_.nodes[0].counts, counts * expect)
    np.testing.assert_allclose(bal.prior_, np.full(3, 1 / 3))
    d = {0: 0.5, 2: 4.0}
    sw = rng.uniform(0.5, 2, len(y))
    a = TreeClassifier(class_weight=d).fit(X, y, sample_weight=sw)
    b = TreeClassifier().fit(X, y, sample_weight=sw * np.array([0.5, 1.0, 4.0])[y])
    assert a.to_dict()["nodes"] == b.to_dict()["nodes"]
    # JSON keeps the dict (with its integer keys)
    back = TreeClassifier.from_json(a.to_json())
    assert back.class_weight == d
    np.testing.assert_array_equal(back.predict(X), a.predict(X))


def test_weighted_edits_and_inspection():
    rng = np.random.default_rng(4)
    X, y = _mixed_data(rng)
    w = rng.uniform(0.2, 3.0, len(y))
    clf = TreeClassifier(theta="prior", max_depth=3).fit(X, y, sample_weight=w)
    root = clf.tree_.nodes[0]
    again = clf.with_split(
        0,
        root.split.feature,
        threshold=root.split.threshold,
        groups=None if root.split.threshold is not None else [list(g) for g in root.split.groups],
    )
    assert len(again.tree_) == len(clf.tree_)
    for a, b in zip(again.tree_.nodes, clf.tree_.nodes):
        np.testing.assert_allclose(a.counts, b.counts, rtol=1e-12)
        assert (a.split is None) == (b.split is None)
        if a.split is not None:
            assert (a.split.feature, a.split.threshold) == (b.split.feature, b.split.threshold)
            assert a.split.gain == pytest.approx(b.split.gain, abs=1e-12)
    forced = clf.with_split(0, "d", threshold=0.5)
    kid = forced.tree_.nodes[forced.tree_.nodes[0].children[0]]
    rows = forced.node_indices(kid.id)
    np.testing.assert_allclose(kid.counts, np.bincount(y[rows], weights=w[rows], minlength=3))
    regrown = clf.regrow(0, measure="gini", theta=None)
    ref = TreeClassifier(theta="prior", max_depth=3, measure="gini").fit(X, y, sample_weight=w)
    assert _structure(regrown) == _structure(ref)
    tg = clf.threshold_gains(0, "a")
    assert {"n_left", "weight_left", "weight_right"} <= set(tg.columns)
    assert (tg["n_left"] + tg["n_right"] == len(y)).all()
    assert clf.node_impurities(0)[clf.impurity_.key] == pytest.approx(root.impurity)
    leaf = clf.make_leaf(0)
    assert leaf.tree_.nodes[0].n == len(y)
    assert leaf.tree_.nodes[0].weighted_n == pytest.approx(w.sum(), rel=1e-14)


def test_min_weight_fraction_leaf():
    rng = np.random.default_rng(6)
    X, y = _mixed_data(rng)
    w = rng.uniform(0.1, 3.0, len(y))
    clf = TreeClassifier(min_weight_fraction_leaf=0.1).fit(X, y, sample_weight=w)
    for nd in clf.tree_.nodes:
        assert nd.weighted_n >= 0.1 * w.sum() - 1e-9
    plain = TreeClassifier(min_weight_fraction_leaf=0.1).fit(X, y)
    assert min(nd.n for nd in plain.tree_.nodes) >= 12
    with pytest.raises(ValueError, match="min_weight_fraction_leaf"):
        TreeClassifier(min_weight_fraction_leaf=0.7).fit(X, y)


def test_bad_weights():
    X, y = _mixed_data(np.random.default_rng(0), n=20)
    with pytest.raises(ValueError, match="[Nn]egative"):
        TreeClassifier().fit(X, y, sample_weight=-np.ones(20))
    with pytest.raises(ValueError):
        TreeClassifier().fit(X, y, sample_weight=np.ones(3))
    with pytest.raises(ValueError, match="class_weight"):
        TreeClassifier(class_weight="even").fit(X, y)
    with pytest.raises(ValueError, match="weight"):
        TreeClassifier().fit(X, y, sample_weight=np.zeros(20))
