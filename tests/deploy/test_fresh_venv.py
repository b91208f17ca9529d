"""Fresh-install truth: the README's install command (``pip install -r requirements.txt -e .``)
in a new virtual environment is enough for the deployment command: its ``--help``, then a short
start of one Streamlit process behind HAProxy, warmed (every page runs once), serving a page.

The venv is built from requirements.txt alone (no dev dependency, no site packages: a module
that only a dev dependency pulls in, such as Tornado through dask, is missing there as on a
user's machine). The running interpreter's pip installs into it (``pip --python``: no pip
bootstrapped in the venv) without compiling every module to bytecode (``--no-compile``: the
first import compiles what it needs), the costs of an install a user pays once.

The venv and its install are made in the background from the session's start
(:mod:`tests.deploy.background`: the same commands, the same environment): the install waits
mostly for the disk, while the workers run other tests; the test checks its outcome.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.deploy.background import Job, result

ROOT = Path(__file__).resolve().parents[2]
#: The environment of the venv's processes: without the checkout on PYTHONPATH (the everyday
#: ``PYTHONPATH=$PWD``), so that what they import is what was installed.
ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
ENV["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
#: The background job (tests/deploy/conftest.py starts it): a new venv from requirements.txt
#: alone (no pip in it, no site packages), the README's install into it by the running pip.
INSTALL = "fresh_venv"
INSTALL_JOB = Job(
    commands=[
        [sys.executable, "-m", "venv", "--without-pip", "{folder}/venv"],
        [sys.executable, "-m", "pip", "--python", "{folder}/venv/bin/python", "install", "-q"]
        + ["--no-compile", "-r", "requirements.txt", "-e", "."],
    ],
    cwd=str(ROOT),
    env=ENV,
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_deployment_command_runs_in_a_fresh_venv_from_requirements_txt(request, tmp_path):
    install = result(request.config, INSTALL, INSTALL_JOB)
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
    python = str(install.folder / "venv" / "bin" / "python")
    env = ENV
    # what only dev dependencies bring is absent, as on a user's machine
    probe = subprocess.run(
        [python, "-c", "import importlib.util as u; print(u.find_spec('tornado') is None)"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert probe.stdout.strip() == "True", probe.stdout + probe.stderr

    help_out = subprocess.run(
        [python, "-m", "offcenter.ops.serve", "--help"],
        cwd=tmp_path,  # the installed package, not the checkout's import path
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert help_out.returncode == 0, help_out.stderr
    assert "--workers" in help_out.stdout

    port = _free_port()
    proc = subprocess.Popen(
        [python, "-m", "offcenter.ops.serve", "--port", str(port), "--address", "127.0.0.1"]
        + ["--workers", "1", "--", "--server.fileWatcherType", "none"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 400
        body = None
        while body is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
                    body = r.read().decode()
            except OSError:
                assert proc.poll() is None, proc.stdout.read()[-4000:]
                assert time.monotonic() < deadline, "the deployment did not get ready"
                time.sleep(0.5)
        assert body == "ok"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as r:
            assert r.status == 200 and "OFFCENTER=" in r.headers.get("Set-Cookie", "")
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            out, _ = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
    assert proc.returncode == 0, out[-4000:]
    assert "every page ran once" in out and "Traceback" not in out, out[-4000:]
    assert sys.executable != python
