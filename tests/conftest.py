"""Shared test fixtures and settings.

- **Hypothesis profiles**, chosen by the environment variable ``HYPOTHESIS_PROFILE``:
  ``dev`` (the default: 100 examples), ``ci`` (150 examples, what ``.ci/run`` uses) and
  ``thorough`` (2,000 examples, for a night run). No profile has a deadline: a test never
  depends on the machine's speed. A test's own ``@settings(max_examples=...)`` still wins.
- **Tiers**: every test under ``tests/browser/`` gets ``browser`` (a real headless Chromium
  against ``streamlit run app.py``), every test under ``tests/deploy/`` gets ``deploy`` (wheels,
  fresh virtual environments, HAProxy); a long test elsewhere is marked ``slow`` by hand. The
  everyday run is ``pytest -n 2 -m "not browser and not deploy and not slow"``; CI runs all.
- **One BLAS thread a process**: the suite runs one pytest-xdist worker per core, so numpy's
  OpenBLAS (and any OpenMP) is held to one thread in the workers and in every process they start
  (``OPENBLAS_NUM_THREADS=1``..., unless already set): a second thread only contends with the
  other worker, and on a 2-core machine it doubled the CPU time of the study's ``--report``.
- **AppTest**: :func:`run_app` opens a page (or reruns one) and fails on any exception the
  script raised; the ``run_app`` fixture hands out the same function. Per test process, the
  installed packages are scanned for components once, each page is compiled once, and a run's
  end is waited for on an event (each was repeated work of every AppTest run).
- **Fewer garbage collections**: after the collection, its objects are frozen out of the
  collector's reach and the young generation's threshold is raised (:data:`GC_THRESHOLDS`).
- **Bytecode caches on** whatever ``PYTHONDONTWRITEBYTECODE`` says (pytest's rewritten test
  modules are kept instead of being rewritten by every worker).

Run the suite from the repository root: ``pytest -n 2`` (pytest-xdist, everything) or the
everyday run above.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

#: The thread-count variables of the BLAS / OpenMP libraries, set to 1 for the suite's processes.
ONE_THREAD = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
for _name in ONE_THREAD:
    os.environ.setdefault(_name, "1")

#: Bytecode caches on, whatever the environment says (``PYTHONDONTWRITEBYTECODE``): pytest
#: rewrites the asserts of every test module it imports and keeps the result in __pycache__
#: only when Python may write bytecode; without it each process (each xdist worker) parses and
#: rewrites every test file again, about 7 s of a collection's 15 s of CPU on this machine. The
#: processes the tests start (servers, command lines) read the package's cached bytecode too.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

ROOT = Path(__file__).resolve().parents[1]
#: The tiers given by a directory: every test under tests/<name>/ gets the marker <name>.
TIER_DIRS = {name: Path(__file__).resolve().parent / name for name in ("browser", "deploy")}

# ---------------------------------------------------------------------------- hypothesis
settings.register_profile(
    "dev", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci",
    max_examples=150,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
PROFILES = ("dev", "ci", "thorough")


def _profile() -> str:
    name = os.environ.get("HYPOTHESIS_PROFILE", "dev")
    if name not in PROFILES:
        raise pytest.UsageError(
            f"HYPOTHESIS_PROFILE={name!r} is not a profile: choose one of {', '.join(PROFILES)}"
        )
    return name


def pytest_configure(config):
    settings.load_profile(_profile())
    # numpy may be loaded before this file set the variables: limit the loaded libraries too
    from threadpoolctl import threadpool_limits

    limit = os.environ["OPENBLAS_NUM_THREADS"]
    if limit.isdigit():
        threadpool_limits(int(limit))


#: The collector's thresholds in the test processes (Python's default: 700, 10, 10).
GC_THRESHOLDS = (20_000, 20, 20)


def pytest_collection_finish(session):
    """Fewer garbage collections in the test processes: the modules, data and objects of the
    collection move to the permanent generation (``gc.freeze``), which later collections skip,
    and a young collection waits for 20,000 new objects instead of 700. On the Tree page's
    AppTests the collector's CPU went from 1.2 s to 0.5 s of about 9.5 s. Only when garbage is
    found changes, never what is found (a test that needs it collected calls ``gc.collect()``).
    """
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def pytest_report_header(config):
    return f"hypothesis profile: {settings.get_current_profile_name()} (HYPOTHESIS_PROFILE)"


# ---------------------------------------------------------------------------- markers
def pytest_collection_modifyitems(config, items):
    """Mark every test under tests/browser/ ``browser`` and under tests/deploy/ ``deploy``."""
    for item in items:
        parents = Path(str(item.fspath)).resolve().parents
        for name, folder in TIER_DIRS.items():
            if folder in parents:
                item.add_marker(getattr(pytest.mark, name))


# ---------------------------------------------------------------------------- xdist
#: Modules whose tests share no module fixture and each run for long (a study command end to
#: end): under pytest-xdist each of their tests is a work unit of its own, so that the workers
#: share them instead of one worker running the whole module.
SPREAD_MODULES = frozenset({"tests/studies/test_study_commands.py"})
#: Modules whose tests share a session fixture that is long to make (tests/deploy/conftest.py's
#: ``deployment``: a warmed HAProxy deployment of two Streamlit processes): under pytest-xdist
#: their tests are one work unit, named after the module given here, so that one worker makes
#: the fixture once for all of them.
SHARED_UNITS = {
    "tests/deploy/test_failover_browser.py": "tests/deploy/test_haproxy.py",
    "tests/deploy/test_full_tmp.py": "tests/deploy/test_haproxy.py",
}
#: Measured seconds of the longest work units (module, or a test of a SPREAD_MODULES module),
#: written by ``python -m tests.costs LOG`` from a ``--durations=0`` log. A unit not listed is
#: counted at DEFAULT_SECONDS a test. Only the order of the work depends on them.
COSTS = ROOT / "tests" / "costs.json"
DEFAULT_SECONDS = 0.2


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist: the suite runs without it too
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadscope`` (pyproject.toml), longest work first.

    pytest-xdist's loadscope sends a module's tests to one worker (its module fixtures are made
    once) and hands the modules out by their number of tests, so a module of a few long tests
    (a study command, a wheel built and installed, HAProxy) came last and kept one worker busy
    minutes after the other was done. Here the units go out longest first by their measured cost
    (:data:`COSTS`), the tests of :data:`SPREAD_MODULES` are units of their own, and the modules
    of :data:`SHARED_UNITS` are one unit with the module they share a session fixture with.
    """
    if config.getvalue("dist") != "loadscope":
        return None
    import json

    from xdist.scheduler import LoadScopeScheduling

    costs = json.loads(COSTS.read_text(encoding="utf-8")) if COSTS.exists() else {}

    class LongestFirst(LoadScopeScheduling):
        ordered = False

        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            if module in SPREAD_MODULES:
                return nodeid
            if module in SHARED_UNITS:
                return SHARED_UNITS[module]
            return super()._split_scope(nodeid)

        def _assign_work_unit(self, node) -> None:
            if not self.ordered:  # the first call: the queue is complete
                units = sorted(
                    self.workqueue.items(),
                    key=lambda unit: -costs.get(unit[0], DEFAULT_SECONDS * len(unit[1])),
                )
                self.workqueue.clear()
                self.workqueue.update(units)
                self.ordered = True
            super()._assign_work_unit(node)

    return LongestFirst(config, log)


# ---------------------------------------------------------------------------- AppTest
def _scan_component_manifests_once() -> None:
    """Scan the installed packages for Streamlit component manifests once per test process.

    Every new ``AppTest`` makes a ``BidiComponentManager`` on its first run, which reads the
    metadata of every installed distribution (``scan_component_manifests``): about a second a
    page opened, on this machine, the largest part of a short AppTest. The installed packages do
    not change while the tests run, so the scan's answer is kept (a copy of the list each call);
    the components the app declares itself (``st.components.v2.component``) are registered at
    run time as before.
    """
    import functools

    from streamlit.components.v2 import manifest_scanner

    scan = manifest_scanner.scan_component_manifests
    if getattr(scan, "cache_info", None) is not None:  # already wrapped
        return
    once = functools.cache(scan)

    @functools.wraps(scan)
    def cached(max_workers: int | None = None):
        return list(once(max_workers))

    cached.cache_info = once.cache_info
    manifest_scanner.scan_component_manifests = cached


_scan_component_manifests_once()


def _wait_for_app_test_runs_on_an_event() -> None:
    """AppTest waits for a run's end on an event instead of a 1 ms poll.

    ``streamlit.testing.v1.local_script_runner.require_widgets_deltas`` wakes every millisecond
    and scans the whole list of the run's events (one a message of the page) for ``SHUTDOWN``:
    quadratic in a page's messages, it took about a sixth of the CPU of the everyday tier's
    AppTest runs, competing with the script's own thread. Here the same wait (the same timeout
    and error) returns when the runner sends ``SHUTDOWN``.
    """
    import threading

    from streamlit.runtime.scriptrunner import ScriptRunnerEvent
    from streamlit.testing.v1 import local_script_runner

    if getattr(local_script_runner.require_widgets_deltas, "on_an_event", False):
        return

    def require_widgets_deltas(runner, timeout: float = 3) -> None:
        done = threading.Event()

        def on_event(sender, event, **kwargs) -> None:
            if event == ScriptRunnerEvent.SHUTDOWN:
                done.set()

        runner.on_event.connect(on_event, weak=False)
        try:
            # SHUTDOWN may have come before the receiver was connected
            if runner.script_stopped() or done.wait(timeout):
                return
        finally:
            runner.on_event.disconnect(on_event)
        runner.request_stop()
        runner.join()
        raise RuntimeError(f"AppTest script run timed out after {timeout}(s)")

    require_widgets_deltas.on_an_event = True
    local_script_runner.require_widgets_deltas = require_widgets_deltas


_wait_for_app_test_runs_on_an_event()


def _compile_each_page_once() -> None:
    """Compile each page script once per test process, not once per AppTest run.

    Every ``AppTest`` run makes a new ``ScriptCache``, so every run read, parsed (Streamlit's
    "magic" rewrites the syntax tree) and compiled the page again: about a sixth of the CPU of
    the AppTest runs. A server compiles a page once for all its sessions; here the compiled
    code is kept per file, its modification time and size (a changed file is compiled again).
    """
    from streamlit import config
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache

    original = ScriptCache.get_bytecode
    if getattr(original, "once_per_process", False):
        return
    compiled: dict[tuple, object] = {}

    def get_bytecode(self, script_path: str):
        path = os.path.abspath(script_path)
        stat = os.stat(path)
        key = (path, stat.st_mtime_ns, stat.st_size, config.get_option("runner.magicEnabled"))
        if key not in compiled:
            compiled[key] = original(self, script_path)
        return compiled[key]

    get_bytecode.once_per_process = True
    ScriptCache.get_bytecode = get_bytecode


_compile_each_page_once()


def run_app(
    at=None,
    *,
    page: str | Path | None = None,
    query: Mapping[str, str] | None = None,
    state: Mapping[str, object] | None = None,
    timeout: float = 120,
):
    """Run a Streamlit page in AppTest and fail on any exception it raised.

    Parameters
    ----------
    at : streamlit.testing.v1.AppTest, optional
        A page already open: it is run again (after the widget changes the test made).
        Without it, ``page`` is opened fresh.
    page : str or Path, optional
        The script to open, relative to the repository root (``"app.py"``,
        ``"pages/3_Tree.py"``) or absolute. Needed when ``at`` is None.
    query : mapping, optional
        The link's query string of a fresh page (``{"data": "pima"}``).
    state : mapping, optional
        Session-state entries set before this run.
    timeout : float
        AppTest's ``default_timeout`` of a fresh page, in seconds.

    Returns
    -------
    AppTest
        ``at`` (or the page opened), after the run.
    """
    from streamlit.testing.v1 import AppTest

    if at is None:
        if page is None:
            raise TypeError("run_app needs a page to open when no AppTest is given")
        at = AppTest.from_file(str(ROOT / page), default_timeout=timeout)
        for key, value in (query or {}).items():
            at.query_params[key] = value
    for key, value in (state or {}).items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def shown(text: str) -> str:
    r"""A message as the reader sees it: the markdown escapes of
    :func:`offcenter.viz.format.md_escape` (``\.``, ``\(``) removed.

    >>> shown(r"a\.csv \(b\)")
    'a.csv (b)'
    """
    return re.sub(r"\\(.)", r"\1", str(text))


@pytest.fixture(name="run_app")
def run_app_fixture():
    """:func:`run_app`, for tests that prefer a fixture to an import."""
    return run_app


def stop_process(proc, wait: float = 20) -> None:
    """Stop a server a test started: SIGTERM, then SIGKILL if it has not ended within ``wait``
    seconds (a bound, not a measured time)."""
    proc.terminate()
    try:
        proc.wait(wait)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def run_coroutine(coro):
    """``asyncio.run(coro)`` in a thread of its own: a browser test that ran earlier in this
    worker (Playwright's sync API) can leave an event loop running in the main thread, where
    ``asyncio.run`` refuses to start."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


@pytest.fixture
def registered():
    """``registered(name, func, **kw)`` registers a custom measure for one test, then removes it.

    The same as ``offcenter.register_measure``; every name it registered is unregistered when
    the test ends, so that tests that register measures do not leak them into each other.
    """
    import offcenter as oc
    from offcenter.measures import custom

    names = []

    def reg(name, func, **kw):
        info = oc.register_measure(name, func, **kw)
        names.append(name)
        return info

    yield reg
    for n in names:
        if n in custom.custom_measure_names():
            oc.unregister_measure(n)
