"""The result of a cross-validated comparison: per-fold rows, summaries, paired statistics.

One concern of the cross-validation (:mod:`offcenter.evaluation.runner` makes it); the paired
statistics themselves are :mod:`offcenter.evaluation.statistics`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from offcenter.data.csv_io import to_csv_text
from offcenter.evaluation import metrics as _metrics
from offcenter.evaluation.statistics import (
    bayesian_correlated_ttest,
    corrected_resampled_ttest,
    corrected_t_interval,
    holm,
    wilcoxon_signed_rank,
    wins_ties_losses,
)

__all__ = ["METRICS", "SIZE_COLUMNS", "EvaluationResult"]

#: The metrics reported, with their readable names; all are "higher is better".
METRICS: dict[str, str] = {
    "accuracy": "accuracy",
    "balanced_accuracy": "balanced accuracy",
    "minority_recall": "minority recall",
    "minority_precision": "minority precision",
    "minority_f1": "minority F1",
    "auc": "AUC",
    "minority_auc": "minority AUC",
}
#: Tree size columns (not compared as better/worse).
SIZE_COLUMNS: dict[str, str] = {"leaves": "leaves", "depth": "depth"}


@dataclass
class EvaluationResult:
    """What :func:`evaluate` returns.

    Attributes
    ----------
    folds : pandas.DataFrame
        One row per (setting, repeat, fold): ``setting`` (key), ``label``, ``repeat``, ``fold``,
        ``n_train``, ``n_test``, the :data:`METRICS`, ``leaves``, ``depth`` (means over the trees
        for a forest), ``seconds`` and ``error`` (empty, or why that fit failed).
    settings : list of MeasureSetting
    config : dict
        The data name, the model, the leaf rule, folds, repeats, seed, the stopping rules, the
        minority class, class counts: everything needed to say what a number means.
    scores : dict
        Setting key -> array (n_repeats, n) of out-of-fold minority-class scores (NaN where not
        computed), for pooled ROC curves.
    y_minority : numpy.ndarray of bool
        Whether each example is of the minority class.
    cancelled : bool
        True when the run was cancelled; ``folds`` then holds what was completed.
    """

    folds: pd.DataFrame
    settings: list
    config: dict
    scores: dict = field(default_factory=dict)
    y_minority: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    cancelled: bool = False

    # ------------------------------------------------------------------ tables
    @property
    def reference(self) -> str:
        return self.config.get("reference", self.settings[0].key if self.settings else "")

    def labels(self) -> dict:
        return {s.key: s.label for s in self.settings}

    def summary(self, metrics: Iterable[str] | None = None) -> pd.DataFrame:
        """Mean and standard deviation (ddof = 1) over folds, one row per setting.

        Columns ``setting``, ``label``, ``n_folds`` then ``<metric>_mean`` and ``<metric>_std``
        for each metric and for the tree size.
        """
        metrics = list(metrics) if metrics is not None else [*METRICS, *SIZE_COLUMNS]
        rows = []
        for s in self.settings:
            part = self.folds[self.folds["setting"] == s.key]
            row = {
                "setting": s.key,
                "label": s.label,
                "n_folds": int(part[metrics[0]].notna().sum()) if len(part) else 0,
            }
            for m in metrics:
                values = part[m].to_numpy(dtype=float) if len(part) else np.zeros(0)
                values = values[~np.isnan(values)]
                row[f"{m}_mean"] = float(values.mean()) if values.size else np.nan
                row[f"{m}_std"] = float(values.std(ddof=1)) if values.size > 1 else np.nan
            rows.append(row)
        return pd.DataFrame(rows)

    def paired(
        self, reference: str | None = None, metrics: Iterable[str] | None = None
    ) -> pd.DataFrame:
        """Each setting against the reference (Shannon by default), fold by fold.

        One row per (setting, metric): ``mean_diff`` (setting - reference), ``wins``, ``ties``,
        ``losses`` (of the setting), ``wilcoxon_p`` (scipy's, see
        :func:`~offcenter.evaluation.statistics.wilcoxon_signed_rank`), ``t`` and ``t_p`` (the corrected resampled t-test),
        ``t_p_holm`` (Holm-adjusted over the settings, per metric) and ``n_pairs``; ``ci_low``,
        ``ci_high``: the 95 % interval of the mean difference under the same correction
        (:func:`~offcenter.evaluation.statistics.corrected_t_interval`); ``p_better``,
        ``p_rope``, ``p_worse``: the Bayesian correlated t-test with a ROPE of +-0.01
        (:func:`~offcenter.evaluation.statistics.bayesian_correlated_ttest`), the same wording
        rules as the study (:mod:`offcenter.evaluation.wording`).
        """
        reference = reference or self.reference
        metrics = list(metrics) if metrics is not None else list(METRICS)
        ref_rows = self.folds[self.folds["setting"] == reference].set_index(["repeat", "fold"])
        ratio = self.config.get("test_train_ratio")
        rows = []
        for s in self.settings:
            if s.key == reference:
                continue
            mine = self.folds[self.folds["setting"] == s.key].set_index(["repeat", "fold"])
            common = mine.index.intersection(ref_rows.index)
            # the common folds' rows, looked up once for all the metrics
            mine, ref = mine.loc[common], ref_rows.loc[common]
            for m in metrics:
                a = mine[m].to_numpy(dtype=float)
                b = ref[m].to_numpy(dtype=float)
                d = a - b
                d = d[~np.isnan(d)]
                w, t_, lo = wins_ties_losses(a, b)
                wil = wilcoxon_signed_rank(d)
                if ratio is None and len(common):
                    ratio = float(np.mean(mine["n_test"] / mine["n_train"]))
                tt = corrected_resampled_ttest(d, ratio if ratio is not None else 0.0)
                lo_ci, hi_ci = corrected_t_interval(d, ratio if ratio is not None else 0.0)
                ok = ~(np.isnan(a) | np.isnan(b))
                runs = int(pd.Series(common.get_level_values(0)[ok]).nunique()) or 1
                pb, pr, pw = bayesian_correlated_ttest(a[ok], b[ok], runs=runs)
                rows.append(
                    {
                        "setting": s.key,
                        "label": s.label,
                        "metric": m,
                        "mean_diff": float(d.mean()) if d.size else np.nan,
                        "wins": w,
                        "ties": t_,
                        "losses": lo,
                        "n_pairs": int(d.size),
                        "wilcoxon_p": wil.pvalue if d.size else np.nan,
                        "t": tt.statistic,
                        "t_p": tt.pvalue,
                        "ci_low": lo_ci,
                        "ci_high": hi_ci,
                        "p_better": pb,
                        "p_rope": pr,
                        "p_worse": pw,
                    }
                )
        out = pd.DataFrame(
            rows,
            columns=[
                "setting",
                "label",
                "metric",
                "mean_diff",
                "wins",
                "ties",
                "losses",
                "n_pairs",
                "wilcoxon_p",
                "t",
                "t_p",
                "ci_low",
                "ci_high",
                "p_better",
                "p_rope",
                "p_worse",
            ],
        )
        out["t_p_holm"] = np.nan
        for m in metrics:
            mask = out["metric"] == m
            if mask.any():
                out.loc[mask, "t_p_holm"] = holm(out.loc[mask, "t_p"].to_numpy(dtype=float))
        return out

    def roc_curves(self) -> pd.DataFrame:
        """Pooled out-of-fold ROC curves of the minority class, one per setting.

        Each repeat's out-of-fold scores cover every example once; the curves pool all repeats.
        Columns ``setting``, ``label``, ``fpr``, ``tpr``, ``threshold``, ``auc`` (of the pooled
        curve, which differs from the mean of the fold AUCs).
        """
        frames = []
        for s in self.settings:
            sc = self.scores.get(s.key)
            if sc is None:
                continue
            y = np.tile(self.y_minority, sc.shape[0])
            flat = sc.ravel()
            ok = ~np.isnan(flat)
            if not ok.any() or len(set(y[ok].tolist())) < 2:
                continue
            fpr, tpr, thr = _metrics.roc_curve(y[ok], flat[ok], positive=True)
            auc = _metrics.roc_auc_ovr(y[ok], flat[ok], positive=True)
            frames.append(
                pd.DataFrame(
                    {
                        "setting": s.key,
                        "label": s.label,
                        "fpr": fpr,
                        "tpr": tpr,
                        "threshold": thr,
                        "auc": auc,
                    }
                )
            )
        if not frames:
            return pd.DataFrame(columns=["setting", "label", "fpr", "tpr", "threshold", "auc"])
        return pd.concat(frames, ignore_index=True)

    def describe(self) -> str:
        """One line saying what the numbers are (model, leaf rule, CV design, stopping rules)."""
        c = self.config
        model = c.get("model", "tree")
        what = (
            "trees"
            if model == "tree"
            else (
                f"bagged forests of {c.get('n_estimators')} trees "
                f"(max_features={c.get('max_features')})"
            )
        )
        rules = ", ".join(f"{k}={v}" for k, v in c.get("tree_params", {}).items())
        text = (
            f"{what}; leaf rule: {c.get('leaf_rule')}; {c.get('n_splits')}-fold stratified CV x "
            f"{c.get('n_repeats')} repeat(s), seed {c.get('seed')}; {rules}; minority class "
            f"{c.get('minority')!r}"
        )
        if self.cancelled:
            text += " (CANCELLED: partial results)"
        return text

    def to_csv(self, path_or_buf=None):
        """The per-fold table as CSV, with the configuration in columns (one file says it all).

        Written by the app's one CSV writer (:func:`offcenter.data.csv_io.to_csv_text`): a
        cell or header a spreadsheet would run as a formula (an uploaded file named
        ``=cmd().csv``) starts with ``'``. Returns the text, or writes it to ``path_or_buf``
        (a path or a text buffer) and returns None.
        """
        df = self.folds.copy()
        for k in ("data", "model", "leaf_rule", "n_splits", "n_repeats", "seed"):
            df[k] = self.config.get(k)
        text = to_csv_text(df)
        if path_or_buf is None:
            return text
        if hasattr(path_or_buf, "write"):
            path_or_buf.write(text)
        else:
            with open(path_or_buf, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
        return None
