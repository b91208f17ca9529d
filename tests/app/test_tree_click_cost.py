"""What keeps the Tree page's per-interaction work cheap (issue 26, load), pinned by counts.

- A grow with settings grown before (by this session or another) does not fit again
  (``tree_page.cached_fit``, shared by the process's sessions): fits counted.
- A node click's figure and drawn font are computed once per (tree, view, node), whichever
  session clicks (``tree_click``): drawings counted.
- A node clicked before does not compute its tables again (``node_settings.node_tables``):
  the own-optima searches counted.
- A first click on a node computes its impurities once (the impurity table reads the node's
  tables' ones), resolves its settings' labels on the prior once, and its candidate scoring
  computes no I(X) (the gain does not use it): calls counted.
- A node click, as the browser sends it (the ``rerun_script`` of the chart's fragment), reruns
  that fragment only, on a real server: every element of the reply belongs to the fragment, and
  the row-trace form (one input per feature, drawn outside it) is not redrawn.
- A change of the measure reruns the settings' fragment only, which still writes the link and
  says that the settings changed (a new setting waits for the grow button).
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
from pathlib import Path

import pytest
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from streamlit.testing.v1 import AppTest
from websockets.asyncio.client import connect

from offcenter.app import tree_chart, tree_click, tree_page
from offcenter.ops.serve import streamlit_command
from offcenter.ops.warmup import WARM_ENV, wait_healthy
from offcenter.tree import TreeClassifier
from tests.app.tree_charts import tree_data
from tests.conftest import run_app, run_coroutine, stop_process

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "3_Tree.py")


def run(at=None, **query):
    return run_app(at, page=PAGE, query=query)


@pytest.fixture
def fits(monkeypatch):
    """The number of TreeClassifier fits since the fixture started (a list of one int)."""
    count = [0]
    fit = TreeClassifier.fit

    def counting(self, *args, **kwargs):
        count[0] += 1
        return fit(self, *args, **kwargs)

    monkeypatch.setattr(TreeClassifier, "fit", counting)
    return count


def test_a_grow_with_settings_grown_before_does_not_fit_again(fits):
    tree_page.cached_fit.clear()
    at = run(data="pima")
    assert fits[0] == 1  # the data set's tree, grown at once
    at.slider(key="tr_max_depth").set_value(3)
    at = run(at)
    assert fits[0] == 1  # new settings wait for the button
    at.button(key="tr_grow").click()
    at = run(at)
    assert fits[0] == 2
    at.button(key="tr_grow").click()
    at = run(at)
    assert fits[0] == 2  # the same settings again: the tree is the cached one
    other = run(data="pima", max_depth="3")  # another student, the same data and settings
    assert fits[0] == 2
    assert "depth 3" in " ".join(c.value for c in other.caption)


def test_drawing_font_and_node_tables_are_computed_once_per_tree_and_node(monkeypatch):
    from offcenter.app import node_settings

    drawings, fonts, searches, layouts = [0], [0], [0], [0]
    drawing, font, search, layout = (
        tree_click.tree_drawing,
        tree_click.drawn_font,
        TreeClassifier.node_comparison,
        tree_click.tree_layout,
    )

    def count(counter, fn):
        def wrapped(*args, **kwargs):
            counter[0] += 1
            return fn(*args, **kwargs)

        return wrapped

    monkeypatch.setattr(tree_click, "tree_drawing", count(drawings, drawing))
    monkeypatch.setattr(tree_click, "drawn_font", count(fonts, font))
    monkeypatch.setattr(TreeClassifier, "node_comparison", count(searches, search))
    laid_out = []  # the depths laid out (None: the whole tree)

    def layout_counted(*args, **kwargs):
        laid_out.append(kwargs.get("max_depth"))
        return count(layouts, layout)(*args, **kwargs)

    monkeypatch.setattr(tree_click, "tree_layout", layout_counted)
    jsons = [0]  # the chart's figure JSON (offcenter.app.tree_chart: not per node)
    monkeypatch.setattr(tree_chart, "figure_json", count(jsons, tree_chart.figure_json))
    for fn in (
        tree_chart.cached_chart,
        tree_click.cached_tree_drawing,
        tree_click.cached_drawn_font,
        tree_click.cached_tree_layout,
        tree_click.cached_fit_depth,
    ):
        fn.clear()
    node_settings.node_tables.clear()

    at = run(data="pima")
    # the root; the drawn font is the fit's (computed again only for a depth picked by hand)
    assert (drawings[0], fonts[0], searches[0]) == (1, 0, 1)
    # the depths the fit tried, the drawn font and the drawing: each depth laid out once
    assert layouts[0] >= 1 and len(laid_out) == len(set(laid_out))
    first_layouts = layouts[0]
    select = [s for s in at.selectbox if s.key and s.key.startswith("tr_node_select")]
    select[0].set_value(2)
    at = run(at)
    # node 2: its tables are new; the drawing and its JSON are the tree's (no layout)
    assert (drawings[0], fonts[0], searches[0], jsons[0]) == (1, 0, 2, 1)
    assert tree_data(at)["selected"] == 2
    other = run(data="pima", node="2")  # another student on node 2 of the same tree
    assert (drawings[0], fonts[0], searches[0]) == (1, 0, 2)
    assert "4. The selected node: node 2" in [h.value for h in other.header]
    again = run(at)  # a rerun of the same view: nothing computed
    assert (drawings[0], fonts[0], searches[0], layouts[0]) == (1, 0, 2, first_layouts)
    assert jsons[0] == 1
    assert not again.exception


def test_a_first_node_click_computes_impurities_and_labels_once(monkeypatch):
    from offcenter.app import node_settings
    from offcenter.measures.impurity import Impurity

    calls = {"impurities": 0, "labels": 0, "i_x": 0}

    def count(name, fn):
        def wrapped(*args, **kwargs):
            calls[name] += 1
            return fn(*args, **kwargs)

        return wrapped

    monkeypatch.setattr(
        TreeClassifier, "node_impurities", count("impurities", TreeClassifier.node_impurities)
    )
    monkeypatch.setattr(
        node_settings, "resolved_labels", count("labels", node_settings.resolved_labels)
    )
    monkeypatch.setattr(Impurity, "for_predictor", count("i_x", Impurity.for_predictor))
    node_settings.node_tables.clear()
    node_settings.impurity_table.clear()
    at = run(data="pima")
    assert calls == {"impurities": 1, "labels": 1, "i_x": 0}  # the root
    select = [s for s in at.selectbox if s.key and s.key.startswith("tr_node_select")]
    select[0].set_value(2)
    at = run(at)
    assert calls == {"impurities": 2, "labels": 2, "i_x": 0}  # node 2: once each
    assert not at.exception


# ------------------------------------------------------------------------------ real server
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    """One headless ``streamlit run app.py`` of this checkout; its port. Started cold
    (``OFFCENTER_WARM=0``): what these tests read is which elements a rerun sends, not how soon
    a first page answers (the warm-up ran every page on every data set first)."""
    port = _free_port()
    cmd = streamlit_command(port, "127.0.0.1", "--server.fileWatcherType", "none")
    env = {**os.environ, WARM_ENV: "0"}
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        # a bound on the start, not a measured time
        assert wait_healthy(port, wait=300, process=proc), "no server"
        yield port
    finally:
        stop_process(proc)


def _element(msg: ForwardMsg):
    """(type, element proto) of a new-element delta, else (None, None)."""
    if msg.WhichOneof("type") != "delta" or msg.delta.WhichOneof("type") != "new_element":
        return None, None
    el = msg.delta.new_element
    kind = el.WhichOneof("type")
    return kind, getattr(el, kind)


async def _run(conn, bm: BackMsg) -> list[ForwardMsg]:
    """Send one rerun request; the messages up to the end of its run."""
    await conn.send(bm.SerializeToString())
    out = []
    async for data in conn:
        msg = ForwardMsg()
        msg.ParseFromString(data)
        out.append(msg)
        if msg.WhichOneof("type") == "script_finished" and (
            msg.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN
        ):
            assert msg.script_finished in (
                ForwardMsg.FINISHED_SUCCESSFULLY,
                ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY,
            )
            return out
    raise ConnectionError("the server closed the session")


async def _open_pima(conn) -> tuple[list[ForwardMsg], str]:
    """The Tree page's first run on Pima: its messages and the page's script hash."""
    bm = BackMsg()
    bm.rerun_script.page_name = "Tree"
    bm.rerun_script.query_string = "data=pima"
    bm.rerun_script.widget_states.SetInParent()
    first = await asyncio.wait_for(_run(conn, bm), 120)
    page_hash = next(
        m.navigation.page_script_hash for m in first if m.WhichOneof("type") == "navigation"
    )
    return first, page_hash


async def _session(port: int, change):
    """Open the Tree page on Pima, then send ``change(first run's messages)``: (widget id,
    WidgetState) as the browser sends it, with the fragment of that widget. Returns the widget's
    fragment id, the first run's messages and the change's."""
    url = f"ws://127.0.0.1:{port}/_stcore/stream"
    async with connect(
        url, subprotocols=["streamlit"], origin=f"http://127.0.0.1:{port}", max_size=None
    ) as conn:
        first, page_hash = await _open_pima(conn)
        wid, state = change(first)
        fragment = next(
            m.delta.fragment_id for m in first if getattr(_element(m)[1], "id", None) == wid
        )
        bm = BackMsg()
        bm.rerun_script.page_script_hash = page_hash
        bm.rerun_script.query_string = "data=pima"
        bm.rerun_script.fragment_id = fragment
        bm.rerun_script.widget_states.widgets.append(state)
        reply = await asyncio.wait_for(_run(conn, bm), 120)
        return fragment, first, reply


@pytest.mark.slow
def test_a_measure_change_reruns_only_the_settings_and_writes_the_link(server):
    def choose_gini(first):
        box = next(
            el
            for m in first
            for kind, el in [_element(m)]
            if kind == "selectbox" and el.id.endswith("tr_setting")
        )
        label = next(o for o in box.options if o.lower().startswith("gini"))
        return box.id, WidgetState(id=box.id, string_value=label)

    fragment, first, reply = run_coroutine(_session(server, choose_gini))
    assert fragment
    assert reply[-1].script_finished == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
    elements = [(m, *_element(m)) for m in reply]
    elements = [(m, kind, el) for m, kind, el in elements if kind is not None]
    assert all(m.delta.fragment_id == fragment for m, _, _ in elements)
    alerts = [el.body for _, kind, el in elements if kind == "alert"]
    assert any("The settings changed" in a for a in alerts)
    queries = [
        m.page_info_changed.query_string
        for m in reply
        if m.WhichOneof("type") == "page_info_changed"
    ]
    assert queries and "setting=gini" in queries[-1]
    # the rest of the page (the tree, the trace) is not sent again
    assert not any(kind in ("plotly_chart", "bidi_component") for _, kind, _ in elements)


async def _click(port: int, node: int):
    url = f"ws://127.0.0.1:{port}/_stcore/stream"
    async with connect(
        url, subprotocols=["streamlit"], origin=f"http://127.0.0.1:{port}", max_size=None
    ) as conn:
        first, page_hash = await _open_pima(conn)
        chart = fragment = None
        trace_inputs = []
        for m in first:
            kind, el = _element(m)
            if kind == "bidi_component" and el.id.endswith("tr_chart"):
                chart, fragment = el.id, m.delta.fragment_id
            if kind in ("number_input", "selectbox") and "tr_tv_" in el.id:
                trace_inputs.append(m.delta.fragment_id)
        # the browser's click on the chart: the component's node trigger, a rerun of its fragment
        bm = BackMsg()
        bm.rerun_script.page_script_hash = page_hash
        bm.rerun_script.query_string = "data=pima"
        bm.rerun_script.fragment_id = fragment
        bm.rerun_script.widget_states.widgets.append(tree_chart.click_state(chart, node))
        click = await asyncio.wait_for(_run(conn, bm), 120)
        return fragment, trace_inputs, click, first


@pytest.mark.slow
def test_a_node_click_reruns_only_the_fragment_without_the_trace_form(server):
    fragment, trace_inputs, click, first = run_coroutine(_click(server, 2))
    assert fragment  # the chart is drawn by a fragment
    assert click[-1].script_finished == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
    assert not trace_inputs  # the trace form: drawn only while its expander is open
    elements = [(m, *_element(m)) for m in click]
    elements = [(m, kind, el) for m, kind, el in elements if kind is not None]
    assert elements
    assert all(m.delta.fragment_id == fragment for m, _, _ in elements)
    headings = [el.body for _, kind, el in elements if kind == "heading"]
    assert "4. The selected node: node 2" in headings
    assert not any(
        "tr_tv_" in getattr(el, "id", "") or "tr_trace_row" in getattr(el, "id", "")
        for _, _, el in elements
    )
    assert not any(h.startswith("1. Data") for h in headings)

    # the chart is sent as the same message (the figure cached per tree and view: the browser
    # gets a reference to its copy), and its selection says node 2
    def sent(msgs, suffix):
        return [
            m
            for m in msgs
            for kind, el in [_element(m)]
            if kind == "bidi_component" and el.id.endswith(suffix)
        ]

    before, after = sent(first, "-tr_chart"), sent(click, "-tr_chart")
    assert len(before) == len(after) == 1 and before[0].hash == after[0].hash
    assert before[0].metadata.cacheable  # over the size Streamlit caches in the browser
    picks = sent(first, tree_chart.SELECTION_SUFFIX) + sent(click, tree_chart.SELECTION_SUFFIX)
    assert [json.loads(_element(m)[1].json)["selected"] for m in picks] == [0, 2]


def test_the_apptest_page_still_shows_the_trace_below_the_node():
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.query_params["data"] = "pima"
    at.run()
    assert not at.exception
    labels = [e.label for e in at.expander]
    assert "Trace a row through the tree" in labels
    assert not [n for n in at.number_input if n.key == "tr_trace_row"]  # closed: not drawn
    at.session_state["tr_trace_open"] = True
    at.run()
    assert at.number_input(key="tr_trace_row").value is None


def test_a_grow_after_a_depth_change_finds_the_root_tables_computed(monkeypatch):
    from offcenter.app import node_settings

    optima = [0]  # the node searches (own optima and candidates, in one pass)
    own = TreeClassifier.node_comparison

    def counting(self, *args, **kwargs):
        optima[0] += 1
        return own(self, *args, **kwargs)

    monkeypatch.setattr(TreeClassifier, "node_comparison", counting)
    node_settings.node_tables.clear()
    at = run(data="pima")
    assert optima[0] == 1  # the root's tables
    root = [t.value for t in at.dataframe]
    at.slider(key="tr_max_depth").set_value(2)
    at = run(at)
    at.button(key="tr_grow").click()
    at = run(at)
    assert "depth 2" in " ".join(c.value for c in at.caption)
    assert optima[0] == 1  # another tree, the same root: its tables are the ones computed
    assert len(root) == len(at.dataframe)
    # the root's tables on screen are the same as a fresh computation's
    node_settings.node_tables.clear()
    fresh = run(at)
    assert optima[0] == 2
    for a, b in zip(at.dataframe, fresh.dataframe):
        assert a.value.equals(b.value)
    fresh.number_input(key="tr_min_leaf").set_value(30)  # a search constraint: other tables
    fresh = run(fresh)
    fresh.button(key="tr_grow").click()
    fresh = run(fresh)
    assert optima[0] == 3


# ------------------------------------------------------------------------------ node_key
def _tables(clf, node_id: int, key: str) -> dict:
    from offcenter.app import node_settings

    node_settings.node_tables.clear()
    return node_settings.node_tables(key, node_id, clf)


@pytest.mark.parametrize("name", ["pima", "german_credit"])
def test_nodes_with_one_key_have_the_same_tables(name):
    from pandas.testing import assert_frame_equal

    from offcenter.app.tree_session import MakeLeaf
    from offcenter.data.datasets import DATASETS, load

    df = load(name)
    target = DATASETS[name].target
    X, y = df.drop(columns=[target]), df[target]

    def params(depth, **kw):
        return json.dumps({"criterion": "shannon", "max_depth": depth, "min_samples_leaf": 1, **kw})

    shallow = TreeClassifier(max_depth=2).fit(X, y)
    deep = TreeClassifier(max_depth=4).fit(X, y)
    edited = MakeLeaf(1).apply(deep)
    shared = 0
    for node in shallow.tree_.nodes:
        a = tree_click.node_key("d", params(2), shallow, node)
        other = deep.tree_.nodes[node.id]
        b = tree_click.node_key("d", params(4), deep, other)
        assert (a == b) == (node.split == other.split)  # the leaves at depth 2 are split deeper
        if a == b:
            shared += 1
            ta, tb = _tables(shallow, node.id, "a"), _tables(deep, other.id, "b")
            for part in ("optima", "cands", "best"):
                assert_frame_equal(ta[part], tb[part])
    assert shared >= 3  # the root and its children
    root = shallow.tree_.nodes[0]
    assert tree_click.node_key("d", params(2), shallow, root) != tree_click.node_key(
        "e", params(2), shallow, root
    )  # other data
    assert tree_click.node_key("d", params(2), shallow, root) != tree_click.node_key(
        "d", params(2, min_samples_leaf=5), shallow, root
    )  # another search constraint
    assert tree_click.node_key("d", params(4), deep, deep.tree_.nodes[1]) != tree_click.node_key(
        "d", params(4), edited, edited.tree_.nodes[1]
    )  # an edit: node 1 made a leaf
