"""AppTest of pages/3_Tree.py: data in (good and bad files), grow, select, edit, undo, export."""

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from offcenter.data.datasets import DATASETS
from tests.app.tree_charts import tree_spec
from tests.conftest import run_app, shown

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "3_Tree.py")
BAD = ROOT / "tests" / "data" / "bad_csv"


def run(at=None, *, cands_open=False, trace_open=False, **query):
    """Run the page (a new one with ``query`` as its link); ``cands_open`` opens the expander
    of every feature at the tree's thresholds, ``trace_open`` the row trace's (both drawn only
    when open)."""
    state = {"tr_cand_open": True} if cands_open else {}
    if trace_open:
        state["tr_trace_open"] = True
    return run_app(at, page=PAGE, query=query, state=state or None)


def upload(at, name, data):
    at.file_uploader(key="tr_file").set_value((name, data, "text/csv"))
    return run(at)


def texts(at):
    """Every piece of text on the page (markdown, captions, alerts, code, text)."""
    out = []
    for kind in ("markdown", "caption", "error", "warning", "info", "success", "code", "text"):
        out += [str(e.value) for e in getattr(at, kind)]
    return "\n".join(out)


def node_select(at):
    return [s for s in at.selectbox if s.key and s.key.startswith("tr_node_select")][0]


def test_opens_on_a_bundled_set_with_a_tree():
    at = run()
    assert at.selectbox(key="tr_data").value == "edible"
    assert tree_spec(at)
    assert not at.error
    assert "nodes" in texts(at) and "leaves" in texts(at)
    # the root's worked calculation with the seed's numbers (shannon by default)
    md = texts(at)
    assert "0.9887" in md and "0.1058" in md
    assert node_select(at).value == 0


@pytest.mark.parametrize("name", list(DATASETS))
def test_every_bundled_set_grows(name):
    at = run()
    at.selectbox(key="tr_data").set_value(name)
    at = run(at)
    assert not at.error
    assert tree_spec(at)


def test_mutation_sample_column_is_left_out_with_its_reason():
    at = run(data="mutation")
    feats = [m for m in at.multiselect if m.key and m.key.startswith("tr_features_")][0]
    assert "sample" not in feats.value
    assert "mutation_3" in feats.value
    frames = [d.value for d in at.dataframe]
    assert any(
        "reason" in f.columns and "distinct" in " ".join(map(str, f["reason"]))
        for f in frames
        if hasattr(f, "columns")
    )


def test_upload_good_csv_grows_and_switches_to_it():
    at = run()
    data = (BAD / "good" / "semicolon_latin1.csv").read_bytes()
    at = upload(at, "fr.csv", data)
    assert at.selectbox(key="tr_data").value == "upload"
    assert "Latin-1" in shown(texts(at)) and "semicolon" in texts(at)  # escaped for markdown
    assert not at.error


@pytest.mark.parametrize(
    "name",
    [
        "empty.csv",
        "whitespace_only.csv",
        "header_only.csv",
        "one_column.csv",
        "binary_png.csv",
        "binary_zip_xlsx.csv",
        "binary_nul.csv",
        "mixed_separators.csv",
        "ragged_rows.csv",
        "undecodable.csv",
    ],
)
def test_bad_upload_shows_a_message_and_keeps_the_previous_data(name):
    at = run()
    before = node_select(at).options
    at = upload(at, name, (BAD / name).read_bytes())
    assert len(at.error) == 1
    assert "Traceback" not in at.error[0].value
    assert at.selectbox(key="tr_data").value == "edible"
    assert node_select(at).options == before  # the tree is still there


def test_bad_upload_after_a_good_one_keeps_the_good_one():
    at = run()
    at = upload(at, "good.csv", (BAD / "good" / "comma_utf8.csv").read_bytes())
    at = upload(at, "bad.csv", (BAD / "ragged_rows.csv").read_bytes())
    assert "Ragged rows" in at.error[0].value
    assert at.selectbox(key="tr_data").value == "upload"
    assert tree_spec(at)


@pytest.mark.parametrize(
    "name, words",
    [
        ("constant_target.csv", "single value"),
        ("hundreds_of_classes.csv", "300 different values"),
    ],
)
def test_unusable_target_is_explained(name, words):
    at = run()
    at = upload(at, name, (BAD / name).read_bytes())
    assert any(words in e.value for e in at.error)


@pytest.mark.parametrize(
    "name, words",
    [
        ("all_missing_column.csv", "no value at all"),
        ("infinite_values.csv", "infinite"),
        ("duplicate_and_empty_names.csv", "appears 2 times"),
        ("long_names.csv", "very long name"),
    ],
)
def test_repairs_are_reported_as_warnings(name, words):
    at = run()
    at = upload(at, name, (BAD / name).read_bytes())
    assert any(words in w.value for w in at.warning)
    assert not at.error


def test_too_large_for_quick_growth_offers_a_sample(monkeypatch):
    import offcenter.data.csv_io as csv_io

    monkeypatch.setattr(csv_io, "QUICK_CELLS", 10)
    at = run(data="iris")
    assert any("will take a while" in w.value for w in at.warning)
    box = [c for c in at.checkbox if c.key and c.key.startswith("tr_sample_")][0]
    assert box.value and "1,000" not in box.label  # iris has 150 rows: the sample is all of it
    box.uncheck()
    at = run(at)
    assert tree_spec(at)


def test_script_like_names_never_become_markup():
    at = run()
    at = upload(at, "xss.csv", (BAD / "script_names.csv").read_bytes())
    assert not at.error
    markdown = [md.value for md in at.markdown] + [c.value for c in at.caption]
    assert any("onerror" in body for body in markdown)  # the user text is there...
    for body in markdown:
        # ...but every < and > the page writes in markdown is backslash-escaped
        assert re.search(r"(?<!\\)[<>]", body) is None, body
    for md in at.markdown:
        assert not md.proto.allow_html


def test_change_measure_and_grow_updates_the_url():
    at = run()
    at.selectbox(key="tr_setting").set_value("gini")
    at = run(at)
    assert any("settings changed" in i.value for i in at.info)
    at.button(key="tr_grow").click()
    at = run(at)
    assert not at.info or not any("settings changed" in i.value for i in at.info)
    assert at.query_params["setting"] == ["gini"] or at.query_params["setting"] == "gini"
    assert "Gini" in texts(at)


def test_url_settings_are_read():
    at = run(setting="misclassification", max_depth="1", data="iris")
    assert at.selectbox(key="tr_setting").value == "misclassification"
    assert at.slider(key="tr_max_depth").value == 1
    assert at.selectbox(key="tr_data").value == "iris"


def test_bad_url_values_are_fixed_with_a_warning():
    at = run(setting="nope", max_depth="99")
    assert at.selectbox(key="tr_setting").value == "shannon"
    assert sum("Link parameter fixed" in w.value for w in at.warning) == 2


def test_scores_and_parameters():
    at = run()
    at.selectbox(key="tr_setting").set_value("daroczy")
    at = run(at)
    at.slider(key="tr_beta").set_value(0.5)
    at.selectbox(key="tr_score").set_value("alpha")
    at = run(at)
    at.slider(key="tr_alpha").set_value(0.25)
    at.button(key="tr_grow").click()
    at = run(at)
    assert "Normalised score" in texts(at)
    at.selectbox(key="tr_setting").set_value("asymmetric")
    at = run(at)
    assert any("Asymmetric, θ = prior (0.56, 0.44)" in c.value for c in at.caption)
    at.selectbox(key="tr_setting").set_value("asymmetric_consistent")
    at = run(at)
    assert any("Asymmetric, θ = prior (0.56, 0.44), consistent" in c.value for c in at.caption)
    at.button(key="tr_grow").click()
    at = run(at)
    assert not at.error


@pytest.mark.parametrize("data", ["pima", "iris", "german_credit"])
def test_hellinger_criterion_and_dkm_grow_and_explain(data):
    """HDDT (a split criterion): theta and the score are disabled, the tree grows, the worked
    calculation is the Hellinger distance's, node selection and the tables work. DKM too."""
    at = run(data=data, score="relative")
    at.selectbox(key="tr_setting").set_value("hellinger")
    at = run(at)
    assert at.selectbox(key="tr_score").disabled
    at.button(key="tr_grow").click()
    at = run(at, cands_open=True)
    assert not at.error
    text = texts(at)
    heads = [str(h.value) for h in at.subheader]
    assert (
        "Tree grown with Hellinger distance (HDDT); score: the Hellinger distance; "
        "leaf rule: majority" in heads
    )
    assert "is a split criterion, not an impurity decrease" in text
    assert "against" in text and ("d_{H}" in text or "d_H = \\max" in text)
    assert at.query_params["setting"] in ("hellinger", ["hellinger"])
    assert "hold the Hellinger distance of the split" in text
    assert "Its node impurity (pruning costs, importances) is DKM" in text
    node_select(at).set_value(1)
    at = run(at)
    assert not at.error
    at.selectbox(key="tr_setting").set_value("dkm")
    at = run(at)
    assert not at.selectbox(key="tr_score").disabled
    at.button(key="tr_grow").click()
    at = run(at)
    assert not at.error and "DKM" in texts(at)


def test_select_node_force_split_make_leaf_undo():
    at = run(data="mutation")
    sel = node_select(at)
    n_before = len(sel.options)
    # select a child of the root
    sel.set_value(1)
    at = run(at)
    assert node_select(at).value == 1
    assert "mutation" in texts(at)
    # force the root to split on mutation 2 instead
    node_select(at).set_value(0)
    at = run(at)
    at.selectbox(key="tr_force_feature").set_value("mutation_2")
    at = run(at)
    at.button(key="tr_force").click()
    at = run(at)
    assert "split node 0 on mutation_2" in texts(at)
    assert any("mutation_2" in str(o) for o in [node_select(at).format_func(0)])
    # make the root a leaf, then undo twice
    at.button(key="tr_leaf").click()
    at = run(at)
    assert len(node_select(at).options) == 1
    at.button(key="tr_undo").click()
    at = run(at)
    at.button(key="tr_undo").click()
    at = run(at)
    assert len(node_select(at).options) == n_before
    assert at.button(key="tr_undo").disabled


def test_candidate_table_is_drawn_only_when_its_expander_is_open():
    at = run(data="iris")
    frames = [d.value for d in at.dataframe]
    assert not [f for f in frames if hasattr(f, "columns") and "best under" in f.columns]
    labels = [b.label for b in at.get("download_button")]
    assert "Download the candidate table (CSV, full precision)" not in labels
    assert [e.label for e in at.expander if e.label.startswith("Every feature at the tree's")]
    at = run(at, cands_open=True)
    frames = [d.value for d in at.dataframe]
    assert [f for f in frames if hasattr(f, "columns") and "best under" in f.columns]


def test_candidate_table_and_disagreement():
    at = run(data="iris", cands_open=True)
    frames = [d.value for d in at.dataframe]
    cands = [f for f in frames if hasattr(f, "columns") and "best under" in f.columns]
    assert cands, "no candidate table"
    table = cands[0]
    assert set(table["feature"]) == {"sepal length", "sepal width", "petal length", "petal width"}
    assert "measures disagree" in table.columns
    assert any(c.startswith("gain · ") for c in table.columns)


def test_pure_node_says_no_measure_prefers_a_split():
    at = run(data="mutation")
    leaf = [i for i in node_select(at).options if "leaf" in str(i)]
    node_select(at).select_index(node_select(at).options.index(leaf[0]))
    at = run(at, cands_open=True)
    assert any("No measure prefers any split" in i.value for i in at.info)


def test_trace_a_row_and_rows_at_node():
    at = run(data="edible")
    assert not [n for n in at.number_input if n.key == "tr_trace_row"]  # closed: not drawn
    at = run(at, trace_open=True)
    at.number_input(key="tr_trace_row").set_value(3)
    at = run(at)
    assert any("Path: node 0" in t.value for t in at.text)
    spec = tree_spec(at)
    path = [t for t in spec["data"] if t.get("name") == "traced path"][0]
    assert len([v for v in path["x"] if v is not None]) >= 4  # at least one edge highlighted
    # closed: no path on the tree; opened again: the row number and its path are back
    at.session_state["tr_trace_open"] = False
    at = run(at)
    spec = tree_spec(at)
    path = [t for t in spec["data"] if t.get("name") == "traced path"][0]
    assert not [v for v in path["x"] if v is not None]
    at = run(at, trace_open=True)
    assert at.number_input(key="tr_trace_row").value == 3
    assert any("Path: node 0" in t.value for t in at.text)


def test_binary_categorical_splits():
    at = run(data="tic_tac_toe")
    at.radio(key="tr_categorical").set_value("binary")
    at.button(key="tr_grow").click()
    at = run(at, cands_open=True)
    assert not at.error
    frames = [d.value for d in at.dataframe]
    cands = [f for f in frames if hasattr(f, "columns") and "best under" in f.columns][0]
    assert all(len(str(c).split("|")) == 2 for c in cands["children counts"])


def test_the_rules_are_drawn_when_their_expander_is_open():
    at = run(data="pima", max_depth="2")
    assert "The rules" in [e.label for e in at.expander]
    assert not [c for c in at.code if c.value.startswith("IF ")]  # closed: not sent
    at.session_state["tr_rules_open"] = True
    at = run(at)
    clf = at.session_state["tr_session"].current
    assert [c.value for c in at.code if c.value.startswith("IF ")] == [clf.to_text()]


def test_exports_are_offered():
    at = run(cands_open=True)
    labels = [b.label for b in at.get("download_button")]
    assert "Tree as JSON" in labels and "Tree as text rules" in labels
    assert "Download the candidate table (CSV, full precision)" in labels
    assert "Download these rows (CSV)" not in labels  # its expander is closed: not drawn
    assert [e.label for e in at.expander if e.label.startswith("Rows reaching this node (16")]
    at.session_state["tr_rows_open"] = True
    at = run(at)
    labels = [b.label for b in at.get("download_button")]
    assert "Download these rows (CSV)" in labels
    rows = [d.value for d in at.dataframe if "edible (target)" in d.value.columns]
    assert len(rows) == 1 and len(rows[0]) == 16


def test_tree_survives_reruns():
    at = run(data="mutation")
    at.selectbox(key="tr_force_feature").set_value("mutation_1")
    at = run(at)
    at.button(key="tr_force").click()
    at = run(at)
    at = run(at)
    at = run(at)
    assert "split node 0 on mutation_1" in texts(at)


def test_tree_edits_and_choices_survive_a_page_switch():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("pages/3_Tree.py")
    at = run(at)
    at.selectbox(key="tr_data").set_value("mutation")
    at = run(at)
    target = [s for s in at.selectbox if s.key and s.key.startswith("tr_target_")][0]
    feats = [m for m in at.multiselect if m.key and m.key.startswith("tr_features_")][0]
    feats.set_value(["mutation_1", "mutation_2", "mutation_3"])
    at = run(at)
    at.selectbox(key="tr_setting").set_value("gini")
    at = run(at)
    at.button(key="tr_grow").click()
    at = run(at)
    at.selectbox(key="tr_force_feature").set_value("mutation_1")
    at = run(at)
    at.button(key="tr_force").click()
    at = run(at)
    assert "split node 0 on mutation_1" in texts(at)
    at.switch_page("pages/1_Two_classes.py")
    at = run(at)
    at.switch_page("pages/3_Tree.py")
    at = run(at)
    assert at.selectbox(key="tr_data").value == "mutation"
    assert at.selectbox(key="tr_setting").value == "gini"
    feats = [m for m in at.multiselect if m.key and m.key.startswith("tr_features_")][0]
    assert feats.value == ["mutation_1", "mutation_2", "mutation_3"]
    assert target.value == "cancer"
    assert "split node 0 on mutation_1" in texts(at)
    assert not any("settings changed" in i.value for i in at.info)


def test_file_over_the_upload_limit(monkeypatch):
    import offcenter.data.csv_io as csv_io

    monkeypatch.setattr(csv_io, "MAX_UPLOAD_BYTES", 100)
    at = run()
    at = upload(at, "big.csv", b"a,b\n" + b"1,x\n" * 100)
    assert "too large" in at.error[0].value
    assert at.selectbox(key="tr_data").value == "edible"


def test_type_override_numeric_code_as_categorical():
    at = run(data="mutation")
    ascat = [m for m in at.multiselect if m.key and m.key.startswith("tr_ascat_")][0]
    ascat.set_value(["mutation_3"])
    at.session_state["tr_preview_open"] = True  # the types table is in the preview
    at = run(at, cands_open=True)
    frames = [d.value for d in at.dataframe]
    types = [f for f in frames if hasattr(f, "columns") and "left out because" in f.columns][0]
    kinds = dict(zip(types["column"], types["type"]))
    assert kinds["mutation_3"] == "categorical" and kinds["mutation_1"] == "numeric"
    cands = [f for f in frames if hasattr(f, "columns") and "best under" in f.columns][0]
    row = cands[cands["feature"] == "mutation_3"].iloc[0]
    assert "= 0" in row["split"] or "= 1" in row["split"]  # a categorical split, not "<= 0.5"


def test_big_tree_is_collapsed_to_a_depth_the_user_can_widen():
    at = run(data="german_credit", max_depth="0")
    shown = [s for s in at.slider if s.key and s.key.startswith("tr_shown_")]
    assert shown, "no depth control for a big tree"
    spec = tree_spec(at)
    n_drawn = len([t for t in spec["data"] if t.get("name") == "nodes"][0]["x"])
    shown[0].set_value(shown[0].value + 1)
    at = run(at)
    spec = tree_spec(at)
    assert len([t for t in spec["data"] if t.get("name") == "nodes"][0]["x"]) > n_drawn


def test_edits_survive_reruns_with_a_bar_in_a_column_name():
    """The history used to be keyed by strings joined with "|": a column name holding one made
    the page regrow the tree, dropping the edits, at every rerun."""
    rows = "".join(f"{i % 3},{(i * 7) % 5},{'yes' if i % 4 else 'no'}\n" for i in range(40))
    at = upload(run(), "bar.csv", ("a|b,c,label\n" + rows).encode())
    at.selectbox(key="tr_force_feature").set_value("c")
    at = run(at)
    at.button(key="tr_force").click()
    at = run(at)
    at = run(at)
    assert "split node 0 on c" in texts(at)
    assert not at.button(key="tr_undo").disabled


def _trace_inputs(at):
    nums = {n.label: n for n in at.number_input if n.key and n.key.startswith("tr_tv_")}
    sels = {s.label: s for s in at.selectbox if s.key and s.key.startswith("tr_tv_")}
    return nums, sels


def test_trace_a_row_typed_in_by_its_values():
    at = run(data="iris", trace_open=True)
    nums, sels = _trace_inputs(at)
    assert set(nums) == {"sepal length", "sepal width", "petal length", "petal width"}
    assert nums["petal length"].value == 4.35  # the column's median
    nums["petal length"].set_value(1.2)
    nums["petal width"].set_value(0.2)
    at.button(key="FormSubmitter:tr_trace_form-Trace this row").click()
    at = run(at)
    path_text = [t.value for t in at.text if t.value.startswith("Path: node 0")]
    assert path_text and "predicted setosa" in path_text[0]
    steps = [d.value for d in at.dataframe if "branch" in getattr(d.value, "columns", [])]
    assert steps and steps[0]["test"].iloc[-1] == "leaf"
    spec = tree_spec(at)
    path = [t for t in spec["data"] if t.get("name") == "traced path"][0]
    assert len([v for v in path["x"] if v is not None]) >= 2
    at = run(at)  # the trace stays after a rerun
    assert any(t.value.startswith("Path: node 0") for t in at.text)
    at.session_state["tr_trace_open"] = False  # closed, then opened: the values typed are back
    at = run(at)
    assert not _trace_inputs(at)[0]
    at = run(at, trace_open=True)
    nums, _ = _trace_inputs(at)
    assert (nums["petal length"].value, nums["petal width"].value) == (1.2, 0.2)
    assert any(t.value.startswith("Path: node 0") for t in at.text)


def test_trace_values_categorical_and_missing():
    at = run(data="edible", trace_open=True)
    nums, sels = _trace_inputs(at)
    assert not nums and sels
    first = next(iter(sels.values()))
    assert "(missing)" in first.options
    first.set_value("(missing)")
    at.button(key="FormSubmitter:tr_trace_form-Trace this row").click()
    at = run(at)
    assert any(t.value.startswith("Path: node 0") for t in at.text)
    assert not at.error
