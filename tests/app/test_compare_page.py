"""AppTest of pages/4_Compare_measures.py: data in, run with progress, cache, cancel, resume."""

from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from offcenter.evaluation.runner import CrossValidation
from tests.conftest import run_app

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "4_Compare_measures.py")
BAD = ROOT / "tests" / "data" / "bad_csv"


def result_charts(at):
    """The result charts of a run (the bundled KEEL study's charts, keys ks_*, are always shown)."""
    return [
        c for c in at.get("plotly_chart") if not (getattr(c, "key", None) or "").startswith("ks_")
    ]


def run(at=None, **query):
    return run_app(at, page=PAGE, query=query, timeout=300)


def texts(at):
    out = []
    for kind in ("markdown", "caption", "error", "warning", "info", "success", "code", "text"):
        out += [str(e.value) for e in getattr(at, kind)]
    return "\n".join(out)


def small(at, data="glass", settings=("shannon", "oc_shannon"), folds=2):
    """A quick protocol: 2 settings, 2 folds, 1 repeat, depth 2."""
    at.selectbox(key="cm_data").set_value(data)
    at.multiselect(key="cm_settings").set_value(list(settings))
    at.number_input(key="cm_folds").set_value(folds)
    at.number_input(key="cm_repeats").set_value(1)
    at.number_input(key="cm_max_depth").set_value(2)
    return run(at)


@pytest.fixture(autouse=True)
def fresh_store():
    """Each test starts with an empty result store (and every other ``st.cache_resource``).
    ``st.cache_data`` is kept: it holds what files give (the bundled study's 10^5 rows, a data
    set read), the same for every test, and a second a test to read again."""
    st.cache_resource.clear()
    yield


@pytest.fixture()
def steps(monkeypatch):
    """Count the folds computed (CrossValidation.run_step calls) across the page's runs."""
    calls = {"n": 0, "stop_at": None}
    original = CrossValidation.run_step

    def counting(self, *args, **kwargs):
        calls["n"] += 1
        if calls["stop_at"] is not None and calls["n"] >= calls["stop_at"]:
            calls["stop_at"] = None
            st.stop()  # what a click on Cancel (or any widget) does to a running script
        return original(self, *args, **kwargs)

    monkeypatch.setattr(CrossValidation, "run_step", counting)
    return calls


def test_opens_with_defaults_and_asks_to_run():
    at = run()
    assert at.selectbox(key="cm_data").value == "pima"
    assert "shannon" in at.multiselect(key="cm_settings").value
    assert "Press Run" in texts(at)
    assert len(at.get("progress")) == 0


def test_run_shows_progress_tables_plots_downloads(steps):
    at = small(run())
    at.button(key="cm_run").click()
    at = run(at)
    assert steps["n"] == 2
    bars = at.get("progress")
    assert len(bars) == 1
    assert bars[0].proto.value == 100 and "Done: 4/4 fits" in bars[0].proto.text
    t = texts(at)
    assert "2-fold stratified CV x 1 repeat(s)" in t and "leaf rule: majority" in t
    assert len(at.dataframe) >= 3  # classes, summary, paired
    summary = [d.value for d in at.dataframe if "balanced accuracy" in d.value.columns][0]
    assert list(summary["setting"]) == ["Shannon", "off-centered Shannon, θ = prior"]
    assert len(result_charts(at)) == 3
    assert len(at.get("download_button")) == 3


@pytest.mark.slow
def test_results_are_cached_across_reruns_page_switches_and_sessions(steps):
    at = small(run())
    at.button(key="cm_run").click()
    at = run(at)
    assert steps["n"] == 2
    # another metric: a rerun, no recomputation
    at.selectbox(key="cm_metric").set_value("minority_recall")
    at = run(at)
    # another data set then back: the result is shown again without pressing Run
    at.selectbox(key="cm_data").set_value("ecoli")
    at = run(at)
    assert "Press Run" in texts(at)
    at.selectbox(key="cm_data").set_value("glass")
    at = run(at)
    assert len(result_charts(at)) == 3
    assert "Results from the cache" in texts(at)
    # a new session with the same settings: shown at once, Run recomputes nothing
    other = small(run())
    assert len(result_charts(other)) == 3
    other.button(key="cm_run").click()
    other = run(other)
    assert steps["n"] == 2


def test_cancel_keeps_the_finished_folds(steps):
    at = small(run(), folds=3)
    steps["stop_at"] = 2  # the run is interrupted while computing the 2nd fold
    at.button(key="cm_run").click()
    at = run(at)
    assert steps["n"] == 2
    at.button(key="cm_cancel").click()
    at = run(at)
    assert steps["n"] == 2  # nothing more was computed
    t = texts(at)
    assert "Cancelled after 1 of 3 folds" in t and "partial" in t
    assert "CANCELLED" in t
    summary = [d.value for d in at.dataframe if "balanced accuracy" in d.value.columns][0]
    assert summary["folds"].tolist() == [1, 1]
    # Run again starts afresh and completes
    at.button(key="cm_run").click()
    at = run(at)
    assert steps["n"] == 2 + 3
    assert "Cancelled" not in texts(at)


def test_interrupted_run_resumes_where_it_stopped(steps):
    at = small(run(), folds=3)
    steps["stop_at"] = 2
    at.button(key="cm_run").click()
    at = run(at)
    # a rerun that is not a Cancel (e.g. coming back to the page) resumes the run
    at = run(at)
    assert steps["n"] == 2 + 2  # the interrupted 2nd fold again, then the 3rd
    bars = at.get("progress")
    assert bars and "Done: 6/6 fits" in bars[0].proto.text


def test_changed_settings_pause_the_run(steps):
    at = small(run(), folds=3)
    steps["stop_at"] = 2
    at.button(key="cm_run").click()
    at = run(at)
    at.number_input(key="cm_seed").set_value(7)
    at = run(at)
    assert "paused at 1/3 folds" in texts(at)
    at.number_input(key="cm_seed").set_value(0)
    at = run(at)
    assert steps["n"] == 4 and len(result_charts(at)) == 3


def test_cancel_without_a_run_does_nothing():
    at = run()
    at.button(key="cm_cancel").click()
    at = run(at)
    assert "Press Run" in texts(at)


def test_forest_and_prior_leaf_rule():
    at = small(run())
    at.radio(key="cm_model").set_value("forest")
    at = run(at)
    at.slider(key="cm_trees").set_value(3)
    at.radio(key="cm_leaf_rule").set_value("prior")
    at.button(key="cm_run").click()
    at = run(at)
    t = texts(at)
    assert "bagged forests of 3 trees" in t and "leaf rule: prior" in t
    assert at.query_params["model"] == ["forest"] or at.query_params["model"] == "forest"


def test_no_setting_disables_run():
    at = run()
    at.multiselect(key="cm_settings").set_value([])
    at = run(at)
    assert at.button(key="cm_run").disabled
    assert "at least one measure" in texts(at)


def test_too_many_folds_for_the_data_is_explained():
    at = small(run(), data="mutation", folds=5)
    at.button(key="cm_run").click()
    at = run(at)
    assert "fewer than the 5 folds" in texts(at)


def test_url_settings_are_read_and_bad_values_fixed():
    at = run(settings="gini,oc_gini", folds="3", leaf_rule="prior", data="ecoli")
    assert at.multiselect(key="cm_settings").value == ["gini", "oc_gini"]
    assert at.number_input(key="cm_folds").value == 3
    assert at.radio(key="cm_leaf_rule").value == "prior"
    at = run(folds="99", settings="bogus,gini")
    assert at.number_input(key="cm_folds").value == 10
    assert "Link parameter fixed" in texts(at)


@pytest.mark.slow
def test_upload_good_and_bad(steps):
    at = run()
    data = (ROOT / "offcenter" / "data" / "bundled" / "glass_binary.csv").read_bytes()
    at.file_uploader(key="cm_file").set_value(("my <b>glass</b>.csv", data, "text/csv"))
    at = run(at)
    assert at.selectbox(key="cm_data").value == "upload"
    at = small(at, data="upload")
    at.button(key="cm_run").click()
    at = run(at)
    assert len(result_charts(at)) == 3
    # the file name is shown as text only, never as markup
    assert not any("<b>" in str(m.value) for m in at.markdown)
    for name in ("empty.csv", "binary_png.csv"):
        # a refused file leaves the uploader: a new, empty one (key cm_file_<k>) takes its place
        uploader = [u for u in at.get("file_uploader") if u.key.startswith("cm_file")][0]
        uploader.set_value((name, (BAD / name).read_bytes(), "text/csv"))
        at = run(at)
        assert at.error, name
        assert at.selectbox(key="cm_data").value == "upload"  # the good upload is kept


def test_choices_and_results_survive_a_page_switch(steps):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.run()
    at.switch_page("pages/4_Compare_measures.py")
    at = small(run(at), data="mutation", settings=("shannon", "gini"), folds=2)
    target = [s for s in at.selectbox if s.key and s.key.startswith("cm_target_")][0]
    target.set_value("mutation_4")  # a 0/1 column with 2 and 5 examples: 2 folds fit
    at = run(at)
    at.button(key="cm_run").click()
    at = run(at)
    assert steps["n"] == 2 and len(result_charts(at)) == 3
    at.switch_page("pages/1_Two_classes.py")
    at = run(at)
    at.switch_page("pages/4_Compare_measures.py")
    at = run(at)
    assert at.selectbox(key="cm_data").value == "mutation"
    assert at.multiselect(key="cm_settings").value == ["shannon", "gini"]
    target = [s for s in at.selectbox if s.key and s.key.startswith("cm_target_")][0]
    assert target.value == "mutation_4"
    assert len(result_charts(at)) == 3
    assert steps["n"] == 2  # shown again, not recomputed
    assert "Results from the cache" in texts(at)


def test_without_shannon_the_first_setting_is_the_reference():
    at = small(run(), settings=("gini", "oc_gini"))
    at.button(key="cm_run").click()
    at = run(at)
    assert any(h.value == "Paired comparison with Gini, fold by fold" for h in at.subheader)
    paired = [d.value for d in at.dataframe if "Holm-adjusted p" in d.value.columns][0]
    assert set(paired["setting"]) == {"off-centered Gini, θ = prior"}


def test_own_run_is_worded_by_the_study_rules(steps):
    """The user's run: the paired table carries the CI and the Bayesian test, and every
    (setting, metric) shown gets one sentence worded by offcenter.evaluation.wording."""
    at = small(run(), settings=("shannon", "oc_shannon", "gini_balanced"))
    at.button(key="cm_run").click()
    at = run(at)
    paired = next(d.value for d in at.dataframe if "Holm-adjusted p" in d.value.columns)
    assert {"95 % CI", "P(better / equiv. / worse)"} <= set(paired.columns)
    md = [str(m.value) for m in at.markdown]
    assert "**In plain words** (the study's wording rules):" in md
    start = md.index("**In plain words** (the study's wording rules):")
    sentences = [m[2:] for m in md[start + 1 :] if m.startswith("- ")]
    shown = at.multiselect(key="cm_paired_metrics").value
    assert len(sentences) == 2 * len(shown)
    for s in sentences:
        assert "over the folds; corrected t, Holm p" in s
        # better/worse only with a Holm p below 5 %
        if ": better than" in s or ": worse than" in s:
            p = s.rsplit("Holm p", 1)[1].rstrip(").").strip()
            assert p == "< 0.001" or float(p.removeprefix("= ")) < 0.05


def test_opened_from_the_tree_page_it_takes_its_leaf_rule_and_names_files_by_data(steps):
    """From the Tree page (prior-aware leaf rule), Compare opens with that leaf rule; its
    downloads are named by the data set, the settings compared and the model."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.run()
    at.switch_page("pages/3_Tree.py")
    at.run()
    at.radio(key="tr_leaf_rule").set_value("prior")
    at.run()
    assert at.radio(key="tr_leaf_rule").value == "prior"
    at.switch_page("pages/4_Compare_measures.py")
    at = run(at)
    assert at.radio(key="cm_leaf_rule").value == "prior"
    at = small(at)
    at.button(key="cm_run").click()
    at = run(at)
    # the files (downloads and the charts' PNGs) are named by the data set, the settings and
    # the model (compare_page.download_stem; AppTest shows the charts' names only)
    configs = " ".join(str(c.proto.config) for c in result_charts(at))
    assert configs.count("compare_glass_shannon_oc_shannon_tree_") == 3, configs
    # a link's own leaf rule rules
    linked = run(leaf_rule="majority")
    assert linked.radio(key="cm_leaf_rule").value == "majority"
