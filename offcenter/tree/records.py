"""The records of a growing tree: growth parameters, candidate splits, screenings, best
splits per node, growing nodes and the split chosen at a node (with its branch labels)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from offcenter.tree.labels import branch_labels
from offcenter.tree.scoring import SplitScorer

#: Tie tolerance of the scores: within it, the first candidate (feature in column order,
#: smallest threshold, first grouping enumerated) wins.
TIE = 1e-12
#: scikit-learn's EPSILON of its ``min_impurity_decrease`` test (10 DBL_EPSILON).
SKLEARN_EPSILON = 10 * np.finfo(np.float64).eps


@dataclass
class GrowthParams:
    """What a growth needs besides the data: the split scorer and the stopping rules.

    ``scorer`` scores splits (:class:`offcenter.tree.scoring.SplitScorer`); ``q`` classes;
    ``n_max`` the largest node total (rows); ``max_depth``, ``min_samples_split``,
    ``min_samples_leaf`` (rows), ``min_gain``, ``categorical`` (``"multiway"`` or
    ``"binary"``), ``max_features`` (features drawn per node, None: all) with its ``rng``;
    ``weighted``: class counts are sums of weights; ``min_weight_leaf``: fewest weight per
    child (min_weight_fraction_leaf times the total weight; 0: none).
    """

    scorer: SplitScorer
    q: int
    n_max: int
    max_depth: int | None = None
    min_samples_split: int = 2
    min_samples_leaf: int = 1
    min_gain: float = 0.0
    categorical: str = "multiway"
    max_features: int | None = None
    rng: np.random.Generator | None = None
    weighted: bool = False
    min_weight_leaf: float = 0.0
    #: scikit-learn's ``min_impurity_decrease``: a node t is split only if
    #: ``W_t / W * gain + SKLEARN_EPSILON >= min_impurity_decrease`` (W: ``total_weight``)
    min_impurity_decrease: float = 0.0
    total_weight: float = 1.0
    #: ``monotonic_cst`` (int8, one per feature) when a feature is constrained, else None
    #: (:mod:`offcenter.tree.monotonic`)
    monotonic: np.ndarray | None = None


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

    ``node_ids`` the node of each candidate, ``L`` and ``R`` the class counts (m, q) of its left
    and right children (sums of weights with weighted rows; missing values in the child
    they go to), ``n_left`` and ``n_right`` their totals. Numeric features also have the threshold
    ``thr``, the position ``idx`` of the cut in the sorted column (split after it), the
    child of the missing values ``miss_child`` (None: no missing value), the per-node missing
    counts ``M`` (n_nodes, q) and rows ``Mrows`` (weighted rows only), and the children's rows
    ``rl``, ``rr``.
    """

    node_ids: np.ndarray
    L: np.ndarray
    R: np.ndarray
    n_left: np.ndarray
    n_right: np.ndarray
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
    #: bounds of the first class's fraction under monotonic constraints (lower, upper)
    bounds: tuple = (-np.inf, np.inf)


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
