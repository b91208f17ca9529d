"""The lecture script: the home page's four lesson steps (:data:`offcenter.app.lesson.STEPS`)
as one sequence that a teacher walks through with **Next** and **Previous**, from the keyboard
or a presentation clicker.

**Start the lecture** on the home page opens step 1 with its settings (the step's link,
:func:`offcenter.app.lesson.step_link`, in presentation mode when it is on). While the lecture
runs, every page draws, at the top of its sidebar (the main area, the step's figure, is not
pushed down), which step it is and the two buttons; **Next** opens the next step's link (the
last step ends the lecture on the home page), **Previous** the one before (the first goes back
home), **End** leaves the lecture. The step is held in the session (``_lecture_step``): a
page of the lecture keeps its own widgets, changed freely, and the next press opens the next
step with its settings.

Keys (:data:`KEYS`, installed once per page load): Page Down, Arrow Right and Space go to the
next step, Page Up and Arrow Left to the previous one (a clicker sends Page Down / Page Up);
never while a text box, a slider or any other input has the focus (the θ slider's own arrow
keys stay the slider's).

A page the lecture opens starts at its top (:func:`page_top`). ``st.switch_page`` redraws the
new page in the same main area: when its first elements arrive before the old page's are
cleared (a race), the main area keeps the old page's scroll, and Chromium's scroll anchoring
then carries it down as the new page grows above the old content, to the new page's end
(headless Chromium, session 18, Home scrolled down: step 1 opened at its end, 1,176 px down,
in six runs of eight; with scroll anchoring off, at Home's own scroll).
No script scrolls it (Streamlit's ``scrollTo``, ``scrollIntoView`` and ``focus`` were
watched). So every page carries a script that scrolls the main area to its top once per page
the lecture opened, drawn at the start of the new page's first run.
"""

from __future__ import annotations

import uuid

import streamlit as st

from offcenter.app.lesson import STEPS, step_link

__all__ = ["KEYS", "STATE", "TO_TOP", "lecture_bar", "page_top", "start_button", "step_after"]

#: The session's lecture step: 1 .. len(STEPS), absent when no lecture runs.
STATE = "_lecture_step"
HOME = "pages/0_Home.py"

#: The keys of a clicker and a keyboard: they press the sidebar's Next / Previous buttons
#: (static JavaScript, no user text; once per page load).
KEYS = (
    "<script>(function () {"
    " if (window.__offcenterLectureKeys) return;"
    " window.__offcenterLectureKeys = true;"
    " var NEXT = {PageDown: 1, ArrowRight: 1, ' ': 1}, PREV = {PageUp: 1, ArrowLeft: 1};"
    " document.addEventListener('keydown', function (e) {"
    "  if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;"
    "  var t = e.target, tag = t && t.tagName ? t.tagName.toLowerCase() : '';"
    "  if (tag === 'input' || tag === 'textarea' || tag === 'select' || (t && t.isContentEditable)"
    "      || (t && t.getAttribute && t.getAttribute('role') === 'slider')) return;"
    "  var which = NEXT[e.key] ? 'next' : PREV[e.key] ? 'prev' : null;"
    "  if (!which) return;"
    "  var b = document.querySelector('.st-key-lecture_' + which + ' button');"
    "  if (!b || b.disabled) return;"
    "  e.preventDefault();"
    "  b.click();"
    " }, true);"
    "})();</script>"
)


#: The main area back at its top, once per ``{token}`` (static JavaScript; the token is hex
#: digits made by :func:`_go`, never user text): run by the page's first drawing of it,
#: whether its element is new or changed; a rerun of the same page leaves the scroll alone.
TO_TOP = (
    "<script>(function () {{"
    " if (window.__offcenterLectureTop === '{token}') return;"
    " window.__offcenterLectureTop = '{token}';"
    " var m = document.querySelector('[data-testid=\"stMain\"]');"
    " if (m) m.scrollTo(0, 0);"
    "}})();</script>"
)
#: The token of the last page the lecture opened (one per press, new in every session).
_OPENED = "_lecture_opened"


def page_top() -> str:
    """The script that puts the page the lecture just opened at its top (:data:`TO_TOP`), ""
    when the session's lecture never opened a page. Drawn on every page, in the sidebar, by
    :func:`offcenter.app.navigation.run` with its other scripts (an element of its own would
    push the sidebar's content down by a row gap while it is there)."""
    token = st.session_state.get(_OPENED)
    return TO_TOP.format(token=token) if token else ""


def step_after(step: int, move: int) -> int | None:
    """The lecture's step after a press: ``step + move`` (1 .. len(STEPS)), None past either
    end (the lecture ends on the home page).

    >>> step_after(1, 1), step_after(4, 1), step_after(1, -1)
    (2, None, None)
    """
    k = int(step) + int(move)
    return k if 1 <= k <= len(STEPS) else None


#: Set by a button's callback: the next run opens the lecture's step (or the home page).
_GO = "_lecture_go"


def _move(move: int) -> None:
    """A button's callback: the step ``move`` steps on (None past either end), to be opened."""
    S = st.session_state
    step = S.get(STATE)
    S[STATE] = step_after(step, move) if isinstance(step, int) else None
    S[_GO] = True


def _start() -> None:
    st.session_state[STATE] = 1
    st.session_state[_GO] = True


def _end() -> None:
    st.session_state.pop(STATE, None)


def _go(present: bool) -> None:
    """Open the step a button chose: its link's page and settings, or home past the ends."""
    S = st.session_state
    S[_OPENED] = uuid.uuid4().hex  # the page opened, home included, starts at its top
    step = S.get(STATE)
    if step is None:
        S.pop(STATE, None)
        st.switch_page(HOME)
    link = step_link(STEPS[step - 1], present=present)
    st.switch_page(link.page, query_params=link.query)


def start_button(present: bool) -> None:
    """The home page's **Start the lecture**: opens step 1 (in the next run)."""
    st.button(
        "Start the lecture",
        key="lecture_start",
        icon=":material/slideshow:",
        on_click=_start,
        help="The four steps one after the other: Next and Previous in the sidebar, or Page "
        "Down / Page Up (a presentation clicker) and the arrow keys.",
    )


def lecture_bar(present: bool) -> None:
    """Open the step a button chose, else draw the lecture's step and its buttons at the top
    of the sidebar while a lecture runs."""
    S = st.session_state
    if S.pop(_GO, False):
        _go(present)
    step = S.get(STATE)
    if not isinstance(step, int) or not 1 <= step <= len(STEPS):
        return
    with st.sidebar:
        st.html(KEYS, unsafe_allow_javascript=True)
        with st.container(border=True, key="lecture_bar"):
            st.markdown(f"**Lecture: step {step} of {len(STEPS)}**  \n{STEPS[step - 1].title}")
            # one under the other: the presentation mode's type cuts two side by side
            st.button(
                "Next" if step < len(STEPS) else "Finish",
                key="lecture_next",
                type="primary",
                width="stretch",
                icon=":material/arrow_forward:",
                on_click=_move,
                args=(1,),
            )
            st.button(
                "Previous",
                key="lecture_prev",
                width="stretch",
                icon=":material/arrow_back:",
                on_click=_move,
                args=(-1,),
            )
            st.button("End the lecture", key="lecture_end", type="tertiary", on_click=_end)
