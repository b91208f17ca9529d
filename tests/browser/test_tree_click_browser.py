"""A node click moves the Tree page's highlight in the browser (issue 34), in headless Chromium.

The page's websocket is wrapped (as in test_theta_follow_browser.py) so that the test can hold
back what the browser sends: with the click's rerun request held, the clicked node must already
be outlined (the figure's "box outline selected" trace on its box) and the old one not, while
the server has heard nothing (the node's section still names the old node). Once the held
message goes, the server's run must show the clicked node's section, with the outline still on
it, and the figure must not have been drawn again (no ``Plotly.newPlot`` or ``react`` on it).
The node selector moves the outline the same way, and the gain plot's feature then chosen is in
the address with the node (the link a teacher shares). That a new session opened from such a
link shows the same node and gain-plot feature needs no browser (the server reads the link's
fields alone): it is tests/app/test_tree_view.py's
``test_a_shared_link_restores_the_selected_node_gain_plot_and_two_tree_comparison`` (formerly
also checked here by a second page load of the address, and before that by
test_tree_fit_browser.py's ``test_a_shared_link_opens_on_the_same_node_and_gain_feature``).
"""

from __future__ import annotations

import pytest

from .conftest import screenshot, wait_for_app, wait_for_drawing
from .test_theta_follow_browser import HOLD

pytestmark = pytest.mark.browser

TREE = ".oc-tree-figure"

# The node markers (their ids and pixel positions) and the selected outline's box (its x range).
NODES = """() => {
  const gd = document.querySelector('.oc-tree-figure');
  const tr = gd.data.find((t) => t.name === 'nodes');
  const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
  const box = gd.getBoundingClientRect();
  return tr.x.map((x, i) => ({
    id: tr.customdata[i][0], x, y: tr.y[i],
    px: box.left + xa._offset + xa.l2p(x), py: box.top + ya._offset + ya.l2p(tr.y[i]),
  }));
}"""
OUTLINE = """() => {
  const gd = document.querySelector('.oc-tree-figure');
  const t = gd.data.find((d) => d.name === 'box outline selected');
  const xs = Array.from(t.x).filter((v) => v !== null), ys = Array.from(t.y).filter((v) => v !== null);
  return xs.length ? [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)] : null;
}"""


# How every node's text is painted: a click must not change it (Plotly's point selection, under
# clickmode "event+select", painted every text trace's points but the clicked one at 20 %
# opacity: the whole tree faded after a click, the figure staying in the browser).
TEXT_PAINT = """() => [...document.querySelectorAll('.oc-tree-figure .scatterlayer .textpoint text')]
  .map((t) => { const s = getComputedStyle(t); return [s.fill, s.fillOpacity, s.opacity].join('|'); })"""


def _outlined(page, nodes) -> list[int]:
    """The ids of the nodes whose marker is inside the selected outline."""
    box = page.evaluate(OUTLINE)
    if box is None:
        return []
    x0, x1, y0, y1 = box
    return [n["id"] for n in nodes if x0 <= n["x"] <= x1 and y0 <= n["y"] <= y1]


def _heading(page) -> str:
    return page.locator("h2", has_text="4. The selected node").first.inner_text().strip()


def test_a_click_moves_the_highlight_before_the_server_answers(page, app_url):
    page.add_init_script(HOLD)
    # the fixture's 1400x1000 window, the chart scrolled into view (a 2400-px tall window,
    # formerly, had Chromium draw the whole page)
    page.goto(app_url + "/Tree?data=pima&max_depth=3")
    page.wait_for_selector(TREE + " .scatterlayer .trace", timeout=180_000)
    wait_for_app(page)
    page.wait_for_function("() => window.Plotly && document.querySelector('.oc-tree-figure').data")
    page.locator(TREE).first.scroll_into_view_if_needed()
    wait_for_drawing(page)
    # count the tree figure's draws from here on (a new figure: a Plotly.newPlot or react)
    page.evaluate(
        """() => {
      const P = window.Plotly; window.__draws = 0;
      for (const f of ['newPlot', 'react']) {
        const g = P[f];
        P[f] = (gd, ...a) => {
          if (gd && gd.classList && gd.classList.contains('oc-tree-figure')) window.__draws++;
          return g.call(P, gd, ...a);
        };
      }
    }"""
    )
    # the selection's own element (the chart's message stays the same at a click) is out of
    # the layout
    shown = page.evaluate(
        "() => [...document.querySelectorAll(\".stElementContainer[class*='_oc_tree_selection']\")]"
        ".map((e) => getComputedStyle(e).display)"
    )
    assert shown == ["none"]
    nodes = page.evaluate(NODES)
    assert _outlined(page, nodes) == [0]  # the root, selected when the page opens
    assert _heading(page).endswith("node 0")
    target = next(n for n in nodes if n["id"] == 2)
    paint = page.evaluate(TEXT_PAINT)
    assert len(paint) > 10

    page.evaluate("() => { window.__hold.on = true; }")
    page.mouse.click(target["px"], target["py"])
    page.wait_for_function("() => window.__hold.queue.length >= 1", timeout=10_000)
    # the browser moved the outline; the server has heard nothing
    assert _outlined(page, nodes) == [2]
    assert _heading(page).endswith("node 0")
    assert "node=2" not in page.evaluate("() => location.search")
    assert page.evaluate(TEXT_PAINT) == paint  # no node's text faded by the click
    screenshot(page, "tree_click_before_server")

    page.evaluate("() => window.__hold.flush()")
    page.wait_for_function(
        "() => [...document.querySelectorAll('h2')].some("
        "(h) => h.innerText.includes('The selected node: node 2'))",
        timeout=60_000,
    )
    wait_for_app(page)
    assert _heading(page).endswith("node 2")
    assert _outlined(page, nodes) == [2]
    page.wait_for_function("() => location.search.includes('node=2')", timeout=30_000)
    assert page.evaluate("() => window.__draws") == 0  # the figure was not drawn again
    assert page.evaluate(TEXT_PAINT) == paint
    assert page.locator("[data-testid='stException']").count() == 0
    screenshot(page, "tree_click_after_server")

    # the node selector moves the outline too (the server's choice, drawn by a restyle)
    select = page.get_by_label("Node", exact=True)
    select.scroll_into_view_if_needed()
    select.click()
    page.keyboard.type("node 1 (")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => [...document.querySelectorAll('h2')].some("
        "(h) => h.innerText.includes('The selected node: node 1'))",
        timeout=60_000,
    )
    wait_for_app(page)
    page.wait_for_function(f"() => ({OUTLINE})() !== null", timeout=10_000)
    assert _outlined(page, nodes) == [1]
    assert page.evaluate("() => window.__draws") == 0

    # a shared link: the address holds the node (1) and the gain plot's feature (bmi); a new
    # session opened from it is tests/app/test_tree_view.py's (the server reads the link alone)
    box = page.get_by_label("Numeric feature", exact=True)
    box.scroll_into_view_if_needed()
    box.click()
    page.get_by_role("option", name="bmi", exact=True).click()
    wait_for_app(page)
    page.wait_for_function("() => location.search.includes('thr_feature=bmi')")
    link = page.url
    assert "node=1" in link
    assert page.get_by_label("Numeric feature", exact=True).input_value() == "bmi"
    screenshot(page, "tree_fit_shared_link")
