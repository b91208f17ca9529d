r"""The split-scoring interface: the tree engine's only view of a measure.

A :class:`SplitScorer` is built once per fit (or per inspected setting) from a
:class:`~offcenter.MeasureSetting` and the training prior (:meth:`SplitScorer.from_setting`),
or from a resolved :class:`~offcenter.Impurity` and an alpha (:func:`make_scorer`). The split
search, the screenings, the inspection tables, the pruning costs and the importances ask it
for what they need and never which measure it is:

- ``node_impurity(counts, n)``: I(node) of class counts (m, q) with their totals (the fast
  kernel, :class:`offcenter.tree.kernels.CountKernel`); ``impurity.of_counts`` is the
  reference it agrees with to 1e-12, used for the stored ``Node.impurity``;
- ``pair(L, R, n_left, n_right, parent_impurity, n)``: (gain, score) of two-child
  candidates, vectorised over the thresholds (left and right counts (m, q), their totals,
  I(node) and the node's total);
- ``multiway(t, sizes, parent_impurity, n)``: (gain, score) of count tables (m, K, q) with the
  engine's kernel (multiway categorical splits); ``table(t)``: the same from the reference
  :class:`~offcenter.Impurity` (the inspection tables, any table);
- the cheap bound the screenings use: ``approx_pair`` (a float32 score with its error
  bound), ``children_sum``, ``denominator``/``score_of``/``score_bound`` (block bounds),
  ``can_block_screen``; ``prune_pure_runs`` (whether thresholds inside runs pure of one class
  can be skipped, exactly).

A score is a name (:mod:`offcenter.measures.scores`): :data:`SCORERS` maps each registered
score to its class, and :func:`make_scorer` builds the one a setting names; the decorator
:func:`scorer` registers a new one (its :class:`~offcenter.measures.scores.ScoreInfo` and its
class) in one place. :class:`SplitScorer` is abstract: a scorer gives its exact ``pair``,
``multiway`` and ``table`` and its :meth:`~SplitScorer.quantities` (the intermediate numbers
of one split, which the worked calculations format, :mod:`offcenter.viz.explain`). Screening
is **opt-in**: a class is screened only if its own body sets ``screened = True`` (a subclass
does not inherit it), because the screenings' bounds are proven for the gain and lambda_alpha
only; likewise ``pure_runs_proven`` (skipping thresholds inside runs of one class, the prefix
search of many categories). A new scorer is searched exactly, threshold by threshold.

Three implementations, as scikit-learn's ``Criterion`` subclasses
(``sklearn/tree/_criterion.pyx``: ``node_impurity``, ``children_impurity``,
``impurity_improvement``, and ``proxy_impurity_improvement`` for the search):

:class:`GainScorer`
    :math:`\mathrm{gain} = I(\text{node}) - \sum_k \frac{n_k}{n} I(\text{child}_k)`, score = gain.
:class:`LambdaAlphaScorer`
    score :math:`\lambda_\alpha = \mathrm{gain} / (\alpha I(\text{node}) + (1-\alpha) I(X))`,
    I(X) the uncentered measure of the branch sizes
    (:func:`offcenter.measures.association.lambda_of`, the one formula of lambda_alpha).
:class:`CriterionScorer`
    a split criterion scored by itself (the Hellinger distance of HDDT, Cieslak and Chawla
    2008): gain = score = its value; the node impurity (pruning costs, importances) is the
    criterion's node measure (DKM). No alpha (:func:`offcenter.measures.scores.resolve_score`) and no
    screening (the row bounds are about impurity decreases).

Examples
--------
>>> import numpy as np
>>> from offcenter import MeasureSetting
>>> s = SplitScorer.from_setting(MeasureSetting("gini", alpha=1.0), [5, 5])
>>> L, R = np.array([[4, 0]]), np.array([[1, 5]])
>>> n_left, n_right = L.sum(1), R.sum(1)
>>> parent_impurity = s.node_impurity(np.array([[5, 5]]), np.array([10]))
>>> gain, score = s.pair(L, R, n_left, n_right, parent_impurity, np.array([10]))
>>> round(float(gain[0]), 4), round(float(score[0]), 4)  # gain, relative gain
(0.3333, 0.6667)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from functools import cached_property

import numpy as np

from offcenter.measures.association import _association_counts, lambda_denominator, lambda_of
from offcenter.measures.impurity import Impurity
from offcenter.measures.scores import SCORES, ScoreInfo, register_score, resolve_score
from offcenter.measures.settings import MeasureSetting
from offcenter.tree.kernels import CountKernel

__all__ = [
    "SCORERS",
    "CriterionScorer",
    "GainScorer",
    "ImpurityDecreaseScorer",
    "LambdaAlphaScorer",
    "SplitScorer",
    "make_scorer",
    "scorer",
    "unregister_scorer",
]

#: The scorers by score name (:data:`offcenter.measures.scores.SCORES`), filled by
#: :func:`scorer`.
SCORERS: dict[str, type[SplitScorer]] = {}


def scorer(info: ScoreInfo, *, replace: bool = False):
    """Class decorator: register a :class:`SplitScorer` subclass as the score ``info.name``
    (its :class:`~offcenter.measures.scores.ScoreInfo` goes to the scores' registry, so that
    :class:`~offcenter.MeasureSetting` takes ``score=info.name``)."""

    def register(cls: type[SplitScorer]) -> type[SplitScorer]:
        if not (isinstance(cls, type) and issubclass(cls, SplitScorer)):
            raise TypeError(f"@scorer registers a SplitScorer subclass; got {cls!r}.")
        if info.name in SCORERS and not replace and SCORERS[info.name] is not cls:
            raise ValueError(f"the score {info.name!r} has a scorer already (replace=True).")
        register_score(info, replace=replace)
        SCORERS[info.name] = cls
        cls.score_info = info
        return cls

    return register


def unregister_scorer(name: str) -> None:
    """Remove a score registered by :func:`scorer` (the built-in ones stay)."""
    if name in ("gain", "lambda", "criterion") or name not in SCORERS:
        raise ValueError(f"{name!r} is not a registered score of your own.")
    del SCORERS[name]
    SCORES.pop(name, None)


class SplitScorer(ABC):
    """The engine's view of a measure setting (see the module docs); use :func:`make_scorer`
    or :meth:`from_setting`.

    Attributes
    ----------
    impurity : Impurity
        The node measure (resolved theta), whose ``of_counts`` is the reference.
    alpha : float or None
        lambda_alpha's alpha (None: scored by the gain, or a criterion).
    q : int
        Number of classes.
    kernel : CountKernel
        Fast impurity of class counts (and, when it has them, its float32 version
        ``kernel.approx`` and row bound ``kernel.row_bound`` for the screenings).
    prune_pure_runs : bool
        Whether the search may skip thresholds inside runs of rows pure of one class (exact
        for a concave measure of the frequencies alone; for the Hellinger distance, whose
        one-vs-rest d_c^2 are convex along such a run).
    """

    alpha: float | None = None
    #: Whether the screenings may skip candidates by this class's bounds (opt-in: reset to
    #: False for every subclass that does not set it in its own body).
    screened: bool = False
    #: Whether the class's proof covers skipping thresholds inside runs of one class and the
    #: prefix search of many categories (``prune_pure_runs``): opt-in like ``screened``.
    pure_runs_proven: bool = False
    #: The registry entry of its score (set by :func:`scorer`).
    score_info: ScoreInfo | None = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "screened" not in cls.__dict__:
            cls.screened = False  # a bound is proven for a class, not inherited
        if "pure_runs_proven" not in cls.__dict__:
            cls.pure_runs_proven = False

    def __init__(
        self,
        impurity: Impurity,
        q: int,
        n_max: int,
        weighted: bool = False,
        alpha: float | None = None,
    ):
        self.impurity = impurity
        self.q = q
        self.n_max = n_max
        self.weighted = weighted
        self.prune_pure_runs = self.pure_runs_proven and bool(
            impurity.concave and not impurity.consistent and (not impurity.off_centered or q == 2)
        )

    @classmethod
    def from_setting(
        cls,
        setting: MeasureSetting,
        class_counts,
        n_max: int | None = None,
        weighted: bool = False,
    ) -> SplitScorer:
        """The scorer of a measure setting, its theta resolved on ``class_counts`` (the
        training prior: ``"prior"``); ``n_max`` the largest node total (default: the total of
        ``class_counts``), ``weighted``: counts are sums of weights."""
        counts = np.asarray(class_counts, np.float64)
        imp = setting.impurity(counts)
        n = int(np.ceil(counts.sum())) if n_max is None else int(n_max)
        return make_scorer(imp, counts.shape[-1], n, weighted, setting.alpha, setting.score)

    @cached_property
    def kernel(self) -> CountKernel:
        """The fast kernel of the node measure (built on first use: its tables can be large)."""
        return CountKernel(self.impurity, self.q, self.n_max, self.weighted)

    # ---------------------------------------------------------------- node impurity
    def node_impurity(self, counts: np.ndarray, n: np.ndarray) -> np.ndarray:
        """I(node) of class counts (m, q) with totals (m,), by the fast kernel."""
        return self.kernel(counts, n)

    # ---------------------------------------------------------------- exact scores
    @abstractmethod
    def pair(self, L, R, n_left, n_right, parent_impurity, n):
        """Exact (gain, score) of two-child candidates: left and right counts (m, q), their
        totals (m,), I(node) and the node's total per candidate (m,)."""

    @abstractmethod
    def multiway(self, t, sizes, parent_impurity, n):
        """Exact (gain, score) of count tables (m, K, q) with children's totals ``sizes``
        (m, K) (absent children: 0), I(node) and node totals (m,), by the fast kernel."""

    @abstractmethod
    def table(self, t):
        """(gain, score) of any count tables (..., K, q) from the reference Impurity (child k
        on the second-to-last axis)."""

    @abstractmethod
    def quantities(self, parent, children) -> dict:
        """The intermediate numbers of one split (``parent`` counts (q,), ``children``
        counts (K, q)), by name, from the reference Impurity: what a worked calculation
        shows (:func:`offcenter.viz.explain.split_steps` formats them, never derives them).
        Always ``"gain"`` and ``"score"``; an impurity decrease adds ``"node"``,
        ``"children"``, ``"weights"`` and ``"children_impurity"``, lambda_alpha
        ``"predictor"`` (I(X)), ``"denominator"`` and ``"alpha"``, a split criterion
        ``"parts"`` (:attr:`offcenter.measures.criteria.SplitCriterion.parts`)."""

    # ---------------------------------------------------------------- screening (opt-in)
    @property
    def screenable(self) -> bool:
        """Whether the float32 screening applies: a class that opted in (``screened``) with
        a kernel that has a float32 version."""
        return False

    def can_block_screen(self) -> bool:
        """Whether the block screening's bound holds: never, unless the class opted in."""
        return False


class ImpurityDecreaseScorer(SplitScorer):
    """Splits scored from an impurity decrease, the gain :math:`I(\text{node}) - \\sum_k
    \frac{n_k}{n} I(\text{child}_k)`: its exact methods, its quantities and the screenings'
    bounds (which its subclasses use only if they opt in, ``screened = True``)."""

    # ---------------------------------------------------------------- candidates
    def children_sum(self, L, R, n_left, n_right, approx: bool = False):
        """n_L I(L) + n_R I(R) of two-child candidates (the float32 kernel with ``approx``:
        then within ``approx_error * (n_L + n_R)``). Two calls: stacking the children would
        copy every count."""
        k = self.kernel.approx if approx else self.kernel
        return n_left * k(L, n_left) + n_right * k(R, n_right)

    def denominator(self, parent_impurity, n_left, n_right):
        """lambda_alpha's denominator of two-child candidates; None when scored by the gain."""
        return None

    def score_of(self, gain, parent_impurity, n_left, n_right, den=None):
        """The score of candidates of known ``gain`` (``den`` from :meth:`denominator`)."""
        return gain

    def pair(self, L, R, n_left, n_right, parent_impurity, n):
        """Exact (gain, score) of two-child candidates: left and right counts (m, q), their
        totals (m,), I(node) and the node's total per candidate (m,)."""
        gain = parent_impurity - self.children_sum(L, R, n_left, n_right) / n
        return gain, self.score_of(gain, parent_impurity, n_left, n_right)

    def multiway(self, t, sizes, parent_impurity, n):
        """Exact (gain, score) of count tables (m, K, q) with children's totals ``sizes``
        (m, K) (absent children: 0), I(node) and node totals (m,), by the fast kernel."""
        m, K, q = t.shape
        ich = self.kernel(t.reshape(-1, q), sizes.reshape(-1)).reshape(m, K)
        gain = parent_impurity - (sizes * ich).sum(axis=1) / n
        return gain, gain

    def table(self, t):
        """(gain, score) of any count tables (..., K, q) from the reference Impurity (child k
        on the second-to-last axis)."""
        # the gain only: I(X) (the predictor's margin) is not computed
        _, _, _, gain = _association_counts(
            np.asarray(t, np.float64), self.impurity, with_i_x=False
        )
        gain = np.asarray(gain, float)
        return gain, gain

    def quantities(self, parent, children) -> dict:
        imp = self.impurity
        parent = np.asarray(parent, dtype=float)
        kids = np.asarray(children, dtype=float)
        n = parent.sum()
        i_parent = float(imp.of_counts(parent))
        child = [float(imp.of_counts(row)) for row in kids]
        weights = kids.sum(axis=1) / n if n > 0 else np.zeros(len(kids))
        weighted = float(np.dot(weights, child))
        gain = i_parent - weighted
        return {
            "node": i_parent,
            "children": child,
            "weights": weights,
            "children_impurity": weighted,
            "gain": gain,
            "score": gain,
        }

    # ---------------------------------------------------------------- screening
    @property
    def approx_error(self) -> float:
        """Bound of the float32 kernel's error on one child's impurity (absolute)."""
        return self.kernel.approx_error

    @property
    def screenable(self) -> bool:
        return self.screened and self.kernel.approx is not None

    def approx_pair(self, L, R, n_left, n_right, parent_impurity, n):
        """Float32 (score, err) of two-child candidates: each score is within ``err`` (array
        or float) of the exact one (see :func:`offcenter.tree.screening.screen`)."""
        gain = parent_impurity - self.children_sum(L, R, n_left, n_right, approx=True) / n
        den = self.denominator(parent_impurity, n_left, n_right)
        score = self.score_of(gain, parent_impurity, n_left, n_right, den)
        err = self.kernel.approx_error + 1e-12
        if den is not None:
            err = np.where(den > 1e-15, err / np.where(den > 1e-15, den, 1.0), 0.0)
        return score, err

    def can_block_screen(self) -> bool:
        return (
            self.screened
            and self.kernel.block_node_min is not None
            and self.kernel.row_bound is not None
        )

    @property
    def block_node_min(self) -> int | None:
        """Fewest thresholds per node for which the block screening pays (the kernel's
        measured crossover), None: never."""
        return self.kernel.block_node_min

    def row_bound(self, c_lo, c_hi, n_lo, n_hi):
        """Bound (q, m) on the change of n I(child) when one row of class k moves, for counts
        in the box [c_lo, c_hi] (class-major) with totals in [n_lo, n_hi] (see
        :func:`offcenter.tree.screening.block_screen`)."""
        return self.kernel.row_bound(c_lo, c_hi, n_lo, n_hi)

    def score_bound(self, gain_bound, den_s, den_e):
        """An upper bound of the score between two anchors s and e whose gains are at most
        ``gain_bound`` (the gain's bound, as it is, for the gain)."""
        return gain_bound


@scorer(SCORES["gain"])
class GainScorer(ImpurityDecreaseScorer):
    """Splits scored by their gain, the impurity decrease (see the module docs)."""

    screened = True  # the row bounds are proven for the gain (offcenter.tree.screening)
    pure_runs_proven = True  # a concave measure of the frequencies (Breiman et al. 1984)


@scorer(SCORES["lambda"])
class LambdaAlphaScorer(ImpurityDecreaseScorer):
    r"""Splits scored by :math:`\lambda_\alpha = \mathrm{gain} / (\alpha I(\text{node}) +
    (1-\alpha) I(X))`, I(X) the uncentered measure of the branch sizes
    (:meth:`Impurity.for_predictor`); 0 where the denominator is not above 1e-15."""

    screened = True  # the gain's bounds over a denominator bounded below (score_bound)
    pure_runs_proven = True

    def __init__(self, impurity, q, n_max, weighted=False, alpha: float = 0.5):
        super().__init__(impurity, q, n_max, weighted)
        self.alpha = float(alpha)

    def quantities(self, parent, children) -> dict:
        out = super().quantities(parent, children)
        margin = np.asarray(children, dtype=float).sum(axis=1)
        i_x = float(self.impurity.for_predictor(len(margin)).of_counts(margin))
        denom = self.alpha * out["node"] + (1 - self.alpha) * i_x
        out.update(
            predictor=i_x,
            denominator=denom,
            alpha=self.alpha,
            score=out["gain"] / denom if denom > 1e-15 else 0.0,
        )
        return out

    @cached_property
    def pkernel(self) -> CountKernel:
        """The kernel of I(X), the uncentered measure of two branch sizes."""
        return CountKernel(self.impurity.for_predictor(2), 2, self.n_max, self.weighted)

    def denominator(self, parent_impurity, n_left, n_right):
        i_x = self.pkernel(np.stack([n_left, n_right], axis=1), n_left + n_right)
        return lambda_denominator(parent_impurity, i_x, self.alpha)

    def score_of(self, gain, parent_impurity, n_left, n_right, den=None):
        if den is None:
            den = self.denominator(parent_impurity, n_left, n_right)
        return lambda_of(gain, den)

    def multiway(self, t, sizes, parent_impurity, n):
        gain, _ = super().multiway(t, sizes, parent_impurity, n)
        den = lambda_denominator(
            parent_impurity, _predictor_impurity(self.impurity, sizes), self.alpha
        )
        return gain, lambda_of(gain, den)

    def table(self, t):
        i_y, _, i_x, gain = _association_counts(np.asarray(t, np.float64), self.impurity)
        with np.errstate(divide="ignore", invalid="ignore"):
            score = lambda_of(gain, lambda_denominator(i_y, i_x, self.alpha))
        return np.asarray(gain, float), np.asarray(score, float)

    def can_block_screen(self) -> bool:
        # the bound on the denominator needs a concave I(X)
        return super().can_block_screen() and self.pkernel.imp.concave

    def score_bound(self, gain_bound, den_s, den_e):
        # I(X) is concave in n_L: the denominator is at least its smaller value at s and e
        d = np.minimum(den_s, den_e)
        ok = d > 1e-15
        return np.where(ok, np.maximum(gain_bound, 0.0) / np.where(ok, d, 1.0), np.inf)


@scorer(SCORES["criterion"])
class CriterionScorer(SplitScorer):
    """A split criterion scored by itself (HDDT's Hellinger distance): gain = score = its
    value of the children's class counts; the node impurity is its node measure (DKM). Not
    screened (the row bounds are about impurity decreases)."""

    pure_runs_proven = True  # each one-vs-rest d_c^2 is convex along a pure run

    def __init__(self, impurity, q, n_max, weighted=False, alpha=None):
        super().__init__(impurity, q, n_max, weighted)
        self.criterion = impurity.split_criterion

    def pair(self, L, R, n_left, n_right, parent_impurity, n):
        value = self.criterion.pair(L, R)
        return value, value

    def multiway(self, t, sizes, parent_impurity, n):
        # absent categories are empty children: they add 0 to the Hellinger distance
        value = self.criterion.table(t)
        return value, value

    def table(self, t):
        value = np.asarray(self.criterion.table(np.asarray(t, np.float64)), float)
        return value, value

    def quantities(self, parent, children) -> dict:
        kids = np.asarray(children, dtype=float)
        value = float(self.criterion.value(kids))
        parts = self.criterion.parts(np.asarray(parent, float), kids)
        return {"parts": parts, "gain": value, "score": value}


def make_scorer(
    impurity: Impurity,
    q: int,
    n_max: int,
    weighted: bool = False,
    alpha: float | None = None,
    score: str | None = None,
) -> SplitScorer:
    """The scorer of a resolved Impurity: the class :data:`SCORERS` holds for ``score``
    (None: implied by ``alpha``, else the measure's default; checked against the measure and
    alpha by :func:`offcenter.measures.scores.resolve_score`)."""
    name = resolve_score(score, alpha, impurity.info)
    cls = SCORERS[name]
    if alpha is None:
        return cls(impurity, q, n_max, weighted)
    return cls(impurity, q, n_max, weighted, alpha)


def _predictor_impurity(imp: Impurity, sizes: np.ndarray) -> np.ndarray:
    """I(X) of branch sizes (m, K) with zeros for absent branches: k = present branches."""
    out = np.zeros(sizes.shape[0])
    kp = (sizes > 0).sum(axis=1)
    ordered = -np.sort(-sizes, axis=1)
    for k in np.unique(kp):
        if k < 1:
            continue
        rows = kp == k
        out[rows] = imp.for_predictor(int(k)).of_counts(ordered[rows, :k])
    return out
