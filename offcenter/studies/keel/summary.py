"""The KEEL study's wording: the short answer, the summary and the cost table of its document.

Protocol, not a reusable piece: which families the short answer and the summary quote
(:data:`SHORT_ANSWER`, :data:`SUMMARY_FAMILIES`, :data:`SUMMARY_CONTRASTS`), and the sentences
of docs/imbalanced_study.md that ``scripts/study_summary.py`` writes (a test rebuilds them from
the committed results and compares). How a test's result is worded is the library's
(:mod:`offcenter.evaluation.wording`), so a user's own run and the study say the same.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from offcenter.evaluation.benchmark import STUDY_METRICS, THRESHOLD_FREE
from offcenter.evaluation.statistics import RANK_DECIMALS, holm, mean_difference_ci
from offcenter.evaluation.wording import family_sentence, p_text
from offcenter.studies.keel.analysis import (
    forest_same_under_both_rules,
    paired_effect,
    rank_tests,
    setting_labels,
)
from offcenter.studies.keel.protocol import (
    MODELS,
    OFF_CENTERED,
    PRIMARY_ENDPOINT,
    WEIGHTED_FOREST,
    model_cpu_minutes,
)

__all__ = [
    "SHORT_ANSWER",
    "SHORT_ANSWER_FIGURE",
    "SUMMARY_CONTRASTS",
    "SUMMARY_FAMILIES",
    "cost_lines",
    "harm_line",
    "primary_endpoint_line",
    "relative_size_line",
    "short_answer",
    "summary_lines",
    "summary_wide_holm",
    "table_anchor",
]


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
    models = set(folds["model"].unique())
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
    models = set(folds["model"].unique())
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
    if "tree" not in set(folds["model"].unique()):
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
    if model not in set(folds["model"].unique()):
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
    models = set(folds["model"].unique())
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
