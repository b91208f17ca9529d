"""The app process's GIL switch interval: CPython's 5 ms by default, an operator's setting
(``OFFCENTER_SWITCH_INTERVAL``) for a shorter one, so that a rerun that sends many elements is
held back less at each of them by the other sessions' computing.

A Streamlit process runs each session's script in a thread of its own and serves every
websocket from one event-loop thread, all under one GIL. Every element a script sends is handed
to the event loop (``loop.call_soon_threadsafe``, a write to its self-pipe), and that write
releases the GIL. When other sessions' scripts are computing, one of them takes the GIL, and
the script that sent the element waits to get it back until the holder lets it go: at the latest
when the holder has run for the switch interval (``sys.getswitchinterval()``) with a waiter
asking. A script that sends *n* elements while others compute can so wait up to *n* intervals
(the "convoy effect" of a thread that releases the GIL often among threads that do not):
the Tree page's whole-page run after a data-set choice or a grow sends about 150 elements, a
node click 60-70, a θ move 14.

A shorter interval bounds each of those waits by, say, 1 ms instead of 5 ms; the total work
is the same, done in shorter slices, so a heavy rerun (a grow) is also preempted more often.
Measured (docs/performance.md): on a machine overloaded by other work, 1 ms lowered the Tree
student's and the class's p50 and p95; on a quiet machine, the first class of 30 on one fresh
process (three runs each way) was no better at 1 ms than at 5 ms (the grow's p95 worse: median
455 against 302 ms). So the default stays CPython's 5 ms, and the setting is there for a server
that runs overloaded.

``OFFCENTER_SWITCH_INTERVAL`` (milliseconds) sets the interval; ``0`` leaves Python's own as it
is. A value that is not a number from 0 to 100 is refused with a message on stderr, and the
default is used.

>>> switch_interval({})
0.005
>>> switch_interval({SWITCH_ENV: "0.5"}), switch_interval({SWITCH_ENV: "0"})
(0.0005, None)
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Mapping

__all__ = ["DEFAULT_MS", "SWITCH_ENV", "apply", "switch_interval"]

#: The environment variable that sets the interval, in milliseconds (0: Python's own).
SWITCH_ENV = "OFFCENTER_SWITCH_INTERVAL"
#: The app's interval, in milliseconds: CPython's own (a quiet A/B showed no gain at 1 ms).
DEFAULT_MS = 5.0
#: The largest interval accepted, in milliseconds.
_MAX_MS = 100.0


def switch_interval(environ: Mapping[str, str] | None = None) -> float | None:
    """The switch interval to set, in seconds, or None to leave Python's.

    Parameters
    ----------
    environ : mapping, optional
        The environment (default ``os.environ``); ``OFFCENTER_SWITCH_INTERVAL`` in ms.

    Returns
    -------
    float or None
        ``DEFAULT_MS / 1000`` without the variable (or with a value that is not a number
        in [0, 100], after a message on stderr); None for ``0``.
    """
    environ = os.environ if environ is None else environ
    text = environ.get(SWITCH_ENV, "").strip()
    if not text:
        return DEFAULT_MS / 1000
    try:
        ms = float(text)
    except ValueError:
        ms = math.nan
    if not (0 <= ms <= _MAX_MS):  # also NaN
        print(
            f"offcenter: {SWITCH_ENV} must be a number of milliseconds from 0 to {_MAX_MS:g}; "
            f"got {text[:40]!r}, using {DEFAULT_MS:g} ms",
            file=sys.stderr,
            flush=True,
        )
        return DEFAULT_MS / 1000
    return ms / 1000 if ms > 0 else None


def apply(environ: Mapping[str, str] | None = None) -> float:
    """Set the process's switch interval (:func:`switch_interval`); the interval now in force,
    in seconds."""
    seconds = switch_interval(environ)
    if seconds is not None:
        sys.setswitchinterval(seconds)
    return sys.getswitchinterval()
