"""Tree page paths that a browser test used to walk, now in Streamlit's AppTest (no browser).

Each test here replaces one of tests/browser/ that needed no pixel, click on a plot, animation,
phone width or real upload widget, and keeps every one of its assertions: a link with hand edits,
a row traced by its values, a file over the 50 MB limit, and column names that look like scripts.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.app.tree_charts import tree_spec
from tests.conftest import run_app, shown

ROOT = Path(__file__).resolve().parents[2]
PAGE = "pages/3_Tree.py"
BAD = ROOT / "tests" / "data" / "bad_csv"


def _figure(at, key="tr_chart") -> dict:
    if key == "tr_chart":  # the tree, drawn by its component
        return tree_spec(at)
    charts = [c for c in at.get("plotly_chart") if json.loads(c.proto.spec).get("data")]
    for c in charts:
        if c.proto.id and key in c.proto.id or getattr(c, "key", None) == key:
            return json.loads(c.proto.spec)
    return json.loads(charts[0].proto.spec)  # the tree is the page's first figure


def _texts(at) -> str:
    out = []
    for kind in ("markdown", "caption", "text", "success", "warning", "info", "error"):
        out += [str(e.value) for e in getattr(at, kind)]
    return "\n".join(out)


def _upload(at, name: str, data: bytes):
    at.file_uploader(key="tr_file").set_value((name, data, "text/csv"))
    return run_app(at)


def test_a_link_with_edits_shows_the_edited_tree():
    # was tests/browser/test_state_browser.py::test_a_link_with_edits_shows_the_edited_tree
    at = run_app(page=PAGE, query={"data": "mutation", "edits": "s0:mutation_2,l1,l99"})
    assert any("2 of 3 hand edit(s) replayed" in s.value for s in at.success)
    warnings = " ".join(shown(w.value) for w in at.warning)
    assert "Edit 3 of 3 (leaf at node 99) was not restored" in warnings
    assert "Edits: split node 0 on mutation_2; leaf at node 1" in _texts(at)
    fig = _figure(at)
    drawn = [t.get("text") or t.get("hovertext") or "" for t in fig["data"]]
    assert "mutation_2" in json.dumps(drawn)
    root = next(lines for lines in drawn if isinstance(lines, list) and "<b>node 0</b>" in lines)
    assert root[root.index("<b>node 0</b>") + 1].startswith("mutation_2")  # the root's split
    # the address still holds the edits that were restored
    edits = at.query_params["edits"]
    assert (edits[-1] if isinstance(edits, list) else edits) == "s0:mutation_2,l1"


def test_trace_a_row_typed_in_by_its_values():
    # was tests/browser/test_state_browser.py::test_trace_a_row_typed_in_by_its_values
    at = run_app(page=PAGE, query={"data": "iris"}, state={"tr_trace_open": True})  # opened
    boxes = {n.label: n for n in at.number_input if n.key and n.key.startswith("tr_tv_")}
    boxes["petal length"].set_value(1.2)
    boxes["petal width"].set_value(0.2)
    submit = next(b for b in at.button if b.label == "Trace this row")
    submit.click()
    at = run_app(at)
    path = next(t.value for t in at.text if str(t.value).startswith("Path: node 0"))
    leaf = next(t.value for t in at.text if str(t.value).startswith("Leaf "))
    assert "predicted setosa" in path + leaf
    # the traced path is drawn in the figure
    traced = next(t for t in _figure(at)["data"] if t.get("name") == "traced path")
    assert len([v for v in traced["x"] if v is not None]) >= 2


def test_a_file_over_50_mb_gets_a_visible_message():
    # was tests/browser/test_state_browser.py::test_a_file_over_50_mb_gets_a_visible_message_not_a_hover
    # (the real limit, not a patched one: 60 MB, under Streamlit's own 200 MB)
    at = run_app(page=PAGE)
    big = b"a,b\n" + b"1,x\n" * (15_000_000 + 1000)
    at = _upload(at, "big.csv", big)
    errors = [shown(e.value) for e in at.error]
    assert any("too large" in e and "the limit is 50 MB" in e for e in errors), errors
    assert at.selectbox(key="tr_data").value == "edible"
    assert at.selectbox(key="tr_data").format_func("edible").startswith("Edible")


def test_script_like_column_names_stay_text():
    # was tests/browser/test_tree_browser.py::test_script_like_column_names_stay_text
    at = run_app(page=PAGE)
    at = _upload(at, "script_names.csv", (BAD / "script_names.csv").read_bytes())
    assert any("Read as: 6 rows x 5 columns" in t for t in _texts(at).splitlines())
    # in the figure: every label escaped for Plotly (no <script>, <img>, <b> or <i> element)
    fig = _figure(at)
    labels = json.dumps(fig)
    for tag in ("<script", "<img", "<b>bold", "<i>x", "<i>y"):
        assert tag not in labels, tag
    assert "&lt;img src=x onerror=alert(1)&gt;" in labels or "&lt;script&gt;" in labels
    # in the page's markdown: the names are there as text, every < and > escaped, no HTML
    bodies = [md.value for md in at.markdown] + [c.value for c in at.caption]
    assert any("onerror" in b or "alert" in b for b in bodies)
    for body in bodies:
        assert re.search(r"(?<!\\)[<>]", body) is None, body
    assert not any(md.proto.allow_html for md in at.markdown)
    assert not at.exception
