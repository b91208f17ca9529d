"""Presentation mode on the Tree and Compare pages (AppTest): the table helper's two paths
(offcenter.app.tables.show_table), its escaping of user text, and the Compare page's figures
at the curve pages' type, read back from the figures sent to the browser."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
import streamlit as st
from markdown_it import MarkdownIt
from streamlit.testing.v1 import AppTest

from offcenter.app.tables import MAX_COLUMNS, SMALL_ROWS, table_text
from offcenter.viz.styles import NORMAL, PRESENTATION
from tests.conftest import run_app

ROOT = Path(__file__).resolve().parents[2]
COMPARE = str(ROOT / "pages" / "4_Compare_measures.py")
TREE = str(ROOT / "pages" / "3_Tree.py")

HOSTILE = "<b>bold</b> **star** :red[red] $x^2$ [link](http://x) | a_b `code` # h"


def _script():
    import pandas as pd
    import streamlit as st

    from offcenter.app.tables import show_table

    small = pd.DataFrame(
        {
            "<i>name</i>": [
                "<b>bold</b> **star** :red[red] $x^2$ [link](http://x) | a_b `code` # h",
                "plain",
            ],
            "value": [0.123456789, 2.0],
            "n": [3, 40],
        }
    )
    show_table(
        small,
        column_config={"value": st.column_config.NumberColumn("value", format="%.3f")},
        key="small",
    )
    show_table(pd.DataFrame({"row": range(60)}), key="big")


def _run_script(present: bool) -> AppTest:
    at = AppTest.from_function(_script, default_timeout=60)
    at.session_state["present"] = present
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_normal_mode_keeps_interactive_grids():
    at = _run_script(False)
    assert len(at.table) == 0
    assert len(at.dataframe) == 2
    assert list(at.dataframe[0].value.columns) == ["<i>name</i>", "value", "n"]


def test_presentation_mode_small_tables_are_static_and_escaped():
    at = _run_script(True)
    # the small table is static, the 60-row one stays a grid
    assert len(at.table) == 1
    assert len(at.dataframe) == 1 and len(at.dataframe[0].value) == 60
    shown = at.table[0].value
    assert list(shown.columns) == ["\\<i\\>name\\</i\\>", "value", "n"]
    # numbers in the column's format; every markdown special of user text escaped
    assert list(shown["value"]) == ["0\\.123", "2\\.000"]
    assert list(shown["n"]) == ["3", "40"]
    md = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    rendered = md.renderInline(shown.iloc[0, 0])
    # rendered as Markdown, the cell reads as typed: no tag, link, emphasis or code made
    assert "<b>" not in rendered and "<strong>" not in rendered and "<a " not in rendered
    assert "<code>" not in rendered and "<em>" not in rendered
    import html

    assert html.unescape(rendered) == HOSTILE


def test_phone_small_tables_are_static_in_narrow_groups():
    """On a phone (the browser reported a narrow window) a grid hid what lay beyond its 358 px:
    small tables are static there too, in tables of at most NARROW_COLUMNS columns."""
    wide = pd.DataFrame({f"c{i}": [i, i + 1] for i in range(7)})

    def script():
        import pandas as pd

        from offcenter.app.tables import show_table

        show_table(pd.DataFrame({f"c{i}": [i, i + 1] for i in range(7)}))
        show_table(pd.DataFrame({"row": range(60)}))

    at = AppTest.from_function(script, default_timeout=60)
    at.session_state["_viewport_kind"] = "narrow"
    at.run()
    assert not at.exception
    assert [list(t.value.columns) for t in at.table] == [
        ["c0", "c1", "c2", "c3"],
        ["c0", "c4", "c5", "c6"],
    ]
    assert len(at.dataframe) == 1 and len(wide) == 2


def test_table_text_formats_and_limits():
    df = pd.DataFrame({"x": [float("nan"), 1e-12, 0.5], "s": ["a", None, "c"]})
    out = table_text(df, {"x": st.column_config.NumberColumn(format="percent")})
    assert list(out["x"]) == ["", "0\\.00%", "50\\.00%"]
    assert list(out["s"]) == ["a", "", "c"]
    assert list(table_text(df)["x"]) == ["", "1e\\-12", "0\\.5"]
    assert SMALL_ROWS == 50


# ====================================================================== the Compare page
def _charts(at) -> dict[str, dict]:
    return {c.key: json.loads(c.proto.spec) for c in at.get("plotly_chart") if c.key}


def _sizes(spec: dict) -> list[float]:
    """Every text size set in a figure's layout (fonts of the title, axes, legend, annotations)."""
    lay = spec["layout"]
    out = [lay["font"]["size"]]
    if lay.get("title", {}).get("text"):
        out.append(lay["title"]["font"]["size"])
    for name, axis in lay.items():
        if name.startswith(("xaxis", "yaxis")) and axis.get("visible", True):
            out += [axis["tickfont"]["size"], axis["title"]["font"]["size"]]
    out += [a["font"]["size"] for a in lay.get("annotations", [])]
    return out


@pytest.fixture(scope="module")
def compare_present():
    st.cache_resource.clear()
    st.cache_data.clear()
    at = run_app(page=COMPARE, query={"present": "1"}, timeout=300)
    at.selectbox(key="cm_data").set_value("glass")
    at.multiselect(key="cm_settings").set_value(["shannon", "oc_shannon", "oc_daroczy_b0.5"])
    at.number_input(key="cm_folds").set_value(2)
    at.number_input(key="cm_repeats").set_value(1)
    at.number_input(key="cm_max_depth").set_value(2)
    at = run_app(at)
    at.button(key="cm_run").click()
    return run_app(at)


def test_compare_figures_use_the_curve_pages_presentation_type(compare_present):
    charts = _charts(compare_present)
    keys = {"cm_fig_metric", "cm_fig_diff", "cm_fig_roc", "ks_answer_fig", "ks_cd", "ks_gain"}
    assert keys <= set(charts), sorted(charts)
    for key in keys:
        spec = charts[key]
        lay = spec["layout"]
        assert lay["font"]["size"] == PRESENTATION.font, key
        sizes = _sizes(spec)
        assert min(sizes) >= 20, (key, sorted(sizes)[:4])
        # one 1400x900 screen: the figure with its title, axes and legend
        assert lay["height"] <= 860, (key, lay["height"])
    # the title, where the figure has one of its own, at the curve pages' title size
    for key in ("cm_fig_metric", "cm_fig_diff", "ks_answer_fig", "ks_cd"):
        assert charts[key]["layout"]["title"]["font"]["size"] == PRESENTATION.title, key
    # the ROC and gain figures head their legend with the title (as Figure 2 does)
    for key in ("cm_fig_roc", "ks_gain"):
        legend = charts[key]["layout"]["legend"]
        assert legend["title"]["font"]["size"] == PRESENTATION.title
        assert legend["font"]["size"] >= 20
        assert legend["y"] > 1  # above the plot


def test_compare_tables_are_static_in_presentation_mode(compare_present):
    at = compare_present
    headers = [list(t.value.columns) for t in at.table]
    assert any("balanced accuracy" in h for h in headers)  # the summary
    assert any("Holm\\-adjusted p" in h for h in headers)  # the paired comparisons
    assert any(h[:2] == ["class", "examples"] for h in headers)  # the class counts
    # the study's 12-column tables as tables of at most MAX_COLUMNS columns, each headed by
    # the setting (a 20 px table of 12 columns overflowed 1400 px)
    assert all(len(h) <= MAX_COLUMNS for h in headers), headers
    study = [h for h in headers if h[0] == "setting" and "average rank" in h]
    assert study and all(h[0] == "setting" for h in headers if "W/T/L" in h)
    # no small table left as a canvas grid
    assert len(at.dataframe) == 0


def test_compare_normal_mode_is_unchanged():
    st.cache_resource.clear()
    st.cache_data.clear()
    at = run_app(page=COMPARE, timeout=300)
    charts = _charts(at)
    # the figures keep their normal type (Streamlit's theme, no presentation sizes)
    assert charts["ks_answer_fig"]["layout"].get("font", {}).get("size", NORMAL.font) < 20
    assert len(at.table) == 0 and len(at.dataframe) >= 1


# ====================================================================== the Tree page
def test_tree_page_tables_are_static_in_presentation_mode():
    at = run_app(page=TREE, query={"data": "pima", "setting": "oc_shannon", "present": "1"})
    headers = [list(t.value.columns) for t in at.table]
    assert ["impurity", "measure"] in headers, headers
    assert ["class", "count", "share"] in headers, headers
    impurity = [t.value for t in at.table if list(t.value.columns) == ["impurity", "measure"]][0]
    assert len(impurity) >= 5 and all(v for v in impurity["impurity"])
    # the data preview and the long tables stay grids; no small table is one
    for d in at.dataframe:
        assert len(d.value) > SMALL_ROWS or "impurity" not in d.value.columns


# ====================================================================== charts on a phone
def _chart_script():
    import plotly.graph_objects as go

    from offcenter.app.charts import plotly_chart

    plotly_chart(go.Figure(), key="c", config={"displaylogo": False})


@pytest.mark.parametrize("kind, shown", [("narrow", False), ("wide", True)])
def test_charts_have_no_toolbar_on_a_phone(kind, shown):
    """A touch screen shows Plotly's toolbar all the time, over the figure's text (the Tree
    page's node labels and gain plot): every chart drawn through charts.plotly_chart drops it
    on a narrow screen."""
    at = AppTest.from_function(_chart_script, default_timeout=60)
    at.session_state["_viewport_kind"] = kind
    at.run()
    assert not at.exception
    config = json.loads(at.get("plotly_chart")[0].proto.config)
    assert config["displaylogo"] is False
    assert config.get("displayModeBar", True) is shown
