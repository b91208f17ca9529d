"""The tree page end to end in headless Chromium: upload, grow, click a node, read the table.

The page session first checks the default's label and gain (test_tree_comparison_browser.py's
:func:`default_label_and_gain`, formerly with a page load of its own), then a file over 50 MB and
a broken file refused (test_state_browser.py's :func:`refused_and_broken_files`, formerly with a
page load of its own), then walks the Tree page's refused upload at 1400x900
(test_upload_report_browser.py's :func:`refused_then_loaded`, formerly its ``[/Tree]`` case
with a page load of its own), then uploads another file in its place, and ends on the Compare
page, which opens on that file (test_state_browser.py's :func:`an_upload_is_compares_data`,
formerly after its own upload of the same file).

Script-like column names staying text is an AppTest test (tests/app/test_tree_page_end_to_end.py)."""

from pathlib import Path

import pytest

from . import test_state_browser as state  # (a module: each imports the other)
from .conftest import screenshot, wait_for_app, wait_for_drawing, wait_for_upload
from .test_tree_comparison_browser import default_label_and_gain
from .test_upload_report_browser import refused_then_loaded

pytestmark = pytest.mark.browser

BAD = Path(__file__).resolve().parents[1] / "data" / "bad_csv"

IRISH = "colour,size,weight,label\n" + "".join(
    f"{c},{s},{w},{lab}\n"
    for c, s, w, lab in [
        ("red", "small", 1.0, "yes"),
        ("red", "large", 2.5, "no"),
        ("blue", "small", 1.2, "yes"),
        ("blue", "large", 3.1, "no"),
        ("red", "small", 0.9, "yes"),
        ("green", "large", 2.8, "no"),
        ("green", "small", 1.1, "no"),
        ("blue", "small", 1.4, "yes"),
        ("red", "large", 2.9, "no"),
        ("green", "small", 0.8, "yes"),
        ("blue", "large", 3.3, "yes"),
        ("red", "small", 1.3, "no"),
    ]
)


def wait_for_tree(page):
    # the first run of the page can take over a minute on a loaded 2-CPU machine
    page.wait_for_selector(
        ".oc-tree-figure, [data-testid='stPlotlyChart'] .js-plotly-plot",
        state="attached",
        timeout=180_000,
    )
    page.wait_for_function(
        "() => { const gd = document.querySelector(\".oc-tree-figure, [data-testid='stPlotlyChart'] .js-plotly-plot\");"
        " return gd && gd.data && gd.data.some(t => t.name === 'nodes') && gd._fullLayout; }",
        timeout=60_000,
    )


def upload(page, file, *, sent: bool = True):
    """Put ``file`` (a path, or a Playwright payload dict) in the page's first uploader and
    wait until the server has it and the run it asked for is over; ``sent=False``: a file the
    browser itself refuses (over the widget's limit), never sent."""
    inp = page.locator("[data-testid='stFileUploader'] input[type='file']").first
    inp.set_input_files(file)
    if sent:
        wait_for_upload(page, file["name"] if isinstance(file, dict) else Path(file).name)
    else:
        wait_for_app(page)


def node_points(page):
    """The node markers of the tree figure (the trace named 'nodes')."""
    return page.evaluate("""() => {
        const gd = document.querySelector(".oc-tree-figure, [data-testid='stPlotlyChart'] .js-plotly-plot");
        const k = gd.data.findIndex(t => t.name === 'nodes');
        const tr = gd.data[k];
        const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
        const box = gd.getBoundingClientRect();
        return tr.x.map((x, i) => ({
            id: tr.customdata[i][0],
            px: box.left + xa._offset + xa.l2p(x),
            py: box.top + ya._offset + ya.l2p(tr.y[i]),
        }));
    }""")


def test_upload_grow_click_a_node_and_read_candidates(page, app_url, tmp_path):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(app_url + "/Tree")
    wait_for_app(page)
    wait_for_tree(page)
    assert page.locator("[data-testid='stException']").count() == 0
    default_label_and_gain(page)  # test_tree_comparison_browser.py's, on the same link
    state.refused_and_broken_files(page, tmp_path)  # test_state_browser.py's: the data unchanged
    refused_then_loaded(page, "/Tree")
    # the same 1400x900 window (a 4200-px tall one, formerly, to have the whole page drawn at
    # once, cost Chromium twice the CPU): what is read or clicked is scrolled into view first
    upload(page, {"name": "fruit.csv", "mimeType": "text/csv", "buffer": IRISH.encode()})
    page.wait_for_selector("text=Read as: 12 rows x 4 columns", timeout=30_000)
    wait_for_tree(page)
    chart = page.locator(".oc-tree-figure, [data-testid='stPlotlyChart']").first
    chart.scroll_into_view_if_needed()
    wait_for_drawing(page)
    screenshot(page, "tree_uploaded")
    # the radios (categorical splits, leaf rule) still show their selection after the new data
    # (and the layout radio of "Compare two trees": every radio group has its selection)
    groups = page.locator("[data-testid='stRadio']").count()
    assert groups >= 2
    assert page.locator("[data-testid='stRadio'] input:checked").count() == groups
    points = node_points(page)
    assert len(points) >= 3
    child = [p for p in points if p["id"] != 0][0]
    page.mouse.click(child["px"], child["py"])
    wait_for_app(page)
    # the "Node" selectbox now shows the clicked node (its value sits in an <input>)
    page.wait_for_function(
        "id => [...document.querySelectorAll('[data-testid=stSelectbox] input')]"
        ".some(e => e.value.startsWith('node ' + id + ' ('))",
        arg=child["id"],
        timeout=30_000,
    )
    # (elements of the previous runs stay until the rerun has finished drawing: wait for it)
    wait_for_app(page)
    page.wait_for_function(
        "() => document.querySelectorAll('input[aria-label=\"Node\"]').length === 1",
        timeout=120_000,
    )
    node_input = page.get_by_label("Node", exact=True)
    assert node_input.input_value().startswith(f"node {child['id']} (")
    # the candidate table (a glide data grid: read its accessible table), in its expander
    # (drawn only when open: the click reruns the section, then the grid appears)
    page.get_by_text("Every feature at the tree's thresholds").first.click()
    wait_for_app(page)
    every = page.locator("[data-testid='stExpander']").filter(
        has_text="Every feature at the tree's thresholds"
    )
    every.last.locator("[data-testid='stDataFrame']").first.scroll_into_view_if_needed()
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=stDataFrame]')].some("
        "g => [...g.querySelectorAll('th')].some(th => th.innerText === 'chosen'))",
        timeout=30_000,
    )
    page.get_by_text("Every feature at the tree's thresholds").first.scroll_into_view_if_needed()
    screenshot(page, "tree_node_selected")
    grids = page.locator("[data-testid='stDataFrame']")
    cand = None
    for i in range(grids.count()):
        heads = grids.nth(i).locator("th").all_inner_texts()
        if "feature" in heads and "chosen" in heads:
            cand = grids.nth(i)
            break
    assert cand is not None, "no candidate table"
    # the per-measure gains and ranks come first: visible without scrolling sideways
    heads = cand.locator("th").all_inner_texts()
    assert any(h.startswith("gain · ") for h in heads), heads
    assert any(h.startswith("rank · ") for h in heads), heads
    cells = cand.locator("td").all_inner_texts()
    features = {"colour", "size", "weight"}
    assert features <= set(cells)
    numbers = []
    for c in cells:
        try:
            numbers.append(float(c))
        except ValueError:
            pass
    assert any(0 < x <= 1 for x in numbers)  # some gains are shown
    # the verdicts and the split text are further right: scroll the grid sideways
    cand.hover()
    for _ in range(4):  # to the far right of the wide table
        page.mouse.wheel(5000, 0)
        page.wait_for_timeout(250)
    heads = cand.locator("th").all_inner_texts()
    screenshot(page, "tree_candidates_scrolled")
    assert "best under" in heads or "split" in heads or "children counts" in heads, heads
    assert page.locator("[data-testid='stException']").count() == 0
    state.an_upload_is_compares_data(page)  # test_state_browser.py's: the upload on Compare
    assert not dialogs
