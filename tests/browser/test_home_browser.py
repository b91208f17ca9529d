"""The home page loads in a real browser."""

import pytest
from playwright.sync_api import expect

from .conftest import screenshot, wait_for_app

pytestmark = pytest.mark.browser


def test_home_page_renders(page, app_url):
    page.goto(app_url)
    wait_for_app(page)
    expect(page.get_by_role("heading", name="offcenter").first).to_be_visible()
    expect(page.get_by_text("How to read these curves").first).to_be_visible()
    # the Figure 1 thumbnail is drawn (Plotly renders an SVG with one group per trace)
    page.wait_for_selector(".js-plotly-plot .scatterlayer .trace")
    assert page.locator(".js-plotly-plot .scatterlayer .trace").count() >= 3
    assert page.locator("[data-testid='stException']").count() == 0
    screenshot(page, "home")
