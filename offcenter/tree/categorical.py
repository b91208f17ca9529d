r"""Search of the best multiway or binary split of a categorical feature at every open node,
from a (node, category, class) count table.

A multiway split (one child per value) has nothing to search. A binary split ("two groups of
values") is searched among the :math:`2^{k-1} - 1` groupings of the k values present at the
node, under the leaf-size rules (``min_samples_leaf`` in rows, ``min_weight_fraction_leaf`` in
weight: a grouping that breaks one is not a candidate):

- **Up to** :data:`EVERY_GROUPING_JOINTLY` **codes** (the feature's values, missing included):
  every grouping, for all open nodes at once. Exact.
- **More codes, two classes, a score convex in the left child's counts** (the gain of a
  measure concave in the class frequencies alone, or the Hellinger distance; see
  :func:`prefix_is_exact`): the best of the k - 1 prefixes of the values sorted by their share
  of class 1 is the best of all groupings (Breiman et al. 1984, theorem 4.5). When that best
  prefix obeys the leaf-size rules it is also the best grouping that obeys them (the rules only
  remove candidates), and it is taken. Exact.
- **Otherwise** (the best prefix breaks a rule; 3+ classes; lambda_alpha; the consistent
  asymmetric entropy), with at most :data:`ENUMERATION_CAP` values present at the node:
  every grouping of those values, scored in chunks (:func:`_enumerate`). Exact.
- **Otherwise, more values than that**: a local search from the best prefixes that obey the
  rules (:func:`_local_search`). NOT exact: a better grouping can exist. The search says so:
  it adds the node to ``heuristic``, and the estimators warn
  (:class:`HeuristicGroupingWarning`, once per fit, naming the features).

Ties (within TIE): the first grouping in the order searched (for the exhaustive searches, the
grouping whose set bits, over the codes in increasing order, are the smallest number).
"""

from __future__ import annotations

import contextlib
import contextvars
import warnings

import numpy as np

from offcenter.tree.numeric import best_per_segment, score_candidates
from offcenter.tree.records import TIE, BestSplits, Candidates, GrowthParams

#: Codes up to which every grouping is scored for all nodes at once (2**9 - 1 = 511 groupings).
EVERY_GROUPING_JOINTLY = 10
#: Values present at a node up to which every grouping is scored when the prefixes are not
#: provably best (2**19 - 1 groupings at 20 values).
ENUMERATION_CAP = 20
#: Low bits of a grouping number whose subset sums are tabulated (:func:`_enumerate`).
LOW_BITS = 12
#: Groupings scored at once (:func:`_enumerate`).
CHUNK = 1 << 16


class HeuristicGroupingWarning(UserWarning):
    """A binary split of a categorical feature was searched by a heuristic (more values at a
    node than :data:`ENUMERATION_CAP` and no theorem that settles it): a better grouping may
    exist."""


def heuristic_message(features: dict, what: str = "The tree") -> str:
    """The warning for the features (name: number of nodes) searched by the heuristic."""
    named = ", ".join(f"{name!r} ({k} node{'s' if k != 1 else ''})" for name, k in features.items())
    return (
        f"{what}: the two-group split of {named} was searched by a heuristic, not "
        f"exhaustively (more than {ENUMERATION_CAP} values at a node, where no theorem makes "
        "the best prefix of the values sorted by class share the best grouping: 3+ classes, "
        "lambda_alpha, the consistent asymmetric entropy, or a leaf-size rule that prefix "
        "breaks), so a better grouping may exist. One branch per value "
        '(categorical="multiway") or fewer values is exact.'
    )


#: True inside :func:`heuristic_warning_deferred` (a context variable: per thread and per task).
_DEFERRED = contextvars.ContextVar("offcenter_heuristic_warning_deferred", default=False)


@contextlib.contextmanager
def heuristic_warning_deferred():
    """Inside it, :func:`warn_heuristic` is silent: the caller warns once for many fits.

    A tree fitted inside it still records what was searched by the heuristic
    (``heuristic_groupings_``); :class:`~offcenter.ensemble.forest.ForestClassifier` grows
    each tree inside it and warns once, for all its trees, from their records. The flag is a
    context variable, so trees grown at the same time in other threads are not silenced.

    >>> with heuristic_warning_deferred():
    ...     warn_heuristic({"colour": 2})  # nothing: the caller will warn
    """
    token = _DEFERRED.set(True)
    try:
        yield
    finally:
        _DEFERRED.reset(token)


def warn_heuristic(features: dict, what: str = "The tree", stacklevel: int = 3) -> None:
    """Warn once (:class:`HeuristicGroupingWarning`) if ``features`` is not empty, unless
    inside :func:`heuristic_warning_deferred`."""
    if features and not _DEFERRED.get():
        warnings.warn(heuristic_message(features, what), HeuristicGroupingWarning, stacklevel)


def search_categorical(
    tab,
    n_nodes,
    node_counts,
    n,
    parent_impurity,
    params: GrowthParams,
    allowed=None,
    missing_code=None,
    rows=None,
    heuristic: set | None = None,
):
    """Best multiway or binary split of one categorical feature for every node.

    ``tab`` is the (n_nodes, K, q) count table of (node, code, class). With weighted rows, ``tab``
    holds sums of weights and ``rows`` (n_nodes, K) the number of rows of each (node, code)
    (``min_samples_leaf`` and ``n_missing`` count rows). The nodes whose binary split was
    searched by the heuristic (see the module docs) are added to the set ``heuristic``.
    """
    K = tab.shape[1]
    sizes = tab.sum(axis=2)
    rsizes = sizes if rows is None else rows
    present = rsizes > 0
    n_missing = rsizes[:, missing_code] if missing_code is not None else np.zeros(n_nodes, np.int64)
    if params.categorical == "multiway":
        kp = present.sum(axis=1)
        smallest = np.where(present, rsizes, np.iinfo(np.int64).max).min(axis=1)
        ok = (kp >= 2) & (smallest >= params.min_samples_leaf)
        if params.min_weight_leaf > 0:
            ok &= np.where(present, sizes, np.inf).min(axis=1) >= params.min_weight_leaf
        if allowed is not None:
            ok &= allowed
        nodes = np.flatnonzero(ok)
        if nodes.size == 0:
            return None
        gain, score = params.scorer.multiway(
            tab[nodes], sizes[nodes], parent_impurity[nodes], n[nodes]
        )
        groups = [tuple((c,) for c in np.flatnonzero(present[i])) for i in nodes]
        counts = [tab[i][present[i]] for i in nodes]
        return BestSplits(
            nodes, score, gain, groups=groups, child_counts=counts, n_missing=n_missing[nodes]
        )
    if K <= EVERY_GROUPING_JOINTLY:
        return _every_grouping_jointly(
            tab, n_nodes, node_counts, n, parent_impurity, params, allowed, rows, sizes, present,
            n_missing,
        )  # fmt: skip
    return _many_categories(
        tab, n_nodes, node_counts, n, parent_impurity, params, allowed, rows, sizes, rsizes,
        present, n_missing, heuristic,
    )  # fmt: skip


def _every_grouping_jointly(
    tab, n_nodes, node_counts, n, parent_impurity, params, allowed, rows, sizes, present, n_missing
):
    """Few categories: every grouping of the K codes, for all nodes at once (grouping g puts
    the codes of its set bits on the left; code K-1 is always on the right)."""
    K = tab.shape[1]
    G = (1 << (K - 1)) - 1
    if G < 1:
        return None
    bits = (np.arange(1, G + 1)[:, None] >> np.arange(K)[None, :]) & 1  # (G, K)
    member = np.broadcast_to(bits.astype(bool)[None], (n_nodes, G, K))
    left = np.einsum("gk,nkq->ngq", bits.astype(tab.dtype), tab)
    if rows is None:
        right = node_counts[:, None, :] - left
    else:  # sums over the other group: a class absent from it counts exactly 0
        right = np.einsum("gk,nkq->ngq", (1 - bits).astype(tab.dtype), tab)
        rl = np.einsum("gk,nk->ng", bits, rows)
    n_left = left.sum(axis=2)
    n_right = right.sum(axis=2)
    if rows is None:
        rl, rr = n_left, n_right
    else:
        rr = rows.sum(axis=1)[:, None] - rl
    ok = _feasible(rl, rr, n_left, n_right, params)
    ok &= (member & present[:, None, :]).any(axis=2) & (~member & present[:, None, :]).any(axis=2)
    if allowed is not None:
        ok &= allowed[:, None]
    if not ok.any():
        return None
    nd_idx, g_idx = np.nonzero(ok)
    L = left[nd_idx, g_idx]
    R = right[nd_idx, g_idx]
    pos = Candidates(nd_idx, L, R, n_left[nd_idx, g_idx], n_right[nd_idx, g_idx])
    gain, score = score_candidates(pos, parent_impurity, n, params)
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


def _feasible(rl, rr, n_left, n_right, params: GrowthParams):
    """The leaf-size rules of two children: rows (``min_samples_leaf``) and weight
    (``min_weight_leaf``, from ``min_weight_fraction_leaf``)."""
    ok = (rl >= params.min_samples_leaf) & (rr >= params.min_samples_leaf)
    if params.min_weight_leaf > 0:
        ok &= (n_left >= params.min_weight_leaf) & (n_right >= params.min_weight_leaf)
    return ok


def prefix_is_exact(scorer, q: int) -> bool:
    """Whether the best prefix of the codes sorted by class share is the best grouping.

    True for two classes and a score that is a convex function of the left child's counts
    (Breiman et al. 1984, theorem 4.5): the gain of a measure concave in the class frequencies
    alone (n_L I(L) + n_R I(R) is then concave in L) and the Hellinger distance (a monotone
    function of a convex one). Such a function of the left sums is largest at a vertex of the
    zonotope the codes' count vectors span, and with two classes its vertices are the sums of
    prefixes of the codes sorted by class share. Not for lambda_alpha (its denominator depends on
    n_L), the consistent asymmetric entropy (its theta depends on n) or 3+ classes.
    """
    return q == 2 and scorer.alpha is None and scorer.prune_pure_runs


def _many_categories(
    tab, n_nodes, node_counts, n, parent_impurity, params, allowed, rows, sizes, rsizes, present,
    n_missing, heuristic,
):  # fmt: skip
    """More than :data:`EVERY_GROUPING_JOINTLY` codes: prefixes of the codes sorted by class
    share, then, at each node where they are not provably best, every grouping of the node's
    codes (up to :data:`ENUMERATION_CAP`) or a local search (beyond)."""
    q = params.q
    K = tab.shape[1]
    members, lefts, rights, rls = [], [], [], []
    order_classes = [1] if q == 2 else range(q)
    safe = np.where(sizes > 0, sizes, 1)
    for j in order_classes:
        prop = np.where(present, tab[:, :, j] / safe, np.inf)
        order = np.argsort(prop, axis=1, kind="stable")
        st_tab = np.take_along_axis(tab, order[:, :, None], axis=1)
        lefts.append(np.cumsum(st_tab, axis=1)[:, :-1, :])  # prefixes of length 1..K-1
        if rows is not None:
            rights.append(np.cumsum(st_tab[:, ::-1], axis=1)[:, ::-1][:, 1:, :])
            rls.append(np.cumsum(np.take_along_axis(rows, order, axis=1), axis=1)[:, :-1])
        rank = np.argsort(order, axis=1)  # position of each code in the order
        members.append(rank[:, None, :] < np.arange(1, K)[None, :, None])  # (n_nodes, K-1, K)
    left = np.concatenate(lefts, axis=1)
    member = np.concatenate(members, axis=1)
    if rows is None:
        right = node_counts[:, None, :] - left
    else:
        right = np.concatenate(rights, axis=1)
        rl = np.concatenate(rls, axis=1)
    n_left = left.sum(axis=2)
    n_right = right.sum(axis=2)
    if rows is None:
        rl, rr = n_left, n_right
    else:
        rr = rows.sum(axis=1)[:, None] - rl
    valid = (member & present[:, None, :]).any(axis=2) & (~member & present[:, None, :]).any(axis=2)
    if allowed is not None:
        valid &= allowed[:, None]
    if not valid.any():
        return None
    ok = valid & _feasible(rl, rr, n_left, n_right, params)
    out = {}  # node: (score, gain, left membership (K,), L, R) of its best grouping so far
    if ok.any():  # the best prefix that obeys the rules
        nd_idx, g_idx = np.nonzero(ok)
        L = left[nd_idx, g_idx]
        R = right[nd_idx, g_idx]
        pos = Candidates(nd_idx, L, R, n_left[nd_idx, g_idx], n_right[nd_idx, g_idx])
        gain, score = score_candidates(pos, parent_impurity, n, params)
        nodes, b = best_per_segment(nd_idx, score)
        for i, bb in zip(nodes, b):
            out[int(i)] = (score[bb], gain[bb], member[i, g_idx[bb]], L[bb], R[bb])
    exact = prefix_is_exact(params.scorer, q)
    top = np.full(n_nodes, -np.inf)  # the best prefix's score, rules or not
    for i, v in out.items():
        top[i] = v[0]
    broken = valid & ~ok
    if exact and broken.any():  # scored apart: the same screening as without them
        nd_b, g_b = np.nonzero(broken)
        pos = Candidates(
            nd_b, left[nd_b, g_b], right[nd_b, g_b], n_left[nd_b, g_b], n_right[nd_b, g_b]
        )
        np.maximum.at(top, nd_b, score_candidates(pos, parent_impurity, n, params)[1])
    for i in np.flatnonzero(valid.any(axis=1)):
        i = int(i)
        if exact and i in out and out[i][0] >= top[i] - TIE:
            continue  # the unconstrained best obeys the rules: it is the best grouping
        codes = np.flatnonzero(present[i])
        t = tab[i, codes]
        r = rsizes[i, codes]
        if codes.size <= ENUMERATION_CAP:
            found = _enumerate(t, r, parent_impurity[i], n[i], params)
        else:
            seeds = [] if i not in out else [out[i][2][codes]]
            found = _local_search(t, r, parent_impurity[i], n[i], params, seeds)
            if heuristic is not None:
                heuristic.add(i)
        if found is None or (i in out and not found[0] > out[i][0] + TIE):
            continue  # the best prefix that obeys the rules is as good: kept (same ties)
        sc, gn, mem_p, Lb, Rb = found
        mem = np.zeros(K, bool)
        mem[codes[mem_p]] = True
        out[i] = (sc, gn, mem, Lb, Rb)
    if not out:
        return None
    nodes = np.array(sorted(out), np.int64)
    groups, counts = [], []
    for i in nodes:
        _, _, mem, Lb, Rb = out[i]
        pres = present[i]
        groups.append((tuple(np.flatnonzero(mem & pres)), tuple(np.flatnonzero(~mem & pres))))
        counts.append(np.stack([Lb, Rb]))
    return BestSplits(
        nodes,
        np.array([out[i][0] for i in nodes], float),
        np.array([out[i][1] for i in nodes], float),
        groups=groups,
        child_counts=counts,
        n_missing=n_missing[nodes],
        binary=True,
    )


def _subset_sums(t, nbits):
    """Sums of the rows of ``t`` (m, ...) over every subset of its first ``nbits`` rows, subset
    g holding the rows of g's set bits (2**nbits, ...), and over their complements."""
    bits = ((np.arange(1 << nbits)[:, None] >> np.arange(nbits)[None, :]) & 1).astype(t.dtype)
    head = t[:nbits]
    return np.tensordot(bits, head, axes=(1, 0)), np.tensordot(1 - bits, head, axes=(1, 0))


def _enumerate(t, r, parent_impurity, n, params):
    """Every grouping of one node's k present codes (class counts ``t`` (k, q), rows ``r``):
    (score, gain, left membership, L, R) of the best that obeys the leaf-size rules, None if
    none does.

    Grouping g (1 <= g < 2**(k-1)) puts the codes of its set bits on the left (the last code
    always on the right); on a tie (within TIE) the smallest g wins. The groupings are scored in
    chunks of ``CHUNK``: g = h * 2**b + l, the left sums as the sum of a table over the low b
    bits and one over the high bits.
    """
    k, q = t.shape
    m = k - 1
    b = min(m, LOW_BITS)
    lo_L, lo_R = _subset_sums(t, b)
    lo_rl, lo_rr = _subset_sums(r[:, None].astype(np.float64), b)
    hi_L, hi_R = _subset_sums(t[b:], m - b)
    hi_rl, hi_rr = _subset_sums(r[b:, None].astype(np.float64), m - b)
    hi_R = hi_R + t[m]  # the last code is always on the right
    hi_rr = hi_rr + r[m]
    n_lo = 1 << b
    per = max(1, CHUNK // n_lo)
    parent_impurities, nv = np.array([parent_impurity]), np.array([n])
    scores = np.full(1 << m, -np.inf)
    for h0 in range(0, 1 << (m - b), per):
        hs = slice(h0, min(h0 + per, 1 << (m - b)))
        L = (hi_L[hs, None, :] + lo_L[None, :, :]).reshape(-1, q)
        R = (hi_R[hs, None, :] + lo_R[None, :, :]).reshape(-1, q)
        rl = (hi_rl[hs, None, 0] + lo_rl[None, :, 0]).reshape(-1)
        rr = (hi_rr[hs, None, 0] + lo_rr[None, :, 0]).reshape(-1)
        n_left, n_right = L.sum(axis=1), R.sum(axis=1)
        ok = _feasible(rl, rr, n_left, n_right, params) & (rl > 0)
        if not ok.any():
            continue
        idx = np.flatnonzero(ok)
        pos = Candidates(np.zeros(idx.size, np.int64), L[idx], R[idx], n_left[idx], n_right[idx])
        _, score = score_candidates(pos, parent_impurities, nv, params)
        scores[h0 * n_lo + idx] = score
    best = scores.max()
    if best == -np.inf:
        return None
    g = int(np.flatnonzero(scores >= best - TIE)[0])
    h, lo = divmod(g, n_lo)
    L, R = hi_L[h] + lo_L[lo], hi_R[h] + lo_R[lo]
    gain, score = score_candidates(Candidates(np.zeros(1, np.int64), L[None], R[None], L.sum()[None],
                                      R.sum()[None]), parent_impurities, nv, params)  # fmt: skip
    mem = np.zeros(k, bool)
    mem[:m] = (g >> np.arange(m)) & 1
    return score[0], gain[0], mem, L, R


def category_table(codes, node_ids, y_codes, n_nodes, K, q, w=None):
    """(node, code, class) counts, or sums of the rows' weights ``w``."""
    key = (node_ids.astype(np.int64) * K + codes) * q + y_codes
    return np.bincount(key, weights=w, minlength=n_nodes * K * q).reshape(n_nodes, K, q)


def category_rows(codes, node_ids, n_nodes, K):
    """(node, code) row counts (for weighted rows, next to :func:`category_table`)."""
    return np.bincount(node_ids.astype(np.int64) * K + codes, minlength=n_nodes * K).reshape(
        n_nodes, K
    )


def _score_groupings(mems, t, r, parent_impurities, nv, params):
    """(score, gain, L, R) of groupings ``mems`` (m, k) (True: left) of one node's codes; score
    and gain -inf where a group is empty or a leaf-size rule fails."""
    memf = mems.astype(t.dtype)
    L = memf @ t
    R = (1 - memf) @ t
    rl = mems @ r
    rr = ~mems @ r
    n_left, n_right = L.sum(axis=1), R.sum(axis=1)
    ok = _feasible(rl, rr, n_left, n_right, params) & (rl > 0) & (rr > 0)
    score = np.full(len(mems), -np.inf)
    gain = np.full(len(mems), -np.inf)
    idx = np.flatnonzero(ok)
    if idx.size:
        pos = Candidates(np.zeros(idx.size, np.int64), L[idx], R[idx], n_left[idx], n_right[idx])
        gain[idx], score[idx] = score_candidates(pos, parent_impurities, nv, params)
    return score, gain, L, R


def _local_search(t, r, parent_impurity, n, params, seeds):
    """A good grouping of one node's many codes (class counts ``t`` (k, q), rows ``r``), NOT
    provably the best: from the best prefix of the codes sorted by class share that obeys the
    leaf-size rules (``seeds``) and from the best of the prefixes of the codes sorted by rows,
    the best move of one code to the other group, repeated while it raises the score by more
    than TIE. (score, gain, left membership, L, R), or None when no grouping tried obeys the
    rules."""
    k = t.shape[0]
    parent_impurities, nv = np.array([parent_impurity]), np.array([n])
    tri = np.tri(k - 1, k, 0, bool)  # prefixes of length 1..k-1 in the order's positions
    by_rows = np.argsort(r, kind="stable")
    prefixes = tri[:, np.argsort(by_rows)]
    score, gain, L, R = _score_groupings(prefixes, t, r, parent_impurities, nv, params)
    starts = []
    if seeds:
        s0, g0, L0, R0 = _score_groupings(
            np.array(seeds, bool), t, r, parent_impurities, nv, params
        )
        starts.append((s0[0], g0[0], np.array(seeds[0], bool), L0[0], R0[0]))
    b = int(np.argmax(score))
    starts.append((score[b], gain[b], prefixes[b], L[b], R[b]))
    best = None
    flips = np.eye(k, dtype=bool)
    for cur in starts:
        if cur[0] == -np.inf:
            continue
        for _ in range(4 * k):
            moves = cur[2][None, :] ^ flips
            ms, mg, mL, mR = _score_groupings(moves, t, r, parent_impurities, nv, params)
            j = int(np.argmax(ms))
            if not ms[j] > cur[0] + TIE:
                break
            cur = (ms[j], mg[j], moves[j], mL[j], mR[j])
        if best is None or cur[0] > best[0] + TIE:
            best = cur
    return best
