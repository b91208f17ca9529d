"""The home page's lesson (offcenter.app.lesson): every step's link decodes with its page's URL
schema without a warning and gives the step's settings; the home page shows the four steps and
their links; each target page, opened with a step's query, shows the step's state."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from offcenter.app import lesson, tree_page, urlstate
from offcenter.app.curve_pages import (
    PRESETS,
    Q_CLASS_SCHEMA,
    TWO_CLASS_SCHEMA,
    matching_preset,
    page_specs,
)
from offcenter.app.curve_text import normalise_theta
from offcenter.app.navigation import PAGES
from offcenter.app.node_settings import CHOICES, url_fields
from offcenter.data.datasets import DATASETS
from offcenter.measures.curves import curve_label
from offcenter.measures.settings import MeasureSetting
from tests.conftest import run_app

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 120
WHAT, UNIFORM, OFFCENTER, SPLIT = lesson.STEPS


def decoded(step: lesson.LessonStep, present: bool = False) -> dict:
    """The values the step's target page reads from the link (no warning allowed)."""
    link = lesson.step_link(step, present=present)
    values, warnings = lesson.SCHEMAS[step.page].decode(link.query)
    assert warnings == []
    return values


# ====================================================================== pure: the links
def test_four_steps_each_with_title_text_formula_and_page():
    assert [s.title for s in lesson.STEPS] == [
        "What entropy measures",
        "Why the maximum is at the uniform distribution",
        "What off-centering moves",
        "What it does to a split",
    ]
    for step in lesson.STEPS:
        sentences = [t for t in re.split(r"(?<=[.!?])\s+", step.text) if t]
        assert 2 <= len(sentences) <= 4, step.text
        assert step.latex and all(step.latex)
        assert step.page in lesson.SCHEMAS and (ROOT / step.page).exists()
        # a link does not wrap: short enough for a phone
        assert len(step.label) <= 40, step.label


@pytest.mark.parametrize("step", lesson.STEPS, ids=lambda s: s.title)
@pytest.mark.parametrize("present", [False, True])
def test_every_link_decodes_without_warning_to_the_steps_settings(step, present):
    link = lesson.step_link(step, present=present)
    schema = lesson.SCHEMAS[step.page]
    # only the page's own parameter names, and the shared presentation flag
    assert set(link.query) <= {f.name for f in schema} | {"present"}
    values = decoded(step, present)
    for name, want in step.settings.items():
        got = values[name]
        if isinstance(want, float):
            assert got == pytest.approx(want)
        elif isinstance(want, tuple) and want and isinstance(want[0], float):
            assert got == pytest.approx(want, rel=1e-9)
        else:
            assert got == want, name
    # every setting of the step is in the link, defaults included (the link must override
    # whatever the user had set before)
    assert set(step.settings) <= set(link.query)
    shared, warnings = urlstate.GLOBAL_SCHEMA.decode(link.query)
    assert warnings == [] and shared["present"] is present
    assert ("present" in link.query) is present


def test_link_paths_are_the_pages_addresses():
    # the curve pages' own schemas (pages/1_Two_classes.py and 2_Q_classes.py use them)
    assert lesson.SCHEMAS[lesson.TWO_CLASSES] is TWO_CLASS_SCHEMA
    assert lesson.SCHEMAS[lesson.Q_CLASSES] is Q_CLASS_SCHEMA
    paths = {page: lesson.url_path(page) for page, _, _ in PAGES}
    assert list(paths.values()) == ["", "Two_classes", "Q_classes", "Tree", "Compare_measures"]
    link = lesson.step_link(OFFCENTER, present=True)
    assert link.href == "/Two_classes?" + link.query_string
    assert "present=1" in link.query_string.split("&")


def test_step_1_is_shannon_and_gini_without_off_centering():
    values = {**TWO_CLASS_SCHEMA.defaults(), **decoded(WHAT)}
    raw, oc = page_specs(values)
    assert [curve_label(s) for s in raw] == ["Shannon", "Gini"]
    assert oc == []
    assert values["theta"] == 0.5  # the uniform distribution: off-centering there is the identity


def test_step_2_is_the_ternary_view_at_q_3_with_a_uniform_theta():
    values = decoded(UNIFORM)
    assert values["q"] == 3 and values["tab"] == "ternary"
    theta, notes = normalise_theta(np.asarray(values["theta"]), 3)
    assert theta == pytest.approx([1 / 3] * 3) and notes == []
    raw, oc = page_specs(values)
    assert [s.key for s in raw] == ["shannon"] and oc == []
    assert values["ternary"] == "shannon"  # the measure drawn over the simplex


def test_step_3_is_figure_1():
    values = {**TWO_CLASS_SCHEMA.defaults(), **decoded(OFFCENTER)}
    assert values["theta"] == 0.2
    assert set(values["measures"]) == {"shannon", "asymmetric"}
    assert matching_preset(values) == "fig1"
    # the link sets Figure 1 even over other settings the page holds
    link = lesson.step_link(OFFCENTER)
    assert link.query["theta"] == "0.2" and link.query["version"] == "both"
    assert dict(PRESETS["fig1"]["values"]) == dict(OFFCENTER.settings)


def test_step_4_is_pima_with_the_off_centered_shannon_on_the_prior():
    values = decoded(SPLIT)
    assert values["data"] == "pima" and "pima" in DATASETS
    assert CHOICES[values["setting"]] == MeasureSetting("shannon", theta="prior")
    # the lesson's tree fields are the page's own (same names, defaults and choices)
    page_fields = {f.name: f for f in url_fields()}
    for f in lesson.TREE_LINK_SCHEMA:
        if f.name in page_fields:
            assert f == page_fields[f.name]
    tree_src = (ROOT / "pages" / "3_Tree.py").read_text(encoding="utf-8")
    # the page reads the schema the lessons write (one home: offcenter.app.tree_page)
    assert "tree_page.TreePageState()" in tree_src and "page.open()" in tree_src
    assert tree_page.TreePageState.schema is tree_page.SCHEMA
    assert lesson.TREE_LINK_SCHEMA is tree_page.SCHEMA
    assert "data" in tree_page.SCHEMA and "setting" in tree_page.SCHEMA


def test_a_step_with_a_field_its_page_does_not_have_is_refused():
    bad = lesson.LessonStep("t", "a. b.", ("x",), lesson.TWO_CLASSES, "l", "d", {"q": 3})
    with pytest.raises(KeyError, match="no URL field q"):
        lesson.step_link(bad)
    # and a value outside the schema's choices decodes with a warning (what the tests above
    # rule out for the real steps)
    link = lesson.step_link(lesson.LessonStep("t", "", (), lesson.TREE, "l", "d", {"data": "nope"}))
    assert lesson.TREE_LINK_SCHEMA.decode(link.query)[1]


# ====================================================================== the home page
def run(path: str, query: dict | None = None) -> AppTest:
    return run_app(page=path, query=query, timeout=TIMEOUT)


@pytest.mark.parametrize("present", ["0", "1"])
def test_home_page_shows_the_four_steps_and_their_links(present):
    at = run("app.py", {"present": present})
    heads = [str(h.value) for h in at.subheader]
    for i, step in enumerate(lesson.STEPS, 1):
        assert f"{i}. {step.title}" in heads
    assert "Lesson: four steps" in [str(h.value) for h in at.header]
    md = "\n".join(str(m.value) for m in at.markdown)
    assert all(step.text in md for step in lesson.STEPS)
    formulas = [str(x.value).strip("$\n") for x in at.latex]
    assert all(f in formulas for step in lesson.STEPS for f in step.latex)
    links = {lk.proto.label: lk.proto for lk in at.get("page_link")}
    for step in lesson.STEPS:
        proto = links[step.label]
        link = lesson.step_link(step, present=present == "1")
        assert proto.page == link.url_path
        assert proto.query_string == link.query_string
        assert proto.help == step.detail
    # present=1 is kept in every lesson link when the mode is on, never otherwise
    assert all(
        ("present=1" in links[s.label].query_string) == (present == "1") for s in lesson.STEPS
    )
    # the lesson comes before the rest of the home page
    assert heads.index("4. What it does to a split") < heads.index("How to read these curves")


# ====================================================================== the target pages
def _query(step, present=False) -> dict:
    return lesson.step_link(step, present=present).query


def _follow(step: lesson.LessonStep, at: AppTest | None = None, present: bool = False) -> AppTest:
    """Follow a step's link from the home page, as st.page_link does: its page, through
    app.py's navigation, with the link's query string (a new session when ``at`` is None)."""
    if at is None:
        at = run("app.py")
    at.query_params.clear()
    at.query_params.update(_query(step, present))
    at.switch_page(step.page)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _visit(page: str, query: dict, present: bool = False) -> AppTest:
    """A session (in presentation mode when ``present``) in which the user set a page by hand
    (here through its URL), then went back to the home page through the navigation (a page
    switch drops the page's widget keys)."""
    at = run("app.py", {"present": "1"} if present else None)
    at.query_params.update(query)
    at.switch_page(page)
    at.run()
    at.query_params.clear()
    at.switch_page("pages/0_Home.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _figure(at: AppTest, key: str) -> dict:
    charts = [c for c in at.get("plotly_chart") if c.proto.id and key in c.proto.id]
    if charts:
        return json.loads(charts[0].proto.spec)
    # the Two classes chart that follows θ (offcenter.app.theta_follow): its figure in its data
    follow = [c for c in at.get("bidi_component") if c.proto.id.endswith("-" + key)]
    assert follow, f"no chart {key}"
    return json.loads(json.loads(follow[0].proto.json)["figure"])


def _title(spec: dict) -> str:
    lay = spec["layout"]
    text = (lay.get("title") or {}).get("text") or lay["legend"]["title"]["text"]
    return re.sub(r"<[^>]+>", "", text.replace("<br>", " "))


def _no_link_warning(at: AppTest) -> None:
    assert not [w.value for w in at.warning if "Link parameter" in str(w.value)]


def test_step_1_opens_two_classes_with_shannon_and_gini_uncentered():
    at = _follow(WHAT)
    _no_link_warning(at)
    assert at.slider(key="tc_theta").value == 0.5
    assert at.multiselect(key="tc_measures").value == ["shannon", "gini"]
    assert at.radio(key="tc_version").value == "raw"
    spec = _figure(at, "tc_chart")
    assert [t["name"] for t in spec["data"] if t.get("name")] == ["Shannon", "Gini"]


def test_step_2_opens_the_ternary_view_with_its_peak_at_the_centre():
    at = _follow(UNIFORM)
    _no_link_warning(at)
    assert not at.info and not at.error  # no normalisation note, no error
    assert at.slider(key="qc_q").value == 3
    assert at.session_state["qc_tabs"] == "Ternary view (q = 3)"
    assert at.selectbox(key="qc_ternary").value == "shannon"
    spec = _figure(at, "qc_chart_ternary")
    assert _title(spec) == "Shannon over the simplex"
    captions = "\n".join(str(c.value) for c in at.caption)
    assert "Star: θ = (0.3333, 0.3333, 0.3333)" in captions
    assert f"the largest value, {math.log2(3):.4f} at (0.3333, 0.3333, 0.3333)" in captions


@pytest.mark.parametrize("present", [False, True])
def test_step_3_opens_two_classes_on_figure_1(present):
    # the user had moved theta and picked other measures before following the link
    query = {"theta": "0.55", "measures": "gini", "version": "oc"}
    at = _visit(lesson.TWO_CLASSES, query, present)
    # the home page's link carries present=1 when the mode is on
    link = [lk.proto for lk in at.get("page_link") if lk.proto.label == OFFCENTER.label][0]
    assert ("present=1" in link.query_string) is present
    at = _follow(OFFCENTER, at, present)
    _no_link_warning(at)
    assert at.slider(key="tc_theta").value == 0.2
    assert set(at.multiselect(key="tc_measures").value) == {"shannon", "asymmetric"}
    spec = _figure(at, "tc_chart")
    assert _title(spec) == PRESETS["fig1"]["title"]
    names = [t["name"] for t in spec["data"] if t.get("name")]
    assert names == ["Shannon", "off-centered Shannon", "Asymmetric"]
    # presentation mode kept: the large type, and present=1 in the page's address
    assert (at.query_params.get("present") == "1") is present
    assert spec["layout"]["legend"]["font"]["size"] == (22 if present else 15)


def _tree_checks(at: AppTest) -> None:
    _no_link_warning(at)
    assert at.selectbox(key="tr_data").value == "pima"
    assert at.selectbox(key="tr_setting").value == "oc_shannon"
    assert not at.info or not any("settings changed" in str(i.value) for i in at.info)
    heads = "\n".join(str(h.value) for h in at.subheader)
    assert "off-centered Shannon" in heads  # the tree's title names its setting
    node = [s for s in at.selectbox if s.key and s.key.startswith("tr_node_select")][0]
    assert node.value == 0  # the root selected
    assert "(the root: all rows)" in "\n".join(str(c.value) for c in at.code)
    # the lecture: the step-through on, at the root alone, with its Next split button
    assert at.toggle(key="tr_step_on").value is True
    assert any("Step 0: the root alone" in str(i.value) for i in at.info)
    assert not at.button(key="tr_step_next").disabled


def test_step_4_opens_the_tree_on_pima_with_the_off_centered_shannon():
    _tree_checks(_follow(SPLIT))


def test_step_4_link_rules_over_the_tree_pages_kept_settings():
    """The Tree page keeps its settings across page switches; a lesson link still sets its
    own (the user had grown a tree on another data set with another measure)."""
    at = _visit(lesson.TREE, {"data": "iris", "setting": "gini"})
    assert at.session_state["tr_saved"]["data"] == "iris"
    _tree_checks(_follow(SPLIT, at))


def _in_order(node) -> list:
    """The page's elements in the order drawn (depth first): (type, key or text)."""
    out = []
    for child in getattr(node, "children", {}).values():
        proto = getattr(child, "proto", None)
        label = getattr(proto, "label", None) or getattr(child, "key", None)
        value = getattr(child, "value", None)
        out.append((child.type, label or (str(value) if isinstance(value, str) else None)))
        out.extend(_in_order(child))
    return out


def test_each_steps_link_comes_right_under_its_title():
    at = run("app.py", {"present": "1"})
    order = _in_order(at.main)
    for i, step in enumerate(lesson.STEPS, 1):
        title = order.index(("subheader", f"{i}. {step.title}"))
        link = order.index(("page_link", step.label))
        text = order.index(("markdown", step.text))
        assert title < link < text


@pytest.mark.parametrize("present", [False, True])
def test_step_2s_ternary_comes_first_in_presentation_mode(present):
    at = _follow(UNIFORM, run("app.py", {"present": "1"} if present else None), present)
    order = _in_order(at.main)
    kinds = [k for k, _ in order]
    chart = next(i for i, (k, label) in enumerate(order) if k == "plotly_chart")
    choice = order.index(("selectbox", "Measure shown over the simplex"))
    title = [i for i, (k, label) in enumerate(order) if label == "q classes"]
    assert (chart < choice) is present
    # the page's title and introduction follow the figures in presentation mode
    assert title and (title[0] > chart) is present, kinds
