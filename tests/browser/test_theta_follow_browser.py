"""θ follows the hand on Two classes (issue 33), in a real headless Chromium.

The page's websocket is wrapped so that the test can hold back what the browser sends: with the
rerun requests held, arrow keys on the θ slider must already have redrawn the figure (the
off-centered curves peak at the new θ, the θ line and its label moved) while the server has
heard nothing (the address still has the old θ). Once the held messages go, the server's run
must leave the readout, the address and the figure right for the last θ.

One page session a page link: the figure-2 link (first, its readable type and final margins,
once other modules' loads of the same link) walks θ's held keys, then quick presses, then the
p cursor; the β link walks β's held keys, then one more β press's colour and dash; q classes'
p₁ cursor is checked on test_curves_browser.py's load of ``/Q_classes``
(:func:`check_q_classes_p1_cursor_follows`). Each step starts from the page as the step before
left it, settled (the server's run for the last value over).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from offcenter.app.curve_pages import PRESETS, TWO_CLASS_SCHEMA, page_specs
from offcenter.measures.curves import binary_values_at

from .conftest import screenshot, wait_for_app, wait_for_drawing
from .test_classroom_browser import assert_final_margins, check_fig2_readable

pytestmark = pytest.mark.browser

FIG2 = "/Two_classes?measures=daroczy,rank_diversity,asymmetric&version=oc&beta=0&betas=0.5,1,2,5&rho=0"

# Before the page's scripts: window.__hold.on = true keeps what the page sends in a queue,
# window.__hold.flush() sends it, in order.
HOLD = r"""(() => {
  const H = window.__hold = {on: false, queue: [], sent: 0};
  const WS = window.WebSocket;
  class HeldWebSocket extends WS {
    send(d) {
      if (H.on) { H.queue.push([this, d]); return; }
      H.sent++;
      return super.send(d);
    }
  }
  H.flush = () => { H.on = false; for (const [ws, d] of H.queue.splice(0)) ws.send(d); };
  window.WebSocket = HeldWebSocket;
})()"""

# The off-centered Daroczy (β = 2) curve of the figure: p at its maximum, its number of points;
# the θ label's text.
PEAK = """() => {
  const gd = document.querySelector('.oc-follow-figure');
  const t = gd.data.find((d) => d.name === 'off-centered Daroczy (β = 2)');
  let k = 0;
  for (let i = 1; i < t.y.length; i++) if (t.y[i] > t.y[k]) k = i;
  const label = [...gd.querySelectorAll('.annotation-text')].map((e) => e.textContent)
    .find((s) => s.startsWith('θ'));
  return [t.x[k], t.x.length, label];
}"""


def open_held(page, url):
    """Open ``url`` with :data:`HOLD` installed before the page's scripts (off until a test turns
    it on); wait for the θ-follow figure and the app's run."""
    page.add_init_script(HOLD)
    page.goto(url)
    page.wait_for_selector(".oc-follow-figure .scatterlayer .trace", timeout=120_000)
    wait_for_app(page)
    page.wait_for_function(
        "() => window.Plotly && document.querySelector('.oc-follow-figure').data"
    )


def _readout(page) -> dict[str, float]:
    rows = page.locator("[data-testid='stTable'] tbody tr").all_inner_texts()
    out = {}
    for row in rows:
        name, value = row.rsplit("\t", 1)
        out[name.strip()] = float(value)
    return out


def test_arrow_keys_redraw_the_figure_before_the_server_hears(page, app_url):
    """First, on this load of the paper's Fig. 2 link (presentation mode off, θ at its default
    0.2), the checks of two tests that once opened the same link on their own loads of a
    1400x1000 page (the page's websocket is not held yet): Figure 2 readable at 14 px
    (test_classroom_browser.py's test_two_classes_normal_readable_animated_and_clicked, its last
    load) and drawn with its final margins (test_curves_browser.py's
    test_two_classes_figure_is_drawn_with_its_final_margins, one of its views)."""
    open_held(page, app_url + FIG2)
    wait_for_drawing(page)
    assert page.locator("[data-testid='stException']").count() == 0
    check_fig2_readable(page, "0", 14)
    assert_final_margins(page, FIG2.split("?", 1)[1] + "&present=false")
    x, n_server, label = page.evaluate(PEAK)
    assert x == pytest.approx(0.2) and label == "θ = 0.2"
    assert n_server > 101  # the server's fine grid
    slider = page.get_by_role("slider", name=re.compile(r"^θ: the off-centering point")).first
    slider.focus()
    page.evaluate("() => { window.__hold.on = true; }")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => ({PEAK})()[2] === 'θ = 0.23'", timeout=10_000)
    x, n, label = page.evaluate(PEAK)
    assert x == pytest.approx(0.23)  # the curves moved, in the browser
    assert n == 101  # the browser's frames, not a server figure
    assert "theta=0.23" not in page.evaluate("() => location.search")
    # the slider's thumb shows it too
    assert (
        page.locator(".st-key-tc_theta [data-testid='stSliderThumbValue']").inner_text() == "0.23"
    )
    # once the keys rest, one message for the server (held back here), not one per press
    page.wait_for_function("() => window.__hold.queue.length >= 1", timeout=10_000)
    page.wait_for_timeout(1000)
    assert page.evaluate("() => window.__hold.queue.length") == 1
    screenshot(page, "theta_follow_before_server")

    page.evaluate("() => window.__hold.flush()")
    page.wait_for_function("() => location.search.includes('theta=0.23')", timeout=60_000)
    wait_for_app(page)
    page.wait_for_function(f"() => ({PEAK})()[1] > 101", timeout=60_000)  # the server's figure
    x, _n, label = page.evaluate(PEAK)
    assert x == pytest.approx(0.23) and label == "θ = 0.23"
    # the readout is the package's values at the cursor for the last θ
    values = {**TWO_CLASS_SCHEMA.defaults(), **PRESETS["fig2"]["values"], "theta": 0.23}
    raw, oc = page_specs(values)
    expected = binary_values_at(raw + oc, 0.23, 0.1)
    shown = _readout(page)
    for name, value in zip(expected["curve"], expected["value"]):
        assert shown[name] == pytest.approx(float(value), abs=1e-4), name
    assert np.isfinite(list(shown.values())).all()
    screenshot(page, "theta_follow_after_server")
    _quick_presses_end_on_the_last_theta(page)
    _the_cursor_line_follows_its_slider_before_the_server_hears(page)


def _quick_presses_end_on_the_last_theta(page):
    """Presses faster than the server's reruns (from θ = 0.23, five to the left): once the page
    is idle, the link, the θ label and the curves agree on the last θ (no stale figure drawn
    over the hand's). Formerly ``test_quick_presses_end_on_the_last_theta``, from its own
    page load at θ = 0.5."""
    slider = page.get_by_role("slider", name=re.compile(r"^θ: the off-centering point")).first
    slider.focus()
    for _ in range(5):
        page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => location.search.includes('theta=0.18')", timeout=60_000)
    wait_for_app(page)
    page.wait_for_function(f"() => ({PEAK})()[1] > 101", timeout=60_000)
    x, _n, label = page.evaluate(PEAK)
    assert x == pytest.approx(0.18) and label == "θ = 0.18"
    assert page.locator("[data-testid='stException']").count() == 0


def _the_cursor_line_follows_its_slider_before_the_server_hears(page):
    """The p cursor's line and label move with its slider in the browser; the readout comes with
    the server's run. Formerly ``test_the_cursor_line_follows_its_slider_before_the_server_hears``,
    from its own page load of Two classes' defaults (the cursor at 0.1 there as here)."""
    labels = (
        "() => [...document.querySelectorAll('.oc-follow-figure .annotation-text')]"
        ".map((e) => e.textContent)"
    )
    assert "cursor 0.1" in page.evaluate(labels)
    slider = page.get_by_role("slider", name=re.compile(r"^p cursor")).first
    slider.focus()
    page.evaluate("() => { window.__hold.on = true; }")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => ({labels})().includes('cursor 0.12')", timeout=10_000)
    assert "cursor=0.12" not in page.evaluate("() => location.search")
    # once the keys rest, one message for the server, not one per press
    page.wait_for_function("() => window.__hold.queue.length >= 1", timeout=10_000)
    page.wait_for_timeout(1000)
    assert page.evaluate("() => window.__hold.queue.length") == 1
    page.evaluate("() => window.__hold.flush()")
    page.wait_for_function("() => location.search.includes('cursor=0.12')", timeout=60_000)
    wait_for_app(page)
    page.get_by_text("Values at p = 0.12").first.wait_for(timeout=60_000)
    assert "cursor 0.12" in page.evaluate(labels)


# The curves of the β slider: the off-centered and uncentered Daroczy curves' names, the
# off-centered one's p at its maximum and value there, its number of points.
BETA_CURVES = """() => {
  const gd = document.querySelector('.oc-follow-figure');
  const oc = gd.data.find((d) => d.name.startsWith('off-centered Daroczy'));
  const raw = gd.data.find((d) => d.name.startsWith('Daroczy'));
  let k = 0;
  for (let i = 1; i < oc.y.length; i++) if (oc.y[i] > oc.y[k]) k = i;
  return [oc.name, raw.name, oc.x[k], oc.y[k], oc.x.length];
}"""
BETA_URL = "/Two_classes?measures=daroczy&version=both&beta=2&theta=0.3&cursor=0.6"


def test_beta_keys_redraw_the_curves_before_the_server_hears(page, app_url):
    """β (a sidebar slider) follows the hand: arrow keys on it restyle the Daroczy curves and
    their legend labels in the browser, one message goes to the server once the keys rest,
    and then the figure, the readout and the link are the package's for the last β."""
    from offcenter.measures.curves import binary_curves
    from offcenter.measures.settings import MeasureSetting

    open_held(page, app_url + BETA_URL)
    oc_name, raw_name, x, _y, n_server = page.evaluate(BETA_CURVES)
    assert (oc_name, raw_name) == ("off-centered Daroczy (β = 2)", "Daroczy (β = 2)")
    assert x == pytest.approx(0.3) and n_server > 101
    slider = page.get_by_role("slider", name=re.compile(r"^β")).first
    slider.focus()
    page.evaluate("() => { window.__hold.on = true; }")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.wait_for_function(
        f"() => ({BETA_CURVES})()[0] === 'off-centered Daroczy (β = 2.3)'", timeout=10_000
    )
    oc_name, raw_name, x, y, n = page.evaluate(BETA_CURVES)
    assert raw_name == "Daroczy (β = 2.3)" and n == 101  # the browser's frames
    # the curve drawn is the package's β = 2.3 curve at the page's θ (16-bit frames)
    spec = MeasureSetting("daroczy", theta="prior", beta=2.3)
    ref = binary_curves([spec], 0.3, [0.3])[spec.key].iloc[0]
    assert x == pytest.approx(0.3) and y == pytest.approx(ref, abs=1e-4)
    assert "beta=2.3" not in page.evaluate("() => location.search")
    assert page.locator(".st-key-tc_beta [data-testid='stSliderThumbValue']").inner_text() == "2.30"
    page.wait_for_function("() => window.__hold.queue.length >= 1", timeout=10_000)
    page.wait_for_timeout(1000)
    assert page.evaluate("() => window.__hold.queue.length") == 1
    screenshot(page, "beta_follow_before_server")

    page.evaluate("() => window.__hold.flush()")
    page.wait_for_function("() => location.search.includes('beta=2.3')", timeout=60_000)
    wait_for_app(page)
    page.wait_for_function(f"() => ({BETA_CURVES})()[4] > 101", timeout=60_000)
    oc_name, raw_name, x, _y, _n = page.evaluate(BETA_CURVES)
    assert (oc_name, raw_name) == ("off-centered Daroczy (β = 2.3)", "Daroczy (β = 2.3)")
    assert x == pytest.approx(0.3)
    values = {
        **TWO_CLASS_SCHEMA.defaults(),
        "measures": ("daroczy",),
        "beta": 2.3,
        "theta": 0.3,
    }
    raw, oc = page_specs(values)
    expected = binary_values_at(raw + oc, 0.3, 0.6)
    page.wait_for_function(  # the readout of the page's run for β = 2.3 (a whole-page run)
        "() => [...document.querySelectorAll(\"[data-testid='stTable'] tbody tr\")]"
        ".some((r) => r.innerText.includes('β = 2.3'))",
        timeout=60_000,
    )
    wait_for_app(page)
    shown = _readout(page)
    assert set(shown) == set(expected["curve"])
    for name, value in zip(expected["curve"], expected["value"]):
        assert shown[name] == pytest.approx(float(value), abs=1e-4), name
    assert page.locator(".st-key-tc_beta [data-testid='stSliderThumbValue']").inner_text() == "2.30"
    assert page.locator("[data-testid='stException']").count() == 0
    screenshot(page, "beta_follow_after_server")
    _beta_keys_restyle_the_curves_colour_and_dash_before_the_server_hears(page)


def check_q_classes_p1_cursor_follows(page) -> None:
    """q classes: the p₁ cursor's line and label move with its slider in the browser (the same
    component as Two classes'), and its keys send one value once they rest; once sent, the link
    and the server's figure have it. On ``/Q_classes`` just opened by :func:`open_held` (the
    cursor at 0.5). Once test_the_q_classes_p1_cursor_follows_its_slider_before_the_server_hears,
    on its own load of ``/Q_classes``: checked on test_curves_browser.py's
    test_q_classes_slider_and_tabs's load of the same link, first."""
    cursor = (
        "() => { const gd = document.querySelector('.oc-follow-figure');"
        " const label = [...gd.querySelectorAll('.annotation-text')].map((e) => e.textContent)"
        "   .find((s) => s.startsWith('cursor'));"
        " return [gd.layout.shapes[1].x0, label]; }"
    )
    assert page.evaluate(cursor) == [0.5, "cursor 0.5"]
    slider = page.get_by_role("slider", name=re.compile(r"^p1 cursor on the slice")).first
    slider.focus()
    page.evaluate("() => { window.__hold.on = true; }")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => ({cursor})()[1] === 'cursor 0.53'", timeout=10_000)
    assert page.evaluate(cursor)[0] == pytest.approx(0.53)  # the line moved, in the browser
    assert "cursor=0.53" not in page.evaluate("() => location.search")
    assert (
        page.locator(".st-key-qc_cursor [data-testid='stSliderThumbValue']").inner_text() == "0.53"
    )
    # once the keys rest, one message for the server (held back here), not one per press
    page.wait_for_function("() => window.__hold.queue.length >= 1", timeout=10_000)
    page.wait_for_timeout(1000)
    assert page.evaluate("() => window.__hold.queue.length") == 1
    screenshot(page, "q_cursor_follow_before_server")
    page.evaluate("() => window.__hold.flush()")
    page.wait_for_function("() => location.search.includes('cursor=0.53')", timeout=60_000)
    wait_for_app(page)
    x, label = page.evaluate(cursor)
    assert x == pytest.approx(0.53) and label == "cursor 0.53"
    # the server's run for 0.53: the component's data from the server has it
    page.wait_for_function(
        "() => document.querySelector('.oc-follow-figure').parentElement.__ocFollow.data.cursor"
        " === 0.53",
        timeout=60_000,
    )
    assert page.locator("[data-testid='stException']").count() == 0
    screenshot(page, "q_cursor_follow_after_server")


def _beta_keys_restyle_the_curves_colour_and_dash_before_the_server_hears(page):
    """The first frame of a β move (from β = 2.3 to 2.4) already has the new β's colour and
    dash (a setting's style comes from its key, which holds β): the same as the server's
    figure draws once it hears. Formerly
    ``test_beta_keys_restyle_the_curves_colour_and_dash_before_the_server_hears``, from its
    own page load of the same link (β = 2 to 2.1)."""
    from offcenter.viz.styles import setting_style

    style = """() => {
      const gd = document.querySelector('.oc-follow-figure');
      const t = gd.data.find((d) => d.name.startsWith('off-centered Daroczy'));
      return [t.name, t.line.color, t.line.dash, t.x.length];
    }"""
    old = setting_style("oc_daroczy_b2.3")
    new = setting_style("oc_daroczy_b2.4")
    assert [old.color, old.dash] != [new.color, new.dash]  # a move the eye sees
    assert page.evaluate(style)[1:3] == [old.color, old.dash]
    slider = page.get_by_role("slider", name=re.compile(r"^β")).first
    slider.focus()
    page.evaluate("() => { window.__hold.on = true; }")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        f"() => ({style})()[0] === 'off-centered Daroczy (β = 2.4)'", timeout=10_000
    )
    name, color, dash, n = page.evaluate(style)
    assert n == 101 and [color, dash] == [new.color, new.dash]  # the browser's first frame
    page.evaluate("() => window.__hold.flush()")
    page.wait_for_function("() => location.search.includes('beta=2.4')", timeout=60_000)
    wait_for_app(page)
    page.wait_for_function(f"() => ({style})()[3] > 101", timeout=60_000)  # the server's
    assert page.evaluate(style)[1:3] == [new.color, new.dash]
