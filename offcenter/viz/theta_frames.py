"""The frames of the Two classes figure that follows the θ slider in the browser.

:mod:`offcenter.app.theta_follow` draws the figure with a custom component that restyles the
off-centered curves as the hand moves θ; this module holds what it is given: the curves for
every θ step of the slider, packed small enough to go with every rerun (:func:`encode_frames`,
read back by :func:`decode_frames` exactly as the component's JavaScript does), and a figure's
JSON (:func:`figure_json`).
"""

from __future__ import annotations

import base64
from collections.abc import Sequence

import numpy as np
import plotly.io as pio

__all__ = ["FOLLOW_POINTS", "FOLLOW_THETAS", "decode_frames", "encode_frames", "figure_json"]

#: The θ slider's steps (0.01 to 0.99): one frame each.
FOLLOW_THETAS = tuple(round(0.01 * k, 2) for k in range(1, 100))
#: Points of the frames' grid, ``linspace(0, 1, 101)``: every θ step is on it, so each
#: off-centered curve of a frame peaks exactly at its θ. The figure the server draws when the
#: hand stops has the page's fine grid (401 points and θ).
FOLLOW_POINTS = 101
#: 16-bit levels of a frame value; the last one marks a value that is not finite.
_LEVELS = 65534
_MISSING = 65535


def encode_frames(grid, sweep: dict, thetas: Sequence[float]) -> dict:
    r"""The off-centered curves for every θ step, compact enough to go with each rerun.

    Each curve's values over all frames are quantised to 16 bits between their minimum and
    maximum, :math:`v \approx lo + q \cdot scale` with :math:`q \in \{0, ..., 65534\}`
    (:math:`scale = (hi - lo)/65534`, a step of :math:`1.5 \cdot 10^{-5}` for curves in
    [0, 1], far below a pixel), 65535 for a value that is not finite.

    Parameters
    ----------
    grid, sweep
        From :func:`offcenter.measures.curves.theta_sweep` (``thetas``, ``n=FOLLOW_POINTS``):
        the shared grid and, per curve key, an array (thetas, grid) of its values.
    thetas : sequence of float
        The frames' θ (:data:`FOLLOW_THETAS` for the θ slider).

    Returns
    -------
    dict
        ``thetas`` (list), ``grid`` (list of :data:`FOLLOW_POINTS` floats) and ``curves``:
        key -> ``{"lo", "scale", "q"}``, ``q`` the base64 of little-endian uint16, frame-major
        (``len(thetas) * len(grid)`` values).
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
        "thetas": [float(t) for t in thetas],
        "grid": [float(g) for g in grid],
        "curves": curves,
    }


def decode_frames(frames: dict) -> dict[str, np.ndarray]:
    """What the browser reads from :func:`encode_frames`: key -> array (thetas, grid), NaN for
    a value that was not finite (the same arithmetic as the component's JavaScript)."""
    n_t, n_g = len(frames["thetas"]), len(frames["grid"])
    out = {}
    for key, c in frames["curves"].items():
        q = np.frombuffer(base64.b64decode(c["q"]), dtype="<u2").reshape(n_t, n_g)
        out[key] = np.where(q == _MISSING, np.nan, c["lo"] + q.astype(float) * c["scale"])
    return out


def figure_json(spec: dict) -> str:
    """A figure's plain dicts (:func:`offcenter.app.charts.figure_spec`) as Plotly's JSON
    (numpy arrays as base64 typed arrays, which plotly.js reads)."""
    return pio.to_json({"data": spec["data"], "layout": spec["layout"]}, validate=False)
