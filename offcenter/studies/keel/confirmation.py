"""The pre-registered confirmation of the imbalanced study on new KEEL data sets.

Protocol, not a reusable piece: the declared tests, their decision rule and their wording.

docs/imbalanced_study.md (*Pre-registered confirmation*) declares, before any fit on the 58 sets
of ``data/keel_confirmation``, 22 tests and their decision rule; this module computes exactly
those from the per-fold results of the two declared runs (:data:`CONFIRMATION_TESTS`), and
``scripts/confirmation_report.py`` writes them into the document (a test rebuilds them from the
committed results and compares).

Each test compares two cells (model, setting, leaf rule) on one metric: per data set the mean
over its folds (rounded to ``RANK_DECIMALS``), on the data sets where both cells are complete;
the two-sided Wilcoxon signed-rank test of the differences
(:func:`offcenter.evaluation.statistics.wilcoxon_signed_rank`) **Holm-adjusted over all the
tests together**; beside it the mean difference with its BCa bootstrap 95 % CI
(:func:`offcenter.evaluation.statistics.mean_difference_ci`), wins/ties/losses and the
Bayesian signed-rank probabilities (ROPE 0.01).

The outcome follows the declared rule: a directional prediction (``"better"``/``"worse"``) is
*confirmed* when Holm p < 0.05 with the predicted sign, *reversed* with the other sign, *not
confirmed* otherwise; a ``"same"`` prediction is *refuted* when Holm p < 0.05, *consistent*
otherwise, and *equivalent within +-0.01* only when P(equivalent) >= 0.95.

The amendment of 2026-11-27 07:10 UTC (declared before the forest run was continued): the four
forest tests (:data:`FOREST_TESTS`) use only the data sets whose six forest groups
(:data:`FOREST_GROUPS`) are all complete, the same data sets for the four, and are called only
on at least :data:`MIN_FOREST_SETS` of them; on fewer their outcome is *not reached*. Holm stays
over all the tests computed.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from offcenter.evaluation.statistics import (
    RANK_DECIMALS,
    bayesian_signed_rank,
    holm,
    mean_difference_ci,
    wilcoxon_signed_rank,
    wins_ties_losses,
)
from offcenter.evaluation.wording import fmt_p
from offcenter.studies.keel.analysis import study_means
from offcenter.studies.keel.protocol import ANCHOR, WEIGHTED_FOREST

ALPHA = 0.05
#: P(equivalent) needed to call a "same" prediction equivalent within the ROPE.
EQUIVALENCE = 0.95

_PRIMARY = (
    ("gini", "Gini"),
    ("dkm", "DKM (= HDDT)"),
    ("shannon_balanced", "Shannon, balanced classes"),
    ("gini_balanced", "Gini, balanced classes"),
    ("oc_shannon", "off-centered Shannon"),
    ("oc_gini", "off-centered Gini"),
    ("oc_daroczy_b0.5", "off-centered Daroczy (beta = 0.5)"),
    ("asymmetric", "asymmetric"),
    ("asymmetric_consistent", "consistent asymmetric"),
    ("sklearn_balanced", "scikit-learn CART, balanced classes"),
)
_HARM = _PRIMARY[4:9]

#: The 22 declared tests: (id, what, prediction, metric, cell a, cell b); b is compared with a
#: (b - a), each cell a (model, setting, leaf rule).
CONFIRMATION_TESTS: tuple = (
    *(
        (
            f"P{i}",
            f"depth-5 trees, ROC AUC: {name} vs Shannon",
            "same",
            "auc",
            ("tree", "shannon", "majority"),
            ("tree", key, "majority"),
        )
        for i, (key, name) in enumerate(_PRIMARY, 1)
    ),
    (
        "C1",
        "class weights, depth-5 trees, G-mean, majority rule",
        "better",
        "gmean",
        ("tree", "shannon", "majority"),
        ("tree", "shannon_balanced", "majority"),
    ),
    (
        "C2",
        "prior-aware vs majority leaf rule, Shannon's depth-5 trees, G-mean",
        "better",
        "gmean",
        ("tree", "shannon", "majority"),
        ("tree", "shannon", "prior"),
    ),
    (
        "C3",
        "class-balanced vs stratified bootstrap, Shannon forests, G-mean",
        "better",
        "gmean",
        ("forest", "shannon", "majority"),
        ("balanced_forest", "shannon", "majority"),
    ),
    (
        "C4",
        "sampling vs criterion, G-mean (balanced bootstrap vs split-weighted forest)",
        "better",
        "gmean",
        ("forest", WEIGHTED_FOREST, "majority"),
        ("balanced_forest", "shannon", "majority"),
    ),
    *(
        (
            f"H{i}",
            f"depth-5 trees, G-mean, majority rule: {name} vs Shannon",
            "worse",
            "gmean",
            ("tree", "shannon", "majority"),
            ("tree", key, "majority"),
        )
        for i, (key, name) in enumerate(_HARM, 1)
    ),
    (
        "N1",
        "sampling vs criterion, ROC AUC",
        "same",
        "auc",
        ("forest", WEIGHTED_FOREST, "majority"),
        ("balanced_forest", "shannon", "majority"),
    ),
    (
        "N2",
        "HDDT vs Shannon (C4.4), unpruned Laplace trees, ROC AUC",
        "same",
        "auc",
        ("laplace", "shannon", "majority"),
        ("laplace", "hellinger", "majority"),
    ),
    (
        "N3",
        "prior-aware vs majority vote, Shannon forests, G-mean",
        "same",
        "gmean",
        ("forest", "shannon", "majority"),
        ("forest", "shannon", "prior"),
    ),
)


#: The groups (model, setting) of the forest run; a data set counts for the forest tests when
#: all six are complete (the amendment).
FOREST_GROUPS = tuple(
    (model, setting)
    for model in ("forest", "balanced_forest")
    for setting in ("shannon", ANCHOR, WEIGHTED_FOREST)
)
#: The tests on the forest run's cells.
FOREST_TESTS = ("C3", "C4", "N1", "N3")
#: Data sets needed before a forest test is called (the amendment).
MIN_FOREST_SETS = 15


def forest_complete_sets(folds: pd.DataFrame) -> list[str]:
    """The data sets whose six forest groups (:data:`FOREST_GROUPS`) are all complete: every
    (repeat, fold) of the protocol under both leaf rules, without an error (sorted)."""
    if folds.empty or "repeat" not in folds:
        return []
    n_cells = folds[["repeat", "fold"]].drop_duplicates().shape[0] * folds["leaf_rule"].nunique()
    ok = folds[
        (folds["error"].fillna("") == "") & folds["model"].isin(["forest", "balanced_forest"])
    ]
    sizes = ok.groupby(["data", "model", "setting"]).size()
    done = {k for k, v in sizes.items() if v == n_cells}
    names = sorted(set(ok["data"]))
    return [d for d in names if all((d, m, s) in done for m, s in FOREST_GROUPS)]


def _cell(folds: pd.DataFrame, metric: str, cell: tuple) -> pd.Series | None:
    model, setting, rule = cell
    if folds.empty or model not in set(folds["model"].unique()):
        return None
    means = study_means(folds, metric, model, rule, distinct=False)
    if setting not in means:
        return None
    return means[setting].round(RANK_DECIMALS)


def outcome(prediction: str, p_holm: float, mean_diff: float, p_rope: float) -> str:
    """The declared decision rule's word for one test.

    >>> outcome("better", 0.01, 0.05, 0.0), outcome("better", 0.01, -0.05, 0.0)
    ('confirmed', 'reversed')
    >>> outcome("same", 0.2, 0.001, 0.97), outcome("same", 0.2, 0.001, 0.5)
    ('equivalent within +-0.01', 'consistent (not shown to differ)')
    >>> outcome("same", 0.01, 0.03, 0.0), outcome("worse", 0.3, -0.05, 0.0)
    ('refuted', 'not confirmed')
    """
    if not np.isfinite(p_holm):
        return "not computed"
    significant = p_holm < ALPHA
    if prediction == "same":
        if significant:
            return "refuted"
        if np.isfinite(p_rope) and p_rope >= EQUIVALENCE:
            return "equivalent within +-0.01"
        return "consistent (not shown to differ)"
    if not significant:
        return "not confirmed"
    wanted = 1 if prediction == "better" else -1
    return "confirmed" if np.sign(mean_diff) == wanted else "reversed"


def confirmation_tests(folds: pd.DataFrame, tests=CONFIRMATION_TESTS) -> pd.DataFrame:
    """The declared tests on the per-fold results ``folds`` (the two runs concatenated).

    One row per test: ``id``, ``what``, ``prediction``, ``metric``, ``n`` (data sets with both
    cells complete), ``a`` and ``b`` (the means over them), ``mean_diff`` with ``ci_low`` and
    ``ci_high``, ``wins``/``ties``/``losses`` of b, ``p`` (Wilcoxon), ``p_holm`` (over all the
    tests computed), ``p_better``/``p_rope``/``p_worse`` (b against a) and ``outcome``. A test
    whose cells are not in ``folds`` has ``n`` = 0 and is left out of the Holm adjustment.
    """
    rows = []
    forest_sets = forest_complete_sets(folds)
    for tid, what, prediction, metric, a, b in tests:
        ca, cb = _cell(folds, metric, a), _cell(folds, metric, b)
        if tid in FOREST_TESTS and ca is not None and cb is not None:  # the amendment
            ca, cb = ca[ca.index.isin(forest_sets)], cb[cb.index.isin(forest_sets)]
        row = {"id": tid, "what": what, "prediction": prediction, "metric": metric, "n": 0}
        if ca is not None and cb is not None:
            both = pd.concat([ca, cb], axis=1, keys=["a", "b"]).dropna()
            d = (both["b"] - both["a"]).to_numpy()
            if d.size >= 2:
                w, t, lo = wins_ties_losses(d, np.zeros_like(d))
                m, ci_lo, ci_hi = mean_difference_ci(d)
                better, rope, worse = bayesian_signed_rank(both["b"], both["a"])
                row.update(
                    n=int(d.size),
                    a=float(both["a"].mean()),
                    b=float(both["b"].mean()),
                    mean_diff=m,
                    ci_low=ci_lo,
                    ci_high=ci_hi,
                    wins=w,
                    ties=t,
                    losses=lo,
                    p=wilcoxon_signed_rank(d).pvalue,
                    p_better=better,
                    p_rope=rope,
                    p_worse=worse,
                )
        rows.append(row)
    out = pd.DataFrame(rows)
    for col in ("a", "b", "mean_diff", "ci_low", "ci_high", "p", "p_better", "p_rope", "p_worse"):
        if col not in out:
            out[col] = np.nan
    done = out["n"] > 0
    out["p_holm"] = np.nan
    if done.any():
        out.loc[done, "p_holm"] = holm(out.loc[done, "p"].to_numpy())
    out["outcome"] = [
        "not reached"
        if r.id in FOREST_TESTS and 0 < r.n < MIN_FOREST_SETS
        else outcome(r.prediction, r.p_holm, r.mean_diff, r.p_rope)
        for r in out.itertuples()
    ]
    return out


def confirmation_lines(folds: pd.DataFrame, n_sets: int | None = None) -> list[str]:
    """The outcome of the confirmation as Markdown: a summary sentence and the table of tests.

    ``n_sets``: the number of data sets declared (to say how many each test could use).
    """
    t = confirmation_tests(folds)
    done = t[t["n"] > 0]
    counts = done["outcome"].value_counts()
    declared = f" of the {n_sets} declared" if n_sets else ""
    lines = [
        f"Computed from the committed results of the two runs by "
        f"`offcenter.studies.keel.confirmation.confirmation_lines`: {len(done)} of the "
        f"{len(t)} tests could be computed, on {int(done['n'].min()) if len(done) else 0} to "
        f"{int(done['n'].max()) if len(done) else 0} data sets{declared}; Holm over the "
        f"{len(done)} computed. The forest tests ({', '.join(FOREST_TESTS)}) on the "
        f"{len(forest_complete_sets(folds))} data sets whose six forest groups are complete "
        f"(the amendment: called from {MIN_FOREST_SETS} on, otherwise *not reached*). Outcomes: "
        + ", ".join(f"{k} {v}" for k, v in counts.items())
        + ".",
        "",
        "| test | prediction | data sets | a -> b | mean diff [95 % CI] | W/T/L | Wilcoxon p | "
        "Holm p | P(better / equiv. / worse) | outcome |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in t.itertuples():
        name = f"{r.id}: {r.what}"
        if r.n == 0:
            lines.append(f"| {name} | {r.prediction} | 0 | | | | | | | not computed |")
            continue
        lines.append(
            f"| {name} | {r.prediction} | {r.n} | {r.a:.3f} -> {r.b:.3f} | "
            f"{r.mean_diff:+.3f} [{r.ci_low:+.3f}, {r.ci_high:+.3f}] | "
            f"{int(r.wins)}/{int(r.ties)}/{int(r.losses)} | {fmt_p(r.p)} | {fmt_p(r.p_holm)} | "
            f"{r.p_better:.2f} / {r.p_rope:.2f} / {r.p_worse:.2f} | **{r.outcome}** |"
        )
    return lines
