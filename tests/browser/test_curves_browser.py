"""End-to-end: the curve pages in a real headless Chromium (home, two classes, q classes).

Each test opens a page, checks the figure is drawn, moves a slider with the keyboard and checks
that the figure was re-rendered with new data, and keeps screenshots in tests/artifacts/.
"""

from __future__ import annotations

import pytest

from .conftest import ARTIFACTS, screenshot, wait_for_app

pytestmark = pytest.mark.browser


def _no_exception(page) -> None:
    assert page.locator("[data-testid='stException']").count() == 0


def _plot_count(page) -> int:
    return page.locator(".js-plotly-plot").count()


# Plotly 6+ ships arrays as {"dtype", "bdata"} objects: compare their JSON text.
_LAST_Y = (
    "(i) => { const g = document.querySelectorAll('.js-plotly-plot')[i];"
    " return g && g.data && g.data.length ? JSON.stringify(g.data[g.data.length - 1].y) : null; }"
)
_CHANGED = (
    "(old) => { const g = document.querySelector('.js-plotly-plot');"
    " const y = g && g.data && g.data.length ? JSON.stringify(g.data[g.data.length - 1].y) : null;"
    " return y !== null && y !== old; }"
)


def _first_trace_y(page, index: int = 0) -> str:
    """The y data of the last trace of the index-th Plotly figure, as JSON text from the DOM."""
    return page.evaluate(_LAST_Y, index)


def _shot_plot(page, index: int, name: str) -> None:
    """Screenshot one figure (the app scrolls inside its own container, so full-page
    screenshots do not reach figures further down)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    plot = page.locator(".js-plotly-plot").nth(index)
    plot.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    plot.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def _move_slider(page, label_start: str, presses: int, key: str = "ArrowRight") -> None:
    slider = page.get_by_role("slider", name=label_start).first
    slider.focus()
    for _ in range(presses):
        slider.press(key)
    wait_for_app(page)


def test_home_has_figure_1_and_cards(page, app_url):
    page.goto(app_url)
    wait_for_app(page)
    _no_exception(page)
    page.wait_for_selector(".js-plotly-plot")
    assert page.get_by_text("How to read these curves").is_visible()
    # the thumbnail's title is wrapped in two lines (two SVG text spans)
    assert page.get_by_text("Fig. 1. Off-centered,").count() >= 1
    assert page.get_by_text("asymmetric and Shannon's entropies").count() >= 1
    for title in ("Two classes", "q classes", "Tree", "Compare measures"):
        assert page.get_by_text(title, exact=True).count() >= 1
    screenshot(page, "curves_home")


def test_two_classes_slider_rerenders(page, app_url):
    page.goto(app_url + "/Two_classes")
    wait_for_app(page)
    _no_exception(page)
    page.wait_for_selector(".js-plotly-plot")
    # the thumbnail's title is wrapped in two lines (two SVG text spans)
    assert page.get_by_text("Fig. 1. Off-centered,").count() >= 1
    assert page.get_by_text("asymmetric and Shannon's entropies").count() >= 1
    before = _first_trace_y(page)
    screenshot(page, "curves_two_classes_fig1")
    # move theta from 0.20 to 0.30 with the keyboard
    _move_slider(page, "θ: the off-centering point", 10)
    page.wait_for_url("**theta=0.3")
    wait_for_app(page)
    assert before
    page.wait_for_function(_CHANGED, arg=before)
    _no_exception(page)
    screenshot(page, "curves_two_classes_theta_0.3")


# The figure's final margins (after Plotly's automargin) against the layout's own.
_MARGINS = (
    "() => { const g = document.querySelector('.js-plotly-plot'); const z = g._fullLayout._size;"
    " return [z.l, z.b, g.layout.margin.l, g.layout.margin.b]; }"
)


@pytest.mark.parametrize("present", ["false", "true"])
def test_two_classes_figure_is_drawn_with_its_final_margins(page, app_url, present):
    """The curves figure's preset left and bottom margins are the ones Plotly's automargin
    computes in this browser: the new figure of each theta move is laid out once, not redrawn
    for its axes (offcenter.viz.curves.AXIS_MARGINS)."""
    fig2 = "measures=daroczy,rank_diversity,asymmetric&version=oc&beta=0&betas=0.5,1,2,5&rho=0"
    for query in ("theta=0.2", fig2, "measures=gini&version=raw"):
        page.goto(f"{app_url}/Two_classes?{query}&present={present}")
        wait_for_app(page)
        page.wait_for_selector(".js-plotly-plot .scatterlayer .trace")
        page.wait_for_timeout(500)
        final_l, final_b, preset_l, preset_b = page.evaluate(_MARGINS)
        assert (final_l, final_b) == (preset_l, preset_b), query


def test_two_classes_figure_2_and_derivatives(page, app_url):
    page.goto(app_url + "/Two_classes")
    wait_for_app(page)
    page.get_by_role("button", name="Figure 2").click()
    wait_for_app(page)
    page.get_by_text("Fig. 2. Off-centering of generalised entropies").first.wait_for()
    _no_exception(page)
    screenshot(page, "curves_two_classes_fig2")
    page.get_by_text("Show derivatives (paper, section 3.2)").click()
    wait_for_app(page)
    page.wait_for_function("() => document.querySelectorAll('.js-plotly-plot').length >= 2")
    _no_exception(page)
    screenshot(page, "curves_two_classes_fig2_derivatives")
    _shot_plot(page, 1, "curves_two_classes_fig2_derivative_plot")
    page.get_by_text("second", exact=True).click()
    wait_for_app(page)
    page.wait_for_function(
        "() => { const g = document.querySelectorAll('.js-plotly-plot')[1];"
        " return g && g.layout && JSON.stringify(g.layout.yaxis.title).includes('second'); }"
    )
    page.wait_for_timeout(500)
    _no_exception(page)
    _shot_plot(page, 1, "curves_two_classes_fig2_second_derivative_plot")


def test_q_classes_slider_and_tabs(page, app_url):
    page.goto(app_url + "/Q_classes")
    wait_for_app(page)
    _no_exception(page)
    page.wait_for_selector(".js-plotly-plot")
    before = _first_trace_y(page)
    screenshot(page, "curves_q_classes_slice")
    _move_slider(page, "p1 cursor on the slice", 5)
    page.wait_for_url("**cursor=0.55*")
    _no_exception(page)
    # lazy tabs: a tab's figures are drawn when it is opened, and only its own
    page.get_by_role("tab", name="Ternary view (q = 3)").click()
    wait_for_app(page)
    page.wait_for_selector("[data-testid='stPlotlyChart'] .contour", timeout=30_000)
    screenshot(page, "curves_q_classes_ternary")
    page.get_by_role("tab", name="The transform").click()
    wait_for_app(page)
    page.wait_for_function(
        "() => document.querySelectorAll('.js-plotly-plot').length === 2"
        " && !document.querySelector('.js-plotly-plot .contour')",
        timeout=30_000,
    )
    screenshot(page, "curves_q_classes_transform")
    _shot_plot(page, 0, "curves_q_classes_transform_bars")
    _shot_plot(page, 1, "curves_q_classes_transform_maps")
    # q from 3 to 4: the slice is recomputed for the new theta
    page.get_by_role("tab", name="Slice through θ").click()
    _move_slider(page, "q: number of classes", 1)
    page.wait_for_url("**q=4*")
    wait_for_app(page)
    assert before
    page.wait_for_function(_CHANGED, arg=before)
    _no_exception(page)
    screenshot(page, "curves_q_classes_q4")


def test_shared_link_opens_the_exact_view(page, app_url):
    page.goto(app_url + "/Two_classes?theta=0.35&measures=gini,daroczy&version=side&betas=0.5,5")
    wait_for_app(page)
    _no_exception(page)
    page.wait_for_function("() => document.querySelectorAll('.js-plotly-plot').length >= 2")
    assert page.get_by_text("Uncentered").count() >= 1
    screenshot(page, "curves_two_classes_shared_link")
