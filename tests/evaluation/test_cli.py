"""python -m offcenter.evaluate: end to end on small data; bad arguments give usage, not tracebacks."""

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from offcenter.data.datasets import DATASETS
from offcenter.evaluate import main

ROOT = Path(__file__).resolve().parents[2]
GLASS = DATASETS["glass"].path


@pytest.fixture()
def small_csv(tmp_path):
    df = pd.read_csv(GLASS)
    # put the class first to exercise --target
    df = df[["class", *[c for c in df.columns if c != "class"]]]
    path = tmp_path / "small glass.csv"
    df.to_csv(path, index=False)
    return path


@pytest.mark.slow
def test_end_to_end_subprocess(tmp_path, small_csv):
    out, md = tmp_path / "r.csv", tmp_path / "r.md"
    cmd = [
        sys.executable,
        "-m",
        "offcenter.evaluate",
        str(small_csv),
        str(GLASS),
        "--target",
        "class",
        "--settings",
        "shannon,oc_shannon,asymmetric_consistent",
        "--folds",
        "3",
        "--repeats",
        "1",
        "--max-depth",
        "2",
        "--leaf-rule",
        "majority,prior",
        "--out",
        str(out),
        "--markdown",
        str(md),
    ]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "fits in" in proc.stderr  # progress lines
    df = pd.read_csv(out)
    assert len(df) == 2 * 2 * 3 * 3  # files x leaf rules x settings x folds
    assert set(df["leaf_rule"]) == {"majority", "prior"}
    assert set(df["data"]) == {"small glass", "glass_binary"}
    assert set(df["setting"]) == {"shannon", "oc_shannon", "asymmetric_consistent"}
    assert (df["error"].isna() | (df["error"] == "")).all()
    text = md.read_text()
    assert "python -m offcenter.evaluate" in text and "--leaf-rule majority,prior" in text
    assert "## tree, leaf rule: majority" in text and "## tree, leaf rule: prior" in text
    assert "### balanced accuracy" in text and "### minority recall" in text
    assert "| small glass |" in text
    assert "across data sets" in text
    assert "## tree: prior-aware against majority leaf rule" in text


def test_forest_and_stdout(capsys):
    code = main(
        [
            str(GLASS),
            "--settings",
            "shannon,gini",
            "--folds",
            "2",
            "--repeats",
            "1",
            "--model",
            "forest",
            "--n-estimators",
            "3",
            "--max-depth",
            "2",
            "--quiet",
        ]
    )
    assert code == 0
    out = capsys.readouterr()
    assert "## forest, leaf rule: majority" in out.out
    assert "bagged forests of 3 trees" in out.out
    assert out.err == ""


@pytest.mark.parametrize(
    "args, message",
    [
        ([], "the following arguments are required"),
        (["x.csv", "--folds", "1"], "must be >= 2"),
        (["x.csv", "--folds", "five"], "expected a whole number"),
        (["x.csv", "--settings", "shannon,bogus"], "unknown setting"),
        (["x.csv", "--leaf-rule", "minority"], "expected a comma-separated list"),
        (["x.csv", "--model", "svm"], "expected a comma-separated list"),
        (["x.csv", "--max-features", "many"], "expected sqrt"),
        (
            ["x.csv", "y.csv", "--target", "a", "--target", "b", "--target", "c"],
            "--target is given 3",
        ),
        (["x.csv", "--settings", "gini", "--reference", "shannon"], "--reference"),
        (["x.csv", "--colour", "red"], "unrecognized arguments"),
        (["x.csv", "--n-jobs", "0"], "must not be 0"),
        (["x.csv", "--n-jobs", "all"], "expected a whole number"),
    ],
)
def test_bad_arguments_usage_exit_2(args, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: python -m offcenter.evaluate")
    assert message in err
    assert "Traceback" not in err


def test_bad_files_one_line_exit_1(tmp_path, capsys):
    cases = []
    missing = tmp_path / "missing.csv"
    cases.append(([str(missing)], "no such file"))
    cases.append(([str(tmp_path)], "is a directory"))
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    cases.append(([str(empty)], "not a readable CSV"))
    cases.append(([str(GLASS), "--target", "nope"], "no column 'nope'"))
    constant = tmp_path / "constant.csv"
    constant.write_text("a,b\n1,x\n2,x\n3,x\n")
    cases.append(([str(constant)], "single value"))
    tiny = tmp_path / "tiny.csv"
    tiny.write_text("a,b\n1,x\n2,x\n3,y\n4,x\n")
    cases.append(([str(tiny), "--folds", "3"], "fewer than the 3 folds"))
    cases.append(
        (
            [
                str(GLASS),
                "--folds",
                "2",
                "--repeats",
                "1",
                "--max-depth",
                "1",
                "--settings",
                "shannon",
                "--out",
                str(tmp_path / "no" / "dir.csv"),
            ],
            "does not exist",
        )
    )
    for args, message in cases:
        code = main(args + ["--quiet"])
        err = capsys.readouterr().err
        assert code == 1, args
        assert err.startswith("error: ") and message in err, err
        assert err.count("\n") == 1 and "Traceback" not in err


def test_help_exits_0(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    assert "asymmetric_consistent" in capsys.readouterr().out
