"""Screenings of numeric candidates: drop, with a proven bound, what cannot be the best split.

:func:`block_screen` evaluates every few thresholds exactly and bounds the blocks between them
with the kernel's per-row bound (off-centered Shannon, the asymmetric entropy); :func:`screen`
scores every threshold with the float32 kernel and its error bound (off-centered Shannon,
3+ classes). What survives is evaluated exactly (:func:`offcenter.tree.numeric.resolve_lazy`),
so the chosen split, gain and score are those of the full float64 search. The scores and the
bounds come from the :class:`~offcenter.tree.scoring.SplitScorer`.
"""

from __future__ import annotations

import numpy as np

from offcenter.tree.records import TIE, Candidates, GrowthParams, Screen


def screen(pos, parent_impurity, n, params: GrowthParams):
    """Float32 screening of candidate splits: the ones that can still be the best.

    The scorer's float32 kernel (:meth:`SplitScorer.approx_pair`; the off-centered Shannon
    entropy with q > 2 classes) is within ``approx_error`` of the exact impurity on each child, so
    the approximate gain is within that bound of the exact gain, and lambda_alpha within the
    bound divided by its (exact) denominator. Returns the approximate scores ``score`` and
    their bounds ``err`` (arrays over the candidates) and ``floor`` (per node, the largest
    ``score - err``: the exact best score of the node is at least this). A candidate with
    ``score + err < floor - TIE`` is worse than the best by more than the tie tolerance and can
    never be chosen; the others are evaluated exactly (:func:`offcenter.tree.numeric.score_candidates`, or by ``grow`` for all
    features of a level at once, against the floor over every feature).
    """
    ndv = pos.node_ids
    score, err = params.scorer.approx_pair(
        pos.L, pos.R, pos.n_left, pos.n_right, parent_impurity.take(ndv), n.take(ndv)
    )
    seg = np.flatnonzero(np.concatenate(([True], ndv[1:] != ndv[:-1])))
    floor = np.full(n.size, -np.inf)
    floor[ndv[seg]] = np.maximum.reduceat(score - err, seg)
    return Screen(score, err, floor)


#: Stride of the block screening (anchors every STRIDE thresholds) for a node of STRIDE_REF
#: rows; a node of n rows uses STRIDE * (n / STRIDE_REF) ** (1/3), at least STRIDE_MIN (the
#: number of thresholds that survive grows like sqrt(stride * n) around the best, the number
#: of anchors like n / stride).
STRIDE = 64
STRIDE_REF = 100_000
STRIDE_MIN = 8
#: Consecutive blocks of a node that share one row bound (computed over their joint range
#: of counts: looser than one bound per block, but a bound costs about 20 float32
#: evaluations of a threshold).
ROW_BOUND_GROUP = 8


def _ramp(cnt):
    """1, 2, ..., cnt[i] for each i, concatenated (positions inside runs of given lengths)."""
    return np.arange(cnt.sum()) - np.repeat(np.cumsum(cnt) - cnt, cnt) + 1


def block_screen(pos, parent_impurity, n, params: GrowthParams, floor=None, stride=STRIDE):
    """Exact screening of the thresholds of a numeric feature by blocks (no missing values).

    Within a node, moving the cut one row to the right moves a row of some class k from the
    right child to the left one, so F = n_L I(L) + n_R I(R) changes by at most
    D_k = D^L_k + D^R_k, the kernel's ``row_bound`` over the box that the children's counts
    span between two evaluated thresholds s < e (counts are monotone along the sorted
    values). With V = sum_k (L_e - L_s)_k D_k, every threshold t between them has
    F_t >= max(F_s - V_st, F_e - V_te) >= (F_s + F_e - V) / 2, so its gain is at most
    I(node) - (F_s + F_e - V) / (2 n). With lambda_alpha, the denominator
    alpha I(node) + (1 - alpha) I(X) is at least its smaller value at s and e (I(X), the
    uncentered measure of the two branch sizes, is concave in n_L), so the score is at most
    max(gain bound, 0) / that.

    The anchors, every ``stride`` thresholds of a node (scaled by node size, see ``STRIDE``)
    and its first and last, are evaluated: exactly, or in float32 when the kernel has it
    (each anchor's gain is then within eps of its exact value, eps / denominator for its
    score, and a block's bound on the gain grows by eps). The blocks between them that cannot
    reach the floor (the best anchor score of the node minus its error, or ``floor`` if
    higher) minus the tie tolerance are skipped; ``ROW_BOUND_GROUP`` consecutive blocks share
    one row bound, over their joint range of counts.

    Returns a :class:`Screen` as :func:`screen`: anchors carry their score (and
    its error bound in ``err``), thresholds inside a surviving block the block's bound, the
    others -inf. Nothing that can win is dropped, so the split, gain and score are those of
    the full exact search.
    """
    node_ids, n_left, n_right = pos.node_ids, pos.n_left, pos.n_right
    Lq, Rq = pos.L.T, pos.R.T  # (q, m), contiguous
    m = node_ids.size
    # anchors: each node's first and last threshold and every `step`-th in between
    change = np.flatnonzero(node_ids[1:] != node_ids[:-1])
    first, last = np.concatenate(([0], change + 1)), np.concatenate((change, [m - 1]))
    step = np.rint(stride * np.cbrt(n[node_ids[first]] / STRIDE_REF))
    step = np.maximum(step, STRIDE_MIN).astype(np.int64)
    cnt = np.maximum((last - first - 1) // step, 0)
    inner = np.repeat(first, cnt) + np.repeat(step, cnt) * _ramp(cnt)
    a = np.unique(np.concatenate((first, inner, last)))
    na, la, ra = node_ids[a], n_left[a], n_right[a]
    sc = params.scorer
    approx = sc.screenable
    F = sc.children_sum(np.take(Lq, a, axis=1).T, np.take(Rq, a, axis=1).T, la, ra, approx)
    gain = parent_impurity[na] - F / n[na]
    den = sc.denominator(parent_impurity[na], la, ra)
    score = np.full(m, -np.inf)
    score[a] = sc.score_of(gain, parent_impurity[na], la, ra, den)
    eps = sc.approx_error + 1e-12 if approx else 0.0
    err = np.zeros(m) if approx else 0.0
    if approx and den is not None:
        err[a] = np.where(den > 1e-15, eps / np.where(den > 1e-15, den, 1.0), 0.0)
    elif approx:
        err[a] = eps
    floor = np.full(n.size, -np.inf) if floor is None else floor.copy()
    np.maximum.at(floor, na, score[a] - (err[a] if approx else 0.0))
    # blocks: consecutive anchors of a node with thresholds between them
    blk = np.flatnonzero((na[:-1] == na[1:]) & (a[1:] - a[:-1] > 1))
    if blk.size == 0:
        return Screen(score, err, floor)
    s, e, node = a[blk], a[blk + 1], na[blk]
    Ls, Le = np.take(Lq, s, axis=1), np.take(Lq, e, axis=1)
    # one row bound per group of consecutive blocks of a node, over the group's box (which
    # holds each block's box: counts are monotone); left and right children in one call
    new_node = np.concatenate(([True], node[1:] != node[:-1]))
    starts = np.flatnonzero(new_node)
    rank = np.arange(s.size) - np.repeat(starts, np.diff(np.append(starts, s.size)))
    gfirst = new_node | (rank % ROW_BOUND_GROUP == 0)
    gi = np.flatnonzero(gfirst)
    gs, ge = s[gi], e[np.append(gi[1:] - 1, s.size - 1)]
    b = sc.row_bound(
        np.concatenate((np.take(Lq, gs, axis=1), np.take(Rq, ge, axis=1)), axis=1),
        np.concatenate((np.take(Lq, ge, axis=1), np.take(Rq, gs, axis=1)), axis=1),
        np.concatenate((n_left[gs], n_right[ge])),
        np.concatenate((n_left[ge], n_right[gs])),
    )
    D = np.take(b[:, : gi.size] + b[:, gi.size :], np.cumsum(gfirst) - 1, axis=1)
    V = ((Le - Ls) * D).sum(axis=0) * (1.0 + 1e-9)
    ub = parent_impurity[node] - 0.5 * (F[blk] + F[blk + 1] - V) / n[node] + eps + TIE
    if den is not None:
        ub = sc.score_bound(ub, den[blk], den[blk + 1])
    live = ub >= floor[node] - TIE
    s, e, ub = s[live], e[live], ub[live]
    # thresholds strictly inside the surviving blocks carry their block's bound
    cnt = e - s - 1
    score[np.repeat(s, cnt) + _ramp(cnt)] = np.repeat(ub, cnt)
    return Screen(score, err, floor)


def block_screened(pos, params: GrowthParams) -> bool:
    """Whether the block screening applies: a kernel with a row bound, no missing values,
    enough thresholds for its fixed cost, and enough per node on average (with small nodes
    the float32 screening, one pass over every threshold, is cheaper)."""
    m = pos.node_ids.size
    if not params.scorer.can_block_screen() or pos.M is not None or m < BLOCK_MIN:
        return False
    need = params.scorer.block_node_min
    nodes = 1 + int(np.count_nonzero(pos.node_ids[1:] != pos.node_ids[:-1]))
    return m >= need * nodes  # the kernel's measured crossover (SplitScorer.block_node_min)


#: Fewest thresholds of a feature for the block screening (its fixed cost, about 150 numpy
#: calls, is not worth it below): a measured crossover (benchmarks/), where the blocks start to
#: beat the float32 pass and the exact asymmetric kernel on one feature of one node.
BLOCK_MIN = 15_000


def screened(pos) -> bool:
    return pos.node_ids.size >= SCREEN_MIN


def survivors(sc, node_ids, floor) -> np.ndarray:
    """The candidates that can still be chosen: approximate score + bound >= floor - TIE."""
    return np.flatnonzero(sc.score + sc.err >= floor.take(node_ids) - TIE)


def subset(pos: Candidates, rows) -> Candidates:
    """The candidates ``rows`` of ``pos`` (class columns kept contiguous; the per-node missing
    counts kept whole, the positions ``idx`` and the rows ``rl``, ``rr`` dropped)."""
    return Candidates(
        pos.node_ids[rows],
        np.take(pos.L.T, rows, axis=1).T,
        np.take(pos.R.T, rows, axis=1).T,
        pos.n_left[rows],
        pos.n_right[rows],
        None if pos.thr is None else pos.thr[rows],  # None: groupings of categories
        None,
        None if pos.miss_child is None else pos.miss_child[rows],
        pos.M,
        pos.Mrows,
    )


#: Below this many candidates the float32 screening is not worth its bookkeeping.
SCREEN_MIN = 256


def _keep(pos, sc, floor):
    """The candidates of ``pos`` that can still reach ``floor`` (and their screening)."""
    keep = survivors(sc, pos.node_ids, floor)
    if keep.size == 0:
        return None, None
    sc.score = sc.score[keep]
    if np.ndim(sc.err):
        sc.err = sc.err[keep]
    return subset(pos, keep), sc
