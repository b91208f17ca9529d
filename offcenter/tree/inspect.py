"""Lazy inspection of a fitted tree: candidate splits, threshold curves, impurities of a node.

Nothing here is computed during fit: each function takes one node, recomputes its candidate
splits from the training rows the estimator keeps, and scores them under every measure setting
at once (the chosen measure first, then :func:`offcenter.comparison_settings` on the training
prior, by default).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
from sklearn.utils.validation import check_is_fitted

from offcenter.measures.impurity import Impurity
from offcenter.measures.scores import score_like
from offcenter.measures.settings import MeasureSetting, comparison_settings
from offcenter.tree import monotonic
from offcenter.tree.categorical import (
    category_rows,
    category_table,
    search_categorical,
    warn_heuristic,
)
from offcenter.tree.fitted import check_node, require_data
from offcenter.tree.numeric import numeric_positions, numeric_result, score_candidates
from offcenter.tree.params import check_tree_params, growth_params
from offcenter.tree.records import (
    Candidates,
    GrowthParams,
    SplitChoice,
    categorical_split,
    numeric_split,
    split_choice,
)
from offcenter.tree.scoring import SplitScorer, make_scorer
from offcenter.tree.screening import subset


def _scorer(clf, imp: Impurity, alpha, score=None) -> SplitScorer:
    """The scorer of an Impurity, a score and alpha on the tree's training data (its size,
    weights)."""
    data = getattr(clf, "training_data_", None)
    n = 1 if data is None else data.n
    weighted = data is not None and data.weights is not None
    return make_scorer(imp, len(clf.classes_), n, weighted, alpha, score)


def resolve_settings(clf, settings=None) -> list[tuple[str, str, SplitScorer]]:
    """(key, label, SplitScorer) of the tree's setting followed by the comparison settings.

    Settings are :class:`~offcenter.MeasureSetting` objects, their keys or dicts (see
    :meth:`~offcenter.MeasureSetting.parse`), resolved on the tree's training prior; default
    :func:`offcenter.comparison_settings`. A setting without an alpha is scored like the tree
    (the tree's alpha) and keyed without it, so the tree's own column has the key of its setting
    without alpha (``clf.setting_.replace(alpha=None).key``); a setting given with an alpha is
    scored with it. A setting equal to one already listed is skipped. (A bare
    :class:`~offcenter.Impurity` is still accepted, keyed by :attr:`Impurity.key`.)
    """
    counts = clf.prior_ * len(clf.classes_)  # proportional counts: the prior is what matters
    alpha = clf.setting_.alpha
    own = clf.setting_.replace(alpha=None)
    score = clf.setting_.score
    out = [(own.key, own.label, _scorer(clf, clf.impurity_, alpha, score))]
    items = comparison_settings() if settings is None else list(settings)
    for s in items:
        # each setting scored like the tree where the tree's score applies to its measure
        # (the scores' registry says where: not to a split criterion)
        if isinstance(s, Impurity):
            key, label, imp = s.key, s.label, s
            s_score, a = score_like(imp.info, score, alpha)
        else:
            ms = MeasureSetting.parse(s)
            key, label, imp = ms.key, ms.label, ms.impurity(counts)
            scored = ms.scored_like(clf.setting_)
            s_score, a = scored.score, scored.alpha
        if any(e[0] == key for e in out):
            continue
        out.append((key, label, _scorer(clf, imp, a, s_score)))
    return out


def _feature_index(clf, feature) -> int:
    names = [f.name for f in clf.features_]
    if isinstance(feature, (int, np.integer)) and not isinstance(feature, bool):
        if 0 <= feature < len(names):
            return int(feature)
    elif str(feature) in names:
        return names.index(str(feature))
    raise ValueError(f"unknown feature {feature!r}; the tree's features are {names}.")


def _node_data(clf, node_id):
    """The node's training rows, their classes and weights (None: unweighted), the class
    counts T (1, q) (sums of weights), their total, the search settings and I(node)."""
    node = _NodeSearch(clf, node_id)
    params = node.growth(_scorer(clf, clf.impurity_, clf.setting_.alpha))
    return (
        node.rows,
        node.y,
        node.w,
        node.node_counts,
        node.n,
        params,
        params.scorer.node_impurity(node.node_counts, node.n),
    )


class _NodeSearch:
    """A node's training rows, searched under one setting or many.

    What does not depend on the setting is prepared once per feature and shared by every
    setting searched at the node: a numeric column sorted with its classes and weights, and its
    valid thresholds with their children's class counts (per threshold rule:
    ``min_samples_leaf``, the minimum weight, the pruning of pure runs); a categorical
    column's (category, class) count table. Each setting then only scores the thresholds
    (:func:`offcenter.tree.numeric.score_candidates`) or searches the groupings, so its best split is
    the engine's (:func:`~offcenter.tree.numeric.search_numeric`,
    :func:`~offcenter.tree.categorical.search_categorical`) at a fraction of the cost.
    """

    def __init__(self, clf, node_id: int):
        self.clf = clf
        self.rows = clf.node_indices(node_id)
        data = clf.training_data_
        self.y = data.y[self.rows]
        self.w = None if data.weights is None else data.weights[self.rows]
        self.node_counts = data.class_counts(self.rows, len(clf.classes_))[None, :]
        self.n = self.node_counts.sum(axis=1)
        p = clf.get_params()
        p.update(check_tree_params(p))
        p["max_features"] = None
        self._params = p
        self._columns: dict = {}
        self._positions: dict = {}
        #: monotonic constraints: the signs and the node's bounds (None: unconstrained)
        self.cst = monotonic.check_constraints(
            p.get("monotonic_cst"), clf.features_, self.node_counts.shape[1]
        )
        self.bounds = None
        if self.cst is not None:
            self.bounds = tuple(monotonic.tree_bounds(clf.tree_.nodes, self.cst)[node_id])
        #: categorical features whose two-group split was searched by a heuristic (name: 1)
        self.heuristic: dict = {}

    def admissible(self, j: int, pos) -> np.ndarray | None:
        """Which candidates ``pos`` of numeric feature ``j`` its constraint admits at the node
        (:func:`offcenter.tree.monotonic.admissible`); None: the feature is unconstrained."""
        if self.cst is None or not self.cst[j]:
            return None
        lo, hi = self.bounds
        return monotonic.admissible(pos.L, pos.R, pos.n_left, pos.n_right, int(self.cst[j]), lo, hi)

    def warn(self, what: str) -> None:
        """Warn once if a two-group split was searched by a heuristic (see
        :mod:`offcenter.tree.categorical`)."""
        warn_heuristic(self.heuristic, what, stacklevel=4)

    def growth(self, scorer: SplitScorer) -> GrowthParams:
        """The tree's growth parameters with ``scorer``, every feature searched (no draw)."""
        clf = self.clf
        return growth_params(scorer, self._params, clf.training_data_, len(clf.features_))

    def _column(self, j: int):
        col = self._columns.get(j)
        if col is not None:
            return col
        info = self.clf.features_[j]
        enc = self.clf.training_data_.encoded
        rows, y, w = self.rows, self.y, self.w
        if info.kind == "numeric":
            v = enc.num[rows, enc.slot[j]]
            o = np.argsort(v, kind="stable")
            col = (v[o], np.zeros(o.size, np.int32), y[o], None if w is None else w[o])
        else:
            K = len(info.categories)
            codes = enc.cat[rows, enc.slot[j]]
            zeros = np.zeros(rows.size, np.int64)
            q = len(self.clf.classes_)
            tab = category_table(codes, zeros, y, 1, K, q, w)
            col = (tab, None if w is None else category_rows(codes, zeros, 1, K))
        self._columns[j] = col
        return col

    def best(self, j: int, st: GrowthParams, parent_impurity) -> SplitChoice | None:
        """Feature ``j``'s best split under ``st`` (I(node) ``parent_impurity`` under its
        scorer), as the engine's search finds it; None when it has no valid split."""
        info = self.clf.features_[j]
        if info.kind == "numeric":
            pos = self._numeric_candidates(j, st)
            if pos is None:
                return None
            gain, score = score_candidates(pos, parent_impurity, self.n, st)
            res = numeric_result(pos, gain, score)
        else:
            tab, rws = self._column(j)
            K = len(info.categories)
            missing = K - 1 if info.has_missing else None
            if st.categorical == "multiway":
                return self._multiway(j, st, parent_impurity, tab, rws, missing)
            heur: set = set()
            res = search_categorical(
                tab, 1, self.node_counts, self.n, parent_impurity, st, None, missing, rws, heur
            )
            if heur:
                self.heuristic[info.name] = 1
            if res is None:
                return None
        return split_choice(res, 0, j, info)

    def _multiway_split(self, j: int, st: GrowthParams, parent_impurity):
        """Categorical feature ``j``'s one-branch-per-value split under ``st``'s leaf-size
        rules, searched once (:func:`search_categorical`) and kept: ``(split, nodes, the
        children's totals)``, None when it has no valid split."""
        rule = ("multiway", j, st.min_samples_leaf, st.min_weight_leaf)
        if rule not in self._positions:
            info = self.clf.features_[j]
            tab, rws = self._column(j)
            missing = len(info.categories) - 1 if info.has_missing else None
            res = search_categorical(
                tab, 1, self.node_counts, self.n, parent_impurity, st, None, missing, rws, None
            )
            self._positions[rule] = (
                None if res is None else (split_choice(res, 0, j, info), res.nodes, tab.sum(axis=2))
            )
        return self._positions[rule]

    def _multiway(self, j: int, st: GrowthParams, parent_impurity, tab, rws, missing):
        """Feature ``j``'s one-branch-per-value split under ``st``: the split (its children,
        their counts) does not depend on the setting, only its gain and score do. It is
        searched once per leaf-size rule (:func:`search_categorical`) and kept; every setting
        then scores the same count tables by its scorer's kernel, as the search does."""
        kept = self._multiway_split(j, st, parent_impurity)
        if kept is None:
            return None
        split, nodes, sizes = kept
        gain, score = st.scorer.multiway(
            tab[nodes], sizes[nodes], parent_impurity[nodes], self.n[nodes]
        )
        return replace(split, gain=float(gain[0]), score=float(score[0]))

    def _numeric_candidates(self, j: int, st: GrowthParams):
        """Numeric feature ``j``'s candidate thresholds under ``st``'s rules that its
        constraint admits (None: none), prepared once per rule and shared by the settings."""
        v, node_ids, y_codes, w = self._column(j)
        prune = st.scorer.prune_pure_runs and (self.cst is None or not self.cst[j])
        rule = (j, st.q, st.min_samples_leaf, prune, st.min_weight_leaf)
        if rule not in self._positions:
            pos = numeric_positions(
                v, node_ids, y_codes, st.q, 1, self.node_counts, st.min_samples_leaf, None,
                prune, w, st.min_weight_leaf,
            )  # fmt: skip
            ok = None if pos is None else self.admissible(j, pos)
            if ok is not None:  # the constraint's candidates only, as the growth searches
                pos = subset(pos, np.flatnonzero(ok)) if ok.any() else None
            self._positions[rule] = pos
        return self._positions[rule]

    def _numeric_batch(self, st: GrowthParams):
        """Every numeric feature's candidates under ``st``'s rules in one
        :class:`~offcenter.tree.records.Candidates`, feature k of them as "node" k: the
        features with candidates ``(j, candidates)``, their sizes and the batch (None: no
        candidate). Prepared once per rule (the pruning of pure runs differs by setting)."""
        prune = st.scorer.prune_pure_runs
        rule = ("numeric batch", st.q, st.min_samples_leaf, prune, st.min_weight_leaf)
        if rule not in self._positions:
            parts = []
            for j, info in enumerate(self.clf.features_):
                if info.kind == "numeric":
                    pos = self._numeric_candidates(j, st)
                    if pos is not None and pos.node_ids.size:
                        parts.append((j, pos))
            sizes = [p.node_ids.size for _, p in parts]
            batch = None
            if parts:
                batch = Candidates(
                    np.repeat(np.arange(len(parts)), sizes),
                    np.concatenate([p.L.T for _, p in parts], axis=1).T,
                    np.concatenate([p.R.T for _, p in parts], axis=1).T,
                    np.concatenate([p.n_left for _, p in parts]),
                    np.concatenate([p.n_right for _, p in parts]),
                )
            self._positions[rule] = (parts, sizes, batch)
        return self._positions[rule]

    def best_of_every_feature(self, scorer: SplitScorer) -> list[SplitChoice | None]:
        """Every feature's best split under ``scorer``, in column order.

        The numeric features' thresholds are scored in one call for all of them
        (:meth:`_numeric_batch`, each feature a segment of its own, as the growth scores the
        nodes of a level): the same scores, candidate for candidate, and the same best split
        per feature as :meth:`best` finds one feature at a time, in a few numpy calls per
        setting instead of a few per feature."""
        st = self.growth(scorer)
        parent_impurity = scorer.node_impurity(self.node_counts, self.n)
        features = self.clf.features_
        out: list[SplitChoice | None] = [None] * len(features)
        parts, sizes, batch = self._numeric_batch(st)
        if batch is not None:
            k = len(parts)
            pi, n = np.repeat(parent_impurity, k), np.repeat(self.n, k)
            gain, score = score_candidates(batch, pi, n, st)
            start = 0
            for (j, pos), size in zip(parts, sizes):
                part = slice(start, start + size)
                res = numeric_result(pos, gain[part], score[part])
                out[j] = split_choice(res, 0, j, features[j])
                start += size
        batched = set()
        if st.categorical == "multiway":
            for js, splits, tables, sizes in self._multiway_batch(st, parent_impurity):
                k = len(js)
                gain, score = st.scorer.multiway(
                    tables, sizes, np.repeat(parent_impurity, k), np.repeat(self.n, k)
                )
                for i, (j, split) in enumerate(zip(js, splits)):
                    out[j] = replace(split, gain=float(gain[i]), score=float(score[i]))
                batched.update(js)
        for j, info in enumerate(features):
            if info.kind != "numeric" and j not in batched:
                out[j] = self.best(j, st, parent_impurity)
        return out

    def _multiway_batch(self, st: GrowthParams, parent_impurity) -> list[tuple]:
        """The categorical features' one-branch-per-value splits under ``st``'s leaf-size
        rules (:meth:`_multiway`), their count tables stacked by number of values: per
        number, ``(features, their splits, tables (m, K, q), children's totals (m, K))``,
        each scored in one call (a feature a row, as the growth scores a level's nodes).
        Prepared once per rule."""
        rule = ("multiway batch", st.min_samples_leaf, st.min_weight_leaf)
        if rule not in self._positions:
            by_k: dict = {}
            for j, info in enumerate(self.clf.features_):
                if info.kind == "numeric":
                    continue
                kept = self._multiway_split(j, st, parent_impurity)
                if kept is None:
                    continue
                split, nodes, sizes = kept
                tab = self._column(j)[0]
                by_k.setdefault(tab.shape[1:], []).append((j, split, tab[nodes], sizes[nodes]))
            self._positions[rule] = [
                (
                    [e[0] for e in items],
                    [e[1] for e in items],
                    np.concatenate([e[2] for e in items]),
                    np.concatenate([e[3] for e in items]),
                )
                for items in by_k.values()
            ]
        return self._positions[rule]


def _score_tables(tables: np.ndarray, scorers):
    """(gain, score) of count tables (..., k, q) under each scorer (the reference values)."""
    return [sc.table(tables) for sc in scorers]


def _counts_text(counts) -> str:
    """``"[a, b] | [c, d]"``: each child's class counts (rows of ``counts``), whole numbers
    without a decimal point, others with 4 significant digits."""
    table = np.asarray(counts, dtype=float)
    if table.ndim == 2:  # one conversion to Python floats, then plain string work
        return " | ".join(
            "[" + ", ".join(str(int(c)) if c.is_integer() else f"{c:.4g}" for c in row) + "]"
            for row in table.tolist()
        )

    def one(c):
        c = float(c)
        return f"{int(c)}" if c.is_integer() else f"{c:.4g}"

    return " | ".join("[" + ", ".join(one(c) for c in row) + "]" for row in counts)


def candidates(clf, node_id: int, settings=None) -> pd.DataFrame:
    """One row per feature: its best split at the node under the TREE's measure, scored by all.

    Each feature's threshold (or grouping) is the one the tree's own setting would choose; every
    other setting is then evaluated at that same split. This answers "how does each setting
    score the splits this tree considers", not "what would each setting choose": for that, use
    :func:`own_optima` (each setting's own best split per feature) and :func:`agreement`. On the
    Pima root of an off-centered Shannon tree, glucose is scored at 111.5 for every setting
    here, while Shannon's own best glucose threshold is 127.5.

    Parameters
    ----------
    clf : TreeClassifier
        A fitted tree with its training data attached.
    node_id : int
        The node whose training rows are split.
    settings : iterable of MeasureSetting (or keys / dicts), optional
        The settings scored, after the tree's own; default
        :func:`offcenter.comparison_settings` (see :func:`resolve_settings`).

    Returns
    -------
    pandas.DataFrame
        Columns: ``feature``, ``kind``, ``split`` (readable), ``children_counts``, ``chosen``
        (the feature the node splits on), ``n_missing``, ``threshold``, ``groups``, then
        ``gain:{key}``, ``score:{key}``, ``rank:{key}`` per setting (rank 1 = best score under
        that setting among the features at these splits; scores within 1e-12 tie and share
        the lower rank). A feature with no valid split at the node has NaN gains and ranks and
        an empty split. For a split criterion (``hellinger``, HDDT) ``gain:{key}`` and
        ``score:{key}`` both hold its value, the Hellinger distance of the split (it is not an
        impurity decrease). ``df.attrs["settings"]`` lists (key, label);
        ``df.attrs["chosen_key"]`` is the tree's own.

    See Also
    --------
    own_optima : each setting's own best split of every feature, ranked with ties shown.
    agreement : whether the settings' own best splits coincide.
    threshold_gains : the gain of every threshold of a numeric feature under each setting.
    """
    require_data(clf)
    check_node(clf, node_id)
    search = _NodeSearch(clf, node_id)
    sets = resolve_settings(clf, settings)
    out = _candidates_frame(clf, node_id, sets, search.best_of_every_feature(sets[0][2]))
    search.warn(f"candidates at node {node_id}")
    return out


def _attrs(df: pd.DataFrame, clf, sets) -> pd.DataFrame:
    df.attrs["settings"] = [(e[0], e[1]) for e in sets]
    df.attrs["chosen_key"] = sets[0][0]
    df.attrs["alpha"] = clf.setting_.alpha
    return df


def _candidates_frame(clf, node_id: int, sets, splits) -> pd.DataFrame:
    """:func:`candidates`' table from each feature's best split under the tree's setting."""
    node = clf.tree_.nodes[node_id]
    chosen_feature = None if node.split is None else node.split.feature
    features = clf.features_
    F = len(features)
    cols: dict = {
        "feature": [f.name for f in features],
        "kind": [f.kind for f in features],
        "split": [""] * F,
        "children_counts": [""] * F,
        "chosen": [bool(f.name == chosen_feature) for f in features],
        "n_missing": [0] * F,
        "threshold": np.full(F, np.nan),
        "groups": [None] * F,
    }
    by_shape: dict = {}  # the count tables of one shape are scored together
    for j, sp in enumerate(splits):
        if sp is None:
            continue
        table = np.stack([np.asarray(c) for c in sp.child_counts])
        cols["kind"][j] = sp.kind
        cols["split"][j] = " / ".join(sp.labels)
        cols["children_counts"][j] = _counts_text(table)
        cols["n_missing"][j] = sp.n_missing
        cols["threshold"][j] = np.nan if sp.threshold is None else sp.threshold
        cols["groups"][j] = sp.groups
        by_shape.setdefault(table.shape, []).append((j, table))
    for key, _, scorer in sets:
        gain, score = np.full(F, np.nan), np.full(F, np.nan)
        for items in by_shape.values():
            at = [j for j, _ in items]
            gain[at], score[at] = scorer.table(np.stack([t for _, t in items]))
        cols[f"gain:{key}"] = gain
        cols[f"score:{key}"] = score
        cols[f"rank:{key}"] = _competition_ranks(np.round(score, 12), tol=0.0)
    return _attrs(pd.DataFrame(cols), clf, sets)


def threshold_gains(clf, node_id: int, feature, settings=None) -> pd.DataFrame:
    """Every midpoint threshold of a numeric feature at a node with its gain under each setting.

    Columns: ``threshold``, ``n_left``, ``n_right`` (missing values counted in the larger child),
    ``valid`` (both children have ``min_samples_leaf`` rows and the weight
    ``min_weight_fraction_leaf`` asks, rows when unweighted), ``admissible`` (only when the
    tree's ``monotonic_cst`` constrains the feature: the threshold satisfies it within the
    node's bounds, :mod:`offcenter.tree.monotonic`), ``gain:{key}`` and, when the
    tree has an alpha, ``score:{key}``. Missing values follow the larger-child rule. For a
    split criterion (``hellinger``, HDDT) ``gain:{key}`` is its value, the Hellinger distance of
    the split, and it has no ``score:{key}`` (no alpha applies to it).
    """
    require_data(clf)
    check_node(clf, node_id)
    j = _feature_index(clf, feature)
    info = clf.features_[j]
    if info.kind != "numeric":
        raise ValueError(
            f"{info.name!r} is categorical: it has no thresholds; see candidates() for its split."
        )
    rows, y, w, node_counts, n, st, parent_impurity = _node_data(clf, node_id)
    sets = resolve_settings(clf, settings)
    col = clf.training_data_.encoded.num[rows, clf.training_data_.encoded.slot[j]]
    o = np.argsort(col, kind="stable")
    pos = numeric_positions(
        col[o],
        np.zeros(o.size, np.int32),
        y[o],
        st.q,
        1,
        node_counts,
        1,
        w=None if w is None else w[o],
    )
    cols = {"threshold": [], "n_left": [], "n_right": [], "valid": []}
    if pos is None:
        df = pd.DataFrame(cols)
        for key, *_ in sets:
            df[f"gain:{key}"] = pd.Series(dtype=float)
    else:
        tables = np.stack([pos.L, pos.R], axis=1)
        min_samples_leaf, min_weight_leaf = st.min_samples_leaf, st.min_weight_leaf
        out = {
            "threshold": pos.thr,
            "n_left": pos.rl,
            "n_right": pos.rr,
            "valid": (pos.rl >= min_samples_leaf)
            & (pos.rr >= min_samples_leaf)
            & (pos.n_left >= min_weight_leaf)
            & (pos.n_right >= min_weight_leaf),
        }
        if w is not None:
            out["weight_left"], out["weight_right"] = pos.n_left, pos.n_right
        cst = st.monotonic
        if cst is not None and cst[j]:
            lo, hi = monotonic.tree_bounds(clf.tree_.nodes, cst)[node_id]
            out["admissible"] = monotonic.admissible(
                pos.L, pos.R, pos.n_left, pos.n_right, int(cst[j]), lo, hi
            )
        for (key, _, scorer), (g, s) in zip(sets, _score_tables(tables, [e[2] for e in sets])):
            out[f"gain:{key}"] = g
            if scorer.alpha is not None:
                out[f"score:{key}"] = s
        df = pd.DataFrame(out)  # built once: a column inserted at a time costs more
    df.attrs["settings"] = [(e[0], e[1]) for e in sets]
    df.attrs["chosen_key"] = sets[0][0]
    df.attrs["alpha"] = clf.setting_.alpha
    df.attrs["feature"] = info.name
    return df


def node_impurities(clf, node_id: int, settings=None) -> pd.Series:
    """Impurity of the node's class counts under each setting (index: keys; attrs: labels)."""
    check_is_fitted(clf, "tree_")
    check_node(clf, node_id)
    sets = resolve_settings(clf, settings)
    counts = clf.tree_.nodes[node_id].counts
    s = pd.Series({e[0]: float(e[2].impurity.of_counts(counts)) for e in sets}, name="impurity")
    s.attrs["labels"] = {e[0]: e[1] for e in sets}
    s.attrs["chosen_key"] = sets[0][0]
    return s


def forced_split(clf, node_id, feature, threshold=None, groups=None) -> SplitChoice:
    """A split description for :meth:`TreeClassifier.with_split`."""
    j = _feature_index(clf, feature)
    info = clf.features_[j]
    search = _NodeSearch(clf, node_id)
    st = search.growth(_scorer(clf, clf.impurity_, clf.setting_.alpha))
    parent_impurity = st.scorer.node_impurity(search.node_counts, search.n)
    rows, y, w = search.rows, search.y, search.w
    q = st.q
    if info.kind == "numeric":
        if groups is not None:
            raise ValueError(f"{info.name!r} is numeric: give a threshold, not groups.")
        if threshold is None:
            sp = search.best(j, st, parent_impurity)
            if sp is None:
                raise ValueError(f"{info.name!r} has no valid split at node {node_id}.")
            return sp
        thr = float(threshold)
        if not np.isfinite(thr):
            raise ValueError("the threshold must be a finite number.")
        v = clf.training_data_.encoded.num[rows, clf.training_data_.encoded.slot[j]]
        nan = np.isnan(v)
        left = v <= thr
        ww = np.ones(rows.size) if w is None else w
        n_left, n_right = ww[left & ~nan].sum(), ww[~left & ~nan].sum()
        mc = 0 if n_left >= n_right else 1  # missing values go to the heavier child (left on a tie)
        goes = np.where(nan, mc == 0, left)
        L = np.bincount(y[goes], weights=None if w is None else w[goes], minlength=q)
        R = np.bincount(y[~goes], weights=None if w is None else w[~goes], minlength=q)
        if L.sum() == 0 or R.sum() == 0:
            raise ValueError(
                f"threshold {thr:g} leaves a child empty at node {node_id}; pick one between "
                f"{np.nanmin(v):g} and {np.nanmax(v):g}."
            )
        table = np.stack([L, R])
        ((g, s),) = _score_tables(table, [st.scorer])
        return numeric_split(j, info, thr, L, R, mc, float(g), float(s), int(nan.sum()))
    if threshold is not None:
        raise ValueError(f"{info.name!r} is categorical: give groups, not a threshold.")
    if groups is None:
        sp = search.best(j, st, parent_impurity)
        search.warn(f"with_split at node {node_id}")
        if sp is None:
            raise ValueError(f"{info.name!r} has no valid split at node {node_id}.")
        return sp
    codes_at = clf.training_data_.encoded.cat[rows, clf.training_data_.encoded.slot[j]]
    present = set(np.unique(codes_at).tolist())
    index = {}
    for code, value in enumerate(info.categories):
        index[value] = code
        index[str(value)] = index.get(str(value), code)
    code_groups, seen = [], set()
    for g in groups:
        if isinstance(g, (str, bytes)) or not hasattr(g, "__iter__"):
            g = [g]
        cg = []
        for value in g:
            value = (
                None if (value is None or (isinstance(value, float) and np.isnan(value))) else value
            )
            if value not in index and str(value) not in index:
                raise ValueError(f"{value!r} is not a category of {info.name!r}.")
            code = index.get(value, index.get(str(value)))
            if code in seen:
                raise ValueError(f"category {value!r} appears in two groups.")
            seen.add(code)
            if code in present:
                cg.append(code)
        if not cg:
            raise ValueError(f"the group {list(g)!r} has no training rows at node {node_id}.")
        code_groups.append(tuple(cg))
    left_out = present - seen
    if left_out:
        raise ValueError(
            "every category present at the node must be in a group; missing: "
            f"{[info.categories[c] for c in sorted(left_out)]}."
        )
    if len(code_groups) < 2:
        raise ValueError("a split needs at least two groups.")
    singletons = all(len(g) == 1 for g in code_groups)
    if not singletons and len(code_groups) != 2:
        raise ValueError("groups must be either one value per child (multiway) or two groups.")
    K = len(info.categories)
    tab = category_table(codes_at, np.zeros(rows.size, np.int64), y, 1, K, q, w)[0]
    counts = [tab[list(g)].sum(axis=0) for g in code_groups]
    table = np.stack(counts)
    ((g, s),) = _score_tables(table, [st.scorer])
    nmiss = int(np.count_nonzero(codes_at == K - 1)) if info.has_missing else 0
    return categorical_split(
        j, info, code_groups, counts, float(g), float(s), nmiss, binary=not singletons
    )


def _competition_ranks(scores: np.ndarray, tol: float = 1e-12) -> np.ndarray:
    """Competition ranks ("1, 1, 3") of scores, highest first; scores within ``tol`` tie.

    NaN scores (no valid split) get a NaN rank and are not counted.
    """
    s = np.asarray(scores, float)
    ok = ~np.isnan(s)
    out = np.full(s.shape, np.nan)
    valid = s[ok]
    out[ok] = 1.0 + (valid[None, :] > valid[:, None] + tol).sum(axis=1)
    return out


def own_optima(clf, node_id: int, settings=None) -> pd.DataFrame:
    """Every setting's OWN best split of every feature at a node, ranked under that setting.

    Unlike :func:`candidates` (which keeps, per feature, the split chosen by the tree's measure
    and scores it under every setting), each setting here searches each feature itself, with
    the engine's search (:func:`offcenter.tree.search.search_numeric` /
    :func:`~offcenter.tree.search.search_categorical`), its constraints (``min_samples_leaf``,
    ``min_weight_fraction_leaf``, the ``categorical`` mode) and its tie rules (highest score;
    within a feature the smallest threshold or the first grouping enumerated). The score is
    the gain :math:`I(Y) - \\sum_k \\frac{n_k}{n} I(Y \\mid X = k)`, or
    :math:`\\lambda_\\alpha` when the setting (or the tree) has an ``alpha``; for a split
    criterion (``hellinger``, HDDT) gain and score are both its value, the Hellinger distance.

    Parameters
    ----------
    clf : TreeClassifier
        A fitted tree with its training data attached.
    node_id : int
        The node whose training rows are split.
    settings : iterable of MeasureSetting (or keys / dicts), optional
        The settings compared, as :func:`candidates` takes them: the tree's own setting always
        comes first; default :func:`offcenter.comparison_settings` after it.

    Returns
    -------
    pandas.DataFrame
        Long format, one row per (setting, feature), settings in order, features in column
        order. Columns: ``setting_key``, ``setting_label``, ``feature``, ``kind``, ``split``
        (readable, children separated by `` / ``), ``pick`` (the condition of the first
        child, e.g. ``glucose <= 127.5``), ``threshold`` (NaN for categorical), ``groups``
        (None for numeric), ``children_counts``, ``gain``, ``score``, ``rank``, ``is_best``,
        ``tied_all``.

        ``rank`` is the competition rank of the feature under its setting, 1 = best; scores
        within 1e-12 of each other tie and share the lower rank ("1, 1, 3"). A feature with
        no valid split has NaN score and rank. When every feature with a valid split scores
        the same (within 1e-12) and there are at least two of them (e.g. misclassification
        gains all 0), the setting has NO winner: ``tied_all`` is True, ``rank`` is NaN and
        ``is_best`` is False for all its rows. Otherwise ``is_best`` marks the one split the
        engine would make under that setting (highest score; on a tie of the top the feature
        first in column order, as in the search), and the other rank-1 rows show the tie.

        ``df.attrs``: ``settings`` (list of (key, label)), ``chosen_key`` (the tree's own
        setting), ``alpha`` (the tree's), ``node_id``.

    See Also
    --------
    agreement : whether the settings' own best splits coincide.
    candidates : the tree's per-feature splits scored by every setting.
    """
    require_data(clf)
    check_node(clf, node_id)
    search = _NodeSearch(clf, node_id)
    sets = resolve_settings(clf, settings)
    out = _optima_frame(clf, node_id, sets, search, search.best_of_every_feature(sets[0][2]))
    search.warn(f"own_optima at node {node_id}")
    return out


def node_comparison(clf, node_id: int, settings=None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(own_optima(...), candidates(...))`` of a node in one pass, equal to both.

    The tree's own setting's best split of every feature is both the first block of
    :func:`own_optima` and the split :func:`candidates` scores: it is searched once, and every
    feature's sorted column and thresholds are prepared once for all the settings.
    """
    require_data(clf)
    check_node(clf, node_id)
    search = _NodeSearch(clf, node_id)
    sets = resolve_settings(clf, settings)
    own = search.best_of_every_feature(sets[0][2])
    out = (
        _optima_frame(clf, node_id, sets, search, own),
        _candidates_frame(clf, node_id, sets, own),
    )
    search.warn(f"node_comparison at node {node_id}")
    return out


_OPTIMA_COLUMNS = (
    "setting_key", "setting_label", "feature", "kind", "split", "pick", "threshold", "groups",
    "children_counts", "gain", "score", "rank", "is_best", "tied_all",
)  # fmt: skip


def _optima_frame(clf, node_id: int, sets, search: _NodeSearch, own) -> pd.DataFrame:
    """:func:`own_optima`'s table; ``own``: every feature's best split under ``sets[0]``."""
    features = clf.features_
    F = len(features)
    cols: dict = {c: [] for c in _OPTIMA_COLUMNS}
    for i, (key, label, scorer) in enumerate(sets):
        splits = own if i == 0 else search.best_of_every_feature(scorer)
        cols["setting_key"] += [key] * F
        cols["setting_label"] += [label] * F
        cols["feature"] += [f.name for f in features]
        scores = np.full(F, np.nan)
        for j, sp in enumerate(splits):
            if sp is None:
                cols["kind"].append(features[j].kind)
                cols["split"].append("")
                cols["pick"].append("")
                cols["threshold"].append(np.nan)
                cols["groups"].append(None)
                cols["children_counts"].append("")
                cols["gain"].append(np.nan)
                continue
            numeric = sp.kind == "numeric"
            cols["kind"].append(sp.kind)
            cols["split"].append(" / ".join(sp.labels))
            cols["pick"].append(sp.labels[0] if numeric else " / ".join(sp.labels))
            cols["threshold"].append(np.nan if sp.threshold is None else float(sp.threshold))
            cols["groups"].append(sp.groups)
            cols["children_counts"].append(_counts_text(sp.child_counts))
            cols["gain"].append(float(sp.gain))
            scores[j] = float(sp.score)
        ranks = _competition_ranks(scores)
        valid = ~np.isnan(scores)
        tied_all = bool(valid.sum() >= 2 and np.nanmax(scores) - np.nanmin(scores) <= 1e-12)
        best = -1
        if valid.any() and not tied_all:
            top = np.nanmax(scores)
            best = int(np.flatnonzero(valid & (scores >= top - 1e-12))[0])
        cols["score"] += scores.tolist()
        cols["rank"] += [np.nan] * F if tied_all else ranks.tolist()
        cols["is_best"] += [j == best for j in range(F)]
        cols["tied_all"] += [tied_all] * F
    df = _attrs(pd.DataFrame(cols), clf, sets)
    df.attrs["node_id"] = int(node_id)
    return df


@dataclass(frozen=True)
class Agreement:
    """Whether the compared settings' own best splits at a node coincide.

    Two settings agree when they pick the same feature AND the same threshold (numeric) or
    the same grouping (categorical); the same feature at another threshold is a disagreement.

    Attributes
    ----------
    agree : bool
        True when at least one setting has a winner and all settings with a winner pick the
        same split. Settings without a winner count neither way.
    picks : dict
        ``{setting_key: pick}`` for the settings with a winner, ``pick`` the readable split
        (``"glucose <= 127.5"``).
    labels : dict
        ``{setting_key: setting_label}`` of every compared setting.
    no_winner : tuple of str
        Keys of the settings under which all features tie (no winner), listed apart.
    groups : tuple of (pick, tuple of keys)
        The distinct picks, in order of first appearance, with the settings that make them.
    """

    agree: bool
    picks: dict
    labels: dict
    no_winner: tuple
    groups: tuple

    @property
    def text(self) -> str:
        """The verdict in one plain sentence."""
        lab = self.labels

        def names(keys):
            return " and ".join(lab[k] for k in keys)

        if not self.picks:
            msg = "no setting has a winner: all features tie under every setting"
        elif self.agree:
            k = len(self.picks)
            msg = (
                f"all {k} settings pick {self.groups[0][0]}"
                if k > 1
                else f"{names(self.groups[0][1])} picks {self.groups[0][0]}"
            )
        else:
            parts = [
                f"{names(keys)} pick{'s' if len(keys) == 1 else ''} {pick}"
                for pick, keys in self.groups
            ]
            msg = "they disagree: " + "; ".join(parts)
        if self.picks and self.no_winner:
            msg += f" ({names(self.no_winner)}: no winner, all features tie)"
        return msg

    def __str__(self) -> str:
        return self.text


def without_attrs(table: pd.DataFrame) -> pd.DataFrame:
    """A shallow copy of ``table`` without its ``attrs``, to compute on.

    pandas deep-copies ``DataFrame.attrs`` into every frame derived from another (a filter, a
    column, a copy): on the small tables of :func:`own_optima` and :func:`candidates` that copy
    was a quarter of the time of building a display table. Read the ``attrs`` you need first.
    """
    out = table.copy(deep=False)
    out.attrs = {}
    return out


def best_rows(optima: pd.DataFrame) -> dict:
    """``{setting_key: position}`` of each setting's one best split (its ``is_best`` row) in an
    :func:`own_optima` table; a setting without a winner is not a key."""
    plain = without_attrs(optima)
    keys = plain["setting_key"].to_numpy(object)
    out: dict = {}
    for i in np.flatnonzero(plain["is_best"].to_numpy(bool)):
        out.setdefault(keys[i], int(i))
    return out


def agreement(optima: pd.DataFrame) -> Agreement:
    """Do all settings' own overall best splits coincide? (see :class:`Agreement`).

    Parameters
    ----------
    optima : pandas.DataFrame
        The table of :func:`own_optima`.

    Returns
    -------
    Agreement
        ``agree``, the pick of every setting with a winner, the settings with none, and a
        plain ``text``.
    """
    needed = {"setting_key", "setting_label", "feature", "threshold", "groups", "pick"}
    if not isinstance(optima, pd.DataFrame) or not needed <= set(optima.columns):
        raise TypeError("optima must be the DataFrame returned by own_optima().")
    optima = without_attrs(optima)
    setting_keys = optima["setting_key"].to_numpy(object)
    keys = list(dict.fromkeys(setting_keys))
    labels = dict(zip(setting_keys, optima["setting_label"].to_numpy(object)))
    best = best_rows(optima)
    feature = optima["feature"].to_numpy(object)
    threshold = optima["threshold"].to_numpy(float)
    grouping = optima["groups"].to_numpy(object)
    pick = optima["pick"].to_numpy(object)
    picks, no_winner, idents = {}, [], {}
    for key in keys:
        if key not in best:
            no_winner.append(key)
            continue
        i = best[key]
        thr = threshold[i]
        picks[key] = pick[i]
        idents[key] = (feature[i], None if np.isnan(thr) else float(thr), grouping[i])
    groups: dict = {}
    for key, ident in idents.items():
        groups.setdefault(ident, []).append(key)
    grouped = tuple((picks[ks[0]], tuple(ks)) for ks in groups.values())
    return Agreement(
        agree=len(groups) == 1,
        picks=picks,
        labels=labels,
        no_winner=tuple(no_winner),
        groups=grouped,
    )
