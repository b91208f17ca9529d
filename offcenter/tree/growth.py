"""Level-wise (breadth-first) growth of a tree from its training rows.

Every numeric feature is sorted once (``argsort`` at the start); at each level the sorted
orders are split into the children's orders with a stable radix sort on the child index
(O(n)), never re-sorted. Each level searches every feature for every open node at once
(:mod:`offcenter.tree.numeric`, :mod:`offcenter.tree.categorical`), keeps the best split of
each node (the highest score; within ``TIE``, the first feature in column order), makes it if
its gain is above ``min_gain + TIE`` and routes the rows to the children.
"""

from __future__ import annotations

import numpy as np

from offcenter.tree.categorical import category_rows, category_table, search_categorical
from offcenter.tree.encode import Encoded
from offcenter.tree.monotonic import child_bounds, middle_value
from offcenter.tree.numeric import resolve_lazy, search_numeric
from offcenter.tree.records import (
    SKLEARN_EPSILON,
    TIE,
    GrowthParams,
    Record,
    Screened,
    split_choice,
)

#: With ``max_features``: search a numeric feature only on the rows of the nodes that drew it,
#: and read a node's range of a feature from its sorted segment (:func:`_varying`). The trees
#: are the same either way (``tests/tree/test_engine.py`` grows both); False is the full scan.
DRAWN_ROWS_ONLY = True


def _splittable(rec: Record, params: GrowthParams) -> bool:
    n = rec.n_rows
    if params.max_depth is not None and rec.depth >= params.max_depth:
        return False
    if n < params.min_samples_split or n < 2 * params.min_samples_leaf:
        return False
    if params.min_weight_leaf > 0 and float(rec.counts.sum()) < 2 * params.min_weight_leaf:
        return False
    return int((rec.counts > 0).sum()) > 1


def _varying(
    enc: Encoded,
    act: np.ndarray,
    nd_act: np.ndarray,
    nn: int,
    state: dict | None = None,
    no_nan: set | None = None,
) -> np.ndarray:
    """(nn, F) boolean: feature j takes at least two values among node k's rows.

    A numeric feature varies when its smallest and largest non-missing values differ (missing
    values alone allow no threshold); a categorical one when two codes occur (the missing
    category counts as one).

    ``state`` (``grow``'s (node, value)-sorted orders) and ``no_nan`` (the numeric features
    with no missing value among the rows): for those features the smallest and largest value
    of a node are the first and last of its segment, read without a pass over its rows.
    """
    F = len(enc.features)
    out = np.zeros((nn, F), bool)
    ks = np.arange(nn)
    for j, info in enumerate(enc.features):
        if state is not None and no_nan is not None and j in no_nan:
            o, _ys, key, _ws = state[j]
            col = enc.num[:, enc.slot[j]]
            starts = np.searchsorted(key, ks)
            ends = np.searchsorted(key, ks, side="right")
            nonempty = ends > starts
            lo = col.take(o.take(np.minimum(starts, o.size - 1)))
            hi = col.take(o.take(np.maximum(ends - 1, 0)))
            out[:, j] = nonempty & (lo < hi)
            continue
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


def _allowed_mask(nn, F, params: GrowthParams, varying=None):
    """The features each node may split on: ``params.max_features`` drawn at random per node.

    As in scikit-learn (and Breiman's random forests as usually implemented), features that are
    constant in the node are not drawn: the subset is the first ``max_features`` of a random
    order of the features that vary there (``varying``, from :func:`_varying`), all of them when
    fewer vary. Drawing constant ones would make a node a leaf, impure, whenever its drawn
    features happen to be constant there (frequent deep in a tree grown on a bootstrap sample).
    """
    if params.max_features is None or params.max_features >= F:
        return None
    r = params.rng.random((nn, F))
    if varying is not None:
        r[~varying] = 2.0  # after every varying feature
    order = np.argsort(r, axis=1)[:, : params.max_features]
    mask = np.zeros((nn, F), bool)
    np.put_along_axis(mask, order, True, axis=1)
    if varying is not None:
        mask &= varying
    return mask


def _bound_children(recs: list, ids: list, cst: np.ndarray) -> None:
    """Set the bounds of the children of the records ``ids`` that were split (their
    children's counts final): :func:`offcenter.tree.monotonic.child_bounds`."""
    for rid in ids:
        rec = recs[rid]
        sp = rec.split
        if sp is None:
            continue
        sign = int(cst[sp.feature_index]) if sp.kind == "numeric" else 0
        mid = 0.0
        if sign:
            mid = middle_value(recs[rec.children[0]].counts, recs[rec.children[1]].counts)
        for c, b in zip(rec.children, child_bounds(sign, *rec.bounds, mid)):
            recs[c].bounds = b


def grow(
    enc: Encoded,
    y: np.ndarray,
    params: GrowthParams,
    roots: list,
    forced=None,
    w: np.ndarray | None = None,
    bounds=None,
    heuristic: dict | None = None,
) -> list:
    """Grow subtrees from ``roots`` (list of (rows, depth, conditions)); returns Records.

    The first ``len(roots)`` records are the roots, with parent None; the others follow in
    breadth-first order. ``forced`` maps a root index to a ready split dict (edits).
    ``w`` (one weight per row of ``enc``, positive on the roots' rows, with
    ``params.weighted``) makes every class count a sum of weights; None: every row counts 1.
    With ``params.monotonic`` the numeric candidates of a constrained feature are only the
    admissible ones, and every record gets its bounds (:mod:`offcenter.tree.monotonic`);
    ``bounds``: the roots' (lower, upper) bounds (None: unbounded).
    ``heuristic`` (a dict) gets, per categorical feature whose two-group split was searched by a
    heuristic at some node (:mod:`offcenter.tree.categorical`), its name: the number of nodes.
    """
    N = y.shape[0]
    q = params.q
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
        if bounds is not None:
            recs[-1].bounds = tuple(bounds[k])
        if k in forced or _splittable(recs[-1], params):
            node_of_row[rows] = len(open_ids)
            open_ids.append(k)
    # per numeric feature: rows of the open nodes sorted by (node, value), with their node
    # indices (and weights) kept alongside (partitioned, never re-sorted); the values and
    # labels are gathered from the data when the feature is searched, so they are not stored
    # once per feature
    state = {}
    no_nan: set = set()  # numeric features with no missing value among the roots' rows
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
            if not np.isnan(col.take(o[-1:])).any():  # NaN sorts last
                no_nan.add(j)
            key = node_of_row[o]
            if len(open_ids) > 1:
                perm = np.argsort(key, kind="stable")
                o, key = o[perm], key[perm]
            state[j] = [o, None, key, None if w is None else w[o]]
    while open_ids:
        nn = len(open_ids)
        T = np.stack([recs[i].counts for i in open_ids])
        n = T.sum(axis=1)
        Ipar = params.scorer.node_impurity(T, n)
        best_score = np.full(nn, -np.inf)
        best_gain = np.full(nn, -np.inf)
        best_feat = np.full(nn, -1, np.int64)
        results = {}
        act = np.flatnonzero(node_of_row >= 0)
        nd_act = node_of_row[act]
        sub = params.max_features is not None and params.max_features < F
        fast = DRAWN_ROWS_ONLY
        varying = _varying(enc, act, nd_act, nn, state, no_nan if fast else None) if sub else None
        allowed = _allowed_mask(nn, F, params, varying)
        y_act = y[act]
        w_act = None if w is None else w[act]
        found = {}
        floor = np.full(nn, -np.inf)  # best exact score known so far, per node
        cst = params.monotonic
        if cst is not None:
            lower = np.array([recs[i].bounds[0] for i in open_ids], np.float64)
            upper = np.array([recs[i].bounds[1] for i in open_ids], np.float64)
        for j, info in enumerate(features):
            al = None if allowed is None else allowed[:, j]
            if al is not None and not al.any():
                continue
            if info.kind == "numeric":
                o, _, nds, ws = state[j]
                if fast and al is not None and ws is None and j in no_nan and not al.all():
                    # only the rows of the nodes that drew the feature: the others' segments
                    # hold no candidate (unweighted counts are exact integers either way;
                    # with missing values the whole column decides how they are routed)
                    keep = al.take(nds)
                    o, nds = o[keep], nds[keep]
                    al = None
                ys = y.take(o)  # labels gathered when needed, as the values
                vs = np.take(enc.num[:, enc.slot[j]], o)  # values gathered when needed
                mono = None if cst is None or cst[j] == 0 else (int(cst[j]), lower, upper)
                res = search_numeric(
                    vs,
                    nds,
                    ys,
                    nn,
                    T,
                    n,
                    Ipar,
                    params,
                    al,
                    lazy=True,
                    floor=floor,
                    w=ws,
                    monotonic=mono,
                )
            else:
                K = len(info.categories)
                codes = enc.cat[act, enc.slot[j]]
                tab = category_table(codes, nd_act, y_act, nn, K, q, w_act)
                rws = None if w is None else category_rows(codes, nd_act, nn, K)
                mc = K - 1 if info.has_missing else None
                heur: set = set()
                res = search_categorical(tab, nn, T, n, Ipar, params, al, mc, rws, heur)
                if heur and heuristic is not None:
                    heuristic[info.name] = heuristic.get(info.name, 0) + len(heur)
            if res is not None:
                found[j] = res
                if isinstance(res, Screened):  # a proven lower bound of a score reached
                    np.maximum(floor, res.screen.floor, out=floor)
                else:
                    np.maximum.at(floor, res.nodes, res.score)
        resolve_lazy(found, nn, Ipar, n, params)
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
                if j < 0 or not best_gain[loc] > params.min_gain + TIE:
                    continue
                mid = params.min_impurity_decrease
                if mid > 0:  # scikit-learn's weighted impurity decrease, and its test
                    share = float(rec.counts.sum()) / params.total_weight
                    if share * best_gain[loc] + SKLEARN_EPSILON < mid:
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
        if cst is not None:
            _bound_children(recs, open_ids, cst)
        new_local = np.full(len(recs), -1, np.int64)
        child_ids = [c for rid in open_ids for c in recs[rid].children]
        for c in child_ids:
            if _splittable(recs[c], params):
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
        for j, (o, _, _nds, ws) in state.items():
            key = small.take(o)
            keep = key >= 0
            if not keep.all():
                o, key = o[keep], key[keep]
                ws = None if ws is None else ws[keep]
            if len(open_ids) > 1:
                perm = np.argsort(key.astype(key_dtype), kind="stable")
                o, key = o.take(perm), key.take(perm)
                ws = None if ws is None else ws[perm]
            state[j] = [o, None, key, ws]
    return recs
