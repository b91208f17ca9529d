"""Wall time of a cross-validated comparison with 1 and 2 worker processes (joblib, loky).

Not a test: wall-clock times on a shared machine. The study is the main tree study of
docs/evaluation.md on one data set (Pima, 768 rows): the 7 default settings, stratified 5-fold CV
x 3 repeats, depth-5 trees, majority leaf rule (105 fits); then the same with bagged forests of 10
trees (7 x 15 forests). Each configuration is run ``--rounds`` times, interleaved (1 worker, 2
workers, 1, 2, ...), and the median and best times are printed (the first 2-worker run includes
starting the worker processes), with a check that the per-fold results are identical whatever the
number of workers.

Usage::

    python benchmarks/bench_evaluation_parallel.py [--rounds 3] [--workers 1,2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pandas as pd  # noqa: E402

from offcenter.data.datasets import DATASETS, load  # noqa: E402
from offcenter.evaluation.runner import cross_validate_settings  # noqa: E402


def run(X, y, model: str, n_jobs: int):
    t0 = time.perf_counter()
    res = cross_validate_settings(
        X,
        y,
        n_splits=5,
        n_repeats=3,
        seed=0,
        model=model,
        n_estimators=10,
        tree_params={"max_depth": 5},
        n_jobs=n_jobs,
    )
    return time.perf_counter() - t0, res.folds.drop(columns="seconds")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--workers", default="1,2")
    p.add_argument("--data", default="pima")
    args = p.parse_args()
    workers = [int(w) for w in args.workers.split(",")]
    df = load(args.data)
    target = DATASETS[args.data].target
    X, y = df.drop(columns=target), df[target]
    print(f"cores: {os.cpu_count()}, load average before: {os.getloadavg()[0]:.2f}")
    print(f"data: {args.data} {X.shape}, 7 settings, 5-fold CV x 3 repeats, depth 5")
    for model in ("tree", "forest"):
        times: dict[int, list[float]] = {w: [] for w in workers}
        reference = None
        for _ in range(args.rounds):
            for w in workers:
                seconds, folds = run(X, y, model, w)
                times[w].append(seconds)
                if reference is None:
                    reference = folds
                else:
                    pd.testing.assert_frame_equal(folds, reference)
        base = statistics.median(times[workers[0]])
        best = min(times[workers[0]])
        for w in workers:
            med = statistics.median(times[w])
            runs = ", ".join(f"{t:.1f}" for t in times[w])
            print(
                f"{model:6s} n_jobs={w}: median {med:6.1f} s, best {min(times[w]):6.1f} s "
                f"(runs: {runs}); speed-up {base / med:.2f}x (median), "
                f"{best / min(times[w]):.2f}x (best)"
            )
        print(f"{model:6s} identical per-fold results for every n_jobs: yes")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
