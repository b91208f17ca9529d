"""The committed study (docs/evaluation_*.csv and .md) is what the code computes today.

- Refitting one data set with the study's exact command gives the committed per-fold metrics
  (same folds, same trees, scikit-learn's metrics).
- The committed tables (means, stds, wins/ties/losses, Holm stars from the corrected t-test,
  Wilcoxon p across data sets, leaf-rule tables) are regenerated from the committed per-fold CSV
  with :mod:`offcenter.evaluation.statistics` (scipy) and must match line for line.
"""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from offcenter.data.datasets import DATASETS
from offcenter.evaluation.cli import leaf_rule_tables, markdown_tables, read_table, split_target
from offcenter.evaluation.runner import (
    METRICS,
    EvaluationResult,
    cross_validate_settings,
    parse_settings,
)

DOCS = Path(__file__).resolve().parents[2] / "docs"
STUDIES = [
    "evaluation_trees",
    "evaluation_forest",
    "evaluation_forest_deep",
    "evaluation_forest_deep_leaf5",
]


def _command_args(md: str) -> dict:
    """The options of the study's command line (first code block of its Markdown file)."""
    line = md.split("```")[1].strip()
    tokens = line.split()
    opts = {}
    for i, tok in enumerate(tokens):
        if tok.startswith("--"):
            opts[tok[2:]] = tokens[i + 1]
    return opts


def _results_from_csv(df: pd.DataFrame, opts: dict) -> list[EvaluationResult]:
    out = []
    max_depth = int(opts.get("max-depth", 5)) or None
    tree_params = {
        "max_depth": max_depth,
        "min_samples_leaf": int(opts.get("min-samples-leaf", 1)),
        "min_samples_split": int(opts.get("min-samples-split", 2)),
    }
    for (model, rule, data), part in df.groupby(["model", "leaf_rule", "data"], sort=False):
        keys = list(dict.fromkeys(part["setting"]))
        folds = part.drop(columns=["data", "target", "model", "leaf_rule"]).reset_index(drop=True)
        folds["error"] = folds["error"].astype(object).fillna("")
        config = {
            "data": data,
            "model": model,
            "leaf_rule": rule,
            "n_splits": int(opts["folds"]),
            "n_repeats": int(opts["repeats"]),
            "seed": int(opts["seed"]),
            "tree_params": tree_params,
            "reference": "shannon",
            "test_train_ratio": float(np.mean(folds["n_test"] / folds["n_train"])),
        }
        if model == "forest":
            config.update(
                n_estimators=int(opts["n-estimators"]),
                max_features=opts.get("max-features", "sqrt"),
            )
        out.append(EvaluationResult(folds=folds, settings=parse_settings(keys), config=config))
    return out


def _table_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("|")]


@pytest.mark.slow
@pytest.mark.parametrize("study", STUDIES)
def test_committed_tables_are_regenerated_from_committed_folds(study):
    md = (DOCS / f"{study}.md").read_text(encoding="utf-8")
    df = pd.read_csv(DOCS / f"{study}.csv")
    results = _results_from_csv(df, _command_args(md))
    text = markdown_tables(results)
    extra = leaf_rule_tables(results)
    if extra:
        text += "\n" + extra
    expected = _table_lines(md)
    assert len(expected) > 20
    assert _table_lines(text) == expected


@pytest.mark.slow
def test_refit_reproduces_committed_fold_metrics():
    """glass_binary, single trees, both leaf rules: the committed metrics, fold by fold."""
    md = (DOCS / "evaluation_trees.md").read_text(encoding="utf-8")
    opts = _command_args(md)
    committed = pd.read_csv(DOCS / "evaluation_trees.csv")
    path = Path(DATASETS["glass"].path)
    X, y, _ = split_target(read_table(path), None, path)
    for rule in ("majority", "prior"):
        res = cross_validate_settings(
            X,
            y,
            n_splits=int(opts["folds"]),
            n_repeats=int(opts["repeats"]),
            seed=int(opts["seed"]),
            leaf_rule=rule,
            tree_params={
                "max_depth": int(opts["max-depth"]),
                "min_samples_leaf": 1,
                "min_samples_split": 2,
            },
        )
        mine = committed[(committed["data"] == "glass_binary") & (committed["leaf_rule"] == rule)]
        cols = ["setting", "repeat", "fold", "n_train", "n_test", *METRICS, "leaves", "depth"]
        a = res.folds[cols].reset_index(drop=True)
        b = mine[cols].reset_index(drop=True)
        assert len(a) == len(b) == 7 * 15
        pd.testing.assert_frame_equal(a, b, check_dtype=False, rtol=1e-12, atol=1e-12)


@pytest.mark.slow
def test_refit_reproduces_committed_forest_folds():
    """glass_binary, 10-tree forests, two settings: the committed forest metrics, fold by fold.

    Each forest is seeded from (seed, repeat, fold) only, so a subset of the settings gives the
    committed rows of those settings; the fits run in two worker processes.
    """
    md = (DOCS / "evaluation_forest.md").read_text(encoding="utf-8")
    opts = _command_args(md)
    committed = pd.read_csv(DOCS / "evaluation_forest.csv")
    path = Path(DATASETS["glass"].path)
    X, y, _ = split_target(read_table(path), None, path)
    settings = ["shannon", "asymmetric_consistent"]
    res = cross_validate_settings(
        X,
        y,
        settings,
        n_splits=int(opts["folds"]),
        n_repeats=int(opts["repeats"]),
        seed=int(opts["seed"]),
        model="forest",
        n_estimators=int(opts["n-estimators"]),
        max_features=opts["max-features"],
        tree_params={
            "max_depth": int(opts["max-depth"]),
            "min_samples_leaf": 1,
            "min_samples_split": 2,
        },
        n_jobs=2,
    )
    mine = committed[(committed["data"] == "glass_binary") & committed["setting"].isin(settings)]
    cols = ["setting", "repeat", "fold", "n_train", "n_test", *METRICS, "leaves", "depth"]
    a = res.folds[cols].sort_values(["setting", "repeat", "fold"]).reset_index(drop=True)
    b = mine[cols].sort_values(["setting", "repeat", "fold"]).reset_index(drop=True)
    assert len(a) == len(b) == 2 * 15
    pd.testing.assert_frame_equal(a, b, check_dtype=False, rtol=1e-12, atol=1e-12)
