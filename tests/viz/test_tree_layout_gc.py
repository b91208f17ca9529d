"""The tree layouts the Tree page caches cost CPython's full collections nothing (issue 34):
stored as plain tuples of atoms, which the collector stops tracking, and drawn exactly as before.
"""

import gc
import hashlib
import json

import pytest

from offcenter.data.datasets import DATASETS, load
from offcenter.tree import TreeClassifier
from offcenter.viz.tree import fit_drawing, tree_drawing
from offcenter.viz.tree_layout import NodeBox, TextLine, tree_layout

#: sha256 of :func:`_specs`'s JSON, computed by this test with the layout of main 0511fc1
#: (dataclass NodeBox and TextLine objects, lists): the figures must stay the same byte for byte. A deliberate
#: change of the drawing changes it: print the new value with ``_digest()`` and check the
#: drawings by eye.
SPECS_SHA256 = "5def1f7c76d3a83e36b95857be270b326017c8d80142cfac29dba64bcafe9cd3"


def _fit(name, depth, **params):
    df = load(name)
    target = DATASETS[name].target
    return TreeClassifier(max_depth=depth, **params).fit(df.drop(columns=target), df[target])


@pytest.fixture(scope="module")
def trees():
    return [
        _fit("pima", 4),
        _fit("german_credit", 3, categorical="multiway"),
        _fit("german_credit", 3, categorical="binary", measure="shannon", theta="prior"),
    ]


def _specs(trees):
    """Every kind of drawing the pages make: full, collapsed, a focus node's, compact,
    sideways, marked with a traced path and a title at presentation size; each with a node
    selected and with the empty outline slot; and the fit of a chart."""
    out = []
    for clf in trees:
        for kw in [
            dict(),
            dict(max_depth=2),
            dict(max_depth=1, focus=4),
            dict(compact=True, wrap_width=12),
            dict(sideways=True, wrap_width=30, compact=True),
            dict(
                marked={3: "x"},
                path=(0, 1, 3),
                title="t <b>",
                font_size=20.0,
                label_font=18.0,
            ),
        ]:
            d = tree_drawing(clf, **kw)
            for spec in (d.spec(1), d.spec(None, slot=True)):
                # Plotly's default template is the environment's (what was imported before)
                layout = {k: v for k, v in spec["layout"].items() if k != "template"}
                out.append({"data": spec["data"], "layout": layout})
        out.append(repr(fit_drawing(clf, 700, 500, allow_compact=True, min_font=12)))
    return out


def _digest(trees):
    return hashlib.sha256(json.dumps(_specs(trees), sort_keys=True).encode()).hexdigest()


def test_the_drawings_are_those_of_before_byte_for_byte(trees):
    assert _digest(trees) == SPECS_SHA256


def _tracked_inside(obj):
    """The objects reachable from ``obj`` (itself included) that the collector tracks."""
    seen, stack, tracked = set(), [obj], 0
    while stack:
        o = stack.pop()
        if id(o) in seen:
            continue
        seen.add(id(o))
        if gc.is_tracked(o):
            tracked += 1
        stack.extend(r for r in gc.get_referents(o) if not isinstance(r, type))
    return tracked


@pytest.mark.parametrize("kw", [{}, {"compact": True, "wrap_width": 12}, {"sideways": True}])
def test_a_collected_layout_is_four_tracked_objects_whatever_its_size(trees, kw):
    lay = tree_layout(trees[1], **kw)
    assert len(lay.box_rows) > 40 and len(lay.text_lines()) > 100
    # a collection untracks a tuple whose items are untracked; the order it visits them in
    # is not their creation's, so a nesting of depth d (an edge: 5) takes up to d collections
    for _ in range(6):
        gc.collect()
    # the layout, its two dicts (node -> row, child -> label rows) and its __dict__ at most
    assert _tracked_inside(lay) <= 4
    # the old layout (a dataclass per box and per text line, lists) was thousands
    assert sum(1 + len(b.lines) for b in lay.boxes.values()) > 100


def test_the_layout_reads_as_named_tuples(trees):
    lay = tree_layout(trees[0])
    root = lay.boxes[0]
    assert isinstance(root, NodeBox) and all(isinstance(t, TextLine) for t in root.lines)
    assert root.lines[0].plain == "node 0" and root.lines[0].node == 0
    assert root.left < root.x < root.right and root.bottom == root.top + root.height
    assert root.lines[0].box[0] >= root.left
    assert all(isinstance(t, TextLine) for t in lay.text_lines())
    assert lay.line_rows() == [tuple(t) for t in lay.text_lines()]
    assert sorted(lay.labels) == sorted(i for i in lay.order if i != 0)


def _tracked_excluding(obj, skip):
    seen, stack, tracked = {id(skip)}, [obj], 0
    while stack:
        o = stack.pop()
        if id(o) in seen:
            continue
        seen.add(id(o))
        tracked += gc.is_tracked(o)
        stack.extend(r for r in gc.get_referents(o) if not isinstance(r, type))
    return tracked


def test_a_cached_drawing_holds_a_few_dozen_tracked_objects_and_one_shared_template(trees):
    big, other = tree_drawing(trees[1]), tree_drawing(trees[0], font_size=20.0)
    template = big.layout["template"]
    assert other.layout["template"] is template  # one copy for every drawing
    for _ in range(6):
        gc.collect()
    # the traces' dicts and coordinate lists, not one list per node (the nodes' customdata)
    nodes = len(big.boxes)
    assert nodes > 80 and _tracked_excluding(big, template) < 80
    # the nodes' ids as the browser gets them: [[id], ...] in drawing order
    (trace,) = [t for t in json.loads(json.dumps(big.spec(3)))["data"] if t["name"] == "nodes"]
    assert trace["customdata"] == [[i] for i in big.boxes]


def test_a_box_being_placed_has_the_node_boxs_fields_and_edges():
    """The layout's working box (_Box) and the stored NodeBox share one field list and one
    geometry: its row is a NodeBox, field for field."""
    from dataclasses import fields

    from offcenter.viz.tree_layout import _Box

    assert tuple(f.name for f in fields(_Box)) == NodeBox._fields
    box = _Box(
        3, 100.0, 20.0, 60.0, 40.0, lines=[("a", "a", 1.0, 2.0, "#000", 3)], bar=[(0, 1, 2, 0.5)]
    )
    node = NodeBox(*box.row())
    assert (
        (node.left, node.right, node.bottom)
        == (box.left, box.right, box.bottom)
        == (70.0, 130.0, 60.0)
    )
    assert node.lines == (("a", "a", 1.0, 2.0, "#000", 3),) and node.bar == ((0, 1, 2, 0.5),)
