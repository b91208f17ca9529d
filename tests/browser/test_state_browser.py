"""Shared state end to end in headless Chromium, through the real upload widget: an upload on
Tree is the data Compare opens on; a broken file gets a visible message.

A link with hand edits, a row traced by its values and a file over 50 MB are AppTest tests
(tests/app/test_tree_page_end_to_end.py): they need no browser."""

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


def test_refused_and_broken_files_get_messages_then_an_upload_is_compares_data(
    page, app_url, tmp_path
):
    """On one load of /Tree: a file over 50 MB is refused by the browser with a visible
    message (not a hover), then a broken file gets its message, the data shown staying the
    page's own after each; then a good file's upload is the data Compare opens on. Once three
    tests, each on its own load of /Tree (test_a_file_over_50_mb_gets_a_visible_message_not_a_
    hover, test_a_broken_file_gets_a_visible_message, test_an_upload_on_tree_is_the_data_
    compare_opens_on): neither refused file changes the page's data."""
    big = tmp_path / "big.csv"
    with open(big, "wb") as f:
        f.write(b"a,b\n")
        f.write(b"1,x\n" * (15_000_000 + 1000))  # 60 MB
    open_tree(page, app_url + "/Tree")
    uploader = page.locator("[data-testid='stFileUploader']").first
    # the limit is said once, by the widget, and it is the one enforced (not 200 MB)
    assert "50MB per file" in uploader.inner_text()
    assert "200" not in uploader.inner_text() and "at most" not in uploader.inner_text()
    upload(page, str(big), sent=False)  # refused by the browser: never sent
    message = uploader.get_by_text("File must be 50.0MB or smaller")
    message.first.wait_for(timeout=60_000)
    message.first.scroll_into_view_if_needed()
    assert message.first.is_visible()  # under the file's chip, not only on hover
    box = message.first.bounding_box()
    assert box["width"] > 100 and box["height"] > 8
    screenshot(page, "state_file_too_large")
    assert page.get_by_label("Data set", exact=True).input_value().startswith("Edible")
    # a broken file: its message, visible; the data shown unchanged
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
    # a good file: read, and the data the Compare page opens on
    upload(page, {"name": "fruit.csv", "mimeType": "text/csv", "buffer": IRISH.encode()})
    page.wait_for_selector("text=Read as: 12 rows x 4 columns", timeout=30_000)
    wait_for_tree(page)
    # go to Compare through the sidebar (same session; a new URL would be a new session)
    page.locator("[data-testid='stSidebarNav'] a[href$='Compare_measures']").click()
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
