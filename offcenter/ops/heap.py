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

**The collector's thresholds** (:func:`apply_thresholds`, set by :func:`freeze_heap`: from the
warm-up's first freeze on; a process that never freezes keeps CPython's): CPython collects
generation 0 when 700 more container objects were allocated than freed, generation 1 every 10
collections of generation 0, and makes a full collection every 10 collections of generation 1 once the objects that reached
the oldest generation since the last full one are a quarter of those it held then (a rule that
no longer brakes anything after the freeze: the frozen objects are not counted, so the class's
few thousand are the whole). In a 30-student class that was a full collection every 5.5 s, each
scanning everything the class had cached so far (issue 34: 47 ms growing to 136 ms by the
class's end, on a quiet machine; every session waits). :data:`THRESHOLDS` are CPython's own three, set explicitly. Rarer full collections were
tried and measured (session 18, docs/performance.md): with (700, 10, 100) a class met one full
collection or none, but that one scanned all the class's garbage at once (141-149 ms, and
stalls of up to 400 ms in a quiet run of three) and delayed every interaction in flight; with
CPython's thresholds and the smaller heap below, the class's full collections took 13 to 84 ms
each (a quiet instrumented class), so no interaction meets a long pause. A bounded pause is
what a p95 needs, hence CPython's values. ``OFFCENTER_GC_THRESHOLDS`` ("700,10,100") sets others, ``0`` leaves
Python's; a value that is not three whole numbers from 1 to 1,000,000 is refused with a
message on stderr and the default is used.

What a full collection scans was cut too: the Tree page's cached drawings' layouts
(:class:`offcenter.viz.tree_layout.TreeLayout`) are plain tuples of atoms, which the collector
stops tracking (half of the class's tracked objects before).

>>> gc_thresholds({}), gc_thresholds({GC_ENV: "2000, 10, 50"}), gc_thresholds({GC_ENV: "0"})
((700, 10, 10), (2000, 10, 50), None)
>>> h = HeapFreezer(links=[("", ""), ("Tree", "")], pages=["", "Tree"], freeze=lambda: None)
>>> h.after_run("", {}), h.after_run("Tree", {"data": "pima"}), h.after_run("Tree", {})
(False, True, False)
>>> h.frozen
1
"""

from __future__ import annotations

import gc
import os
import sys
import threading
from collections.abc import Callable, Iterable, Mapping

from offcenter.ops.warmup import LINKS, PAGES

__all__ = [
    "GC_ENV",
    "THRESHOLDS",
    "HeapFreezer",
    "after_run",
    "apply_thresholds",
    "freeze_heap",
    "gc_thresholds",
]

#: The environment variable that sets the collector's three thresholds ("700,10,100"; "0":
#: Python's own).
GC_ENV = "OFFCENTER_GC_THRESHOLDS"
#: The app's thresholds (``gc.set_threshold``): CPython's own, so that each full collection
#: stays short (rarer ones were measured longer: see the module's notes).
THRESHOLDS = (700, 10, 10)
#: The largest threshold accepted.
_MAX_THRESHOLD = 1_000_000


def gc_thresholds(environ: Mapping[str, str] | None = None) -> tuple[int, int, int] | None:
    """The collector's thresholds to set, or None to leave Python's.

    Parameters
    ----------
    environ : mapping, optional
        The environment (default ``os.environ``); ``OFFCENTER_GC_THRESHOLDS``: three whole
        numbers from 1 to 1,000,000, separated by commas, or ``0``.

    Returns
    -------
    tuple of int or None
        :data:`THRESHOLDS` without the variable (or with a value it refuses, after a message on
        stderr); None for ``0``.
    """
    environ = os.environ if environ is None else environ
    text = environ.get(GC_ENV, "").strip()
    if not text:
        return THRESHOLDS
    if text == "0":
        return None
    parts = [p.strip() for p in text.split(",")]
    if len(parts) == 3 and all(
        p.isascii() and p.isdigit() and 1 <= int(p) <= _MAX_THRESHOLD for p in parts
    ):
        return tuple(int(p) for p in parts)  # type: ignore[return-value]
    default = ",".join(map(str, THRESHOLDS))
    print(
        f"offcenter: {GC_ENV} must be three whole numbers from 1 to {_MAX_THRESHOLD:,} "
        f"separated by commas (or 0); got {text[:40]!r}, using {default}",
        file=sys.stderr,
        flush=True,
    )
    return THRESHOLDS


def apply_thresholds(environ: Mapping[str, str] | None = None) -> tuple[int, int, int]:
    """Set the process's collector thresholds (:func:`gc_thresholds`); those now in force."""
    thresholds = gc_thresholds(environ)
    if thresholds is not None:
        gc.set_threshold(*thresholds)
    return gc.get_threshold()


def freeze_heap() -> None:
    """Collect what is garbage now, then move every object still alive to the permanent
    generation (``gc.freeze``), which the collections skip; then set the collector's
    thresholds (:func:`apply_thresholds`)."""
    gc.collect()
    gc.freeze()
    apply_thresholds()


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
