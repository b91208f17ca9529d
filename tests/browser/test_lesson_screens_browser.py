"""The lesson on a projector: at 1400x900 in presentation mode, Home's lesson steps (their
titles and links) begin on the first screen, and each step's link opens its page with the
step's figure whole on the first screen, without scrolling: every text of the figure inside it
and inside the window (step 2: the ternary, its three corners and colour bar). Both are
measured on tests/browser/test_lecture_script_browser.py's walk, which opens Home at 1400x900
with ``present=1`` and then each step's page with its link
(:func:`check_lesson_steps_on_first_screen`, :func:`check_lesson_figure`; once this module's
own loads of Home and of each step's address): this module holds the checks, no test.

Screenshots: tests/artifacts/lesson_present_*.png.
"""

from __future__ import annotations

import pytest

from offcenter.app.lesson import STEPS

from .conftest import ARTIFACTS, inside, wait_for_app, wait_for_drawing

pytestmark = pytest.mark.browser

WINDOW = {"x0": 0, "y0": 0, "x1": 1400, "y1": 900}
#: The figure each step is about, by its chart's key (step 4: the tree, its own browser tests
#: measure the steps: tests/browser/test_tree_lecture_browser.py).
FIGURES = {1: "tc_chart", 2: "qc_chart_ternary", 3: "tc_chart"}

_FIGURE = r"""(key) => {
  const host = document.querySelector('.st-key-' + key);
  const g = host && host.querySelector('.js-plotly-plot');
  if (!g || !g._fullLayout) return null;
  const box = (el) => { const r = el.getBoundingClientRect();
    return {x0: r.left, y0: r.top, x1: r.right, y1: r.bottom}; };
  const sel = '.gtitle, .legendtitletext, .legendtext, .g-xtitle text, .g-ytitle text, '
    + '.xtick text, .ytick text, .annotation-text, .cbtitle text, .cbaxis text';
  const texts = Array.from(g.querySelectorAll(sel)).filter(t => t.textContent.trim())
    .map(t => ({text: t.textContent.trim(), box: box(t)}));
  return {figure: box(g), texts: texts};
}"""


def _settle(page) -> None:
    wait_for_app(page)  # with the run the window's report of its width asks for, if any
    wait_for_drawing(page)  # Plotly's automargin
    assert page.locator("[data-testid='stException']").count() == 0


def check_lesson_steps_on_first_screen(page) -> None:
    """Home's lesson steps (their titles and links) begin on the first screen, on a 1400x900
    page just opened at ``/?present=1`` (checked by
    tests/browser/test_lecture_script_browser.py on its load of that link)."""
    assert page.viewport_size == {"width": 1400, "height": 900}
    page.wait_for_selector(".st-key-lesson_step_1", timeout=180_000)
    _settle(page)
    for i, step in enumerate(STEPS[:2], 1):  # the first row of steps
        card = page.locator(f".st-key-lesson_step_{i}")
        title = card.get_by_role("heading", name=f"{i}. {step.title}")
        link = card.get_by_role("link", name=step.label)
        for what in (title, link):
            b = what.bounding_box()
            assert b is not None
            box = {
                "x0": b["x"],
                "y0": b["y"],
                "x1": b["x"] + b["width"],
                "y1": b["y"] + b["height"],
            }
            assert inside(box, WINDOW), (i, box)
        size = link.evaluate(
            "e => parseFloat(getComputedStyle(e.querySelector('p') || e).fontSize)"
        )
        assert size >= 18, size
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "lesson_present_home.png"))


def check_lesson_figure(page, number: int) -> None:
    """Step ``number``'s page (1 to 3) just opened with its link's settings in presentation mode
    on a 1400x900 page: the step's figure whole on the first screen, without scrolling, every
    text of it inside the figure and the window. Once test_each_lesson_figure_is_whole_on_the_
    first_screen[1-3], each on its own load of the step's address: checked on
    tests/browser/test_lecture_script_browser.py's walk, which opens each step's page with the
    same link (:func:`offcenter.app.lesson.step_link`, present=1) by the lecture's Next (the
    lecture's bar at the top of the sidebar; the main area is the link's page)."""
    assert page.viewport_size == {"width": 1400, "height": 900}
    key = FIGURES[number]
    page.wait_for_selector(f".st-key-{key} .js-plotly-plot .main-svg", timeout=180_000)
    _settle(page)
    page.mouse.move(2, 2)  # no hover: the toolbar hides
    geo = page.evaluate(_FIGURE, key)
    assert geo is not None
    assert page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollTop") == 0
    assert inside(geo["figure"], WINDOW), geo["figure"]
    assert geo["texts"], "the figure's texts"
    for t in geo["texts"]:
        assert inside(t["box"], geo["figure"]), t
        assert inside(t["box"], WINDOW), t
    page.screenshot(path=str(ARTIFACTS / f"lesson_present_step{number}.png"))
