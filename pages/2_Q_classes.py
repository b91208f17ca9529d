"""q classes: slices through theta, the ternary view and the off-centering transform itself."""

import numpy as np
import streamlit as st

from offcenter.app import urlstate
from offcenter.app.charts import chart_config, plotly_chart
from offcenter.app.curve_pages import (  # the curve data, cached per process
    Q_TABS,
    QClassesState,
    cached_slice_curves,
    cached_slice_figure,
    cached_slice_figure_json,
    cached_ternary_mesh,
    cached_transform_maps,
    page_specs,
)
from offcenter.app.curve_text import (
    format_value,
    format_values,
    normalise_theta,
    parse_distribution,
    reconstruction_notes,
    y_axis_title,
)
from offcenter.app.downloads import csv_button
from offcenter.app.measure_sidebar import formulas_section, measure_controls
from offcenter.app.navigation import ensure_router
from offcenter.app.presentation import is_on
from offcenter.app.theta_follow import follow_chart
from offcenter.measures.curves import (
    curve_label,
    slice_distributions,
    ternary_grid,
    transform_table,
)
from offcenter.viz.curves import (
    curve_keys,
    file_stub,
    ternary_figure,
    transform_bars_figure,
    transform_maps_figure,
)

ensure_router()  # a first visit straight to this page still goes through app.py
st.set_page_config(page_title="q classes - offcenter", layout="wide")

page = QClassesState()  # the page's session state (keys qc_*), named, and its callbacks

# A link's settings, else the ones the user left the page with (a page switch drops widget keys).
url_warnings = page.restore()
present = is_on()  # the toggle itself is drawn by navigation.run, for every page
page.open_tab()  # the open tab: the tabs widget's label and its id in the URL kept in step
_SUB = {j: "".join("₀₁₂₃₄₅₆₇₈₉"[int(c)] for c in str(j)) for j in range(1, 11)}


TITLE = "q classes"
INTRO = (
    "With q classes a node's class distribution is a point p of the simplex. Off-centering maps "
    "p to pseudo-frequencies π* so that the measure peaks at θ (for example the a priori "
    "class distribution) instead of the uniform distribution."
)
if not present:  # in presentation mode the figures come first, on the projector's one screen
    st.title(TITLE)
    st.write(INTRO)
for w in urlstate.for_display(url_warnings):
    st.warning(w)

# ------------------------------------------------------------------ controls
with st.sidebar:
    st.button("Reset to defaults", on_click=page.reset, key="qc_btn_reset", width="stretch")
    st.header("Classes and θ")
    st.slider("q: number of classes", 2, 10, step=1, key="qc_q", on_change=page.q_changed)
    q = page.q
    # side by side, or one under the other in presentation mode (its 18 px type cut
    # "Imbalanced" in half the sidebar)
    c1, c2 = (st.container(), st.container()) if present else st.columns(2)
    c1.button(
        "Uniform",
        on_click=page.uniform,
        key="qc_btn_uniform",
        width="stretch",
        help="θ = (1/q, ..., 1/q)",
    )
    c2.button(
        "Imbalanced",
        on_click=page.imbalanced,
        key="qc_btn_imbalanced",
        width="stretch",
        help="An imbalanced example: θⱼ proportional to 2⁻ʲ",
    )

    base = page.theta
    if len(base) != q:
        st.warning(f"θ had {len(base)} values for q = {q} classes; using the uniform distribution.")
        base = [1.0 / q] * q
        page.theta = base
    # One number box per class (a real text field: typing "0.7" quickly gives 0.7), shown with
    # 4 significant digits, the precision of every theta the page shows (1/3 reads 0.3333,
    # 2^-10/(1 - 2^-10) reads 0.0009775). Keys carry a version: a preset, q or a reset sets them
    # afresh from qc_theta.
    st.caption("θⱼ: reference frequency of class j (divided by the sum when it is not 1)")
    typed = []
    for row in range(0, q, 2):
        cols = st.columns(2)
        for col, j in zip(cols, range(row, min(row + 2, q))):
            typed.append(
                col.number_input(
                    f"θ{_SUB[j + 1]}",
                    min_value=0.0,
                    value=float(base[j]),
                    step=0.01,
                    format="%.4g",
                    key=page.theta_key(q, j),
                )
            )

theta = None
theta_error = None
try:
    theta, notes = normalise_theta(np.asarray(typed, dtype=float), q)
except ValueError as exc:
    theta_error = str(exc)
    notes = []

with st.sidebar:
    if theta_error:
        st.error(theta_error)
    for n_ in notes:
        st.info(n_)

    st.header("Curves")
    measure_controls(page.prefix)  # measures, versions, beta, rho, consistent form
    st.slider(
        "p1 cursor on the slice (or click on the figure)", 0.0, 1.0, step=0.01, key="qc_cursor"
    )

if theta is None:
    st.error("Fix θ in the sidebar (one positive number per class) to draw the curves.")
    st.stop()

# The URL keeps the normalised theta actually used (the editor keeps what was typed).
values = page.values()
values["theta"] = tuple(float(f"{t:.6g}") for t in theta)
page.sync_out(values)
page.save(values)

raw_specs, oc_specs = page_specs(values)
specs = raw_specs + oc_specs
theta_text = format_values(theta)
stub = file_stub("offcenter", f"q{q}", "theta", "-".join(f"{t:.3g}" for t in theta))
st.markdown(f"**θ = ({theta_text})**, q = {q}")

for _note in reconstruction_notes(specs):  # the registry's notes (the package's own text)
    st.info(_note)

tab_slice, tab_ternary, tab_transform, tab_formulas = st.tabs(
    list(Q_TABS.values()), key="qc_tabs", on_change="rerun"
)

# ------------------------------------------------------------------ slice
if tab_slice.open:  # only the open tab runs (lazy tabs): the others cost nothing
    with tab_slice:
        st.write(
            "$p_1$ goes from 0 to 1 and the other classes share the rest in proportion to their "
            r"$\theta_j$, $p_j = (1 - p_1)\,\theta_j / (1 - \theta_1)$, so the slice passes "
            f"through θ at $p_1 = \\theta_1 = {format_value(theta[0])}$."
        )
        if not specs:
            st.info("Choose at least one measure in the sidebar.")
        else:
            sdf = cached_slice_curves(specs, theta)
            # drawn in the browser, where the p1 cursor's line follows its slider as the hand
            # moves it; its keys send one value once they rest (offcenter.app.theta_follow)
            fig_args = dict(cursor=values["cursor"], y_title=y_axis_title(specs),
                            presentation=present)  # fmt: skip
            follow_chart(
                cached_slice_figure(specs, theta, **fig_args),  # shared, per arguments
                figure_json=cached_slice_figure_json(specs, theta, **fig_args),
                key="qc_chart_slice",
                config=chart_config(stub + "_slice"),
                slider_key=None,  # θ is typed, not slid: nothing moves with it
                theta=float(theta[0]),
                theta_label="θ₁",
                trace_keys=curve_keys(sdf, x="p1"),
                moving=(),
                frames_json=None,
                on_click=page.set_cursor,
                cursor=values["cursor"],
                cursor_key="qc_cursor",
                on_cursor=page.set_cursor,
            )
            st.caption(
                "Dotted line: θ₁; dashed line: the p₁ cursor (click on the figure to move it). "
                f"PNG: camera button of the figure's toolbar (file `{stub}_slice.png`)."
            )
            csv_button(
                "Download the slice values (CSV)",
                sdf,
                f"{stub}_slice.csv",
                "qc_csv_slice",
                relabel=True,
                # what sdf is computed from: made once per process, not at every rerun
                cache_key=repr(("q slice", tuple(specs), tuple(float(t) for t in theta))),
            )

# ------------------------------------------------------------------ ternary
if tab_ternary.open:  # only the open tab runs (lazy tabs): the others cost nothing
    with tab_ternary:
        if q != 3:
            st.info("The ternary view shows the whole simplex of 3 classes: set q = 3 to see it.")
        elif not specs:
            st.info("Choose at least one measure in the sidebar.")
        else:
            labels = {s.key: s for s in specs}
            keys = list(labels)
            page.ternary_choice(keys, len(raw_specs))  # the one chosen, else the first oc one
            # presentation mode: the figure first, right under the tabs, its choice under it,
            # so that the whole triangle is on the projector's first screen (1400x900)
            above = st.container() if present else None
            st.selectbox(
                "Measure shown over the simplex",
                keys,
                format_func=lambda k: curve_label(labels[k]),
                key="qc_ternary",
            )
            spec = labels[page.ternary_choice(keys, len(raw_specs))]
            mesh = cached_ternary_mesh(spec, theta)
            tfig = ternary_figure(
                mesh, title=f"{curve_label(spec)} over the simplex", presentation=present
            )
            with above or st.container():
                plotly_chart(
                    tfig,
                    config=chart_config(stub + "_ternary"),
                    key="qc_chart_ternary",
                    theme=None,
                )
            am = mesh["argmax"]
            st.caption(
                f"Star: θ = ({theta_text}). Open diamond: the largest value, "
                f"{mesh['max']:.4f} at ({format_values(am)}). Move θ in the "
                "sidebar to see the peak follow it; an uncentered measure keeps its peak at the "
                "uniform distribution. Colour: Cividis scale (readable in grayscale)."
            )
            csv_button(
                "Download the ternary grid (CSV)",
                lambda: ternary_grid(spec, theta, resolution=40),  # made only when clicked
                f"{stub}_ternary.csv",
                "qc_csv_ternary",
            )

# ------------------------------------------------------------------ transform
if tab_transform.open:  # only the open tab runs (lazy tabs): the others cost nothing
    with tab_transform:
        st.write(
            "For one distribution $p$: each $p_j$ is mapped by a piecewise-linear increasing map to "
            "$\\pi_j$ ($0$ at $0$, $1/q$ at $\\theta_j$, $1$ at $1$), then the $\\pi_j$ are divided "
            "by their sum to give $\\pi^*$, the distribution the base measure is applied to. At "
            "$p = \\theta$ every $\\pi_j$ is $1/q$, so $\\pi^*$ is uniform and the measure is at "
            "its maximum."
        )
        st.text_input(
            "Distribution p (comma-separated; empty = the point of the slice at the p1 cursor)",
            key="qc_p",
            placeholder="e.g. " + ", ".join(["%.2g" % (1 / q)] * q),
        )
        p_vec = None
        if page.p_text.strip():
            p_vec, msgs = parse_distribution(page.p_text, q)
            for m in msgs:
                (st.error if p_vec is None else st.info)(m)
        if p_vec is None:
            p_vec = slice_distributions(theta, values["cursor"])
        table = transform_table(p_vec, theta)
        # side by side, or one under the other in presentation mode (large type needs the width)
        c1, c2 = (st.container(), st.container()) if present else st.columns(2)
        with c1:
            plotly_chart(
                transform_bars_figure(table, title="p, π and π* per class", presentation=present),
                config=chart_config(stub + "_transform_bars"),
                key="qc_chart_bars",
                theme=None,
            )
        with c2:
            plotly_chart(
                transform_maps_figure(
                    cached_transform_maps(theta),
                    theta,
                    title="The maps pⱼ → πⱼ",
                    presentation=present,
                ),
                config=chart_config(stub + "_transform_maps"),
                key="qc_chart_maps",
                theme=None,
            )
        st.dataframe(
            table,
            hide_index=True,
            column_config={
                c: st.column_config.NumberColumn(format="%.4g")
                for c in ("p", "theta", "pi", "pi*", "uniform 1/q")
            },
        )
        csv_button(
            "Download the transform table (CSV)", table, f"{stub}_transform.csv", "qc_csv_transform"
        )

# ------------------------------------------------------------------ formulas
if tab_formulas.open:  # only the open tab runs (lazy tabs): the others cost nothing
    with tab_formulas:
        formulas_section(specs)

if present:
    st.header(TITLE)
    st.write(INTRO)
