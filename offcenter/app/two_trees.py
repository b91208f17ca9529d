"""The Tree page's "Compare two trees" section: one data set grown under two measure settings.

Both trees use the page's data, stopping rules, split score and leaf rule; only the measure
setting differs (the two are picked by their :class:`MeasureSetting` labels, by default Shannon
and off-centered Shannon on the prior). They are drawn side by side (or one above the other),
with the nodes where their splits first differ marked (:func:`offcenter.tree.compare.
first_differences`), and with their training metrics (:func:`offcenter.tree.compare.
evaluation.metrics.training_metrics`). :func:`pair_settings`, :func:`pair_params` and :func:`metrics_frame` are
Streamlit-free; :func:`compare_two_trees` draws the section.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
import streamlit as st

from offcenter.app import heavy_work
from offcenter.app.charts import plotly_chart
from offcenter.app.tables import show_table
from offcenter.evaluation.metrics import metrics_table
from offcenter.measures.settings import MEASURE_KEYWORDS, MeasureSetting, comparison_settings
from offcenter.tree.compare import difference_reason, first_differences
from offcenter.viz.format import fmt_fixed as _fmt
from offcenter.viz.format import md_escape
from offcenter.viz.tree import (
    COMPACT_WRAP,
    NODE_FONT,
    fitted_font,
    fitting_depth,
    nodes_by_depth,
    title_lines,
    tree_figure,
    visible_depth,
)
from offcenter.viz.tree_layout import FONT_SIZE, WRAP

#: The default pair: plain Shannon against Shannon off-centered on the prior.
DEFAULT_A = "shannon"
DEFAULT_B = "oc_shannon"
#: Above this many nodes a tree of the pair is drawn collapsed to the depth that fits it.
PAIR_NODES = 127
LAYOUTS = {"side": "side by side", "stacked": "one above the other"}


def pair_settings(current: MeasureSetting | None = None) -> list[MeasureSetting]:
    """The settings offered for the two trees: the standard comparison settings, and the
    page's own setting (without its score) when it is not one of them."""
    out = comparison_settings()
    if current is not None:
        mine = current.replace(alpha=None)
        if mine.key not in {s.key for s in out}:
            out.append(mine)
    return out


def pair_params(base_params: dict, setting: MeasureSetting) -> dict:
    """The tree parameters of one tree of the pair: the page's (stopping rules, score, leaf
    rule, categorical mode) with the measure fields of ``setting``."""
    if not isinstance(setting, MeasureSetting):
        raise TypeError(f"setting must be a MeasureSetting; got {type(setting).__name__}.")
    params = dict(base_params)
    for name in MEASURE_KEYWORDS:
        params.pop(name, None)
    params.update(setting.tree_params())
    return params


def default_depth(clf_a, clf_b, diffs, width: float) -> int:
    """The depth first shown for the pair: the deepest at which both drawings fit ``width``
    px, deep enough to show the first differences, and at most :data:`PAIR_NODES` nodes each."""
    fit = min(fitting_depth(clf_a, width), fitting_depth(clf_b, width))
    deepest_diff = max((clf_a.tree_.nodes[a].depth for a, _ in diffs), default=0)
    cap = min(visible_depth(nodes_by_depth(c.tree_), PAIR_NODES) for c in (clf_a, clf_b))
    top = max(clf_a.tree_.depth, clf_b.tree_.depth)
    return max(1, min(max(fit, deepest_diff), cap, top))


def pair_marks(clf, pairs, other: str, shown_depth: int) -> dict[int, str]:
    """The marked nodes of one drawing: each first difference (own id, other tree's id) at
    its node, or at its ancestor on the deepest shown level when it is deeper."""
    marks: dict[int, list[str]] = {}
    nodes = clf.tree_.nodes
    for own, theirs in pairs:
        i = own
        while nodes[i].depth > shown_depth:
            i = nodes[i].parent
        note = f"{other}: node {theirs}" if i == own else f"below: node {own}"
        marks.setdefault(i, []).append(note)
    return {i: "splits differ (" + "; ".join(notes) + ")" for i, notes in marks.items()}


def metrics_frame(trees: Sequence, X, y, names: Sequence[str]) -> pd.DataFrame:
    """One row per metric, one column per tree (the metrics as text, 4 decimals)."""
    rows = metrics_table(trees, X, y, names)
    order = [
        "accuracy",
        "balanced accuracy",
        "minority recall",
        "leaves",
        "depth",
        "nodes",
    ]
    minority = rows[0]["minority class"]
    data = {
        "metric (training data)": [
            m if m != "minority recall" else f"recall of the minority class ({minority})"
            for m in order
        ]
    }
    for row in rows:
        data[row["tree"]] = [_fmt(row[m]) for m in order]
    return pd.DataFrame(data)


@st.cache_resource(max_entries=64, show_spinner=False)
def _pair_view(pair_key: str, view: float, _trees, _X, _y, _names) -> tuple:
    """The pair's metrics table, first differences and default depth, once per (pair, width):
    ``pair_key`` identifies the data and both trees' parameters."""
    clf_a, clf_b = _trees
    diffs = first_differences(clf_a, clf_b)
    default = (
        default_depth(clf_a, clf_b, diffs, view)
        if max(clf_a.tree_.depth, clf_b.tree_.depth) > 1
        else 1
    )
    return metrics_frame(_trees, _X, _y, _names), diffs, default


def pair_font(clf, view: float, depth, font_size: float, marks, min_font=None) -> tuple:
    """The node text size (px) and box kind (compact or not) of one drawing of the pair at
    ``depth`` in a chart ``view`` px wide: full boxes at the largest size that fits (at most
    ``font_size``); with ``min_font``, compact boxes (tests wrapped at
    :data:`~offcenter.viz.tree.COMPACT_WRAP`) when full ones need text below it and compact
    ones fit larger text.

    >>> from offcenter.tree import TreeClassifier
    >>> clf = TreeClassifier().fit([[0.0], [1.0], [2.0], [3.0]], [0, 1, 0, 1])
    >>> pair_font(clf, 10_000, None, 20, {})
    (20.0, False)
    """
    full = fitted_font(clf, view, max_depth=depth, font_size=font_size, marked=marks)
    if min_font is None or full >= min_font:
        return full, False
    small = fitted_font(
        clf,
        view,
        max_depth=depth,
        font_size=font_size,
        marked=marks,
        compact=True,
        wrap_width=min(COMPACT_WRAP, WRAP),
    )
    return (small, True) if small > full else (full, False)


@st.fragment
def compare_two_trees(
    X: pd.DataFrame,
    y: pd.Series,
    *,
    base_params: dict,
    prior: Sequence[float],
    data_key: str,
    fit: Callable,
    current: MeasureSetting | None = None,
    key: str = "tr_pair",
    font_size: float = NODE_FONT,
    min_font: float | None = None,
    on_view_change: Callable[[], None] | None = None,
) -> None:
    """Draw the section: two setting pickers, the layout choice, the metrics, the differences
    and the two tree figures.

    ``fit(data_key, params_json, X, y)`` grows a tree (the page's cached fit, so that the
    pair shares the page's cache). ``base_params`` are those of the tree grown above (the
    pair follows the Grow button, not settings changed since). A fragment: its own widgets
    rerun this section alone. The two trees are grown when the user turns the section on
    (``{key}_on``). ``font_size`` is the drawings' node text (px; presentation mode: 20);
    ``min_font`` (presentation mode: 18 px): the titles and class legends are at least that
    size, the trees are drawn one above the other unless asked otherwise, and their boxes are
    made compact (node id, test, n, bar) when full boxes would need smaller text.
    ``on_view_change()`` is called once the section's widgets are read (the page writes its
    link: the section is a fragment, its reruns do not run the page).
    """
    st.header("6. Compare two trees")
    st.write(
        "The same data grown under two measure settings, with the stopping rules, split score "
        "and leaf rule of the tree grown above. The nodes where the two trees' splits **first differ** "
        "(another feature, another threshold or grouping, or a leaf against a split, at the "
        "same place in both trees) are outlined in red and marked *splits differ*."
    )
    # grown on demand: two more trees, their metrics and drawings are a rerun's largest cost.
    # The widgets' keys are the page's URL fields (pair_on, pair_a, pair_b, pair_layout): a
    # shared link restores them (offcenter.app.tree_page.VIEW_FIELDS).
    S = st.session_state
    if not st.toggle("Grow and compare two trees", key=f"{key}_on"):
        return
    options = pair_settings(current)
    by_key = {s.key: s for s in options}
    keys = list(by_key)
    labels = {k: s.label_for(np.asarray(prior, dtype=float)) for k, s in by_key.items()}
    for suffix, default in (("a", DEFAULT_A), ("b", DEFAULT_B)):
        if S.get(f"{key}_{suffix}") not in keys:
            S[f"{key}_{suffix}"] = default
    if S.get(f"{key}_layout") not in LAYOUTS:
        S[f"{key}_layout"] = "side"
    c1, c2, c3 = st.columns([2, 2, 1])
    ka = c1.selectbox("Tree A: measure setting", keys, format_func=labels.get, key=f"{key}_a")
    kb = c2.selectbox("Tree B: measure setting", keys, format_func=labels.get, key=f"{key}_b")
    if min_font:
        # on a projector one above the other, each the page's width: side by side, half
        # the width, two levels of boxes do not fit 18 px text
        layout = "stacked"
        c3.caption("Presentation mode: one tree above the other.")
    else:
        layout = c3.radio(
            "Layout", list(LAYOUTS), format_func=LAYOUTS.get, key=f"{key}_layout", horizontal=False
        )
    trees, pair_key = [], [data_key]
    for k in (ka, kb):
        params_json = json.dumps(pair_params(base_params, by_key[k]), sort_keys=True)
        pair_key.append(params_json)
        try:
            with st.spinner(f"Growing the tree under {labels[k]}..."):
                trees.append(fit(data_key, params_json, X, y))
        except heavy_work.Refused as exc:
            st.warning(exc.message)
            return
        except (ValueError, TypeError) as exc:
            st.error(md_escape(f"The tree under {labels[k]} could not be grown: {exc}"))
            return
    clf_a, clf_b = trees
    names = [f"A: {labels[ka]}", f"B: {labels[kb]}"]
    side = layout == "side"
    view = 440 if side else 900  # the charts' widths at 1400 px (measured in the browser)
    # the drawings' widths at FONT_SIZE px text that fit ``view`` px at ``font_size`` px
    fit_view = view * FONT_SIZE / float(font_size)
    metrics, diffs, default = _pair_view(
        json.dumps([*pair_key, names]), fit_view, trees, X, y, names
    )
    if min_font and default < 2 <= max(c.tree_.depth for c in trees):
        # on a projector two levels (seven boxes) when compact boxes hold them at min_font
        fonts = [
            pair_font(c, view, 2 if c.tree_.depth > 2 else None, font_size, {}, min_font)[0]
            for c in trees
        ]
        if min(fonts) >= min_font:
            default = 2

    st.subheader("Training metrics")
    show_table(metrics)

    st.subheader("Where the splits first differ")
    if ka == kb:
        st.info("Both trees use the same setting: pick another setting for tree B.")
    if not diffs:
        st.success(
            "The two trees make the same splits everywhere (so their leaves, under the same "
            "leaf rule, predict the same classes)."
        )
    else:
        st.text(
            "\n".join(
                f"node {a} of A / node {b} of B: {difference_reason(clf_a, clf_b, a, b)}"
                for a, b in diffs
            )
        )

    max_depth = max(clf_a.tree_.depth, clf_b.tree_.depth)
    shown_depth = max_depth
    if max_depth > 1:
        # the depth in the link (pair_depth, 0 = the default that fits) is a plain key: the
        # slider's own key changes with the pair so that a new pair opens at its default
        asked = int(S.get(f"{key}_depth", 0) or 0)
        shown_depth = st.slider(
            "Depth shown in both drawings (deeper levels collapse into '+ k nodes hidden')",
            1,
            max_depth,
            value=asked if 1 <= asked <= max_depth else default,
            key=f"{key}_depth_{max_depth}_{default}",
        )
        S[f"{key}_depth"] = 0 if shown_depth == default else int(shown_depth)
    if on_view_change is not None:
        on_view_change()
    marks_a = pair_marks(clf_a, [(a, b) for a, b in diffs], "B", shown_depth)
    marks_b = pair_marks(clf_b, [(b, a) for a, b in diffs], "A", shown_depth)
    if side:
        cols = st.columns(2)
    else:
        cols = [st.container(), st.container()]
    shown, titles = [], []
    for clf, name in zip(trees, names):
        depth = shown_depth if shown_depth < clf.tree_.depth else None
        shown.append(depth)
        titles.append(
            f"{name}; leaf rule: {getattr(clf, 'leaf_rule', 'majority')}"
            + (f"; depth shown {depth} of {clf.tree_.depth}" if depth is not None else "")
        )
    rows = max(
        title_lines(t, view, max(14.0, font_size, min_font or 0)) for t in titles
    )  # both drawings start at the same height
    for col, clf, depth, title, marks, tag in zip(
        cols, trees, shown, titles, (marks_a, marks_b), ("a", "b")
    ):
        # smaller when the drawing is wider than its chart (Plotly does not scale text);
        # compact boxes first when full ones would go below min_font
        font, compact = pair_font(clf, view, depth, font_size, marks, min_font)
        fig = tree_figure(
            clf,
            max_depth=depth,
            marked=marks,
            title=title,
            view_width=view,
            title_rows=rows,
            font_size=font,
            compact=compact,
            wrap_width=min(COMPACT_WRAP, WRAP) if compact else WRAP,
            label_font=min_font,
        )
        plotly_chart(  # the figure's own dicts, not copied (offcenter.app.charts)
            fig,
            container=col,
            key=f"{key}_chart_{tag}",
            width="stretch",
            config={"displaylogo": False},
        )
    st.caption(
        "Each tree is drawn whole at the depth shown (smaller when it is wider than its "
        "chart). "
        "Node ids are each tree's own (breadth-first); a marked node names its counterpart."
    )
