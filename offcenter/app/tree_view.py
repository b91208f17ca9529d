"""How the Tree page draws its tree: the depth shown, compact boxes, the text size, and the
lecture view's layout.

``pages/3_Tree.py`` lays the tree out; the choices are here:

- :func:`plan_drawing`: the drawing's depth and boxes. Outside a step-through the deepest level
  that fits the chart (:func:`offcenter.viz.tree.fit_drawing`), or the level the viewer picks
  with **Depth shown**; in a step-through the depth follows the step: the partial tree as deep
  as it fits, and always the node just split with its new children (its path is kept open
  below the levels drawn in full), so that no press of **Next split** changes only hidden
  counts. In presentation mode and in a step-through the boxes may be compact (node id, test,
  n and the bar; the rest on hover and in the node's section) so that depth 2 reads at 18 px
  or more.
- :func:`lecture_view`: presentation mode on a wide screen opens on the tree (the page's
  lecture view): the step controls and the verdict in a narrow column on the left, the tree on
  the right, on the first screen of a 1400 x 900 projector; the node's details follow in tabs
  below, the data and the settings after them.

Examples
--------
>>> from offcenter.app.tree_page import view_size
>>> lecture_size(view_size(True, False)).min_font
18.0
>>> step_size(view_size(False, False)).compact
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import streamlit as st

from offcenter.app import tree_click
from offcenter.app.tree_page import ViewSize
from offcenter.viz.tree import COMPACT_WRAP, DrawingFit

__all__ = [
    "LECTURE_COLUMNS",
    "LECTURE_CSS",
    "MIN_PRESENT_FONT",
    "DrawPlan",
    "lecture_size",
    "fitting_plan",
    "lecture_view",
    "plan_drawing",
    "step_size",
]

#: The least node text (px) of the drawing in presentation mode before it shrinks.
MIN_PRESENT_FONT = 18.0
#: The lecture view's columns: the step controls and verdict, the tree.
LECTURE_COLUMNS = (1.0, 2.3)
#: The lecture view's chart: about the tree column's width at 1400 px with the sidebar open
#: (the page's side padding narrowed by :data:`LECTURE_CSS`), and the height left under the
#: class legend on a 900 px screen (measured in tests/browser/test_tree_lecture_browser.py).
LECTURE_WIDTH = 700.0
LECTURE_HEIGHT = 740.0
#: Narrower side padding of the page in the lecture view (the tree gets the room).
LECTURE_CSS = """<style>
@media (min-width: 700px) {
[data-testid="stMainBlockContainer"] { padding-left: 2rem; padding-right: 2rem;
  padding-top: 2.2rem; }
}
</style>"""


def lecture_view(size: ViewSize) -> bool:
    """Whether the page opens as a lecture view: presentation mode on a wide screen."""
    return bool(size.present and not size.phone)


def lecture_size(size: ViewSize) -> ViewSize:
    """The drawing's size in the lecture view: the tree column, 20 px text down to
    :data:`MIN_PRESENT_FONT`, compact boxes allowed."""
    return replace(
        size, width=LECTURE_WIDTH, height=LECTURE_HEIGHT, compact=True, min_font=MIN_PRESENT_FONT
    )


def step_size(size: ViewSize) -> ViewSize:
    """The drawing's size in a step-through: compact boxes allowed (the step's node and its
    children are drawn at any depth)."""
    return replace(size, compact=True, min_font=size.min_font or size.font_size)


@dataclass(frozen=True)
class DrawPlan:
    """The drawing chosen: ``depth`` (None: the whole tree), the levels shown in full, the
    ``focus`` node drawn open below them, compact boxes, their line width and text size, and
    whether the tree is drawn left to right."""

    depth: int | None
    shown: int
    focus: int | None
    compact: bool
    wrap_width: int
    font: float
    sideways: bool = False

    def caption(self, full_depth: int, size: ViewSize, stepping: bool, short: bool = False) -> str:
        """What the caption under the controls says of the drawing; ``short``: only that it
        is drawn smaller than the size asked (the lecture view's narrow column, above the
        step's verdict)."""
        if short:
            return f"Drawn smaller to fit the chart: text about {self.font:.0f} px."
        text = f"Depth shown: {self.shown} of {full_depth}" + (
            " (the whole tree)" if self.depth is None else " (deeper levels collapsed)"
        )
        if stepping and self.depth is not None and self.focus is not None:
            text += f"; node {self.focus}, just split, is drawn with its children"
        if self.sideways:
            text += (
                "; drawn left to right, one column per level (#node, branch, n; +k: nodes "
                "hidden below): hover a box or select it for the rest"
            )
        elif self.compact:
            text += "; compact boxes (node, test, n): hover a box or select it for the rest"
        if self.font < size.font_size - 0.5 and self.font < (size.min_font or 0) - 0.5:
            text += (
                f"; the drawing is wider than the chart, so it is drawn smaller (text about "
                f"{self.font:.0f} px): show fewer levels to read it"
            )
        return text + ". Click a node's box to select it."


def _fitting_plan(fit: DrawingFit, tree_depth: int, focus: int | None = None) -> DrawPlan:
    """The drawing at the depth that fits (``fit``): the whole tree when it fits whole."""
    depth = None if fit.depth >= tree_depth else fit.depth
    return DrawPlan(depth, fit.depth if depth else tree_depth, focus, fit.compact,
                    fit.wrap_width, fit.font_size, fit.sideways)  # fmt: skip


def fitting_plan(draw_clf, draw_key: str, size: ViewSize) -> DrawPlan:
    """The plan :func:`plan_drawing` makes when the viewer has not picked a depth (outside a
    step-through): the depth that fits a chart of ``size``."""
    fit = tree_click.cached_fit_depth(draw_key, size, draw_clf, None)
    return _fitting_plan(fit, draw_clf.tree_.depth)


def plan_drawing(draw_clf, draw_key: str, size: ViewSize, tree_tag: str, focus) -> DrawPlan:
    """The drawing of ``draw_clf`` (the tree, or a step's partial tree: then ``focus`` is the
    node just split) for a chart of ``size``; outside a step-through (``focus`` None), the
    **Depth shown** slider when the whole tree does not fit (its value in the page's state
    ``tr_depth``: 0 = what fits, the link's field ``depth``)."""
    S = st.session_state
    tree = draw_clf.tree_
    fit: DrawingFit = tree_click.cached_fit_depth(draw_key, size, draw_clf, focus)
    if focus is not None or tree.depth < 2:
        return _fitting_plan(fit, tree.depth, focus)
    asked = int(S.get("tr_depth", 0) or 0)
    shown = st.slider(
        "Depth shown",
        1,
        tree.depth,
        value=asked if 1 <= asked <= tree.depth else fit.depth,
        key=f"tr_shown_{tree_tag}_{fit.depth}",
        help="Deeper levels are collapsed into '+ k nodes hidden' boxes. By default, the "
        "deepest level at which the whole drawing fits the chart with readable text.",
    )
    S["tr_depth"] = 0 if shown == fit.depth else int(shown)
    depth = shown if shown < tree.depth else None
    if shown == fit.depth:
        return _fitting_plan(fit, tree.depth)
    compact = fit.compact and shown > fit.depth  # deeper than fits: the narrower boxes
    font = tree_click.cached_drawn_font(draw_key, depth, size, draw_clf, compact)
    wrap_w = min(COMPACT_WRAP, size.wrap_width) if compact else size.wrap_width
    return DrawPlan(depth, shown, None, compact, wrap_w, font)
