"""Compare measures: cross-validated trees (or forests) grown with several measures on one data set.

Widgets and layout only: the cross-validation is offcenter.evaluation.runner (CrossValidation), the
figures offcenter.viz.evaluation, files offcenter.data.csv_io and the bundled sets
offcenter.data.datasets. User text (file and column names, class labels) is shown only through
st.text, offcenter.app.tables.show_table (st.dataframe, or an escaped st.table in presentation
mode) or widget labels, never as Markdown or HTML.

Running and cancelling: a run is a CrossValidation kept in the session, computed fold by fold with
st.progress updated after every fit. Clicking Cancel makes Streamlit stop the running script at
its next progress update and rerun it; the rerun sees the click and marks the run cancelled,
keeping the folds already finished (shown as partial results). Leaving the page and coming back
resumes an unfinished run; finished results are kept in a store shared by reruns, page switches
and sessions, keyed by the data's hash and every setting, so they are not recomputed.
"""

import hashlib
import json

import pandas as pd
import streamlit as st

from offcenter.app import compare_page, heavy_work, node_settings, urlstate
from offcenter.app.charts import chart_config
from offcenter.app.compare_page import DATA_DEFAULT, MODELS, PREFIX, SETTINGS
from offcenter.app.data_picker import pick_data, pick_target
from offcenter.app.downloads import csv_button
from offcenter.app.navigation import ensure_router
from offcenter.app.presentation import is_narrow, is_on, viewport
from offcenter.app.result_store import shared_result_store
from offcenter.app.study_view import render_short_answer, render_study
from offcenter.app.tables import show_table
from offcenter.data.csv_io import DataProblem, left_out_columns, prepare_xy
from offcenter.evaluation.runner import METRICS, CrossValidation
from offcenter.evaluation.wording import paired_sentences
from offcenter.tree.params import depth_limit
from offcenter.viz.evaluation import (
    difference_figure,
    metric_figure,
    roc_figure,
    summary_frame,
)

ensure_router()  # a first visit straight to this page still goes through app.py
st.set_page_config(page_title="Compare measures - offcenter", layout="wide")

page = compare_page.ComparePageState()  # the page's session state, named


def _stop() -> None:
    """``st.stop()``, after mounting the window-size reporter that navigation.run mounts after
    a page that runs to its end: without it a phone opening this page (which stops until Run
    is pressed) was never known as narrow, and got presentation sizes and grids."""
    viewport()
    st.stop()


# The one precedence of every page (urlstate.restore): a link rules when the page opens, else
# the values the user left (Streamlit forgets the keys of widgets not drawn); then the widgets.
url_warnings = page.open()  # and the Tree page's leaf rule, without a link
store = shared_result_store()  # finished results of every session, by data and settings


# ------------------------------------------------------------------------------ page
st.title("Compare measures: does off-centering help on imbalanced data?")
for w in urlstate.for_display(url_warnings):
    st.warning(w)
render_short_answer()
with st.expander(
    "Explore the benchmark: any model, metric and leaf rule (computed once, not rerun)"
):
    render_study()

st.header("Run it on your own data")
st.write(
    "Trees grown with each measure on the same folds of a repeated stratified cross-validation, "
    "with the same stopping rules, scored on metrics that matter when one class is rare: "
    "balanced accuracy, recall, precision and F1 of the minority class, and the area under the "
    "ROC curve. Each measure is compared with Shannon's entropy fold by fold, worded by the "
    "same rules as the study above."
)

# ---------------------------------------------------------------- data
st.header("1. Data")
picked = pick_data(PREFIX, DATA_DEFAULT)
raw, data_hash, data_name = picked.raw, picked.data_hash, picked.name
columns = list(raw.columns)
target = pick_target(PREFIX, picked, columns)
ids = left_out_columns(raw)  # identifiers and constant columns
features = [c for c in columns if c != target and c not in ids] or [
    c for c in columns if c != target
]
if ids:
    st.caption("Left out of the features (identifiers, constant columns):")
    show_table(pd.DataFrame({"column": [str(c) for c in ids], "reason": list(ids.values())}))
try:
    X, y, prep_warnings = prepare_xy(raw, target, features)
except DataProblem as exc:
    st.error(str(exc))
    _stop()
for w in prep_warnings:
    st.warning(w)
counts = y.value_counts()
show_table(
    pd.DataFrame(
        {
            "class": [str(c) for c in counts.index],
            "examples": counts.to_numpy(),
            "share": (counts / counts.sum()).round(3).to_numpy(),
        }
    )
)
st.caption(
    f"{len(X):,} rows, {X.shape[1]} features. The minority class (the least frequent) "
    "is the one whose recall, precision, F1 and ROC curve are reported."
)

# ---------------------------------------------------------------- settings
st.header("2. Measures and protocol")
chosen = st.multiselect(
    "Measure settings (off-centered ones use the training fold's class distribution as theta)",
    list(SETTINGS),
    format_func=lambda k: SETTINGS[k].label,
    key=PREFIX + "settings",
)
c1, c2, c3, c4 = st.columns(4)
folds = c1.number_input("Folds (k)", 2, 10, step=1, key=PREFIX + "folds")
repeats = c2.number_input(
    "Repeats",
    1,
    10,
    step=1,
    key=PREFIX + "repeats",
    help="The k-fold split is repeated with different shuffles.",
)
seed = c3.number_input("Seed", 0, 1_000_000, step=1, key=PREFIX + "seed")
max_depth = c4.number_input("Maximum depth (0 = none)", 0, 20, step=1, key=PREFIX + "max_depth")
c5, c6, c7 = st.columns([1, 2, 2])
min_leaf = c5.number_input("Minimum examples per leaf", 1, 1000, step=1, key=PREFIX + "min_leaf")
leaf_rule = node_settings.pick_leaf_rule(PREFIX, c6)  # the one leaf-rule widget
model = c7.radio(
    "Model",
    list(MODELS),
    format_func=MODELS.get,
    key=PREFIX + "model",
    help="A forest: bootstrap samples (stratified by class), a random subset of "
    "sqrt(#features) features at each node, majority vote.",
)
n_trees = page.trees
if model == "forest":
    n_trees = st.slider("Trees per forest", 2, 200, step=1, key=PREFIX + "trees")

page.save()
page.sync_out()

params = {
    "data": data_hash,
    "target": str(target),
    "features": [str(f) for f in features],
    "settings": list(chosen),
    "folds": int(folds),
    "repeats": int(repeats),
    "seed": int(seed),
    "max_depth": int(max_depth),
    "min_leaf": int(min_leaf),
    "leaf_rule": leaf_rule,
    "model": model,
    "trees": int(n_trees) if model == "forest" else None,
}
key = hashlib.sha1(json.dumps(params, sort_keys=True).encode()).hexdigest()[:16]
stem = compare_page.download_stem(
    picked.name if picked.source == "upload" else picked.source, params
)

b1, b2, b3 = st.columns([1, 1, 4])
run_clicked = b1.button("Run", type="primary", key="cm_run", disabled=not chosen)
cancel_clicked = b2.button(
    "Cancel", key="cm_cancel", help="Stop after the fit in progress; finished folds are kept."
)
if not chosen:
    st.info("Choose at least one measure setting.")

job = page.job
if cancel_clicked and job is not None and not job["cv"].done:
    job["cv"].cancel()
if run_clicked and chosen:
    if store.get(key) is None and (job is None or job["key"] != key or job["cv"].cancelled):
        try:
            cv = CrossValidation(
                X,
                y.to_numpy(dtype=object),
                chosen,
                n_splits=int(folds),
                n_repeats=int(repeats),
                seed=int(seed),
                model=model,
                leaf_rule=leaf_rule,
                tree_params={
                    "max_depth": depth_limit(max_depth),
                    "min_samples_leaf": int(min_leaf),
                },
                n_estimators=int(n_trees),
                data_name=data_name,
            )
        except ValueError as exc:
            st.error(str(exc))
            _stop()
        page.job = job = {"key": key, "cv": cv}

# ---------------------------------------------------------------- running
computed_now = False
if job is not None and job["key"] == key and not job["cv"].done:
    cv = job["cv"]
    n_fits = cv.n_steps * len(cv.settings)
    bar = st.progress(
        cv.fraction,
        text=f"Starting: {cv.n_steps} folds x {len(cv.settings)} settings = {n_fits} fits",
    )

    def show(fraction: float, message: str) -> None:
        bar.progress(
            min(1.0, fraction), text=f"{round(fraction * n_fits)}/{n_fits} fits. {message}"
        )

    # on many rows each fit runs in the worker pool (off the lecture's path)
    call = heavy_work.run if heavy_work.is_heavy_rows(len(cv.X)) else None
    try:
        while not cv.done:
            cv.run_step(progress=show, call=call)
    except heavy_work.Refused as exc:  # the folds done are kept; the run resumes at a rerun
        st.warning(exc.message + " The run resumes from the last whole fold at your next action.")
        _stop()
    computed_now = True
    if not cv.cancelled:
        store.put(key, cv.result())
        bar.progress(1.0, text=f"Done: {n_fits}/{n_fits} fits.")
elif job is not None and job["key"] != key and not job["cv"].done:
    st.info(
        f"A run for other settings is paused at {job['cv'].steps_done}/{job['cv'].n_steps} "
        "folds; it resumes if you set them back. Press Run to start these settings."
    )

# ---------------------------------------------------------------- results
result = store.get(key)
if result is None and job is not None and job["key"] == key and job["cv"].cancelled:
    result = job["cv"].result()
    st.warning(
        f"Cancelled after {job['cv'].steps_done} of {job['cv'].n_steps} folds: the results below "
        "are partial (complete folds only). Press Run to start again."
    )
elif result is not None and not computed_now:
    st.caption(
        "Results from the cache: computed earlier with these exact data and settings, "
        "nothing was recomputed."
    )

if result is None:
    st.info("Press Run to cross-validate the chosen measures.")
    _stop()

st.header("3. Results")
st.text(result.describe())
errors = result.folds.loc[result.folds["error"] != "", ["label", "repeat", "fold", "error"]]
if len(errors):
    st.warning(f"{len(errors)} fit(s) failed and are left out of the averages:")
    show_table(errors)
if len(result.folds) == 0:
    st.info("No fold was completed.")
    _stop()

st.subheader("Mean ± standard deviation over the folds")
show_table(summary_frame(result))

ref_label = result.labels().get(result.reference, result.reference)
st.subheader(f"Paired comparison with {ref_label}, fold by fold")
st.caption(
    "Difference = setting - reference (positive is better). W/T/L = folds where the setting "
    "wins, ties or loses. Folds of a repeated cross-validation share training examples, so they "
    "are not independent: the corrected resampled t-test of Nadeau and Bengio (2003) accounts "
    "for it, and its p-value is adjusted (Holm) for the number of settings compared. The "
    "Wilcoxon signed-rank p-value ignores the dependence and is too optimistic: shown for "
    "reference only. The 95 % CI is that of the mean difference under the same correction; "
    "P(better / equiv. / worse): the Bayesian correlated t-test (Corani and Benavoli 2015) with "
    "a region of practical equivalence of ±0.01."
)
paired = result.paired()
if len(paired):
    table = pd.DataFrame(
        {
            "setting": paired["label"],
            "metric": paired["metric"].map(METRICS),
            "mean difference": paired["mean_diff"].round(4),
            "W/T/L": [
                f"{w}/{t}/{lo}"
                for w, t, lo in zip(paired["wins"], paired["ties"], paired["losses"])
            ],
            "corrected t p": paired["t_p"].round(4),
            "Holm-adjusted p": paired["t_p_holm"].round(4),
            "95 % CI": [
                f"{a:+.4f} to {b:+.4f}" if pd.notna(a) else ""
                for a, b in zip(paired["ci_low"], paired["ci_high"])
            ],
            "P(better / equiv. / worse)": [
                f"{b:.2f} / {e:.2f} / {w:.2f}" if pd.notna(b) else ""
                for b, e, w in zip(paired["p_better"], paired["p_rope"], paired["p_worse"])
            ],
            "Wilcoxon p": paired["wilcoxon_p"].round(4),
        }
    )
    shown = st.multiselect(
        "Metrics in the table",
        list(METRICS),
        format_func=METRICS.get,
        default=["balanced_accuracy", "minority_recall", "auc"],
        key="cm_paired_metrics",
    )
    show_table(table[paired["metric"].isin(shown)])
    st.markdown("**In plain words** (the study's wording rules):")
    for sentence in paired_sentences(paired[paired["metric"].isin(shown)], ref_label, METRICS):
        st.markdown(f"- {sentence}")
else:
    st.caption("Choose at least two settings to see paired comparisons.")

st.subheader("Plots")
metric = st.selectbox("Metric", list(METRICS), format_func=METRICS.get, key=PREFIX + "metric")
present, narrow = is_on(), is_narrow()
# presentation mode: one figure under the other, each the width of the page (large type)
p1, p2 = (st.container(), st.container()) if present else st.columns(2)
with p1:
    st.plotly_chart(
        metric_figure(result, metric, presentation=present, narrow=narrow),
        key="cm_fig_metric",
        config=chart_config(f"{stem}_{metric}"),
    )
with p2:
    if len(result.settings) > 1:
        st.plotly_chart(
            difference_figure(result, metric, presentation=present, narrow=narrow),
            key="cm_fig_diff",
            config=chart_config(f"{stem}_{metric}_difference"),
        )
st.plotly_chart(
    roc_figure(result, presentation=present, narrow=narrow),
    key="cm_fig_roc",
    config=chart_config(f"{stem}_roc"),
)

st.subheader("Download")
d1, d2, d3 = st.columns(3)
d1.download_button(
    "Per-fold results (CSV)",
    result.to_csv().encode("utf-8"),
    file_name=f"{stem}_folds.csv",
    mime="text/csv",
    key="cm_dl_folds",
)
csv_button("Summary (CSV)", result.summary(), f"{stem}_summary.csv", "cm_dl_summary", container=d2)
csv_button("Paired comparisons (CSV)", paired, f"{stem}_paired.csv", "cm_dl_paired", container=d3)
