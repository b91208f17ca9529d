"""The Tree page's cached click figure (offcenter.app.tree_click): the same figure as drawing
it anew, the drawing laid out once per (tree, depth, path) whatever node is selected, distinct
for another tree; the browser's chart (offcenter.app.tree_chart) draws that figure."""

from __future__ import annotations

import json

import plotly.io as pio

from offcenter import TreeClassifier
from offcenter.app.tree_chart import cached_chart, drawn_spec
from offcenter.app.tree_click import cached_tree_drawing, tree_figure_spec
from offcenter.data.datasets import DATASETS, load
from offcenter.viz.tree import tree_figure


def _fit(depth: int) -> TreeClassifier:
    df = load("pima")
    target = DATASETS["pima"].target
    return TreeClassifier(max_depth=depth).fit(df.drop(columns=[target]), df[target])


def _json(fig) -> dict:
    return json.loads(pio.to_json(fig, validate=False))


def test_the_click_figure_is_the_drawn_one_and_laid_out_once_per_tree():
    cached_tree_drawing.clear()
    clf = _fit(3)
    node = clf.tree_.nodes[2].id
    first = tree_figure_spec("pima-3", None, node, (), clf)
    assert _json(first) == _json(tree_figure(clf, selected=node, path=[]))
    drawing = cached_tree_drawing("pima-3", None, (), clf)
    # another node: the same drawing (its traces shared), another outline
    other = tree_figure_spec("pima-3", None, 0, (), clf)
    assert cached_tree_drawing("pima-3", None, (), clf) is drawing
    assert _json(other) == _json(tree_figure(clf, selected=0))
    assert _json(other) != _json(first)
    assert all(
        any(t is d for d in drawing.traces)
        for t in other["data"]
        if t["name"] != ("box outline selected")
    )
    traced = tree_figure_spec("pima-3", 2, node, (0, 1), clf)
    assert _json(traced) == _json(tree_figure(clf, max_depth=2, selected=node, path=[0, 1]))
    # a node below the depth drawn is not outlined (it has no box there)
    deep = max(n.id for n in clf.tree_.nodes)
    names = [t["name"] for t in tree_figure_spec("pima-3", 1, deep, (), clf)["data"]]
    assert "box outline selected" not in names
    assert _json(tree_figure_spec("pima-3", 1, deep, (), clf)) == _json(
        tree_figure(clf, max_depth=1, selected=deep)
    )


def test_another_tree_key_is_another_figure():
    cached_tree_drawing.clear()
    shallow, deep = _fit(2), _fit(4)
    a = tree_figure_spec("pima-2", None, 0, (), shallow)
    b = tree_figure_spec("pima-4", None, 0, (), deep)
    assert _json(a) != _json(b)
    assert _json(b) == _json(tree_figure(deep, selected=0))


def _chart_data(chart, selected) -> dict:
    figure, outlines, selected_at = chart
    return {
        "figure": figure,
        "outlines": outlines,
        "selected_at": selected_at,
        "selected": selected,
    }


def _drawn(spec: dict) -> dict:
    """A figure as drawn: without an empty trace (the browser's outline slot, nothing drawn)."""
    out = _json(spec)
    out["data"] = [
        t for t in out["data"] if t.get("x") != [] or t.get("name") != "box outline selected"
    ]
    return out


def test_the_browser_chart_is_one_figure_per_tree_that_outlines_any_node_as_the_server():
    cached_chart.clear()
    cached_tree_drawing.clear()
    clf = _fit(3)
    chart = cached_chart("pima-3", 2, (0, 1), clf)
    assert cached_chart("pima-3", 2, (0, 1), clf) is chart  # once per tree and view
    # the figure does not name a node: the selection is the outline the browser puts in
    assert '"box outline selected"' in chart[0]
    for node in [0, 1, 2, 5, max(n.id for n in clf.tree_.nodes), None]:
        server = tree_figure_spec("pima-3", 2, node, (0, 1), clf)
        assert _drawn(drawn_spec(_chart_data(chart, node))) == _drawn(server), node
    # a node below the depth drawn (or none): an empty outline, nothing drawn
    deep = max(n.id for n in clf.tree_.nodes)
    spec = drawn_spec(_chart_data(chart, deep))
    slot = spec["data"][chart[2]]
    assert slot["name"] == "box outline selected" and slot["x"] == []
