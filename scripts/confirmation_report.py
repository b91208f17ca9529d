"""Write the outcome of the pre-registered confirmation into docs/imbalanced_study.md.

    python scripts/confirmation_report.py [--doc docs/imbalanced_study.md]

Reads the per-fold results of the two declared runs (``docs/confirmation_trees.csv.gz`` and
``docs/confirmation_forests.csv.gz``) and replaces the lines between
``<!-- confirmation:start -->`` and ``<!-- confirmation:end -->`` by
:func:`offcenter.studies.keel.confirmation.confirmation_lines`
(tests/studies/test_keel_confirmation.py checks that the document holds exactly what the results give).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from offcenter.evaluation.benchmark import read_folds
from offcenter.studies.keel.confirmation import confirmation_lines

ROOT = Path(__file__).resolve().parents[1]
RUNS = (ROOT / "docs" / "confirmation_trees.csv.gz", ROOT / "docs" / "confirmation_forests.csv.gz")
DATA = ROOT / "data" / "keel_confirmation"
MARKERS = ("<!-- confirmation:start -->", "<!-- confirmation:end -->")


def confirmation_folds(runs=RUNS) -> pd.DataFrame:
    """The per-fold rows of the declared runs that exist, concatenated."""
    parts = [read_folds(p) for p in runs if Path(p).exists()]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--doc", type=Path, default=ROOT / "docs" / "imbalanced_study.md")
    args = p.parse_args(argv)
    n_sets = len(list(DATA.glob("*.csv")))
    lines = confirmation_lines(confirmation_folds(), n_sets)
    text = args.doc.read_text(encoding="utf-8")
    start, end = MARKERS
    if start not in text or end not in text:
        raise SystemExit(f"{args.doc}: no {start} ... {end} block")
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    args.doc.write_text(head + start + "\n" + "\n".join(lines) + "\n" + end + tail, "utf-8")
    print(f"{args.doc}: confirmation rewritten", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
