"""Two classes: the paper's boolean case, Figures 1 and 2 and beyond (widgets and layout only)."""

import streamlit as st

from offcenter.app import urlstate
from offcenter.app.charts import chart_config, plotly_chart
from offcenter.app.curve_pages import (  # the curve data, cached per process
    ANIMATION_SPEEDS,
    ANIMATION_THETAS,
    PRESETS,
    TwoClassesState,
    cached_binary_curves,
    cached_binary_derivatives,
    cached_binary_figure,
    cached_binary_figure_json,
    cached_binary_values_at,
    cached_theta_frames_json,
    cached_theta_sweep,
    followed_params,
    matching_preset,
    page_specs,
)
from offcenter.app.curve_text import reconstruction_notes, y_axis_title
from offcenter.app.downloads import csv_button
from offcenter.app.measure_sidebar import formulas_section, measure_controls
from offcenter.app.navigation import ensure_router
from offcenter.app.presentation import is_on
from offcenter.app.theta_follow import follow_chart
from offcenter.viz.curves import (
    curve_keys,
    curves_figure,
    derivative_figure,
    file_stub,
    theta_animation_figure,
)

ensure_router()  # a first visit straight to this page still goes through app.py
st.set_page_config(page_title="Two classes - offcenter", layout="wide")

page = TwoClassesState()  # the page's session state (keys tc_*), named, and its callbacks

# A link's settings, else the ones the user left the page with (a page switch drops widget keys).
url_warnings = page.restore()
present = is_on()  # the toggle itself is drawn by navigation.run, for every page


def _chart(fig, stub_name: str, key: str) -> None:
    plotly_chart(
        fig,
        config=chart_config(stub_name),
        key=key,
        theme=None,
        on_select=lambda: page.clicked(key),
        selection_mode="points",
    )


def _sliders() -> None:
    """θ and the p cursor side by side in the main area, right above the figure: on a phone
    the sidebar slides over the page, so a slider there hid the figure it moves."""
    c_theta, c_cursor = st.columns(2)
    c_theta.slider(
        "θ: the off-centering point (where the maximum sits)"
        if not page.animate
        else "θ where the animation opens (▶ play in the figure sweeps it)",
        0.01,
        0.99,
        step=0.01,
        key="tc_theta",
    )
    c_cursor.slider("p cursor (or click on the figure)", 0.0, 1.0, step=0.01, key="tc_cursor")


INTRO = (
    "A node holds two classes in proportions (1 - p, p). Each curve is an uncertainty measure of "
    "that node as p goes from 0 (pure class 0) to 1 (pure class 1). Off-centering on θ moves "
    "the maximum from p = 1/2 to p = θ, so that a node with the *a priori* class "
    "distribution counts as the most uncertain one."
)
TITLE = "Two classes: the boolean case"
if not present:  # in presentation mode the figure comes first, on the projector's one screen
    st.title(TITLE)
    st.write(INTRO)
for w in urlstate.for_display(url_warnings):
    st.warning(w)

# ------------------------------------------------------------------ controls
with st.sidebar:
    st.header("Animation")
    st.toggle(
        "Animate θ (▶ play in the figure)",
        key="tc_animate",
        help="Adds a play button and a θ slider to the figure: θ sweeps from 0.02 to 0.98 "
        "in your browser, without asking the server.",
    )
    st.selectbox(
        "Speed",
        list(ANIMATION_SPEEDS),
        format_func=lambda k: ANIMATION_SPEEDS[k][0],
        key="tc_speed",
        disabled=not page.animate,
        help="slow: 5.9 s per sweep, normal: 2.9 s, fast: 1.6 s",
    )
    st.checkbox(
        "Loop",
        key="tc_loop",
        disabled=not page.animate,
        help="Sweep back and forth until ❚❚ pause",
    )
    st.header("Presets")
    c1, c2 = st.columns(2)
    c1.button(
        "Figure 1",
        on_click=page.preset,
        args=("fig1",),
        key="tc_btn_fig1",
        help="θ = 0.2: off-centered, asymmetric and Shannon entropies",
        width="stretch",
    )
    c2.button(
        "Figure 2",
        on_click=page.preset,
        args=("fig2",),
        key="tc_btn_fig2",
        help="θ = 0.2: off-centered generalized entropies, β = 0, 0.5, 1, 2, 5, "
        "ρ = 0, and the asymmetric entropy",
        width="stretch",
    )
    st.button("Reset to defaults", on_click=page.reset, key="tc_btn_reset", width="stretch")

    st.header("Parameters")
    measure_controls(page.prefix)  # measures, versions, beta, rho, consistent form
    st.header("Derivatives")
    st.checkbox("Show derivatives (paper, section 3.2)", key="tc_deriv")
    st.radio(
        "Derivative order",
        [1, 2],
        key="tc_order",
        horizontal=True,
        format_func=lambda o: "first" if o == 1 else "second",
        disabled=not page.deriv,
    )

values = page.values()  # θ and the cursor: their last values
raw_specs, oc_specs = page_specs(values)  # the measures: what the sidebar's widgets chose
specs = raw_specs + oc_specs

if not specs:
    _sliders()
    page.save()
    page.sync_out()
    st.info("Choose at least one measure in the sidebar (or a preset) to draw curves.")
    st.stop()

for _note in reconstruction_notes(specs):  # the registry's notes (the package's own text)
    st.info(_note)


@st.fragment
def figures(raw_specs: list, oc_specs: list) -> None:
    """θ, the p cursor, the figures, the readout and the derivatives: a fragment.

    Moving θ or the cursor (or clicking on a figure) reruns this part of the page alone: the
    measures, the presets and the formulas below do not change with them.
    """
    # presentation mode (a wide screen): the figure first, at the top of the page, and θ and
    # the cursor under it, so that a 1400x900 screen shows the whole figure with the
    # animation's buttons, and the sidebar's speed and loop, without scrolling
    above = st.container() if present else None
    _sliders()
    values = page.save()
    if page_specs(values) != (raw_specs, oc_specs):
        # the figure's keys set a measure parameter (β): the curves, formulas and sidebar change
        st.rerun(scope="app")
    page.sync_out()
    theta = float(values["theta"])
    specs = raw_specs + oc_specs
    animating = bool(values["animate"]) and bool(oc_specs) and values["version"] != "side"
    # the paper's figures are at θ = 0.2: while θ moves, neither their title nor caption holds
    preset = None if animating else matching_preset(values)
    title = PRESETS[preset]["title"] if preset else None
    stub = file_stub("offcenter", preset or "two_classes", "theta", f"{theta:g}")
    # ------------------------------------------------------------------ figures
    y_title = y_axis_title(specs)
    cursor = values["cursor"]
    df = cached_binary_curves(specs, theta)
    if values["version"] == "side":
        left, right, aside = (above or st).columns([5, 5, 3])
        sides = [
            (left, raw_specs, "Uncentered", "_uncentered", "tc_chart_raw"),
            (right, oc_specs, "Off-centered on θ", "_off_centered", "tc_chart_oc"),
        ]
        for col, side_specs, side_title, suffix, key in sides:
            with col:
                fig = curves_figure(
                    cached_binary_curves(side_specs, theta),
                    theta=theta,
                    cursor=cursor,
                    title=side_title,
                    y_title=y_axis_title(side_specs),
                    presentation=present,
                )
                _chart(fig, stub + suffix, key)
    else:
        # presentation mode: the figure takes the whole width (its legend in two columns, the
        # plot as large as the screen allows), the readout right under it
        main, aside = (above, st.container()) if present else st.columns([3, 1])
        with main:
            if animating:
                grid, sweep = cached_theta_sweep(oc_specs, ANIMATION_THETAS)
                fig = theta_animation_figure(
                    grid,
                    sweep,
                    ANIMATION_THETAS,
                    labels=df.attrs["labels"],
                    theta=theta,
                    fixed=cached_binary_curves(raw_specs, theta) if raw_specs else None,
                    cursor=cursor,
                    title="The curves as θ moves",
                    y_title=y_title,
                    frame_ms=ANIMATION_SPEEDS[values["speed"]][1],
                    loop=bool(values["loop"]),
                    presentation=present,
                )
                _chart(fig, stub, "tc_chart")
            else:
                # drawn in the browser, where it follows the θ slider as the hand moves it
                # (the off-centered curves of every θ step go with it); the server's figure
                # when the hand stops (offcenter.app.theta_follow)
                fig_args = dict(cursor=cursor, title=title, y_title=y_title, presentation=present)
                follow_chart(
                    cached_binary_figure(specs, theta, **fig_args),  # shared, per arguments
                    figure_json=cached_binary_figure_json(specs, theta, **fig_args),
                    key="tc_chart",
                    config=chart_config(stub),
                    slider_key="tc_theta",
                    theta=theta,
                    trace_keys=curve_keys(df),
                    moving=[s.key for s in oc_specs],
                    frames_json=cached_theta_frames_json(oc_specs) if oc_specs else None,
                    title_at_theta=preset is not None,
                    on_click=page.set_cursor,
                    on_theta=page.set_theta,
                    cursor=cursor,
                    cursor_key="tc_cursor",
                    on_cursor=page.set_cursor,
                    params=followed_params(specs, theta, values, page.prefix),
                    on_param=page.set_param,
                )

    # ------------------------------------------------------------------ readout
    with aside:
        if animating:
            # the animation moves θ in the browser, the server never hears of it: a table for
            # the page's θ would contradict the figure, so it steps aside with a note
            st.subheader("Values while θ moves")
            st.info(
                "The ▶ play button and the slider under the plot move θ in your browser; "
                "hover on a curve to read its value at that θ. The table of values at the "
                "cursor comes back when the animation is off."
            )
        else:
            st.subheader(f"Values at p = {cursor:.2f}")
            readout = cached_binary_values_at(specs, theta, cursor)
            # a static table: it wraps long curve names in a narrow column
            shown = readout[["curve", "value"]].assign(value=[f"{v:.4f}" for v in readout["value"]])
            st.table(shown, hide_index=True)  # text already formatted: no Styler to marshal
            st.caption("Click on the figure to move the cursor there.")
    if preset:
        st.caption(f"**{PRESETS[preset]['title']}** {PRESETS[preset]['caption']}")
    elif animating and matching_preset(values):
        st.caption(
            "The paper's figure and its caption are at θ = 0.2: switch the animation off to "
            "see them."
        )
    st.caption(
        "Hover for values; the dotted vertical line is θ, the dashed one the p cursor. "
        "PNG: use the camera button of the figure's toolbar (file "
        f"`{stub}.png`). Every measure setting keeps its own colour, dash and marker on every "
        "page (colour-blind safe, readable in grayscale)."
    )

    csv_button(
        "Download the plotted values (CSV)",
        df,
        f"{stub}.csv",
        "tc_csv",
        relabel=True,
        cache_key=repr(("two classes", tuple(specs), theta)),  # what df is computed from
    )

    # ------------------------------------------------------------------ derivatives
    if values["deriv"]:
        order = int(values["order"])
        st.subheader("Derivatives (section 3.2)")
        dd = cached_binary_derivatives(specs, theta, order=order)
        dfig = derivative_figure(dd, theta=theta, order=order, presentation=present)
        plotly_chart(
            dfig, config=chart_config(f"{stub}_derivative{order}"), key="tc_chart_deriv", theme=None
        )
        st.markdown(
            "Finite differences taken within each piece ($0$ to $\\theta$, $\\theta$ to $1$); at "
            "$p = \\theta$ the left and right derivatives are both drawn, so a jump shows as a "
            "vertical step. The off-centered Shannon entropy has a zero first derivative at "
            "$\\theta$ from both sides but different second derivatives, on the left and on the "
            "right of $\\theta$:"
        )
        st.latex(
            r"\eta_\theta''(\theta^-) = -\frac{1}{4\,\theta^2 \ln 2\;\pi(1-\pi)},\qquad"
            r"\eta_\theta''(\theta^+) = -\frac{1}{4\,(1-\theta)^2 \ln 2\;\pi(1-\pi)}"
        )
        st.caption(
            "The slope of the derivative changes at θ (choose 'second' to see the jump). "
            "Derivatives are infinite at p = 0 and 1, so the panel shows 0.01 ≤ p ≤ 0.99."
        )
        csv_button(
            "Download the derivatives (CSV)",
            dd,
            f"{stub}_derivative{order}.csv",
            "tc_csv_deriv",
            relabel=True,
        )


figures(raw_specs, oc_specs)

if present:
    st.header(TITLE)
    st.write(INTRO)

# ------------------------------------------------------------------ formulas
st.subheader("Formulas and references")
formulas_section(specs)
st.caption(
    "For two classes p is the frequency of class 1 and θ its reference frequency: the "
    "package evaluates the distribution (1 − p, p) with the reference (1 − θ, θ)."
)
