"""The distributable package: wheel and sdist build, twine accepts them, the wheel installs
into a fresh virtual environment outside the repository and fits a tree on a bundled data set;
one version source; LICENSE and CITATION.cff.

The build runs without isolation (``--no-isolation``: the installed setuptools, no download),
on a copy of the tracked files; the venv reuses the installed dependencies (those of the
interpreter running the tests, through a ``.pth`` file naming its ``sys.path``, so this holds
inside a virtual environment too) and installs the wheel with ``--no-deps``, so the test runs
offline.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

import offcenter

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    from pip._vendor import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]


#: The environment of the venv's interpreter: without the checkout on PYTHONPATH (the everyday
#: ``PYTHONPATH=$PWD``), so that what it imports is what is installed.
VENV_ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}


def _run(cmd, cwd, timeout=600, env=None):
    out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
    assert out.returncode == 0, (cmd, out.stdout[-2000:], out.stderr[-3000:])
    return out.stdout


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    src = tmp_path_factory.mktemp("src")
    files = _run(["git", "ls-files", "-z"], ROOT).split("\0")
    for name in filter(None, files):
        path = ROOT / name
        if path.is_file():  # files deleted in the worktree but still tracked are skipped
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, src / name)
    for name in ("pyproject.toml", "LICENSE", "CITATION.cff", "MANIFEST.in", "README.md"):
        shutil.copy2(ROOT / name, src / name)  # also before they are committed
    out = src / "dist"
    _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(src)], src)
    return out


def test_wheel_and_sdist_pass_twine(dist):
    wheels = list(dist.glob("*.whl"))
    sdists = list(dist.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1
    assert f"offcenter-{offcenter.__version__}-" in wheels[0].name
    text = _run(
        [sys.executable, "-m", "twine", "check", "--strict", *map(str, wheels + sdists)], dist
    )
    assert text.count("PASSED") == 2


def _fresh_venv(env_dir: Path) -> Path:
    """A new venv at ``env_dir`` that sees the packages of the interpreter running the tests.

    ``--system-site-packages`` alone gives the base interpreter's packages; when the tests run
    in a virtual environment (the README's install) its packages are elsewhere. Every directory
    on the running ``sys.path`` but the checkout is named in a ``.pth`` file of the new venv,
    so it comes after the venv's own site-packages (what is installed there wins).
    """
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    own = _run([str(py), "-c", code], ROOT, env=VENV_ENV)
    paths = [p for p in dict.fromkeys(sys.path) if p and Path(p).is_dir()]
    paths = [p for p in paths if Path(p).resolve() != ROOT]
    Path(own.strip(), "_running_packages.pth").write_text("\n".join(paths) + "\n")
    return py


def test_the_fresh_venv_sees_the_running_interpreters_packages(tmp_path, monkeypatch):
    # what a virtual environment's site-packages is to the base interpreter: a directory the
    # running interpreter imports from and the base one does not know
    active = tmp_path / "active-site-packages"
    active.mkdir()
    (active / "only_in_the_active_env.py").write_text("WHERE = 'active'\n")
    monkeypatch.setattr(sys, "path", [*sys.path, str(active)])
    py = _fresh_venv(tmp_path / "venv")
    code = "import only_in_the_active_env as m, pandas; print(m.WHERE)"
    out = _run([str(py), "-c", code], tmp_path, env=VENV_ENV)
    assert out.strip() == "active"


@pytest.fixture(scope="module")
def wheel_venv(dist, tmp_path_factory) -> tuple[Path, Path]:
    """One fresh venv with the wheel installed, shared by the tests of the installed package:
    ``(its folder, its python)``."""
    env_dir = tmp_path_factory.mktemp("wheel") / "venv"
    py = _fresh_venv(env_dir)
    wheel = next(dist.glob("*.whl"))
    pip = [sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps"]
    _run([*pip, "--no-index", str(wheel)], env_dir.parent, env=VENV_ENV)
    return env_dir, py


def test_wheel_installs_in_a_fresh_venv_and_fits(wheel_venv, tmp_path):
    env_dir, py = wheel_venv
    code = (
        "import offcenter, sys\n"
        "from offcenter.data.datasets import load\n"
        "df = load('pima')\n"
        "X, y = df.drop(columns='diabetes'), df['diabetes']\n"
        "clf = offcenter.TreeClassifier(theta='prior', max_depth=3).fit(X, y)\n"
        "print(offcenter.__file__)\n"
        "print(offcenter.__version__, clf.get_n_leaves(), round(clf.score(X, y), 3))\n"
    )
    out = _run([str(py), "-c", code], tmp_path, env=VENV_ENV).splitlines()
    assert out[0].startswith(str(env_dir)), out  # the wheel's package, not the repository's
    version, leaves, score = out[1].split()
    assert version == offcenter.__version__ and int(leaves) >= 2 and float(score) > 0.7
    # the console scripts of the evaluation CLI and of the app are installed
    assert (env_dir / "bin" / "offcenter-evaluate").exists()
    assert (env_dir / "bin" / "offcenter-app").exists()
    # the app's files come from the wheel: one copy of each page in the repository, the same
    # bytes in the wheel's offcenter_app
    where = _run(
        [str(py), "-c", "from offcenter.app.launch import app_dir; print(app_dir())"],
        tmp_path,
        env=VENV_ENV,
    )
    app = Path(where.strip())
    assert str(app).startswith(str(env_dir)), app
    assert (app / "app.py").read_bytes() == (ROOT / "app.py").read_bytes()
    pages = sorted(p.name for p in (ROOT / "pages").glob("*.py"))
    assert sorted(p.name for p in (app / "pages").glob("*.py")) == pages
    for name in pages:
        assert (app / "pages" / name).read_bytes() == (ROOT / "pages" / name).read_bytes()
    assert (app / "docs" / "imbalanced_study_folds.csv.gz").is_file()


def test_offcenter_app_serves_from_the_wheel(wheel_venv, tmp_path):
    """The installed console script starts the app: its health endpoint answers and the
    page is served (a bounded wait for the server to come up). Started cold
    (``OFFCENTER_WARM=0``): its warm-up is not what is checked (tests/deploy/test_warm_start.py
    checks it; tests/deploy/test_fresh_venv.py warms a deployment of a fresh install)."""
    import socket
    import time
    import urllib.request

    from offcenter.ops.warmup import WARM_ENV

    env_dir, py = wheel_venv
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = subprocess.Popen(
        [
            str(env_dir / "bin" / "offcenter-app"),
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=tmp_path,
        env={**VENV_ENV, WARM_ENV: "0"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        body = None
        # a bound, not a measured time
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                break
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/_stcore/health", timeout=2
                ) as r:
                    body = r.read().decode()
                break
            except OSError:
                time.sleep(0.25)
        assert body == "ok", proc.stdout.read() if proc.poll() is not None else "no answer"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
            assert r.status == 200 and "<html" in r.read().decode().lower()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_every_subpackage_is_packaged_and_baycomp_is_an_extra():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(meta["tool"]["setuptools"]["packages"])
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "offcenter").rglob("__init__.py")
    }
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"
    deps = " ".join(meta["project"]["dependencies"])
    assert "baycomp" not in deps and "plotly" not in deps and "streamlit" not in deps
    assert any(d.startswith("baycomp") for d in meta["project"]["optional-dependencies"]["stats"])
    # the README's install (pip install -r requirements.txt -e .) keeps everything the app needs
    req = (ROOT / "requirements.txt").read_text()
    for name in [
        "baycomp",
        *(d.split(">")[0] for d in meta["project"]["optional-dependencies"]["app"]),
    ]:
        assert re.search(rf"^{re.escape(name)}\b", req, re.M), name
    assert meta["project"]["scripts"]["offcenter-app"] == "offcenter.app.launch:main"


def test_one_version_source():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in meta["project"] and "version" in meta["project"]["dynamic"]
    assert meta["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "offcenter.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", offcenter.__version__)
    cff = (ROOT / "CITATION.cff").read_text()
    assert f"version: {offcenter.__version__}" in cff


def test_license_and_citation():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert meta["project"]["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    cff = (ROOT / "CITATION.cff").read_text()
    assert "cff-version: 1.2.0" in cff and "license: MIT" in cff
    for word in ("Lallich", "Lenca", "Vaillant", "off-centered entropy", "2007", "hal-02121319"):
        assert word in cff
    # the software's own citation: a year (date-released), the repository, the version
    import yaml

    data = yaml.safe_load(cff)
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(data["date-released"]))
    assert data["version"] == offcenter.__version__
    assert data["repository-code"] == meta["project"]["urls"]["Repository"]
