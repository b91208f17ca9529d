"""The worker pool of heavy work (offcenter.app.heavy_work): limits, refusals, the time bound.

Jobs that must stay running while the test checks a limit wait for a file the test creates
(``hold``), never for a time: the outcome does not depend on the machine's speed. Every wait is
bounded. Slow tier: the first job starts the forkserver (seconds on a busy machine).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
import streamlit as st

from offcenter.app import heavy_work
from offcenter.app.heavy_work import HeavyPool, Limits, PoolFull, SessionBusy, TooLong, WorkerLost
from tests.conftest import run_app

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------- jobs (run in the workers)
def hold(path: str, limit: float = 120.0) -> int:
    """Wait until ``path`` exists (at most ``limit`` s); the worker's pid."""
    end = time.monotonic() + limit
    while not os.path.exists(path) and time.monotonic() < end:
        time.sleep(0.02)
    return os.getpid()


def fail(message: str) -> None:
    raise ValueError(message)


def die() -> None:
    os._exit(3)


@pytest.fixture()
def pools():
    made = []

    def make(**kw) -> HeavyPool:
        p = HeavyPool(Limits(**{"nice": 0, **kw}))
        made.append(p)
        return p

    yield make
    for p in made:
        p.close()


@pytest.fixture()
def gate(tmp_path):
    """A file path the held jobs wait for; created at the end (they all finish)."""
    path = tmp_path / "go"
    yield str(path)
    path.touch()


def test_a_job_runs_in_another_process_and_its_exceptions_come_back(pools):
    p = pools(workers=1)
    assert p.run(os.getpid) != os.getpid()
    with pytest.raises(ValueError, match="bad column"):
        p.run(fail, "bad column")
    assert p.in_flight == 0


def test_the_pool_is_bounded_and_says_so(pools, gate):
    p = pools(workers=1, max_waiting=1)
    running = p.submit(hold, gate, session="a")
    waiting = p.submit(hold, gate, session="b")
    with pytest.raises(PoolFull) as exc:
        p.run(os.getpid, session="c")
    assert "busy with other large computations" in exc.value.message
    assert "settings are kept" in exc.value.message
    Path(gate).touch()
    assert running.result(timeout=120) and waiting.result(timeout=120)
    assert p.run(os.getpid, session="c")  # room again


def test_one_heavy_job_at_a_time_per_session(pools, gate):
    p = pools(workers=2, max_waiting=2)
    first = p.submit(hold, gate, session="s")
    with pytest.raises(SessionBusy) as exc:
        p.run(os.getpid, session="s")
    assert "previous large computation is still running" in exc.value.message
    with pytest.raises(SessionBusy):  # nor a background job beside it
        p.submit(os.getpid, session="s", background=True)
    assert p.run(os.getpid, session="t")  # another session is not held up
    Path(gate).touch()
    first.result(timeout=120)
    assert p.run(os.getpid, session="s")


def test_a_session_waits_for_its_own_background_job(pools, gate):
    p = pools(workers=1, max_waiting=0)
    background = p.submit(hold, gate, session="s", background=True)
    with pytest.raises(SessionBusy):  # a second background job is refused
        p.submit(os.getpid, session="s", background=True)
    Path(gate).touch()
    # the session's own grow waits for its prefetch instead of being refused (the pool has one
    # place and no waiting room: it is the prefetch's until that ends)
    assert p.run(os.getpid, session="s")
    assert background.done()


def test_a_job_over_the_time_bound_is_stopped_and_its_worker_replaced(pools, gate):
    p = pools(workers=1, time_limit=1.0)
    pid = p.run(os.getpid)
    with pytest.raises(TooLong) as exc:
        p.run(hold, gate, session="s")  # never released before the bound
    assert "stopped after 1 s" in exc.value.message
    new_pid = p.run(os.getpid, session="s")  # the pool recovered, the session is free
    assert new_pid != pid


def test_a_worker_that_dies_gives_a_message_and_is_replaced(pools):
    p = pools(workers=1)
    with pytest.raises(WorkerLost) as exc:
        p.run(die, session="s")
    assert "worker process ended" in exc.value.message
    assert p.run(os.getpid, session="s")


def test_small_work_stays_in_the_process():
    limits = heavy_work.limits()
    assert not heavy_work.is_heavy_rows(limits.rows)
    assert heavy_work.is_heavy_rows(limits.rows + 1) == limits.enabled
    assert not heavy_work.is_heavy_bytes(limits.upload_bytes)


# ---------------------------------------------------------------- the pages, through the pool
@pytest.fixture()
def low_threshold():
    """Every fit and table of more than 100 rows goes to the pool."""
    st.cache_resource.clear()
    st.cache_data.clear()
    before = heavy_work.limits()
    heavy_work.configure(enabled=True, rows=100, upload_bytes=1000, nice=0)
    yield
    heavy_work.configure(**{f: getattr(before, f) for f in before.__dataclass_fields__})
    st.cache_resource.clear()
    st.cache_data.clear()


def _tree_json(at) -> str:
    S = at.session_state
    clf = S["tr_session"].current
    from offcenter.tree.export import to_dict

    return repr(to_dict(clf))


def test_a_grow_through_the_pool_gives_the_same_tree(low_threshold, monkeypatch):
    calls = []
    original = heavy_work.run
    monkeypatch.setattr(
        heavy_work, "run", lambda fn, *a, **k: calls.append(fn) or original(fn, *a, **k)
    )
    at = run_app(page="pages/3_Tree.py", query={"data": "german_credit"}, timeout=300)
    assert calls, "the fit did not go to the pool"
    pooled = _tree_json(at)
    assert "busy" not in " ".join(str(w.value) for w in at.warning)
    heavy_work.configure(enabled=False)
    st.cache_resource.clear()
    local = _tree_json(
        run_app(page="pages/3_Tree.py", query={"data": "german_credit"}, timeout=300)
    )
    assert pooled == local


def test_a_full_pool_gives_the_message_not_a_traceback(low_threshold, gate):
    heavy_work.configure(workers=1, max_waiting=0)
    held = heavy_work.shared_pool().submit(hold, gate, session="another student")
    try:
        at = run_app(page="pages/3_Tree.py", query={"data": "german_credit"}, timeout=300)
        warnings = " ".join(str(w.value) for w in at.warning)
        assert "busy with other large computations" in warnings
        assert not at.exception
        # the settings stay: the data set chosen is still the one asked for
        assert at.selectbox(key="tr_data").value == "german_credit"
    finally:
        Path(gate).touch()
        held.result(timeout=120)


def test_a_compare_run_goes_through_the_pool(low_threshold, monkeypatch):
    calls = []
    original = heavy_work.run
    monkeypatch.setattr(
        heavy_work, "run", lambda fn, *a, **k: calls.append(fn) or original(fn, *a, **k)
    )
    page = str(ROOT / "pages" / "4_Compare_measures.py")
    at = run_app(page=page, timeout=300)
    at.selectbox(key="cm_data").set_value("german_credit")
    at.multiselect(key="cm_settings").set_value(["shannon", "oc_shannon"])
    at.number_input(key="cm_folds").set_value(2)
    at.number_input(key="cm_repeats").set_value(1)
    at.number_input(key="cm_max_depth").set_value(2)
    at = run_app(at)
    at.button(key="cm_run").click()
    at = run_app(at)
    assert len([f for f in calls if f.__name__ == "_fit_and_score"]) == 4
    bars = at.get("progress")
    assert bars and "Done: 4/4 fits" in bars[0].proto.text


def test_a_full_pool_on_compare_keeps_the_run_for_later(low_threshold, gate):
    heavy_work.configure(workers=1, max_waiting=0)
    held = heavy_work.shared_pool().submit(hold, gate, session="another student")
    page = str(ROOT / "pages" / "4_Compare_measures.py")
    try:
        at = run_app(page=page, timeout=300)
        at.selectbox(key="cm_data").set_value("german_credit")
        at.number_input(key="cm_folds").set_value(2)
        at.number_input(key="cm_repeats").set_value(1)
        at = run_app(at)
        at.button(key="cm_run").click()
        at = run_app(at)
        warnings = " ".join(str(w.value) for w in at.warning)
        assert "busy with other large computations" in warnings
        assert "resumes" in warnings
        assert not at.exception
    finally:
        Path(gate).touch()
        held.result(timeout=120)
    at = run_app(at)  # the pool is free: the run resumes and ends
    assert "Done:" in at.get("progress")[0].proto.text


def _csv(n: int = 300) -> bytes:
    rows = "\n".join(f"{i % 7},{(i * 13) % 11},{'yes' if i % 3 == 0 else 'no'}" for i in range(n))
    return ("a,b,cls\n" + rows + "\n").encode()


def test_a_large_upload_is_read_in_the_pool_and_waits_when_it_is_full(low_threshold, gate):
    heavy_work.configure(workers=1, max_waiting=0)
    held = heavy_work.shared_pool().submit(hold, gate, session="another student")
    try:
        at = run_app(page="pages/3_Tree.py", timeout=300)
        at.file_uploader(key="tr_file").set_value(("mine.csv", _csv(), "text/csv"))
        at = run_app(at)
        warnings = " ".join(str(w.value) for w in at.warning)
        assert "busy with other large computations" in warnings
        assert "The file stays in the upload box" in warnings
        assert not at.exception
        assert at.session_state["data_upload"] is None  # not read yet, nothing lost
    finally:
        Path(gate).touch()
        held.result(timeout=120)
    at.button(key="tr_upload_retry").click()
    at = run_app(at)  # the pool is free: the same file is read now
    assert at.session_state["data_upload"]["name"] == "mine.csv"
    assert "busy" not in " ".join(str(w.value) for w in at.warning)
