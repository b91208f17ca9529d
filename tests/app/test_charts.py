"""offcenter.app.charts: a built figure is drawn without a second conversion, unchanged."""

from __future__ import annotations

import base64
import json

import numpy as np
import plotly.io as pio
import plotly.tools

from offcenter.app.charts import _Spec, figure_spec
from offcenter.app.curve_pages import PRESETS, TWO_CLASS_SCHEMA, cached_binary_curves, page_specs
from offcenter.viz.curves import curves_figure


def _plain(o):
    """JSON with base64 arrays decoded to lists of floats (Plotly 6+ ships arrays as base64)."""
    if isinstance(o, dict):
        if "bdata" in o:
            raw = base64.b64decode(o["bdata"])
            return np.frombuffer(raw, dtype=np.dtype(o["dtype"])).astype(float).tolist()
        return {k: _plain(v) for k, v in o.items()}
    if isinstance(o, list):
        return [_plain(v) for v in o]
    return o


def _sent(figure) -> dict:
    """What st.plotly_chart sends to the browser for this figure (its JSON spec)."""
    spec = plotly.tools.return_figure_from_figure_or_data(figure, validate_figure=True)
    return _plain(json.loads(pio.to_json(spec, validate=False)))


def test_the_spec_sends_the_same_figure_as_plotly():
    values = {**TWO_CLASS_SCHEMA.defaults(), **PRESETS["fig2"]["values"]}
    raw, oc = page_specs(values)
    df = cached_binary_curves(raw + oc, 0.3)
    fig = curves_figure(df, theta=0.3, cursor=0.1, title="Fig. 2", y_title="y")
    assert _sent(_Spec(figure_spec(fig))) == _sent(fig)
    assert len(fig.data) == 7


def test_frames_are_kept():
    import plotly.graph_objects as go

    fig = go.Figure(
        data=[go.Scatter(x=[0, 1], y=[0, 1])],
        frames=[go.Frame(data=[go.Scatter(x=[0, 1], y=[1, 0])], name="f1")],
    )
    spec = figure_spec(fig)
    assert spec["frames"][0]["name"] == "f1"
    assert _sent(_Spec(spec)) == _sent(fig)


def test_curve_data_are_computed_once_per_curves_and_theta():
    raw, oc = page_specs(TWO_CLASS_SCHEMA.defaults())
    first = cached_binary_curves(raw + oc, 0.37)
    again = cached_binary_curves(list(raw + oc), np.float64(0.37))
    assert again is first  # the cached table, shared
    assert cached_binary_curves(raw + oc, 0.38) is not first
