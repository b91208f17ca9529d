"""What a session leaves behind is freed when it ends: uploaded bytes, its state, the heap.

Streamlit keeps a session whose browser went away for ``server.disconnectedSessionTTL`` seconds
(120 by default) so that a reconnecting tab finds it, in a time-to-live cache. A session that
expires there is dropped **without being shut down**: its uploaded files stay in the server's
upload manager (``MemoryUploadedFileManager``, keyed by session id) for the life of the process:
large uploads stay held long after the browser closed, and ordinary ones are never given back.

:func:`sweep` ends what has ended: it reaps the expired sessions of the session storage and
shuts each down (Streamlit's own ``AppSession.shutdown``: script thread stopped, uploaded files
removed, state released), removes the uploaded files of any session that is neither connected
nor waiting for a reconnection (one evicted from a full storage, for instance), then asks the C
allocator to give freed memory back to the system (``malloc_trim``: freed pages of a large
upload otherwise stay in the process's resident memory). :func:`start` runs it every
:data:`INTERVAL` seconds in one daemon thread per process (``navigation.run`` starts it), and
keeps uploads out of the temporary directory (:func:`keep_uploads_in_memory`).

:func:`orphans` is the rule, a plain function:

>>> sorted(orphans({"a", "b", "c"}, keep={"b"}))
['a', 'c']
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import threading
from collections.abc import Iterable

__all__ = ["INTERVAL", "orphans", "sweep", "start", "keep_uploads_in_memory"]

_LOG = logging.getLogger(__name__)

#: Seconds between two sweeps (``OFFCENTER_SWEEP_SECONDS`` sets it: tests use a short one).
INTERVAL = float(os.environ.get("OFFCENTER_SWEEP_SECONDS", "30"))

_started = False
_lock = threading.Lock()


def orphans(file_sessions: Iterable[str], keep: Iterable[str]) -> set[str]:
    """The sessions holding uploaded files that are no session of the server any more."""
    return set(file_sessions) - set(keep)


def _malloc_trim() -> None:
    name = ctypes.util.find_library("c")
    if not name:
        return
    try:
        ctypes.CDLL(name).malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: nothing to ask
        pass


def sweep(runtime=None) -> dict:
    """End the sessions that have ended and free what they held; returns what was done
    (``{"shut_down": n, "files_removed": n}``). Safe to call from any thread, and a no-op
    outside a running Streamlit server."""
    from streamlit.runtime import Runtime

    if runtime is None:
        if not Runtime.exists():
            return {"shut_down": 0, "files_removed": 0}
        runtime = Runtime.instance()
    mgr = getattr(runtime, "_session_mgr", None)
    storage = getattr(mgr, "_session_storage", None)
    cache = getattr(storage, "_cache", None)
    lock = getattr(mgr, "_storage_lock", None) or threading.Lock()
    expired = []
    if cache is not None and hasattr(cache, "expire"):
        with lock:
            expired = cache.expire()
    for _, info in expired:
        try:
            info.session.shutdown()
        except Exception:  # noqa: BLE001 - one session's shutdown must not stop the sweep
            _LOG.exception("shutting down an expired session failed")
    files = getattr(getattr(runtime, "_uploaded_file_mgr", None), "file_storage", None)
    removed = 0
    if files is not None and mgr is not None:
        keep = {s.session.id for s in mgr.list_sessions()}  # connected, or awaiting one
        for sid in orphans(list(files), keep):
            runtime._uploaded_file_mgr.remove_session_files(sid)
            removed += 1
    if expired or removed:
        _malloc_trim()
    return {"shut_down": len(expired), "files_removed": removed}


def keep_uploads_in_memory(limit_mb: float | None = None) -> int:
    """Let the server's upload route hold a file of up to the upload limit in memory.

    Streamlit's upload route parses the request with Starlette's multipart parser, which
    spools a file over 1 MB to the temporary directory before Streamlit reads it all into
    memory anyway: with that directory full, every upload over 1 MB failed, and the student
    saw "AxiosError: Network Error". Spooling up to ``server.maxUploadSize`` (the limit, so
    the request is bounded) takes the temporary directory out of the path. Returns the spool
    size set, in bytes.
    """
    from streamlit import config

    try:
        from starlette.formparsers import MultiPartParser
    except ImportError:  # a Streamlit without its Starlette server: nothing to set
        return 0

    mb = limit_mb if limit_mb is not None else config.get_option("server.maxUploadSize")
    size = int(mb * 2**20) + 2**20  # the limit and the multipart framing
    MultiPartParser.spool_max_size = max(MultiPartParser.spool_max_size, size)
    return MultiPartParser.spool_max_size


def _loop() -> None:
    event = threading.Event()
    while not event.wait(INTERVAL):
        try:
            sweep()
        except Exception:  # noqa: BLE001 - the sweeper outlives one bad sweep
            _LOG.exception("session sweep failed")


def start() -> bool:
    """Start the process's sweeper thread (once; later calls do nothing). True when started."""
    global _started
    with _lock:
        if _started:
            return False
        _started = True
    keep_uploads_in_memory()
    threading.Thread(target=_loop, name="offcenter-session-end", daemon=True).start()
    return True
