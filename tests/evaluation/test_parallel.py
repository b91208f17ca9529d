"""Parallel and distributed evaluation: the same results whatever runs the fits.

joblib worker processes (n_jobs=2) and a real dask.distributed cluster (LocalCluster in this
process, two worker threads) must give per-fold results identical to n_jobs=1; so must a forest
whose trees are grown in parallel.
"""

import contextlib
import sys

import numpy as np
import pandas as pd
import pytest
from joblib import parallel_config

from offcenter.data.datasets import load
from offcenter.ensemble.forest import ForestClassifier
from offcenter.evaluate import main
from offcenter.evaluation.runner import CrossValidation, cross_validate_settings

SETTINGS = ["shannon", "oc_shannon", "asymmetric_consistent"]
KW = dict(n_splits=3, n_repeats=2, seed=4, tree_params={"max_depth": 3})


@pytest.fixture(scope="module")
def glass():
    df = load("glass")
    return df.drop(columns="class"), df["class"]


@pytest.fixture(scope="module")
def sequential(glass):
    X, y = glass
    return cross_validate_settings(X, y, SETTINGS, n_jobs=1, **KW)


@pytest.fixture(scope="module")
def dask_cluster():
    import distributed

    cluster = distributed.LocalCluster(
        processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None
    )
    client = distributed.Client(cluster)
    yield cluster
    client.close()
    cluster.close()


def _same(a, b):
    pd.testing.assert_frame_equal(a.folds.drop(columns="seconds"), b.folds.drop(columns="seconds"))
    for key in a.scores:
        np.testing.assert_array_equal(a.scores[key], b.scores[key])


def test_processes_give_identical_results(glass, sequential):
    X, y = glass
    _same(cross_validate_settings(X, y, SETTINGS, n_jobs=2, **KW), sequential)


def test_forest_evaluation_identical_in_parallel(glass):
    X, y = glass
    kw = dict(KW, model="forest", n_estimators=3)
    _same(
        cross_validate_settings(X, y, ["shannon", "gini"], n_jobs=2, **kw),
        cross_validate_settings(X, y, ["shannon", "gini"], n_jobs=1, **kw),
    )


@pytest.mark.slow
def test_stepwise_with_n_jobs(glass, sequential):
    X, y = glass
    cv = CrossValidation(X, y, SETTINGS, n_jobs=2, **KW)
    while not cv.done:
        cv.run_step()
    _same(cv.result(), sequential)


def test_dask_cluster_gives_identical_results(glass, sequential, dask_cluster):
    X, y = glass
    _same(cross_validate_settings(X, y, SETTINGS, backend="dask", **KW), sequential)


def test_cli_scheduler(dask_cluster, tmp_path, glass):
    from offcenter.data.datasets import DATASETS

    out_d, out_1 = tmp_path / "d.csv", tmp_path / "1.csv"
    args = [
        str(DATASETS["glass"].path),
        "--settings",
        "shannon,gini",
        "--folds",
        "2",
        "--repeats",
        "1",
        "--max-depth",
        "2",
        "--quiet",
    ]
    assert main([*args, "--scheduler", dask_cluster.scheduler_address, "--out", str(out_d)]) == 0
    assert main([*args, "--n-jobs", "1", "--out", str(out_1)]) == 0
    a, b = pd.read_csv(out_d), pd.read_csv(out_1)
    pd.testing.assert_frame_equal(a.drop(columns="seconds"), b.drop(columns="seconds"))


def test_missing_dask_is_a_clear_error(glass, monkeypatch):
    X, y = glass
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ImportError, match=r"offcenter\[distributed\]"):
        cross_validate_settings(X, y, ["shannon"], backend="dask", **KW)


@pytest.mark.parametrize(
    "bad, match",
    [
        (dict(n_jobs=0), "n_jobs"),
        (dict(n_jobs=1.5), "n_jobs"),
        (dict(backend="nope"), "backend"),
    ],
)
def test_bad_parallel_arguments(glass, bad, match):
    X, y = glass
    with pytest.raises(ValueError, match=match):
        cross_validate_settings(X, y, ["shannon"], **KW, **bad)


@pytest.mark.parametrize("backend", [None, "loky"])
def test_forest_trees_in_parallel_are_identical(glass, backend):
    """Trees grown by two workers, threads (the default) or processes, are those grown one
    after the other."""
    X, y = glass
    a = ForestClassifier(n_estimators=6, max_depth=3, random_state=2, n_jobs=1).fit(X, y)
    with parallel_config(backend=backend) if backend else contextlib.nullcontext():
        b = ForestClassifier(n_estimators=6, max_depth=3, random_state=2, n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    assert all(np.array_equal(s, t) for s, t in zip(a.samples_, b.samples_))
    assert [t.to_dict()["nodes"] for t in a.estimators_] == [
        t.to_dict()["nodes"] for t in b.estimators_
    ]


# Last in the module: a cancelled run stops joblib's worker processes (the fold being
# computed is abandoned), so the next run with n_jobs=2 would start two new ones (each
# importing the package: seconds of CPU). The tests above share the first ones.
def test_progress_and_cancel_in_parallel(glass):
    X, y = glass
    calls = []
    res = cross_validate_settings(
        X, y, ["shannon", "gini"], n_jobs=2, progress=lambda f, m: calls.append(f), **KW
    )
    assert not res.cancelled
    assert calls == pytest.approx([i / 12 for i in range(1, 13)])
    count = {"n": 0}

    def should_cancel():
        count["n"] += 1
        return count["n"] > 3

    res = cross_validate_settings(
        X, y, ["shannon", "gini"], n_jobs=2, should_cancel=should_cancel, **KW
    )
    assert res.cancelled
    # only whole folds are kept, and they are the first ones
    assert len(res.folds) % 2 == 0 and len(res.folds) < 12
    assert res.folds["fold"].tolist() == sorted(res.folds["fold"].tolist())
