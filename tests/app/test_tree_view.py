"""The Tree page's view in a link, its sizes, downloads and the data bugs of issue 24
(offcenter.app.tree_page, pages/3_Tree.py, offcenter.app.data_picker, offcenter.app.row_trace,
offcenter.viz.tree_image), with AppTest and pure tests."""

import io
from pathlib import Path

import pandas as pd
import pytest
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.testing.v1 import AppTest

from offcenter.app import presentation, tree_page
from offcenter.app.row_trace import _defaults
from offcenter.app.tree_view import LECTURE_HEIGHT, LECTURE_WIDTH, MIN_PRESENT_FONT
from offcenter.data.datasets import DATASETS, load
from offcenter.tree import TreeClassifier
from offcenter.viz.tree import NODE_FONT, PRESENTATION_FONT
from offcenter.viz.tree_image import tree_image
from tests.app.tree_charts import tree_spec
from tests.conftest import shown

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "3_Tree.py")
BAD = ROOT / "tests" / "data" / "bad_csv"
IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148"


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


def node_select(at):
    return [s for s in at.selectbox if s.key and s.key.startswith("tr_node_select")][0]


def thr_feature(at):
    return [s for s in at.selectbox if s.key and s.key.startswith("tr_thr_feature_")][0]


def tree_chart(at):
    return tree_spec(at)


# ------------------------------------------------------------------------------ the view
def test_a_shared_link_restores_the_selected_node_gain_plot_and_two_tree_comparison():
    # the teacher selects node 2, picks bmi in the gain plot, normalises it and opens the
    # two-tree comparison one above the other: the address says so
    at = run(data="pima", setting="oc_shannon")
    node_select(at).set_value(2)
    at = run(at)
    thr_feature(at).set_value("bmi")
    at = run(at)
    at.checkbox(key="tr_thr_norm").check()
    at.toggle(key="tr_pair_on").set_value(True)
    at = run(at)
    at.radio(key="tr_pair_layout").set_value("stacked")
    at = run(at)
    link = query(at)
    assert link["node"] == "2" and link["thr_feature"] == "bmi" and link["thr_norm"] == "1"
    assert link["pair_on"] == "1" and link["pair_layout"] == "stacked"
    # a fresh session opening that address sees the same view
    fresh = run(**link)
    assert node_select(fresh).value == 2
    assert thr_feature(fresh).value == "bmi"
    assert fresh.checkbox(key="tr_thr_norm").value is True
    assert fresh.toggle(key="tr_pair_on").value is True
    assert fresh.radio(key="tr_pair_layout").value == "stacked"
    assert "4. The selected node: node 2" in [h.value for h in fresh.header]


def test_another_node_resets_the_gain_feature_and_a_bad_node_falls_back_to_the_root():
    at = run(data="pima", node="2", thr_feature="bmi")
    assert thr_feature(at).value == "bmi"
    node_select(at).set_value(1)
    at = run(at)
    assert "thr_feature" not in query(at)  # node 1's own split feature again
    assert query(at)["node"] == "1"
    at = run(data="pima", node="999")
    assert node_select(at).value == 0


def test_the_depth_shown_is_in_the_link_and_every_tree_has_the_control():
    at = run(data="pima", setting="oc_shannon")
    shown = [s for s in at.slider if s.key and s.key.startswith("tr_shown_")]
    assert len(shown) == 1  # a 47-node tree gets the control too
    fit = shown[0].value
    assert 1 <= fit < 5
    shown[0].set_value(4)
    at = run(at)
    assert query(at)["depth"] == "4"
    fresh = run(**query(at))
    assert [s for s in fresh.slider if s.key.startswith("tr_shown_")][0].value == 4
    spec = tree_chart(fresh)
    # the axes span the whole drawing: the chart shows all of it
    meta = spec["layout"]["meta"]
    assert spec["layout"]["xaxis"]["range"] == [0.0, meta["layout_width"]]


def test_node_text_14_px_and_20_px_in_presentation_mode_and_the_root_children_fit():
    at = run(data="pima", setting="oc_shannon")
    spec = tree_chart(at)
    text = next(t for t in spec["data"] if t.get("name") == "text")
    assert text["textfont"]["size"] == NODE_FONT
    assert spec["layout"]["meta"]["width"] <= 900  # fits the chart at that size
    shown = next(t for t in spec["data"] if t.get("name") == "nodes")["customdata"]
    assert len(shown) == 7  # pima's root and two more levels fit a 1400-px screen at 14 px
    at = run(data="pima", setting="oc_shannon", present="1")
    spec = tree_chart(at)
    text = next(t for t in spec["data"] if t.get("name") == "text")
    # the lecture view: depth 2 (seven compact boxes) at 18 px or more in the tree's column
    assert text["textfont"]["size"] >= MIN_PRESENT_FONT
    meta = spec["layout"]["meta"]
    assert meta["width"] <= LECTURE_WIDTH and meta["height"] <= LECTURE_HEIGHT
    nodes = next(t for t in spec["data"] if t.get("name") == "nodes")
    assert set(range(7)) <= {c[0] for c in nodes["customdata"]}


def _narrow_tree(**query):
    """The Tree page in a window the browser reported narrow (AppTest sends no User-Agent)."""
    at = AppTest.from_file(PAGE, default_timeout=120)
    for k, v in query.items():
        at.query_params[k] = v
    at.session_state["_viewport_kind"] = "narrow"
    return run(at)


def test_a_phone_gets_narrow_boxes_and_no_presentation_sizes_from_a_link():
    # the window's reported width decides, not the User-Agent (the browser test at 390 x 844
    # sends a real phone's)
    at = _narrow_tree(data="pima", present="1")
    spec = tree_chart(at)
    text = next(t for t in spec["data"] if t.get("name") == "text")
    assert text["textfont"]["size"] == NODE_FONT  # not the projector's 20 px
    assert spec["layout"]["meta"]["width"] <= 354  # root and children within a phone's chart
    nodes = next(t for t in spec["data"] if t.get("name") == "nodes")
    assert {0, 1, 2} <= {c[0] for c in nodes["customdata"]}


def test_a_wide_report_is_not_a_phone():
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.query_params["data"] = "pima"
    at.query_params["present"] = "1"
    at.session_state["_viewport_kind"] = "wide"
    spec = tree_chart(run(at))
    text = next(t for t in spec["data"] if t.get("name") == "text")
    assert text["textfont"]["size"] == PRESENTATION_FONT


def test_view_sizes_and_phone_detection():
    phone = presentation.user_agent_is_phone
    assert phone(IPHONE) and phone("Mozilla/5.0 (Linux; Android 14)")
    assert not phone("Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0")
    assert not phone(None)
    assert tree_page.view_size(True, True).font_size == NODE_FONT
    assert tree_page.view_size(True, False).font_size == PRESENTATION_FONT
    assert (
        tree_page.view_size(False, True).wrap_width < tree_page.view_size(False, False).wrap_width
    )


def test_tree_params_and_the_score_table():
    base = {"measure": "shannon", "theta": None}
    kw = dict(leaf_rule="majority", max_depth=5, min_split=2, min_leaf=1, min_gain=0.0,
              categorical="multiway")  # fmt: skip
    assert tree_page.tree_params(base, score="gain", criterion=False, **kw)["alpha"] is None
    assert tree_page.tree_params(base, score="kvalseth", criterion=False, **kw)["alpha"] == 0.5
    assert (
        tree_page.tree_params(base, score="alpha", alpha=0.3, criterion=False, **kw)["alpha"] == 0.3
    )
    assert tree_page.tree_params(base, score="ratio", criterion=True, **kw)["alpha"] is None
    with pytest.raises(ValueError, match="score"):
        tree_page.tree_params(base, score="nope", criterion=False, **kw)


# ------------------------------------------------------------------------------ downloads
@pytest.fixture
def file_names(monkeypatch):
    """The file names the page registers for its downloads (deferred or not)."""
    names: dict[str, object] = {}
    add_deferred, add = MediaFileManager.add_deferred, MediaFileManager.add

    def deferred(self, data_callable, mimetype, coordinates, file_name=None, **kw):
        names[file_name] = data_callable
        return add_deferred(self, data_callable, mimetype, coordinates, file_name, **kw)

    def plain(self, data, mimetype, coordinates, file_name=None, *a, **kw):
        names[file_name] = data
        return add(self, data, mimetype, coordinates, file_name, *a, **kw)

    monkeypatch.setattr(MediaFileManager, "add_deferred", deferred)
    monkeypatch.setattr(MediaFileManager, "add", plain)
    return names


def test_every_download_names_the_data_set_and_the_setting(file_names):
    run(data="pima", setting="oc_shannon")
    named = [n for n in file_names if n]
    assert len(named) >= 8
    assert all(n.startswith("pima_oc_shannon_") for n in named), named
    for want in ("tree.png", "tree.svg", "tree.json", "rules.txt", "predictions.csv",
                 "confusion.csv", "session.json", "node0_own_optima.csv"):  # fmt: skip
        assert f"pima_oc_shannon_{want}" in named

    def data(name):  # a static download's bytes, or a deferred one's callable
        d = file_names[name]
        return d() if callable(d) else d

    pred = pd.read_csv(io.BytesIO(data("pima_oc_shannon_predictions.csv")))
    assert list(pred.columns) == ["row", "true class", "leaf", "P(0)", "P(1)", "predicted"]
    assert len(pred) == 768 and set(pred["true class"]) == {0, 1}  # the true class, too
    assert (pred[["P(0)", "P(1)"]].sum(axis=1) - 1).abs().max() < 1e-9
    svg = data("pima_oc_shannon_tree.svg")
    assert svg.startswith(b"<?xml") and b"node 46" in svg  # the whole tree, not the view
    assert "θ = prior (0.65, 0.35)" in svg.decode() and b"leaf rule: majority" in svg


def test_tree_image_title_and_formats():
    df = load("iris")
    clf = TreeClassifier(max_depth=2).fit(df.drop(columns="species"), df["species"])
    svg = tree_image(clf, "svg", title="iris <b>$x$</b>").decode()
    assert "iris &lt;b&gt;$x$&lt;/b&gt;" in svg  # plain text, no markup, no mathtext
    assert tree_image(clf, "png")[:4] == b"\x89PNG"
    with pytest.raises(ValueError, match="fmt"):
        tree_image(clf, "gif")


# ------------------------------------------------------------------------------ bugs
def test_a_new_target_does_not_turn_the_old_target_into_a_feature():
    at = run(data="pima")
    feats = at.multiselect(key="tr_features_pima_diabetes")
    assert "diabetes" not in feats.value
    feats.set_value([f for f in feats.value if f != "insulin"])  # a choice of the user's
    at = run(at)
    [s for s in at.selectbox if s.key == "tr_target_pima"][0].set_value("pregnancies")
    at = run(at)
    new = at.multiselect(key="tr_features_pima_pregnancies").value
    assert "diabetes" not in new and "pregnancies" not in new and "insulin" not in new
    assert "glucose" in new
    infos = [i.value.replace("\\", "") for i in at.info]
    assert any("previous target 'diabetes' is not a feature" in i for i in infos), infos


def test_a_two_row_csv_warns_that_the_sample_is_tiny():
    at = run()
    at.file_uploader(key="tr_file").set_value(("two.csv", b"x,y\n1,a\n2,b\n", "text/csv"))
    at = run(at)
    assert any("Only 2 rows" in w.value for w in at.warning), [w.value for w in at.warning]
    assert tree_page.small_sample_note([500, 268]) is None
    assert "smallest class: 3" in tree_page.small_sample_note([300, 3])


def test_the_upload_limit_is_said_once_by_the_widget_and_enforced_by_it():
    at = run()
    up = at.file_uploader(key="tr_file")
    assert up.proto.max_upload_size_mb == 50
    assert "MB" not in up.label and "MB" not in (up.help or "")


def test_a_file_refused_for_its_class_column_reads_as_one_sentence():
    at = run()
    at.file_uploader(key="tr_file").set_value(
        ("c.csv", (BAD / "constant_target.csv").read_bytes(), "text/csv")
    )
    at = run(at)
    errors = [
        shown(e.value) for e in at.error if shown(e.value).startswith("The file was not loaded")
    ]
    assert errors and not any(", and The" in e for e in errors), errors
    assert "class by default, but it cannot be one. " in errors[0]


def test_a_refused_file_leaves_the_uploader_with_its_message_kept():
    at = run()
    at.file_uploader(key="tr_file").set_value(
        ("p.csv", (BAD / "binary_png.csv").read_bytes(), "text/csv")
    )
    at = run(at)
    errors = [shown(e.value) for e in at.error]
    assert any(e.startswith("The file was not loaded") for e in errors), errors
    keys = [u.key for u in at.get("file_uploader")]
    assert "tr_file" not in keys and "tr_file_1" in keys  # a new, empty uploader
    assert at.file_uploader(key="tr_file_1").value in (None, [])


def test_the_typed_values_form_prefills_a_rounded_median():
    X = pd.DataFrame({"x": [0.365, 0.3655, 0.1, 0.9], "z": [1.0, 2.0, 3.0, 4.0]})
    clf = TreeClassifier().fit(X, [0, 0, 1, 1])
    assert _defaults(clf, X) == [0.36525, 2.5]


def test_file_stem_is_safe_and_names_both():
    assert tree_page.file_stem("pima", "oc_shannon") == "pima_oc_shannon"
    assert tree_page.file_stem("../my file.CSV", "oc_daroczy_b0.5") == "my-file_oc_daroczy_b0.5"
    assert "/" not in tree_page.file_stem("a/b\\c", "x:y")
    assert DATASETS  # the bundled names are safe as they are


def test_the_class_histogram_of_the_gain_plot_feature_at_the_node():
    import base64
    import json

    import numpy as np

    def values(v):
        if isinstance(v, dict):
            return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"]).tolist()
        return list(v)

    at = run(data="pima")
    charts = [c for c in at.get("plotly_chart") if c.proto.id.endswith("tr_hist_chart")]
    spec = json.loads(charts[0].proto.spec)
    assert [t["name"] for t in spec["data"]] == ["0", "1"]
    by_class = [sum(values(t["y"])) for t in spec["data"]]
    assert by_class == [500, 268]  # every row of the root, by class (glucose has no missing)
    assert spec["layout"]["shapes"][0]["x0"] == 127.5  # the tree's threshold
    assert spec["layout"]["xaxis"]["title"]["text"] == "glucose"
