"""The Tree page's comparison of measure settings in headless Chromium at 1400 x 1000: the
default (plain Shannon on the slides' edible table, gain 0.105843), the suggestion to off-center
on Pima, the verdict with both glucose thresholds, and the tables' gain and rank columns visible
without scrolling sideways. The walks have no page load of their own: the default's checks
(:func:`default_label_and_gain`) are walked in test_tree_browser.py's page session on the same
link, Pima's verdict (:func:`off_centered_verdict_on_pima`) at the start of
test_tree_figure_browser.py's two-trees session on Pima (formerly
``test_off_centered_verdict_on_pima``, its own load of ``/Tree?data=pima&max_depth=2``)."""

import re

import pytest

from .conftest import ARTIFACTS, wait_for_app, wait_for_drawing

pytestmark = pytest.mark.browser


def wait_for_tree(page):
    page.wait_for_selector(
        ".oc-tree-figure, [data-testid='stPlotlyChart'] .js-plotly-plot",
        state="attached",
        timeout=180_000,
    )


def grid_with(page, *heads, tries: int = 60):
    """The first data grid whose visible header cells include ``heads`` (the page may still be
    drawing: looked for once a second, up to ``tries`` times)."""
    for _ in range(tries):
        grids = page.locator("[data-testid='stDataFrame']")
        for i in range(grids.count()):
            got = grids.nth(i).locator("th").all_inner_texts()
            if all(h in got for h in heads):
                return grids.nth(i)
        page.wait_for_timeout(1000)
    raise AssertionError(f"no table with the columns {heads}")


def default_label_and_gain(page):
    """On the Tree page as opened by ``/Tree`` (the slides' edible table, plain Shannon): the
    setting's label, the grown tree's line, the worked calculation's and the own-best table's
    gain 0.105843 (formerly this module's own page load of ``/Tree``; walked at the start of
    test_tree_browser.py's page session, which opens the same link)."""
    page.wait_for_selector("text=Rows reaching this node", timeout=120_000)
    body = page.inner_text("body")
    assert "Exact setting: Shannon\n" in body + "\n"
    assert "Tree grown with Shannon; score: gain; leaf rule: majority" in body
    assert "Measure: Shannon" in body
    # the worked calculation (KaTeX keeps its TeX source) and the own-best table show 0.105843
    tex = page.evaluate(
        "() => [...document.querySelectorAll('annotation')].map(a => a.textContent).join(' ')"
    )
    assert "0.105843" in tex and "0.105840" not in tex
    best = grid_with(page, "gain", "best split", "setting")
    best.scroll_into_view_if_needed()
    # (the grid's accessible cells hold the exact value; the canvas shows it as 0.105843)
    cells = best.locator("td").all_inner_texts()
    assert "Shannon" in cells
    assert any(c.startswith("0.105843") for c in cells), cells
    assert page.locator("[data-testid='stException']").count() == 0


def off_centered_verdict_on_pima(page):
    """On the Tree page as opened on Pima with plain Shannon (any depth: the checks are the
    root's), 1400 px wide: the page suggests off-centering; nothing is switched on until the
    user says so; then the verdict names both glucose thresholds and the tables' gains and
    ranks are within the window (the default's label and gain:
    :func:`default_label_and_gain`). The caller checks that no dialog opened."""
    wait_for_tree(page)
    page.wait_for_selector("text=Rows reaching this node", timeout=120_000)
    assert "The classes are imbalanced" in page.inner_text("body")
    assert "Tree grown with Shannon;" in page.inner_text("body")
    page.get_by_role("button", name="Use off-centered Shannon, θ = prior").click()
    wait_for_app(page)
    page.get_by_role("button", name="Grow the tree", exact=True).click()
    wait_for_app(page)
    page.wait_for_selector("text=Tree grown with off-centered Shannon", timeout=60_000)
    body = page.inner_text("body")
    assert (
        "Tree grown with off-centered Shannon, θ = prior (0.65, 0.35); score: gain; "
        "leaf rule: majority" in body
    )
    verdict = page.locator("[data-testid='stAlert']", has_text="disagree").first
    text = verdict.inner_text()
    assert "glucose <= 111.5" in text and "glucose <= 127.5" in text
    # the setting column first, then the gains: both thresholds, within the 1400-px window
    best = grid_with(page, "gain", "best split", "setting")
    page.locator("h3", has_text="own best split").first.scroll_into_view_if_needed()
    wait_for_drawing(page)
    cells = best.locator("td").all_inner_texts()
    assert "glucose <= 127.5" in cells and "glucose <= 111.5" in cells
    assert any(re.fullmatch(r"0\.\d+", c) for c in cells)  # the gains
    box = best.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 1400
    per = grid_with(page, "rank", "gain", "best", "split")
    assert per.locator("td").count() > 0
    chosen = grid_with(page, "gain", "rank", "own best gain", "gap")
    assert "glucose <= 127.5" in chosen.locator("td").all_inner_texts()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "tree_compare_pima_verdict.png"))
    chosen.scroll_into_view_if_needed()
    wait_for_drawing(page)
    page.screenshot(path=str(ARTIFACTS / "tree_compare_pima_chosen.png"))
    assert page.locator("[data-testid='stException']").count() == 0
