"""Drawing a built Plotly figure without paying for it twice.

``st.plotly_chart(fig)`` turns a ``go.Figure`` into a dict with ``fig.to_dict()``: a deep copy of
every trace, the layout and its template, then a walk converting every array to base64. The
figure builders of :mod:`offcenter.viz` already assemble plain dicts (wrapped without Plotly's
validation), so :func:`plotly_chart` hands Streamlit those dicts as they are: the JSON sent to the
browser is the same figure (arrays as lists instead of base64), at a fraction of the cost of a
curves-page rerun's figure work (docs/performance.md).
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import streamlit as st
from plotly.basedatatypes import BaseFigure

from offcenter.app.presentation import is_narrow
from offcenter.viz.curves import png_config

__all__ = ["chart_config", "figure_spec", "plotly_chart"]


class _Spec(BaseFigure):
    """A figure already in plain-dict form: ``to_dict()`` returns it without copying.

    Only :func:`plotly.tools.return_figure_from_figure_or_data` (what ``st.plotly_chart`` calls)
    sees it; it is never used as a ``go.Figure``.
    """

    def __init__(self, spec: dict) -> None:  # no BaseFigure.__init__: nothing to validate
        self._spec = spec

    def to_dict(self) -> dict:
        return self._spec


def figure_spec(fig: go.Figure) -> dict:
    """The plain dict of a ``go.Figure``: its traces, layout and frames, not copied.

    Figures built with ``_validate=False`` keep the dicts they were given; the arrays stay numpy
    arrays (Plotly's JSON encoder writes them).
    """
    data = getattr(fig, "_data", None)
    layout = getattr(fig, "_layout", None)
    if not isinstance(data, list) or not isinstance(layout, dict):
        return fig.to_dict()  # another Plotly version: the safe, slower way
    spec: dict[str, Any] = {"data": data, "layout": layout}
    if fig.frames:
        spec["frames"] = [f.to_plotly_json() for f in fig.frames]
    return spec


def chart_config(filename: str) -> dict:
    """The ``config`` of a curve page's figure: the modebar's PNG named ``filename``.png
    (:func:`offcenter.viz.curves.png_config`), and no modebar on a narrow screen.

    A touch screen shows Plotly's modebar all the time, over the figure's top right corner,
    where the legend and its title are on a phone (390 px): there it is left out (the PNG is a
    desktop's business; Streamlit's own fullscreen button stays).
    """
    config = png_config(filename)
    if is_narrow():
        config["displayModeBar"] = False
    return config


def plotly_chart(fig: go.Figure | dict, *, container=None, **kwargs):
    """``st.plotly_chart(fig, **kwargs)`` (in ``container``), without ``fig.to_dict()``.

    ``fig`` is a ``go.Figure`` or a figure already in plain dicts (``{"data": [...],
    "layout": {...}}``, e.g. :meth:`offcenter.viz.tree.TreeDrawing.spec`), sent as it is.

    On a narrow screen (a phone) the chart has no modebar, whatever its ``config`` (as
    :func:`chart_config`): a touch screen shows it all the time, over the figure's text (the
    Tree page's node labels, its gain plot's legend)."""
    if is_narrow():
        kwargs["config"] = {**(kwargs.get("config") or {}), "displayModeBar": False}
    target = st if container is None else container
    spec = fig if isinstance(fig, dict) else figure_spec(fig)
    return target.plotly_chart(_Spec(spec), **kwargs)
