"""Plotly figures of the benchmark over many data sets (:mod:`offcenter.studies.keel`).

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
from offcenter.viz.styles import legend_title_on_top, typeset, typography, wrap_label

__all__ = [
    "STUDY_COLOURS",
    "cd_diagram",
    "cliques",
    "common_range",
    "dataset_figure",
    "gain_figure",
    "study_colour",
]

#: One colour per setting of the study (no two alike; viz/styles.py gives Shannon and balanced
#: Shannon the same black): the classic "tab20"-like hues, Shannon black as the reference.
STUDY_COLOURS = {
    "shannon": "#000000",
    "gini": "#7f7f7f",
    "dkm": "#8c564b",
    "hellinger": "#c49c94",
    "shannon_balanced": "#1f77b4",
    "gini_balanced": "#17becf",
    "oc_shannon": "#d62728",
    "oc_gini": "#ff7f0e",
    "oc_daroczy_b0.5": "#e377c2",
    "asymmetric": "#2ca02c",
    "asymmetric_consistent": "#98df8a",
    "sklearn_balanced": "#9467bd",
    "split_weighted_forest": "#bcbd22",
}


def study_colour(key: object) -> str:
    """The study's colour of a setting key (:data:`STUDY_COLOURS`), else the app's colour."""
    if isinstance(key, str) and key in STUDY_COLOURS:
        return STUDY_COLOURS[key]
    return _colour(key)


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


#: What the CD diagram's marks mean, under the diagram (it and the tables agree by construction).
NOTE = (
    "Bars: Nemenyi's test cannot tell these apart (all pairs). "
    "▲ / ▼: better / worse than Shannon by the decision rule (Wilcoxon-Holm)."
)


def _mark(row) -> str:
    if not bool(row.get("significant", False)):
        return ""
    return " ▲" if row["mean_diff"] > 0 else " ▼"


def cd_diagram(
    ranks: pd.DataFrame,
    cd: float,
    title: str = "",
    n_data: int | None = None,
    *,
    presentation: bool = False,
    narrow: bool = False,
):
    """Critical-difference diagram of average ranks (1 = best, on the left).

    ``presentation``: the curve pages' presentation type (:mod:`offcenter.viz.styles`), each
    label in lines of 24 characters, so that both sides' labels and the axis share a 1400 px
    screen's main column, and the title in lines of 48. ``narrow`` (a phone, 390 px): normal
    type, labels in lines of 14 characters and the title in lines of 36.

    ``ranks`` has the columns ``label`` and ``mean_rank`` (and optionally ``p_holm``, shown in the
    hover). With the columns ``significant`` and ``mean_diff`` of
    :func:`offcenter.studies.keel.analysis.rank_tests`, the settings that the decision rule
    (Wilcoxon-Holm against Shannon) calls better or worse are marked ▲ or ▼ and a note under the
    axis says what the bars and the marks mean: the bars are Nemenyi's all-pairs test, which can
    put a marked setting in Shannon's clique (it answers another question), so the picture and
    the tables never disagree silently. Settings are labelled below the axis, the better half on the left, the others on the
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
    t = typography(presentation)
    small = 12 if not presentation else t.annotation  # the labels' and ranks' text (px)
    fig = go.Figure()
    fig.add_shape(type="line", x0=lo, x1=hi, y0=0, y1=0, line={"color": "black", "width": 1.5})
    for tick in range(lo, hi + 1):
        fig.add_shape(type="line", x0=tick, x1=tick, y0=0, y1=0.12, line={"color": "black"})
        fig.add_annotation(x=tick, y=0.28, text=str(tick), showarrow=False, font={"size": small})
    # the CD bar above the axis, from rank 1
    fig.add_shape(type="line", x0=lo, x1=lo + cd, y0=0.75, y1=0.75, line={"width": 2})
    for x in (lo, lo + cd):
        fig.add_shape(type="line", x0=x, x1=x, y0=0.68, y1=0.82, line={"width": 2})
    fig.add_annotation(
        x=lo + cd / 2, y=1.0, text=f"CD = {cd:.2f}", showarrow=False, font={"size": small}
    )
    half = (k + 1) // 2
    # presentation: two-line labels need twice the room between two settings' lines
    step = 0.9 if presentation else (1.0 if narrow else 0.42)
    marked = "significant" in df.columns and "mean_diff" in df.columns
    labels = [
        f"{plot_text(r['label'])} ({r['mean_rank']:.2f})" + (_mark(r) if marked else "")
        for _, r in df.iterrows()
    ]
    if presentation or narrow:  # in lines of 24 (14 on a phone) characters
        labels = [wrap_label(x, 24 if presentation else 14) for x in labels]
    # the labels sit in the side margins, sized to the longest line of each side's labels
    # (7 px per character of 12 px text, more than Arial's average; 0.55 em at presentation
    # size, more than Source Sans's), so that none is cut at any width
    per_char = 7 if not presentation else 0.55 * small
    side = [
        int(per_char * max((len(line) for x in part for line in x.split("<br>")), default=0)) + 25
        for part in (labels[:half], labels[half:])
    ]
    for i, row in df.iterrows():
        colour = study_colour(row["setting"] if "setting" in df.columns else i)
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
            hover += f", Wilcoxon-Holm p vs Shannon {row['p_holm']:.3g}"
        fig.add_annotation(
            x=x_text,
            y=y,
            text=labels[i],
            xanchor="right" if left else "left",
            showarrow=False,
            font={"size": small, "color": colour},
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
    if marked:
        fig.add_annotation(
            x=(lo + hi) / 2,
            y=depth + 0.05,
            text=wrap_label(NOTE, 60)
            if presentation
            else (wrap_label(NOTE, 48) if narrow else NOTE),
            showarrow=False,
            font={"size": 11 if not presentation else t.annotation, "color": "#444"},
            yanchor="top" if presentation or narrow else "middle",
        )
        depth -= 1.2 if presentation or narrow else 0.35
    subtitle = f" ({n_data} data sets)" if n_data else ""
    full_title = plot_text(title) + subtitle if title else None
    fig.update_layout(
        title=full_title,
        xaxis={"visible": False, "range": [lo - 0.3, hi + 0.3]},
        yaxis={"visible": False, "range": [depth, 1.2]},
        height=max(320, 120 + 32 * half),
        margin={"l": side[0], "r": side[1], "t": 50 if title else 20, "b": 20},
        plot_bgcolor="white",
        showlegend=False,
    )
    if narrow and not presentation:  # 48 px per unit of y: a level holds three lines of 12 px
        fig.update_layout(
            title={"text": wrap_label(full_title, 36) if full_title else None},
            height=int(100 + 48 * (1.2 - depth)),
            margin={"t": 70 if title else 20},
        )
    if presentation:
        typeset(fig, True)
        # 70 px per unit of y: a level (0.9) holds a two-line label of 22 px text
        fig.update_layout(
            title={"text": wrap_label(full_title, 48) if full_title else None},
            height=min(860, int(120 + 70 * (1.2 - depth))),
            margin={"t": 100 if title else 20},
        )
    return fig


def gain_figure(
    gains: pd.DataFrame,
    metric_name: str = "",
    title: str = "",
    columns: int = 0,
    y_range: tuple[float, float] | None = None,
    *,
    presentation: bool = False,
    narrow: bool = False,
):
    """Gain over the reference on each data set against its imbalance ratio (log x).

    ``presentation`` (one plot, ``columns`` = 0): the curve pages' presentation type
    (:mod:`offcenter.viz.styles`), the legend in two columns above the plot headed by the title
    (each entry in two lines: the setting, its statistic), 820 px high at most (a 1400x900
    screen holds it); ``narrow`` (a phone): the same at normal type, one entry per row.

    ``gains`` has the columns ``label``, ``gain``, ``imbalance_ratio`` and ``data``
    (:func:`offcenter.studies.keel.analysis.gains`). Each setting is one colour; its legend entry gives
    Spearman's rank correlation between gain and imbalance ratio (with its p-value): a positive
    correlation means the setting gains more where the minority is rarer. With ``columns`` > 0,
    one small plot per setting on a grid of that many columns (shared axes), titled likewise, with
    the y-axis title on every row. ``y_range`` fixes the y-axis (the same for every figure of a
    metric: :func:`common_range`).

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
        study_colour(str(part["setting"].iloc[0]) if "setting" in part.columns else i)
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
        short = f"gain in {plot_text(metric_name)}" if metric_name else "gain"
        for r in range(1, rows + 1):
            fig.update_yaxes(title_text=short, title_font_size=11, row=r, col=1)
    else:
        fig.update_layout(xaxis_title=x_title, yaxis_title=y_title, height=480)
    if y_range is not None:
        fig.update_yaxes(range=list(y_range))
    fig.update_layout(
        title=plot_text(title) if title else None,
        legend={"font": {"size": 11}},
        margin={"l": 70, "r": 20, "t": 70 if title else 40, "b": 70},
    )
    if narrow and not presentation and not facets:
        typeset(fig, False)
        for trace in fig.data:
            trace.name = trace.name.replace(" (ρ", "<br>(ρ", 1)
        for trace in fig.data:
            trace.name = "<br>".join(wrap_label(part, 34) for part in trace.name.split("<br>"))
        legend_title_on_top(fig, wrap_label(plot_text(title), 36) if title else None, False)
        fig.update_layout(
            height=420 + 40 * len(groups),
            legend_maxheight=0.7,
            xaxis_title_text=wrap_label(x_title, 30),
            yaxis_title_text=wrap_label(y_title, 24),
            margin={"l": 60, "r": 10, "t": 20, "b": 30},
        )
    if presentation and not facets:
        typeset(fig, True)
        for trace in fig.data:  # the setting, then its statistic: two columns fit 1400 px
            trace.name = trace.name.replace(" (ρ", "<br>(ρ", 1)
        rows = -(-len(groups) // 2)
        legend_title_on_top(fig, wrap_label(plot_text(title), 50) if title else None, True, 2)
        fig.update_layout(
            height=min(820, 460 + 60 * rows),
            legend_maxheight=0.6,  # a fraction of the figure: the whole legend, never cut
            yaxis_title_text=wrap_label(y_title, 24),
            margin={"l": 100, "r": 40, "t": 20, "b": 40},
        )
        fig.update_traces(marker_size=11)
    return fig


def common_range(*gain_tables: pd.DataFrame, pad: float = 0.05) -> tuple[float, float]:
    """One y-range for several gain tables of a metric (symmetric around 0, padded).

    >>> common_range(pd.DataFrame({"gain": [-0.1, 0.2]}), pd.DataFrame({"gain": [0.3]}))
    (-0.315, 0.315)
    """
    m = max((float(np.nanmax(np.abs(g["gain"]))) for g in gain_tables if len(g)), default=0.1)
    m = m * (1 + pad) if m > 0 else 0.1
    return (-round(m, 6), round(m, 6))


def dataset_figure(
    gains: pd.DataFrame, metric_name: str = "", title: str = "", *, presentation: bool = False
):
    """Which data sets drive a result: each setting's gain over Shannon per data set, a heatmap.

    ``presentation``: the curve pages' presentation type, a row of 26 px per data set (a list
    of 41 data sets is taller than a screen: it scrolls, as a table would).

    Rows: the data sets sorted by imbalance ratio (IR in the row label); columns: the settings;
    colour: the gain (diverging, symmetric around 0: red where the setting loses to Shannon,
    blue where it wins). ``gains`` as for :func:`gain_figure`.

    Examples
    --------
    >>> g = pd.DataFrame({"data": ["a", "b", "a", "b"], "setting": ["x", "x", "y", "y"],
    ...     "label": ["X", "X", "Y", "Y"], "gain": [0.1, -0.2, 0.0, 0.05],
    ...     "imbalance_ratio": [2.0, 9.0, 2.0, 9.0]})
    >>> fig = dataset_figure(g)
    >>> list(fig.data[0].y), list(fig.data[0].x)
    (['b (IR 9.0)', 'a (IR 2.0)'], ['X', 'Y'])
    """
    df = gains.dropna(subset=["gain"])
    order = df.drop_duplicates("data").sort_values(
        ["imbalance_ratio", "data"], ascending=[False, True], kind="mergesort"
    )
    rows = order["data"].tolist()
    names = [f"{plot_text(d)} (IR {ir:.1f})" for d, ir in zip(rows, order["imbalance_ratio"])]
    cols = list(dict.fromkeys(df["label"]))
    z = df.pivot_table(index="data", columns="label", values="gain", sort=False)
    z = z.reindex(index=rows, columns=cols)
    m = float(np.nanmax(np.abs(z.to_numpy()))) if z.size else 1.0
    fig = go.Figure(
        go.Heatmap(
            z=z.to_numpy(),
            x=[plot_text(c) for c in cols],
            y=names,
            zmid=0,
            zmin=-m,
            zmax=m,
            colorscale="RdBu",
            colorbar={"title": {"text": "gain"}},
            hovertemplate="%{y}<br>%{x}: %{z:+.3f}<extra></extra>",
        )
    )
    fig.update_layout(
        title=plot_text(title) if title else None,
        height=160 + 16 * len(rows),
        xaxis={"tickangle": -35, "title": f"gain over Shannon in {plot_text(metric_name)}"},
        # the first row (the most imbalanced) at the top: a heatmap's categories go upwards
        yaxis={
            "title": "data set, most imbalanced at the top",
            "tickfont": {"size": 10},
            "autorange": "reversed",
        },
        margin={"l": 230, "r": 20, "t": 60 if title else 30, "b": 160},
    )
    if presentation:
        typeset(fig, True)
        fig.update_traces(colorbar={"title": {"font": {"size": 22}}, "tickfont": {"size": 20}})
        fig.update_layout(
            height=320 + 26 * len(rows),
            xaxis={
                "title": {"text": wrap_label(f"gain over Shannon in {plot_text(metric_name)}", 40)}
            },
            yaxis={"tickfont": {"size": 20}, "automargin": True},
            margin={"l": 20, "t": 80 if title else 30, "b": 40},
        )
        fig.update_xaxes(tickangle=-90, automargin=True)  # one line per setting, 20 px
    return fig


def effect_figure(
    families: dict,
    metric_name: str = "",
    title: str = "",
    *,
    presentation: bool = False,
    narrow: bool = False,
):
    """Each setting's difference from Shannon with its 95 % CI, one panel per family.

    ``presentation``: the curve pages' presentation type (:mod:`offcenter.viz.styles`), the
    setting names in lines of 28 characters, the title in lines of 56, 820 px high at most
    (a 1400x900 screen holds it).

    ``families`` maps a panel title to the ``ranks`` table of
    :func:`offcenter.studies.keel.analysis.rank_tests` (columns ``setting``, ``label``,
    ``median_diff``, ``ci_low``, ``ci_high``, ``mean_diff``, ``significant``, ``wins``,
    ``losses``). A dot is the median difference over the data sets, the bar its bootstrap
    95 % CI; filled (and marked ▲/▼) when the decision rule (Wilcoxon-Holm) calls the
    setting better or worse than Shannon, hollow otherwise. The settings keep one row order in
    every panel (that of the first).

    Examples
    --------
    >>> r = pd.DataFrame({"setting": ["shannon", "gini"], "label": ["Shannon", "Gini"],
    ...     "median_diff": [np.nan, 0.02], "ci_low": [np.nan, 0.01], "ci_high": [np.nan, 0.03],
    ...     "mean_diff": [np.nan, 0.02], "significant": [False, True], "wins": [np.nan, 30],
    ...     "ties": [np.nan, 1], "losses": [np.nan, 10]})
    >>> fig = effect_figure({"A": r})
    >>> list(fig.data[0].y), list(fig.data[0].text), fig.data[0].marker.symbol
    (['Gini'], ['▲'], ('circle',))
    """
    names = list(families)
    fig = make_subplots(
        rows=1,
        cols=max(1, len(names)),
        shared_yaxes=True,
        subplot_titles=[plot_text(n) for n in names],
        horizontal_spacing=0.04,
    )
    first = None
    for c, name in enumerate(names, start=1):
        df = families[name]
        df = df[np.isfinite(df["median_diff"].astype(float))]
        if first is None:
            first = df["setting"].tolist()
        df = df.set_index("setting").reindex([k for k in first if k in set(df["setting"])])
        ylab = [plot_text(r["label"]) for _, r in df.iterrows()]  # one category per setting
        marks = [_mark(r).strip() for _, r in df.iterrows()]
        sig = df["significant"].astype(bool).to_numpy()
        fig.add_trace(
            go.Scatter(
                x=df["median_diff"],
                y=ylab,
                mode="markers+text",
                text=marks,
                textposition="top center",
                marker={
                    "symbol": ["circle" if s else "circle-open" for s in sig],
                    "size": 10,
                    "color": [study_colour(k) for k in df.index],
                    "line": {"width": 2},
                },
                error_x={
                    "type": "data",
                    "symmetric": False,
                    "array": (df["ci_high"] - df["median_diff"]).to_numpy(),
                    "arrayminus": (df["median_diff"] - df["ci_low"]).to_numpy(),
                    "color": "#555",
                    "thickness": 1.2,
                },
                customdata=np.column_stack([df["mean_diff"], df["wins"], df["ties"], df["losses"]]),
                hovertemplate="%{y}: median %{x:+.4f}, mean %{customdata[0]:+.4f}; "
                "W/T/L %{customdata[1]}/%{customdata[2]}/%{customdata[3]}<extra></extra>",
                showlegend=False,
            ),
            row=1,
            col=c,
        )
        fig.add_vline(x=0, line={"color": "grey", "dash": "dot"}, row=1, col=c)
        fig.update_xaxes(
            title_text=f"difference from Shannon in {plot_text(metric_name)}"
            if metric_name
            else "difference from Shannon",
            title_font_size=11,
            row=1,
            col=c,
        )
    fig.update_yaxes(autorange="reversed")
    n = len(first or [])
    fig.update_layout(
        title=plot_text(title) if title else None,
        height=140 + 30 * n,
        margin={"l": 10, "r": 20, "t": 70 if title else 40, "b": 60},
        plot_bgcolor="white",
    )
    fig.update_xaxes(showgrid=True, gridcolor="#eee", zeroline=False)
    if narrow and not presentation:
        for trace in fig.data:
            trace.y = [wrap_label(v, 16) for v in trace.y]
        typeset(fig, False)
        fig.for_each_xaxis(lambda ax: ax.update(title_text=wrap_label(ax.title.text or "", 16)))
        fig.update_xaxes(title_font_size=12, tickfont_size=12, automargin=True)
        fig.update_yaxes(tickfont_size=12)
        fig.update_annotations(font_size=13)
        fig.update_layout(
            title={
                "text": wrap_label(plot_text(title), 36) if title else None,
                "y": 1,
                "yref": "paper",
                "yanchor": "bottom",
                "pad": {"b": 30},
                "automargin": True,
            },
            height=200 + 50 * n,
            margin={"l": 10, "r": 10, "t": 30, "b": 30},
        )
    if presentation:
        for trace in fig.data:
            trace.y = [wrap_label(v, 28) for v in trace.y]
            trace.marker.size = 15
            trace.textfont = {"size": 20}
        typeset(fig, True)
        fig.for_each_xaxis(lambda ax: ax.update(title_text=wrap_label(ax.title.text or "", 22)))
        fig.update_xaxes(title_font_size=20, automargin=True)
        fig.update_yaxes(tickfont_size=20)
        fig.update_layout(
            # above the panels' titles: Plotly makes room for it (automargin)
            title={
                "text": wrap_label(plot_text(title), 56) if title else None,
                "y": 1,
                "yref": "paper",
                "yanchor": "bottom",
                "pad": {"b": 45},
                "automargin": True,
            },
            height=min(820, 250 + 56 * n),
            margin={"l": 10, "r": 40, "t": 40, "b": 40},
        )
    return fig
