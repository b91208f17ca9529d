"""The bundled KEEL benchmark on the Compare page: read from the committed per-fold CSV, never refit.

:func:`render_study` shows, for a model, a metric and a leaf rule chosen by the user, the average
ranks of the settings over the data sets with the Friedman / Iman-Davenport test and the
Holm-adjusted comparisons with Shannon, the critical-difference diagram and each setting's gain
over Shannon against the imbalance ratio. Everything is computed from
``docs/imbalanced_study_folds.csv.gz`` (and its ``.json``, for the imbalance ratios and the command)
by :mod:`offcenter.evaluation.study`; the environment variable ``OFFCENTER_STUDY_CSV`` points
elsewhere (tests).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pandas as pd
import streamlit as st

from offcenter.evaluation.study import (
    LEAF_RULES,
    MODELS,
    STUDY_METRICS,
    THRESHOLD_FREE,
    gains,
    rank_tests,
    read_folds,
)
from offcenter.viz.study import cd_diagram, gain_figure

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


def render_study() -> None:
    """The study's ranks table, CD diagram and gain-vs-imbalance figure (no computation of fits)."""
    path = study_path()
    if not path.exists():
        st.info(
            "The benchmark's per-fold results are not bundled with this installation "
            f"({path.name} is missing). Run `python -m offcenter.evaluate study FOLDER` to make them."
        )
        return
    folds, meta = _load(str(path), path.stat().st_mtime)
    n_data = folds["data"].nunique()
    wall = meta.get("wall_seconds")
    st.caption(
        f"{n_data} binary data sets of the KEEL imbalanced repository (imbalance ratio "
        "1.8 to 129), 5-fold stratified cross-validation x 3 repeats, the same folds for every "
        "setting; computed once by the command below and read here from the committed per-fold "
        f"CSV ({len(folds):,} rows), not recomputed"
        + (f" (the run took {wall / 60:.0f} min)." if wall else ".")
    )
    if meta.get("command"):
        st.code(meta["command"], language="bash")
    models = [m for m in MODELS if m in set(folds["model"])]
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
    res = rank_tests(folds, metric, model, rule)
    fr = res["friedman"]
    ranks = res["ranks"]
    table = pd.DataFrame(
        {
            "setting": ranks["label"],
            "average rank": ranks["mean_rank"],
            f"mean {STUDY_METRICS[metric]}": ranks["mean"],
            "Holm p vs Shannon": ranks["p_holm"],
        }
    ).sort_values("average rank", kind="mergesort")
    st.dataframe(table.round(4), hide_index=True, width="stretch")
    st.caption(
        f"Friedman chi2 = {fr.chi2:.2f} (p = {fr.chi2_pvalue:.3g}); Iman-Davenport F = "
        f"{fr.f:.2f} (p = {fr.f_pvalue:.3g}) on {fr.n} data sets and {fr.k} settings; "
        f"Nemenyi's critical difference (5 %) = {res['cd']:.2f}. Rank 1 = best. Holm p: "
        "each setting's average rank against Shannon's (z-test, Demsar 2006), adjusted."
        + (
            f" Left out (a setting undefined there): {', '.join(res['dropped'])}."
            if res["dropped"]
            else ""
        )
    )
    name = STUDY_METRICS[metric] + ("" if metric in THRESHOLD_FREE else f", {rule} rule")
    st.plotly_chart(
        cd_diagram(res["ranks"], res["cd"], f"{MODELS[model]}: {name}", n_data=fr.n),
        key=PREFIX + "cd",
    )
    ir = {r["data"]: r["imbalance_ratio"] for r in meta.get("data", [])}
    if not ir:  # from the folds: positives over the test folds of one repeat
        one = folds[(folds["repeat"] == 0)].drop_duplicates(["data", "fold"])
        pos = one.groupby("data")["n_test_positive"].sum()
        n = one.groupby("data")["n_test"].sum()
        ir = ((n - pos) / pos).to_dict()
    g = gains(folds, metric, model, rule, imbalance=ir)
    st.plotly_chart(
        gain_figure(g, name, "Gain over Shannon on each data set against its imbalance ratio"),
        key=PREFIX + "gain",
    )
