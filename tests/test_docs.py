"""The README and docs/: the README's example runs, its links and pictures exist, it tells no
history; docs/architecture.md names every module and its data flows name code that exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
DOCS = [
    README,
    ARCHITECTURE,
    *(ROOT / "docs" / f"{n}.md" for n in ("app", "measures", "tree", "performance")),
    ROOT / "docs" / "comparing_measures.md",
]
#: Written by another part of the work in parallel (docs/deploy.md: the deployment commands).
PENDING = {ROOT / "docs" / "deploy.md"}


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_readme_is_short():
    n = len(README.read_text(encoding="utf-8").splitlines())
    assert n <= 200, f"README.md has {n} lines: move the details to docs/"


def test_readme_example_runs(capsys):
    blocks = _python_blocks(README.read_text(encoding="utf-8"))
    assert len(blocks) == 1, "the README has one Python example: the package in ~30 lines"
    assert len(blocks[0].splitlines()) <= 35
    exec(compile(blocks[0], str(README), "exec"), {"__name__": "readme"})
    assert "THEN class" in capsys.readouterr().out


def test_readme_tells_no_history():
    text = README.read_text(encoding="utf-8").lower()
    for phrase in (
        "used to",
        "the run before",
        "no longer",
        "changelog",
        "before/after",
        "was made",
    ):
        assert phrase not in text, f"README.md: {phrase!r} is history (git and benchmarks keep it)"


def test_readme_shows_every_page():
    text = README.read_text(encoding="utf-8")
    for page in ("Home", "Two classes", "q classes", "Tree", "Compare measures"):
        assert f"**{page}" in text, page
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert len(pictures) >= 5
    for pic in pictures:
        data = (ROOT / pic).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", pic


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_local_links_exist(doc):
    text = doc.read_text(encoding="utf-8")
    missing = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        path = (doc.parent / target.split("#")[0]).resolve()
        if not path.exists() and path not in PENDING:
            missing.append(target)
    assert not missing, f"{doc.name} links to missing files: {missing}"


def _modules() -> list[str]:
    return sorted(
        str(p.relative_to(ROOT / "offcenter")) for p in (ROOT / "offcenter").rglob("*.py")
    )


def test_architecture_names_every_module():
    text = ARCHITECTURE.read_text(encoding="utf-8")
    missing = [m for m in _modules() if f"`{m}`" not in text]
    assert not missing, (
        "docs/architecture.md does not name these modules (add a row `subpackage/module.py` "
        "to the table of its subpackage, under '## Modules'): " + ", ".join(missing)
    )


def test_architecture_names_no_module_that_is_gone():
    text = ARCHITECTURE.read_text(encoding="utf-8")
    modules = text[text.index("## Modules") : text.index("## Measure settings")]
    named = re.findall(r"^\| `([\w/]+\.py)` \|", modules, re.M)
    gone = sorted(set(named) - set(_modules()))
    assert not gone, f"docs/architecture.md names modules that do not exist: {gone}"


def test_the_data_flows_name_code_that_exists():
    text = ARCHITECTURE.read_text(encoding="utf-8")
    flows = text[text.index("## How data flows") :]
    sources = [*ROOT.glob("offcenter/**/*.py"), *ROOT.glob("pages/*.py"), ROOT / "app.py"]
    code = "\n".join(p.read_text(encoding="utf-8") for p in sources)
    missing = set()
    for quoted in re.findall(r"`([^`]+)`", flows):
        for name in re.findall(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*", quoted):
            last = name.split(".")[-1]
            if last == "py" or len(last) < 3:
                continue
            if not re.search(rf"\b{re.escape(last)}\b", code):
                missing.add(name)
    assert not missing, (
        f"docs/architecture.md's data flows name what the code does not have: {sorted(missing)}"
    )
