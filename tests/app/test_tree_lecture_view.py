"""The Tree page's lecture view and step-through drawing (offcenter.app.tree_view,
offcenter.viz.tree.fit_drawing, tree_layout's ``focus`` and ``compact``): each step draws the node
just split and its children, depth 2 reads at 18 px or more in presentation mode, long category
sets are shortened."""

import numpy as np
import pandas as pd
import pytest

from offcenter.app.tree_page import view_size
from offcenter.app.tree_view import MIN_PRESENT_FONT, lecture_size, step_size
from offcenter.data.datasets import DATASETS, load
from offcenter.tree import TreeClassifier
from offcenter.tree.steps import classifier_at_step, split_order, tree_at_step
from offcenter.viz.tree import fit_drawing, tree_figure
from offcenter.viz.tree_layout import overlaps, split_text, tree_layout, value_set

LECTURE = lecture_size(view_size(True, False))


def _fit(name, **params):
    df = load(name)
    target = DATASETS[name].target
    params = {"measure": "shannon", "theta": "prior", "max_depth": 5, **params}
    return TreeClassifier(**params).fit(df.drop(columns=target), df[target])


def _fits(clf, size, focus=None):
    return fit_drawing(
        clf,
        size.width,
        size.height,
        font_size=size.font_size,
        min_font=size.min_font,
        wrap_width=size.wrap_width,
        shares_per_line=size.shares_per_line,
        focus=focus,
        allow_compact=size.compact,
    )


def test_focus_opens_the_path_to_a_deep_node_and_its_children():
    clf = _fit("pima")
    deep = next(nd for nd in clf.tree_.nodes if nd.depth == 3 and nd.children)
    lay = tree_layout(clf, max_depth=1, focus=deep.id)
    path, j = set(), deep.id
    while j is not None:
        path.add(j)
        j = clf.tree_.nodes[j].parent
    assert path | set(deep.children) <= set(lay.boxes)
    # off the path, nothing below depth 1 is drawn: the path's siblings are collapsed
    for i, box in lay.boxes.items():
        nd = clf.tree_.nodes[i]
        if nd.depth >= 2:
            assert nd.parent in path
        if i not in path and nd.depth >= 1 and nd.children:
            assert box.collapsed
    assert not overlaps([t.box for t in lay.text_lines()], tol=0.5)


@pytest.mark.parametrize("k", range(1, 7))
def test_each_of_the_first_six_steps_draws_its_split_at_18_px_in_the_lecture_view(k):
    clf = _fit("pima")
    step = tree_at_step(clf.tree_, k)
    partial = classifier_at_step(clf, k)
    node = split_order(clf.tree_)[k - 1]
    assert step.full_node == node
    fit = _fits(partial, LECTURE, focus=node)
    assert fit.font_size >= MIN_PRESENT_FONT
    depth = None if fit.depth >= partial.tree_.depth else fit.depth
    lay = tree_layout(
        partial, max_depth=depth, focus=node, compact=fit.compact, wrap_width=fit.wrap_width
    )
    scale = fit.font_size / 11
    assert lay.width * scale <= LECTURE.width and lay.height * scale <= LECTURE.height
    children = clf.tree_.nodes[node].children
    assert {node, *children} <= set(lay.boxes)
    assert not any(lay.boxes[c].collapsed for c in children if not partial.tree_.nodes[c].children)


@pytest.mark.parametrize("name", list(DATASETS))
def test_depth_two_reads_at_18_px_in_the_lecture_view_on_every_bundled_data_set(name):
    """Two groups of values (the binary trees: seven boxes at depth 2) for every bundled set; a
    multiway tree at least its root's children at 18 px."""
    for categorical in ("binary", "multiway"):
        clf = _fit(name, categorical=categorical)
        fit = _fits(clf, LECTURE)
        assert fit.font_size >= MIN_PRESENT_FONT, (categorical, fit)
        if categorical == "binary":
            assert fit.depth >= min(2, clf.tree_.depth), fit


def test_a_step_through_on_a_phone_draws_the_steps_node_and_children():
    clf = _fit("pima")
    phone = step_size(view_size(False, True))
    for k in range(1, 7):
        node = split_order(clf.tree_)[k - 1]
        partial = classifier_at_step(clf, k)
        fit = _fits(partial, phone, focus=node)
        depth = None if fit.depth >= partial.tree_.depth else fit.depth
        lay = tree_layout(partial, max_depth=depth, focus=node, compact=fit.compact,
                          wrap_width=fit.wrap_width)  # fmt: skip
        assert {node, *clf.tree_.nodes[node].children} <= set(lay.boxes)
        assert fit.font_size >= 10


def test_a_long_set_of_values_is_shortened_in_the_drawing():
    assert value_set([f"Z{i:04d}" for i in range(0, 684, 2)]) == "{Z0000, Z0002, ... and 340 more}"
    rng = np.random.default_rng(0)
    codes = [f"Z{i:04d}" for i in range(349)]
    X = pd.DataFrame({"code": rng.choice(codes, 600), "x": rng.normal(size=600)})
    y = (X["code"].str[-1].astype(int) % 2 == 0).astype(int)
    clf = TreeClassifier(categorical="binary", max_depth=2).fit(X, y)
    root = clf.tree_.nodes[0]
    assert root.split.feature == "code"
    text = split_text(root.split)
    assert "more}" in text and len(text) < 60
    assert len(split_text(root.split, full=True)) > 500
    fig = tree_figure(clf, font_size=20, compact=True, wrap_width=12)
    texts = next(t for t in fig.data if t.name == "text").text
    assert max(len(t) for t in texts) < 40
