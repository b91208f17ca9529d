"""The Tree page's next grow prepared in the background (offcenter.app.prefetch and
offcenter.app.tree_click.grow_tree, the function the grow calls): bounded, never raising, and filling exactly the cache
entries the page's grow reads (the grow then fits nothing, searches no root, builds no report
and lays nothing out)."""

from __future__ import annotations

import threading
from pathlib import Path

from offcenter.app import node_settings, prefetch, tree_click, tree_page
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
    ):
        fn.clear()


def _counted(monkeypatch, owner, name, counts):
    fn = getattr(owner, name)

    def wrapped(*args, **kwargs):
        counts[name] = counts.get(name, 0) + 1
        return fn(*args, **kwargs)

    monkeypatch.setattr(owner, name, wrapped)


def test_a_prepared_grow_finds_everything_computed(monkeypatch):
    seen = {}
    fit = TreeClassifier.fit

    def recording(self, X, y, *args, **kwargs):
        seen["X"], seen["y"] = X, y
        return fit(self, X, y, *args, **kwargs)

    monkeypatch.setattr(TreeClassifier, "fit", recording)
    _clear()
    at = run_app(page=PAGE, query={"data": "pima", "max_depth": "3"})
    grown = at.session_state["tr_session"].grown
    assert '"max_depth": 3' in grown.params_json
    X, y = seen["X"], seen["y"]

    _clear()  # a fresh process's caches: the background thread prepares the grow
    worker = threading.Thread(
        target=tree_click.grow_tree,
        args=(grown.data_key, grown.params_json, X, y, tree_page.view_size(False, False)),
    )
    worker.start()
    worker.join(120)
    assert not worker.is_alive()

    counts: dict = {}
    _counted(monkeypatch, TreeClassifier, "fit", counts)
    _counted(monkeypatch, TreeClassifier, "node_comparison", counts)
    _counted(monkeypatch, node_settings, "training_report", counts)
    _counted(monkeypatch, tree_click, "tree_layout", counts)
    other = run_app(page=PAGE, query={"data": "pima", "max_depth": "3"})  # the grow
    assert other.session_state["tr_session"].grown == grown
    assert "depth 3" in " ".join(c.value for c in other.caption)
    assert counts == {}  # nothing fitted, searched, reported or laid out again
