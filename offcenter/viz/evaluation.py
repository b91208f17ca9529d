"""Plotly figures of an :class:`offcenter.evaluation.runner.EvaluationResult` (for the app and notebooks).

Each builder takes a result and returns a ``plotly.graph_objects.Figure``; nothing here touches
Streamlit. Labels are set as plain text (Plotly escapes them; no user HTML is rendered).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from offcenter.evaluation.runner import METRICS, SIZE_COLUMNS, EvaluationResult
from offcenter.viz.format import plot_text
from offcenter.viz.styles import (
    PALETTE,
    legend_title_on_top,
    setting_style,
    typeset,
    wrap_label,
)

__all__ = ["metric_figure", "difference_figure", "roc_figure"]


def _colour(key: object) -> str:
    """The colour of a measure setting (its key: :func:`offcenter.viz.styles.setting_style`, the
    same on every page and whatever else is drawn); a position (int) for anything else."""
    if isinstance(key, str) and key:
        return setting_style(key).color
    return PALETTE[int(key) % len(PALETTE)]


def _metric_name(metric: str) -> str:
    return {**METRICS, **SIZE_COLUMNS}.get(metric, metric)


def _present_boxes(
    fig: go.Figure, title: str, height: int, presentation: bool = True, narrow: bool = False
) -> go.Figure:
    """Presentation or phone size of a box figure (:func:`metric_figure`,
    :func:`difference_figure`). Presentation: the curve pages' type
    (:func:`offcenter.viz.styles.typeset`), the setting names on the x axis wrapped in lines of
    14 characters and kept level, the title in lines of 56, all in ``height`` px (a 1400x900
    screen holds it with its title and axes). Narrow (a phone, 390 px): normal type, the names
    in lines of 12 characters, the title in lines of 36."""
    names, title_width = (14, 56) if presentation else (12, 36)
    for trace in fig.data:
        if trace.type == "box":
            trace.x = [wrap_label(trace.name, names)] * len(trace.y)
        elif trace.x is not None:
            trace.x = [wrap_label(str(v), names) for v in trace.x]
    typeset(fig, presentation)
    fig.update_layout(
        # above the plot with room to spare: Plotly makes room for it (automargin)
        title={
            "text": wrap_label(title, title_width),
            "y": 1,
            "yref": "paper",
            "yanchor": "bottom",
            "pad": {"b": 30 if presentation else 15},
            "automargin": True,
        },
        height=height if presentation else 520,
        margin={"l": 90, "r": 40, "t": 40, "b": 40}
        if presentation
        else {"l": 60, "r": 10, "t": 30, "b": 30},
    )
    fig.update_xaxes(tickangle=0, automargin=True)
    fig.update_yaxes(automargin=True)
    return fig


def metric_figure(
    result: EvaluationResult,
    metric: str = "balanced_accuracy",
    *,
    presentation: bool = False,
    narrow: bool = False,
) -> go.Figure:
    """One box per setting with every fold as a point, and the mean +- std as a diamond.

    ``presentation``: the curve pages' presentation type (:mod:`offcenter.viz.styles`), the
    setting names wrapped, 680 px high; ``narrow`` (a phone): the names and the title wrapped
    to its width.

    Examples
    --------
    >>> from offcenter.evaluation.runner import EvaluationResult, parse_settings
    >>> folds = pd.DataFrame({"setting": ["shannon", "shannon", "gini", "gini"],
    ...     "label": ["Shannon", "Shannon", "Gini", "Gini"], "repeat": 0, "fold": [0, 1, 0, 1],
    ...     "balanced_accuracy": [0.7, 0.8, 0.75, 0.85]})
    >>> r = EvaluationResult(folds, parse_settings("shannon,gini"), {"model": "tree"})
    >>> len(metric_figure(r).data)
    4
    """
    if metric not in METRICS and metric not in SIZE_COLUMNS:
        raise ValueError(f"unknown metric {metric!r}; choose one of {', '.join(METRICS)}.")
    fig = go.Figure()
    for s in result.settings:
        part = result.folds[result.folds["setting"] == s.key]
        values = part[metric].to_numpy(dtype=float) if len(part) else np.zeros(0)
        ok = ~np.isnan(values)
        hover = [
            f"repeat {int(r) + 1}, fold {int(f) + 1}"
            for r, f in zip(part["repeat"].to_numpy()[ok], part["fold"].to_numpy()[ok])
        ]
        name = plot_text(s.label)
        fig.add_trace(
            go.Box(
                y=values[ok],
                name=name,
                boxpoints="all",
                jitter=0.4,
                pointpos=0,
                marker={"color": _colour(s.key), "size": 5, "opacity": 0.6},
                line={"color": _colour(s.key)},
                fillcolor="rgba(0,0,0,0)",
                text=hover,
                hovertemplate="%{text}: %{y:.3f}<extra>" + name + "</extra>",
                showlegend=False,
            )
        )
        if ok.any():
            mean = float(values[ok].mean())
            std = float(values[ok].std(ddof=1)) if ok.sum() > 1 else 0.0
            fig.add_trace(
                go.Scatter(
                    x=[name],
                    y=[mean],
                    mode="markers",
                    marker={"symbol": "diamond", "size": 11, "color": "black"},
                    error_y={"type": "data", "array": [std], "color": "black", "thickness": 1.5},
                    hovertemplate=f"mean {mean:.3f} ± {std:.3f}<extra>{name}</extra>",
                    showlegend=False,
                )
            )
    ref = result.reference
    ref_part = result.folds[result.folds["setting"] == ref]
    if len(ref_part) and metric in ref_part:
        ref_values = ref_part[metric].to_numpy(dtype=float)
        ref_values = ref_values[~np.isnan(ref_values)]
        ref_mean = float(ref_values.mean()) if ref_values.size else float("nan")
        if np.isfinite(ref_mean):
            fig.add_hline(
                y=ref_mean,
                line={"dash": "dot", "color": "grey"},
                annotation_text="reference mean",
                annotation_position="top left",
            )
    title = f"{_metric_name(metric)} per fold ({plot_text(_design(result))})"
    fig.update_layout(
        title=title,
        yaxis_title=_metric_name(metric),
        xaxis_title=None,
        height=440,
        margin={"l": 60, "r": 20, "t": 60, "b": 80},
    )
    if presentation or narrow:
        return _present_boxes(fig, title, 680, presentation, narrow)
    return fig


def difference_figure(
    result: EvaluationResult,
    metric: str = "balanced_accuracy",
    *,
    presentation: bool = False,
    narrow: bool = False,
) -> go.Figure:
    """Fold-wise differences (setting - reference) per setting, with the paired test in the hover.

    Points above 0 are folds where the setting beats the reference. ``presentation`` and
    ``narrow`` as for :func:`metric_figure`.
    """
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; choose one of {', '.join(METRICS)}.")
    paired = result.paired(metrics=[metric])
    ref = result.reference
    ref_rows = result.folds[result.folds["setting"] == ref].set_index(["repeat", "fold"])
    fig = go.Figure()
    for s in result.settings:
        if s.key == ref:
            continue
        mine = result.folds[result.folds["setting"] == s.key].set_index(["repeat", "fold"])
        common = mine.index.intersection(ref_rows.index)
        d = (mine.loc[common, metric] - ref_rows.loc[common, metric]).to_numpy(dtype=float)
        d = d[~np.isnan(d)]
        row = paired[paired["setting"] == s.key]
        info = ""
        if len(row):
            r = row.iloc[0]
            info = (
                f"W/T/L {r['wins']}/{r['ties']}/{r['losses']}, corrected t p = "
                f"{r['t_p']:.3g} (Holm {r['t_p_holm']:.3g}), Wilcoxon p = {r['wilcoxon_p']:.3g}"
            )
        name = plot_text(s.label)
        fig.add_trace(
            go.Box(
                y=d,
                name=name,
                boxpoints="all",
                jitter=0.4,
                pointpos=0,
                marker={"color": _colour(s.key), "size": 5, "opacity": 0.6},
                line={"color": _colour(s.key)},
                hovertemplate="%{y:+.3f}<extra>" + plot_text(info) + "</extra>",
                showlegend=False,
            )
        )
    fig.add_hline(y=0, line={"color": "grey"})
    ref_label = result.labels().get(ref, ref)
    title = f"{_metric_name(metric)}: difference with {plot_text(ref_label)}, fold by fold"
    fig.update_layout(
        title=title,
        yaxis_title=f"difference in {_metric_name(metric)}",
        height=420,
        margin={"l": 60, "r": 20, "t": 60, "b": 80},
    )
    if presentation or narrow:
        return _present_boxes(fig, title, 680, presentation, narrow)
    return fig


def roc_figure(
    result: EvaluationResult, *, presentation: bool = False, narrow: bool = False
) -> go.Figure:
    """Pooled out-of-fold ROC curves of the minority class, one per setting (AUC in the legend).

    ``presentation``: the curve pages' presentation type, the legend in two columns above the
    square plot, headed by the title (:func:`offcenter.viz.styles.legend_title_on_top`), 800 px
    high (a 1400x900 screen holds it); ``narrow`` (a phone): the same layout at normal type,
    one entry per row.

    Examples
    --------
    >>> from offcenter.evaluation.runner import EvaluationResult, parse_settings
    >>> r = EvaluationResult(pd.DataFrame(), parse_settings("shannon"), {"minority": 1},
    ...     scores={"shannon": np.array([[0.9, 0.2, 0.6, 0.1]])},
    ...     y_minority=np.array([True, False, True, False]))
    >>> fig = roc_figure(r); fig.data[1].name
    'Shannon (AUC 1.000)'
    """
    curves = result.roc_curves()
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=[0, 1],
            y=[0, 1],
            mode="lines",
            name="chance",
            line={"dash": "dash", "color": "lightgrey"},
            hoverinfo="skip",
        )
    )
    for s in result.settings:
        c = curves[curves["setting"] == s.key]
        if c.empty:
            continue
        name = f"{plot_text(s.label)} (AUC {float(c['auc'].iloc[0]):.3f})"
        thr = c["threshold"].to_numpy(dtype=float)
        fig.add_trace(
            go.Scatter(
                x=c["fpr"],
                y=c["tpr"],
                mode="lines+markers",
                name=name,
                line={
                    "color": _colour(s.key),
                    "dash": setting_style(s.key).dash,
                    "shape": "linear",
                },
                marker={"size": 4},
                customdata=np.where(np.isinf(thr), np.nan, thr),
                hovertemplate="FPR %{x:.3f}, TPR %{y:.3f}, score >= %{customdata:.3f}<extra>"
                + plot_text(s.label)
                + "</extra>",
            )
        )
    minority = result.config.get("minority")
    title = f"ROC of the minority class {plot_text(repr(minority))}, out-of-fold scores pooled"
    fig.update_layout(
        title=title,
        xaxis={"title": "false positive rate", "range": [0, 1], "constrain": "domain"},
        yaxis={
            "title": "true positive rate (minority recall)",
            "range": [0, 1.02],
            "scaleanchor": "x",
        },
        height=520,
        legend={"orientation": "v"},
        margin={"l": 60, "r": 20, "t": 60, "b": 60},
    )
    if narrow and not presentation:
        typeset(fig, False)
        for trace in fig.data:  # a long setting's entry in two lines: none wider than a phone
            trace.name = wrap_label(trace.name, 34)
        legend_title_on_top(fig, wrap_label(title, 36), False)
        fig.update_layout(height=620, margin={"l": 60, "r": 10, "t": 20, "b": 30})
        fig.update_yaxes(title={"text": "true positive rate<br>(minority recall)"})
    if presentation:
        typeset(fig, True)
        for trace in fig.data:
            trace.line.width = 4
        # two columns when the longest entry fits half of a 1400 px screen's main column
        longest = max((len(tr.name or "") for tr in fig.data), default=0)
        legend_title_on_top(fig, wrap_label(title, 50), True, columns=2 if longest <= 34 else 1)
        fig.update_layout(
            height=800, legend_maxheight=0.4, margin={"l": 90, "r": 40, "t": 20, "b": 40}
        )
        fig.update_xaxes(automargin=True)
        fig.update_yaxes(title={"text": "true positive rate<br>(minority recall)"}, automargin=True)
    return fig


def _design(result: EvaluationResult) -> str:
    c = result.config
    if not c.get("n_splits"):
        return str(c.get("model", ""))
    return (
        f"{c.get('model')}, leaf rule {c.get('leaf_rule')}, {c.get('n_splits')}-fold x "
        f"{c.get('n_repeats')}"
    )


def summary_frame(result: EvaluationResult, metrics=None) -> pd.DataFrame:
    """A readable table for the page: one row per setting, "mean ± std" text cells."""
    metrics = list(metrics) if metrics is not None else [*METRICS, *SIZE_COLUMNS]
    summ = result.summary(metrics)
    out = pd.DataFrame({"setting": summ["label"]})
    for m in metrics:
        digits = 1 if m in SIZE_COLUMNS else 3
        out[_metric_name(m)] = [
            "n/a"
            if np.isnan(a)
            else (f"{a:.{digits}f}" if np.isnan(b) else f"{a:.{digits}f} ± {b:.{digits}f}")
            for a, b in zip(summ[f"{m}_mean"], summ[f"{m}_std"])
        ]
    out["folds"] = summ["n_folds"]
    return out
