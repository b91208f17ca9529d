"""AppTest: the Compare page shows the bundled benchmark (ranks, CD diagram, gain vs imbalance)
from the per-fold CSV, without fitting anything; and offers the peers as settings."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from offcenter.evaluation import study
from offcenter.evaluation.cli import main as cli_main
from tests.conftest import run_app

ROOT = Path(__file__).resolve().parents[1]
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


def test_page_shows_the_bundled_study_without_fitting(tiny_study, monkeypatch):
    monkeypatch.setenv("OFFCENTER_STUDY_CSV", str(tiny_study))

    def no_fit(*a, **k):
        raise AssertionError("the bundled study must not be recomputed")

    monkeypatch.setattr(study, "_fit", no_fit)
    at = _run(AppTest.from_file(PAGE, default_timeout=300))
    frames = [d.value for d in at.dataframe]
    ranks = next(f for f in frames if "average rank" in f.columns)
    assert set(ranks["setting"]) == {
        "Shannon",
        "Gini",
        "DKM",
        "Gini, balanced classes",
        "scikit-learn CART, balanced classes",
    }
    assert ranks["average rank"].is_monotonic_increasing
    captions = "\n".join(str(c.value) for c in at.caption)
    assert "Iman-Davenport F" in captions and "critical difference" in captions
    assert "4 binary data sets" in captions
    n_charts = len(at.get("plotly_chart"))
    assert n_charts >= 2  # CD diagram and gain figure
    at.selectbox(key="ks_model").set_value("pruned")
    at.selectbox(key="ks_metric").set_value("gmean")
    at = _run(at)
    at.radio(key="ks_rule").set_value("prior")
    at = _run(at)
    ranks2 = next(d.value for d in at.dataframe if "average rank" in d.value.columns)
    assert "mean G-mean" in ranks2.columns


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
