"""The frames of the Two classes figure that follows its sliders (θ, β, ρ) in the browser.

:mod:`offcenter.app.theta_follow` draws the figure with a custom component that restyles the
curves as the hand moves a slider; this module holds what it is given: the curves for every
step of the slider (θ's: :func:`offcenter.measures.curves.theta_sweep`; a parameter's, with
the legend label of each step: :func:`offcenter.measures.curves.param_sweep`), packed small
enough to go with every rerun (:func:`encode_frames`, read back by :func:`decode_frames`
exactly as the component's JavaScript does), the steps of a parameter's slider
(:func:`slider_steps`), and a figure's JSON (:func:`figure_json`).
"""

from __future__ import annotations

import base64
from collections.abc import Sequence

import numpy as np
import plotly.io as pio

__all__ = [
    "FOLLOW_POINTS",
    "FOLLOW_THETAS",
    "decode_frames",
    "encode_frames",
    "figure_json",
    "slider_steps",
]

#: The θ slider's steps (0.01 to 0.99): one frame each.
FOLLOW_THETAS = tuple(round(0.01 * k, 2) for k in range(1, 100))
#: Points of the frames' grid, ``linspace(0, 1, 101)``: every θ step is on it, so each
#: off-centered curve of a frame peaks exactly at its θ. The figure the server draws when the
#: hand stops has the page's fine grid (401 points and θ).
FOLLOW_POINTS = 101
#: 16-bit levels of a frame value; the last one marks a value that is not finite.
_LEVELS = 65534
_MISSING = 65535


def slider_steps(low: float, high: float, step: float) -> tuple[float, ...]:
    """Every value of a slider from ``low`` to ``high`` by ``step`` (rounded to 10 decimals:
    ``0.1 * 3`` is 0.3, as the slider shows it): one frame each.

    >>> slider_steps(0.0, 0.5, 0.1)
    (0.0, 0.1, 0.2, 0.3, 0.4, 0.5)
    """
    if not step > 0 or high < low:
        raise ValueError(f"a slider needs low <= high and step > 0; got {low}, {high}, {step}.")
    count = int(round((high - low) / step))
    return tuple(round(low + k * step, 10) + 0.0 for k in range(count + 1))


def encode_frames(
    grid,
    sweep: dict,
    steps: Sequence[float],
    names: dict[str, Sequence[str]] | None = None,
    styles: dict[str, Sequence] | None = None,
) -> dict:
    r"""The moving curves for every step of a slider, compact enough to go with each rerun.

    Each curve's values over all frames are quantised to 16 bits between their minimum and
    maximum, :math:`v \approx lo + q \cdot scale` with :math:`q \in \{0, ..., 65534\}`
    (:math:`scale = (hi - lo)/65534`, a step of :math:`1.5 \cdot 10^{-5}` for curves in
    [0, 1], far below a pixel), 65535 for a value that is not finite.

    Parameters
    ----------
    grid, sweep
        From :func:`offcenter.measures.curves.theta_sweep` (``thetas``, ``n=FOLLOW_POINTS``)
        or :func:`~offcenter.measures.curves.param_sweep`: the shared grid and, per curve key,
        an array (steps, grid) of its values.
    steps : sequence of float
        The frames' values of the slider (:data:`FOLLOW_THETAS` for the θ slider).
    names : dict, optional
        Per curve key, its legend label at each step (a parameter's value is in the label).
    styles : dict, optional
        Per curve key, its :class:`~offcenter.viz.styles.Style` at each step (a setting's
        colour, dash and marker come from its key, which holds the parameter's value:
        :func:`~offcenter.viz.styles.setting_style`).

    Returns
    -------
    dict
        ``steps`` (list), ``grid`` (list of floats), ``curves``: key -> ``{"lo", "scale",
        "q"}``, ``q`` the base64 of little-endian uint16, frame-major (``len(steps) *
        len(grid)`` values), ``names`` (key -> list of labels, empty without ``names``) and
        ``styles`` (key -> ``{"color", "dash", "symbol"}``, a list of each at every step;
        empty without ``styles``).
    """
    curves = {}
    for key, values in sweep.items():
        values = np.asarray(values, dtype=float)
        finite = np.isfinite(values)
        lo = float(values[finite].min()) if finite.any() else 0.0
        hi = float(values[finite].max()) if finite.any() else 0.0
        scale = (hi - lo) / _LEVELS if hi > lo else 1.0
        q = np.full(values.shape, _MISSING, dtype="<u2")
        q[finite] = np.round((values[finite] - lo) / scale).astype("<u2")
        curves[key] = {
            "lo": lo,
            "scale": scale,
            "q": base64.b64encode(q.tobytes()).decode("ascii"),
        }
    return {
        "steps": [float(t) for t in steps],
        "grid": [float(g) for g in grid],
        "curves": curves,
        "names": {k: [str(x) for x in v] for k, v in (names or {}).items() if k in curves},
        "styles": {
            k: {
                "color": [st.color for st in v],
                "dash": [st.dash for st in v],
                "symbol": [st.symbol for st in v],
            }
            for k, v in (styles or {}).items()
            if k in curves
        },
    }


def decode_frames(frames: dict) -> dict[str, np.ndarray]:
    """What the browser reads from :func:`encode_frames`: key -> array (steps, grid), NaN for
    a value that was not finite (the same arithmetic as the component's JavaScript)."""
    n_t, n_g = len(frames["steps"]), len(frames["grid"])
    out = {}
    for key, c in frames["curves"].items():
        q = np.frombuffer(base64.b64decode(c["q"]), dtype="<u2").reshape(n_t, n_g)
        out[key] = np.where(q == _MISSING, np.nan, c["lo"] + q.astype(float) * c["scale"])
    return out


def figure_json(spec: dict) -> str:
    """A figure's plain dicts (:func:`offcenter.app.charts.figure_spec`) as Plotly's JSON
    (numpy arrays as base64 typed arrays, which plotly.js reads)."""
    return pio.to_json({"data": spec["data"], "layout": spec["layout"]}, validate=False)
