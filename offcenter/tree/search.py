"""Level-wise (breadth-first) growth with an exact, vectorised split search.

Every numeric feature is sorted once (``argsort`` at the start). At each level the engine keeps,
per numeric feature, the training rows of the open nodes sorted by (node, value); class counts
to the left of every position come from cumulative sums with a reset at each node's start, the
valid thresholds are the positions where the value changes inside a node, and the impurity of
the left and right counts of every threshold of every node of the level is evaluated in one
vectorised call. The best threshold per node is reduced with ``np.maximum.reduceat``. The sorted
orders are then split into the children's orders with a stable radix sort on the child index
(O(n)), never re-sorted. Categorical features use a (node, code, class) ``bincount``.

Screening, exact result: with a kernel that has a per-row bound (off-centered Shannon, the
asymmetric entropy), :func:`block_screen` evaluates every few thresholds exactly and skips the
blocks between them that provably cannot reach the best score known at the level; with a
float32 kernel (off-centered Shannon, 3+ classes), :func:`screen` drops the thresholds whose
approximate score cannot come within the tie tolerance of the best. What survives, over every
feature of the level, is evaluated exactly (:func:`resolve_lazy`), so the chosen split, gain
and score are those of the full float64 search.

Tie-breaking (deterministic): highest score; on a tie (within 1e-12) the feature that comes
first in column order; within a feature the smallest threshold (numeric) or the first grouping
enumerated (categorical binary).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from offcenter.measures.impurity import Impurity
from offcenter.tree.encode import Encoded
from offcenter.tree.kernels import CountKernel

TIE = 1e-12


@dataclass
class Settings:
    imp: Impurity
    q: int
    n_max: int
    alpha: float | None = None
    max_depth: int | None = None
    min_samples_split: int = 2
    min_samples_leaf: int = 1
    min_gain: float = 0.0
    categorical: str = "multiway"
    max_features: int | None = None
    rng: np.random.Generator | None = None
    #: weighted rows (float class counts): the exact kernels only, see CountKernel
    weighted: bool = False
    #: fewest weight per child (min_weight_fraction_leaf times the total weight); 0: none
    min_weight_leaf: float = 0.0
    kernel: CountKernel = field(init=False)
    pkernel: CountKernel = field(init=False)

    prune: bool = field(init=False)

    def __post_init__(self):
        self.kernel = CountKernel(self.imp, self.q, self.n_max, self.weighted)
        info = self.imp.info
        self.prune = bool(
            info.concave and not self.imp.consistent and (not self.imp.off_centered or self.q == 2)
        )
        self.pkernel = CountKernel(self.imp.for_predictor(2), 2, self.n_max, self.weighted)
        #: a split criterion (HDDT) scores splits by itself (gain = score = its value); its
        #: kernel is the node measure. The pure-run pruning stays exact for the Hellinger
        #: distance (each one-vs-rest d_c^2 is convex along a run pure of one class, see
        #: offcenter.measures.criteria), and no screening applies (its kernel has none).
        self.criterion = self.imp.criterion
        if self.criterion is not None and self.alpha is not None:
            raise ValueError(
                f"alpha (lambda_alpha) does not apply to the {info.label}, a split criterion "
                "scored by itself; leave alpha=None."
            )

    def denominator(self, i_parent, nl, nr):
        """alpha I(node) + (1 - alpha) I(X) of lambda_alpha; None when scoring by the gain."""
        if self.alpha is None:
            return None
        sizes = np.stack([nl, nr], axis=1)
        i_x = self.pkernel(sizes, nl + nr)
        return self.alpha * i_parent + (1.0 - self.alpha) * i_x

    def score(self, gain, i_parent, nl, nr, denom=None):
        """gain, or lambda_alpha with I(X) the uncentered measure of the branch sizes."""
        if self.alpha is None:
            return gain
        if denom is None:
            denom = self.denominator(i_parent, nl, nr)
        ok = denom > 1e-15
        return np.where(ok, gain / np.where(ok, denom, 1.0), 0.0)


@dataclass
class SplitChoice:
    """The split made at a node while the tree grows (found by the search, or forced by an
    edit); it becomes a frozen :class:`offcenter.tree.nodes.Split`."""

    feature_index: int
    kind: str  # "numeric", "categorical" (one child per value) or "categorical_binary"
    threshold: float | None  # numeric: x <= threshold goes to child 0
    group_codes: list | None  # categorical: the category codes of each child
    groups: tuple | None  # categorical: the category values of each child
    child_counts: list  # class counts (sums of weights) of each child
    missing_child: int
    default_child: int
    gain: float
    score: float
    n_missing: int  # rows of the node whose value of the feature is missing
    labels: tuple  # readable condition of each child


def numeric_split(j, info, thr, L, R, mc, gain, score, n_missing) -> SplitChoice:
    """A numeric split ``x <= thr`` (missing values to child ``mc``)."""
    return SplitChoice(
        j,
        "numeric",
        thr,
        None,
        None,
        [L, R],
        mc,
        mc,
        gain,
        score,
        n_missing,
        branch_labels(info, "numeric", thr, None, mc),
    )


@dataclass
class Candidates:
    """Candidate splits of a feature at the open nodes of a level, sorted by node.

    ``nd`` the node of each candidate, ``L`` and ``R`` the class counts (m, q) of its left
    and right children (sums of weights with weighted rows; missing values in the child
    they go to), ``nl`` and ``nr`` their totals. Numeric features also have the threshold
    ``thr``, the position ``idx`` of the cut in the sorted column (split after it), the
    child of the missing values ``miss_child`` (None: no missing value), the per-node missing
    counts ``M`` (nn, q) and rows ``Mrows`` (weighted rows only), and the children's rows
    ``rl``, ``rr``.
    """

    nd: np.ndarray
    L: np.ndarray
    R: np.ndarray
    nl: np.ndarray
    nr: np.ndarray
    thr: np.ndarray | None = None
    idx: np.ndarray | None = None
    miss_child: np.ndarray | None = None
    M: np.ndarray | None = None
    Mrows: np.ndarray | None = None
    rl: np.ndarray | None = None
    rr: np.ndarray | None = None


@dataclass
class Screen:
    """Screening of candidates: an upper ``score`` (approximate or a block bound) with its
    error ``err`` (array or 0) per candidate, and per node a ``floor`` that the best exact
    score is known to reach (see :func:`screen`, :func:`block_screen`)."""

    score: np.ndarray
    err: np.ndarray | float
    floor: np.ndarray


@dataclass
class Screened:
    """A numeric feature's candidates that survived the screening, held until the level's
    exact evaluation (:func:`resolve_lazy`)."""

    pos: Candidates
    screen: Screen


@dataclass
class BestSplits:
    """The best split of a feature at each node of ``nodes`` (exact ``score`` and ``gain``).

    Numeric: ``thr``, the children's counts ``L``, ``R``, ``miss_child``; categorical: the
    category codes of each child ``groups`` and their counts ``child_counts``, ``binary``
    for a two-group split. ``n_missing``: rows of the node with the value missing. ``where``
    (set by ``grow``): the row of each node in these arrays, -1 where absent.
    """

    nodes: np.ndarray
    score: np.ndarray
    gain: np.ndarray
    thr: np.ndarray | None = None
    L: np.ndarray | None = None
    R: np.ndarray | None = None
    miss_child: np.ndarray | None = None
    n_missing: np.ndarray | None = None
    groups: list | None = None
    child_counts: list | None = None
    binary: bool = False
    where: np.ndarray | None = None


@dataclass
class Record:
    """A node while the tree grows (turned into a frozen Node at the end)."""

    parent: int | None
    depth: int
    counts: np.ndarray
    conditions: tuple
    split: SplitChoice | None = None
    children: list = field(default_factory=list)
    n_missing: int = 0
    n_rows: int = 0  # training rows (counts are weighted when the rows are)


# ----------------------------------------------------------------------------------------------
# numeric split search
# ----------------------------------------------------------------------------------------------


def _missing_to_larger(L, R, nl, nr, Mv):
    """Send each threshold's missing-value counts ``Mv`` (m, q) to its larger child.

    The larger child by count (weight when weighted); the left one on a tie. Returns
    ``go_left``, ``miss_child`` (0 left, 1 right), the children's counts ``L``, ``R`` with the
    missing rows added and their totals ``nl``, ``nr``.
    """
    go_left = nl >= nr
    L = L + np.where(go_left[:, None], Mv, 0)
    R = R + np.where(go_left[:, None], 0, Mv)
    return go_left, np.where(go_left, 0, 1), L, R, L.sum(axis=1), R.sum(axis=1)


def numeric_positions(v, nd, yy, q, nn, T, msl, allowed=None, prune=False, w=None, mwl=0.0):
    """Every valid threshold of every node in a (node, value)-sorted column.

    Returns None or the :class:`Candidates`: the position ``idx`` (split after it), node
    ``nd``, left and right class counts ``L``, ``R`` (missing values added to the larger
    child), sizes ``nl``, ``nr``, the missing child (0/1), and per-node missing counts ``M``.

    ``prune=True`` (only for a concave impurity that depends on the frequencies alone) skips the
    thresholds inside a run of value blocks that are all pure of the same class, keeping the
    first and last valid threshold of every node: along such a run the weighted child impurity
    is concave in the cut position, so its minimum over the run is at one of its ends (Fayyad
    and Irani 1992; Breiman et al. 1984). The result is the same split, found faster.

    ``w`` (the rows' weights, aligned with ``v``) makes every count a sum of weights
    (:func:`_weighted_positions`); ``nl``, ``nr`` are then the children's weights and ``rl``,
    ``rr`` their rows (``min_samples_leaf`` counts rows, as in scikit-learn). ``mwl``: the
    fewest weight (rows when unweighted) a child may have (``min_weight_fraction_leaf``).
    """
    m = v.shape[0]
    if m < 2:
        return None
    if w is not None:
        return _weighted_positions(v, nd, yy, q, nn, msl, allowed, prune, w, mwl)
    isnan = np.isnan(v)
    if isnan.any():
        M = np.bincount(nd[isnan].astype(np.int64) * q + yy[isnan], minlength=nn * q)
        M = M.reshape(nn, q)
        prune = False
    else:
        M = None
    same_node = nd[:-1] == nd[1:]
    increasing = v[:-1] < v[1:]
    valid = same_node & increasing
    if allowed is not None:
        valid &= allowed[nd[:-1]]
    idx = np.flatnonzero(valid)
    if idx.size == 0:
        return None
    # gathers below use `take` with intp indices (node keys may be int16; fancy indexing
    # with them casts, and is slower than `take` even with intp)
    ndv = nd.take(idx).astype(np.intp)
    starts = np.searchsorted(nd, np.arange(nn)).astype(np.intp)
    first = starts.take(ndv)  # first row of each threshold's node
    nl = idx - first + 1
    NT = T if M is None else T - M  # non-missing counts per node
    nnm = NT.sum(axis=1)
    nr = nnm.take(ndv) - nl
    if M is None and msl > 1:
        keep = (nl >= msl) & (nr >= msl)
        if not keep.all():
            idx, ndv, nl, nr, first = idx[keep], ndv[keep], nl[keep], nr[keep], first[keep]
            if idx.size == 0:
                return None
    if prune and idx.size > 2:
        skip = _prune_mask(same_node, increasing, yy, idx, ndv)
        if skip.any():
            keep = ~skip
            idx, ndv, nl, nr, first = idx[keep], ndv[keep], nl[keep], nr[keep], first[keep]
    # left counts: cum[i] = rows of the class among the first i of the column, so the left
    # child of the threshold after row idx holds cum[idx + 1] - cum[first] of them
    cum = np.zeros(m + 1, np.int64)
    after = idx + 1
    if q == 2:
        np.cumsum(yy, out=cum[1:])
        l1 = cum.take(after) - cum.take(first)
        Lt = np.stack([nl - l1, l1])
    else:
        Lt = np.empty((q, idx.size), np.int64)
        for j in range(q):
            np.cumsum(yy == j, out=cum[1:])
            np.subtract(cum.take(after), cum.take(first), out=Lt[j])
    # (m, q) views whose class columns are contiguous (the kernels loop over classes)
    L = Lt.T
    R = (np.take(np.ascontiguousarray(NT.T), ndv, axis=1) - Lt).T  # take: fast on axis 1
    miss_child = None
    if M is not None:
        _, miss_child, L, R, nl, nr = _missing_to_larger(L, R, nl, nr, M[ndv])
        keep = (nl >= msl) & (nr >= msl)
        if not keep.all():
            idx, ndv, L, R, nl, nr = idx[keep], ndv[keep], L[keep], R[keep], nl[keep], nr[keep]
            miss_child = miss_child[keep]
            if idx.size == 0:
                return None
    if mwl > 0:
        keep = (nl >= mwl) & (nr >= mwl)
        if not keep.all():
            idx, ndv, L, R, nl, nr = idx[keep], ndv[keep], L[keep], R[keep], nl[keep], nr[keep]
            miss_child = None if miss_child is None else miss_child[keep]
            if idx.size == 0:
                return None
    thr = 0.5 * (v[idx] + v[idx + 1])
    bad = (thr >= v[idx + 1]) | ~np.isfinite(thr)
    if bad.any():
        thr = np.where(bad, v[idx], thr)
    return Candidates(ndv, L, R, nl, nr, thr, idx, miss_child, M, None, nl, nr)


def _weighted_positions(v, nd, yy, q, nn, msl, allowed, prune, w, mwl):
    """:func:`numeric_positions` for weighted rows (float counts).

    Both children's class counts are differences of one cumulative sum of the class's
    weights (left: from the node's first row to the cut, right: from the cut to the node's
    last non-missing row), so a class absent from a child has a count of exactly 0. The
    pruning of pure runs holds for any positive weights (the weighted child impurity is
    concave along a run as well: the cut moves the counts along a line).
    """
    m = v.shape[0]
    nd = nd.astype(np.intp)
    isnan = np.isnan(v)
    rows_node = np.bincount(nd, minlength=nn)
    if isnan.any():
        key = nd[isnan] * q + yy[isnan]
        M = np.bincount(key, weights=w[isnan], minlength=nn * q).reshape(nn, q)
        Mrows = np.bincount(nd[isnan], minlength=nn)
        prune = False
    else:
        M = None
        Mrows = np.zeros(nn, np.int64)
    same_node = nd[:-1] == nd[1:]
    increasing = v[:-1] < v[1:]
    valid = same_node & increasing
    if allowed is not None:
        valid &= allowed[nd[:-1]]
    idx = np.flatnonzero(valid)
    if idx.size == 0:
        return None
    ndv = nd.take(idx)
    starts = np.searchsorted(nd, np.arange(nn)).astype(np.intp)
    first = starts.take(ndv)
    end = first + (rows_node - Mrows).take(ndv)  # one past the node's last non-missing row
    rl = idx - first + 1
    rr = end - idx - 1
    if M is None and msl > 1:
        keep = (rl >= msl) & (rr >= msl)
        if not keep.all():
            idx, ndv, rl, rr, first, end = (a[keep] for a in (idx, ndv, rl, rr, first, end))
            if idx.size == 0:
                return None
    if prune and idx.size > 2:
        skip = _prune_mask(same_node, increasing, yy, idx, ndv)
        if skip.any():
            keep = ~skip
            idx, ndv, rl, rr, first, end = (a[keep] for a in (idx, ndv, rl, rr, first, end))
    cum = np.zeros(m + 1, np.float64)
    after = idx + 1
    Lt = np.empty((q, idx.size))
    Rt = np.empty((q, idx.size))
    for j in range(q):
        np.cumsum(np.where(yy == j, w, 0.0), out=cum[1:])
        ca = cum.take(after)
        np.subtract(ca, cum.take(first), out=Lt[j])
        np.subtract(cum.take(end), ca, out=Rt[j])
    L, R = Lt.T, Rt.T
    nl, nr = Lt.sum(axis=0), Rt.sum(axis=0)
    miss_child = None
    if M is not None:
        go_left, miss_child, L, R, nl, nr = _missing_to_larger(L, R, nl, nr, M[ndv])
        mr = Mrows.take(ndv)
        rl = rl + np.where(go_left, mr, 0)
        rr = rr + np.where(go_left, 0, mr)
        keep = (rl >= msl) & (rr >= msl)
        if not keep.all():
            idx, ndv, L, R, nl, nr, rl, rr = (a[keep] for a in (idx, ndv, L, R, nl, nr, rl, rr))
            miss_child = miss_child[keep]
            if idx.size == 0:
                return None
    if mwl > 0:
        keep = (nl >= mwl) & (nr >= mwl)
        if not keep.all():
            idx, ndv, L, R, nl, nr = idx[keep], ndv[keep], L[keep], R[keep], nl[keep], nr[keep]
            rl, rr = rl[keep], rr[keep]
            miss_child = None if miss_child is None else miss_child[keep]
            if idx.size == 0:
                return None
    thr = 0.5 * (v[idx] + v[idx + 1])
    bad = (thr >= v[idx + 1]) | ~np.isfinite(thr)
    if bad.any():
        thr = np.where(bad, v[idx], thr)
    return Candidates(ndv, L, R, nl, nr, thr, idx, miss_child, M, Mrows, rl, rr)


def _prune_mask(same_node, increasing, yy, idx, ndv):
    """Thresholds strictly inside runs of value blocks pure of one class (numeric_positions's
    ``prune``): True where the threshold can be skipped."""
    same = yy[:-1] == yy[1:]
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


def screen(pos, Ipar, n, st: Settings):
    """Float32 screening of candidate splits: the ones that can still be the best.

    The kernel's float32 version (``kernel.approx``, the off-centered Shannon entropy with
    q > 2 classes) is within ``kernel.approx_error`` of the exact impurity on each child, so
    the approximate gain is within that bound of the exact gain, and lambda_alpha within the
    bound divided by its (exact) denominator. Returns the approximate scores ``score`` and
    their bounds ``err`` (arrays over the candidates) and ``floor`` (per node, the largest
    ``score - err``: the exact best score of the node is at least this). A candidate with
    ``score + err < floor - TIE`` is worse than the best by more than the tie tolerance and can
    never be chosen; the others are evaluated exactly (:func:`evaluate`, or by ``grow`` for all
    features of a level at once, against the floor over every feature).
    """
    k = st.kernel
    ndv, nl, nr = pos.nd, pos.nl, pos.nr
    ip = Ipar.take(ndv)
    gain = ip - _children_sum(pos.L, pos.R, nl, nr, k.approx) / n.take(ndv)
    den = st.denominator(ip, nl, nr)
    score = st.score(gain, ip, nl, nr, den)
    err = k.approx_error + 1e-12
    if den is not None:
        err = np.where(den > 1e-15, err / np.where(den > 1e-15, den, 1.0), 0.0)
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


def _children_sum(L, R, nl, nr, kernel):
    """n_L I(L) + n_R I(R) for (m, q) left and right counts with ``kernel`` (the exact kernel,
    or its float32 version: then within ``approx_error * (n_L + n_R)``). Two calls: stacking
    the children would copy every count."""
    return nl * kernel(L, nl) + nr * kernel(R, nr)


def _ramp(cnt):
    """1, 2, ..., cnt[i] for each i, concatenated (positions inside runs of given lengths)."""
    return np.arange(cnt.sum()) - np.repeat(np.cumsum(cnt) - cnt, cnt) + 1


def block_screen(pos, Ipar, n, st: Settings, floor=None, stride=STRIDE):
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
    nd, nl, nr = pos.nd, pos.nl, pos.nr
    Lq, Rq = pos.L.T, pos.R.T  # (q, m), contiguous
    m = nd.size
    # anchors: each node's first and last threshold and every `step`-th in between
    change = np.flatnonzero(nd[1:] != nd[:-1])
    first, last = np.concatenate(([0], change + 1)), np.concatenate((change, [m - 1]))
    step = np.rint(stride * np.cbrt(n[nd[first]] / STRIDE_REF))
    step = np.maximum(step, STRIDE_MIN).astype(np.int64)
    cnt = np.maximum((last - first - 1) // step, 0)
    inner = np.repeat(first, cnt) + np.repeat(step, cnt) * _ramp(cnt)
    a = np.unique(np.concatenate((first, inner, last)))
    na, la, ra = nd[a], nl[a], nr[a]
    approx = st.kernel.approx is not None
    F = _children_sum(
        np.take(Lq, a, axis=1).T,
        np.take(Rq, a, axis=1).T,
        la,
        ra,
        st.kernel.approx if approx else st.kernel,
    )
    gain = Ipar[na] - F / n[na]
    den = st.denominator(Ipar[na], la, ra)
    score = np.full(m, -np.inf)
    score[a] = st.score(gain, Ipar[na], la, ra, den)
    eps = st.kernel.approx_error + 1e-12 if approx else 0.0
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
    b = st.kernel.row_bound(
        np.concatenate((np.take(Lq, gs, axis=1), np.take(Rq, ge, axis=1)), axis=1),
        np.concatenate((np.take(Lq, ge, axis=1), np.take(Rq, gs, axis=1)), axis=1),
        np.concatenate((nl[gs], nr[ge])),
        np.concatenate((nl[ge], nr[gs])),
    )
    D = np.take(b[:, : gi.size] + b[:, gi.size :], np.cumsum(gfirst) - 1, axis=1)
    V = ((Le - Ls) * D).sum(axis=0) * (1.0 + 1e-9)
    ub = Ipar[node] - 0.5 * (F[blk] + F[blk + 1] - V) / n[node] + eps + TIE
    if den is not None:
        d = np.minimum(den[blk], den[blk + 1])
        ok = d > 1e-15
        ub = np.where(ok, np.maximum(ub, 0.0) / np.where(ok, d, 1.0), np.inf)
    live = ub >= floor[node] - TIE
    s, e, ub = s[live], e[live], ub[live]
    # thresholds strictly inside the surviving blocks carry their block's bound
    cnt = e - s - 1
    score[np.repeat(s, cnt) + _ramp(cnt)] = np.repeat(ub, cnt)
    return Screen(score, err, floor)


def block_screened(pos, st: Settings) -> bool:
    """Whether the block screening applies: a kernel with a row bound, no missing values,
    enough thresholds for its fixed cost, and enough per node on average (with small nodes
    the float32 screening, one pass over every threshold, is cheaper)."""
    m = pos.nd.size
    need = st.kernel.block_node_min
    if st.criterion is not None:
        return False  # the row bounds are about impurity decreases
    if need is None or st.kernel.row_bound is None or pos.M is not None or m < BLOCK_MIN:
        return False
    if st.alpha is not None and not st.pkernel.imp.info.concave:
        return False  # the bound on lambda_alpha's denominator needs a concave I(X)
    nodes = 1 + int(np.count_nonzero(pos.nd[1:] != pos.nd[:-1]))
    return m >= need * nodes  # the kernel's measured crossover (CountKernel.block_node_min)


#: Fewest thresholds of a feature for the block screening (its fixed cost, about 150 numpy
#: calls, is not worth it below). Measured on one feature of 10k rows, 5 classes, one node:
#: 2.1 ms with blocks against 1.6 ms for the float32 pass (off-centered), 2.4 against 1.5 ms
#: for the exact asymmetric kernel; at 20k rows the blocks win for the off-centered entropy.
BLOCK_MIN = 15_000


def screened(pos) -> bool:
    return pos.nd.size >= SCREEN_MIN


def survivors(sc, nd, floor) -> np.ndarray:
    """The candidates that can still be chosen: approximate score + bound >= floor - TIE."""
    return np.flatnonzero(sc.score + sc.err >= floor.take(nd) - TIE)


def subset(pos, rows) -> dict:
    """The candidates ``rows`` of a positions dict (class columns kept contiguous)."""
    return Candidates(
        pos.nd[rows],
        np.take(pos.L.T, rows, axis=1).T,
        np.take(pos.R.T, rows, axis=1).T,
        pos.nl[rows],
        pos.nr[rows],
        pos.thr[rows],
        None,
        None if pos.miss_child is None else pos.miss_child[rows],
        pos.M,
        pos.Mrows,
    )


def evaluate(pos, Ipar, n, st: Settings):
    """Exact gain and score of candidate splits with left/right counts (sorted by node).

    With a float32 kernel the candidates are screened first (:func:`screen`); those that
    cannot be chosen get gain and score -inf, the others their exact float64 values, so the
    chosen split, its gain and its score are those of a full exact search.
    """
    if st.kernel.approx is None or not screened(pos):
        return _evaluate_exact(pos, Ipar, n, st)
    sc = screen(pos, Ipar, n, st)
    cand = survivors(sc, pos.nd, sc.floor)
    gain = np.full(pos.nd.size, -np.inf)
    score = np.full(pos.nd.size, -np.inf)
    gain[cand], score[cand] = _evaluate_exact(subset(pos, cand), Ipar, n, st)
    return gain, score


#: Below this many candidates the float32 screening is not worth its bookkeeping.
SCREEN_MIN = 256


def _evaluate_exact(pos, Ipar, n, st: Settings):
    if st.criterion is not None:  # a split criterion: its value is both gain and score
        value = st.criterion.pair(pos.L, pos.R)
        return value, value
    ndv, nl, nr = pos.nd, pos.nl, pos.nr
    ip = Ipar.take(ndv)
    gain = ip - _children_sum(pos.L, pos.R, nl, nr, st.kernel) / n.take(ndv)
    return gain, st.score(gain, ip, nl, nr)


def best_per_segment(nd, score):
    """For candidates sorted by node: (nodes, index of the best candidate of each node).

    The best is the highest score; on a tie (within TIE) the first candidate.
    """
    seg = np.flatnonzero(np.concatenate(([True], nd[1:] != nd[:-1])))
    best = np.maximum.reduceat(score, seg)
    lengths = np.diff(np.append(seg, score.size))
    rep = np.repeat(best, lengths)
    cand = np.flatnonzero(score >= rep - TIE)
    _, first = np.unique(nd[cand], return_index=True)
    return nd[seg], cand[first]


def search_numeric(
    v, nd, yy, nn, T, n, Ipar, st: Settings, allowed=None, lazy=False, floor=None, w=None
):
    """Best threshold of one numeric feature for every node.

    ``floor`` (per node) is a score that some split of the level is known to reach (the best
    score found so far, or a proven lower bound of it): the screenings drop what cannot.

    ``lazy=True`` with a screening kernel (a row bound: :func:`block_screen`, then a float32
    version: :func:`screen`) returns a :class:`Screened` (candidates and screening) instead:
    the few candidates that can still win, for ``grow`` to evaluate exactly with other
    features'. Only these are held until the level ends.
    """
    pos = numeric_positions(
        v, nd, yy, st.q, nn, T, st.min_samples_leaf, allowed, st.prune, w, st.min_weight_leaf
    )
    if pos is None:
        return None
    blocks = lazy and block_screened(pos, st)
    sc = None
    if blocks:
        sc = block_screen(pos, Ipar, n, st, floor=floor)
        pos, sc = _keep(pos, sc, sc.floor)
        if pos is None:
            return None
        if st.kernel.approx is None:
            # no float32 stage: evaluate the survivors now
            gain, score = _evaluate_exact(pos, Ipar, n, st)
            return numeric_result(pos, gain, score)
    if lazy and st.kernel.approx is not None and screened(pos):
        # float32 screening of every threshold (or of what the blocks kept)
        fl = screen(pos, Ipar, n, st)
        known = floor if sc is None else sc.floor  # the blocks' floor includes `floor`
        if known is not None:
            np.maximum(fl.floor, known, out=fl.floor)
        pos, sc = _keep(pos, fl, fl.floor)
        if pos is None:
            return None
    if sc is not None:
        return Screened(pos, sc)
    gain, score = evaluate(pos, Ipar, n, st)
    return numeric_result(pos, gain, score)


def _keep(pos, sc, floor):
    """The candidates of ``pos`` that can still reach ``floor`` (and their screening)."""
    keep = survivors(sc, pos.nd, floor)
    if keep.size == 0:
        return None, None
    sc.score = sc.score[keep]
    if np.ndim(sc.err):
        sc.err = sc.err[keep]
    return subset(pos, keep), sc


def numeric_result(pos, gain, score) -> dict:
    """The best candidate per node of a positions dict with exact gains and scores."""
    nodes, b = best_per_segment(pos.nd, score)
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


def resolve_lazy(found: dict, nn, Ipar, n, st: Settings) -> None:
    """Replace the lazy (screened) numeric results of ``found`` by exact ones, in place.

    A node's best exact score is at least the largest floor of its screened features and the
    exact score of its other features; candidates below that by more than their bound and the
    tie tolerance cannot win the node, under any feature. The rest, over all lazy features,
    are evaluated exactly in one batch.
    """
    lazy = [j for j, r in found.items() if isinstance(r, Screened)]
    if not lazy:
        return
    floor = np.full(nn, -np.inf)
    for r in found.values():
        if isinstance(r, Screened):
            np.maximum(floor, r.screen.floor, out=floor)
        else:
            np.maximum.at(floor, r.nodes, r.score)
    parts = []
    for j in lazy:
        pos, sc = found[j].pos, found[j].screen
        parts.append(subset(pos, survivors(sc, pos.nd, floor)))
    sizes = [p.nd.size for p in parts]
    both = Candidates(
        np.concatenate([p.nd for p in parts]),
        np.concatenate([p.L.T for p in parts], axis=1).T,
        np.concatenate([p.R.T for p in parts], axis=1).T,
        np.concatenate([p.nl for p in parts]),
        np.concatenate([p.nr for p in parts]),
    )
    gain, score = _evaluate_exact(both, Ipar, n, st)
    start = 0
    for j, p, size in zip(lazy, parts, sizes):
        if size == 0:
            del found[j]
        else:
            found[j] = numeric_result(p, gain[start : start + size], score[start : start + size])
        start += size


# ----------------------------------------------------------------------------------------------
# categorical split search
# ----------------------------------------------------------------------------------------------


def _predictor_impurity(imp: Impurity, sizes: np.ndarray) -> np.ndarray:
    """I(X) of branch sizes (nn, K) with zeros for absent branches: k = present branches."""
    out = np.zeros(sizes.shape[0])
    kp = (sizes > 0).sum(axis=1)
    ordered = -np.sort(-sizes, axis=1)
    for k in np.unique(kp):
        if k < 1:
            continue
        rows = kp == k
        out[rows] = imp.for_predictor(int(k)).of_counts(ordered[rows, :k])
    return out


def search_categorical(
    tab, nn, T, n, Ipar, st: Settings, allowed=None, missing_code=None, rows=None
):
    """Best multiway or binary split of one categorical feature for every node.

    ``tab`` is the (nn, K, q) count table of (node, code, class). With weighted rows, ``tab``
    holds sums of weights and ``rows`` (nn, K) the number of rows of each (node, code)
    (``min_samples_leaf`` and ``n_missing`` count rows).
    """
    q = st.q
    K = tab.shape[1]
    sizes = tab.sum(axis=2)
    rsizes = sizes if rows is None else rows
    present = rsizes > 0
    n_missing = rsizes[:, missing_code] if missing_code is not None else np.zeros(nn, np.int64)
    if st.categorical == "multiway":
        kp = present.sum(axis=1)
        smallest = np.where(present, rsizes, np.iinfo(np.int64).max).min(axis=1)
        ok = (kp >= 2) & (smallest >= st.min_samples_leaf)
        if st.min_weight_leaf > 0:
            ok &= np.where(present, sizes, np.inf).min(axis=1) >= st.min_weight_leaf
        if allowed is not None:
            ok &= allowed
        nodes = np.flatnonzero(ok)
        if nodes.size == 0:
            return None
        t = tab[nodes]
        s = sizes[nodes]
        if st.criterion is not None:
            # absent categories are empty children: they add 0 to the Hellinger distance
            gain = score = st.criterion.table(t)
        else:
            ich = st.kernel(t.reshape(-1, q), s.reshape(-1)).reshape(nodes.size, K)
            w = (s * ich).sum(axis=1) / n[nodes]
            gain = Ipar[nodes] - w
            score = gain
        if st.criterion is None and st.alpha is not None:
            i_x = _predictor_impurity(st.imp, s)
            denom = st.alpha * Ipar[nodes] + (1 - st.alpha) * i_x
            okd = denom > 1e-15
            score = np.where(okd, gain / np.where(okd, denom, 1.0), 0.0)
        groups = [tuple((c,) for c in np.flatnonzero(present[i])) for i in nodes]
        counts = [tab[i][present[i]] for i in nodes]
        return BestSplits(
            nodes, score, gain, groups=groups, child_counts=counts, n_missing=n_missing[nodes]
        )
    # binary groupings
    if K <= 10:
        G = (1 << (K - 1)) - 1
        if G < 1:
            return None
        bits = (np.arange(1, G + 1)[:, None] >> np.arange(K)[None, :]) & 1  # (G, K)
        member = np.broadcast_to(bits.astype(bool)[None], (nn, G, K))
        left = np.einsum("gk,nkq->ngq", bits.astype(tab.dtype), tab)
        if rows is None:
            right = T[:, None, :] - left
        else:  # sums over the other group: a class absent from it counts exactly 0
            right = np.einsum("gk,nkq->ngq", (1 - bits).astype(tab.dtype), tab)
            rl = np.einsum("gk,nk->ng", bits, rows)
    else:
        members, lefts, rights, rls = [], [], [], []
        order_classes = [1] if q == 2 else range(q)
        safe = np.where(sizes > 0, sizes, 1)
        for j in order_classes:
            prop = np.where(present, tab[:, :, j] / safe, np.inf)
            order = np.argsort(prop, axis=1, kind="stable")
            st_tab = np.take_along_axis(tab, order[:, :, None], axis=1)
            cum = np.cumsum(st_tab, axis=1)[:, :-1, :]  # prefixes of length 1..K-1
            lefts.append(cum)
            if rows is not None:
                rights.append(np.cumsum(st_tab[:, ::-1], axis=1)[:, ::-1][:, 1:, :])
                rls.append(np.cumsum(np.take_along_axis(rows, order, axis=1), axis=1)[:, :-1])
            rank = np.argsort(order, axis=1)  # position of each code in the order
            mem = rank[:, None, :] < np.arange(1, K)[None, :, None]  # (nn, K-1, K)
            members.append(mem)
        left = np.concatenate(lefts, axis=1)
        member = np.concatenate(members, axis=1)
        if rows is None:
            right = T[:, None, :] - left
        else:
            right = np.concatenate(rights, axis=1)
            rl = np.concatenate(rls, axis=1)
    nl = left.sum(axis=2)
    nr = right.sum(axis=2)
    if rows is None:
        rl, rr = nl, nr
    else:
        rr = rows.sum(axis=1)[:, None] - rl
    ok = (rl >= st.min_samples_leaf) & (rr >= st.min_samples_leaf)
    if st.min_weight_leaf > 0:
        ok &= (nl >= st.min_weight_leaf) & (nr >= st.min_weight_leaf)
    ok &= (member & present[:, None, :]).any(axis=2) & (~member & present[:, None, :]).any(axis=2)
    if allowed is not None:
        ok &= allowed[:, None]
    if not ok.any():
        return None
    nd_idx, g_idx = np.nonzero(ok)
    L = left[nd_idx, g_idx]
    R = right[nd_idx, g_idx]
    pos = Candidates(nd_idx, L, R, nl[nd_idx, g_idx], nr[nd_idx, g_idx])
    gain, score = evaluate(pos, Ipar, n, st)
    nodes, b = best_per_segment(nd_idx, score)
    groups, counts = [], []
    for i, bb in zip(nodes, b):
        mem = member[i, g_idx[bb]]
        pres = present[i]
        groups.append((tuple(np.flatnonzero(mem & pres)), tuple(np.flatnonzero(~mem & pres))))
        counts.append(np.stack([L[bb], R[bb]]))
    return BestSplits(
        nodes,
        score[b],
        gain[b],
        groups=groups,
        child_counts=counts,
        n_missing=n_missing[nodes],
        binary=True,
    )


def category_table(codes, nd, yy, nn, K, q, w=None):
    """(node, code, class) counts, or sums of the rows' weights ``w``."""
    key = (nd.astype(np.int64) * K + codes) * q + yy
    return np.bincount(key, weights=w, minlength=nn * K * q).reshape(nn, K, q)


def category_rows(codes, nd, nn, K):
    """(node, code) row counts (for weighted rows, next to :func:`category_table`)."""
    return np.bincount(nd.astype(np.int64) * K + codes, minlength=nn * K).reshape(nn, K)


# ----------------------------------------------------------------------------------------------
# growth
# ----------------------------------------------------------------------------------------------


def _splittable(rec: Record, st: Settings) -> bool:
    n = rec.n_rows
    if st.max_depth is not None and rec.depth >= st.max_depth:
        return False
    if n < st.min_samples_split or n < 2 * st.min_samples_leaf:
        return False
    if st.min_weight_leaf > 0 and float(rec.counts.sum()) < 2 * st.min_weight_leaf:
        return False
    return int((rec.counts > 0).sum()) > 1


def _varying(enc: Encoded, act: np.ndarray, nd_act: np.ndarray, nn: int) -> np.ndarray:
    """(nn, F) boolean: feature j takes at least two values among node k's rows.

    A numeric feature varies when its smallest and largest non-missing values differ (missing
    values alone allow no threshold); a categorical one when two codes occur (the missing
    category counts as one).
    """
    F = len(enc.features)
    out = np.zeros((nn, F), bool)
    for j, info in enumerate(enc.features):
        col = enc.column(j)[act]
        if info.kind == "numeric":
            lo = np.full(nn, np.inf)
            hi = np.full(nn, -np.inf)
            np.fmin.at(lo, nd_act, col)
            np.fmax.at(hi, nd_act, col)
        else:
            lo = np.full(nn, np.iinfo(np.int64).max)
            hi = np.full(nn, np.iinfo(np.int64).min)
            np.minimum.at(lo, nd_act, col)
            np.maximum.at(hi, nd_act, col)
        out[:, j] = lo < hi
    return out


def _allowed_mask(nn, F, st: Settings, varying=None):
    """The features each node may split on: ``st.max_features`` drawn at random per node.

    As in scikit-learn (and Breiman's random forests as usually implemented), features that are
    constant in the node are not drawn: the subset is the first ``max_features`` of a random
    order of the features that vary there (``varying``, from :func:`_varying`), all of them when
    fewer vary. Drawing constant ones would make a node a leaf, impure, whenever its drawn
    features happen to be constant there (frequent deep in a tree grown on a bootstrap sample).
    """
    if st.max_features is None or st.max_features >= F:
        return None
    r = st.rng.random((nn, F))
    if varying is not None:
        r[~varying] = 2.0  # after every varying feature
    order = np.argsort(r, axis=1)[:, : st.max_features]
    mask = np.zeros((nn, F), bool)
    np.put_along_axis(mask, order, True, axis=1)
    if varying is not None:
        mask &= varying
    return mask


def grow(
    enc: Encoded, y: np.ndarray, st: Settings, roots: list, forced=None, w: np.ndarray | None = None
) -> list:
    """Grow subtrees from ``roots`` (list of (rows, depth, conditions)); returns Records.

    The first ``len(roots)`` records are the roots, with parent None; the others follow in
    breadth-first order. ``forced`` maps a root index to a ready split dict (edits).
    ``w`` (one weight per row of ``enc``, positive on the roots' rows, with
    ``st.weighted``) makes every class count a sum of weights; None: every row counts 1.
    """
    N = y.shape[0]
    q = st.q
    features = enc.features
    F = len(features)
    recs: list[Record] = []
    node_of_row = np.full(N, -1, np.int32)
    open_ids: list[int] = []
    forced = forced or {}
    for k, (rows, depth, cond) in enumerate(roots):
        if w is None:
            counts = np.bincount(y[rows], minlength=q).astype(np.int64)
        else:
            counts = np.bincount(y[rows], weights=w[rows], minlength=q)
        recs.append(Record(None, depth, counts, tuple(cond), n_rows=int(np.size(rows))))
        if k in forced or _splittable(recs[-1], st):
            node_of_row[rows] = len(open_ids)
            open_ids.append(k)
    # per numeric feature: rows of the open nodes sorted by (node, value), with their labels
    # and node indices kept alongside (partitioned, never re-sorted); the values are gathered
    # from the data when the feature is searched, so they are not stored once per feature
    state = {}
    if open_ids:
        act = np.flatnonzero(node_of_row >= 0)
        whole = act.size == N
        for j, info in enumerate(features):
            if info.kind != "numeric":
                continue
            col = enc.num[:, enc.slot[j]]
            if whole:
                o = np.argsort(col).astype(np.int32)
            else:
                o = act[np.argsort(col[act])].astype(np.int32)
            key = node_of_row[o]
            if len(open_ids) > 1:
                perm = np.argsort(key, kind="stable")
                o, key = o[perm], key[perm]
            state[j] = [o, y[o], key, None if w is None else w[o]]
    while open_ids:
        nn = len(open_ids)
        T = np.stack([recs[i].counts for i in open_ids])
        n = T.sum(axis=1)
        Ipar = st.kernel(T, n)
        best_score = np.full(nn, -np.inf)
        best_gain = np.full(nn, -np.inf)
        best_feat = np.full(nn, -1, np.int64)
        results = {}
        act = np.flatnonzero(node_of_row >= 0)
        nd_act = node_of_row[act]
        sub = st.max_features is not None and st.max_features < F
        allowed = _allowed_mask(nn, F, st, _varying(enc, act, nd_act, nn) if sub else None)
        y_act = y[act]
        w_act = None if w is None else w[act]
        found = {}
        floor = np.full(nn, -np.inf)  # best exact score known so far, per node
        for j, info in enumerate(features):
            al = None if allowed is None else allowed[:, j]
            if al is not None and not al.any():
                continue
            if info.kind == "numeric":
                o, ys, nds, ws = state[j]
                vs = np.take(enc.num[:, enc.slot[j]], o)  # values gathered when needed
                res = search_numeric(
                    vs, nds, ys, nn, T, n, Ipar, st, al, lazy=True, floor=floor, w=ws
                )
            else:
                K = len(info.categories)
                codes = enc.cat[act, enc.slot[j]]
                tab = category_table(codes, nd_act, y_act, nn, K, q, w_act)
                rws = None if w is None else category_rows(codes, nd_act, nn, K)
                mc = K - 1 if info.has_missing else None
                res = search_categorical(tab, nn, T, n, Ipar, st, al, mc, rws)
            if res is not None:
                found[j] = res
                if isinstance(res, Screened):  # a proven lower bound of a score reached
                    np.maximum(floor, res.screen.floor, out=floor)
                else:
                    np.maximum.at(floor, res.nodes, res.score)
        resolve_lazy(found, nn, Ipar, n, st)
        # the best feature of a node: the highest score; within TIE of it, the first column
        top = np.full(nn, -np.inf)
        for res in found.values():
            np.maximum.at(top, res.nodes, res.score)
        for j, res in found.items():
            nodes = res.nodes
            win = (best_feat[nodes] < 0) & (res.score >= top[nodes] - TIE)
            if win.any():
                won = nodes[win]
                best_score[won] = res.score[win]
                best_gain[won] = res.gain[win]
                best_feat[won] = j
                where = np.full(nn, -1, np.int64)
                where[nodes] = np.arange(nodes.size)
                res.where = where
                results[j] = res
        # forced splits (edits) replace the search result at their root
        level_forced = {loc: forced[i] for loc, i in enumerate(open_ids) if i in forced}
        # decide and create children
        kind = np.zeros(nn, np.int8)
        fslot = np.zeros(nn, np.int64)
        thr = np.zeros(nn)
        mchild = np.zeros(nn, np.int64)
        first_child = np.zeros(nn, np.int64)
        offset = np.zeros(nn, np.int64)
        catmaps = []
        cat_pos = 0
        next_open: list[int] = []
        level_base = len(recs)  # the children of this level get ids from here on
        for loc, rid in enumerate(open_ids):
            rec = recs[rid]
            if loc in level_forced:
                sp = level_forced[loc]
            else:
                j = int(best_feat[loc])
                # a gain within TIE of min_gain is round-off of an equal one: children with the
                # node's exact class proportions give 2.2e-16 under DKM, 0 under HDDT
                if j < 0 or not best_gain[loc] > st.min_gain + TIE:
                    continue
                sp = split_choice(results[j], int(results[j].where[loc]), j, features[j])
            rec.split = sp
            rec.n_missing = int(sp.n_missing)
            j = sp.feature_index
            first_child[loc] = len(recs)
            for k, cc in enumerate(sp.child_counts):
                child = Record(
                    rid,
                    rec.depth + 1,
                    np.asarray(cc, np.int64 if w is None else np.float64),
                    rec.conditions + (sp.labels[k],),
                )
                rec.children.append(len(recs))
                recs.append(child)
            fslot[loc] = enc.slot[j]
            if sp.kind == "numeric":
                kind[loc] = 1
                thr[loc] = sp.threshold
                mchild[loc] = sp.missing_child
            else:
                kind[loc] = 2
                K = len(features[j].categories)
                table = np.full(K + 1, sp.default_child, np.int64)
                for k, g in enumerate(sp.group_codes):
                    table[np.asarray(g, np.int64) + 1] = k
                offset[loc] = cat_pos
                catmaps.append(table)
                cat_pos += K + 1
        # route the rows of the level to their children
        split_nodes = kind[nd_act] > 0
        rows = act[split_nodes]
        nds = nd_act[split_nodes]
        ck = np.zeros(rows.size, np.int64)
        isnum = kind[nds] == 1
        if isnum.any():
            r, d = rows[isnum], nds[isnum]
            v = enc.num[r, fslot[d]]
            c = np.where(v <= thr[d], 0, 1)
            nan = np.isnan(v)
            if nan.any():
                c = np.where(nan, mchild[d], c)
            ck[isnum] = c
        iscat = ~isnum
        if iscat.any():
            cm = np.concatenate(catmaps)
            r, d = rows[iscat], nds[iscat]
            ck[iscat] = cm[offset[d] + enc.cat[r, fslot[d]] + 1]
        child_rec = first_child[nds] + ck
        # the children's rows, and with weights their class counts summed from the rows (the
        # search's counts are differences of cumulative sums: equal up to rounding)
        n_new = len(recs) - level_base
        local = child_rec - level_base
        n_rows = np.bincount(local, minlength=n_new)
        if w is not None and n_new:
            wc = np.bincount(local * q + y[rows], weights=w[rows], minlength=n_new * q).reshape(
                n_new, q
            )
        for k in range(n_new):
            recs[level_base + k].n_rows = int(n_rows[k])
            if w is not None:
                recs[level_base + k].counts = wc[k]
        new_local = np.full(len(recs), -1, np.int64)
        child_ids = [c for rid in open_ids for c in recs[rid].children]
        for c in child_ids:
            if _splittable(recs[c], st):
                new_local[c] = len(next_open)
                next_open.append(c)
        node_of_row[act] = -1
        nl_rows = new_local[child_rec]
        node_of_row[rows] = nl_rows
        open_ids = next_open
        if not open_ids:
            break
        small = node_of_row.astype(np.int16) if len(open_ids) < 32767 else node_of_row
        key_dtype = np.uint16 if len(open_ids) < 32767 else np.int32
        for j, (o, ys, _nds, ws) in state.items():
            key = small[o]
            keep = key >= 0
            if not keep.all():
                o, ys, key = o[keep], ys[keep], key[keep]
                ws = None if ws is None else ws[keep]
            if len(open_ids) > 1:
                perm = np.argsort(key.astype(key_dtype), kind="stable")
                o, ys, key = o[perm], ys[perm], key[perm]
                ws = None if ws is None else ws[perm]
            state[j] = [o, ys, key, ws]
    return recs


def _fmt(x: float) -> str:
    """A threshold for reading (6 significant digits; the split keeps the exact value)."""
    return f"{float(x):.6g}"


def _cat_label(v) -> str:
    return "missing" if v is None else str(v)


def branch_labels(info, kind, threshold=None, groups=None, missing_child=None):
    name = info.name
    if kind == "numeric":
        labels = [f"{name} <= {_fmt(threshold)}", f"{name} > {_fmt(threshold)}"]
        if info.has_missing and missing_child is not None:
            labels[missing_child] += " (or missing)"
        return tuple(labels)
    if kind == "categorical":
        return tuple(
            f"{name} is missing" if g[0] is None else f"{name} = {_cat_label(g[0])}" for g in groups
        )
    return tuple(f"{name} in {{{', '.join(_cat_label(v) for v in g)}}}" for g in groups)


def split_choice(res, k, j, info) -> SplitChoice:
    """The split of row ``k`` of a search result for feature ``j``."""
    if info.kind == "numeric":
        return numeric_split(
            j,
            info,
            float(res.thr[k]),
            res.L[k],
            res.R[k],
            int(res.miss_child[k]),
            float(res.gain[k]),
            float(res.score[k]),
            int(res.n_missing[k]),
        )
    codes = [tuple(int(c) for c in g) for g in res.groups[k]]
    counts = list(res.child_counts[k])
    return categorical_split(
        j,
        info,
        codes,
        counts,
        float(res.gain[k]),
        float(res.score[k]),
        int(res.n_missing[k]),
        binary=bool(res.binary),
    )


def categorical_split(j, info, codes, counts, gain, score, n_missing, binary) -> SplitChoice:
    """A categorical split with the category codes ``codes`` of each child."""
    sizes = [float(np.asarray(c).sum()) for c in counts]
    default = int(np.argmax(sizes))
    missing_code = len(info.categories) - 1 if info.has_missing else None
    mc = default
    for k, g in enumerate(codes):
        if missing_code is not None and missing_code in g:
            mc = k
    kind = "categorical_binary" if binary else "categorical"
    groups = tuple(tuple(info.categories[c] for c in g) for g in codes)
    return SplitChoice(
        j,
        kind,
        None,
        codes,
        groups,
        counts,
        mc,
        default,
        gain,
        score,
        n_missing,
        branch_labels(info, kind, None, groups, mc),
    )
