"""Write the results of the two sensitivity runs into docs/imbalanced_study.md.

    python scripts/sensitivity_report.py [--doc docs/imbalanced_study.md]

Reads ``docs/sensitivity_pruning.csv.gz``, ``docs/sensitivity_threshold_forest.csv.gz`` and the
committed run ``docs/imbalanced_study_folds.csv.gz``, and replaces the lines between
``<!-- sensitivity:start -->`` and ``<!-- sensitivity:end -->`` by
:func:`offcenter.studies.keel.sensitivity.sensitivity_lines`
(tests/studies/test_study_sensitivity.py checks that the document holds what the results give).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from offcenter.evaluation.benchmark import read_folds
from offcenter.studies.keel.sensitivity import sensitivity_lines

ROOT = Path(__file__).resolve().parents[1]
PRUNING = ROOT / "docs" / "sensitivity_pruning.csv.gz"
THRESHOLD = ROOT / "docs" / "sensitivity_threshold_forest.csv.gz"
COMMITTED = ROOT / "docs" / "imbalanced_study_folds.csv.gz"
MARKERS = ("<!-- sensitivity:start -->", "<!-- sensitivity:end -->")


def _read(path: Path) -> pd.DataFrame:
    return read_folds(path) if path.exists() else pd.DataFrame()


def lines() -> list[str]:
    return sensitivity_lines(_read(PRUNING), _read(THRESHOLD), read_folds(COMMITTED))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--doc", type=Path, default=ROOT / "docs" / "imbalanced_study.md")
    args = p.parse_args(argv)
    text = args.doc.read_text(encoding="utf-8")
    start, end = MARKERS
    if start not in text or end not in text:
        raise SystemExit(f"{args.doc}: no {start} ... {end} block")
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    args.doc.write_text(head + start + "\n" + "\n".join(lines()) + "\n" + end + tail, "utf-8")
    print(f"{args.doc}: sensitivity results rewritten", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
