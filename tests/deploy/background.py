"""Long preparations of the deployment tier started when the session starts, in the background.

The fresh virtual environment's install (``pip install -r requirements.txt -e .``, about 600 MB
of packages unpacked) takes most of a minute, mostly waiting for the disk: the test that needs
it would hold its worker all that time. :func:`start` runs such a :class:`Job` in a process of
its own as soon as the collection shows that its test will run
(``tests/deploy/conftest.py``), while the workers run other tests; the test takes the outcome
with :func:`result` (a bounded wait), which also starts the job if nothing did (the test alone,
or without the conftest). The job is the same commands, the same environment and the same
checks as when the test ran them itself; only when they run changes.

The job runs once per test session, in one place shared by the pytest-xdist workers (the
session's base temporary directory, as pytest-xdist's documentation shares a session fixture);
the first process to create its folder starts it, and the process that started it waits for it
at the session's end (no process outlives the session).

``python -m tests.deploy.background FOLDER`` is the runner: it runs the job's commands in turn
(``FOLDER/job.json``), stops at the first that fails, and writes their output and the last exit
status (``FOLDER/status``, written last).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Job:
    """Commands run in turn in ``cwd`` with ``env`` (None: the test process's environment);
    ``{folder}`` in a command or in ``cwd`` is the job's own folder. The runner runs with
    ``env`` and its commands inherit it (the checkout is its working directory, so that
    ``python -m tests.deploy.background`` is found without ``PYTHONPATH``)."""

    commands: list[list[str]]
    cwd: str = str(ROOT)
    env: dict[str, str] | None = None
    timeout: float = 1500.0  # a bound for the whole job, not a measured time


@dataclass
class Outcome:
    """What the job's commands did: the last exit status, their output, and the job's folder."""

    returncode: int
    stdout: str
    stderr: str
    folder: Path = field(repr=False)


#: The running jobs this process started (name -> process), waited for at the session's end.
_STARTED: dict[str, subprocess.Popen] = {}


def shared_folder(config) -> Path:
    """The session's base temporary directory, the same for every pytest-xdist worker."""
    base = config._tmp_path_factory.getbasetemp()
    return base.parent if hasattr(config, "workerinput") else base


def start(config, name: str, job: Job) -> Path:
    """Start ``job`` under ``name`` unless a process of this session already did; its folder."""
    folder = shared_folder(config) / f"job-{name}"
    try:
        folder.mkdir(parents=True)  # atomic: one process of the session wins
    except FileExistsError:
        return folder
    spec = {
        "commands": [[part.replace("{folder}", str(folder)) for part in c] for c in job.commands],
        "cwd": job.cwd.replace("{folder}", str(folder)),
        "timeout": job.timeout,
    }
    (folder / "job.json").write_text(json.dumps(spec), encoding="utf-8")
    # the job's environment is the runner's (not written down), which its commands inherit
    _STARTED[name] = subprocess.Popen(
        [sys.executable, "-m", "tests.deploy.background", str(folder)],
        cwd=ROOT,
        env=job.env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: stopped whole (wait_for_started)
    )
    return folder


def result(config, name: str, job: Job) -> Outcome:
    """The job's outcome: started now if no process started it, waited for within its bound."""
    folder = start(config, name, job)
    status = folder / "status"
    deadline = time.monotonic() + job.timeout + 60
    while not status.exists():
        assert time.monotonic() < deadline, f"the background job {name!r} did not end"
        time.sleep(0.2)
    if name in _STARTED:  # started here: the runner ends right after its status
        wait_for_started(60, names=[name])
    return Outcome(
        int(status.read_text(encoding="utf-8")),
        (folder / "stdout").read_text(encoding="utf-8"),
        (folder / "stderr").read_text(encoding="utf-8"),
        folder,
    )


def wait_for_started(bound: float = 1560.0, names: list[str] | None = None) -> None:
    """Wait for the jobs this process started (``names``, or all: at the session's end), killed
    after ``bound`` seconds: none outlives the session."""
    for name in list(_STARTED) if names is None else names:
        proc = _STARTED.pop(name, None)
        if proc is None:  # not started here, or already waited for
            continue
        try:
            proc.wait(bound)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # the runner and the command it runs
            proc.wait()


def run(folder: Path) -> int:
    """The runner: the commands of ``folder/job.json`` in turn; ``folder/status`` last."""
    spec = json.loads((folder / "job.json").read_text(encoding="utf-8"))
    deadline = time.monotonic() + spec["timeout"]
    code, out, err = 0, [], []
    for command in spec["commands"]:
        try:
            done = subprocess.run(
                command,
                cwd=spec["cwd"],
                capture_output=True,
                text=True,
                timeout=max(1.0, deadline - time.monotonic()),
            )
        except subprocess.TimeoutExpired as exc:
            code = -1
            err.append(f"{command}: timed out after {exc.timeout:.0f} s\n")
            break
        except OSError as exc:  # not found, not executable
            code = -1
            err.append(f"{command}: {exc!r}\n")
            break
        out.append(done.stdout)
        err.append(done.stderr)
        code = done.returncode
        if code != 0:
            break
    (folder / "stdout").write_text("".join(out), encoding="utf-8")
    (folder / "stderr").write_text("".join(err), encoding="utf-8")
    (folder / "status.tmp").write_text(str(code), encoding="utf-8")
    os.replace(folder / "status.tmp", folder / "status")  # whole, or not there
    return code


if __name__ == "__main__":
    raise SystemExit(run(Path(sys.argv[1])))
