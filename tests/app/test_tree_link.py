"""Hand edits in the link and in the session file (offcenter.app.tree_link), pure tests."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from offcenter.app.tree_link import (
    FORMAT,
    decode_edits,
    decode_names,
    encode_edits,
    encode_names,
    replay,
    session_from_json,
    session_to_json,
)
from offcenter.app.tree_session import ForcedSplit, MakeLeaf
from offcenter.data.datasets import DATASETS, load
from offcenter.tree import TreeClassifier

names = st.text(min_size=1, max_size=20)
edits = st.lists(
    st.one_of(
        st.builds(MakeLeaf, st.integers(0, 10_000)),
        st.builds(ForcedSplit, st.integers(0, 10_000), names),
    ),
    max_size=12,
)


@given(edits)
def test_edits_round_trip_through_the_link(es):
    text = encode_edits(es)
    assert decode_edits(text) == (es, [])
    assert "&" not in text and "#" not in text and "=" not in text


@given(st.lists(names, max_size=8))
def test_names_round_trip_through_the_link(ns):
    assert decode_names(encode_names(ns)) == ns


def test_link_text_is_compact_for_plain_names():
    assert encode_edits([ForcedSplit(0, "glucose"), MakeLeaf(4), ForcedSplit(12, "age")]) == (
        "s0:glucose,l4,s12:age"
    )


def test_unreadable_link_edits_are_named_not_dropped_silently():
    es, warnings = decode_edits("s0:age,q1,l-1,s:x,l7")
    assert es == [ForcedSplit(0, "age"), MakeLeaf(7)]
    assert len(warnings) == 3 and "edit 2 ('q1')" in warnings[0]


def test_encode_refuses_what_is_not_an_edit():
    with pytest.raises(TypeError, match="edits"):
        encode_edits(["leaf 3"])


def test_session_file_round_trip():
    es = [ForcedSplit(0, "a,b"), MakeLeaf(2)]
    text = session_to_json(
        data="upload",
        file_name="x.csv",
        fingerprint="0123456789abcdef",
        target="class",
        features=["a,b", "c"],
        as_categorical=["c"],
        sample=False,
        edits=es,
        page={"measure": "gini", "max_depth": 3},
        setting="gini",
        tree_params={"measure": "gini"},
    )
    doc = json.loads(text)
    assert doc["format"] == FORMAT and doc["data"]["fingerprint"] == "0123456789abcdef"
    r = session_from_json(text.encode())
    assert (r.data, r.file_name, r.fingerprint) == ("upload", "x.csv", "0123456789abcdef")
    assert (r.target, r.features, r.as_categorical, r.as_numeric) == (
        "class",
        ["a,b", "c"],
        ["c"],
        [],
    )
    assert r.sample is False and r.edits == es and r.page == {"measure": "gini", "max_depth": "3"}
    assert r.origin == "session file" and not r.warnings


@pytest.mark.parametrize(
    "text, words",
    [
        (b"\xff\xfe\x00bad", "not UTF-8"),
        ("a,b\n1,2\n", "not JSON"),
        ('{"format": "something else"}', "not an offcenter tree session"),
        (json.dumps({"format": FORMAT, "version": 9}), "version 9"),
        (json.dumps({"format": FORMAT, "version": 1, "target": "y"}), "which data set"),
        (json.dumps({"format": FORMAT, "version": 1, "data": {"source": "iris"}}), "target"),
    ],
)
def test_files_that_are_not_session_files_are_refused_plainly(text, words):
    with pytest.raises(ValueError, match=words):
        session_from_json(text)


def test_unreadable_edits_in_a_session_file_are_named():
    doc = json.loads(session_to_json(data="iris", target="class", features=[], edits=[], page={}))
    doc["edits"] = [{"op": "leaf", "node": 1}, {"op": "leaf", "node": -1}, {"op": "grow"}]
    r = session_from_json(json.dumps(doc))
    assert r.edits == [MakeLeaf(1)]
    assert r.warnings == [
        "Edit 2 of the session file is not readable; left out.",
        "Edit 3 of the session file is not readable; left out.",
    ]


def _pima_tree():
    df = load("pima")
    t = DATASETS["pima"].target
    return TreeClassifier(max_depth=3).fit(df.drop(columns=t), df[t])


def test_replay_gives_the_same_tree_as_the_edits_made_by_hand():
    clf = _pima_tree()
    es = [ForcedSplit(1, "age"), MakeLeaf(2), ForcedSplit(0, "bmi")]
    by_hand = clf
    for e in es:
        by_hand = e.apply(by_hand)
    tree, applied, trees, warnings = replay(clf, es)
    assert applied == es and not warnings and trees[-1] is tree
    key = [(n.id, n.parent, n.split and (n.split.feature, n.split.threshold)) for n in tree.tree_]
    assert key == [
        (n.id, n.parent, n.split and (n.split.feature, n.split.threshold)) for n in by_hand.tree_
    ]


def test_replay_names_the_edits_that_no_longer_apply_and_keeps_going():
    clf = _pima_tree()
    n = len(clf.tree_.nodes)
    leaf = clf.tree_.leaves[0]
    es = [ForcedSplit(0, "no such column"), MakeLeaf(n + 5), MakeLeaf(leaf), MakeLeaf(1)]
    tree, applied, trees, warnings = replay(clf, es)
    assert applied == [MakeLeaf(1)]
    assert len(warnings) == 3
    assert "Edit 1 of 4 (split node 0 on no such column)" in warnings[0]
    assert f"no node {n + 5}" in warnings[1]
    assert "already a leaf" in warnings[2]
    assert tree.tree_.nodes[1].split is None


@pytest.mark.parametrize("depth", [10_000, 200_000])
def test_deeply_nested_json_is_refused_plainly(depth):
    with pytest.raises(ValueError, match="nested too deeply"):
        session_from_json("[" * depth + "]" * depth)
    doc = json.loads(session_to_json(data="iris", target="class", features=[], edits=[], page={}))
    text = json.dumps(doc)[:-1] + ', "extra": ' + '{"a": ' * depth + "1" + "}" * depth + "}"
    with pytest.raises(ValueError, match="nested too deeply"):
        session_from_json(text)


def test_session_file_page_values_become_link_text():
    doc = json.loads(session_to_json(data="iris", target="class", features=[], edits=[], page={}))
    doc["page"] = {
        "max_depth": "inf",
        "beta": 1e308,
        "big": 10**400,
        "flag": True,
        "nested": [[1, [2]]],
        "obj": {"a": 1},
    }
    r = session_from_json(json.dumps(doc))
    assert r.page == {
        "max_depth": "inf",
        "beta": "1e+308",
        "big": "inf",
        "flag": "1",
        "nested": "<list>",
        "obj": "<dict>",
    }
