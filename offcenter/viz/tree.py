"""Plotly figures for the tree page: the tree itself and the gain against a threshold.

:func:`tree_figure` draws a fitted :class:`offcenter.TreeClassifier` the way
``sklearn.tree.plot_tree`` or rpart.plot do: one box per node with its id, its full split text,
n, impurity, gain and a bar of its class shares (the layout, in pixels, is
:mod:`offcenter.viz.tree_layout`: no text cut, no two texts overlapping). One transparent
marker per node carries its id in ``customdata`` (so
``st.plotly_chart(on_select="rerun", selection_mode="points")`` tells the page which node was
clicked); the selected node, a traced row's path and marked nodes are outlined, and the nodes
deeper than ``max_depth`` are collapsed into their ancestor. :func:`layout_positions` gives
(x, depth) only, leaves on consecutive slots; the figure does not use it (its boxes are placed
by :func:`offcenter.viz.tree_layout.tree_layout`).

User text (column names, category values, class labels) is escaped for Plotly's pseudo-HTML with
:func:`offcenter.viz.format.plot_text`, and hover texts use ``hovertext`` (no ``%{...}`` template substitution), so a
column called ``<b>x</b>`` is shown as those characters.

Examples
--------
>>> layout_positions({0: (1, 2), 1: (), 2: (3, 4), 3: (), 4: ()})
{1: (0.0, 1), 3: (1.0, 2), 4: (2.0, 2), 2: (1.5, 1), 0: (0.75, 0)}
>>> plot_text("<script>x</script>")
'&lt;script&gt;x&lt;/script&gt;'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from offcenter.viz.format import plot_lines, plot_text
from offcenter.viz.styles import setting_style, typography
from offcenter.viz.tree_layout import (
    FONT_FAMILY,
    FONT_SIZE,
    SHARES_PER_LINE,
    SIDE_TEST_WRAP,
    SIDE_WRAP,
    WRAP,
    TreeLayout,
    class_color,
    split_text,
    tree_layout,
    wrap,
)

#: Node text (px) of the Tree page's drawing, and in presentation mode (the curve pages' size).
NODE_FONT = 14.0
PRESENTATION_FONT = 20.0
#: Above this many visible nodes a tree is too big to read: the page collapses it.
READABLE_NODES = 63
#: The Tree page draws this many nodes before it collapses the deepest levels (a full tree
#: of depth 6; the drawing is panned and zoomed when it is wider than the chart).
DRAWN_NODES = 127


def layout_positions(
    children: Mapping[int, Sequence[int]], root: int = 0, max_depth: int | None = None
) -> dict[int, tuple[float, int]]:
    """(x, depth) of every visible node; nodes below ``max_depth`` are hidden.

    Leaves (and collapsed nodes) of the visible tree take x = 0, 1, 2, ... from left to right;
    a parent sits at the mean x of its first and last child. Iterative (no recursion limit).
    """
    pos: dict[int, tuple[float, int]] = {}
    next_x = 0.0
    stack: list[tuple[int, int, bool]] = [(root, 0, False)]
    while stack:
        node, depth, expanded = stack.pop()
        kids = tuple(children.get(node, ()))
        visible_kids = kids if (max_depth is None or depth < max_depth) else ()
        if not visible_kids:
            pos[node] = (next_x, depth)
            next_x += 1.0
            continue
        if not expanded:
            stack.append((node, depth, True))
            for kid in reversed(visible_kids):
                stack.append((kid, depth + 1, False))
        else:
            xs = [pos[k][0] for k in visible_kids]
            pos[node] = ((xs[0] + xs[-1]) / 2.0, depth)
    return pos


def visible_depth(n_nodes_by_depth: Sequence[int], limit: int = READABLE_NODES) -> int:
    """The deepest level to show so that at most ``limit`` nodes are drawn (at least 1).

    >>> visible_depth([1, 2, 4, 8, 16, 32, 64])
    5
    """
    total = 0
    for depth, count in enumerate(n_nodes_by_depth):
        total += count
        if total > limit:
            return max(1, depth - 1)
    return max(1, len(n_nodes_by_depth) - 1)


def nodes_by_depth(tree) -> list[int]:
    """How many nodes the tree has at each depth."""
    depth = max(node.depth for node in tree.nodes)
    counts = [0] * (depth + 1)
    for node in tree.nodes:
        counts[node.depth] += 1
    return counts


def short_branch(label: str, feature: str) -> str:
    """A branch label without its feature name: "petal width <= 0.8" -> "<= 0.8"."""
    label = str(label)
    feature = str(feature)
    if label.startswith(feature):
        rest = label[len(feature) :].strip()
        if rest:
            return rest
    return label


def _hover(node, classes, collapsed: bool) -> str:
    lines = [f"node {node.id} (depth {node.depth}), n = {int(round(node.n))}"]
    total = max(float(np.sum(node.counts)), 1.0)
    for cls, c in zip(classes, node.counts):
        lines.append(f"  {plot_text(cls, 30)}: {int(round(c))} ({c / total:.1%})")
    lines.append(f"impurity {float(node.impurity):.6g}")
    if node.split is not None:
        lines.append(f"split: {plot_text(split_text(node.split))}, gain {node.split.gain:.6g}")
    else:
        lines.append(f"leaf: predicts {plot_text(node.prediction)}")
    if collapsed:
        lines.append("(subtree hidden: widen the shown depth)")
    return "<br>".join(lines)


def _tint(color: str, amount: float) -> str:
    """``color`` (#rrggbb) mixed with white: amount 0 = white, 1 = the colour."""
    r, g, b = (int(color[k : k + 2], 16) for k in (1, 3, 5))
    mix = [round(255 - amount * (255 - c)) for c in (r, g, b)]
    return "#" + "".join(f"{c:02x}" for c in mix)


def _rect(left: float, top: float, right: float, bottom: float) -> tuple[list, list]:
    """A closed rectangle (px, y downwards) as plot coordinates (y upwards), None-terminated."""
    return [left, right, right, left, left, None], [-top, -top, -bottom, -bottom, -top, None]


def fitting_depth(clf, width: float) -> int:
    """The deepest level down to which the drawing of ``clf`` is at most ``width`` px wide
    (at least 1 for a tree that splits; 0 for a single leaf).

    A drawing only widens with its depth (each level adds boxes under the ones shown), so the
    levels are tried from the top and the search stops at the first that is too wide: a few
    small layouts instead of every deep one.
    """
    depth = int(clf.tree_.depth)
    best = min(depth, 1)
    for d in range(1, depth + 1):
        if tree_layout(clf, max_depth=None if d == depth else d).width > width:
            break
        best = d
    return best


def fit_depth(
    clf,
    width: float,
    height: float,
    *,
    font_size: float = NODE_FONT,
    wrap_width: int = WRAP,
    shares_per_line: int = SHARES_PER_LINE,
    layout_of: Callable[[int | None], TreeLayout] | None = None,
) -> int:
    """The deepest level whose drawing fits ``width`` x ``height`` px at ``font_size`` px text
    (at least 1 for a tree that splits, so the root and its children are always drawn; 0 for a
    single leaf). ``layout_of(depth)`` (None: the whole tree) gives the drawing's layout at a
    depth when the caller keeps them (the Tree page draws one of them next); by default each
    is computed.

    The drawing at depth d is ``tree_layout(clf, max_depth=d)`` scaled by
    ``font_size / FONT_SIZE``; it fits when both its width and height, so scaled, are within
    the bounds. Width and height only grow with the depth, so the levels are tried from the top.

    >>> from offcenter.tree import TreeClassifier
    >>> clf = TreeClassifier().fit([[0.0], [1.0], [2.0], [3.0]], [0, 1, 0, 1])
    >>> fit_depth(clf, 10_000, 10_000), fit_depth(clf, 10, 10)
    (3, 1)
    """
    scale = float(font_size) / FONT_SIZE
    depth = int(clf.tree_.depth)
    best = min(depth, 1)
    if layout_of is None:

        def layout_of(d):
            return tree_layout(
                clf, max_depth=d, wrap_width=wrap_width, shares_per_line=shares_per_line
            )

    for d in range(1, depth + 1):
        lay = layout_of(None if d == depth else d)
        if lay.width * scale > width or lay.height * scale > height:
            break
        best = d
    return best


#: Longest line of a compact box's test (characters): four boxes of depth 2 side by side at
#: 18 px text in a chart about 740 px wide.
COMPACT_WRAP = 12


@dataclass(frozen=True)
class DrawingFit:
    """How a tree is drawn in a chart: the deepest level shown in full (``depth``; the
    ``focus`` node's path and children are drawn below it), whether its boxes are compact,
    their line width, the text size (px) and whether the tree is drawn left to right
    (:func:`~offcenter.viz.tree_layout.sideways_layout`)."""

    depth: int
    compact: bool
    wrap_width: int
    font_size: float
    sideways: bool = False


def fit_drawing(
    clf,
    width: float,
    height: float,
    *,
    font_size: float = NODE_FONT,
    min_font: float | None = None,
    wrap_width: int = WRAP,
    shares_per_line: int = SHARES_PER_LINE,
    focus: int | None = None,
    allow_compact: bool = False,
    layout_of: Callable[..., TreeLayout] | None = None,
) -> DrawingFit:
    """The drawing of ``clf`` that fits ``width`` x ``height`` px: the deepest level first,
    with full boxes at ``font_size``, else compact boxes (``allow_compact``: node id, test, n
    and the bar, tests wrapped at :data:`COMPACT_WRAP`) at ``font_size``, then at ``min_font``;
    at least the root's children (depth 1) and the ``focus`` node's children, the text made
    smaller than ``min_font`` only when even that is wider than the chart (a drawing taller
    than ``height`` is drawn taller).

    With ``allow_compact``, a tree whose levels are too wide to show two of them (one branch
    per category value: German credit's 24 nodes at depth 2) is drawn left to right instead
    (:func:`~offcenter.viz.tree_layout.sideways_layout`: the levels become columns, each node
    one line, stacked in the chart's height) when that shows more levels, at ``font_size``,
    then at ``min_font``. Drawn top-down, depth 2 holds at most four boxes side by side;
    sideways, a column holds as many one-line boxes as the height has rows (740 px at 18 px
    text: 26), so the wider levels of a multiway tree fit at the same text size.

    ``layout_of(depth, compact, wrap_width, sideways)`` (depth None: the whole tree) gives a
    layout when the caller keeps them; by default each is computed.

    >>> from offcenter.tree import TreeClassifier
    >>> clf = TreeClassifier().fit([[0.0], [1.0], [2.0], [3.0]], [0, 1, 0, 1])
    >>> fit_drawing(clf, 10_000, 10_000)
    DrawingFit(depth=3, compact=False, wrap_width=26, font_size=14.0, sideways=False)
    >>> small = fit_drawing(clf, 200, 10_000, font_size=20, min_font=18, allow_compact=True)
    >>> small.compact, small.font_size < 18
    (True, True)
    """
    depth = int(clf.tree_.depth)
    lowest = float(min_font if min_font is not None else font_size)
    compact_wrap = min(COMPACT_WRAP, int(wrap_width))
    if layout_of is None:

        def layout_of(d, compact, wrap_w, sideways=False):
            return tree_layout(
                clf,
                max_depth=d,
                wrap_width=wrap_w,
                shares_per_line=shares_per_line,
                focus=focus,
                compact=compact,
                sideways=sideways,
            )

    def fits(lay, font):
        scale = font / FONT_SIZE
        return lay.width * scale <= width and lay.height * scale <= height

    fonts = [float(font_size)] + ([lowest] if lowest < font_size else [])
    tries = [(False, int(wrap_width), float(font_size))]
    if allow_compact:
        tries += [(True, compact_wrap, font) for font in fonts]
    top = None
    for d in range(depth, 0, -1):
        for compact, wrap_w, font in tries:
            if fits(layout_of(None if d == depth else d, compact, wrap_w), font):
                top = DrawingFit(d, compact, wrap_w, font)
                break
        if top is not None:
            break
    side_wraps = (SIDE_WRAP, SIDE_TEST_WRAP)  # one-line boxes, else two lines each
    if allow_compact and (top is None or top.depth < min(depth, 2)):
        for d in range(depth, top.depth if top is not None else 0, -1):
            for side_wrap in side_wraps:
                for font in fonts:
                    lay = layout_of(None if d == depth else d, True, side_wrap, True)
                    if fits(lay, font):
                        return DrawingFit(d, True, side_wrap, font, sideways=True)
    if top is not None:
        return top
    # nothing fits at min_font: the drawing of the least depth whose text shrinks least to the
    # chart's width (top-down, or sideways when allowed)
    d = min(depth, 1)
    shrunk = []
    compact, wrap_w, font = tries[-1]
    options = [(compact, wrap_w, False)]
    if allow_compact:
        options += [(True, side_wrap, True) for side_wrap in side_wraps]
    for compact, wrap_w, sideways in options:
        lay = layout_of(None if d == depth else d, compact, wrap_w, sideways)
        scale = font / FONT_SIZE
        small = font * min(1.0, width / max(lay.width * scale, 1.0))
        shrunk.append((small, -len(shrunk), DrawingFit(d, compact, wrap_w, small, sideways)))
    return max(shrunk)[2]


def fitted_font(
    clf,
    width: float,
    *,
    max_depth: int | None = None,
    font_size: float = NODE_FONT,
    wrap_width: int = WRAP,
    shares_per_line: int = SHARES_PER_LINE,
    marked: Mapping[int, str] | Sequence[int] = (),
    layout: TreeLayout | None = None,
    focus: int | None = None,
    compact: bool = False,
) -> float:
    """The node text size (px) at which the drawing at ``max_depth`` is at most ``width`` px
    wide: ``font_size`` when it fits, else smaller in proportion. ``layout``: the drawing's
    :func:`~offcenter.viz.tree_layout.tree_layout` when already computed (with these
    ``max_depth``, ``wrap_width``, ``shares_per_line`` and ``marked``).

    Plotly sizes text in px, not in data units: a drawing wider than its chart would be shrunk
    by Plotly with its text left at full size (overlapping). Drawn at this size instead, the
    boxes, gaps and text shrink together.

    >>> from offcenter.tree import TreeClassifier
    >>> clf = TreeClassifier().fit([[0.0], [1.0], [2.0], [3.0]], [0, 1, 0, 1])
    >>> fitted_font(clf, 10_000), fitted_font(clf, 100) < 14
    (14.0, True)
    """
    lay = layout or tree_layout(
        clf,
        max_depth=max_depth,
        wrap_width=wrap_width,
        shares_per_line=shares_per_line,
        marked=marked,
        focus=focus,
        compact=compact,
    )
    scale = float(font_size) / FONT_SIZE
    return float(font_size) * min(1.0, float(width) / max(lay.width * scale, 1.0))


def _title_lines(title: str | None, view_width: float, size: float = 14.0) -> list[str]:
    return wrap(str(title), max(24, int(view_width / (0.6 * size)))) if title else []


def title_lines(title: str | None, view_width: float = 940.0, size: float = 14.0) -> int:
    """How many rows :func:`tree_figure` writes ``title`` on for a chart ``view_width`` wide
    (title text of ``size`` px)."""
    return len(_title_lines(title, view_width, size))


def tree_figure(clf, *, selected: int | None = None, **drawing) -> go.Figure:
    """Draw a fitted tree like ``sklearn.tree.plot_tree``: one box of full text per node.

    Each box shows the node id (as the node selector and the row trace name it), the full split
    text or the predicted class, n, the impurity and the split's gain, and a bar of the class
    shares (a non-empty class is at least 3 px wide) with the shares written under it. The
    branch conditions are on the edges. The layout is :func:`offcenter.viz.tree_layout.tree_layout`
    in units of :data:`~offcenter.viz.tree_layout.FONT_SIZE`-px text, drawn at
    ``font_size / FONT_SIZE`` px per unit (the x axis is tied to the y axis, so the text, the
    boxes and the gaps scale together): no text is cut and no two texts overlap. The axes' ranges
    are the whole drawing, so Plotly always shows all of it: in a chart at least as wide as the
    drawing it is drawn at ``font_size`` px text; in a narrower one (or in fullscreen) Plotly
    scales the drawing to the chart and keeps it whole. :func:`fit_depth` picks the depth whose
    drawing fits a chart at a given text size. Marker ``customdata`` is the node id (the trace
    named "nodes"); ``layout.meta`` holds the drawing's size in px (``width``, ``height``) and
    its ``font_size``.

    Parameters
    ----------
    clf : TreeClassifier
        A fitted tree (``clf.tree_.nodes``, ``clf.classes_``).
    max_depth : int, optional
        Deepest level drawn; deeper subtrees are collapsed into their ancestor
        ("+ k nodes hidden").
    selected : int, optional
        Node drawn highlighted. The other parameters are :func:`tree_drawing`'s (keywords).
    path : sequence of int
        Node ids of a traced row's path, drawn in a highlight colour.
    height : int, optional
        Figure height in px; by default the drawing's own height (recommended: a smaller
        height shrinks the drawing).
    title : str, optional
        The figure's title (user text, escaped), e.g. the setting's label and leaf rule.
    marked : mapping node id -> text, or sequence of node ids
        Nodes drawn marked in red with the text on their first line (default
        "splits differ"), e.g. where two trees first differ.
    view_width : float
        About the width (px) of the chart the figure is shown in (940: the Tree page at
        1400 px with the sidebar open): the title wraps and the legend's rows are counted
        for it.
    title_rows : int, optional
        Rows kept for the title (at least its own, :func:`title_lines`), so that figures
        shown side by side have their drawings at the same height.
    font_size : float
        Size (px) of the node text when the chart is as wide as the drawing (default
        :data:`NODE_FONT`, 14 px; presentation mode: :data:`PRESENTATION_FONT`).
    label_font : float, optional
        Least size (px) of the title and the class legend, whatever the node text's size
        (presentation mode: 18, also when the node text is made smaller to fit).
    wrap_width, shares_per_line : int
        Passed to :func:`~offcenter.viz.tree_layout.tree_layout` (narrow boxes for a phone).

    Examples
    --------
    >>> from offcenter.tree import TreeClassifier
    >>> clf = TreeClassifier().fit([[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1])
    >>> fig = tree_figure(clf, font_size=20)
    >>> text = next(t for t in fig.data if t.name == "text")
    >>> fig.layout.meta["font_size"], text.textfont.size
    (20.0, 20.0)
    """
    return tree_drawing(clf, **drawing).figure(selected)


#: The templates of the drawings' layouts, one object per distinct template.
_TEMPLATES: list[dict] = []
_MAX_TEMPLATES = 8


def _shared_template(layout: dict) -> dict:
    """``layout`` with its ``template`` replaced by an equal one shared by every drawing.

    Each figure gets its own deep copy of Plotly's default template (about 160 dicts and
    lists); the Tree page caches many drawings for the life of the process, and every full
    garbage collection scans what they hold (:mod:`offcenter.ops.heap`). The drawings are
    read-only, so one copy serves them all; the JSON sent is the same."""
    template = layout.get("template")
    if not isinstance(template, dict):
        return layout
    for shared in _TEMPLATES:
        if shared == template:
            layout["template"] = shared
            return layout
    if len(_TEMPLATES) < _MAX_TEMPLATES:  # more: templates changed at run time, no sharing
        _TEMPLATES.append(template)
    return layout


def _outline_trace(xs: list, ys: list, color: str, width: float, name: str) -> dict:
    """One trace of box outlines (rectangles separated by None), not hoverable."""
    return dict(
        type="scatter",
        x=xs,
        y=ys,
        mode="lines",
        hoverinfo="skip",
        showlegend=False,
        line={"color": color, "width": width},
        name=name,
    )


@dataclass(frozen=True)
class TreeDrawing:
    """A tree's figure without its selected node: built once, drawn with any node selected.

    Laying a tree out and assembling its traces is most of a drawing's cost (and of a click's
    work); the selection is one outline. The Tree
    page keeps the drawing and asks for :meth:`spec` at every click.

    Attributes
    ----------
    traces : tuple of dict
        The figure's traces, in drawing order, without the selected node's outline.
    layout : dict
        The figure's layout.
    boxes : mapping of int to (left, top, right, bottom)
        The box of every node drawn (a node below the depth drawn has none), in the units of
        the figure's axes (y down).
    selected_at : int
        Where the selected node's outline goes in ``traces``: above the other outlines,
        under the text and the clickable markers.
    """

    traces: tuple
    layout: dict
    boxes: Mapping
    selected_at: int

    def spec(self, selected: int | None = None, *, slot: bool = False) -> dict:
        """The figure as plain dicts (``{"data": [...], "layout": {...}}``) with ``selected``
        outlined; the drawing's own dicts, shared, not copied: read-only.

        ``slot``: the selected node's outline trace is there even when no node is drawn
        selected (empty), at ``selected_at``: the figure the browser draws once per drawing
        and outlines a node in by restyling that trace with :meth:`outline`
        (:mod:`offcenter.app.tree_chart`)."""
        data = list(self.traces)
        outline = self.outline(selected)
        if outline is not None or slot:
            xs, ys = outline if outline is not None else ([], [])
            data.insert(
                self.selected_at,
                _outline_trace(xs, ys, "#D55E00", 4.0, "box outline selected"),
            )
        return {"data": data, "layout": self.layout}

    def outline(self, node: int | None) -> tuple[list, list] | None:
        """The selected outline's ``(x, y)`` for ``node`` (a closed rectangle, None-ended), None
        when the node is not drawn (below the depth drawn) or ``node`` is None."""
        box = None if node is None else self.boxes.get(int(node))
        return None if box is None else _rect(*box)

    def figure(self, selected: int | None = None) -> go.Figure:
        """:meth:`spec` as a ``go.Figure`` (its own copy of the dicts)."""
        spec = self.spec(selected)
        # built unvalidated: the traces are plain, known-good dicts (Plotly's validation would
        # cost more than the drawing)
        return go.Figure(data=spec["data"], layout=spec["layout"], _validate=False)


def tree_drawing(
    clf,
    *,
    max_depth: int | None = None,
    path: Sequence[int] = (),
    height: int | None = None,
    title: str | None = None,
    marked: Mapping[int, str] | Sequence[int] = (),
    view_width: float = 940.0,
    title_rows: int | None = None,
    font_size: float = NODE_FONT,
    wrap_width: int = WRAP,
    shares_per_line: int = SHARES_PER_LINE,
    layout: TreeLayout | None = None,
    focus: int | None = None,
    compact: bool = False,
    label_font: float | None = None,
    sideways: bool = False,
) -> TreeDrawing:
    """:func:`tree_figure` without a selected node, as a :class:`TreeDrawing` (the same
    parameters): ``tree_drawing(clf, **kw).figure(node)`` is ``tree_figure(clf,
    selected=node, **kw)``. ``layout``: the drawing's
    :func:`~offcenter.viz.tree_layout.tree_layout` when already computed (with these
    ``max_depth``, ``marked``, ``wrap_width``, ``shares_per_line``, ``focus`` and
    ``compact``, ``sideways``). ``focus``, ``compact`` and ``sideways`` are
    :func:`~offcenter.viz.tree_layout.tree_layout`'s (a node drawn open below ``max_depth``;
    compact boxes; the tree drawn left to right).

    >>> from offcenter.tree import TreeClassifier
    >>> clf = TreeClassifier().fit([[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1])
    >>> drawing = tree_drawing(clf)
    >>> [t["name"] for t in drawing.spec(1)["data"]][drawing.selected_at]
    'box outline selected'
    >>> len(drawing.spec(None)["data"]) == len(drawing.traces)
    True
    """
    if not font_size > 0:
        raise ValueError(f"font_size must be positive; got {font_size}.")
    scale = float(font_size) / FONT_SIZE
    lay = layout or tree_layout(
        clf,
        max_depth=max_depth,
        marked=marked,
        wrap_width=wrap_width,
        shares_per_line=shares_per_line,
        focus=focus,
        compact=compact,
        sideways=sideways,
    )
    tree = clf.tree_
    classes = [str(c) for c in clf.classes_]
    nodes = {node.id: node for node in tree.nodes}
    boxes = lay.boxes
    marked_ids = set(int(i) for i in (marked.keys() if isinstance(marked, Mapping) else marked))
    on_path = set(int(i) for i in path)
    traces: list[dict] = []

    # box fills: leaves tinted with their predicted class, marked nodes in light red
    fills: dict[str, tuple[list, list]] = {}
    for i in lay.order:
        b = boxes[i]
        if i in marked_ids:
            color = "#fde7e9"
        elif b.leaf:
            color = _tint(class_color(b.prediction_index), 0.16)
        else:
            color = "#ffffff"
        xs, ys = _rect(b.left, b.top, b.right, b.bottom)
        fx, fy = fills.setdefault(color, ([], []))
        fx += xs
        fy += ys
    for color, (fx, fy) in fills.items():
        traces.append(
            dict(
                type="scatter",
                x=fx,
                y=fy,
                mode="lines",
                fill="toself",
                fillcolor=color,
                line={"width": 0, "color": color},
                hoverinfo="skip",
                showlegend=False,
                name=f"box fill {color}",
            )
        )

    # edges, grey, and the traced path on top in orange
    for highlight in (False, True):
        ex, ey = [], []
        for parent, child, pieces in lay.edges:
            if highlight != (child in on_path and parent in on_path):
                continue
            for piece in pieces:
                ex += [p[0] for p in piece] + [None]
                ey += [-p[1] for p in piece] + [None]
        traces.append(
            dict(
                type="scatter",
                x=ex,
                y=ey,
                mode="lines",
                hoverinfo="skip",
                showlegend=False,
                line={
                    "color": "#D55E00" if highlight else "#9aa0a6",
                    "width": 4 if highlight else 1.5,
                },
                name="traced path" if highlight else "edges",
            )
        )

    # class bars: one filled trace per class, one rectangle per node
    for j in range(len(classes)):
        sx: list = []
        sy: list = []
        for i in lay.order:
            b = boxes[i]
            for k, left, top, right, bottom in b.bar_rects():
                if k != j:
                    continue
                xs, ys = _rect(left, top, right, bottom)
                sx += xs
                sy += ys
        traces.append(
            dict(
                type="scatter",
                x=sx,
                y=sy,
                mode="lines",
                fill="toself",
                fillcolor=class_color(j),
                line={"width": 0.5, "color": "#ffffff"},
                hoverinfo="skip",
                showlegend=False,
                name=f"bar {j}",
            )
        )

    # box outlines: plain, on the traced path, marked (drawn in that order), then the selected
    # node's (TreeDrawing.spec: drawn for each selection, right here)
    styles = [
        ("box outline", "#5f6368", 1.0, lambda i: True),
        ("box outline path", "#D55E00", 2.5, lambda i: i in on_path),
        ("box outline marked", "#B00020", 3.0, lambda i: i in marked_ids),
    ]
    for name, color, width, keep in styles:
        ox: list = []
        oy: list = []
        for i in lay.order:
            if keep(i):
                b = boxes[i]
                xs, ys = _rect(b.left, b.top, b.right, b.bottom)
                ox += xs
                oy += ys
        if ox or name == "box outline":
            traces.append(_outline_trace(ox, oy, color, width, name))

    selected_at = len(traces)
    # every text line of the drawing in one trace
    lines = lay.line_rows()  # (text, plain, x, y, color, node)
    traces.append(
        dict(
            type="scatter",
            x=[t[2] for t in lines],
            y=[-t[3] for t in lines],
            mode="text",
            text=[t[0] for t in lines],
            textposition="middle center",
            textfont={
                "family": FONT_FAMILY,
                "size": float(font_size),
                "color": [t[4] for t in lines],
            },
            hoverinfo="skip",
            showlegend=False,
            name="text",
        )
    )

    # the nodes: one transparent square per box, customdata = node id (clicks, hover)
    ids = list(lay.order)
    traces.append(
        dict(
            type="scatter",
            x=[boxes[i].x for i in ids],
            y=[-(boxes[i].top + boxes[i].height / 2) for i in ids],
            mode="markers",
            name="nodes",
            customdata=tuple((i,) for i in ids),  # tuples of atoms: untracked by the collector
            text=[f"node {i}" for i in ids],
            hovertext=[_hover(nodes[i], classes, boxes[i].collapsed) for i in ids],
            hoverinfo="text",
            marker={
                "size": [scale * max(12.0, min(boxes[i].width, boxes[i].height)) for i in ids],
                "symbol": "square",
                "color": "rgba(0,0,0,0)",
                "line": {"width": 0},
            },
            selected={"marker": {"opacity": 1}},
            unselected={"marker": {"opacity": 1}},
            showlegend=False,
        )
    )
    # legend entries for the classes
    for j, cls in enumerate(classes[:12]):
        traces.append(
            dict(
                type="scatter",
                x=[None],
                y=[None],
                mode="markers",
                name=plot_text(cls, 24),
                marker={"symbol": "square", "size": 10 * scale, "color": class_color(j)},
                hoverinfo="skip",
            )
        )

    # ``scale`` px per unit: the plot area is the drawing's size times ``scale`` and the axes'
    # ranges are the whole drawing, the x axis tied to the y axis (scaleanchor), so Plotly
    # shows all of it, shrunk in a narrower chart, centred in a wider one or in fullscreen.
    # The margin above the plot holds the title and the class legend; it is computed (not
    # auto-expanded by Plotly, which would shrink the plot area and so the drawing).
    title_font = max(14.0, float(font_size), float(label_font or 0))
    title_lines = _title_lines(title, view_width, title_font)
    legend_font = max(12.0, float(font_size), float(label_font or 0))
    legend_w = 50 + sum(3 * legend_font + 0.62 * legend_font * len(str(c)) for c in classes[:12])
    legend_rows = -(-int(legend_w) // max(int(view_width), 200))
    title_row_h = 1.45 * title_font
    legend_row_h = 1.75 * legend_font
    top_margin = int(
        12 + title_row_h * max(len(title_lines), title_rows or 0) + legend_row_h * legend_rows
    )
    plot_h = lay.height * scale
    fig_h = int(height) if height else int(np.ceil(plot_h + top_margin + 8))
    layout = dict(
        height=fig_h,
        margin={"l": 2, "r": 2, "t": top_margin, "b": 8, "autoexpand": False},
        plot_bgcolor="white",
        xaxis={
            "visible": False,
            "range": [0.0, lay.width],
            "scaleanchor": "y",
            "scaleratio": 1,
            "constrain": "range",
        },
        yaxis={"visible": False, "range": [-lay.height, 0.0], "constrain": "range"},
        legend={
            "orientation": "h",
            "x": 0,
            "y": 1.0,
            "yanchor": "bottom",
            "title": {"text": "class", "side": "left", "font": {"size": legend_font}},
            "font": {"size": legend_font},
        },
        # a click is an event only (the app's chart sends the node id): no Plotly point
        # selection, which paints every other point of every trace, the boxes' text
        # included, at 20 % opacity after a click, in any figure that stays on screen
        clickmode="event",
        dragmode="pan",
        hoverlabel={"align": "left", "font": {"size": max(13.0, 0.8 * float(font_size))}},
        meta={
            "layout_width": lay.width,
            "layout_height": lay.height,
            "width": lay.width * scale,
            "height": plot_h,
            "font_size": float(font_size),
        },
    )
    if title_lines:
        # an annotation above the legend (a multi-line layout title is placed by its first
        # line and gets cut at the top)
        layout["annotations"] = [
            {
                "name": "title",
                "text": "<br>".join(plot_text(t) for t in title_lines),
                "xref": "paper",
                "yref": "paper",
                "x": 0.0,
                "y": 1.0,
                "xanchor": "left",
                "yanchor": "bottom",
                "yshift": legend_row_h * legend_rows + 2,
                "showarrow": False,
                "align": "left",
                "font": {"size": title_font, "color": "#202124"},
            }
        ]
    # the layout as a figure has it (with Plotly's default template), so that the plain spec
    # draws what the go.Figure draws
    layout = _shared_template(go.Figure(layout=layout, _validate=False).to_dict()["layout"])
    return TreeDrawing(
        traces=tuple(traces),
        layout=layout,
        boxes={
            int(i): (boxes[i].left, boxes[i].top, boxes[i].right, boxes[i].bottom)
            for i in lay.order
        },
        selected_at=selected_at,
    )


def node_trace_index(fig: go.Figure) -> int:
    """Index of the trace holding the node markers (curve_number of a click on a node)."""
    for k, trace in enumerate(fig.data):
        if trace.name == "nodes":
            return k
    raise ValueError("the figure has no node trace")


def selected_node(event) -> int | None:
    """The node id a plotly_chart selection event points at (None if none)."""
    try:
        points = event["selection"]["points"]
    except (KeyError, TypeError, AttributeError):
        return None
    for point in points or []:
        data = point.get("customdata")
        if isinstance(data, (list, tuple)) and data:
            data = data[0]
        if data is None:
            continue
        try:
            return int(data)
        except (TypeError, ValueError):
            continue
    return None


def threshold_figure(
    gains,
    labels: Mapping[str, str],
    feature: str,
    *,
    chosen: float | None = None,
    keys: Sequence[str] | None = None,
    normalise: bool = False,
    presentation: bool = False,
) -> go.Figure:
    """Gain against the threshold of a numeric feature, one line per measure setting.

    Text sizes and line widths are :func:`offcenter.viz.styles.typography` (``presentation``:
    20 px and more, the curve pages' sizes).

    ``gains`` is ``clf.threshold_gains(node, feature)``: columns "threshold", "n_left" and
    "gain:<key>". Raw gains by default; with ``normalise`` each curve is divided by its maximum
    (shapes compared on one scale), except a curve whose gains span less than 1e-9, left flat at
    0 (:func:`offcenter.viz.comparison.flat_curves` names them for a note). The chosen threshold
    is a dashed vertical line.
    """
    keys = (
        list(keys)
        if keys is not None
        else [c.split(":", 1)[1] for c in gains.columns if c.startswith("gain:")]
    )
    x = np.asarray(gains["threshold"], dtype=float)
    typo = typography(presentation)
    data = []
    for key in keys:
        col = f"gain:{key}"
        if col not in gains.columns:
            continue
        y = np.asarray(gains[col], dtype=float)
        if normalise:
            # a curve spanning less than 1e-9 (e.g. misclassification gains all 0) stays flat
            # at 0: divided by its maximum its round-off would look like a 0-to-1 curve
            finite = y[np.isfinite(y)]
            span = float(finite.max() - finite.min()) if finite.size else 0.0
            top = float(np.abs(finite).max()) if finite.size else 0.0
            y = np.zeros_like(y) if span < 1e-9 or top <= 0 else y / top
        style = setting_style(key)  # the setting's own colour, dash and marker, on every page
        data.append(
            {
                "type": "scatter",
                "x": x,
                "y": y,
                "mode": "lines+markers" if len(x) < 40 else "lines",
                # in lines, never cut: "θ = prior (0.65, 0.35)" tells settings apart
                "name": plot_lines(labels.get(key, key), 30 if presentation else 40),
                "line": {"color": style.color, "dash": style.dash, "width": typo.line},
                "marker": {"symbol": style.symbol, "color": style.color, "size": typo.marker},
                "hovertemplate": "threshold %{x:.4g}<br>gain %{y:.4f}<extra>%{fullData.name}</extra>",
            }
        )
    shapes, notes = [], []
    if chosen is not None and np.isfinite(chosen):
        line = {"color": "#5f6368", "dash": "dash"}
        shapes.append(
            {"type": "line", "xref": "x", "yref": "paper", "x0": float(chosen),
             "x1": float(chosen), "y0": 0, "y1": 1, "line": line}
        )  # fmt: skip
        notes.append(
            {"x": float(chosen), "xref": "x", "yref": "paper", "y": 1, "text": "chosen",
             "showarrow": False, "yanchor": "bottom", "font": {"size": typo.annotation}}
        )  # fmt: skip
    # the legend under the plot: its height (counted generously: an entry of two lines is a
    # row of two lines; at 20 px and more one entry a row) is added to the figure's
    per_row = 1 if presentation else 3
    lines = [d["name"].count("<br>") + 1 for d in data]
    rows = [max(lines[i : i + per_row]) for i in range(0, len(lines), per_row)]
    legend_h = int(sum(rows) * typo.legend * 1.3 + 10 * len(rows))
    layout = {
        "xaxis": {
            "title": {
                "text": f"threshold on {plot_text(feature, 40)}",
                "font": {"size": typo.axis_title},
            },
            "tickfont": {"size": typo.tick},
            "automargin": True,
        },
        "yaxis": {
            "title": {
                "text": "gain / its maximum" if normalise else "gain",
                "font": {"size": typo.axis_title},
            },
            "tickfont": {"size": typo.tick},
            "automargin": True,
        },
        "height": (460 if presentation else 360) + legend_h,
        "margin": {"l": 10, "r": 10, "t": 30 + typo.annotation, "b": 10 + legend_h},
        "legend": {
            "orientation": "h",
            "y": -0.18 if not presentation else -0.22,
            "yanchor": "top",
            "font": {"size": typo.legend},
        },
        "font": {"size": typo.font},
        "shapes": shapes,
        "annotations": notes,
    }  # no template: Streamlit's theme styles it, as it does the tree figure
    # plain dicts, not validated (the tests validate them): a node click rebuilds it
    return go.Figure(data=data, layout=layout, _validate=False)


def class_histogram_figure(
    values,
    labels,
    classes: Sequence,
    feature: str,
    *,
    threshold: float | None = None,
    presentation: bool = False,
    bins: int = 30,
) -> go.Figure:
    """How a numeric feature's values at a node spread over the classes (dtreeviz's view).

    One stacked histogram per class (the class colours of the tree drawing), on shared bins
    (:func:`numpy.histogram_bin_edges`, at most ``bins``), and the split's threshold as a dashed
    line: the counts each side of it are the children's class counts. Missing values are left
    out (the caption of the page says how many).

    >>> fig = class_histogram_figure([1.0, 2.0, 2.5, 4.0], ["a", "b", "a", "b"], ["a", "b"], "x",
    ...                              threshold=2.2)
    >>> [t.name for t in fig.data], int(sum(sum(t.y) for t in fig.data))
    (['a', 'b'], 4)
    """
    x = np.asarray(values, dtype=float)
    lab = np.asarray([str(v) for v in labels], dtype=object)
    ok = np.isfinite(x)
    x, lab = x[ok], lab[ok]
    typo = typography(presentation)
    edges = (
        np.histogram_bin_edges(x, bins=min(int(bins), max(1, len(np.unique(x)))))
        if len(x)
        else np.array([0.0, 1.0])
    )
    centres = (edges[:-1] + edges[1:]) / 2
    widths = np.diff(edges)
    data = []
    for j, cls in enumerate(classes):
        counts, _ = np.histogram(x[lab == str(cls)], bins=edges)
        data.append(
            {
                "type": "bar",
                "x": centres,
                "y": counts,
                "width": widths,
                "name": plot_text(cls, 24),
                "marker": {"color": class_color(j), "line": {"width": 0}},
                "hovertemplate": "%{x:.4g}: %{y} rows<extra>%{fullData.name}</extra>",
            }
        )
    shapes = []
    if threshold is not None and np.isfinite(threshold):
        shapes.append(
            {"type": "line", "xref": "x", "yref": "paper", "x0": float(threshold),
             "x1": float(threshold), "y0": 0, "y1": 1,
             "line": {"color": "#5f6368", "dash": "dash", "width": typo.guide}}
        )  # fmt: skip
    layout = _class_bars_layout(feature, typo, presentation, shapes, bargap=0)
    return go.Figure(data=data, layout=layout, _validate=False)


#: Missing values are a category of their own (as the tree routes them).
MISSING_CATEGORY = "(missing)"


def _category_key(value) -> object:
    """A category value as the tree groups it: None for a missing value."""
    if value is None:
        return None
    if isinstance(value, float) and np.isnan(value):
        return None
    return value


def _unique(names: list[str]) -> list[str]:
    """The labels made distinct by a " #k" suffix on repeats.

    >>> _unique(["a", "b", "a", "a"])
    ['a', 'b', 'a #2', 'a #3']
    """
    out, seen = [], {}
    for name in names:
        k = seen.get(name, 0) + 1
        seen[name] = k
        out.append(name if k == 1 else f"{name} #{k}")
    return out


def category_histogram_figure(
    values,
    labels,
    classes: Sequence,
    feature: str,
    *,
    groups: Sequence[Sequence] | None = None,
    presentation: bool = False,
    max_categories: int = 30,
) -> go.Figure:
    """How a nominal feature's values at a node spread over the classes: one bar per category,
    stacked by class (dtreeviz's view of a categorical split).

    Every row counts once, a missing value in the category "(missing)" (the tree routes it as a
    category of its own). With ``groups`` (the split's groups of category values, one per
    child, e.g. ``Split.groups`` of the node's split or the best grouping of the feature), the
    categories are ordered child by child and dashed lines separate the children: the stacked
    counts left of a line are the class counts of the children before it. Otherwise the
    categories are in decreasing frequency. Beyond ``max_categories`` categories the rarest are
    merged into one bar "(k others)".

    Parameters
    ----------
    values : sequence
        The feature's values at the node's training rows.
    labels : sequence
        The class of each row (compared as text with ``classes``).
    classes : sequence
        The classes, in the order of the tree's colours.
    feature : str
        The feature's name (the x axis title; user text, escaped).
    groups : sequence of sequences, optional
        The categories of each child of a split.
    presentation : bool
        The curve pages' presentation sizes (:func:`offcenter.viz.styles.typography`).
    max_categories : int
        Bars drawn at most (the rest merged).

    Returns
    -------
    plotly.graph_objects.Figure
        One bar trace per class (named by the class), x the categories (escaped text),
        ``layout.meta["groups"]``: the child of each bar (None when no groups are given).

    >>> fig = category_histogram_figure(["r", "g", "r", None], ["a", "b", "b", "a"], ["a", "b"],
    ...                                 "colour", groups=[("g",), ("r", None)])
    >>> list(fig.data[0].x), list(fig.data[0].y), list(fig.data[1].y)
    (['g', 'r', '(missing)'], [0, 1, 1], [1, 1, 0])
    >>> fig.layout.meta["groups"], len(fig.layout.shapes)
    ([0, 1, 1], 1)
    """
    vals = [_category_key(v) for v in values]
    lab = np.asarray([str(v) for v in labels], dtype=object)
    if len(lab) != len(vals):
        raise ValueError(f"values and labels differ in length: {len(vals)} and {len(lab)}.")
    counts: dict = {}
    for v in vals:
        counts[v] = counts.get(v, 0) + 1
    child_of: dict = {}
    if groups is not None:
        for k, g in enumerate(groups):
            for v in g:
                child_of[_category_key(v)] = k
    # child by child (in the split's order), then by decreasing frequency; unseen last
    seen = sorted(counts, key=lambda v: (child_of.get(v, len(child_of) + 1), -counts[v], str(v)))
    if groups is not None:  # a split's categories absent from these rows still have a place
        seen = [v for g in groups for v in map(_category_key, g) if v in counts] + [
            v for v in seen if v not in child_of
        ]
    shown, rest = seen[: max(1, int(max_categories))], seen[max(1, int(max_categories)) :]
    if len(rest) == 1:
        shown, rest = seen, []
    names = [MISSING_CATEGORY if v is None else plot_text(v, 24) for v in shown]
    if rest:
        names.append(f"({len(rest)} others)")
    names = _unique(names)  # a category axis merges equal labels (cut or look-alike values)
    col = {v: i for i, v in enumerate(shown)}
    bar_of = np.array([col.get(v, len(shown)) for v in vals], dtype=np.int64)
    n_bars = len(names)
    typo = typography(presentation)
    data = []
    for j, cls in enumerate(classes):
        c = np.bincount(bar_of[lab == str(cls)], minlength=n_bars)[:n_bars].tolist()
        data.append(
            {
                "type": "bar",
                "x": names,
                "y": c,
                "name": plot_text(cls, 24),
                "marker": {"color": class_color(j), "line": {"width": 0}},
                "hovertext": [
                    f"{x}: {k} rows of class {plot_text(cls, 24)}" for x, k in zip(names, c)
                ],
                "hoverinfo": "text",
            }
        )
    bar_child = None
    shapes = []
    if groups is not None:
        bar_child = [child_of.get(v) for v in shown] + ([None] if rest else [])
        for i in range(1, n_bars):
            a, b = bar_child[i - 1], bar_child[i]
            if a is not None and b is not None and a != b:
                shapes.append(
                    {"type": "line", "xref": "x", "yref": "paper", "x0": i - 0.5, "x1": i - 0.5,
                     "y0": 0, "y1": 1,
                     "line": {"color": "#5f6368", "dash": "dash", "width": typo.guide}}
                )  # fmt: skip
    layout = _class_bars_layout(feature, typo, presentation, shapes, bargap=0.15, category=True)
    layout["meta"] = {"groups": bar_child}
    return go.Figure(data=data, layout=layout, _validate=False)


def _class_bars_layout(
    feature, typo, presentation: bool, shapes: list, *, bargap: float, category: bool = False
) -> dict:
    """The layout of the node's bars stacked by class (the numeric histogram and the nominal
    feature's categories): the feature as x title, rows as y, the classes' legend on top."""
    xaxis = {
        "title": {"text": plot_text(feature, 40), "font": {"size": typo.axis_title}},
        "tickfont": {"size": typo.tick},
        "automargin": True,
    }
    if category:
        xaxis["type"] = "category"
    return {
        "barmode": "stack",
        "bargap": bargap,
        "xaxis": xaxis,
        "yaxis": {
            "title": {"text": "rows at the node", "font": {"size": typo.axis_title}},
            "tickfont": {"size": typo.tick},
            "automargin": True,
        },
        "height": 460 if presentation else 360,
        "margin": {"l": 10, "r": 10, "t": 30, "b": 10},
        "legend": {"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0, "traceorder": "normal",
                   "font": {"size": typo.legend}},
        "font": {"size": typo.font},
        "shapes": shapes,
    }  # fmt: skip
