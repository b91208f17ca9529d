"""The warm-up (offcenter.ops.warmup): the wait for a server's health, and the warm-up inside
the server's process (warm_runtime, through Streamlit's Runtime session API)."""

from __future__ import annotations

import subprocess
import sys

from offcenter.ops.warmup import wait_healthy
from tests.conftest import run_coroutine


def test_waiting_for_health_stops_when_the_server_process_exits():
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait(30)
    # nothing listens on the port and the process is gone: no wait for the 300 s bound
    assert wait_healthy(1, wait=300, process=dead) is False


class _Runtime:
    """Streamlit's Runtime session API as the warm-up uses it: each rerun ends with the given
    ``script_finished`` status (None: never), written to the session's client at once."""

    def __init__(self, statuses):
        self.statuses = dict(statuses)
        self.clients, self.runs, self.closed = {}, [], []

    def connect_session(self, client, user_info):
        sid = f"s{len(self.clients)}"
        self.clients[sid] = client
        return sid

    def handle_backmsg(self, sid, msg):
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        page = msg.rerun_script.page_name
        self.runs.append((page, msg.rerun_script.query_string))
        status = self.statuses.get(page, ForwardMsg.FINISHED_SUCCESSFULLY)
        if status is None:
            return
        early = ForwardMsg()
        early.script_finished = ForwardMsg.FINISHED_EARLY_FOR_RERUN  # not an end
        self.clients[sid].write_forward_msg(early)
        end = ForwardMsg()
        end.script_finished = status
        self.clients[sid].write_forward_msg(end)

    def close_session(self, sid):
        self.closed.append(sid)


def test_the_in_process_warm_up_runs_every_link_in_a_session_of_its_own_and_closes_it():

    from offcenter.ops.warmup import LINKS, warm_runtime

    rt = _Runtime({})
    assert run_coroutine(warm_runtime(rt)) == []
    assert rt.runs == [(p, q) for p, q in LINKS]
    assert sorted(rt.closed) == sorted(rt.clients) and len(rt.clients) == len(LINKS)


def test_the_in_process_warm_up_reports_a_failed_or_stuck_page_and_goes_on():

    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    from offcenter.ops.warmup import warm_runtime

    rt = _Runtime({"Tree": ForwardMsg.FINISHED_WITH_COMPILE_ERROR, "Q_classes": None})
    # the stuck page's bound passes whatever the machine's speed: it never ends
    failed = run_coroutine(warm_runtime(rt, ["", "Q_classes", "Tree", "Two_classes"], timeout=0.5))
    assert [f.split(" ")[0] for f in failed] == ["Q_classes?", "Tree?"]
    assert [p for p, _ in rt.runs] == ["", "Q_classes", "Tree", "Two_classes"]
    assert len(rt.closed) == 4  # the stuck session closed too
