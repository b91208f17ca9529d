"""An uploaded CSV in headless Chromium at 1400x900: a file refused for its class column shows
its class-column picker right under the refusal (on the Compare page too, where the upload box
stays collapsed), the picker is gone once the file is loaded, and the page then says what
reading did (missing cells, the markers read as missing, the decimal separator).

The walk (:func:`refused_then_loaded`) has no page load of its own: on the Compare page it
follows test_compare_browser.py's quick run (``test_quick_run_shows_results_then_a_refused_
upload``), on the Tree page it opens test_tree_browser.py's page session."""

import pytest
from playwright.sync_api import expect

from .conftest import ARTIFACTS, wait_for_app, wait_for_upload

pytestmark = pytest.mark.browser


def refused_csv() -> bytes:
    """Its last column has 300 values (not a class); 'group' can be the class. Column 'w' has
    decimal commas, 'b' missing cells ('?', empty, 'NA')."""
    rows = ["w;b;group;label"]
    for i in range(300):
        b = ["?", "", "NA", "3", "4"][i % 5]
        rows.append(f"{i % 7},{i % 4};{b};{'pq'[i % 2]};c{i}")
    return ("\n".join(rows) + "\n").encode()


def box(locator):
    b = locator.bounding_box()
    assert b is not None, "not drawn"
    return b


def refused_then_loaded(page, path):
    """On the page ``path`` open at 1400x900: the refused file's picker under its message, the
    button beside it, then the file loaded with the picked class column and what reading did."""
    expander = page.get_by_text("Upload your own CSV", exact=True)
    inp = page.locator("[data-testid='stFileUploader']").first.locator("input[type='file']")
    if not inp.count():  # the Compare page's upload box is collapsed
        expander.click()
        inp.wait_for(state="attached")
    inp.set_input_files({"name": "refused.csv", "mimeType": "text/csv", "buffer": refused_csv()})
    wait_for_upload(page, "refused.csv")  # sent to the server, and read by the run it asked for
    message = page.locator("[data-testid='stAlertContentError']").filter(has_text="not loaded")
    expect(message).to_be_visible()
    if path == "/Compare_measures":  # the box closes again: the picker must not be in it
        expander.click()
    picker = page.locator("[data-testid='stSelectbox']").filter(
        has_text="Class column for this file"
    )
    button = page.get_by_role("button", name="Load the file with this class column")
    expect(picker).to_be_visible()
    expect(button).to_be_visible()
    message.scroll_into_view_if_needed()
    m, p, b = box(message), box(picker), box(button)
    assert 0 <= p["y"] - (m["y"] + m["height"]) < 80, (m, p)  # right under the message
    # the button beside the picker, on its line
    assert (
        b["x"] > p["x"] + p["width"] - 1 and abs(b["y"] + b["height"] - p["y"] - p["height"]) < 12
    )
    name = path.strip("/").lower()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"upload-refused-{name}.png"))
    button.click()
    wait_for_app(page)
    expect(page.get_by_text("Class column for this file", exact=True)).to_have_count(0)
    expect(page.locator("[data-testid='stAlertContentError']")).to_have_count(0)
    notes = page.locator("[data-testid='stCaptionContainer']").filter(has_text="missing cells")
    notes.first.scroll_into_view_if_needed()
    text = notes.first.inner_text()
    assert "180 missing cells in 1 of 4 columns: “b” 180." in text
    assert "Read as missing: empty (60 cells), “?” (60 cells), “NA” (60 cells)." in text
    assert "Decimal separator: comma (“2,5” read as 2.5), in 1 column: “w”." in text
    page.screenshot(path=str(ARTIFACTS / f"upload-loaded-{name}.png"))
