r"""Curves of measure settings: pure functions of the settings, theta and a grid (no UI).

A curve is a :class:`offcenter.MeasureSetting` whose :class:`offcenter.Impurity` is evaluated
on a grid of distributions: two-class curves and their derivatives, the q-class slice through
theta, the 3-class simplex, a sweep of theta, and the off-centering transform p -> pi -> pi*.
The app's curve pages draw these tables; their page data, user-input parsing and text live in
:mod:`offcenter.app.curve_pages` and :mod:`offcenter.app.curve_text` (which also caches these
functions per process, under ``cached_*`` names).

Conventions
-----------
- A curve's ``theta="prior"`` is the page's reference theta (the curves are drawn for a
  reference distribution, as if it were the class prior); its key (``oc_shannon``) names the
  DataFrame column and :func:`curve_label` its legend entry. The consistent asymmetric entropy
  is drawn at the setting's fixed sample size ``n``.
- Two classes follow the paper's boolean case: ``p`` is the frequency of class 1, the
  distribution is ``(1 - p, p)`` and the reference is ``(1 - theta, theta)``.
- Grids are evenly spaced **and** contain 0, 1 and theta exactly, so the peak at theta and the
  kink of the off-centered entropy are drawn exactly and there is no NaN gap.
- The q-class *slice* through theta: ``p_1 = t`` and the other classes share ``1 - t`` in
  proportion to their theta, ``p_j = (1 - t) theta_j / (1 - theta_1)``; at ``t = theta_1`` the
  slice passes through theta.

References
----------
S. Lallich, P. Lenca and B. Vaillant, *Construction of an off-centered entropy for supervised
learning*, ASMDA 2007 (hal-02121319), Figures 1 and 2, sections 3.2 and 4.

Examples
--------
>>> specs = [MeasureSetting("shannon", theta="prior"), MeasureSetting("asymmetric")]
>>> df = binary_curves(specs, theta=0.2, grid=[0.1, 0.2, 0.6])
>>> df.round(6).to_dict("list")
{'p': [0.1, 0.2, 0.6], 'oc_shannon': [0.811278, 1.0, 0.811278], 'asymmetric': [0.9, 1.0, 0.6]}
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from offcenter.measures._validation import as_distribution, as_theta
from offcenter.measures.entropies import boolean_distribution
from offcenter.measures.offcentering import _off_center
from offcenter.measures.settings import MeasureSetting

__all__ = [
    "curve_label",
    "curve_values",
    "binary_grid",
    "binary_curves",
    "binary_values_at",
    "binary_derivatives",
    "slice_distributions",
    "slice_grid",
    "slice_curves",
    "ternary_grid",
    "ternary_mesh",
    "theta_sweep",
    "moved_setting",
    "param_sweep",
    "transform_table",
    "transform_maps",
    "pi_unnormalised",
]


# ----------------------------------------------------------------------------------------------
# Curves of measure settings
# ----------------------------------------------------------------------------------------------


def curve_label(setting: MeasureSetting) -> str:
    """The legend label of a curve: the setting's label without theta when theta is the page's.

    On the curve pages the reference theta is the page's own (a setting's ``"prior"``), so the
    legend reads ``off-centered Shannon``, ``Asymmetric, consistent (n = 20)``; a setting with
    another theta (``"uniform"``, a vector) says which.

    >>> curve_label(MeasureSetting("daroczy", "prior", beta=0.5))
    'off-centered Daroczy (β = 0.5)'
    >>> curve_label(MeasureSetting("shannon", "uniform"))
    'off-centered Shannon, θ = uniform'
    """
    if setting.theta in (None, "prior"):
        return setting.measure_label
    return setting.label


def curve_values(setting: MeasureSetting, p: np.ndarray, theta) -> np.ndarray:
    """Values of a setting's measure on distributions ``p`` (..., q), the page's theta as prior.

    ``"prior"`` resolves to ``theta``; the consistent asymmetric entropy uses the setting's
    fixed sample size ``n``.
    """
    th = np.asarray(theta, dtype=float)
    imp = setting.impurity(as_theta(th, 2) if th.ndim == 0 else th)
    if setting.consistent:
        return np.asarray(imp(p, n=setting.n), dtype=float)
    return np.asarray(imp(p), dtype=float)


def _check_specs(specs: Sequence[MeasureSetting]) -> list[MeasureSetting]:
    out: list[MeasureSetting] = []
    for s in specs:
        if not isinstance(s, MeasureSetting):
            raise TypeError(f"curves are given as MeasureSetting objects; got {s!r}.")
        if s.alpha is not None:
            raise ValueError(
                f"a curve draws a measure, not a split score: {s.key} has alpha; leave alpha=None."
            )
        if s.consistent and s.n is None:
            raise ValueError(
                f"{s.key}: a curve of the consistent form needs a fixed sample "
                "size n (e.g. MeasureSetting('asymmetric', consistent=True, n=20))."
            )
        if s not in out:
            out.append(s)
    return out


def _theta_binary(theta) -> float:
    th = as_theta(theta, 2)
    return float(th[1])


# ----------------------------------------------------------------------------------------------
# Two classes
# ----------------------------------------------------------------------------------------------


def binary_grid(
    theta: float | None = None, n: int = 401, extra: Sequence[float] = ()
) -> np.ndarray:
    """An evenly spaced grid of [0, 1] with 0, 1, theta and ``extra`` points included exactly.

    Examples
    --------
    >>> g = binary_grid(0.2013, n=5)
    >>> g.tolist()
    [0.0, 0.2013, 0.25, 0.5, 0.75, 1.0]
    """
    if n < 2:
        raise ValueError("a grid needs at least 2 points.")
    pts = [np.linspace(0.0, 1.0, int(n))]
    if theta is not None:
        pts.append(np.atleast_1d(np.asarray(theta, dtype=float)))
    if len(extra):
        pts.append(np.asarray(extra, dtype=float))
    g = np.concatenate(pts)
    g = g[(g >= 0.0) & (g <= 1.0)]
    # merge points closer than 1e-12 (theta = 0.2 and linspace's 0.2 are the same point)
    g = np.unique(np.round(g, 12))
    return g


def binary_curves(specs: Sequence[MeasureSetting], theta, grid=None) -> pd.DataFrame:
    """Values of each curve on the two-class grid.

    Parameters
    ----------
    specs : sequence of MeasureSetting
        The curves; ``theta="prior"`` means off-centered on this page's ``theta``.
    theta : float
        Reference frequency of class 1, 0 < theta < 1.
    grid : array_like, optional
        Frequencies of class 1; default :func:`binary_grid` (401 points plus theta).

    Returns
    -------
    DataFrame
        Column ``"p"`` then one column per curve (named by :attr:`MeasureSetting.key`);
        ``df.attrs["labels"]`` maps column -> legend label, ``df.attrs["theta"]`` is theta.
    """
    t = _theta_binary(theta)
    g = binary_grid(t) if grid is None else np.asarray(grid, dtype=float)
    dist = boolean_distribution(g)
    data = {"p": g}
    labels = {}
    for s in _check_specs(specs):
        k = s.key
        data[k] = curve_values(s, dist, t)
        labels[k] = curve_label(s)
    df = pd.DataFrame(data)
    df.attrs["labels"] = labels
    df.attrs["theta"] = t
    return df


def binary_values_at(specs: Sequence[MeasureSetting], theta, p: float) -> pd.DataFrame:
    """A readout table: every curve's value at one frequency p of class 1.

    Columns ``"curve"`` (label), ``"key"``, ``"value"``.

    Examples
    --------
    >>> binary_values_at([MeasureSetting("shannon")], 0.2, 0.5)["value"].tolist()
    [1.0]
    """
    t = _theta_binary(theta)
    dist = boolean_distribution(float(p))
    rows = [
        {"curve": curve_label(s), "key": s.key, "value": float(curve_values(s, dist, t))}
        for s in _check_specs(specs)
    ]
    return pd.DataFrame(rows, columns=["curve", "key", "value"])


def binary_derivatives(
    specs: Sequence[MeasureSetting], theta, grid=None, order: int = 1, margin: float = 0.01
) -> pd.DataFrame:
    r"""First or second derivative in p of each curve (the paper's section 3.2).

    The off-centered measures are piecewise functions of p with a break at theta, so derivatives
    are computed by finite differences **within each piece**: central differences away from the
    breaks, one-sided differences next to them. At p = theta there are two rows, the left and
    the right derivative, so a jump (first derivative of the misclassification-based curves;
    second derivative of the off-centered Shannon entropy, whose left and right second
    derivatives are :math:`-1/(4\theta^2 \ln 2\,\pi(1-\pi))` and
    :math:`-1/(4(1-\theta)^2 \ln 2\,\pi(1-\pi))`) is drawn as a vertical step. The derivatives of
    Shannon-like measures are infinite at p = 0 and 1, so the grid stops ``margin`` short of
    them.

    Returns
    -------
    DataFrame
        ``"p"``, ``"side"`` (``"left"``/``"right"`` at theta, ``""`` elsewhere) and one column
        per curve; ``attrs["labels"]``, ``attrs["theta"]``, ``attrs["order"]``.

    Examples
    --------
    >>> d = binary_derivatives([MeasureSetting("shannon", "prior")], 0.2, grid=[0.1, 0.2], order=2)
    >>> [round(v, 3) for v in d["oc_shannon"]]
    [-48.09, -36.067, -2.254]
    """
    if order not in (1, 2):
        raise ValueError("order must be 1 or 2.")
    t = _theta_binary(theta)
    g = binary_grid(t, n=201) if grid is None else np.asarray(grid, dtype=float)
    g = g[(g >= margin - 1e-12) & (g <= 1.0 - margin + 1e-12)]
    if np.any(np.isclose(g, t, atol=1e-12)):
        g = np.where(np.isclose(g, t, atol=1e-12), t, g)
    h = 1e-5 if order == 1 else 1e-4
    breaks = (0.0, t, 1.0)
    rows: list[tuple[float, str, int]] = []  # (x, side label, stencil: 0 central, -1, +1)
    for x in g:
        x = float(x)
        if x == t:
            rows.append((x, "left", -1))
            rows.append((x, "right", +1))
            continue
        a = max(b for b in breaks if b <= x)
        b = min(b for b in breaks if b >= x)
        reach = 3 * h
        if x - a >= reach and b - x >= reach:
            rows.append((x, "", 0))
        elif b - x >= reach:
            rows.append((x, "", +1))
        else:
            rows.append((x, "", -1))
    data: dict[str, object] = {"p": [r[0] for r in rows], "side": [r[1] for r in rows]}
    # Stencils as offsets (in units of h) and weights, one row per grid row; every curve is then
    # evaluated once on all the stencil points (vectorised).
    if order == 1:
        stencils = {
            0: ([-1, 1, 0, 0], [-0.5, 0.5, 0, 0]),
            1: ([0, 1, 2, 0], [-1.5, 2.0, -0.5, 0]),
            -1: ([0, -1, -2, 0], [1.5, -2.0, 0.5, 0]),
        }
        scale = 1.0 / h
    else:
        stencils = {
            0: ([-1, 0, 1, 0], [1.0, -2.0, 1.0, 0]),
            1: ([0, 1, 2, 3], [2.0, -5.0, 4.0, -1.0]),
            -1: ([0, -1, -2, -3], [2.0, -5.0, 4.0, -1.0]),
        }
        scale = 1.0 / (h * h)
    xs = np.array([r[0] for r in rows], dtype=float)
    offsets = np.array([stencils[r[2]][0] for r in rows], dtype=float)
    weights = np.array([stencils[r[2]][1] for r in rows], dtype=float)
    points = np.clip(xs[:, None] + offsets * h, 0.0, 1.0)
    dist = boolean_distribution(points.reshape(-1))
    labels = {}
    for s in _check_specs(specs):
        f = curve_values(s, dist, t).reshape(points.shape)
        k = s.key
        data[k] = (f * weights).sum(axis=1) * scale
        labels[k] = curve_label(s)
    df = pd.DataFrame(data)
    df.attrs.update(labels=labels, theta=t, order=order)
    return df


# ----------------------------------------------------------------------------------------------
# q classes
# ----------------------------------------------------------------------------------------------


def slice_grid(theta, n: int = 401) -> np.ndarray:
    """Grid of p_1 for the slice: evenly spaced, with 0, 1 and theta_1 exactly."""
    th = np.asarray(theta, dtype=float)
    return binary_grid(float(th[0]), n=n)


def slice_distributions(theta, t) -> np.ndarray:
    """Distributions on the slice: ``p_1 = t``, ``p_j = (1 - t) theta_j / (1 - theta_1)``.

    Examples
    --------
    >>> slice_distributions([0.6, 0.3, 0.1], [0.6, 1.0]).round(6).tolist()
    [[0.6, 0.3, 0.1], [1.0, 0.0, 0.0]]
    """
    th = as_theta(theta, len(np.atleast_1d(theta)))
    t = np.asarray(t, dtype=float)
    rest = th[1:] / (1.0 - th[0])
    p = np.concatenate([t[..., None], (1.0 - t)[..., None] * rest], axis=-1)
    p[..., 1:] = np.maximum(p[..., 1:], 0.0)
    return p


def slice_curves(specs: Sequence[MeasureSetting], theta, grid=None) -> pd.DataFrame:
    """Values of each curve along the slice through theta.

    Returns
    -------
    DataFrame
        ``"p1"`` then one column per curve; ``attrs["labels"]``, ``attrs["theta"]`` (list).

    Examples
    --------
    >>> df = slice_curves([MeasureSetting("shannon", "prior")], [0.6, 0.3, 0.1], grid=[0.0, 0.6, 1.0])
    >>> df["oc_shannon"].round(6).tolist()
    [0.949452, 1.584963, 0.0]
    """
    th = as_theta(theta, len(np.atleast_1d(theta)))
    g = slice_grid(th) if grid is None else np.asarray(grid, dtype=float)
    dist = slice_distributions(th, g)
    data = {"p1": g}
    labels = {}
    for s in _check_specs(specs):
        k = s.key
        data[k] = curve_values(s, dist, th)
        labels[k] = curve_label(s)
    df = pd.DataFrame(data)
    df.attrs.update(labels=labels, theta=th.tolist())
    return df


def ternary_grid(spec: MeasureSetting, theta, resolution: int = 40) -> pd.DataFrame:
    """A measure over the whole 3-class simplex: a triangular grid plus theta itself.

    Returns
    -------
    DataFrame
        ``"p1", "p2", "p3", "value"``; ``attrs["argmax"]`` is the grid point of largest value
        (theta for every measure off-centered on theta), ``attrs["label"]``, ``attrs["theta"]``.

    Examples
    --------
    >>> df = ternary_grid(MeasureSetting("shannon", "prior"), [0.6, 0.3, 0.1], resolution=10)
    >>> [round(x, 6) for x in df.attrs["argmax"]]
    [0.6, 0.3, 0.1]
    """
    th = as_theta(theta, 3)
    m = int(resolution)
    i, j = np.meshgrid(np.arange(m + 1), np.arange(m + 1), indexing="ij")
    keep = i + j <= m
    a = i[keep] / m
    b = j[keep] / m
    c = np.maximum(1.0 - a - b, 0.0)
    pts = np.stack([a, b, c], axis=-1)
    pts = np.vstack([pts, th[None, :]])
    pts = pts / pts.sum(axis=-1, keepdims=True)
    (spec,) = _check_specs([spec])
    vals = curve_values(spec, pts, th)
    df = pd.DataFrame({"p1": pts[:, 0], "p2": pts[:, 1], "p3": pts[:, 2], "value": vals})
    best = int(np.argmax(vals))
    df.attrs.update(
        argmax=pts[best].tolist(), max=float(vals[best]), label=curve_label(spec), theta=th.tolist()
    )
    return df


def ternary_mesh(spec: MeasureSetting, theta, n: int = 161) -> dict:
    r"""A measure over the 3-class simplex on a fine Cartesian mesh of the triangle (for a
    smooth filled contour or heatmap).

    The triangle has class 1 at the top, class 2 bottom left and class 3 bottom right:
    :math:`x = p_3 + p_1 / 2`, :math:`y = p_1 \sqrt{3} / 2`. Mesh points outside the
    triangle are NaN.

    Parameters
    ----------
    spec : MeasureSetting
        The measure; ``theta="prior"`` is off-centered on ``theta``.
    theta : array_like of 3 floats
        The page's reference distribution.
    n : int, default 161
        Mesh columns across the base (rows in proportion, ``~0.87 n``); at least 11.

    Returns
    -------
    dict
        ``x`` (n,), ``y`` (m,), ``z`` (m, n) values (NaN outside), ``p`` (m, n, 3) the
        distributions, ``theta`` (3,), ``argmax`` (3,) the distribution of largest value among
        the mesh points and theta itself, ``max``, ``label``.

    Examples
    --------
    >>> m = ternary_mesh(MeasureSetting("shannon", "prior"), [0.6, 0.3, 0.1], n=21)
    >>> [round(x, 6) for x in m["argmax"]], m["z"].shape
    ([0.6, 0.3, 0.1], (18, 21))
    """
    n = int(n)
    if n < 11:
        raise ValueError(f"n must be at least 11 mesh columns; got {n}.")
    th = as_theta(theta, 3)
    h = np.sqrt(3.0) / 2.0
    x = np.linspace(0.0, 1.0, n)
    m = int(round(h * (n - 1))) + 1
    y = np.linspace(0.0, h, m)
    X, Y = np.meshgrid(x, y)
    p1 = Y / h
    p3 = X - p1 / 2.0
    p2 = 1.0 - p1 - p3
    p = np.stack([p1, p2, p3], axis=-1)
    inside = (p >= -1e-9).all(axis=-1)
    (spec,) = _check_specs([spec])
    z = np.full(X.shape, np.nan)
    pts = np.clip(p[inside], 0.0, 1.0)
    pts = pts / pts.sum(axis=-1, keepdims=True)
    z[inside] = curve_values(spec, pts, th)
    p[~inside] = np.nan
    best_val = float(curve_values(spec, th[None, :], th)[0])
    flat = int(np.nanargmax(z))
    argmax = th.tolist()
    if z.flat[flat] > best_val:
        best_val = float(z.flat[flat])
        argmax = _pts_at(p, flat)
    return dict(
        x=x, y=y, z=z, p=p, theta=th.tolist(), argmax=argmax, max=best_val, label=curve_label(spec)
    )


def _pts_at(p: np.ndarray, flat: int) -> list[float]:
    """The distribution at a flat index of a mesh of distributions (renormalised)."""
    v = np.clip(p.reshape(-1, 3)[flat], 0.0, 1.0)
    return (v / v.sum()).tolist()


def theta_sweep(
    specs: Sequence[MeasureSetting], thetas, n: int = 201
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Two-class curves for a sequence of theta (the frames of an animation of theta).

    Parameters
    ----------
    specs : sequence of MeasureSetting
        The curves.
    thetas : array_like
        The frames' theta values, each in (0, 1).
    n : int, default 201
        Points of the fixed grid ``linspace(0, 1, n)`` shared by every frame, with every theta
        added exactly (so each off-centered curve peaks exactly at its theta).

    Returns
    -------
    grid : ndarray
        The shared grid.
    values : dict
        key -> array (len(thetas), len(grid)) of the curve's values for each theta.

    Examples
    --------
    >>> g, v = theta_sweep([MeasureSetting("shannon", "prior")], [0.2, 0.7], n=11)
    >>> [float(g[np.argmax(row)]) for row in v["oc_shannon"]]
    [0.2, 0.7]
    """
    ts = np.atleast_1d(np.asarray(thetas, dtype=float))
    if ts.ndim != 1 or ts.size == 0 or not np.all((ts > 0.0) & (ts < 1.0)):
        raise ValueError(f"thetas must be a non-empty list of values in (0, 1); got {thetas!r}.")
    grid = binary_grid(None, n=n, extra=ts)
    specs = _check_specs(specs)
    dist = boolean_distribution(grid)
    values = {s.key: np.empty((ts.size, grid.size)) for s in specs}
    for i, t in enumerate(ts):
        for s in specs:
            values[s.key][i] = curve_values(s, dist, _theta_binary(float(t)))
    return grid, values


def moved_setting(spec: MeasureSetting, name: str, value: float) -> MeasureSetting:
    """``spec`` with its parameter ``name`` set to ``value``, everything else kept: the curve
    a parameter's slider draws at ``value`` (:func:`param_sweep`).

    >>> moved_setting(MeasureSetting("daroczy", "prior", beta=2.0), "beta", 2.3).key
    'oc_daroczy_b2.3'
    """
    return MeasureSetting(
        spec.measure,
        theta=spec.theta,
        params={**spec.params, name: float(value)},
        consistent=spec.consistent,
        n=spec.n,
    )


def param_sweep(
    specs: Sequence[MeasureSetting], theta, name: str, values, n: int = 201
) -> tuple[np.ndarray, dict[str, np.ndarray], dict[str, list[str]]]:
    r"""Two-class curves as one parameter of the measures moves (Daroczy's :math:`\beta`, the
    rank diversity's :math:`\rho`), at one theta: the frames of a parameter's slider.

    Each setting of ``specs`` that takes the parameter ``name`` is drawn with ``name`` set to
    each of ``values`` in turn, everything else (measure, theta, other parameters) kept; the
    settings that do not take it are left out.

    Parameters
    ----------
    specs : sequence of MeasureSetting
        The curves (their keys name the result's entries: the curves as they are now).
    theta : float
        The page's reference frequency of class 1, 0 < theta < 1.
    name : str
        A parameter's name (``"beta"``).
    values : array_like
        The frames' values of the parameter (each within its range).
    n : int, default 201
        Points of the grid ``linspace(0, 1, n)``, theta added exactly (:func:`binary_grid`).

    Returns
    -------
    grid : ndarray
        The shared grid.
    curves : dict
        key -> array (len(values), len(grid)): the curve with the parameter at each value.
    labels : dict
        key -> the legend label (:func:`curve_label`) at each value.

    Examples
    --------
    >>> s = MeasureSetting("daroczy", "prior", beta=2.0)
    >>> g, v, labels = param_sweep([s, MeasureSetting("shannon")], 0.2, "beta", [1.0, 2.0], n=11)
    >>> list(v), labels["oc_daroczy_b2"]
    (['oc_daroczy_b2'], ['off-centered Daroczy (β = 1)', 'off-centered Daroczy (β = 2)'])
    >>> bool(np.allclose(v["oc_daroczy_b2"][1], binary_curves([s], 0.2, g)["oc_daroczy_b2"]))
    True
    """
    steps = np.atleast_1d(np.asarray(values, dtype=float))
    if steps.ndim != 1 or steps.size == 0:
        raise ValueError(f"values must be a non-empty list of numbers; got {values!r}.")
    t = _theta_binary(theta)
    grid = binary_grid(t, n=n)
    dist = boolean_distribution(grid)
    curves: dict[str, np.ndarray] = {}
    labels: dict[str, list[str]] = {}
    for s in _check_specs(specs):
        if name not in s.params:
            continue
        moved = [moved_setting(s, name, v) for v in steps]
        curves[s.key] = np.stack([curve_values(m, dist, t) for m in moved])
        labels[s.key] = [curve_label(m) for m in moved]
    return grid, curves, labels


def pi_unnormalised(p, theta) -> np.ndarray:
    r"""The paper's pi_j before normalisation (section 4).

    :math:`\pi_j = p_j/(q\theta_j)` if :math:`p_j \le \theta_j`, else
    :math:`(q(p_j-\theta_j)+1-p_j)/(q(1-\theta_j))`. Normalising gives
    :func:`offcenter.off_center`.

    >>> pi_unnormalised([0.5, 0.3, 0.2], [0.6, 0.3, 0.1]).round(6).tolist()
    [0.277778, 0.333333, 0.407407]
    """
    p = as_distribution(p)
    th = as_theta(theta, p.shape[-1])
    q = p.shape[-1]
    left = p / (q * th)
    right = (q * (p - th) + 1.0 - p) / (q * (1.0 - th))
    return np.where(p <= th, left, right)


def transform_table(p, theta) -> pd.DataFrame:
    """For one distribution p: per class, p_j, theta_j, pi_j and pi*_j (= off_center(p, theta)).

    Examples
    --------
    >>> transform_table([0.5, 0.3, 0.2], [0.6, 0.3, 0.1])["pi*"].round(6).tolist()
    [0.272727, 0.327273, 0.4]
    """
    p = as_distribution(p)
    th = as_theta(theta, p.shape[-1])
    pi = pi_unnormalised(p, th)
    star = _off_center(p, th)
    q = p.shape[-1]
    return pd.DataFrame(
        {
            "class": [f"class {j + 1}" for j in range(q)],
            "p": p,
            "theta": th,
            "pi": pi,
            "pi*": star,
            "uniform 1/q": np.full(q, 1.0 / q),
        }
    )


def transform_maps(theta, n: int = 101) -> pd.DataFrame:
    """The piecewise-linear maps p_j -> pi_j of every class (long format).

    Columns ``"class"``, ``"p_j"``, ``"pi_j"``; each class's grid includes theta_j, where
    pi_j = 1/q.
    """
    th = as_theta(theta, len(np.atleast_1d(theta)))
    q = th.shape[-1]
    frames = []
    for j in range(q):
        g = binary_grid(float(th[j]), n=n)
        left = g / (q * th[j])
        right = (q * (g - th[j]) + 1.0 - g) / (q * (1.0 - th[j]))
        frames.append(
            pd.DataFrame(
                {"class": f"class {j + 1}", "p_j": g, "pi_j": np.where(g <= th[j], left, right)}
            )
        )
    return pd.concat(frames, ignore_index=True)
