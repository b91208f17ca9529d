"""AppTest: the Compare page shows the bundled benchmark (ranks, CD diagram, gain vs imbalance)
from the per-fold CSV, without fitting anything; and offers the peers as settings."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from offcenter.evaluate import main as cli_main
from offcenter.evaluation import benchmark
from offcenter.studies.keel import analysis, protocol, summary
from tests.conftest import run_app

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "4_Compare_measures.py")


@pytest.fixture(scope="module")
def tiny_study(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sets")
    rng = np.random.default_rng(0)
    for i, n_pos in enumerate((6, 9, 12, 15)):
        x = rng.normal(size=60)
        cls = np.where(
            np.argsort(np.argsort(-x - rng.normal(size=60))) < n_pos, "positive", "negative"
        )
        pd.DataFrame({"x": x, "z": rng.normal(size=60), "class": cls}).to_csv(
            folder / f"set{i}.csv", index=False
        )
    out = tmp_path_factory.mktemp("out") / "folds.csv"
    args = [
        "study",
        str(folder),
        "--settings",
        "shannon,gini,dkm,gini_balanced",
        "--models",
        "tree,pruned",
        "--folds",
        "3",
        "--repeats",
        "1",
        "--n-jobs",
        "1",
        "--quiet",
        "--out",
        str(out),
    ]
    assert cli_main(args) == 0
    return out


@pytest.fixture(autouse=True)
def fresh():
    st.cache_resource.clear()
    st.cache_data.clear()
    yield


def _run(at):
    return run_app(at)


def _order(at) -> list[str]:
    """The page's markdown, headers and expander labels, in the order they are drawn."""
    out = []

    def walk(node):
        for child in getattr(node, "children", {}).values():
            kind = getattr(child, "type", "")
            if kind in ("markdown", "header", "title"):
                out.append(str(child.value))
            elif kind == "expander":
                out.append("expander: " + str(child.label))
            walk(child)

    walk(at.main)
    return out


@pytest.mark.slow
def test_page_opens_on_the_short_answer_from_the_results(tiny_study, monkeypatch):
    monkeypatch.setenv("OFFCENTER_STUDY_CSV", str(tiny_study))

    def no_fit(*a, **k):
        raise AssertionError("the bundled study must not be recomputed")

    monkeypatch.setattr(protocol, "fit_model", no_fit)
    at = _run(AppTest.from_file(PAGE, default_timeout=300))
    order = _order(at)
    answer = next(i for i, t in enumerate(order) if t.startswith("**The short answer, from 4 "))
    own = order.index("Run it on your own data")
    assert answer < own
    # every sentence is the one the study's function computes from the results, in order
    expected = [a["sentence"] for a in summary.short_answer(benchmark.read_folds(tiny_study))]
    shown = [t[2:] for t in order[answer:own] if t.startswith("- ")]
    assert shown == expected and len(expected) == 3  # tree AUC, G-mean x 2 rules (no forest)
    assert expected[0].startswith("Primary endpoint, ROC AUC of depth-5 trees")
    # each sentence has its table right under it, and the figure its tables
    tables = [t for t in order[answer:own] if t.startswith("expander: Table: ")]
    assert len(tables) == 3 and "expander: Tables of the figure" in order[answer:own]
    assert "answer_fig" in " ".join(str(getattr(c, "key", "")) for c in at.get("plotly_chart"))
    frames = [d.value for d in at.dataframe]
    fam = next(f for f in frames if "Wilcoxon-Holm p" in f.columns)
    assert {"median diff", "95 % CI", "W/T/L", "decision", "leaves", "depth"} <= set(fam.columns)
    assert set(fam["decision"]) <= {"reference", "better", "worse", "no difference shown"}
    # DKM and HDDT would be one row: here HDDT is not run, DKM keeps its own label
    assert "DKM" in set(fam["setting"])


@pytest.mark.slow
def test_page_explorer_shows_the_tests_for_any_family(tiny_study, monkeypatch):
    monkeypatch.setenv("OFFCENTER_STUDY_CSV", str(tiny_study))
    monkeypatch.setattr(
        protocol, "fit_model", lambda *a, **k: (_ for _ in ()).throw(AssertionError)
    )
    at = _run(AppTest.from_file(PAGE, default_timeout=300))
    captions = "\n".join(str(c.value) for c in at.caption)
    assert "Iman-Davenport F" in captions and "critical difference" in captions
    assert "Wilcoxon" in captions and "ROPE" in captions
    assert "4 binary data sets" in captions
    keys = [str(getattr(c, "key", "")) for c in at.get("plotly_chart")]
    assert {"ks_cd", "ks_gain", "ks_datasets"} <= set(keys)
    at.selectbox(key="ks_model").set_value("pruned")
    at.selectbox(key="ks_metric").set_value("gmean")
    at = _run(at)
    at.radio(key="ks_rule").set_value("prior")
    at = _run(at)
    expected = analysis.rank_tests(benchmark.read_folds(tiny_study), "gmean", "pruned", "prior")
    frames = [d.value for d in at.dataframe if "mean G-mean" in d.value.columns]
    assert frames, "the explorer's table follows the chosen metric"
    got = frames[-1]
    assert list(got["setting"]) == list(expected["ranks"]["label"])
    assert list(got["average rank"]) == list(expected["ranks"]["mean_rank"].round(2))


def test_page_without_the_study_file_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("OFFCENTER_STUDY_CSV", str(tmp_path / "none.csv"))
    at = _run(AppTest.from_file(PAGE, default_timeout=300))
    assert any("not bundled" in str(i.value) for i in at.info)


def test_page_offers_the_peers_as_settings():
    at = _run(AppTest.from_file(PAGE, default_timeout=300))
    options = at.multiselect(key="cm_settings").options
    for label in (
        "DKM",
        "Hellinger distance (HDDT)",
        "Shannon, balanced classes",
        "Gini, balanced classes",
    ):
        assert label in options
