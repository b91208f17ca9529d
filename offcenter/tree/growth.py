"""Level-wise (breadth-first) growth of a tree from its training rows.

Every numeric feature is sorted once (``argsort`` at the start); at each level the sorted
orders are split into the children's orders with a stable radix sort on the child index
(O(n)), never re-sorted. Each level searches every feature for every open node at once
(:mod:`offcenter.tree.numeric`, :mod:`offcenter.tree.categorical`), keeps the best split of
each node (the highest score; within ``TIE``, the first feature in column order), makes it if
its gain is above ``min_gain + TIE`` and routes the rows to the children.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from offcenter.tree.categorical import category_rows, category_table, search_categorical
from offcenter.tree.encode import Encoded
from offcenter.tree.monotonic import child_bounds, middle_value
from offcenter.tree.numeric import resolve_lazy, search_numeric
from offcenter.tree.records import (
    SKLEARN_EPSILON,
    TIE,
    BestSplits,
    GrowthParams,
    Record,
    Screened,
    split_choice,
)

#: With ``max_features``: search a numeric feature only on the rows of the nodes that drew it,
#: and read a node's range of a feature from its sorted segment (:func:`_varying`). The trees
#: are the same either way (``tests/tree/test_engine.py`` grows both); False is the full scan.
DRAWN_ROWS_ONLY = True


#: Grow an unweighted tree on its distinct runs of identical consecutive rows, each counted
#: with its copies (:func:`copies_of_rows`; a forest's bootstrap samples hold about 63 % of
#: their rows once). The trees are the same either way (``tests/tree/test_copies.py``).
MERGE_COPIES = True

#: Merge only when the copies are at least this share of the rows (below it the saving is
#: smaller than the bookkeeping).
MERGE_SHARE = 0.05


def copies_of_rows(enc: Encoded, y: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The first row of every run of identical consecutive rows (same values, NaN included,
    same category codes, same class) and each row's number of copies (``mult``: the run's
    length on its first row, 0 on the others), for :func:`grow`; None when fewer than
    ``MERGE_SHARE`` of the rows are copies (or ``MERGE_COPIES`` is off).

    A forest gives each tree its bootstrap sample in row order, so the copies of a drawn row
    are consecutive. Identical rows are interchangeable in an unweighted tree: they go to the
    same child at every split and add the same class to every count.

    >>> from offcenter.tree.encode import fit_encode
    >>> enc, _ = fit_encode(np.array([[1.0], [1.0], [1.0], [2.0], [np.nan], [np.nan]]))
    >>> first, mult = copies_of_rows(enc, np.array([0, 0, 1, 1, 0, 0]))
    >>> first.tolist(), mult.tolist()
    ([0, 2, 3, 4], [2, 0, 1, 1, 2, 0])
    """
    n = y.shape[0]
    if not MERGE_COPIES or n < 2:
        return None
    a, b = enc.num[1:], enc.num[:-1]
    same = (y[1:] == y[:-1]) & ((a == b) | (np.isnan(a) & np.isnan(b))).all(axis=1)
    same &= (enc.cat[1:] == enc.cat[:-1]).all(axis=1)
    if same.sum() < MERGE_SHARE * n:
        return None
    first = np.flatnonzero(np.concatenate(([True], ~same)))
    mult = np.zeros(n, np.int64)
    mult[first] = np.diff(np.append(first, n))
    return first, mult


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
    enc: Encoded, act: np.ndarray, nd_act: np.ndarray, n_nodes: int, cols=None
) -> np.ndarray:
    """(n_nodes, F) boolean: feature j takes at least two values among node k's rows.

    A numeric feature varies when its smallest and largest non-missing values differ (missing
    values alone allow no threshold); a categorical one when two codes occur (the missing
    category counts as one).

    ``cols`` (``grow``'s (node, value)-sorted columns, :class:`_Columns`): for the numeric
    features with no missing value among the rows, the smallest and largest value of a node
    are the first and last of its segment, read for all of them at once without a pass over
    the rows.
    """
    F = len(enc.features)
    out = np.zeros((n_nodes, F), bool)
    quick = [] if cols is None else [j for j in cols.feats if j in cols.no_nan]
    if quick and cols.order.shape[1]:
        key = cols.key
        ks = np.arange(n_nodes)
        starts = np.searchsorted(key, ks)
        ends = np.searchsorted(key, ks, side="right")
        o = cols.order[[cols.row[j] for j in quick]]
        base = (np.array([enc.slot[j] for j in quick]) * enc.num.shape[0])[:, None]
        flat = enc.num.T.ravel()  # a view: num is Fortran-ordered
        lo = flat.take(base + o.take(np.minimum(starts, key.size - 1), axis=1))
        hi = flat.take(base + o.take(np.maximum(ends - 1, 0), axis=1))
        out[:, quick] = ((ends > starts) & (lo < hi)).T
    done = set(quick)
    for j, info in enumerate(enc.features):
        if j in done:
            continue
        col = enc.column(j)[act]
        if info.kind == "numeric":
            lo = np.full(n_nodes, np.inf)
            hi = np.full(n_nodes, -np.inf)
            np.fmin.at(lo, nd_act, col)
            np.fmax.at(hi, nd_act, col)
        else:
            lo = np.full(n_nodes, np.iinfo(np.int64).max)
            hi = np.full(n_nodes, np.iinfo(np.int64).min)
            np.minimum.at(lo, nd_act, col)
            np.maximum.at(hi, nd_act, col)
        out[:, j] = lo < hi
    return out


def _allowed_mask(n_nodes, F, params: GrowthParams, varying=None):
    """The features each node may split on: ``params.max_features`` drawn at random per node.

    As in scikit-learn (and Breiman's random forests as usually implemented), features that are
    constant in the node are not drawn: the subset is the first ``max_features`` of a random
    order of the features that vary there (``varying``, from :func:`_varying`), all of them when
    fewer vary. Drawing constant ones would make a node a leaf, impure, whenever its drawn
    features happen to be constant there (frequent deep in a tree grown on a bootstrap sample).
    """
    if params.max_features is None or params.max_features >= F:
        return None
    r = params.rng.random((n_nodes, F))
    if varying is not None:
        r[~varying] = 2.0  # after every varying feature
    order = np.argsort(r, axis=1)[:, : params.max_features]
    mask = np.zeros((n_nodes, F), bool)
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
    presorted: np.ndarray | None = None,
    mult: np.ndarray | None = None,
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
    ``presorted`` ((numeric features, rows) int: every row in increasing order of each
    numeric column, NaN last; checked by :func:`checked_orders`; a forest's,
    :func:`offcenter.ensemble.forest._sample_orders`)
    replaces the sorts when the rows are unweighted (the rows of no root are dropped from it).
    ``mult`` (unweighted rows only: one integer per row of ``enc``, >= 1 on the roots' rows):
    row r stands for ``mult[r]`` identical rows (same values, same class), left out of the
    roots (:func:`copies_of_rows`). Every class count, ``Record.n_rows`` and the leaf-size
    rules then count the copies, exactly as a tree grown with the copies present (integer
    sums; no threshold falls between equal values), on fewer rows.

    The steps, one function each: the roots' records and the nodes open to a split
    (:func:`_open_roots`); every numeric column sorted once (:func:`_sorted_columns`); then
    per level, the best split of every open node (:func:`_search_level`), the splits made and
    their children recorded (:func:`_make_splits`), the rows sent to the children
    (:func:`_route_rows`, :func:`_count_children`), the children open to a split
    (:func:`_open_children`) and the sorted columns partitioned among them
    (:func:`_partition_columns`).
    """
    forced = forced or {}
    recs, node_of_row, open_ids = _open_roots(y, params, roots, forced, w, bounds, mult)
    cols = _sorted_columns(enc, node_of_row, len(open_ids), w, presorted)
    while open_ids:
        act = np.flatnonzero(node_of_row >= 0)
        nd_act = node_of_row[act]
        best = _search_level(enc, y, params, recs, open_ids, act, nd_act, cols, w, heuristic, mult)
        level_base = len(recs)  # the children of this level get ids from here on
        routing = _make_splits(enc, params, recs, open_ids, best, forced, w)
        rows, child_rec = _route_rows(enc, routing, act, nd_act)
        _count_children(recs, level_base, rows, child_rec, y, w, params.q, mult)
        if params.monotonic is not None:
            _bound_children(recs, open_ids, params.monotonic)
        open_ids, new_local = _open_children(recs, open_ids, params)
        node_of_row[act] = -1
        node_of_row[rows] = new_local[child_rec]
        if not open_ids:
            break
        _partition_columns(cols, node_of_row, len(open_ids))
    return recs


def _open_roots(y, params: GrowthParams, roots: list, forced: dict, w, bounds, mult=None):
    """The roots' records, and the open node of every row (-1: none) with the open records'
    ids: the roots that can split, or whose split is forced."""
    q = params.q
    recs: list[Record] = []
    node_of_row = np.full(y.shape[0], -1, np.int32)
    open_ids: list[int] = []
    for k, (rows, depth, cond) in enumerate(roots):
        n_rows = int(np.size(rows))
        if w is None and mult is None:
            counts = np.bincount(y[rows], minlength=q).astype(np.int64)
        elif w is None:  # integer sums: exact
            counts = np.bincount(y[rows], weights=mult[rows], minlength=q).astype(np.int64)
            n_rows = int(counts.sum())
        else:
            counts = np.bincount(y[rows], weights=w[rows], minlength=q)
        recs.append(Record(None, depth, counts, tuple(cond), n_rows=n_rows))
        if bounds is not None:
            recs[-1].bounds = tuple(bounds[k])
        if k in forced or _splittable(recs[-1], params):
            node_of_row[rows] = len(open_ids)
            open_ids.append(k)
    return recs, node_of_row, open_ids


@dataclass
class _Columns:
    """The numeric columns sorted by (node, value) over the rows of the open nodes: one row
    per numeric feature ``feats`` (in column order; ``row`` maps a feature to its row).
    ``order`` (rows of the data) and ``w`` (their weights, or None) are (features, rows)
    arrays; every feature holds the same rows, so the nodes' segments start at the same
    positions in every row: ``key``, the open node of every position, is one array. ``no_nan``: the numeric features with no missing
    value among the rows."""

    feats: list
    row: dict
    order: np.ndarray
    key: np.ndarray
    w: np.ndarray | None
    no_nan: set

    def __getitem__(self, j: int):
        """Feature ``j``'s sorted rows, nodes and weights (views)."""
        i = self.row[j]
        return self.order[i], self.key, None if self.w is None else self.w[i]


def _row_offsets(a: np.ndarray) -> np.ndarray:
    """(rows, 1): the flat index of each row's start in the C-ordered 2-D array ``a``."""
    return (np.arange(a.shape[0], dtype=np.intp) * a.shape[1])[:, None]


def checked_orders(enc: Encoded, orders) -> np.ndarray:
    """``orders`` (given to :meth:`TreeClassifier.fit` as ``sorted_orders``) checked against
    the encoded data ``enc``: one row per numeric feature, in column order, each a permutation
    of the rows that sorts its column (NaN last, ties in any order); returned as int32.

    Checking costs one gather and one comparison per value, against the sort it spares.

    >>> from offcenter.tree.encode import fit_encode
    >>> enc, _ = fit_encode(np.array([[2.0, 1.0], [0.0, 3.0], [1.0, 2.0]]))
    >>> checked_orders(enc, np.array([[1, 2, 0], [0, 2, 1]])).tolist()
    [[1, 2, 0], [0, 2, 1]]
    >>> checked_orders(enc, np.array([[0, 1, 2], [0, 2, 1]]))
    Traceback (most recent call last):
    ...
    ValueError: sorted_orders: row 0 does not sort numeric column 0 (x0) in increasing order
    """
    feats = [j for j, info in enumerate(enc.features) if info.kind == "numeric"]
    a = np.asarray(orders)
    if a.ndim != 2 or a.shape != (len(feats), enc.n) or not np.issubdtype(a.dtype, np.integer):
        raise ValueError(
            f"sorted_orders: an integer array of shape ({len(feats)}, {enc.n}) (numeric "
            f"features, rows) was expected, got {a.dtype} of shape {a.shape}"
        )
    a = a.astype(np.int32, copy=False)
    for i, j in enumerate(feats):
        o = a[i]
        seen = np.zeros(enc.n, bool)
        seen[o[(o >= 0) & (o < enc.n)]] = True
        v = enc.num[:, enc.slot[j]].take(o, mode="clip")
        nan = np.isnan(v)
        finite = v[~nan]
        if (
            not seen.all()
            or (nan.any() and not nan[np.argmax(nan) :].all())
            or np.any(finite[1:] < finite[:-1])
        ):
            raise ValueError(
                f"sorted_orders: row {i} does not sort numeric column {j} "
                f"({enc.features[j].name}) in increasing order"
            )
    return a


def _sorted_columns(enc: Encoded, node_of_row, n_open: int, w, presorted=None) -> _Columns:
    """Per numeric feature: the rows of the open nodes sorted by (node, value), with their
    node indices (and weights) kept alongside (partitioned at each level, never re-sorted);
    the values and labels are gathered from the data when the feature is searched, so they
    are not stored once per feature. Also the numeric features with no missing value among
    the open rows. ``presorted``: see :func:`grow`."""
    feats = [j for j, info in enumerate(enc.features) if info.kind == "numeric"]
    act = np.flatnonzero(node_of_row >= 0)
    m = act.size if n_open else 0
    order = np.empty((len(feats), m), np.int32)
    no_nan: set = set()
    whole = act.size == node_of_row.size
    given = (
        presorted is not None
        and w is None
        and presorted.shape == (len(feats), node_of_row.size)
        and [enc.slot[j] for j in feats] == list(range(len(feats)))
    )
    if given and m and not whole:  # the rows of no root dropped: still sorted
        presorted = presorted[node_of_row.take(presorted) >= 0].reshape(len(feats), m)
    for i, j in enumerate(feats):
        if not m:
            break
        col = enc.num[:, enc.slot[j]]
        if given:
            o = presorted[i]
        elif whole:
            o = np.argsort(col).astype(np.int32)
        else:
            o = act[np.argsort(col[act])].astype(np.int32)
        if not np.isnan(col.take(o[-1:])).any():  # NaN sorts last
            no_nan.add(j)
        order[i] = o
    key = node_of_row.take(order)
    if n_open > 1 and m:
        perm = np.argsort(key, axis=1, kind="stable")
        order = order.take(perm + _row_offsets(order))
        key = key[0].take(perm[0])
    else:
        key = key[0] if len(feats) else np.zeros(0, np.int32)
    ws = None if w is None else w.take(order)
    return _Columns(feats, {j: i for i, j in enumerate(feats)}, order, key, ws, no_nan)


@dataclass
class _LevelBest:
    """The best split of every open node of a level: its feature (-1: none), gain and score,
    and the search result of each winning feature (``where`` set: a node's position in it)."""

    feature: np.ndarray
    gain: np.ndarray
    score: np.ndarray
    results: dict


def _search_level(
    enc: Encoded, y, params: GrowthParams, recs, open_ids, act, nd_act, cols, w, heuristic, mult
) -> _LevelBest:
    """Search every feature (those drawn, with ``max_features``) at every open node of the
    level at once, then keep each node's best: the highest score; within ``TIE`` of it, the
    first column.

    The numeric features of :func:`_stacked` (no missing value, unweighted, unconstrained) are
    searched together, each only on the rows of the nodes that drew it; the others one by
    one."""
    n_nodes = len(open_ids)
    node_counts = np.stack([recs[i].counts for i in open_ids])
    n = node_counts.sum(axis=1)
    parent_impurity = params.scorer.node_impurity(node_counts, n)
    F = len(enc.features)
    sub = params.max_features is not None and params.max_features < F
    fast = DRAWN_ROWS_ONLY
    varying = _varying(enc, act, nd_act, n_nodes, cols if fast else None) if sub else None
    allowed = _allowed_mask(n_nodes, F, params, varying)
    y_act = y[act]
    w_act = None if w is None else w[act]
    found = {}
    floor = np.full(n_nodes, -np.inf)  # best exact score known so far, per node
    cst = params.monotonic
    if cst is not None:
        lower = np.array([recs[i].bounds[0] for i in open_ids], np.float64)
        upper = np.array([recs[i].bounds[1] for i in open_ids], np.float64)
    together = _stacked(cols, params, w) if fast else []
    if together:
        for j, res in _search_stacked(
            enc, y, params, cols, together, allowed, node_counts, n, parent_impurity, mult
        ):
            found[j] = res
            np.maximum.at(floor, res.nodes, res.score)
    done = set(together)
    for j, info in enumerate(enc.features):
        if j in done:
            continue
        al = None if allowed is None else allowed[:, j]
        if al is not None and not al.any():
            continue
        if info.kind == "numeric":
            o, nds, ws = cols[j]
            if fast and al is not None and ws is None and j in cols.no_nan and not al.all():
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
                n_nodes,
                node_counts,
                n,
                parent_impurity,
                params,
                al,
                lazy=True,
                floor=floor,
                w=ws,
                monotonic=mono,
                mult=None if mult is None else mult.take(o),
            )
        else:
            K = len(info.categories)
            codes = enc.cat[act, enc.slot[j]]
            tab = _category_counts(codes, nd_act, y_act, n_nodes, K, params.q, w_act, mult, act)
            rws = None if w is None else category_rows(codes, nd_act, n_nodes, K)
            mc = K - 1 if info.has_missing else None
            heur: set = set()
            res = search_categorical(
                tab, n_nodes, node_counts, n, parent_impurity, params, al, mc, rws, heur
            )
            if heur and heuristic is not None:
                heuristic[info.name] = heuristic.get(info.name, 0) + len(heur)
        if res is not None:
            found[j] = res
            if isinstance(res, Screened):  # a proven lower bound of a score reached
                np.maximum(floor, res.screen.floor, out=floor)
            else:
                np.maximum.at(floor, res.nodes, res.score)
    resolve_lazy(found, n_nodes, parent_impurity, n, params)
    return _best_of_level({j: found[j] for j in sorted(found)}, n_nodes)


def _category_counts(codes, nd_act, y_act, n_nodes, K, q, w_act, mult, act):
    """:func:`~offcenter.tree.categorical.category_table` of the level's rows, each counted
    with its copies (``mult``: integer sums, exact) when it has some."""
    if mult is None:
        return category_table(codes, nd_act, y_act, n_nodes, K, q, w_act)
    return category_table(codes, nd_act, y_act, n_nodes, K, q, mult[act]).astype(np.int64)


#: Most (feature, row) entries searched in one stacked call (:func:`_search_stacked`): the
#: features of a level are cut into groups of about this many, to bound the memory.
STACK_ROWS = 1 << 21


def _stacked(cols: _Columns, params: GrowthParams, w) -> list:
    """The numeric features searched together (:func:`_search_stacked`): those with no missing
    value, unweighted, with no monotonic constraint, under a scorer without the block
    screening (which screens one feature's many thresholds against its own anchors)."""
    if w is not None or params.scorer.can_block_screen():
        return []
    cst = params.monotonic
    return [j for j in cols.feats if j in cols.no_nan and (cst is None or cst[j] == 0)]


def _search_stacked(
    enc, y, params, cols, feats, allowed, node_counts, n, parent_impurity, mult=None
):
    """The best threshold of each numeric feature of ``feats`` at each open node that drew
    it, from one :func:`~offcenter.tree.numeric.search_numeric` call per group of features.

    The (feature, node) segments of the sorted columns are laid end to end and each becomes a
    node of its own, numbered ``f * n_nodes + node`` for the f-th feature of the group (its
    counts, size and impurity those of the node): one search over all of them finds the same
    candidates, counts and scores as one search per feature (every quantity is per row or per
    segment). Yields (feature, :class:`BestSplits` with the level's node indices)."""
    n_nodes = node_counts.shape[0]
    key = cols.key
    sizes = np.bincount(key, minlength=n_nodes)
    if allowed is None:
        per_feat = np.full(len(feats), key.size)
    else:
        per_feat = sizes @ allowed[:, feats]
    group: list = []
    total = 0
    for k, j in enumerate(feats):
        group.append(j)
        total += int(per_feat[k])
        if total >= STACK_ROWS or k == len(feats) - 1:
            yield from _search_group(
                enc, y, params, cols, group, allowed, node_counts, n, parent_impurity, mult
            )
            group, total = [], 0


def _search_group(enc, y, params, cols, group, allowed, node_counts, n, parent_impurity, mult=None):
    """:func:`_search_stacked` for one group of features."""
    n_nodes = node_counts.shape[0]
    c = len(group)
    rows = [cols.row[j] for j in group]
    o = cols.order[rows]
    key = cols.key.astype(np.intp)
    m = key.size
    if allowed is not None:
        # (feature, position) of the rows whose node drew the feature, feature-major
        flat = np.flatnonzero(allowed[:, group].T.take(key, axis=1))
        fi, at = np.divmod(flat, m)
        o = o.take(flat)
        vid = fi * n_nodes + key.take(at)
    else:
        fi = np.repeat(np.arange(c), m)
        o = o.ravel()
        vid = (key + (np.arange(c) * n_nodes)[:, None]).ravel()
    if o.size < 2:
        return
    N = enc.num.shape[0]
    slots = np.array([enc.slot[j] for j in group]) * N
    vs = enc.num.T.ravel().take(slots.take(fi) + o)  # num is Fortran-ordered: a view
    res = search_numeric(
        vs,
        vid,
        y.take(o),
        c * n_nodes,
        np.tile(node_counts, (c, 1)),
        np.tile(n, c),
        np.tile(parent_impurity, c),
        params,
        mult=None if mult is None else mult.take(o),
    )
    if res is None:
        return
    bounds = np.searchsorted(res.nodes, np.arange(c + 1) * n_nodes)
    for f, j in enumerate(group):
        a, b = bounds[f], bounds[f + 1]
        if a == b:
            continue
        yield (
            j,
            BestSplits(
                res.nodes[a:b] - f * n_nodes,
                res.score[a:b],
                res.gain[a:b],
                thr=res.thr[a:b],
                L=res.L[a:b],
                R=res.R[a:b],
                miss_child=res.miss_child[a:b],
                n_missing=res.n_missing[a:b],
            ),
        )


def _best_of_level(found: dict, n_nodes: int) -> _LevelBest:
    """Each node's best feature among the search results ``found`` (feature: result): the
    highest score; within ``TIE`` of it, the first column."""
    best = _LevelBest(
        np.full(n_nodes, -1, np.int64), np.full(n_nodes, -np.inf), np.full(n_nodes, -np.inf), {}
    )
    top = np.full(n_nodes, -np.inf)
    for res in found.values():
        np.maximum.at(top, res.nodes, res.score)
    for j, res in found.items():
        nodes = res.nodes
        win = (best.feature[nodes] < 0) & (res.score >= top[nodes] - TIE)
        if win.any():
            won = nodes[win]
            best.score[won] = res.score[win]
            best.gain[won] = res.gain[win]
            best.feature[won] = j
            where = np.full(n_nodes, -1, np.int64)
            where[nodes] = np.arange(nodes.size)
            res.where = where
            best.results[j] = res
    return best


@dataclass
class _Routing:
    """How the rows of each open node of a level go to its children: ``kind`` (0 not split, 1
    numeric, 2 categorical), the feature's column ``fslot``, the threshold ``thr`` and the
    child of missing values ``mchild`` (numeric), the first child's record id
    ``first_child``, and for categorical splits the child of every code (``catmap`` from
    ``offset``, code -1 first)."""

    kind: np.ndarray
    fslot: np.ndarray
    thr: np.ndarray
    mchild: np.ndarray
    first_child: np.ndarray
    offset: np.ndarray
    catmaps: list


def _make_splits(
    enc: Encoded, params: GrowthParams, recs, open_ids, best: _LevelBest, forced: dict, w
) -> _Routing:
    """Split every open node whose best split passes the stopping rules (``min_gain``,
    ``min_impurity_decrease``), or whose split is forced (edits: it replaces the search's at
    its root): the split set on its record, its children's records appended (ids from
    ``len(recs)`` on). Returns how the level's rows are routed."""
    n_nodes = len(open_ids)
    features = enc.features
    routing = _Routing(
        kind=np.zeros(n_nodes, np.int8),
        fslot=np.zeros(n_nodes, np.int64),
        thr=np.zeros(n_nodes),
        mchild=np.zeros(n_nodes, np.int64),
        first_child=np.zeros(n_nodes, np.int64),
        offset=np.zeros(n_nodes, np.int64),
        catmaps=[],
    )
    cat_pos = 0
    for loc, rid in enumerate(open_ids):
        rec = recs[rid]
        if rid in forced:
            sp = forced[rid]
        else:
            j = int(best.feature[loc])
            # a gain within TIE of min_gain is round-off of an equal one: children with the
            # node's exact class proportions give 2.2e-16 under DKM, 0 under HDDT
            if j < 0 or not best.gain[loc] > params.min_gain + TIE:
                continue
            mid = params.min_impurity_decrease
            if mid > 0:  # scikit-learn's weighted impurity decrease, and its test
                share = float(rec.counts.sum()) / params.total_weight
                if share * best.gain[loc] + SKLEARN_EPSILON < mid:
                    continue
            res = best.results[j]
            sp = split_choice(res, int(res.where[loc]), j, features[j])
        rec.split = sp
        rec.n_missing = int(sp.n_missing)
        j = sp.feature_index
        routing.first_child[loc] = len(recs)
        for k, cc in enumerate(sp.child_counts):
            child = Record(
                rid,
                rec.depth + 1,
                np.asarray(cc, np.int64 if w is None else np.float64),
                rec.conditions + (sp.labels[k],),
            )
            rec.children.append(len(recs))
            recs.append(child)
        routing.fslot[loc] = enc.slot[j]
        if sp.kind == "numeric":
            routing.kind[loc] = 1
            routing.thr[loc] = sp.threshold
            routing.mchild[loc] = sp.missing_child
        else:
            routing.kind[loc] = 2
            K = len(features[j].categories)
            table = np.full(K + 1, sp.default_child, np.int64)
            for k, g in enumerate(sp.group_codes):
                table[np.asarray(g, np.int64) + 1] = k
            routing.offset[loc] = cat_pos
            routing.catmaps.append(table)
            cat_pos += K + 1
    return routing


def _route_rows(enc: Encoded, routing: _Routing, act, nd_act):
    """The rows of the level's split nodes, and the record id of the child each goes to."""
    split_nodes = routing.kind[nd_act] > 0
    rows = act[split_nodes]
    nds = nd_act[split_nodes]
    ck = np.zeros(rows.size, np.int64)
    isnum = routing.kind[nds] == 1
    if isnum.any():
        r, d = rows[isnum], nds[isnum]
        v = enc.num[r, routing.fslot[d]]
        c = np.where(v <= routing.thr[d], 0, 1)
        nan = np.isnan(v)
        if nan.any():
            c = np.where(nan, routing.mchild[d], c)
        ck[isnum] = c
    iscat = ~isnum
    if iscat.any():
        cm = np.concatenate(routing.catmaps)
        r, d = rows[iscat], nds[iscat]
        ck[iscat] = cm[routing.offset[d] + enc.cat[r, routing.fslot[d]] + 1]
    return rows, routing.first_child[nds] + ck


def _count_children(recs, level_base: int, rows, child_rec, y, w, q: int, mult=None) -> None:
    """The children's rows (with their copies, ``mult``), and with weights their class counts
    summed from the rows (the search's counts are differences of cumulative sums: equal up
    to rounding)."""
    n_new = len(recs) - level_base
    local = child_rec - level_base
    if mult is None:
        n_rows = np.bincount(local, minlength=n_new)
    else:  # integer sums: exact
        n_rows = np.bincount(local, weights=mult[rows], minlength=n_new).astype(np.int64)
    if w is not None and n_new:
        wc = np.bincount(local * q + y[rows], weights=w[rows], minlength=n_new * q).reshape(
            n_new, q
        )
    for k in range(n_new):
        recs[level_base + k].n_rows = int(n_rows[k])
        if w is not None:
            recs[level_base + k].counts = wc[k]


#: Choose a level's open children with arrays (:func:`_open_children_batched`); False: one
#: by one. The records are the same either way (``tests/tree/test_engine.py``).
BATCH_OPEN = True


def _open_children(recs, open_ids, params: GrowthParams):
    """The next level's open records (the children that can split), and each record's
    position among them (-1: not open)."""
    next_open: list[int] = []
    new_local = np.full(len(recs), -1, np.int64)
    if BATCH_OPEN and params.min_weight_leaf <= 0:
        return _open_children_batched(recs, open_ids, params, new_local)
    for c in (c for rid in open_ids for c in recs[rid].children):
        if _splittable(recs[c], params):
            new_local[c] = len(next_open)
            next_open.append(c)
    return next_open, new_local


def _open_children_batched(recs, open_ids, params: GrowthParams, new_local):
    """:func:`_open_children` with :func:`_splittable`'s tests on arrays (without
    ``min_weight_fraction_leaf``)."""
    kids = [c for rid in open_ids for c in recs[rid].children]
    if not kids:
        return [], new_local
    rs = [recs[c] for c in kids]
    n = np.array([r.n_rows for r in rs], np.int64)
    ok = (n >= params.min_samples_split) & (n >= 2 * params.min_samples_leaf)
    if params.max_depth is not None:
        ok &= np.array([r.depth for r in rs]) < params.max_depth
    ok &= (np.stack([r.counts for r in rs]) > 0).sum(axis=1) > 1
    where = np.flatnonzero(ok)
    kids_arr = np.array(kids, np.int64)
    new_local[kids_arr[where]] = np.arange(where.size)
    return kids_arr[where].tolist(), new_local


def _partition_columns(cols: _Columns, node_of_row, n_open: int) -> None:
    """The sorted columns split among the next level's open nodes: the rows of nodes no
    longer open dropped, the others ordered by node with a stable sort on the node index (the
    values stay sorted within each node). All features at once: they hold the same rows."""
    if cols.order.size == 0:
        return
    small = node_of_row.astype(np.int16) if n_open < 32767 else node_of_row
    key_dtype = np.uint16 if n_open < 32767 else np.int32
    o, ws = cols.order, cols.w
    key = small.take(o)
    keep = key >= 0
    F = o.shape[0]
    if not keep.all():
        o, key = o[keep].reshape(F, -1), key[keep].reshape(F, -1)
        ws = None if ws is None else ws[keep].reshape(F, -1)
    if n_open > 1 and o.shape[1]:
        perm = np.argsort(key.astype(key_dtype), axis=1, kind="stable")
        flat = perm + _row_offsets(perm)
        o = o.take(flat)
        ws = None if ws is None else ws.take(flat)
    cols.order, cols.w = o, ws
    cols.key = np.repeat(np.arange(n_open, dtype=key.dtype), np.bincount(key[0], minlength=n_open))
