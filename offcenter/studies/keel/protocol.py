r"""The KEEL study's protocol: its models, anchors and settings, how each is fitted, and its runs.

Protocol, not a reusable piece (docs/imbalanced_study.md): what this module fixes is the study's
design. The reusable parts it runs on are in the library's core:
:mod:`offcenter.evaluation.benchmark` (the data sets, the folds, the runner of the groups, the
per-fold table) and :mod:`offcenter.evaluation.fold_models` (inner-CV pruning, a tuned
threshold, both leaf rules from one fit); the core never imports this package.

The question: does the measure matter when the minority class is rare, against the
imbalance-aware peers? Every setting (a :class:`~offcenter.MeasureSetting`) and an outside anchor,
scikit-learn's ``DecisionTreeClassifier(class_weight="balanced")``, are grown on the *same*
repeated stratified folds of every data set (:class:`sklearn.model_selection.RepeatedStratifiedKFold`,
seeded) and scored on the same test folds; the comparison across data sets is then the one of
Demsar (2006): average ranks, Friedman / Iman-Davenport, Holm against Shannon, Nemenyi's critical
difference (:mod:`offcenter.evaluation.statistics`, :mod:`offcenter.studies.keel.analysis`).

Protocol
--------
Models (:data:`MODELS`)
    ``"tree"``: one tree of depth at most ``max_depth`` (5); ``"pruned"``: one tree grown fully,
    then minimal cost-complexity pruned at ``ccp_alpha = cp * R(root)``, with R(root) the root's
    impurity under the tree's own measure (the total cost of the one-leaf tree) and ``cp = 0.01``:
    rpart's default complexity parameter, which is relative to the root's cost in the same way (a
    fixed rule, not tuned: no inner cross-validation); ``"forest"``: a bagged forest of
    ``n_estimators`` (25) fully grown trees with ``max_features="sqrt"``
    (:class:`~offcenter.ensemble.forest.ForestClassifier`, class-stratified bootstrap), seeded per
    (seed, repeat, fold) as :func:`offcenter.evaluation.runner.cross_validate_settings` does;
    ``"balanced_forest"``: the same forest on class-balanced bootstrap samples
    (``bootstrap="balanced"``: every tree sees n rows, n // q of each class: the minority
    oversampled and the majority undersampled to the same size, **not** the balanced random
    forest of Chen, Liaw and Breiman 2004, whose trees see a bootstrap of the minority and as
    many majority rows; the off-centered measures keep theta = the full training fold's prior,
    not the balanced sample's; each tree's prior-aware rule divides by its own, uniform, sample
    prior, so both rules coincide there).
Sensitivity models (not in the committed run, :data:`DEFAULT_MODELS`)
    ``"pruned_cv_auc"``, ``"pruned_cv_gmean"``, ``"pruned_cv_gmean_prior"``: ``pruned_cv``'s
    inner CV and 1-SE rule with the loss 1 - ROC AUC, 1 - G-mean (majority rule) or 1 - G-mean
    (prior-aware rule) instead of the balanced error (:data:`PRUNE_BY`,
    :func:`offcenter.evaluation.fold_models.cv_ccp_alpha_by`); ``"threshold_forest"``: the
    ``"forest"`` model (same trees, same seeds, hence the same scores and ROC AUC) whose label is
    "positive when the averaged score of the minority class is at least t", t tuned for G-mean on
    the training fold's out-of-bag scores (:func:`offcenter.evaluation.fold_models.tuned_threshold`;
    both leaf-rule rows carry these labels; no anchor): threshold moving, the competitor of the
    class-balanced bootstrap that class weights cannot be when the leaves are pure.
Leaf rules and metrics
    Both leaf rules from one fit, and the metrics of the positive (minority) class:
    :mod:`offcenter.evaluation.fold_models`, :data:`offcenter.evaluation.benchmark.STUDY_METRICS`.
The anchor (:data:`ANCHOR`)
    ``sklearn.tree.DecisionTreeClassifier(class_weight="balanced")`` (``RandomForestClassifier``
    with the same class weights for both forest models: in scikit-learn 1.9 its
    ``class_weight="balanced"`` also draws each tree's bootstrap with row probabilities
    proportional to the weights, a class-balanced bootstrap), same ``max_depth`` / pruning rule / number
    of trees, ``random_state`` the fold's seed. It needs numbers: a
    :class:`~sklearn.pipeline.Pipeline` whose :class:`~sklearn.compose.ColumnTransformer` codes the
    nominal columns (:func:`offcenter.evaluation.fold_models.ordinal_encoder`) and passes the
    numeric columns through; every NaN is then handled by scikit-learn's native missing-value
    support of its trees (no imputation). Its scores are its (class-weighted) leaf frequencies;
    with balanced weights the weighted prior is uniform, so its prior-aware rule is its majority
    rule.

References
----------
J. Demsar, Statistical comparisons of classifiers over multiple data sets, JMLR 7 (2006) 1-30.
D. A. Cieslak, N. V. Chawla, Learning decision trees for unbalanced data, ECML PKDD 2008.
T. M. Therneau, E. J. Atkinson, An introduction to recursive partitioning using the RPART
routines (rpart's cp), 2023. C. Chen, A. Liaw, L. Breiman, Using random forest to learn
imbalanced data, Technical report 666, UC Berkeley, 2004.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import sklearn
from sklearn.ensemble import RandomForestClassifier
from sklearn.pipeline import Pipeline
from sklearn.tree import DecisionTreeClassifier

from offcenter.ensemble.forest import ForestClassifier
from offcenter.evaluation.benchmark import (
    BenchmarkGroup,
    StudyData,
    run_groups,
    sort_folds,
    study_folds,
)
from offcenter.evaluation.fold_models import (
    cv_ccp_alpha,
    cv_ccp_alpha_by,
    ordinal_encoder,
    tuned_threshold,
)
from offcenter.evaluation.runner import parse_settings
from offcenter.measures.settings import STUDY_SETTINGS
from offcenter.tree.estimator import TreeClassifier

__all__ = [
    "ANCHOR",
    "ANCHOR_FOREST_LABEL",
    "ANCHOR_LABEL",
    "DEFAULT_MODELS",
    "FOREST_MODELS",
    "MODELS",
    "MODEL_COST",
    "NO_ANCHOR_MODELS",
    "OFF_CENTERED",
    "PRIMARY_ENDPOINT",
    "PRUNED_MODELS",
    "PRUNE_BY",
    "SKLEARN_FOR_ANCHOR",
    "STUDY_SETTINGS",
    "WEIGHTED_FOREST",
    "WEIGHTED_FOREST_LABEL",
    "StudyProtocol",
    "fit_model",
    "key_label",
    "model_cpu_minutes",
    "run_study",
    "sklearn_anchor_problem",
]


#: Key and label of the outside anchor (scikit-learn's class-weighted CART).
ANCHOR = "sklearn_balanced"


ANCHOR_LABEL = "scikit-learn CART, balanced classes"


#: The anchor's label in the forest models (the CSV's label column names the tree).
ANCHOR_FOREST_LABEL = "scikit-learn forest, class-balanced bootstrap"


#: Second anchor of the forest models: our forest of Shannon trees with class weights in the
#: splits and the plain bootstrap (``ForestClassifier(class_weight="balanced_subsample",
#: stratified=False)``: the weights are computed on each tree's bootstrap sample and weight its splits; the draw itself
#: is uniform), beside the class-balanced bootstraps of ``balanced_forest`` and of the
#: scikit-learn anchor: "sampling vs criterion", measured.
WEIGHTED_FOREST = "split_weighted_forest"


WEIGHTED_FOREST_LABEL = "Shannon forest, class-weighted splits, plain bootstrap"


MODELS = {
    "tree": "depth-limited tree",
    "pruned": "fully grown tree, pruned at cp = 0.01 of the root's cost (not measure-neutral)",
    "pruned_cv": "fully grown tree, pruned at the inner-CV ccp_alpha (1-SE rule)",
    "laplace": "fully grown tree, unpruned, Laplace leaf estimates (HDDT, C4.4)",
    "bagged_laplace": "bagged unpruned Laplace trees, all features (Cieslak et al. 2012)",
    "forest": "bagged forest",
    "balanced_forest": "bagged forest, class-balanced bootstrap",
    "pruned_cv_auc": "fully grown tree, pruned at the inner-CV ccp_alpha of best ROC AUC (1-SE)",
    "pruned_cv_gmean": "fully grown tree, pruned at the inner-CV ccp_alpha of best G-mean, "
    "majority rule (1-SE)",
    "pruned_cv_gmean_prior": "fully grown tree, pruned at the inner-CV ccp_alpha of best G-mean, "
    "prior-aware rule (1-SE)",
    "threshold_forest": "bagged forest, decision threshold tuned for G-mean on out-of-bag scores",
}


#: The models of the committed run (docs/imbalanced_study.md): the command line's default. The
#: others are the sensitivity runs of the same document (alpha chosen by the reported metric and
#: rule; a threshold-moving forest).
DEFAULT_MODELS = (
    "tree",
    "pruned",
    "pruned_cv",
    "laplace",
    "bagged_laplace",
    "forest",
    "balanced_forest",
)


#: Cost of each model relative to "tree" (CPU time over the 41 KEEL sets, every setting and the
#: anchors, from the committed results: :func:`model_cpu_minutes`; "tree" is 1.4 CPU-minutes).
#: Also the scheduling weights of :func:`run_study` (the longest groups first) and its ETA.
MODEL_COST = {
    "tree": 1,
    "pruned": 2,
    "pruned_cv": 13,
    "laplace": 1.3,
    "bagged_laplace": 39,
    "forest": 35,
    "balanced_forest": 39,
    "pruned_cv_auc": 20,
    "pruned_cv_gmean": 20,
    "pruned_cv_gmean_prior": 20,
    "threshold_forest": 36,
}


#: Models whose trees are pruned (mean leaves and depth are reported beside their results).
PRUNED_MODELS = ("pruned", "pruned_cv", "pruned_cv_auc", "pruned_cv_gmean", "pruned_cv_gmean_prior")


#: The inner-CV criterion of each cross-validated pruning: (metric, leaf rule) whose loss,
#: 1 - metric, the 1-SE rule minimises; ``pruned_cv`` (the committed run) uses the balanced error
#: under the majority rule; the others are the sensitivity run's criteria, each the metric and rule
#: of a family the study reports.
PRUNE_BY = {
    "pruned_cv": ("balanced_accuracy", "majority"),
    "pruned_cv_auc": ("auc", None),
    "pruned_cv_gmean": ("gmean", "majority"),
    "pruned_cv_gmean_prior": ("gmean", "prior"),
}


FOREST_MODELS = ("forest", "balanced_forest", "bagged_laplace", "threshold_forest")


#: Models with no anchor and no split-weighted forest (one of our settings each).
NO_ANCHOR_MODELS = ("threshold_forest",)


#: The off-centered settings of the study.
OFF_CENTERED = ("oc_shannon", "oc_gini", "oc_daroczy_b0.5", "asymmetric", "asymmetric_consistent")


#: The study's one primary endpoint (see docs/imbalanced_study.md); everything else is exploratory.
PRIMARY_ENDPOINT = {"model": "tree", "metric": "auc", "leaf_rule": "majority"}


@dataclass(frozen=True)
class StudyProtocol:
    """Everything that fixes the numbers (recorded beside the per-fold CSV)."""

    n_splits: int = 5
    n_repeats: int = 3
    seed: int = 0
    max_depth: int = 5
    cp: float = 0.01
    n_estimators: int = 25
    max_features: str = "sqrt"

    def __post_init__(self):
        for name, low in (("n_splits", 2), ("n_repeats", 1), ("max_depth", 1), ("n_estimators", 1)):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < low:
                raise ValueError(f"{name} must be an integer >= {low}; got {v!r}.")
        if not (isinstance(self.cp, (int, float)) and 0 <= self.cp < 1):
            raise ValueError(f"cp must be a number in [0, 1); got {self.cp!r}.")

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def _anchor(
    model: str,
    X: pd.DataFrame,
    protocol: StudyProtocol,
    seed: int,
    ccp_alpha=0.0,
):
    """scikit-learn's class-weighted tree (or forest) behind an ordinal encoder of nominal columns."""
    if model in FOREST_MODELS:
        est = RandomForestClassifier(
            n_estimators=protocol.n_estimators,
            max_features=None if model == "bagged_laplace" else protocol.max_features,
            class_weight="balanced",
            random_state=seed,
            n_jobs=1,
        )
    else:
        est = DecisionTreeClassifier(
            class_weight="balanced",
            max_depth=protocol.max_depth if model == "tree" else None,
            random_state=seed,
            ccp_alpha=ccp_alpha,
        )
    return Pipeline([("encode", ordinal_encoder(X)), ("model", est)])


def _minority(y) -> object:
    """The least frequent class of ``y`` (ties: the last in sorted order), the study's positive."""
    counts = pd.Series(np.asarray(y, dtype=object)).value_counts()
    least = counts[counts == counts.min()].index.tolist()
    return sorted(least, key=str)[-1]


def fit_model(setting, model: str, X_tr, y_tr, seed: int, protocol: StudyProtocol):
    """The fitted model and the (weighted) training prior its prior-aware rule divides by.

    One of the study's ``setting`` (a :class:`~offcenter.MeasureSetting`, :data:`ANCHOR` or
    :data:`WEIGHTED_FOREST`) as the ``model`` of :data:`MODELS`, on one training fold, seeded
    by ``seed``: the ``fit`` of :class:`offcenter.evaluation.benchmark.BenchmarkGroup` (with
    the setting, the model and the protocol bound). ``None`` as the prior: the model's own.
    """
    if setting == WEIGHTED_FOREST:
        est = ForestClassifier(
            measure="shannon",
            class_weight="balanced_subsample",
            bootstrap=True,
            stratified=False,
            n_estimators=protocol.n_estimators,
            max_features=protocol.max_features,
            random_state=seed,
            n_jobs=1,
        ).fit(X_tr, y_tr)
        return est, None
    if setting == ANCHOR:
        if model == "pruned_cv":
            alpha = cv_ccp_alpha(
                lambda a: _anchor(model, X_tr, protocol, seed, a), X_tr, y_tr, seed
            )
            pipe = _anchor(model, X_tr, protocol, seed, alpha)
        elif model in PRUNE_BY:
            metric, rule = PRUNE_BY[model]
            alpha = cv_ccp_alpha_by(
                lambda a: _anchor(model, X_tr, protocol, seed, a), X_tr, y_tr, seed, metric, rule
            )
            pipe = _anchor(model, X_tr, protocol, seed, alpha)
        else:
            pipe = _anchor(model, X_tr, protocol, seed)
        pipe.fit(X_tr, y_tr)
        if model == "pruned":
            root = float(pipe[-1].tree_.impurity[0])
            pipe.set_params(model__ccp_alpha=protocol.cp * root)
            pipe.fit(X_tr, y_tr)
        classes = list(pipe.classes_)
        n_classes = len(classes)
        return pipe, np.full(n_classes, 1.0 / n_classes)  # balanced weights: uniform prior
    params = setting.tree_params()
    if model in FOREST_MODELS:
        laplace = model == "bagged_laplace"
        tuned = model == "threshold_forest"
        est = ForestClassifier(
            **params,
            **({"leaf_estimate": "laplace"} if laplace else {}),
            **({"oob_score": True} if tuned else {}),
            bootstrap="balanced" if model == "balanced_forest" else True,
            stratified=not laplace,  # Cieslak et al. bag with the plain bootstrap
            n_estimators=protocol.n_estimators,
            max_features=None if laplace else protocol.max_features,
            random_state=seed,
            n_jobs=1,
        )
        if tuned:
            with warnings.catch_warnings():  # "some rows are in every bootstrap": left out
                warnings.simplefilter("ignore", UserWarning)
                est.fit(X_tr, y_tr)
            positive = _minority(y_tr)
            col = list(np.asarray(est.classes_, dtype=object).tolist()).index(positive)
            est.tuned_threshold_ = (
                positive,
                tuned_threshold(y_tr, est.oob_decision_function_[:, col], positive),
            )
        else:
            est.fit(X_tr, y_tr)
        return est, None
    if model == "laplace":
        est = TreeClassifier(**params, leaf_estimate="laplace").fit(X_tr, y_tr)
        return est, est.prior_
    if model in PRUNE_BY:

        def make(_alpha):
            return TreeClassifier(**params)

        est = TreeClassifier(**params).fit(X_tr, y_tr)
        if model == "pruned_cv":
            alpha = cv_ccp_alpha(make, X_tr, y_tr, seed, full=est)
        else:
            metric, rule = PRUNE_BY[model]
            alpha = cv_ccp_alpha_by(make, X_tr, y_tr, seed, metric, rule, full=est)
        if alpha > 0:
            est = est.prune(alpha)
        return est, est.prior_
    est = TreeClassifier(**params, max_depth=protocol.max_depth if model == "tree" else None)
    est.fit(X_tr, y_tr)
    if model == "pruned" and protocol.cp > 0:
        root = float(est.tree_.nodes[0].impurity)
        est = est.prune(protocol.cp * root)
    return est, est.prior_


def key_label(setting) -> tuple[str, str]:
    """The key and label of a setting in the per-fold table (the anchors' own)."""
    if setting == ANCHOR:
        return ANCHOR, ANCHOR_LABEL
    if setting == WEIGHTED_FOREST:
        return WEIGHTED_FOREST, WEIGHTED_FOREST_LABEL
    return setting.key, setting.label


def _cost(data: StudyData, model: str) -> float:
    return MODEL_COST[model] * len(data.y) * max(1, data.X.shape[1])


def run_study(
    data_sets: Sequence[StudyData],
    settings: Iterable = STUDY_SETTINGS,
    models: Iterable[str] = tuple(MODELS),
    protocol: StudyProtocol | None = None,
    *,
    anchor: bool = True,
    n_jobs: int | None = -1,
    progress: Callable[[int, int, str], None] | None = None,
    skip: set | None = None,
    on_group: Callable[[list[dict]], None] | None = None,
    smallest_first: bool = False,
) -> pd.DataFrame:
    """Cross-validate every (data set, model, setting) on the same folds; the per-fold table.

    Parameters
    ----------
    data_sets : sequence of StudyData
    settings : iterable
        Measure settings (keys, dicts or :class:`~offcenter.MeasureSetting`); the anchor is added
        when ``anchor``.
    models : iterable of "tree", "pruned", "forest", "balanced_forest"
    protocol : StudyProtocol
    n_jobs : int or None
        joblib workers (processes); each runs all the folds of one (data set, setting, model).
        The numbers do not depend on it (every seed comes from (seed, repeat, fold)).
    progress : callable(done, total, message), optional
        Called as each (data set, setting, model) finishes.
    skip : set of (data, model, setting) keys, optional
        Groups already computed (to resume a run); they are not run again.
    on_group : callable(rows), optional
        Called with the rows of each (data set, setting, model) as it finishes (checkpoints).
    smallest_first : bool
        Run the data sets in increasing size (rows x features, ties by name), all the groups of
        one before the next, so that a run stopped early has whole data sets; by default the
        longest groups run first (the workers end together). The numbers do not depend on it.

    Returns
    -------
    pandas.DataFrame
        :data:`~offcenter.evaluation.benchmark.FOLD_COLUMNS`: one row per (data set, model, leaf
        rule, setting, repeat, fold), run by :func:`offcenter.evaluation.benchmark.run_groups`.
        Data sets whose folds cannot be made have no rows; see
        :func:`offcenter.evaluation.benchmark.problem_counts`.
    """
    protocol = protocol or StudyProtocol()
    parsed = parse_settings(settings)
    models = list(dict.fromkeys(models))
    bad = [m for m in models if m not in MODELS]
    if bad or not models:
        raise ValueError(f"models must be among {', '.join(MODELS)}; got {models!r}.")
    all_settings: list = [*parsed, *([ANCHOR, WEIGHTED_FOREST] if anchor else [])]
    skip = skip or set()
    jobs = []
    for data in data_sets:
        try:
            folds = study_folds(data.y, protocol)
        except ValueError:
            continue
        for model in models:
            for s in all_settings:
                key = key_label(s)[0]
                if s == WEIGHTED_FOREST and model not in ("forest", "balanced_forest"):
                    continue
                if s in (ANCHOR, WEIGHTED_FOREST) and model in NO_ANCHOR_MODELS:
                    continue
                if (data.name, model, key) in skip:
                    continue
                jobs.append((_cost(data, model), data, s, model, folds))
    if smallest_first:  # whole data sets early: size = rows x features, then name
        jobs.sort(key=lambda j: (_cost(j[1], "tree"), j[1].name, -j[0]))
    else:
        jobs.sort(key=lambda j: -j[0])  # the longest first: the workers end together
    groups = [
        BenchmarkGroup(
            data,
            model,
            *key_label(s),
            functools.partial(fit_model, s, model, protocol=protocol),
            folds,
        )
        for _, data, s, model, folds in jobs
    ]
    df = run_groups(groups, protocol.seed, n_jobs=n_jobs, progress=progress, on_group=on_group)
    return sort_folds(
        df,
        [d.name for d in data_sets],
        models,
        [key_label(s)[0] for s in all_settings],
    )


def model_cpu_minutes(folds: pd.DataFrame) -> pd.Series:
    """CPU minutes of each model, summed over its fits (the ``seconds`` of one leaf rule's
    rows: both rules come from one fit), in :data:`MODELS` order; the figures behind
    :data:`MODEL_COST` and the cost table of docs/imbalanced_study.md.

    The seconds are each worker's wall time per fold, so a model run while the machine was
    busy with other work counts more than on an idle one.
    """
    one = folds[folds["leaf_rule"] == "majority"]
    cpu = one.groupby("model")["seconds"].sum() / 60.0
    return cpu.reindex([m for m in MODELS if m in cpu.index])


#: The scikit-learn release from which ``RandomForestClassifier(class_weight="balanced")`` (the
#: forest anchor) draws a class-balanced bootstrap, the model docs/imbalanced_study.md describes.
#: Before it the same call weights the splits of a plain bootstrap: another model.
SKLEARN_FOR_ANCHOR = (1, 9)


def sklearn_anchor_problem(sklearn_version: str | None = None) -> str | None:
    """Why this scikit-learn cannot run the study's anchors as documented, or None.

    >>> sklearn_anchor_problem("1.6.1") is not None
    True
    >>> sklearn_anchor_problem("1.9.1") is None
    True
    """
    text = sklearn.__version__ if sklearn_version is None else sklearn_version
    parts = []
    for piece in text.split(".")[:2]:
        digits = "".join(ch for ch in piece if ch.isdigit())
        parts.append(int(digits) if digits else 0)
    if tuple(parts) >= SKLEARN_FOR_ANCHOR:
        return None
    need = ".".join(map(str, SKLEARN_FOR_ANCHOR))
    return (
        f"scikit-learn {text} is installed; the study's forest anchor "
        f"RandomForestClassifier(class_weight='balanced') is the balanced random forest the "
        f"study describes only from scikit-learn {need} (pip install 'scikit-learn>={need}'), "
        "or leave the anchors out with --no-anchor"
    )
