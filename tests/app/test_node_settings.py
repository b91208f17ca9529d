"""AppTest of the Tree page's comparison of measure settings (offcenter.app.node_settings):
the setting chosen as what it is, the imbalance suggestion, each setting's own optimum and the
verdict, the chosen split under every setting, the threshold plot, the leaf rule and the
training report."""

import base64
import json
from pathlib import Path

import numpy as np
import pytest

from offcenter.viz.comparison import NO_WINNER
from tests.conftest import run_app

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "3_Tree.py")


def run(at=None, *, cands_open=False, **query):
    """Run the page (a new one with ``query`` as its link); ``cands_open`` opens the expander
    of every feature at the tree's thresholds (drawn only when open)."""
    state = {"tr_cand_open": True} if cands_open else None
    return run_app(at, page=PAGE, query=query, state=state)


def plain(text) -> str:
    """Markdown text without its backslash escapes."""
    return str(text).replace("\\", "")


def texts(at, kinds=("markdown", "caption", "error", "warning", "info", "success", "subheader")):
    out = []
    for kind in kinds:
        out += [plain(e.value) for e in getattr(at, kind)]
    return "\n".join(out)


def frame(at, *columns):
    """The first dataframe element whose columns start with ``columns``."""
    for d in at.dataframe:
        v = d.value
        if hasattr(v, "columns") and list(v.columns)[: len(columns)] == list(columns):
            return d
    raise AssertionError(f"no table with columns {columns}")


def node_select(at):
    return [s for s in at.selectbox if s.key and s.key.startswith("tr_node_select")][0]


def test_default_edible_is_plain_shannon_with_the_documents_gain():
    at = run()
    assert at.selectbox(key="tr_setting").value == "shannon"
    caps = [plain(c.value) for c in at.caption]
    assert "Exact setting: Shannon" in caps
    heads = [plain(h.value) for h in at.subheader]
    assert "Tree grown with Shannon; score: gain; leaf rule: majority" in heads
    # the worked calculation: its label above it is the setting used, its gain the slides'
    i = caps.index("Measure: Shannon")
    assert i >= 0
    md = "\n".join(m.value for m in at.markdown)
    assert "0.105843" in md and "Shannon of the parent node" in md
    assert "0.1093" not in md  # the off-centered gain the old default showed
    # balanced enough: no suggestion to off-center
    assert not any("imbalanced" in i.value for i in at.info)


def test_mutation_and_iris_open_on_settings_that_give_their_documents_numbers():
    at = run(data="mutation")
    md = "\n".join(m.value for m in at.markdown)
    assert "0.521641" in md  # Gain(mutation 3) = 0.522 in the article
    at = run(data="iris")
    md = "\n".join(m.value for m in at.markdown)
    assert "0.918296" in md  # the blog's first split, gain 0.918


def test_imbalanced_prior_suggests_off_centering_and_the_button_applies_it():
    at = run(data="pima", max_depth="2")
    assert at.selectbox(key="tr_setting").value == "shannon"  # not switched on silently
    assert any("imbalanced" in i.value and "not switched on" in i.value for i in at.info)
    at.button(key="tr_suggest_oc").click()
    at = run(at)
    assert at.selectbox(key="tr_setting").value == "oc_shannon"
    assert "Exact setting: off-centered Shannon, θ = prior (0.65, 0.35)" in texts(at, ("caption",))
    at.button(key="tr_grow").click()
    at = run(at)
    assert (
        "Tree grown with off-centered Shannon, θ = prior (0.65, 0.35); score: gain; "
        "leaf rule: majority" in texts(at, ("subheader",))
    )
    assert not any("imbalanced" in i.value for i in at.info)  # nothing left to suggest
    assert at.query_params["setting"] in (["oc_shannon"], "oc_shannon")


def test_pima_root_verdict_is_a_disagreement_with_both_thresholds():
    at = run(data="pima", setting="oc_shannon", max_depth="2")
    warn = [plain(w.value) for w in at.warning if "disagree" in w.value]
    assert warn, texts(at)
    assert "glucose <= 111.5" in warn[0] and "glucose <= 127.5" in warn[0]
    best = frame(at, "setting", "gain", "relative gain", "node impurity", "best split")
    v = best.value
    # every setting is listed, and for two-class data DKM and the Hellinger distance too
    assert len(v) == 11
    by = dict(zip(v["setting"], v["best split"]))
    assert by["Shannon"] == "glucose <= 127.5"
    assert by["off-centered Shannon, θ = prior (0.65, 0.35)"] == "glucose <= 111.5"
    assert by["DKM"].startswith("glucose")
    assert "Hellinger distance (HDDT) (criterion, not an impurity)" in by
    # gains with their scale: relative gain = gain / the node's impurity under that measure
    rows = v.set_index("setting")
    sh = rows.loc["Shannon"]
    assert sh["relative gain"] == pytest.approx(sh["gain"] / sh["node impurity"], rel=1e-12)
    assert sh["node impurity"] == pytest.approx(0.933134, abs=1e-6)
    assert np.isnan(
        rows.loc["Hellinger distance (HDDT) (criterion, not an impurity)"]["relative gain"]
    )
    # the why: the children's class counts and shares of each setting's own best split
    counts = [[float(c) for c in part.strip(" []").split(",")] for part in
              sh["children (class counts)"].split("|")]  # fmt: skip
    assert len(counts) == 2 and sum(map(sum, counts)) == 768
    assert sh["children (class shares)"].count("%") == 4
    assert "relative gain" in texts(at, ("caption",))
    # numbers are shown with 6 significant digits of the exact value
    assert '"format": "%.6g"' in best.proto.columns
    # the second view: the tree's split scored under every setting
    chosen = frame(at, "gain", "rank", "own best gain", "gap").value.set_index("setting")
    assert chosen.loc["Shannon", "own best split"] == "glucose <= 127.5"
    assert chosen.loc["Shannon", "gap"] > 0
    assert chosen.loc["off-centered Shannon, θ = prior (0.65, 0.35)", "gap"] == 0


def test_misclassification_without_a_winner_is_shown_as_such():
    at = run()  # edible, node 1: every misclassification gain is 0
    node_select(at).set_value(1)
    at = run(at)
    best = frame(at, "setting", "gain", "relative gain").value.set_index("setting")
    assert best.loc["Misclassification", "best split"] == NO_WINNER
    at.selectbox(key="tr_own_setting").set_value("misclassification")
    at = run(at)
    per = frame(at, "rank", "gain").value
    assert set(per["rank"]) == {NO_WINNER} and set(per["setting"]) == {"Misclassification"}
    chosen = frame(at, "gain", "rank", "own best gain", "gap").value.set_index("setting")
    assert chosen.loc["Misclassification", "rank"] == NO_WINNER


def _values(v):
    """A Plotly array from the figure's JSON (a list, or base64 binary data)."""
    if isinstance(v, dict):
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"]).tolist()
    return list(v)


def _threshold_chart(at):
    charts = [c for c in at.get("plotly_chart") if c.proto.id.endswith("tr_thr_chart")]
    assert len(charts) == 1
    return json.loads(charts[0].proto.spec)


def test_threshold_plot_raw_by_default_and_flat_curve_left_at_zero_with_a_note():
    at = run(data="iris")
    node_select(at).set_value(4)  # petal length at node 4: misclassification gains all 0
    at = run(at)
    assert not at.checkbox(key="tr_thr_norm").value
    at.multiselect(key="tr_thr_keys_shannon").set_value(["shannon", "misclassification"])
    at = run(at)
    spec = _threshold_chart(at)
    assert spec["layout"]["yaxis"]["title"]["text"] == "gain"
    assert "Left flat at 0" not in texts(at, ("caption",))
    at.checkbox(key="tr_thr_norm").check()
    at = run(at)
    spec = _threshold_chart(at)
    assert spec["layout"]["yaxis"]["title"]["text"] == "gain / its maximum"
    ys = {t["name"]: _values(t["y"]) for t in spec["data"]}
    assert max(ys["Shannon"]) == 1.0
    assert all(v == 0 for v in ys["Misclassification"])
    caps = texts(at, ("caption",))
    assert "Left flat at 0" in caps
    note = [c for c in caps.split("\n") if "Left flat at 0" in c][0]
    assert "Misclassification" in note and "Shannon" not in note


def test_leaf_rule_title_confusion_matrix_and_no_minority_note():
    at = run(data="german_credit", max_depth="1")
    assert any("No leaf predicts the minority class" in w.value for w in at.warning)
    cm = frame(at, "predicted: 0", "predicted: 1").value
    assert int(cm.to_numpy().sum()) == 1000 and (cm["predicted: 1"] == 0).all()
    metrics = dict(frame(at, "metric", "value").value.to_numpy())
    assert metrics["recall of 1 (minority)"] == "0.0%"
    assert metrics["precision of 1"] == "0.0%" and metrics["F1 of 1"] == "0.0%"
    assert metrics["balanced accuracy"] == "50.0%" and metrics["accuracy"] == "70.0%"
    at.radio(key="tr_leaf_rule").set_value("prior")
    at.button(key="tr_grow").click()
    at = run(at)
    assert "leaf rule: prior-aware" in texts(at, ("subheader",))
    assert not any("No leaf predicts the minority class" in w.value for w in at.warning)
    metrics = dict(frame(at, "metric", "value").value.to_numpy())
    assert metrics["recall of 1 (minority)"] != "0.0%" and metrics["precision of 1"] != "0.0%"
    assert at.query_params["leaf_rule"] in (["prior"], "prior")


def test_parameter_setting_label_follows_the_slider():
    at = run(setting="oc_daroczy")
    at.slider(key="tr_beta").set_value(0.5)
    at = run(at)
    assert "Exact setting: off-centered Daroczy (β = 0.5), θ = prior (0.56, 0.44)" in texts(
        at, ("caption",)
    )
    assert at.selectbox(key="tr_setting").value == "oc_daroczy"


def test_candidate_table_settings_choice_and_full_precision_download():
    at = run(data="pima", max_depth="2", cands_open=True)
    cand_keys = [m for m in at.multiselect if m.key and m.key.startswith("tr_cand_keys_")][0]
    cand_keys.set_value(["shannon", "misclassification"])
    at = run(at)
    table = frame(at, "feature", "chosen").value
    gains = [c for c in table.columns if c.startswith("gain · ")]
    assert gains == ["gain · Shannon", "gain · Misclassification"]
    assert list(table.columns)[2] == "gain · Shannon"  # the numbers before the text columns
    assert list(table.columns)[-2:] == ["split", "children counts"]
    labels = [b.label for b in at.get("download_button")]
    assert "Download every setting's own splits (CSV, full precision)" in labels


def test_an_earlier_link_with_measure_and_theta_opens_on_its_setting():
    at = run(data="iris", measure="gini", theta="none", max_depth="1")
    assert at.selectbox(key="tr_setting").value == "gini"
    at = run(measure="gini", max_depth="1")  # theta was the prior by default
    assert at.selectbox(key="tr_setting").value == "oc_gini"
    assert "measure" not in at.query_params


def test_the_worked_calculation_of_any_setting_is_drawn_when_opened():
    at = run(data="pima")
    assert not [s for s in at.selectbox if s.key and s.key.startswith("tr_calc_setting_")]
    at.session_state["tr_calc_open"] = True  # the expander opened: drawn and computed
    at = run(at)
    setting = next(s for s in at.selectbox if s.key and s.key.startswith("tr_calc_setting_"))
    assert setting.value == "shannon"  # the tree's own setting first
    feature = next(s for s in at.selectbox if s.key and s.key.startswith("tr_calc_feature_"))
    assert feature.value == "glucose"  # its best feature at the root
    caps = [plain(c.value) for c in at.caption]
    assert caps.count("Measure: Shannon") >= 2  # this calculation and the node's own
    setting.set_value("gini")
    at = run(at)
    assert "Measure: Gini" in [plain(c.value) for c in at.caption]
    feature = next(s for s in at.selectbox if s.key and s.key.startswith("tr_calc_feature_"))
    feature.set_value("bmi")
    at = run(at)
    md = "\n".join(m.value for m in at.markdown)
    assert "bmi" in md and "Gini" in md
    assert not at.exception


def test_the_node_impurity_table_is_each_node_s_under_every_setting():
    """The "Impurity under each measure" table (cached per node, shared with the node's other
    tables' key) shows the selected node's impurity under every compared setting, labelled with
    theta resolved on the prior; another node shows its own."""
    from offcenter.app.node_settings import node_comparison_settings

    at = run(data="pima", setting="oc_shannon", max_depth="2")
    clf = at.session_state["tr_session"].current
    settings = node_comparison_settings(len(clf.classes_))
    for node in (0, 2):
        if node:  # a link to another node of the same tree
            at = run(data="pima", setting="oc_shannon", max_depth="2", node=str(node))
        shown = frame(at, "impurity", "measure").value
        expected = clf.node_impurities(node, settings)
        assert shown["impurity"].tolist() == expected.tolist()
        assert "off-centered Shannon, θ = prior (0.65, 0.35)" in shown["measure"].tolist()
    # node 2 is not the root: the two tables differ
    root = clf.node_impurities(0, settings).tolist()
    assert shown["impurity"].tolist() != root
