"""The Hellinger distance split criterion (HDDT, Cieslak and Chawla 2008): hand-computed values,
the link with DKM, the q > 2 extension, brute-force split searches, class weights, and every
part of the tree API with it."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import offcenter as oc
from offcenter.data.datasets import load
from offcenter.measures.criteria import _hellinger_pair, _hellinger_table, hellinger_split
from offcenter.measures.registry import CRITERIA, MEASURES, get_measure

SQ = np.sqrt


# ------------------------------------------------------------------ the criterion itself


def test_hand_computed_two_classes():
    # columns: class 0 (-), class 1 (+). n+ = 4, n- = 4.
    # d^2 = (sqrt(1/4) - sqrt(3/4))^2 + (sqrt(3/4) - sqrt(1/4))^2 = 2 (sqrt(3)/2 - 1/2)^2
    assert hellinger_split([[3, 1], [1, 3]]) == pytest.approx((SQ(3) - 1) / SQ(2), abs=1e-15)
    # perfect separation: sqrt(2); no separation (same proportions in every child): 0
    assert hellinger_split([[5, 0], [0, 2]]) == pytest.approx(SQ(2), abs=1e-15)
    assert hellinger_split([[4, 2], [2, 1]]) == pytest.approx(0.0, abs=1e-8)
    # n+ = 2 (1, 1), n- = 8 (6, 2): (sqrt(1/2) - sqrt(6/8))^2 + (sqrt(1/2) - sqrt(2/8))^2
    d2 = (SQ(0.5) - SQ(0.75)) ** 2 + (SQ(0.5) - SQ(0.25)) ** 2
    assert hellinger_split([[6, 1], [2, 1]]) == pytest.approx(SQ(d2), abs=1e-15)
    assert SQ(d2) == pytest.approx(0.26105, abs=1e-5)
    # three children
    d2 = (SQ(2 / 4) - SQ(1 / 6)) ** 2 + (SQ(1 / 4) - SQ(2 / 6)) ** 2 + (SQ(1 / 4) - SQ(3 / 6)) ** 2
    assert hellinger_split([[1, 2], [2, 1], [3, 1]]) == pytest.approx(SQ(d2), abs=1e-15)
    # symmetric in the two classes, batch axes
    t = np.array([[[3, 1], [1, 3]], [[6, 1], [2, 1]]])
    np.testing.assert_allclose(hellinger_split(t), hellinger_split(t[..., ::-1]), atol=1e-15)
    assert hellinger_split(t).shape == (2,)


def test_skew_insensitive_two_classes():
    rng = np.random.default_rng(1)
    t = rng.integers(0, 30, size=(500, 3, 2)).astype(float)
    for factor in (0.01, 3.0, 129.0):
        scaled = t * np.array([1.0, factor])
        np.testing.assert_allclose(hellinger_split(scaled), hellinger_split(t), atol=1e-12)


def test_two_classes_is_sqrt_of_twice_the_relative_dkm_gain():
    """d_H^2 = 2 (D(node) - sum_k n_k/n D(child k)) / D(node), D the DKM impurity."""
    rng = np.random.default_rng(2)
    t = rng.integers(0, 25, size=(2000, 4, 2)).astype(float)
    node = t.sum(axis=-2)
    ok = (node > 0).all(axis=-1)
    dkm = oc.Impurity("dkm")
    n = node.sum(axis=-1)
    gain = dkm.of_counts(node) - (t.sum(-1) * dkm.of_counts(t)).sum(-1) / n
    rel = gain[ok] / dkm.of_counts(node[ok])
    np.testing.assert_allclose(hellinger_split(t)[ok] ** 2, 2 * rel, atol=1e-12)


def test_more_classes_is_the_largest_one_vs_rest_distance():
    t = np.array([[2, 0, 1], [0, 3, 1]], float)
    # class 0 vs rest: positives (2, 0) / 2, rest (1, 4) / 5
    d0 = (1 - SQ(1 / 5)) ** 2 + (0 - SQ(4 / 5)) ** 2
    # class 1 vs rest: positives (0, 3) / 3, rest (3, 1) / 4
    d1 = (0 - SQ(3 / 4)) ** 2 + (1 - SQ(1 / 4)) ** 2
    # class 2 vs rest: positives (1, 1) / 2, rest (2, 3) / 5
    d2 = (SQ(1 / 2) - SQ(2 / 5)) ** 2 + (SQ(1 / 2) - SQ(3 / 5)) ** 2
    assert d0 > d1 > d2
    assert hellinger_split(t) == pytest.approx(SQ(d0), abs=1e-15)
    assert SQ(d0) == pytest.approx(1.05146, abs=1e-5)
    # one-vs-rest of each class equals the binary criterion on (rest, class c)
    for c in range(3):
        binary = np.stack([t.sum(axis=1) - t[:, c], t[:, c]], axis=1)
        assert hellinger_split(binary) == pytest.approx(SQ([d0, d1, d2][c]), abs=1e-15)
    # a class absent from the node contributes 0; the rest is the two-class criterion
    t4 = np.array([[3, 1, 0], [1, 3, 0]], float)
    assert hellinger_split(t4) == pytest.approx(hellinger_split(t4[:, :2]), abs=1e-15)


def test_pair_and_table_kernels_agree():
    rng = np.random.default_rng(3)
    for q in (2, 3, 5):
        L = rng.integers(0, 20, size=(3000, q)).astype(float)
        R = rng.integers(0, 20, size=(3000, q)).astype(float)
        L[:10] = 0
        R[10:20, 1:] = 0
        np.testing.assert_allclose(
            _hellinger_pair(L, R), _hellinger_table(np.stack([L, R], axis=1)), atol=1e-15
        )
        # weighted counts
        Lw, Rw = L * rng.random(q), R * rng.random(q)
        np.testing.assert_allclose(
            _hellinger_pair(Lw, Rw), _hellinger_table(np.stack([Lw, Rw], axis=1)), atol=1e-15
        )


@st.composite
def tables(draw):
    k = draw(st.integers(2, 4))
    q = draw(st.integers(2, 4))
    # counts (weights): 0 or at least 0.01; a subnormal count (5e-324) scaled by 0.5 underflows
    # to 0, which changes the table rather than testing the distance
    counts = st.one_of(st.just(0.0), st.floats(1e-2, 50.0))
    return draw(arrays(np.float64, (k, q), elements=counts))


@given(tables(), st.data())
def test_properties(t, data):
    """Bounds, children's order, merging children (the Hellinger distance of each one-vs-rest
    problem cannot grow when children are merged: data processing inequality), and, for two
    classes, invariance to each class's scale."""
    d = hellinger_split(t)
    assert -1e-15 <= d <= SQ(2) + 1e-12
    assert hellinger_split(t[::-1]) == pytest.approx(d, abs=1e-12)
    merged = np.vstack([t[0] + t[1], t[2:]])
    assert hellinger_split(merged) <= d + 1e-12
    if t.shape[1] == 2:
        f = data.draw(arrays(np.float64, 2, elements=st.floats(1e-3, 1e3)))
        assert hellinger_split(t * f) == pytest.approx(d, abs=1e-9)


def test_validation():
    with pytest.raises(ValueError, match="shape"):
        hellinger_split([1, 2])
    with pytest.raises(ValueError, match="non-negative"):
        hellinger_split([[1, -2], [3, 4]])
    with pytest.raises(TypeError):
        hellinger_split("ab")


# ------------------------------------------------------------------ registry and settings


def test_registry_and_setting():
    info = get_measure("hellinger")
    assert "hellinger" in CRITERIA and "hellinger" not in MEASURES  # curves list impurities
    assert info.criterion is not None and not info.off_centerable
    assert "Cieslak" in info.reference and "Hoens" in info.reference
    assert get_measure("HDDT") is info
    s = oc.MeasureSetting("hellinger")
    assert (s.key, s.label) == ("hellinger", "Hellinger distance (HDDT)")
    assert oc.MeasureSetting.parse("hellinger") == s == oc.MeasureSetting.parse("hddt")
    assert s.tree_params()["measure"] == "hellinger"
    with pytest.raises(ValueError, match="theta"):
        oc.MeasureSetting("hellinger", theta="prior")
    with pytest.raises(ValueError, match="theta"):
        oc.MeasureSetting.parse("oc_hellinger")
    with pytest.raises(ValueError, match="alpha"):
        oc.MeasureSetting("hellinger", alpha=0.5)
    with pytest.raises(ValueError, match="alpha"):
        oc.TreeClassifier(measure="hellinger", alpha=1.0).fit([[0], [1]], [0, 1])
    with pytest.raises(ValueError, match="split criterion"):
        oc.association([[3, 1], [1, 3]], "hellinger")
    # its node measure is DKM
    imp = s.impurity([30, 70])
    assert float(imp.of_counts([30, 70])) == pytest.approx(2 * SQ(0.21))


# ------------------------------------------------------------------ brute-force split searches


def _brute_numeric(X, y, w=None, msl=1, q=None):
    """The best numeric root split by brute force: every midpoint of every feature, missing
    values to the heavier child (left on a tie), d_H of the children's (weighted) counts;
    ties (1e-12) go to the first feature, then the smallest threshold."""
    q = int(y.max()) + 1 if q is None else q
    w = np.ones(len(y)) if w is None else w
    best = (-np.inf, None, None)
    for j in range(X.shape[1]):
        x = X[:, j]
        nan = np.isnan(x)
        vals = np.unique(x[~nan])
        for a, b in zip(vals[:-1], vals[1:]):
            t = (a + b) / 2
            left = (x <= t) & ~nan
            right = (x > t) & ~nan
            if w[left].sum() < w[right].sum():
                right = right | nan
            else:
                left = left | nan
            if left.sum() < msl or right.sum() < msl:
                continue
            cl = np.bincount(y[left], weights=w[left], minlength=q)
            cr = np.bincount(y[right], weights=w[right], minlength=q)
            d = hellinger_split(np.stack([cl, cr]))
            if d > best[0] + 1e-12:
                best = (d, j, t)
    return best


def _data(seed, q, n=150, F=3, ties=True, missing=False):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, F))
    if ties:
        X = np.round(X, 1)
    y = np.argmax(X @ rng.normal(size=(F, q)) + rng.normal(size=(n, q)) * 1.5, axis=1)
    y[:q] = np.arange(q)  # every class present
    if missing:
        X[rng.random(X.shape) < 0.1] = np.nan
    return X, y


@pytest.mark.parametrize("q", [2, 3, 4])
@pytest.mark.parametrize("missing", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_numeric_root_split_agrees_with_brute_force(q, missing, seed):
    X, y = _data(seed, q, missing=missing)
    d, j, t = _brute_numeric(X, y)
    clf = oc.TreeClassifier(measure="hellinger", max_depth=1).fit(X, y)
    sp = clf.tree_.nodes[0].split
    assert sp.score == pytest.approx(d, abs=1e-12)
    assert sp.gain == sp.score  # a criterion: the "gain" is its score
    assert (sp.feature_index, sp.threshold) == (j, pytest.approx(t))


@pytest.mark.parametrize("q", [2, 3])
def test_weighted_root_split_agrees_with_brute_force(q):
    X, y = _data(7, q, missing=True)
    w = np.random.default_rng(0).uniform(0.2, 3.0, size=len(y))
    d, j, t = _brute_numeric(X, y, w)
    clf = oc.TreeClassifier(measure="hellinger", max_depth=1).fit(X, y, sample_weight=w)
    sp = clf.tree_.nodes[0].split
    assert sp.score == pytest.approx(d, abs=1e-12)
    assert (sp.feature_index, sp.threshold) == (j, pytest.approx(t))


def test_every_node_of_a_tree_agrees_with_brute_force():
    """Deeper nodes too (the level-wise search with its pure-run shortcut)."""
    X, y = _data(11, 3, n=300, ties=True)
    clf = oc.TreeClassifier(measure="hellinger", max_depth=4, min_samples_leaf=2).fit(X, y)
    checked = 0
    for nd in clf.tree_.nodes:
        if nd.split is None:
            continue
        rows = clf.node_indices(nd.id)
        d, j, t = _brute_numeric(X[rows], y[rows], msl=2, q=3)
        assert nd.split.score == pytest.approx(d, abs=1e-12), nd.id
        assert (nd.split.feature_index, nd.split.threshold) == (j, pytest.approx(t)), nd.id
        checked += 1
    assert checked >= 5


def _categorical_data(seed, q, K, n=400):
    rng = np.random.default_rng(seed)
    cats = np.array([f"c{k:02d}" for k in range(K)])
    codes = rng.integers(0, K, size=n)
    probs = rng.dirichlet(np.ones(q) * 0.7, size=K)
    y = np.array([rng.choice(q, p=probs[c]) for c in codes])
    y[:q] = np.arange(q)
    return pd.DataFrame({"f": cats[codes]}), y, cats, codes


@pytest.mark.parametrize("q", [2, 3])
@pytest.mark.parametrize("K", [5, 12])
def test_binary_grouping_agrees_with_brute_force(q, K):
    """K = 12 > 10 uses the search by ordering categories by class proportion (each class in
    turn for q > 2): exact for the Hellinger criterion, as the brute force over all 2047
    groupings shows."""
    X, y, cats, codes = _categorical_data(K + q, q, K)
    tab = np.zeros((K, q))
    np.add.at(tab, (codes, y), 1)
    best = -np.inf
    for r in range(1, K):
        for left in itertools.combinations(range(K), r):
            if 0 not in left:  # each grouping once
                continue
            mask = np.zeros(K, bool)
            mask[list(left)] = True
            if mask.all():
                continue
            d = hellinger_split(np.stack([tab[mask].sum(0), tab[~mask].sum(0)]))
            best = max(best, d)
    clf = oc.TreeClassifier(measure="hellinger", categorical="binary", max_depth=1).fit(X, y)
    sp = clf.tree_.nodes[0].split
    assert sp.kind == "categorical_binary"
    assert sp.score == pytest.approx(best, abs=1e-12)
    # the engine's grouping scores what it says
    groups = [[list(cats).index(v) for v in g] for g in sp.groups]
    table = np.stack([tab[g].sum(0) for g in groups])
    assert hellinger_split(table) == pytest.approx(sp.score, abs=1e-12)


@pytest.mark.parametrize("q", [2, 3])
def test_multiway_split_scores_the_whole_table(q):
    X, y, cats, codes = _categorical_data(5, q, 6)
    tab = np.zeros((6, q))
    np.add.at(tab, (codes, y), 1)
    clf = oc.TreeClassifier(measure="hellinger", max_depth=1).fit(X, y)
    sp = clf.tree_.nodes[0].split
    assert sp.kind == "categorical"
    assert sp.score == pytest.approx(hellinger_split(tab), abs=1e-12)


def test_missing_categories_go_through_the_same_machinery():
    X, y, cats, codes = _categorical_data(9, 2, 4)
    X.loc[X.index[::7], "f"] = None
    for mode in ("multiway", "binary"):
        clf = oc.TreeClassifier(measure="hellinger", categorical=mode, max_depth=2).fit(X, y)
        assert clf.tree_.nodes[0].split is not None
        assert clf.predict(X).shape == y.shape


# ------------------------------------------------------------------ class weights


def _splits(clf):
    return [
        (nd.id, nd.split.feature, nd.split.threshold, round(nd.split.score, 9))
        for nd in clf.tree_.nodes
        if nd.split is not None
    ]


@pytest.mark.parametrize("cw", [{0: 1, 1: 9}, {0: 0.3, 1: 1}, "balanced"])
def test_class_weights_cancel_with_two_classes(cw):
    df = load("pima")
    X, y = df.iloc[:, :-1], df.iloc[:, -1]
    plain = oc.TreeClassifier(measure="hellinger", max_depth=5).fit(X, y)
    weighted = oc.TreeClassifier(measure="hellinger", max_depth=5, class_weight=cw).fit(X, y)
    assert _splits(plain) == _splits(weighted)
    # Shannon's splits do change with the weights
    sh = oc.TreeClassifier(max_depth=5).fit(X, y)
    assert _splits(sh) != _splits(oc.TreeClassifier(max_depth=5, class_weight=cw).fit(X, y))


def test_class_weights_with_more_classes_keep_each_positive_side():
    """q > 2: weighting class c leaves its own one-vs-rest distance unchanged; the others'
    "rest" pools the weighted class, so they (and the maximum) may change."""
    t = np.array([[5, 1, 2], [1, 4, 6]], float)
    w = np.array([7.0, 1.0, 1.0])

    def ovr(table, c):
        return hellinger_split(np.stack([table.sum(1) - table[:, c], table[:, c]], axis=1))

    assert ovr(t * w, 0) == pytest.approx(ovr(t, 0), abs=1e-12)
    assert ovr(t * w, 1) != pytest.approx(ovr(t, 1), abs=1e-6)


def test_two_classes_hddt_tree_is_the_dkm_tree():
    """d_H^2 = 2 x relative DKM gain: at every node the same ranking of the candidates."""
    for name in ("pima", "breast_cancer", "german_credit"):
        df = load(name)
        X, y = df.iloc[:, :-1], df.iloc[:, -1]
        h = oc.TreeClassifier(measure="hellinger", max_depth=5).fit(X, y)
        d = oc.TreeClassifier(measure="dkm", max_depth=5).fit(X, y)
        hs = [(s[0], s[1], s[2]) for s in _splits(h)]
        ds = [(s[0], s[1], s[2]) for s in _splits(d)]
        assert hs == ds, name
        for a, b in zip(h.tree_.nodes, d.tree_.nodes):
            if a.split is not None:
                assert a.split.score**2 == pytest.approx(2 * b.split.gain / b.impurity, abs=1e-9)


# ------------------------------------------------------------------ the tree API with HDDT


@pytest.mark.parametrize("name", ["pima", "iris", "german_credit", "glass", "ecoli"])
def test_tree_grows_on_bundled_data(name):
    df = load(name)
    X, y = df.iloc[:, :-1], df.iloc[:, -1]
    clf = oc.TreeClassifier(measure="hellinger", max_depth=4, min_samples_leaf=3).fit(X, y)
    assert sum(nd.split is not None for nd in clf.tree_.nodes) >= 3
    assert clf.score(X, y) > 0.75
    assert clf.setting_.key == "hellinger"
    root = clf.tree_.nodes[0]
    # the node measure of an HDDT tree is DKM (documented); split gain = score = d_H
    assert root.impurity == pytest.approx(float(oc.dkm(root.counts / root.counts.sum())))
    assert 0 < root.split.score <= SQ(2) + 1e-12
    assert np.isclose(clf.feature_importances_.sum(), 1.0)
    assert clf.predict_proba(X).shape == (len(y), len(clf.classes_))


def test_inspection_export_and_edits():
    df = load("pima")
    X, y = df.iloc[:, :-1], df.iloc[:, -1]
    clf = oc.TreeClassifier(measure="hellinger", max_depth=3).fit(X, y)
    root = clf.tree_.nodes[0]
    # candidates: the tree's own column is the Hellinger distance of each feature's split
    cand = clf.candidates(0)
    assert "score:hellinger" in cand and "gain:hellinger" in cand
    chosen = cand[cand["chosen"]].iloc[0]
    assert chosen["rank:hellinger"] == 1
    assert chosen["score:hellinger"] == pytest.approx(root.split.score, abs=1e-12)
    assert chosen["gain:hellinger"] == chosen["score:hellinger"]
    # ... and scored by the impurity settings too
    assert np.isfinite(chosen["gain:shannon"])
    # threshold_gains: d_H of every threshold, its maximum at the chosen threshold
    tg = clf.threshold_gains(0, root.split.feature)
    best = tg.loc[tg["gain:hellinger"].idxmax()]
    assert best["threshold"] == pytest.approx(root.split.threshold)
    assert best["gain:hellinger"] == pytest.approx(root.split.score, abs=1e-12)
    # a Shannon tree can be compared with HDDT (its alpha does not apply to a criterion)
    sh = oc.TreeClassifier(max_depth=2, alpha=0.5).fit(X, y)
    tg2 = sh.threshold_gains(0, "glucose", settings=["hellinger", "dkm"])
    assert "gain:hellinger" in tg2 and "score:hellinger" not in tg2
    assert "score:dkm" in tg2  # the tree's alpha applies to the impurity settings
    assert tg2["gain:hellinger"].max() == pytest.approx(
        clf.threshold_gains(0, "glucose")["gain:hellinger"].max(), abs=1e-12
    )
    opt = oc.tree.inspect.own_optima(sh, 0, settings=["hellinger", "dkm"])
    h = opt[opt["setting_key"] == "hellinger"]
    assert h["is_best"].sum() == 1
    assert (h["gain"] == h["score"]).all()
    oo = oc.tree.inspect.own_optima(clf, 0, settings=["shannon"])
    own = oo[(oo["setting_key"] == "hellinger") & oo["is_best"]].iloc[0]
    assert own["feature"] == root.split.feature and own["score"] == pytest.approx(root.split.score)
    # node impurities: the HDDT setting's node measure (DKM)
    imps = oc.tree.inspect.node_impurities(clf, 0, settings=["dkm", "shannon"])
    assert imps["hellinger"] == pytest.approx(root.impurity) == imps["dkm"]
    # export and back
    back = oc.TreeClassifier.from_json(clf.to_json())
    np.testing.assert_array_equal(back.predict(X), clf.predict(X))
    assert back.setting_.key == "hellinger"
    dot = clf.export_graphviz()
    assert dot.startswith("digraph") and root.split.feature in dot
    assert clf.to_text()
    # edits: force a split, regrow a subtree, prune
    forced = clf.with_split(0, "age", threshold=30.5)
    assert forced.tree_.nodes[0].split.feature == "age"
    sc = forced.tree_.nodes[0].split.score
    assert 0 < sc < root.split.score
    path = clf.cost_complexity_pruning_path(X, y)
    assert np.all(np.diff(path.ccp_alphas) >= 0)
    assert clf.prune(path.ccp_alphas[-1]).tree_.nodes[0].split is None


def test_forest_with_hellinger():
    df = load("pima")
    X, y = df.iloc[:, :-1], df.iloc[:, -1]
    f = oc.ForestClassifier(n_estimators=5, measure="hellinger", random_state=0, n_jobs=1)
    f.fit(X, y)
    assert f.score(X, y) > 0.8
    assert f.predict_proba(X).shape == (len(y), 2)


@pytest.mark.parametrize("exponent", [-300, -100, -20, -6, 6, 20, 100, 300])
def test_class_weights_up_to_1e300_leave_the_two_class_tree_unchanged(exponent):
    """Two classes: class weights cancel in the Hellinger distance, so the tree at any weight
    ratio is the unweighted tree, gains within 1e-15. Before issue 35's fix (the other class
    was the total minus the class) the gains were 5e-11 off at 1e6 and the root was a leaf
    from 1e20 on."""
    rng = np.random.default_rng(1)
    for _ in range(3):
        y = rng.integers(0, 2, 60)
        X = pd.DataFrame(
            np.round(rng.normal(size=(60, 3)) + 0.7 * y[:, None], 1), columns=list("abc")
        )
        base = oc.TreeClassifier(measure="hellinger", max_depth=4).fit(X, y)
        cw = {0: 1.0, 1: 10.0**exponent}
        tree = oc.TreeClassifier(measure="hellinger", max_depth=4, class_weight=cw).fit(X, y)
        assert len(tree.tree_) == len(base.tree_)
        for a, b in zip(base.tree_.nodes, tree.tree_.nodes):
            assert (a.split is None) == (b.split is None)
            if a.split is not None:
                assert (a.split.feature, a.split.threshold) == (b.split.feature, b.split.threshold)
                assert abs(a.split.gain - b.split.gain) <= 1e-15
