"""Memory on a real server (issue 34): the upload limit is the server's, and what sessions
upload is given back when they end.

``deploy`` tier (``pytest -m deploy``): a headless ``streamlit run app.py`` of this checkout,
driven with Streamlit's own websocket protocol (as :mod:`offcenter.ops.warmup` does) and its
upload route, as a browser would. The server runs with a short ``disconnectedSessionTTL`` and
sweep interval (:mod:`offcenter.app.session_end`) so that the test waits seconds, not minutes;
the mechanism is the deployed one. XSRF protection is off for the test's client (it sends no
browser cookie); it does not change where bytes are stored. The server starts cold
(``OFFCENTER_WARM=0``: its warm-up is not what is checked; the sessions open the home page
only). The waits are on the server's own evidence that the sessions' files are gone (its
``/_stcore/metrics``: the upload manager's bytes), not on fixed pauses; its first read comes
once the sessions can have expired (:func:`_settled_rss`: Streamlit computes that metric at
most every 5 s).
"""

from __future__ import annotations

import asyncio
import http.client
import os
import socket
import subprocess
import time
import urllib.request
import uuid
from pathlib import Path

import psutil
import pytest
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.asyncio.client import connect

from offcenter.ops.serve import streamlit_command
from offcenter.ops.warmup import WARM_ENV, open_page, wait_healthy
from tests.conftest import run_coroutine

pytestmark = pytest.mark.slow  # and deploy, as everything under tests/deploy/

ROOT = Path(__file__).resolve().parents[2]
TTL = 1  # seconds a disconnected session is kept (Streamlit's default: 120; a whole number)
SWEEP = 0.5  # seconds between two sweeps (the app's default: 30)
N_SESSIONS = 200
UPLOAD_BYTES = 1_000_000  # each session's file: 200 MB in all if nothing were given back


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = _free_port()
    cmd = streamlit_command(
        port,
        "127.0.0.1",
        "--server.fileWatcherType",
        "none",
        "--server.disconnectedSessionTTL",
        str(TTL),
        "--server.enableXsrfProtection",
        "false",
    )
    env = {**os.environ, "OFFCENTER_SWEEP_SECONDS": str(SWEEP), "PYTHONPATH": str(ROOT)}
    env[WARM_ENV] = "0"  # cold: the warm-up runs pages these sessions never open
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        assert wait_healthy(port, wait=180, process=proc), "no server"
        run_coroutine(open_page(port, ""))  # the first run starts the sweeper
        yield port, psutil.Process(proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _put(port: int, session_id: str, size: int, *, declared: int | None = None) -> int:
    """PUT a CSV file of ``size`` bytes to the upload route; the HTTP status (or 413 when the
    server cut the connection while refusing it)."""
    boundary = uuid.uuid4().hex
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="u.csv"\r\n'
        "Content-Type: text/csv\r\n\r\n"
    ).encode()
    line = b"x,y\n"
    body = head + line * (size // len(line)) + f"\r\n--{boundary}--\r\n".encode()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.putrequest("PUT", f"/_stcore/upload_file/{session_id}/{uuid.uuid4().hex}")
        conn.putheader("Content-Type", f"multipart/form-data; boundary={boundary}")
        conn.putheader("Content-Length", str(declared if declared is not None else len(body)))
        conn.endheaders()
        try:
            conn.send(body)
        except (BrokenPipeError, ConnectionResetError):
            pass
        try:
            return conn.getresponse().status
        except (ConnectionResetError, http.client.RemoteDisconnected):
            return 413
    finally:
        conn.close()


async def _open_session(port: int):
    """A tab on the home page: the websocket, once the page's first run has ended (every
    message of the run read: a connection left with unread messages stops reading, and its
    close waits out the close timeout), and the session's id."""
    conn = await connect(
        f"ws://127.0.0.1:{port}/_stcore/stream",
        subprotocols=["streamlit"],
        origin=f"http://127.0.0.1:{port}",
        max_size=None,
        ping_interval=None,
    )
    try:
        bm = BackMsg()
        bm.rerun_script.page_name = ""
        bm.rerun_script.query_string = ""
        bm.rerun_script.widget_states.SetInParent()
        await conn.send(bm.SerializeToString())
        session_id = None
        async for data in conn:
            msg = ForwardMsg()
            msg.ParseFromString(data)
            kind = msg.WhichOneof("type")
            if kind == "new_session":
                session_id = msg.new_session.initialize.session_id
            if kind == "script_finished":
                break
        assert session_id
    except BaseException:
        await conn.close()
        raise
    return conn, session_id


async def _session_uploading(port: int, size: int, *, put=True) -> None:
    """One student: opens the home page, uploads a file, leaves (the tab is closed)."""
    conn, session_id = await _open_session(port)
    try:
        if put:
            status = await asyncio.to_thread(_put, port, session_id, size)
            assert status == 204, status
    finally:
        await conn.close()


async def _class(port: int, n: int, size: int, batch: int = 10) -> None:
    for i in range(0, n, batch):
        await asyncio.gather(*(_session_uploading(port, size) for _ in range(min(batch, n - i))))


def _uploads_held(port: int) -> int | None:
    """The bytes of uploaded files the server holds (its ``/_stcore/metrics``: the upload
    manager's line, absent when it holds no file), None when the server did not answer."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/metrics", timeout=10) as r:
            text = r.read().decode()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith('cache_memory_bytes{cache_type="UploadedFileManager"'):
            return int(float(line.rsplit(" ", 1)[1]))
    return 0


def _settled_rss(port: int, proc: psutil.Process, bound: float = 120) -> int:
    """The process's RSS once the sessions have expired and been swept: wait (a bounded poll)
    until the server holds no uploaded file (every session that uploaded was shut down), then
    the lowest of the reads over the next two sweeps (each gives freed memory back to the
    system: ``malloc_trim``).

    Streamlit computes the upload manager's bytes for ``/_stcore/metrics`` at most once every
    5 s (its cache of the ``cache_memory_bytes`` family): a first read while the sessions are
    still kept for a reconnection would show their files for the next 5 s. So the first read
    comes once they can have expired and been swept (their time-to-live and two sweeps after
    the last one left); the result does not depend on it: the poll goes on (bounded) until the
    server says it holds nothing."""
    time.sleep(TTL + 2 * SWEEP)  # the earliest the metric can say 0, not a wait for a result
    deadline = time.monotonic() + bound
    while (held := _uploads_held(port)) != 0:
        assert time.monotonic() < deadline, f"the server still holds {held} bytes of uploads"
        time.sleep(0.25)
    reads = []
    end = time.monotonic() + 2 * SWEEP
    while True:
        reads.append(proc.memory_info().rss)
        if time.monotonic() >= end:
            return min(reads)
        time.sleep(0.25)


def test_a_request_over_the_limit_is_refused_before_it_is_stored(server):
    port, proc = server

    async def run():
        conn, sid = await _open_session(port)
        try:
            before = proc.memory_info().rss
            honest = await asyncio.to_thread(_put, port, sid, 60 * 2**20)
            # a client that lies about the length is cut while streaming
            liar = await asyncio.to_thread(_put, port, sid, 60 * 2**20, declared=1000)
            small = await asyncio.to_thread(_put, port, sid, 100_000)
            grown = proc.memory_info().rss - before
        finally:
            await conn.close()
        return honest, liar, small, grown

    honest, liar, small, grown = run_coroutine(run())
    assert honest == 413
    assert liar in (400, 413)
    assert small == 204
    assert grown < 40 * 2**20, f"the process grew {grown / 2**20:.0f} MB"


def test_memory_returns_after_200_sessions_that_upload_and_leave(server):
    port, proc = server
    run_coroutine(_class(port, 20, UPLOAD_BYTES))  # the allocator's and the caches' first use
    before = _settled_rss(port, proc)
    t0 = time.monotonic()
    run_coroutine(_class(port, N_SESSIONS, UPLOAD_BYTES))
    during = proc.memory_info().rss
    seconds = time.monotonic() - t0
    after = _settled_rss(port, proc)
    print(
        f"\nRSS before {before / 2**20:.0f} MB, right after {N_SESSIONS} sessions "
        f"({seconds:.0f} s) {during / 2**20:.0f} MB, settled {after / 2**20:.0f} MB "
        f"({100 * (after / before - 1):+.1f} %)"
    )
    assert after <= 1.10 * before, (before, during, after)
