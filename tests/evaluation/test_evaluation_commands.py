"""Every command of docs/evaluation.md runs from the repository, on the data it bundles.

The commands used to read ``../shared/datasets``, outside the project (issue 37). They now read
the package's bundled copies (``offcenter/data/bundled/``, byte for byte the files the study was
run on). Here each command is checked against the command its committed output records, and run
at a tiny size (two folds, one repeat, two trees, the two smallest of its files) into a temporary
folder.
"""

import re
import shlex
from pathlib import Path

import pytest

from offcenter.evaluation.cli import main as cli_main

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "evaluation.md"
COMMAND = re.compile(r"^python -m offcenter\.evaluate (?!study)\S.*$", re.MULTILINE)
TINY = {"--folds": "2", "--repeats": "1", "--n-estimators": "2"}


def documented() -> list[str]:
    return COMMAND.findall(DOC.read_text(encoding="utf-8"))


def test_the_commands_read_only_the_project_s_files():
    cmds = documented()
    assert len(cmds) == 4
    for c in cmds:
        assert "../" not in c and "shared" not in c, c
        files = [a for a in shlex.split(c)[3:] if a.endswith(".csv") and not a.startswith("docs/")]
        assert files and all((ROOT / f).is_file() for f in files), c
        assert all(f.startswith("offcenter/data/bundled/") for f in files), c


def test_each_command_is_the_one_its_committed_output_records():
    for c in documented():
        argv = shlex.split(c)
        md = argv[argv.index("--markdown") + 1]
        recorded = (ROOT / md).read_text(encoding="utf-8").split("```")[1].strip()
        assert recorded == c, md


@pytest.mark.slow
@pytest.mark.parametrize("command", documented())
def test_documented_evaluation_commands_run_at_a_tiny_size(command, tmp_path):
    argv = shlex.split(command)[3:]
    files = [a for a in argv if a.startswith("offcenter/data/bundled/")]
    two = sorted(files, key=lambda f: (ROOT / f).stat().st_size)[:2]
    out, i = [str(ROOT / f) for f in two], 0
    while i < len(argv):
        a = argv[i]
        if a in files:
            i += 1
        elif a in ("--out", "--markdown"):
            out += [a, str(tmp_path / Path(argv[i + 1]).name)]
            i += 2
        elif a in TINY:
            out += [a, TINY[a]]
            i += 2
        else:
            out.append(a)
            i += 1
    assert cli_main([*out, "--n-jobs", "1", "--quiet"]) == 0
    assert (tmp_path / Path(argv[argv.index("--out") + 1]).name).stat().st_size > 0
    assert "|" in (tmp_path / Path(argv[argv.index("--markdown") + 1]).name).read_text()
