"""Nothing cut in presentation mode at 1400x900, measured in Chromium: the Tree page's gain plot
keeps every legend entry whole ("off-centered Shannon, θ = prior (0.65, 0.35)", in two lines)
inside the figure, its "Divide each curve by its maximum" checkbox label is whole, the two
trees' text is 18 px or more, and the animation's θ label stays inside the plot when θ reaches
0.98. The gain plot and the two trees are checked on tests/browser/test_presentation_browser.py's
load of the same link (:func:`check_gain_plot_whole`, :func:`check_two_trees_text`).

Screenshots: tests/artifacts/present_cut_*.png.
"""

from __future__ import annotations

import pytest

from .conftest import ARTIFACTS, inside, wait_for_app, wait_for_drawing

pytestmark = pytest.mark.browser

FIG2 = "measures=daroczy,rank_diversity,asymmetric&version=oc&beta=0&betas=0.5,1,2,5&rho=0"

_LEGEND = r"""(key) => {
  const g = document.querySelector('.st-key-' + key + ' .js-plotly-plot');
  const box = (el) => { const r = el.getBoundingClientRect();
    return {x0: r.left, y0: r.top, x1: r.right, y1: r.bottom}; };
  return {figure: box(g), entries: Array.from(g.querySelectorAll('.legendtext'))
    .map(t => ({text: t.textContent, box: box(t)}))};
}"""

_THETA = r"""() => {
  const g = document.querySelector('.js-plotly-plot');
  const box = (el) => { const r = el.getBoundingClientRect();
    return {x0: r.left, y0: r.top, x1: r.right, y1: r.bottom}; };
  const label = Array.from(g.querySelectorAll('.scatterlayer .textpoint text'))
    .find(t => t.textContent.startsWith('θ ='));
  return {plot: box(g.querySelector('.draglayer .nsewdrag')), label: label && box(label),
          text: label && label.textContent, theta: g._fullData.at(-1).x[0]};
}"""


def _across(label: dict, plot: dict) -> bool:
    """The label lies across the plot's width (its top may touch the plot's top edge, where
    the θ line's label hangs from)."""
    return label["x0"] >= plot["x0"] - 1 and label["x1"] <= plot["x1"] + 1


def check_gain_plot_whole(page) -> None:
    """The gain plot's legend and checkbox whole, on a 1400x900 page open at
    ``/Tree?data=pima&setting=oc_shannon&present=1`` (checked by
    tests/browser/test_presentation_browser.py::test_tables_in_presentation_mode_are_large_and_
    hide_nothing on its load of that link)."""
    assert page.viewport_size == {"width": 1400, "height": 900}
    assert "/Tree?" in page.url, page.url
    for field in ("data=pima", "setting=oc_shannon", "present=1"):
        assert field in page.url, page.url
    page.get_by_role("tab", name="Own best splits and gain plot").click()
    page.wait_for_selector(".st-key-tr_thr_chart .js-plotly-plot .legendtext", timeout=180_000)
    wait_for_app(page)
    page.locator(".st-key-tr_thr_chart").scroll_into_view_if_needed()
    wait_for_drawing(page)
    geo = page.evaluate(_LEGEND, "tr_thr_chart")
    texts = [e["text"] for e in geo["entries"]]
    assert "off-centered Shannon,θ = prior (0.65, 0.35)" in texts, texts  # two lines, whole
    assert not any("…" in t for t in texts)
    for e in geo["entries"]:
        assert inside(e["box"], geo["figure"]), e
        assert e["box"]["x1"] <= 1400 and e["box"]["y1"] <= 900, e
    label = page.get_by_text("Divide each curve by its maximum", exact=True)
    assert label.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "present_cut_gain_plot.png"))


def test_the_animations_theta_label_stays_in_the_plot_at_the_end(projector, app_url):
    page = projector
    page.goto(app_url + f"/Two_classes?present=1&animate=1&theta=0.3&speed=fast&{FIG2}")
    wait_for_app(page)
    page.wait_for_selector(".js-plotly-plot .updatemenu-button")
    wait_for_drawing(page)
    start = page.evaluate(_THETA)
    assert start["text"] == "θ = 0.30" and _across(start["label"], start["plot"]), start
    page.locator(".js-plotly-plot .updatemenu-button").first.click()  # play to the end
    page.wait_for_function(
        "() => document.querySelector('.js-plotly-plot')._fullData.at(-1).x[0] >= 0.975",
        timeout=120_000,
    )
    # the last frame's label drawn (was a fixed 800 ms): its text, then the drawing still
    page.wait_for_function(f"() => ({_THETA})().text === 'θ = 0.98'", timeout=60_000)
    wait_for_drawing(page)
    end = page.evaluate(_THETA)
    assert end["text"] == "θ = 0.98", end
    assert _across(end["label"], end["plot"]), end
    page.screenshot(path=str(ARTIFACTS / "present_cut_theta_end.png"))


_PAIR = r"""(key) => {
  const g = document.querySelector('.st-key-' + key + ' .js-plotly-plot');
  if (!g) return null;
  const size = (t) => parseFloat(t.style.fontSize || getComputedStyle(t).fontSize);
  const r = g.getBoundingClientRect();
  return {
    figure: {x0: r.left, y0: r.top, x1: r.right, y1: r.bottom},
    title: Array.from(g.querySelectorAll('.annotation-text')).map(size),
    legend: Array.from(g.querySelectorAll('.legendtext, .legendtitletext')).map(size),
    nodes: Array.from(g.querySelectorAll('.scatterlayer .textpoint text')).map(size),
  };
}"""


def check_two_trees_text(page) -> None:
    """The Tree page's two trees (its section "Compare two trees" on), on a 1400x900 page of
    ``/Tree?data=pima&setting=oc_shannon&present=1`` with ``pair_on=1``: their titles, legends
    and node text at 18 px or more, each tree within the window's width. Once
    test_the_two_trees_text_is_18_px_or_more, on its own load of that link with ``pair_on=1``:
    checked on tests/browser/test_presentation_browser.py's load of the link, the section's
    toggle switched on (the link then says ``pair_on=1``; the section is a fragment: the same
    two trees)."""
    assert page.viewport_size == {"width": 1400, "height": 900}
    for field in ("/Tree?", "data=pima", "setting=oc_shannon", "present=1", "pair_on=1"):
        assert field in page.url, page.url
    page.wait_for_selector(".st-key-tr_pair_chart_b .js-plotly-plot .main-svg", timeout=240_000)
    wait_for_app(page)
    for key in ("tr_pair_chart_a", "tr_pair_chart_b"):
        page.locator(f".st-key-{key}").scroll_into_view_if_needed()
        wait_for_drawing(page)
        geo = page.evaluate(_PAIR, key)
        assert geo is not None, key
        assert geo["title"] and min(geo["title"]) >= 18, geo["title"]
        assert geo["legend"] and min(geo["legend"]) >= 18, geo["legend"]
        assert len(geo["nodes"]) >= 7 and min(geo["nodes"]) >= 18, geo["nodes"][:5]
        assert geo["figure"]["x1"] <= 1400
        page.screenshot(path=str(ARTIFACTS / f"present_cut_{key}.png"))
