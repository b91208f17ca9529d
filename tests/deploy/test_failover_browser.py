"""Failover a student can see, in a real Chromium (issue 34): the launcher's two Streamlit
processes behind HAProxy, run with its temporary directory full (a 2 MB tmpfs, filled: ``TMPDIR``
of the launcher and its processes): the tier's shared deployment (``deployment``,
tests/deploy/conftest.py), shared with test_haproxy.py and test_full_tmp.py. A test that kills
HAProxy or a process first waits until the deployment is whole (a test before it may have
killed one).

What is checked, in the order a class meets it:

1. HAProxy killed (``kill -9``): the launcher starts it again in front of the same processes, and
   a page that was open goes on by itself: its websocket reconnects to the process that holds
   its session (no failover notice: nothing moved), a θ change reaches the server and the
   download works;
2. an upload of 2.2 MB (over Starlette's 1 MB spool and over the worker pool's 2 MB: read in the
   pool) with the temporary directory full: the page reads it and says what it read, no
   "AxiosError", no traceback;
3. ``kill -9`` of the process holding a browser's session: the page reconnects by itself, reruns
   on the live process, tells the student that the session moved and that the settings came back
   from the address (θ = 0.35, not the default), draws its figure again, and its download works;
   once the launcher has restarted, warmed and put back the killed process, students rebalance:
   a new browser session goes to the restarted process (``balance leastconn``: it holds no
   session, the survivor holds the moved one).

Everything under tests/deploy/ is marked ``deploy``; this module is also ``browser`` and
``slow`` (a warmed deployment, a restart). Every wait is on a state or an
event (a poll with a bound), never a fixed sleep.
"""

from __future__ import annotations

import os
import re
import signal
from concurrent.futures import ThreadPoolExecutor

import pytest

from offcenter.ops.serve import BACKEND_HEADER, COOKIE
from tests.browser.conftest import CHROMIUM_ARGS, _chromium_path, screenshot, wait_for_app
from tests.deploy.test_haproxy import Launcher, _poll

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTICE = "The server process that held your session stopped"
#: the Two classes figure (the θ-following component's div) has its curves and its θ label
FIGURE_DRAWN = """(theta) => {
  const gd = document.querySelector('.oc-follow-figure');
  if (!gd || !gd.data || !gd._fullLayout) return false;
  const traces = gd.querySelectorAll('.scatterlayer .trace').length;
  const labels = [...gd.querySelectorAll('.annotation-text')].map((e) => e.textContent);
  return traces >= 3 && labels.includes('θ = ' + theta);
}"""


@pytest.fixture(scope="module")
def chromium():
    """Chromium, driven from one thread of its own: in a pytest-xdist worker where the browser
    tests' session-wide Playwright already runs, a second ``sync_playwright()`` in the main
    thread is refused. Yields ``call(fn, *args)``, which runs ``fn(browser, *args)`` there."""
    pool = ThreadPoolExecutor(max_workers=1)

    def start():
        from playwright.sync_api import sync_playwright

        pw = sync_playwright().start()
        return pw, pw.chromium.launch(
            executable_path=_chromium_path(), args=CHROMIUM_ARGS, headless=True
        )

    pw, browser = pool.submit(start).result()
    try:
        yield lambda fn, *args: pool.submit(fn, browser, *args).result()
    finally:
        pool.submit(lambda: (browser.close(), pw.stop())).result()
        pool.shutdown()


def _backend(context) -> str | None:
    """The process the browser's stickiness cookie names (HAProxy's ``OFFCENTER``)."""
    for cookie in context.cookies():
        if cookie["name"] == COOKIE:
            return cookie["value"]
    return None


def _theta(page) -> float:
    box = page.locator("[data-testid='stSlider']", has_text="θ").first
    return float(box.locator("[data-testid='stSliderThumbValue']").first.inner_text())


def _new_page(browser, url: str):
    """A new browser (context) on ``url``: (context, page, the process that answered the
    page's first request: HAProxy's choice for a new session)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(90_000)
    response = page.goto(url)
    wait_for_app(page)
    return context, page, response.headers.get(BACKEND_HEADER.lower())


def _download(page) -> str:
    with page.expect_download(timeout=60_000) as info:
        page.get_by_role("button", name="Download the plotted values (CSV)").click()
    return info.value.suggested_filename + open(info.value.path(), encoding="utf-8-sig").read()


def _state(launcher: Launcher, name: str) -> str:
    """A process's state in HAProxy ('' while HAProxy's admin socket is not there)."""
    try:
        return launcher.states().get(name, "")
    except OSError:  # HAProxy restarting
        return ""


def _log_since(launcher: Launcher, mark: int) -> str:
    """HAProxy's access log (which process got each request) after line ``mark``."""
    return "".join(launcher.access_log.read_text().splitlines(keepends=True)[mark:])[-4000:]


def _log_lines(launcher: Launcher) -> int:
    return len(launcher.access_log.read_text().splitlines())


# ---------------------------------------------------------------------------------- 1. HAProxy


def test_a_page_goes_on_when_haproxy_is_killed_and_restarted(deployment, chromium):
    chromium(_haproxy_restart, deployment)


def _haproxy_restart(browser, launcher: Launcher) -> None:
    launcher.wait_whole()
    url = f"http://127.0.0.1:{launcher.port}"
    context, page, _ = _new_page(browser, f"{url}/Two_classes?theta=0.4")
    try:
        page.wait_for_function(FIGURE_DRAWN, arg="0.4")
        holder = _backend(context)
        apps = launcher.pids()
        first = launcher.haproxy_pid()
        os.kill(first, signal.SIGKILL)
        again = _poll(lambda: (p := launcher.haproxy_pid()) not in (None, first) and p, 60)
        assert again, launcher.output[-3000:]
        assert _poll(lambda: _state(launcher, holder) == "UP", 60), launcher.output[-3000:]
        assert launcher.pids() == apps  # the same processes: the session is still there
        # the page reconnects by itself (Streamlit's own retries) and answers the hand: a θ
        # change reaches the server (the address follows), the figure is redrawn for it
        slider = page.get_by_role("slider", name=re.compile(r"^θ: the off-centering point"))
        slider.first.focus()
        page.keyboard.press("ArrowRight")
        page.wait_for_function("() => location.search.includes('theta=0.41')")
        wait_for_app(page)
        page.wait_for_function(FIGURE_DRAWN, arg="0.41")
        body = page.inner_text("body")
        assert NOTICE not in body  # nothing moved: the same process held the session
        assert "Traceback" not in body and page.locator("[data-testid='stException']").count() == 0
        assert _backend(context) == holder
        assert "0.41" in _download(page)
    finally:
        screenshot(page, "haproxy-restart-after")
        context.close()


# ------------------------------------------------------------------------ 2. a full temp dir


def test_an_upload_with_the_temporary_directory_full_is_read(deployment, chromium, tmp_path):
    # 2.2 MB in 15,000 rows: over Starlette's 1 MB spool and the worker pool's 2 MB (read in
    # the pool, whose forkserver lives in the temporary directory), few rows for the page's tree
    rows = 15_000
    text = "a,b,c,d,e,f,g,h,label\n" + "".join(
        ",".join(f"{((i * 7919 + k * 104729) % 1_000_003) / 1_000_003:.15f}" for k in range(8))
        + ("," + ("yes" if i % 3 else "no") + "\n")
        for i in range(rows)
    )
    assert len(text) > 2_100_000, len(text)
    # the browser reads the file from disk (a buffer would go base64-encoded through
    # Playwright's protocol)
    path = tmp_path / "big.csv"
    path.write_text(text, encoding="utf-8")
    chromium(_upload_full_tmp, deployment, path, rows)


def _upload_full_tmp(browser, launcher: Launcher, path, rows: int) -> None:
    url = f"http://127.0.0.1:{launcher.port}"
    context, page, _ = _new_page(browser, f"{url}/Tree")
    # (the window of 1400x1000: a 1400x4200 one, for a screenshot of the whole page, doubled
    # Chromium's CPU for the upload, the read and the new tree's drawing: 5.8 s against 2.9 s)
    read = page.get_by_text(f"Read as: {rows} rows x 9 columns").first
    try:
        inp = page.locator("[data-testid='stFileUploader'] input[type='file']").first
        inp.set_input_files(path)
        read.wait_for(timeout=180_000)
        wait_for_app(page)
        body = page.inner_text("body")
        assert "AxiosError" not in body and "Network Error" not in body
        assert "Traceback" not in body and page.locator("[data-testid='stException']").count() == 0
    finally:
        if read.count():  # the screenshot shows what the page said it read
            read.scroll_into_view_if_needed()
        screenshot(page, "full-tmp-upload")
        context.close()


# ------------------------------------------------------------------- 3. a process killed


def test_a_killed_process_s_student_reconnects_is_told_keeps_settings_and_downloads(
    deployment, chromium
):
    chromium(_kill_and_watch, deployment)


def _kill_and_watch(browser, launcher: Launcher) -> None:
    launcher.wait_whole()
    url = f"http://127.0.0.1:{launcher.port}"
    context, page, _ = _new_page(browser, f"{url}/Two_classes?theta=0.35")
    try:
        assert _theta(page) == pytest.approx(0.35)
        page.wait_for_function(FIGURE_DRAWN, arg="0.35")
        assert NOTICE not in page.inner_text("body")  # no notice on a first visit
        first = _backend(context)
        assert first in launcher.names(), (first, launcher.names())
        in_service = launcher.output.count(f"{first} (")

        os.kill(launcher.pids()[first], signal.SIGKILL)
        # 1. the page reconnects by itself (no reload), says what happened, draws its figure
        page.get_by_text(NOTICE).first.wait_for(timeout=90_000)
        wait_for_app(page)
        page.wait_for_function(FIGURE_DRAWN, arg="0.35", timeout=60_000)
        screenshot(page, "failover-after-kill")
        body = page.inner_text("body")
        assert "came back from its address" in body
        assert "Traceback" not in body
        survivor = _backend(context)
        assert survivor in launcher.names() and survivor != first, (survivor, first)
        assert _theta(page) == pytest.approx(0.35)  # the address's θ, not the default

        # 2. the download works on the live process
        text = _download(page)
        assert text.count("\n") > 50 and "0.35" in text

        # 3. the launcher restarts the killed process, warms it and puts it back in service
        host = dict(zip(launcher.names(), launcher.ports()))[first][0]
        back = f"{first} ({host}:"
        assert _poll(
            lambda: (
                launcher.output.count(back) > in_service
                and "in service" in launcher.output.rsplit(back, 1)[1].split("\n", 1)[0]
            ),
            300,
        ), launcher.output[-3000:]
        # ... and new students go to it: it holds no session, the survivor holds this page's
        mark = _log_lines(launcher)
        fresh, tab, answered = _new_page(browser, f"{url}/Two_classes?theta=0.45")
        try:
            tab.wait_for_function(FIGURE_DRAWN, arg="0.45")
            landed = _backend(fresh)
        finally:
            fresh.close()
        assert answered == first and landed == first, (
            f"a new session after the restart went to {answered} (cookie {landed}), not to the "
            f"restarted {first}; HAProxy: {launcher.states()}\n{_log_since(launcher, mark)}\n"
            + launcher.output[-2000:]
        )
    finally:
        context.close()
