"""The launcher keeps the class up when HAProxy dies (issue 34): ``kill -9`` of HAProxy, and
the launcher starts it again in front of the same Streamlit processes (same pids, still warm, in
service), instead of stopping everything.

``deploy`` tier: the real launcher, ``python -m offcenter.ops.serve``, and Debian's HAProxy.
"""

from __future__ import annotations

import os
import signal

import pytest
import requests

from tests.deploy.test_haproxy import Launcher, _free_port, _poll

pytestmark = pytest.mark.slow  # and deploy, as everything under tests/deploy/


def _haproxy_pid(launcher: Launcher) -> int | None:
    with open(f"/proc/{launcher.proc.pid}/task/{launcher.proc.pid}/children") as fh:
        for pid in (int(x) for x in fh.read().split()):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as fh2:
                    if b"haproxy" in fh2.read().split(b"\0")[0]:
                        return pid
            except OSError:
                continue
    return None


def _healthy(port: int) -> bool:
    try:
        return requests.get(f"http://127.0.0.1:{port}/_stcore/health", timeout=2).ok
    except requests.RequestException:
        return False


def test_haproxy_killed_is_restarted_and_the_processes_are_kept(tmp_path):
    port = _free_port()
    launcher = Launcher(tmp_path / "run", port, "--workers", "1")
    try:
        launcher.wait_ready()
        apps = launcher.pids()
        first = _haproxy_pid(launcher)
        assert first and apps and _healthy(port)
        os.kill(first, signal.SIGKILL)
        again = _poll(lambda: (p := _haproxy_pid(launcher)) not in (None, first) and p, 60)
        assert again, launcher.output[-3000:]
        assert _poll(lambda: _healthy(port), 60), launcher.output[-3000:]
        assert launcher.proc.poll() is None  # the launcher goes on
        assert launcher.pids() == apps  # the same Streamlit processes, not restarted
        assert _poll(lambda: launcher.states().get("app1") == "UP", 30)
        assert "restarting it (the app processes keep running)" in launcher.output
    finally:
        assert launcher.stop() == 0
