"""Rewrite the summary of docs/imbalanced_study.md from the committed per-fold results.

    python scripts/study_summary.py [docs/imbalanced_study_folds.csv.gz] [--doc docs/imbalanced_study.md]

The lines between ``<!-- summary:start -->`` and ``<!-- summary:end -->`` are replaced by
:func:`offcenter.studies.keel.summary.summary_lines`, and those between ``<!-- costs:start -->`` and
``<!-- costs:end -->`` by :func:`offcenter.studies.keel.summary.cost_lines`
(tests/studies/test_study_summary.py checks that the document holds exactly what the results give).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from offcenter.evaluation.benchmark import read_folds
from offcenter.studies.keel.summary import cost_lines, summary_lines

ROOT = Path(__file__).resolve().parents[1]
START, END = "<!-- summary:start -->", "<!-- summary:end -->"
COSTS = ("<!-- costs:start -->", "<!-- costs:end -->")


def replace_block(text: str, lines: list[str], markers=(START, END)) -> str:
    """``text`` with the block between the markers replaced by ``lines``."""
    START, END = markers
    if START not in text or END not in text:
        raise ValueError(f"the document has no {START} ... {END} block")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    return head + START + "\n" + "\n".join(lines) + "\n" + END + tail


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "csv", nargs="?", type=Path, default=ROOT / "docs" / "imbalanced_study_folds.csv.gz"
    )
    p.add_argument("--doc", type=Path, default=ROOT / "docs" / "imbalanced_study.md")
    args = p.parse_args(argv)
    text = args.doc.read_text(encoding="utf-8")
    folds = read_folds(args.csv)
    new = replace_block(text, summary_lines(folds))
    new = replace_block(new, cost_lines(folds), COSTS)
    args.doc.write_text(new, encoding="utf-8")
    print(f"{args.doc}: summary rewritten", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
