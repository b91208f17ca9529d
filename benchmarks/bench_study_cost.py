"""Benchmark (not a test): the study's per-fold seconds on an idle machine against the committed ones.

    python benchmarks/bench_study_cost.py [--data yeast1,vehicle1,ecoli1,glass0] [--models ...]

The cost table of docs/imbalanced_study.md sums each fit's ``seconds`` (one worker's wall time per
fold) from the committed results; a model run while the machine was shared counts more than on
an idle one. This refits some (data set, model) groups, every setting and the anchors, with the
study's own code and 2 workers (``--n-jobs -1`` on this 2-core machine), and prints per model the
seconds now, the committed seconds of the same groups and their ratio, then the whole study's
wall time estimated with those ratios (committed CPU minutes x ratio / 2 workers).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from offcenter.evaluation import benchmark
from offcenter.studies.keel import protocol

ROOT = Path(__file__).resolve().parents[1]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", default="yeast1,vehicle1,ecoli1,glass0")
    p.add_argument("--models", default="pruned_cv,laplace,bagged_laplace,balanced_forest")
    p.add_argument("--csv", type=Path, default=ROOT / "docs" / "imbalanced_study_folds.csv.gz")
    args = p.parse_args(argv)
    names = args.data.split(",")
    models = args.models.split(",")
    sets = [d for d in benchmark.read_folder(ROOT / "data" / "keel")[0] if d.name in names]
    committed = benchmark.read_folds(args.csv)
    t0 = time.perf_counter()
    now = protocol.run_study(sets, models=models, n_jobs=-1)
    wall = time.perf_counter() - t0

    def seconds(df):
        one = df[(df["leaf_rule"] == "majority") & df["data"].isin(names)]
        return one[one["model"].isin(models)].groupby("model")["seconds"].sum()

    a, b = seconds(now), seconds(committed)
    print(f"{len(sets)} data sets ({', '.join(names)}), wall {wall:.0f} s with 2 workers")
    print("| model | seconds now | seconds committed | ratio |")
    print("|---|---|---|---|")
    for m in models:
        print(f"| `{m}` | {a[m]:.1f} | {b[m]:.1f} | {a[m] / b[m]:.2f} |")
    cpu = protocol.model_cpu_minutes(committed)
    ratio = {m: a[m] / b[m] for m in models}
    idle = sum(cpu[m] * ratio.get(m, 1.0) for m in cpu.index)
    print(
        f"whole study: committed {cpu.sum():.1f} CPU-min ({cpu.sum() / 2:.0f} min on 2 workers); "
        f"with these ratios {idle:.1f} CPU-min ({idle / 2:.0f} min on 2 workers)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
