"""The tree drawing's pixel layout: full split texts, no overlapping text, visible minorities,
node ids as the tree has them."""

import numpy as np
import pandas as pd
import pytest

from offcenter.data.datasets import DATASETS, load
from offcenter.tree import TreeClassifier
from offcenter.viz.tree import node_trace_index, tree_figure
from offcenter.viz.tree_layout import (
    CHAR_W,
    LINE_H,
    MAX_VALUES,
    MIN_SEGMENT,
    SHOWN_VALUES,
    bar_segments,
    fmt_share,
    overlaps,
    split_text,
    text_width,
    tree_layout,
    wrap,
)


def _fit(name, depth=6, **params):
    df = load(name)
    target = DATASETS[name].target
    return TreeClassifier(max_depth=depth, **params).fit(df.drop(columns=target), df[target])


def _box_text(layout, i):
    return [line.plain for line in layout.boxes[i].lines]


CASES = [
    (name, cat, measure)
    for name in DATASETS
    for cat in ("multiway", "binary")
    for measure in (("shannon", None), ("shannon", "prior"))
]


@pytest.mark.parametrize("name, categorical, measure", CASES)
def test_no_two_texts_overlap_up_to_depth_6(name, categorical, measure):
    clf = _fit(name, 6, categorical=categorical, measure=measure[0], theta=measure[1])
    lay = tree_layout(clf)
    lines = lay.text_lines()
    assert overlaps([t.box for t in lines]) == []
    boxes = [(b.left, b.top, b.right, b.bottom) for b in lay.boxes.values()]
    assert overlaps(boxes) == []
    for b in lay.boxes.values():
        # every line of a node lies inside its box, and the box inside the drawing
        for t in b.lines:
            left, top, right, bottom = t.box
            assert b.left <= left and right <= b.right and b.top <= top and bottom <= b.bottom
        assert 0 <= b.left and b.right <= lay.width + 1e-9 and b.bottom <= lay.height
    # no branch label overlaps a box
    for label in lay.labels.values():
        for t in label:
            assert overlaps(boxes + [t.box]) == []


@pytest.mark.parametrize("name", ["pima", "german_credit", "tic_tac_toe", "iris"])
def test_every_node_shows_its_full_split(name):
    clf = _fit(name, 6, categorical="binary", measure="shannon", theta="prior")
    lay = tree_layout(clf)
    for node in clf.tree_.nodes:
        text = _box_text(lay, node.id)
        assert text[0] == f"node {node.id}"
        if node.split is None:
            assert " ".join(text[1:]).startswith(f"→ {node.prediction}")
            continue
        shown = " ".join(text)
        assert split_text(node.split) in shown or split_text(node.split).replace(" ", "") in (
            shown.replace(" ", "")
        )
        if node.split.kind == "numeric":
            # the threshold exactly as the branch labels write it, whole on one line
            full = node.split.branch_labels[0].split(" <= ")[-1]
            assert any(line.endswith(f"≤ {full}") for line in text)
            assert full == f"{node.split.threshold:.6g}"
        else:
            values = node.split.groups[0]
            # a long set is shortened: its first values and how many more (value_set)
            for v in values if len(values) <= MAX_VALUES else values[:SHOWN_VALUES]:
                assert ("missing" if v is None else str(v)) in shown
            if len(values) > MAX_VALUES:
                assert f"and {len(values) - SHOWN_VALUES} more" in shown
        assert any(line.startswith("gain ") for line in text)
        assert any(line == f"n = {node.n}" for line in text)
        assert any(line.startswith("impurity ") for line in text)


def test_long_names_and_groupings_wrap_without_losing_a_character():
    long = "a_very_long_column_name_that_never_ends_in_this_data_set"
    X = pd.DataFrame(
        {
            long: np.arange(40, dtype=float),
            "colour": [f"shade number {k % 8}" for k in range(40)],
        }
    )
    y = ["p" if (k < 20) != (k % 8 in (1, 2, 3)) else "q" for k in range(40)]
    clf = TreeClassifier(max_depth=3, categorical="binary").fit(X, y)
    lay = tree_layout(clf)
    assert overlaps([t.box for t in lay.text_lines()]) == []
    for node in clf.tree_.nodes:
        if node.split is None:
            continue
        text = _box_text(lay, node.id)
        pieces = text[1 : text.index(f"n = {node.n}")]
        assert all(len(p) <= 26 for p in pieces)
        joined_tight = "".join(pieces).replace(" ", "")
        assert joined_tight == split_text(node.split).replace(" ", "")
    assert wrap("x" * 60, 26) == ["x" * 26, "x" * 26, "x" * 8]
    assert wrap("") == [""]
    with pytest.raises(ValueError, match="width"):
        wrap("abc", 0)


def test_a_one_percent_minority_has_a_visible_bar_and_its_share_written():
    segs = bar_segments([99, 1], 0.0, 80.0)
    assert len(segs) == 2
    (j0, l0, r0, p0), (j1, l1, r1, p1) = segs
    assert r1 - l1 >= MIN_SEGMENT and r0 - l0 > r1 - l1
    assert r1 == pytest.approx(80.0) and p1 == pytest.approx(0.01)
    assert bar_segments([0, 5], 0.0, 80.0) == [(1, 0.0, 80.0, 1.0)]
    assert fmt_share(0.01) == "1.0%" and fmt_share(0.0001) == "<0.1%" and fmt_share(0) == "0%"
    # on a real tree with a 1 % minority: the root's bar and text
    X = pd.DataFrame({"a": np.arange(1000, dtype=float)})
    y = np.array(["major"] * 990 + ["minor"] * 10)
    clf = TreeClassifier(max_depth=2).fit(X, y)
    lay = tree_layout(clf)
    root = lay.boxes[0]
    minor = [s for s in root.bar if s[0] == 1][0]
    assert minor[2] - minor[1] >= MIN_SEGMENT
    assert any("1.0%" in line for line in _box_text(lay, 0))
    fig = tree_figure(clf)
    bar = [t for t in fig.data if t.name == "bar 1"][0]
    xs = [v for v in bar.x if v is not None]
    assert max(xs) - min(xs) >= MIN_SEGMENT


def test_node_ids_match_the_tree_selector_and_path():
    clf = _fit("pima", 6, measure="shannon", theta="prior")
    lay = tree_layout(clf)
    assert sorted(lay.boxes) == [n.id for n in clf.tree_.nodes]
    fig = tree_figure(
        clf, path=clf.decision_paths(load("pima").drop(columns="diabetes").iloc[[0]])[0]
    )
    nodes = fig.data[node_trace_index(fig)]
    ids = [c[0] for c in nodes.customdata]
    assert sorted(ids) == [n.id for n in clf.tree_.nodes]
    # each marker sits in the box whose first line names the same id, and says it on hover
    for i, x, y, hover in zip(ids, nodes.x, nodes.y, nodes.hovertext):
        b = lay.boxes[i]
        assert b.left <= x <= b.right and b.top <= -y <= b.bottom
        assert b.lines[0].plain == f"node {i}" and hover.startswith(f"node {i} ")
    path = [t for t in fig.data if t.name == "traced path"][0]
    assert len([v for v in path.x if v is None]) >= 6  # a path of depth 6: six edges


def test_collapsed_nodes_say_how_many_are_hidden_and_marks_are_drawn():
    clf = _fit("pima", 6)
    lay = tree_layout(clf, max_depth=2, marked={0: "splits differ"})
    assert max(clf.tree_.nodes[i].depth for i in lay.boxes) == 2
    collapsed = [b for b in lay.boxes.values() if b.collapsed]
    assert collapsed and all(
        f"+ {len(clf.tree_.subtree(b.id)) - 1} nodes hidden" in _box_text(lay, b.id)
        for b in collapsed
    )
    assert _box_text(lay, 0)[0] == "splits differ" and _box_text(lay, 0)[1] == "node 0"
    fig = tree_figure(clf, max_depth=2, marked=[0], title="A <b>title</b>")
    assert [t for t in fig.data if t.name == "box outline marked"]
    assert "&lt;b&gt;" in fig.layout.annotations[0].text


def test_the_figure_is_drawn_at_its_font_size_per_unit_and_whole():
    clf = _fit("iris", 5)
    lay = tree_layout(clf)
    for font in (11.0, 14.0, 20.0):
        fig = tree_figure(clf, title="iris", font_size=font)
        m = fig.layout.margin
        scale = font / 11.0
        assert fig.layout.height == pytest.approx(lay.height * scale + m.t + m.b, abs=1)
        # the axes span the whole drawing: Plotly shows all of it whatever the chart's size
        assert tuple(fig.layout.yaxis.range) == (-lay.height, 0.0)
        assert tuple(fig.layout.xaxis.range) == (0.0, lay.width)
        assert fig.layout.xaxis.scaleanchor == "y" and fig.layout.xaxis.scaleratio == 1
        text = next(t for t in fig.data if t.name == "text")
        assert text.textfont.size == font and fig.layout.meta["font_size"] == font
        assert fig.layout.meta["width"] == pytest.approx(lay.width * scale)
    assert text_width("ab") == 2 * CHAR_W and text_width("漢") == 2 * CHAR_W and LINE_H > 11
    with pytest.raises(ValueError, match="font_size"):
        tree_figure(clf, font_size=0)


def test_narrow_boxes_for_a_phone():
    clf = _fit("german_credit", 3)
    wide, narrow = tree_layout(clf), tree_layout(clf, wrap_width=14, shares_per_line=1)
    assert narrow.width < wide.width
    fixed = ("impurity", "gain", "n = ", "node ", "+ ")
    wrapped = [t.plain for t in narrow.text_lines() if "%" not in t.plain]
    assert max(len(p) for p in wrapped if not p.startswith(fixed)) <= 14
    assert overlaps([t.box for t in narrow.text_lines()]) == []
    with pytest.raises(ValueError, match="wrap_width"):
        tree_layout(clf, wrap_width=2)


def test_fit_depth_is_the_deepest_level_that_fits_at_the_font_size():
    from offcenter.viz.tree import fit_depth

    clf = _fit("pima", 5)
    for w, h, font in [(940, 600, 14), (1000, 640, 20), (360, 700, 14), (3000, 3000, 11)]:
        d = fit_depth(clf, w, h, font_size=font)
        assert d >= 1
        lay = tree_layout(clf, max_depth=None if d == clf.tree_.depth else d)
        if d > 1:  # a deeper level would not fit; this one does
            assert lay.width * font / 11 <= w and lay.height * font / 11 <= h
        if d < clf.tree_.depth:
            deeper = tree_layout(clf, max_depth=d + 1)
            assert deeper.width * font / 11 > w or deeper.height * font / 11 > h


def test_a_hellinger_tree_names_its_split_score():
    clf = _fit("pima", 2, measure="hellinger")
    lay = tree_layout(clf)
    text = _box_text(lay, 0)
    assert any(line.startswith("Hellinger d ") for line in text)
    assert not any(line.startswith("gain ") for line in text)
