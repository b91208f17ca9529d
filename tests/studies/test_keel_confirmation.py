"""The pre-registered confirmation of the imbalanced study (docs/imbalanced_study.md): its data
sets are new, converted as the 41 were, and the document's outcome block is exactly what the
committed results of the declared runs give under the declared rule."""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from offcenter.studies.keel import confirmation

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "imbalanced_study.md"
NEW = ROOT / "data" / "keel_confirmation"
OLD = ROOT / "data" / "keel"


def _script(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_the_confirmation_sets_are_new_binary_and_documented():
    new = {p.stem for p in NEW.glob("*.csv")}
    old = {p.stem for p in OLD.glob("*.csv")}
    assert len(new) >= 15 and not new & old
    readme = (NEW / "README.md").read_text(encoding="utf-8")
    for name in new:
        assert f"| {name} |" in readme
        y = pd.read_csv(NEW / f"{name}.csv")["class"]
        counts = y.value_counts()
        assert set(counts.index) == {"positive", "negative"}
        assert counts["positive"] < counts["negative"]  # the declared rule: positive = minority


def test_keel_to_csv_converts_as_the_41_were(tmp_path):
    keel = _script("keel_to_csv")
    dat = (
        "@relation toy\n@attribute A real [0.0, 1.0]\n@attribute Colour {red, blue}\n"
        "@attribute Class {positive, negative}\n@inputs A, Colour\n@outputs Class\n@data\n"
        "0.5, red, positive\n?, <null>, negative   \n1.0, blue, negative\n"
    )
    assert keel.convert(dat) == (
        "A,Colour,class\r\n0.5,red,positive\r\n,,negative\r\n1.0,blue,negative\r\n"
    )
    # the committed files are in that format: CRLF, header of attribute names, class last
    raw = (NEW / "glass-0-4_vs_5.csv").read_bytes()
    assert raw.startswith(b"RI,Na,Mg,Al,Si,K,Ca,Ba,Fe,class\r\n") and raw.endswith(b"\r\n")


def test_the_decision_rule_as_declared():
    assert confirmation.outcome("better", 0.049, 0.1, 0.0) == "confirmed"
    assert confirmation.outcome("worse", 0.049, 0.1, 0.0) == "reversed"
    assert confirmation.outcome("worse", 0.051, -0.1, 0.0) == "not confirmed"
    assert confirmation.outcome("same", 0.049, 0.0, 1.0) == "refuted"
    assert confirmation.outcome("same", 0.5, 0.0, 0.95).startswith("equivalent")
    assert confirmation.outcome("same", 0.5, 0.0, 0.94).startswith("consistent")
    assert len(confirmation.CONFIRMATION_TESTS) == 22  # as declared


def test_tests_on_constructed_results_follow_holm_over_all():
    rng = np.random.default_rng(0)
    rows = []
    for i in range(12):
        for setting, shift in (("shannon", 0.0), ("shannon_balanced", 0.1), ("gini", 0.0)):
            for rule in ("majority", "prior"):
                for fold in range(3):
                    g = 0.6 + shift + (0.05 if rule == "prior" else 0) + rng.normal(0, 0.01)
                    rows.append(
                        {
                            "data": f"d{i}",
                            "model": "tree",
                            "leaf_rule": rule,
                            "setting": setting,
                            "fold": fold,
                            "auc": 0.8 + rng.normal(0, 0.001),
                            "gmean": g,
                        }
                    )
    t = confirmation.confirmation_tests(pd.DataFrame(rows)).set_index("id")
    computed = t[t["n"] > 0]
    assert set(computed.index) == {"P1", "P3", "C1", "C2"}
    assert (computed["n"] == 12).all()
    assert t.loc["C1", "outcome"] == "confirmed" and t.loc["C2", "outcome"] == "confirmed"
    assert t.loc["P1", "outcome"].startswith("equivalent")
    assert (computed["p_holm"] >= computed["p"]).all()
    assert t.loc["C3", "outcome"] == "not computed"


def test_the_document_holds_the_outcome_of_the_committed_runs():
    report = _script("confirmation_report")
    text = DOC.read_text(encoding="utf-8")
    start, end = report.MARKERS
    block = text.split(start + "\n", 1)[1].split("\n" + end, 1)[0]
    n_sets = len(list(NEW.glob("*.csv")))
    assert block.splitlines() == confirmation.confirmation_lines(
        report.confirmation_folds(), n_sets
    )


def _forest_rows(n_sets: int, rng) -> list[dict]:
    rows = []
    for i in range(n_sets):
        for model, setting in confirmation.FOREST_GROUPS:
            lift = 0.1 if model == "balanced_forest" and setting == "shannon" else 0.0
            for rule in ("majority", "prior"):
                for repeat in range(2):
                    for fold in range(2):
                        rows.append(
                            {
                                "data": f"d{i:02d}",
                                "model": model,
                                "leaf_rule": rule,
                                "setting": setting,
                                "repeat": repeat,
                                "fold": fold,
                                "auc": 0.9 + rng.normal(0, 0.001),
                                "gmean": 0.6 + lift + rng.normal(0, 0.01),
                                "error": "",
                            }
                        )
    return rows


@pytest.mark.parametrize("n_sets, called", [(16, True), (14, False)])
def test_the_amendment_forest_tests_on_complete_sets_only(n_sets, called):
    """The forest tests use the data sets with all six forest groups complete, and are called
    only from 15 of them (the amendment of 2026-11-27 07:10 UTC)."""
    rng = np.random.default_rng(1)
    rows = _forest_rows(n_sets, rng)
    # one more data set with only some of its groups (a run stopped in the middle of it)
    extra = [dict(r, data="zz") for r in _forest_rows(1, rng) if r["model"] == "forest"]
    df = pd.DataFrame(rows + extra)
    assert confirmation.forest_complete_sets(df) == [f"d{i:02d}" for i in range(n_sets)]
    t = confirmation.confirmation_tests(df).set_index("id")
    assert (t.loc[list(confirmation.FOREST_TESTS), "n"] == n_sets).all()
    if called:
        assert t.loc["C3", "outcome"] == "confirmed" and t.loc["C4", "outcome"] == "confirmed"
    else:
        assert set(t.loc[list(confirmation.FOREST_TESTS), "outcome"]) == {"not reached"}
