"""The background jobs of the deployment tier (:mod:`tests.deploy.background`): the commands run
in turn, the first failure stops the job with its status and output, a missing command is a
failure with its reason, one job per name and session, and a stop ends the job's processes."""

from __future__ import annotations

import sys
import time
import types

from tests.deploy import background
from tests.deploy.background import Job


class _Temp:
    """The part of pytest's TempPathFactory the jobs use: the session's base directory."""

    def __init__(self, base):
        self.base = base

    def getbasetemp(self):
        return self.base


def _config(tmp_path):
    return types.SimpleNamespace(_tmp_path_factory=_Temp(tmp_path))


def _py(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def test_commands_run_in_turn_and_their_output_is_kept(tmp_path):
    job = Job([_py("print('one')"), _py("import sys; print('two', file=sys.stderr)")])
    out = background.result(_config(tmp_path), "ok", job)
    assert (out.returncode, out.stdout, out.stderr) == (0, "one\n", "two\n")
    assert out.folder == tmp_path / "job-ok" and (out.folder / "status").read_text() == "0"


def test_the_first_failure_stops_the_job(tmp_path):
    job = Job([_py("print('ran'); raise SystemExit(3)"), _py("print('never')")])
    out = background.result(_config(tmp_path), "bad", job)
    assert out.returncode == 3 and out.stdout == "ran\n"


def test_a_missing_command_is_a_failure_that_says_why(tmp_path):
    out = background.result(_config(tmp_path), "missing", Job([["/no/such/command"]]))
    assert out.returncode == -1 and "No such file or directory" in out.stderr


def test_a_job_runs_once_per_name_and_its_folder_is_shared(tmp_path):
    config = _config(tmp_path)
    first = background.start(config, "once", Job([_py("print(1)")]))
    # a second start (another worker, or the test itself) finds the job already there
    again = background.start(config, "once", Job([_py("print(2)")]))
    assert first == again
    assert background.result(config, "once", Job([_py("print(3)")])).stdout == "1\n"
    assert "once" not in background._STARTED  # its runner waited for once it was done


def test_a_worker_shares_the_session_s_folder(tmp_path):
    worker = types.SimpleNamespace(_tmp_path_factory=_Temp(tmp_path / "popen-gw1"), workerinput={})
    assert background.shared_folder(worker) == tmp_path
    assert background.shared_folder(_config(tmp_path)) == tmp_path


def test_a_stop_ends_the_job_and_what_it_runs(tmp_path):
    marker = tmp_path / "child.pid"
    code = f"import os, time; open({str(marker)!r}, 'w').write(str(os.getpid())); time.sleep(120)"
    background.start(_config(tmp_path), "long", Job([_py(code)]))
    deadline = time.monotonic() + 60  # a bound, not a measured time
    while not (marker.exists() and marker.read_text()):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    pid = int(marker.read_text())
    background.wait_for_started(0, names=["long"])
    deadline = time.monotonic() + 30
    while _alive(pid):
        assert time.monotonic() < deadline, f"process {pid} still runs"
        time.sleep(0.05)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"  # a zombie has ended
    except FileNotFoundError:
        return False
