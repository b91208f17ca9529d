"""The app process's heap freeze (offcenter.ops.heap): frozen once every page ran, again once
every warm-up link ran, never more; the app's navigation reports each run that ended. The
collector's thresholds: set by the server's lifespan, the environment variable read safely."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from offcenter.ops import heap
from offcenter.ops.warmup import LINKS, PAGES
from tests.conftest import run_app

ROOT = Path(__file__).resolve().parents[2]


def _query(link_query: str) -> dict:
    return dict([link_query.split("=", 1)]) if link_query else {}


def test_the_warm_ups_walk_freezes_after_the_pages_and_after_the_last_link():
    freezes = []
    h = heap.HeapFreezer(freeze=lambda: freezes.append(runs))
    runs = 0
    for page, query in LINKS:  # the warm-up's order: every page, then Tree on each data set
        runs += 1
        h.after_run(page, _query(query))
    assert freezes == [len(PAGES), len(LINKS)]
    assert h.frozen == 2
    h.after_run("Tree", {"data": "pima"})  # later runs: nothing more
    assert h.frozen == 2


def test_a_walk_that_ends_both_milestones_at_once_freezes_once():
    freezes = []
    h = heap.HeapFreezer(freeze=lambda: freezes.append(1))
    data_links = [(p, q) for p, q in LINKS if q]
    for page, query in data_links:  # the Tree page on every data set first
        h.after_run(page, _query(query))
    for page in PAGES[:-1]:
        h.after_run(page, {})
    assert freezes == []
    assert h.after_run(PAGES[-1], {}) is True  # the last page completes both
    assert freezes == [1] and h.frozen == 1


def test_no_freeze_before_every_page_ran():
    freezes = []
    h = heap.HeapFreezer(freeze=lambda: freezes.append(1))
    for page in PAGES[:-1]:
        for _ in range(3):
            assert h.after_run(page, {}) is False
    assert freezes == [] and h.frozen == 0
    assert h.after_run(PAGES[-1], {}) is True
    assert freezes == [1]


def test_freeze_heap_moves_the_live_objects_out_of_the_collections():
    try:
        heap.freeze_heap()
        assert gc.get_freeze_count() > 1000  # the interpreter's and the libraries' objects
    finally:
        gc.unfreeze()  # the test process goes on as before


class _Page:
    """A page for navigation.run whose run does ``action``."""

    url_path = "Somewhere"

    def __init__(self, action):
        self.action = action

    def run(self):
        self.action()


def test_the_app_reports_each_finished_run_with_the_link_it_opened(monkeypatch):
    import streamlit as st

    from offcenter.app import navigation

    calls = []
    monkeypatch.setattr(heap, "after_run", lambda page, query: calls.append((page, query)))
    run_app(page=str(ROOT / "app.py"))
    assert calls == [("", {})]  # the home page, through app.py's navigation
    # a page that ends with st.stop() ended its run: reported, with the link as opened
    monkeypatch.setattr(navigation.st, "navigation", lambda pages: _Page(st.stop))
    run_app(page=str(ROOT / "app.py"), query={"data": "pima"})
    assert calls[-1] == ("Somewhere", {"data": "pima"})
    # a page that failed did not: not reported
    monkeypatch.setattr(navigation.st, "navigation", lambda pages: _Page(lambda: 1 / 0))
    n = len(calls)
    from streamlit.testing.v1 import AppTest

    failed = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    assert failed.exception and len(calls) == n


# ------------------------------------------------------------------ the collector's thresholds
@pytest.fixture
def restore_thresholds():
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


@pytest.mark.parametrize(
    ("value", "thresholds"),
    [
        ("", (700, 10, 10)),
        ("700,10,100", (700, 10, 100)),
        (" 2000 , 20 ,50 ", (2000, 20, 50)),
        ("1,1,1000000", (1, 1, 1_000_000)),
        ("0", None),
    ],
)
def test_the_thresholds_read_from_the_environment(value, thresholds):
    assert heap.gc_thresholds({heap.GC_ENV: value}) == thresholds


@pytest.mark.parametrize(
    "value", ["700", "700,10", "700,10,100,5", "0,10,100", "-1,10,10", "7e2,10,10", "a,b,c",
              "700,10,1000001", "700;10;100", "٧٠٠,10,10"]
)  # fmt: skip
def test_a_bad_threshold_value_gives_a_message_and_the_default(value, capsys):
    assert heap.gc_thresholds({heap.GC_ENV: value}) == heap.THRESHOLDS
    err = capsys.readouterr().err
    assert heap.GC_ENV in err and "three whole numbers" in err
    assert "Traceback" not in err


def test_apply_thresholds_sets_the_process_collector(restore_thresholds):
    gc.set_threshold(800, 8, 8)  # not the default: the call must set it
    assert heap.apply_thresholds({}) == heap.THRESHOLDS == gc.get_threshold()
    assert heap.apply_thresholds({heap.GC_ENV: "900,9,9"}) == (900, 9, 9)
    assert heap.apply_thresholds({heap.GC_ENV: "0"}) == (900, 9, 9)  # Python's left as is


def test_the_freeze_sets_the_thresholds(restore_thresholds, monkeypatch):
    monkeypatch.delenv(heap.GC_ENV, raising=False)
    gc.set_threshold(800, 8, 8)  # not the default: the freeze must set it
    try:
        heap.freeze_heap()
        assert gc.get_threshold() == heap.THRESHOLDS
    finally:
        gc.unfreeze()
