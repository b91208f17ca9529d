"""How results are worded: one set of rules for the study and for a user's own run.

A comparison with the reference (Shannon) is worded from its statistics only, by these rules:

1. **"better" or "worse" only when the decision rule says so**: the Holm-adjusted p-value of the
   paired test (Wilcoxon signed-rank on per-data-set means in the study; Nadeau and Bengio's
   corrected t-test on the folds of one data set) is below ``alpha``; the direction is the sign
   of the mean difference.
2. Otherwise **"no difference shown"**, never "no difference": the Bayesian test (ROPE +-0.01)
   adds "practically equivalent" when P(equivalent) >= 0.95, and says when it leans one way
   (P >= 0.95) although the decision rule does not confirm it.
3. **Every sentence carries its effect size**: the difference (median over data sets with its
   bootstrap 95 % CI, or the mean over folds with its corrected-t 95 % CI), wins/ties/losses
   and the adjusted p-value; numbers are rounded for reading, the tables hold them in full.

Nothing here computes a statistic: :mod:`offcenter.evaluation.statistics` does.
"""

from __future__ import annotations

import math

__all__ = [
    "SURE",
    "direction",
    "family_sentence",
    "fmt_p",
    "p_text",
    "paired_sentences",
    "verdict",
]

#: A Bayesian probability at least this large is worded ("practically equivalent", "leans").
SURE = 0.95


def fmt_p(p: float) -> str:
    """A p-value for reading: ``< 0.001`` or three decimals; ``n/a`` when undefined.

    >>> fmt_p(0.00004), fmt_p(0.0312), fmt_p(float("nan"))
    ('< 0.001', '0.031', 'n/a')
    """
    if p is None or not math.isfinite(p):
        return "n/a"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def p_text(p: float) -> str:
    """``"p < 0.001"`` or ``"p = 0.031"`` (``"p n/a"`` when undefined).

    >>> p_text(0.00001), p_text(0.5)
    ('p < 0.001', 'p = 0.500')
    """
    f = fmt_p(p)
    return "p n/a" if f == "n/a" else ("p " + f if f.startswith("<") else "p = " + f)


def direction(significant: bool, mean_diff: float) -> str:
    """``"better"``, ``"worse"`` or ``"no difference shown"`` (rule 1).

    >>> direction(True, -0.02), direction(False, 0.3)
    ('worse', 'no difference shown')
    """
    if not significant or not math.isfinite(mean_diff) or mean_diff == 0:
        return "no difference shown"
    return "better" if mean_diff > 0 else "worse"


def verdict(
    label: str,
    reference: str,
    metric: str,
    *,
    significant: bool,
    mean_diff: float,
    diff: float,
    ci_low: float,
    ci_high: float,
    p_holm: float,
    wins: int,
    ties: int,
    losses: int,
    unit: str,
    diff_kind: str = "median difference",
    test: str = "Wilcoxon-Holm",
    p_better: float = math.nan,
    p_rope: float = math.nan,
    p_worse: float = math.nan,
) -> str:
    """One plain sentence on a setting against the reference, by the rules of the module.

    Examples
    --------
    >>> verdict("Gini, balanced", "Shannon", "G-mean", significant=True, mean_diff=0.07,
    ...     diff=0.027, ci_low=0.002, ci_high=0.048, p_holm=0.0048, wins=27, ties=4, losses=10,
    ...     unit="data sets", p_better=0.9997, p_rope=0.0001, p_worse=0.0002)
    'Gini, balanced: better than Shannon in G-mean (median difference +0.027, 95 % CI +0.002 to +0.048; wins/ties/losses 27/4/10 over the data sets; Wilcoxon-Holm p = 0.005).'
    >>> verdict("Gini", "Shannon", "AUC", significant=False, mean_diff=-0.001, diff=0.0,
    ...     ci_low=-0.002, ci_high=0.0, p_holm=0.7, wins=12, ties=6, losses=23,
    ...     unit="data sets", p_better=0.0, p_rope=1.0, p_worse=0.0)
    'Gini: no difference shown from Shannon in AUC, practically equivalent (P = 1.00 within ±0.01) (median difference +0.000, 95 % CI -0.002 to +0.000; wins/ties/losses 12/6/23 over the data sets; Wilcoxon-Holm p = 0.700).'
    """
    word = direction(significant, mean_diff)
    if word == "no difference shown":
        head = f"{label}: no difference shown from {reference} in {metric}"
        if math.isfinite(p_rope) and p_rope >= SURE:
            head += f", practically equivalent (P = {p_rope:.2f} within ±0.01)"
        elif math.isfinite(p_better) and p_better >= SURE:
            head += f"; the Bayesian test leans better (P = {p_better:.2f}), unconfirmed"
        elif math.isfinite(p_worse) and p_worse >= SURE:
            head += f"; the Bayesian test leans worse (P = {p_worse:.2f}), unconfirmed"
    else:
        head = f"{label}: {word} than {reference} in {metric}"
    return (
        f"{head} ({diff_kind} {diff:+.3f}, 95 % CI {ci_low:+.3f} to {ci_high:+.3f}; "
        f"wins/ties/losses {int(wins)}/{int(ties)}/{int(losses)} over the {unit}; "
        f"{test} {p_text(p_holm)})."
    )


def family_sentence(what: str, rows, reference: str = "Shannon") -> str:
    """One sentence for a family: the settings shown better, those shown worse, the rest.

    ``rows``: an iterable of mappings with ``label``, ``significant``, ``mean_diff`` and
    ``median_diff`` (the ``ranks`` table of :func:`offcenter.studies.keel.analysis.rank_tests`,
    reference excluded), and optionally ``p_holm_all``: the p-value Holm-adjusted over every
    comparison of the summary, shown beside each call. The effect quoted is the mean
    difference over the data sets.

    Examples
    --------
    >>> rows = [{"label": "A", "significant": True, "mean_diff": 0.036, "median_diff": 0.016},
    ...         {"label": "B", "significant": False, "mean_diff": 0.01, "median_diff": 0.0},
    ...         {"label": "C", "significant": True, "mean_diff": -0.08, "median_diff": -0.02}]
    >>> family_sentence("Depth-5 trees, G-mean", rows)
    'Depth-5 trees, G-mean: better than Shannon: A (+0.036); worse: C (-0.080); the other 1 setting(s) not shown to differ.'
    >>> family_sentence("X", rows[1:2])
    'X: no setting shown to differ from Shannon (Wilcoxon-Holm, 5 %).'
    """
    rows = [dict(r) for r in rows]
    better = [r for r in rows if direction(bool(r["significant"]), r["mean_diff"]) == "better"]
    worse = [r for r in rows if direction(bool(r["significant"]), r["mean_diff"]) == "worse"]
    rest = len(rows) - len(better) - len(worse)
    if not better and not worse:
        return f"{what}: no setting shown to differ from {reference} (Wilcoxon-Holm, 5 %)."

    def one(r) -> str:
        wide = r.get("p_holm_all")
        if wide is None or not math.isfinite(wide):
            return f"{r['label']} ({r['mean_diff']:+.3f})"
        return f"{r['label']} ({r['mean_diff']:+.3f}; Holm over all: {p_text(wide)})"

    def names(rs):
        return ", ".join(one(r) for r in rs)

    parts = []
    if better:
        parts.append(f"better than {reference}: {names(better)}")
    if worse:
        parts.append(("worse: " if better else f"worse than {reference}: ") + names(worse))
    text = f"{what}: " + "; ".join(parts)
    if rest:
        text += f"; the other {rest} setting(s) not shown to differ"
    return text + "."


def paired_sentences(paired, reference: str, metric_names: dict, alpha: float = 0.05) -> list:
    """The sentences of a user's own run: :func:`verdict` for each (setting, metric) row.

    ``paired``: :meth:`offcenter.evaluation.runner.EvaluationResult.paired` (fold-wise, one data
    set). The decision is the Holm-adjusted corrected t-test (``t_p_holm``), the effect the
    mean difference over the folds with its corrected-t 95 % CI, the Bayesian test the
    correlated t-test: the same rules as the study, on one data set's folds.
    """
    out = []
    for r in paired.to_dict("records"):
        p = r.get("t_p_holm", math.nan)
        out.append(
            verdict(
                str(r["label"]),
                reference,
                metric_names.get(r["metric"], r["metric"]),
                significant=bool(math.isfinite(p) and p < alpha),
                mean_diff=r["mean_diff"],
                diff=r["mean_diff"],
                ci_low=r.get("ci_low", math.nan),
                ci_high=r.get("ci_high", math.nan),
                p_holm=p,
                wins=r["wins"],
                ties=r["ties"],
                losses=r["losses"],
                unit="folds",
                diff_kind="mean difference",
                test="corrected t, Holm",
                p_better=r.get("p_better", math.nan),
                p_rope=r.get("p_rope", math.nan),
                p_worse=r.get("p_worse", math.nan),
            )
        )
    return out
