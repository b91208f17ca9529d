"""The deployment tier's shared pieces.

- The long preparations, started in the background when the session starts
  (:mod:`tests.deploy.background`): a job starts as soon as the collection holds the test that
  needs it, and the process that started it waits for it at the session's end.
- :func:`deployment`: one warmed HAProxy deployment for the tier, shared by the modules of
  ``tests.conftest.SHARED_UNITS`` (under pytest-xdist one worker runs them all).
"""

from __future__ import annotations

import pytest

from tests.deploy import background
from tests.deploy.test_fresh_venv import INSTALL, INSTALL_JOB
from tests.deploy.test_full_tmp import mounted_full_tmp
from tests.deploy.test_haproxy import HOSTS, Launcher, _free_port

#: The tests whose preparation runs in the background: node id -> (job name, job).
BACKGROUND = {
    "tests/deploy/test_fresh_venv.py::"
    "test_the_deployment_command_runs_in_a_fresh_venv_from_requirements_txt": (
        INSTALL,
        INSTALL_JOB,
    ),
}


def pytest_collection_finish(session):
    if session.config.option.collectonly:
        return
    selected = {item.nodeid for item in session.items}
    for nodeid, (name, job) in BACKGROUND.items():
        if nodeid in selected:
            background.start(session.config, name, job)


def pytest_sessionfinish(session, exitstatus):
    # interrupted (Ctrl-C): stop the jobs rather than wait for them
    background.wait_for_started(0 if exitstatus == pytest.ExitCode.INTERRUPTED else 1560.0)


@pytest.fixture(scope="package")
def deployment(tmp_path_factory):
    """``python -m offcenter.ops.serve --workers 2 --hosts 127.0.0.2 127.0.0.3`` (two Streamlit
    processes on two hosts behind HAProxy, warmed as deployed), its temporary directory full (a
    2 MB tmpfs, filled: ``TMPDIR`` of the launcher and its processes, ``launcher.tmpdir``),
    HAProxy's access log kept (``launcher.access_log``).

    One for the tier (package scope: stopped when the worker's next test is outside
    tests/deploy/, not kept running beside the rest of the session): test_haproxy.py,
    test_failover_browser.py and test_full_tmp.py check on it what a class needs
    (tests/conftest.py's ``SHARED_UNITS`` sends them to one worker as one unit). The tests that
    hang or kill a process, or kill HAProxy, first wait until the deployment is whole
    (:meth:`Launcher.wait_whole`), so they hold in any order; the teardown stops it and checks
    the launcher's exit.
    """
    base = tmp_path_factory.mktemp("deployment")
    with mounted_full_tmp(base / "tmpfs") as tmp:
        log = base / "access.log"
        launcher = Launcher(
            base / "run",
            _free_port(),
            "--workers",
            "2",
            "--hosts",
            *HOSTS,
            "--access-log",
            str(log),
            env={"TMPDIR": str(tmp)},
        )
        launcher.access_log = log
        launcher.tmpdir = tmp
        try:
            launcher.wait_ready()
            yield launcher
        finally:
            code = launcher.stop()
            assert code == 0, launcher.output[-3000:]
