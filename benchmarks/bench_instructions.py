"""Instructions per tree fit, per criterion, counted by valgrind (callgrind): a repeatable cost.

Usage::

    python benchmarks/bench_instructions.py                  # 10k rows (about 5 minutes)
    python benchmarks/bench_instructions.py --rows 100000    # about 25 minutes

Wall-clock times on a shared machine move 20 to 40% between runs of the same code (see
README.md), too much to compare criteria whose costs differ by less. Instruction counts do not
move: the same code, data and inputs give the same count whatever else the machine does. They
are a proxy for time, not time: a cache miss or a SIMD logarithm counts as few instructions.

Each criterion is fitted twice in one process under ``valgrind --tool=callgrind
--instr-atstart=no``: a first fit with the instrumentation off (imports, allocator warm-up),
then one with it on (``callgrind_control -i on`` / ``off`` around the fit). The data are
``bench_tree``'s synthetic set (20 numeric features, one class of 10%). Needs valgrind
(Debian package ``valgrind``; a dev-only tool).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_tree import MEASURES, _make_data

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

#: the criteria compared (bench_tree's, without Gini)
CRITERIA = {k: v for k, v in MEASURES.items() if k != "gini"}


def worker(rows: int, classes: int, depth: int, names: list[str]) -> None:
    """Inside valgrind: for each criterion, a warm fit, then a counted one (dumped by name)."""
    sys.path.insert(0, str(ROOT))
    from offcenter import TreeClassifier

    X, y, _ = _make_data(rows, classes, False)
    pid = str(os.getpid())

    def ctl(*args):
        subprocess.run(["callgrind_control", *args, pid], capture_output=True, check=False)

    for name in names:
        TreeClassifier(max_depth=depth, **CRITERIA[name]).fit(X, y)
        ctl("-i", "on")
        TreeClassifier(max_depth=depth, **CRITERIA[name]).fit(X, y)
        ctl("-i", "off")
        ctl("-d", name)
        ctl("-z")


def count(rows: int, classes: int, depth: int) -> dict[str, int]:
    """Instructions of one fit per criterion (a valgrind run)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.%p")
        cmd = [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",
            f"--callgrind-out-file={out}",
            os.path.realpath(sys.executable),
            __file__,
            "--worker",
            f"{rows},{classes},{depth}",
        ]
        subprocess.run(cmd, capture_output=True, check=True)
        counts = {}
        for f in Path(tmp).iterdir():
            text = f.read_text(errors="replace")
            trig = re.search(r"^desc: Trigger: dump (\S+)", text, re.M)
            tot = re.search(r"^totals: (\d+)", text, re.M)
            if trig and tot:
                counts[trig.group(1)] = int(tot.group(1))
    return counts


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=10_000)
    ap.add_argument("--classes", type=int, default=5)
    ap.add_argument("--depths", default="4,8")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        rows, classes, depth = (int(x) for x in args.worker.split(","))
        worker(rows, classes, depth, list(CRITERIA))
        return 0
    print(
        f"| rows | classes | depth | {' | '.join(CRITERIA)} | oc_shannon / shannon "
        "| asymmetric / shannon |"
    )
    print("|---" * (5 + len(CRITERIA)) + "|")
    for depth in (int(d) for d in args.depths.split(",")):
        c = count(args.rows, args.classes, depth)
        cells = " | ".join(f"{c[k] / 1e9:.3f} G" for k in CRITERIA)
        print(
            f"| {args.rows:,} | {args.classes} | {depth} | {cells} | "
            f"{c['oc_shannon'] / c['shannon']:.2f} | {c['asymmetric'] / c['shannon']:.2f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
