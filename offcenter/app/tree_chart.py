"""The Tree page's tree chart, drawn in the browser: a node click moves the highlight there.

With ``st.plotly_chart`` a click on a node reran the page's tree fragment, which built and sent
the whole figure again (13 kB of Plotly JSON on German credit at the depth that fits the chart,
390 kB with all 312 nodes drawn) only to move one outline, and the browser drew it again. This module draws the tree with a custom component
(Streamlit's components v2, inline JavaScript; the plotly.js of the installed ``plotly``
package, loaded as :mod:`offcenter.app.theta_follow` loads it) instead:

- the figure does not depend on the selected node: its JSON is built once per (tree, view)
  (:func:`cached_chart`, shared by sessions), with an empty trace where the selected node's
  outline goes (:meth:`offcenter.viz.tree.TreeDrawing.spec` with ``slot``), and the outline of
  every node drawn (:meth:`~offcenter.viz.tree.TreeDrawing.outline`);
- in the browser the figure is drawn once (``Plotly.newPlot``; ``Plotly.react`` when the tree
  or the view changes), and the selected node is outlined by restyling that one trace;
- a click on a node outlines it at once, before any server answer, and sends its id (a
  ``node`` trigger): the page's callback selects it, and the fragment's rerun shows the node's
  panel; the selected node is a separate small element (:data:`SELECTION_SUFFIX`), so the
  chart's own message is the same as before (Streamlit sends the browser a reference to its
  copy, not the figure) and the browser only moves the outline (to the server's node if the
  server chose another than the one clicked).

The exported images (:func:`offcenter.viz.tree_image.tree_image`) are drawn on the server.
:func:`drawn_spec` is the figure the browser shows for a payload (the tests read the page's
chart with it).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from contextlib import nullcontext

import streamlit as st
import streamlit.components.v2 as _components_v2
from streamlit.runtime.state.session_state import STREAMLIT_INTERNAL_KEY_PREFIX

from offcenter.app import theta_follow, tree_click, tree_view
from offcenter.app.tree_session import Grow, TreeSession
from offcenter.viz.theta_frames import figure_json

__all__ = [
    "CLICKED",
    "SELECTION_SUFFIX",
    "cached_chart",
    "chart_for",
    "click_state",
    "drawn_spec",
    "grow_tree",
    "node_id",
    "take_click",
    "tree_chart",
]

#: The selection element's key: the chart's key and this.
SELECTION_SUFFIX = "_oc_tree_selection"
#: The session state key where the chart's callback leaves the node clicked (read once).
CLICKED = "tr_chart_clicked"

#: The state of each chart on the page, by its key, shared by the chart and its selection.
_SHARED_JS = r"""
const chartState = (key) => {
  const all = window.__ocTreeCharts || (window.__ocTreeCharts = {});
  return all[key] || (all[key] = {clicked: null, selected: null});
};
"""

_JS = (
    theta_follow.LOAD_PLOTLY_JS
    + _SHARED_JS
    + r"""
const outlineOf = (S, id) => (id === null || id === undefined) ? null : (S.outlines[String(id)] || null);

// the node outlined: the one clicked until the server has it, else the server's
const wanted = (S) => (S.clicked !== null ? S.clicked : S.selected);

// the selected node's outline: one trace restyled (nothing else of the figure changes)
const outline = (S) => {
  const id = wanted(S);
  if (!S.drawn || id === S.shown) return;
  const o = outlineOf(S, id);
  S.shown = id;
  S.Plotly.restyle(S.gd, {x: [o ? o[0] : []], y: [o ? o[1] : []]}, [S.data.selected_at]);
};

const render = (S) => {
  const d = S.data;
  if (d.figure === S.figureText && S.drawn) return outline(S);
  // another tree or view: the figure again (parsed afresh, Plotly keeps the arrays it gets)
  S.clicked = null;
  const fig = JSON.parse(d.figure);
  S.outlines = JSON.parse(d.outlines);
  S.figureText = d.figure;
  const id = wanted(S), o = outlineOf(S, id);
  const slot = fig.data[d.selected_at];
  slot.x = o ? o[0] : [];
  slot.y = o ? o[1] : [];
  fig.layout.autosize = true;
  delete fig.layout.width;
  const config = Object.assign({responsive: true}, d.config);
  const first = !S.drawn;
  S.drawn = true;
  S.shown = id;
  return (first ? S.Plotly.newPlot : S.Plotly.react)(S.gd, fig.data, fig.layout, config).then(() => {
    if (first) {
      S.gd.on('plotly_click', (ev) => {
        const pt = ev && ev.points && ev.points.find((p) => p.data && p.data.name === 'nodes');
        if (!pt) return;
        const c = Array.isArray(pt.customdata) ? pt.customdata[0] : pt.customdata;
        if (typeof c !== 'number') return;
        S.clicked = c;
        outline(S);  // at once, before the server answers
        S.setTriggerValue('node', c);
      });
    }
    outline(S);  // the selection may have come while the figure was drawn
  });
};

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  const S = chartState(data.key);
  S.data = data;
  S.setTriggerValue = setTriggerValue;
  if (!S.gd || S.gd.parentElement !== parentElement) {  // a new chart (the page drawn anew)
    S.gd = document.createElement('div');
    S.gd.className = 'oc-tree-figure';
    parentElement.appendChild(S.gd);
    S.drawn = false;
    S.figureText = null;
    S.clicked = null;
    S.queue = null;
  }
  S.apply = () => { if (S.Plotly) outline(S); };
  loadPlotly(data.plotly_src).then((Plotly) => {
    S.Plotly = Plotly;
    // one draw at a time, in the order the data came
    S.queue = (S.queue || Promise.resolve()).then(() => render(S)).catch((e) => console.error(e));
  });
}
"""
)

#: The selection, a separate element: the chart's element stays the same message at every
#: click (Streamlit then sends a reference to the browser's copy instead of the figure).
_SELECTION_JS = (
    _SHARED_JS
    + r"""
export default function (component) {
  const { data } = component;
  const S = chartState(data.chart);
  S.selected = data.selected;
  if (S.clicked !== null && S.selected === S.clicked) S.clicked = null;  // the server has it
  if (S.apply) S.apply();
}
"""
)

_CSS = ".oc-tree-figure { width: 100%; }"
#: The selection's element draws nothing: out of the layout (no gap under the chart).
_SELECTION_CSS = (  # inline (its newline: without one Streamlit reads a glob as a file's)
    "/* the selection draws nothing */\n"
    ".stElementContainer[class*='_oc_tree_selection'] { display: none; }"
)

_components: tuple[Callable, Callable] | None = None


def _mount() -> tuple[Callable, Callable]:
    global _components
    if _components is None:
        _components = (
            _components_v2.component(
                "offcenter.tree_chart", js=_JS, css=_CSS, isolate_styles=False
            ),
            _components_v2.component(
                "offcenter.tree_chart_selection",
                js=_SELECTION_JS,
                css=_SELECTION_CSS,
                isolate_styles=False,
            ),
        )
    theta_follow.serve_plotly()
    return _components


@st.cache_resource(max_entries=256, show_spinner=False)
def cached_chart(
    tree_key: str, max_depth: int | None, path: tuple, _clf, **drawing
) -> tuple[str, str, int]:
    """The tree's chart for the browser, whatever node is selected: the figure's JSON with an
    empty selected outline, the outline of every node drawn (JSON ``{id: [x, y]}``) and where
    the outline's trace is; once per (tree, depth drawn, traced path, view) and process.

    The parameters are :func:`offcenter.app.tree_click.cached_tree_drawing`'s.
    """
    drawing_ = tree_click.cached_tree_drawing(tree_key, max_depth, path, _clf, **drawing)
    outlines = {str(i): drawing_.outline(i) for i in drawing_.boxes}
    return (
        figure_json(drawing_.spec(None, slot=True)),
        json.dumps(outlines, separators=(",", ":")),
        drawing_.selected_at,
    )


def chart_for(draw_key: str, plan, path: tuple, draw_clf, draw_size) -> tuple[str, str, int]:
    """:func:`cached_chart` of a drawing planned by :mod:`offcenter.app.tree_view` (``plan``, a
    :class:`~offcenter.app.tree_view.DrawPlan`) for a chart of ``draw_size``, ``path`` the
    outlined path (a traced row's, the step's node)."""
    return cached_chart(
        draw_key,
        plan.depth,
        path,
        draw_clf,
        font_size=plan.font,  # smaller than the size's when the drawing is wider than the chart
        wrap_width=plan.wrap_width,
        shares_per_line=draw_size.shares_per_line,
        view_width=draw_size.width,
        focus=plan.focus,
        compact=plan.compact,
        sideways=plan.sideways,
    )


def grow_tree(data_key: str, params_json: str, X, y, size, stem: str | None = None):
    """The Tree page's grow (:func:`offcenter.app.tree_click.grow_tree`, ``stem`` its CSV
    files' names), then the chart the page draws of the tree by default for ``size`` (the
    depth that fits, no path): what the page shows next, computed by the grow or, ahead of it,
    by its background preparation (:mod:`offcenter.app.prefetch`)."""
    clf = tree_click.grow_tree(data_key, params_json, X, y, size, stem)
    grown = TreeSession.key_after(Grow(data_key, params_json))
    try:
        chart_for(grown, tree_view.fitting_plan(clf, grown, size), (), clf, size)
    except Exception:  # noqa: BLE001 - shown where the page computes it again
        pass
    return clf


def drawn_spec(data: dict) -> dict:
    """The figure the browser draws for the chart's ``data`` (:func:`tree_chart`) and its
    selection's ``selected``: the cached figure with the server's selected node outlined."""
    fig = json.loads(data["figure"])
    outline = json.loads(data["outlines"]).get(str(data["selected"]))
    slot = fig["data"][data["selected_at"]]
    slot["x"], slot["y"] = outline if outline is not None else ([], [])
    return fig


def click_state(element_id: str, node: int):
    """The widget state the browser sends for a click on ``node`` in the chart whose element id
    is ``element_id``: the component's ``node`` trigger (for load tests and benchmarks that
    speak Streamlit's protocol)."""
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    trigger = f"{STREAMLIT_INTERNAL_KEY_PREFIX}_{element_id}__events"
    return WidgetState(
        id=trigger, json_trigger_value=json.dumps([{"event": "node", "value": int(node)}])
    )


def node_id(value) -> int | None:
    """The node id a click's trigger carries, None for anything else (the browser sends a
    number; a crafted message may not).

    >>> [node_id(v) for v in (3, 3.0, 2.5, float("nan"), True, "3", None, -1)]
    [3, 3, None, None, None, None, None, None]
    """
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if number and math.isfinite(value) and value == int(value) and value >= 0:
        return int(value)
    return None


def take_click() -> int | None:
    """The node a click on the chart selected since the last run (None: no click); once."""
    clicked = st.session_state.pop(CLICKED, None)
    return clicked if isinstance(clicked, int) and not isinstance(clicked, bool) else None


def tree_chart(
    chart: tuple[str, str, int],
    selected: int | None,
    *,
    key: str,
    config: dict,
    container=None,
) -> None:
    """Draw ``chart`` (:func:`cached_chart`) with ``selected`` outlined, in ``container``.

    A click on a node outlines it in the browser at once and reruns the caller's fragment with
    the node in :data:`CLICKED` (:func:`take_click`).
    """
    chart_component, selection_component = _mount()
    figure, outlines, selected_at = chart
    data = {  # the same at every click: a node's selection is the next element's
        "key": key,
        "figure": figure,
        "outlines": outlines,
        "selected_at": selected_at,
        "config": config,
        "plotly_src": theta_follow.plotly_src(),
    }
    selection = {"chart": key, "selected": None if selected is None else int(selected)}

    def _clicked() -> None:
        state = st.session_state.get(key) or {}
        node = node_id(state.get("node") if hasattr(state, "get") else None)
        if node is not None:
            st.session_state[CLICKED] = node

    with nullcontext() if container is None else container:
        chart_component(key=key, data=data, on_node_change=_clicked)
        selection_component(key=f"{key}{SELECTION_SUFFIX}", data=selection)
