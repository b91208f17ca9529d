"""The KEEL study's analysis: its decision rule over the data sets and the effects it reports.

Protocol, not a reusable piece: the decision rule (each setting against Shannon by the Wilcoxon
signed-rank test on the per-data-set means, Holm within a family of (model, metric, leaf rule);
the Bayesian signed-rank test with a ROPE of 0.01 beside it), the settings counted once
(:data:`SAME_FOR_TWO_CLASSES`) and the anchors' labels are the study's choices
(docs/imbalanced_study.md). The tests themselves are the library's
(:mod:`offcenter.evaluation.statistics`), and so is the per-fold table they read
(:mod:`offcenter.evaluation.benchmark`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from offcenter.evaluation.benchmark import (
    STUDY_METRICS,
    THRESHOLD_FREE,
    StudyData,
    pooled_metrics,
)
from offcenter.evaluation.statistics import (
    RANK_DECIMALS,
    friedman_test,
    holm_versus_control,
    nemenyi_critical_difference,
    paired_versus_control,
    wilcoxon_signed_rank,
    wins_ties_losses,
)
from offcenter.studies.keel.protocol import ANCHOR, ANCHOR_FOREST_LABEL, FOREST_MODELS

__all__ = [
    "SAME_FOR_TWO_CLASSES",
    "forest_same_under_both_rules",
    "gains",
    "leaf_rule_effect",
    "paired_effect",
    "rank_tests",
    "setting_labels",
    "study_means",
]


#: Settings that are another setting for two classes: HDDT's squared Hellinger distance is twice
#: DKM's relative gain, so both grow the same trees (docs/peers.md); counted once.
SAME_FOR_TWO_CLASSES = {"hellinger": "dkm"}


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
    # part.pivot_table(index="data", columns="setting", values=metric, aggfunc="mean",
    # sort=False): the same group means (one groupby), its rows in first-seen order and a data
    # set with no score at all left out as pivot_table does, at a fifth of its cost (~1 ms
    # against ~6 ms; a report asks for ~100 tables)
    means = part.groupby(["data", "setting"], sort=False)[metric].mean()
    table = means.unstack("setting").reindex(index=part["data"].unique()).dropna(how="all")
    table.columns.name = "setting"
    table.index.name = "data"
    order = part["setting"].unique().tolist()  # first-seen order
    if distinct:
        order = [
            k for k in order if not (k in SAME_FOR_TWO_CLASSES and SAME_FOR_TWO_CLASSES[k] in order)
        ]
    return table.reindex(columns=order)


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
