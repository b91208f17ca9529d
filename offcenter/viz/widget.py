"""An interactive tree for notebooks: :class:`TreeWidget` (anywidget), every measure a click away.

``TreeWidget(clf)`` draws a fitted tree inline (Jupyter, JupyterLab, VS Code, marimo: no setup
beyond ``pip install anywidget``, the ``notebook`` extra). A click on a node shows what the
Tree page shows for it: the node's own best split under every measure setting
(:meth:`offcenter.TreeClassifier.own_optima`, the best row of each setting), the gain against
the threshold of the node's feature under every setting
(:meth:`~offcenter.TreeClassifier.threshold_gains`) and the worked calculation of its split
(:func:`offcenter.viz.explain.node_split_steps`). The tree needs its training data (a fitted
tree has it; a JSON-loaded one needs ``attach_data``).

The state is in the widget's model, so it is usable (and tested) from Python: ``w.selected =
3`` fills ``w.details`` as a click does. User text (feature names, class labels) is drawn as
text by the front end (``textContent``, SVG text nodes), never as HTML.

Examples
--------
>>> import numpy as np
>>> from offcenter import TreeClassifier
>>> clf = TreeClassifier().fit(np.array([[0.0], [1.0], [2.0], [3.0]]), [0, 0, 1, 1])
>>> w = TreeWidget(clf, settings=["shannon", "gini"])
>>> [n["id"] for n in w.nodes]
[0, 1, 2]
>>> w.selected = 0
>>> [(r["setting"], r["split"]) for r in w.details["own_best"]]
[('Shannon', 'x0 <= 1.5 / x0 > 1.5'), ('Gini', 'x0 <= 1.5 / x0 > 1.5')]
"""

from __future__ import annotations

import math

try:
    import anywidget
    import traitlets
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        'TreeWidget needs anywidget, the notebook extra: pip install "offcenter[notebook]" '
        "(or pip install anywidget)."
    ) from exc

from offcenter.measures.settings import MeasureSetting, comparison_settings
from offcenter.tree.fitted import require_data
from offcenter.viz.explain import node_split_steps, steps_markdown

__all__ = ["TreeWidget", "node_details", "tree_nodes"]

_ESM = r"""
function el(tag, attrs, text) {
  const ns = "http://www.w3.org/2000/svg";
  const e = ["svg", "g", "rect", "text", "line", "polyline"].includes(tag)
    ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;  // textContent only: user text stays text
  return e;
}
const COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
                "#7f7f7f", "#bcbd22", "#17becf"];

function drawTree(model, box) {
  box.replaceChildren();
  const nodes = model.get("nodes");
  const W = 150, H = 46, GX = 12, GY = 34;
  const maxX = Math.max(...nodes.map((n) => n.x)), maxY = Math.max(...nodes.map((n) => n.depth));
  const svg = el("svg", {width: (maxX + 1) * (W + GX), height: (maxY + 1) * (H + GY)});
  const pos = {};
  for (const n of nodes) pos[n.id] = [n.x * (W + GX), n.depth * (H + GY)];
  for (const n of nodes) {
    if (n.parent === null) continue;
    const [px, py] = pos[n.parent], [x, y] = pos[n.id];
    svg.appendChild(el("line", {x1: px + W / 2, y1: py + H, x2: x + W / 2, y2: y,
                                stroke: "#999"}));
  }
  for (const n of nodes) {
    const [x, y] = pos[n.id];
    const g = el("g", {"data-node": n.id, style: "cursor: pointer"});
    const sel = model.get("selected") === n.id;
    g.appendChild(el("rect", {x, y, width: W, height: H, rx: 6,
      fill: n.leaf ? "#eef5ff" : "#ffffff", stroke: sel ? "#d62728" : "#555",
      "stroke-width": sel ? 3 : 1}));
    g.appendChild(el("text", {x: x + 6, y: y + 16, "font-size": 11, "font-weight": "bold"},
                     `node ${n.id}  n = ${n.n}`));
    g.appendChild(el("text", {x: x + 6, y: y + 34, "font-size": 11}, n.label));
    g.addEventListener("click", () => { model.set("selected", n.id); model.save_changes(); });
    svg.appendChild(g);
  }
  box.appendChild(svg);
}

function drawGains(gains) {
  const w = 420, h = 220, m = 36;
  const svg = el("svg", {width: w, height: h});
  const xs = gains.thresholds;
  if (!xs.length) return svg;
  const all = gains.series.flatMap((s) => s.values.filter((v) => v !== null));
  const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(0, ...all), y1 = Math.max(...all);
  const sx = (v) => m + (x1 > x0 ? (v - x0) / (x1 - x0) : 0.5) * (w - 2 * m);
  const sy = (v) => h - m - (y1 > y0 ? (v - y0) / (y1 - y0) : 0.5) * (h - 2 * m);
  gains.series.forEach((s, k) => {
    const pts = xs.map((x, i) => s.values[i] === null ? null : `${sx(x)},${sy(s.values[i])}`)
      .filter((p) => p !== null).join(" ");
    svg.appendChild(el("polyline", {points: pts, fill: "none",
                                    stroke: COLORS[k % COLORS.length], "stroke-width": 1.5}));
    svg.appendChild(el("text", {x: w - m, y: 12 + 12 * k, "font-size": 10, "text-anchor": "end",
                                fill: COLORS[k % COLORS.length]}, s.label));
  });
  if (gains.chosen !== null) {
    svg.appendChild(el("line", {x1: sx(gains.chosen), x2: sx(gains.chosen), y1: m / 2,
      y2: h - m, stroke: "#333", "stroke-dasharray": "4 3"}));
  }
  svg.appendChild(el("text", {x: w / 2, y: h - 8, "font-size": 11, "text-anchor": "middle"},
                      `${gains.feature}: threshold`));
  return svg;
}

function drawDetails(model, box) {
  box.replaceChildren();
  const d = model.get("details");
  if (!d || d.node === undefined) {
    box.appendChild(el("p", {}, "Click a node: its own best split under every measure setting."));
    return;
  }
  if (d.error) { box.appendChild(el("p", {style: "color: #b00"}, d.error)); return; }
  box.appendChild(el("h4", {}, `Node ${d.node}: ${d.title}`));
  const table = el("table", {style: "border-collapse: collapse; font-size: 12px"});
  const head = el("tr");
  for (const c of ["setting", "split", "gain", "agrees"]) head.appendChild(el("th", {}, c));
  table.appendChild(head);
  for (const r of d.own_best) {
    const tr = el("tr");
    tr.appendChild(el("td", {}, r.setting));
    tr.appendChild(el("td", {}, r.split));
    tr.appendChild(el("td", {}, r.gain === null ? "" : r.gain.toPrecision(4)));
    tr.appendChild(el("td", {}, r.agrees ? "=" : ""));
    table.appendChild(tr);
  }
  box.appendChild(table);
  if (d.gains) box.appendChild(drawGains(d.gains));
  if (d.calculation) {
    box.appendChild(el("h4", {}, "Worked calculation"));
    box.appendChild(el("pre", {style: "white-space: pre-wrap; font-size: 11px"}, d.calculation));
  }
}

function render({ model, el: root }) {
  const tree = el("div", {style: "overflow: auto; max-height: 520px"});
  const details = el("div", {style: "margin-top: 8px"});
  root.appendChild(tree);
  root.appendChild(details);
  const redraw = () => { drawTree(model, tree); drawDetails(model, details); };
  model.on("change:selected", () => drawTree(model, tree));
  model.on("change:details", () => drawDetails(model, details));
  model.on("change:nodes", redraw);
  redraw();
}
export default { render };
"""


def tree_nodes(clf) -> list[dict]:
    """The drawing's nodes: id, parent, depth, x (leaves in order, a parent over the middle of
    its children), n, leaf, and the label (the split, or the predicted class)."""
    nodes = clf.tree_.nodes
    x: dict[int, float] = {}
    nxt = [0.0]

    def place(i):
        nd = nodes[i]
        if nd.is_leaf:
            x[i] = nxt[0]
            nxt[0] += 1
        else:
            for c in nd.children:
                place(c)
            x[i] = (x[nd.children[0]] + x[nd.children[-1]]) / 2

    place(0)
    out = []
    for nd in nodes:
        label = (
            f"class {nd.prediction}"
            if nd.is_leaf
            else nd.split.branch_labels[0].replace(" <= ", " \u2264 ")
        )
        out.append(
            {
                "id": nd.id,
                "parent": nd.parent,
                "depth": nd.depth,
                "x": x[nd.id],
                "n": nd.n,
                "leaf": nd.is_leaf,
                "label": label,
            }
        )
    return out


def _number(v):
    v = float(v)
    return v if math.isfinite(v) else None


def node_details(clf, node_id: int, settings) -> dict:
    """What a click on ``node_id`` shows: ``own_best`` (one row per setting: its own best
    split, gain, whether it is the tree's split), ``gains`` (the gain of every threshold of the
    node's numeric feature under every setting: ``thresholds``, ``series`` of ``label`` and
    ``values``, the ``chosen`` threshold) and ``calculation`` (the worked calculation of the
    node's split, markdown text; None for a leaf)."""
    node = clf.tree_.nodes[node_id]
    keys = [s.key for s in settings]
    optima = clf.own_optima(node_id, settings)
    best = optima[optima["is_best"]].drop_duplicates("setting_key")
    labels = dict(zip(optima["setting_key"], optima["setting_label"]))
    chosen = " / ".join(node.split.branch_labels) if node.split is not None else None
    own = []
    for key in keys:
        row = best[best["setting_key"] == key]
        if row.empty:
            own.append(
                {
                    "setting": labels.get(key, key),
                    "split": "(no split)",
                    "gain": None,
                    "agrees": False,
                }
            )
            continue
        r = row.iloc[0]
        own.append(
            {
                "setting": str(r["setting_label"]),
                "split": str(r["split"]),
                "gain": _number(r["gain"]),
                "agrees": chosen is not None and str(r["split"]) == chosen,
            }
        )
    feature = None
    if node.split is not None and node.split.kind == "numeric":
        feature = node.split.feature
    else:
        numeric = [f.name for f in clf.features_ if f.kind == "numeric"]
        mine = best[best["setting_key"] == clf.setting_.key]
        if not mine.empty and mine.iloc[0]["feature"] in numeric:
            feature = mine.iloc[0]["feature"]
    gains = None
    if feature is not None:
        g = clf.threshold_gains(node_id, feature, settings)
        gains = {
            "feature": str(feature),
            "thresholds": [float(t) for t in g["threshold"]],
            "series": [
                {"label": labels.get(k, k), "values": [_number(v) for v in g[f"gain:{k}"]]}
                for k in keys
                if f"gain:{k}" in g.columns
            ],
            "chosen": _number(node.split.threshold)
            if feature == getattr(node.split, "feature", None)
            else None,
        }
    steps = node_split_steps(clf, node_id)
    title = (
        node.split.branch_labels[0] if node.split is not None else f"leaf, class {node.prediction}"
    )
    return {
        "node": int(node_id),
        "title": str(title),
        "own_best": own,
        "gains": gains,
        "calculation": None if steps is None else steps_markdown(steps),
    }


class TreeWidget(anywidget.AnyWidget):
    """A fitted tree drawn inline; a click on a node fills ``details`` (see the module docs).

    Parameters
    ----------
    clf : TreeClassifier
        Fitted, with its training data.
    settings : sequence of MeasureSetting or setting keys, optional
        The settings compared at a node (default :func:`offcenter.comparison_settings`).
    """

    _esm = _ESM
    nodes = traitlets.List().tag(sync=True)
    selected = traitlets.Int(-1).tag(sync=True)
    details = traitlets.Dict().tag(sync=True)

    def __init__(self, clf, settings=None, **kwargs):
        require_data(clf)
        self._clf = clf
        if settings is None:
            settings = comparison_settings()
        self._settings = [
            s if isinstance(s, MeasureSetting) else MeasureSetting.parse(s) for s in settings
        ]
        super().__init__(nodes=tree_nodes(clf), **kwargs)

    @traitlets.observe("selected")
    def _on_select(self, change):
        i = change["new"]
        if i < 0:
            self.details = {}
            return
        if i >= len(self._clf.tree_):
            self.details = {"node": int(i), "error": f"node {i} does not exist."}
            return
        self.details = node_details(self._clf, i, self._settings)
