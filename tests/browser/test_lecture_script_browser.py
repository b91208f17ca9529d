"""The lecture script (offcenter.app.lecture_script) in headless Chromium: Start the lecture on
Home, then Page Down / Page Up (a clicker) and the arrow keys walk the four lesson steps, each
opened with its link's settings, the step shown at the top of the sidebar. On the same load of
Home, first: the lesson's steps begin on the first screen (test_lesson_screens_browser.py) and the
Figure 1 thumbnail is whole (test_presentation_browser.py), both at 1400x900; at the first visit
of steps 1 to 3, the step's figure whole on the first screen (test_lesson_screens_browser.py's
:func:`check_lesson_figure`, once on its own loads of the steps' addresses).
Screenshots: tests/artifacts/lecture_script_step{k}.png."""

import re

import pytest

from offcenter.app.lesson import STEPS, step_link

from .conftest import screenshot, wait_for_app
from .test_lesson_screens_browser import check_lesson_figure, check_lesson_steps_on_first_screen
from .test_presentation_browser import check_home_thumbnail

pytestmark = pytest.mark.browser


def _at_step(page, k):
    """Wait until step ``k``'s page is open with its link's settings and the sidebar says so."""
    link = step_link(STEPS[k - 1], present=True)
    page.wait_for_url(re.compile(r"/" + re.escape(link.url_path) + r"\?"), timeout=60_000)
    page.get_by_text(f"Lecture: step {k} of {len(STEPS)}").wait_for(timeout=60_000)
    wait_for_app(page)
    q = dict(re.findall(r"([^?&=]+)=([^&]*)", page.url))
    for name in ("tab", "data"):  # (a default, like q = 3, leaves the address)
        if name in link.query:
            assert q.get(name) == link.query[name], (k, name, page.url)
    assert page.locator("[data-testid='stException']").count() == 0


def test_a_clicker_walks_the_lesson_from_home(projector, app_url):
    page = projector  # 1400x900
    page.goto(app_url + "/?present=1")
    wait_for_app(page)
    check_lesson_steps_on_first_screen(page)
    check_home_thumbnail(page)
    # Home back at its top, as it opened (the thumbnail's check scrolled it down): the step's
    # page was seen to keep that scroll after the switch (scrollTop 1176 once), and its figure
    # is measured as its link opens it, at the top (check_lesson_figure)
    page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollTo(0, 0)")
    page.get_by_role("button", name="Start the lecture").click()
    _at_step(page, 1)
    check_lesson_figure(page, 1)
    screenshot(page, "lecture_script_step1")
    page.keyboard.press("PageDown")  # a clicker's "next"
    _at_step(page, 2)
    check_lesson_figure(page, 2)
    page.keyboard.press("ArrowRight")
    _at_step(page, 3)
    check_lesson_figure(page, 3)
    screenshot(page, "lecture_script_step3")
    page.keyboard.press("PageUp")  # back
    _at_step(page, 2)
    page.keyboard.press("PageDown")
    _at_step(page, 3)
    page.keyboard.press("PageDown")
    _at_step(page, 4)
    screenshot(page, "lecture_script_step4")
    # the last step's Next ends the lecture on Home
    page.keyboard.press("PageDown")
    page.get_by_role("button", name="Start the lecture").wait_for(timeout=60_000)
    assert page.get_by_text("Lecture: step").count() == 0
