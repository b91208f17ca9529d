"""Failover a student can see, in a real Chromium (issue 34): the launcher's two Streamlit
processes behind HAProxy, run with its temporary directory full (a 2 MB tmpfs, filled: ``TMPDIR``
of the launcher and its processes): the tier's shared deployment (``deployment``,
tests/deploy/conftest.py), shared with test_haproxy.py and test_full_tmp.py. A test that kills
HAProxy or a process first waits until the deployment is whole (a test before it may have
killed one).

What is checked, in the order a class meets it:

1. HAProxy killed (``kill -9``): the launcher goes on and starts HAProxy again in front of the
   same processes (the same pids, back in service, its log says so, the balancer's health
   answers again), and a page that was open goes on by itself: its websocket reconnects to the
   process that holds its session (no failover notice: nothing moved), a θ change reaches the
   server and the download works;
2. an upload of 2.2 MB (over Starlette's 1 MB spool and over the worker pool's 2 MB: read in the
   pool) with the temporary directory full: the page reads it and says what it read, no
   "AxiosError", no traceback;
3. ``kill -9`` of a process mid-class, one kill watched by all who meet it:

   - the browser's student on it: the page reconnects by itself, reruns on the live process,
     tells the student that the session moved and that the settings came back from the
     address (θ = 0.35, not the default), draws its figure again, and its download works;
   - a class of websocket tabs (:class:`tests.deploy.test_haproxy.Tab`), three students on
     each process with settings in the URL, a Tree page with hand edits and an upload on the
     killed one: HAProxy stops routing to it within 5 s; the other process's students go on
     without error or delay above the goal; the dead process's students reconnect to the live
     process with their cookie and URL and find their settings, the hand edits too; the upload
     that cannot survive is said on screen;
   - a second launcher in front of the same two processes as processes on other hosts
     (``--backends``; the deployment's own launcher stands for their machines' supervisor):
     it warmed them before their first student, takes the killed one out within 5 s, holds
     it in maintenance while it comes back, and warms it again before it is in service;
   - the launcher restarts the killed process (a new pid on the same address), warms it and
     puts it back in service; then students rebalance: a new browser session goes to the
     restarted process (``balance leastconn``: it holds no session, the survivor holds the
     moved one).

   One kill for what were three tests' kills (each a restart and a warm-up of the process).

Everything under tests/deploy/ is marked ``deploy``; this module is also ``browser`` and
``slow`` (a warmed deployment, a restart). Every wait is on a state or an
event (a poll with a bound), never a fixed sleep.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from offcenter.ops.serve import BACKEND_HEADER, COOKIE
from tests.browser.conftest import CHROMIUM_ARGS, _chromium_path, screenshot, wait_for_app
from tests.deploy.test_haproxy import GOAL_S, Launcher, Tab, _free_port, _poll

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTICE = "The server process that held your session stopped"
#: the page's websocket is connected (Streamlit's frontend: its connection state, on the app's
#: root element); an argument false: it is not (it lost its server and is trying again)
CONNECTED = """(yes) => {
  const app = document.querySelector('[data-testid="stApp"]');
  return !!app && (app.getAttribute('data-test-connection-state') === 'CONNECTED') === yes;
}"""
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


def _states(launcher: Launcher) -> dict[str, str]:
    """Every process's state in HAProxy ({} while HAProxy's admin socket is not there)."""
    try:
        return launcher.states()
    except OSError:  # HAProxy restarting
        return {}


def _state(launcher: Launcher, name: str) -> str:
    """A process's state in HAProxy ('' while HAProxy's admin socket is not there)."""
    return _states(launcher).get(name, "")


def _healthy(launcher: Launcher) -> bool:
    """The balancer answers a health check (through HAProxy, to a process in service)."""
    try:
        url = f"http://127.0.0.1:{launcher.port}/_stcore/health"
        return requests.get(url, timeout=2).ok
    except requests.RequestException:
        return False


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
        assert first and len(apps) == 2 and _healthy(launcher)
        os.kill(first, signal.SIGKILL)
        page.wait_for_function(CONNECTED, arg=False)  # the page lost its websocket
        again = _poll(lambda: (p := launcher.haproxy_pid()) not in (None, first) and p, 60)
        assert again, launcher.output[-3000:]
        assert _poll(lambda: _healthy(launcher), 60), launcher.output[-3000:]
        assert launcher.proc.poll() is None  # the launcher goes on
        assert _poll(lambda: _state(launcher, holder) == "UP", 60), launcher.output[-3000:]
        # the same Streamlit processes, not restarted: the session is still there
        assert launcher.pids() == apps
        both = {"app1": "UP", "app2": "UP"}
        assert _poll(lambda: _states(launcher) == both, 30), _states(launcher)
        assert "restarting it (the app processes keep running)" in launcher.output
        # the page reconnects by itself (Streamlit's own retries) and answers the hand: a θ
        # change reaches the server (the address follows), the figure is redrawn for it (a key
        # pressed before the page is connected again changes the slider but asks the server
        # nothing: the frontend drops a run request while it has no server)
        page.wait_for_function(CONNECTED, arg=True)
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


@contextlib.contextmanager
def _event_loop():
    """An event loop in a thread of its own, for websocket tabs that stay open across the
    walk's steps (the kill): yields ``call(coro)``, which runs ``coro`` there and returns its
    result."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="class-tabs", daemon=True)
    thread.start()
    try:
        yield lambda coro: asyncio.run_coroutine_threadsafe(coro, loop).result()
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        loop.close()


def test_a_process_killed_mid_class(deployment, chromium, tmp_path):
    """One ``kill -9`` of the process holding a browser's session, watched by that browser's
    student, a class of websocket tabs on both processes and a second launcher in front of the
    same processes as processes on other hosts (``--backends``): see the module's docstring,
    3."""
    launcher = deployment
    launcher.wait_whole()
    backends = [f"{h}:{p}" for h, p in launcher.ports()]
    other = Launcher(tmp_path / "other", _free_port(), "--backends", *backends)
    try:
        with _event_loop() as call:
            _killed_mid_class(launcher, other, chromium, call)
    finally:
        assert other.stop() == 0, other.output[-3000:]


def _killed_mid_class(launcher: Launcher, other: Launcher, chromium, call) -> None:
    url = f"http://127.0.0.1:{launcher.port}"
    # (the second launcher warms the processes meanwhile: it has started)
    context, page, _ = chromium(_new_page, f"{url}/Two_classes?theta=0.35")
    try:
        first = chromium(_student_before_kill, launcher, context, page)
        (survivor,) = set(launcher.names()) - {first}
        host = dict(zip(launcher.names(), launcher.ports()))[first][0]
        in_service = launcher.output.count(f"{first} (")
        # the class: three students on each process, each with settings in the URL; the Tree
        # page with hand edits and an upload on the process to be killed
        tabs, tree, uploaded = call(_class_arrives(launcher.port, first, survivor))
        # the processes on other hosts: warmed by the second launcher before it is ready
        other.wait_ready()
        states = other.states()
        assert sorted(states) == ["app1", "app2"]
        assert all(s.startswith("UP") for s in states.values()), states
        assert other.output.count("every page ran once") == 2

        victim = launcher.pids()[first]
        os.kill(victim, signal.SIGKILL)
        killed = time.monotonic()
        # both balancers take it out within 5 s: the deployment's and the second launcher's
        out = _poll(lambda: not launcher.states().get(first, "").startswith("UP"), 10)
        assert out and time.monotonic() - killed < 5.0, launcher.states()
        out = _poll(lambda: not other.states().get(first, "").startswith("UP"), 10)
        assert out and time.monotonic() - killed < 5.0, other.states()
        # the second launcher holds it out until it is warm again
        assert _poll(lambda: f"{first} ({host}" in other.output and "is down" in other.output, 30)
        assert other.states()[first] == "MAINT"

        # the browser's student: reconnected by itself, told, settings kept, a download
        chromium(_student_after_kill, launcher, context, page, first)
        # the class: the other process's students go on, the dead one's reconnect
        call(_class_after_kill(launcher.port, first, survivor, tabs, tree, uploaded))

        # the launcher restarts the killed process, warms it and puts it back in service
        back = f"{first} ({host}:"
        assert _poll(
            lambda: (
                launcher.output.count(back) > in_service
                and "in service" in launcher.output.rsplit(back, 1)[1].split("\n", 1)[0]
            ),
            300,
        ), launcher.output[-3000:]
        assert _poll(lambda: launcher.states().get(first) == "UP", 300, every=0.5), launcher.output[
            -3000:
        ]
        assert launcher.pids()[first] != victim  # a new process, on the same address
        assert f"{first} ({host}" in launcher.output and "restarting it" in launcher.output

        # new students go to the restarted process: it holds no session, the survivor holds
        # the browser's moved one (the class's tabs are closed)
        chromium(_new_student_goes_to, launcher, url, first)

        # ... and the second launcher warms it again before it sends it a student
        assert _poll(lambda: other.states().get(first) == "UP", 300, every=0.5), other.output[
            -3000:
        ]
        assert other.output.count(f"{first} ({host}") >= 4  # warmed again before service
        assert other.output.count("every page ran once") == 3
    finally:
        chromium(lambda browser: context.close())


def _student_before_kill(browser, launcher: Launcher, context, page) -> str:
    """The browser's student on θ = 0.35; the process holding the session."""
    assert _theta(page) == pytest.approx(0.35)
    page.wait_for_function(FIGURE_DRAWN, arg="0.35")
    assert NOTICE not in page.inner_text("body")  # no notice on a first visit
    first = _backend(context)
    assert first in launcher.names(), (first, launcher.names())
    return first


def _student_after_kill(browser, launcher: Launcher, context, page, first: str) -> None:
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


def _new_student_goes_to(browser, launcher: Launcher, url: str, first: str) -> None:
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


async def _class_arrives(port: int, victim: str, survivor: str):
    """Three students on each process (θ = 0.3, 0.4, 0.5 in their URLs), the Tree page with a
    hand edit and an upload on ``victim``: (the students' tabs, the tree's, the upload's)."""
    tabs = {}
    for backend in (victim, survivor):
        for k in range(3):
            tab = Tab(port, {COOKIE: backend})
            await tab.open("Two_classes", f"theta=0.{k + 3}")
            assert tab.backend == backend
            tabs[backend, k] = tab
    tree = Tab(port, {COOKIE: victim})
    await tree.open("Tree", "data=pima&max_depth=3&edits=l1")
    assert tree.backend == victim and not tree.exceptions
    assert any("edited by hand" in t for t in tree.texts), tree.texts
    uploaded = Tab(port, {COOKIE: victim})
    await uploaded.open("Tree", "data=upload&upload=0123456789abcdef&upload_name=fr.csv")
    return tabs, tree, uploaded


async def _class_after_kill(port: int, victim: str, survivor: str, tabs, tree, uploaded):
    # the other process's students: no error, no delay above the goal
    for k in range(3):
        elapsed = await tabs[survivor, k].rerun()
        assert elapsed < GOAL_S, elapsed
        assert not tabs[survivor, k].exceptions
        assert tabs[survivor, k].sliders["tc_theta"] == [pytest.approx(0.3 + k / 10)]
    # the dead process's students: their browser reconnects with its cookie and its URL
    for k in range(3):
        again = Tab(port, {COOKIE: victim})
        await again.open("Two_classes", tabs[victim, k].query)
        assert again.backend == survivor  # redispatched to the live process
        assert again.sliders["tc_theta"] == [pytest.approx(0.3 + k / 10)]
        assert not again.exceptions
        await again.close()
    tree_again = Tab(port, {COOKIE: victim})
    await tree_again.open("Tree", tree.query)
    assert tree_again.backend == survivor and not tree_again.exceptions
    assert any("edited by hand" in t for t in tree_again.texts), tree_again.texts
    assert tree_again.sliders.get("tr_max_depth") == [3.0]
    # the upload did not survive: the page says so
    upload_again = Tab(port, {COOKIE: victim})
    await upload_again.open("Tree", uploaded.query)
    assert upload_again.backend == survivor
    assert any("upload it again" in a for a in upload_again.alerts), upload_again.alerts
    for t in [*tabs.values(), tree, uploaded, tree_again, upload_again]:
        try:
            await t.close()
        except Exception:  # the dead process's connections are gone
            pass
