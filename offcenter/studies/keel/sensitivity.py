"""The two sensitivity runs of the imbalanced study (docs/imbalanced_study.md, *Sensitivity runs*).

Protocol, not a reusable piece: the runs' declared groups and the wording of their section.

- Pruning by the reported metric and rule: the models of
  :data:`offcenter.studies.keel.protocol.PRUNE_BY` other than ``pruned_cv`` choose ccp_alpha by the
  inner CV of ROC AUC, of G-mean under the majority rule or of G-mean under the prior-aware rule;
  each is read in its own metric and rule, off-centered settings against Shannon, beside the
  committed ``pruned_cv`` on the same data sets.
- A threshold-moving forest (``threshold_forest``) against the class-balanced bootstrap, the
  split-weighted forest and the plain forest's vote, G-mean.

Only data sets whose groups are all complete in a run are used (the runs were stopped at a
declared time). ``scripts/sensitivity_report.py`` writes :func:`sensitivity_lines` into the
document; a test rebuilds it from the committed results and compares.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from offcenter.evaluation.statistics import holm
from offcenter.evaluation.wording import fmt_p
from offcenter.studies.keel.analysis import paired_effect, setting_labels
from offcenter.studies.keel.protocol import OFF_CENTERED, PRUNE_BY, WEIGHTED_FOREST

#: The sensitivity models of the pruning run, in the order of the document.
PRUNING_MODELS = ("pruned_cv_auc", "pruned_cv_gmean", "pruned_cv_gmean_prior")


#: The groups (model, setting) each run was declared with.
PRUNING_GROUPS = tuple((m, k) for m in PRUNING_MODELS for k in ("shannon", *OFF_CENTERED))
THRESHOLD_GROUPS = (("threshold_forest", "shannon"),)


def complete_sets(folds: pd.DataFrame, groups) -> list[str]:
    """Data sets whose every declared (model, setting) group has all its rows: every (repeat,
    fold) of the run under both leaf rules, without an error (sorted)."""
    if folds.empty:
        return []
    n_cells = folds[["repeat", "fold"]].drop_duplicates().shape[0] * folds["leaf_rule"].nunique()
    ok = folds[folds["error"].fillna("") == ""]
    sizes = ok.groupby(["data", "model", "setting"]).size()
    return [
        d
        for d in sorted(set(ok["data"]))
        if all(sizes.get((d, m, k), 0) == n_cells for m, k in groups)
    ]


def _effect_text(e: dict | None) -> str:
    if e is None or e["n"] == 0:
        return "n/a"
    p = fmt_p(e["p"]) if e["n"] >= 2 and np.isfinite(e["p"]) else "n/a"
    return f"{e['b'] - e['a']:+.3f} ({e['wins']}/{e['ties']}/{e['losses']}, Wilcoxon p {p})"


def pruning_lines(sens: pd.DataFrame, committed: pd.DataFrame) -> list[str]:
    """The table of the pruning run: per model (its metric and rule), each off-centered setting
    against Shannon (mean difference, wins/ties/losses, Wilcoxon p, Holm over the settings) and
    its mean leaves relative to Shannon's, with the committed ``pruned_cv`` in the same metric
    and rule on the same data sets."""
    sets = complete_sets(sens, PRUNING_GROUPS)
    lines = [
        f"Pruning run: {len(sets)} of the 41 data sets complete at the stop"
        + (f" ({', '.join(sets)})." if sets else "."),
    ]
    if not sets:
        return lines
    both = pd.concat([sens, committed[committed["model"] == "pruned_cv"]], ignore_index=True)
    both = both[both["data"].isin(sets)]
    labels = setting_labels(both)
    lines += [
        "",
        "| alpha chosen by | read on | setting | vs Shannon: diff (W/T/L, Wilcoxon p) | Holm p "
        "| leaves / Shannon's | committed `pruned_cv`, same metric: diff | its leaves / Shannon's |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for model in PRUNING_MODELS:
        metric, rule = PRUNE_BY[model]
        rule = rule or "majority"
        read = "ROC AUC" if metric == "auc" else f"G-mean, {rule} rule"
        effects = {
            k: paired_effect(both, metric, (model, "shannon", rule), (model, k, rule))
            for k in OFF_CENTERED
        }
        ps = [e["p"] if e and e["n"] >= 2 else np.nan for e in effects.values()]
        finite = [i for i, p in enumerate(ps) if np.isfinite(p)]
        adj = np.full(len(ps), np.nan)
        if finite:
            adj[finite] = holm(np.asarray([ps[i] for i in finite]))
        for (k, e), p_holm in zip(effects.items(), adj, strict=True):
            ref = paired_effect(
                both, metric, ("pruned_cv", "shannon", rule), ("pruned_cv", k, rule)
            )
            lines.append(
                f"| {model} | {read} | {labels.get(k, k)} | {_effect_text(e)} | "
                f"{fmt_p(p_holm) if np.isfinite(p_holm) else 'n/a'} | "
                f"{_relative_leaves(both, model, k):.2f} | {_effect_text(ref)} | "
                f"{_relative_leaves(both, 'pruned_cv', k):.2f} |"
            )
    return lines


def _relative_leaves(folds: pd.DataFrame, model: str, setting: str) -> float:
    part = folds[(folds["model"] == model) & (folds["leaf_rule"] == "majority")]
    leaves = part.groupby(["data", "setting"])["leaves"].mean().unstack()
    if setting not in leaves or "shannon" not in leaves:
        return float("nan")
    return float((leaves[setting] / leaves["shannon"]).mean())


def threshold_lines(thr: pd.DataFrame, committed: pd.DataFrame) -> list[str]:
    """The threshold-moving forest against the committed forests, G-mean, same data sets."""
    sets = complete_sets(thr, THRESHOLD_GROUPS)
    lines = [
        f"Threshold-moving run: {len(sets)} of the 41 data sets complete at the stop"
        + (f" ({', '.join(sets)})." if sets else "."),
    ]
    if not sets:
        return lines
    both = pd.concat([thr, committed], ignore_index=True)
    both = both[both["data"].isin(sets)]
    tf = ("threshold_forest", "shannon", "majority")
    contrasts = (
        (
            "class-balanced bootstrap against threshold moving",
            tf,
            ("balanced_forest", "shannon", "majority"),
        ),
        (
            "threshold moving against class-weighted splits (plain bootstrap)",
            ("forest", WEIGHTED_FOREST, "majority"),
            tf,
        ),
        (
            "threshold moving against the forest's majority vote",
            ("forest", "shannon", "majority"),
            tf,
        ),
    )
    lines += ["", "| G-mean | a -> b | diff (W/T/L, Wilcoxon p) |", "|---|---|---|"]
    for what, a, b in contrasts:
        e = paired_effect(both, "gmean", a, b)
        lines.append(f"| {what} | {e['a']:.3f} -> {e['b']:.3f} | {_effect_text(e)} |")
    auc = paired_effect(both, "auc", ("forest", "shannon", "majority"), tf)
    lines += [
        "",
        f"ROC AUC of the threshold-moving forest minus the forest's: {auc['b'] - auc['a']:+.3f} "
        "(the same trees and scores: only the labels move).",
    ]
    return lines


def sensitivity_lines(
    pruning: pd.DataFrame, threshold: pd.DataFrame, committed: pd.DataFrame
) -> list[str]:
    """The block of docs/imbalanced_study.md: both runs' results, as they came."""
    return [
        "Computed from the committed results of the two runs by "
        "`offcenter.studies.keel.sensitivity.sensitivity_lines`, with the committed 41-set run's "
        "cells on the same data sets and folds.",
        "",
        *pruning_lines(pruning, committed),
        "",
        *threshold_lines(threshold, committed),
    ]
