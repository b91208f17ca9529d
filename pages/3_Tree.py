"""Tree: upload a data set, grow a tree, inspect every node's splits under every measure.

Widgets and layout only. The page's URL schema, parameter building, caches, sizes and file
names are offcenter.app.tree_page; state across pages is offcenter.app.urlstate.restore (a
link rules when the page opens, else the values the user left); reading files is
offcenter.data.csv_io, the tree offcenter.TreeClassifier, the figures offcenter.viz.tree,
the tables and worked calculations offcenter.viz.comparison / offcenter.viz.explain. User text
is only shown through st.dataframe / st.text / st.code or escaped with explain.md_escape.
"""

import json
from contextlib import nullcontext

import numpy as np
import pandas as pd
import streamlit as st
from streamlit.errors import StreamlitInvalidLayoutContextError
from streamlit.runtime.scriptrunner import get_script_run_ctx

from offcenter.app import (
    heavy_work,
    node_settings,
    presentation,
    tree_chart,
    tree_click,
    tree_page,
    tree_restore,
    tree_view,
    urlstate,
)
from offcenter.app.data_picker import keep, pick_data, pick_target, remember
from offcenter.app.downloads import csv_button
from offcenter.app.navigation import ensure_router
from offcenter.app.prefetch import prefetch
from offcenter.app.row_trace import trace_section
from offcenter.app.tables import show_table
from offcenter.app.tree_page import PREFIX, SCHEMA, SCORES, cached_fit, cached_profile, cached_xy
from offcenter.app.tree_session import ForcedSplit, Grow, MakeLeaf
from offcenter.app.tree_steps import show_step_verdict, step_controls
from offcenter.app.two_trees import compare_two_trees
from offcenter.data.csv_io import DataProblem, infer_kinds, quick_sample_size, too_large
from offcenter.data.datasets import DEFAULT
from offcenter.tree.categorical import heuristic_message
from offcenter.viz.comparison import tree_title
from offcenter.viz.explain import md_escape
from offcenter.viz.tree_image import FORMATS, tree_image

ensure_router()  # a first visit straight to this page still goes through app.py
st.set_page_config(page_title="Tree - offcenter", layout="wide")

page = tree_page.TreePageState()  # the page's session state (keys tr_*), named
node_settings.upgrade_link(st.query_params)  # measure=..&theta=.. of older links
# a link rules when the page opens, else the values left (urlstate.restore); when it opens,
# the link's (or the saved) view applies once (page.take_view_pending); the tree session
url_warnings = page.open()
url_warnings += tree_restore.start(SCHEMA, PREFIX)  # a link's edits, a session file opened
present = presentation.is_on()
phone = presentation.is_narrow()  # the window's width (before its report: the User-Agent)
size = tree_page.view_size(present, phone)  # a link's present=1 does not apply on a phone
lecture = tree_view.lecture_view(size)  # presentation mode, wide: the page opens on the tree
if lecture:
    size = tree_view.lecture_size(size)
    st.markdown(tree_view.LECTURE_CSS, unsafe_allow_html=True)  # our own CSS, no user text
    lecture_box = st.container()  # the tree, first (filled by tree_and_node below)


def write_link() -> None:
    """Keep the page's values (across pages) and write them to the address."""
    page.save()
    page.sync_out()


# ------------------------------------------------------------------------------ page
st.title("Tree: grow it, then inspect every split under every measure")
st.write(
    "Pick a data set or upload a CSV, choose the target and the measure, and grow a decision "
    "tree. Click a node to see its candidate splits scored by every measure side by side, and "
    "the worked calculation of its split."
)
for w in urlstate.for_display(url_warnings):
    st.warning(w)

# ---------------------------------------------------------------- data
st.header("1. Data")
picked = pick_data(PREFIX, DEFAULT, detailed=True)
raw, data_hash = picked.raw, picked.data_hash
tree_restore.prepare(PREFIX, picked)  # a link's or session file's target, features ...

# column kinds, with overrides
detected = infer_kinds(raw)
kc1, kc2 = st.columns(2)
numeric_cols = [c for c, k in detected.items() if k == "numeric"]
text_cols = [c for c, k in detected.items() if k == "categorical"]
as_cat = kc1.multiselect(
    "Treat these numeric columns as categorical",
    numeric_cols,
    key=keep(PREFIX, f"tr_ascat_{data_hash}", []),
    help="For numeric codes that are really categories (e.g. 1 = red, 2 = green).",
)
as_num = kc2.multiselect(
    "Treat these text columns as numeric",
    text_cols,
    key=keep(PREFIX, f"tr_asnum_{data_hash}", []),
    help="Values that are not numbers become missing.",
)
overrides = {c: "categorical" for c in as_cat} | {c: "numeric" for c in as_num}
overrides_json = json.dumps(overrides, sort_keys=True, default=str)
try:
    df, kind_warnings, kinds, ids, types = cached_profile(data_hash, overrides_json, raw)
except heavy_work.Refused as exc:  # a large file's columns: the settings stay
    st.warning(exc.message)
    st.stop()
except DataProblem as exc:
    st.error(str(exc))
    overrides, overrides_json = {}, "{}"
    df, kind_warnings, kinds, ids, types = cached_profile(data_hash, overrides_json, raw)
for w in kind_warnings:
    st.warning(w)

preview = st.expander(
    f"Preview: {len(df):,} rows x {df.shape[1]} columns, with the detected types",
    key="tr_preview_open",
    on_change="rerun",  # drawn only when open (two tables converted at every rerun otherwise)
)
if preview.open:
    with preview:
        show_table(types)
        st.dataframe(df.head(50), width="stretch")

columns = list(df.columns)
tc1, tc2 = st.columns([1, 2])
target = pick_target(PREFIX, picked, columns, container=tc1)
candidates_features = [c for c in columns if c != target]
default_features = [c for c in candidates_features if c not in ids] or candidates_features
features_key = f"tr_features_{data_hash}_{target}"
last = page.last_choice
if (
    last is not None
    and last["data"] == data_hash
    and last["target"] != target
    and page.features_unset(features_key)
):
    # a new target: the features chosen stay, without the new target; the old target is
    # not silently added as a feature (it is said, below)
    carried, note = tree_page.carry_features(
        last["features"], last["target"], target, candidates_features
    )
    page.carry_features(features_key, carried, note)
features = tc2.multiselect(
    "Features",
    candidates_features,
    key=keep(PREFIX, features_key, default_features),
)
page.last_choice = {"data": data_hash, "target": target, "features": list(features)}
if page.target_note:
    tc2.info(md_escape(page.target_note))
    if last is not None and last["target"] == target and last["features"] != list(features):
        page.target_note = None  # shown until the features are changed by hand
tree_page.show_many_valued(  # chance winners, offers
    df, features, kinds, features_key, cache_key=f"{data_hash}/{overrides_json}"
)
if ids:
    st.caption("Left out by default (add them back above if you wish):")
    show_table(pd.DataFrame({"column": [str(c) for c in ids], "reason": list(ids.values())}))

n_rows_all = int(df[target].notna().sum())
slow = too_large(n_rows_all, len(features))
n_sample = 0
if slow:
    st.warning(slow)
    n_quick = quick_sample_size(n_rows_all, len(features))
    if st.checkbox(
        f"Use a random sample of {n_quick:,} rows", key=keep(PREFIX, f"tr_sample_{data_hash}", True)
    ):
        n_sample = n_quick
try:
    X, y, xy_warnings, classes, class_counts = cached_xy(
        data_hash,
        overrides_json,
        target,
        json.dumps([str(f) for f in features]),
        n_sample,
        df,
        features,
    )
except DataProblem as exc:
    st.error(str(exc))
    st.stop()
for w in xy_warnings:
    st.warning(w)
small = tree_page.small_sample_note(class_counts)
if small and picked.source == "upload":  # the bundled lecture examples say so themselves
    st.warning(small)
sampled = n_sample > 0
prior = class_counts / class_counts.sum()
st.caption(
    "Class distribution (the prior): "
    + ", ".join(
        f"{md_escape(c, 30)}: {k} ({p:.1%})" for c, k, p in zip(classes, class_counts, prior)
    )
)

# ---------------------------------------------------------------- settings
data_key = json.dumps(
    [data_hash, target, [str(f) for f in features], overrides, sampled], sort_keys=True, default=str
)


def _in_fragment_run() -> bool:
    """True in a run of a fragment alone (not of the whole page)."""
    ctx = get_script_run_ctx()
    return bool(ctx is not None and ctx.fragment_ids_this_run)


@st.fragment
def settings_section(class_counts, data_key: str, X, y) -> dict:
    """Section 2, the measure and the stopping rules (a fragment): their values, for the grow.

    A change of a setting reruns only this part of the page (a new setting waits for **Grow the
    tree**, which reruns the whole page): it writes the link and says that the settings changed.
    In a whole-page run the page does both after its grow block.
    """
    st.header("2. Measure and stopping rules")
    c1, c2, c3 = st.columns(3)
    setting = node_settings.pick_setting(PREFIX, class_counts, c1)
    # when the page's scores do not apply (a split criterion, HDDT, is scored by itself) the
    # score widgets stay, disabled, so that their values come back with another measure
    own_score = tree_page.own_score_note(setting)
    criterion = own_score is not None
    score = c2.selectbox(
        "Split score",
        list(SCORES),
        format_func=lambda s: SCORES[s][0],
        key=PREFIX + "score",
        disabled=criterion,
        help=own_score,
    )
    alpha = None
    if score == "alpha":
        alpha = c2.slider("alpha", 0.0, 1.0, step=0.05, key=PREFIX + "alpha", disabled=criterion)
    categorical = c2.radio(
        "Categorical features",
        ["multiway", "binary"],
        key=PREFIX + "categorical",
        format_func=lambda c: {
            "multiway": "one branch per value",
            "binary": "two groups of values",
        }[c],
    )
    max_depth = c3.slider("Maximum depth (0 = no limit)", 0, 30, key=PREFIX + "max_depth")
    min_split = c3.number_input(
        "Minimum examples to split a node", 2, 10_000, key=PREFIX + "min_split"
    )
    min_leaf = c3.number_input("Minimum examples in a leaf", 1, 10_000, key=PREFIX + "min_leaf")
    min_gain = c3.number_input(
        "Minimum gain to split", 0.0, 1.0, step=0.001, format="%.4f", key=PREFIX + "min_gain"
    )
    leaf_rule = node_settings.pick_leaf_rule(PREFIX, c2)

    tree_params = tree_page.tree_params(
        setting.tree_params(),
        score=score,
        alpha=alpha,
        leaf_rule=leaf_rule,
        max_depth=max_depth,
        min_split=min_split,
        min_leaf=min_leaf,
        min_gain=min_gain,
        categorical=categorical,
        criterion=criterion,
    )
    alpha = tree_params["alpha"]
    setting = setting.replace(alpha=alpha)
    params_json = json.dumps(tree_params, sort_keys=True)
    stem = tree_page.file_stem(data_name, setting.replace(alpha=None).key)  # files' names
    info_box = st.empty()  # "the settings changed": filled here, or by the page's grow block
    if _in_fragment_run():
        write_link()
        tree_restore.publish_edits(SCHEMA, PREFIX, page.session, Grow(data_key, params_json))
        if page.session.settings_changed(params_json):
            info_box.info(SETTINGS_CHANGED)
            # the grow's work, done while the student reaches for the button
            prefetch(lambda: tree_chart.grow_tree(data_key, params_json, X, y, size, stem))
    return dict(
        setting=setting,
        score=score,
        alpha=alpha,
        tree_params=tree_params,
        params_json=params_json,
        info_box=info_box,
        stem=stem,
    )


SETTINGS_CHANGED = "The settings changed: press **Grow the tree** to grow it again with them."
data_name = picked.name if picked.source == "upload" else picked.source
chosen = settings_section(class_counts, data_key, X, y)
setting, score, alpha = chosen["setting"], chosen["score"], chosen["alpha"]
tree_params, params_json = chosen["tree_params"], chosen["params_json"]
stem = chosen["stem"]

data_choices = dict(
    target=target,
    features=features,
    as_categorical=as_cat,
    as_numeric=as_num,
    sample=(n_sample > 0) if slow else None,
)
tree_restore.publish(PREFIX, picked, default_features=default_features, **data_choices)
remember(
    PREFIX,
    f"tr_ascat_{data_hash}",
    f"tr_asnum_{data_hash}",
    features_key,
    f"tr_sample_{data_hash}",
)
write_link()

tree_state = page.session
grow = st.button("Grow the tree", type="primary", key="tr_grow")
tree_restore.restore_tree(
    PREFIX,
    tree_state,
    Grow(data_key, params_json),
    lambda: tree_chart.grow_tree(data_key, params_json, X, y, size, stem),
)
if grow or tree_state.data_changed(data_key):
    # a new data selection grows at once; new settings wait for the button
    try:
        with st.spinner("Growing the tree..."):
            clf = tree_chart.grow_tree(data_key, params_json, X, y, size, stem)
    except heavy_work.Refused as exc:  # pool full, still busy, too long: the settings stay
        st.warning(exc.message)
    except (ValueError, TypeError) as exc:
        st.error(md_escape(f"The tree could not be grown: {exc}"))
        st.stop()
    else:
        tree_state.start(Grow(data_key, params_json), clf)
elif tree_state.settings_changed(params_json):
    chosen["info_box"].info(SETTINGS_CHANGED)
tree_restore.publish_edits(SCHEMA, PREFIX, tree_state, Grow(data_key, params_json))

if tree_state.current is None:
    st.stop()
clf = tree_state.current
if getattr(clf, "heuristic_groupings_", None):  # a two-group search that is not exact
    st.warning(md_escape(heuristic_message(clf.heuristic_groupings_, "This tree")))


def rerun_fragment() -> None:
    """Rerun this fragment alone when the run is the fragment's own, else the page."""
    try:
        st.rerun(scope="fragment")
    except StreamlitInvalidLayoutContextError:  # a full run: the fragment cannot rerun alone
        st.rerun()


def _full_title(clf) -> str:
    grown_score = tree_page.score_label(clf.setting_, score)
    return tree_title(clf.setting_, clf.prior_, score=grown_score, leaf_rule=clf.leaf_rule)


@st.fragment
def tree_and_node(X, y, target: str, alpha, trace_path: tuple) -> None:
    """Sections 3 and 4: the tree figure and the selected node (a fragment).

    A click on a node, the node selector and every widget of the node's tables rerun only this
    part of the page (the data, settings, two-trees and export sections stay as they are); an
    edit of the tree reruns the whole page, whose other sections depend on the tree.
    ``trace_path`` is the traced row's path (drawn in the figure): the trace's form is drawn
    below, outside the fragment (a click does not redraw its inputs, one per feature), and a
    change of it reruns the page, which calls the fragment with the new path.
    """
    tree_key = tree_state.key  # identifies the tree (growth and edits) in the caches
    tree_tag = tree_state.tag  # short id for widget keys
    clf = tree_state.current
    tree = clf.tree_
    nodes = tree.nodes
    tree_state.check_node(len(nodes))
    if page.take_view_pending():  # the link's (or the saved) selected node, once
        asked = page.asked_node
        if 0 <= asked < len(nodes):
            tree_state.node = asked
        page.view_node = tree_state.node

    # ---------------------------------------------------------------- the tree
    # the lecture view (presentation mode, wide screen): controls and verdict left, tree right
    side, chart_box = (
        st.columns(tree_view.LECTURE_COLUMNS, gap="small") if lecture else (st.container(), None)
    )
    with side:
        if lecture:
            st.caption(md_escape(_full_title(clf)))
        else:
            st.header("3. The tree")
            st.subheader(_full_title(clf))
        if not lecture:
            st.caption(
                f"{len(tree)} nodes, {tree.n_leaves} leaves, depth {tree.depth}"
                + ("; edited by hand" if tree_state.edited else "")
            )
    # a click on a node (outlined in the browser at once; the node's panel is this run's)
    tree_state.click(tree_chart.take_click(), len(nodes))
    page.follow_node(tree_state.node)  # another node: the gain plot's default feature

    # ---------------------------------------- step-through (offcenter.app.tree_steps) >>>
    # in step mode the drawing is the partial tree (draw_*); everything else is the whole tree's
    with side:
        stepping = step_controls(clf, tree_state, tree_key, short=lecture)
    page.node = tree_state.node  # a step selects the node it splits
    draw_clf, draw_key = (clf, tree_key) if stepping is None else (stepping.clf, stepping.key)
    draw_tree = draw_clf.tree_
    focus = None if stepping is None else stepping.step.full_node
    # <<< step-through

    draw_size = size if stepping is None or lecture else tree_view.step_size(size)
    with side:
        plan = tree_view.plan_drawing(draw_clf, draw_key, draw_size, tree_tag, focus)
        if not lecture or plan.font < draw_size.font_size - 2.5:  # lecture: when shrunk
            st.caption(plan.caption(draw_tree.depth, draw_size, stepping is not None, lecture))
    if chart_box is None:
        chart_box = st.container()
    verdict_table_box = None
    if stepping is not None:  # step-through: the verdict at the node just split >>>
        with side if lecture else st.container():
            verdict_table_box = show_step_verdict(
                stepping,
                clf,
                lambda nd: tree_click.node_key(
                    tree_state.grown.data_key, tree_state.grown.params_json, clf, nd
                ),
                table=not lecture,
            )
    # <<< step-through
    if lecture:  # the node's details in tabs under the tree (lecture view)
        names = ["The node", "Own best splits and gain plot", "Worked calculation", "Edit"]
        tabs = st.tabs(names if verdict_table_box is None else ["The step's verdict", *names])
        if verdict_table_box is not None:
            with tabs[0]:
                node_settings.show_table(verdict_table_box, "tr_step_verdict")
            tabs = tabs[1:]
    else:
        tabs = [nullcontext()] * 4
    tab_node, tab_best, tab_calc, tab_edit = tabs

    # ---------------------------------------------------------------- the selected node
    tab_node.__enter__()
    st.header(f"4. The selected node: node {tree_state.node}")
    node_ids = [n.id for n in nodes]
    sel = st.selectbox(
        "Node",
        node_ids,
        index=node_ids.index(tree_state.node),
        format_func=lambda i: (
            f"node {i} (depth {nodes[i].depth}, n = {int(round(nodes[i].n))})"
            + (" - leaf" if nodes[i].split is None else f" - split on {nodes[i].split.feature}")
        ),
        key=f"tr_node_select_{tree_tag}_{tree_state.node}",
    )
    if sel != tree_state.node:
        tree_state.node = sel
        rerun_fragment()
    node = nodes[tree_state.node]

    left, right = st.columns([1, 1])
    with left:
        st.subheader("Path from the root")
        st.code(
            "\n".join(node.conditions) if node.conditions else "(the root: all rows)", language=None
        )
        st.subheader("Class counts")
        total = max(float(np.sum(node.counts)), 1.0)
        show_table(
            pd.DataFrame(
                {
                    "class": [str(c) for c in clf.classes_],
                    "count": [int(round(c)) for c in node.counts],
                    "share": [f"{c / total:.1%}" for c in node.counts],
                }
            )
        )
        st.text(
            f"n = {int(round(node.n))}; prediction: {node.prediction}"
            + (f"; {node.n_missing} with missing values" if getattr(node, "n_missing", 0) else "")
        )
    # the node's tables are cached per node (its rows, split and the search's settings), not per
    # tree: a grow after a depth change finds the nodes it shares with the tree before computed
    tables_key = tree_click.node_key(
        tree_state.grown.data_key, tree_state.grown.params_json, clf, node
    )
    with right:
        st.subheader("Impurity under each measure")
        if clf.setting_.info.setting_note:  # a split criterion's (the registry's text)
            st.caption(clf.setting_.info.setting_note)
        show_table(
            node_settings.impurity_table(tables_key, node.id, clf),
            column_config={
                "impurity": st.column_config.NumberColumn(
                    "impurity", format=node_settings.NUMBER_FORMAT
                ),
            },
            read_only=True,  # cached per node: converted to Arrow once
        )

    tab_node.__exit__(None, None, None)
    chart = tree_chart.chart_for(  # the figure per (tree, view), whatever node is selected
        draw_key,
        plan,
        # step ids are the whole tree's; the node just split is outlined as on a path
        tuple(i for i in trace_path if i < len(draw_tree))
        + ((focus,) if focus is not None else ()),
        draw_clf,
        draw_size,
    )
    tree_chart.tree_chart(  # the selected node outlined in the browser (a click: at once)
        chart,
        tree_state.node if tree_state.node < len(draw_tree) else None,
        container=chart_box,
        key="tr_chart",
        # a phone's chart is too narrow for Plotly's toolbar beside the class legend (and a
        # finger does not zoom with it): none there
        config={"displaylogo": False, "displayModeBar": not (size.phone or phone)},
    )

    with tab_best:
        cands = node_settings.show_node_comparison(
            clf, node, tables_key, tree_tag, stem=stem, present=size.present, X=X, y=y
        )
    with tab_calc:
        node_settings.show_worked_calculation(clf, node, alpha)

    # ---------------------------------------------------------------- edits
    tab_edit.__enter__()
    st.subheader("Edit the tree at this node")
    e1, e2, e3 = st.columns([2, 1, 1])
    feature_choices = list(cands["feature"]) if cands is not None and len(cands) else []
    force = e1.selectbox(
        "Split on",
        feature_choices,
        index=None,
        key="tr_force_feature",
        placeholder="choose a feature",
        format_func=str,
    )
    if e1.button("Use this split", key="tr_force", disabled=force is None):
        try:
            tree_state.apply(ForcedSplit(node.id, force))
            st.rerun()
        except (ValueError, KeyError) as exc:
            st.error(md_escape(f"Cannot split node {node.id} on that feature: {exc}"))
    if e2.button("Make it a leaf", key="tr_leaf", disabled=node.split is None):
        tree_state.apply(MakeLeaf(node.id))
        st.rerun()
    if e3.button("Undo", key="tr_undo", disabled=not tree_state.edited):
        tree_state.undo()
        st.rerun()
    if tree_state.edited:
        st.text("Edits: " + tree_state.edits_text())

    tab_edit.__exit__(None, None, None)

    # ---------------------------------------------------------------- rows
    idx = clf.node_indices(node.id)
    rows_box = st.expander(
        f"Rows reaching this node ({len(idx):,})",
        key="tr_rows_open",
        on_change="rerun",  # drawn only when open: up to 5,000 rows converted at every click
    )
    if rows_box.open:
        with rows_box:
            rows = X.iloc[idx].assign(**{f"{target} (target)": y.iloc[idx].to_numpy()})
            st.dataframe(rows.head(5000), width="stretch", key="tr_rows")
            if len(rows) > 5000:
                st.caption(f"Showing 5,000 of {len(rows):,} rows; the download has them all.")
            csv_button(
                "Download these rows (CSV)",
                lambda: rows,
                f"{stem}_node{node.id}_rows.csv",
                "tr_dl_rows",
                rerun=False,
            )  # the CSV is made only while the expander is open
    write_link()  # the selected node and the gain plot's feature, in the address


# The trace's form (one input per feature) is drawn below the fragment but outside it, so that a
# node click does not redraw it; its path is computed first, for the fragment's figure.
node_box = lecture_box if lecture else st.container()
trace_path = tuple(trace_section(clf, X, y) or ())  # an expander, drawn when open
with node_box:
    tree_and_node(X, y, target, alpha, trace_path)

# ---------------------------------------------------------------- predictions and export
st.header("5. Predictions and export")
node_settings.show_training_report(clf, X, y, tree_state.key, stem=stem)
st.subheader("Export")
image_title = (
    f"{data_name} (target {target}); {_full_title(clf)}; depth {clf.tree_.depth}, "
    f"{len(clf.tree_)} nodes"
)
x1, x2, x3, x4 = st.columns(4)
for col, fmt in zip((x1, x2), FORMATS):
    col.download_button(
        f"Whole tree as {fmt.upper()}",
        lambda fmt=fmt: tree_image(clf, fmt, title=image_title),
        file_name=f"{stem}_tree.{fmt}",
        mime=FORMATS[fmt],
        on_click="ignore",
        key=f"tr_dl_{fmt}",
        help="Every node, whatever the chart shows, with a title naming the data set, the "
        "setting with its theta, the leaf rule and the depth.",
    )
x3.download_button(
    "Tree as JSON",
    clf.to_json,
    file_name=f"{stem}_tree.json",
    on_click="ignore",
    mime="application/json",
    key="tr_dl_json",
)
rules = clf.to_text()
x4.download_button(
    "Tree as text rules",
    rules,
    file_name=f"{stem}_rules.txt",
    mime="text/plain",
    on_click="ignore",
    key="tr_dl_text",
)
st.caption(
    "The settings, hand edits and view (selected node, gain plot, depth shown, two-tree "
    "comparison) are in the page's address: copy it to share them (an uploaded file is not: "
    "upload it again), or download the session below. Presentation mode in a shared address "
    "applies on wide screens only, not on phones."
)
tree_restore.session_box(
    SCHEMA,
    PREFIX,
    picked,
    tree_state,
    setting_key=setting.key,
    tree_params=tree_params,
    file_name=f"{stem}_session.json",
    **data_choices,
)
rules_box = st.expander(
    "The rules",
    key="tr_rules_open",
    on_change="rerun",  # drawn only when open (tens of kB of text at every whole-page run)
)
if rules_box.open:
    with rules_box:
        st.code(rules, language=None)

# ---------------------------------------------------------------- two trees
compare_two_trees(
    X,
    y,
    base_params=json.loads(tree_state.grown.params_json),  # the grown tree's, as drawn above
    prior=class_counts,
    data_key=data_key,
    fit=cached_fit,
    current=clf.setting_,
    font_size=size.font_size,
    min_font=tree_view.MIN_PRESENT_FONT if present and not phone else None,
    on_view_change=write_link,
)
