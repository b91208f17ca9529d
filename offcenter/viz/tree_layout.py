"""Pixel layout of a tree drawing: every node a box of full text lines, no two texts overlapping.

The drawing reads like ``sklearn.tree.plot_tree`` or rpart.plot: each node is a box with its id,
its full split text ("glucose ≤ 127.5", a categorical grouping wrapped over several lines, never
cut), n, its impurity and the gain of its split, and a bar of its class shares with the shares
written under it. The branch conditions are written on the edges.

Everything is measured in pixels at a fixed monospaced font (:data:`FONT_SIZE`, the advance of
DejaVu Sans Mono is 0.602 em; an East Asian wide character counts twice), so the width of each
line is known exactly and the layout can guarantee that no two texts overlap:

- a node needs the width of its box or of its branch label, whichever is wider, plus a gap;
  subtrees are packed by their contours (Reingold and Tilford 1981): a subtree's contour is the
  left and right extent of its nodes on every level, and each child is placed right of its left
  siblings' contours on every level they share; a parent is centred over its first and last
  child;
- the levels are horizontal bands: a band holds the boxes of one depth, the gap under it holds
  the edges and the branch labels of the next depth.

So boxes (and branch labels) of one depth never overlap, and those of different depths lie in
disjoint bands.
:func:`tree_layout` is pure (no Plotly); :func:`offcenter.viz.tree.tree_figure` draws it with
1 pixel = 1 data unit.

Examples
--------
>>> text_width("glucose ≤ 127.5") == 15 * CHAR_W
True
>>> wrap("colour in {red, green, blue}", 12)
['colour in', '{red, green,', 'blue}']
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from offcenter.measures.settings import MeasureSetting
from offcenter.viz.format import fmt_share, fmt_threshold, fmt_value, plot_text
from offcenter.viz.styles import CLASS_COLORS

#: Font of every text of the drawing (px) and its family (monospaced: widths are exact).
FONT_SIZE = 11
FONT_FAMILY = "DejaVu Sans Mono, Menlo, Consolas, monospace"
#: Advance of one character (DejaVu Sans Mono: 1233/2048 em = 0.602 em), rounded up.
CHAR_W = 0.61 * FONT_SIZE
#: Height of a text line (Plotly puts 1.3 em between the lines of a text).
LINE_H = 15.0
#: Padding inside a box, height of the class bar, gaps between boxes and levels (px).
PAD = 6.0
BAR_H = 9.0
H_GAP = 12.0
V_GAP = 10.0
#: The gap between compact boxes (px).
COMPACT_GAP = 8.0
#: Smallest width of a non-empty class segment of a bar (px): a 1 % minority stays visible.
MIN_SEGMENT = 3.0
#: Longest line of a split text or a branch label before it wraps (characters).
WRAP = 26
#: Class shares per line under a bar.
SHARES_PER_LINE = 3
#: The sideways layout (:func:`sideways_layout`): the class strip's width and its inset from
#: the box's edge, the padding of a box's text, the gap between two boxes of a column, between
#: two columns (the edges' room) and around the drawing (px), the longest line (characters).
SIDE_BAR_W = 4.0
SIDE_INSET = 1.5
SIDE_PAD_X = 3.0
SIDE_PAD_Y = 1.0
SIDE_GAP = 1.5
SIDE_COL_GAP = 12.0
SIDE_MARGIN = 2.0
SIDE_WRAP = 30
#: The sideways layout's longest line of a test (characters): the columns of the nodes drawn
#: with their children have height to spare, not width.
SIDE_TEST_WRAP = 16


def class_color(j: int) -> str:
    """The colour of class number ``j`` (the palette cycles)."""
    return CLASS_COLORS[j % len(CLASS_COLORS)]


def text_width(text: str) -> float:
    """Width in px of plain text in :data:`FONT_FAMILY` at :data:`FONT_SIZE` (wide chars: 2)."""
    cells = 0
    for ch in str(text):
        if unicodedata.combining(ch):
            continue
        cells += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return cells * CHAR_W


def wrap(text: str, width: int = WRAP) -> list[str]:
    """Split ``text`` into lines of at most ``width`` characters, never dropping a character.

    Breaks after spaces (a ", " stays with the word before it); a word longer than ``width``
    is cut into pieces of ``width`` characters.
    """
    if width < 1:
        raise ValueError(f"width must be at least 1; got {width}.")
    words = str(text).split(" ")
    lines: list[str] = []
    current = ""
    for word in words:
        while len(word) > width:
            if current:
                lines.append(current)
                current = ""
            lines.append(word[:width])
            word = word[width:]
        candidate = word if not current else f"{current} {word}"
        if len(candidate) <= width:
            current = candidate
        else:
            lines.append(current)
            current = word
    if current or not lines:
        lines.append(current)
    return lines


#: A two-group split's set of values is written whole up to this many values; longer sets show
#: their first :data:`SHOWN_VALUES` and how many more (the node's hover and the page's node
#: section list them all).
MAX_VALUES = 6
SHOWN_VALUES = 2


def value_set(values, max_values: int = MAX_VALUES, shown: int = SHOWN_VALUES) -> str:
    """A set of category values as text, shortened when long.

    >>> value_set(["a", "b"])
    '{a, b}'
    >>> value_set([f"Z{i:04d}" for i in range(0, 684, 2)])
    '{Z0000, Z0002, ... and 340 more}'
    """
    names = ["missing" if v is None else str(v) for v in values]
    if len(names) <= max_values:
        return "{" + ", ".join(names) + "}"
    return "{" + ", ".join(names[:shown]) + f", ... and {len(names) - shown} more}}"


def split_text(split, full: bool = False) -> str:
    """The test of an internal node: "glucose ≤ 127.5", "colour in {red, blue}",
    "colour = ?" (one branch per value). A long set of values is shortened
    (:func:`value_set`) unless ``full``."""
    name = str(split.feature)
    if split.kind == "numeric":
        return f"{name} ≤ {fmt_threshold(split.threshold)}"
    if split.kind == "categorical_binary" and split.groups:
        if full:
            values = "{" + ", ".join("missing" if v is None else str(v) for v in split.groups[0])
            return f"{name} in {values}}}"
        return f"{name} in {value_set(split.groups[0])}"
    return f"{name} = ? ({len(split.groups) if split.groups else 0} branches)"


def branch_text(parent_split, k: int) -> str:
    """The condition written on the edge to child ``k``: "≤ 127.5", "> 127.5 (or missing)",
    "= red", or "yes"/"no" for a two-group split (its node says which group)."""
    labels = tuple(parent_split.branch_labels)
    label = str(labels[k]) if k < len(labels) else ""
    name = str(parent_split.feature)
    if parent_split.kind == "categorical_binary":
        text = "yes" if k == 0 else "no"
        if "missing" in label and label.endswith("(or missing)"):
            text += " (or missing)"
        return text
    if label.startswith(name):
        rest = label[len(name) :].strip()
        if rest:
            label = rest
    return label.replace("<=", "≤", 1) if label.startswith("<=") else label


class TextLine(NamedTuple):
    """One line of text centred at (x, y) (px; y grows downwards). ``text`` is Plotly markup
    (user text escaped), ``plain`` the characters shown (its width is exact).

    A named tuple: a :class:`TreeLayout` stores its fields as a plain tuple."""

    text: str
    plain: str
    x: float
    y: float
    color: str = "#202124"
    node: int = -1  # the node whose box (or whose incoming edge, for a label) holds the line

    @property
    def width(self) -> float:
        return text_width(self.plain)

    @property
    def box(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of the line's ink box (px)."""
        w = self.width
        return (self.x - w / 2, self.y - LINE_H / 2, self.x + w / 2, self.y + LINE_H / 2)


class NodeBox(NamedTuple):
    """A node's box: centre x, top y, size, its text lines and its class bar segments.

    A named tuple: a :class:`TreeLayout` stores its fields as a plain tuple."""

    id: int
    x: float
    top: float
    width: float
    height: float
    lines: tuple = ()  # of TextLine
    bar: tuple = ()  # (class index, left, right, share)
    bar_top: float = 0.0
    collapsed: bool = False
    hidden: int = 0  # nodes hidden under a collapsed node
    leaf: bool = False
    prediction_index: int = 0
    #: "x": the bar lies across the box at ``bar_top`` (its segments are (class, left, right,
    #: share)); "y": a strip down the box's left side (segments (class, top, bottom, share)),
    #: the sideways layout's
    bar_axis: str = "x"

    @property
    def left(self) -> float:
        return self.x - self.width / 2

    @property
    def right(self) -> float:
        return self.x + self.width / 2

    @property
    def bottom(self) -> float:
        return self.top + self.height

    def bar_rects(self) -> list[tuple[int, float, float, float, float]]:
        """The class bar's segments as (class, left, top, right, bottom) rectangles (px)."""
        if self.bar_axis == "y":
            x0 = self.left + SIDE_INSET
            return [(k, x0, lo, x0 + SIDE_BAR_W, hi) for k, lo, hi, _ in self.bar]
        return [(k, lo, self.bar_top, hi, self.bar_top + BAR_H) for k, lo, hi, _ in self.bar]


@dataclass
class _Box:
    """A :class:`NodeBox` while :func:`tree_layout` places it (its lines plain tuples)."""

    id: int
    x: float
    top: float
    width: float
    height: float
    lines: list = field(default_factory=list)
    bar: list = field(default_factory=list)
    bar_top: float = 0.0
    collapsed: bool = False
    hidden: int = 0
    leaf: bool = False
    prediction_index: int = 0
    bar_axis: str = "x"

    # the box's edges: NodeBox's own properties (the same fields)
    left = NodeBox.left
    right = NodeBox.right
    bottom = NodeBox.bottom

    def row(self) -> tuple:
        """The :class:`NodeBox` as the plain tuple a :class:`TreeLayout` stores (the same
        fields in the same order; the lists as tuples)."""
        return tuple(
            tuple(v) if isinstance(v, list) else v
            for v in (getattr(self, name) for name in NodeBox._fields)
        )


@dataclass(frozen=True)
class TreeLayout:
    """The boxes, branch labels and edges of a drawing, and its size (px).

    Stored as plain tuples of atoms (str, float, int, bool) in two dicts: CPython's garbage
    collector stops tracking a plain tuple of atoms at its first collection (not a tuple
    subclass's instance such as a :class:`NodeBox`), so a layout kept in a cache is four objects
    to a full collection whatever the tree's size (:mod:`offcenter.ops.heap`: the Tree page
    keeps thousands of them in a class). :attr:`boxes` and :attr:`labels` give them as
    :class:`NodeBox` and :class:`TextLine` (built at each access: read them once)."""

    box_rows: dict  # node id -> a NodeBox's fields as a plain tuple, its lines plain tuples
    label_rows: dict  # child id -> plain tuples of the TextLines written on its incoming edge
    edges: tuple  # (parent, child, ((x, y), ...) polyline pieces)
    width: float
    height: float
    order: tuple  # node ids in drawing order (children before parents, left to right)

    @property
    def boxes(self) -> dict[int, NodeBox]:
        """node id -> :class:`NodeBox` of every node drawn."""
        line = TextLine._make
        return {
            i: NodeBox(*row[:5], tuple(map(line, row[5])), *row[6:])
            for i, row in self.box_rows.items()
        }

    @property
    def labels(self) -> dict[int, tuple[TextLine, ...]]:
        """child id -> the :class:`TextLine` s written on its incoming edge."""
        return {i: tuple(map(TextLine._make, rows)) for i, rows in self.label_rows.items()}

    def line_rows(self) -> list[tuple]:
        """:meth:`text_lines` as the plain tuples stored (the fields of :class:`TextLine`)."""
        out = [t for row in self.box_rows.values() for t in row[5]]
        for rows in self.label_rows.values():
            out += rows
        return out

    def text_lines(self) -> list[TextLine]:
        """Every line of text of the drawing (node boxes and branch labels)."""
        line = TextLine._make
        out = [line(t) for row in self.box_rows.values() for t in row[5]]
        for rows in self.label_rows.values():
            out += map(line, rows)
        return out


def _node_lines(
    node,
    classes,
    counts,
    collapsed,
    hidden,
    marked_text,
    wrap_width: int = WRAP,
    shares_per_line: int = SHARES_PER_LINE,
    compact: bool = False,
) -> tuple[list, list]:
    """(lines above the bar, lines under the bar) of a node: (markup, plain, colour).

    ``compact``: the node's id and n on one line, its test (or predicted class) and the bar
    only; the impurity, the gain and the shares are in the node's hover and the page's node
    section."""
    n = int(round(node.n))
    top: list[tuple[str, str, str]] = []
    if marked_text:
        top.append((f"<b>{plot_text(marked_text)}</b>", marked_text, "#B00020"))
    top.append((f"<b>node {node.id}</b>", f"node {node.id}", "#202124"))
    if node.split is not None:
        test = split_text(node.split)
        if compact and node.split.kind != "numeric" and node.split.kind != "categorical_binary":
            test = f"{node.split.feature} = ?"  # one branch per value: the edges say which
        for piece in wrap(test, wrap_width):
            top.append((plot_text(piece), piece, "#202124"))
    else:
        for k, piece in enumerate(wrap(f"→ {node.prediction}", wrap_width)):
            top.append(
                (f"<b>{plot_text(piece)}</b>" if k == 0 else plot_text(piece), piece, "#202124")
            )
    top.append((f"n = {n}", f"n = {n}", "#202124"))
    if compact:
        if collapsed:
            text = f"+ {hidden} hidden"
            top.append((f"<i>{text}</i>", text, "#5f6368"))
        return top, []
    top.append(
        (f"impurity {fmt_value(node.impurity)}", f"impurity {fmt_value(node.impurity)}", "#5f6368")
    )
    if node.split is not None:
        # a split criterion that is not an impurity decrease (HDDT) stores its score as gain
        name = _score_short(str(getattr(node, "setting_key", "") or ""))
        g = fmt_value(node.split.gain)
        top.append((f"{name} {g}", f"{name} {g}", "#5f6368"))
    if collapsed:
        text = f"+ {hidden} nodes hidden"
        top.append((f"<i>{text}</i>", text, "#5f6368"))
    total = float(np.sum(counts))
    shares = counts / total if total > 0 else np.zeros_like(counts)
    under: list[tuple[str, str, str]] = []
    for start in range(0, len(classes), shares_per_line):
        idx = range(start, min(start + shares_per_line, len(classes)))
        plain = " · ".join(fmt_share(shares[j]) for j in idx)
        markup = " · ".join(
            f"<span style='color:{class_color(j)}'>{fmt_share(shares[j])}</span>" for j in idx
        )
        under.append((markup, plain, "#202124"))
    return top, under


def bar_segments(counts, left: float, width: float) -> list[tuple[int, float, float, float]]:
    """Class segments (index, left, right, share) of a bar of ``width`` px from ``left``.

    Every non-empty class gets at least :data:`MIN_SEGMENT` px; the rest of the width is shared
    in proportion to the counts: w_j = m + p_j (W - k m) for the k non-empty classes, so the
    order of the shares is kept and a 1 % minority is never invisible.
    """
    counts = np.asarray(counts, dtype=float)
    total = counts.sum()
    out: list[tuple[int, float, float, float]] = []
    if total <= 0:
        return out
    nonzero = [j for j, c in enumerate(counts) if c > 0]
    m = min(MIN_SEGMENT, width / max(len(nonzero), 1))
    free = width - m * len(nonzero)
    x = left
    for j in nonzero:
        p = counts[j] / total
        w = m + p * free
        out.append((j, x, x + w, float(p)))
        x += w
    return out


def _subtree_sizes(children: Mapping[int, Sequence[int]], root: int) -> dict[int, int]:
    sizes: dict[int, int] = {}
    order: list[int] = []
    stack = [root]
    while stack:
        i = stack.pop()
        order.append(i)
        stack.extend(children.get(i, ()))
    for i in reversed(order):
        sizes[i] = 1 + sum(sizes[k] for k in children.get(i, ()))
    return sizes


def _postorder(root: int, kids) -> list[int]:
    """The visible nodes, children before their parent, left to right (``kids(i)``)."""
    post: list[int] = []
    stack: list[tuple[int, bool]] = [(root, False)]
    while stack:
        i, done = stack.pop()
        if done:
            post.append(i)
            continue
        stack.append((i, True))
        for k in reversed(kids(i)):
            stack.append((k, False))
    return post


def _pack(root: int, kids, extent) -> tuple[dict[int, float], float, float]:
    """Centres of the visible nodes along one axis by contour packing, bottom-up (Reingold and
    Tilford 1981): a subtree's contour is, per level under its root, the (low, high) extent of
    its nodes relative to its root's centre; each child is shifted until it clears the
    contours of its earlier siblings on every common level, and a parent is centred over its
    first and last child. ``kids(i)`` gives the visible children, ``extent(i)`` a node's own
    size along the axis (its gap included). Returns the centres (the root at 0) and the low
    and high ends of the whole drawing."""
    post = _postorder(root, kids)
    contour: dict[int, list[list[float]]] = {}
    offset: dict[int, float] = {}  # a child's centre relative to its parent's
    for i in post:
        half = extent(i) / 2
        children = kids(i)
        if not children:
            contour[i] = [[-half, half]]
            continue
        merged: list[list[float]] = []
        rel: list[float] = []
        for k in children:
            ck = contour.pop(k)
            shift = 0.0
            if merged:
                shift = max(merged[lv][1] - ck[lv][0] for lv in range(min(len(merged), len(ck))))
            rel.append(shift)
            for lv, (lo, hi) in enumerate(ck):
                if lv < len(merged):
                    merged[lv][0] = min(merged[lv][0], lo + shift)
                    merged[lv][1] = max(merged[lv][1], hi + shift)
                else:
                    merged.append([lo + shift, hi + shift])
        mid = (rel[0] + rel[-1]) / 2
        for k, r in zip(children, rel):
            offset[k] = r - mid
        contour[i] = [[-half, half]] + [[lo - mid, hi - mid] for lo, hi in merged]
    outline = contour.pop(root)
    centre = {root: 0.0}
    for i in reversed(post):  # parents before their children
        for k in kids(i):
            centre[k] = centre[i] + offset[k]
    return centre, min(lo for lo, _ in outline), max(hi for _, hi in outline)


def tree_layout(
    clf,
    *,
    max_depth: int | None = None,
    marked: Mapping[int, str] | Collection[int] = (),
    wrap_width: int = WRAP,
    shares_per_line: int = SHARES_PER_LINE,
    focus: int | None = None,
    compact: bool = False,
    sideways: bool = False,
) -> TreeLayout:
    """Lay out a fitted tree in pixels (see the module notes); nothing drawn.

    Parameters
    ----------
    clf : TreeClassifier
        A fitted tree (``clf.tree_.nodes``, ``clf.classes_``).
    max_depth : int, optional
        Deepest level drawn; a node there with children is drawn collapsed ("+ k nodes hidden").
    marked : mapping node id -> text, or collection of node ids
        Nodes drawn marked, with the text (default "splits differ") on their first line.
    wrap_width : int
        Longest line of a split text or branch label (characters) before it wraps; a narrow
        screen (a phone) uses a smaller one so that the root's children fit side by side.
    shares_per_line : int
        Class shares written per line under a node's bar.
    focus : int, optional
        A node drawn with its children whatever ``max_depth``, and so its ancestors: the path
        from the root to it and its children are open, the other nodes below ``max_depth``
        collapsed (the Tree page's step-through: the node just split and its new children are
        always drawn).
    compact : bool
        Compact boxes (:func:`_node_lines`): id and n, the test, the bar.
    sideways : bool
        Drawn left to right (:func:`sideways_layout`, its line width ``wrap_width``): the root
        on the left, one column per depth, one-line boxes for the nodes whose children are
        not drawn. A tree with many branches per node (one per category value) fits a chart's
        height this way where its levels are far wider than the chart.
    """
    if wrap_width < 4 or shares_per_line < 1:
        raise ValueError(
            f"wrap_width must be >= 4 and shares_per_line >= 1; got {wrap_width}, "
            f"{shares_per_line}."
        )
    tree = clf.tree_
    classes = [str(c) for c in clf.classes_]
    nodes = {node.id: node for node in tree.nodes}
    root = getattr(tree, "root", 0)
    if max_depth is not None and max_depth < 0:
        raise ValueError(f"max_depth must be None or >= 0; got {max_depth}.")
    if not isinstance(marked, Mapping):
        marked = {int(i): "splits differ" for i in marked}
    children_all = {i: tuple(nd.children) for i, nd in nodes.items()}
    sizes = _subtree_sizes(children_all, root)

    opened: set[int] = set()
    if focus is not None and int(focus) in nodes:
        j = int(focus)
        while j is not None:
            opened.add(j)
            j = nodes[j].parent

    def visible_kids(i):
        nd = nodes[i]
        if max_depth is not None and nd.depth >= max_depth and i not in opened:
            return ()
        return tuple(nd.children)

    # visible nodes, depth-first (children left to right)
    pre: list[int] = []
    stack = [root]
    while stack:
        i = stack.pop()
        pre.append(i)
        stack.extend(reversed(visible_kids(i)))

    if sideways:
        return sideways_layout(nodes, root, pre, visible_kids, sizes, classes, marked, wrap_width)

    # boxes' contents and sizes
    boxes: dict[int, _Box] = {}
    top_lines: dict[int, list] = {}
    under_lines: dict[int, list] = {}
    for i in pre:
        nd = nodes[i]
        collapsed = bool(nd.children) and not visible_kids(i)
        top, under = _node_lines(
            nd,
            classes,
            np.asarray(nd.counts, dtype=float),
            collapsed,
            sizes[i] - 1,
            marked.get(i),
            wrap_width,
            shares_per_line,
            compact,
        )
        width = max(text_width(p) for _, p, _ in top + under) + 2 * PAD
        height = LINE_H * (len(top) + len(under)) + BAR_H + 2 * PAD + (0.0 if compact else 4.0)
        pred = str(nd.prediction)
        boxes[i] = _Box(
            id=i,
            x=0.0,
            top=0.0,
            width=width,
            height=height,
            collapsed=collapsed,
            hidden=sizes[i] - 1 if collapsed else 0,
            leaf=nd.split is None,
            prediction_index=classes.index(pred) if pred in classes else 0,
        )
        top_lines[i] = top
        under_lines[i] = under

    # branch labels (lines) of every visible non-root node
    label_plain: dict[int, list[str]] = {}
    for i in pre:
        parent = nodes[i].parent
        if parent is None or parent not in boxes or nodes[parent].split is None:
            continue
        k = list(nodes[parent].children).index(i)
        label_plain[i] = wrap(branch_text(nodes[parent].split, k), wrap_width)

    gap = COMPACT_GAP if compact else H_GAP

    def own_width(i):
        w = boxes[i].width
        if i in label_plain:
            w = max(w, max(text_width(p) for p in label_plain[i]))
        return w + gap

    centre, lo_all, hi_all = _pack(root, visible_kids, own_width)
    for i in pre:
        boxes[i].x = centre[i] - lo_all
    lefts, rights = [lo_all], [hi_all]

    # y: one band per depth, the gap under it for edges and the next depth's labels
    depth_of = {i: nodes[i].depth - nodes[root].depth for i in pre}
    n_levels = max(depth_of.values()) + 1
    band = [0.0] * n_levels
    label_rows = [0] * n_levels
    for i in pre:
        band[depth_of[i]] = max(band[depth_of[i]], boxes[i].height)
        if i in label_plain:
            label_rows[depth_of[i]] = max(label_rows[depth_of[i]], len(label_plain[i]))
    tops = [0.0] * n_levels
    y = V_GAP
    for d in range(n_levels):
        if d > 0:
            y += V_GAP + label_rows[d] * LINE_H + V_GAP  # edge stub, labels, stub
        tops[d] = y
        y += band[d]
    height = y + V_GAP

    # place the text lines and the bars
    for i in pre:
        b = boxes[i]
        b.top = tops[depth_of[i]]
        placed = []  # TextLine fields, plain tuples (TreeLayout)
        yy = b.top + PAD + LINE_H / 2
        for markup, plain, color in top_lines[i]:
            placed.append((markup, plain, b.x, yy, color, i))
            yy += LINE_H
        b.bar_top = yy - LINE_H / 2 + 2.0
        b.bar = bar_segments(nodes[i].counts, b.left + PAD, b.width - 2 * PAD)
        yy += BAR_H + 4.0
        for markup, plain, color in under_lines[i]:
            placed.append((markup, plain, b.x, yy, color, i))
            yy += LINE_H
        b.lines = placed

    labels: dict[int, tuple] = {}  # TextLine fields, plain tuples
    edges: list = []
    for i in pre:
        parent = nodes[i].parent
        if parent is None or parent not in boxes:
            continue
        pb, cb = boxes[parent], boxes[i]
        d = depth_of[i]
        elbow = tops[d - 1] + band[d - 1] + V_GAP / 2
        rows = label_plain.get(i, [])
        ly = elbow + V_GAP / 2 + LINE_H / 2
        label = []
        for piece in rows:
            label.append((plot_text(piece), piece, cb.x, ly, "#5f6368", i))
            ly += LINE_H
        labels[i] = tuple(label)
        stem = ((pb.x, pb.bottom), (pb.x, elbow), (cb.x, elbow))
        if rows:
            pieces = (
                stem + ((cb.x, elbow + V_GAP / 2 - 1),),
                ((cb.x, ly - LINE_H / 2 + 1), (cb.x, cb.top)),
            )
        else:
            pieces = (stem + ((cb.x, cb.top),),)
        edges.append((parent, i, pieces))

    width = max(rights) - min(lefts)
    rows = {i: b.row() for i, b in boxes.items()}
    return TreeLayout(
        rows, labels, tuple(edges), width, height, tuple(_postorder(root, visible_kids))
    )


def _side_lines(node, parent, k, hidden, opened, marked_text, wrap_width):
    """A sideways box's lines (markup, plain, colour): the node's id, its branch condition and
    n on one line ("#12 = A11 · n 274"), with the predicted class of a leaf ("→ good") or the
    count of the nodes hidden under a collapsed one ("+31"); a node drawn with its children
    adds its test ("checking = ?", "duration ≤ 22.5")."""
    out: list[tuple[str, str, str]] = []
    if marked_text:
        out.append((f"<b>{plot_text(marked_text)}</b>", marked_text, "#B00020"))
    head = f"#{node.id}"
    parts = [head if parent is None else f"{head} {branch_text(parent.split, k)}"]
    parts.append(f"n {int(round(node.n))}")
    if node.split is None:
        parts[-1] += f" → {node.prediction}"
    elif not opened:
        parts.append(f"+{hidden}")
    pieces: list[str] = []  # the parts joined by " · ", a line broken between two parts
    for part in parts:
        if pieces and len(pieces[-1]) + 3 + len(part) <= wrap_width:
            pieces[-1] += f" · {part}"
        else:
            pieces += wrap(part, wrap_width)
    for j, piece in enumerate(pieces):
        markup = plot_text(piece)
        if j == 0 and piece.startswith(head):
            markup = f"<b>{plot_text(head)}</b>{plot_text(piece[len(head) :])}"
        out.append((markup, piece, "#202124"))
    if node.split is not None and opened:
        width = min(wrap_width, SIDE_TEST_WRAP)
        if node.split.kind in ("numeric", "categorical_binary"):
            pieces = wrap(split_text(node.split), width)
        else:  # one branch per value (the boxes say which): "= ?" never split
            pieces = wrap(str(node.split.feature), width)
            if len(pieces[-1]) + 4 <= width:
                pieces[-1] += " = ?"
            else:
                pieces.append("= ?")
        for piece in pieces:
            out.append((plot_text(piece), piece, "#5f6368"))
    return out


def sideways_layout(nodes, root, pre, kids, sizes, classes, marked, wrap_width) -> TreeLayout:
    """The tree drawn left to right: :func:`tree_layout` with ``sideways`` (its visible nodes
    ``pre``, ``kids(i)`` the children drawn, ``sizes`` the subtrees' node counts).

    One column per depth, the root on the left; a box holds its node's id, branch condition and
    n ("#12 = A11 · n 274"), a leaf's predicted class, a collapsed node's hidden count, the test
    of a node drawn with its children, and its class shares as a strip down its left side. The
    boxes of a column are packed by their contours along y (:func:`_pack`: the rows of a
    column never overlap), each column starts right of the widest box of the one before it with
    :data:`SIDE_COL_GAP` for the edges between them. The branch conditions are in the boxes, so
    the layout has no edge labels."""
    boxes: dict[int, _Box] = {}
    texts: dict[int, list] = {}
    depth_of = {i: nodes[i].depth - nodes[root].depth for i in pre}
    for i in pre:
        nd = nodes[i]
        parent = nodes[nd.parent] if nd.parent is not None and nd.parent in depth_of else None
        k = list(parent.children).index(i) if parent is not None else 0
        opened = bool(kids(i))
        lines = _side_lines(nd, parent, k, sizes[i] - 1, opened, marked.get(i), wrap_width)
        width = max(text_width(p) for _, p, _ in lines) + 2 * SIDE_PAD_X + SIDE_INSET + SIDE_BAR_W
        pred = str(nd.prediction)
        boxes[i] = _Box(
            id=i,
            x=0.0,
            top=0.0,
            width=width,
            height=LINE_H * len(lines) + 2 * SIDE_PAD_Y,
            collapsed=nd.split is not None and not opened,
            hidden=sizes[i] - 1 if nd.split is not None and not opened else 0,
            leaf=nd.split is None,
            prediction_index=classes.index(pred) if pred in classes else 0,
            bar_axis="y",
        )
        texts[i] = lines
    n_cols = max(depth_of.values()) + 1
    col_w = [0.0] * n_cols
    for i in pre:
        col_w[depth_of[i]] = max(col_w[depth_of[i]], boxes[i].width)
    col_left = [SIDE_MARGIN]
    for d in range(1, n_cols):
        col_left.append(col_left[-1] + col_w[d - 1] + SIDE_COL_GAP)
    centre, lo, hi = _pack(root, kids, lambda i: boxes[i].height + SIDE_GAP)
    for i in pre:
        b = boxes[i]
        b.x = col_left[depth_of[i]] + b.width / 2
        b.top = centre[i] - lo + SIDE_MARGIN - b.height / 2
        text_x = b.left + SIDE_INSET + SIDE_BAR_W + (b.width - SIDE_INSET - SIDE_BAR_W) / 2
        yy = b.top + SIDE_PAD_Y + LINE_H / 2
        placed = []
        for markup, plain, color in texts[i]:
            placed.append((markup, plain, text_x, yy, color, i))
            yy += LINE_H
        b.lines = placed
        b.bar = bar_segments(nodes[i].counts, b.top + SIDE_INSET, b.height - 2 * SIDE_INSET)
    edges: list = []
    for i in pre:
        for c in kids(i):
            pb, cb = boxes[i], boxes[c]
            elbow = col_left[depth_of[c]] - SIDE_COL_GAP / 2
            py, cy = pb.top + pb.height / 2, cb.top + cb.height / 2
            edges.append((i, c, (((pb.right, py), (elbow, py), (elbow, cy), (cb.left, cy)),)))
    width = col_left[-1] + col_w[-1] + SIDE_MARGIN
    height = hi - lo + 2 * SIDE_MARGIN
    rows = {i: b.row() for i, b in boxes.items()}
    return TreeLayout(rows, {}, tuple(edges), width, height, tuple(_postorder(root, kids)))


def overlaps(boxes: Sequence[tuple[float, float, float, float]], tol: float = 0.0) -> list:
    """Pairs (i, j) of boxes (left, top, right, bottom) that overlap by more than ``tol`` px."""
    arr = np.asarray(boxes, dtype=float).reshape(-1, 4)
    order = np.argsort(arr[:, 0], kind="stable")
    out = []
    for a_pos, a in enumerate(order):
        for b in order[a_pos + 1 :]:
            if arr[b, 0] >= arr[a, 2] - tol:
                break
            if min(arr[a, 3], arr[b, 3]) - max(arr[a, 1], arr[b, 1]) > tol and (
                min(arr[a, 2], arr[b, 2]) - max(arr[a, 0], arr[b, 0]) > tol
            ):
                out.append((int(min(a, b)), int(max(a, b))))
    return out


@functools.lru_cache(maxsize=256)
def _score_short(setting_key: str) -> str:
    """What a node's split score is called in its box (``"gain"``, ``"Hellinger d"``): the
    registry's word for the node's measure setting."""
    try:
        return MeasureSetting.parse(setting_key).info.score_short
    except ValueError:
        return "gain"
