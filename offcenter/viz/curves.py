"""Plotly figure builders for the curve pages (plain functions: data in, ``go.Figure`` out).

Figures are readable in grayscale and by colour-blind readers: colours from the Okabe-Ito
palette, each curve also with its own dash style and marker symbol. PNG export uses Plotly's own
modebar button ("Download plot as a png"), configured by :func:`png_config` with a meaningful
file name (no kaleido needed).

Figures are assembled as plain dicts and wrapped without Plotly's per-property validation
(``_validate=False``), which makes a rerun 5 to 10 times faster; the tests validate every
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
OKABE_ITO = ("#000000", "#E69F00", "#0072B2", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#999999")
DASHES = (
    "solid",
    "dash",
    "dot",
    "dashdot",
    "longdash",
    "longdashdot",
    "5px,2px,1px,2px",
    "1px,3px",
)
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


_TEMPLATE: dict | None = None


def _template() -> dict:
    global _TEMPLATE
    if _TEMPLATE is None:
        _TEMPLATE = pio.templates["simple_white"].to_plotly_json()
    return _TEMPLATE


def _figure(data: list[dict], layout: dict) -> go.Figure:
    """Wrap trace and layout dicts in a Figure without per-property validation (fast)."""
    layout = {"template": _template(), **layout}
    return go.Figure(data=data, layout=layout, _validate=False)


def _axis(title: str, **kw) -> dict:
    return dict(title=dict(text=title), showgrid=True, gridcolor="#e5e5e5", zeroline=False, **kw)


def _base_layout(title: str | None, x_title: str, y_title: str, height: int = 480) -> dict:
    return dict(
        title=dict(text=title) if title else dict(text=""),
        height=height,
        font=dict(_FONT),
        hovermode="x unified",
        legend=dict(orientation="h", yanchor="top", y=-0.18, xanchor="left", x=0.0),
        margin=dict(l=70, r=20, t=60 if title else 30, b=110),
        xaxis=_axis(x_title),
        yaxis=_axis(y_title),
        shapes=[],
        annotations=[],
    )


def _vline(layout: dict, x: float, text: str, color: str, dash: str, top: bool) -> None:
    layout["shapes"].append(
        dict(
            type="line",
            xref="x",
            yref="paper",
            x0=x,
            x1=x,
            y0=0,
            y1=1,
            line=dict(color=color, dash=dash, width=1.5),
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
            font=dict(color=color, size=12),
        )
    )


def _hline(
    layout: dict,
    y: float,
    text: str,
    color: str,
    dash: str,
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
            line=dict(color=color, dash=dash, width=width),
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
            xanchor="left" if right else "left",
            yanchor="bottom",
            font=dict(color=color, size=12),
        )
    )


def _line(x, y, name: str, i: int, n_markers: int = 11, **kw) -> dict:
    st = style(i)
    return dict(
        type="scatter",
        x=np.asarray(x, dtype=float),
        y=np.asarray(y, dtype=float),
        name=name,
        mode="lines+markers",
        line=dict(color=st["color"], dash=st["dash"], width=2.5),
        marker=dict(symbol=st["symbol"], size=8, color=st["color"], maxdisplayed=n_markers),
        hovertemplate="%{y:.4f}",
        **kw,
    )


def _curves_parts(
    df: pd.DataFrame, *, theta, cursor, x, title, x_title, y_title, theta_label, start
) -> tuple[list[dict], dict]:
    labels = df.attrs.get("labels", {c: c for c in df.columns if c not in (x, "side")})
    data = [
        _line(df[x], df[k], label, start + i)
        for i, (k, label) in enumerate(labels.items())
        if k in df.columns
    ]
    layout = _base_layout(title, x_title, y_title)
    layout["xaxis"].update(range=[-0.01, 1.01], dtick=0.1)
    if theta is not None:
        _vline(
            layout, float(theta), f"{theta_label} = {float(theta):.3g}", "#555555", "dot", top=True
        )
    if cursor is not None:
        _vline(
            layout, float(cursor), f"cursor {float(cursor):.3g}", "#A0307A", "longdash", top=False
        )
    return data, layout


def curves_figure(
    df: pd.DataFrame,
    *,
    theta: float | None = None,
    cursor: float | None = None,
    x: str = "p",
    title: str | None = None,
    x_title: str = "p = frequency of class 1 (proportion, 0 to 1)",
    y_title: str = "uncertainty (bits for Shannon)",
    theta_label: str = "theta",
    start: int = 0,
) -> go.Figure:
    """Line figure of curve columns against ``x``, a vertical marker at theta and the cursor.

    ``df.attrs["labels"]`` names the curves (column -> label); other columns but ``x`` and
    ``"side"`` are ignored. ``start`` offsets the style index (to keep styles when a figure
    is split in two panels).
    """
    data, layout = _curves_parts(
        df,
        theta=theta,
        cursor=cursor,
        x=x,
        title=title,
        x_title=x_title,
        y_title=y_title,
        theta_label=theta_label,
        start=start,
    )
    return _figure(data, layout)


def derivative_figure(
    df: pd.DataFrame, *, theta: float, title: str | None = None, order: int = 1, start: int = 0
) -> go.Figure:
    """Derivatives from :func:`offcenter.measures.curves.binary_derivatives` (left/right rows at theta
    draw the jump as a vertical step)."""
    what = "first" if order == 1 else "second"
    sym = "d/dp" if order == 1 else "d²/dp²"
    data, layout = _curves_parts(
        df,
        theta=theta,
        cursor=None,
        x="p",
        title=title,
        x_title="p = frequency of class 1 (proportion, 0 to 1)",
        y_title=f"{what} derivative {sym} (per unit of p)",
        theta_label="theta",
        start=start,
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


def ternary_figure(
    tdf: pd.DataFrame,
    *,
    title: str | None = None,
    class_names: Sequence[str] = ("class 1", "class 2", "class 3"),
) -> go.Figure:
    """A measure over the 3-class simplex (colour = value, Cividis scale, readable in grayscale),
    with theta (star) and the grid maximum (diamond) marked."""
    label = tdf.attrs.get("label", "value")
    data = [
        dict(
            type="scatterternary",
            a=tdf["p1"].to_numpy(),
            b=tdf["p2"].to_numpy(),
            c=tdf["p3"].to_numpy(),
            mode="markers",
            name=label,
            marker=dict(
                color=tdf["value"].to_numpy(),
                colorscale="Cividis",
                size=7,
                symbol="triangle-up",
                colorbar=dict(title=dict(text="value")),
                line=dict(width=0),
            ),
            hovertemplate="p = (%{a:.3f}, %{b:.3f}, %{c:.3f})<br>value %{marker.color:.4f}"
            "<extra></extra>",
            showlegend=False,
        )
    ]
    th = tdf.attrs.get("theta")
    if th is not None:
        data.append(
            dict(
                type="scatterternary",
                a=[th[0]],
                b=[th[1]],
                c=[th[2]],
                mode="markers+text",
                name="theta",
                text=["theta"],
                textposition="top center",
                marker=dict(
                    symbol="star", size=18, color="#E69F00", line=dict(color="black", width=1.5)
                ),
            )
        )
    am = tdf.attrs.get("argmax")
    if am is not None:
        data.append(
            dict(
                type="scatterternary",
                a=[am[0]],
                b=[am[1]],
                c=[am[2]],
                mode="markers",
                name="maximum on the grid",
                marker=dict(
                    symbol="diamond-open", size=26, color="black", line=dict(color="black", width=3)
                ),
            )
        )
    layout = dict(
        title=dict(text=title or label),
        height=560,
        font=dict(_FONT),
        ternary=dict(
            sum=1,
            aaxis=dict(title=dict(text=f"p1 ({class_names[0]})"), ticks="outside"),
            baxis=dict(title=dict(text=f"p2 ({class_names[1]})"), ticks="outside"),
            caxis=dict(title=dict(text=f"p3 ({class_names[2]})"), ticks="outside"),
        ),
        legend=dict(orientation="h", y=-0.08),
        margin=dict(l=60, r=60, t=80, b=60),
    )
    return _figure(data, layout)


def transform_bars_figure(table: pd.DataFrame, *, title: str | None = None) -> go.Figure:
    """Grouped bars of p, pi and pi* per class, with theta and 1/q as reference markers.

    Bars are told apart by fill pattern as well as colour (grayscale)."""
    classes = table["class"].tolist()
    bars = [
        ("p", "p (frequencies)", "#0072B2", ""),
        ("pi", "pi (before normalising)", "#E69F00", "/"),
        ("pi*", "pi* (off-centered pseudo-frequencies)", "#009E73", "x"),
    ]
    data = [
        dict(
            type="bar",
            x=classes,
            y=table[col].to_numpy(dtype=float),
            name=name,
            marker=dict(
                color=color,
                pattern=dict(shape=pattern, fgcolor="black", solidity=0.3),
                line=dict(color="black", width=1),
            ),
            hovertemplate="%{y:.4f}",
        )
        for col, name, color, pattern in bars
    ]
    data.append(
        dict(
            type="scatter",
            x=classes,
            y=table["theta"].to_numpy(dtype=float),
            mode="markers",
            name="theta_j",
            marker=dict(symbol="line-ew-open", size=40, color="black", line=dict(width=3)),
            hovertemplate="theta %{y:.4f}",
        )
    )
    q = len(table)
    layout = _base_layout(title, "class", "frequency (proportion)", height=460)
    layout.update(barmode="group", hovermode="x")
    layout["margin"]["r"] = 70
    _hline(layout, 1.0 / q, f"1/q = {1.0 / q:.3g}", "#D55E00", "dash", width=2, right=True)
    return _figure(data, layout)


def transform_maps_figure(
    maps: pd.DataFrame, theta: Sequence[float], *, title: str | None = None
) -> go.Figure:
    """The piecewise-linear maps p_j -> pi_j, one line per class, theta_j marked (pi_j = 1/q)."""
    classes = list(dict.fromkeys(maps["class"]))
    q = len(classes)
    data = []
    for i, c in enumerate(classes):
        sub = maps[maps["class"] == c]
        data.append(_line(sub["p_j"], sub["pi_j"], f"{c} (theta = {theta[i]:.3g})", i))
        data.append(
            dict(
                type="scatter",
                x=[float(theta[i])],
                y=[1.0 / q],
                mode="markers",
                showlegend=False,
                marker=dict(
                    symbol="star",
                    size=14,
                    color=style(i)["color"],
                    line=dict(color="black", width=1),
                ),
                hovertemplate=f"{c}: theta = %{{x:.3f}}, pi = 1/q<extra></extra>",
            )
        )
    data.append(
        dict(
            type="scatter",
            x=[0, 1],
            y=[0, 1],
            mode="lines",
            name="identity (theta uniform)",
            line=dict(color="#999999", dash="dot", width=1),
        )
    )
    layout = _base_layout(
        title, "p_j (frequency of class j)", "pi_j (before normalising)", height=460
    )
    layout.update(
        hovermode="closest",
        legend=dict(
            orientation="v",
            x=0.01,
            y=0.99,
            yanchor="top",
            bgcolor="rgba(255,255,255,0.8)",
            font=dict(size=12),
        ),
    )
    layout["margin"]["b"] = 60
    layout["xaxis"]["range"] = [-0.01, 1.01]
    _hline(layout, 1.0 / q, "1/q", "#555555", "dot", width=1, right=False)
    return _figure(data, layout)
