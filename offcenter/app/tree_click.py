"""The Tree page's per-click work, cached across reruns and sessions.

A click on a node reruns the page's tree fragment, which draws the whole tree again with that
node highlighted (:func:`offcenter.viz.tree.tree_figure`). Profiled
(``benchmarks/profile_tree_click.py``), that drawing is most of a click's own work: on German
credit at depth 5 (312 nodes) the layout (measuring every box's text) and the construction of the
``go.Figure`` (Plotly deep-copies the traces) take about 100 ms of CPU per click on a loaded
machine, against under 1 ms for the node's impurities; the node's tables are already cached per
node by :mod:`offcenter.app.tree_comparison`.

A figure depends only on the tree (``tree_key``: its growth and edits), the depth drawn, the
node selected and the row traced, so :func:`cached_tree_figure` keeps it per process, shared by
every session: in a class, students who grow the same tree (the same data and settings) and
click the same nodes pay for each figure once. The figure is read-only once cached (the page
hands its dicts to Streamlit without copying: :func:`offcenter.app.charts.plotly_chart`, which
does not modify them).

The page's call (pages/3_Tree.py, in ``tree_and_node``)::

    fig = tree_click.cached_tree_figure(
        tree_key,
        shown_depth if shown_depth < tree.depth else None,
        tree_state.node,
        tuple(trace_path or ()),
        clf,
    )

in place of ``fig = tree_figure(clf, max_depth=..., selected=tree_state.node, path=trace_path)``.
"""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from offcenter.app.tree_page import drawn_font
from offcenter.viz.tree import tree_figure

__all__ = ["cached_drawn_font", "cached_tree_figure"]


@st.cache_resource(max_entries=512, show_spinner=False)
def cached_tree_figure(
    tree_key: str, max_depth: int | None, selected: int | None, path: tuple, _clf, **drawing
) -> go.Figure:
    """:func:`offcenter.viz.tree.tree_figure` of the tree ``tree_key`` (fitted: ``_clf``), once
    per (tree, depth drawn, selected node, traced path) and process; read-only.

    Parameters
    ----------
    tree_key : str
        Identifies the tree, its growth and its edits (the page's ``tree_state.key``): the
        cache key, since ``_clf`` itself is not hashed.
    max_depth : int or None
        Deepest level drawn (None: the whole tree).
    selected : int or None
        The node drawn highlighted.
    path : tuple of int
        The nodes of a traced row's path (empty: none).
    _clf : TreeClassifier
        The fitted tree.
    **drawing
        The drawing's other keyword arguments of :func:`~offcenter.viz.tree.tree_figure`
        (``font_size``, ``wrap_width``, ``shares_per_line``, ``view_width``, ...): hashable
        values, part of the cache key.
    """
    return tree_figure(_clf, max_depth=max_depth, selected=selected, path=list(path), **drawing)


@st.cache_data(max_entries=512, show_spinner=False)
def cached_drawn_font(tree_key: str, max_depth: int | None, size, _clf) -> float:
    """:func:`offcenter.app.tree_page.drawn_font` of the tree ``tree_key`` drawn to
    ``max_depth`` in a chart of ``size`` (a hashable :class:`~offcenter.app.tree_page.ViewSize`),
    once per process: it lays the whole drawing out (every box's text measured), which a node
    click does not change.
    """
    return drawn_font(_clf, max_depth, size)
