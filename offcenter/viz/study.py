"""Plotly figures of the benchmark over many data sets (:mod:`offcenter.evaluation.study`).

- :func:`cd_diagram`: Demsar's (2006) critical-difference diagram: the settings on their average
  rank (in brackets after the name), the best on the left, with a bar joining every group of settings whose ranks differ by
  less than Nemenyi's critical difference (not significantly different).
- :func:`gain_figure`: each setting's gain over Shannon on every data set against the imbalance
  ratio (log scale), with Spearman's rank correlation per setting in the legend: does an effect
  grow with the imbalance?

Nothing here computes a statistic the figure does not show, nor touches Streamlit.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots
from scipy import stats

from offcenter.viz.evaluation import _colour
from offcenter.viz.format import plot_text

__all__ = ["cd_diagram", "cliques", "gain_figure"]


def cliques(mean_ranks, cd: float) -> list[tuple[int, int]]:
    """Maximal runs (i, j) of the settings sorted by rank whose ranks differ by less than ``cd``.

    Indices are in the sorted order; runs of a single setting are left out (Demsar's bars).

    >>> cliques([1.0, 1.5, 3.0, 3.2], 1.0)
    [(0, 1), (2, 3)]
    """
    r = np.sort(np.asarray(mean_ranks, dtype=float))
    runs = []
    for i in range(len(r)):
        j = i
        while j + 1 < len(r) and r[j + 1] - r[i] < cd:
            j += 1
        if j > i and not any(a <= i and j <= b for a, b in runs):
            runs.append((i, j))
    return runs


def cd_diagram(ranks: pd.DataFrame, cd: float, title: str = "", n_data: int | None = None):
    """Critical-difference diagram of average ranks (1 = best, on the left).

    ``ranks`` has the columns ``label`` and ``mean_rank`` (and optionally ``p_holm``, shown in the
    hover). Settings are labelled below the axis, the better half on the left, the others on the
    right, in side margins as wide as their longest label (drawn outside the axes' range, so
    never cut); thick bars join the settings that Nemenyi's test cannot tell apart at the level of
    ``cd``; the CD itself is drawn above the axis.

    Examples
    --------
    >>> df = pd.DataFrame({"label": ["A", "B", "C"], "mean_rank": [1.2, 2.0, 2.8]})
    >>> fig = cd_diagram(df, 1.0)
    >>> sorted(a.text for a in fig.layout.annotations if "(" in a.text)
    ['A (1.20)', 'B (2.00)', 'C (2.80)']
    """
    df = ranks.sort_values("mean_rank", kind="mergesort").reset_index(drop=True)
    k = len(df)
    lo, hi = 1, max(k, 2)
    fig = go.Figure()
    fig.add_shape(type="line", x0=lo, x1=hi, y0=0, y1=0, line={"color": "black", "width": 1.5})
    for t in range(lo, hi + 1):
        fig.add_shape(type="line", x0=t, x1=t, y0=0, y1=0.12, line={"color": "black"})
        fig.add_annotation(x=t, y=0.28, text=str(t), showarrow=False, font={"size": 12})
    # the CD bar above the axis, from rank 1
    fig.add_shape(type="line", x0=lo, x1=lo + cd, y0=0.75, y1=0.75, line={"width": 2})
    for x in (lo, lo + cd):
        fig.add_shape(type="line", x0=x, x1=x, y0=0.68, y1=0.82, line={"width": 2})
    fig.add_annotation(x=lo + cd / 2, y=1.0, text=f"CD = {cd:.2f}", showarrow=False)
    half = (k + 1) // 2
    step = 0.42
    labels = [f"{plot_text(r['label'])} ({r['mean_rank']:.2f})" for _, r in df.iterrows()]
    # the labels sit in the side margins, sized to the longest label of each side (7 px per
    # character of 12 px text, more than Arial's average), so that none is cut at any width
    side = [
        7 * max((len(t) for t in part), default=0) + 25 for part in (labels[:half], labels[half:])
    ]
    for i, row in df.iterrows():
        colour = _colour(row["setting"] if "setting" in df.columns else i)  # the setting's own
        left = i < half
        level = (i + 1) if left else (k - i)
        y = -0.35 - step * level
        x_text = lo - 0.15 if left else hi + 0.15
        fig.add_shape(
            type="path",
            path=f"M {row['mean_rank']} 0 L {row['mean_rank']} {y} L {x_text} {y}",
            line={"color": colour, "width": 1.2},
        )
        hover = f"average rank {row['mean_rank']:.3f}"
        if "p_holm" in df.columns and np.isfinite(row.get("p_holm", np.nan)):
            hover += f", Holm p vs Shannon {row['p_holm']:.3g}"
        fig.add_annotation(
            x=x_text,
            y=y,
            text=labels[i],
            xanchor="right" if left else "left",
            showarrow=False,
            font={"size": 12, "color": colour},
            hovertext=hover,
        )
    for n, (a, b) in enumerate(cliques(df["mean_rank"], cd)):
        y = -0.12 - 0.1 * n
        fig.add_shape(
            type="line",
            x0=df["mean_rank"][a] - 0.03,
            x1=df["mean_rank"][b] + 0.03,
            y0=y,
            y1=y,
            line={"color": "black", "width": 5},
        )
    depth = -0.35 - step * (half + 1)
    subtitle = f" ({n_data} data sets)" if n_data else ""
    fig.update_layout(
        title=plot_text(title) + subtitle if title else None,
        xaxis={"visible": False, "range": [lo - 0.3, hi + 0.3]},
        yaxis={"visible": False, "range": [depth, 1.2]},
        height=max(320, 120 + 32 * half),
        margin={"l": side[0], "r": side[1], "t": 50 if title else 20, "b": 20},
        plot_bgcolor="white",
        showlegend=False,
    )
    return fig


def gain_figure(gains: pd.DataFrame, metric_name: str = "", title: str = "", columns: int = 0):
    """Gain over the reference on each data set against its imbalance ratio (log x).

    ``gains`` has the columns ``label``, ``gain``, ``imbalance_ratio`` and ``data``
    (:func:`offcenter.evaluation.study.gains`). Each setting is one colour; its legend entry gives
    Spearman's rank correlation between gain and imbalance ratio (with its p-value): a positive
    correlation means the setting gains more where the minority is rarer. With ``columns`` > 0,
    one small plot per setting on a grid of that many columns (shared axes), titled likewise.

    Examples
    --------
    >>> g = pd.DataFrame({"data": list("abcd"), "label": "X", "gain": [0.0, 0.01, 0.02, 0.05],
    ...                   "imbalance_ratio": [2.0, 5.0, 20.0, 100.0]})
    >>> gain_figure(g).data[0].name
    'X (ρ = 1.00, p = 0)'
    >>> two = pd.concat([g, g.assign(label="Y", gain=-g["gain"])])
    >>> [a.text for a in gain_figure(two, columns=2).layout.annotations][:2]
    ['X<br>(ρ = 1.00, p = 0)', 'Y<br>(ρ = -1.00, p = 0)']
    """
    groups = [(label, part) for label, part in gains.groupby("label", sort=False)]
    colours = [
        _colour(str(part["setting"].iloc[0]) if "setting" in part.columns else i)
        for i, (_, part) in enumerate(groups)
    ]  # each setting's own colour (its key), as on every page
    facets = columns > 0 and len(groups) > 1
    names = []
    for label, part in groups:
        part = part.dropna(subset=["gain", "imbalance_ratio"])
        if len(part) > 2 and part["gain"].nunique() > 1 and part["imbalance_ratio"].nunique() > 1:
            rho, p = stats.spearmanr(part["imbalance_ratio"], part["gain"])
            stat = f"ρ = {rho:.2f}, p = {p:.2g}"
            # a facet's title in two lines (the setting, then the statistic): one line of both
            # is wider than a facet of a 4-column grid and runs into its neighbour's
            names.append(
                f"{plot_text(label)}<br>({stat})" if facets else f"{plot_text(label)} ({stat})"
            )
        else:
            names.append(plot_text(label))
    if facets:
        rows = -(-len(groups) // columns)
        fig = make_subplots(
            rows=rows,
            cols=columns,
            shared_xaxes=True,
            shared_yaxes=True,
            subplot_titles=names,
            horizontal_spacing=0.03,
            vertical_spacing=0.12,
        )
    else:
        fig = go.Figure()
    for i, ((label, part), name) in enumerate(zip(groups, names)):
        part = part.dropna(subset=["gain", "imbalance_ratio"])
        where = {"row": i // columns + 1, "col": i % columns + 1} if facets else {}
        fig.add_trace(
            go.Scatter(
                x=part["imbalance_ratio"],
                y=part["gain"],
                mode="markers",
                name=name,
                marker={"color": colours[i], "size": 7, "opacity": 0.75},
                text=[plot_text(d) for d in part["data"]],
                hovertemplate="%{text}: IR %{x:.1f}, gain %{y:+.3f}<extra>"
                + plot_text(label)
                + "</extra>",
                showlegend=not facets,
            ),
            **where,
        )
    fig.add_hline(
        y=0, line={"color": "grey"}, row="all" if facets else None, col="all" if facets else None
    )
    x_title = "imbalance ratio (majority / minority, log scale)"
    y_title = f"gain over Shannon in {plot_text(metric_name)}" if metric_name else "gain"
    # every tick labelled in full (Plotly's log axis writes 20 and 50 as "2" and "5")
    ticks = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
    fig.update_xaxes(type="log", tickvals=ticks, ticktext=[str(t) for t in ticks])
    if facets:
        fig.update_annotations(font_size=11)
        fig.update_layout(height=280 * rows + 90)
        fig.add_annotation(
            text=x_title,
            x=0.5,
            y=0,
            xref="paper",
            yref="paper",
            yanchor="top",
            yshift=-30,
            showarrow=False,
        )
        fig.add_annotation(
            text=y_title, x=-0.05, y=0.5, xref="paper", yref="paper", textangle=-90, showarrow=False
        )
    else:
        fig.update_layout(xaxis_title=x_title, yaxis_title=y_title, height=480)
    fig.update_layout(
        title=plot_text(title) if title else None,
        legend={"font": {"size": 11}},
        margin={"l": 70, "r": 20, "t": 70 if title else 40, "b": 70},
    )
    return fig
