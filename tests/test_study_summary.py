"""docs/imbalanced_study.md says only what the committed results support: its summary block is
exactly what the results give, and each qualitative claim of its reading is checked here."""

import re
from pathlib import Path

import pytest

from offcenter.evaluation import study

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "imbalanced_study.md"
TABLES = ROOT / "docs" / "imbalanced_study_tables.md"
OURS_WEIGHTED = {"shannon_balanced", "gini_balanced"}


@pytest.fixture(scope="module")
def folds():
    return study.read_folds(ROOT / "docs" / "imbalanced_study_folds.csv.gz")


@pytest.fixture(scope="module")
def calls(folds):
    """(model, metric, rule) -> (set better, set worse) by the decision rule."""
    out = {}
    for model, metric, rule, _ in study.SUMMARY_FAMILIES:
        r = study.rank_tests(folds, metric, model, rule, bayes=False)["ranks"]
        sig = r[r["significant"].astype(bool)]
        out[(model, metric, rule)] = (
            set(sig.loc[sig["mean_diff"] > 0, "setting"]),
            set(sig.loc[sig["mean_diff"] < 0, "setting"]),
        )
    return out


def test_the_summary_block_is_what_the_results_give(folds):
    text = DOC.read_text(encoding="utf-8")
    block = text.split("<!-- summary:start -->\n", 1)[1].split("\n<!-- summary:end -->", 1)[0]
    assert block.splitlines() == study.summary_lines(folds)


def test_every_summary_link_names_a_table(folds):
    tables = TABLES.read_text(encoding="utf-8")
    heads = {
        "".join(ch for ch in h.lower() if ch.isalnum() or ch in " -_").replace(" ", "-")
        for h in re.findall(r"^#### (.+)$", tables, flags=re.M)
    }
    for line in study.summary_lines(folds):
        for anchor in re.findall(r"#([a-z0-9-]+)\)", line):
            assert anchor in heads, anchor


def test_the_reading_matches_the_decision_rule(calls):
    # the primary endpoint: no setting differs
    assert calls[("tree", "auc", "majority")] == (set(), set())
    # class weights help single trees under the majority rule; no off-centered setting does
    for metric in ("gmean", "balanced_accuracy"):
        better, worse = calls[("tree", metric, "majority")]
        assert OURS_WEIGHTED <= better <= OURS_WEIGHTED | {study.ANCHOR}
        assert not worse
    # prior-aware rule, depth-5 trees: no setting shown to differ
    assert calls[("tree", "gmean", "prior")] == (set(), set())
    assert calls[("tree", "balanced_accuracy", "prior")] == (set(), set())
    # fixed-cp pruning, majority rule: the consistent asymmetric and off-centered Daroczy hurt
    assert {"asymmetric_consistent", "oc_daroczy_b0.5"} <= calls[("pruned", "gmean", "majority")][1]
    # forests: none of ours better; the plain asymmetric entropy worse in AUC and AP
    for key, (better, _) in calls.items():
        if key[0] == "forest":
            assert better <= {study.ANCHOR}
    assert "asymmetric" in calls[("forest", "auc", "majority")][1]
    assert "asymmetric" in calls[("forest", "ap", "majority")][1]
    assert study.ANCHOR in calls[("forest", "gmean", "majority")][0]


def test_the_prior_rule_helps_shannons_trees_and_pruning_sizes_differ(folds):
    e = study.leaf_rule_effect(folds, "tree", "gmean", "shannon")
    assert e["prior"] > e["majority"] and e["p"] < 0.001
    size = (
        folds[(folds["model"] == "pruned") & (folds["leaf_rule"] == "majority")]
        .groupby("setting")["leaves"]
        .mean()
    )
    assert size["asymmetric_consistent"] < size["shannon"] / 3 + 0.1  # "a third of Shannon's"


def test_the_documented_command_is_the_cli_default():
    from offcenter.evaluation.study_cli import DEFAULT_FOLDER, build_parser

    args = build_parser().parse_args([])
    assert args.folder is None and Path("data/keel") == DEFAULT_FOLDER
    assert tuple(args.models) == study.DEFAULT_MODELS
    doc = DOC.read_text(encoding="utf-8")
    assert (
        "python -m offcenter.evaluate study --out docs/imbalanced_study_folds.csv.gz "
        "--markdown docs/imbalanced_study_tables.md\n" in doc
    )
    assert "../shared" not in doc
