"""The Tree page's per-click work, cached across reruns and sessions.

A click on a node reruns the page's tree fragment (``tree_and_node`` in pages/3_Tree.py), which
draws the whole tree again with that node highlighted and shows the node's tables. Profiled
(``benchmarks/profile_tree_click.py``: one real server, cProfile in the script thread, per
interaction kind), a click's own work on German credit at depth 5 (312 nodes) is:

- the node's comparison tables (:func:`offcenter.app.node_settings.node_tables`: every setting's
  own best split of every feature, the tree's candidates scored by every setting, the tables
  built from them), about 60% of it when the node was not clicked before;
- the drawing (:func:`offcenter.viz.tree.tree_figure`: the layout measures every box's text,
  then the figure's dicts) and the drawn font (another layout of the whole drawing);
- the rest of the fragment's elements (tables, gain plot, worked calculation, widgets).

What this module caches, per process and shared by every session (in a class, students who grow
the same tree and click the same nodes pay for each once):

- :func:`cached_tree_drawing`: the drawing per (tree, depth drawn, traced path), whatever the
  node selected; :func:`tree_figure_spec` adds the selected node's outline at each click.
  Read-only once cached (the page hands its dicts to Streamlit without copying:
  :func:`offcenter.app.charts.plotly_chart`, which does not modify them);
- :func:`cached_drawn_font`: the text size of the drawing per (tree, depth drawn, view);
- :func:`node_key`: the key under which the page caches a node's tables, the node itself (data,
  search settings, split, rows) rather than the tree, so that a tree grown again with another
  maximum depth finds the nodes it shares with the previous one computed (the root's tables are
  most of a grow's work).

:func:`grow_tree` is the page's grow, and the background preparation of the next one.

The page's calls (pages/3_Tree.py, in ``tree_and_node``)::

    font = tree_click.cached_drawn_font(tree_key, depth_arg, size, clf)
    fig = tree_click.tree_figure_spec(tree_key, depth_arg, node, trace_path, clf, ...)
    tables_key = tree_click.node_key(grown.data_key, grown.params_json, clf, node)
    node_settings.show_node_comparison(clf, node, tables_key, tree_tag, ...)
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
import streamlit as st

from offcenter.app import node_settings
from offcenter.app.tree_page import cached_fit, drawn_font
from offcenter.app.tree_session import Grow, TreeSession
from offcenter.tree.params import STOP_PARAMS
from offcenter.viz.tree import COMPACT_WRAP, DrawingFit, TreeDrawing, fit_drawing, tree_drawing
from offcenter.viz.tree_layout import SHARES_PER_LINE, WRAP, TreeLayout, tree_layout

__all__ = [
    "cached_drawn_font",
    "cached_fit_depth",
    "cached_tree_drawing",
    "cached_tree_layout",
    "grow_tree",
    "node_key",
    "tree_figure_spec",
]


@st.cache_resource(max_entries=256, show_spinner=False)
def cached_tree_drawing(
    tree_key: str, max_depth: int | None, path: tuple, _clf, **drawing
) -> TreeDrawing:
    """:func:`offcenter.viz.tree.tree_drawing` of the tree ``tree_key`` (fitted: ``_clf``),
    once per (tree, depth drawn, traced path) and process; read-only.

    Parameters
    ----------
    tree_key : str
        Identifies the tree, its growth and its edits (the page's ``tree_state.key``): the
        cache key, since ``_clf`` itself is not hashed.
    max_depth : int or None
        Deepest level drawn (None: the whole tree).
    path : tuple of int
        The nodes of a traced row's path (empty: none).
    _clf : TreeClassifier
        The fitted tree.
    **drawing
        The drawing's other keyword arguments of :func:`~offcenter.viz.tree.tree_drawing`
        (``font_size``, ``wrap_width``, ``shares_per_line``, ``view_width``, ...): hashable
        values, part of the cache key.
    """
    layout = cached_tree_layout(
        tree_key,
        max_depth,
        drawing.get("wrap_width", WRAP),
        drawing.get("shares_per_line", SHARES_PER_LINE),
        _clf,
        focus=drawing.get("focus"),
        compact=drawing.get("compact", False),
        sideways=drawing.get("sideways", False),
    )
    return tree_drawing(_clf, max_depth=max_depth, path=list(path), layout=layout, **drawing)


@st.cache_resource(max_entries=256, show_spinner=False)
def cached_tree_layout(
    tree_key: str,
    max_depth: int | None,
    wrap_width: int,
    shares_per_line: int,
    _clf,
    focus: int | None = None,
    compact: bool = False,
    sideways: bool = False,
) -> TreeLayout:
    """:func:`offcenter.viz.tree_layout.tree_layout` of the tree ``tree_key`` (every box's
    text measured), once per (tree, depth drawn, wrapping, focus, compact boxes, drawn left to
    right) and process:
    the drawn font (:func:`cached_drawn_font`) and the drawing (:func:`cached_tree_drawing`)
    share it. Read-only."""
    return tree_layout(
        _clf,
        max_depth=max_depth,
        wrap_width=wrap_width,
        shares_per_line=shares_per_line,
        focus=focus,
        compact=compact,
        sideways=sideways,
    )


def tree_figure_spec(
    tree_key: str, max_depth: int | None, selected: int | None, path: tuple, clf, **drawing
) -> dict:
    """The tree's figure (plain dicts, for :func:`offcenter.app.charts.plotly_chart`) with
    ``selected`` outlined: the cached drawing (:func:`cached_tree_drawing`) and one outline, so
    a click on another node lays nothing out again. Read-only (the drawing's dicts)."""
    return cached_tree_drawing(tree_key, max_depth, path, clf, **drawing).spec(selected)


@st.cache_data(max_entries=256, show_spinner=False)
def cached_fit_depth(tree_key: str, size, _clf, focus: int | None = None) -> DrawingFit:
    """:func:`offcenter.viz.tree.fit_drawing` of the tree ``tree_key`` for ``size`` (a
    hashable :class:`~offcenter.app.tree_page.ViewSize`: compact boxes allowed in presentation
    mode and in a step-through, ``focus`` the node just split), once per process; the layouts
    it tries are :func:`cached_tree_layout`'s, so the drawing it picks is laid out once."""
    return fit_drawing(
        _clf,
        size.width,
        size.height,
        font_size=size.font_size,
        min_font=size.min_font,
        wrap_width=size.wrap_width,
        shares_per_line=size.shares_per_line,
        focus=focus,
        allow_compact=size.compact,
        layout_of=lambda depth, compact, wrap_w, sideways=False: cached_tree_layout(
            tree_key,
            depth,
            wrap_w,
            size.shares_per_line,
            _clf,
            focus=focus,
            compact=compact,
            sideways=sideways,
        ),
    )


@st.cache_data(max_entries=512, show_spinner=False)
def cached_drawn_font(
    tree_key: str, max_depth: int | None, size, _clf, compact: bool = False
) -> float:
    """:func:`offcenter.app.tree_page.drawn_font` of the tree ``tree_key`` drawn to
    ``max_depth`` in a chart of ``size`` (a hashable :class:`~offcenter.app.tree_page.ViewSize`),
    once per process: it lays the whole drawing out (every box's text measured), which a node
    click does not change.
    """
    wrap_w = min(COMPACT_WRAP, size.wrap_width) if compact else size.wrap_width
    layout = cached_tree_layout(tree_key, max_depth, wrap_w, size.shares_per_line, _clf,
                                compact=compact)  # fmt: skip
    return drawn_font(_clf, max_depth, size, layout)


def node_key(data_key: str, params_json: str, clf, node) -> str:
    """The identity of a node's comparison tables, shared by every tree that has this node.

    The node's tables (:func:`offcenter.app.node_settings.node_tables`: each setting's own
    best split of every feature, the tree's candidates scored by every setting, the threshold
    gains) depend on the training data, the node's rows, the tree's setting and search
    constraints (``min_samples_leaf``, ``categorical``, ``alpha``, ...) and the node's split,
    not on where the growth stopped elsewhere (:data:`offcenter.tree.params.STOP_PARAMS`) nor
    on the rest of the tree.
    Keyed by this instead of the tree's key, a grow after a change of the maximum depth finds its
    root's tables (and those of every node it shares with the tree grown before: node ids are
    breadth-first, so a shallower tree's nodes keep their ids) already computed: the root's
    tables are most of a grow's work on German credit.

    Parameters
    ----------
    data_key, params_json : str
        The page's :class:`~offcenter.app.tree_session.Grow` record of the tree (the data
        chosen, the tree's parameters as JSON).
    clf : TreeClassifier
        The tree shown (grown, maybe edited).
    node : Node
        One of its nodes.

    Returns
    -------
    str
        ``"node:"`` and a SHA-1 of the data key, the parameters without
        :data:`offcenter.tree.params.STOP_PARAMS`, the node's split and its training rows.

    Examples
    --------
    >>> from offcenter import TreeClassifier
    >>> X, y = [[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1]
    >>> shallow = TreeClassifier(max_depth=1).fit(X, y)
    >>> deep = TreeClassifier(max_depth=3).fit(X, y)
    >>> key = lambda clf, params: node_key("d", params, clf, clf.tree_.nodes[0])
    >>> key(shallow, '{"max_depth": 1}') == key(deep, '{"max_depth": 3}')
    True
    >>> key(shallow, '{"max_depth": 1, "min_samples_leaf": 2}') == key(deep, '{"max_depth": 3}')
    False
    """
    params = {k: v for k, v in json.loads(params_json).items() if k not in STOP_PARAMS}
    rows = np.ascontiguousarray(clf.node_indices(node.id), dtype=np.int64)
    h = hashlib.sha1(json.dumps([data_key, params, repr(node.split)], sort_keys=True).encode())
    h.update(rows.tobytes())
    return "node:" + h.hexdigest()


def grow_tree(data_key: str, params_json: str, X, y, size, stem: str | None = None):
    """The Tree page's grow of (``data_key``, ``params_json``) on ``X``, ``y``: the fitted tree,
    with what the page shows of it next already in the process's caches.

    The fit (:func:`offcenter.app.tree_page.cached_fit`; its errors, including a
    :class:`~offcenter.app.heavy_work.Refused` one, are the caller's), then under the keys the
    page reads them with: the root's tables (:func:`offcenter.app.node_settings.node_tables`
    under :func:`node_key`), the training report
    (:func:`offcenter.app.node_settings.cached_report`; with ``stem``, the page's file names'
    stem, its CSV files too) and the layouts of the drawing's depth for a chart of ``size``
    (:func:`cached_fit_depth`); :func:`offcenter.app.tree_chart.grow_tree` adds the chart. A failure of those is left to the page,
    which computes them again where it shows them, and says why there.

    The page's **Grow the tree** calls it, and so does the settings fragment, in the background
    (:mod:`offcenter.app.prefetch`), as soon as the settings change: one sequence for both, so
    the grow that follows finds everything computed.
    """
    clf = cached_fit(data_key, params_json, X, y)
    grown = TreeSession.key_after(Grow(data_key, params_json))
    root = clf.tree_.nodes[0]
    try:
        node_settings.prepare_node(node_key(data_key, params_json, clf, root), root, clf, stem)
        node_settings.prepare_report(grown, clf, X, y, stem)
        cached_fit_depth(grown, size, clf)
    except Exception:  # noqa: BLE001 - shown where the page computes it again
        pass
    return clf
