"""Classroom mode in a real Chromium: presentation type, phone width, a click that sets the p
cursor, and the theta animation that runs in the browser without a server rerun.

The normal Two classes page is opened once for its type, its animation, its click, and the
curve module's θ move and Figure 2 walk (one walk). Some of this module's checks run on other
modules' loads of the same links: the Two classes page and the ternary in presentation mode at
1400x900 (test_presentation_browser.py, test_curves_browser.py), the paper's Fig. 2 link
(test_theta_follow_browser.py). The tests' pages are the session's lent tabs (tests/browser/conftest.py's ``page`` and
``phone``); each test opens its own addresses, so none depends on another's state.

Screenshots go to tests/artifacts/classroom_*.png (1400x1000 normal and presentation, 390x844).
"""

from __future__ import annotations

import re
import time

import pytest

from .conftest import ARTIFACTS, inside, wait_for_app, wait_for_drawing
from .test_navigation_browser import check_phone_layout

pytestmark = pytest.mark.browser

FIG2 = (
    "theta=0.2&measures=daroczy,rank_diversity,asymmetric&version=oc&beta=0&betas=0.5,1,2,5&rho=0"
)
Q10 = "q=10&theta=0.3,0.2,0.1,0.1,0.05,0.05,0.05,0.05,0.05,0.05"

# Bounding boxes (page px) of a figure's plotting area, legend, axis titles and tick labels.
_GEOMETRY = """(i) => {
  const g = document.querySelectorAll('.js-plotly-plot')[i];
  const box = (el) => { if (!el) return null; const r = el.getBoundingClientRect();
    return {x0: r.left, y0: r.top, x1: r.right, y1: r.bottom}; };
  const all = (sel) => Array.from(g.querySelectorAll(sel)).map(box);
  const sizes = Array.from(g.querySelectorAll('.xtick text, .ytick text, .legendtext, .g-xtitle text, .g-ytitle text'))
    .map(t => parseFloat(t.style.fontSize || getComputedStyle(t).fontSize));
  const fills = Array.from(g.querySelectorAll('.xtick text, .ytick text, .legendtext'))
    .map(t => t.style.fill || getComputedStyle(t).fill);
  return {plot: box(g.querySelector('.nsewdrag')), legend: box(g.querySelector('.legend .bg')),
          xtitle: box(g.querySelector('.g-xtitle')), ytitle: box(g.querySelector('.g-ytitle')),
          items: all('.legend .traces'), sizes: sizes, fills: fills,
          figure: box(g), viewport: {w: window.innerWidth, h: window.innerHeight}};
}"""


def _overlap(a, b) -> bool:
    if a is None or b is None:
        return False
    return (
        a["x0"] < b["x1"] - 1
        and b["x0"] < a["x1"] - 1
        and a["y0"] < b["y1"] - 1
        and b["y0"] < a["y1"] - 1
    )


def _open(page, path: str):
    runs = getattr(page, "_script_runs", None)
    started = runs.started if runs is not None else None
    page.goto(path)
    if runs is not None:  # a run of the new page's session began (not the last page's)
        bound = time.monotonic() + 120  # a bound on a loaded machine, not a settle
        while runs.started <= started:
            assert time.monotonic() < bound, f"no run of {path} started in 120 s"
            page.wait_for_timeout(20)  # lets Playwright deliver the websocket's frames
    wait_for_app(page)
    page.wait_for_selector(
        ".js-plotly-plot .scatterlayer .trace, .js-plotly-plot .contourlayer", timeout=120_000
    )
    wait_for_drawing(page)
    assert page.locator("[data-testid='stException']").count() == 0


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"classroom_{name}.png"))


def _shot_plot(page, index: int, name: str) -> None:
    plot = page.locator(".js-plotly-plot").nth(index)
    plot.scroll_into_view_if_needed()
    wait_for_drawing(page)
    plot.screenshot(path=str(ARTIFACTS / f"classroom_{name}.png"))


def _check_readable(page, index: int, least: float) -> dict:
    geo = page.evaluate(_GEOMETRY, index)
    assert geo["sizes"] and min(geo["sizes"]) >= least, geo["sizes"]
    # dark text (no light grey ticks): every channel below 0x40
    for fill in geo["fills"]:
        rgb = [int(v) for v in fill.replace("rgb(", "").replace(")", "").split(",")[:3]]
        assert max(rgb) < 64, fill
    # the legend is outside the plotting area and off the axis titles
    assert not _overlap(geo["legend"], geo["plot"])
    assert not _overlap(geo["legend"], geo["xtitle"])
    assert not _overlap(geo["legend"], geo["ytitle"])
    # nothing sticks out of the figure horizontally
    fig = geo["figure"]
    for item in geo["items"]:
        assert item["x1"] <= fig["x1"] + 1
    return geo


# The figure's final margins (after Plotly's automargin) against the layout's own.
_MARGINS = (
    "() => { const g = document.querySelector('.js-plotly-plot'); const z = g._fullLayout._size;"
    " return [z.l, z.b, g.layout.margin.l, g.layout.margin.b]; }"
)


def assert_final_margins(page, query: str) -> None:
    """The first figure of a Two classes page showing ``query``'s view: its final left and
    bottom margins (after Plotly's automargin) are the layout's own."""
    page.wait_for_selector(".js-plotly-plot .scatterlayer .trace")
    wait_for_drawing(page)
    final_l, final_b, preset_l, preset_b = page.evaluate(_MARGINS)
    assert (final_l, final_b) == (preset_l, preset_b), query


def _two_classes_readable(page, present: str, least: float) -> None:
    """The Two classes page of ``present`` (just opened): readable figure, the readout beside
    it and visible without scrolling (normal) or under it (presentation: the figure takes the
    whole width)."""
    _check_readable(page, 0, least)
    # the readout: beside the figure and visible without scrolling; in presentation mode the
    # figure takes the whole width and the readout follows it
    readout = page.get_by_text("Values at p = 0.10")
    box = readout.bounding_box()
    plot = page.locator(".js-plotly-plot").first.bounding_box()
    if present == "0":
        assert box["x"] > plot["x"] + plot["width"] - 5
        assert box["y"] + box["height"] < 1000
    else:
        assert box["y"] > plot["y"] + plot["height"] - 5
    _shot(page, f"two_classes_fig1_present{present}")


def test_two_classes_normal_readable_animated_and_clicked(page, app_url):
    """One walk on the normal Two classes page (``present=0``, theta at its default 0.2: the
    page of ``/Two_classes``): drawn with its final margins and Figure 1's wrapped title;
    readable (type of 14 px at least, dark, legend clear, readout beside); Play animates θ in
    the browser without a server rerun; with the animation off again, a click on the plot sets
    the p cursor; then θ moved with the keyboard (0.2 to 0.3) re-renders the figure, and the
    Figure 2 button, its derivatives and the second derivative. Once two tests on two loads of
    the same page: test_curves_browser.py's
    test_two_classes_slider_rerenders_then_figure_2_and_derivatives (its margins, title, θ move
    and Figure 2 walk: :func:`~tests.browser.test_curves_browser.check_theta_move_then_figure_2`)
    took its own load of ``/Two_classes``. The paper's Fig. 2 link, readable, is checked on
    test_theta_follow_browser.py's load of the same link
    (test_arrow_keys_redraw_the_figure_before_the_server_hears)."""
    from .test_curves_browser import check_theta_move_then_figure_2  # (it imports this module)

    sent: list[str] = []

    def on_frame(payload):
        sent.append("x")

    def on_ws(ws):
        ws.on("framesent", on_frame)

    page.on("websocket", on_ws)  # (removed when the test ends: conftest.SharedPage)
    _open(page, f"{app_url}/Two_classes?present=0")
    # the default view (theta=0.2, presentation off) laid out once with its final margins
    assert_final_margins(page, "theta=0.2&present=false")
    # the thumbnail's title is wrapped in two lines (two SVG text spans)
    assert page.get_by_text("Fig. 1. Off-centered,").count() >= 1
    assert page.get_by_text("asymmetric and Shannon's entropies").count() >= 1
    _two_classes_readable(page, "0", 14)
    _play_animates_theta_without_a_server_rerun(page, sent)
    page.get_by_text("Animate θ").click()  # the animation off: the page as it opened
    wait_for_app(page)
    page.wait_for_function("() => !document.querySelector('.js-plotly-plot .updatemenu-button')")
    wait_for_drawing(page)
    _click_on_the_plot_sets_the_cursor(page)
    check_theta_move_then_figure_2(page)


def check_two_classes_presentation_readable(page) -> None:
    """The Two classes page of ``/Two_classes?present=1`` just opened on a 1400 px wide page:
    readable at 20 px, the readout under the figure. Once test_two_classes_presentation_
    readable's first load (1400x1000); checked on test_presentation_browser.py's load of the
    same link at 1400x900 (the figure's height is fixed in px and its width is the main area's:
    the same figure)."""
    _two_classes_readable(page, "1", 20)


def check_fig2_readable(page, present: str, least: float) -> None:
    """The paper's Fig. 2 link of ``present`` just opened (``/Two_classes?present=...`` and
    Figure 2's settings, theta at its default 0.2): readable too."""
    _check_readable(page, 0, least)
    _shot(page, f"two_classes_fig2_present{present}")


def test_q_classes_ten_classes_readable(page, app_url):
    """Ten classes, readable with presentation mode off (14 px) and on (20 px): the slice, the
    transform's bars and maps, the theta boxes whole. Opened with it off; then the sidebar's
    toggle switches it on (the link then says ``present=1``; once a second load of the link
    with ``present=1``, the test's ``[1-20]`` case): the transform tab's figures checked again,
    then the slice's."""
    _open(page, f"{app_url}/Q_classes?present=0&{Q10}")
    _q10_slice_readable(page, "0", 14)
    page.get_by_role("tab", name="The transform").click()
    _q10_transform_readable(page, "0", 14)
    page.locator("[data-testid='stSidebar']").get_by_text("Presentation mode").click()
    wait_for_app(page)
    page.wait_for_url(re.compile(r"[?&]present=1(&|$)"))
    assert "q=10" in page.url and "tab=transform" in page.url, page.url
    assert page.get_by_role("tab", name="The transform").get_attribute("aria-selected") == "true"
    _q10_transform_readable(page, "1", 20)
    page.get_by_role("tab", name="Slice through θ").click()
    wait_for_app(page)
    page.wait_for_function(
        "() => document.querySelectorAll('.js-plotly-plot').length === 1"
        " && !document.querySelector('.js-plotly-plot .barlayer')"
    )
    wait_for_drawing(page)
    assert page.locator("[data-testid='stException']").count() == 0
    _q10_slice_readable(page, "1", 20)


def _q10_slice_readable(page, present: str, least: float) -> None:
    _check_readable(page, 0, least)
    _shot(page, f"q10_slice_present{present}")


def _q10_transform_readable(page, present: str, least: float) -> None:
    """The transform tab (just clicked, or its page just rerun): its bars and maps readable,
    the bars' ticks 1 to 10, the theta boxes whole."""
    # lazy tabs: the transform's two figures replace the slice's
    wait_for_app(page)
    page.wait_for_function(
        "() => document.querySelectorAll('.js-plotly-plot').length === 2"
        " && document.querySelectorAll('.js-plotly-plot .barlayer .point').length > 0"
    )
    wait_for_drawing(page)
    assert page.locator("[data-testid='stException']").count() == 0
    for i, name in ((0, "bars"), (1, "maps")):
        geo = _check_readable(page, i, least)
        _shot_plot(page, i, f"q10_{name}_present{present}")
        if name == "bars":
            ticks = page.evaluate(
                "(i) => Array.from(document.querySelectorAll('.js-plotly-plot')[i]"
                ".querySelectorAll('.xtick text')).map(t => t.textContent)",
                i,
            )
            assert ticks == [str(j) for j in range(1, 11)]
        assert len(geo["items"]) >= 4
    # the theta boxes show every value (not clipped by the sidebar)
    sb = page.locator("[data-testid='stSidebar']").bounding_box()
    boxes = page.locator("[data-testid='stSidebar'] [data-testid='stNumberInput'] input")
    assert boxes.count() == 10
    for i in range(10):
        eb = boxes.nth(i).bounding_box()
        assert eb["x"] + eb["width"] <= sb["x"] + sb["width"] + 1


def check_ternary_view(page, present: str) -> None:
    """The ternary tab just opened on a 1400 px wide page of ``present``: its annotations
    (θ's maximum among them) at 20 px and more in presentation mode, 14 px and more without.
    Once test_ternary_view, on its own loads of ``/Q_classes?present=1`` and ``?present=0``
    (1400x1000, the tab clicked): with presentation mode off on test_curves_browser.py's
    test_q_classes_slider_and_tabs's load of ``/Q_classes`` (its tab clicked; the p1 cursor it
    moved first is not drawn on the ternary), on at 1400x900 on
    test_figure_text_whole_and_clear_of_the_toolbar[ternary-projector]'s load of
    ``/Q_classes?present=1&tab=ternary`` (the figure's height is fixed in px and its width is
    the main area's: the same figure)."""
    page.wait_for_selector(".js-plotly-plot .contourlayer")
    wait_for_drawing(page)
    index = page.evaluate(
        "() => Array.from(document.querySelectorAll('.js-plotly-plot'))"
        ".findIndex(g => g.querySelector('.contourlayer .contour'))"
    )
    assert index >= 0
    text = page.evaluate(
        "(i) => Array.from(document.querySelectorAll('.js-plotly-plot')[i]"
        ".querySelectorAll('.annotation-text')).map(t => [t.textContent, parseFloat(t.style.fontSize)])",
        index,
    )
    labels = dict(text)
    assert "θ = maximum" in labels
    assert min(labels.values()) >= (20 if present == "1" else 14)
    _shot_plot(page, index, f"ternary_present{present}")


# Bounding boxes (page px) of a figure's svg, its title (the legend's title: the curve figures
# head their legend with it), x axis title, toolbar (modebar) and the legend's clip rectangle.
_TITLE_BOXES = """(i) => {
  const g = document.querySelectorAll('.js-plotly-plot')[i];
  const box = (el) => { if (!el) return null; const r = el.getBoundingClientRect();
    return {x0: r.left, y0: r.top, x1: r.right, y1: r.bottom}; };
  const mb = g.querySelector('.modebar');
  const shown = mb && getComputedStyle(mb.querySelector('.modebar-group')).opacity !== '0';
  return {svg: box(g.querySelector('.main-svg')), title: box(g.querySelector('.legendtitletext')),
          text: (g.querySelector('.legendtitletext') || {}).textContent || '',
          xtitle: box(g.querySelector('.g-xtitle')), modebar: shown ? box(mb) : null,
          legend: box(g.querySelector('.legend .bg'))};
}"""


def test_phone_width(phone, app_url):
    """The q classes page's figure on a phone (390x844), first the page's phone layout
    (:func:`check_phone_width`). The Two classes page's Figure 1 and the paper's Fig. 2 link
    (once this test's loads of ``/Two_classes`` and ``/Two_classes?`` Figure 2's settings) are
    checked on test_curves_browser.py's phone loads of the same links with ``present=1``, which
    a phone does not apply (:func:`offcenter.app.presentation.is_on`: the page draws its normal
    sizes, the same page; those tests assert the normal type): test_phone_moves_theta_with_the_
    figure_in_view and test_figure_text_whole_and_clear_of_the_toolbar[fig2-phone]."""
    _open(phone, app_url + "/Q_classes")
    check_phone_width(phone, "q_classes", "/Q_classes")


def check_phone_width(page, name: str, path: str | None) -> None:
    """A curve page's figure just opened on a phone (390x844): inside the screen, its legend,
    title and x title whole and clear; first, when ``path`` is given, the page's phone layout
    (test_navigation_browser.py's test_phone_layout, once on its own load of the same link:
    :func:`check_phone_layout`, its screenshot named after ``path``)."""
    if path is not None:
        check_phone_layout(page, path)
    geo = page.evaluate(_GEOMETRY, 0)
    fig = geo["figure"]
    assert fig["x1"] <= 390 + 1, fig
    assert not _overlap(geo["legend"], geo["plot"])
    assert not _overlap(geo["legend"], geo["xtitle"])
    # nothing wider than the screen
    width = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollWidth")
    assert width <= 392, width
    # the figure's title and x axis title are whole: inside the svg and the legend's
    # box (Plotly clips the legend to it), clear of the toolbar (always shown on a
    # touch screen)
    boxes = page.evaluate(_TITLE_BOXES, 0)
    if name != "q_classes":  # the slice has no title
        assert boxes["text"].startswith("Fig. "), boxes["text"]
        assert inside(boxes["title"], boxes["svg"], tol=0.5), boxes
        assert inside(boxes["title"], boxes["legend"], tol=0.5), boxes
        assert not _overlap(boxes["title"], boxes["modebar"]), boxes
    assert inside(boxes["xtitle"], boxes["svg"], tol=0.5), boxes
    assert not _overlap(boxes["xtitle"], boxes["modebar"]), boxes
    _shot(page, f"phone_{name}")
    _shot_plot(page, 0, f"phone_{name}_plot")


def _plot_box(page, index: int = 0):
    return page.evaluate(_GEOMETRY, index)["plot"]


def _click_on_the_plot_sets_the_cursor(page) -> None:
    """On the normal Two classes page as it opens: a click on the plot at p = 0.7 moves the
    cursor there (the readout and the address follow)."""
    assert page.get_by_text("Values at p = 0.10").count() == 1
    plot = _plot_box(page)
    # the x axis runs from -0.01 to 1.01: p = 0.7 sits at (0.71 / 1.02) of the width
    x = plot["x0"] + (0.71 / 1.02) * (plot["x1"] - plot["x0"])
    y = plot["y0"] + 0.5 * (plot["y1"] - plot["y0"])
    page.mouse.move(x, y)
    page.wait_for_timeout(400)
    page.mouse.click(x, y)
    page.get_by_text("Values at p = 0.70").wait_for(timeout=30_000)
    wait_for_app(page)
    page.wait_for_url("**cursor=0.7*")
    _shot(page, "click_cursor_0.7")


def _play_animates_theta_without_a_server_rerun(page, sent: list[str]) -> None:
    """On the normal Two classes page as it opens (``sent``: the frames its websocket sent):
    Play runs θ through its frames in the browser, no message goes to the server meanwhile,
    and the table of values at the page's θ steps aside."""
    page.get_by_text("Animate θ").click()
    wait_for_app(page)
    page.wait_for_selector(".js-plotly-plot .updatemenu-button")
    wait_for_drawing(page)
    y_of = (
        "() => { const g = document.querySelector('.js-plotly-plot');"
        " return JSON.stringify(Array.from(g._fullData[1].y).slice(0, 400)); }"
    )
    theta_of = "() => document.querySelector('.js-plotly-plot')._fullData.at(-1).x[0]"
    before = page.evaluate(y_of)
    assert page.evaluate(theta_of) == pytest.approx(0.2)
    n_sent = len(sent)
    page.locator(".js-plotly-plot .updatemenu-button").first.click()
    seen = set()
    for _ in range(6):
        page.wait_for_timeout(150)
        seen.add(round(page.evaluate(theta_of), 2))
    page.wait_for_function(
        "() => document.querySelector('.js-plotly-plot')._fullData.at(-1).x[0] >= 0.97",
        timeout=60_000,
    )
    after = page.evaluate(y_of)
    assert after != before
    assert len(seen) >= 3, seen  # theta moved through several frames
    # no message went to the server while the animation ran: no rerun
    assert len(sent) == n_sent, len(sent) - n_sent
    # the table of values at the page's theta stepped aside (it would contradict the figure)
    assert page.get_by_text("Values at p = 0.10").count() == 0
    assert page.get_by_text("Values while θ moves").count() == 1
    _shot(page, "animation_end")
