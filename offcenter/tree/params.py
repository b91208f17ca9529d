"""The tree's parameters, declared once: their checks (shared by the tree and the forest), the
growth parameters of a fit, and the training data a fitted tree keeps.

Each entry of :data:`TREE_PARAMETERS` is a check that returns the normalised value or raises a
ValueError quoting the value given; :func:`check_tree_params` runs them all, once per fit
(``TreeClassifier.fit``, ``ForestClassifier.fit`` before growing its trees).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from offcenter.measures.settings import MeasureSetting
from offcenter.tree.encode import Encoded
from offcenter.tree.monotonic import check_constraints
from offcenter.tree.prune import check_ccp_alpha
from offcenter.tree.records import GrowthParams
from offcenter.tree.scoring import SplitScorer

#: The leaf rules, the one vocabulary (the estimators, the evaluation, the pages' labels:
#: :data:`offcenter.viz.comparison.LEAF_RULE_LABELS`).
LEAF_RULES = ("majority", "prior")
LEAF_ESTIMATES = ("frequency", "laplace")
CATEGORICAL = ("multiway", "binary")
#: The parameters that decide where the growth stops, not how a node's splits are searched: a
#: node's split tables do not depend on them (the app caches them without these).
STOP_PARAMS = ("max_depth", "min_samples_split", "min_gain")


def depth_limit(depth: int) -> int | None:
    """``max_depth`` from a count in which 0 means no limit (the pages' depth inputs).

    >>> depth_limit(0), depth_limit(4)
    (None, 4)
    """
    return int(depth) or None


def _integer(name: str, low: int, allow_none: bool = False) -> Callable:
    def check(v):
        if v is None and allow_none:
            return None
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < low:
            raise ValueError(
                f"{name} must be an integer >= {low}{' or None' if allow_none else ''}; got {v!r}."
            )
        return int(v)

    return check


def _choice(name: str, choices: tuple) -> Callable:
    def check(v):
        if not (isinstance(v, str) and v in choices):
            alts = " or ".join(repr(c) for c in choices)
            raise ValueError(f"{name} must be {alts}; got {v!r}.")
        return v

    return check


def _min_gain(v):
    if isinstance(v, bool) or not isinstance(v, numbers.Real) or math.isnan(v) or v == math.inf:
        raise ValueError(
            "min_gain must be a number (-inf allowed: split even when every "
            f"gain is negative); got {v!r}."
        )
    return float(v)


def _weight_fraction(v):
    if isinstance(v, bool) or not isinstance(v, numbers.Real) or not 0 <= v <= 0.5:
        raise ValueError(f"min_weight_fraction_leaf must be a number in [0, 0.5]; got {v!r}.")
    return float(v)


def _min_impurity_decrease(v):
    if isinstance(v, bool) or not isinstance(v, numbers.Real) or not 0 <= v < math.inf:
        raise ValueError(f"min_impurity_decrease must be a finite number >= 0; got {v!r}.")
    return float(v)


def _splitter(v):
    if v != "best":
        raise ValueError(
            f"splitter must be 'best' (every threshold is searched exactly; 'random' is not "
            f"offered); got {v!r}."
        )
    return v


def _criterion(v):
    if v is not None and not isinstance(v, str):
        raise ValueError(
            f"criterion must be None, 'gini', 'entropy', 'log_loss' or a measure name; got {v!r}."
        )
    return v


#: scikit-learn's criterion names and the measure each one is.
SKLEARN_CRITERIA = {"gini": "gini", "entropy": "shannon", "log_loss": "shannon"}


def measure_name(measure, criterion) -> str:
    """The measure of ``measure`` and ``criterion`` (scikit-learn's name for it).

    One rule: ``criterion=None`` (default) leaves ``measure`` in charge; a ``criterion``
    (``"gini"``, ``"entropy"`` or ``"log_loss"``, both Shannon's entropy in bits' ranking, or
    any measure name) sets the measure, and ``measure`` must then be left at its default
    ``"shannon"`` or name the same measure.
    """
    if criterion is None:
        return measure
    name = SKLEARN_CRITERIA.get(criterion, criterion)
    if measure not in ("shannon", name):
        raise ValueError(
            f"criterion={criterion!r} and measure={measure!r} disagree; give one of them "
            "(criterion is scikit-learn's name for the measure)."
        )
    return name


def _alpha(v):
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, numbers.Real) or not 0 <= v <= 1:
        raise ValueError(f"alpha must be None or a number in [0, 1]; got {v!r}.")
    return float(v)


def _max_features(v):
    ok = (
        v is None
        or (isinstance(v, str) and v in ("sqrt", "log2"))
        or (isinstance(v, numbers.Real) and not isinstance(v, bool))
    )
    if not ok:
        raise ValueError(
            f"max_features must be None, an int, a fraction, 'sqrt' or 'log2'; got {v!r}."
        )
    if isinstance(v, numbers.Integral) and v < 1:
        raise ValueError(f"max_features must be >= 1; got {v}.")
    if isinstance(v, numbers.Real) and not isinstance(v, numbers.Integral) and not 0 < v <= 1:
        raise ValueError(f"a fractional max_features must be in (0, 1]; got {v}.")
    return v


def _random_state(v):
    if isinstance(v, (np.random.Generator, np.random.RandomState)) or v is None:
        return v
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise ValueError(f"random_state must be None, an int or a numpy Generator; got {v!r}.")
    return v


def _class_weight(v):
    if not (v is None or isinstance(v, dict) or (isinstance(v, str) and v == "balanced")):
        raise ValueError(f"class_weight must be None, 'balanced' or a dict; got {v!r}.")
    return v


def _monotonic_cst(v):
    """scikit-learn's ``monotonic_cst``: None, or one of -1, 0, 1 per feature, as an int8
    array (checked against the data at fit by
    :func:`offcenter.tree.monotonic.check_constraints`)."""
    if v is None:
        return None
    try:
        arr = np.asarray(v)
    except (TypeError, ValueError):
        arr = np.asarray([None])
    if arr.ndim != 1 or arr.dtype.kind not in "iuf" or not np.isin(arr, (-1, 0, 1)).all():
        raise ValueError(
            f"monotonic_cst must be None or an array of -1, 0 and 1 (one per feature); got {v!r}."
        )
    return arr.astype(np.int8)


#: The checks of the tree's own parameters (the measure's, ``measure``, ``theta``,
#: ``measure_params`` (``beta``, ``rho``), ``consistent``, are checked by
#: :class:`offcenter.MeasureSetting`).
TREE_PARAMETERS: dict[str, Callable] = {
    "alpha": _alpha,
    "max_depth": _integer("max_depth", 0, allow_none=True),
    "min_samples_split": _integer("min_samples_split", 2),
    "min_samples_leaf": _integer("min_samples_leaf", 1),
    "min_gain": _min_gain,
    "categorical": _choice("categorical", CATEGORICAL),
    "leaf_rule": _choice("leaf_rule", LEAF_RULES),
    "leaf_estimate": _choice("leaf_estimate", LEAF_ESTIMATES),
    "max_features": _max_features,
    "random_state": _random_state,
    "class_weight": _class_weight,
    "min_weight_fraction_leaf": _weight_fraction,
    "ccp_alpha": check_ccp_alpha,
    "criterion": _criterion,
    "splitter": _splitter,
    "min_impurity_decrease": _min_impurity_decrease,
    "max_leaf_nodes": _integer("max_leaf_nodes", 2, allow_none=True),
    "monotonic_cst": _monotonic_cst,
}


def check_tree_params(params: dict) -> dict:
    """The tree parameters of ``params`` that :data:`TREE_PARAMETERS` declares, checked and
    normalised (a missing one is not checked); ValueError naming the first bad one."""
    return {k: check(params[k]) for k, check in TREE_PARAMETERS.items() if k in params}


def n_max_features(max_features, n_features: int) -> int | None:
    """The number of features drawn per node for a (checked) ``max_features``; None: all."""
    mf = max_features
    if mf is None:
        return None
    if isinstance(mf, str):
        if mf == "sqrt":
            return max(1, int(math.sqrt(n_features)))
        return max(1, int(math.log2(n_features))) if n_features > 1 else 1
    if isinstance(mf, numbers.Integral):
        return min(int(mf), n_features)
    return max(1, int(mf * n_features))


def as_generator(random_state) -> np.random.Generator:
    """A numpy Generator from a (checked) ``random_state``."""
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(random_state.randint(0, 2**31 - 1))
    return np.random.default_rng(random_state)


@dataclass(frozen=True)
class TrainingData:
    """The training rows a fitted tree keeps (``TreeClassifier.training_data_``): what
    inspection, edits and pruning read.

    Attributes
    ----------
    encoded : Encoded
        The feature columns as the tree reads them (float64 numbers, category codes).
    y : numpy.ndarray
        The class code of each row (an index into ``classes_``).
    weights : numpy.ndarray or None
        Each row's weight (``sample_weight * class_weight[y]``); None: every row weighs 1.
    """

    encoded: Encoded
    y: np.ndarray
    weights: np.ndarray | None = None

    @property
    def n(self) -> int:
        """Number of training rows (weight-0 rows included)."""
        return int(self.y.shape[0])

    @property
    def total_weight(self) -> float:
        """Sum of the rows' weights (their number without weights)."""
        return float(self.n) if self.weights is None else float(self.weights.sum())

    def class_counts(self, rows: np.ndarray, q: int) -> np.ndarray:
        """Class counts (sums of weights) of ``rows``, shape (q,): integers without weights."""
        y = self.y[rows]
        if self.weights is None:
            return np.bincount(y, minlength=q).astype(np.int64)
        return np.bincount(y, weights=self.weights[rows], minlength=q)


def growth_params(
    scorer: SplitScorer, params: dict, data: TrainingData, n_features: int
) -> GrowthParams:
    """The :class:`GrowthParams` of estimator parameters ``params`` (checked by
    :func:`check_tree_params`) on ``data``, splits scored by ``scorer``."""
    return GrowthParams(
        scorer,
        scorer.q,
        data.n,
        params["max_depth"],
        params["min_samples_split"],
        params["min_samples_leaf"],
        params["min_gain"],
        params["categorical"],
        n_max_features(params["max_features"], n_features),
        as_generator(params["random_state"]),
        weighted=data.weights is not None,
        min_weight_leaf=params["min_weight_fraction_leaf"] * data.total_weight,
        min_impurity_decrease=params.get("min_impurity_decrease", 0.0),
        total_weight=data.total_weight,
        monotonic=check_constraints(params.get("monotonic_cst"), data.encoded.features, scorer.q),
    )


def tree_setting(p: dict) -> MeasureSetting:
    """The :class:`~offcenter.MeasureSetting` of tree parameters ``p`` (validated; shared by
    the tree and the forest): ``measure`` itself when it is one (kept whole; ``alpha`` may add
    its score; ``theta``, ``measure_params``, ``beta``, ``rho``, ``consistent`` and
    ``criterion`` must then be left at their defaults), else one built from ``measure`` (or
    ``criterion``, see :func:`measure_name`), ``theta``, the measure's parameters
    (:func:`measure_params`), ``consistent`` and ``alpha``."""
    m = p["measure"]
    if isinstance(m, MeasureSetting):
        given = [k for k in ("theta", "beta", "rho") if p.get(k) is not None]
        given += ["measure_params"] if p.get("measure_params") else []
        given += ["consistent"] if p["consistent"] else []
        given += ["criterion"] if p.get("criterion") is not None else []
        if given:
            raise ValueError(
                f"measure is a MeasureSetting ({m.key}): give {', '.join(given)} in it, "
                "not to the tree."
            )
        if m.n is not None:
            raise ValueError(
                "a tree uses each node's own n: a setting with a fixed n is for curves only."
            )
        score = p.get("split_score")
        if score is not None and score != m.score:
            raise ValueError(
                f"split_score={score!r} and the setting's score {m.score!r} disagree; give one."
            )
        a = p["alpha"]
        if a is None or (m.alpha is not None and m.alpha == a):
            return m
        if m.alpha is not None:
            raise ValueError(f"alpha={a!r} and the setting's alpha={m.alpha!r} disagree; give one.")
        return m.replace(alpha=a)
    return MeasureSetting(
        measure_name(p["measure"], p.get("criterion")),
        theta=p["theta"],
        params=measure_params(p),
        consistent=p["consistent"],
        alpha=p["alpha"],
        score=p.get("split_score"),
    )


def measure_params(p: dict) -> dict:
    """The measure's parameters of estimator parameters ``p``: ``measure_params`` (a mapping
    of the names the registry declares) with the shorthands ``beta`` and ``rho`` over it; a
    name given twice with two values is an error.

    >>> measure_params({"measure_params": {"gamma": 2.0}, "beta": None, "rho": None})
    {'gamma': 2.0}
    >>> measure_params({"measure_params": None, "beta": 0.5})
    {'beta': 0.5}
    """
    given = p.get("measure_params")
    if given is None:
        out = {}
    elif isinstance(given, Mapping):
        out = dict(given)
    else:
        raise ValueError(
            f"measure_params must be None or a dict of the measure's parameters (e.g. "
            f"{{'beta': 0.5}}); got {given!r}."
        )
    for name in ("beta", "rho"):
        value = p.get(name)
        if value is None:
            continue
        if out.get(name) is not None and out[name] != value:
            raise ValueError(
                f"{name}={value!r} and measure_params[{name!r}]={out[name]!r} disagree; give one."
            )
        out[name] = value
    return out
