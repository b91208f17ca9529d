"""The Tree page's "next split" step-through (offcenter.app.tree_steps), with AppTest."""

import base64
from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

from offcenter.app.tree_steps import verdict_table
from offcenter.data.datasets import DATASETS, load
from offcenter.tree import TreeClassifier
from offcenter.tree.steps import split_order
from tests.app.tree_charts import tree_spec

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "3_Tree.py")


def run(at=None, **query):
    if at is None:
        at = AppTest.from_file(PAGE, default_timeout=120)
        for k, v in query.items():
            at.query_params[k] = v
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def query(at) -> dict:
    return {k: (v[-1] if isinstance(v, list) else v) for k, v in at.query_params.items()}


def _values(v):
    if isinstance(v, dict):
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"]).tolist()
    return list(v)


def drawn_nodes(at) -> list[int]:
    """The node ids drawn in the tree chart (the "nodes" trace's customdata)."""
    spec = tree_spec(at)
    trace = next(t for t in spec["data"] if t.get("name") == "nodes")
    return sorted(int(np.ravel(c)[0]) for c in trace["customdata"])


def node_select(at):
    return [s for s in at.selectbox if s.key and s.key.startswith("tr_node_select")][0]


def verdict_frame(at):
    return next(d.value for d in at.dataframe if "the tree's split?" in d.value.columns)


def pima_tree():
    """The page's default tree on pima with the off-centered Shannon setting (max depth 5)."""
    df = load("pima")
    t = DATASETS["pima"].target
    return TreeClassifier(measure="shannon", theta="prior", max_depth=5).fit(
        df.drop(columns=t), df[t]
    )


def test_the_step_through_grows_the_tree_one_split_at_a_time():
    at = run(data="pima", setting="oc_shannon")
    assert not [b for b in at.button if b.key == "tr_step_next"]  # off by default
    full = drawn_nodes(at)
    at.toggle(key="tr_step_on").set_value(True)
    at = run(at)
    assert query(at)["step_on"] == "1"
    assert drawn_nodes(at) == [0]  # the root alone
    assert any("Step 0: the root alone" in i.value for i in at.info)
    assert at.button(key="tr_step_prev").disabled and at.button(key="tr_step_reset").disabled

    order = split_order(pima_tree().tree_)
    at.button(key="tr_step_next").click()
    at = run(at)
    assert drawn_nodes(at) == [0, 1, 2] and query(at)["step"] == "1"
    at.button(key="tr_step_next").click()
    at = run(at)
    assert query(at)["step"] == "2"
    second = order[1]
    assert drawn_nodes(at) == [0, 1, 2, 3, 4]  # breadth-first: the whole tree's first ids
    # the node just split is selected (section 4 and the link) and its verdict is shown
    assert node_select(at).value == second and query(at)["node"] == str(second)
    assert f"Step 2: node {second} is split" in [s.value for s in at.subheader]
    table = verdict_frame(at)
    assert list(table.columns) == ["the tree's split?", "setting", "best split", "gain"]
    assert table["the tree's split?"].iloc[0] == "yes"  # the tree's own setting comes first
    assert set(table["the tree's split?"]) <= {"yes", "no"} and len(table) >= 8
    n_yes = int((table["the tree's split?"] == "yes").sum())
    assert any(f"{n_yes} of {len(table)} settings" in c.value for c in at.caption)

    at.button(key="tr_step_prev").click()
    at = run(at)
    assert query(at)["step"] == "1" and drawn_nodes(at) == [0, 1, 2]
    assert node_select(at).value == 0
    at.button(key="tr_step_last").click()
    at = run(at)
    # the last step: the drawing of the whole tree, and the last node split with its children
    last = pima_tree().tree_.nodes[order[-1]]
    drawn = drawn_nodes(at)
    assert {0, 1, 2, last.id, *last.children} <= set(drawn) and len(drawn) >= len(full)
    assert at.button(key="tr_step_next").disabled
    at.button(key="tr_step_reset").click()
    at = run(at)
    assert drawn_nodes(at) == [0] and "step" not in query(at)  # 0 is the default

    at.toggle(key="tr_step_on").set_value(False)
    at = run(at)
    assert drawn_nodes(at) == full and "step_on" not in query(at)


def test_a_shared_link_opens_at_its_step():
    at = run(data="pima", setting="oc_shannon", step_on="1", step="2", node="2")
    assert at.toggle(key="tr_step_on").value is True
    assert drawn_nodes(at) == [0, 1, 2, 3, 4]
    assert node_select(at).value == 2
    assert any(s.value.startswith("Step 2: node") for s in at.subheader)
    # a step beyond the tree's last split shows the whole tree
    at = run(data="pima", setting="oc_shannon", step_on="1", step="999")
    last = pima_tree().tree_.nodes[split_order(pima_tree().tree_)[-1]]
    assert {0, 1, 2, last.id, *last.children} <= set(drawn_nodes(at))
    assert query(at)["step"] == str(sum(1 for nd in pima_tree().tree_.nodes if nd.split))


def test_the_verdict_table_says_yes_for_the_settings_making_the_trees_split():
    clf = pima_tree()
    node = clf.tree_.nodes[0]
    table = verdict_table(clf.own_optima(0, ["oc_shannon", "gini", "shannon"]), node.split)
    assert table["the tree's split?"].tolist()[0] == "yes"
    for pick, said in zip(table["best split"], table["the tree's split?"]):
        assert (said == "yes") == (pick == node.split.branch_labels[0])


def test_a_tree_without_a_split_steps_nowhere():
    # min_gain 1: no split is good enough, the root is a leaf
    at = run(data="pima", setting="oc_shannon", min_gain="1", step_on="1", step="3")
    assert drawn_nodes(at) == [0]
    assert at.button(key="tr_step_next").disabled and at.button(key="tr_step_last").disabled
    assert any("The tree makes no split" in i.value for i in at.info)
    assert any("This tree has no split" in c.value for c in at.caption)
