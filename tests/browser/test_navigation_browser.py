"""End-to-end: the navigation ("Home" and the pages), settings kept across pages, links that open
a tab, and the phone layout (390x844), in headless Chromium; screenshots in tests/artifacts/."""

from __future__ import annotations

import pytest

from offcenter.ops.warmup import WARM_ENV

from .conftest import screenshot, streamlit_server, wait_for_app, wait_for_drawing

pytestmark = pytest.mark.browser

NAV = "[data-testid='stSidebarNav']"


def _nav_labels(page) -> list[str]:
    return [t.strip() for t in page.locator(f"{NAV} a span").all_inner_texts() if t.strip()]


def _open(page, url: str) -> None:
    """Go to ``url`` and wait for its page title (a cold server takes a while to import)."""
    page.goto(url)
    page.wait_for_selector("h1", timeout=90_000)
    wait_for_app(page)


def _slider_value(page, label_start: str) -> float:
    box = page.locator("[data-testid='stSlider']", has_text=label_start).first
    return float(box.locator("[data-testid='stSliderThumbValue']").first.inner_text())


def test_cold_deep_link_still_routes_through_app_py(page):
    # a fresh server (without its own warm-up) whose very first visitor opens /Tree: Streamlit's
    # pages/ mode used to stay on for every session (file names in the menu, "app" for the home
    # page)
    with streamlit_server("streamlit-server-cold", env={WARM_ENV: "0"}) as url:
        page.set_default_timeout(60_000)
        page.goto(url + "/Tree")
        page.wait_for_function(
            "() => [...document.querySelectorAll(\"[data-testid='stSidebarNav'] a\")]"
            ".some(a => a.innerText.includes('q classes'))"  # our titles, not the file names
        )
        wait_for_app(page)
        page.wait_for_selector("h1:has-text('Tree:')")
        labels = _nav_labels(page)
        for title in ("Home", "Two classes", "q classes", "Tree", "Compare measures"):
            assert title in labels, labels
        assert "app" not in labels and "Q classes" not in labels, labels
        screenshot(page, "nav_cold_tree")
        other = page.context.new_page()  # a second visitor, in another tab
        other.goto(url)
        wait_for_app(other)
        assert "Home" in _nav_labels(other)
        # Home's own text: waited for (on a cold, loaded server the page can still be drawing
        # when wait_for_app returns); a timeout fails the test
        other.get_by_text("How to read these curves").first.wait_for(state="visible")
        other.close()
        page.goto("about:blank")  # no reconnecting to the server stopped here


def test_q_page_keeps_q_and_its_tab_and_a_link_opens_a_tab(page, app_url):
    _open(page, app_url + "/Q_classes?tab=transform")
    tab = page.get_by_role("tab", name="The transform")
    assert tab.get_attribute("aria-selected") == "true"
    slider = page.get_by_role("slider", name="q: number of classes").first
    slider.focus()
    slider.press("ArrowRight")
    page.wait_for_url("**q=4*")
    wait_for_app(page)
    page.locator(NAV).get_by_text("Tree", exact=True).click()
    page.wait_for_url("**/Tree*")
    wait_for_app(page)
    page.locator(NAV).get_by_text("q classes", exact=True).click()
    page.wait_for_url("**/Q_classes*")
    wait_for_app(page)
    assert _slider_value(page, "q: number of classes") == 4
    assert page.get_by_role("tab", name="The transform").get_attribute("aria-selected") == "true"
    assert "tab=transform" in page.url and "q=4" in page.url
    assert page.get_by_text("using the uniform distribution").count() == 0
    screenshot(page, "nav_back_on_q_classes")


@pytest.mark.parametrize("path", ["/Tree"])
def test_phone_layout(phone, app_url, path):
    """Each page on a phone; Home's on the load of test_home_browser.py's
    test_lesson_fits_a_phone (``/?present=1``), the q classes page's on
    test_classroom_browser.py's test_phone_width's load of the same link, the Two classes
    page's on test_curves_browser.py's test_phone_moves_theta_with_the_figure_in_view's load of
    ``/Two_classes?present=1`` (a phone does not apply present=1: the same page)
    (:func:`check_phone_layout`)."""
    page = phone
    _open(page, app_url + path)
    check_phone_layout(page, path)


def check_phone_layout(page, path: str) -> None:
    """The page ``path`` just opened on a phone (390x844): its figure drawn, the sidebar closed,
    nothing wider than the screen; a screenshot."""
    assert page.viewport_size == {"width": 390, "height": 844}
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=60_000)
    wait_for_drawing(page)
    screenshot(page, "phone" + (path.replace("/", "_") or "_home"))
    # the sidebar starts closed on a small screen (initial_sidebar_state "auto"): off screen
    box = page.locator("[data-testid='stSidebar']").bounding_box()
    assert box is None or box["x"] + box["width"] <= 1, box
    # nothing wider than the screen: the title and the page's blocks fit in 390 px
    h1 = page.locator("h1").first
    box = h1.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390 + 1
    # elements sticking out of the screen (cut, or widening the page), except inside a box that
    # scrolls sideways on its own (the tab bar, code blocks, tables, wide equations)
    overflow = page.evaluate(
        """() => {
          const inScroller = (e) => {
            for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
              const r = a.getBoundingClientRect();
              if (r.right > window.innerWidth + 1) continue;
              if (["auto", "scroll"].includes(getComputedStyle(a).overflowX))
                return true;
            }
            return false;
          };
          return [...document.querySelectorAll('[data-testid="stMain"] *')]
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
            .filter(e => getComputedStyle(e).position !== "fixed" && !inScroller(e))
            .map(e => e.tagName + ": " + e.innerText.slice(0, 40)).slice(0, 5);
        }"""
    )
    assert overflow == [], overflow
