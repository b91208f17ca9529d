"""Streamlit's value widgets without a copy of the whole session state each.

In Streamlit 1.67, ``st.selectbox``, ``st.radio``, ``st.number_input``, ``st.text_input``,
``st.text_area``, ``st.time_input``, ``st.date_input`` and ``st.slider`` (the last when called
without a ``value``) each ask whether their key holds ``None`` (or, the slider, what it holds)
this way::

    session_state = get_session_state().filtered_state
    if key is not None and key in session_state and session_state[key] is None: ...

``filtered_state`` builds a new dict of the whole session state, reading every value (a
widget's through its deserialiser and presenter), to look at one key. The dict is built before
the key is looked at, so no registration avoids it (a widget without a key builds it too);
its cost grows with the number of keys. On the Tree page (about 85 keys, 15 such widgets in a
whole-page run) it was 6-8 % of a grow's or a data-set change's script time (3.3-5.3 ms), 5 % of
a node click's (1.2-1.7 ms; docs/performance.md).

:func:`install` gives those widget modules a ``get_session_state`` whose ``filtered_state`` is
a view answering the same questions for the one key asked (``key in view``, ``view[key]``),
under the session state's lock as ``filtered_state`` is, with the same values: for a user key,
``filtered_state`` holds exactly what ``SessionState[key]`` returns, and lacks it exactly when
that raises ``KeyError`` (a key of Streamlit's own, ``$$STREAMLIT_INTERNAL_KEY...``, is never a
widget's user key). Everything else goes to Streamlit's object. Where Streamlit's widgets do
not read the state this way any more (another version), :func:`install` leaves them as they
are.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Iterator, Mapping
from typing import Any

from streamlit.runtime.state import get_session_state

__all__ = ["WIDGET_MODULES", "install", "installed"]

#: The widget modules of Streamlit that read ``get_session_state().filtered_state``.
WIDGET_MODULES = (
    "streamlit.elements.widgets.selectbox",
    "streamlit.elements.widgets.radio",
    "streamlit.elements.widgets.number_input",
    "streamlit.elements.widgets.text_widgets",
    "streamlit.elements.widgets.time_widgets",
    "streamlit.elements.widgets.slider",
)
_PATTERN = "get_session_state().filtered_state"


class _KeyView(Mapping):
    """``filtered_state`` for one key at a time: membership and value read on demand."""

    __slots__ = ("_safe",)

    def __init__(self, safe) -> None:
        self._safe = safe

    def __contains__(self, key: object) -> bool:
        with self._safe._lock:
            return key in self._safe._state

    def __getitem__(self, key: str) -> Any:
        with self._safe._lock:
            return self._safe._state[key]

    def __iter__(self) -> Iterator[str]:  # not used by the widgets: the whole state, as before
        return iter(self._safe.filtered_state)

    def __len__(self) -> int:
        return len(self._safe.filtered_state)


class _Session:
    """Streamlit's session state object with ``filtered_state`` as a :class:`_KeyView`."""

    __slots__ = ("_safe",)

    def __init__(self, safe) -> None:
        self._safe = safe

    @property
    def filtered_state(self) -> Mapping:
        safe = self._safe
        if hasattr(safe, "_lock") and hasattr(safe, "_state"):
            return _KeyView(safe)
        return safe.filtered_state

    def __getattr__(self, name: str) -> Any:
        return getattr(self._safe, name)


def _get_session_state() -> _Session:
    """``streamlit.runtime.state.get_session_state()``, its ``filtered_state`` a view."""
    return _Session(get_session_state())


def installed() -> list[str]:
    """The widget modules whose ``get_session_state`` is this module's."""
    out = []
    for name in WIDGET_MODULES:
        mod = importlib.import_module(name)
        if getattr(mod, "get_session_state", None) is _get_session_state:
            out.append(name)
    return out


def install() -> list[str]:
    """Give the widget modules :func:`_get_session_state` (once; idempotent). Returns the
    modules changed now: only those that call ``get_session_state().filtered_state`` and hold
    Streamlit's own ``get_session_state``."""
    changed = []
    for name in WIDGET_MODULES:
        try:
            mod = importlib.import_module(name)
        except ImportError:  # another Streamlit: nothing to do
            continue
        if getattr(mod, "get_session_state", None) is not get_session_state:
            continue  # already installed, or not Streamlit's function
        try:
            source = inspect.getsource(mod)
        except (OSError, TypeError):
            continue
        if _PATTERN not in source:
            continue
        mod.get_session_state = _get_session_state
        changed.append(name)
    return changed
