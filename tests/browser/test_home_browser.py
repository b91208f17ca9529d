"""The home page in a real browser: it loads, its lesson's links open the pages with the step's
settings, and the lesson fits a phone (390x844).

The lesson's screenshots (1400x1000 and 390x844) go to tests/artifacts/ (one file per test, so
parallel workers share none), to be looked at, not kept in the repository.
"""

import re

import pytest
from playwright.sync_api import expect

from offcenter.app.lesson import STEPS

from .conftest import ARTIFACTS, screenshot, wait_for_app, wait_for_drawing
from .test_curves_browser import check_three_downloads_clicked_quickly_all_arrive
from .test_navigation_browser import check_phone_layout
from .test_presentation_browser import check_home_thumbnail

pytestmark = pytest.mark.browser

SHOTS = ARTIFACTS
NAV = "[data-testid='stSidebarNav']"
LESSON_HEAD = "h2:has-text('Lesson: four steps')"


def check_home_page_renders(page) -> None:
    """Home just opened on a 1400x1000 page: its title, text, the Figure 1 thumbnail drawn
    (its title in two lines) and the cards of the pages. Once test_home_page_renders, on its
    own load of Home: checked on test_lesson_step_3_opens_two_classes_on_figure_1's Home, opened
    by the navigation (the thumbnail is the paper's Figure 1 preset, whatever θ the session
    holds)."""
    expect(page.get_by_role("heading", name="offcenter").first).to_be_visible()
    expect(page.get_by_text("How to read these curves").first).to_be_visible()
    # the Figure 1 thumbnail is drawn (Plotly renders an SVG with one group per trace)
    page.wait_for_selector(".js-plotly-plot .scatterlayer .trace")
    assert page.locator(".js-plotly-plot .scatterlayer .trace").count() >= 3
    assert page.locator("[data-testid='stException']").count() == 0
    screenshot(page, "home")
    # the thumbnail's title is wrapped in two lines (two SVG text spans)
    assert page.get_by_text("Fig. 1. Off-centered,").count() >= 1
    assert page.get_by_text("asymmetric and Shannon's entropies").count() >= 1
    # the cards of the pages
    for title in ("Two classes", "q classes", "Tree", "Compare measures"):
        assert page.get_by_text(title, exact=True).count() >= 1
    screenshot(page, "curves_home")


def _shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def _slider_value(page, label_start: str) -> float:
    box = page.locator("[data-testid='stSlider']", has_text=label_start).first
    return float(box.locator("[data-testid='stSliderThumbValue']").first.inner_text())


def test_lesson_step_3_opens_two_classes_on_figure_1(page, app_url):
    # the user had moved theta on the Two classes page, then came back to the home page
    page.goto(app_url + "/Two_classes?theta=0.55")
    wait_for_app(page)
    assert _slider_value(page, "θ: the off-centering point") == pytest.approx(0.55)
    page.locator(NAV).get_by_text("Home", exact=True).click()
    page.wait_for_selector(LESSON_HEAD, timeout=90_000)  # a loaded CI machine: a slow rerun
    wait_for_app(page)
    check_home_page_renders(page)
    for i, step in enumerate(STEPS, 1):  # generous waits: a loaded CI machine renders late
        expect(page.get_by_role("heading", name=f"{i}. {step.title}")).to_be_visible(timeout=60_000)
        expect(page.get_by_role("link", name=step.label)).to_be_visible(timeout=60_000)
    page.locator(LESSON_HEAD).scroll_into_view_if_needed()
    wait_for_drawing(page)
    _shot(page, "home_lesson_1400")
    page.get_by_role("link", name=STEPS[2].label).click()
    page.wait_for_url("**/Two_classes*")
    page.wait_for_selector("h1:has-text('Two classes')")
    wait_for_app(page)
    page.wait_for_selector(".js-plotly-plot .legendtitletext")
    assert _slider_value(page, "θ: the off-centering point") == pytest.approx(0.20)
    title = page.locator(".js-plotly-plot .legendtitletext").first.text_content()
    assert title.startswith("Fig. 1. Off-centered, asymmetric")
    assert page.locator("[data-testid='stException']").count() == 0
    assert page.get_by_text("Link parameter fixed").count() == 0
    _shot(page, "lesson_step3_two_classes_1400")
    # the step's page is the defaults' (Figure 1): with its derivatives shown, the link is
    # /Two_classes?deriv=1, the download race's (test_curves_browser.py's
    # test_three_downloads_clicked_quickly_all_arrive, once on its own load of that link)
    page.get_by_text("Show derivatives (paper, section 3.2)").click()
    page.wait_for_url(re.compile(r"[?&]deriv=1(&|$)"))
    wait_for_app(page)
    check_three_downloads_clicked_quickly_all_arrive(page)


def test_lesson_fits_a_phone(phone, app_url):
    """Home on a phone, opened by the teacher's link (``/?present=1``, which a phone does not
    apply: the same page as ``/``, its normal sizes): the page's phone layout, the lesson's four
    steps one under the other and nothing cut; then the Figure 1 thumbnail whole
    (test_presentation_browser.py's test_home_thumbnail_whole_in_presentation_mode, once on its
    own load of the same link on the phone: :func:`check_home_thumbnail`)."""
    page = phone
    page.goto(app_url + "/?present=1")
    page.wait_for_selector(LESSON_HEAD, timeout=90_000)
    wait_for_app(page)
    # first, Home's phone layout (test_navigation_browser.py's check of every page's, on this
    # same load of Home)
    page.wait_for_selector("h1", timeout=90_000)
    check_phone_layout(page, "")
    page.wait_for_selector(".katex-display")
    wait_for_drawing(page)
    # the four steps, one under the other, each within the screen
    boxes = [
        page.locator(f".st-key-lesson_step_{i}").bounding_box() for i in range(1, len(STEPS) + 1)
    ]
    for a, b in zip(boxes, boxes[1:]):
        assert b["y"] >= a["y"] + a["height"] - 1  # stacked in order
    for box in boxes:
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390 + 1, box
    # nothing cut: no link label shortened with an ellipsis, no formula that needs a
    # sideways scroll, nothing wider than the screen
    cut = page.evaluate(
        """() => [...document.querySelectorAll(
            '[class*="st-key-lesson_step_"] [data-testid="stPageLink"] *,'
            + '[class*="st-key-lesson_step_"] .katex-display')]
          .filter(e => e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1)
          .map(e => e.tagName + ': ' + e.textContent.slice(0, 40))"""
    )
    assert cut == [], cut
    width = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollWidth")
    assert width <= 392, width
    for i in range(1, len(STEPS) + 1):
        page.locator(f".st-key-lesson_step_{i}").scroll_into_view_if_needed()
        wait_for_drawing(page)
        _shot(page, f"home_lesson_390_step{i}")
    check_home_thumbnail(page)
