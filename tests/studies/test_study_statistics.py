"""The study's statistics and models (issue 25): the decision rule, effect sizes, the Bayesian
tests, rounding before ranking, DKM = HDDT counted once, confusion counts and pooled metrics,
the inner-CV pruning rule, the new models, and the command line's defaults and provenance."""

import gzip
import io
import json
import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from baycomp import CorrelatedTTest, SignedRankTest
from hypothesis import given, settings
from hypothesis import strategies as hs
from scipy import stats

import offcenter as oc
from offcenter.evaluate import main as cli_main
from offcenter.evaluation import benchmark, fold_models
from offcenter.evaluation import statistics as S
from offcenter.evaluation.benchmark import read_folder
from offcenter.studies.keel import analysis, protocol
from offcenter.studies.keel.protocol import StudyProtocol, run_study

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "docs" / "imbalanced_study_folds.csv.gz"
QUICK = StudyProtocol(n_splits=3, n_repeats=1, seed=0, max_depth=3, n_estimators=3)


@pytest.fixture(scope="module")
def committed():
    return benchmark.read_folds(COMMITTED)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    d = tmp_path_factory.mktemp("sets")
    rng = np.random.default_rng(1)
    for i, n_pos in enumerate((8, 10, 12)):
        n = 48
        x = rng.normal(size=n)
        order = np.argsort(np.argsort(-x - rng.normal(size=n)))
        cls = np.where(order < n_pos, "positive", "negative")
        pd.DataFrame({"x": x, "z": rng.normal(size=n), "class": cls}).to_csv(
            d / f"s{i}.csv", index=False
        )
    return d


# ------------------------------------------------------------------ DKM = HDDT for two classes
@settings(max_examples=300, deadline=None)
@given(
    hs.lists(
        hs.tuples(hs.integers(0, 60), hs.integers(0, 60)).filter(lambda t: sum(t) > 0),
        min_size=2,
        max_size=5,
    )
)
def test_squared_hellinger_is_twice_dkms_relative_gain(children):
    """d_H^2 = 2 - 2 sum_j sqrt(a+_j a-_j / (A+ A-)) = 2 (D(node) - sum n_j/n D(j)) / D(node)."""
    table = np.array(children, dtype=float)
    node = table.sum(axis=0)
    if node.min() == 0:
        return  # one class at the node: both are 0 / undefined
    d_h2 = oc.hellinger_split(table) ** 2
    rel = oc.gain(table, "dkm") / oc.dkm(node / node.sum())
    assert d_h2 == pytest.approx(2 * rel, abs=1e-12)


def test_hellinger_is_counted_once_beside_dkm(committed):
    part = committed[committed["model"] == "tree"]
    # the two columns are equal on every fold of the committed run
    a = part[part["setting"] == "dkm"].reset_index(drop=True)
    b = part[part["setting"] == "hellinger"].reset_index(drop=True)
    assert np.allclose(a["auc"], b["auc"], equal_nan=True)
    table = analysis.study_means(committed, "auc", "tree")
    assert "dkm" in table.columns and "hellinger" not in table.columns
    both = analysis.study_means(committed, "auc", "tree", distinct=False)
    assert "hellinger" in both.columns
    r = analysis.rank_tests(committed, "auc", "tree", bayes=False)
    assert "DKM = HDDT (two classes)" in set(r["ranks"]["label"])
    assert r["friedman"].k == 11


# ------------------------------------------------------------------ ranking
def test_means_one_ulp_apart_tie_before_ranking():
    a = 0.1 + 0.2  # 0.30000000000000004
    mean, ranks = S.average_ranks([[a, 0.3, 0.1], [0.5, 0.4, 0.3]])
    assert ranks[0, 0] == ranks[0, 1] == 1.5
    assert S.friedman_test([[a, 0.3, 0.1], [0.5, 0.4, 0.3], [0.2, 0.3, 0.1]]).n == 3


# ------------------------------------------------------------------ the decision rule
def test_paired_versus_control_is_scipy_and_baycomp():
    rng = np.random.default_rng(3)
    base = rng.uniform(0.6, 0.9, size=30)
    table = np.column_stack(
        [base, base + rng.normal(0.02, 0.02, 30), base + rng.normal(0.0, 0.02, 30)]
    )
    r = S.paired_versus_control(table, 0)
    d1, d2 = table[:, 1] - table[:, 0], table[:, 2] - table[:, 0]
    p = [stats.wilcoxon(d1).pvalue, stats.wilcoxon(d2).pvalue]
    holm = [min(1, 2 * min(p)), min(1, max(2 * min(p), max(p)))]
    order = np.argsort(p)
    expect = np.empty(2)
    expect[order] = holm
    assert r["p"][1:] == pytest.approx(p)
    assert r["p_holm"][1:] == pytest.approx(expect)
    assert r["median_diff"][1] == pytest.approx(np.median(d1))
    boot = stats.bootstrap(
        (d1,), np.median, n_resamples=9999, method="BCa", rng=np.random.default_rng(0)
    )
    assert r["ci_low"][1] == pytest.approx(boot.confidence_interval.low)
    assert r["ci_high"][1] == pytest.approx(boot.confidence_interval.high)
    assert (r["wins"][1], r["ties"][1], r["losses"][1]) == (
        np.sum(d1 > 1e-12),
        np.sum(np.abs(d1) <= 1e-12),
        np.sum(d1 < -1e-12),
    )
    ref = SignedRankTest.probs(table[:, 1], table[:, 0], rope=0.01, nsamples=10000, random_state=0)
    assert (r["p_better"][1], r["p_rope"][1], r["p_worse"][1]) == pytest.approx(ref)
    assert bool(r["significant"][1]) == bool(r["p_holm"][1] < 0.05)
    assert r["p_better"][1] > 0.9  # the +0.02 setting


def test_each_interval_is_its_own_seeded_scipy_bootstrap_call():
    """A row's median or mean interval is, to the last bit, the one of its own seeded
    scipy.stats.bootstrap call (BCa), or its percentile interval where BCa is degenerate, on rows
    with ties and of different lengths; a row too short or constant is its own value."""
    rng = np.random.default_rng(5)
    rows = [rng.normal(0.01, 0.02, 41).round(3) for _ in range(3)]
    rows += [rng.integers(-3, 4, 23) / 100, np.array([0.01, 0.02]), np.full(7, 0.03)]
    rows += [rng.normal(0.0, 0.02, 23).round(4)]
    degenerate = 0
    cases = [(f, [S._bootstrap_ci(d, f, 0.95, 999, 4) for d in rows]) for f in (S._median, np.mean)]
    for statistic, got in cases:
        for d, (value, lo, hi) in zip(rows, got, strict=True):
            assert value == float(statistic(d))
            if d.size < 3 or np.ptp(d) == 0:
                assert lo == hi == value
                continue
            with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore", stats.DegenerateDataWarning)
                ci = stats.bootstrap(
                    (d,), statistic, n_resamples=999, method="BCa", rng=np.random.default_rng(4)
                ).confidence_interval
            if np.isfinite(ci.low) and np.isfinite(ci.high):
                assert (lo, hi) == (ci.low, ci.high)
            else:  # BCa degenerate (the median of few distinct values): the percentile interval
                boots = statistic(np.random.default_rng(4).choice(d, size=(999, d.size)), axis=1)
                assert [lo, hi] == np.quantile(boots, [0.025, 0.975]).tolist()
                degenerate += 1
    assert degenerate == 1


@settings(max_examples=25)
@given(
    hs.lists(hs.tuples(hs.integers(0, 100), hs.integers(-4, 4)), min_size=2, max_size=45),
    hs.sampled_from([0.01, 0.02, 0.005]),
    hs.integers(0, 3),
)
def test_the_bayesian_signed_rank_test_is_baycomps_exactly(pairs, rope, seed):
    """The vectorised sampler gives baycomp's three probabilities to the last bit (scores on a
    grid of 0.01, so that differences fall on the ROPE's edges and on each other)."""
    x = np.array([a / 100 for a, _ in pairs])
    y = np.array([(a + b) / 100 for a, b in pairs])
    got = S.bayesian_signed_rank(x, y, rope=rope, seed=seed, nsamples=500)
    if np.all(np.abs(x - y) <= 1e-12):
        assert got == (0.0, 1.0, 0.0)
        return
    ref = SignedRankTest.probs(x, y, rope=rope, nsamples=500, random_state=seed)
    assert got == tuple(float(v) for v in ref)


def test_bayesian_correlated_ttest_is_baycomps_and_the_interval_the_t_tests():
    x = np.array([0.81, 0.79, 0.84, 0.8, 0.83, 0.82])
    y = np.array([0.78, 0.8, 0.8, 0.79, 0.8, 0.8])
    assert S.bayesian_correlated_ttest(x, y, runs=2) == pytest.approx(
        CorrelatedTTest.probs(x, y, rope=0.01, runs=2)
    )
    lo, hi = S.corrected_t_interval(x - y, 1 / 2)
    t = S.corrected_resampled_ttest(x - y, 1 / 2)
    # the interval excludes 0 exactly when the two-sided test rejects at 5 %
    assert (lo > 0 or hi < 0) is (t.pvalue < 0.05)


def test_the_committed_results_give_the_reviews_numbers(committed):
    """Depth-5 trees, prior rule, balanced accuracy: the consistent asymmetric entropy's mean
    difference from Shannon is negative (-0.0017) and the decision rule does not call it, while
    the rank z-test (pool-dependent) would."""
    r = analysis.rank_tests(committed, "balanced_accuracy", "tree", "prior", bayes=False)
    row = r["ranks"].set_index("setting").loc["asymmetric_consistent"]
    assert row["mean_diff"] == pytest.approx(-0.0017, abs=5e-5)
    assert row["p_holm"] > 0.5 and not row["significant"]
    assert row["p_holm_z"] < 0.05


# ------------------------------------------------------------------ counts and pooling
def test_confusion_counts_are_recorded_and_reconstructed(folder):
    sets, _ = read_folder(folder)
    folds = run_study(sets, ["shannon", "oc_gini"], ["tree"], QUICK, n_jobs=1)
    ok = folds[folds["auc"].notna()]
    assert (ok["tp"] + ok["fn"] == ok["n_test_positive"]).all()
    assert (ok[["tp", "fp", "fn", "tn"]].sum(axis=1) == ok["n_test"]).all()
    rebuilt = benchmark.reconstruct_counts(folds.drop(columns=["tp", "fp", "fn", "tn"]))
    assert (rebuilt.loc[ok.index, ["tp", "fp", "fn", "tn"]] == ok[["tp", "fp", "fn", "tn"]]).all(
        axis=None
    )


def test_committed_counts_reproduce_every_metric(committed):
    # counts recorded by the run (older CSVs: reconstructed from the metrics, to 1e-5)
    assert committed.attrs.get("reconstruction_deviation", 0.0) < 1e-5
    c = committed
    r1, r0 = c["tp"] / (c["tp"] + c["fn"]), c["tn"] / (c["tn"] + c["fp"])
    assert np.allclose((r1 + r0) / 2, c["balanced_accuracy"], atol=1e-5, equal_nan=True)
    assert np.allclose(np.sqrt(r1 * r0), c["gmean"], atol=1e-5, equal_nan=True)


def test_pooled_metrics_sum_the_counts_of_a_repetition():
    rows = pd.DataFrame(
        {
            "data": "d",
            "model": "tree",
            "leaf_rule": "majority",
            "setting": "s",
            "label": "S",
            "repeat": 0,
            "fold": [0, 1],
            "tp": [1, 0],
            "fp": [1, 0],
            "fn": [0, 2],
            "tn": [8, 10],
        }
    )
    p = benchmark.pooled_metrics(rows).iloc[0]
    # pooled: TP 1, FN 2, TN 18, FP 1: recalls 1/3 and 18/19
    assert p["balanced_accuracy"] == pytest.approx((1 / 3 + 18 / 19) / 2)
    assert p["gmean"] == pytest.approx(math.sqrt(1 / 3 * 18 / 19))
    assert p["minority_f1"] == pytest.approx(2 / (2 + 1 + 2))


# ------------------------------------------------------------------ pruning
def test_one_se_rule_takes_the_largest_alpha_within_one_se():
    errors = np.array([[0.30, 0.31, 0.40], [0.32, 0.33, 0.40]])
    assert fold_models.one_se_alpha_of_folds([0.0, 0.1, 0.2], errors) == 0.1
    assert fold_models.one_se_alpha_of_folds([0.0, 0.1], [[0.1, 0.5], [0.1, 0.5]]) == 0.0


def test_inner_cv_alpha_is_a_candidate_of_the_path(folder):
    (d, *_), _ = read_folder(folder)
    from offcenter.tree.estimator import TreeClassifier

    a = fold_models.cv_ccp_alpha(lambda _a: TreeClassifier(), d.X, d.y, seed=0)
    path = TreeClassifier().cost_complexity_pruning_path(d.X, d.y).ccp_alphas
    assert a == 0.0 or a in set(fold_models.candidate_alphas(path).tolist())


# ------------------------------------------------------------------ the new models
@pytest.mark.slow
def test_new_models_run_with_their_anchors(folder):
    sets, _ = read_folder(folder)
    models = ["pruned_cv", "laplace", "bagged_laplace", "balanced_forest"]
    folds = run_study(sets[:2], ["shannon", "hellinger"], models, QUICK, n_jobs=1)
    assert (folds["error"] == "").all(), folds.loc[folds["error"] != "", "error"].iloc[0]
    per = folds.groupby("model")["setting"].unique().to_dict()
    assert set(per["balanced_forest"]) == {
        "shannon",
        "hellinger",
        protocol.ANCHOR,
        protocol.WEIGHTED_FOREST,
    }
    assert set(per["laplace"]) == {"shannon", "hellinger", protocol.ANCHOR}
    # unpruned trees
    lap = folds[(folds["model"] == "laplace") & (folds["setting"] == "shannon")]
    assert lap["leaves"].min() > 1


def test_laplace_tree_scores_are_laplace_estimates(folder):
    (d, *_), _ = read_folder(folder)
    from offcenter.evaluation.runner import parse_setting

    est, _ = protocol.fit_model(parse_setting("hellinger"), "laplace", d.X, d.y, QUICK, 0)
    proba = est.predict_proba(d.X)
    assert proba.min() > 0 and proba.max() < 1  # (n_c + 1) / (n + q), never 0 or 1


# ------------------------------------------------------------------ command line
def test_cli_defaults_reproduce_the_docs_and_record_versions(folder, tmp_path):
    from offcenter.studies.keel.cli import build_parser

    args = build_parser().parse_args([])
    assert tuple(args.models) == protocol.DEFAULT_MODELS == tuple(protocol.MODELS)[:7]
    assert str(protocol.DEFAULT_MODELS) and (ROOT / "data" / "keel").is_dir()
    assert len(list((ROOT / "data" / "keel").glob("*.csv"))) == 41
    assert (ROOT / "data" / "keel" / "README.md").exists()
    doc = (ROOT / "docs" / "imbalanced_study.md").read_text(encoding="utf-8")
    assert (
        "python -m offcenter.evaluate study --out docs/imbalanced_study_folds.csv.gz "
        "--markdown docs/imbalanced_study_tables.md" in doc
    )
    out = tmp_path / "f.csv.gz"
    argv = ["study", str(folder), "--models", "tree", "--folds", "3", "--repeats", "1"]
    argv += ["--settings", "shannon,gini", "--n-jobs", "1", "--quiet", "--out", str(out)]
    assert cli_main(argv) == 0
    meta = json.loads(Path(str(out) + ".json").read_text())
    assert set(meta["versions"]) >= {"python", "numpy", "scipy", "scikit-learn", "offcenter"}
    assert meta["command"].startswith("python -m offcenter.evaluate study ")
    folds = pd.read_csv(io.BytesIO(gzip.decompress(out.read_bytes())))
    assert {"tp", "fp", "fn", "tn"} <= set(folds.columns)
