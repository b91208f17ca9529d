"""grow stays a sequence of steps a reader can follow: ruff's McCabe check (C901) on
offcenter/tree/growth.py, with the limit of pyproject.toml (``[tool.ruff.lint.mccabe]``).

grow had a cyclomatic complexity of 44 before it was split into steps of one function each; a
regression (a step growing branches, or the steps folded back into grow) fails here, as it fails
``ruff check .``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

ROOT = Path(__file__).resolve().parents[2]
GROWTH = Path("offcenter") / "tree" / "growth.py"


def _ruff_c901(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--select", "C901", "--output-format", "concise"]
        + ["--no-cache", str(GROWTH)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture(scope="module")
def limit() -> int:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["ruff"]["lint"]
    assert "C901" in config["select"]
    assert "C901" in config["per-file-ignores"][f"!{GROWTH.as_posix()}"]  # growth.py only
    return config["mccabe"]["max-complexity"]


def test_every_function_of_growth_is_within_the_limit(limit):
    assert limit <= 12
    out = _ruff_c901(ROOT)
    assert out.returncode == 0, out.stdout + out.stderr


def test_a_more_complex_grow_fails_the_check(tmp_path, limit):
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / GROWTH).parent.mkdir(parents=True)
    text = (ROOT / GROWTH).read_text("utf-8")
    branches = "".join(f"    if len(str(n_nodes)) == {k}:\n        pass\n" for k in range(limit))
    text += f"\n\ndef grow_again(n_nodes):\n{branches}    return n_nodes\n"
    (tmp_path / GROWTH).write_text(text, "utf-8")
    out = _ruff_c901(tmp_path)
    assert out.returncode == 1, out.stdout + out.stderr
    assert f"`grow_again` is too complex ({limit + 1} > {limit})" in out.stdout
