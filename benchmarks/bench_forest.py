"""Forest fit time: offcenter.ForestClassifier against scikit-learn's RandomForestClassifier,
in the same run (issue 36's measurement).

Usage::

    python benchmarks/bench_forest.py                          # 20,000 rows, 1 and 2 jobs
    python benchmarks/bench_forest.py --rows 20000 200000 --trees 50 --rounds 2

Data: 20 numeric features, normal with class-dependent means (overlapping classes), two
classes, 10 % minority, fixed seed. Both forests: ``n_estimators`` trees on bootstrap samples,
``max_features="sqrt"``, grown to purity; scikit-learn with ``criterion="entropy"`` (our
default measure, Shannon), ours with ``min_gain=-inf`` so that both make zero-gain splits as
scikit-learn does (comparable tree sizes: the mean leaves per tree are reported). Fit time is
wall-clock ``time.perf_counter`` of ``fit``, the best of ``--rounds`` alternating rounds, each
fit in a fresh subprocess (no warm caches, joblib workers started inside the timing as a user
pays for them). The machine's load matters: figures on a shared machine are indicative only.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def make_data(n: int, seed: int = 0):
    import numpy as np

    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.10).astype(int)
    X = rng.normal(size=(n, 20)) + 0.35 * y[:, None] * (rng.random(20) > 0.5)
    return X, y


def _fit(kind: str, n: int, trees: int, jobs: int) -> dict:
    import numpy as np

    X, y = make_data(n)
    if kind == "sklearn":
        from sklearn.ensemble import RandomForestClassifier

        est = RandomForestClassifier(
            n_estimators=trees, criterion="entropy", n_jobs=jobs, random_state=0
        )
    else:
        from offcenter import ForestClassifier

        est = ForestClassifier(
            n_estimators=trees, min_gain=-np.inf, stratified=False, n_jobs=jobs, random_state=0
        )
    t0 = time.perf_counter()
    est.fit(X, y)
    dt = time.perf_counter() - t0
    leaves = [
        (t.get_n_leaves() if hasattr(t, "get_n_leaves") else t.tree_.n_leaves)
        for t in est.estimators_
    ]
    return {"seconds": dt, "leaves": float(np.mean(leaves))}


def run_one(kind: str, n: int, trees: int, jobs: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    code = (
        f"import json, sys; sys.path.insert(0, {str(HERE)!r}); import bench_forest as b; "
        f"print(json.dumps(b._fit({kind!r}, {n}, {trees}, {jobs})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, nargs="+", default=[20000])
    ap.add_argument("--trees", type=int, default=50)
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args(argv)
    load_before = os.getloadavg()[0]
    started = time.strftime("%H:%M", time.gmtime())
    rows = []
    for n in args.rows:
        for jobs in args.jobs:
            best = {"sklearn": None, "offcenter": None}
            for _ in range(args.rounds):
                for kind in ("sklearn", "offcenter"):
                    r = run_one(kind, n, args.trees, jobs)
                    if best[kind] is None or r["seconds"] < best[kind]["seconds"]:
                        best[kind] = r
            sk, oc = best["sklearn"], best["offcenter"]
            rows.append((n, jobs, sk, oc))
            print(
                f"{n:>8} rows  {jobs} job(s)  sklearn {sk['seconds']:7.2f} s "
                f"({sk['leaves']:.0f} leaves/tree)  offcenter {oc['seconds']:7.2f} s "
                f"({oc['leaves']:.0f} leaves/tree)  ratio {oc['seconds'] / sk['seconds']:.2f}",
                flush=True,
            )
    lines = [
        "# Forest fit time: offcenter.ForestClassifier vs RandomForestClassifier",
        "",
        f"`python benchmarks/bench_forest.py --rows {' '.join(map(str, args.rows))} "
        f"--trees {args.trees} --rounds {args.rounds}`; {platform.python_version()}, "
        f"{os.cpu_count()} cores. Best of {args.rounds} rounds, each fit in a fresh process.",
        f"Run {started}-{time.strftime('%H:%M', time.gmtime())} UTC; load average (1 min) "
        f"{load_before:.1f} at the start, {os.getloadavg()[0]:.1f} at the end.",
        "",
        "| rows | jobs | scikit-learn (s) | leaves/tree | offcenter (s) | leaves/tree | ratio |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for n, jobs, sk, oc in rows:
        lines.append(
            f"| {n:,} | {jobs} | {sk['seconds']:.2f} | {sk['leaves']:.0f} | "
            f"{oc['seconds']:.2f} | {oc['leaves']:.0f} | {oc['seconds'] / sk['seconds']:.2f} |"
        )
    (HERE / "results" / "forest.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
