"""The deployment with the real balancer: ``python -m offcenter.ops.serve`` starts two Streamlit
processes (on 127.0.0.2 and 127.0.0.3: backends on different hosts) behind Debian's HAProxy, and
the tests check what a class needs of it:

- stickiness: a browser's page, websocket, upload and download reach one process;
- a hung process (SIGSTOP) is taken out by the health check within 5 s and put back after
  SIGCONT; the other process serves every new session meanwhile;
- a restart of the whole deployment leaves no stray process or port (a deployment of its own,
  not warmed: what is checked is the processes and ports);
- with no process in service a browser gets a page that retries.

The kills are checked in test_failover_browser.py, one kill each on the same deployment, with a
browser's student and a class of websocket tabs watching it:

- a process killed (kill -9) mid-class: HAProxy stops routing to it within 5 s, the sessions on
  the other process go on without error or delay above the goal, the dead process's students
  reconnect (to the live process) and find their settings through the URL, the Tree page's hand
  edits too, and an upload that cannot survive is said on screen; the launcher restarts the
  process, warms it and puts it back in service; processes on other hosts (``--backends``: the
  same two processes, seen by a second launcher, their own launcher standing for their
  machines' supervisor) are warmed by that second launcher before it sends them traffic, after
  the restart too;
- HAProxy killed (kill -9): the launcher starts it again in front of the same processes, which
  go back in service.

The first three run on the tier's shared deployment (``deployment``, tests/deploy/conftest.py),
shared with test_failover_browser.py and test_full_tmp.py: each test that needs the whole
deployment waits for it first (a test before it may have killed a process or HAProxy). This
module holds what they share: :class:`Launcher` (the command in a subprocess), :class:`Tab` (a
browser tab's websocket session).

Every wait is a bounded poll (liveness), never a fixed sleep that a result depends on.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.asyncio.client import connect

from offcenter.ops.serve import BACKEND_HEADER, COOKIE, server_states

ROOT = Path(__file__).resolve().parents[2]
HOSTS = ("127.0.0.2", "127.0.0.3")
#: the interaction goal of the deployment (p95 of a class of 60 on two processes)
GOAL_S = 0.5


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _poll(predicate, bound: float, every: float = 0.1):
    """Poll ``predicate`` until it is truthy; its value, or None after ``bound`` seconds."""
    deadline = time.monotonic() + bound
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            return None
        time.sleep(every)


class Launcher:
    """``python -m offcenter.ops.serve`` in a subprocess, its output collected."""

    def __init__(self, run_dir: Path, port: int, *extra: str, env: dict | None = None):
        self.port = port
        self.run_dir = run_dir
        self.admin = str(run_dir / "haproxy.sock")
        cmd = [sys.executable, "-m", "offcenter.ops.serve", "--port", str(port)]
        cmd += ["--address", "127.0.0.1", "--run-dir", str(run_dir), *extra]
        cmd += ["--", "--server.fileWatcherType", "none"]
        self.proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=None if env is None else {**os.environ, **env},
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line)

    @property
    def output(self) -> str:
        return "".join(self.lines)

    def wait_ready(self, bound: float = 300) -> None:
        ok = _poll(lambda: "offcenter: ready" in self.output or self.proc.poll() is not None, bound)
        assert ok and self.proc.poll() is None, self.output[-4000:]

    def pids(self) -> dict[str, int]:
        """Each backend's current Streamlit pid (the launcher's children, by their port)."""
        names = {port: name for name, (_, port) in zip(self.names(), self.ports())}
        out = {}
        with open(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children") as fh:
            children = [int(x) for x in fh.read().split()]
        for pid in children:
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as fh:
                    args = fh.read().split(b"\0")
            except OSError:
                continue
            if b"streamlit" in args and b"--server.port" in args:
                out[names[int(args[args.index(b"--server.port") + 1])]] = pid
        return out

    def names(self) -> list[str]:
        text = (self.run_dir / "haproxy.cfg").read_text()
        return re.findall(r"^\s+server (\S+) \S+ check ", text, re.M)  # the main backend's

    def ports(self) -> list[tuple[str, int]]:
        """(host, port) of every backend, from HAProxy's configuration."""
        text = (self.run_dir / "haproxy.cfg").read_text()
        return [
            (m.group(1), int(m.group(2)))
            for m in re.finditer(r"^\s+server \S+ (\S+):(\d+) check ", text, re.M)
        ]

    def states(self) -> dict[str, str]:
        return server_states(self.admin)

    def wait_whole(self, bound: float = 300) -> None:
        """Wait until the deployment is whole: HAProxy running, every process the launcher
        started or restarted in service (its log says so), every one UP in HAProxy. A test
        that hangs or kills a process or HAProxy of the shared deployment waits for it before
        it starts, so that it finds the deployment as a class would."""

        def states() -> dict[str, str]:
            try:
                return self.states()
            except OSError:  # HAProxy's admin socket not there (yet)
                return {}

        def whole() -> bool:
            out = self.output
            restarts = out.count("; restarting it\n")
            return (
                self.haproxy_pid() is not None
                and out.count(") in service\n") >= len(self.names()) + restarts
                and set(states().values()) == {"UP"}
            )

        assert self.proc.poll() is None, self.output[-3000:]
        assert _poll(whole, bound), (states(), self.output[-3000:])

    def haproxy_pid(self) -> int | None:
        """HAProxy's pid (the launcher's child running ``haproxy``), None while there is none."""
        with open(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children") as fh:
            for pid in (int(x) for x in fh.read().split()):
                try:
                    with open(f"/proc/{pid}/cmdline", "rb") as fh2:
                        if b"haproxy" in fh2.read().split(b"\0")[0]:
                            return pid
                except OSError:
                    continue
        return None

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


# ------------------------------------------------------------------------ a browser session


class Tab:
    """A browser tab's websocket session through HAProxy, with the cookies of a browser."""

    def __init__(self, port: int, cookies: dict[str, str] | None = None):
        self.port = port
        self.cookies = dict(cookies or {})
        self.conn = None
        self.backend = None
        self.session_id = None
        self.query = ""
        self.texts: list[str] = []
        self.alerts: list[str] = []
        self.sliders: dict[str, list[float]] = {}
        self.downloads: list[str] = []
        self.exceptions: list[str] = []

    async def open(self, page: str, query: str = "") -> float:
        """Connect, run ``page`` with ``query``; the seconds to the end of the run."""
        started = time.perf_counter()
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        self.conn = await connect(
            f"ws://127.0.0.1:{self.port}/_stcore/stream",
            subprotocols=["streamlit"],
            origin=f"http://127.0.0.1:{self.port}",
            additional_headers={"Cookie": cookie} if cookie else None,
            max_size=None,
            ping_interval=None,
            open_timeout=60,
        )
        self.backend = self.conn.response.headers.get(BACKEND_HEADER)
        self.query = query
        bm = BackMsg()
        bm.rerun_script.page_name = page
        bm.rerun_script.query_string = query
        bm.rerun_script.widget_states.SetInParent()
        await self.conn.send(bm.SerializeToString())
        await self._until_finished()
        return time.perf_counter() - started

    async def rerun(self) -> float:
        """A rerun of the page as it is (a student's interaction); seconds to its end."""
        started = time.perf_counter()
        bm = BackMsg()
        bm.rerun_script.query_string = self.query
        bm.rerun_script.widget_states.SetInParent()
        await self.conn.send(bm.SerializeToString())
        await self._until_finished()
        return time.perf_counter() - started

    async def _until_finished(self) -> None:
        self.texts, self.alerts, self.downloads = [], [], []
        await asyncio.wait_for(self._read_run(), 120)

    async def _read_run(self) -> None:
        async for data in self.conn:
            msg = ForwardMsg()
            msg.ParseFromString(data)
            kind = msg.WhichOneof("type")
            if kind == "new_session":
                self.session_id = msg.new_session.initialize.session_id or self.session_id
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                el = msg.delta.new_element
                et = el.WhichOneof("type")
                if et == "markdown":
                    self.texts.append(el.markdown.body)
                elif et == "alert":
                    self.alerts.append(el.alert.body)
                elif et == "exception":
                    self.exceptions.append(el.exception.message)
                elif et == "slider":
                    self.sliders[el.slider.id.rsplit("-", 1)[-1]] = list(el.slider.value)
                elif et == "download_button" and el.download_button.url:
                    self.downloads.append(el.download_button.url)
            elif kind == "script_finished" and (
                msg.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN
            ):
                return
        raise ConnectionError("the session closed before its run ended")

    async def close(self) -> None:
        if self.conn is not None:
            await self.conn.close()


def run(coro):
    """Run a coroutine on a loop of its own thread (the browser tests may hold the main one)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


# ------------------------------------------------------------------------ the deployment
# ``deployment``: tests/deploy/conftest.py's, the tier's shared one (with
# test_failover_browser.py and test_full_tmp.py)


def test_two_processes_on_two_hosts_are_in_service_behind_haproxy(deployment):
    deployment.wait_whole()  # (a test of the shared deployment before may have killed one)
    # UP (or "UP 1/2": one slow health answer on this shared machine, still in service)
    states = deployment.states()
    assert sorted(states) == ["app1", "app2"]
    assert all(s.startswith("UP") for s in states.values()), states
    assert [host for host, _ in deployment.ports()] == list(HOSTS)
    for name, pid in deployment.pids().items():
        assert pid > 0, name
    assert "every page ran once" in deployment.output  # warmed before they got traffic
    r = requests.get(f"http://127.0.0.1:{deployment.port}/healthz", timeout=10)
    assert r.status_code == 200 and r.text == "ok"
    # a new browser gets the stickiness cookie; the sessions spread over both processes
    seen = set()
    for _ in range(4):
        r = requests.get(f"http://127.0.0.1:{deployment.port}/", timeout=30)
        assert r.status_code == 200
        assert r.cookies.get(COOKIE) == r.headers[BACKEND_HEADER]
        seen.add(r.headers[BACKEND_HEADER])

    async def two_tabs():
        tabs = [Tab(deployment.port), Tab(deployment.port)]
        await tabs[0].open("Two_classes")
        await tabs[1].open("Two_classes")  # leastconn: the other process
        backends = {t.backend for t in tabs}
        for t in tabs:
            await t.close()
        return backends

    assert run(two_tabs()) == {"app1", "app2"}


def test_a_browsers_page_upload_download_and_websocket_reach_one_process(deployment):
    deployment.wait_whole()
    base = f"http://127.0.0.1:{deployment.port}"
    browser = requests.Session()
    page = browser.get(f"{base}/Tree", timeout=30)
    backend = page.headers[BACKEND_HEADER]
    other = {"app1": "app2", "app2": "app1"}[backend]
    assert browser.cookies[COOKIE] == backend

    async def scenario():  # blocking HTTP calls inside: the websocket waits meanwhile
        tab = Tab(deployment.port, browser.cookies.get_dict())
        await tab.open("Tree", "data=pima")
        try:
            check(tab)
        finally:
            await tab.close()

    def check(tab):
        assert tab.backend == backend and tab.session_id and not tab.exceptions
        # a download of this session: on its process only
        assert tab.downloads, "the Tree page offers downloads"
        download = browser.get(base + tab.downloads[0], timeout=30)
        assert download.status_code == 200 and download.headers[BACKEND_HEADER] == backend
        assert len(download.content) > 0
        # an upload for this session (Streamlit checks the session is its own, and the XSRF token)
        health = browser.get(f"{base}/_stcore/health", timeout=30)  # as the frontend does first
        assert health.headers[BACKEND_HEADER] == backend
        xsrf = browser.cookies.get("_streamlit_xsrf")
        assert xsrf, "Streamlit sets its XSRF cookie with its health answer"
        upload_url = f"{base}/_stcore/upload_file/{tab.session_id}/file-1"
        files = {"file": ("fr.csv", b"a,b\n1,x\n2,y\n", "text/csv")}
        up = browser.put(upload_url, files=files, headers={"X-Xsrftoken": xsrf}, timeout=30)
        assert up.status_code in (200, 204), up.text
        assert up.headers[BACKEND_HEADER] == backend
        # the same requests sent to the other process fail: the session is not there (what the
        # stickiness prevents)
        stray = requests.Session()
        stray.cookies.update({**browser.cookies.get_dict(), COOKIE: other})
        up = stray.put(upload_url, files=files, headers={"X-Xsrftoken": xsrf}, timeout=30)
        assert up.status_code == 400 and "Invalid session_id" in up.text
        # (a download's URL is its content's hash: the same tree on the other process, warmed on
        # the same data set, may have the same file; the cookie alone decides where it goes)
        assert stray.get(base + tab.downloads[0], timeout=30).headers[BACKEND_HEADER] == other

    run(scenario())


def test_a_hung_process_is_taken_out_within_5_s_and_back_after_sigcont(deployment):
    deployment.wait_whole()
    pids = deployment.pids()
    victim = pids["app2"]
    os.kill(victim, signal.SIGSTOP)
    try:
        started = time.monotonic()
        down = _poll(lambda: not deployment.states().get("app2", "").startswith("UP"), 10)
        assert down, deployment.states()
        assert time.monotonic() - started < 5.0

        async def new_students():
            tabs = [Tab(deployment.port) for _ in range(3)]
            times = [await t.open("Two_classes") for t in tabs]
            backends = {t.backend for t in tabs}
            for t in tabs:
                await t.close()
            return backends, times

        backends, times = run(new_students())
        assert backends == {"app1"}  # no student sent to the hung process
        assert deployment.pids()["app2"] == victim  # a hung process is not restarted
    finally:
        os.kill(victim, signal.SIGCONT)
    assert _poll(lambda: deployment.states().get("app2") == "UP", 30), deployment.states()


def test_a_restart_of_the_whole_deployment_leaves_no_stray_process_or_port(tmp_path):
    port = _free_port()
    first = Launcher(tmp_path / "a", port, "--workers", "2", "--no-warm")
    first.wait_ready()
    pids = [first.proc.pid, *first.pids().values()]
    with open(f"/proc/{first.proc.pid}/task/{first.proc.pid}/children") as fh:
        pids += [int(x) for x in fh.read().split()]  # HAProxy too
    ports = [port, *(p for _, p in first.ports())]
    hosts = ["127.0.0.1", *(h for h, _ in first.ports())]
    assert len(set(pids)) == 4  # launcher, HAProxy, two Streamlit processes
    assert first.stop() == 0
    for pid in set(pids):
        assert _poll(lambda pid=pid: not Path(f"/proc/{pid}").exists(), 30), pid
    for host, p in zip(hosts, ports):
        with socket.socket() as s:
            # nothing listens there any more (SO_REUSEADDR, as servers bind: connections of
            # the run in TIME_WAIT do not count, a listening socket does)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, p))
            s.listen()
    second = Launcher(tmp_path / "b", port, "--workers", "1", "--no-warm")
    try:
        second.wait_ready()
        r = requests.get(f"http://127.0.0.1:{port}/_stcore/health", timeout=30)
        assert r.status_code == 200
    finally:
        assert second.stop() == 0


def _free_port_on(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def test_a_browser_arriving_while_no_process_is_in_service_gets_a_page_that_retries(tmp_path):
    """Nothing in service (here: a backend that never answers): HAProxy's own page, which
    reloads itself, and /healthz says 503; the launcher still stops cleanly."""
    nobody = _free_port_on("127.0.0.9")
    launcher = Launcher(tmp_path, _free_port(), "--backends", f"127.0.0.9:{nobody}")
    try:
        base = f"http://127.0.0.1:{launcher.port}"

        def answer():
            try:  # (a Response of status 503 is falsy: wrap it)
                return [requests.get(base + "/Tree", timeout=5)]
            except requests.ConnectionError:  # HAProxy not listening yet
                return None

        got = _poll(answer, 60, every=0.3)
        assert got is not None, launcher.output
        (r,) = got
        assert r.status_code == 503
        assert "http-equiv=refresh content=3" in r.text and "tries again" in r.text
        assert r.headers["Content-Type"].startswith("text/html")
        health = requests.get(base + "/healthz", timeout=5)
        assert health.status_code == 503 and health.text == "no app process in service"
    finally:
        assert launcher.stop() == 0, launcher.output[-3000:]
