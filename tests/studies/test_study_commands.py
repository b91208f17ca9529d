"""Every command of the study's documents (README, docs/comparing_measures.md,
docs/imbalanced_study.md) is run here, at a tiny size where the real one takes an hour: the same
arguments with two data sets, 2 folds x 1 repeat and 2 trees per forest, writing to a temporary
folder. A command added to these documents and not known here fails the first test. (The
figures script needs a browser and is not run here; the ``--report`` command is run on each tiny
run's results.)"""

import importlib.util
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest

from offcenter.evaluate import main as cli_main

ROOT = Path(__file__).resolve().parents[2]
DOCS = [
    ROOT / "README.md",
    ROOT / "docs" / "comparing_measures.md",
    ROOT / "docs" / "imbalanced_study.md",
]
COMMAND = re.compile(r"(python (?:-m offcenter\.evaluate study|scripts/[\w]+\.py)[^`\n]*)")
TINY = ["--folds", "2", "--repeats", "1", "--n-estimators", "2", "--n-jobs", "1", "--quiet"]
KNOWN_SCRIPTS = {
    "study_summary.py",
    "study_figures.py",
    "confirmation_report.py",
    "sensitivity_report.py",
}


def documented_commands() -> list[str]:
    out = []
    for doc in DOCS:
        for line in doc.read_text(encoding="utf-8").splitlines():
            out += [m.strip() for m in COMMAND.findall(line)]
    return list(dict.fromkeys(out))


def _script(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_every_documented_command_is_known():
    cmds = documented_commands()
    assert any("--report" in c for c in cmds) and any("keel_confirmation" in c for c in cmds)
    for c in cmds:
        if c.startswith("python scripts/"):
            assert shlex.split(c)[1].split("/")[1] in KNOWN_SCRIPTS, c


def _tiny(argv: list[str], tmp: Path) -> list[str]:
    """The study command ``argv`` (after ``study``) at a tiny size, writing into ``tmp``."""
    out, i = [], 0
    while i < len(argv):
        a = argv[i]
        if a in ("--out", "--markdown"):
            out += [a, str(tmp / Path(argv[i + 1]).name)]
            i += 2
            continue
        if a == "--n-jobs":
            i += 2
            continue
        out.append(str(ROOT / a) if a.startswith("data/") else a)
        i += 1
    folder = next(
        (Path(a) for a in out if a.startswith(str(ROOT / "data"))), ROOT / "data" / "keel"
    )
    two = sorted(folder.glob("*.csv"), key=lambda p: p.stat().st_size)[:2]
    if folder == ROOT / "data" / "keel" and not any(a.startswith(str(ROOT)) for a in out):
        out.insert(0, str(folder))
    return [*out, "--only", ",".join(p.stem for p in two), *TINY]


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [
        c
        for c in documented_commands()
        if " study " in c + " " and "--report" not in c and "--help" not in c
    ],
)
def test_documented_study_commands_run_at_a_tiny_size(command, tmp_path, capsys):
    argv = shlex.split(command)[3:]
    assert argv[0] == "study"
    assert cli_main(["study", *_tiny(argv[1:], tmp_path)]) == 0
    outs = [p for p in tmp_path.iterdir() if p.name.endswith(".csv.gz")]
    assert outs, command
    # the documented --report rebuilds the same tables from what the run wrote
    for md in tmp_path.glob("*.md"):
        again = tmp_path / "again.md"
        assert cli_main(["study", "--report", str(outs[0]), "--markdown", str(again)]) == 0
        assert again.read_text() == md.read_text()


@pytest.mark.slow
def test_the_summary_and_confirmation_scripts_run(tmp_path):
    """``python scripts/study_summary.py`` on a tiny run, and ``python
    scripts/confirmation_report.py`` on a copy of the document (which it must leave as it is)."""
    out = tmp_path / "folds.csv.gz"
    keel = ROOT / "data" / "keel"
    two = sorted(keel.glob("*.csv"), key=lambda p: p.stat().st_size)[:2]
    argv = [
        str(keel),
        "--models",
        "tree",
        "--out",
        str(out),
        "--only",
        ",".join(p.stem for p in two),
    ]
    assert cli_main(["study", *argv, *TINY]) == 0
    doc = tmp_path / "imbalanced_study.md"
    shutil.copy(ROOT / "docs" / "imbalanced_study.md", doc)
    assert _script("study_summary").main([str(out), "--doc", str(doc)]) == 0
    assert "<!-- summary:start -->\n- Primary endpoint" in doc.read_text(encoding="utf-8")
    shutil.copy(ROOT / "docs" / "imbalanced_study.md", doc)
    assert _script("confirmation_report").main(["--doc", str(doc)]) == 0
    assert doc.read_text(encoding="utf-8") == (ROOT / "docs" / "imbalanced_study.md").read_text(
        encoding="utf-8"
    )


@pytest.mark.slow
def test_report_reproduces_the_committed_tables(tmp_path):
    """The documented ``--report`` rebuilds docs/imbalanced_study_tables.md byte for byte from
    the committed per-fold results (issue 37)."""
    md = tmp_path / "tables.md"
    folds = ROOT / "docs" / "imbalanced_study_folds.csv.gz"
    assert cli_main(["study", "--report", str(folds), "--markdown", str(md)]) == 0
    assert md.read_bytes() == (ROOT / "docs" / "imbalanced_study_tables.md").read_bytes()


def test_the_documented_help_command_runs(capsys):
    assert "python -m offcenter.evaluate study --help" in documented_commands()
    with pytest.raises(SystemExit) as exc:
        cli_main(["study", "--help"])
    assert exc.value.code == 0 and "--models" in capsys.readouterr().out
