"""The Tree page's cached click figure (offcenter.app.tree_click): the same figure as drawing
it anew, computed once per (tree, depth, node, path), distinct for another node or tree."""

from __future__ import annotations

import json

import plotly.io as pio

from offcenter import TreeClassifier
from offcenter.app.tree_click import cached_tree_figure
from offcenter.data.datasets import DATASETS, load
from offcenter.viz.tree import tree_figure


def _fit(depth: int) -> TreeClassifier:
    df = load("pima")
    target = DATASETS["pima"].target
    return TreeClassifier(max_depth=depth).fit(df.drop(columns=[target]), df[target])


def _json(fig) -> dict:
    return json.loads(pio.to_json(fig, validate=False))


def test_the_cached_figure_is_the_drawn_one_and_computed_once():
    cached_tree_figure.clear()
    clf = _fit(3)
    node = clf.tree_.nodes[2].id
    first = cached_tree_figure("pima-3", None, node, (), clf)
    again = cached_tree_figure("pima-3", None, node, (), clf)
    assert again is first  # a second click on the node: no work
    assert _json(first) == _json(tree_figure(clf, selected=node, path=[]))
    other = cached_tree_figure("pima-3", None, 0, (), clf)
    assert other is not first and _json(other) == _json(tree_figure(clf, selected=0))
    traced = cached_tree_figure("pima-3", 2, node, (0, 1), clf)
    assert _json(traced) == _json(tree_figure(clf, max_depth=2, selected=node, path=[0, 1]))


def test_another_tree_key_is_another_figure():
    cached_tree_figure.clear()
    shallow, deep = _fit(2), _fit(4)
    a = cached_tree_figure("pima-2", None, 0, (), shallow)
    b = cached_tree_figure("pima-4", None, 0, (), deep)
    assert _json(a) != _json(b)
    assert _json(b) == _json(tree_figure(deep, selected=0))
