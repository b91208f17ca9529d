"""The benchmark over a folder of data sets (offcenter.studies.keel and its command line).

Tiny constructed CSV files stand for each kind of bad input: a fold with no minority row, a
constant feature, a nominal value seen only in a test fold, missing values. Each is handled,
counted and reported; no fit fails.
"""

import json
import math

import numpy as np
import pandas as pd
import pytest

from offcenter.ensemble.forest import ForestClassifier
from offcenter.evaluate import main as cli_main
from offcenter.evaluation import benchmark
from offcenter.evaluation.benchmark import problem_counts, read_folder
from offcenter.evaluation.fold_models import leaf_rule_predictions
from offcenter.studies.keel import protocol
from offcenter.studies.keel.analysis import gains, rank_tests
from offcenter.studies.keel.protocol import ANCHOR, StudyProtocol, run_study
from offcenter.tree.estimator import TreeClassifier

QUICK = StudyProtocol(n_splits=3, n_repeats=1, seed=0, max_depth=3, n_estimators=3)


def _write(folder, name, df):
    df.to_csv(folder / f"{name}.csv", index=False, na_rep="")


@pytest.fixture
def bad_folder(tmp_path):
    rng = np.random.default_rng(0)
    n = 30
    base = pd.DataFrame({"x": rng.normal(size=n), "z": rng.normal(size=n)})
    cls = np.array(["negative"] * n, dtype=object)
    cls[[1, 7, 13, 19, 25, 29]] = "positive"
    # 1. only 2 positives for 3 folds: one test fold per repeat has no positive
    few = base.copy()
    few["class"] = ["positive" if i in (3, 17) else "negative" for i in range(n)]
    _write(tmp_path, "few_positives", few)
    # 2. a constant feature
    const = base.assign(c=1.0, **{"class": cls})
    _write(tmp_path, "constant", const)
    # 3. a nominal value seen in one row only: in its test fold, not in its training fold
    nom = base.assign(colour=["red", "blue"] * 14 + ["red", "violet"], **{"class": cls})
    _write(tmp_path, "unseen_value", nom)
    # 4. missing values, numeric and nominal
    miss = base.assign(colour=["red", "blue", None] * 10, **{"class": cls})
    miss.loc[[0, 5, 9], "x"] = np.nan
    _write(tmp_path, "missing", miss)
    return tmp_path


def test_read_folder_records_size_nominal_missing_and_imbalance(bad_folder):
    (bad_folder / "notes.txt").write_text("not a csv")
    (bad_folder / "three_classes.csv").write_text("x,class\n1,a\n2,b\n3,c\n")
    sets, problems = read_folder(bad_folder)
    names = [d.name for d in sets]
    assert names == ["constant", "few_positives", "missing", "unseen_value"]
    assert len(problems) == 1 and "three_classes.csv" in problems[0] and "3 classes" in problems[0]
    info = {d.name: d.info() for d in sets}
    assert info["few_positives"]["positives"] == 2
    assert info["few_positives"]["imbalance_ratio"] == 14.0
    assert info["constant"]["constant_features"] == 1
    assert info["missing"]["missing_rows"] == 12  # rows 0 and 9 (x) + every third (colour)
    assert info["missing"]["nominal"] == 1 and info["unseen_value"]["features"] == 3
    assert all(d.positive == "positive" for d in sets)


def test_positive_is_the_minority_without_a_positive_label(tmp_path):
    pd.DataFrame({"x": range(6), "y": ["b", "a", "a", "a", "b", "a"]}).to_csv(
        tmp_path / "t.csv", index=False
    )
    (d,), _ = read_folder(tmp_path, positive="positive")
    assert d.positive == "b" and d.info()["imbalance_ratio"] == 2.0
    with pytest.raises(ValueError, match="folder"):
        read_folder(tmp_path / "nowhere")


@pytest.mark.slow
def test_bad_input_is_handled_counted_and_reported(bad_folder):
    sets, _ = read_folder(bad_folder)
    settings = ["shannon", "oc_gini", "hellinger", "gini_balanced"]
    folds = run_study(sets, settings, ["tree", "pruned", "forest"], QUICK, n_jobs=1)
    assert (folds["error"] == "").all(), folds.loc[folds["error"] != "", "error"].iloc[0]
    # 4 data sets x (2 tree models x 5 settings + the forest's 6: both anchors) x 3 folds x 2 rules
    assert len(folds) == 4 * (2 * 5 + 6) * 3 * 2
    few = folds[folds["data"] == "few_positives"]
    empty = few[few["n_test_positive"] == 0]
    assert len(empty) and empty[list(benchmark.STUDY_METRICS)].isna().all().all()
    assert few.loc[few["n_test_positive"] > 0, "auc"].notna().all()
    counts = problem_counts(folds, sets).set_index("data")
    assert counts.loc["few_positives", "folds_without_positive"] == 1
    assert counts.loc["constant", "constant_features"] == 1
    assert counts.loc["unseen_value", "test_rows_unseen_value"] == 1
    assert counts.loc["missing", "missing_rows"] == 12
    assert counts["failed_fits"].sum() == 0
    # the tests across data sets run on what is defined
    res = rank_tests(folds, "auc", "tree")
    assert res["n"] == 4 and list(res["ranks"]["setting"]) == [*settings, ANCHOR]
    g = gains(folds, "gmean", "tree", "prior", data_sets=sets)
    assert set(g["setting"]) == {"oc_gini", "hellinger", "gini_balanced", ANCHOR}
    assert (
        g.set_index(["data", "setting"]).loc[("few_positives", "oc_gini"), "imbalance_ratio"] == 14
    )


def test_a_failing_fit_is_recorded_not_raised(bad_folder, monkeypatch):
    sets, _ = read_folder(bad_folder)

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(protocol, "fit_model", broken)
    folds = run_study(sets[:1], ["shannon"], ["tree"], QUICK, anchor=False, n_jobs=1)
    assert (folds["error"] == "RuntimeError: boom").all() and folds["auc"].isna().all()
    assert problem_counts(folds, sets[:1]).iloc[0]["failed_fits"] == 3


def test_both_leaf_rules_from_one_fit_are_what_the_models_predict():
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"a": rng.normal(size=200), "b": rng.choice(["u", "v", "w"], 200)})
    y = np.where(X["a"] + rng.normal(scale=0.8, size=200) > 1.3, "pos", "neg")
    for rule in ("majority", "prior"):
        for est in (
            TreeClassifier(max_depth=4, leaf_rule=rule),
            TreeClassifier(max_depth=4, leaf_rule=rule, class_weight="balanced"),
            ForestClassifier(n_estimators=7, random_state=2, n_jobs=1, leaf_rule=rule),
        ):
            est.fit(X, y)
            proba, labels = leaf_rule_predictions(est, X)
            assert np.array_equal(labels[rule], est.predict(X))
            assert np.allclose(proba, est.predict_proba(X))


def test_balanced_forest_model_grows_on_class_balanced_samples(bad_folder, monkeypatch):
    sets, _ = read_folder(bad_folder)
    grown = []
    real_fit = ForestClassifier.fit

    def spy(self, X, y):
        out = real_fit(self, X, y)
        grown.append(
            (
                self.bootstrap,
                [np.unique(np.asarray(y)[i], return_counts=True)[1] for i in out.samples_],
            )
        )
        return out

    monkeypatch.setattr(ForestClassifier, "fit", spy)
    folds = run_study(sets[:1], ["shannon"], ["forest", "balanced_forest"], QUICK, n_jobs=1)
    assert (folds["error"] == "").all()
    assert set(folds["model"]) == {"forest", "balanced_forest"}
    assert sorted({b for b, _ in grown}, key=str) == [True, "balanced"]
    for boot, counts in grown:
        if boot == "balanced":  # every class equally often (up to one row)
            assert all(c.max() - c.min() <= 1 for c in counts)
        else:  # the training proportions
            assert all(c.max() - c.min() > 1 for c in counts)
    # the anchor is scikit-learn's balanced forest under both forest models
    anchor = folds[folds["setting"] == ANCHOR]
    forest = anchor[anchor["model"] == "forest"].drop(columns=["model", "seconds"])
    balanced = anchor[anchor["model"] == "balanced_forest"].drop(columns=["model", "seconds"])
    pd.testing.assert_frame_equal(forest.reset_index(drop=True), balanced.reset_index(drop=True))


@pytest.mark.slow
def test_the_same_folds_and_numbers_whatever_n_jobs(bad_folder):
    sets, _ = read_folder(bad_folder)
    one = run_study(sets[:2], ["shannon", "gini"], ["forest"], QUICK, n_jobs=1)
    two = run_study(sets[:2], ["shannon", "gini"], ["forest"], QUICK, n_jobs=2)
    cols = [c for c in one.columns if c != "seconds"]
    pd.testing.assert_frame_equal(one[cols], two[cols])
    a = one[one["setting"] == "shannon"][["data", "repeat", "fold", "n_test_positive"]]
    b = one[one["setting"] == ANCHOR][["data", "repeat", "fold", "n_test_positive"]]
    assert a.to_numpy().tolist() == b.to_numpy().tolist()


@pytest.mark.slow
def test_cli_on_a_tiny_folder_writes_csv_json_markdown_and_resumes(bad_folder, tmp_path, capsys):
    out = tmp_path / "folds.csv.gz"  # compressed, reproducibly
    md = tmp_path / "report.md"
    common = [
        "study",
        str(bad_folder),
        "--settings",
        "shannon,gini_balanced",
        "--folds",
        "3",
        "--repeats",
        "1",
        "--max-depth",
        "3",
        "--n-jobs",
        "1",
        "--out",
        str(out),
        "--markdown",
        str(md),
    ]
    assert cli_main([*common, "--models", "tree"]) == 0
    err = capsys.readouterr().err
    assert "[1/" in err and "min left" in err and "done:" in err
    first = benchmark.read_folds(out)
    assert len(first) == 4 * 1 * 3 * 3 * 2  # data sets x models x settings x folds x rules
    # --resume runs only what is missing (the pruned trees) and keeps the rest
    assert cli_main([*common, "--models", "tree,pruned", "--resume"]) == 0
    err = capsys.readouterr().err
    assert "[12/12]" in err  # 4 data sets x 3 settings of the pruned model only
    folds = benchmark.read_folds(out)
    assert len(folds) == 2 * len(first)
    kept = folds[folds["model"] == "tree"].reset_index(drop=True)
    pd.testing.assert_frame_equal(kept, first)
    meta = json.loads((tmp_path / "folds.csv.gz.json").read_text())
    assert meta["protocol"]["n_splits"] == 3 and meta["settings"][-1] == ANCHOR
    assert {r["data"] for r in meta["data"]} == {
        "constant",
        "few_positives",
        "missing",
        "unseen_value",
    }
    text = md.read_text()
    assert "average ranks over the data sets" in text and "Iman-Davenport p" in text
    assert "| few_positives | 1 |" in text  # the fold without a positive, counted
    # --report rebuilds the same tables without fitting
    md2 = tmp_path / "again.md"
    assert cli_main(["study", "--report", str(out), "--markdown", str(md2)]) == 0
    assert md2.read_text() == text
    # another protocol cannot resume this file
    assert cli_main([*common, "--models", "tree", "--seed", "3", "--resume"]) == 1
    assert "another protocol" in capsys.readouterr().err


def test_cli_errors(tmp_path, capsys):
    assert cli_main(["study", str(tmp_path / "nowhere"), "--quiet"]) == 1
    assert "not a folder" in capsys.readouterr().err
    assert cli_main(["study", str(tmp_path), "--quiet"]) == 1
    assert "no .csv" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        cli_main(["study", str(tmp_path), "--models", "bush"])
    assert exc.value.code == 2
    with pytest.raises(SystemExit):
        cli_main(["study", str(tmp_path), "--settings", "gini"])
    assert "shannon" in capsys.readouterr().err
    assert math.isfinite(StudyProtocol().cp)
    with pytest.raises(ValueError, match="n_splits"):
        StudyProtocol(n_splits=1)


def test_resume_with_fewer_settings_keeps_the_other_settings_groups(bad_folder, tmp_path, capsys):
    """Issue 37: --resume with a subset of the settings dropped the others' completed groups."""
    (tmp_path / "out").mkdir()
    out = tmp_path / "out" / "folds.csv"
    common = [
        "study",
        str(bad_folder),
        "--folds",
        "3",
        "--repeats",
        "1",
        "--max-depth",
        "3",
        "--n-jobs",
        "1",
        "--quiet",
        "--out",
        str(out),
    ]
    assert cli_main([*common, "--settings", "shannon,gini_balanced", "--models", "tree"]) == 0
    first = benchmark.read_folds(out)
    assert (
        cli_main(
            [
                *common,
                "--settings",
                "shannon",
                "--models",
                "tree,pruned",
                "--only",
                "missing,constant",
            ]
            + ["--resume"]
        )
        == 0
    )
    folds = benchmark.read_folds(out)
    kept = folds[folds["model"] == "tree"].reset_index(drop=True)
    pd.testing.assert_frame_equal(kept, first)  # every setting, every data set of the first run
    pruned = folds[folds["model"] == "pruned"]
    assert set(pruned["data"]) == {"missing", "constant"}
    assert set(pruned["setting"]) == {"shannon", ANCHOR}
    meta = json.loads((tmp_path / "out" / "folds.csv.json").read_text())
    assert meta["settings"] == ["shannon", "gini_balanced", ANCHOR]
    assert meta["models"] == ["tree", "pruned"]
    assert {r["data"] for r in meta["data"]} == set(first["data"])
    # the JSON records every run: its command, git commit and versions (baycomp included)
    assert [r["command"].split("--models ")[1].split()[0] for r in meta["runs"]] == [
        "tree",
        "tree,pruned",
    ]
    for run in meta["runs"]:
        assert run["git_commit"] and "baycomp" in run["versions"]
    assert meta["versions"]["baycomp"] == benchmark.environment_versions()["baycomp"]
    # full precision: the written numbers read back to the same floats
    assert folds["seconds"].map(lambda v: len(repr(v))).max() > 8


def test_only_one_data_set_runs_and_says_the_tests_need_two(bad_folder, tmp_path, capsys):
    """Issue 37: --only with one data set crashed in the Friedman test with a traceback."""
    md = tmp_path / "one.md"
    args = ["study", str(bad_folder), "--only", "missing", "--settings", "shannon,gini"]
    args += ["--folds", "3", "--repeats", "1", "--models", "tree", "--n-jobs", "1", "--quiet"]
    assert cli_main([*args, "--markdown", str(md)]) == 0
    assert "the tests across data sets need at least 2" in md.read_text()


def test_the_study_needs_the_scikit_learn_of_its_anchor(bad_folder, monkeypatch, capsys):
    assert protocol.sklearn_anchor_problem("1.6.1") is not None
    assert protocol.sklearn_anchor_problem("1.9.0") is None
    assert protocol.sklearn_anchor_problem("2.0.dev0") is None
    monkeypatch.setattr(protocol.sklearn, "__version__", "1.8.2")
    args = ["study", str(bad_folder), "--folds", "3", "--repeats", "1", "--quiet"]
    assert cli_main(args) == 1
    assert "scikit-learn 1.8.2" in capsys.readouterr().err


def test_smallest_first_runs_whole_data_sets_in_increasing_size(bad_folder):
    """``--smallest-first`` (issue 37's continued confirmation): the data sets in increasing
    rows x features, ties by name, every group of one before the next; the same numbers."""
    data, _ = read_folder(bad_folder)
    seen: list[str] = []
    kw = dict(settings=["shannon"], models=["tree", "pruned"], protocol=QUICK, n_jobs=1)
    ordered = run_study(
        data,
        **kw,
        smallest_first=True,
        progress=lambda done, total, msg: seen.append(msg.split(":")[0]),
    )
    # few_positives has 2 features, the others 3 (same rows): then by name; 2 models x 2 settings
    assert seen == [
        name for name in ["few_positives", "constant", "missing", "unseen_value"] for _ in range(4)
    ]
    pd.testing.assert_frame_equal(  # the same numbers (the seconds are timings)
        ordered.drop(columns="seconds"), run_study(data, **kw).drop(columns="seconds")
    )


def test_an_interrupted_run_keeps_the_groups_finished_so_far(bad_folder, tmp_path, monkeypatch):
    """Ctrl-C (SIGINT, how the confirmation's run is stopped) writes the finished groups to
    --out with ``"complete": false``, so that ``--resume`` continues from them."""
    from offcenter.studies.keel import cli as study_cli

    real = study_cli.run_study

    def stopped_after_two(*args, **kwargs):
        def progress(done, total, message):
            if done == 2:
                raise KeyboardInterrupt

        return real(*args, **{**kwargs, "progress": progress})

    monkeypatch.setattr(study_cli, "run_study", stopped_after_two)
    out = tmp_path / "folds.csv"
    argv = ["study", str(bad_folder), "--settings", "shannon", "--models", "tree"]
    argv += ["--folds", "3", "--repeats", "1", "--n-jobs", "1", "--quiet", "--out", str(out)]
    assert cli_main([*argv, "--smallest-first"]) == 130
    kept = benchmark.read_folds(out)
    assert kept.groupby(["data", "model", "setting"]).ngroups == 2
    assert set(kept["data"]) == {"few_positives"}  # its two groups (shannon and the anchor)
    assert json.loads((tmp_path / "folds.csv.json").read_text())["complete"] is False
    monkeypatch.setattr(study_cli, "run_study", real)
    assert cli_main([*argv, "--resume"]) == 0
    assert benchmark.read_folds(out).groupby(["data", "model", "setting"]).ngroups == 8
