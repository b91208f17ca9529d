"""The sensitivity models of the imbalanced study (issue 37): inner-CV pruning that chooses
ccp_alpha by the reported metric and leaf rule, and a threshold-moving forest."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from offcenter.evaluation import metrics
from offcenter.evaluation.benchmark import StudyData
from offcenter.evaluation.fold_models import (
    candidate_alphas,
    cv_ccp_alpha,
    cv_ccp_alpha_by,
    tuned_threshold,
)
from offcenter.studies.keel.protocol import (
    ANCHOR,
    DEFAULT_MODELS,
    MODELS,
    PRUNE_BY,
    WEIGHTED_FOREST,
    StudyProtocol,
    run_study,
)
from offcenter.tree.estimator import TreeClassifier

ROOT = Path(__file__).resolve().parents[2]

QUICK = StudyProtocol(n_splits=3, n_repeats=1, seed=0, max_depth=3, n_estimators=7)


@pytest.fixture(scope="module")
def noisy():
    rng = np.random.default_rng(1)
    n = 60
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n), "c": rng.normal(size=n)})
    y = np.where(X["a"] + 0.8 * rng.normal(size=n) > 1.0, "positive", "negative").astype(object)
    return StudyData("noisy", X, y, "positive", [], 0)


def test_the_committed_models_stay_the_default():
    assert DEFAULT_MODELS == (
        "tree",
        "pruned",
        "pruned_cv",
        "laplace",
        "bagged_laplace",
        "forest",
        "balanced_forest",
    )
    assert set(PRUNE_BY) <= set(MODELS) and "threshold_forest" in MODELS


def test_tuned_threshold_maximises_g_mean():
    y = np.array(["n"] * 6 + ["p"] * 3, dtype=object)
    s = np.array([0.0, 0.1, 0.1, 0.2, 0.3, 0.5, 0.25, 0.4, 0.9])
    t = tuned_threshold(y, s, "p")
    g = metrics.g_mean(y, np.where(s >= t, "p", "n"), positive="p")
    assert g == pytest.approx(np.sqrt(1.0 * 4 / 6))  # all positives, 4 of 6 negatives
    assert 0.2 < t <= 0.25
    assert tuned_threshold(y, np.full(9, 0.3), "p") == 0.5  # nothing to choose
    assert np.isfinite(tuned_threshold(y, np.r_[s[:-1], np.nan], "p"))  # NaN rows left out


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(st.booleans(), st.floats(0, 1)), min_size=4, max_size=30).filter(
        lambda r: 0 < sum(p for p, _ in r) < len(r)
    )
)
def test_tuned_threshold_is_never_worse_than_one_half(rows):
    y = np.array(["p" if p else "n" for p, _ in rows], dtype=object)
    s = np.array([v for _, v in rows])
    t = tuned_threshold(y, s, "p")
    g = metrics.g_mean(y, np.where(s >= t, "p", "n"), positive="p")
    assert g >= metrics.g_mean(y, np.where(s >= 0.5, "p", "n"), positive="p") - 1e-12


@pytest.mark.parametrize("model", ["pruned_cv_auc", "pruned_cv_gmean", "pruned_cv_gmean_prior"])
def test_alpha_by_the_reported_metric_is_a_candidate(noisy, model):
    metric, rule = PRUNE_BY[model]
    full = TreeClassifier().fit(noisy.X, noisy.y)
    cands = candidate_alphas(full.cp_table()["alpha"].to_numpy(dtype=float))
    alpha = cv_ccp_alpha_by(
        lambda a: TreeClassifier(), noisy.X, noisy.y, 0, metric, rule, full=full
    )
    assert alpha in cands.tolist()


def test_the_balanced_error_choice_is_unchanged_by_the_refactoring(noisy):
    """cv_ccp_alpha (the committed run's pruned_cv) and its candidates: a reference value."""
    full = TreeClassifier().fit(noisy.X, noisy.y)
    alpha = cv_ccp_alpha(lambda a: TreeClassifier(), noisy.X, noisy.y, 0, full=full)
    cands = candidate_alphas(full.cp_table()["alpha"].to_numpy(dtype=float))
    assert alpha in cands.tolist() and alpha > 0  # noisy labels: the full tree is pruned


@pytest.mark.slow
def test_sensitivity_and_threshold_models_run_at_a_tiny_size(noisy):
    models = ["forest", "threshold_forest", "pruned_cv", "pruned_cv_auc", "pruned_cv_gmean_prior"]
    df = run_study([noisy], ["shannon"], models, QUICK, n_jobs=1)
    assert (df["error"] == "").all()
    # no anchor and no split-weighted forest for the threshold-moving forest
    tf = df[df["model"] == "threshold_forest"]
    assert set(tf["setting"]) == {"shannon"}
    assert {ANCHOR, WEIGHTED_FOREST} <= set(df.loc[df["model"] == "forest", "setting"])
    # the same forest (same seeds), only the threshold moves: the same scores, the same AUC
    key = ["repeat", "fold", "leaf_rule"]
    f = df[(df["model"] == "forest") & (df["setting"] == "shannon")].sort_values(key)
    t = tf.sort_values(key)
    np.testing.assert_array_equal(f["auc"].to_numpy(), t["auc"].to_numpy())
    np.testing.assert_array_equal(f["leaves"].to_numpy(), t["leaves"].to_numpy())
    # both rule rows carry the tuned labels
    maj, pri = (t[t["leaf_rule"] == r][["tp", "fp"]].to_numpy() for r in ("majority", "prior"))
    np.testing.assert_array_equal(maj, pri)
    assert (df.loc[df["model"].str.startswith("pruned_cv"), "leaves"] >= 1).all()


def _script(name):
    import importlib.util
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location(name, root / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_complete_sets_need_every_declared_group():
    from offcenter.studies.keel.sensitivity import complete_sets

    rows = [
        {"data": d, "model": "m", "setting": k, "leaf_rule": r, "repeat": 0, "fold": f}
        | {"error": ""}
        for d, ks in (("a", ("s", "t")), ("b", ("s",)))
        for k in ks
        for r in ("majority", "prior")
        for f in (0, 1)
    ]
    df = pd.DataFrame(rows)
    assert complete_sets(df, (("m", "s"), ("m", "t"))) == ["a"]  # b lacks its group t
    assert complete_sets(df.iloc[1:], (("m", "s"),)) == ["b"]  # a lost a row
    assert complete_sets(pd.DataFrame(), (("m", "s"),)) == []


@pytest.mark.slow
def test_the_document_holds_the_sensitivity_results():
    from pathlib import Path

    report = _script("sensitivity_report")
    doc = Path(__file__).resolve().parents[2] / "docs" / "imbalanced_study.md"
    text = doc.read_text(encoding="utf-8")
    start, end = report.MARKERS
    block = text.split(start + "\n", 1)[1].split("\n" + end, 1)[0]
    assert block.splitlines() == report.lines()


@pytest.mark.slow
def test_the_study_s_text_on_threshold_moving_is_the_run_s_result():
    """The summary's sentence on the threshold-moving competitor quotes the effect that the
    committed run gives (the block's row), so it cannot keep a figure the results changed."""
    from pathlib import Path

    report = _script("sensitivity_report")
    doc = Path(__file__).resolve().parents[2] / "docs" / "imbalanced_study.md"
    text = doc.read_text(encoding="utf-8")
    row = next(
        line
        for line in report.lines()
        if line.startswith("| class-balanced bootstrap against threshold moving |")
    )
    effect = row.split("|")[3].strip()  # "-0.089 (10/3/28, Wilcoxon p < 0.001)"
    sentence = " ".join(text.split("A fair competitor moves the", 1)[1].split("\n- ", 1)[0].split())
    assert "all 41 data sets" in sentence
    assert f"the class-balanced bootstrap against it {effect}" in sentence
    # the reading of the pruning run quotes its smallest Holm p, with that row's effect
    rows = [
        [c.strip() for c in line.split("|")[1:-1]]
        for line in report.lines()
        if line.startswith("| pruned_cv_")
    ]
    smallest = min(rows, key=lambda r: float(r[4]))
    reading = " ".join(text.split("Read as it came:", 1)[1].split("**Continuation", 1)[0].split())
    assert float(smallest[4]) > 0.05  # "no off-centered setting is shown to differ"
    assert "no off-centered setting is shown to differ from Shannon" in reading
    assert f"{smallest[3]}, Holm p {smallest[4]}" in reading


def test_the_report_of_a_single_setting_run_says_so_instead_of_failing():
    """The documented threshold-moving run has one setting (Shannon): its --report has no
    settings to rank against each other (the Friedman test needs two) and says so."""
    from offcenter.studies.keel.cli import markdown_report

    folds = pd.read_csv(
        ROOT / "docs" / "sensitivity_threshold_forest.csv.gz", keep_default_na=False
    )
    folds = folds[folds["model"] == "threshold_forest"]
    assert folds["setting"].nunique() == 1 and folds["data"].nunique() >= 2
    text = markdown_report(folds, {}, bayes=False)
    assert "1 setting: the rank tests compare settings and need at least 2" in text
