"""The example notebooks (examples/*.ipynb) run from top to bottom without an error, and are
committed with current outputs (made by scripts/run_notebooks.py from their present code).

Each is executed in a fresh Jupyter kernel by nbclient (what ``pytest --nbmake examples/``
does too), with the repository first on the kernel's path so that this checkout's package is
the one imported; a few outputs are checked so that a notebook that runs but says nothing
fails.
"""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "examples").glob("*.ipynb"))

EXPECTED = {
    "01_measures_and_paper_figures": ["off-centered, θ=0.2", "daroczy_b0.5"],
    "02_grow_inspect_compare": ["glucose", "off-centered Shannon"],
    "03_imbalanced_study": ["off-centered at the prior", "OOB accuracy"],
    "04_scikit_learn": ["treeclassifier__measure", "Tsallis entropy"],
}


def _text(nb) -> str:
    parts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            parts.append(str(out.get("text", "")))
            data = out.get("data", {})
            parts.append(str(data.get("text/plain", "")))
            parts.append(str(data.get("text/markdown", "")))
    return "\n".join(parts)


def _source_hash(nb) -> str:
    import hashlib

    code = "\0".join(c.source for c in nb.cells if c.cell_type == "code")
    return hashlib.sha256(code.encode("utf-8")).hexdigest()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_committed_outputs_are_current(path):
    """Every code cell has run, in order, without an error, and the outputs were made from the
    code as it is now (the hash scripts/run_notebooks.py records); a notebook edited after its
    run fails here: run the script again."""
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert [c.execution_count for c in code] == list(range(1, len(code) + 1)), (
        f"{path.name}: run python3 scripts/run_notebooks.py {path.relative_to(ROOT)}"
    )
    assert not [o for c in code for o in c.outputs if o.output_type == "error"]
    recorded = nb.metadata.get("offcenter", {}).get("source_sha256")
    assert recorded == _source_hash(nb), (
        f"{path.name} changed since its outputs were made: run python3 scripts/run_notebooks.py"
    )
    for needle in EXPECTED[path.stem]:
        assert needle in _text(nb), (path.stem, needle)
    assert "/work/" not in path.read_text(encoding="utf-8")  # no machine's paths in outputs


def test_there_are_three_to_four_notebooks():
    assert 3 <= len(NOTEBOOKS) <= 4
    assert {p.stem for p in NOTEBOOKS} == set(EXPECTED)


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:  # run from scratch: the committed outputs are checked below
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    text = _text(nb)
    for needle in EXPECTED[path.stem]:
        assert needle in text, (path.stem, needle)
