"""The tree drawing in headless Chromium at 1400 x 1000: a depth-6 tree and the two-trees view.

The two-trees session on Pima starts with test_tree_comparison_browser.py's Pima verdict
(:func:`off_centered_verdict_on_pima`, formerly ``test_off_centered_verdict_on_pima``, a page load
of its own): the pair's settings are their own (A: Shannon, B: off-centered), whatever the page's.

The texts are measured where the browser drew them (SVG bounding boxes): none is cut by its box
and no two overlap; the drawing is scaled uniformly (x and y alike) and whole in its chart.
Screenshots are saved in tests/artifacts/ (tree_depth6*.png, tree_pair*.png) to be looked at.
"""

import pytest

from .conftest import screenshot, wait_for_app, wait_for_drawing
from .test_tree_comparison_browser import off_centered_verdict_on_pima

pytestmark = pytest.mark.browser

#: The drawn texts of every tree chart: their box (px, page coordinates), whether they lie in
#: the plot area, and the chart's title and pixel scale.
MEASURE = """() => [...document.querySelectorAll(".oc-tree-figure, [data-testid='stPlotlyChart'] .js-plotly-plot")]
  .filter(gd => gd.data && gd.data.some(t => t.name === 'nodes'))
  .map(gd => {
    const fl = gd._fullLayout, xa = fl.xaxis, ya = fl.yaxis;
    const box = gd.getBoundingClientRect();
    const area = {left: box.left + xa._offset, right: box.left + xa._offset + xa._length,
                  top: box.top + ya._offset, bottom: box.top + ya._offset + ya._length};
    const texts = gd.querySelectorAll('.scatterlayer text');  // the drawing's text trace
    const out = [...texts].map(t => {
      const r = t.getBoundingClientRect();
      return {text: t.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom};
    }).filter(r => r.right > r.left);
    return {
      title: ((gd.layout.annotations || []).find(a => a.name === 'title') || {}).text || '',
      xscale: xa._m, yscale: ya._m, area, width: box.width,
      texts: out.filter(r => r.left >= area.left && r.right <= area.right
                              && r.top >= area.top && r.bottom <= area.bottom),
      n_texts: out.length,
    };
  })"""


def overlapping(texts, tol=0.5):
    out = []
    for i, a in enumerate(texts):
        for b in texts[i + 1 :]:
            if (
                min(a["right"], b["right"]) - max(a["left"], b["left"]) > tol
                and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > tol
            ):
                out.append((a["text"], b["text"]))
    return out


def open_page(page, app_url, query):
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(app_url + "/Tree?" + query)
    wait_for_app(page)
    page.wait_for_function(
        "() => [...document.querySelectorAll(\".oc-tree-figure, [data-testid='stPlotlyChart'] .js-plotly-plot\")]"
        ".some(gd => gd.data && gd.data.some(t => t.name === 'nodes') && gd._fullLayout)",
        timeout=90_000,
    )
    wait_for_drawing(page)


def check_chart(chart):
    # drawn at one scale in x and y (at most 14/11 px per unit: 14 px text), so the layout's
    # guarantees hold on screen; every text of the drawing lies in the plot area
    assert chart["xscale"] == pytest.approx(-chart["yscale"], rel=1e-3), chart
    assert chart["xscale"] <= 14 / 11 + 1e-3, chart["xscale"]
    assert len(chart["texts"]) >= 10
    assert len(chart["texts"]) == chart["n_texts"]  # none outside the plot area
    assert overlapping(chart["texts"]) == []


def test_depth_6_tree_reads_without_overlaps(page, app_url):
    # by default the depth that fits the chart at 14 px; the link's depth=6 shows it whole
    open_page(page, app_url, "data=pima&max_depth=6&setting=oc_shannon")
    assert page.locator("[data-testid='stException']").count() == 0
    chart = page.locator(".oc-tree-figure, [data-testid='stPlotlyChart']").first
    chart.scroll_into_view_if_needed()
    wait_for_drawing(page)
    screenshot(page, "tree_depth6_fit")
    main = page.evaluate(MEASURE)[0]
    check_chart(main)
    assert main["xscale"] == pytest.approx(14 / 11, rel=5e-3)  # fits at 14 px (whole px)
    shown = [t["text"] for t in main["texts"]]
    assert "node 0" in shown and "glucose ≤ 111.5" in shown and "n = 768" in shown
    assert any("nodes hidden" in t for t in shown)  # deeper levels collapsed
    # the whole tree: the "Depth shown" slider moved to its end in the same session (formerly
    # a second page load, of the link's depth=6; the link's field is an AppTest test,
    # tests/app/test_tree_view.py); the address follows the slider
    thumb = page.locator("[data-testid='stSlider']").filter(has_text="Depth shown")
    thumb = thumb.first.get_by_role("slider")
    thumb.focus()
    page.keyboard.press("End")
    wait_for_app(page)
    page.wait_for_function("() => location.search.includes('depth=6')", timeout=60_000)
    page.locator(
        ".oc-tree-figure, [data-testid='stPlotlyChart']"
    ).first.scroll_into_view_if_needed()
    wait_for_drawing(page)
    screenshot(page, "tree_depth6")
    whole = page.evaluate(MEASURE)[0]
    check_chart(whole)
    # a depth-6 tree is drawn whole (no collapsed node), all of it in the chart
    assert not any("nodes hidden" in t["text"] for t in whole["texts"])
    assert len(whole["texts"]) > len(main["texts"])


def test_pima_verdict_then_two_trees_side_by_side(page, app_url):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    open_page(page, app_url, "data=pima&max_depth=4")
    off_centered_verdict_on_pima(page)  # test_tree_comparison_browser.py's, on this load
    heading = page.get_by_text("6. Compare two trees")
    heading.scroll_into_view_if_needed()
    page.get_by_text("Grow and compare two trees").click()  # grown on demand
    page.wait_for_function(
        "() => [...document.querySelectorAll(\".oc-tree-figure, [data-testid='stPlotlyChart'] .js-plotly-plot\")]"
        ".filter(gd => gd.data && gd.data.some(t => t.name === 'nodes')).length >= 3",
        timeout=90_000,
    )
    page.get_by_text("Where the splits first differ").scroll_into_view_if_needed()
    wait_for_drawing(page)
    screenshot(page, "tree_pair_metrics")
    charts = page.evaluate(MEASURE)
    pair = [c for c in charts if c["title"].startswith(("A: ", "B: "))]
    assert [c["title"][:2] for c in pair] == ["A:", "B:"]
    a, b = pair
    # side by side: two charts of about half the width
    assert a["width"] < 720 and b["width"] < 720
    assert abs(a["area"]["top"] - b["area"]["top"]) < 2
    chart_a = page.locator("[data-testid='stPlotlyChart']").filter(has_text="A: Shannon")
    chart_a.scroll_into_view_if_needed()
    # the titles too: scroll the page's scrolling container (a wheel over a chart would zoom it)
    chart_a.evaluate(
        "el => { let p = el.parentElement;"
        " while (p && p.scrollHeight <= p.clientHeight) p = p.parentElement;"
        " (p || document.scrollingElement).scrollBy(0, -60); }"
    )
    wait_for_drawing(page)
    screenshot(page, "tree_pair")
    for c in page.evaluate(MEASURE)[1:]:
        check_chart(c)
    texts_a = [t["text"] for t in a["texts"]]
    assert "splits differ (B: node 0)" in texts_a and "glucose ≤ 127.5" in texts_a
    texts_b = [t["text"] for t in b["texts"]]
    assert "splits differ (A: node 0)" in texts_b and "glucose ≤ 111.5" in texts_b
    assert page.locator("[data-testid='stException']").count() == 0
    assert not dialogs
