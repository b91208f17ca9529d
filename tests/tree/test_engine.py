"""Tree engine: kernels, measures, theta, categorical splits, missing values, stopping, ties."""

from __future__ import annotations

import itertools
from unittest import mock

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from offcenter import Impurity, TreeClassifier, comparison_settings, measure_names
from offcenter.tree.kernels import CountKernel
from offcenter.tree.numeric import numeric_positions
from offcenter.tree.records import GrowthParams
from offcenter.tree.scoring import make_scorer
from tests.tree.tree_fitting import fit, random_tree_data


def _settings_list(q):
    rng = np.random.default_rng(q)
    theta = rng.dirichlet(np.ones(q) * 3)
    out = []
    for name, kw in [
        ("shannon", {}),
        ("gini", {}),
        ("misclassification", {}),
        ("daroczy", {"beta": 0.5}),
        ("daroczy", {"beta": 2.0}),
        ("daroczy", {"beta": 0.0}),
        ("rank_diversity", {"rho": 0.0}),
        ("rank_diversity", {"rho": 1.5}),
        ("dkm", {}),
    ]:
        for th in (None, theta, np.full(q, 1.0 / q)):
            out.append(Impurity(name, theta=th, **kw))
    out.append(Impurity("asymmetric", theta=theta))
    out.append(Impurity("asymmetric", theta=theta, consistent=True))
    return out


@pytest.mark.parametrize("q", [2, 3, 5])
@pytest.mark.parametrize("scale", [30, 200_000])
def test_count_kernels_agree_with_reference(q, scale):
    rng = np.random.default_rng(scale + q)
    c = rng.integers(0, scale, size=(3000, q))
    c[:5] = 0
    c[5:20, 1:] = 0
    c[20:30, :1] = 0
    n = c.sum(axis=1)
    for imp in _settings_list(q):
        k = CountKernel(imp, q, int(n.max()))
        np.testing.assert_allclose(
            k(c, n), imp.of_counts(c), rtol=0, atol=1e-12, err_msg=f"{imp!r} via {type(k).__name__}"
        )


def _blobs(n=300, q=2, F=4, seed=0, ties=False):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, F))
    if ties:
        X = np.round(X, 1)
    w = rng.normal(size=(F, q))
    y = np.argmax(X @ w + rng.normal(size=(n, q)), axis=1)
    return X, y


def _brute_best(X, y, imp, min_samples_leaf=1):
    """Best numeric split of the root by brute force with the reference Impurity: every
    midpoint of every feature, the first of the largest gains (by more than 1e-12) kept. The
    class counts left of all the midpoints of a feature at once (one row a midpoint: the rows
    at or below it, a 0/1 matrix, times the classes' indicators), the impurities of all of
    them in one call of ``of_counts`` (row by row, the same numbers as one at a time)."""
    q = int(y.max()) + 1
    counts = np.bincount(y, minlength=q)
    parent = imp.of_counts(counts)
    onehot = np.eye(q, dtype=np.int64)[y]
    best = (-np.inf, None, None)
    for j in range(X.shape[1]):
        vals = np.unique(X[:, j])
        ts = (vals[:-1] + vals[1:]) / 2
        left = X[:, j][None, :] <= ts[:, None]
        cl = left.astype(np.int64) @ onehot
        nl = left.sum(axis=1)
        nr = len(y) - nl
        g = parent - (nl * imp.of_counts(cl) + nr * imp.of_counts(counts - cl)) / len(y)
        for k, t in enumerate(ts):
            if nl[k] < min_samples_leaf or nr[k] < min_samples_leaf:
                continue
            if g[k] > best[0] + 1e-12:
                best = (g[k], j, t)
    return best


@pytest.mark.parametrize("q", [2, 3])
@pytest.mark.parametrize("ties", [False, True])
def test_root_split_is_exact_for_every_measure(q, ties):
    X, y = _blobs(200, q, 3, seed=q, ties=ties)
    prior = np.bincount(y) / len(y)
    for imp in _settings_list(q):
        st = GrowthParams(make_scorer(imp, q, len(y)), q, len(y), min_samples_leaf=1)
        g, j, t = _brute_best(X, y, imp)
        # engine search through a fitted tree with this measure
        kw = {"measure": imp.name, "theta": imp.theta, "consistent": imp.consistent}
        kw.update(imp.params)
        if imp.name == "asymmetric":
            kw["theta"] = imp.theta
        tree = TreeClassifier(max_depth=1, min_gain=-np.inf, **kw).fit(X, y)
        root = tree.tree_.nodes[0]
        assert root.split is not None, imp
        assert root.split.gain == pytest.approx(g, abs=1e-10), (imp, st.scorer.prune_pure_runs)
        assert (root.split.feature_index, root.split.threshold) == (j, pytest.approx(t))
        assert prior.sum() == pytest.approx(1)


@pytest.mark.parametrize("min_samples_leaf", [1, 7])
def test_pruning_finds_the_same_split(min_samples_leaf):
    X, y = _blobs(500, 2, 5, seed=3, ties=True)
    for imp in _settings_list(2):
        st = GrowthParams(make_scorer(imp, 2, len(y)), 2, len(y), min_samples_leaf=min_samples_leaf)
        if not st.scorer.prune_pure_runs:
            continue
        node_counts = np.bincount(y, minlength=2)[None].astype(np.int64)
        n = node_counts.sum(axis=1)
        ipar = st.scorer.kernel(node_counts, n)
        for j in range(X.shape[1]):
            o = np.argsort(X[:, j], kind="stable")
            args = (
                X[o, j],
                np.zeros(len(y), np.int32),
                y[o].astype(np.int8),
                2,
                1,
                node_counts,
                min_samples_leaf,
            )
            full = numeric_positions(*args, prune=False)
            fast = numeric_positions(*args, prune=True)
            gf = (
                ipar[0]
                - (
                    full.n_left * st.scorer.kernel(full.L, full.n_left)
                    + full.n_right * st.scorer.kernel(full.R, full.n_right)
                )
                / n[0]
            )
            gp = (
                ipar[0]
                - (
                    fast.n_left * st.scorer.kernel(fast.L, fast.n_left)
                    + fast.n_right * st.scorer.kernel(fast.R, fast.n_right)
                )
                / n[0]
            )
            assert gp.max() == pytest.approx(gf.max(), abs=1e-12), imp
            assert (
                fast.thr[np.argmax(gp >= gp.max() - 1e-12)]
                == full.thr[np.argmax(gf >= gf.max() - 1e-12)]
            )


def test_off_centered_many_classes_best_split_can_be_inside_a_pure_run():
    # why Fayyad-Irani pruning is not used for off-centered measures with q > 2: here the best
    # threshold lies strictly inside a run of 50 rows of class 1, better than both of its ends
    theta = np.array([0.0459, 0.3759, 0.0126, 0.553, 0.0126])
    theta /= theta.sum()
    left, right = [0, 36, 38, 1, 75], [8, 165, 133, 41, 144]
    y = np.concatenate(
        [np.repeat(np.arange(5), left), np.ones(50, int), np.repeat(np.arange(5), right)]
    )
    x = np.concatenate([np.zeros(sum(left)), np.arange(1.0, 51.0), np.full(sum(right), 100.0)])
    imp = Impurity("shannon", theta=theta)

    def gain(t):  # t rows of the run on the left
        L, R = np.array(left, float), np.array(right, float)
        L[1] += t
        R[1] += 50 - t
        return (
            imp.of_counts(L + R)
            - (L.sum() * imp.of_counts(L) + R.sum() * imp.of_counts(R)) / (L + R).sum()
        )

    clf = TreeClassifier(measure="shannon", theta=theta, max_depth=1).fit(x[:, None], y)
    split = clf.to_dict()["nodes"][0]["split"]
    assert 1 < split["threshold"] < 50
    assert split["gain"] == pytest.approx(max(gain(t) for t in range(51)), abs=1e-12)
    assert split["gain"] > max(gain(0), gain(50)) + 5e-4


@pytest.mark.parametrize("seed", range(6))
def test_float32_screening_gives_the_exact_tree(seed):
    # the off-centered Shannon entropy with q > 2 classes screens candidates in float32:
    # the tree must be the full float64 search's, split by split, to the last digit of gains
    rng = np.random.default_rng(seed)
    q = 3 + seed % 4
    n = 400 + 700 * seed
    X, y, theta = random_tree_data(rng, q, n, 3, 0.7, 1 + seed % 2, seed % 3)  # ties
    assert make_scorer(Impurity("shannon", theta=theta), q, n).kernel.approx is not None
    kw = {
        "measure": "shannon",
        "theta": theta,
        "max_depth": 6,
        "alpha": [None, 0.5, 1.0][seed % 3],
        "min_samples_leaf": 1 + seed % 3,
    }
    screened = fit(X, y, True, **kw)
    exact = fit(X, y, False, **kw)
    a, b = screened.to_dict()["nodes"], exact.to_dict()["nodes"]
    assert a == b
    assert len(a) > 7


@pytest.mark.parametrize("seed", range(3))
def test_float32_screening_with_missing_values_categories_and_feature_sampling(seed):
    rng = np.random.default_rng(100 + seed)
    n, q = 1500, 4
    y = rng.choice(q, size=n, p=[0.55, 0.25, 0.12, 0.08])
    df = pd.DataFrame(
        rng.normal(size=(n, 4)) + rng.normal(scale=0.8, size=(q, 4))[y],
        columns=["a", "b", "c", "d"],
    ).round(2)
    df.loc[rng.random(n) < 0.1, "b"] = np.nan  # missing numbers go to the larger child
    df["cat"] = np.array(list("uvwxyz"))[(y + rng.integers(0, 3, n)) % 6]
    kw = {
        "measure": "shannon",
        "theta": "prior",
        "max_depth": 5,
        "min_samples_leaf": 2,
        "categorical": ["multiway", "binary", "multiway"][seed],
        "max_features": [None, 3, 2][seed],
        "random_state": seed,
    }
    screened = fit(df, y, True, **kw)
    exact = fit(df, y, False, **kw)
    assert screened.to_dict()["nodes"] == exact.to_dict()["nodes"]
    assert any(
        node_ids["split"] and node_ids["split"]["feature"] == "b"
        for node_ids in screened.to_dict()["nodes"]
    )


@pytest.mark.slow
def test_float32_kernel_error_is_within_its_bound():
    rng = np.random.default_rng(11)
    worst = 0.0
    for _ in range(150):
        q = int(rng.integers(3, 9))
        theta = rng.dirichlet(np.ones(q) * rng.choice([0.05, 0.3, 1.0, 5.0]))
        theta = np.clip(theta, 10 ** rng.uniform(-6, -1), None)
        theta /= theta.sum()
        n_max = int(10 ** rng.uniform(1, 6.5))
        k = CountKernel(Impurity("shannon", theta=theta), q, n_max)
        p = rng.dirichlet(np.ones(q) * rng.choice([0.1, 1.0, 10.0]), size=500)
        c = (p * rng.integers(1, n_max, size=(500, 1))).astype(np.int64)
        c[:3] = 0
        c[3, 0] = n_max - 1
        n = c.sum(axis=1)
        err = np.abs(k.approx(c, n) - k(c, n)).max()
        worst = max(worst, err / k.approx_error)
    assert 0 < worst < 0.1  # the bound holds with a wide margin (about 2% used)


def test_count_kernel_value_does_not_depend_on_the_batch():
    rng = np.random.default_rng(2)
    theta = np.array([0.1, 0.2, 0.3, 0.4])
    k = CountKernel(Impurity("shannon", theta=theta), 4, 10_000)
    c = rng.integers(0, 100, size=(5000, 4))
    c[:2500, 3] *= 20  # many rows with class 3 above theta: the dense branch
    n = c.sum(axis=1)
    full = k(c, n)
    for size in (1, 3, 17, 400, 4000):
        rows = rng.choice(5000, size, replace=False)
        assert np.array_equal(k(c[rows], n[rows]), full[rows])


@pytest.mark.parametrize("measure", measure_names())
@pytest.mark.parametrize("theta", [None, "prior", "uniform"])
def test_every_measure_fits_and_predicts(measure, theta):
    X, y = _blobs(300, 3, 4, seed=1)
    labels = np.array(["a", "b", "c"])[y]
    clf = TreeClassifier(measure=measure, theta=theta, max_depth=4).fit(X, labels)
    pred = clf.predict(X)
    assert set(pred) <= {"a", "b", "c"}
    assert clf.score(X, labels) > 0.5
    proba = clf.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    if measure == "asymmetric" and theta is None:
        np.testing.assert_allclose(clf.theta_, np.bincount(y) / len(y))  # takes the prior
    elif theta is None:
        assert clf.theta_ is None and not clf.impurity_.off_centered
    for node in clf.tree_.nodes:
        assert node.impurity == pytest.approx(float(clf.impurity_.of_counts(node.counts)))


def test_theta_vector_and_prior_fixed_for_all_nodes():
    X, y = _blobs(400, 2, 3, seed=5)
    prior = np.bincount(y) / len(y)
    a = TreeClassifier(theta="prior", max_depth=3).fit(X, y)
    b = TreeClassifier(theta=prior, max_depth=3).fit(X, y)
    assert a.to_text() == b.to_text()
    np.testing.assert_allclose(a.theta_, prior)
    imp = Impurity("shannon", theta=prior)
    for node in a.tree_.nodes:  # the same reference at every node, not the node's own prior
        assert node.impurity == pytest.approx(float(imp.of_counts(node.counts)))
    with pytest.raises(ValueError, match="theta"):
        TreeClassifier(theta=[0.2, 0.3, 0.5]).fit(X, y)
    with pytest.raises(ValueError, match="theta"):
        TreeClassifier(theta="median").fit(X, y)


def test_consistent_asymmetric_uses_each_nodes_n():
    X, y = _blobs(300, 2, 3, seed=2)
    clf = TreeClassifier(measure="asymmetric", consistent=True, max_depth=3).fit(X, y)
    theta = clf.theta_
    for node in clf.tree_.nodes:
        n = node.counts.sum()
        p = node.counts / n
        ph = (n * p + 1) / (n + 2)
        expected = np.mean(ph * (1 - ph) / ((1 - 2 * theta) * ph + theta**2))
        assert node.impurity == pytest.approx(expected, abs=1e-12)
    root = clf.tree_.nodes[0]
    kids = [clf.tree_.nodes[c] for c in root.children]
    g = root.impurity - sum(k.counts.sum() * k.impurity for k in kids) / root.counts.sum()
    assert root.split.gain == pytest.approx(g, abs=1e-12)
    with pytest.raises(ValueError, match="consistent"):
        TreeClassifier(measure="shannon", consistent=True).fit(X, y)


def test_alpha_scores_lambda():
    X, y = _blobs(300, 2, 3, seed=4)
    for alpha in (0.0, 0.5, 1.0):
        clf = TreeClassifier(alpha=alpha, max_depth=2).fit(X, y)
        root = clf.tree_.nodes[0]
        kids = [clf.tree_.nodes[c] for c in root.children]
        sizes = np.array([k.counts.sum() for k in kids])
        i_x = float(Impurity("shannon").of_counts(sizes))
        expected = root.split.gain / (alpha * root.impurity + (1 - alpha) * i_x)
        assert root.split.score == pytest.approx(expected, abs=1e-12)
        cand = clf.candidates(0)
        assert cand.loc[cand["chosen"], "score:shannon"].iloc[0] == pytest.approx(expected)


def _cat_data(seed=0, n=400, K=6, q=2):
    rng = np.random.default_rng(seed)
    cats = [f"c{k}" for k in range(K)]
    a = rng.choice(cats, size=n)
    b = rng.choice(["x", "y", "z"], size=n)
    eff = {c: rng.normal() for c in cats}
    score = np.array([eff[v] for v in a]) + (b == "x") * 0.8 + rng.normal(size=n) * 0.7
    if q == 2:
        y = (score > 0.3).astype(int)
    else:
        y = np.digitize(score, [-0.3, 0.6])
    num = rng.normal(size=n) + y * 0.3
    return pd.DataFrame({"a": a, "b": b, "num": num}), y


def test_categorical_multiway():
    X, y = _cat_data()
    clf = TreeClassifier(max_depth=2).fit(X, y)
    for node in clf.tree_.nodes:
        if node.split is not None and node.split.kind == "categorical":
            assert all(len(g) == 1 for g in node.split.groups)
            assert len(node.children) == len(node.split.groups)
            kids = [clf.tree_.nodes[c] for c in node.children]
            assert sum(k.counts.sum() for k in kids) == node.counts.sum()
    root = clf.tree_.nodes[0]
    assert root.split.feature == "a" and len(root.children) == 6
    # the multiway gain of "a" equals the association gain of its contingency table
    from offcenter import association

    table = pd.crosstab(X["a"], y).to_numpy()
    assert root.split.gain == pytest.approx(association(table).gain, abs=1e-12)
    assert clf.predict(X.iloc[:5]).shape == (5,)


@pytest.mark.parametrize("K", [5, 12])
def test_categorical_binary_is_optimal_for_two_classes(K):
    X, y = _cat_data(seed=K, K=K)
    X = X[["a"]]
    clf = TreeClassifier(categorical="binary", max_depth=1).fit(X, y)
    root = clf.tree_.nodes[0]
    assert root.split.kind == "categorical_binary" and len(root.children) == 2
    imp = Impurity("shannon")
    cats = sorted(X["a"].unique())
    parent = imp.of_counts(np.bincount(y))
    # every proper subset of the categories on the left: its class counts are the sums of its
    # categories' counts (one row a subset), the impurities of all of them in one call
    per_cat = pd.crosstab(X["a"], y).reindex(index=cats, columns=[0, 1], fill_value=0)
    subsets = np.array(
        [
            np.isin(cats, left)
            for r in range(1, len(cats))
            for left in itertools.combinations(cats, r)
        ],
        dtype=np.int64,
    )
    cl = subsets @ per_cat.to_numpy(np.int64)
    cr = np.bincount(y, minlength=2) - cl
    nl, nr = cl.sum(axis=1), cr.sum(axis=1)
    best = np.max(parent - (nl * imp.of_counts(cl) + nr * imp.of_counts(cr)) / len(y))
    assert len(subsets) == 2 ** len(cats) - 2
    assert root.split.gain == pytest.approx(best, abs=1e-12)
    assert set(root.split.groups[0]) | set(root.split.groups[1]) == set(cats)


def test_categorical_binary_more_classes_and_reuse():
    X, y = _cat_data(seed=1, K=12, q=3)
    clf = TreeClassifier(categorical="binary", max_depth=4).fit(X, y)
    kinds = {node_ids.split.kind for node_ids in clf.tree_.nodes if node_ids.split is not None}
    assert "categorical_binary" in kinds
    assert all(len(node_ids.children) in (0, 2) for node_ids in clf.tree_.nodes)
    assert clf.score(X, y) > 0.5


def test_missing_values_rule():
    rng = np.random.default_rng(0)
    n = 200
    x = rng.normal(size=n)
    y = (x > 0.5).astype(int)
    x_miss = x.copy()
    x_miss[:20] = np.nan
    color = np.where(rng.random(n) < 0.5, "red", "blue").astype(object)
    color[20:40] = None
    X = pd.DataFrame({"x": x_miss, "color": color})
    clf = TreeClassifier(max_depth=1).fit(X, y)
    root = clf.tree_.nodes[0]
    s = root.split
    assert s.feature == "x" and s.n_missing == 20 and root.n_missing == 20
    kids = [clf.tree_.nodes[c] for c in root.children]
    nonmiss = ~np.isnan(x_miss)
    n_left = int((x_miss[nonmiss] <= s.threshold).sum())
    n_right = int(nonmiss.sum()) - n_left
    larger = 0 if n_left >= n_right else 1
    assert s.missing_child == larger
    assert kids[larger].counts.sum() == max(n_left, n_right) + 20
    assert s.branch_labels[larger].endswith(" (or missing)")
    # predicting: a missing value goes to the larger child
    leaf = clf.apply(pd.DataFrame({"x": [np.nan], "color": ["red"]}))[0]
    assert leaf == root.children[larger]
    # training rows reach the nodes they were grown with
    for node in clf.tree_.nodes:
        assert len(clf.node_indices(node.id)) == node.counts.sum()
    # a missing category is a value of its own
    clf2 = TreeClassifier(max_depth=1).fit(X[["color"]], y)
    groups = clf2.tree_.nodes[0].split.groups
    assert (None,) in groups
    assert clf2.tree_.nodes[0].split.n_missing == 20
    assert "color is missing" in clf2.tree_.nodes[0].split.branch_labels
    # an unseen category goes to the largest child
    leaf = clf2.apply(pd.DataFrame({"color": ["green"]}))[0]
    sizes = [clf2.tree_.nodes[c].counts.sum() for c in clf2.tree_.nodes[0].children]
    assert leaf == clf2.tree_.nodes[0].children[int(np.argmax(sizes))]


def test_stopping_rules():
    X, y = _blobs(400, 2, 4, seed=7)
    deep = TreeClassifier().fit(X, y)
    assert all(
        node_ids.counts.max() == node_ids.counts.sum()
        for node_ids in deep.tree_.nodes
        if node_ids.is_leaf
    )
    assert deep.score(X, y) == 1.0  # grown to purity (no duplicated rows)
    assert TreeClassifier(max_depth=2).fit(X, y).tree_.depth == 2
    assert len(TreeClassifier(max_depth=0).fit(X, y).tree_) == 1
    t = TreeClassifier(min_samples_leaf=25).fit(X, y)
    assert min(node_ids.counts.sum() for node_ids in t.tree_.nodes) >= 25
    t = TreeClassifier(min_samples_split=60).fit(X, y)
    assert all(
        node_ids.counts.sum() >= 60 for node_ids in t.tree_.nodes if node_ids.split is not None
    )
    t = TreeClassifier(min_gain=0.2).fit(X, y)
    assert all(
        node_ids.split.gain > 0.2 for node_ids in t.tree_.nodes if node_ids.split is not None
    )
    # a pure node is a leaf, even under the consistent asymmetric entropy (impurity > 0)
    t = TreeClassifier(measure="asymmetric", consistent=True).fit(X, y)
    for node_ids in t.tree_.nodes:
        if (node_ids.counts > 0).sum() == 1:
            assert node_ids.is_leaf and node_ids.impurity > 0


def test_negative_gains_make_leaves_with_off_centered_measure():
    # off-centered on a theta far from the data: a split can have a negative gain
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 0, 0, 1])
    clf = TreeClassifier(theta=[0.1, 0.9], max_depth=1).fit(X, y)
    cand = clf.candidates(0)
    key = clf.impurity_.key
    if cand[f"gain:{key}"].iloc[0] <= 0:
        assert clf.tree_.nodes[0].is_leaf


def test_determinism_and_tie_breaking():
    X, y = _blobs(300, 3, 4, seed=9, ties=True)
    a = TreeClassifier(max_depth=5).fit(X, y).to_json()
    b = TreeClassifier(max_depth=5).fit(X, y).to_json()
    assert a == b
    # two identical columns: the first in column order wins
    X2 = np.column_stack([X[:, 1], X[:, 1]])
    clf = TreeClassifier(max_depth=3).fit(X2, y)
    assert all(
        node_ids.split.feature_index == 0
        for node_ids in clf.tree_.nodes
        if node_ids.split is not None
    )
    # equal gains at two thresholds: the smallest threshold wins
    Xs = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]])
    ys = np.array([0, 0, 1, 1, 0, 0])
    root = TreeClassifier(max_depth=1).fit(Xs, ys).tree_.nodes[0]
    assert root.split.threshold == 1.5


def test_max_features_and_random_state():
    X, y = _blobs(300, 2, 8, seed=11)
    a = TreeClassifier(max_features="sqrt", random_state=3, max_depth=4).fit(X, y)
    b = TreeClassifier(max_features="sqrt", random_state=3, max_depth=4).fit(X, y)
    assert a.to_json() == b.to_json()
    others = {
        TreeClassifier(max_features=1, random_state=s, max_depth=1)
        .fit(X, y)
        .tree_.nodes[0]
        .split.feature
        for s in range(12)
    }
    assert len(others) > 1
    for mf in (0.5, 3, "log2", None, 100):
        TreeClassifier(max_features=mf, random_state=0, max_depth=3).fit(X, y)
    with pytest.raises(ValueError, match="max_features"):
        TreeClassifier(max_features=0).fit(X, y)
    with pytest.raises(ValueError, match="max_features"):
        TreeClassifier(max_features="half").fit(X, y)
    with pytest.raises(ValueError, match="max_features"):
        TreeClassifier(max_features=1.5).fit(X, y)


def test_leaf_rule_prior():
    # 90/10 data: a leaf with 30% minority predicts the minority under leaf_rule="prior"
    X = np.array([[0.0]] * 70 + [[1.0]] * 10 + [[2.0]] * 20)
    y = np.array([0] * 70 + [0] * 7 + [1] * 3 + [0] * 20)
    y[-1] = 1
    clf_m = TreeClassifier(max_depth=1, min_gain=-1).fit(X, y)
    clf_p = TreeClassifier(max_depth=1, min_gain=-1, leaf_rule="prior").fit(X, y)
    for nm, npr in zip(clf_m.tree_.nodes, clf_p.tree_.nodes):
        p = npr.counts / npr.counts.sum()
        assert npr.prediction == int(np.argmax(p / clf_p.prior_))
        assert nm.prediction == int(np.argmax(nm.counts))
        np.testing.assert_allclose(nm.proba, npr.proba)
    np.testing.assert_allclose(clf_m.predict_proba(X), clf_p.predict_proba(X))
    with pytest.raises(ValueError, match="leaf_rule"):
        TreeClassifier(leaf_rule="min").fit(X, y)


def test_comparison_settings_resolve_on_the_training_prior():
    X, y = _blobs(200, 2, 3, seed=12)
    clf = TreeClassifier(max_depth=2).fit(X, y)
    s = clf.node_impurities(0)
    keys = [k for k, _ in clf.candidates(0).attrs["settings"]]
    assert list(s.index) == keys
    assert len(keys) == len(comparison_settings())  # shannon is both chosen and compared
    prior = np.bincount(y) / len(y)
    assert s["oc_shannon"] == pytest.approx(1.0)  # the root is at theta = prior
    assert s["asymmetric"] == pytest.approx(1.0)
    assert s["shannon"] == pytest.approx(float(Impurity("shannon")(prior)))


@pytest.mark.parametrize("name", ["german_credit", "tic_tac_toe_endgame"])
@pytest.mark.parametrize("categorical", ["multiway", "binary"])
def test_real_categorical_data_sets(name, categorical):
    from pathlib import Path

    df = pd.read_csv(
        Path(__file__).resolve().parents[2] / "offcenter" / "data" / "bundled" / f"{name}.csv"
    )
    X, y = df.iloc[:, :-1], df.iloc[:, -1]
    clf = TreeClassifier(
        theta="prior", categorical=categorical, max_depth=4, min_samples_leaf=5
    ).fit(X, y)
    assert clf.score(X, y) > 0.7
    kinds = {node_ids.split.kind for node_ids in clf.tree_.nodes if node_ids.split is not None}
    assert ("categorical" if categorical == "multiway" else "categorical_binary") in kinds
    for node_ids in clf.tree_.nodes:
        assert len(clf.node_indices(node_ids.id)) == node_ids.n >= 5
    cand = clf.candidates(0)
    assert cand.loc[cand["chosen"], f"rank:{clf.impurity_.key}"].iloc[0] == 1
    back = TreeClassifier.from_json(clf.to_json())
    np.testing.assert_array_equal(back.predict(X), clf.predict(X))


@pytest.mark.parametrize("beta", [0.0, 0.3, 1.0, 2.0, 7.5, 200.0])
@pytest.mark.parametrize("theta", [None, [0.1, 0.2, 0.3, 0.4]])
def test_daroczy_kernel_matches_reference(beta, theta):
    from offcenter.tree.kernels import CountKernel

    imp = Impurity("daroczy", beta=beta, theta=theta)
    c = np.random.default_rng(0).integers(0, 20, (300, 4))
    c[0] = 0
    n = c.sum(axis=1)
    for weighted in (False, True):
        got = CountKernel(imp, 4, int(n.max()), weighted)(c.astype(float) if weighted else c, n)
        np.testing.assert_allclose(got, imp.of_counts(c), rtol=0, atol=1e-12)


@pytest.mark.parametrize("beta", [1030.0, 1e6])
def test_daroczy_kernel_large_beta(beta):
    """For a huge order every p_j^beta < 1 underflows to 0: H = 1 on an impure node, 0 on a
    pure one (2^d / (2^d - 1) = 1 to double precision), never an overflow."""
    from offcenter.tree.kernels import CountKernel

    c = np.array([[5, 5, 0], [9, 1, 0], [0, 7, 0], [0, 0, 0], [1, 1, 1]])
    n = c.sum(axis=1)
    for theta in (None, [0.2, 0.3, 0.5]):
        k = CountKernel(Impurity("daroczy", beta=beta, theta=theta), 3, 20)
        with np.errstate(over="raise"):  # p^beta underflowing to 0 is the point
            got = k(c, n)
        np.testing.assert_array_equal(got, [1.0, 1.0, 0.0, 0.0, 1.0])
    from sklearn import datasets

    d = datasets.load_iris()
    for theta in (None, "prior"):
        with np.errstate(over="raise", invalid="raise"):
            clf = TreeClassifier(measure="daroczy", beta=beta, theta=theta).fit(d.data, d.target)
        gains = [node_ids.split.gain for node_ids in clf.tree_.nodes if node_ids.split is not None]
        assert gains and np.isfinite(gains).all()
        assert np.isfinite([node_ids.impurity for node_ids in clf.tree_.nodes]).all()
        assert clf.score(d.data, d.target) == 1.0


@pytest.mark.parametrize("seed", range(4))
def test_search_on_the_drawn_features_rows_grows_the_full_scans_tree(seed, monkeypatch):
    """With max_features the engine searches a feature only on the rows of the nodes that drew
    it and reads a node's range from its sorted segment: the same tree as the full scan."""
    from offcenter.tree import growth

    rng = np.random.default_rng(40 + seed)
    n, q = 1200, [2, 3, 2, 4][seed]
    y = rng.choice(q, size=n)
    X = rng.normal(size=(n, 7)) + 0.6 * rng.normal(size=(q, 7))[y]
    X[:, 1] = np.round(X[:, 1])  # ties and constant runs
    X[:, 4] = np.round(X[:, 4] * 3) / 3
    if seed % 2:
        X[rng.random(n) < 0.1, 2] = np.nan  # a column with missing values: the full scan
    kw = {
        "max_features": [1, 2, 3, "sqrt"][seed],
        "min_samples_leaf": [1, 3, 1, 2][seed],
        "measure": ["shannon", "gini", "shannon", "dkm"][seed],
        "min_gain": -np.inf,
        "random_state": seed,
    }
    fast = TreeClassifier(**kw).fit(X, y)
    monkeypatch.setattr(growth, "DRAWN_ROWS_ONLY", False)
    full = TreeClassifier(**kw).fit(X, y)
    assert fast.to_dict()["nodes"] == full.to_dict()["nodes"]
    assert len(fast.tree_) > 50


#: (measure, extra parameters): every family of scorer and kernel path the level search meets
_FAMILIES = [
    ("shannon", {}),
    ("shannon", {"theta": "prior"}),  # off-centred (float32 screening with 3+ classes)
    ("gini", {"alpha": 0.5}),  # a lambda_alpha score
    ("dkm", {}),
    ("asymmetric", {}),  # the block screening (no stacking)
    ("daroczy", {"beta": 3.0}),
    ("misclassification", {}),
    ("rank_diversity", {"rho": 1.0}),
    ("hellinger", {}),
]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**16),
    q=st.integers(2, 4),
    family=st.sampled_from(_FAMILIES),
    max_features=st.sampled_from([None, 1, 2, 3]),
    min_samples_leaf=st.integers(1, 3),
    missing=st.booleans(),
    weighted=st.booleans(),
    stack_rows=st.sampled_from([1, 50, 1 << 21]),
)
def test_stacked_level_search_grows_the_full_scans_tree(
    seed, q, family, max_features, min_samples_leaf, missing, weighted, stack_rows
):
    """The level search of the drawn numeric features in one call over their (feature, node)
    segments laid end to end (in groups of about ``STACK_ROWS`` rows), with the columns
    partitioned for all features at once, grows the tree of the one-feature-at-a-time full
    scan: ties, missing values, weights, 2 to 4 classes, every measure family,
    min_samples_leaf."""
    from offcenter.tree import growth

    rng = np.random.default_rng(seed)
    n = int(rng.integers(40, 260))
    y = rng.integers(0, q, n)
    y[:q] = np.arange(q)
    X = rng.normal(size=(n, 5)) + 0.7 * rng.normal(size=(q, 5))[y]
    X[:, 0] = np.round(X[:, 0])  # ties
    X[:, 3] = np.round(X[:, 3] * 2) / 2
    if missing:
        X[rng.random(n) < 0.15, 1] = np.nan
    w = rng.integers(1, 4, n) * 0.5 if weighted else None
    measure, extra = family
    kw = {
        "measure": measure,
        "max_features": max_features,
        "min_samples_leaf": min_samples_leaf,
        "min_gain": -np.inf,
        "random_state": seed,
        **extra,
    }
    with mock.patch.object(growth, "STACK_ROWS", stack_rows):
        fast = TreeClassifier(**kw).fit(X, y, sample_weight=w)
    with mock.patch.object(growth, "DRAWN_ROWS_ONLY", False):
        full = TreeClassifier(**kw).fit(X, y, sample_weight=w)
    assert fast.to_dict()["nodes"] == full.to_dict()["nodes"]


def test_nodes_made_from_the_records_have_every_field():
    """The fitted tree's nodes and splits are made without the frozen dataclasses' __init__
    (nodes.frozen_instance): each has every field, and remade by __init__ is the same node."""
    import dataclasses

    from offcenter.tree.nodes import Node, Split

    rng = np.random.default_rng(3)
    X = pd.DataFrame(
        {
            "a": rng.normal(size=300),
            "b": np.where(rng.random(300) < 0.1, np.nan, rng.normal(size=300)),
            "c": pd.Categorical(rng.choice(list("xyz"), 300)),
        }
    )
    y = (X["a"] + (X["c"] == "x") + rng.normal(size=300) > 0.5).astype(int)
    clf = TreeClassifier(max_depth=4).fit(X, y)
    assert any(nd.split is not None and nd.split.kind != "numeric" for nd in clf.tree_.nodes)
    for nd in clf.tree_.nodes:
        assert set(vars(nd)) == {f.name for f in dataclasses.fields(Node)}
        if nd.split is not None:
            assert set(vars(nd.split)) == {f.name for f in dataclasses.fields(Split)}
            assert dataclasses.replace(nd.split) == nd.split
        again = dataclasses.replace(nd)
        assert all(
            np.array_equal(getattr(again, f.name), getattr(nd, f.name))
            if isinstance(getattr(nd, f.name), np.ndarray)
            else getattr(again, f.name) == getattr(nd, f.name)
            for f in dataclasses.fields(Node)
        )


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**16),
    q=st.integers(2, 4),
    family=st.sampled_from(_FAMILIES),
    max_features=st.sampled_from([None, 2]),
    min_samples_leaf=st.integers(1, 3),
    missing=st.booleans(),
    weighted=st.booleans(),
    categorical=st.booleans(),
    rule=st.sampled_from(
        [
            {},
            {"max_depth": 3},
            {"min_impurity_decrease": 0.002},
            {"min_weight_fraction_leaf": 0.03},
            {"monotonic_cst": [1, 0, -1, 0, 0]},
            {"min_gain": 0.0},
        ]
    ),
)
def test_children_opened_with_arrays_are_the_node_by_node_ones(
    seed, q, family, max_features, min_samples_leaf, missing, weighted, categorical, rule
):
    """A level's open children chosen with arrays (``growth.BATCH_OPEN``) are the
    node-by-node loop's: ties, missing values, weights, a categorical column, every measure
    family, the stopping rules."""
    from offcenter.tree import growth

    rng = np.random.default_rng(seed)
    n = int(rng.integers(40, 260))
    if "monotonic_cst" in rule:  # two classes, numeric features only
        q, categorical = 2, False
    y = rng.integers(0, q, n)
    y[:q] = np.arange(q)
    X = rng.normal(size=(n, 5)) + 0.7 * rng.normal(size=(q, 5))[y]
    X[:, 0] = np.round(X[:, 0])
    if missing:
        X[rng.random(n) < 0.15, 1] = np.nan
    if categorical:
        X = pd.DataFrame(X, columns=list("abcde"))
        X["e"] = pd.Categorical(np.array(list("uvwx"))[rng.integers(0, 4, n)])
    w = rng.integers(1, 4, n) * 0.5 if weighted else None
    measure, extra = family
    kw = {
        "measure": measure,
        "max_features": max_features,
        "min_samples_leaf": min_samples_leaf,
        "min_gain": -np.inf,
        "random_state": seed,
        **extra,
        **rule,
    }
    batched = TreeClassifier(**kw).fit(X, y, sample_weight=w)
    with mock.patch.object(growth, "BATCH_OPEN", False):
        loop = TreeClassifier(**kw).fit(X, y, sample_weight=w)
    assert batched.to_dict()["nodes"] == loop.to_dict()["nodes"]
