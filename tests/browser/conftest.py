"""Fixtures for end-to-end tests in a real headless Chromium against `streamlit run app.py`.

The server is started once per test session (once per pytest-xdist worker) on a free port, cold,
and stopped after; its log is named after the worker, so parallel workers share no file. Chromium
is Debian's (its headless shell, /usr/bin/chromium-headless-shell, when installed, else
/usr/bin/chromium; :func:`_chromium_path`), one per worker, with one desktop tab and one phone tab lent to
test after test (:class:`SharedPage`); a missing browser is a failure, never a skip. Every test in
this folder is marked ``browser`` by tests/conftest.py.
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

from offcenter.app.presentation import NARROW_PX, user_agent_is_phone
from offcenter.ops.serve import streamlit_command
from offcenter.ops.warmup import WARM_ENV

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
    """The Chromium the browser tests drive: ``$CHROMIUM``, else Debian's
    ``chromium-headless-shell``, else Debian's ``chromium``.

    The headless shell is the same Chromium release built for headless use only (what
    Playwright itself launches for headless Chromium); it renders with the same Blink and
    Skia, without the full browser's UI and services. Measured on the same tests, one after
    the other on a quiet machine: Chromium's CPU 58.7 -> 49.8 s on the curve and click modules,
    83.0 -> 65.4 s on the Tree lecture's (docs/testing.md, session 17). scripts/test.sh installs
    it beside ``chromium`` when it can; without it the full browser runs the same tests.
    """
    for candidate in (
        os.environ.get("CHROMIUM"),
        "/usr/bin/chromium-headless-shell",
        "/usr/bin/chromium",
        shutil.which("chromium"),
    ):
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


@pytest.fixture(scope="session")
def app_url():
    """Start `streamlit run app.py` headless on a free port; yield its URL once it answers;
    stop it.

    Cold (``OFFCENTER_WARM=0``, :func:`streamlit_server`): no browser test measures the
    server's own warm-up (every page, then the Tree page on each of the nine bundled data sets:
    6.2 s more CPU than a cold start, measured, and 40 s of wall time on a loaded machine, for
    each worker's server); a page's first run is paid by the first test that opens it, within
    :func:`wait_for_app`'s bound. The deployment tests check the warm-up (tests/deploy)."""
    with streamlit_server(env={WARM_ENV: "0"}) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=_chromium_path(), args=CHROMIUM_ARGS, headless=True)
        new_context = b.new_context

        def tracked_context(*args, **kwargs):
            # every page of a context a test makes is followed for wait_for_app
            context = new_context(*args, **kwargs)
            context.on("page", track_runs)
            return context

        b.new_context = tracked_context
        yield b
        b.close()


#: The desktop page's window (the fixture ``page``) and the phone's (``phone``: touch, 390x844).
DESKTOP = {"width": 1400, "height": 1000}
PHONE = {"width": 390, "height": 844}


class SharedPage:
    """One browser tab lent to test after test (the fixtures ``page``, ``phone``, ``projector``).

    A page load in a new context cost Chromium about 4.4 s of CPU (measured: a new context, its
    renderer process, Streamlit's JavaScript parsed and compiled again), a load in a new tab of
    the same context 3.4 s, a ``goto`` in the same tab 1.8 s: each test's ``goto`` in the lent tab
    is a new Streamlit session (the server's state is not shared; checked: a slider moved before
    a ``goto`` of the same page is back at its default), in the tab's renderer process.

    Lending resets what a test may have changed: the window's size, the default timeout, the
    mouse (at 0, 0: no hover left over a figure), the page's local storage, the run tracker
    (:class:`ScriptRuns`, counted from zero); a test's event handlers (``page.on``) and init
    scripts (``page.add_init_script``) are removed when it ends. A closed tab is replaced.
    """

    def __init__(self, browser, **context_options) -> None:
        self._browser = browser
        self._options = context_options
        self._context = self._page = None
        self._undo: list = []

    def lend(self, viewport: dict, timeout: float):
        if self._page is None or self._page.is_closed():
            if self._context is not None:
                self._context.close()
            self._context = self._browser.new_context(viewport=viewport, **self._options)
            self._page = self._context.new_page()
        pg = self._page
        pg.set_viewport_size(viewport)
        pg.set_default_timeout(timeout)
        pg.mouse.move(0, 0)
        if pg.url.startswith("http"):
            pg.evaluate("() => { try { localStorage.clear(); } catch (e) {} }")
        old = getattr(pg, "_script_runs", None)
        if old is not None:
            pg.remove_listener("websocket", old._socket)
        ScriptRuns().attach(pg)
        on, add_init_script = pg.on, pg.add_init_script

        def on_(event, handler):
            self._undo.append(lambda: pg.remove_listener(event, handler))
            return on(event, handler)

        def add_init_script_(*args, **kwargs):
            added = add_init_script(*args, **kwargs)
            self._undo.append(lambda: added.__exit__(None, None, None))
            return added

        pg.on, pg.add_init_script = on_, add_init_script_
        return pg

    def give_back(self) -> None:
        pg = self._page
        for undo in reversed(self._undo):
            with contextlib.suppress(Exception):
                undo()
        self._undo.clear()
        if pg is not None and not pg.is_closed():
            del pg.on, pg.add_init_script  # the class's own methods again

    def close(self) -> None:
        if self._context is not None:
            self._context.close()


@pytest.fixture(scope="session")
def _desktop_tab(browser):
    shared = SharedPage(browser)
    yield shared
    shared.close()


@pytest.fixture(scope="session")
def _phone_tab(browser):
    shared = SharedPage(browser, is_mobile=True, has_touch=True)
    yield shared
    shared.close()


@pytest.fixture
def page(_desktop_tab):
    """A desktop page (1400x1000), the session's one desktop tab (:class:`SharedPage`)."""
    yield _desktop_tab.lend(DESKTOP, 30_000)
    _desktop_tab.give_back()


@pytest.fixture
def projector(_desktop_tab):
    """A projector's page (1400x900), the session's one desktop tab (:class:`SharedPage`)."""
    yield _desktop_tab.lend({"width": 1400, "height": 900}, 180_000)
    _desktop_tab.give_back()


@pytest.fixture
def phone(_phone_tab):
    """A page in a phone's viewport (390x844, touch), the session's one phone tab
    (:class:`SharedPage`)."""
    yield _phone_tab.lend(PHONE, 60_000)
    _phone_tab.give_back()


class ScriptRuns:
    """The script runs of a page's Streamlit session, read from its websocket's frames.

    The page asks for a run with a ``rerun_script`` BackMsg (on load, and on every widget
    change); the server answers each run with ``new_session`` when it starts and
    ``script_finished`` when it ends (``FINISHED_EARLY_FOR_RERUN`` when a newer request stopped
    it, followed by the newer run's ``new_session``). The page is settled when a run started after
    its last request and ended after that start: an event, where the status widget's
    "Running..." shows only once a run has lasted 500 ms.
    """

    def __init__(self) -> None:
        self.count = 0  # events seen, in order
        self.asked = self.started = self.ended = -1  # the number of the last of each
        self.sockets = 0
        self.uploaded: set[str] = set()  # names of the files the last request's uploaders hold

    def attach(self, page) -> None:
        page._script_runs = self
        page.on("websocket", self._socket)

    def _socket(self, ws) -> None:
        if "_stcore/stream" not in ws.url:
            return
        self.sockets += 1
        ws.on("framesent", self._sent)
        ws.on("framereceived", self._received)

    def _sent(self, payload) -> None:
        from streamlit.proto.BackMsg_pb2 import BackMsg

        if isinstance(payload, str):
            return
        msg = BackMsg()
        msg.ParseFromString(payload)
        if msg.WhichOneof("type") == "rerun_script":
            self.count += 1
            self.asked = self.count
            self.uploaded = {
                f.name
                for w in msg.rerun_script.widget_states.widgets
                if w.WhichOneof("value") == "file_uploader_state_value"
                for f in w.file_uploader_state_value.uploaded_file_info
            }

    def _received(self, payload) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        if isinstance(payload, str):
            return
        msg = ForwardMsg()
        msg.ParseFromString(payload)
        kind = msg.WhichOneof("type")
        if kind == "new_session":
            self.count += 1
            self.started = self.count
        elif (
            kind == "script_finished" and msg.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN
        ):
            self.count += 1
            self.ended = self.count

    def settled(self) -> bool:
        return self.sockets > 0 and self.asked < self.started < self.ended


def track_runs(page) -> None:
    """Follow ``page``'s script runs (:class:`ScriptRuns`) for :func:`wait_for_app`."""
    ScriptRuns().attach(page)


#: How long a widget may take to send its value after the test's action (see wait_for_app).
SEND_GRACE_MS = 250
#: The app's own run state (``data-test-script-state`` of ``stApp``) once its runs are over.
_NOT_RUNNING = """() => {
  const app = document.querySelector("[data-testid='stApp']");
  return app && !["running", "rerunRequested", "stopRequested"].includes(app.dataset.testScriptState);
}"""
#: Two animation frames: the browser has drawn what the last run's messages changed.
_TWO_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
#: The window's width, its User-Agent, and whether the app's viewport reporter
#: (:func:`offcenter.app.presentation.viewport`, mounted at the end of a page's first run, its
#: script loaded after the page is drawn: seconds later on a loaded machine) has run, or is
#: not on the page.
_VIEWPORT = """() => [window.innerWidth, navigator.userAgent,
  window.__offcenterViewport !== undefined || !document.querySelector(".st-key-_viewport")]"""
_VIEWPORT_MOUNTED = "() => window.__offcenterViewport !== undefined"


def _width_report_pending(page) -> bool:
    """Whether the viewport reporter has yet to run and will report a width class other than
    the one the page's first run guessed from the User-Agent (a narrow window of a desktop
    browser, a phone fixture without a phone's User-Agent): its report reruns the page."""
    width, user_agent, ran = page.evaluate(_VIEWPORT)
    return not ran and (width < NARROW_PX) != user_agent_is_phone(user_agent)


def wait_for_app(page) -> None:
    """Wait until the app's script runs are over and drawn.

    On a page followed by :func:`track_runs` (every page of the fixtures ``page``, ``phone`` and
    of the contexts ``browser.new_context()`` makes): until a run started after the page's last
    run request and ended (:class:`ScriptRuns`), the app's run state says so, and two animation
    frames went by, after a quarter of a second for a widget to send its value (or until the
    page sends a run request, if sooner); on a page whose
    window is not the width class its User-Agent suggests, also the run that the app's report of
    the width asks for once its reporter has loaded. On any other page:
    until the status widget no longer says "Running" (it shows only once a run has lasted 500
    ms), then half a second.
    """
    page.wait_for_selector("[data-testid='stApp']", timeout=30_000)
    runs = getattr(page, "_script_runs", None)
    if runs is None:
        page.wait_for_function(
            "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')"
            " || !document.querySelector('[data-testid=\"stStatusWidget\"]').innerText.includes('Running')",
            timeout=60_000,
        )
        page.wait_for_timeout(500)
        return
    # A widget may send its new value after the test's action returned (a slider's keys are
    # debounced by about 200 ms in Streamlit's frontend; Streamlit's own end-to-end tests wait
    # 210 ms for the same reason): the run it asks for must be the one waited for. A request
    # seen meanwhile is that run's (the value was sent): the rest of the wait is not needed.
    asked = runs.asked
    grace = time.monotonic() + SEND_GRACE_MS / 1000
    while runs.asked == asked and time.monotonic() < grace:
        page.wait_for_timeout(10)  # lets Playwright deliver the websocket's frames
    bound = time.monotonic() + 120  # a bound on a loaded machine, not a settle
    while not runs.settled():
        if time.monotonic() > bound:
            state = (runs.asked, runs.started, runs.ended, runs.sockets)
            pytest.fail(
                f"the app's script run did not end in 120 s (asked, started, ended, sockets: {state})"
            )
        page.wait_for_timeout(20)  # lets Playwright deliver the websocket's frames
    page.wait_for_function(_NOT_RUNNING, timeout=60_000)
    if _width_report_pending(page):  # the run its report asks for, too
        page.wait_for_function(_VIEWPORT_MOUNTED, timeout=60_000)
        wait_for_app(page)
        return
    page.evaluate(_TWO_FRAMES)


#: Resolves once the drawing has held still for :data:`STILL_CHECKS` checks a frame and 50 ms
#: apart: the fonts loaded, the main area's height, every Plotly figure's box and plot area
#: (Plotly's automargin redraws a figure once its text is measured), the KaTeX formulas drawn.
_STILL = """async ([checks, bound]) => {
  const sig = () => JSON.stringify([
    document.fonts.status,
    (document.querySelector("[data-testid='stMain']") || document.body).scrollHeight,
    document.querySelectorAll(".katex").length,
    [...document.querySelectorAll(".js-plotly-plot")].map(g => {
      const r = g.getBoundingClientRect(), s = g._fullLayout && g._fullLayout._size;
      return [r.x, r.y, r.width, r.height, s ? [s.l, s.r, s.t, s.b, s.w, s.h] : null];
    }),
  ]);
  const tick = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 50)));
  const end = performance.now() + bound;
  let last = sig(), still = 0;
  while (still < checks && performance.now() < end) {
    await tick();
    const now = sig();
    still = now === last ? still + 1 : 0;
    last = now;
  }
  return still >= checks;
}"""
#: How many checks in a row the drawing must hold still (about 80 ms each).
STILL_CHECKS = 3


def wait_for_drawing(page) -> None:
    """Wait until the page's drawing holds still (:data:`_STILL`): after a run's messages
    (:func:`wait_for_app`), a scroll that brings a figure into view, a new window size; in
    place of a fixed pause, and as long as it takes on a loaded machine (up to 60 s)."""
    if not page.evaluate(_STILL, [STILL_CHECKS, 60_000]):
        pytest.fail("the page's drawing did not hold still in 60 s")


def wait_for_upload(page, name: str) -> None:
    """Wait until the page has sent a file named ``name`` to the server and the run it asked
    for is over (:func:`wait_for_app`).

    ``set_input_files`` returns once the browser has the file; the uploader then asks the
    server where to send it, sends it, and only then asks for the run that reads it (the run
    request carries the file's id). ``page`` is followed by :func:`track_runs` (every page of
    the fixtures ``page`` and ``phone`` and of the contexts ``browser.new_context()`` makes).
    """
    runs = page._script_runs
    bound = time.monotonic() + 120  # a bound on a loaded machine, not a settle
    while name not in runs.uploaded:
        if time.monotonic() > bound:
            pytest.fail(f"the page did not send {name!r} to the server in 120 s")
        page.wait_for_timeout(20)  # lets Playwright deliver the websocket's frames
    wait_for_app(page)


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
