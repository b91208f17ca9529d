"""Execute the example notebooks in place, so that they are read on the web with their outputs.

    python3 scripts/run_notebooks.py            # every examples/*.ipynb
    python3 scripts/run_notebooks.py examples/02_grow_inspect_compare.ipynb

Each notebook runs top to bottom in a fresh kernel (nbclient) with this checkout first on the
path; its outputs are written back, and ``metadata.offcenter.source_sha256`` records the hash of
its code cells, so that tests/test_notebooks.py can tell a notebook whose code changed after
its outputs were made (run this script again then). Timing metadata is dropped (it would
change every run).
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]


def source_hash(nb) -> str:
    """sha256 of the notebook's code cells (sources joined by a NUL), outputs aside."""
    code = "\0".join(c.source for c in nb.cells if c.cell_type == "code")
    return hashlib.sha256(code.encode("utf-8")).hexdigest()


def run(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    nb.metadata.setdefault("offcenter", {})["source_sha256"] = source_hash(nb)
    nbformat.write(nb, path)


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or sorted((ROOT / "examples").glob("*.ipynb"))
    for path in paths:
        print(f"running {path} ...", flush=True)
        run(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
