"""The app process's heap: what the warm-up built is frozen out of Python's full collections.

CPython's cyclic garbage collector scans every tracked object of the oldest generation at each
full (generation 2) collection, and holds the GIL while it does: every session of the process
waits. In a warm app process that generation is mostly what never becomes garbage: the imported
libraries (Streamlit, Plotly, pandas, scikit-learn, SciPy) and the warmed caches, so a full
collection pauses the process for a long while (measured under the 30-student class of
``benchmarks/bench_classroom.py``: benchmarks/results/classroom.md): a student's click that met
one waited that long on top of its own work.

:func:`after_run` freezes the heap (``gc.collect()`` then ``gc.freeze()``, the standard library's
way to leave long-lived objects out of the collections) at two moments of a process's life:
once every page has run once (the imports and the pages' first caches), and once the warm-up's
links (:data:`offcenter.ops.warmup.LINKS`: every page, and the Tree page on every bundled data
set) have all run. Later full collections scan only what the class created. Frozen objects are
never collected as cyclic garbage: the cost is at most what the warm-up built that later leaves
a cache, bounded, since the freeze happens twice per process at most.

>>> h = HeapFreezer(links=[("", ""), ("Tree", "")], pages=["", "Tree"], freeze=lambda: None)
>>> h.after_run("", {}), h.after_run("Tree", {"data": "pima"}), h.after_run("Tree", {})
(False, True, False)
>>> h.frozen
1
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterable, Mapping

from offcenter.ops.warmup import LINKS, PAGES

__all__ = ["HeapFreezer", "after_run", "freeze_heap"]


def freeze_heap() -> None:
    """Collect what is garbage now, then move every object still alive to the permanent
    generation (``gc.freeze``), which the collections skip."""
    gc.collect()
    gc.freeze()


class HeapFreezer:
    """Freezes a process's heap when its runs have covered ``pages``, then ``links``.

    Parameters
    ----------
    links : iterable of (page, query string)
        The warm-up's visits (``("Tree", "data=pima")``); a page's own link has query "".
    pages : iterable of str
        The pages' URL path names ("" for the home page).
    freeze : callable
        What freezes the heap (:func:`freeze_heap`).
    """

    def __init__(
        self,
        links: Iterable = LINKS,
        pages: Iterable[str] = PAGES,
        freeze: Callable[[], None] = freeze_heap,
    ):
        self._milestones = [
            {(p, "") for p in pages},
            {(p, q) for p, q in links},
        ]
        self._seen: set = set()
        self._freeze = freeze
        self._lock = threading.Lock()
        self.frozen = 0  # how many freezes were made

    def after_run(self, page: str, query: Mapping[str, str]) -> bool:
        """Record a finished run of ``page`` with the link's ``query``; freeze when this run
        completes a milestone. Returns whether it froze."""
        if not self._milestones:
            return False
        data = query.get("data", "")
        with self._lock:
            self._seen.add((page, ""))
            if data:
                self._seen.add((page, f"data={data}"))
            reached = False
            while self._milestones and self._milestones[0] <= self._seen:
                self._milestones.pop(0)
                reached = True
            if reached:
                self._freeze()
                self.frozen += 1
            return reached


#: The app process's freezer (one per process: Streamlit runs every session in it).
_FREEZER = HeapFreezer()


def after_run(page: str, query: Mapping[str, str]) -> bool:
    """:meth:`HeapFreezer.after_run` of the process's freezer."""
    return _FREEZER.after_run(page, query)
