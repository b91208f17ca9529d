"""Heavy work off the lecture's path: one bounded pool of worker processes per server process.

Streamlit runs every session of a process in that one process, so a computation that holds the
interpreter for seconds (reading a 45 MB upload, growing a tree on 200,000 rows, a node's tables
on them, a Compare run) slows every other student's slider (the GIL is shared). Such work is
sent here instead and runs in another process, at a lower CPU priority (``nice``), while the
session's script thread waits for it without holding the GIL. Small work (the lecture's bundled
data sets) stays in the process: nothing is pickled for it.

The pool is pebble's :class:`pebble.ProcessPool` (a worker whose job runs past its time bound is
killed and replaced; the other workers and their jobs go on), its processes started by a
``forkserver`` (never ``fork``: the Streamlit process is threaded). Limits (:class:`Limits`,
read once from the environment, docs/deploy.md):

- at most ``workers`` jobs run and ``max_waiting`` more wait; one more is refused at once with
  :class:`PoolFull` ("the server is busy with other large computations"), never queued without
  bound;
- one heavy job at a time per session: a second one while the first runs is refused with
  :class:`SessionBusy`; a session's background job (the Tree page's prefetch,
  :mod:`offcenter.app.prefetch`) is waited for instead, since the session did not ask for it;
- a job running longer than ``time_limit`` seconds is stopped (:class:`TooLong`), its worker
  killed and replaced.

Every refusal is a :class:`Refused` whose ``message`` is plain text for ``st.warning``: the pages
show it and keep the user's settings. An exception raised by the job itself (a ``ValueError`` of
a fit) is raised again here, as the in-process call would.

Work goes to the pool when :func:`is_heavy_rows` or :func:`is_heavy_bytes` say so (thresholds in
:class:`Limits`); ``OFFCENTER_HEAVY_POOL=0`` keeps all work in the process (as before).

>>> limits = Limits.from_env({"OFFCENTER_HEAVY_ROWS": "1000", "OFFCENTER_HEAVY_WORKERS": "2"})
>>> limits.rows, limits.workers, limits.max_waiting
(1000, 2, 2)
>>> Limits.from_env({"OFFCENTER_HEAVY_POOL": "0"}).enabled
False
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, replace
from multiprocessing import spawn
from multiprocessing.context import ForkServerContext, ForkServerProcess

import pebble
from pebble import ProcessExpired

__all__ = [
    "HeavyPool",
    "Limits",
    "PoolFull",
    "Refused",
    "SessionBusy",
    "TooLong",
    "WorkerLost",
    "acting_for",
    "configure",
    "current_session",
    "is_heavy_bytes",
    "is_heavy_rows",
    "limits",
    "run",
    "shared_pool",
]


# ------------------------------------------------------------------------------ settings
@dataclass(frozen=True)
class Limits:
    """The pool's settings, in one place (environment variables in brackets).

    Attributes
    ----------
    enabled : bool
        Heavy work goes to the pool (``OFFCENTER_HEAVY_POOL``, 1; 0 runs everything in the
        Streamlit process).
    workers : int
        Worker processes (``OFFCENTER_HEAVY_WORKERS``, 1: on a 2-core machine the other core
        serves the lecture).
    max_waiting : int
        Jobs that may wait for a worker beyond those running (``OFFCENTER_HEAVY_QUEUE``, 2).
    time_limit : float
        Seconds a job may run before it is stopped and its worker replaced
        (``OFFCENTER_HEAVY_TIMEOUT``, 300).
    rows : int
        A fit, a node's tables, a training report or a Compare run on more rows than this is
        heavy (``OFFCENTER_HEAVY_ROWS``, 20,000).
    upload_bytes : int
        Reading an upload larger than this is heavy (``OFFCENTER_HEAVY_UPLOAD_MB``, 2 MB).
    nice : int
        The workers' ``nice`` increment (``OFFCENTER_HEAVY_NICE``, 10): the lecture's reruns
        come first on a busy CPU.
    """

    enabled: bool = True
    workers: int = 1
    max_waiting: int = 2
    time_limit: float = 300.0
    rows: int = 20_000
    upload_bytes: int = 2_000_000
    nice: int = 10

    @classmethod
    def from_env(cls, env=None) -> Limits:
        """The defaults, overridden by the ``OFFCENTER_HEAVY_*`` variables of ``env``."""
        env = os.environ if env is None else env

        def get(name, cast, default):
            text = env.get(f"OFFCENTER_HEAVY_{name}")
            if text is None or not str(text).strip():
                return default
            try:
                return cast(text)
            except ValueError:
                return default

        d = cls()
        return cls(
            enabled=get("POOL", lambda t: t.strip().lower() not in ("0", "false", "no", "off"), d.enabled),
            workers=max(1, get("WORKERS", int, d.workers)),
            max_waiting=max(0, get("QUEUE", int, d.max_waiting)),
            time_limit=max(0.1, get("TIMEOUT", float, d.time_limit)),
            rows=max(0, get("ROWS", int, d.rows)),
            upload_bytes=max(0, int(get("UPLOAD_MB", float, d.upload_bytes / 1e6) * 1e6)),
            nice=get("NICE", int, d.nice),
        )  # fmt: skip


# ------------------------------------------------------------------------------ refusals
class Refused(RuntimeError):
    """A heavy job refused or stopped; ``message`` is plain text for the page."""

    message = "The computation could not run."

    def __init__(self, message: str | None = None):
        if message is not None:
            self.message = message
        super().__init__(self.message)


class PoolFull(Refused):
    message = (
        "The server is busy with other large computations right now. Your settings are kept: "
        "try again in a minute."
    )


class SessionBusy(Refused):
    message = (
        "Your previous large computation is still running. Wait for it to finish, then try "
        "again: your settings are kept."
    )


class TooLong(Refused):
    def __init__(self, seconds: float):
        super().__init__(
            f"The computation was stopped after {seconds:.0f} s: it is too long for the shared "
            "server. Try a sample of the rows, fewer features or a smaller depth; your settings "
            "are kept."
        )


class WorkerLost(Refused):
    message = (
        "The computation stopped: its worker process ended (it may have run out of memory). "
        "Try a sample of the rows; your settings are kept."
    )


# ------------------------------------------------------------------------------ sessions
_ACTING_FOR: contextvars.ContextVar[tuple[str | None, bool] | None] = contextvars.ContextVar(
    "offcenter_heavy_acting_for", default=None
)


def current_session() -> str | None:
    """The session a job is for: set by :func:`acting_for` (a background thread), else the
    Streamlit session running this script, else None (no per-session limit)."""
    acting = _ACTING_FOR.get()
    if acting is not None:
        return acting[0]
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    return None if ctx is None else ctx.session_id


@contextlib.contextmanager
def acting_for(session: str | None, background: bool = True) -> Iterator[None]:
    """Run heavy jobs in this block for ``session`` (a background thread's work for it)."""
    token = _ACTING_FOR.set((session, background))
    try:
        yield
    finally:
        _ACTING_FOR.reset(token)


def _is_background() -> bool:
    acting = _ACTING_FOR.get()
    return acting is not None and acting[1]


# ------------------------------------------------------------------------------ the pool
#: The name of every worker process (ps shows it; :func:`_preparation_data` knows them by it).
WORKER_NAME = "offcenter-heavy-worker"


class _WorkerProcess(ForkServerProcess):
    """A forkserver process named :data:`WORKER_NAME`."""

    def __init__(self, *args, name=None, **kwargs):
        super().__init__(*args, name=WORKER_NAME, **kwargs)

    # a daemon: it ends with the server process (pebble asks for non-daemonic workers, which
    # the interpreter's exit would wait for); the jobs start no processes of their own
    @property
    def daemon(self) -> bool:
        return True

    @daemon.setter
    def daemon(self, value) -> None:
        pass


class _WorkerContext(ForkServerContext):
    """The forkserver context, with processes that do not import the parent's ``__main__``.

    Streamlit runs a page script as ``__main__`` while it runs: multiprocessing would run that
    page again in every worker started meanwhile (``spawn.prepare``). The jobs are functions of
    importable modules, so the workers need no ``__main__``.
    """

    Process = _WorkerProcess


_original_preparation_data = spawn.get_preparation_data


def _preparation_data(name):
    data = _original_preparation_data(name)
    if name == WORKER_NAME:
        data.pop("init_main_from_path", None)
        data.pop("init_main_from_name", None)
    return data


spawn.get_preparation_data = _preparation_data


def _worker_init(nice: int) -> None:
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)


#: Modules the forkserver imports once, so a new worker starts with them loaded.
PRELOAD = [
    "offcenter.tree.estimator",
    "offcenter.data.csv_io",
    "offcenter.evaluation.runner",
    "offcenter.viz.comparison",
    "offcenter.app.node_settings",
    "offcenter.app.tree_page",
]


@dataclass
class _Held:
    future: Future
    background: bool


class HeavyPool:
    """A bounded pool of worker processes with per-session limits (see the module)."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self._pool: pebble.ProcessPool | None = None
        self._lock = threading.Lock()
        self._in_flight = 0
        self._held: dict[str, _Held] = {}

    @property
    def in_flight(self) -> int:
        """Jobs running or waiting."""
        return self._in_flight

    def _executor(self) -> pebble.ProcessPool:
        if self._pool is None or not self._pool.active:
            ctx = _WorkerContext()
            ctx.set_forkserver_preload(PRELOAD)
            self._pool = pebble.ProcessPool(
                max_workers=self.limits.workers,
                initializer=_worker_init,
                initargs=(self.limits.nice,),
                context=ctx,
            )
        return self._pool

    def submit(
        self, fn: Callable, *args, session: str | None = None, background: bool = False, **kwargs
    ) -> Future:
        """Schedule ``fn(*args, **kwargs)`` in a worker; refuse it (:class:`PoolFull`,
        :class:`SessionBusy`) rather than queue it beyond the limits."""
        while True:
            with self._lock:
                held = self._held.get(session) if session is not None else None
                if held is not None and not held.future.done():
                    if background or not held.background:
                        raise SessionBusy()
                    wait = held.future  # the session's own prefetch: wait for it below
                else:
                    if self._in_flight >= self.limits.workers + self.limits.max_waiting:
                        raise PoolFull()
                    future = self._executor().schedule(
                        fn, args=args, kwargs=kwargs, timeout=self.limits.time_limit
                    )
                    self._in_flight += 1
                    entry = _Held(future, background)
                    if session is not None:
                        self._held[session] = entry
                    future.add_done_callback(functools.partial(self._release, session, entry))
                    return future
            with contextlib.suppress(Exception):
                wait.result(timeout=self.limits.time_limit + 10)

    def _release(self, session: str | None, entry: _Held, _future=None) -> None:
        with self._lock:
            self._in_flight -= 1
            if session is not None and self._held.get(session) is entry:
                del self._held[session]

    def run(self, fn: Callable, *args, session: str | None = None, background: bool = False,
            **kwargs):  # fmt: skip
        """``fn(*args, **kwargs)`` in a worker, its result or its exception as in-process;
        :class:`Refused` when the limits refuse or stop it."""
        future = self.submit(fn, *args, session=session, background=background, **kwargs)
        try:
            return future.result()
        except TimeoutError as exc:
            if future.done() and exc.args[:1] == ("Task timeout",):
                raise TooLong(self.limits.time_limit) from None
            raise
        except ProcessExpired:
            raise WorkerLost() from None

    def close(self) -> None:
        """Stop the workers (jobs still running are killed)."""
        if self._pool is not None:
            self._pool.stop()
            self._pool.join()
            self._pool = None


_LIMITS = Limits.from_env()
_SHARED: HeavyPool | None = None
_SHARED_LOCK = threading.Lock()


def limits() -> Limits:
    """The process's limits (read from the environment at import)."""
    return _LIMITS


def shared_pool() -> HeavyPool:
    """The process's pool, made at its first job."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = HeavyPool(_LIMITS)
        return _SHARED


def configure(**changes) -> Limits:
    """Change the process's limits (tests): the next job makes a new pool with them."""
    global _LIMITS, _SHARED
    with _SHARED_LOCK:
        _LIMITS = replace(_LIMITS, **changes)
        if _SHARED is not None:
            _SHARED.close()
        _SHARED = None
    return _LIMITS


def is_heavy_rows(n_rows: int) -> bool:
    """Whether work on ``n_rows`` rows goes to the pool."""
    return _LIMITS.enabled and n_rows > _LIMITS.rows


def is_heavy_bytes(n_bytes: int) -> bool:
    """Whether reading ``n_bytes`` of upload goes to the pool."""
    return _LIMITS.enabled and n_bytes > _LIMITS.upload_bytes


def run(fn: Callable, *args, **kwargs):
    """``fn(*args, **kwargs)`` in the process's pool for the current session (and as its
    background work inside :func:`acting_for`)."""
    return shared_pool().run(
        fn, *args, session=current_session(), background=_is_background(), **kwargs
    )
