"""Exact, vectorised search of the best threshold of a numeric feature at every open node.

The rows of the open nodes are sorted by (node, value); class counts to the left of every
position come from cumulative sums with a reset at each node's start, the valid thresholds
are the positions where the value changes inside a node, and every threshold of every node of
the level is scored in one call to the :class:`~offcenter.tree.scoring.SplitScorer`. The
best threshold per node is reduced with ``np.maximum.reduceat``; on a tie (within ``TIE``)
the smallest threshold wins.
"""

from __future__ import annotations

import numpy as np

from offcenter.tree.monotonic import admissible
from offcenter.tree.records import (
    TIE,
    BestSplits,
    Candidates,
    GrowthParams,
    Screened,
)
from offcenter.tree.screening import (
    _keep,
    block_screen,
    block_screened,
    screen,
    screened,
    subset,
    survivors,
)


def _missing_to_larger(L, R, n_left, n_right, Mv):
    """Send each threshold's missing-value counts ``Mv`` (m, q) to its larger child.

    The larger child by count (weight when weighted); the left one on a tie. Returns
    ``go_left``, ``miss_child`` (0 left, 1 right), the children's counts ``L``, ``R`` with the
    missing rows added and their totals ``n_left``, ``n_right``.
    """
    go_left = n_left >= n_right
    L = L + np.where(go_left[:, None], Mv, 0)
    R = R + np.where(go_left[:, None], 0, Mv)
    return go_left, np.where(go_left, 0, 1), L, R, L.sum(axis=1), R.sum(axis=1)


def numeric_positions(
    v,
    node_ids,
    y_codes,
    q,
    n_nodes,
    node_counts,
    min_samples_leaf,
    allowed=None,
    prune=False,
    w=None,
    min_weight_leaf=0.0,
    mult=None,
):
    """Every valid threshold of every node in a (node, value)-sorted column.

    Returns None or the :class:`Candidates`: the position ``idx`` (split after it), node
    ``node_ids``, left and right class counts ``L``, ``R`` (missing values added to the larger
    child), sizes ``n_left``, ``n_right``, the missing child (0/1), and per-node missing counts
    ``M``. ``node_ids``: the node of each row (the column is sorted by it), ``y_codes``: its
    class code, ``node_counts`` (``n_nodes``, q): the class counts of the nodes.

    ``prune=True`` (only for a concave impurity that depends on the frequencies alone) skips the
    thresholds inside a run of value blocks that are all pure of the same class, keeping the
    first and last valid threshold of every node: along such a run the weighted child impurity
    is concave in the cut position, so its minimum over the run is at one of its ends (Fayyad
    and Irani 1992; Breiman et al. 1984). The result is the same split, found faster.

    ``w`` (the rows' weights, aligned with ``v``) makes every count a sum of weights
    (:func:`_weighted_positions`); ``n_left``, ``n_right`` are then the children's weights and
    ``rl``, ``rr`` their rows (``min_samples_leaf`` counts rows, as in scikit-learn).
    ``min_weight_leaf``: the fewest weight (rows when unweighted) a child may have
    (``min_weight_fraction_leaf``).

    ``mult`` (unweighted rows only; integers >= 1 aligned with ``v``): row i stands for
    ``mult[i]`` identical rows (:func:`offcenter.tree.growth.grow`'s ``mult``). Every count
    is then a running sum of integers, exactly the count of the column with each row
    repeated (``n_left``, ``n_right`` and ``min_samples_leaf`` count the repeated rows), and
    the thresholds are the same: copies have equal values, so no threshold falls between
    them.
    """
    m = v.shape[0]
    if m < 2:
        return None
    if w is not None:
        return _weighted_positions(
            v, node_ids, y_codes, q, n_nodes, min_samples_leaf, allowed, prune, w, min_weight_leaf
        )
    isnan = np.isnan(v)
    if isnan.any():
        M = np.bincount(
            node_ids[isnan].astype(np.int64) * q + y_codes[isnan],
            weights=None if mult is None else mult[isnan],
            minlength=n_nodes * q,
        )
        M = M.reshape(n_nodes, q).astype(np.int64, copy=False)
        prune = False
    else:
        M = None
    same_node = node_ids[:-1] == node_ids[1:]
    increasing = v[:-1] < v[1:]
    valid = same_node & increasing
    if allowed is not None:
        valid &= allowed[node_ids[:-1]]
    idx = np.flatnonzero(valid)
    if idx.size == 0:
        return None
    # gathers below use `take` with intp indices (node keys may be int16; fancy indexing
    # with them casts, and is slower than `take` even with intp)
    ndv = node_ids.take(idx).astype(np.intp)
    starts = np.searchsorted(node_ids, np.arange(n_nodes)).astype(np.intp)
    first = starts.take(ndv)  # first row of each threshold's node
    after = idx + 1
    if mult is None:
        n_left = after - first
    else:  # rows counted with their copies: cm[i], the rows before position i
        cm = np.zeros(m + 1, np.int64)
        np.cumsum(mult, out=cm[1:])
        n_left = cm.take(after) - cm.take(first)
    NT = node_counts if M is None else node_counts - M  # non-missing counts per node
    nnm = NT.sum(axis=1)
    n_right = nnm.take(ndv) - n_left
    if M is None and (min_samples_leaf > 1 or min_weight_leaf > 0):
        # the leaf-size rules before any pruning of thresholds: a pure run cut by them has
        # its end where they cut it
        keep = (n_left >= max(min_samples_leaf, min_weight_leaf)) & (
            n_right >= max(min_samples_leaf, min_weight_leaf)
        )
        if not keep.all():
            idx, ndv, n_left, n_right, first = _rows_kept(keep, idx, ndv, n_left, n_right, first)
            if idx.size == 0:
                return None
    if prune and idx.size > 2:
        skip = _prune_mask(same_node, increasing, y_codes, idx, ndv)
        if skip.any():
            keep = ~skip
            idx, ndv, n_left, n_right, first = _rows_kept(keep, idx, ndv, n_left, n_right, first)
    # left counts: cum[i] = rows of the class among the first i of the column, so the left
    # child of the threshold after row idx holds cum[idx + 1] - cum[first] of them
    cum = np.zeros(m + 1, np.int64)
    after = idx + 1
    if q == 2:
        np.cumsum(y_codes if mult is None else y_codes * mult, out=cum[1:])
        l1 = cum.take(after) - cum.take(first)
        Lt = np.stack([n_left - l1, l1])
    else:
        Lt = np.empty((q, idx.size), np.int64)
        for j in range(q):
            np.cumsum(y_codes == j if mult is None else (y_codes == j) * mult, out=cum[1:])
            np.subtract(cum.take(after), cum.take(first), out=Lt[j])
    # (m, q) views whose class columns are contiguous (the kernels loop over classes)
    L = Lt.T
    R = (np.take(np.ascontiguousarray(NT.T), ndv, axis=1) - Lt).T  # take: fast on axis 1
    miss_child = None
    if M is not None:
        _, miss_child, L, R, n_left, n_right = _missing_to_larger(L, R, n_left, n_right, M[ndv])
        keep = (n_left >= min_samples_leaf) & (n_right >= min_samples_leaf)
        if not keep.all():
            idx, ndv, L, R, n_left, n_right = _rows_kept(keep, idx, ndv, L, R, n_left, n_right)
            miss_child = miss_child[keep]
            if idx.size == 0:
                return None
    if min_weight_leaf > 0:
        keep = (n_left >= min_weight_leaf) & (n_right >= min_weight_leaf)
        if not keep.all():
            idx, ndv, L, R, n_left, n_right = _rows_kept(keep, idx, ndv, L, R, n_left, n_right)
            miss_child = None if miss_child is None else miss_child[keep]
            if idx.size == 0:
                return None
    thr = _midpoints(v[idx], v[idx + 1])
    return Candidates(ndv, L, R, n_left, n_right, thr, idx, miss_child, M, None, n_left, n_right)


def _rows_kept(keep, *arrays):
    """Each array's rows where the boolean ``keep`` is true (the candidates a rule keeps)."""
    return tuple(a[keep] for a in arrays)


def _weighted_positions(
    v, node_ids, y_codes, q, n_nodes, min_samples_leaf, allowed, prune, w, min_weight_leaf
):
    """:func:`numeric_positions` for weighted rows (float counts).

    Both children's class counts are differences of one cumulative sum of the class's
    weights (left: from the node's first row to the cut, right: from the cut to the node's
    last non-missing row), so a class absent from a child has a count of exactly 0. The
    pruning of pure runs holds for any positive weights (the weighted child impurity is
    concave along a run as well: the cut moves the counts along a line).
    """
    m = v.shape[0]
    node_ids = node_ids.astype(np.intp)
    isnan = np.isnan(v)
    rows_node = np.bincount(node_ids, minlength=n_nodes)
    if isnan.any():
        key = node_ids[isnan] * q + y_codes[isnan]
        M = np.bincount(key, weights=w[isnan], minlength=n_nodes * q).reshape(n_nodes, q)
        Mrows = np.bincount(node_ids[isnan], minlength=n_nodes)
        prune = False
    else:
        M = None
        Mrows = np.zeros(n_nodes, np.int64)
    same_node = node_ids[:-1] == node_ids[1:]
    increasing = v[:-1] < v[1:]
    valid = same_node & increasing
    if allowed is not None:
        valid &= allowed[node_ids[:-1]]
    idx = np.flatnonzero(valid)
    if idx.size == 0:
        return None
    ndv = node_ids.take(idx)
    starts = np.searchsorted(node_ids, np.arange(n_nodes)).astype(np.intp)
    first = starts.take(ndv)
    end = first + (rows_node - Mrows).take(ndv)  # one past the node's last non-missing row
    rl = idx - first + 1
    rr = end - idx - 1
    if M is None and min_samples_leaf > 1:
        keep = (rl >= min_samples_leaf) & (rr >= min_samples_leaf)
        if not keep.all():
            idx, ndv, rl, rr, first, end = (a[keep] for a in (idx, ndv, rl, rr, first, end))
            if idx.size == 0:
                return None
    # the weight rule needs the children's weights: with it, the pruning of pure runs waits
    # until it has been applied (a pure run cut by it has its end where it cuts it)
    late_prune = prune and min_weight_leaf > 0
    if prune and not late_prune and idx.size > 2:
        skip = _prune_mask(same_node, increasing, y_codes, idx, ndv)
        if skip.any():
            keep = ~skip
            idx, ndv, rl, rr, first, end = (a[keep] for a in (idx, ndv, rl, rr, first, end))
    cum = np.zeros(m + 1, np.float64)
    after = idx + 1
    Lt = np.empty((q, idx.size))
    Rt = np.empty((q, idx.size))
    pos_w = w[w > 0]
    compensate = pos_w.size > 0 and pos_w.max() > WIDE_WEIGHTS * pos_w.min()
    for j in range(q):
        x = np.where(y_codes == j, w, 0.0)
        np.cumsum(x, out=cum[1:])
        ca = cum.take(after)
        np.subtract(ca, cum.take(first), out=Lt[j])
        np.subtract(cum.take(end), ca, out=Rt[j])
        if compensate:
            err = _cumsum_errors(cum, x)
            ea = err.take(after)
            Lt[j] += ea - err.take(first)
            Rt[j] += err.take(end) - ea
    L, R = Lt.T, Rt.T
    n_left, n_right = Lt.sum(axis=0), Rt.sum(axis=0)
    miss_child = None
    if M is not None:
        go_left, miss_child, L, R, n_left, n_right = _missing_to_larger(
            L, R, n_left, n_right, M[ndv]
        )
        mr = Mrows.take(ndv)
        rl = rl + np.where(go_left, mr, 0)
        rr = rr + np.where(go_left, 0, mr)
        keep = (rl >= min_samples_leaf) & (rr >= min_samples_leaf)
        if not keep.all():
            idx, ndv, L, R, n_left, n_right, rl, rr = (
                a[keep] for a in (idx, ndv, L, R, n_left, n_right, rl, rr)
            )
            miss_child = miss_child[keep]
            if idx.size == 0:
                return None
    if min_weight_leaf > 0:
        keep = (n_left >= min_weight_leaf) & (n_right >= min_weight_leaf)
        if not keep.all():
            idx, ndv, L, R, n_left, n_right = _rows_kept(keep, idx, ndv, L, R, n_left, n_right)
            rl, rr = rl[keep], rr[keep]
            miss_child = None if miss_child is None else miss_child[keep]
            if idx.size == 0:
                return None
    if late_prune and idx.size > 2:
        skip = _prune_mask(same_node, increasing, y_codes, idx, ndv)
        if skip.any():
            keep = ~skip
            idx, ndv, L, R, n_left, n_right, rl, rr = (
                a[keep] for a in (idx, ndv, L, R, n_left, n_right, rl, rr)
            )
    thr = _midpoints(v[idx], v[idx + 1])
    return Candidates(ndv, L, R, n_left, n_right, thr, idx, miss_child, M, Mrows, rl, rr)


#: Ratio of the largest to the smallest positive row weight above which the running sums of
#: weights are compensated (:func:`_cumsum_errors`): a row of weight 1 after one of 1e20 is
#: lost in a plain running sum, and a child's count of it with it.
WIDE_WEIGHTS = 2.0**16


def _cumsum_errors(cum: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The accumulated rounding errors of a running sum ``cum[1:] = cumsum(x)`` (``cum[0] =
    0``): ``cum + errors`` is the exact running sum up to second-order terms (the error of each
    addition is exact by Knuth's TwoSum; their own running sum is in much smaller numbers)."""
    a, s = cum[:-1], cum[1:]
    bv = s - a
    e = (a - (s - bv)) + (x - bv)
    out = np.zeros_like(cum)
    np.cumsum(e, out=out[1:])
    return out


def _midpoints(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Thresholds between neighbouring distinct values: (lo + hi) / 2, or lo/2 + hi/2 where the
    sum overflows (values near the largest float); ``lo`` where the midpoint rounds up to
    ``hi`` (as scikit-learn does)."""
    with np.errstate(over="ignore"):
        thr = 0.5 * (lo + hi)
    big = ~np.isfinite(thr)
    if big.any():
        thr = np.where(big, 0.5 * lo + 0.5 * hi, thr)
    bad = (thr >= hi) | ~np.isfinite(thr)
    if bad.any():
        thr = np.where(bad, lo, thr)
    return thr


def _prune_mask(same_node, increasing, y_codes, idx, ndv):
    """Thresholds strictly inside runs of value blocks pure of one class (numeric_positions's
    ``prune``): True where the threshold can be skipped."""
    same = y_codes[:-1] == y_codes[1:]
    inner = same_node & ~increasing & ~same  # class change between equal values
    if inner.any():
        block = np.concatenate(([0], np.cumsum(~(same_node & ~increasing))))
        impure = np.zeros(int(block[-1]) + 1, bool)
        impure[block[1:][inner]] = True
        skip = same[idx] & ~impure[block[idx]] & ~impure[block[idx + 1]]
    else:
        skip = same[idx]
    edge = np.flatnonzero(ndv[1:] != ndv[:-1])
    skip[0] = skip[-1] = False
    skip[edge] = False
    skip[edge + 1] = False
    return skip


def score_candidates(pos, parent_impurity, n, params: GrowthParams):
    """Exact gain and score of candidate splits with left/right counts (sorted by node).

    With a float32 kernel the candidates are screened first (:func:`screen`); those that
    cannot be chosen get gain and score -inf, the others their exact float64 values, so the
    chosen split, its gain and its score are those of a full exact search.
    """
    if not params.scorer.screenable or not screened(pos):
        return _score_exactly(pos, parent_impurity, n, params)
    sc = screen(pos, parent_impurity, n, params)
    cand = survivors(sc, pos.node_ids, sc.floor)
    gain = np.full(pos.node_ids.size, -np.inf)
    score = np.full(pos.node_ids.size, -np.inf)
    gain[cand], score[cand] = _score_exactly(subset(pos, cand), parent_impurity, n, params)
    return gain, score


def _score_exactly(pos, parent_impurity, n, params: GrowthParams):
    """Exact (gain, score) of every candidate, from the scorer."""
    ndv = pos.node_ids
    return params.scorer.pair(
        pos.L, pos.R, pos.n_left, pos.n_right, parent_impurity.take(ndv), n.take(ndv)
    )


def best_per_segment(node_ids, score):
    """For candidates sorted by node: (nodes, index of the best candidate of each node).

    The best is the highest score; on a tie (within TIE) the first candidate.
    """
    if node_ids[0] == node_ids[-1]:  # one node (the inspection of a node): no segments to reduce
        return node_ids[:1], np.flatnonzero(score >= score.max() - TIE)[:1]
    seg = np.flatnonzero(np.concatenate(([True], node_ids[1:] != node_ids[:-1])))
    best = np.maximum.reduceat(score, seg)
    lengths = np.diff(np.append(seg, score.size))
    rep = np.repeat(best, lengths)
    cand = np.flatnonzero(score >= rep - TIE)
    nc = node_ids.take(cand)  # sorted: the first candidate of each node is where the node changes
    first = np.flatnonzero(np.concatenate(([True], nc[1:] != nc[:-1])))
    return node_ids[seg], cand[first]


def search_numeric(
    v,
    node_ids,
    y_codes,
    n_nodes,
    node_counts,
    n,
    parent_impurity,
    params: GrowthParams,
    allowed=None,
    lazy=False,
    floor=None,
    w=None,
    monotonic=None,
    mult=None,
):
    """Best threshold of one numeric feature for every node.

    ``monotonic`` = (sign, lower, upper): the feature's constraint (1 or -1) and each node's
    bounds (arrays of ``n_nodes``); only the admissible thresholds are candidates
    (:func:`offcenter.tree.monotonic.admissible`), and the pure runs are not skipped (an
    admissible threshold can lie inside one).

    ``floor`` (per node) is a score that some split of the level is known to reach (the best
    score found so far, or a proven lower bound of it): the screenings drop what cannot.

    ``lazy=True`` with a screening kernel (a row bound: :func:`block_screen`, then a float32
    version: :func:`screen`) returns a :class:`Screened` (candidates and screening) instead:
    the few candidates that can still win, for ``grow`` to evaluate exactly with other
    features'. Only these are held until the level ends.

    ``mult``: each row's number of copies (:func:`numeric_positions`).
    """
    pos = numeric_positions(
        v,
        node_ids,
        y_codes,
        params.q,
        n_nodes,
        node_counts,
        params.min_samples_leaf,
        allowed,
        params.scorer.prune_pure_runs and monotonic is None,
        w,
        params.min_weight_leaf,
        mult,
    )
    if pos is not None and monotonic is not None:
        sign, lower, upper = monotonic
        ok = admissible(
            pos.L,
            pos.R,
            pos.n_left,
            pos.n_right,
            sign,
            lower.take(pos.node_ids),
            upper.take(pos.node_ids),
        )
        pos = None if not ok.any() else pos if ok.all() else subset(pos, np.flatnonzero(ok))
    if pos is None:
        return None
    blocks = lazy and block_screened(pos, params)
    sc = None
    if blocks:
        sc = block_screen(pos, parent_impurity, n, params, floor=floor)
        pos, sc = _keep(pos, sc, sc.floor)
        if pos is None:
            return None
        if not params.scorer.screenable:
            # no float32 stage: evaluate the survivors now
            gain, score = _score_exactly(pos, parent_impurity, n, params)
            return numeric_result(pos, gain, score)
    if lazy and params.scorer.screenable and screened(pos):
        # float32 screening of every threshold (or of what the blocks kept)
        fl = screen(pos, parent_impurity, n, params)
        known = floor if sc is None else sc.floor  # the blocks' floor includes `floor`
        if known is not None:
            np.maximum(fl.floor, known, out=fl.floor)
        pos, sc = _keep(pos, fl, fl.floor)
        if pos is None:
            return None
    if sc is not None:
        return Screened(pos, sc)
    gain, score = score_candidates(pos, parent_impurity, n, params)
    return numeric_result(pos, gain, score)


def numeric_result(pos: Candidates, gain, score) -> BestSplits:
    """The best candidate per node of ``pos``, given the exact gains and scores."""
    nodes, b = best_per_segment(pos.node_ids, score)
    M = pos.M
    return BestSplits(
        nodes,
        score[b],
        gain[b],
        thr=pos.thr[b],
        L=pos.L[b],
        R=pos.R[b],
        miss_child=(np.zeros(b.size, np.int64) if pos.miss_child is None else pos.miss_child[b]),
        n_missing=(
            pos.Mrows[nodes]
            if pos.Mrows is not None
            else np.zeros(b.size, np.int64)
            if M is None
            else M.sum(axis=1)[nodes]
        ),
    )


def resolve_lazy(found: dict, n_nodes, parent_impurity, n, params: GrowthParams) -> None:
    """Replace the lazy (screened) numeric results of ``found`` by exact ones, in place.

    A node's best exact score is at least the largest floor of its screened features and the
    exact score of its other features; candidates below that by more than their bound and the
    tie tolerance cannot win the node, under any feature. The rest, over all lazy features,
    are evaluated exactly in one batch.
    """
    lazy = [j for j, r in found.items() if isinstance(r, Screened)]
    if not lazy:
        return
    floor = np.full(n_nodes, -np.inf)
    for r in found.values():
        if isinstance(r, Screened):
            np.maximum(floor, r.screen.floor, out=floor)
        else:
            np.maximum.at(floor, r.nodes, r.score)
    parts = []
    for j in lazy:
        pos, sc = found[j].pos, found[j].screen
        parts.append(subset(pos, survivors(sc, pos.node_ids, floor)))
    sizes = [p.node_ids.size for p in parts]
    both = Candidates(
        np.concatenate([p.node_ids for p in parts]),
        np.concatenate([p.L.T for p in parts], axis=1).T,
        np.concatenate([p.R.T for p in parts], axis=1).T,
        np.concatenate([p.n_left for p in parts]),
        np.concatenate([p.n_right for p in parts]),
    )
    gain, score = _score_exactly(both, parent_impurity, n, params)
    start = 0
    for j, p, size in zip(lazy, parts, sizes):
        if size == 0:
            del found[j]
        else:
            found[j] = numeric_result(p, gain[start : start + size], score[start : start + size])
        start += size
