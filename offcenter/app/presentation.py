"""Presentation mode: one sidebar toggle, on every page, kept in the URL (``present=1``).

In presentation mode the figures use the large type and thick lines of
:data:`offcenter.viz.styles.PRESENTATION` (text of 20 px and more at 1400 px wide, dark on
white) and the page's own text is scaled up by 25 %.

Fullscreen: Streamlit's fullscreen button gives the figure the whole window (width and height),
but Plotly sizes text in px, so fullscreen alone enlarges the plot, not the text (neither
``config={"responsive": True}`` nor Streamlit's fullscreen rescale fonts). That is why the
presentation mode sets the type itself: its sizes read from the back of a room at 1400 px, and
stay as large in fullscreen.

The state is ``st.session_state["present"]`` (not a widget key, so it survives page switches),
read from the URL when a session opens and written back by
:func:`offcenter.app.urlstate.sync_global`.
"""

from __future__ import annotations

import streamlit as st

from offcenter.app import urlstate

__all__ = ["KEY", "is_on", "presentation_toggle"]

#: Session-state key of the mode (also the URL parameter).
KEY = "present"
_WIDGET = "_present_toggle"

_CSS = """<style>
html { font-size: 20px; }
[data-testid="stSidebar"] { font-size: 18px; }
</style>"""


def _copy() -> None:
    st.session_state[KEY] = bool(st.session_state[_WIDGET])


def is_on() -> bool:
    """Whether the mode is on, for a page: the toggle's state (drawn by
    :func:`offcenter.app.navigation.run` before the page runs), else the URL's ``present``
    (a page file run alone, as in ``AppTest.from_file``)."""
    S = st.session_state
    if KEY in S:
        return bool(S[KEY])
    values, _ = urlstate.GLOBAL_SCHEMA.decode(st.query_params)
    return bool(values[KEY])


def presentation_toggle() -> bool:
    """Draw the toggle at the top of the sidebar and return whether the mode is on."""
    S = st.session_state
    if KEY not in S:
        values, _ = urlstate.GLOBAL_SCHEMA.decode(st.query_params)
        S[KEY] = bool(values[KEY])
    S[_WIDGET] = bool(S[KEY])
    with st.sidebar:
        st.toggle(
            "Presentation mode",
            key=_WIDGET,
            on_change=_copy,
            help="Large type and thick lines for a projector (kept in the link: present=1).",
        )
    urlstate.sync_global(S, st.query_params)
    if S[KEY]:
        st.html(_CSS)
    return bool(S[KEY])
