r"""A benchmark over many data sets: the measure settings on the same folds of every set, ranked.

The question: does the measure matter when the minority class is rare, against the
imbalance-aware peers? Every setting (a :class:`~offcenter.MeasureSetting`) and an outside anchor,
scikit-learn's ``DecisionTreeClassifier(class_weight="balanced")``, are grown on the *same*
repeated stratified folds of every data set (:class:`sklearn.model_selection.RepeatedStratifiedKFold`,
seeded) and scored on the same test folds; the comparison across data sets is then the one of
Demsar (2006): average ranks, Friedman / Iman-Davenport, Holm against Shannon, Nemenyi's critical
difference (:mod:`offcenter.evaluation.statistics`).

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
    :func:`cv_ccp_alpha_by`); ``"threshold_forest"``: the ``"forest"`` model (same trees, same
    seeds, hence the same scores and ROC AUC) whose label is "positive when the averaged
    score of the minority class is at least t", t tuned for G-mean on the training fold's
    out-of-bag scores (:func:`tuned_threshold`; both leaf-rule rows carry these labels; no
    anchor): threshold moving, the competitor of the class-balanced bootstrap that class
    weights cannot be when the leaves are pure.
Leaf rules
    One fit gives both: ``"majority"`` predicts the class of largest leaf frequency, ``"prior"`` the
    class whose leaf frequency most exceeds its (weighted) training prior, exactly as
    :class:`~offcenter.TreeClassifier` does with ``leaf_rule`` (tested); a forest takes the
    majority vote of its trees' labels under that rule (ties as the forest breaks them).
Metrics (:data:`STUDY_METRICS`)
    Of the positive class (the minority, the least frequent class of the data set) on each test
    fold: ROC AUC and average precision (threshold-free, the same under both leaf rules), and at
    the decision rule balanced accuracy, G-mean and minority F1 (:mod:`offcenter.evaluation.metrics`,
    all from :mod:`sklearn.metrics`).
The anchor (:data:`ANCHOR`)
    ``sklearn.tree.DecisionTreeClassifier(class_weight="balanced")`` (``RandomForestClassifier``
    with the same class weights for both forest models: in scikit-learn 1.9 its
    ``class_weight="balanced"`` also draws each tree's bootstrap with row probabilities
    proportional to the weights, a class-balanced bootstrap), same ``max_depth`` / pruning rule / number
    of trees, ``random_state`` the fold's seed. It needs numbers: a
    :class:`~sklearn.pipeline.Pipeline` whose :class:`~sklearn.compose.ColumnTransformer` codes the
    nominal columns with :class:`~sklearn.preprocessing.OrdinalEncoder` (categories in sorted
    order; missing and unseen categories become NaN) and passes the numeric columns through; every
    NaN is then handled by scikit-learn's native missing-value support of its trees (no
    imputation). Its scores are its (class-weighted) leaf frequencies; with balanced weights the
    weighted prior is uniform, so its prior-aware rule is its majority rule.

Bad input is handled, counted and reported, never a crash (:func:`problem_counts`): a test fold
with no positive row (its metrics are NaN: recall, AUC and AP are undefined), a training fold
with a single class, a constant feature, a nominal value seen only in the test fold (routed as
:class:`~offcenter.TreeClassifier` routes unseen categories; NaN for the anchor), missing values,
a data set with fewer rows of a class than folds (scikit-learn then makes folds without it) and a
fit that fails (``error`` column; its metrics are NaN).

References
----------
J. Demsar, Statistical comparisons of classifiers over multiple data sets, JMLR 7 (2006) 1-30.
D. A. Cieslak, N. V. Chawla, Learning decision trees for unbalanced data, ECML PKDD 2008.
T. M. Therneau, E. J. Atkinson, An introduction to recursive partitioning using the RPART
routines (rpart's cp), 2023. C. Chen, A. Liaw, L. Breiman, Using random forest to learn
imbalanced data, Technical report 666, UC Berkeley, 2004.
"""

from __future__ import annotations

import math
import platform
import time
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import joblib
import numpy as np
import pandas as pd
import scipy
import sklearn
from joblib import Parallel, delayed, parallel_config
from scipy import stats
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import RepeatedStratifiedKFold, StratifiedKFold
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OrdinalEncoder
from sklearn.tree import DecisionTreeClassifier

from offcenter.data.csv_io import DataProblem, prepare_xy, read_csv_bytes
from offcenter.ensemble.forest import ForestClassifier
from offcenter.evaluation import metrics as _metrics
from offcenter.evaluation.folds import fold_seed
from offcenter.evaluation.runner import parse_settings
from offcenter.evaluation.statistics import (
    RANK_DECIMALS,
    friedman_test,
    holm,
    holm_versus_control,
    mean_difference_ci,
    nemenyi_critical_difference,
    paired_versus_control,
    wilcoxon_signed_rank,
    wins_ties_losses,
)
from offcenter.evaluation.wording import family_sentence, p_text
from offcenter.measures.settings import STUDY_SETTINGS
from offcenter.tree.cp_cv import one_se_alpha
from offcenter.tree.estimator import TreeClassifier
from offcenter.tree.params import LEAF_RULES
from offcenter.tree.prune import pruned_predictions

__all__ = [
    "ANCHOR",
    "LEAF_RULES",
    "MODELS",
    "STUDY_METRICS",
    "STUDY_SETTINGS",
    "DEFAULT_MODELS",
    "MODEL_COST",
    "model_cpu_minutes",
    "cost_lines",
    "WEIGHTED_FOREST",
    "StudyData",
    "environment_versions",
    "pooled_metrics",
    "reconstruct_counts",
    "short_answer",
    "table_anchor",
    "StudyProtocol",
    "data_table",
    "gains",
    "problem_counts",
    "rank_tests",
    "read_folder",
    "read_folds",
    "run_study",
    "study_means",
]

#: Key and label of the outside anchor (scikit-learn's class-weighted CART).
ANCHOR = "sklearn_balanced"
ANCHOR_LABEL = "scikit-learn CART, balanced classes"
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
#: Metrics of the positive (minority) class; all "higher is better".
STUDY_METRICS = {
    "auc": "ROC AUC",
    "ap": "average precision",
    "balanced_accuracy": "balanced accuracy",
    "gmean": "G-mean",
    "minority_f1": "minority F1",
}
#: Metrics that do not depend on the leaf rule (scores, not labels).
THRESHOLD_FREE = ("auc", "ap")
#: Confusion counts of the positive class on each test fold under the row's leaf rule (for the
#: metrics pooled over the folds of a repetition, Forman and Scholz 2010).
COUNT_COLUMNS = ["tp", "fp", "fn", "tn"]
FOLD_COLUMNS = [
    "data",
    "model",
    "leaf_rule",
    "setting",
    "label",
    "repeat",
    "fold",
    "n_train",
    "n_test",
    "n_test_positive",
    *STUDY_METRICS,
    *COUNT_COLUMNS,
    "leaves",
    "depth",
    "unseen_test_values",
    "seconds",
    "error",
]


# ====================================================================== data
@dataclass
class StudyData:
    """One data set of the study: features, labels, the positive class and what it holds."""

    name: str
    X: pd.DataFrame
    y: np.ndarray
    positive: object
    target: str = "class"
    warnings: list = field(default_factory=list)

    @property
    def nominal(self) -> list[str]:
        return [
            str(c) for c in self.X.columns if not pd.api.types.is_numeric_dtype(self.X[c].dtype)
        ]

    def info(self) -> dict:
        """n, features, nominal, missing, constant features, positives and imbalance ratio."""
        n_pos = int(np.sum(self.y == self.positive))
        n = len(self.y)
        constant = [c for c in self.X.columns if self.X[c].nunique(dropna=False) <= 1]
        return {
            "data": self.name,
            "n": n,
            "features": int(self.X.shape[1]),
            "nominal": len(self.nominal),
            "missing_rows": int(self.X.isna().any(axis=1).sum()),
            "missing_values": int(self.X.isna().sum().sum()),
            "constant_features": len(constant),
            "positive": str(self.positive),
            "positives": n_pos,
            "imbalance_ratio": (n - n_pos) / n_pos if n_pos else math.inf,
        }


def _as_study_data(name: str, raw: pd.DataFrame, target: str | None, positive) -> StudyData:
    target = str(raw.columns[-1]) if target is None else target
    features = [c for c in raw.columns if c != target]
    if not features:
        raise DataProblem(f"there is no feature column besides the target {target!r}.")
    X, y, notes = prepare_xy(raw, target, features)
    y = y.astype(str).to_numpy(dtype=object)
    labels = sorted(set(y.tolist()))
    if len(labels) != 2:
        raise DataProblem(
            f"the study compares binary problems; the target {target!r} has {len(labels)} "
            f"classes ({', '.join(labels[:6])})."
        )
    if positive is not None and str(positive) in labels:
        pos = str(positive)
    else:
        pos = _metrics.minority_class(y, labels)
    return StudyData(name, X, y, pos, target, list(notes))


def read_folder(
    folder,
    target: str | None = None,
    positive: str | None = "positive",
    only: Iterable[str] | None = None,
) -> tuple[list[StudyData], list[str]]:
    """Every ``*.csv`` file of ``folder`` (sorted by name) as a binary :class:`StudyData`.

    Files are read as the app reads an upload (:func:`offcenter.data.csv_io.read_csv_bytes`,
    :func:`~offcenter.data.csv_io.prepare_xy`: numeric columns as numbers, text columns as nominal,
    empty fields as missing, rows without a class left out). The class is ``target`` (default: the
    last column). The positive class is the label ``positive`` when present (KEEL's
    ``"positive"``, the minority class by construction), otherwise the least frequent class.

    ``only`` (file names without ``.csv``, the study's ``--only``) reads just those files: the
    others are not parsed, and their problems not reported.

    Returns ``(data_sets, problems)``: a file that cannot be used (unreadable, not binary...) is
    left out with a one-line reason in ``problems``, never an exception. A missing folder, or one
    without CSV files, is a ValueError.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "a.csv").write_text("x,c\\n1,negative\\n2,negative\\n3,positive\\n")
    >>> sets, problems = read_folder(d)
    >>> sets[0].name, sets[0].info()["imbalance_ratio"], problems
    ('a', 2.0, [])
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"folder: {folder} is not a folder of CSV files.")
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() == ".csv" and p.is_file())
    if not files:
        raise ValueError(f"folder: {folder} holds no .csv file.")
    if only is not None:
        wanted = set(only)
        files = [p for p in files if p.stem in wanted]
    out, problems = [], []
    for path in files:
        try:
            raw, _ = read_csv_bytes(path.read_bytes(), path.name)
            out.append(_as_study_data(path.stem, raw, target, positive))
        except (OSError, ValueError, UnicodeDecodeError) as err:
            problems.append(f"{path.name}: left out: {err}")
    return out, problems


def data_table(data_sets: Sequence[StudyData]) -> pd.DataFrame:
    """One row per data set (:meth:`StudyData.info`), sorted by imbalance ratio."""
    df = pd.DataFrame([d.info() for d in data_sets])
    if len(df):
        df = df.sort_values(["imbalance_ratio", "data"], kind="mergesort").reset_index(drop=True)
    return df


# ====================================================================== protocol
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


def study_folds(y, protocol: StudyProtocol) -> list[tuple[int, int, np.ndarray, np.ndarray]]:
    """(repeat, fold, train, test) of :class:`~sklearn.model_selection.RepeatedStratifiedKFold`.

    Unlike :func:`offcenter.evaluation.runner.stratified_folds`, a class with fewer rows than folds
    is allowed (scikit-learn's warning is silenced): some test folds then hold no row of it, and
    the study counts them. Fewer rows than folds is a ValueError.
    """
    labels = sorted(set(np.asarray(y, dtype=object).tolist()))
    codes = _metrics._codes(np.asarray(y, dtype=object), labels)
    if len(codes) < protocol.n_splits:
        raise ValueError(f"{len(codes)} rows cannot make {protocol.n_splits} folds.")
    splitter = RepeatedStratifiedKFold(
        n_splits=protocol.n_splits, n_repeats=protocol.n_repeats, random_state=protocol.seed
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "the least populated class has only ..."
        splits = list(splitter.split(np.zeros((len(codes), 1)), codes))
    k = protocol.n_splits
    return [(i // k, i % k, tr, te) for i, (tr, te) in enumerate(splits)]


# ====================================================================== models
def _encoder(X: pd.DataFrame):
    """Ordinal codes for the nominal columns (missing and unseen: NaN), numbers passed through."""
    nominal = [c for c in X.columns if not pd.api.types.is_numeric_dtype(X[c].dtype)]
    return ColumnTransformer(
        [
            (
                "nominal",
                OrdinalEncoder(
                    handle_unknown="use_encoded_value",
                    unknown_value=np.nan,
                    encoded_missing_value=np.nan,
                ),
                nominal,
            )
        ],
        remainder="passthrough",
    )


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
    return Pipeline([("encode", _encoder(X)), ("model", est)])


#: Folds of the inner cross-validation that chooses ccp_alpha (model "pruned_cv").
INNER_FOLDS = 5


def _balanced_error(y_true, y_pred) -> float:
    """1 - balanced accuracy (the mean of the per-class error rates), the inner CV's loss."""
    y_true = np.asarray(y_true, dtype=object)
    y_pred = np.asarray(y_pred, dtype=object)
    errs = [np.mean(y_pred[y_true == c] != c) for c in sorted(set(y_true.tolist()))]
    return float(np.mean(errs))


def one_se_alpha_of_folds(alphas, errors) -> float:
    r"""rpart's 1-SE rule on per-fold losses: the largest alpha within one SE of the best.

    The rule itself is :func:`offcenter.tree.cp_cv.one_se_alpha`; here its table is made from
    the losses of the inner folds (``xerror`` their mean, ``xstd`` the standard error of the
    mean over folds).

    Parameters
    ----------
    alphas : array of shape (m,)
        Candidate ``ccp_alpha`` values, increasing (larger = smaller tree).
    errors : array of shape (k, m)
        The loss of each candidate on each of the k inner folds.

    Returns
    -------
    float
        The largest alpha whose mean loss is at most :math:`\min_j \bar e_j + SE_{j^*}`, with
        :math:`SE = s / \sqrt k` of the best candidate :math:`j^*` (Breiman et al. 1984, 3.4.3;
        rpart's ``xerror + xstd`` rule; the mean is over folds, not over rows).

    Examples
    --------
    >>> one_se_alpha_of_folds([0.0, 0.1, 0.2], [[0.30, 0.31, 0.40], [0.32, 0.33, 0.40]])
    0.1
    """
    errors = np.asarray(errors, dtype=float)
    k = errors.shape[0]
    mean = errors.mean(axis=0)
    se = errors.std(axis=0, ddof=1) / math.sqrt(k) if k > 1 else np.zeros_like(mean)
    table = pd.DataFrame({"alpha": np.asarray(alphas, dtype=float), "xerror": mean, "xstd": se})
    return one_se_alpha(table)


#: At most this many candidate alphas are cross-validated (evenly spaced along the path: the
#: cost of ``pruned_cv`` is in pruning and predicting each candidate on each inner fold).
MAX_CANDIDATES = 16


def _candidate_alphas(path_alphas) -> np.ndarray:
    """rpart's candidates: geometric means of consecutive alphas of the path (0 kept first),
    at most :data:`MAX_CANDIDATES` of them (evenly spaced by position, both ends kept)."""
    a = np.unique(np.asarray(path_alphas, dtype=float))
    a = a[a >= 0]
    if len(a) <= 1:
        return np.array([0.0])
    mids = np.sqrt(a[1:-1] * a[2:]) if len(a) > 2 else np.array([])
    cands = np.concatenate([[0.0], mids, [a[-1]]])
    if len(cands) > MAX_CANDIDATES:
        keep = np.unique(np.round(np.linspace(0, len(cands) - 1, MAX_CANDIDATES)).astype(int))
        cands = cands[keep]
    return cands


def cv_ccp_alpha(make, X_tr, y_tr, seed: int, n_splits: int = INNER_FOLDS, full=None) -> float:
    """``ccp_alpha`` chosen by an inner stratified CV on the training fold, with the 1-SE rule.

    ``make(ccp_alpha)`` returns an unfitted model (ours or scikit-learn's pipeline). The path of
    the tree grown on the whole training fold gives the candidates (:func:`_candidate_alphas`);
    each inner fold grows a full tree and prunes it at every candidate; the loss is the
    balanced error (:func:`_balanced_error`) under the majority rule, the same loss for every
    measure, so that the choice does not depend on the measure's scale (the fixed
    ``cp x R(root)`` rule does: it prunes the consistent asymmetric entropy's trees to a third of
    Shannon's). With fewer than 2 rows of a class the full tree is kept (alpha 0). ``full``:
    our tree already grown on the training fold, whose pruning sequence gives the path without
    a refit.
    """
    y_tr = np.asarray(y_tr, dtype=object)
    cands = _inner_candidates(make, X_tr, y_tr, n_splits, full)
    if cands is None:
        return 0.0
    k = int(min(n_splits, pd.Series(y_tr).value_counts().min()))
    inner = StratifiedKFold(n_splits=k, shuffle=True, random_state=seed)
    errors = []
    for tr, te in inner.split(np.zeros((len(y_tr), 1)), y_tr):
        Xa, ya, Xb, yb = X_tr.iloc[tr], y_tr[tr], X_tr.iloc[te], y_tr[te]
        errors.append(
            [_balanced_error(yb, p) for p in _pruned_predictions(make, cands, Xa, ya, Xb)]
        )
    return one_se_alpha_of_folds(cands, errors)


def _criterion_loss(metric: str, rule, y_true, proba, classes, prior) -> float:
    """1 - ``metric`` of the pruned tree's class scores ``proba`` on an inner test fold: ROC AUC
    of the scores (either class: the same for two classes), or G-mean of the labels of the leaf
    ``rule`` (:func:`_rule_labels` with the tree's ``prior``)."""
    classes = np.asarray(classes, dtype=object)
    y_true = np.asarray(y_true, dtype=object)
    if metric == "auc":
        value = _metrics.roc_auc_ovr(y_true == classes[-1], proba[:, -1], positive=True)
    else:
        labels = classes[_rule_labels(proba, np.asarray(prior, dtype=float))[rule]]
        value = _metrics.g_mean(y_true, labels, positive=classes[-1])
    return 1.0 - float(value) if np.isfinite(value) else 1.0


def cv_ccp_alpha_by(
    make, X_tr, y_tr, seed: int, metric: str, rule=None, n_splits: int = INNER_FOLDS, full=None
) -> float:
    """``ccp_alpha`` chosen by an inner stratified CV for ``metric`` under the leaf ``rule``.

    The candidates, inner folds and 1-SE rule of :func:`cv_ccp_alpha`; the loss is
    1 - ``metric`` (``"auc"``, or ``"gmean"`` under ``rule``) of each candidate's pruned tree on
    each inner test fold (:func:`_criterion_loss`), so that the choice follows the metric and
    rule a family reports (the sensitivity models of :data:`PRUNE_BY`).
    """
    y_tr = np.asarray(y_tr, dtype=object)
    cands = _inner_candidates(make, X_tr, y_tr, n_splits, full)
    if cands is None:
        return 0.0
    k = int(min(n_splits, pd.Series(y_tr).value_counts().min()))
    inner = StratifiedKFold(n_splits=k, shuffle=True, random_state=seed)
    errors = []
    for tr, te in inner.split(np.zeros((len(y_tr), 1)), y_tr):
        Xa, ya, Xb, yb = X_tr.iloc[tr], y_tr[tr], X_tr.iloc[te], y_tr[te]
        classes, probas, prior = _pruned_probas(make, cands, Xa, ya, Xb)
        errors.append([_criterion_loss(metric, rule, yb, p, classes, prior) for p in probas])
    return one_se_alpha_of_folds(cands, errors)


def _inner_candidates(make, X_tr, y_tr, n_splits, full):
    """The candidate alphas of an inner CV, or None when there is nothing to choose (fewer than
    2 rows of a class, or a path of one alpha): the full tree is then kept."""
    counts = pd.Series(y_tr).value_counts()
    k = int(min(n_splits, counts.min())) if len(counts) > 1 else 0
    if k < 2:
        return None
    if full is not None:
        path = full.cp_table()["alpha"].to_numpy(dtype=float)
    else:
        path = _path(make(0.0), X_tr, y_tr)
    cands = _candidate_alphas(path)
    return None if len(cands) == 1 else cands


def _pruned_probas(make, alphas, X_tr, y_tr, X_te):
    """(classes, class scores of each pruned tree on X_te, the prior of its prior-aware rule) of
    the tree grown on X_tr, pruned at each alpha (the anchor: uniform prior, balanced weights)."""
    full = make(0.0)
    if hasattr(full, "steps"):
        out = []
        for a in alphas:
            pipe = make(float(a)).fit(X_tr, y_tr)
            out.append(np.asarray(pipe.predict_proba(X_te), dtype=float))
        n = len(pipe.classes_)
        return pipe.classes_, out, np.full(n, 1.0 / n)
    full.fit(X_tr, y_tr)
    out = [
        np.asarray((full.prune(float(a)) if a > 0 else full).predict_proba(X_te), dtype=float)
        for a in alphas
    ]
    return full.classes_, out, np.asarray(full.prior_, dtype=float)


def tuned_threshold(y, score, positive) -> float:
    r"""The decision threshold on ``score`` (of ``positive``) of the largest G-mean on (y, score).

    The candidates are the midpoints between consecutive distinct scores (and the ends);
    a row is labelled ``positive`` when its score is at least the threshold. Of the candidates
    with the largest G-mean, the median one (a plateau's middle). Rows with a NaN score (a row
    in every bootstrap: no out-of-bag score) are left out.

    >>> tuned_threshold(["a", "b", "b", "a"], [0.1, 0.7, 0.4, 0.3], "b")
    0.35
    """
    y = np.asarray(y, dtype=object)
    score = np.asarray(score, dtype=float)
    ok = np.isfinite(score)
    y, score = y[ok], score[ok]
    u = np.unique(score)
    if len(u) < 2:
        return 0.5
    cands = np.concatenate([[u[0]], (u[1:] + u[:-1]) / 2, [u[-1] + 1e-12]])
    pos = y == positive
    g = []
    for t in cands:
        pred = score >= t
        tpr = np.mean(pred[pos]) if pos.any() else 0.0
        tnr = np.mean(~pred[~pos]) if (~pos).any() else 0.0
        g.append(math.sqrt(tpr * tnr))
    best = np.flatnonzero(np.asarray(g) == max(g))
    return float(cands[best[len(best) // 2]])


def _minority(y) -> object:
    """The least frequent class of ``y`` (ties: the last in sorted order), the study's positive."""
    counts = pd.Series(np.asarray(y, dtype=object)).value_counts()
    least = counts[counts == counts.min()].index.tolist()
    return sorted(least, key=str)[-1]


def _path(model, X, y) -> np.ndarray:
    if hasattr(model, "steps"):  # the anchor's pipeline
        Xt = model[:-1].fit_transform(X, y)
        return model[-1].cost_complexity_pruning_path(Xt, y).ccp_alphas
    return np.asarray(model.cost_complexity_pruning_path(X, y).ccp_alphas, dtype=float)


def _pruned_predictions(make, alphas, X_tr, y_tr, X_te):
    """Predictions (majority rule) of the tree grown on X_tr, pruned at each alpha."""
    full = make(0.0)
    if hasattr(full, "steps"):
        out = []
        for a in alphas:
            out.append(make(float(a)).fit(X_tr, y_tr).predict(X_te))
        return out
    full.fit(X_tr, y_tr)
    return pruned_predictions(full, X_te, [float(a) for a in alphas])


def _fit(setting, model: str, X_tr, y_tr, protocol: StudyProtocol, seed: int):
    """The fitted model and the (weighted) training prior its prior-aware rule divides by."""
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


def _rule_labels(proba: np.ndarray, prior: np.ndarray) -> dict[str, np.ndarray]:
    """Column index predicted by each leaf rule from leaf frequencies (first class on ties)."""
    ratio = np.divide(proba, prior, out=np.zeros_like(proba), where=prior > 0)
    return {"majority": np.argmax(proba, axis=1), "prior": np.argmax(ratio, axis=1)}


def leaf_rule_predictions(est, X, prior=None) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Class scores and the labels of both leaf rules, from one fitted model.

    Returns ``(proba, {"majority": labels, "prior": labels})`` with ``proba`` in ``classes_``
    order. A :class:`~offcenter.TreeClassifier`: its leaf frequencies, argmax (majority) or argmax
    of frequency / ``prior_`` (prior-aware), as the tree labels its leaves. A
    :class:`~offcenter.ensemble.forest.ForestClassifier`: each tree's label under the rule (with
    its own prior), majority vote, ties to the larger averaged score then to class order, as the
    forest predicts. Anything else (the anchor): its ``predict_proba`` and the rules on it with
    ``prior``.
    """
    classes = np.asarray(est.classes_, dtype=object)
    trees = getattr(est, "estimators_", None)
    if trees is not None and hasattr(est, "vote_counts"):
        Xt = est._for_trees(X)
        index = {c: j for j, c in enumerate(classes.tolist())}
        total = np.zeros((len(Xt), len(classes)))
        votes = {r: np.zeros_like(total) for r in LEAF_RULES}
        rows = np.arange(len(Xt))
        for tree in trees:
            cols = np.array([index[c] for c in np.asarray(tree.classes_, dtype=object).tolist()])
            p = np.asarray(tree.predict_proba(Xt), dtype=float)
            total[:, cols] += p
            for rule, j in _rule_labels(p, np.asarray(tree.prior_, dtype=float)).items():
                votes[rule][rows, cols[j]] += 1
        proba = total / len(trees)
        tuned = getattr(est, "tuned_threshold_", None)
        if tuned is not None:  # threshold moving: the same labels under both rules
            positive, t = tuned
            other = [c for c in classes.tolist() if c != positive]
            hit = proba[:, classes.tolist().index(positive)] >= t
            labels = np.where(hit, positive, other[0] if other else positive).astype(object)
            return proba, dict.fromkeys(LEAF_RULES, labels)
        out = {}
        for rule, v in votes.items():
            key = np.where(v == v.max(axis=1, keepdims=True), proba, -np.inf)
            out[rule] = classes[np.argmax(key, axis=1)]
        return proba, out
    proba = np.asarray(est.predict_proba(X), dtype=float)
    if prior is None:
        prior = est.prior_
    rules = _rule_labels(proba, np.asarray(prior, dtype=float))
    return proba, {r: classes[j] for r, j in rules.items()}


def _size(est) -> tuple[float, float]:
    """Mean number of leaves and depth of the model's trees (ours or scikit-learn's)."""
    inner = est[-1] if hasattr(est, "steps") else est
    trees = getattr(inner, "estimators_", None) or [inner]
    leaves = [float(t.tree_.n_leaves) for t in trees]
    depth = [float(getattr(t.tree_, "depth", getattr(t.tree_, "max_depth", np.nan))) for t in trees]
    return float(np.mean(leaves)), float(np.mean(depth))


def _unseen_values(X_tr: pd.DataFrame, X_te: pd.DataFrame, nominal: list[str]) -> int:
    """Test rows with a nominal value (not missing) that no training row has."""
    if not nominal:
        return 0
    hit = np.zeros(len(X_te), dtype=bool)
    for c in nominal:
        te = X_te[c]
        hit |= (te.notna() & ~te.isin(set(X_tr[c].dropna().tolist()))).to_numpy()
    return int(hit.sum())


def _key_label(setting) -> tuple[str, str]:
    if setting == ANCHOR:
        return ANCHOR, ANCHOR_LABEL
    if setting == WEIGHTED_FOREST:
        return WEIGHTED_FOREST, WEIGHTED_FOREST_LABEL
    return setting.key, setting.label


def _fold_rows(data: StudyData, setting, model, protocol, repeat, fold, train, test) -> list[dict]:
    """The rows of one (setting, model, fold): one per leaf rule; never raises."""
    key, label = _key_label(setting)
    X_tr, X_te = data.X.iloc[train], data.X.iloc[test]
    y_tr, y_te = data.y[train], data.y[test]
    is_pos = y_te == data.positive
    base = {
        "data": data.name,
        "model": model,
        "setting": key,
        "label": label,
        "repeat": repeat,
        "fold": fold,
        "n_train": len(train),
        "n_test": len(test),
        "n_test_positive": int(is_pos.sum()),
        "unseen_test_values": _unseen_values(X_tr, X_te, data.nominal),
    }
    t0 = time.perf_counter()
    nan = dict.fromkeys([*STUDY_METRICS, *COUNT_COLUMNS, "leaves", "depth"], np.nan)
    try:
        seed = fold_seed(protocol.seed, repeat, fold)
        est, prior = _fit(setting, model, X_tr, y_tr, protocol, seed)
        proba, labels = leaf_rule_predictions(est, X_te, prior)
        classes = list(np.asarray(est.classes_, dtype=object).tolist())
        score = (
            proba[:, classes.index(data.positive)]
            if data.positive in classes
            else (np.zeros(len(test)))
        )
        leaves, depth = _size(est)
        error = ""
    except Exception as err:  # one failing fit must not lose the study
        error = f"{type(err).__name__}: {err}"
    seconds = time.perf_counter() - t0
    rows = []
    for rule in LEAF_RULES:
        row = {**base, "leaf_rule": rule, **nan, "seconds": seconds, "error": error}
        if not error:
            row.update(leaves=leaves, depth=depth)
            if is_pos.any() and not is_pos.all():
                pred = labels[rule]
                row["auc"] = _metrics.roc_auc_ovr(is_pos, score, positive=True)
                row["ap"] = _metrics.average_precision(is_pos, score, positive=True)
                row["balanced_accuracy"] = _metrics.balanced_accuracy(is_pos, pred == data.positive)
                row["gmean"] = _metrics.g_mean(y_te, pred, positive=data.positive)
                row["minority_f1"] = _metrics.precision_recall_f1(
                    y_te, pred, positive=data.positive
                )[2]
            hit = pred_pos = labels[rule] == data.positive
            row.update(
                tp=int(np.sum(hit & is_pos)),
                fp=int(np.sum(pred_pos & ~is_pos)),
                fn=int(np.sum(~hit & is_pos)),
                tn=int(np.sum(~pred_pos & ~is_pos)),
            )
        rows.append(row)
    return rows


def _run_group(data: StudyData, setting, model, protocol, folds) -> list[dict]:
    """Every fold of one (data set, setting, model): the unit of work of a worker."""
    out = []
    for repeat, fold, train, test in folds:
        out.extend(_fold_rows(data, setting, model, protocol, repeat, fold, train, test))
    return out


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
        :data:`FOLD_COLUMNS`: one row per (data set, model, leaf rule, setting, repeat, fold).
        Data sets whose folds cannot be made have no rows; see :func:`problem_counts`.
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
                key = _key_label(s)[0]
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
    total = len(jobs)
    rows: list[dict] = []
    with parallel_config(n_jobs=n_jobs):
        with Parallel(return_as="generator_unordered") as parallel:
            outputs = parallel(
                delayed(_run_group)(data, s, model, protocol, folds)
                for _, data, s, model, folds in jobs
            )
            for done, part in enumerate(outputs, start=1):
                rows.extend(part)
                if on_group is not None:
                    on_group(part)
                if progress is not None and part:
                    first = part[0]
                    progress(done, total, f"{first['data']}: {first['model']}, {first['label']}")
    df = pd.DataFrame(rows, columns=FOLD_COLUMNS)
    return sort_folds(
        df,
        [d.name for d in data_sets],
        models,
        [_key_label(s)[0] for s in all_settings],
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


def cost_lines(folds: pd.DataFrame, workers: int = 2) -> list[str]:
    """The cost table of docs/imbalanced_study.md (Markdown lines), from the per-fold seconds:
    each model's CPU minutes (:func:`model_cpu_minutes`), relative to ``tree``, and the total
    divided by ``workers`` (the study's joblib workers on this 2-core machine: ``--n-jobs -1``),
    the wall time of the whole study in one run with those workers busy throughout."""
    cpu = model_cpu_minutes(folds)
    lines = [
        "| model | what | CPU minutes | relative to `tree` |",
        "|---|---|---|---|",
    ]
    for model, minutes in cpu.items():
        lines.append(
            f"| `{model}` | {MODELS[model]} | {minutes:.1f} | {minutes / cpu['tree']:.1f} |"
        )
    lines.append(
        f"| all | {len(cpu)} models, {workers} workers | {cpu.sum():.1f} | "
        f"{cpu.sum() / workers:.0f} min of wall time |"
    )
    return lines


def sort_folds(df: pd.DataFrame, data_order=None, model_order=None, setting_order=None):
    """The per-fold rows in a fixed order (data, model, leaf rule, setting, repeat, fold)."""
    df = df.copy()
    keys = []
    for col, order in (
        ("data", data_order),
        ("model", model_order),
        ("leaf_rule", LEAF_RULES),
        ("setting", setting_order),
    ):
        if order is not None:
            seen = list(dict.fromkeys([*order, *df[col].unique().tolist()]))
            df[col + "_o"] = df[col].map({v: i for i, v in enumerate(seen)})
            keys.append(col + "_o")
        else:
            keys.append(col)
    df = df.sort_values([*keys, "repeat", "fold"], kind="mergesort")
    return df.drop(columns=[k for k in keys if k.endswith("_o")]).reset_index(drop=True)


# ====================================================================== reading the results
def read_folds(path_or_buf) -> pd.DataFrame:
    """A per-fold CSV written by the study (``error`` empty when the fit worked).

    A CSV written before the confusion counts were recorded gets them back from its balanced
    accuracy, G-mean and minority F1 (:func:`reconstruct_counts`).
    """
    text_columns = {c: "str" for c in ("data", "model", "leaf_rule", "setting", "label", "error")}
    df = pd.read_csv(path_or_buf, dtype=text_columns, keep_default_na=False, na_values=[""])
    missing = [c for c in FOLD_COLUMNS if c not in df.columns and c not in COUNT_COLUMNS]
    if missing:
        raise ValueError(f"not a per-fold CSV of the study: no column {', '.join(missing)}.")
    df["error"] = df["error"].fillna("")
    if any(c not in df.columns for c in COUNT_COLUMNS):
        df = reconstruct_counts(df)
    return df[FOLD_COLUMNS]


def reconstruct_counts(folds: pd.DataFrame) -> pd.DataFrame:
    r"""The confusion counts (tp, fp, fn, tn) of each row, from its threshold metrics.

    With P positives and N negatives in the test fold, balanced accuracy
    :math:`B = (t_+ + t_-)/2` and G-mean :math:`G = \sqrt{t_+ t_-}` make the two recalls the
    roots of :math:`t^2 - 2Bt + G^2 = 0`; minority F1 :math:`2TP / (2TP + FP + FN)` says which
    root is the positive recall. Counts are integers: TP = t_+ P and TN = t_- N are rounded
    (the neighbours +-1 tried, the CSV holds 6 significant digits), and the combination whose
    three metrics are closest to the recorded ones is kept. Rows without metrics get NaN.
    """
    df = folds.copy()
    P = df["n_test_positive"].to_numpy(float)
    N = df["n_test"].to_numpy(float) - P
    B = df["balanced_accuracy"].to_numpy(float)
    G = df["gmean"].to_numpy(float)
    F = df["minority_f1"].to_numpy(float)
    root = np.sqrt(np.clip(B * B - G * G, 0.0, None))
    best = np.full(len(df), np.inf)
    out = np.full((len(df), 2), np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        for tpr in (B + root, B - root):
            for dtp in (-1, 0, 1):
                tp = np.clip(np.round(tpr * P) + dtp, 0, P)
                for dtn in (-1, 0, 1):
                    tn = np.clip(np.round((2 * B - tpr) * N) + dtn, 0, N)
                    r1, r0 = tp / P, tn / N
                    f1 = np.where(tp > 0, 2 * tp / (tp + P + (N - tn)), 0.0)
                    dev = np.abs((r1 + r0) / 2 - B) + np.abs(np.sqrt(r1 * r0) - G) + np.abs(f1 - F)
                    better = dev < best
                    best = np.where(better, dev, best)
                    out[better] = np.column_stack([tp, tn])[better]
    ok = np.isfinite(best)
    tp, tn = out[:, 0], out[:, 1]
    df["tp"] = np.where(ok, tp, np.nan)
    df["fn"] = np.where(ok, P - tp, np.nan)
    df["tn"] = np.where(ok, tn, np.nan)
    df["fp"] = np.where(ok, N - tn, np.nan)
    df.attrs["reconstruction_deviation"] = float(np.max(best[ok])) if ok.any() else 0.0
    return df


def pooled_metrics(folds: pd.DataFrame) -> pd.DataFrame:
    """Threshold metrics from the confusion counts pooled over the folds of each repetition.

    With few positives per test fold (120 of the committed 615 hold at most 4), per-fold
    balanced accuracy, G-mean and F1 move in steps of 25 % or more; Forman and Scholz (2010)
    recommend summing TP, FP, FN, TN over the folds of a repetition and computing the metric
    once. Returns one row per (data, model, leaf rule, setting, repeat) with ``balanced_accuracy``,
    ``gmean`` and ``minority_f1`` pooled (NaN when a repetition has a failed fold).

    G. Forman, M. Scholz, Apples-to-apples in cross-validation studies: pitfalls in classifier
    performance measurement, SIGKDD Explorations 12 (2010) 49-57.
    """
    keys = ["data", "model", "leaf_rule", "setting", "label", "repeat"]
    g = folds.groupby(keys, sort=False)[COUNT_COLUMNS].sum(min_count=1).reset_index()
    bad = folds[folds[COUNT_COLUMNS].isna().any(axis=1)].drop_duplicates(keys)[keys]
    if len(bad):
        mark = g.set_index(keys).index.isin(bad.set_index(keys).index)
        g.loc[mark, COUNT_COLUMNS] = np.nan
    tp, fp, fn, tn = (g[c].to_numpy(float) for c in COUNT_COLUMNS)
    with np.errstate(invalid="ignore", divide="ignore"):
        r1, r0 = tp / (tp + fn), tn / (tn + fp)
        g["balanced_accuracy"] = (r1 + r0) / 2
        g["gmean"] = np.sqrt(r1 * r0)
        g["minority_f1"] = np.where(tp > 0, 2 * tp / (2 * tp + fp + fn), 0.0)
    g.loc[g["tp"].isna(), ["balanced_accuracy", "gmean", "minority_f1"]] = np.nan
    return g


def problem_counts(folds: pd.DataFrame, data_sets: Sequence[StudyData] = ()) -> pd.DataFrame:
    """What was unusual, per data set: counted, for the report.

    Columns ``data``, ``folds_without_positive`` (test folds with no positive row, per repeat x
    fold, counted once), ``train_single_class`` (training folds with one class),
    ``test_rows_unseen_value`` (test rows with a nominal value absent from their training fold,
    summed over folds), ``failed_fits`` (rows with an error, per leaf rule counted once),
    ``constant_features``, ``missing_rows``; only data sets with something to say.
    """
    info = {d.name: d.info() for d in data_sets}
    rows = []
    for name, part in folds.groupby("data", sort=False):
        one = part.drop_duplicates(["repeat", "fold"])
        first_rule = part[part["leaf_rule"] == part["leaf_rule"].iloc[0]]
        row = {
            "data": name,
            "folds_without_positive": int((one["n_test_positive"] == 0).sum()),
            "train_single_class": int(
                (one["n_test_positive"] == info.get(name, {}).get("positives", -1)).sum()
            ),
            "test_rows_unseen_value": int(one["unseen_test_values"].sum()),
            "failed_fits": int((first_rule["error"] != "").sum()),
            "constant_features": info.get(name, {}).get("constant_features", 0),
            "missing_rows": info.get(name, {}).get("missing_rows", 0),
        }
        if any(v for k, v in row.items() if k != "data"):
            rows.append(row)
    for name in info:
        if name not in set(folds["data"]):
            rows.append({"data": name, "skipped": "fewer rows than folds"})
    return pd.DataFrame(rows)


#: Settings that are another setting for two classes: HDDT's squared Hellinger distance is twice
#: DKM's relative gain, so both grow the same trees (docs/peers.md); counted once.
SAME_FOR_TWO_CLASSES = {"hellinger": "dkm"}
#: The study's one primary endpoint (see docs/imbalanced_study.md); everything else is exploratory.
PRIMARY_ENDPOINT = {"model": "tree", "metric": "auc", "leaf_rule": "majority"}
#: Threshold metrics (they depend on the leaf rule); the tables show them per fold and pooled.
THRESHOLD_METRICS = ("balanced_accuracy", "gmean", "minority_f1")


def study_means(
    folds: pd.DataFrame,
    metric: str,
    model: str,
    leaf_rule: str = "majority",
    *,
    pooled: bool = False,
    distinct: bool = True,
):
    """Mean over the folds (NaN folds left out): a (data set x setting) table.

    ``pooled=True`` (threshold metrics only): the mean over the repetitions of the metric computed
    from the confusion counts pooled over the folds of each repetition (:func:`pooled_metrics`).
    ``distinct=True`` drops a setting that is another for two classes
    (:data:`SAME_FOR_TWO_CLASSES`: HDDT = DKM) when both are present.
    """
    if metric not in STUDY_METRICS:
        raise ValueError(f"metric must be one of {', '.join(STUDY_METRICS)}; got {metric!r}.")
    if metric in THRESHOLD_FREE:
        leaf_rule = "majority"  # the same scores under both rules
        pooled = False
    part = folds[(folds["model"] == model) & (folds["leaf_rule"] == leaf_rule)]
    if pooled:
        part = pooled_metrics(part)
    table = part.pivot_table(
        index="data", columns="setting", values=metric, aggfunc="mean", sort=False
    )
    order = list(dict.fromkeys(part["setting"]))
    if distinct:
        order = [
            k for k in order if not (k in SAME_FOR_TWO_CLASSES and SAME_FOR_TWO_CLASSES[k] in order)
        ]
    return table.reindex(columns=order)


#: The anchor's label in the forest models (the CSV's label column names the tree).
ANCHOR_FOREST_LABEL = "scikit-learn forest, class-balanced bootstrap"


def setting_labels(folds: pd.DataFrame, distinct: bool = True, model: str | None = None) -> dict:
    """Setting key -> label; DKM's label names HDDT too when both are present (two classes).

    With a forest ``model``, the anchor is labelled as the model it is there
    (:data:`ANCHOR_FOREST_LABEL`: scikit-learn's forest with ``class_weight="balanced"``, whose
    bootstrap draws are class-balanced; not the CART tree that the per-fold CSV's ``label``
    column names for every model).
    """
    labels = folds.drop_duplicates("setting").set_index("setting")["label"].to_dict()
    if model in FOREST_MODELS and ANCHOR in labels:
        labels[ANCHOR] = ANCHOR_FOREST_LABEL
    if distinct:
        for dup, kept in SAME_FOR_TWO_CLASSES.items():
            if dup in labels and kept in labels:
                labels[kept] = f"{labels[kept]} = HDDT (two classes)"
    return labels


def rank_tests(
    folds: pd.DataFrame,
    metric: str,
    model: str,
    leaf_rule: str = "majority",
    reference: str = "shannon",
    alpha: float = 0.05,
    *,
    pooled: bool = False,
    distinct: bool = True,
    bayes: bool = True,
) -> dict:
    """The comparison of the settings over the data sets for one metric, model and rule.

    Per data set, the mean over the folds (or of the pooled repetitions, ``pooled``), rounded to
    12 decimals; then (:mod:`offcenter.evaluation.statistics`):

    - the Friedman test with Iman-Davenport's F over all settings (is any different?);
    - **the decision rule**: each setting against ``reference`` by the Wilcoxon signed-rank test
      on the per-data-set means, Holm-adjusted (``p_holm``, ``significant``), with the mean and
      median difference, a bootstrap 95 % CI of the median, wins/ties/losses over the data sets
      and the Bayesian signed-rank test (ROPE 0.01: ``p_better``, ``p_rope``, ``p_worse``;
      ``bayes=False`` leaves them NaN, for speed);
    - for reference only, Demsar's z-test on the average ranks (``p_holm_z``) and Nemenyi's
      critical difference (``cd``, the CD diagrams), both of which depend on the pool of settings.

    Returns a dict: ``table`` (data set x setting means), ``ranks`` (DataFrame, one row per
    setting: ``setting``, ``label``, ``mean_rank``, ``mean``, the columns above, ``leaves`` and
    ``depth``: the mean size of the trees), ``friedman``, ``cd``, ``n`` (data sets with every
    setting scored) and ``dropped`` (data sets left out).
    """
    table = study_means(folds, metric, model, leaf_rule, pooled=pooled, distinct=distinct)
    complete = table.dropna().round(RANK_DECIMALS)
    dropped = [str(i) for i in table.index if i not in complete.index]
    fr = friedman_test(complete.to_numpy())
    keys = list(complete.columns)
    labels = setting_labels(folds, distinct, model)
    control = keys.index(reference) if reference in keys else 0
    post = holm_versus_control(fr.mean_ranks, fr.n, control)
    paired = paired_versus_control(complete.to_numpy(), control, bayes=bayes)
    part = folds[(folds["model"] == model) & (folds["leaf_rule"] == leaf_rule)]
    size = part.groupby("setting")[["leaves", "depth"]].mean()
    ranks = pd.DataFrame(
        {
            "setting": keys,
            "label": [labels.get(k, k) for k in keys],
            "mean_rank": fr.mean_ranks,
            "mean": complete.mean(axis=0).to_numpy(),
            **{
                c: paired[c]
                for c in (
                    "mean_diff",
                    "median_diff",
                    "ci_low",
                    "ci_high",
                    "wins",
                    "ties",
                    "losses",
                    "p",
                    "p_holm",
                    "significant",
                    "p_better",
                    "p_rope",
                    "p_worse",
                )
            },
            "z": post["z"],
            "p_holm_z": post["p_holm"],
            "leaves": size["leaves"].reindex(keys).to_numpy(),
            "depth": size["depth"].reindex(keys).to_numpy(),
        }
    )
    ranks.loc[control, "significant"] = False
    return {
        "table": table,
        "ranks": ranks,
        "friedman": fr,
        "cd": nemenyi_critical_difference(fr.k, fr.n, alpha),
        "n": fr.n,
        "dropped": dropped,
    }


def gains(
    folds: pd.DataFrame,
    metric: str,
    model: str,
    leaf_rule: str = "majority",
    reference: str = "shannon",
    data_sets: Sequence[StudyData] = (),
    imbalance: dict | None = None,
) -> pd.DataFrame:
    """Each setting's gain over the reference per data set (difference of fold means), with IR.

    Columns ``data``, ``setting``, ``label``, ``gain``, ``imbalance_ratio`` (from ``data_sets`` or
    the ``imbalance`` dict {data: IR}).
    """
    table = study_means(folds, metric, model, leaf_rule)
    if reference not in table.columns:
        raise ValueError(f"the reference {reference!r} is not among the settings.")
    ir = dict(imbalance or {})
    ir.update({d.name: d.info()["imbalance_ratio"] for d in data_sets})
    labels = setting_labels(folds, distinct=False, model=model)  # the forest anchor named so
    diff = table.sub(table[reference], axis=0).drop(columns=[reference])
    long = diff.reset_index().melt(id_vars="data", var_name="setting", value_name="gain")
    long["label"] = long["setting"].map(labels)
    long["imbalance_ratio"] = long["data"].map(ir)
    return long[["data", "setting", "label", "gain", "imbalance_ratio"]]


def environment_versions() -> dict:
    """Versions that fix the numbers: Python, numpy, scipy, scikit-learn, pandas, joblib, baycomp
    (the Bayesian signed-rank test of the tables), offcenter.

    Recorded in the results' JSON. scikit-learn's matters for the forest anchor: from 1.9 its
    ``RandomForestClassifier(class_weight="balanced")`` draws a class-balanced bootstrap (a
    balanced random forest); before, it weights the splits of a plain bootstrap.
    """

    def installed(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:  # pragma: no cover - a source checkout not installed
            return "not installed"

    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "scikit-learn": sklearn.__version__,
        "pandas": pd.__version__,
        "joblib": joblib.__version__,
        "baycomp": installed("baycomp"),
        "offcenter": installed("offcenter"),
    }


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


def git_commit(folder: Path | str | None = None) -> str:
    """The git commit of the source tree ``offcenter`` is imported from (``+dirty`` when it has
    uncommitted changes), or ``"unknown"`` outside a git checkout."""
    import subprocess  # noqa: PLC0415 (only when a study is run)

    where = Path(folder) if folder is not None else Path(__file__).resolve().parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=where, capture_output=True, text=True, timeout=10
        )
        if head.returncode != 0:
            return "unknown"
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=where,
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


#: The families of the short answer (docs/imbalanced_study.md and the Compare page), in order:
#: (model, metric, leaf rule, what). The fixed-cp pruned trees are left out: that pruning rule
#: is not measure-neutral (it prunes some measures' trees much more than others).
SHORT_ANSWER = (
    ("tree", "auc", "majority", "Primary endpoint, ROC AUC of depth-5 trees"),
    ("tree", "gmean", "majority", "Depth-5 trees, G-mean, majority leaf rule"),
    ("tree", "gmean", "prior", "Depth-5 trees, G-mean, prior-aware leaf rule"),
    ("forest", "auc", "majority", "Bagged forests (25 trees), ROC AUC"),
    ("forest", "gmean", "majority", "Bagged forests, G-mean, majority vote"),
)
#: The family of the short answer's figure (one figure, two panels: the two leaf rules).
SHORT_ANSWER_FIGURE = ("tree", "gmean")


def table_anchor(model: str, metric: str, rule: str, how: str = "per-fold means") -> str:
    """The GitHub anchor of a family's table in docs/imbalanced_study_tables.md.

    >>> table_anchor("tree", "gmean", "prior")
    'tree-g-mean-prior-per-fold-means-exploratory'
    >>> table_anchor("tree", "auc", "majority")
    'tree-roc-auc-per-fold-means-primary-endpoint'
    """
    name = (
        STUDY_METRICS[metric] if metric in THRESHOLD_FREE else f"{STUDY_METRICS[metric]} ({rule})"
    )
    primary = (
        model == PRIMARY_ENDPOINT["model"]
        and metric == PRIMARY_ENDPOINT["metric"]
        and how == "per-fold means"
    )
    title = f"{model}, {name}, {how} " + ("(primary endpoint)" if primary else "(exploratory)")
    keep = "".join(ch for ch in title.lower() if ch.isalnum() or ch in " -_")
    return keep.replace(" ", "-")


def short_answer(
    folds: pd.DataFrame, families=SHORT_ANSWER, bayes: bool = False, all_holm=None
) -> list[dict]:
    """The study's short answer: one plain sentence per family, from the per-fold results.

    Each item: ``sentence`` (:func:`offcenter.evaluation.wording.family_sentence`, so only the
    decision rule's calls are worded as better or worse), ``model``, ``metric``, ``leaf_rule``,
    ``anchor`` (its table in docs/imbalanced_study_tables.md) and ``ranks`` (the family's table,
    :func:`rank_tests`). Families whose model is not in ``folds`` are left out.
    """
    out = []
    models = set(folds["model"])
    for model, metric, rule, what in families:
        if model not in models:
            continue
        t = rank_tests(folds, metric, model, rule, bayes=bayes)
        rows = t["ranks"][t["ranks"]["setting"] != "shannon"].copy()
        if all_holm is not None and len(all_holm):
            fam = all_holm[
                (all_holm["model"] == model)
                & (all_holm["metric"] == metric)
                & (all_holm["leaf_rule"] == rule)
            ].set_index("setting")["p_holm_all"]
            rows["p_holm_all"] = rows["setting"].map(fam)
        out.append(
            {
                "sentence": family_sentence(what, rows.to_dict("records")),
                "model": model,
                "metric": metric,
                "leaf_rule": rule,
                "anchor": table_anchor(model, metric, rule),
                "ranks": t["ranks"],
            }
        )
    return out


#: Further families quoted in the summary of docs/imbalanced_study.md (exploratory).
SUMMARY_FAMILIES = (
    *SHORT_ANSWER,
    ("tree", "balanced_accuracy", "majority", "Depth-5 trees, balanced accuracy, majority rule"),
    ("tree", "balanced_accuracy", "prior", "Depth-5 trees, balanced accuracy, prior-aware rule"),
    ("tree", "minority_f1", "majority", "Depth-5 trees, minority F1, majority rule"),
    ("forest", "gmean", "prior", "Bagged forests, G-mean, prior-aware vote"),
    ("forest", "ap", "majority", "Bagged forests, average precision"),
    ("pruned", "auc", "majority", "Fixed-cp pruned trees (not measure-neutral), ROC AUC"),
    ("pruned", "gmean", "majority", "Fixed-cp pruned trees, G-mean, majority rule"),
    ("pruned", "gmean", "prior", "Fixed-cp pruned trees, G-mean, prior-aware rule"),
    ("pruned_cv", "auc", "majority", "Trees pruned by inner CV (1-SE, measure-neutral), ROC AUC"),
    ("pruned_cv", "gmean", "majority", "Inner-CV pruned trees, G-mean, majority rule"),
    ("pruned_cv", "gmean", "prior", "Inner-CV pruned trees, G-mean, prior-aware rule"),
    ("laplace", "auc", "majority", "Unpruned Laplace trees (HDDT, C4.4 as published), ROC AUC"),
    ("bagged_laplace", "auc", "majority", "Bagged unpruned Laplace trees, all features, ROC AUC"),
    ("balanced_forest", "auc", "majority", "Forests on class-balanced bootstraps, ROC AUC"),
    ("balanced_forest", "gmean", "majority", "Forests on class-balanced bootstraps, G-mean"),
)

#: Paired comparisons of two (model, setting, leaf rule) cells quoted in the summary:
#: (what, metric, a, b), b against a on the same data sets.
SUMMARY_CONTRASTS = (
    (
        "The prior-aware leaf rule against the majority rule, Shannon's depth-limited trees "
        "(same fits)",
        "gmean",
        ("tree", "shannon", "majority"),
        ("tree", "shannon", "prior"),
    ),
    (
        "The prior-aware leaf rule against the majority rule, Shannon's bagged forests (same fits)",
        "gmean",
        ("forest", "shannon", "majority"),
        ("forest", "shannon", "prior"),
    ),
    (
        "Class weights against none, Shannon's depth-limited trees, majority rule",
        "gmean",
        ("tree", "shannon", "majority"),
        ("tree", "shannon_balanced", "majority"),
    ),
    (
        "The class-balanced bootstrap against the stratified one, Shannon forests, majority vote",
        "gmean",
        ("forest", "shannon", "majority"),
        ("balanced_forest", "shannon", "majority"),
    ),
    (
        "Sampling against criterion: Shannon forests on class-balanced bootstraps against "
        "class-weighted splits on plain bootstraps, majority vote",
        "gmean",
        ("forest", WEIGHTED_FOREST, "majority"),
        ("balanced_forest", "shannon", "majority"),
    ),
    (
        "Sampling against criterion, ROC AUC",
        "auc",
        ("forest", WEIGHTED_FOREST, "majority"),
        ("balanced_forest", "shannon", "majority"),
    ),
    (
        "Measure-neutral pruning against fixed-cp pruning, Shannon, ROC AUC",
        "auc",
        ("pruned", "shannon", "majority"),
        ("pruned_cv", "shannon", "majority"),
    ),
    (
        "Bagging against one tree: bagged unpruned Laplace trees against one, HDDT, ROC AUC",
        "auc",
        ("laplace", "hellinger", "majority"),
        ("bagged_laplace", "hellinger", "majority"),
    ),
)


def paired_effect(folds: pd.DataFrame, metric: str, a: tuple, b: tuple) -> dict:
    """Cell ``b`` against cell ``a``, each a (model, setting, leaf rule), on the same data sets.

    Per data set the mean over the folds of each cell (rounded to ``RANK_DECIMALS``); returns
    the means over the data sets present in both (``a``, ``b``), wins/ties/losses of ``b`` and
    the two-sided Wilcoxon signed-rank p-value (``p``) of the per-data-set differences, with
    ``n`` the number of data sets; ``None`` when a cell is not in ``folds``.
    """
    cols = []
    for model, setting, rule in (a, b):
        means = study_means(folds, metric, model, rule, distinct=False)
        if setting not in means:
            return None
        cols.append(means[setting].round(RANK_DECIMALS))
    both = pd.concat(cols, axis=1, keys=["a", "b"]).dropna()
    d = (both["b"] - both["a"]).to_numpy()
    w, t, lo = wins_ties_losses(d, np.zeros_like(d))
    return {
        "a": float(both["a"].mean()),
        "b": float(both["b"].mean()),
        "wins": w,
        "ties": t,
        "losses": lo,
        "p": wilcoxon_signed_rank(d).pvalue,
        "n": int(d.size),
    }


def leaf_rule_effect(folds: pd.DataFrame, model: str, metric: str, setting: str) -> dict:
    """The prior-aware leaf rule against the majority rule for one setting (same fits):
    :func:`paired_effect` with the keys ``majority`` and ``prior`` for the two means."""
    e = paired_effect(folds, metric, (model, setting, "majority"), (model, setting, "prior"))
    return {
        "majority": e["a"],
        "prior": e["b"],
        **{k: e[k] for k in ("wins", "ties", "losses", "p", "n")},
    }


def _size_line(folds: pd.DataFrame, model: str, what: str) -> str:
    size = (
        folds[(folds["model"] == model) & (folds["leaf_rule"] == "majority")]
        .groupby("setting")[["leaves"]]
        .mean()["leaves"]
    )
    labels = setting_labels(folds)
    small, big = size.idxmin(), size.idxmax()
    return (
        f"- {what}: mean leaves from {size[small]:.1f} ({labels.get(small, small)}) to "
        f"{size[big]:.1f} ({labels.get(big, big)}); Shannon {size.get('shannon', float('nan')):.1f}."
    )


#: The off-centered settings of the study.
OFF_CENTERED = ("oc_shannon", "oc_gini", "oc_daroczy_b0.5", "asymmetric", "asymmetric_consistent")


def summary_wide_holm(folds: pd.DataFrame, families=SUMMARY_FAMILIES) -> pd.DataFrame:
    """Every comparison of the summary's families with its Holm p-value over **all** of them.

    The decision rule adjusts within each family (model, metric, leaf rule); here the raw
    Wilcoxon p-values of every setting against Shannon in every family are Holm-adjusted
    together (:func:`offcenter.evaluation.statistics.holm`). One row per comparison: ``model``,
    ``metric``, ``leaf_rule``, ``setting``, ``label``, ``mean_diff``, ``p``, ``p_holm`` (within
    the family), ``significant`` (the family's call), ``p_holm_all`` and ``survives`` (the
    call holds at 5 % over all).
    """
    rows = []
    models = set(folds["model"])
    for model, metric, rule, _ in families:
        if model not in models:
            continue
        r = rank_tests(folds, metric, model, rule, bayes=False)["ranks"]
        r = r[r["setting"] != "shannon"]
        for _, x in r.iterrows():
            rows.append(
                {
                    "model": model,
                    "metric": metric,
                    "leaf_rule": rule,
                    "setting": x["setting"],
                    "label": x["label"],
                    "mean_diff": x["mean_diff"],
                    "p": x["p"],
                    "p_holm": x["p_holm"],
                    "significant": bool(x["significant"]),
                }
            )
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    out["p_holm_all"] = holm(out["p"].to_numpy())
    out["survives"] = out["significant"] & (out["p_holm_all"] < 0.05)
    return out


def forest_same_under_both_rules(folds: pd.DataFrame, model: str = "forest") -> float:
    """The share of a forest model's test folds (every setting) whose G-mean is the same under
    the majority and the prior-aware vote.

    Fully grown trees have pure leaves (one example per leaf allowed): a pure leaf's class is
    both its most frequent class and the class that most exceeds its prior, so both rules
    give the same votes wherever the leaves are pure.
    """
    part = folds[(folds["model"] == model) & (folds["error"] == "")]
    keys = ["data", "setting", "repeat", "fold"]
    wide = part.pivot_table(index=keys, columns="leaf_rule", values="gmean", aggfunc="first")
    wide = wide.dropna()
    if wide.empty:
        return math.nan
    return float((np.abs(wide["majority"] - wide["prior"]) <= 1e-12).mean())


def relative_size_line(folds: pd.DataFrame, model: str = "pruned_cv") -> str | None:
    """Inner-CV pruning's tree size per off-centered setting relative to Shannon's, and how the
    AUC difference tracks it (Spearman over data sets x settings)."""
    part = folds[(folds["model"] == model) & (folds["leaf_rule"] == "majority")]
    if part.empty or "shannon" not in set(part["setting"]):
        return None
    per = part.groupby(["data", "setting"])[["leaves", "auc"]].mean()
    leaves = per["leaves"].unstack()
    auc = per["auc"].unstack()
    keys = [k for k in OFF_CENTERED if k in leaves.columns]
    if not keys:
        return None
    ratio = leaves[keys].div(leaves["shannon"], axis=0)
    diff = auc[keys].sub(auc["shannon"], axis=0)
    both = pd.concat([np.log(ratio.stack()), diff.stack()], axis=1, keys=["r", "d"]).dropna()
    rho, p = stats.spearmanr(both["r"], both["d"])
    labels = setting_labels(folds)
    parts = ", ".join(f"{labels.get(k, k)} {ratio[k].mean():.2f}" for k in keys)
    return (
        f"- Inner-CV pruning is not size-neutral: mean leaves relative to Shannon's on the same "
        f"data set (mean over the data sets): {parts}; the AUC difference from Shannon falls "
        f"as the relative size grows (Spearman rho = {rho:.2f} over {len(both)} data set x "
        f"setting pairs, {p_text(p)})."
    )


def harm_line(folds: pd.DataFrame) -> str | None:
    """Off-centering's harm on depth-5 trees, G-mean, majority rule: mean difference from
    Shannon and baycomp's P(worse) for each off-centered setting (not a call of the rule)."""
    if "tree" not in set(folds["model"]):
        return None
    r = rank_tests(folds, "gmean", "tree", "majority", bayes=True)["ranks"].set_index("setting")
    keys = [k for k in OFF_CENTERED if k in r.index]
    parts = ", ".join(
        f"{r.loc[k, 'label']} {r.loc[k, 'mean_diff']:+.3f} (P(worse) {r.loc[k, 'p_worse']:.3f})"
        for k in keys
    )
    return (
        "- Where off-centering hurts without a call of the rule: depth-5 trees, G-mean, "
        f"majority rule, mean difference from Shannon and the Bayesian P(worse by more than "
        f"0.01): {parts}."
    )


def primary_endpoint_line(folds: pd.DataFrame) -> str | None:
    """The primary endpoint's effect sizes: the range of the mean differences from Shannon, of
    their BCa 95 % CIs and of baycomp's P(equivalent within +-0.01)."""
    model, metric = PRIMARY_ENDPOINT["model"], PRIMARY_ENDPOINT["metric"]
    if model not in set(folds["model"]):
        return None
    t = rank_tests(folds, metric, model, "majority", bayes=True)
    table = t["table"].dropna().round(RANK_DECIMALS)
    r = t["ranks"][t["ranks"]["setting"] != "shannon"]
    cis = [mean_difference_ci(table[k] - table["shannon"]) for k in r["setting"]]
    lo = min(c[1] for c in cis)
    hi = max(c[2] for c in cis)
    widest = max(c[2] - c[1] for c in cis)
    return (
        f"- Primary endpoint in numbers: mean differences from Shannon {r['mean_diff'].min():+.3f} "
        f"to {r['mean_diff'].max():+.3f}; their 95 % CIs (BCa bootstrap over the data sets) lie "
        f"within [{lo:+.3f}, {hi:+.3f}] and are up to {widest:.3f} wide: differences of about "
        f"0.02 are not ruled out; Bayesian P(equivalent within +-0.01) "
        f"{r['p_rope'].min():.2f} to {r['p_rope'].max():.2f}."
    )


def summary_lines(folds: pd.DataFrame) -> list[str]:
    """The numbers of the summary of docs/imbalanced_study.md, as Markdown bullet lines.

    Computed from the per-fold results only (a test rebuilds them from the committed CSV and
    compares them with the document): one sentence per family of :data:`SUMMARY_FAMILIES`
    (:func:`short_answer`), each linked to its table; the prior-aware rule against the majority
    rule for Shannon; the mean size of the fixed-cp pruned trees per setting.
    """
    lines = []
    wide = summary_wide_holm(folds)
    for item in short_answer(folds, SUMMARY_FAMILIES, all_holm=wide):
        lines.append(f"- {item['sentence']} ([table](imbalanced_study_tables.md#{item['anchor']}))")
    if len(wide):
        calls = wide[wide["significant"]]
        lost = calls[~calls["survives"]]
        lines.append(
            f"- Holm over all {len(wide)} comparisons of the {len(SUMMARY_FAMILIES)} families "
            f"above (the rule adjusts within each family): {int(calls['survives'].sum())} of "
            f"the {len(calls)} calls survive at 5 %, {len(lost)} do not"
            + (
                " ("
                + "; ".join(
                    f"{m} {STUDY_METRICS[me]}{'' if me in THRESHOLD_FREE else ' ' + ru}: "
                    + ", ".join(f"*{x}*" for x in g["label"])
                    for (m, me, ru), g in lost.groupby(["model", "metric", "leaf_rule"], sort=False)
                )
                + ")."
                if len(lost)
                else "."
            )
        )
    for extra in (primary_endpoint_line(folds), harm_line(folds)):
        if extra:
            lines.append(extra)
    models = set(folds["model"])
    for what, metric, a, b in SUMMARY_CONTRASTS:
        e = paired_effect(folds, metric, a, b) if {a[0], b[0]} <= models else None
        if e is None:
            continue
        lines.append(
            f"- {what}: {STUDY_METRICS[metric]} {e['a']:.3f} -> {e['b']:.3f} over {e['n']} data "
            f"sets (wins/ties/losses {e['wins']}/{e['ties']}/{e['losses']}, Wilcoxon "
            f"{p_text(e['p'])})."
        )
    if "pruned" in models:
        lines.append(
            _size_line(
                folds,
                "pruned",
                "Fixed-cp pruning (ccp_alpha = 0.01 x the root's cost under each tree's own "
                "measure) grows trees of different sizes per measure",
            )
        )
    if "pruned_cv" in models:
        lines.append(
            _size_line(
                folds,
                "pruned_cv",
                "Inner-CV pruning (the same balanced-error loss for every measure)",
            )
        )
        size = relative_size_line(folds)
        if size:
            lines.append(size)
    if "forest" in models:
        share = forest_same_under_both_rules(folds)
        lines.append(
            f"- Forests of fully grown trees: {100 * share:.1f} % of the forest test folds (every "
            "setting, scikit-learn's anchor included) give the same G-mean under the majority "
            "and the prior-aware vote: the leaves are pure, and a pure leaf's class is what "
            "both rules pick."
        )
    return lines
