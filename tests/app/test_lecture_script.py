"""The lecture script's sidebar bar (offcenter.app.lecture_script) in AppTest: shown only while
a lecture runs, its step's title, Next and Previous moving the session's step, End leaving;
each page a press opens carries a new token of the script that puts it at its top."""

import re

from offcenter.app.lecture_script import STATE
from offcenter.app.lesson import STEPS
from tests.conftest import run_app


def _bar_text(at):
    return "\n".join(str(m.value) for m in at.sidebar.markdown)


def _top_tokens(at):
    """The tokens of the sidebar's scripts that scroll the page to its top (lecture_script's
    TO_TOP): one per page the lecture opened, the same on every rerun of that page."""
    bodies = "".join(h.proto.body for h in at.sidebar.html)
    return re.findall(r"__offcenterLectureTop === '([0-9a-f]+)'", bodies)


def test_no_bar_without_a_lecture_and_a_start_button_on_home():
    at = run_app(page="app.py")
    assert "Lecture: step" not in _bar_text(at)
    assert [b.label for b in at.button if b.key == "lecture_start"] == ["Start the lecture"]


def test_the_bar_shows_the_step_and_its_buttons_move_it():
    at = run_app(page="app.py", state={STATE: 2})
    assert f"**Lecture: step 2 of {len(STEPS)}**" in _bar_text(at)
    assert STEPS[1].title in _bar_text(at)
    assert _top_tokens(at) == []  # no page opened by the lecture yet: the scroll is left alone
    at.button(key="lecture_next").click()
    at = run_app(at)
    assert at.session_state[STATE] == 3
    [first] = _top_tokens(at)
    # step 3's page, with its link's settings: Two classes on Figure 1 (θ = 0.2)
    assert at.slider(key="tc_theta").value == 0.2
    assert "Lecture: step 3 of" in _bar_text(at)
    at.button(key="lecture_prev").click()
    at = run_app(at)
    assert at.session_state[STATE] == 2
    [second] = _top_tokens(at)
    assert second != first  # a new page opened: its script runs (once) in the browser
    at.button(key="lecture_end").click()
    at = run_app(at)
    assert STATE not in at.session_state
    assert "Lecture: step" not in _bar_text(at)
    assert _top_tokens(at) == [second]  # a rerun of the same page: the same script, not run again


def test_the_last_steps_next_finishes_the_lecture():
    at = run_app(page="app.py", state={STATE: len(STEPS)})
    assert [b.label for b in at.button if b.key == "lecture_next"] == ["Finish"]
    at.button(key="lecture_next").click()
    at = run_app(at)
    assert STATE not in at.session_state
