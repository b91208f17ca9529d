"""Fixtures for end-to-end tests in a real headless Chromium against `streamlit run app.py`.

The server is started once per test session (once per pytest-xdist worker) on a free port and
stopped after; its log is named after the worker, so parallel workers share no file. Chromium is
Debian's (/usr/bin/chromium); a missing browser is a failure, never a skip. Every test in this
folder is marked ``browser`` by tests/conftest.py.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from offcenter.ops.serve import streamlit_command

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

# expect()'s checks wait as long as the pages' own default (5 s is short for a loaded 2-core CI
# machine running two browser workers beside the rest of the suite)
expect.set_options(timeout=30_000)


def _chromium_path() -> str:
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    pytest.fail(
        "Debian's chromium is needed for the browser tests: apt-get install -y chromium "
        "(scripts/test.sh does it when run as root)."
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _worker() -> str:
    """The pytest-xdist worker's id (``gw0``, ``gw1``...), ``main`` without xdist."""
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


def _start(port: int, log, extra_args: tuple[str, ...], env=None) -> subprocess.Popen:
    return subprocess.Popen(
        streamlit_command(port, "127.0.0.1", "--server.fileWatcherType", "none", *extra_args),
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        env=None if env is None else {**os.environ, **env},
    )


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


@contextlib.contextmanager
def streamlit_server(
    log_name: str = "streamlit-server", extra_args: tuple[str, ...] = (), env=None
):
    """Run `streamlit run app.py` headless on a free port; yield its URL; stop it.

    The server warms itself before its health check answers (app.py's lifespan: every page run
    once in its process); ``env={"OFFCENTER_WARM": "0"}`` starts it cold.

    The port is the OS's pick; when another process (another xdist worker's server) takes it
    between the pick and Streamlit's bind, Streamlit exits and a new port is tried (3 times).
    """
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    log_path = ARTIFACTS / f"{log_name}-{_worker()}.log"
    log = open(log_path, "w")
    proc = None
    try:
        for _attempt in range(3):
            port = _free_port()
            url = f"http://127.0.0.1:{port}"
            proc = _start(port, log, extra_args, env)
            deadline = time.monotonic() + 300  # a bound (its own warm-up on a loaded machine)
            while proc.poll() is None and not _healthy(url):
                if time.monotonic() > deadline:
                    pytest.fail(f"streamlit did not start in 300 s; see {log_path}")
                time.sleep(0.3)
            if proc.poll() is None:
                break
        else:
            pytest.fail(f"streamlit did not start (3 ports tried); see {log_path}")
        yield url
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        log.close()


def warm_up(url: str, pages=("", "Two_classes", "Q_classes", "Tree", "Compare_measures")) -> None:
    """Run each page once in a session of its own (Streamlit's websocket protocol), so that the
    tests do not wait for the first imports of a cold server (a minute on a loaded machine)."""
    import asyncio

    from offcenter.ops.warmup import warm

    port = int(url.rsplit(":", 1)[1].split("/")[0])

    async def all_pages() -> None:
        await warm([port], pages)

    # A thread of its own: asyncio.run refuses to start inside a running event loop, which
    # Playwright's sync API leaves in the main thread once a test has used it.
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, all_pages()).result()


@pytest.fixture(scope="session")
def app_url():
    """Start `streamlit run app.py` headless on a free port, run each page once; yield its URL;
    stop it."""
    with streamlit_server() as url:
        warm_up(url)
        yield url


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=_chromium_path(), args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    yield pg
    context.close()


@pytest.fixture
def phone(browser):
    """A page in a phone's viewport (390x844, touch), closed after the test."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    yield pg
    context.close()


def wait_for_app(page) -> None:
    """Wait until Streamlit has finished running the script (no 'Running...' status)."""
    page.wait_for_selector("[data-testid='stApp']", timeout=30_000)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')"
        " || !document.querySelector('[data-testid=\"stStatusWidget\"]').innerText.includes('Running')",
        timeout=60_000,
    )
    page.wait_for_timeout(500)


def screenshot(page, name: str) -> Path:
    """Save a full-page screenshot under tests/artifacts/ and return its path."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


# ------------------------------------------------------------------ boxes (viewport px)
def overlaps(a, b, tol: float = 1.0) -> bool:
    """Whether two boxes ``{x0, y0, x1, y1}`` share more than ``tol`` px each way."""
    return (
        a["x0"] < b["x1"] - tol
        and b["x0"] < a["x1"] - tol
        and a["y0"] < b["y1"] - tol
        and b["y0"] < a["y1"] - tol
    )


def inside(a, b, tol: float = 1.0) -> bool:
    """Whether box ``a`` lies within box ``b`` (``tol`` px of slack)."""
    return (
        a["x0"] >= b["x0"] - tol
        and a["y0"] >= b["y0"] - tol
        and a["x1"] <= b["x1"] + tol
        and a["y1"] <= b["y1"] + tol
    )
