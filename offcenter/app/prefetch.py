"""The Tree page's next grow, prepared while the student is still choosing.

A new measure or stopping rule waits for **Grow the tree** (the settings are a fragment: their
change reruns section 2 alone). The grow then fits the tree and computes its root's tables, a
good part of a grow's CPU, more at a greater depth (docs/performance.md). As soon as the
settings change, :func:`prefetch` hands that work
(:func:`offcenter.app.tree_click.grow_tree`, the grow itself) to one background thread, so that the grow a
moment later finds the tree, its root's tables, its training report and its drawing's layouts in
the process's caches; a grow that comes before the work is done waits for it rather than doing
it twice (Streamlit's caches compute each key under its own lock).

The work is the grow itself (the page's **Grow the tree** calls the same function), with the
same cache keys: nothing is computed that the grow would not have computed. It is bounded: one worker thread per process, and when
:data:`MAX_WAITING` requests already wait (a class changing settings faster than the worker
fits), a new one is dropped and its grow computes it itself. A failure in the background is
dropped too: the grow computes again and shows the error.

>>> class Counter:
...     calls = 0
>>> def job():
...     Counter.calls += 1
>>> p = Prefetcher(max_waiting=2)
>>> p.submit(job).result() is None, Counter.calls
(True, 1)
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from offcenter.app import heavy_work

__all__ = ["MAX_WAITING", "Prefetcher", "prefetch"]

#: Requests that may wait for the worker; beyond, new ones are dropped.
MAX_WAITING = 4


class Prefetcher:
    """One background worker that runs jobs whose results land in shared caches."""

    def __init__(self, max_waiting: int = MAX_WAITING):
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="offcenter-prefetch")
        self._waiting = 0
        self._lock = threading.Lock()
        self.max_waiting = max_waiting

    def submit(self, job: Callable[[], object]) -> Future | None:
        """Run ``job`` in the background; None when :attr:`max_waiting` jobs already wait.
        Its exceptions are kept in the returned future, never raised here."""
        with self._lock:
            if self._waiting >= self.max_waiting:
                return None
            self._waiting += 1

        def run():
            with self._lock:
                self._waiting -= 1
            job()

        return self._pool.submit(run)


#: The process's prefetcher (Streamlit runs every session of the process in it).
_PREFETCHER = Prefetcher()


def prefetch(job: Callable[[], object]) -> bool:
    """Run ``job`` (work whose results land in the process's caches, such as
    :func:`offcenter.app.tree_click.grow_tree`) in the background; whether it was queued.

    Its heavy parts (:mod:`offcenter.app.heavy_work`) count as the calling session's background
    work: refused while the session has a heavy job running, waited for by the session's own
    grow."""
    session = heavy_work.current_session()

    def for_session():
        with heavy_work.acting_for(session, background=True):
            job()

    return _PREFETCHER.submit(for_session) is not None
