"""docs/imbalanced_study.md says only what the committed results support: its summary block is
exactly what the results give, and each qualitative claim of its reading is checked here."""

import copy
import re
from pathlib import Path

import pytest

from offcenter.evaluation import benchmark
from offcenter.studies.keel import analysis, protocol
from offcenter.studies.keel import summary as keel_summary

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "imbalanced_study.md"
TABLES = ROOT / "docs" / "imbalanced_study_tables.md"
OURS_WEIGHTED = {"shannon_balanced", "gini_balanced"}


@pytest.fixture(scope="module", autouse=True)
def each_family_tested_once():
    """Each family's tests (:func:`analysis.rank_tests` for one metric, model, leaf rule and
    options) computed once for the module: the summary block, its Holm table over all families
    and the tests below ask for the same twenty families (the summary block itself twice).
    Every caller gets its own copy of the result, computed by the function itself."""
    memo = {}
    original = analysis.rank_tests

    def once(folds, *args, **kwargs):
        key = (id(folds), args, tuple(sorted(kwargs.items())))
        if key not in memo:
            memo[key] = (folds, original(folds, *args, **kwargs))  # folds kept: its id stays
        return copy.deepcopy(memo[key][1])

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(analysis, "rank_tests", once)
        patch.setattr(keel_summary, "rank_tests", once)  # the name summary imported
        yield


@pytest.fixture(scope="module")
def folds():
    return benchmark.read_folds(ROOT / "docs" / "imbalanced_study_folds.csv.gz")


@pytest.fixture(scope="module")
def summary(folds):
    """The summary block's lines computed from the committed results (once for the module)."""
    return keel_summary.summary_lines(folds)


@pytest.fixture(scope="module")
def calls(folds):
    """(model, metric, rule) -> (set better, set worse) by the decision rule."""
    out = {}
    for model, metric, rule, _ in keel_summary.SUMMARY_FAMILIES:
        r = analysis.rank_tests(folds, metric, model, rule, bayes=False)["ranks"]
        sig = r[r["significant"].astype(bool)]
        out[(model, metric, rule)] = (
            set(sig.loc[sig["mean_diff"] > 0, "setting"]),
            set(sig.loc[sig["mean_diff"] < 0, "setting"]),
        )
    return out


def test_the_summary_block_is_what_the_results_give(summary):
    text = DOC.read_text(encoding="utf-8")
    block = text.split("<!-- summary:start -->\n", 1)[1].split("\n<!-- summary:end -->", 1)[0]
    assert block.splitlines() == summary


def test_every_summary_link_names_a_table(summary):
    tables = TABLES.read_text(encoding="utf-8")
    heads = {
        "".join(ch for ch in h.lower() if ch.isalnum() or ch in " -_").replace(" ", "-")
        for h in re.findall(r"^#### (.+)$", tables, flags=re.M)
    }
    for line in summary:
        for anchor in re.findall(r"#([a-z0-9-]+)\)", line):
            assert anchor in heads, anchor


OFF_CENTERED = {"oc_shannon", "oc_gini", "oc_daroczy_b0.5", "asymmetric", "asymmetric_consistent"}


def test_the_reading_matches_the_decision_rule(calls):
    # the primary endpoint: no setting differs
    assert calls[("tree", "auc", "majority")] == (set(), set())
    # class weights help single trees under the majority rule (depth-5 and inner-CV pruned)
    for model, metric in (("tree", "gmean"), ("tree", "balanced_accuracy"), ("pruned_cv", "gmean")):
        better, worse = calls[(model, metric, "majority")]
        assert OURS_WEIGHTED <= better <= OURS_WEIGHTED | {protocol.ANCHOR}
        assert not worse & OURS_WEIGHTED
    # prior-aware rule, depth-5 trees: no setting shown to differ
    assert calls[("tree", "gmean", "prior")] == (set(), set())
    assert calls[("tree", "balanced_accuracy", "prior")] == (set(), set())
    # off-centering is better only under fixed-cp pruning ...
    for (model, _, _), (better, _) in calls.items():
        if model != "pruned":
            assert not better & OFF_CENTERED, model
    assert "asymmetric_consistent" in calls[("pruned", "auc", "majority")][0]
    assert {"asymmetric", "asymmetric_consistent"} <= calls[("pruned", "gmean", "prior")][0]
    # ... and with inner-CV pruning none differs, Gini is worse
    for metric, rule in (("auc", "majority"), ("gmean", "majority"), ("gmean", "prior")):
        better, worse = calls[("pruned_cv", metric, rule)]
        assert not (better | worse) & OFF_CENTERED
    assert "gini" in calls[("pruned_cv", "auc", "majority")][1]
    # where off-centering hurts
    assert {"asymmetric_consistent", "oc_daroczy_b0.5"} <= calls[("pruned", "gmean", "majority")][1]
    assert "asymmetric" in calls[("forest", "auc", "majority")][1]
    assert {"oc_gini", "asymmetric", "asymmetric_consistent"} <= calls[
        ("balanced_forest", "auc", "majority")
    ][1]
    assert "asymmetric" in calls[("balanced_forest", "gmean", "majority")][1]
    # forests: none of ours better; scikit-learn's forest (balanced bootstrap) better in G-mean
    for key, (better, _) in calls.items():
        if key[0] in ("forest", "balanced_forest", "bagged_laplace"):
            assert better <= {protocol.ANCHOR}
    assert protocol.ANCHOR in calls[("forest", "gmean", "majority")][0]
    # HDDT as published: HDDT (= DKM) not shown to differ from C4.4 (Shannon); the anchor worse
    assert calls[("laplace", "auc", "majority")] == (set(), {protocol.ANCHOR})
    assert "gini" in calls[("bagged_laplace", "auc", "majority")][1]


def test_the_reading_s_contrasts(folds):
    def effect(i):
        _, metric, a, b = keel_summary.SUMMARY_CONTRASTS[i]
        return analysis.paired_effect(folds, metric, a, b)

    prior_forest, weights, balanced = effect(1), effect(2), effect(3)
    assert prior_forest["p"] > 0.05  # the prior rule in forests: not shown to differ
    assert weights["b"] > weights["a"] and weights["p"] < 0.001
    assert balanced["b"] > balanced["a"] and balanced["p"] < 0.001
    sampling_gmean, sampling_auc = effect(4), effect(5)
    assert sampling_gmean["b"] > sampling_gmean["a"] and sampling_gmean["p"] < 0.001
    assert sampling_auc["p"] > 0.05  # "not in ROC AUC"
    pruning, bagging = effect(6), effect(7)
    assert pruning["b"] > pruning["a"] and pruning["p"] < 0.05
    assert bagging["b"] > bagging["a"] and bagging["losses"] == 0
    # Laplace trees: every setting of ours above every depth-5 tree in mean AUC
    laplace = analysis.study_means(folds, "auc", "laplace").mean()
    tree = analysis.study_means(folds, "auc", "tree").mean()
    ours = [k for k in laplace.index if k != protocol.ANCHOR]
    assert laplace[ours].min() > tree.max()
    # inner-CV pruning: the consistent asymmetric entropy gets the largest trees
    size = (
        folds[(folds["model"] == "pruned_cv") & (folds["leaf_rule"] == "majority")]
        .groupby("setting")["leaves"]
        .mean()
    )
    assert size.idxmax() == "asymmetric_consistent"


def test_the_prior_rule_helps_shannons_trees_and_pruning_sizes_differ(folds):
    e = analysis.leaf_rule_effect(folds, "tree", "gmean", "shannon")
    assert e["prior"] > e["majority"] and e["p"] < 0.001
    size = (
        folds[(folds["model"] == "pruned") & (folds["leaf_rule"] == "majority")]
        .groupby("setting")["leaves"]
        .mean()
    )
    assert size["asymmetric_consistent"] < size["shannon"] / 3 + 0.1  # "a third of Shannon's"


def test_the_documented_command_is_the_cli_default():
    from offcenter.studies.keel.cli import DEFAULT_FOLDER, build_parser

    args = build_parser().parse_args([])
    assert args.folder is None and Path("data/keel") == DEFAULT_FOLDER
    assert tuple(args.models) == protocol.DEFAULT_MODELS
    doc = DOC.read_text(encoding="utf-8")
    assert (
        "python -m offcenter.evaluate study --out docs/imbalanced_study_folds.csv.gz "
        "--markdown docs/imbalanced_study_tables.md\n" in doc
    )
    assert "../shared" not in doc


def test_the_cost_table_is_what_the_results_give(folds):
    text = DOC.read_text(encoding="utf-8")
    block = text.split("<!-- costs:start -->\n", 1)[1].split("\n<!-- costs:end -->", 1)[0]
    assert block.splitlines() == keel_summary.cost_lines(folds)


def test_model_costs_are_the_measured_ones(folds):
    """MODEL_COST (the --models help, the scheduler's weights) within 10 % of the committed
    results' CPU time relative to "tree"."""
    cpu = protocol.model_cpu_minutes(folds)
    assert list(cpu.index) == list(protocol.DEFAULT_MODELS)  # the sensitivity models: not run
    for model, minutes in cpu.items():
        assert protocol.MODEL_COST[model] == pytest.approx(minutes / cpu["tree"], rel=0.1), model


def test_the_reading_s_numbers_on_harm_size_and_pure_leaves(folds):
    """The numbers the reading quotes (issue 37): harm on depth-5 trees under the majority rule,
    inner-CV pruning's relative sizes, the forests' pure leaves, the primary endpoint's CIs."""
    doc = DOC.read_text(encoding="utf-8")
    r = analysis.rank_tests(folds, "gmean", "tree", "majority", bayes=True)["ranks"]
    r = r.set_index("setting").loc[list(protocol.OFF_CENTERED)]
    assert (r["mean_diff"] < -0.06).all() and (r["mean_diff"] > -0.09).all()  # "-0.06 to -0.09"
    assert round(r["p_worse"].min(), 2) == 0.87 and round(r["p_worse"].max(), 3) == 0.996
    assert "G-mean -0.06 to -0.09" in doc and "0.87 to 0.996" in doc
    line = keel_summary.relative_size_line(folds)
    ratios = [float(x) for x in re.findall(r"prior(?:, consistent)? (\d\.\d\d)", line)]
    assert len(ratios) == 5 and round(min(ratios), 1) == 1.5 and round(max(ratios), 1) == 1.8
    assert "1.5 to 1.8 times Shannon's" in doc
    share = analysis.forest_same_under_both_rules(folds)
    assert f"{100 * share:.1f} %" == "93.5 %"
    wide = keel_summary.summary_wide_holm(folds)
    assert len(wide) == 206 and wide["significant"].sum() == 35 and wide["survives"].sum() == 24
    assert "declared on\n  2026-11-25" in doc and "not shown to differ" in doc


def test_comparing_measures_says_only_what_the_results_give(folds, calls):
    doc = (ROOT / "docs" / "comparing_measures.md").read_text(encoding="utf-8")
    for gone in ("../shared", "27 minutes", "Holm-significant", "stops mattering"):
        assert gone not in doc
    assert "python -m offcenter.evaluate study --out docs/imbalanced_study_folds.csv.gz" in doc
    # "on the primary endpoint no setting is shown to differ"
    assert calls[("tree", "auc", "majority")] == (set(), set())
    # "under the prior-aware rule no setting of depth-5 trees is shown to differ from Shannon"
    assert calls[("tree", "gmean", "prior")] == (set(), set())
    # "in forests the setting still matters for ROC AUC (Friedman p < 0.001) though no
    # off-centered setting is shown better than Shannon"
    fr = analysis.rank_tests(folds, "auc", "forest", "majority", bayes=False)["friedman"]
    assert fr.f_pvalue < 0.001 and "p < 0.001" in doc
    for model in ("forest", "balanced_forest", "bagged_laplace"):
        for rule in ("majority", "prior"):
            if (model, "auc", rule) in calls:
                assert not calls[(model, "auc", rule)][0] & OFF_CENTERED
    # "scikit-learn's balanced forest leads on G-mean"
    assert protocol.ANCHOR in calls[("forest", "gmean", "majority")][0]


def test_the_forest_figures_name_the_forest_anchor(folds):
    """The gain figures of forests said "scikit-learn CART, balanced classes" (the CSV's label of
    the anchor, a tree) for scikit-learn's class-weighted forest (issue 37)."""
    for model in ("forest", "balanced_forest"):
        g = analysis.gains(folds, "auc", model)
        assert set(g.loc[g["setting"] == protocol.ANCHOR, "label"]) == {
            protocol.ANCHOR_FOREST_LABEL
        }
    g = analysis.gains(folds, "auc", "tree")
    assert set(g.loc[g["setting"] == protocol.ANCHOR, "label"]) == {protocol.ANCHOR_LABEL}
