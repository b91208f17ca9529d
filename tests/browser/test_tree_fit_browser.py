"""The tree that fits, measured in headless Chromium (issue 24): a shared link opened in a fresh
browser; the helpers that measure the tree chart.

Everything is read from bounding boxes where the browser drew it: the root's children inside the
tree chart's plot area, no text of the figure cut by the chart or under Plotly's toolbar, the
node text's computed font size. Lesson step 4 at 1400 x 900 in presentation mode and on a phone
(390 x 844) are measured in test_tree_lecture_browser.py, in the page sessions that walk the
same link's lecture view and phone view. Screenshots go to tests/artifacts/tree_fit_*.png.
"""

import pytest

from .conftest import wait_for_app, wait_for_drawing

pytestmark = pytest.mark.browser

IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
)

#: The tree chart measured: its box, plot area, node markers (page px), every text of the
#: figure (drawing, legend, title) with its box and font size, and the toolbar's box.
MEASURE = """() => {
  const gd = [...document.querySelectorAll(".oc-tree-figure, [data-testid='stPlotlyChart'] .js-plotly-plot")]
    .find(g => g.data && g.data.some(t => t.name === 'nodes') && g._fullLayout);
  if (!gd) return null;
  const fl = gd._fullLayout, xa = fl.xaxis, ya = fl.yaxis;
  const box = gd.getBoundingClientRect();
  const area = {left: box.left + xa._offset, right: box.left + xa._offset + xa._length,
                top: box.top + ya._offset, bottom: box.top + ya._offset + ya._length};
  const tr = gd.data.find(t => t.name === 'nodes');
  const nodes = tr.x.map((x, i) => ({id: tr.customdata[i][0],
    px: box.left + xa._offset + xa.l2p(x), py: box.top + ya._offset + ya.l2p(tr.y[i])}));
  const rect = e => { const r = e.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const texts = [...gd.querySelectorAll('text')].filter(t => t.textContent.trim())
    .map(t => ({text: t.textContent, size: parseFloat(getComputedStyle(t).fontSize),
                node: !!t.closest('.scatterlayer'), ...rect(t)}))
    .filter(r => r.right > r.left);
  const bar = gd.querySelector('.modebar');
  return {box: rect(gd), area, nodes, texts, modebar: bar ? rect(bar) : null,
          scroll: window.scrollY};
}"""


def open_tree(page, url):
    page.goto(url)
    wait_for_app(page)
    page.wait_for_function(
        "() => [...document.querySelectorAll(\".oc-tree-figure, [data-testid='stPlotlyChart'] .js-plotly-plot\")]"
        ".some(gd => gd.data && gd.data.some(t => t.name === 'nodes') && gd._fullLayout)",
        timeout=180_000,
    )
    wait_for_drawing(page)


def inside(r, box, tol=0.5):
    return (
        r["left"] >= box["left"] - tol
        and r["right"] <= box["right"] + tol
        and r["top"] >= box["top"] - tol
        and r["bottom"] <= box["bottom"] + tol
    )


def overlaps(a, b):
    return min(a["right"], b["right"]) > max(a["left"], b["left"]) and min(
        a["bottom"], b["bottom"]
    ) > max(a["top"], b["top"])


def check_fits(m, min_font):
    assert m is not None, "no tree chart"
    by_id = {n["id"]: n for n in m["nodes"]}
    for i in (0, 1, 2):  # the root and its children: in the plot area, so clickable
        p = by_id[i]
        assert m["area"]["left"] <= p["px"] <= m["area"]["right"], (i, p, m["area"])
        assert m["area"]["top"] <= p["py"] <= m["area"]["bottom"], (i, p, m["area"])
    node_texts = [t for t in m["texts"] if t["node"]]
    assert len(node_texts) >= 10
    assert min(t["size"] for t in node_texts) >= min_font, sorted({t["size"] for t in node_texts})
    # no text of the figure cut by the chart, none under the toolbar
    cut = [t["text"] for t in m["texts"] if not inside(t, m["box"])]
    assert cut == [], cut
    if m["modebar"] is not None:
        under = [t["text"] for t in m["texts"] if overlaps(t, m["modebar"])]
        assert under == [], under


def scroll_to_chart(page):
    page.locator(
        ".oc-tree-figure, [data-testid='stPlotlyChart']"
    ).first.scroll_into_view_if_needed()
    wait_for_drawing(page)


def screenshot_path(name):
    from .conftest import ARTIFACTS

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / f"{name}.png"


def test_a_shared_link_opens_on_the_same_node_and_gain_feature(page, app_url):
    """The link the page's address holds after a click on node 2 and a gain-plot feature opens
    a new Streamlit session on the same node and feature: the receiver is the same tab, its
    storage cleared and the page unloaded first (a new page load is a new session of the
    server, which starts from the link alone; a fresh browser context cost about 4 s of
    Chromium's CPU more)."""
    page.set_default_timeout(60_000)
    open_tree(page, app_url + "/Tree?data=pima&setting=oc_shannon")
    scroll_to_chart(page)
    m = page.evaluate(MEASURE)
    n2 = next(n for n in m["nodes"] if n["id"] == 2)
    page.mouse.click(n2["px"], n2["py"])
    page.get_by_text("4. The selected node: node 2").first.wait_for(timeout=60_000)
    wait_for_app(page)
    box = page.get_by_label("Numeric feature", exact=True)
    box.scroll_into_view_if_needed()
    box.click()
    page.get_by_role("option", name="bmi", exact=True).click()
    wait_for_app(page)
    page.wait_for_function("() => location.search.includes('thr_feature=bmi')")
    link = page.url
    assert "node=2" in link
    page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    page.goto("about:blank")
    open_tree(page, link)
    page.get_by_text("4. The selected node: node 2").first.wait_for(timeout=60_000)
    assert page.get_by_label("Node", exact=True).input_value().startswith("node 2 (")
    assert page.get_by_label("Numeric feature", exact=True).input_value() == "bmi"
    page.get_by_label("Numeric feature", exact=True).scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_path("tree_fit_shared_link_view")))
