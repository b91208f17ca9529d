"""The Tree page's next grow prepared in the background (offcenter.app.prefetch and
offcenter.app.tree_chart.grow_tree, the function the grow calls): bounded, never raising, and filling exactly the cache
entries the page's grow reads (the grow then fits nothing, searches no root, builds no report
or CSV file, lays nothing out and builds no drawing or chart)."""

from __future__ import annotations

import threading
from pathlib import Path

from offcenter.app import downloads, node_settings, prefetch, tree_chart, tree_click, tree_page
from offcenter.tree import TreeClassifier
from tests.conftest import run_app

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "3_Tree.py")


def test_the_worker_is_bounded_and_keeps_failures_to_itself():
    p = prefetch.Prefetcher(max_waiting=2)
    gate = threading.Event()
    running = p.submit(gate.wait)  # holds the one worker
    assert running is not None
    waiting = [p.submit(lambda: None), p.submit(lambda: None)]
    assert all(f is not None for f in waiting)
    assert p.submit(lambda: None) is None  # two already wait: dropped
    gate.set()
    for f in [running, *waiting]:
        f.result(timeout=30)
    failed = p.submit(lambda: 1 / 0)
    assert failed is not None and isinstance(failed.exception(timeout=30), ZeroDivisionError)
    assert p.submit(lambda: 7).result(timeout=30) is None  # the job's result is not kept


def _clear():
    for fn in (
        tree_page.cached_fit,
        node_settings.node_tables,
        node_settings.cached_report,
        tree_click.cached_fit_depth,
        tree_click.cached_tree_layout,
        tree_click.cached_tree_drawing,
        tree_click.cached_drawn_font,
        tree_chart.cached_chart,
        downloads._cached_csv,
    ):
        fn.clear()


def _counted(monkeypatch, owner, name, counts):
    fn = getattr(owner, name)

    def wrapped(*args, **kwargs):
        counts[name] = counts.get(name, 0) + 1
        return fn(*args, **kwargs)

    monkeypatch.setattr(owner, name, wrapped)


def test_a_prepared_grow_finds_everything_computed(monkeypatch):
    calls = []
    grow = tree_chart.grow_tree

    def recording(*args):
        calls.append(args)
        return grow(*args)

    monkeypatch.setattr(tree_chart, "grow_tree", recording)
    _clear()
    at = run_app(page=PAGE, query={"data": "pima", "max_depth": "3"})
    grown = at.session_state["tr_session"].grown
    assert '"max_depth": 3' in grown.params_json
    args = calls[-1]  # the page's grow: data key, parameters, X, y, the chart's size, stem
    assert args[:2] == (grown.data_key, grown.params_json) and args[5]

    _clear()  # a fresh process's caches: the background thread prepares the grow
    worker = threading.Thread(target=grow, args=args)
    worker.start()
    worker.join(120)
    assert not worker.is_alive()

    counts: dict = {}
    _counted(monkeypatch, TreeClassifier, "fit", counts)
    _counted(monkeypatch, TreeClassifier, "node_comparison", counts)
    _counted(monkeypatch, node_settings, "training_report", counts)
    _counted(monkeypatch, tree_click, "tree_layout", counts)
    _counted(monkeypatch, tree_click, "tree_drawing", counts)
    _counted(monkeypatch, tree_chart, "figure_json", counts)
    _counted(monkeypatch, downloads, "frame_csv", counts)
    other = run_app(page=PAGE, query={"data": "pima", "max_depth": "3"})  # the grow
    assert other.session_state["tr_session"].grown == grown
    assert "depth 3" in " ".join(c.value for c in other.caption)
    # nothing fitted, searched, reported, laid out, drawn or written as CSV again
    assert counts == {}
