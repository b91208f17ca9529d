"""The Compare page's store of finished results: the most recent ones by key, shared by reruns,
page switches and sessions (one store per server process, see :func:`shared_result_store`).

>>> store = ResultStore(capacity=2)
>>> store.put("a", 1); store.put("b", 2); store.get("a")
1
>>> store.put("c", 3)  # "b" is the least recently used: it goes
>>> store.get("b") is None, len(store)
(True, 2)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

import streamlit as st

#: How many results the page keeps (the least recently used go first).
CAPACITY = 32


class ResultStore:
    """A thread-safe least-recently-used map of results.

    Streamlit runs each session's script in its own thread, so every access holds a lock.
    ``get`` and ``put`` both count as a use.

    Parameters
    ----------
    capacity : int
        Most results kept (at least 1).
    """

    def __init__(self, capacity: int = CAPACITY):
        if isinstance(capacity, bool) or not isinstance(capacity, int):
            raise TypeError(f"capacity: expected an int, got {type(capacity).__name__}")
        if capacity < 1:
            raise ValueError(f"capacity: must be at least 1, got {capacity}")
        self.capacity = capacity
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, default=None):
        """The result stored under ``key`` (now the most recently used), else ``default``."""
        with self._lock:
            if key not in self._items:
                return default
            self._items.move_to_end(key)
            return self._items[key]

    def put(self, key: Hashable, result) -> None:
        """Store ``result`` under ``key`` (replacing any), dropping the least recently used
        results beyond the capacity."""
        with self._lock:
            self._items[key] = result
            self._items.move_to_end(key)
            while len(self._items) > self.capacity:
                self._items.popitem(last=False)

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._items

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

    def keys(self) -> list:
        """The keys, least recently used first."""
        with self._lock:
            return list(self._items)


@st.cache_resource(show_spinner=False)
def shared_result_store() -> ResultStore:
    """The process-wide store of the Compare page (cleared with ``st.cache_resource.clear()``)."""
    return ResultStore(CAPACITY)
