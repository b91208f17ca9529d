"""Plotly figures for the tree page: the tree itself and the gain against a threshold.

:func:`layout_positions` is a pure function placing the visible nodes of a tree (leaves on
consecutive slots, a parent centred over its children, depth downwards). :func:`tree_figure`
draws a fitted :class:`offcenter.TreeClassifier` with it: one marker per node carrying its id in
``customdata`` (so ``st.plotly_chart(on_select="rerun", selection_mode="points")`` tells the page
which node was clicked), the split or the predicted class and n as text, a small stacked bar of
the class distribution under each node, branch labels on the edges, the selected node and a
traced row's path highlighted, and the nodes deeper than ``max_depth`` collapsed into their
ancestor (drawn with a "+").

User text (column names, category values, class labels) is escaped for Plotly's pseudo-HTML with
:func:`plot_text`, and hover texts use ``hovertext`` (no ``%{...}`` template substitution), so a
column called ``<b>x</b>`` is shown as those characters.

Examples
--------
>>> layout_positions({0: (1, 2), 1: (), 2: (3, 4), 3: (), 4: ()})
{1: (0.0, 1), 3: (1.0, 2), 4: (2.0, 2), 2: (1.5, 1), 0: (0.75, 0)}
>>> plot_text("<script>x</script>")
'&lt;script&gt;x&lt;/script&gt;'
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

#: Class colours (colour-blind safe, Okabe-Ito), cycled for many classes.
CLASS_COLORS = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#D55E00",
    "#CC79A7",
    "#56B4E9",
    "#F0E442",
    "#000000",
)
#: Above this many visible nodes a tree is too big to read: the page collapses it.
READABLE_NODES = 63


def plot_text(text: object, limit: int | None = None) -> str:
    """Escape user text for Plotly labels (which interpret <b>, <br>, <a>, ...), optionally cut."""
    s = str(text)
    if limit is not None and len(s) > limit:
        s = s[: limit - 1] + "…"
    return html.escape(s, quote=False)


def _children_map(tree) -> dict[int, tuple[int, ...]]:
    return {node.id: tuple(node.children) for node in tree.nodes}


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


def _node_label(node, classes, limit: int = 20) -> str:
    if node.split is None:
        return f"→ {plot_text(node.prediction, limit)}"
    return plot_text(node.split.feature, limit)


def _hover(node, classes, collapsed: bool) -> str:
    lines = [f"node {node.id} (depth {node.depth}), n = {int(round(node.n))}"]
    total = max(float(np.sum(node.counts)), 1.0)
    for cls, c in zip(classes, node.counts):
        lines.append(f"  {plot_text(cls, 30)}: {int(round(c))} ({c / total:.0%})")
    if node.split is not None:
        lines.append(f"split: {plot_text(node.split.feature, 40)}, gain {node.split.gain:.4f}")
    else:
        lines.append(f"leaf: predicts {plot_text(node.prediction, 30)}")
    if collapsed:
        lines.append("(subtree hidden: widen the shown depth)")
    return "<br>".join(lines)


def tree_figure(
    clf,
    *,
    max_depth: int | None = None,
    selected: int | None = None,
    path: Sequence[int] = (),
    height: int | None = None,
) -> go.Figure:
    """Draw a fitted tree; marker ``customdata`` is the node id.

    Parameters
    ----------
    clf : TreeClassifier
        A fitted tree (``clf.tree_.nodes``, ``clf.classes_``).
    max_depth : int, optional
        Deepest level drawn; deeper subtrees are collapsed into their ancestor ("+").
    selected : int, optional
        Node drawn highlighted.
    path : sequence of int
        Node ids of a traced row's path, drawn in a highlight colour.
    """
    tree = clf.tree_
    classes = [str(c) for c in clf.classes_]
    nodes = {node.id: node for node in tree.nodes}
    pos = layout_positions(_children_map(tree), tree.root, max_depth)
    on_path = set(int(i) for i in path)
    n_slots = max(x for x, _ in pos.values()) + 1
    # labels shortened so that neighbours do not overlap (about 900 px for the figure, 6.5 px
    # per character); the hover text has them in full
    label_limit = int(max(5, min(20, 900 / n_slots / 6.5)))
    depth = max(d for _, d in pos.values())
    traces: list[dict] = []

    # edges, grey, and the traced path on top in orange
    for highlight in (False, True):
        ex, ey = [], []
        for nid, (x, d) in pos.items():
            parent = nodes[nid].parent
            if parent is None or parent not in pos:
                continue
            if highlight != (nid in on_path and parent in on_path):
                continue
            px_, pd_ = pos[parent]
            ex += [px_, px_, x, x, None]
            # from under the parent's label and bar, so that no line crosses the text
            ey += [-pd_ - 0.43, -pd_ - 0.56, -pd_ - 0.56, -d, None]
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

    # branch labels at the middle of each edge's horizontal part
    bx, by, btext = [], [], []
    for nid, (x, d) in pos.items():
        node = nodes[nid]
        parent = nodes[node.parent] if node.parent is not None else None
        if parent is None or parent.id not in pos or parent.split is None:
            continue
        k = list(parent.children).index(nid)
        labels = parent.split.branch_labels
        text = short_branch(labels[k], parent.split.feature) if k < len(labels) else ""
        bx.append(x + 0.03)
        by.append(-d + 0.24)
        btext.append(plot_text(text, label_limit))
    traces.append(
        dict(
            type="scatter",
            x=bx,
            y=by,
            mode="text",
            text=btext,
            hoverinfo="skip",
            showlegend=False,
            textposition="middle right",
            textfont={"size": 10, "color": "#5f6368"},
            name="branches",
        )
    )

    # class distribution bars under each node: one thick-line trace per class (fast to draw
    # and to build, unlike one layout shape per rectangle)
    bar_w = 0.7
    q = len(classes)
    seg_x: list[list] = [[] for _ in range(q)]
    seg_y: list[list] = [[] for _ in range(q)]
    for nid, (x, d) in pos.items():
        counts = np.asarray(nodes[nid].counts, dtype=float)
        total = counts.sum()
        if total <= 0:
            continue
        left = x - bar_w / 2
        for j, c in enumerate(counts):
            if c <= 0:
                continue
            w = bar_w * c / total
            seg_x[j] += [left, left + w, None]
            seg_y[j] += [-d - 0.38, -d - 0.38, None]
            left += w
    for j in range(q):
        traces.append(
            dict(
                type="scatter",
                x=seg_x[j],
                y=seg_y[j],
                mode="lines",
                hoverinfo="skip",
                showlegend=False,
                line={"color": CLASS_COLORS[j % len(CLASS_COLORS)], "width": 7},
                name=f"bar {j}",
            )
        )

    # the nodes: markers with customdata = node id
    ids = list(pos)
    xs = [pos[i][0] for i in ids]
    ys = [-pos[i][1] for i in ids]
    collapsed = [
        bool(nodes[i].children) and (max_depth is not None and nodes[i].depth >= max_depth)
        for i in ids
    ]
    colors, symbols, sizes, lines = [], [], [], []
    for i, col in zip(ids, collapsed):
        node = nodes[i]
        if node.split is None:
            j = list(classes).index(str(node.prediction)) if str(node.prediction) in classes else 0
            colors.append(CLASS_COLORS[j % len(CLASS_COLORS)])
            symbols.append("square")
        else:
            colors.append("#ffffff")
            symbols.append("circle-cross" if col else "circle")
        big = i == selected
        sizes.append(26 if big else 18)
        lines.append(4 if big else 1.5)
    texts = [
        f"{_node_label(nodes[i], classes, label_limit)}{' +' if c else ''}"
        f"<br>n={int(round(nodes[i].n))}"
        for i, c in zip(ids, collapsed)
    ]
    traces.append(
        dict(
            type="scatter",
            x=xs,
            y=ys,
            mode="markers+text",
            name="nodes",
            customdata=[[i] for i in ids],
            text=texts,
            textposition="bottom center",
            textfont={"size": 11},
            hovertext=[_hover(nodes[i], classes, c) for i, c in zip(ids, collapsed)],
            hoverinfo="text",
            marker={
                "size": sizes,
                "color": colors,
                "symbol": symbols,
                "line": {
                    "color": ["#D55E00" if i == selected else "#202124" for i in ids],
                    "width": lines,
                },
            },
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
                marker={
                    "symbol": "square",
                    "size": 10,
                    "color": CLASS_COLORS[j % len(CLASS_COLORS)],
                },
                hoverinfo="skip",
            )
        )
    layout = dict(
        height=height or int(160 + 120 * (depth + 1)),
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
        plot_bgcolor="white",
        xaxis={"visible": False, "range": [-0.8, n_slots - 0.2], "fixedrange": False},
        yaxis={"visible": False, "range": [-depth - 0.6, 0.55]},
        legend={"orientation": "h", "y": 1.02, "x": 0, "title": {"text": "class"}},
        clickmode="event+select",
        dragmode="pan",
        hoverlabel={"align": "left"},
    )
    # built unvalidated: the traces above are plain, known-good dicts (validation costs
    # ~0.3 s on a depth-5 tree)
    return go.Figure(data=traces, layout=layout, _validate=False)


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
) -> go.Figure:
    """Gain against the threshold of a numeric feature, one line per measure setting.

    ``gains`` is ``clf.threshold_gains(node, feature)``: columns "threshold", "n_left" and
    "gain:<key>". With ``normalise`` each curve is divided by its maximum (shapes compared on one
    scale). The chosen threshold is a dashed vertical line.
    """
    fig = go.Figure()
    keys = (
        list(keys)
        if keys is not None
        else [c.split(":", 1)[1] for c in gains.columns if c.startswith("gain:")]
    )
    x = np.asarray(gains["threshold"], dtype=float)
    for j, key in enumerate(keys):
        col = f"gain:{key}"
        if col not in gains.columns:
            continue
        y = np.asarray(gains[col], dtype=float)
        if normalise:
            top = np.nanmax(np.abs(y)) if y.size else 0.0
            y = y / top if top > 0 else y
        fig.add_trace(
            go.Scatter(
                x=x,
                y=y,
                mode="lines+markers" if len(x) < 40 else "lines",
                name=plot_text(labels.get(key, key), 40),
                line={"color": CLASS_COLORS[(j + 1) % len(CLASS_COLORS)]},
                hovertemplate="threshold %{x:.4g}<br>gain %{y:.4f}<extra>%{fullData.name}</extra>",
            )
        )
    if chosen is not None and np.isfinite(chosen):
        fig.add_vline(
            x=float(chosen),
            line_dash="dash",
            line_color="#5f6368",
            annotation_text="chosen",
            annotation_position="top",
        )
    fig.update_layout(
        xaxis_title=f"threshold on {plot_text(feature, 40)}",
        yaxis_title="gain / its maximum" if normalise else "gain",
        height=360,
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
        legend={"orientation": "h", "y": -0.25},
    )
    return fig
