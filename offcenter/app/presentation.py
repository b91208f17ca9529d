"""Presentation mode: one sidebar toggle, on every page, kept in the URL (``present=1``), and
applied on wide screens only.

In presentation mode the figures use the large type and thick lines of
:data:`offcenter.viz.styles.PRESENTATION` (text of 20 px and more at 1400 px wide, dark on
white), the page's own text is scaled up by 25 % and small tables are static tables of
:data:`TABLE_PX` px text whose cells wrap, so no value is hidden
(:func:`offcenter.app.tables.show_table`).

**The viewer's choice.** The mode is a projector's: a link that carries ``present=1`` (the
teacher's address, shared with the class) does not force it onto a phone. The browser reports
whether its window is narrow (below :data:`NARROW_PX` px: a phone, or a window a third of a
laptop's screen) through a tiny component (:func:`viewport`, no visible element); on a narrow
screen the pages draw their normal sizes, the sidebar says why, and the link keeps
``present=1`` for the wide screens it is passed on to. Until the browser has reported, the
User-Agent's guess decides (:func:`is_narrow`: a phone's says so), and the browser reports
only when its width says otherwise (so a session whose guess was right runs its first page
once, not twice); without a browser (AppTest) the choice applies. The page's larger text is
a CSS rule for wide screens only, so it never reaches a phone.

Fullscreen: Streamlit's fullscreen button gives the figure the whole window (width and height),
but Plotly sizes text in px, so fullscreen alone enlarges the plot, not the text (neither
``config={"responsive": True}`` nor Streamlit's fullscreen rescale fonts). That is why the
presentation mode sets the type itself: its sizes read from the back of a room at 1400 px, and
stay as large in fullscreen.

The state is ``st.session_state["present"]`` (not a widget key, so it survives page switches),
read from the URL when a session opens and written back by
:func:`offcenter.app.urlstate.sync_global`; the screen's class is in
``st.session_state["_viewport"]`` (the component's state).
"""

from __future__ import annotations

import re

import streamlit as st

from offcenter.app import urlstate

__all__ = [
    "KEY",
    "NARROW_PX",
    "TABLE_PX",
    "chosen",
    "is_on",
    "is_narrow",
    "presentation_toggle",
    "viewport",
]

#: Session-state key of the mode (also the URL parameter).
KEY = "present"
_WIDGET = "_present_toggle"
#: Windows narrower than this (CSS px) are "narrow": phones (390 px), small tablets, a window
#: a third of a laptop's screen. Streamlit stacks columns below 640 px.
NARROW_PX = 700
_VIEWPORT = "_viewport"
#: The last reported class, kept under a key no widget uses (it survives a run that does not
#: mount the component, such as one a page ends with ``st.stop()``).
_KIND = "_viewport_kind"

#: Text size (px) of the static tables in presentation mode (``st.table``: the curve pages'
#: readout and every small table of :func:`offcenter.app.tables.show_table`): the mode's least
#: figure text (:data:`offcenter.viz.styles.PRESENTATION`'s 20 px legends of many entries).
TABLE_PX = 20

_CSS = f"""<style>
@media (min-width: {NARROW_PX}px) {{
html {{ font-size: 20px; }}
[data-testid="stSidebar"] {{ font-size: 18px; }}
[data-testid="stMainBlockContainer"] {{ padding-top: 2.5rem; }}
[data-testid="stTable"] table {{ font-size: {TABLE_PX}px; }}
[data-testid="stCaptionContainer"], [data-testid="stWidgetLabel"] p, [data-testid="stTab"] p,
[data-testid="stMain"] button p, [data-testid="stMain"] [data-testid="stPageLink"] p {{
  font-size: 18px; }}
[data-testid="stTable"] th, [data-testid="stTable"] td {{
  font-size: {TABLE_PX}px; white-space: normal; overflow-wrap: anywhere; }}
}}
</style>"""

#: The component's script: report "narrow" or "wide" when it differs from what the page was
#: drawn for (``data``: the last report, else the User-Agent's guess), then again whenever a
#: resize crosses :data:`NARROW_PX` (one rerun per crossing, never one per pixel).
_JS = """
export default function (component) {
  const { data, setStateValue } = component;
  const kind = () => (window.innerWidth < NARROW_PX ? "narrow" : "wide");
  window.__offcenterViewport = { setStateValue, known: data };
  if (!window.__offcenterViewportListens) {
    window.__offcenterViewportListens = true;
    window.addEventListener("resize", () => {
      const v = window.__offcenterViewport;
      const now = kind();
      if (v && now !== v.known) {
        v.known = now;
        v.setStateValue("width", now);
      }
    });
  }
  if (kind() !== data) {
    window.__offcenterViewport.known = kind();
    setStateValue("width", kind());
  }
}
""".replace("NARROW_PX", str(NARROW_PX))


def viewport() -> str | None:
    """Mount the viewport reporter and return the screen's class: ``"narrow"``, ``"wide"``, or
    None before the browser has reported.

    :func:`offcenter.app.navigation.run` mounts it once per run, *after* the page: its report
    reruns the page, and a rerun asked for while the first run was still drawing the page's
    widgets left sliders showing their minimum in the browser. The page reads the class with
    :func:`is_on` / :func:`is_narrow` (from the component's state, which the rerun carries).
    """
    S = st.session_state
    known = _known_viewport()
    # what the page was drawn for: the last report, else the User-Agent's guess (is_narrow);
    # the browser reports only a difference, so a session whose guess was right is drawn once
    # (a report equal to the guess reran the whole page for nothing)
    drawn_for = known if known is not None else ("narrow" if is_narrow() else "wide")
    # registered on every run (an identical definition: no warning), so that the registry of
    # whatever runtime runs the page (a server, each AppTest) has it
    mount = st.components.v2.component("offcenter_viewport", js=_JS)
    mount(key=_VIEWPORT, data=drawn_for, on_width_change=lambda: None, height=0, width="stretch")
    return _known_viewport() if _VIEWPORT in S else known


def _known_viewport() -> str | None:
    S = st.session_state
    state = S.get(_VIEWPORT)
    width = None
    if state is not None:
        try:
            width = state.get("width")
        except AttributeError:
            width = getattr(state, "width", None)
    if width in ("narrow", "wide"):
        S[_KIND] = width
        return width
    kept = S.get(_KIND)
    return kept if kept in ("narrow", "wide") else None


_MOBILE = re.compile(r"Mobi|Android|iPhone|iPod", re.IGNORECASE)


def user_agent_is_phone(user_agent: str | None) -> bool:
    """Whether a browser's User-Agent is a phone's (``Mobi``, Android, iPhone): the only hint
    of the screen the server has before the browser's first report of its width.

    >>> user_agent_is_phone("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148")
    True
    >>> user_agent_is_phone("Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36")
    False
    """
    return bool(user_agent) and bool(_MOBILE.search(str(user_agent)))


def is_narrow() -> bool:
    """Whether the window is narrow (a phone): the pages lay out for it.

    The browser's report of its width decides (a phone turned sideways, or a desktop window a
    third of a screen, is what its width says); before the first report, the User-Agent's
    guess (:func:`user_agent_is_phone`), so that a phone's first drawing is already a phone's.
    """
    kind = _known_viewport()
    if kind is not None:
        return kind == "narrow"
    return user_agent_is_phone(st.context.headers.get("User-Agent"))


def chosen() -> bool:
    """The viewer's choice (the toggle, else the URL's ``present``), whatever the screen."""
    S = st.session_state
    if KEY in S:
        return bool(S[KEY])
    values, _ = urlstate.GLOBAL_SCHEMA.decode(st.query_params)
    return bool(values[KEY])


def is_on() -> bool:
    """Whether a page draws in presentation mode: the viewer chose it (toggle or link) and the
    screen is not narrow (see the module's docstring)."""
    return chosen() and not is_narrow()


def presentation_toggle() -> bool:
    """Draw the toggle at the top of the sidebar and return whether the mode applies."""
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
            help="Large type and thick lines for a projector, on screens at least "
            f"{NARROW_PX} px wide (kept in the link: present=1; a phone opening the link "
            "keeps its normal sizes).",
        )
        if S[KEY] and is_narrow():
            st.caption(
                "Presentation mode is for wide screens: this narrow screen keeps the normal sizes."
            )
    urlstate.sync_global(S, st.query_params)
    if S[KEY]:
        st.html(_CSS)
    return is_on()


def _copy() -> None:
    st.session_state[KEY] = bool(st.session_state[_WIDGET])
