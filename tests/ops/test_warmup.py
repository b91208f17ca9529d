"""The warm-up's wait for a server's health (offcenter.ops.warmup.wait_healthy)."""

from __future__ import annotations

import subprocess
import sys

from offcenter.ops.warmup import wait_healthy


def test_waiting_for_health_stops_when_the_server_process_exits():
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait(30)
    # nothing listens on the port and the process is gone: no wait for the 300 s bound
    assert wait_healthy(1, wait=300, process=dead) is False
