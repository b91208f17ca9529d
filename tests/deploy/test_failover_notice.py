"""The failover notice reaches a browser (issue 34): after ``kill -9`` of the process that held
a session, the browser's first requests (``/_stcore/health``, ``/_stcore/host-config``) reach
the live process and rewrite the stickiness cookie before the websocket reopens; the page must
still say that the session moved and that its settings came back from the address.

Replays a browser's order of requests with its cookie jar (``requests.Session``) and
Streamlit's websocket, through the real launcher and HAProxy.
"""

from __future__ import annotations

import os
import signal

import pytest
import requests

from offcenter.ops.serve import COOKIE, SESSION_COOKIE
from tests.conftest import run_coroutine
from tests.deploy.test_haproxy import Launcher, Tab, _free_port, _poll

pytestmark = pytest.mark.slow  # and deploy, as everything under tests/deploy/


def _cookies_of_ws(tab: Tab) -> dict[str, str]:
    """The cookies the websocket's handshake response set (as a browser stores them)."""
    out = {}
    for value in tab.conn.response.headers.get_all("Set-Cookie"):
        name, _, rest = value.partition("=")
        out[name.strip()] = rest.split(";", 1)[0]
    return out


def test_a_moved_session_is_told_so_after_the_browser_s_own_requests(tmp_path):
    launcher = Launcher(tmp_path / "run", _free_port(), "--workers", "2", "--no-warm")
    try:
        launcher.wait_ready()
        port = launcher.port
        jar = requests.Session()
        assert jar.get(f"http://127.0.0.1:{port}/", timeout=30).ok  # the page's HTML
        first = jar.cookies.get(COOKIE)
        assert first in ("app1", "app2")

        async def before() -> dict[str, str]:
            tab = Tab(port, dict(jar.cookies))
            await tab.open("Two_classes", "theta=0.35")
            assert tab.backend == first
            assert not any("stopped" in a for a in tab.alerts)  # no notice on a first visit
            cookies = _cookies_of_ws(tab)
            await tab.close()
            return cookies

        set_by_ws = run_coroutine(before())
        assert set_by_ws.get(SESSION_COOKIE) == first
        jar.cookies.set(SESSION_COOKIE, first)

        os.kill(launcher.pids()[first], signal.SIGKILL)
        assert _poll(lambda: not launcher.states().get(first, "").startswith("UP"), 10)
        # the browser's reconnection: health and config first (they rewrite the cookie) ...
        for path in ("/_stcore/health", "/_stcore/host-config"):
            jar.get(f"http://127.0.0.1:{port}{path}", timeout=30)
        assert jar.cookies.get(COOKIE) != first

        async def after() -> Tab:  # ... then the websocket, with the browser's cookies
            tab = Tab(port, dict(jar.cookies))
            await tab.open("Two_classes", "theta=0.35")
            await tab.close()
            return tab

        tab = run_coroutine(after())
        assert tab.backend != first
        assert any("stopped" in a and "came back from its address" in a for a in tab.alerts), (
            tab.alerts
        )
        assert tab.sliders["tc_theta"] == [pytest.approx(0.35)]  # the settings, from the link
    finally:
        assert launcher.stop() == 0
