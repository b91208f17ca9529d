"""Shared state end to end in headless Chromium, through the real upload widget: an upload on
Tree is the data Compare opens on; a broken file gets a visible message.

The walks have no page load of their own: they are walked in test_tree_browser.py's session on
``/Tree`` (``test_upload_grow_click_a_node_and_read_candidates``; formerly this module's
``test_refused_and_broken_files_get_messages_then_an_upload_is_compares_data``, its own load of
the same link and its own upload of the same file): :func:`refused_and_broken_files` after the
default's checks, :func:`an_upload_is_compares_data` at the end, after that session's upload.

A link with hand edits, a row traced by its values and a file over 50 MB are AppTest tests
(tests/app/test_tree_page_end_to_end.py): they need no browser."""

from pathlib import Path

import pytest

from . import test_tree_browser as tree_browser  # (a module: each imports the other)
from .conftest import screenshot, wait_for_app

pytestmark = pytest.mark.browser

BAD = Path(__file__).resolve().parents[1] / "data" / "bad_csv"


def refused_and_broken_files(page, tmp_path):
    """On ``/Tree`` as opened (the slides' edible table): a file over 50 MB is refused by the
    browser with a visible message (not a hover), then a broken file gets its message, the data
    shown staying the page's own after each (neither refused file changes the page's data).
    Once two tests, each on its own load of /Tree (test_a_file_over_50_mb_gets_a_visible_message_
    not_a_hover, test_a_broken_file_gets_a_visible_message)."""
    big = tmp_path / "big.csv"
    with open(big, "wb") as f:
        f.write(b"a,b\n")
        f.write(b"1,x\n" * (15_000_000 + 1000))  # 60 MB
    uploader = page.locator("[data-testid='stFileUploader']").first
    # the limit is said once, by the widget, and it is the one enforced (not 200 MB)
    assert "50MB per file" in uploader.inner_text()
    assert "200" not in uploader.inner_text() and "at most" not in uploader.inner_text()
    tree_browser.upload(page, str(big), sent=False)  # refused by the browser: never sent
    message = uploader.get_by_text("File must be 50.0MB or smaller")
    message.first.wait_for(timeout=60_000)
    message.first.scroll_into_view_if_needed()
    assert message.first.is_visible()  # under the file's chip, not only on hover
    box = message.first.bounding_box()
    assert box["width"] > 100 and box["height"] > 8
    screenshot(page, "state_file_too_large")
    assert page.get_by_label("Data set", exact=True).input_value().startswith("Edible")
    # a broken file: its message, visible; the data shown unchanged
    tree_browser.upload(page, str(BAD / "binary_png.csv"))
    alert = page.locator("[data-testid='stAlert']").filter(has_text="The file was not loaded")
    alert.first.wait_for(timeout=30_000)
    alert.first.scroll_into_view_if_needed()
    assert alert.first.is_visible()
    box = alert.first.bounding_box()
    assert box is not None and box["height"] > 20 and box["width"] > 200
    screenshot(page, "state_broken_file")
    # the previous data is still the one shown
    assert page.get_by_label("Data set", exact=True).input_value().startswith("Edible")


def an_upload_is_compares_data(page):
    """On the Tree page after the upload of ``fruit.csv`` (:data:`test_tree_browser.IRISH`,
    read as 12 rows x 4 columns): the Compare page, opened through the sidebar in the same
    session, opens on that file (formerly test_an_upload_on_tree_is_the_data_compare_opens_on)."""
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
