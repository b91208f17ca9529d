"""The deployment tier's long preparations, started in the background when the session starts
(:mod:`tests.deploy.background`): a job starts as soon as the collection holds the test that
needs it, and the process that started it waits for it at the session's end."""

from __future__ import annotations

import pytest

from tests.deploy import background
from tests.deploy.test_fresh_venv import INSTALL, INSTALL_JOB

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
