"""A benchmark over many data sets, the reusable part: the data, the folds, the runs, the table.

Reusable by any study that cross-validates models on the same folds of many binary data sets
(:mod:`offcenter.studies.keel` is one; this module never imports it):

- the data: every CSV of a folder read as a binary problem (:func:`read_folder`,
  :class:`StudyData`; the positive class is the minority);
- the folds: repeated stratified k-fold splits in which a class may be absent from a test fold
  (:func:`study_folds`), every model seeded by (seed, repeat, fold)
  (:func:`offcenter.evaluation.folds.fold_seed`);
- the runs: :func:`run_groups` runs every fold of each :class:`BenchmarkGroup` (one data set,
  one model, one setting, and the function that fits it) in joblib's workers, one row per leaf
  rule (both rules from one fit: :func:`offcenter.evaluation.fold_models.leaf_rule_predictions`);
- the per-fold table (:data:`FOLD_COLUMNS`), its order, reading it back, the confusion counts
  pooled over the folds of a repetition (Forman and Scholz 2010) and what was unusual
  (:func:`problem_counts`).

Metrics (:data:`STUDY_METRICS`)
    Of the positive class (the minority, the least frequent class of the data set) on each test
    fold: ROC AUC and average precision (threshold-free, the same under both leaf rules), and at
    the decision rule balanced accuracy, G-mean and minority F1
    (:mod:`offcenter.evaluation.metrics`, all from :mod:`sklearn.metrics`).

Bad input is handled, counted and reported, never a crash (:func:`problem_counts`): a test fold
with no positive row (its metrics are NaN: recall, AUC and AP are undefined), a training fold
with a single class, a constant feature, a nominal value seen only in the test fold (routed as
:class:`~offcenter.TreeClassifier` routes unseen categories), missing values, a data set with
fewer rows of a class than folds (scikit-learn then makes folds without it) and a fit that fails
(``error`` column; its metrics are NaN).

What a study decides (which data sets, models, settings and anchors, its decision rule, its
wording) is its protocol, not here.
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
from sklearn.model_selection import RepeatedStratifiedKFold

from offcenter.data.csv_io import DataProblem, prepare_xy, read_csv_bytes
from offcenter.evaluation import metrics as _metrics
from offcenter.evaluation.fold_models import leaf_rule_predictions
from offcenter.evaluation.folds import fold_seed
from offcenter.tree.params import LEAF_RULES

__all__ = [
    "COUNT_COLUMNS",
    "FOLD_COLUMNS",
    "STUDY_METRICS",
    "THRESHOLD_FREE",
    "THRESHOLD_METRICS",
    "BenchmarkGroup",
    "StudyData",
    "data_table",
    "environment_versions",
    "fold_rows",
    "git_commit",
    "pooled_metrics",
    "problem_counts",
    "read_folder",
    "read_folds",
    "reconstruct_counts",
    "run_groups",
    "sort_folds",
    "study_folds",
]


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


#: Threshold metrics (they depend on the leaf rule); the tables show them per fold and pooled.
THRESHOLD_METRICS = ("balanced_accuracy", "gmean", "minority_f1")


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


def study_folds(y, protocol) -> list[tuple[int, int, np.ndarray, np.ndarray]]:
    """(repeat, fold, train, test) of :class:`~sklearn.model_selection.RepeatedStratifiedKFold`.

    ``protocol``: anything with ``n_splits``, ``n_repeats`` and ``seed`` (a study's protocol,
    such as :class:`offcenter.studies.keel.protocol.StudyProtocol`).

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


@dataclass(frozen=True)
class BenchmarkGroup:
    """One unit of work of :func:`run_groups`: every fold of one (data set, model, setting).

    ``fit(X_train, y_train, seed)`` returns ``(model, prior)``: the fitted model and the
    (weighted) training prior its prior-aware rule divides by, or None for the model's own
    ``prior_`` (:func:`offcenter.evaluation.fold_models.leaf_rule_predictions`). It runs in a
    joblib worker, so it must pickle: a module-level function or a :func:`functools.partial`
    of one. ``key`` and ``label`` name the setting in the table.
    """

    data: StudyData
    model: str
    key: str
    label: str
    fit: Callable
    folds: list


def fold_rows(group: BenchmarkGroup, seed: int, repeat, fold, train, test) -> list[dict]:
    """The rows of one fold of a group: one per leaf rule, both from one fit; never raises.

    The model is ``group.fit(X_train, y_train, fold_seed(seed, repeat, fold))``; a fit or a
    prediction that fails is recorded in the ``error`` column with NaN metrics.
    """
    data, model, key, label = group.data, group.model, group.key, group.label
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
        est, prior = group.fit(X_tr, y_tr, fold_seed(seed, repeat, fold))
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
    both = bool(is_pos.any() and not is_pos.all())  # else the metrics are undefined: NaN
    if not error and both:  # the scores are the same for both leaf rules: ranked once
        ranked = {
            "auc": _metrics.roc_auc_ovr(is_pos, score, positive=True),
            "ap": _metrics.average_precision(is_pos, score, positive=True),
        }
    rows = []
    for rule in LEAF_RULES:
        row = {**base, "leaf_rule": rule, **nan, "seconds": seconds, "error": error}
        if not error:
            row.update(leaves=leaves, depth=depth)
            if both:
                scores = _metrics.positive_vs_rest(is_pos, labels[rule] == data.positive, True)
                row.update(
                    ranked,
                    balanced_accuracy=scores["balanced_accuracy"],
                    gmean=scores["g_mean"],
                    minority_f1=scores["f1"],
                )
            hit = pred_pos = labels[rule] == data.positive
            row.update(
                tp=int(np.sum(hit & is_pos)),
                fp=int(np.sum(pred_pos & ~is_pos)),
                fn=int(np.sum(~hit & is_pos)),
                tn=int(np.sum(~pred_pos & ~is_pos)),
            )
        rows.append(row)
    return rows


def _run_group(group: BenchmarkGroup, seed: int) -> list[dict]:
    """Every fold of one group: the unit of work of a worker."""
    out = []
    for repeat, fold, train, test in group.folds:
        out.extend(fold_rows(group, seed, repeat, fold, train, test))
    return out


def run_groups(
    groups: Sequence[BenchmarkGroup],
    seed: int,
    *,
    n_jobs: int | None = -1,
    progress: Callable[[int, int, str], None] | None = None,
    on_group: Callable[[list[dict]], None] | None = None,
) -> pd.DataFrame:
    """Run every fold of every group on joblib's workers: the per-fold table.

    Parameters
    ----------
    groups : sequence of BenchmarkGroup
        Dispatched in this order (a study's scheduler puts the longest first); their rows come
        back in the order the groups finish.
    seed : int
        The base seed: each fold's models get :func:`offcenter.evaluation.folds.fold_seed`
        (seed, repeat, fold), so the numbers depend neither on ``n_jobs`` nor on the order.
    n_jobs : int or None
        joblib workers (processes); each runs all the folds of one group.
    progress : callable(done, total, message), optional
        Called as each group finishes.
    on_group : callable(rows), optional
        Called with the rows of each group as it finishes (checkpoints).

    Returns
    -------
    pandas.DataFrame
        :data:`FOLD_COLUMNS`, in the order the groups finished (:func:`sort_folds` orders it).
    """
    total = len(groups)
    rows: list[dict] = []
    with parallel_config(n_jobs=n_jobs):
        with Parallel(return_as="generator_unordered") as parallel:
            outputs = parallel(delayed(_run_group)(group, seed) for group in groups)
            for done, part in enumerate(outputs, start=1):
                rows.extend(part)
                if on_group is not None:
                    on_group(part)
                if progress is not None and part:
                    first = part[0]
                    progress(done, total, f"{first['data']}: {first['model']}, {first['label']}")
    return pd.DataFrame(rows, columns=FOLD_COLUMNS)


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
