"""AppTest (streamlit.testing.v1) for the home, "Two classes" and "q classes" pages.

Every widget path, the presets, the slider limits, the URL state and the figures' data checked
against the package.
"""

from __future__ import annotations

import base64
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import offcenter as oc
from tests.conftest import run_app

ROOT = Path(__file__).resolve().parents[2]
HOME = str(ROOT / "app.py")
TWO = str(ROOT / "pages" / "1_Two_classes.py")
QC = str(ROOT / "pages" / "2_Q_classes.py")
TIMEOUT = 60


def run(path: str, query: dict | None = None) -> AppTest:
    return run_app(page=path, query=query, timeout=TIMEOUT)


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def _array(v):
    if isinstance(v, dict) and "bdata" in v:
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=np.dtype(v["dtype"])).astype(float)
    try:
        return np.asarray(v, dtype=float)
    except ValueError:  # categories (bar charts)
        return np.asarray(v, dtype=object)


def chart_spec(at: AppTest, key: str) -> tuple[dict, dict]:
    """(figure, config) of the chart with this key: an ``st.plotly_chart``, or the Two classes
    chart that follows θ in the browser (offcenter.app.theta_follow: the figure's JSON in the
    component's data)."""
    charts = [c for c in at.get("plotly_chart") if c.proto.id.endswith("-" + key)]
    if charts:
        return json.loads(charts[0].proto.spec), json.loads(charts[0].proto.config)
    follow = [c for c in at.get("bidi_component") if c.proto.id.endswith("-" + key)]
    assert follow, f"no chart {key}"
    data = json.loads(follow[0].proto.json)
    return json.loads(data["figure"]), data["config"]


def figure(at: AppTest, key: str) -> dict:
    """The figure JSON of the chart with this key: {name: (x, y)}, plus the layout."""
    spec, config = chart_spec(at, key)
    traces = {}
    for t in spec["data"]:
        if "x" in t and "y" in t and t.get("name"):
            traces[t["name"]] = (_array(t["x"]), _array(t["y"]))
    return {
        "traces": traces,
        "layout": spec["layout"],
        "data": spec["data"],
        "config": config,
    }


def value_at(fig: dict, name: str, p: float) -> float:
    x, y = fig["traces"][name]
    idx = np.flatnonzero(np.isclose(x, p))
    assert idx.size == 1, (name, p)
    return float(y[idx[0]])


def transform(at: AppTest):
    """The transform table of the q-classes page."""
    tables = [d.value for d in at.dataframe if "pi*" in d.value.columns]
    assert len(tables) == 1
    return tables[0]


def all_finite(fig: dict) -> bool:
    return all(np.isfinite(y).all() for _, y in fig["traces"].values())


def simplex_point(trace: dict) -> list[float]:
    """(p1, p2, p3) of a one-point trace of the ternary figure (class 1 at the top, 2 at the
    bottom left, 3 at the bottom right of a unit triangle)."""
    x, y = float(_array(trace["x"])[0]), float(_array(trace["y"])[0])
    p1 = y / (math.sqrt(3) / 2)
    p3 = x - p1 / 2
    return [p1, 1 - p1 - p3, p3]


def title_of(fig: dict) -> str:
    """A figure's title: the layout's, else the legend's (the curve figures head their legend
    with it), without HTML tags (a line break read as a space)."""
    lay = fig["layout"]
    text = (lay.get("title") or {}).get("text") or (
        (lay.get("legend") or {}).get("title") or {}
    ).get("text")
    return re.sub(r"<[^>]+>", "", (text or "").replace("<br>", " "))


def texts(at: AppTest, kind: str) -> str:
    return "\n".join(str(e.value) for e in getattr(at, kind))


# ====================================================================== home
def test_home_page():
    at = run(HOME)
    assert "How to read these curves" in texts(at, "subheader")
    md = texts(at, "markdown")
    for word in ("Uncertainty", "Purity", "uniform distribution", "Why move it"):
        assert word in md
    fig = figure(at, "home_fig1")
    title = title_of(fig).replace("<br>", " ")  # wrapped in the narrow column
    assert title == "Fig. 1. Off-centered, asymmetric and Shannon's entropies"
    assert value_at(fig, "off-centered Shannon", 0.1) == pytest.approx(0.811278, abs=1e-6)
    # the page cards (the lesson's links, with their settings, are tested in test_lesson.py)
    links = [lk for lk in at.get("page_link") if not lk.proto.query_string]
    existing = [
        p
        for p in (
            "pages/1_Two_classes.py",
            "pages/2_Q_classes.py",
            "pages/3_Tree.py",
            "pages/4_Compare_measures.py",
        )
        if (ROOT / p).exists()
    ]
    assert len(links) == len(existing)
    for title in ("Tree", "Compare measures"):
        assert title in md or any(title == getattr(lk.proto, "label", "") for lk in links)


# ====================================================================== two classes
def test_two_classes_opens_on_figure_1_with_the_papers_values():
    at = run(TWO)
    fig = figure(at, "tc_chart")
    assert title_of(fig) == "Fig. 1. Off-centered, asymmetric and Shannon's entropies"
    assert list(fig["traces"]) == ["Shannon", "off-centered Shannon", "Asymmetric"]
    assert value_at(fig, "off-centered Shannon", 0.1) == pytest.approx(0.811278, abs=1e-6)
    assert value_at(fig, "off-centered Shannon", 0.6) == pytest.approx(0.811278, abs=1e-6)
    assert value_at(fig, "off-centered Shannon", 0.2) == pytest.approx(1.0)
    assert value_at(fig, "Asymmetric", 0.6) == pytest.approx(0.6)
    assert value_at(fig, "Asymmetric", 0.2) == pytest.approx(1.0)
    assert value_at(fig, "Shannon", 0.5) == pytest.approx(1.0)
    assert "Fig. 1." in texts(at, "caption")
    assert fig["config"]["toImageButtonOptions"]["filename"] == "offcenter_fig1_theta_0.2"
    assert [b.label for b in at.get("download_button")] == ["Download the plotted values (CSV)"]
    # theta marker and cursor as vertical lines
    assert [s["x0"] for s in fig["layout"]["shapes"]] == [0.2, 0.1]
    # formulas with references
    assert len(at.get("latex")) == 3  # Shannon, asymmetric, off-centering
    assert "Lallich" in texts(at, "caption")
    assert at.query_params.to_dict() if hasattr(at.query_params, "to_dict") else True


def test_figure_2_preset():
    at = run(TWO)
    at.slider(key="tc_theta").set_value(0.4).run()
    at.button(key="tc_btn_fig2").click().run()
    ok(at)
    fig = figure(at, "tc_chart")
    assert title_of(fig) == "Fig. 2. Off-centering of generalised entropies"
    names = list(fig["traces"])
    assert names == [f"off-centered Daroczy (β = {b})" for b in ("0", "0.5", "1", "2", "5")] + [
        "off-centered Rank diversity (ρ = 0)",
        "Asymmetric",
    ]
    for name in names:
        assert value_at(fig, name, 0.2) == pytest.approx(1.0), name
        assert value_at(fig, name, 0.0) == pytest.approx(0.0, abs=1e-12), name
        assert value_at(fig, name, 1.0) == pytest.approx(0.0, abs=1e-12), name
    assert value_at(fig, "off-centered Daroczy (β = 0.5)", 0.6) == pytest.approx(
        oc.off_centered([0.4, 0.6], 0.2, "daroczy", beta=0.5)
    )
    assert "Fig. 2." in texts(at, "caption")
    assert at.query_params["version"] == "oc"
    assert "reconstruction" not in texts(at, "info")  # rho = 0 is the paper's own
    # back to Figure 1
    at.button(key="tc_btn_fig1").click().run()
    assert title_of(figure(ok(at), "tc_chart")).startswith("Fig. 1.")


def test_moving_theta_moves_the_peak_and_the_url():
    at = run(TWO)
    at.slider(key="tc_theta").set_value(0.35).run()
    fig = figure(ok(at), "tc_chart")
    assert title_of(fig) == ""
    x, y = fig["traces"]["off-centered Shannon"]
    assert x[np.argmax(y)] == pytest.approx(0.35)
    assert at.query_params["theta"] == "0.35"
    assert fig["config"]["toImageButtonOptions"]["filename"] == "offcenter_two_classes_theta_0.35"


@pytest.mark.parametrize("theta", [0.01, 0.99])
def test_theta_limits_draw_without_nan(theta):
    at = run(TWO)
    at.multiselect(key="tc_measures").set_value(list(oc.MEASURES)).run()
    at.slider(key="tc_theta").set_value(theta).run()
    fig = figure(ok(at), "tc_chart")
    assert len(fig["traces"]) == 13  # six off-centerable measures twice, the asymmetric once
    assert all_finite(fig)
    x, y = fig["traces"]["off-centered Shannon"]
    assert x[np.argmax(y)] == pytest.approx(theta)


@pytest.mark.parametrize("beta", [0.0, 1.0, 10.0])
def test_beta_limits(beta):
    at = run(TWO)
    at.multiselect(key="tc_measures").set_value(["daroczy"]).run()
    at.slider(key="tc_beta").set_value(beta).run()
    fig = figure(ok(at), "tc_chart")
    assert list(fig["traces"]) == [
        f"Daroczy (β = {beta:g})",
        f"off-centered Daroczy (β = {beta:g})",
    ]
    assert all_finite(fig)
    if beta == 1.0:
        assert value_at(fig, "Daroczy (β = 1)", 0.3) == pytest.approx(oc.shannon([0.7, 0.3]))


def test_several_betas_at_once():
    at = run(TWO)
    at.multiselect(key="tc_measures").set_value(["daroczy"]).run()
    at.radio(key="tc_version").set_value("oc").run()
    at.multiselect(key="tc_betas").set_value(["0.5", "10", "2"]).run()
    fig = figure(ok(at), "tc_chart")
    assert list(fig["traces"]) == [f"off-centered Daroczy (β = {b})" for b in ("0.5", "2", "10")]
    assert at.query_params["betas"] == "0.5,10,2"


def test_rho_zero_and_reconstructed_orders():
    at = run(TWO)
    at.multiselect(key="tc_measures").set_value(["rank_diversity"]).run()
    fig = figure(ok(at), "tc_chart")
    assert value_at(fig, "off-centered Rank diversity (ρ = 0)", 0.1) == pytest.approx(
        oc.off_centered([0.9, 0.1], 0.2, "rank_diversity", rho=0)
    )
    assert "reconstruction" not in texts(at, "info")
    at.slider(key="tc_rho").set_value(2.5).run()
    fig = figure(ok(at), "tc_chart")
    assert "off-centered Rank diversity (ρ = 2.5)" in fig["traces"]
    assert all_finite(fig)
    assert "reconstruction" in texts(at, "info")


@pytest.mark.parametrize("version, n_charts", [("both", 1), ("oc", 1), ("raw", 1), ("side", 2)])
def test_versions(version, n_charts):
    at = run(TWO)
    at.radio(key="tc_version").set_value(version).run()
    ok(at)
    # the overlaid versions: one chart, drawn by the θ-following component
    assert len(at.get("plotly_chart")) + len(at.get("bidi_component")) == n_charts
    if version == "side":
        left, right = figure(at, "tc_chart_raw"), figure(at, "tc_chart_oc")
        assert list(left["traces"]) == ["Shannon"]
        assert list(right["traces"]) == ["off-centered Shannon", "Asymmetric"]
    elif version == "raw":
        assert list(figure(at, "tc_chart")["traces"]) == ["Shannon", "Asymmetric"]


def test_consistent_asymmetric_and_n():
    at = run(TWO)
    assert at.slider(key="tc_n").disabled
    at.checkbox(key="tc_consistent").check().run()
    assert not at.slider(key="tc_n").disabled
    at.slider(key="tc_n").set_value(1).run()
    fig = figure(ok(at), "tc_chart")
    assert value_at(fig, "Asymmetric, consistent (n = 1)", 0.0) == pytest.approx(
        oc.asymmetric([1.0, 0.0], 0.2, n=1)
    )
    at.slider(key="tc_n").set_value(500).run()
    assert "Asymmetric, consistent (n = 500)" in figure(ok(at), "tc_chart")["traces"]


def test_cursor_readout_matches_the_package():
    at = run(TWO)
    at.slider(key="tc_cursor").set_value(0.73).run()
    ok(at)
    table = at.table[0].value
    assert table["curve"].tolist() == ["Shannon", "off-centered Shannon", "Asymmetric"]
    expected = [
        oc.shannon([0.27, 0.73]),
        oc.off_centered([0.27, 0.73], 0.2),
        oc.asymmetric([0.27, 0.73], 0.2),
    ]
    # shown to 4 decimals, as text (the readout scales with the type in presentation mode)
    assert table["value"].tolist() == [f"{v:.4f}" for v in expected]
    assert "Values at p = 0.73" in texts(at, "subheader")
    for p in (0.0, 1.0):
        at.slider(key="tc_cursor").set_value(p).run()
        assert np.isfinite(ok(at).table[0].value["value"].astype(float)).all()


def test_derivative_panel():
    at = run(TWO)
    assert at.radio(key="tc_order").disabled
    at.checkbox(key="tc_deriv").check().run()
    fig = figure(ok(at), "tc_chart_deriv")
    x, y = fig["traces"]["off-centered Shannon"]
    assert np.isfinite(y).all()
    i = np.flatnonzero(np.isclose(x, 0.2))
    assert len(i) == 2  # left and right derivative at theta
    assert y[i] == pytest.approx([0.0, 0.0], abs=1e-5)
    at.radio(key="tc_order").set_value(2).run()
    fig = figure(ok(at), "tc_chart_deriv")
    x, y = fig["traces"]["off-centered Shannon"]
    i = np.flatnonzero(np.isclose(x, 0.2))
    left, right = y[i]
    assert left == pytest.approx(-1 / (4 * 0.04 * math.log(2) * 0.25), rel=1e-3)
    assert right == pytest.approx(-1 / (4 * 0.64 * math.log(2) * 0.25), rel=1e-3)
    assert "second derivative" in fig["layout"]["yaxis"]["title"]["text"]
    assert len(at.get("download_button")) == 2


def test_no_measure_shows_a_message():
    at = run(TWO)
    at.multiselect(key="tc_measures").set_value([]).run()
    ok(at)
    assert "Choose at least one measure" in texts(at, "info")
    assert len(at.get("plotly_chart")) == 0


def test_shared_link_and_reset():
    at = run(
        TWO,
        {
            "theta": "0.35",
            "measures": "gini,daroczy",
            "version": "side",
            "betas": "0.5,5",
            "deriv": "1",
            "cursor": "0.4",
        },
    )
    assert at.slider(key="tc_theta").value == pytest.approx(0.35)
    assert at.multiselect(key="tc_measures").value == ["gini", "daroczy"]
    assert len(at.get("plotly_chart")) == 3
    # the link's side-by-side view (the browser's copy of this check went: one page load less)
    assert title_of(figure(at, "tc_chart_raw")) == "Uncentered"
    assert title_of(figure(at, "tc_chart_oc")) == "Off-centered on θ"
    assert not at.warning
    at.button(key="tc_btn_reset").click().run()
    ok(at)
    assert at.slider(key="tc_theta").value == pytest.approx(0.2)
    assert dict(at.query_params) == {}
    assert title_of(figure(at, "tc_chart")).startswith("Fig. 1.")


def test_bad_link_values_are_fixed_with_a_warning():
    at = run(TWO, {"theta": "abc", "beta": "99", "measures": "shannon,nope", "version": "x"})
    assert at.slider(key="tc_theta").value == pytest.approx(0.2)
    assert at.slider(key="tc_beta").value == pytest.approx(10.0)
    assert at.multiselect(key="tc_measures").value == ["shannon"]
    warnings = texts(at, "warning")
    assert warnings.count("Link parameter fixed") == 4


# ====================================================================== q classes
def test_q_classes_default_view():
    at = run(QC)
    assert "θ = (0.6, 0.3, 0.1)" in texts(at, "markdown")
    fig = figure(at, "qc_chart_slice")
    assert list(fig["traces"]) == ["Shannon", "off-centered Shannon", "Asymmetric"]
    assert value_at(fig, "off-centered Shannon", 0.6) == pytest.approx(math.log2(3))
    x, y = fig["traces"]["off-centered Shannon"]
    assert x[np.argmax(y)] == pytest.approx(0.6)
    p = np.array([0.3, 0.7 * 0.3 / 0.4, 0.7 * 0.1 / 0.4])
    assert value_at(fig, "off-centered Shannon", 0.3) == pytest.approx(
        oc.off_centered(p, [0.6, 0.3, 0.1])
    )
    assert all_finite(fig)
    # only the open tab runs (lazy tabs): the slice, its figure (following its p1 cursor in the
    # browser: offcenter.app.theta_follow) and its download
    assert len(at.get("plotly_chart")) + len(at.get("bidi_component")) == 1
    assert len(at.get("download_button")) == 1
    at = run(QC, {"tab": "ternary"})
    assert len(at.get("plotly_chart")) == 1
    tern = figure(at, "qc_chart_ternary")
    assert title_of(tern) == "off-centered Shannon over the simplex"
    star = [t for t in tern["data"] if t.get("name") == "θ"][0]
    assert simplex_point(star) == pytest.approx([0.6, 0.3, 0.1])
    best = [t for t in tern["data"] if t.get("name") == "maximum"][0]
    assert simplex_point(best) == pytest.approx([0.6, 0.3, 0.1])
    # a smooth filled contour over a fine mesh of the triangle
    contour = [t for t in tern["data"] if t.get("type") == "contour"][0]
    assert np.asarray(_array(contour["z"])).size >= 100 * 100
    at = run(QC, {"tab": "transform"})
    assert [c.proto.id.split("-")[-1] for c in at.get("plotly_chart")] == [
        "qc_chart_bars",
        "qc_chart_maps",
    ]


def test_q_lazy_tabs_a_cursor_move_draws_only_the_open_tab():
    at = run(QC)
    at.slider(key="qc_cursor").set_value(0.8).run()
    assert not ok(at).get("plotly_chart")
    # the slice figure follows its p1 cursor in the browser (offcenter.app.theta_follow)
    assert [c.proto.id.split("-")[-1] for c in at.get("bidi_component")] == ["qc_chart_slice"]
    assert not [d for d in at.dataframe if "pi*" in d.value.columns]  # the transform's table
    assert not at.latex  # the formulas' tab
    at.session_state["qc_tabs"] = "Formulas"
    at.run()
    assert ok(at).latex and not at.get("plotly_chart")


def test_q_uniform_and_imbalanced_buttons():
    at = run(QC)
    at.button(key="qc_btn_uniform").click().run()
    ok(at)
    assert "θ = (0.3333, 0.3333, 0.3333)" in texts(at, "markdown")
    assert not at.info  # rounding in the URL gives no normalisation note
    fig = figure(at, "qc_chart_slice")
    assert value_at(fig, "Shannon", 1 / 3) == pytest.approx(math.log2(3))
    at.button(key="qc_btn_imbalanced").click().run()
    assert "θ = (0.6, 0.3, 0.1)" in texts(ok(at), "markdown")


@pytest.mark.parametrize("q", [2, 4, 10])
def test_q_slider(q):
    at = run(QC)
    at.multiselect(key="qc_measures").set_value(list(oc.MEASURES)).run()
    at.slider(key="qc_q").set_value(q).run()
    ok(at)
    assert at.query_params["q"] == str(q)
    fig = figure(at, "qc_chart_slice")
    assert len(fig["traces"]) == 13 and all_finite(fig)
    at.session_state["qc_tabs"] = "Ternary view (q = 3)"
    at.run()
    assert "set q = 3" in texts(ok(at), "info")
    at.session_state["qc_tabs"] = "The transform"
    at.run()
    table = transform(ok(at))
    assert len(table) == q
    assert table["pi*"].sum() == pytest.approx(1.0)


def test_ternary_measure_choice():
    at = run(QC, {"tab": "ternary"})
    at.selectbox(key="qc_ternary").set_value("shannon").run()
    tern = figure(ok(at), "qc_chart_ternary")
    best = [t for t in tern["data"] if t.get("name") == "maximum"][0]
    assert simplex_point(best) == pytest.approx([1 / 3] * 3, abs=0.02)
    assert at.query_params["ternary"] == "shannon"


def test_transform_tab_custom_p():
    at = run(QC, {"tab": "transform"})
    table = transform(at)
    # default: the slice point at the cursor p1 = 0.5
    assert table["p"].tolist() == pytest.approx([0.5, 0.375, 0.125])
    at.text_input(key="qc_p").input("0.5, 0.3, 0.2").run()
    table = transform(ok(at))
    assert table["pi*"].tolist() == pytest.approx([0.272727, 0.327273, 0.4], abs=1e-6)
    bars = figure(at, "qc_chart_bars")
    assert bars["traces"]["π* (off-centered pseudo-frequencies)"][1].tolist() == pytest.approx(
        oc.off_center([0.5, 0.3, 0.2], [0.6, 0.3, 0.1]).tolist()
    )
    at.text_input(key="qc_p").input("2, 1, 1").run()
    assert "each was divided by the sum: p = (0.5, 0.25, 0.25)" in texts(ok(at), "info")
    at.text_input(key="qc_p").input("1, x, 1").run()
    assert "not a number" in texts(ok(at), "error")
    at.text_input(key="qc_p").input("1, 1").run()
    assert "p needs 3 numbers, one per class; got 2." in texts(ok(at), "error")


def test_q_cursor_moves_the_transform_point():
    at = run(QC, {"tab": "transform"})
    at.slider(key="qc_cursor").set_value(1.0).run()
    table = transform(ok(at))
    assert table["p"].tolist() == pytest.approx([1.0, 0.0, 0.0])
    assert table["pi*"].tolist() == pytest.approx([1.0, 0.0, 0.0])


def test_q_link_normalises_theta_with_a_note():
    at = run(QC, {"theta": "2,1,1"})
    assert "θ = (0.5, 0.25, 0.25)" in texts(at, "markdown")
    assert "each was divided by the sum" in texts(at, "info")
    assert at.query_params["theta"] == "0.5,0.25,0.25"


def test_q_link_with_a_zero_theta_shows_an_error():
    at = run(QC, {"theta": "0,1,1"})
    assert "every class needs a reference frequency above 0" in texts(at, "error")
    assert len(at.get("plotly_chart")) == 0


def test_q_link_with_a_mismatched_theta_uses_uniform():
    at = run(QC, {"q": "4", "theta": "0.5,0.5"})
    assert "using the uniform" in texts(at, "warning")
    assert "θ = (0.25, 0.25, 0.25, 0.25)" in texts(at, "markdown")


def test_q_reconstruction_note_and_reset():
    at = run(QC)
    at.multiselect(key="qc_measures").set_value(["rank_diversity"]).run()
    at.slider(key="qc_rho").set_value(1.0).run()
    assert "reconstruction" in texts(ok(at), "info")
    at.checkbox(key="qc_consistent").check().run()
    at.slider(key="qc_beta").set_value(0.0).run()
    at.multiselect(key="qc_betas").set_value(["5"]).run()
    at.radio(key="qc_version").set_value("side").run()
    ok(at)
    at.button(key="qc_btn_reset").click().run()
    ok(at)
    assert dict(at.query_params) == {}
    assert at.multiselect(key="qc_measures").value == ["shannon", "asymmetric"]


def test_q_no_measure():
    at = run(QC)
    at.multiselect(key="qc_measures").set_value([]).run()
    ok(at)
    assert "Choose at least one measure" in texts(at, "info")
    assert not at.get("plotly_chart")
    at.session_state["qc_tabs"] = "The transform"
    at.run()
    assert len(ok(at).get("plotly_chart")) == 2  # the transform figures need no measure


def test_app_routes_through_st_navigation_with_a_home_page():
    # app.py is the entry: st.navigation over the files of pages/, the home page titled "Home"
    from offcenter.app.navigation import PAGES

    root = Path(__file__).resolve().parents[2]
    assert "run()" in (root / "app.py").read_text(encoding="utf-8")
    assert PAGES[0][:2] == ("pages/0_Home.py", "Home")
    assert sorted(p for p, _, _ in PAGES) == sorted(
        f"pages/{f.name}" for f in (root / "pages").glob("*.py")
    )
    # every page file calls ensure_router() first: a cold deep link still goes through app.py
    for path, _, _ in PAGES:
        text = (root / path).read_text(encoding="utf-8")
        assert text.index("ensure_router()") < text.index("st.set_page_config(")


# ====================================================================== settings across pages
def _switch(at: AppTest, page: str) -> AppTest:
    """Open another page as the navigation menu does (no query string)."""
    at.query_params.clear()
    at.switch_page(page)
    return ok(at.run())


def test_two_classes_settings_survive_a_page_switch():
    at = run(HOME)
    at = _switch(at, "pages/1_Two_classes.py")
    at.slider(key="tc_theta").set_value(0.3)
    at.slider(key="tc_cursor").set_value(0.7)
    at.checkbox(key="tc_deriv").check()
    at = ok(at.run())
    at = _switch(at, "pages/0_Home.py")
    assert "How to read these curves" in texts(at, "subheader")
    at = _switch(at, "pages/1_Two_classes.py")
    assert at.slider(key="tc_theta").value == pytest.approx(0.3)
    assert at.slider(key="tc_cursor").value == pytest.approx(0.7)
    assert at.checkbox(key="tc_deriv").value is True
    fig = figure(at, "tc_chart")
    x, y = fig["traces"]["off-centered Shannon"]
    assert x[np.argmax(y)] == pytest.approx(0.3)
    assert at.query_params["theta"] == "0.3"  # and the address says so again


def test_q_settings_and_tab_survive_a_page_switch():
    at = run(HOME)
    at = _switch(at, "pages/2_Q_classes.py")
    at.slider(key="qc_q").set_value(4)
    at = ok(at.run())
    theta = [float(t) for t in at.query_params["theta"].split(",")]
    assert len(theta) == 4 and max(theta) > 0.3  # the imbalanced example, not uniform
    at.session_state["qc_tabs"] = "The transform"  # the user opens the third tab
    at = ok(at.run())
    assert at.query_params["tab"] == "transform"
    at = _switch(at, "pages/1_Two_classes.py")
    at = _switch(at, "pages/2_Q_classes.py")
    assert at.slider(key="qc_q").value == 4
    assert [float(t) for t in at.query_params["theta"].split(",")] == theta
    assert at.session_state["qc_tabs"] == "The transform"
    assert not at.warning  # no "theta had 4 values for q = 3" fallback


def test_q_link_opens_its_tab_and_a_link_beats_the_saved_settings():
    at = run(HOME)
    at.query_params.update({"tab": "ternary", "q": "3"})
    at.switch_page("pages/2_Q_classes.py")
    at = ok(at.run())
    assert at.session_state["qc_tabs"] == "Ternary view (q = 3)"
    at.slider(key="qc_q").set_value(5)
    at = ok(at.run())
    at = _switch(at, "pages/0_Home.py")
    at.query_params["q"] = "3"  # a link to the q page with its own settings
    at.query_params["tab"] = "formulas"
    at.switch_page("pages/2_Q_classes.py")
    at = ok(at.run())
    assert at.slider(key="qc_q").value == 3
    assert at.session_state["qc_tabs"] == "Formulas"


def test_bad_tab_in_a_link_is_fixed_with_a_warning():
    at = run(QC, {"tab": "nope"})
    assert at.session_state["qc_tabs"] == "Slice through θ"
    assert any("tab" in w.value for w in at.warning)


# ====================================================================== presentation mode
def _tick_size(fig: dict) -> float:
    return fig["layout"]["xaxis"]["tickfont"]["size"]


def test_presentation_mode_toggle_fonts_and_url():
    at = run(HOME)
    assert _tick_size(figure(at, "home_fig1")) >= 14
    assert _tick_size(figure(at, "home_fig1")) < 20
    assert "present" not in at.query_params
    at.toggle(key="_present_toggle").set_value(True).run()
    assert _tick_size(figure(ok(at), "home_fig1")) >= 20
    assert at.query_params["present"] == "1"
    # it follows the user to the other pages of the session
    at.switch_page("pages/1_Two_classes.py").run()
    fig = figure(ok(at), "tc_chart")
    assert _tick_size(fig) >= 20
    assert fig["layout"]["legend"]["font"]["size"] >= 20
    assert fig["layout"]["legend"]["title"]["font"]["size"] >= 20
    assert at.toggle(key="_present_toggle").value is True
    # the page's own URL writes keep it
    at.slider(key="tc_theta").set_value(0.35).run()
    assert at.query_params["present"] == "1" and at.query_params["theta"] == "0.35"
    assert _tick_size(figure(ok(at), "tc_chart")) >= 20
    at.toggle(key="_present_toggle").set_value(False).run()
    assert _tick_size(figure(ok(at), "tc_chart")) < 20
    assert "present" not in at.query_params
    at.switch_page("pages/2_Q_classes.py").run()
    assert _tick_size(figure(ok(at), "qc_chart_slice")) < 20
    for page in ("pages/3_Tree.py", "pages/4_Compare_measures.py"):
        at.switch_page(page).run()
        assert ok(at).toggle(key="_present_toggle").value is False


def _open(page: str, query: dict) -> AppTest:
    """Open ``page`` through app.py's navigation with a link's query string."""
    at = AppTest.from_file(HOME, default_timeout=TIMEOUT)
    at.query_params.update(query)
    at.switch_page(page)
    return ok(at.run())


def test_presentation_toggle_is_drawn_once_by_the_navigation():
    # navigation.run draws it for every page; a page file never draws it itself
    root = Path(__file__).resolve().parents[2]
    assert "presentation_toggle()" in (root / "offcenter/app/navigation.py").read_text("utf-8")
    for path in (root / "pages").glob("*.py"):
        assert "presentation_toggle" not in path.read_text(encoding="utf-8"), path.name
    at = _open("pages/3_Tree.py", {"present": "1"})
    assert len([t for t in at.toggle if t.key == "_present_toggle"]) == 1
    assert at.toggle(key="_present_toggle").value is True


def test_presentation_mode_from_a_link():
    keys = {
        "slice": ["qc_chart_slice"],
        "ternary": ["qc_chart_ternary"],
        "transform": ["qc_chart_bars", "qc_chart_maps"],
    }
    figs = {}
    for tab, tab_keys in keys.items():
        at = _open("pages/2_Q_classes.py", {"present": "1", "q": "3", "tab": tab})
        assert at.toggle(key="_present_toggle").value is True
        figs |= {k: figure(at, k) for k in tab_keys}
    for key, fig in figs.items():
        sizes = [fig["layout"]["font"]["size"]] + [
            a["font"]["size"] for a in fig["layout"].get("annotations", [])
        ]
        assert min(sizes) >= 20, key
    at = _open("pages/1_Two_classes.py", {"present": "0", "deriv": "1"})
    assert at.toggle(key="_present_toggle").value is False
    assert _tick_size(figure(at, "tc_chart_deriv")) < 20


def test_animation_toggle_adds_frames():
    at = run(TWO)
    assert not chart_spec(at, "tc_chart")[0].get("frames")
    at.toggle(key="tc_animate").set_value(True).run()
    spec = chart_spec(ok(at), "tc_chart")[0]
    assert len(spec["frames"]) == 49
    assert spec["layout"]["updatemenus"][0]["buttons"][0]["label"] == "▶ play θ"


def test_derivative_caption_is_typeset():
    at = run(TWO, {"deriv": "1"})
    latex = " ".join(e.value for e in at.latex)
    assert r"\frac{1}{4\,\theta^2 \ln 2" in latex
    assert "theta^2" not in texts(at, "caption") + texts(at, "markdown")


# ------------------------------------------------------------------ the q-classes theta editor
def _theta_inputs(at: AppTest) -> list:
    return [n for n in at.number_input if n.key and n.key.startswith("qc_th_")]


def _heading(at: AppTest) -> str:
    heads = [m.value for m in at.markdown if m.value.startswith("**θ = (")]
    assert len(heads) == 1
    return heads[0]


def test_q_theta_editor_shows_what_was_computed_uniform():
    """Uniform at q = 3: every box holds 1/3 and shows 4 significant digits (0.3333), as the
    heading does; no box rounds to the step (the editor showed 0.3300 three times)."""
    at = run(QC)
    at.button(key="qc_btn_uniform").click()
    at = ok(at.run())
    boxes = _theta_inputs(at)
    assert [b.value for b in boxes] == [pytest.approx(1 / 3, abs=1e-15)] * 3
    assert {b.proto.format for b in boxes} == {"%.4g"}
    assert f"{1 / 3:.4g}" == "0.3333"
    assert _heading(at).startswith("**θ = (0.3333, 0.3333, 0.3333)**")
    assert at.query_params["theta"] == "0.333333,0.333333,0.333333"


def test_q_theta_editor_ten_classes_shows_the_smallest_theta():
    """q = 10, imbalanced: theta down to 2^-9 / (2 - 2^-9) = 0.000978, shown, never 0.0000."""
    at = run(QC)
    at.slider(key="qc_q").set_value(10)
    at = ok(at.run())
    boxes = _theta_inputs(at)
    want = 0.5 ** np.arange(10) / (0.5 ** np.arange(10)).sum()
    assert [b.value for b in boxes] == pytest.approx(want.tolist(), rel=1e-12)
    shown = [f"{b.value:.4g}" for b in boxes]
    assert shown[-1] == "0.0009775" and all(float(s) > 0 for s in shown)
    assert "0.0009775" in _heading(at)


def test_q_theta_editor_typed_values_are_used_and_normalised():
    at = run(QC)
    for box, v in zip(_theta_inputs(at), (2.0, 1.0, 1.0)):
        box.set_value(v)
    at = ok(at.run())
    assert _heading(at).startswith("**θ = (0.5, 0.25, 0.25)**")
    info = texts(at, "info")
    assert "The values sum to 4, so each was divided by the sum: θ = (0.5, 0.25, 0.25)." in info
    assert at.query_params["theta"] == "0.5,0.25,0.25"
    _theta_inputs(at)[0].set_value(0.0)
    at = ok(at.run())
    assert "θ of class 1 is 0; every class needs a reference frequency above 0" in texts(
        at, "error"
    )
    assert "theta" not in texts(at, "error")  # one word for it on the page: θ


# ------------------------------------------------------------------ presentation: the viewer's choice
def test_presentation_link_on_a_narrow_screen_keeps_normal_sizes():
    """present=1 from a link on a window the browser reported narrow (a phone): normal type,
    no toolbar, the link kept for wide screens, and the sidebar says why."""
    at = AppTest.from_file(TWO, default_timeout=TIMEOUT)
    at.query_params["present"] = "1"
    at.session_state["_viewport_kind"] = "narrow"
    at = ok(at.run())
    assert at.toggle(key="_present_toggle").value is True  # the viewer's choice stands
    fig = figure(at, "tc_chart")
    assert _tick_size(fig) < 20
    assert fig["config"]["displayModeBar"] is False
    assert at.query_params["present"] == "1"
    assert "for wide screens" in texts(at, "caption")
    at.session_state["_viewport_kind"] = "wide"  # the same link on a projector
    at = ok(at.run())
    fig = figure(at, "tc_chart")
    assert _tick_size(fig) >= 20 and "displayModeBar" not in fig["config"]
    assert "for wide screens" not in texts(at, "caption")


def test_theta_and_cursor_sliders_are_in_the_page_not_the_sidebar():
    at = run(TWO)
    main_keys = {s.key for s in at.main.slider}
    assert {"tc_theta", "tc_cursor"} <= main_keys
    assert not {"tc_theta", "tc_cursor"} & {s.key for s in at.sidebar.slider}


# ------------------------------------------------------------------ the theta animation
def _play_args(fig: dict):
    return fig["layout"]["updatemenus"][0]["buttons"][0]["args"]


def test_animation_state_is_in_the_link_and_the_page_tells_one_story():
    at = run(TWO, {"animate": "1", "speed": "slow", "loop": "1"})
    assert at.toggle(key="tc_animate").value is True
    assert at.selectbox(key="tc_speed").value == "slow"
    assert at.checkbox(key="tc_loop").value is True
    fig = figure(at, "tc_chart")
    frames, anim = _play_args(fig)
    assert anim["frame"]["duration"] == 120
    assert len(frames) == (49 + 47) * 30 and frames[:2] == ["0.02", "0.04"]
    assert frames[48:51] == ["0.98", "0.96", "0.94"]  # there and back
    # the readout and Figure 1's caption are for theta = 0.2: they step aside with a note
    heads = texts(at, "subheader")
    assert "Values while θ moves" in heads and "Values at p" not in heads
    assert not at.table
    caps = texts(at, "caption")
    assert "Fig. 1." not in caps and "switch the animation off" in caps
    assert "Fig. 1." not in json.dumps(fig["layout"].get("legend", {}))
    # speed and loop from the widgets into the link
    at.selectbox(key="tc_speed").set_value("fast")
    at.checkbox(key="tc_loop").uncheck()
    at = ok(at.run())
    assert at.query_params["speed"] == "fast" and "loop" not in at.query_params
    frames, anim = _play_args(figure(at, "tc_chart"))
    assert frames is None and anim["frame"]["duration"] == 33
    at.toggle(key="tc_animate").set_value(False)
    at = ok(at.run())
    assert "animate" not in at.query_params
    assert "Values at p = 0.10" in texts(at, "subheader") and at.table


# ------------------------------------------------------------------ θ follows the hand
def _follow_data(at: AppTest) -> dict:
    (chart,) = [c for c in at.get("bidi_component") if c.proto.id.endswith("-tc_chart")]
    return json.loads(chart.proto.json)


def test_theta_chart_carries_every_theta_step_and_the_server_value():
    """The chart that follows θ in the browser (offcenter.app.theta_follow): the server's θ, the
    figure at that θ, the frames of the off-centered curves for every slider step, and which
    traces they restyle; a slider move comes back as the new θ, in the figure and the link."""
    from offcenter.viz.theta_frames import FOLLOW_THETAS, decode_frames

    at = run(TWO)
    data = _follow_data(ok(at))
    assert data["theta"] == pytest.approx(0.2) and data["slider_key"] == "tc_theta"
    fig = json.loads(data["figure"])
    names = [t["name"] for t in fig["data"]]
    assert names == ["Shannon", "off-centered Shannon", "Asymmetric"]
    assert data["traces"] == [[1, "oc_shannon"], [2, "asymmetric"]]  # Shannon does not move
    frames = json.loads(data["frames_json"])
    assert frames["steps"] == list(FOLLOW_THETAS)
    values = decode_frames(frames)
    k = FOLLOW_THETAS.index(0.4)
    assert frames["grid"][int(np.argmax(values["oc_shannon"][k]))] == pytest.approx(0.4)
    # the θ line is the layout's first shape and annotation
    assert fig["layout"]["shapes"][0]["x0"] == pytest.approx(0.2)
    assert fig["layout"]["annotations"][0]["text"] == "θ = 0.2"
    assert data["plotly_src"].endswith("/plotly.min.js")

    at.slider(key="tc_theta").set_value(0.4).run()
    data = _follow_data(ok(at))
    assert data["theta"] == pytest.approx(0.4)
    assert data["title_at_theta"] is False  # Figure 1's title only holds at θ = 0.2
    assert at.query_params["theta"] == "0.4"
    x, y = figure(at, "tc_chart")["traces"]["off-centered Shannon"]
    assert x[np.argmax(y)] == pytest.approx(0.4)


def test_beta_chart_carries_the_curves_of_every_beta_step():
    """β follows the hand too: the chart carries, for the curves that take the β slider's
    value, their values and legend labels at every step of that slider (at the page's θ), and
    a β move comes back as the new curves, labels and frames."""
    from offcenter.measures.curves import binary_curves
    from offcenter.viz.theta_frames import decode_frames, slider_steps

    url = "measures=daroczy,shannon&version=both&beta=2&betas=5&theta=0.3"
    at = run(TWO, dict(p.split("=") for p in url.split("&")))
    data = _follow_data(ok(at))
    (beta,) = [p for p in data["params"] if p["name"] == "beta"]
    assert beta["slider_key"] == "tc_beta" and beta["value"] == 2.0
    fig = json.loads(data["figure"])
    names = [t["name"] for t in fig["data"]]
    # the β = 2 curves move with the slider, β = 5 (an extra value) and Shannon stay
    moving = {names[i] for i, _k in beta["traces"]}
    assert moving == {"Daroczy (β = 2)", "off-centered Daroczy (β = 2)"}
    frames = json.loads(beta["frames_json"])
    assert frames["steps"] == list(slider_steps(0.0, 10.0, 0.1))
    k = frames["steps"].index(3.5)
    values = decode_frames(frames)
    spec = oc.MeasureSetting("daroczy", theta="prior", beta=3.5)
    ref = binary_curves([spec], 0.3, frames["grid"])[spec.key].to_numpy()
    assert np.abs(values["oc_daroczy_b2"][k] - ref).max() < 1e-4
    assert frames["names"]["oc_daroczy_b2"][k] == "off-centered Daroczy (β = 3.5)"
    assert frames["grid"][int(np.argmax(values["oc_daroczy_b2"][k]))] == pytest.approx(0.3)

    at.slider(key="tc_beta").set_value(3.5).run()
    data = _follow_data(ok(at))
    (beta,) = [p for p in data["params"] if p["name"] == "beta"]
    assert beta["value"] == 3.5 and at.query_params["beta"] == "3.5"
    assert "off-centered Daroczy (β = 3.5)" in figure(at, "tc_chart")["traces"]
    assert json.loads(beta["frames_json"])["names"]["oc_daroczy_b3.5"][0].endswith("(β = 0)")


def test_q_slice_chart_follows_its_p1_cursor():
    """The q classes slice figure is drawn by the component that follows a slider in the
    browser (offcenter.app.theta_follow), for its p1 cursor alone: the cursor's slider and
    value, its line the figure's second shape and annotation, no θ slider (θ is typed) and
    nothing moving with θ; a cursor move comes back as the new figure, link and transform."""
    from offcenter.app.curve_pages import Q_CLASS_SCHEMA, cached_slice_figure, page_specs
    from offcenter.app.curve_text import y_axis_title

    at = run(QC)
    (chart,) = [c for c in ok(at).get("bidi_component") if c.proto.id.endswith("-qc_chart_slice")]
    data = json.loads(chart.proto.json)
    assert data["slider_key"] is None and data["frames_json"] is None
    assert data["traces"] == [] and data["params"] == []
    assert data["cursor_key"] == "qc_cursor" and data["cursor"] == pytest.approx(0.5)
    assert (data["cursor_shape"], data["cursor_annotation"]) == (1, 1)
    assert data["theta"] == pytest.approx(0.6) and data["theta_label"] == "θ₁"
    fig = json.loads(data["figure"])
    assert fig["layout"]["shapes"][1]["x0"] == pytest.approx(0.5)
    assert fig["layout"]["annotations"][1]["text"] == "cursor 0.5"
    assert fig["layout"]["annotations"][0]["text"] == "θ₁ = 0.6"
    # the figure is the package's slice figure (the same curves, at the page's θ)
    values = {**Q_CLASS_SCHEMA.defaults()}
    raw, ocs = page_specs(values)
    ref = cached_slice_figure(
        raw + ocs, np.asarray(values["theta"]), cursor=0.5, y_title=y_axis_title(raw + ocs)
    )
    assert [t["name"] for t in fig["data"]] == [t["name"] for t in ref["data"]]

    at.slider(key="qc_cursor").set_value(0.8).run()
    data = json.loads(
        next(
            c for c in ok(at).get("bidi_component") if c.proto.id.endswith("-qc_chart_slice")
        ).proto.json
    )
    assert data["cursor"] == pytest.approx(0.8) and at.query_params["cursor"] == "0.8"
    fig = json.loads(data["figure"])
    assert fig["layout"]["annotations"][1]["text"] == "cursor 0.8"
