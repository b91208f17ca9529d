"""offcenter.app.tree_session: the Tree page's history of growth and edits, without Streamlit."""

import json

import pytest

from offcenter.app.tree_session import ForcedSplit, Grow, MakeLeaf, TreeSession
from offcenter.data.datasets import load
from offcenter.tree import TreeClassifier


@pytest.fixture(scope="module")
def grown():
    df = load("mutation")
    X, y = df[["mutation_1", "mutation_2", "mutation_3"]], df["cancer"]
    return TreeClassifier(max_depth=3).fit(X, y)


def started(tree, data_key="data", params_json='{"max_depth": 3}'):
    s = TreeSession()
    s.start(Grow(data_key, params_json), tree)
    return s


def test_empty_session():
    s = TreeSession()
    assert s.grown is None and s.current is None and s.edits == []
    assert not s.edited and s.edits_text() == ""
    assert s.data_changed("anything")
    assert not s.settings_changed("{}")
    with pytest.raises(ValueError, match="grow a tree before editing"):
        s.apply(MakeLeaf(0))


def test_edits_and_undo_with_real_trees(grown):
    s = started(grown)
    s.node = 1
    s.apply(ForcedSplit(0, "mutation_2"))
    assert s.current.tree_.nodes[0].split.feature == "mutation_2"
    s.apply(MakeLeaf(0))
    assert len(s.current.tree_.nodes) == 1
    assert s.edits == [ForcedSplit(0, "mutation_2"), MakeLeaf(0)]
    assert s.edits_text() == "split node 0 on mutation_2; leaf at node 0"
    s.undo()  # node 1 exists again after the undo: it stays selected
    assert s.current.tree_.nodes[0].split.feature == "mutation_2" and s.node == 1
    s.undo()
    assert s.current is grown and not s.edited
    s.undo()  # the growth itself is never undone
    assert s.current is grown


def test_undo_selects_the_root_when_the_node_is_gone(grown):
    s = started(grown)
    s.apply(MakeLeaf(0))
    s.apply(ForcedSplit(0, "mutation_1"))
    s.node = len(s.current.tree_.nodes) - 1
    s.undo()  # back to the one-node tree
    assert s.node == 0


def test_a_failed_edit_leaves_the_history_unchanged(grown):
    s = started(grown)
    with pytest.raises((ValueError, KeyError)):
        s.apply(ForcedSplit(0, "no such feature"))
    assert not s.edited and s.current is grown


def test_growing_again_restarts_the_history(grown):
    s = started(grown)
    s.apply(MakeLeaf(0))
    s.node = 3
    s.start(Grow("other", "{}"), grown)
    assert not s.edited and s.node == 0 and s.grown == Grow("other", "{}")


def test_data_and_settings_changes(grown):
    s = started(grown, "d", "p")
    assert not s.data_changed("d") and s.data_changed("e")
    assert not s.settings_changed("p") and s.settings_changed("q")


def test_keys_with_the_old_separator_are_kept_apart(grown):
    """Data keys are JSON of column names, which may contain "|" (the old history joined
    strings with it, so a column named "a|b" made the page regrow at every rerun)."""
    key = json.dumps(["h", "a|b", ["x|y"]])
    s = started(grown, key, "{}")
    assert not s.data_changed(key)
    other = started(grown, json.dumps(["h", "a", ["b|x|y"]]), "{}")
    assert s.key != other.key and s.tag != other.tag


def test_key_identifies_the_growth_and_the_edits(grown):
    a, b = started(grown), started(grown)
    assert a.key == b.key and len(a.tag) == 12
    a.apply(MakeLeaf(0), tree="edited")
    assert a.key != b.key
    b.apply(MakeLeaf(0), tree="edited")
    assert a.key == b.key
    b.undo()
    b.apply(ForcedSplit(0, "mutation_1"), tree="edited")
    assert a.key != b.key
    assert started(grown, params_json="{}").key != started(grown).key


def test_clicks_act_once(grown):
    s = started(grown)
    s.click(2, n_nodes=5)
    assert s.node == 2
    s.node = 0  # the selectbox moved the selection
    s.click(2, n_nodes=5)  # the same click seen at a rerun: no change
    assert s.node == 0
    s.click(None, n_nodes=5)
    s.click(2, n_nodes=5)  # clicked again after a deselection
    assert s.node == 2
    s.click(9, n_nodes=5)  # not a node of this tree
    assert s.node == 2 and s.last_click == 9


def test_check_node(grown):
    s = started(grown)
    s.node = 7
    s.check_node(7)
    assert s.node == 0
    s.node = 6
    s.check_node(7)
    assert s.node == 6


def test_records_describe_themselves():
    assert Grow("d", "p").describe() == "grown"
    assert ForcedSplit(3, "colour").describe() == "split node 3 on colour"
    assert MakeLeaf(4).describe() == "leaf at node 4"
