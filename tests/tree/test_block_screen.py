"""Block screening of numeric thresholds: the per-row bound and the exactness of the search.

The block screening (``offcenter.tree.search.block_screen``) skips thresholds on a proven bound:
for a kernel with a ``row_bound``, moving one row of class k between the children changes
n_L I(L) + n_R I(R) by at most the bound over the box of counts the block spans. These tests
check the bound against exact differences, and that the screened search keeps everything that
can win, so trees are those of the full float64 search to the last digit.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import offcenter.tree.kernels as kernels
import offcenter.tree.numeric as numeric_mod
import offcenter.tree.screening as grow_mod
from offcenter import Impurity
from offcenter.tree.kernels import CountKernel
from offcenter.tree.numeric import numeric_positions
from offcenter.tree.records import GrowthParams
from offcenter.tree.scoring import make_scorer
from offcenter.tree.screening import block_screen
from tests.tree.tree_fitting import fit, random_tree_data


def _random_theta(rng, q):
    theta = rng.dirichlet(np.ones(q) * rng.choice([0.05, 0.3, 1.0, 5.0]))
    theta = np.clip(theta, 10 ** rng.uniform(-6, -1.5), None)
    return theta / theta.sum()


def _bounded_settings(rng, q):
    """Impurity settings whose kernel has a row bound (random theta)."""
    theta = _random_theta(rng, q)
    return [
        Impurity("shannon", theta=theta),
        Impurity("asymmetric", theta=theta),
        Impurity("asymmetric", theta=theta, consistent=True),
    ]


def _path(rng, q, length, scale, remove):
    """Count vectors along a monotone path (one row added, or removed, at each step)."""
    start = rng.integers(0, 30, q) * rng.integers(0, 2, q) * scale
    if start.sum() == 0:
        start[rng.integers(q)] = 1
    steps = rng.choice(q, size=length, p=rng.dirichlet(np.ones(q) * 0.3))
    path = [start]
    for k in steps:
        nxt = path[-1].copy()
        nxt[k] += 1
        path.append(nxt)
    path = np.array(path, np.int64)
    if remove:  # a right child losing rows: the same states walked backwards
        path, steps = path[::-1], steps[::-1]
    return path, steps


@pytest.mark.slow
def test_row_bound_holds_on_random_paths(monkeypatch):
    # the kernels' lookup tables (u log u for every count up to n_max, q of them: up to 128 MB
    # a kernel here, where counts reach millions) are not read by the row bound: not built
    monkeypatch.setattr(kernels, "TABLE_LIMIT", 0)
    rng = np.random.default_rng(7)
    worst, checked = 0.0, 0
    for _ in range(400):
        q = int(rng.integers(2, 8))
        for imp in _bounded_settings(rng, q):
            scale = int(10 ** rng.integers(0, 6))
            remove = bool(rng.integers(2))
            path, steps = _path(rng, q, int(rng.integers(1, 120)), scale, remove)
            k = CountKernel(imp, q, int(path.sum(axis=1).max()))
            assert k.row_bound is not None
            n = path.sum(axis=1)
            f = n * imp.of_counts(path)  # n I(c), the reference implementation
            lo, hi = (path[-1], path[0]) if remove else (path[0], path[-1])
            bound = k.row_bound(
                lo[:, None].astype(float),
                hi[:, None].astype(float),
                np.array([lo.sum()]),
                np.array([hi.sum()]),
            )[:, 0]
            assert bound.shape == (q,) and np.all(bound >= 0)
            ratio = np.abs(np.diff(f)) / bound[steps]  # steps: the class of each moved row
            worst = max(worst, float(ratio.max()))
            checked += ratio.size
    assert checked > 10_000
    # the bound holds, and is not vacuous: some steps come close to it
    assert 0.5 < worst <= 1.0


def test_row_bound_single_steps_at_the_kinks_and_empty_classes():
    # boxes that straddle theta_j (the kink of the off-centering), classes that start at 0,
    # and a class moved from 0 (where -ln pi* is unbounded but integrable)
    theta = np.array([0.05, 0.15, 0.8])
    imp = Impurity("shannon", theta=theta)
    k = CountKernel(imp, 3, 10_000)
    for c in ([0, 0, 1], [5, 15, 80], [4, 15, 80], [0, 150, 850], [50, 0, 0], [1, 1, 1]):
        c = np.array(c, np.int64)
        for j in range(3):
            d = c.copy()
            d[j] += 1
            b = k.row_bound(
                c[:, None].astype(float),
                d[:, None].astype(float),
                np.array([c.sum()]),
                np.array([d.sum()]),
            )[j, 0]
            diff = abs(d.sum() * imp.of_counts(d) - c.sum() * imp.of_counts(c))
            assert diff <= b, (c, j)


def _positions(rng, n, q, ties, min_samples_leaf=1, nodes=1):
    y = rng.choice(q, size=n, p=rng.dirichlet(np.ones(q) * 2))
    v = rng.normal(size=n) + rng.normal(scale=1.5, size=q)[y]
    if ties:
        v = np.round(v, 1)
    node_ids = np.sort(rng.integers(0, nodes, n)).astype(np.int64)
    order = np.lexsort((v, node_ids))
    v, y, node_ids = v[order], y[order], node_ids[order]
    node_counts = np.stack([np.bincount(y[node_ids == i], minlength=q) for i in range(nodes)])
    return (
        numeric_positions(v, node_ids, y, q, nodes, node_counts, min_samples_leaf),
        node_counts,
        y,
    )


@pytest.mark.parametrize("group", [1, grow_mod.ROW_BOUND_GROUP])
@pytest.mark.parametrize("alpha", [None, 0.0, 0.5, 1.0])
@pytest.mark.parametrize("ties", [False, True])
def test_block_screen_keeps_everything_that_can_win(alpha, ties, group, monkeypatch):
    # group: consecutive blocks sharing one row bound (over their joint range of counts)
    monkeypatch.setattr(grow_mod, "ROW_BOUND_GROUP", group)
    rng = np.random.default_rng(3 if ties else 4)
    skipped = 0
    for trial in range(6):
        q = int(rng.integers(2, 7))
        nodes = int(rng.integers(1, 4))
        pos, node_counts, y = _positions(
            rng, 6000, q, ties, min_samples_leaf=1 + trial % 3, nodes=nodes
        )
        n = node_counts.sum(axis=1)
        for imp in _bounded_settings(rng, q):
            st = GrowthParams(make_scorer(imp, q, int(n.max()), alpha=alpha), q, int(n.max()))
            parent_impurity = st.scorer.kernel(node_counts, n)
            il = st.scorer.kernel(pos.L, pos.n_left)
            ir = st.scorer.kernel(pos.R, pos.n_right)
            gain = (
                parent_impurity[pos.node_ids]
                - (pos.n_left * il + pos.n_right * ir) / n[pos.node_ids]
            )
            exact = st.scorer.score_of(gain, parent_impurity[pos.node_ids], pos.n_left, pos.n_right)
            for stride in [grow_mod.STRIDE, 16, 2]:
                sc = block_screen(pos, parent_impurity, n, st, stride=stride)
                # score + err bounds the exact score (err: float32 anchors' error bound)
                score, floor = sc.score + sc.err, sc.floor
                best = np.full(nodes, -np.inf)
                np.maximum.at(best, pos.node_ids, exact)
                # the floor is reached by some threshold; every threshold that can win keeps
                # a bound at least its exact score
                assert np.all(floor <= best + 1e-12)
                can_win = exact >= best[pos.node_ids] - grow_mod.TIE
                assert np.all(score[can_win] >= exact[can_win] - 1e-12)
                kept = np.isfinite(score)
                assert np.all(score[kept] >= exact[kept] - 1e-12)
                skipped += pos.node_ids.size - kept.sum()
    if group == 1 or alpha != 0.0:  # the gain ratio's bound is loose on these small sets
        assert skipped > 0


MEASURES = [
    {"measure": "shannon"},
    {"measure": "asymmetric"},
    {"measure": "asymmetric", "consistent": True},
]


@pytest.mark.parametrize("measure", range(len(MEASURES)))
@pytest.mark.parametrize("seed", range(6))
def test_block_screening_gives_the_exact_tree(seed, measure, monkeypatch):
    rng = np.random.default_rng(50 + seed)
    q = 2 + seed % 5
    n = 2500 + 1500 * seed
    X, y, theta = random_tree_data(rng, q, n, 4, 0.6, 2 + seed % 2, seed % 3)
    kw = {
        **MEASURES[measure],
        "theta": theta,
        "max_depth": 7,
        "alpha": [None, 0.5, 1.0][seed % 3],
        "min_samples_leaf": 1 + seed % 3,
    }
    exact = fit(X, y, False, **kw).to_dict()["nodes"]
    small = fit(X, y, True, monkeypatch, small_blocks=True, **kw).to_dict()["nodes"]
    assert small == exact
    assert len(exact) > 15


def test_block_screening_at_its_real_thresholds_gives_the_exact_tree():
    # enough rows for the block screening to run as configured (not only with small blocks)
    rng = np.random.default_rng(9)
    n, q = 40_000, 5
    y = rng.choice(q, size=n, p=[0.1, 0.225, 0.225, 0.225, 0.225])
    X = rng.normal(size=(n, 3)) + rng.normal(scale=0.5, size=(q, 3))[y]
    kw = {"measure": "shannon", "theta": "prior", "max_depth": 4}
    calls = []
    real = numeric_mod.block_screen

    def counting(*a, **k):
        calls.append(1)
        return real(*a, **k)

    numeric_mod.block_screen = counting
    try:
        screened = fit(X, y, True, **kw).to_dict()["nodes"]
    finally:
        numeric_mod.block_screen = real
    assert calls  # it ran
    assert screened == fit(X, y, False, **kw).to_dict()["nodes"]


def test_block_screening_with_missing_values_and_categories(monkeypatch):
    # missing numbers (not block-screened: counts are not monotone there) and categories
    # beside block-screened features
    rng = np.random.default_rng(21)
    n, q = 3000, 4
    y = rng.choice(q, size=n, p=[0.55, 0.25, 0.12, 0.08])
    df = pd.DataFrame(
        rng.normal(size=(n, 3)) + rng.normal(scale=0.8, size=(q, 3))[y], columns=["a", "b", "c"]
    ).round(2)
    df.loc[rng.random(n) < 0.1, "b"] = np.nan
    df["cat"] = np.array(list("uvwxyz"))[(y + rng.integers(0, 3, n)) % 6]
    kw = {
        "measure": "shannon",
        "theta": "prior",
        "max_depth": 6,
        "max_features": 3,
        "random_state": 0,
    }
    exact = fit(df, y, False, **kw).to_dict()["nodes"]
    assert fit(df, y, True, monkeypatch, small_blocks=True, **kw).to_dict()["nodes"] == exact


def test_float32_kernel_is_chunked_without_changing_values():
    # the float32 kernel works in chunks of F32_CHUNK columns: a row's value must not depend
    # on the batch or on where the chunk boundaries fall
    from offcenter.tree.kernels import F32_CHUNK

    rng = np.random.default_rng(4)
    q = 5
    k = CountKernel(Impurity("shannon", theta=[0.1, 0.2, 0.2, 0.25, 0.25]), q, 100_000)
    m = 2 * F32_CHUNK + 17
    c = np.ascontiguousarray(rng.integers(0, 3000, size=(q, m))).T  # class-major, as the engine
    c[:5] = 0
    n = c.sum(axis=1)
    full = k.approx(c, n)
    for rows in (np.arange(F32_CHUNK - 3, F32_CHUNK + 3), rng.choice(m, 999, replace=False)):
        assert np.array_equal(k.approx(c[rows], n[rows]), full[rows])
    assert np.abs(full - k(c, n)).max() <= k.approx_error
