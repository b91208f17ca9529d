"""Plotly figure builders for the curve pages (plain functions: data in, ``go.Figure`` out).

Figures are readable in grayscale and by colour-blind readers: colours from the Okabe-Ito
palette, each curve also with its own dash style and marker symbol. PNG export uses Plotly's own
modebar button ("Download plot as a png"), configured by :func:`png_config` with a meaningful
file name (no kaleido needed).

Figures are assembled as plain dicts and wrapped without Plotly's per-property validation
(``_validate=False``), which makes a rerun several times faster; the tests validate every
builder's output with ``go.Figure(fig.to_dict())``.

Examples
--------
>>> from offcenter import MeasureSetting
>>> from offcenter.measures.curves import binary_curves
>>> df = binary_curves([MeasureSetting("shannon")], 0.2)
>>> fig = curves_figure(df, theta=0.2, cursor=0.5)
>>> [t.name for t in fig.data]
['Shannon']
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio

from offcenter.viz.styles import (
    DASHES,
    NORMAL,
    PALETTE,
    PRESENTATION,
    SYMBOLS,
    TEXT_COLOR,
    Style,
    Typography,
    class_style,
    setting_style,
    typography,
)

__all__ = [
    "OKABE_ITO",
    "DASHES",
    "SYMBOLS",
    "style",
    "png_config",
    "file_stub",
    "curve_keys",
    "curves_figure",
    "theta_animation_figure",
    "derivative_figure",
    "ternary_figure",
    "transform_bars_figure",
    "transform_maps_figure",
]

#: The palette of :mod:`offcenter.viz.styles` (colour-blind safe, >= 3:1 against white).
OKABE_ITO = PALETTE


def style(i: int) -> dict:
    """Colour, dash and marker symbol of class ``i`` (:func:`offcenter.viz.styles.class_style`)."""
    st = class_style(i)
    return {"color": st.color, "dash": st.dash, "symbol": st.symbol}


def file_stub(*parts: object) -> str:
    """A safe file name from parts, e.g. ``file_stub("two-classes", "theta", 0.2)``.

    >>> file_stub("offcenter two classes", "theta", 0.2)
    'offcenter_two_classes_theta_0.2'
    """
    text = "_".join(str(p) for p in parts if p is not None and str(p) != "")
    text = re.sub(r"[^A-Za-z0-9.=-]+", "_", text).strip("_")
    return text or "figure"


def png_config(filename: str) -> dict:
    """``st.plotly_chart(config=...)``: the modebar's PNG download gets ``filename``.png."""
    return {
        "displaylogo": False,
        "toImageButtonOptions": {"format": "png", "filename": file_stub(filename), "scale": 2},
    }


_TEMPLATE: dict | None = None


def _template() -> dict:
    global _TEMPLATE
    if _TEMPLATE is None:
        _TEMPLATE = pio.templates["simple_white"].to_plotly_json()
    return _TEMPLATE


def _figure(data: list[dict], layout: dict, frames: list[dict] | None = None) -> go.Figure:
    """Wrap trace and layout dicts in a Figure without per-property validation (fast)."""
    layout = {"template": _template(), **layout}
    if frames:
        return go.Figure(data=data, layout=layout, frames=frames, _validate=False)
    return go.Figure(data=data, layout=layout, _validate=False)


def _axis(title: str, t: Typography, **kw) -> dict:
    return dict(
        title=dict(text=title, font=dict(size=t.axis_title, color=TEXT_COLOR)),
        tickfont=dict(size=t.tick, color=TEXT_COLOR),
        linecolor=TEXT_COLOR,
        tickcolor=TEXT_COLOR,
        linewidth=2 if t.line > 3 else 1,
        showgrid=True,
        gridcolor="#e5e5e5",
        zeroline=False,
        automargin=True,
        **kw,
    )


#: Presentation type of a legend of more than four entries: 20 px (the mode's least size) puts
#: Figure 2's seven entries in two columns at 1400 px (at 22 px the widest, "off-centered Rank
#: diversity (ρ = 0)", left room for one: seven rows, a plot a third of the figure's height).
LONG_LEGEND_PX = 20


def _legend(t: Typography, title: str | None, n_items: int = 3) -> dict:
    """A horizontal legend above the plotting area (outside it: Plotly moves the plot down to
    make room, on any width), the figure's title as the legend's title so that the two cannot
    overlap."""
    legend = dict(
        orientation="h",
        yanchor="bottom",
        y=1.02,
        xanchor="left",
        x=0.0,
        font=dict(
            size=min(t.legend, LONG_LEGEND_PX) if n_items > 4 else t.legend, color=TEXT_COLOR
        ),
        # the symbol's width: 40 px show every dash pattern, and leave presentation type two
        # columns of Figure 2's seven entries in a 1400 px window (one column took 7 rows)
        itemwidth=40,
        maxheight=0.6,
    )
    if title:
        legend["title"] = dict(
            text=f"<b>{_wrap(title)}</b>", side="top", font=dict(size=t.title, color=TEXT_COLOR)
        )
    return legend


def _wrap(text: str, width: int = 42) -> str:
    """Break a long title in two lines at the comma or space nearest its middle (legend titles
    do not wrap by themselves)."""
    if len(text) <= width or "<br>" in text:
        return text
    mid = len(text) // 2
    cuts = [i for i, ch in enumerate(text) if ch in ", "]
    if not cuts:
        return text
    i = min(cuts, key=lambda c: abs(c - mid))
    return text[: i + 1].rstrip() + "<br>" + text[i + 1 :].lstrip()


def _base_layout(
    title: str | None,
    x_title: str,
    y_title: str,
    t: Typography,
    height: int = 480,
    n_items: int = 3,
) -> dict:
    # room for the larger legend and ticks: a legend row per curve at presentation size
    extra = 0 if t.font < 20 else 120 + 34 * max(n_items - 3, 0)
    return dict(
        height=height + extra,
        font=dict(size=t.font, color=TEXT_COLOR),
        hoverlabel=dict(font=dict(size=t.font)),
        hovermode="x unified",
        showlegend=True,
        legend=_legend(t, title, n_items),
        margin=dict(l=20, r=30, t=40, b=20),
        # the toolbar (modebar) as a column in the right margin, not a row over the legend and
        # its title: a touch screen (a phone) shows it all the time, and the title, as wide as
        # the figure there, was hidden under it (at 1400 px it only shows on hover)
        modebar=dict(orientation="v"),
        xaxis=_axis(x_title, t),
        # a long y title in two lines (short plots, phones, presentation type)
        yaxis=_axis(_wrap(y_title, 34), t),
        shapes=[],
        annotations=[],
    )


def _vline(
    layout: dict, x: float, text: str, color: str, dash: str, top: bool, t: Typography
) -> None:
    layout["shapes"].append(
        dict(
            type="line",
            xref="x",
            yref="paper",
            x0=x,
            x1=x,
            y0=0,
            y1=1,
            line=dict(color=color, dash=dash, width=t.guide),
        )
    )
    layout["annotations"].append(
        dict(
            xref="x",
            yref="paper",
            x=x,
            y=1.0 if top else 0.0,
            text=text,
            showarrow=False,
            xanchor="left",
            yanchor="top" if top else "bottom",
            bgcolor="rgba(255,255,255,0.85)",
            font=dict(color=color, size=t.annotation),
        )
    )


def _hline(
    layout: dict,
    y: float,
    text: str,
    color: str,
    dash: str,
    t: Typography,
    width: float = 1.5,
    right: bool = False,
) -> None:
    layout["shapes"].append(
        dict(
            type="line",
            xref="paper",
            yref="y",
            x0=0,
            x1=1,
            y0=y,
            y1=y,
            layer="above",
            line=dict(color=color, dash=dash, width=width * t.guide / 2),
        )
    )
    layout["annotations"].append(
        dict(
            xref="paper",
            yref="y",
            x=1.0 if right else 0.0,
            y=y,
            text=text,
            showarrow=False,
            xanchor="left",
            yanchor="bottom",
            font=dict(color=color, size=t.annotation),
        )
    )


def _line(x, y, name: str, st: Style, t: Typography, n_markers: int = 11, **kw) -> dict:
    return dict(
        type="scatter",
        x=np.asarray(x, dtype=float),
        y=np.asarray(y, dtype=float),
        name=name,
        mode="lines+markers",
        line=dict(color=st.color, dash=st.dash, width=t.line),
        marker=dict(symbol=st.symbol, size=t.marker, color=st.color, maxdisplayed=n_markers),
        hovertemplate="%{y:.4f}",
        # a click on the plot selects points (it sets the cursor): keep every curve opaque
        selected=dict(marker=dict(opacity=1.0)),
        unselected=dict(marker=dict(opacity=1.0)),
        **kw,
    )


#: Left and bottom margins (px) that Plotly's axis automargin gives a curves figure in
#: Chromium: typography -> ((left for a one-line, two-line y title), bottom), y tick labels
#: of up to 3 characters ("0.2"). Measured with ``gd._fullLayout._size`` (Plotly 3.8, Streamlit
#: 1.67, Chromium 156).
AXIS_MARGINS = {NORMAL: ((68, 89), 65), PRESENTATION: ((86, 117), 82)}


def _preset_axis_margins(layout: dict, t: Typography) -> None:
    """Start the plot with the margins its axes will push to (:data:`AXIS_MARGINS`).

    With ``automargin`` Plotly draws a new figure with the layout's margins, measures the tick
    labels and axis titles, and draws it all again if they need more room: half the time of
    ``Plotly.newPlot``, paid on every theta move
    since Streamlit mounts a changed chart afresh. Given these margins the first draw is the
    last one; automargin stays on, so wider tick labels (another font, larger values) still
    get their room, with the second draw. Where the axes need less, the margin is the preset
    one (a few pixels wider than Plotly's own).
    """
    preset = AXIS_MARGINS.get(t)
    if preset is None:
        return
    lefts, bottom = preset
    lines = min(layout["yaxis"]["title"]["text"].count("<br>") + 1, len(lefts))
    layout["margin"].update(l=lefts[lines - 1], b=bottom)


#: Colour of the theta line and of the cursor line (both >= 4.5:1 against white).
THETA_COLOR = "#4D4D4D"
CURSOR_COLOR = "#A0307A"


def curve_keys(df: pd.DataFrame, x: str = "p") -> list[str]:
    """The curve columns of ``df`` in the order :func:`curves_figure` draws them as traces:
    ``df.attrs["labels"]``'s keys that are columns (else every column but ``x`` and
    ``"side"``)."""
    labels = df.attrs.get("labels", {c: c for c in df.columns if c not in (x, "side")})
    return [k for k in labels if k in df.columns]


def _curves_parts(
    df: pd.DataFrame, *, theta, cursor, x, title, x_title, y_title, theta_label, t
) -> tuple[list[dict], dict]:
    labels = df.attrs.get("labels", {c: c for c in df.columns if c not in (x, "side")})
    data = [_line(df[x], df[k], labels[k], setting_style(k), t) for k in curve_keys(df, x)]
    layout = _base_layout(title, x_title, y_title, t, n_items=len(data))
    layout["xaxis"].update(range=[-0.01, 1.01])
    _preset_axis_margins(layout, t)
    if theta is not None:
        _vline(
            layout,
            float(theta),
            f"{theta_label} = {float(theta):.3g}",
            THETA_COLOR,
            "dot",
            top=True,
            t=t,
        )
    if cursor is not None:
        _vline(
            layout,
            float(cursor),
            f"cursor {float(cursor):.3g}",
            CURSOR_COLOR,
            "longdash",
            top=False,
            t=t,
        )
    return data, layout


P_TITLE = "p = frequency of class 1 (proportion, 0 to 1)"


def curves_figure(
    df: pd.DataFrame,
    *,
    theta: float | None = None,
    cursor: float | None = None,
    x: str = "p",
    title: str | None = None,
    x_title: str = P_TITLE,
    y_title: str = "uncertainty (bits for Shannon)",
    theta_label: str = "θ",
    start: int = 0,
    presentation: bool = False,
) -> go.Figure:
    """Line figure of curve columns against ``x``, a vertical marker at theta and the cursor.

    ``df.attrs["labels"]`` names the curves (column = :attr:`MeasureSetting.key` -> label);
    other columns but ``x`` and ``"side"`` are ignored. Each curve's style is
    :func:`offcenter.viz.styles.setting_style` of its key (``start`` is kept for old callers
    and ignored: a style no longer depends on a curve's position). ``presentation`` sets the
    larger type and thicker lines of :data:`offcenter.viz.styles.PRESENTATION`.
    """
    del start
    data, layout = _curves_parts(
        df,
        theta=theta,
        cursor=cursor,
        x=x,
        title=title,
        x_title=x_title,
        y_title=y_title,
        theta_label=theta_label,
        t=typography(presentation),
    )
    return _figure(data, layout)


def _theta_side(theta: float) -> str:
    """Where the θ line's label sits: right of the line, left of it past the middle (at
    θ = 0.98 a label on the right ran out of the plot, and was cut)."""
    return "bottom right" if theta <= 0.5 else "bottom left"


def _theta_trace(theta: float, y_range, t: Typography) -> dict:
    return dict(
        type="scatter",
        x=[theta, theta],
        y=list(y_range),
        mode="lines+text",
        text=["", f"θ = {theta:.2f}"],
        textposition=_theta_side(theta),
        textfont=dict(size=t.annotation, color=THETA_COLOR),
        line=dict(color=THETA_COLOR, dash="dot", width=t.guide),
        name="θ",
        showlegend=False,
        hoverinfo="skip",
    )


#: Sweeps there and back that a looping animation plays before it stops by itself (about 5
#: minutes at the slow speed, 1.6 minutes at the fast one).
LOOP_SWEEPS = 30


def theta_animation_figure(
    grid,
    sweep: dict,
    thetas,
    *,
    labels: dict,
    theta: float,
    fixed: pd.DataFrame | None = None,
    cursor: float | None = None,
    title: str | None = None,
    y_title: str = "uncertainty (bits for Shannon)",
    frame_ms: int = 33,
    loop: bool = False,
    presentation: bool = False,
) -> go.Figure:
    """The curves with a ▶ play button and a slider that sweep theta in the browser.

    Parameters
    ----------
    grid, sweep
        From :func:`offcenter.measures.curves.theta_sweep`: the shared grid and, per key, an
        array (frames, points) of an off-centered curve's values for each theta.
    thetas : sequence of float
        The frames' theta values.
    labels : dict
        key -> legend label of the curves in ``sweep`` (and ``fixed``).
    theta : float
        The page's theta: the figure opens on the frame closest to it.
    fixed : DataFrame, optional
        Curves that do not depend on theta (uncentered), drawn once (column ``"p"``).
    cursor : float, optional
        The p cursor (a fixed vertical line).
    frame_ms : int, default 33
        Duration of a frame (33 ms = 30 frames per second), transitions off and
        ``redraw=False``: Plotly.animate only restyles the traces' y (and the theta line).
    loop : bool, default False
        ▶ play sweeps theta back and forth :data:`LOOP_SWEEPS` times (until ❚❚ pause)
        instead of once from the current frame to the last.

    Returns
    -------
    go.Figure
        Traces: the fixed curves, then the swept curves, then the theta line (a trace, so that
        frames move it). ``frames[k]`` has ``name`` f"{thetas[k]:.2f}" and new y for the swept
        curves and x for the theta line.
    """
    t = typography(presentation)
    thetas = [float(v) for v in thetas]
    if not thetas:
        raise ValueError("thetas must not be empty.")
    grid = np.asarray(grid, dtype=float)
    data: list[dict] = []
    if fixed is not None:
        for k, label in labels.items():
            if k in fixed.columns:
                data.append(_line(fixed["p"], fixed[k], label, setting_style(k), t))
    start = int(np.argmin(np.abs(np.asarray(thetas) - float(theta))))
    keys = [k for k in labels if k in sweep]
    first = len(data)
    for k in keys:
        data.append(_line(grid, sweep[k][start], labels[k], setting_style(k), t))
    all_y = [np.asarray(sweep[k], dtype=float) for k in keys]
    if fixed is not None:
        all_y += [fixed[k].to_numpy(dtype=float) for k in labels if k in fixed.columns]
    finite = np.concatenate([a[np.isfinite(a)].ravel() for a in all_y]) if all_y else np.zeros(1)
    hi = float(finite.max()) if finite.size else 1.0
    y_range = [0.0, hi * 1.08 if hi > 0 else 1.0]
    data.append(_theta_trace(thetas[start], y_range, t))
    traces = list(range(first, first + len(keys))) + [len(data) - 1]
    frames = []
    for i, th in enumerate(thetas):
        fdata = [dict(type="scatter", y=sweep[k][i]) for k in keys]
        fdata.append(
            dict(
                type="scatter", x=[th, th], text=["", f"θ = {th:.2f}"], textposition=_theta_side(th)
            )
        )
        frames.append(dict(name=f"{th:.2f}", data=fdata, traces=traces))
    anim = dict(
        frame=dict(duration=frame_ms, redraw=False),
        transition=dict(duration=0),
        mode="immediate",
        fromcurrent=True,
    )
    names = [f["name"] for f in frames]
    # Plotly.animate plays a list of frame names in order: a loop is the sweep there and back,
    # repeated (None plays every frame once, from the current one)
    play = (names + names[-2:0:-1]) * LOOP_SWEEPS if loop else None
    # 60 px more than a still figure: the buttons and the slider take two rows under the axis
    layout = _base_layout(title, P_TITLE, y_title, t, height=580, n_items=len(data) - 1)
    layout["xaxis"].update(range=[-0.01, 1.01])
    layout["yaxis"].update(range=y_range)
    layout["hovermode"] = "closest"
    if cursor is not None:
        _vline(
            layout,
            float(cursor),
            f"cursor {float(cursor):.3g}",
            CURSOR_COLOR,
            "longdash",
            top=False,
            t=t,
        )
    # the controls sit below the x axis title: anchored at the plot's bottom, pushed down by
    # the tick labels' and the axis title's height in px (pad.t), whatever the plot's height
    below = int(1.3 * t.tick + 1.3 * t.axis_title + 30)
    buttons_h = int(1.6 * t.legend + 16)  # a button's height and a gap
    layout["updatemenus"] = [
        dict(
            type="buttons",
            direction="left",
            showactive=False,
            x=0.0,
            xanchor="left",
            y=0.0,
            yanchor="top",
            pad=dict(t=below, b=10, l=0, r=10),
            font=dict(size=t.legend, color=TEXT_COLOR),
            buttons=[
                dict(label="▶ play θ", method="animate", args=[play, anim]),
                dict(
                    label="❚❚ pause",
                    method="animate",
                    args=[[None], dict(anim, frame=dict(duration=0, redraw=False))],
                ),
            ],
        )
    ]
    layout["sliders"] = [
        dict(
            active=start,
            # a row of its own under the buttons, the whole width: beside them, a phone's
            # 300 px plot put the buttons over the slider and its "θ = 0.36"
            x=0.0,
            len=1.0,
            y=0.0,
            yanchor="top",
            pad=dict(t=below + buttons_h, b=10),
            # the current frame's theta above the slider ("θ = 0.36"); the step labels say it,
            # so every step has one, drawn in a transparent colour (49 labels would overlap)
            currentvalue=dict(prefix="θ = ", font=dict(size=t.legend, color=TEXT_COLOR)),
            font=dict(size=t.tick, color="rgba(0,0,0,0)"),
            steps=[
                dict(
                    label=f"{th:.2f}",
                    method="animate",
                    args=[[f"{th:.2f}"], dict(anim, frame=dict(duration=0, redraw=False))],
                )
                for i, th in enumerate(thetas)
            ],
        )
    ]
    return _figure(data, layout, frames)


def derivative_figure(
    df: pd.DataFrame,
    *,
    theta: float,
    title: str | None = None,
    order: int = 1,
    start: int = 0,
    presentation: bool = False,
) -> go.Figure:
    """Derivatives from :func:`offcenter.measures.curves.binary_derivatives` (left/right rows at theta
    draw the jump as a vertical step)."""
    del start
    what = "first" if order == 1 else "second"
    sym = "d/dp" if order == 1 else "d²/dp²"
    data, layout = _curves_parts(
        df,
        theta=theta,
        cursor=None,
        x="p",
        title=title,
        x_title=P_TITLE,
        y_title=f"{what} derivative {sym} (per unit of p)",
        theta_label="θ",
        t=typography(presentation),
    )
    layout["yaxis"].update(zeroline=True, zerolinecolor="#999999")
    # Derivatives blow up near p = 0 and 1: frame the y axis on 0.05 <= p <= 0.95 (the whole
    # curves stay in the data; the modebar's autoscale shows them).
    cols = [c for c in df.attrs.get("labels", {}) if c in df.columns]
    inner = df[(df["p"] >= 0.05) & (df["p"] <= 0.95)]
    if cols and len(inner):
        vals = inner[cols].to_numpy(dtype=float)
        vals = vals[np.isfinite(vals)]
        if vals.size:
            lo, hi = float(min(vals.min(), 0.0)), float(max(vals.max(), 0.0))
            pad = 0.08 * (hi - lo or 1.0)
            layout["yaxis"]["range"] = [lo - pad, hi + pad]
    return _figure(data, layout)


_SQRT3_2 = float(np.sqrt(3.0) / 2.0)


def _simplex_xy(p) -> tuple[float, float]:
    """Cartesian position of a distribution (p1, p2, p3) in the triangle of
    :func:`offcenter.measures.curves.ternary_mesh` (class 1 top, 2 left, 3 right)."""
    p1, _, p3 = (float(v) for v in p)
    return p3 + p1 / 2.0, p1 * _SQRT3_2


def ternary_figure(
    mesh: dict,
    *,
    title: str | None = None,
    class_names: Sequence[str] = ("class 1", "class 2", "class 3"),
    presentation: bool = False,
) -> go.Figure:
    """A measure over the 3-class simplex as a smooth filled contour (Cividis colours, readable
    in grayscale) on the fine mesh of :func:`offcenter.measures.curves.ternary_mesh`, with
    theta (star) and the maximum (open diamond) marked and labelled, the triangle outlined and
    its corners named.
    """
    t = typography(presentation)
    label = mesh.get("label", "value")
    p = mesh["p"]
    data = [
        dict(
            type="contour",
            x=mesh["x"],
            y=mesh["y"],
            z=mesh["z"],
            customdata=p,
            colorscale="Cividis",
            contours=dict(coloring="heatmap", showlines=True),
            line=dict(width=0.6, color="rgba(255,255,255,0.55)", smoothing=1.0),
            ncontours=16,
            connectgaps=False,
            colorbar=dict(
                title=dict(text="value", font=dict(size=t.axis_title, color=TEXT_COLOR)),
                tickfont=dict(size=t.tick, color=TEXT_COLOR),
                thickness=18 if t.font < 20 else 28,
            ),
            hovertemplate="p = (%{customdata[0]:.3f}, %{customdata[1]:.3f}, "
            "%{customdata[2]:.3f})<br>value %{z:.4f}<extra></extra>",
            name=label,
            showlegend=False,
        ),
        dict(
            type="scatter",
            x=[0.0, 1.0, 0.5, 0.0],
            y=[0.0, 0.0, _SQRT3_2, 0.0],
            mode="lines",
            line=dict(color=TEXT_COLOR, width=t.guide),
            hoverinfo="skip",
            showlegend=False,
            name="simplex",
        ),
    ]
    th = mesh.get("theta")
    am = mesh.get("argmax")
    labels = []
    if th is not None:
        x, y = _simplex_xy(th)
        data.append(
            dict(
                type="scatter",
                x=[x],
                y=[y],
                mode="markers",
                name="θ",
                marker=dict(
                    symbol="star",
                    size=2.2 * t.marker + 4,
                    color="#FFFFFF",
                    line=dict(color="#000000", width=2),
                ),
                hovertemplate="θ = (" + ", ".join(f"{v:.3f}" for v in th) + ")<extra></extra>",
                showlegend=False,
            )
        )
        labels.append((x, y, "θ", -1))
    if am is not None:
        x, y = _simplex_xy(am)
        data.append(
            dict(
                type="scatter",
                x=[x],
                y=[y],
                mode="markers",
                name="maximum",
                marker=dict(
                    symbol="diamond-open",
                    size=3 * t.marker + 6,
                    color="#000000",
                    line=dict(color="#000000", width=3),
                ),
                hovertemplate="maximum %{customdata:.4f} at ("
                + ", ".join(f"{v:.3f}" for v in am)
                + ")<extra></extra>",
                customdata=[mesh.get("max", float("nan"))],
                showlegend=False,
            )
        )
        labels.append((x, y, "maximum", 1))
    if (
        len(labels) == 2
        and np.hypot(labels[0][0] - labels[1][0], labels[0][1] - labels[1][1]) < 1e-6
    ):
        labels = [(labels[0][0], labels[0][1], "θ = maximum", 1)]
    marks = [
        dict(
            x=x,
            y=y,
            text=text,
            showarrow=True,
            arrowhead=0,
            arrowwidth=1.5,
            arrowcolor="#000000",
            ax=side * (40 + 2 * t.marker),
            ay=-(30 + 2 * t.marker),
            bgcolor="rgba(255,255,255,0.9)",
            bordercolor="#000000",
            borderwidth=1,
            font=dict(size=t.annotation, color=TEXT_COLOR),
        )
        for x, y, text, side in labels
    ]
    corner = dict(showarrow=False, font=dict(size=t.axis_title, color=TEXT_COLOR))
    annotations = [
        dict(
            corner,
            x=0.5,
            y=_SQRT3_2,
            text=f"{class_names[0]} (p₁ = 1)",
            yanchor="bottom",
            yshift=6,
        ),
        dict(corner, x=0.0, y=0.0, text=f"{class_names[1]}<br>(p₂ = 1)", yanchor="top", yshift=-4),
        dict(corner, x=1.0, y=0.0, text=f"{class_names[2]}<br>(p₃ = 1)", yanchor="top", yshift=-4),
    ]
    hidden = dict(visible=False, showgrid=False, zeroline=False)
    extra = 0 if t.font < 20 else 100
    layout = dict(
        # the title right above the plotting area, which moves down to make room for it (the
        # top margin grows: never cut at the figure's top edge), in two lines when long (a
        # phone's 358 px hold about 34 characters at 18 px)
        title=dict(
            text=_wrap(title or label, 34),
            font=dict(size=t.title, color=TEXT_COLOR),
            x=0.0,
            xref="paper",
            xanchor="left",
            y=1.0,
            yref="paper",
            yanchor="bottom",
            pad=dict(b=10),
            automargin=True,
        ),
        height=560 + extra,
        font=dict(size=t.font, color=TEXT_COLOR),
        hoverlabel=dict(font=dict(size=t.font)),
        xaxis=dict(hidden, range=[-0.12, 1.12]),
        yaxis=dict(hidden, range=[-0.16, _SQRT3_2 + 0.1], scaleanchor="x", scaleratio=1),
        annotations=annotations + marks,
        showlegend=False,
        hovermode="closest",
        plot_bgcolor="#FFFFFF",
        margin=dict(l=10, r=10, t=20, b=10),
    )
    return _figure(data, layout)


def transform_bars_figure(
    table: pd.DataFrame, *, title: str | None = None, presentation: bool = False
) -> go.Figure:
    """Grouped bars of p, pi and pi* per class, with theta and 1/q as reference markers.

    Bars are told apart by fill pattern as well as colour (grayscale). Class tick labels are
    short (``1`` .. ``q`` under the axis title "class") so that q = 10 is never cut."""
    t = typography(presentation)
    classes = [str(c) for c in table["class"].tolist()]
    ticks = [c.replace("class ", "") for c in classes]
    bars = [
        ("p", "p (frequencies)", PALETTE[1], ""),
        ("pi", "π (before normalising)", PALETTE[5], "/"),
        ("pi*", "π* (off-centered pseudo-frequencies)", PALETTE[3], "x"),
    ]
    data = [
        dict(
            type="bar",
            x=ticks,
            y=table[col].to_numpy(dtype=float),
            name=name,
            customdata=classes,
            marker=dict(
                color=color,
                pattern=dict(shape=pattern, fgcolor="black", solidity=0.3),
                line=dict(color="black", width=1),
            ),
            hovertemplate="%{customdata}: %{y:.4f}",
        )
        for col, name, color, pattern in bars
    ]
    data.append(
        dict(
            type="scatter",
            x=ticks,
            y=table["theta"].to_numpy(dtype=float),
            mode="markers",
            name="θ<sub>j</sub>",
            marker=dict(
                symbol="line-ew-open",
                size=max(12, min(40, 240 // max(len(table), 1))),
                color="black",
                line=dict(width=3),
            ),
            hovertemplate="θ %{y:.4f}",
        )
    )
    q = len(table)
    layout = _base_layout(title, "class j", "frequency (proportion)", t, height=460)
    layout.update(barmode="group", hovermode="x")
    layout["xaxis"].update(type="category", tickangle=0, showgrid=False)
    layout["legend"]["itemwidth"] = 30
    layout["margin"]["r"] = 80 if t.font < 20 else 110
    _hline(layout, 1.0 / q, f"1/q = {1.0 / q:.3g}", PALETTE[2], "dash", t, width=2, right=True)
    return _figure(data, layout)


def _sub(j: int) -> str:
    """``j`` in Unicode subscript digits (``_sub(10) == "₁₀"``)."""
    return "".join("₀₁₂₃₄₅₆₇₈₉"[int(c)] for c in str(j))


def transform_maps_figure(
    maps: pd.DataFrame,
    theta: Sequence[float],
    *,
    title: str | None = None,
    presentation: bool = False,
) -> go.Figure:
    """The piecewise-linear maps p_j -> pi_j, one line per class, theta_j marked (pi_j = 1/q).

    Classes have the ten distinct styles of :func:`offcenter.viz.styles.class_style`."""
    t = typography(presentation)
    classes = list(dict.fromkeys(maps["class"]))
    q = len(classes)
    data = []
    for i, c in enumerate(classes):
        sub = maps[maps["class"] == c]
        cs = class_style(i)
        # short legend entries (θ₁ = 0.3): ten of them flow in columns
        data.append(_line(sub["p_j"], sub["pi_j"], f"θ{_sub(i + 1)} = {theta[i]:.2g}", cs, t))
        data.append(
            dict(
                type="scatter",
                x=[float(theta[i])],
                y=[1.0 / q],
                mode="markers",
                showlegend=False,
                marker=dict(
                    symbol="star",
                    size=t.marker + 6,
                    color=cs.color,
                    line=dict(color="black", width=1),
                ),
                hovertemplate=f"{c}: θ = %{{x:.3f}}, π = 1/q<extra></extra>",
            )
        )
    data.append(
        dict(
            type="scatter",
            x=[0, 1],
            y=[0, 1],
            mode="lines",
            name="identity (θ uniform)",
            line=dict(color="#666666", dash="dot", width=t.guide / 2),
        )
    )
    layout = _base_layout(
        title,
        "p<sub>j</sub> (frequency of class j)",
        "π<sub>j</sub> (before normalising)",
        t,
        height=460,
        n_items=(q + 2) // 2,
    )
    layout.update(hovermode="closest")
    # up to 10 classes: the legend flows in columns (a third or half of the width each)
    layout["legend"].update(entrywidthmode="fraction", entrywidth=0.33 if t.font < 20 else 0.5)
    layout["legend"].pop("itemwidth", None)
    layout["xaxis"]["range"] = [-0.01, 1.01]
    _hline(layout, 1.0 / q, "1/q", THETA_COLOR, "dot", t, width=1, right=True)
    layout["margin"]["r"] = 60 if t.font < 20 else 80
    return _figure(data, layout)
