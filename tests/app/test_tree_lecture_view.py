"""The Tree page's lecture view and step-through drawing (offcenter.app.tree_view,
offcenter.viz.tree.fit_drawing, tree_layout's ``focus``, ``compact`` and ``sideways``): each step
draws the node just split and its children, depth 2 reads at 18 px or more in presentation mode
on every bundled data set (a multiway tree drawn left to right), long category sets are
shortened."""

import numpy as np
import pandas as pd
import pytest

from offcenter.app.tree_page import view_size
from offcenter.app.tree_view import MIN_PRESENT_FONT, lecture_size, step_size
from offcenter.data.csv_io import left_out_columns
from offcenter.data.datasets import DATASETS, load
from offcenter.tree import TreeClassifier
from offcenter.tree.steps import classifier_at_step, split_order, tree_at_step
from offcenter.viz.tree import fit_drawing, tree_figure
from offcenter.viz.tree_layout import overlaps, split_text, tree_layout, value_set

LECTURE = lecture_size(view_size(True, False))


def _fit(name, **params):
    """The Tree page's default tree of a bundled set: its identifier and constant columns left
    out (:func:`offcenter.data.csv_io.left_out_columns`), off-centered Shannon on the prior,
    depth 5."""
    df = load(name)
    target = DATASETS[name].target
    params = {"measure": "shannon", "theta": "prior", "max_depth": 5, **params}
    out = [c for c in left_out_columns(df) if c != target]
    return TreeClassifier(**params).fit(df.drop(columns=[target, *out]), df[target])


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


def _drawn(clf, fit, focus=None):
    depth = None if fit.depth >= clf.tree_.depth else fit.depth
    return tree_layout(
        clf,
        max_depth=depth,
        focus=focus,
        compact=fit.compact,
        wrap_width=fit.wrap_width,
        sideways=fit.sideways,
    )


def _check_inside_without_overlap(lay, fit, size):
    """Every box and text inside the chart at the drawn size, no two boxes or texts overlapping,
    every text inside its box."""
    scale = fit.font_size / 11
    assert lay.width * scale <= size.width and lay.height * scale <= size.height
    boxes = [(b.left, b.top, b.right, b.bottom) for b in lay.boxes.values()]
    assert overlaps(boxes) == []
    assert overlaps([t.box for t in lay.text_lines()]) == []
    for b in lay.boxes.values():
        assert 0 <= b.left and b.right <= lay.width and 0 <= b.top and b.bottom <= lay.height
        for t in b.lines:
            left, top, right, bottom = t.box
            assert b.left <= left and right <= b.right and b.top <= top and bottom <= b.bottom
        for _k, left, top, right, bottom in b.bar_rects():
            assert b.left <= left < right <= b.right and b.top <= top < bottom <= b.bottom


@pytest.mark.parametrize("name", list(DATASETS))
@pytest.mark.parametrize("categorical", ["multiway", "binary"])
def test_depth_two_reads_at_18_px_in_the_lecture_view_on_every_bundled_data_set(name, categorical):
    """The lecture view's default tree of every bundled set (multiway: one branch per value,
    German credit's 29 boxes at depth 2; binary: seven) opens at depth 2 (or the whole tree),
    every text at 18 px or more, every box inside the chart, no two overlapping; a multiway
    tree too wide to draw top-down is drawn left to right."""
    clf = _fit(name, categorical=categorical)
    fit = _fits(clf, LECTURE)
    assert fit.font_size >= MIN_PRESENT_FONT, fit
    assert fit.depth >= min(2, clf.tree_.depth), fit
    lay = _drawn(clf, fit)
    _check_inside_without_overlap(lay, fit, LECTURE)
    depth2 = {nd.id for nd in clf.tree_.nodes if nd.depth <= 2}
    assert depth2 <= set(lay.boxes)
    if name in ("german_credit", "tic_tac_toe") and categorical == "multiway":
        assert fit.sideways  # 29 and 13 boxes: too wide for two levels top-down at 18 px


def test_the_sideways_drawing_of_german_credit_at_depth_2():
    """Root on the left, one column per level, a line per node: "#12 = A11 · n 274" with the
    hidden count of a collapsed node or a leaf's class; the test of a node drawn with its
    children; the class shares as a strip down the box's side."""
    clf = _fit("german_credit")
    lay = tree_layout(clf, max_depth=2, sideways=True)
    nodes = clf.tree_.nodes
    assert len(lay.boxes) == 29 and lay.labels == {}
    lefts = {}
    for i, b in lay.boxes.items():
        lefts.setdefault(nodes[i].depth, set()).add(round(b.left, 6))
    assert all(len(v) == 1 for v in lefts.values())  # one column per depth, left-aligned
    assert max(lefts[0]) < min(lefts[1]) < min(lefts[2])
    root = [t.plain for t in lay.boxes[0].lines]
    assert root == ["#0 · n 1000", "checking_status", "= ?"]
    assert [t.plain for t in lay.boxes[2].lines] == ["#2 = A12 · n 269", "savings = ?"]
    for nd in nodes:
        if nd.depth != 2:
            continue
        (line,) = [t.plain for t in lay.boxes[nd.id].lines]
        k = list(nodes[nd.parent].children).index(nd.id)
        value = nodes[nd.parent].split.branch_labels[k].split(" = ", 1)[1]
        assert line.startswith(f"#{nd.id} = {value} · n {int(round(nd.n))}")
        if nd.children:
            assert line.endswith(f"· +{lay.boxes[nd.id].hidden}") and lay.boxes[nd.id].hidden > 0
        else:
            assert line.endswith(f"→ {nd.prediction}")
        strip = lay.boxes[nd.id].bar_rects()
        assert sum(bottom - top for *_, top, _r, bottom in strip) == pytest.approx(
            lay.boxes[nd.id].height - 3.0
        )
    for parent, child, pieces in lay.edges:  # from the parent's right side to the child's left
        assert pieces[0][0][0] == pytest.approx(lay.boxes[parent].right)
        assert pieces[-1][-1][0] == pytest.approx(lay.boxes[child].left)


@pytest.mark.parametrize("name", list(DATASETS))
def test_the_sideways_layout_never_overlaps(name):
    clf = _fit(name, max_depth=6)
    for depth in (1, 2, 3, None):
        lay = tree_layout(clf, max_depth=depth, sideways=True)
        _check_inside_without_overlap(lay, _Fit(11.0), _Size(lay.width, lay.height))


class _Fit:
    def __init__(self, font_size):
        self.font_size = font_size


class _Size:
    def __init__(self, width, height):
        self.width, self.height = width + 1e-9, height + 1e-9


@pytest.mark.parametrize("name", ["german_credit", "tic_tac_toe"])
@pytest.mark.parametrize("mode", ["lecture", "normal", "phone"])
def test_each_step_of_a_multiway_tree_draws_its_split(name, mode):
    """Steps 1-6 of a multiway tree in the lecture view, in normal mode and on a phone: the
    node just split and its children drawn, inside the chart (a phone's drawing may be taller
    than its screen), no two boxes overlapping; in the lecture view at 18 px or more while the
    node just split is at depth 1 or less (at depth 2, German credit's fourth column does not
    fit 700 px at 18 px: the drawing is smaller)."""
    clf = _fit(name)
    size = {
        "lecture": LECTURE,
        "normal": step_size(view_size(False, False)),
        "phone": step_size(view_size(False, True)),
    }[mode]
    for k in range(1, 7):
        node = split_order(clf.tree_)[k - 1]
        partial = classifier_at_step(clf, k)
        fit = _fits(partial, size, focus=node)
        lay = _drawn(partial, fit, focus=node)
        children = clf.tree_.nodes[node].children
        assert {node, *children} <= set(lay.boxes), (k, fit)
        scale = fit.font_size / 11
        assert lay.width * scale <= size.width + 0.5, (k, fit)
        assert overlaps([(b.left, b.top, b.right, b.bottom) for b in lay.boxes.values()]) == []
        if mode == "lecture" and clf.tree_.nodes[node].depth <= 1:
            assert fit.font_size >= MIN_PRESENT_FONT, (k, fit)


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
