"""How the generated HAProxy configuration routes new students (issue 34), run by Debian's
HAProxy in front of two tiny HTTP servers that stand for the Streamlit processes (no Streamlit:
routing only, a few seconds).

- The heavy pages' students alternate between the processes: a class's 8 Tree students split
  4/4 (``leastconn`` counts connections, not pages, and gave 3/5 in every benchmark run), even
  when the other pages' students all went to one process.
- A browser that has the cookie stays on its process (its page, websocket, uploads and downloads
  must reach the process that holds its session).
- A process in maintenance (cold, restarting) gets no heavy page either: the heavy pages'
  servers follow the main backend's states.
"""

from __future__ import annotations

import http.server
import socketserver
import subprocess
import threading
import urllib.request
from collections import Counter

import pytest

from offcenter.ops.serve import (
    BACKEND_HEADER,
    COOKIE,
    POOL,
    Backend,
    find_haproxy,
    haproxy_command,
    haproxy_config,
    server_states,
)
from tests.deploy.test_haproxy import _free_port, _poll


class _Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 - http.server's name
        body = b"ok"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):  # quiet
        pass


@pytest.fixture
def balancer(tmp_path):
    """HAProxy (the launcher's configuration, every process in service) in front of two HTTP
    servers; yields (port, admin socket)."""
    servers = []
    for _ in range(2):
        srv = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Page)
        # (a short poll: shutdown() waits for the loop's next turn, 0.5 s by default)
        serve = threading.Thread(target=srv.serve_forever, args=(0.02,), daemon=True)
        serve.start()
        servers.append(srv)
    backends = [
        Backend(f"app{i + 1}", "127.0.0.1", s.server_address[1]) for i, s in enumerate(servers)
    ]
    port, admin = _free_port(), str(tmp_path / "haproxy.sock")
    cfg = tmp_path / "haproxy.cfg"
    cfg.write_text(
        haproxy_config(backends, bind=f"127.0.0.1:{port}", admin_socket=admin), encoding="utf-8"
    )
    proc = subprocess.Popen([find_haproxy(), "-db", "-f", str(cfg)], stderr=subprocess.DEVNULL)
    try:
        up = _poll(lambda: set(_states(admin).values()) == {"UP"}, 30)
        assert up, _states(admin)
        yield port, admin
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        for srv in servers:
            srv.shutdown()
            srv.server_close()


def _states(admin: str) -> dict[str, str]:
    try:
        return server_states(admin)
    except OSError:
        return {}


def _open(port: int, path: str, cookie: str | None = None) -> str:
    """A browser's first request for ``path`` (with ``cookie``, HAProxy's, if any): the process
    that answered, which the cookie set by the answer names too."""
    headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else {}
    with urllib.request.urlopen(
        urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers), timeout=10
    ) as r:
        backend = r.headers[BACKEND_HEADER]
        set_cookie = r.headers.get("Set-Cookie") or ""
    assert cookie or set_cookie.startswith(f"{COOKIE}={backend};"), set_cookie
    return backend


def test_a_class_s_tree_students_alternate_between_the_processes(balancer):
    port, _admin = balancer
    # a class opening: the Tree students among the others, in the benchmark's proportions
    # (44 Two classes, 8 q classes, 8 Tree); every first request is a new browser's
    order = ["Two_classes"] * 5 + ["Q_classes", "Tree"]
    tree, compare = Counter(), Counter()
    for _ in range(8):
        for page in order:
            backend = _open(port, f"/{page}?data=pima" if page == "Tree" else f"/{page}")
            if page == "Tree":
                tree[backend] += 1
        compare[_open(port, "/compare_measures/")] += 1  # any case, a trailing slash
    # each heavy page in turn of its own (a shared turn would pair each with one process)
    assert tree == {"app1": 4, "app2": 4} and compare == {"app1": 4, "app2": 4}
    # the heavy pages' own requests under their path are not theirs: /Tree/_stcore/health
    # goes with the cookie like every other request
    assert _open(port, "/Tree/_stcore/health", cookie="app2") == "app2"


def test_a_browser_with_the_cookie_stays_on_its_process(balancer):
    port, _admin = balancer
    assert {_open(port, "/Tree", cookie="app2") for _ in range(4)} == {"app2"}
    assert {_open(port, "/Two_classes", cookie="app1") for _ in range(4)} == {"app1"}


def test_a_process_in_maintenance_gets_no_heavy_page(balancer):
    port, admin = balancer
    haproxy_command(admin, f"set server {POOL}/app2 state maint")
    assert {_open(port, "/Tree") for _ in range(4)} == {"app1"}
    # a browser whose process went out is sent to a live one (option redispatch)
    assert _open(port, "/Tree", cookie="app2") == "app1"
    haproxy_command(admin, f"set server {POOL}/app2 state ready")
    assert _poll(lambda: _states(admin).get("app2") == "UP", 30)
    assert {_open(port, "/Tree") for _ in range(4)} == {"app1", "app2"}
