"""The Compare measures page in headless Chromium at 1400x900: a quick run to the end, then,
in the same page session, an uploaded file refused for its class column
(test_upload_report_browser.py's :func:`refused_then_loaded`, formerly a page load of its own);
and a long run cancelled while it computes (the real Streamlit interruption, which AppTest can
only simulate). The windows are 1400x900 (1400x3000 formerly: Chromium drew the whole page at
every progress message; the charts are counted in the page, and the screenshots are of the
whole page)."""

import re

import pytest

from .conftest import screenshot, wait_for_app
from .test_upload_report_browser import refused_then_loaded

pytestmark = pytest.mark.browser


def open_page(page, app_url, query):
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(f"{app_url}/Compare_measures?{query}")
    wait_for_app(page)


def result_charts(page) -> int:
    """The run's charts: every Plotly chart but the bundled KEEL study's (the short answer's
    figure at the top, keyed ``*answer_fig``, and those in its expander: always on the page,
    not recomputed)."""
    charts = page.locator("[data-testid='stPlotlyChart']").count()
    study = page.locator("[data-testid='stExpander'] [data-testid='stPlotlyChart']").count()
    answer = page.locator("[class*='answer_fig'] [data-testid='stPlotlyChart']").count()
    return charts - study - answer


def click_button(page, label):
    page.get_by_role("button", name=label, exact=True).click()


def test_quick_run_shows_results_then_a_refused_upload(page, app_url):
    """A quick run on glass to the end; then, on the same page, a CSV refused for its class
    column shows its picker under its message, and loads with the picked column
    (:func:`refused_then_loaded`, formerly
    test_upload_report_browser.py's ``test_the_refused_files_picker_is_under_its_message_and_
    gone_after_the_load``, its own load of ``/Compare_measures``)."""
    open_page(page, app_url, "data=glass&settings=shannon,oc_shannon&folds=2&repeats=1&max_depth=2")
    click_button(page, "Run")
    page.get_by_text(re.compile(r"Done: 4/4 fits")).wait_for(timeout=120_000)
    wait_for_app(page)
    page.wait_for_selector("[data-testid='stPlotlyChart'] .js-plotly-plot", state="attached")
    assert result_charts(page) == 3
    assert page.get_by_text("Paired comparison with Shannon").count() == 1
    screenshot(page, "compare_quick_run")
    refused_then_loaded(page, "/Compare_measures")


def test_cancel_a_long_run_keeps_finished_folds(page, app_url):
    open_page(
        page,
        app_url,
        "data=german_credit&model=forest&trees=10&folds=5&repeats=3"
        "&settings=shannon,oc_shannon,gini",
    )
    click_button(page, "Run")
    # wait until at least one fold (3 fits) is finished, then cancel
    page.wait_for_function(
        "() => { const t = document.body.innerText.match(/(\\d+)\\/45 fits/);"
        " return t && parseInt(t[1]) >= 4; }",
        timeout=240_000,
    )
    click_button(page, "Cancel")
    page.get_by_text(re.compile(r"Cancelled after \d+ of 15 folds")).wait_for(timeout=120_000)
    wait_for_app(page)
    text = page.locator("[data-testid='stApp']").inner_text()
    done = int(re.search(r"Cancelled after (\d+) of 15 folds", text).group(1))
    assert 1 <= done < 15
    assert "CANCELLED: partial results" in text
    page.wait_for_selector(
        "[data-testid='stPlotlyChart'] .js-plotly-plot", state="attached", timeout=60_000
    )
    assert result_charts(page) == 3
    screenshot(page, "compare_cancelled")
