"""AppTest of the Tree page's "Compare two trees" section (offcenter/app/two_trees.py)."""

import json
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from offcenter.app.two_trees import (
    default_depth,
    metrics_frame,
    pair_marks,
    pair_params,
    pair_settings,
)
from offcenter.data.datasets import load
from offcenter.measures.settings import MeasureSetting
from offcenter.tree import TreeClassifier
from offcenter.viz.tree import fitting_depth
from tests.conftest import run_app

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "3_Tree.py")


def run(at=None, **query):
    """Run the page (a new one with ``query`` as its link) with the two-tree section on."""
    query = {"pair_on": "1", **query} if at is None else None  # the link turns it on
    return run_app(at, page=PAGE, query=query)


def figures(at):
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def pair_figures(at):
    """The two trees' figures: those whose title starts with "A: " or "B: "."""
    out = {}
    for fig in figures(at):
        notes = fig.get("layout", {}).get("annotations", [])
        title = next((n["text"] for n in notes if n.get("name") == "title"), "")
        if title[:3] in ("A: ", "B: "):
            out[title[0]] = fig
    return out


def marked_ids(fig):
    text = [t for t in fig["data"] if t.get("name") == "text"][0]["text"]
    return [t for t in text if "splits differ" in t]


def test_the_two_trees_are_grown_on_demand():
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.query_params["data"] = "pima"
    at.run()
    assert not at.exception
    assert at.toggle(key="tr_pair_on").value is False
    assert not [s for s in at.selectbox if s.key == "tr_pair_a"]
    assert not pair_figures(at)
    at.toggle(key="tr_pair_on").set_value(True)
    at = run(at)
    assert set(pair_figures(at)) == {"A", "B"}


def test_defaults_shannon_against_off_centered_on_pima():
    at = run(data="pima")
    assert at.selectbox(key="tr_pair_a").value == "shannon"
    assert at.selectbox(key="tr_pair_b").value == "oc_shannon"
    assert at.radio(key="tr_pair_layout").value == "side"
    # the labels are the settings' exact labels, with the prior resolved
    assert "off-centered Shannon, θ = prior (0.65, 0.35)" in at.selectbox(key="tr_pair_b").options
    text = "\n".join(str(t.value) for t in at.text)
    assert "node 0 of A / node 0 of B" in text
    assert "glucose ≤ 127.5" in text and "glucose ≤ 111.5" in text
    metrics = [d.value for d in at.dataframe if "metric (training data)" in d.value.columns][0]
    assert list(metrics.columns)[1].startswith("A: Shannon")
    assert list(metrics.columns)[2].startswith("B: off-centered Shannon")
    assert "recall of the minority class (1)" in list(metrics["metric (training data)"])
    figs = pair_figures(at)
    assert set(figs) == {"A", "B"}
    assert marked_ids(figs["A"]) == ["<b>splits differ (B: node 0)</b>"]
    assert marked_ids(figs["B"]) == ["<b>splits differ (A: node 0)</b>"]
    # the depth shown in both drawings: a slider, the deeper levels collapsed
    depth = [s for s in at.slider if s.key and s.key.startswith("tr_pair_depth")][0]
    assert 1 <= depth.value <= depth.max
    depth.set_value(1)
    at = run(at)
    figs = pair_figures(at)
    text = [t for t in figs["A"]["data"] if t.get("name") == "text"][0]["text"]
    assert any("nodes hidden" in t for t in text)
    assert (
        "depth shown 1 of"
        in [n["text"] for n in figs["A"]["layout"]["annotations"] if n.get("name") == "title"][0]
    )
    # the comparison's settings, layout and depth shown are in the link, and restored from it
    link = {k: (v[-1] if isinstance(v, list) else v) for k, v in at.query_params.items()}
    assert link["pair_on"] == "1" and link.get("pair_depth") in (None, "1")
    at.radio(key="tr_pair_layout").set_value("stacked")
    at.selectbox(key="tr_pair_b").set_value("gini")
    at = run(at)
    link = {k: (v[-1] if isinstance(v, list) else v) for k, v in at.query_params.items()}
    assert link["pair_layout"] == "stacked" and link["pair_b"] == "gini"
    fresh = run(**{**link, "pair_depth": "2"})
    assert fresh.radio(key="tr_pair_layout").value == "stacked"
    assert fresh.selectbox(key="tr_pair_b").value == "gini"
    depth = [s for s in fresh.slider if s.key and s.key.startswith("tr_pair_depth")][0]
    assert depth.value == 2


def test_same_setting_twice_and_stacked_layout():
    at = run(data="pima")
    at.selectbox(key="tr_pair_b").set_value("shannon")
    at.radio(key="tr_pair_layout").set_value("stacked")
    at = run(at)
    assert any("same setting" in str(i.value) for i in at.info)
    assert any("same splits everywhere" in str(s.value) for s in at.success)
    figs = pair_figures(at)
    assert marked_ids(figs["A"]) == [] and marked_ids(figs["B"]) == []


def _pair_depths(at) -> tuple[str, str]:
    metrics = [d.value for d in at.dataframe if "metric (training data)" in d.value.columns][0]
    depth_row = metrics[metrics["metric (training data)"] == "depth"].iloc[0]
    return depth_row.iloc[1], depth_row.iloc[2]


def test_the_pair_follows_the_grown_tree_stopping_rules():
    at = run(data="pima")
    assert _pair_depths(at) == ("5", "5")
    at.slider(key="tr_max_depth").set_value(2)
    at = run(at)
    # not grown yet: the tree above and the pair are still those of depth 5
    assert any("press **Grow the tree**" in str(i.value) for i in at.info)
    assert _pair_depths(at) == ("5", "5")
    at.button(key="tr_grow").click()
    at = run(at)
    assert _pair_depths(at) == ("2", "2")


def test_pure_helpers():
    base = {"measure": "gini", "theta": "prior", "alpha": 0.5, "max_depth": 3, "leaf_rule": "prior"}
    p = pair_params(base, MeasureSetting("shannon"))
    assert p["measure"] == "shannon" and p["theta"] is None
    assert p["alpha"] == 0.5 and p["max_depth"] == 3 and p["leaf_rule"] == "prior"
    with pytest.raises(TypeError, match="setting"):
        pair_params(base, "shannon")
    keys = [s.key for s in pair_settings(MeasureSetting("gini", theta="uniform", alpha=0.5))]
    assert keys[0] == "shannon" and keys[-1] == "ocuniform_gini"
    assert len(pair_settings(MeasureSetting("shannon"))) == len(pair_settings())
    df = load("iris")
    X, y = df.drop(columns="species"), df["species"]
    t = TreeClassifier(max_depth=2).fit(X, y)
    frame = metrics_frame([t, t], X, y, ["A", "B"])
    assert isinstance(frame, pd.DataFrame) and list(frame.columns) == [
        "metric (training data)",
        "A",
        "B",
    ]


def test_marks_and_the_default_depth():
    df = load("pima")
    X, y = df.drop(columns="diabetes"), df["diabetes"]
    a = TreeClassifier(measure="shannon", max_depth=4).fit(X, y)
    edited = a.make_leaf(a.tree_.nodes[a.tree_.nodes[1].children[0]].id)  # a depth-2 node
    deep = [i for i in a.tree_.nodes if i.depth == 2][0].id
    diffs = [(deep, deep)]
    # shown to depth 2: the node itself; to depth 1: its parent, naming it
    assert pair_marks(a, diffs, "B", 2) == {deep: f"splits differ (B: node {deep})"}
    parent = a.tree_.nodes[deep].parent
    assert pair_marks(a, diffs, "B", 1) == {parent: f"splits differ (below: node {deep})"}
    # the default depth shows the first differences, even when the drawings are then wider
    assert default_depth(a, edited, diffs, 200) == 2
    assert default_depth(a, a, [], 10_000) == 4
    assert default_depth(a, a, [], 10) == 1
    assert fitting_depth(a, 10_000) == 4 and fitting_depth(a, 10) == 1


@pytest.mark.parametrize("data", ["pima", "german_credit"])
def test_the_two_trees_at_18_px_in_presentation_mode(data):
    """present=1: one above the other, titles, legends and node text of 18 px or more at the
    default depth (2 or more); compact boxes when full ones would be smaller."""
    at = run(data=data, present="1", categorical="binary")
    assert not at.exception
    assert not [r for r in at.radio if r.key == "tr_pair_layout"]  # one above the other
    assert any("one tree above the other" in c.value for c in at.caption)
    figs = pair_figures(at)
    assert set(figs) == {"A", "B"}
    depth = at.session_state["tr_pair_depth"] or None
    for fig in figs.values():
        lay = fig["layout"]
        title = next(n for n in lay["annotations"] if n.get("name") == "title")
        assert title["font"]["size"] >= 18
        assert lay["legend"]["font"]["size"] >= 18
        assert lay["meta"]["font_size"] >= 18, (lay["meta"], depth)
        text = next(t for t in fig["data"] if t.get("name") == "text")
        assert text["textfont"]["size"] >= 18
    slider = [s for s in at.slider if s.key and s.key.startswith("tr_pair_depth_")][0]
    assert slider.value >= 2


def test_the_two_trees_keep_their_sizes_in_normal_mode():
    figs = pair_figures(run(data="pima"))
    assert {f["layout"]["meta"]["font_size"] for f in figs.values()} <= {14.0} or all(
        f["layout"]["meta"]["font_size"] < 18 for f in figs.values()
    )
