"""The home page loads in a real browser."""

import pytest

from .conftest import screenshot, wait_for_app

pytestmark = pytest.mark.browser


def test_home_page_renders(page, app_url):
    page.goto(app_url)
    wait_for_app(page)
    assert page.get_by_text("offcenter").first.is_visible()
    assert page.locator("[data-testid='stException']").count() == 0
    screenshot(page, "home")
