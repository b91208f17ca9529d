"""Plotly figure builders for the curve pages (plain functions: data in, ``go.Figure`` out).

Figures are readable in grayscale and by colour-blind readers: colours from the Okabe-Ito
palette, each curve also with its own dash style and marker symbol. PNG export uses Plotly's own
modebar button ("Download plot as a png"), configured by :func:`png_config` with a meaningful
file name (no kaleido needed).

Examples
--------
>>> from offcenter.curves import CurveSpec, binary_curves
>>> df = binary_curves([CurveSpec("shannon")], 0.2)
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

__all__ = [
    "OKABE_ITO",
    "DASHES",
    "SYMBOLS",
    "style",
    "png_config",
    "file_stub",
    "curves_figure",
    "derivative_figure",
    "ternary_figure",
    "transform_bars_figure",
    "transform_maps_figure",
]

#: Okabe & Ito (2008) colour-blind safe palette (yellow left out: too pale on white).
OKABE_ITO = ("#000000", "#E69F00", "#0072B2", "#009E73", "#D55E00", "#CC79A7", "#56B4E9",
             "#999999")
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot", "5px,2px,1px,2px",
          "1px,3px")
SYMBOLS = ("circle", "square", "diamond", "triangle-up", "x", "triangle-down", "star", "cross")

_FONT = dict(size=14)


def style(i: int) -> dict:
    """Colour, dash and marker symbol of the i-th curve (cycles; pairs stay distinct)."""
    return {
        "color": OKABE_ITO[i % len(OKABE_ITO)],
        "dash": DASHES[i % len(DASHES)],
        "symbol": SYMBOLS[i % len(SYMBOLS)],
    }


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


def _layout(fig: go.Figure, title: str | None, x_title: str, y_title: str,
            height: int = 480) -> go.Figure:
    fig.update_layout(
        title=dict(text=title) if title else None,
        template="simple_white",
        height=height,
        font=_FONT,
        hovermode="x unified",
        legend=dict(orientation="h", yanchor="top", y=-0.18, xanchor="left", x=0.0),
        margin=dict(l=70, r=20, t=60 if title else 30, b=110),
    )
    fig.update_xaxes(title_text=x_title, showgrid=True, gridcolor="#e5e5e5", zeroline=False)
    fig.update_yaxes(title_text=y_title, showgrid=True, gridcolor="#e5e5e5", zeroline=False)
    return fig


def _line(x, y, name: str, i: int, n_markers: int = 11, **kw) -> go.Scatter:
    st = style(i)
    x = np.asarray(x, dtype=float)
    return go.Scatter(
        x=x, y=np.asarray(y, dtype=float), name=name, mode="lines+markers",
        line=dict(color=st["color"], dash=st["dash"], width=2.5),
        marker=dict(symbol=st["symbol"], size=8, color=st["color"], maxdisplayed=n_markers),
        hovertemplate="%{y:.4f}", **kw,
    )


def curves_figure(df: pd.DataFrame, *, theta: float | None = None, cursor: float | None = None,
                  x: str = "p", title: str | None = None,
                  x_title: str = "p = frequency of class 1 (proportion, 0 to 1)",
                  y_title: str = "uncertainty (bits for Shannon)", theta_label: str = "theta",
                  start: int = 0) -> go.Figure:
    """Line figure of curve columns against ``x``, a vertical marker at theta and the cursor.

    ``df.attrs["labels"]`` names the curves (column -> label); other columns but ``x`` and
    ``"side"`` are ignored. ``start`` offsets the style index (to keep styles when a figure
    is split in two panels).
    """
    labels = df.attrs.get("labels", {c: c for c in df.columns if c not in (x, "side")})
    fig = go.Figure()
    for i, (k, label) in enumerate(labels.items()):
        if k in df.columns:
            fig.add_trace(_line(df[x], df[k], label, start + i))
    _layout(fig, title, x_title, y_title)
    fig.update_xaxes(range=[-0.01, 1.01], dtick=0.1)
    if theta is not None:
        fig.add_vline(x=float(theta), line=dict(color="#555555", dash="dot", width=1.5),
                      annotation_text=f"{theta_label} = {float(theta):.3g}",
                      annotation_position="top right")
    if cursor is not None:
        fig.add_vline(x=float(cursor), line=dict(color="#CC79A7", dash="longdash", width=1.5),
                      annotation_text=f"cursor {float(cursor):.3g}",
                      annotation_position="bottom right")
    return fig


def derivative_figure(df: pd.DataFrame, *, theta: float, title: str | None = None,
                      order: int = 1, start: int = 0) -> go.Figure:
    """Derivatives from :func:`offcenter.curves.binary_derivatives` (left/right rows at theta
    draw the jump as a vertical step)."""
    what = "first" if order == 1 else "second"
    sym = "d/dp" if order == 1 else "d²/dp²"
    fig = curves_figure(df, theta=theta, title=title, start=start,
                        y_title=f"{what} derivative {sym} (per unit of p)")
    fig.update_yaxes(zeroline=True, zerolinecolor="#999999")
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
            fig.update_yaxes(range=[lo - pad, hi + pad])
    return fig


def ternary_figure(tdf: pd.DataFrame, *, title: str | None = None,
                   class_names: Sequence[str] = ("class 1", "class 2", "class 3")) -> go.Figure:
    """A measure over the 3-class simplex (colour = value, Cividis scale, readable in grayscale),
    with theta (star) and the grid maximum (diamond) marked."""
    label = tdf.attrs.get("label", "value")
    fig = go.Figure()
    fig.add_trace(go.Scatterternary(
        a=tdf["p1"], b=tdf["p2"], c=tdf["p3"], mode="markers", name=label,
        marker=dict(color=tdf["value"], colorscale="Cividis", size=7, symbol="triangle-up",
                    colorbar=dict(title=dict(text="value")), line=dict(width=0)),
        hovertemplate="p = (%{a:.3f}, %{b:.3f}, %{c:.3f})<br>value %{marker.color:.4f}"
                      "<extra></extra>",
        showlegend=False,
    ))
    th = tdf.attrs.get("theta")
    if th is not None:
        fig.add_trace(go.Scatterternary(
            a=[th[0]], b=[th[1]], c=[th[2]], mode="markers+text", name="theta",
            text=["theta"], textposition="top center",
            marker=dict(symbol="star", size=18, color="#E69F00", line=dict(color="black",
                                                                           width=1.5)),
        ))
    am = tdf.attrs.get("argmax")
    if am is not None:
        fig.add_trace(go.Scatterternary(
            a=[am[0]], b=[am[1]], c=[am[2]], mode="markers", name="maximum on the grid",
            marker=dict(symbol="diamond-open", size=26, color="black",
                        line=dict(color="black", width=3)),
        ))
    fig.update_layout(
        title=dict(text=title or label), template="simple_white", height=560, font=_FONT,
        ternary=dict(
            sum=1,
            aaxis=dict(title=dict(text=f"p1 ({class_names[0]})"), ticks="outside"),
            baxis=dict(title=dict(text=f"p2 ({class_names[1]})"), ticks="outside"),
            caxis=dict(title=dict(text=f"p3 ({class_names[2]})"), ticks="outside"),
        ),
        legend=dict(orientation="h", y=-0.08),
        margin=dict(l=60, r=60, t=80, b=60),
    )
    return fig


def transform_bars_figure(table: pd.DataFrame, *, title: str | None = None) -> go.Figure:
    """Grouped bars of p, pi and pi* per class, with theta and 1/q as reference markers.

    Bars are told apart by fill pattern as well as colour (grayscale)."""
    fig = go.Figure()
    bars = [("p", "p (frequencies)", "#0072B2", ""),
            ("pi", "pi (before normalising)", "#E69F00", "/"),
            ("pi*", "pi* (off-centered pseudo-frequencies)", "#009E73", "x")]
    for col, name, color, pattern in bars:
        fig.add_trace(go.Bar(
            x=table["class"], y=table[col], name=name, marker=dict(
                color=color, pattern=dict(shape=pattern, fgcolor="black", solidity=0.3),
                line=dict(color="black", width=1)),
            hovertemplate="%{y:.4f}",
        ))
    fig.add_trace(go.Scatter(
        x=table["class"], y=table["theta"], mode="markers", name="theta_j",
        marker=dict(symbol="line-ew-open", size=40, color="black", line=dict(width=3)),
        hovertemplate="theta %{y:.4f}",
    ))
    q = len(table)
    fig.add_hline(y=1.0 / q, line=dict(color="#D55E00", dash="dash", width=2), layer="above",
                  annotation_text=f"1/q = {1.0 / q:.3g}", annotation_position="right",
                  annotation_font_color="#D55E00")
    fig.update_layout(barmode="group")
    _layout(fig, title, "class", "frequency (proportion)", height=460)
    fig.update_layout(margin=dict(r=70))
    fig.update_layout(hovermode="x")
    return fig


def transform_maps_figure(maps: pd.DataFrame, theta: Sequence[float], *,
                          title: str | None = None) -> go.Figure:
    """The piecewise-linear maps p_j -> pi_j, one line per class, theta_j marked (pi_j = 1/q)."""
    fig = go.Figure()
    classes = list(dict.fromkeys(maps["class"]))
    q = len(classes)
    for i, c in enumerate(classes):
        sub = maps[maps["class"] == c]
        fig.add_trace(_line(sub["p_j"], sub["pi_j"], f"{c} (theta = {theta[i]:.3g})", i))
        fig.add_trace(go.Scatter(
            x=[theta[i]], y=[1.0 / q], mode="markers", showlegend=False,
            marker=dict(symbol="star", size=14, color=style(i)["color"],
                        line=dict(color="black", width=1)),
            hovertemplate=f"{c}: theta = %{{x:.3f}}, pi = 1/q<extra></extra>",
        ))
    fig.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", name="identity (theta uniform)",
                             line=dict(color="#999999", dash="dot", width=1)))
    _layout(fig, title, "p_j (frequency of class j)", "pi_j (before normalising)", height=460)
    fig.update_layout(legend=dict(orientation="v", x=0.01, y=0.99, yanchor="top",
                                  bgcolor="rgba(255,255,255,0.8)", font=dict(size=12)),
                      margin=dict(b=60))
    fig.add_hline(y=1.0 / q, line=dict(color="#555555", dash="dot", width=1),
                  annotation_text="1/q", annotation_position="bottom right")
    fig.update_xaxes(range=[-0.01, 1.01])
    fig.update_layout(hovermode="closest")
    return fig
