"""Search of the best multiway or binary split of a categorical feature at every open node,
from a (node, category, class) count table."""

from __future__ import annotations

import numpy as np

from offcenter.tree.numeric import best_per_segment, evaluate
from offcenter.tree.records import BestSplits, Candidates, GrowthParams


def search_categorical(
    tab, nn, T, n, Ipar, params: GrowthParams, allowed=None, missing_code=None, rows=None
):
    """Best multiway or binary split of one categorical feature for every node.

    ``tab`` is the (nn, K, q) count table of (node, code, class). With weighted rows, ``tab``
    holds sums of weights and ``rows`` (nn, K) the number of rows of each (node, code)
    (``min_samples_leaf`` and ``n_missing`` count rows).
    """
    q = params.q
    K = tab.shape[1]
    sizes = tab.sum(axis=2)
    rsizes = sizes if rows is None else rows
    present = rsizes > 0
    n_missing = rsizes[:, missing_code] if missing_code is not None else np.zeros(nn, np.int64)
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
        gain, score = params.scorer.multiway(tab[nodes], sizes[nodes], Ipar[nodes], n[nodes])
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
    ok = (rl >= params.min_samples_leaf) & (rr >= params.min_samples_leaf)
    if params.min_weight_leaf > 0:
        ok &= (nl >= params.min_weight_leaf) & (nr >= params.min_weight_leaf)
    ok &= (member & present[:, None, :]).any(axis=2) & (~member & present[:, None, :]).any(axis=2)
    if allowed is not None:
        ok &= allowed[:, None]
    if not ok.any():
        return None
    nd_idx, g_idx = np.nonzero(ok)
    L = left[nd_idx, g_idx]
    R = right[nd_idx, g_idx]
    pos = Candidates(nd_idx, L, R, nl[nd_idx, g_idx], nr[nd_idx, g_idx])
    gain, score = evaluate(pos, Ipar, n, params)
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
