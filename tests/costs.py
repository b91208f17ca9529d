"""The measured cost of the suite's longest work units, for the scheduler in tests/conftest.py.

Run the whole suite with ``--durations=0`` into a log, then::

    python -m tests.costs LOG [SCALE]   # rewrites tests/costs.json

(SCALE divides the seconds: a log of a run on a busy machine, say 6 times slower than a quiet
one, is brought back to the quiet machine's seconds, which the default cost of a unit assumes.)

A work unit is what pytest-xdist's ``--dist loadscope`` sends to one worker: a module (or a
test class), or one test of a module in ``tests.conftest.SPREAD_MODULES``, or the modules that
``tests.conftest.SHARED_UNITS`` puts together. Its cost is the sum
of its tests' setup, call and teardown times. The file keeps the units of at least
:data:`KEEP_SECONDS`; the scheduler counts any other at 0.2 s a test. Only the order in which
the workers take the units depends on it, never which tests run.
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from pathlib import Path

from tests.conftest import COSTS, SHARED_UNITS, SPREAD_MODULES

#: A ``--durations`` line: seconds, phase, node id.
LINE = re.compile(r"^\s*([\d.]+)s (setup|call|teardown)\s+(\S.*?)\s*$")
KEEP_SECONDS = 5.0


def unit_of(nodeid: str) -> str:
    """The work unit of a test, as the scheduler splits them.

    >>> unit_of("tests/tree/test_api.py::test_fit[a::b]")
    'tests/tree/test_api.py'
    >>> unit_of("tests/app/test_x.py::TestPage::test_one")
    'tests/app/test_x.py::TestPage'
    >>> unit_of("tests/studies/test_study_commands.py::test_report_reproduces_the_committed_tables")
    'tests/studies/test_study_commands.py::test_report_reproduces_the_committed_tables'
    >>> unit_of("tests/deploy/test_full_tmp.py::test_upload")  # shares test_haproxy's deployment
    'tests/deploy/test_haproxy.py'
    """
    module = nodeid.split("::", 1)[0]
    if module in SPREAD_MODULES:
        return nodeid
    if module in SHARED_UNITS:
        return SHARED_UNITS[module]
    head = nodeid.split("[", 1)[0]  # a parameter may hold "::"
    return nodeid[: len(head)].rsplit("::", 1)[0] if "::" in head else head


def unit_costs(lines, scale: float = 1.0) -> dict[str, float]:
    """Seconds per work unit from the lines of a ``--durations=0`` report, longest first,
    units under :data:`KEEP_SECONDS` left out.

    >>> unit_costs(["12.50s call     tests/a.py::test_x", "3.00s setup    tests/a.py::test_y",
    ...             "1.00s call     tests/b.py::test_z"])
    {'tests/a.py': 15.5}
    """
    total: dict[str, float] = defaultdict(float)
    for line in lines:
        m = LINE.match(line)
        if m:
            total[unit_of(m.group(3))] += float(m.group(1)) / scale
    kept = {u: round(s, 1) for u, s in total.items() if s >= KEEP_SECONDS}
    return dict(sorted(kept.items(), key=lambda item: -item[1]))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (1, 2):
        print("usage: python -m tests.costs DURATIONS_LOG [SCALE]", file=sys.stderr)
        return 2
    scale = float(args[1]) if len(args) == 2 else 1.0
    lines = Path(args[0]).read_text(encoding="utf-8").splitlines()
    costs = unit_costs(lines, scale)
    COSTS.write_text(json.dumps(costs, indent=1) + "\n", encoding="utf-8")
    print(f"{COSTS}: {len(costs)} work units, {sum(costs.values()):.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
