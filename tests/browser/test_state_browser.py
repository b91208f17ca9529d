"""Shared state end to end in headless Chromium: an upload on Tree is the data Compare opens on;
a link with hand edits shows the edited tree; a broken file gets a visible message."""

from pathlib import Path

import pytest

from .conftest import screenshot, wait_for_app
from .test_tree_browser import IRISH, upload, wait_for_tree

pytestmark = pytest.mark.browser

BAD = Path(__file__).resolve().parents[1] / "data" / "bad_csv"


def open_tree(page, url):
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(url)
    wait_for_app(page)
    wait_for_tree(page)


def test_an_upload_on_tree_is_the_data_compare_opens_on(page, app_url):
    open_tree(page, app_url + "/Tree")
    upload(page, {"name": "fruit.csv", "mimeType": "text/csv", "buffer": IRISH.encode()})
    page.wait_for_selector("text=Read as: 12 rows x 4 columns", timeout=30_000)
    wait_for_tree(page)
    # go to Compare through the sidebar (same session; a new URL would be a new session)
    page.locator("[data-testid='stSidebarNav'] a[href$='Compare_measures']").click()
    page.wait_for_timeout(1000)
    wait_for_app(page)
    page.wait_for_selector("text=Compare measures: does off-centering help", timeout=30_000)
    data_box = page.get_by_label("Data set", exact=True)
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=stSelectbox] input')]"
        ".some(e => e.value === 'Uploaded: fruit.csv')",
        timeout=30_000,
    )
    assert data_box.input_value() == "Uploaded: fruit.csv"
    path = screenshot(page, "state_upload_shared_on_compare")
    assert path.exists()
    assert page.locator("[data-testid='stException']").count() == 0


def test_a_link_with_edits_shows_the_edited_tree(page, app_url):
    open_tree(page, app_url + "/Tree?data=mutation&edits=s0:mutation_2,l1,l99")
    page.wait_for_selector("text=2 of 3 hand edit(s) replayed", timeout=30_000)
    assert page.get_by_text("Edit 3 of 3 (leaf at node 99) was not restored").is_visible()
    edits = page.get_by_text("Edits: split node 0 on mutation_2; leaf at node 1")
    edits.scroll_into_view_if_needed()
    assert edits.is_visible()
    # the figure draws the root split on mutation_2
    root = page.evaluate("""() => {
        const gd = document.querySelector("[data-testid='stPlotlyChart'] .js-plotly-plot");
        return JSON.stringify(gd.data.map(t => t.text || t.hovertext || ''));
    }""")
    assert "mutation_2" in root
    page.get_by_text("2 of 3 hand edit(s) replayed").scroll_into_view_if_needed()
    screenshot(page, "state_link_with_edits")
    # the address still holds the edits that were restored
    assert "edits=s0%3Amutation_2%2Cl1" in page.url or "edits=s0:mutation_2,l1" in page.url


def test_a_broken_file_gets_a_visible_message(page, app_url):
    open_tree(page, app_url + "/Tree")
    upload(page, str(BAD / "binary_png.csv"))
    alert = page.locator("[data-testid='stAlert']").filter(has_text="The file was not loaded")
    alert.first.wait_for(timeout=30_000)
    alert.first.scroll_into_view_if_needed()
    assert alert.first.is_visible()
    box = alert.first.bounding_box()
    assert box is not None and box["height"] > 20 and box["width"] > 200
    screenshot(page, "state_broken_file")
    # the previous data is still the one shown
    assert page.get_by_label("Data set", exact=True).input_value().startswith("Edible")


def test_trace_a_row_typed_in_by_its_values(page, app_url):
    open_tree(page, app_url + "/Tree?data=iris")
    page.get_by_text("Trace a row through the tree").click()
    page.wait_for_timeout(500)
    length = page.get_by_role("spinbutton", name="petal length")
    length.fill("1.2")
    page.get_by_role("spinbutton", name="petal width").fill("0.2")
    page.get_by_role("button", name="Trace this row").click()
    page.wait_for_timeout(800)
    wait_for_app(page)
    path = page.get_by_text("Path: node 0")
    path.wait_for(timeout=30_000)
    assert "predicted setosa" in path.inner_text()
    page.get_by_text("Trace a row through the tree").scroll_into_view_if_needed()
    screenshot(page, "state_trace_by_values")
    # the traced path is drawn in the figure
    n_traced = page.evaluate("""() => {
        const gd = document.querySelector("[data-testid='stPlotlyChart'] .js-plotly-plot");
        const t = gd.data.find(t => t.name === 'traced path');
        return t ? t.x.filter(v => v !== null).length : 0;
    }""")
    assert n_traced >= 2


def test_a_file_over_50_mb_gets_a_visible_message_not_a_hover(page, app_url, tmp_path):
    big = tmp_path / "big.csv"
    with open(big, "wb") as f:
        f.write(b"a,b\n")
        f.write(b"1,x\n" * (15_000_000 + 1000))  # 60 MB
    open_tree(page, app_url + "/Tree")
    uploader = page.locator("[data-testid='stFileUploader']").first
    # the limit is said once, by the widget, and it is the one enforced (not 200 MB)
    assert "50MB per file" in uploader.inner_text()
    assert "200" not in uploader.inner_text() and "at most" not in uploader.inner_text()
    upload(page, str(big))
    message = uploader.get_by_text("File must be 50.0MB or smaller")
    message.first.wait_for(timeout=60_000)
    message.first.scroll_into_view_if_needed()
    assert message.first.is_visible()  # under the file's chip, not only on hover
    box = message.first.bounding_box()
    assert box["width"] > 100 and box["height"] > 8
    screenshot(page, "state_file_too_large")
    assert page.get_by_label("Data set", exact=True).input_value().startswith("Edible")
