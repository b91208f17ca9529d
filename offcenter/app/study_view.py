"""The bundled KEEL benchmark on the Compare page: read from the committed per-fold CSV, never refit.

:func:`render_study` shows, for a model, a metric and a leaf rule chosen by the user, the average
ranks of the settings over the data sets with the Friedman / Iman-Davenport test and the
Holm-adjusted comparisons with Shannon, the critical-difference diagram and each setting's gain
over Shannon against the imbalance ratio. Everything is computed from
``docs/imbalanced_study_folds.csv.gz`` (and its ``.json``, for the imbalance ratios and the command)
by :mod:`offcenter.studies.keel`; the environment variable ``OFFCENTER_STUDY_CSV`` points
elsewhere (tests).
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path

import pandas as pd
import streamlit as st

from offcenter.app.charts import chart_config
from offcenter.app.presentation import is_narrow, is_on
from offcenter.app.tables import show_table
from offcenter.evaluation.benchmark import STUDY_METRICS, THRESHOLD_FREE, read_folds
from offcenter.evaluation.wording import fmt_p
from offcenter.studies.keel.analysis import gains, rank_tests
from offcenter.studies.keel.protocol import MODELS
from offcenter.studies.keel.summary import SHORT_ANSWER_FIGURE, short_answer
from offcenter.tree.params import LEAF_RULES
from offcenter.viz.study import cd_diagram, dataset_figure, effect_figure, gain_figure

STUDY_CSV = Path(__file__).resolve().parents[2] / "docs" / "imbalanced_study_folds.csv.gz"
PREFIX = "ks_"


def study_path() -> Path:
    return Path(os.environ.get("OFFCENTER_STUDY_CSV", STUDY_CSV))


@st.cache_data(show_spinner=False)
def _load(path: str, mtime: float) -> tuple[pd.DataFrame, dict]:
    folds = read_folds(path)
    meta_file = Path(path + ".json")
    meta = json.loads(meta_file.read_text(encoding="utf-8")) if meta_file.exists() else {}
    return folds, meta


@functools.lru_cache(maxsize=4)
def _overview(path: str, mtime: float) -> tuple[int, int, frozenset, dict]:
    """The study's number of data sets and of rows, its models and its metadata (a
    process-wide cache, as :func:`_short`: every run of the page reads them, and
    ``st.cache_data`` hands each call a copy of the 10^5 rows, unpickled)."""
    folds, meta = _load(path, mtime)
    return int(folds["data"].nunique()), len(folds), frozenset(folds["model"].unique()), meta


def _family_frame(ranks: pd.DataFrame, metric: str) -> pd.DataFrame:
    """A family's table as shown on the page (the columns of docs/imbalanced_study_tables.md)."""
    r = ranks
    out = pd.DataFrame(
        {
            "setting": r["label"],
            f"mean {STUDY_METRICS[metric]}": r["mean"].round(4),
            "mean diff": r["mean_diff"].round(4),
            "median diff": r["median_diff"].round(4),
            "95 % CI": [
                "" if pd.isna(a) else f"{a:+.4f} to {b:+.4f}"
                for a, b in zip(r["ci_low"], r["ci_high"])
            ],
            "W/T/L": [
                "" if pd.isna(w) else f"{int(w)}/{int(t)}/{int(lo)}"
                for w, t, lo in zip(r["wins"], r["ties"], r["losses"])
            ],
            "Wilcoxon-Holm p": [fmt_p(p) if pd.notna(p) else "" for p in r["p_holm"]],
            "decision": [
                "reference"
                if pd.isna(p)
                else ("better" if (sig and d > 0) else ("worse" if sig else "no difference shown"))
                for p, sig, d in zip(r["p_holm"], r["significant"], r["mean_diff"])
            ],
            "P(better / equiv. / worse)": [
                "" if pd.isna(b) else f"{b:.2f} / {e:.2f} / {w:.2f}"
                for b, e, w in zip(r["p_better"], r["p_rope"], r["p_worse"])
            ],
            "average rank": r["mean_rank"].round(2),
            "leaves": r["leaves"].round(1),
            "depth": r["depth"].round(1),
        }
    )
    return out


@functools.lru_cache(maxsize=4)
def _short(path: str, mtime: float):
    """The short answer's sentences and tables (a process-wide cache: the results are files
    that change only with their mtime, and every session reads the same)."""
    folds, meta = _load(path, mtime)
    items = short_answer(folds, bayes=False)
    model, metric = SHORT_ANSWER_FIGURE
    fig_ranks = {}
    if model in set(folds["model"]):
        for rule in LEAF_RULES:
            fig_ranks[rule] = rank_tests(folds, metric, model, rule, bayes=False)["ranks"]
    return items, fig_ranks, int(folds["data"].nunique())


@functools.lru_cache(maxsize=8)
def _answer_figure(path: str, mtime: float, present: bool, narrow: bool):
    """The short answer's figure (process-wide cache, as :func:`_figures`)."""
    _, fig_ranks, _ = _short(path, mtime)
    model, metric = SHORT_ANSWER_FIGURE
    name = STUDY_METRICS[metric]
    return effect_figure(
        {f"{rule} leaf rule": r for rule, r in fig_ranks.items()},
        name,
        f"{MODELS[model]}s: difference from Shannon in {name} (median over the data sets, 95 % CI)",
        presentation=present,
        narrow=narrow,
    )


def render_short_answer() -> None:
    """The study's short answer: plain sentences from the committed results and one figure.

    Every sentence is computed from the per-fold CSV by
    :func:`offcenter.studies.keel.summary.short_answer` (the decision rule's calls only), and each
    has its table in an expander right under it; so has the figure.
    """
    path = study_path()
    if not path.exists():
        st.info(
            "The benchmark's per-fold results are not bundled with this installation "
            f"({path.name} is missing). Run `python -m offcenter.evaluate study` from the "
            "repository to make them."
        )
        return
    items, fig_ranks, n_data = _short(str(path), path.stat().st_mtime)
    st.markdown(
        f"**The short answer, from {n_data} imbalanced KEEL data sets.** Each line is computed "
        "from the study's committed results by its decision rule: each setting against "
        "Shannon's entropy by the Wilcoxon signed-rank test on the per-data-set means, "
        "Holm-adjusted; *better* or *worse* only when that test says so (5 %), with the mean "
        "difference in brackets. The primary endpoint is stated first; the others are "
        "exploratory."
    )
    for item in items:
        st.markdown(f"- {item['sentence']}")
        with st.expander(f"Table: {item['sentence'].split(':')[0]}", expanded=False):
            show_table(_family_frame(item["ranks"], item["metric"]))
    if fig_ranks:
        model, metric = SHORT_ANSWER_FIGURE
        name = STUDY_METRICS[metric]
        fig = _answer_figure(str(path), path.stat().st_mtime, is_on(), is_narrow())
        st.plotly_chart(fig, key=PREFIX + "answer_fig", config=chart_config("study_answer"))
        st.caption(
            "Filled dot and ▲/▼: the decision rule calls the setting better/worse than Shannon; "
            "hollow: no difference shown. The bar is the bootstrap 95 % CI of the median "
            "difference over the data sets."
        )
        with st.expander("Tables of the figure", expanded=False):
            for rule, r in fig_ranks.items():
                st.caption(f"{MODELS[model]}, {name}, {rule} leaf rule")
                show_table(_family_frame(r, metric))


def render_study() -> None:
    """The study's ranks table, CD diagram and gain-vs-imbalance figure (no computation of fits)."""
    path = study_path()
    if not path.exists():
        st.info(
            "The benchmark's per-fold results are not bundled with this installation "
            f"({path.name} is missing). Run `python -m offcenter.evaluate study FOLDER` to make them."
        )
        return
    n_data, n_rows, present_models, meta = _overview(str(path), path.stat().st_mtime)
    wall = meta.get("wall_seconds")
    ratios = [r["imbalance_ratio"] for r in meta.get("data", []) if "imbalance_ratio" in r]
    span = f" (imbalance ratio {min(ratios):.1f} to {max(ratios):.0f})" if ratios else ""
    st.caption(
        f"{n_data} binary data sets of the KEEL imbalanced repository{span}, 5-fold "
        "stratified cross-validation x 3 repeats, the same folds for every "
        "setting; computed once by the command below and read here from the committed per-fold "
        f"CSV ({n_rows:,} rows), not recomputed"
        + (f" (the run took {wall / 60:.0f} min)." if wall else ".")
    )
    if meta.get("command"):
        st.code(meta["command"], language="bash")
    models = [m for m in MODELS if m in present_models]
    c1, c2, c3 = st.columns(3)
    model = c1.selectbox("Model", models, format_func=MODELS.get, key=PREFIX + "model")
    metric = c2.selectbox(
        "Metric", list(STUDY_METRICS), format_func=STUDY_METRICS.get, key=PREFIX + "metric"
    )
    rule = c3.radio(
        "Leaf rule",
        list(LEAF_RULES),
        key=PREFIX + "rule",
        horizontal=True,
        disabled=metric in THRESHOLD_FREE,
        help="AUC and average precision use the scores, the same under both rules.",
    )
    res = _tests(str(path), path.stat().st_mtime, model, metric, rule)
    fr = res["friedman"]
    show_table(_family_frame(res["ranks"], metric))
    st.caption(
        f"Friedman chi2 = {fr.chi2:.2f} (p = {fr.chi2_pvalue:.3g}); Iman-Davenport F = "
        f"{fr.f:.2f} (p = {fr.f_pvalue:.3g}) on {fr.n} data sets and {fr.k} settings "
        "(DKM and HDDT counted once: the same trees for two classes). Decision: Wilcoxon "
        "signed-rank on the per-data-set means against Shannon, Holm-adjusted; effect: median "
        "difference with a bootstrap 95 % CI, wins/ties/losses over the data sets; Bayesian "
        "signed-rank test with a ROPE of ±0.01. Nemenyi's critical difference (5 %, the "
        f"diagram's bars) = {res['cd']:.2f}."
        + (
            f" Left out (a setting undefined there): {', '.join(res['dropped'])}."
            if res["dropped"]
            else ""
        )
    )
    stub = f"study_{model}_{metric}_{rule}"
    cd_fig, gain_fig, data_fig = _figures(
        str(path), path.stat().st_mtime, model, metric, rule, is_on(), is_narrow()
    )
    st.plotly_chart(cd_fig, key=PREFIX + "cd", config=chart_config(stub + "_cd"))
    st.plotly_chart(gain_fig, key=PREFIX + "gain", config=chart_config(stub + "_gain"))
    st.plotly_chart(data_fig, key=PREFIX + "datasets", config=chart_config(stub + "_datasets"))


@functools.lru_cache(maxsize=64)
def _figures(
    path: str, mtime: float, model: str, metric: str, rule: str, present: bool, narrow: bool
) -> tuple:
    """One family's CD diagram, gain-vs-imbalance figure and data-set figure (process-wide
    cache, as :func:`_tests`: drawing them was most of a Compare rerun, and ``st.plotly_chart``
    only reads a figure, so every session shares them)."""
    folds, meta = _load(path, mtime)
    res = _tests(path, mtime, model, metric, rule)
    name = STUDY_METRICS[metric] + ("" if metric in THRESHOLD_FREE else f", {rule} rule")
    cd_fig = cd_diagram(
        res["ranks"],
        res["cd"],
        f"{MODELS[model]}: {name}",
        n_data=res["friedman"].n,
        presentation=present,
        narrow=narrow,
    )
    ir = {r["data"]: r["imbalance_ratio"] for r in meta.get("data", [])}
    if not ir:  # from the folds: positives over the test folds of one repeat
        one = folds[(folds["repeat"] == 0)].drop_duplicates(["data", "fold"])
        pos = one.groupby("data")["n_test_positive"].sum()
        n = one.groupby("data")["n_test"].sum()
        ir = ((n - pos) / pos).to_dict()
    g = gains(folds, metric, model, rule, imbalance=ir)
    gain_fig = gain_figure(
        g,
        name,
        "Gain over Shannon on each data set against its imbalance ratio",
        presentation=present,
        narrow=narrow,
    )
    data_fig = dataset_figure(g, name, "Which data sets drive the result", presentation=present)
    return cd_fig, gain_fig, data_fig


@functools.lru_cache(maxsize=64)
def _tests(path: str, mtime: float, model: str, metric: str, rule: str) -> dict:
    """One family's tests (process-wide cache, as :func:`_short`)."""
    folds, _ = _load(path, mtime)
    return rank_tests(folds, metric, model, rule)
