"""Sessions stay apart: what one student does (an upload, a theta) never shows in another's page,
on one Streamlit process and through the multi-process proxy (offcenter.app.serve)."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from streamlit.testing.v1 import AppTest

from offcenter.app.serve import Backends
from offcenter.app.warmup import open_page
from tests.conftest import run_app

ROOT = Path(__file__).resolve().parents[1]
TREE = str(ROOT / "pages" / "3_Tree.py")
TWO = str(ROOT / "pages" / "1_Two_classes.py")
GOOD = ROOT / "tests" / "data" / "bad_csv" / "good" / "semicolon_latin1.csv"


def _run(at):
    return run_app(at)


def test_an_upload_in_one_session_is_invisible_in_another():
    one = _run(AppTest.from_file(TREE, default_timeout=120))
    other = _run(AppTest.from_file(TREE, default_timeout=120))
    one.file_uploader(key="tr_file").set_value(("fr.csv", GOOD.read_bytes(), "text/csv"))
    one = _run(one)
    assert one.selectbox(key="tr_data").value == "upload"
    other = _run(other)
    assert other.selectbox(key="tr_data").value != "upload"
    assert "upload" not in other.selectbox(key="tr_data").options
    assert one.session_state["data_upload"] is not None  # the upload, shared by one's pages
    assert "data_upload" not in other.session_state or other.session_state["data_upload"] is None


def test_a_theta_in_one_session_is_not_anothers():
    one = _run(AppTest.from_file(TWO, default_timeout=120))
    other = _run(AppTest.from_file(TWO, default_timeout=120))
    one.slider(key="tc_theta").set_value(0.7)
    one = _run(one)
    other = _run(other)
    assert one.slider(key="tc_theta").value == 0.7
    assert other.slider(key="tc_theta").value == 0.2


def test_the_proxy_keeps_a_cookie_on_its_process_and_spreads_new_sessions():
    b = Backends([9001, 9002])
    assert b.pick(None) == 0
    b.sessions[0] += 1
    assert b.pick(None) == 1  # the least-loaded process
    assert b.pick("0") == 0  # a browser stays on the process that holds its session
    for bad in ("7", "-1", "x", ""):
        assert b.pick(bad) in (0, 1)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_two_processes_behind_the_proxy_serve_pages_and_sessions():
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "offcenter.app.serve", "--port", str(port)]
        + ["--address", "127.0.0.1", "--workers", "2", "--", "--server.fileWatcherType", "none"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                    assert r.status == 200
                    assert "offcenter_backend=" in r.headers.get("Set-Cookie", "")
                    break
            except OSError:
                assert proc.poll() is None, proc.stdout.read()
                assert time.monotonic() < deadline, "the proxy did not start"
                time.sleep(0.5)

        async def classroom():
            # a dropped client first, then two students at once, on the two processes
            await open_page(port, "Two_classes", close_abruptly=True)
            return await asyncio.gather(
                open_page(port, "Two_classes"), open_page(port, "Q_classes")
            )

        # asyncio.run in a thread of its own: in the full suite the browser tests (Playwright's
        # sync API) leave an event loop running in the main thread, where asyncio.run refuses.
        with ThreadPoolExecutor(max_workers=1) as pool:
            statuses = pool.submit(asyncio.run, asyncio.wait_for(classroom(), 300)).result()
        assert statuses == [0, 0]  # FINISHED_SUCCESSFULLY
        assert proc.poll() is None
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
