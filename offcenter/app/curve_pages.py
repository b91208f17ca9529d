"""Page state of the curves pages: URL schemas, the paper's figures as presets, the curves a
page's settings ask for, and the cached curve data (Streamlit-free, but only the app uses it).

The curve functions of :mod:`offcenter.measures.curves` are pure; the pages call their cached
twins here, named ``cached_binary_curves``, ``cached_slice_curves``, ... (one LRU cache per
process); the page text and typed-input parsing are in :mod:`offcenter.app.curve_text`.

>>> matching_preset(TWO_CLASS_SCHEMA.defaults())
'fig1'
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable

import numpy as np

from offcenter.app import measure_params
from offcenter.app import urlstate as _us
from offcenter.app.charts import figure_spec
from offcenter.measures import curves as _curves
from offcenter.measures.registry import MEASURES, parameters
from offcenter.measures.settings import MeasureSetting
from offcenter.viz.curves import curves_figure
from offcenter.viz.styles import setting_style
from offcenter.viz.theta_frames import (
    FOLLOW_POINTS,
    FOLLOW_THETAS,
    encode_frames,
    figure_json,
    slider_steps,
)

# ----------------------------------------------------------------------------------------------
# Page settings: URL schemas, presets, and the curves a page's settings ask for
# ----------------------------------------------------------------------------------------------


#: How uncentered and off-centered versions are drawn.
VERSIONS = {
    "both": "both, overlaid",
    "oc": "off-centered only",
    "raw": "uncentered only",
    "side": "both, side by side",
}


def _common_fields(default_measures: tuple[str, ...]) -> list:
    """The fields both curve pages share; the measures' list and their parameters (slider and
    extra values) follow the registry (:mod:`offcenter.app.measure_params`)."""
    return [
        lambda: [_us.Field("measures", "strs", default_measures, choices=tuple(MEASURES))],
        _us.Field("version", "str", "both", choices=tuple(VERSIONS)),
        measure_params.snapped_url_fields,
        measure_params.preset_fields,
        _us.Field("consistent", "bool", False),
        _us.Field("n", "int", 20, low=1, high=500),
    ]


#: Speeds of the theta animation: URL value -> (label, milliseconds per frame). 49 frames
#: sweep theta from 0.02 to 0.98: 5.9 s slow, 2.9 s normal, 1.6 s fast.
ANIMATION_SPEEDS = {
    "slow": ("slow", 120),
    "normal": ("normal", 60),
    "fast": ("fast", 33),
}
#: theta values of the animation's frames (0.02 to 0.98: 49 frames).
ANIMATION_THETAS = tuple(round(0.02 * k, 2) for k in range(1, 50))

#: URL parameters of the "Two classes" page (defaults reproduce Figure 1). ``animate``,
#: ``speed`` and ``loop`` are the theta animation's state.
TWO_CLASS_SCHEMA = _us.Schema(
    [
        _us.Field("theta", "float", 0.2, low=0.01, high=0.99, step=0.01),
        *_common_fields(("shannon", "asymmetric")),
        _us.Field("cursor", "float", 0.1, low=0.0, high=1.0, step=0.01),
        _us.Field("deriv", "bool", False),
        _us.Field("order", "int", 1, low=1, high=2),
        _us.Field("animate", "bool", False),
        _us.Field("speed", "str", "normal", choices=tuple(ANIMATION_SPEEDS)),
        _us.Field("loop", "bool", False),
    ]
)

#: The tabs of the "q classes" page: URL value -> label.
Q_TABS = {
    "slice": "Slice through θ",
    "ternary": "Ternary view (q = 3)",
    "transform": "The transform",
    "formulas": "Formulas",
}

#: URL parameters of the "q classes" page.
Q_CLASS_SCHEMA = _us.Schema(
    [
        _us.Field("q", "int", 3, low=2, high=10),
        _us.Field("theta", "floats", (0.6, 0.3, 0.1), low=0.0, high=1e6, min_len=2, max_len=10),
        *_common_fields(("shannon", "asymmetric")),
        _us.Field("cursor", "float", 0.5, low=0.0, high=1.0, step=0.01),
        _us.Field("ternary", "str", ""),
        _us.Field("p", "str", ""),
        _us.Field("tab", "str", "slice", choices=tuple(Q_TABS)),
    ]
)

#: The paper's figures as page settings (only the fields that matter for the figure).
PRESETS = {
    "fig1": {
        "title": "Fig. 1. Off-centered, asymmetric and Shannon's entropies",
        "caption": (
            "Boolean case, θ = 0.2: Shannon's entropy peaks at p = 0.5; the off-centered "
            "Shannon entropy $\\eta_\\theta(p) = h(\\pi)$ and the asymmetric entropy of Marcellin, "
            "Zighed and Ritschard both peak at p = θ = 0.2 (Lallich, Lenca and Vaillant, "
            "ASMDA 2007, Fig. 1)."
        ),
        "values": {
            "theta": 0.2,
            "measures": ("shannon", "asymmetric"),
            "version": "both",
            "consistent": False,
        },
    },
    "fig2": {
        "title": "Fig. 2. Off-centering of generalised entropies",
        "caption": (
            "Off-centered generalized entropies of order β = 0, 0.5, 1, 2, 5, off-centered "
            "rank diversity of order ρ = 0 and the asymmetric entropy, for the a priori "
            "distribution (0.8, 0.2), i.e. θ = 0.2 (Lallich, Lenca and Vaillant, ASMDA 2007, "
            "Fig. 2). β = 0 is the flat line 1 on 0 < p < 1."
        ),
        "values": {
            "theta": 0.2,
            "measures": ("daroczy", "rank_diversity", "asymmetric"),
            "version": "oc",
            "beta": 0.0,
            "betas": ("0.5", "1", "2", "5"),
            "rho": 0.0,
            "consistent": False,
        },
    },
}


def imbalanced_example(q: int) -> np.ndarray:
    """An imbalanced reference for q classes: the spec's (0.6, 0.3, 0.1) for q = 3, (0.8, 0.2)
    for q = 2, else halving frequencies normalised.

    >>> imbalanced_example(3).tolist()
    [0.6, 0.3, 0.1]
    """
    if q == 2:
        return np.array([0.8, 0.2])
    if q == 3:
        return np.array([0.6, 0.3, 0.1])
    w = 0.5 ** np.arange(q, dtype=float)
    return w / w.sum()


def matching_preset(values: dict) -> str | None:
    """The preset (``"fig1"``/``"fig2"``) the current page values reproduce exactly, or None.

    >>> matching_preset(TWO_CLASS_SCHEMA.defaults())
    'fig1'
    """
    params = parameters()
    for name, preset in PRESETS.items():
        # a parameter whose extra values the preset gives is compared as the values drawn
        drawn = {
            k
            for p in params.values()
            if f"{p.name}s" in preset["values"]
            for k in (p.name, f"{p.name}s")
        }
        ok = True
        for k, v in preset["values"].items():
            cur = values.get(k)
            if k in ("measures",):
                ok &= set(cur or ()) == set(v)
            elif k in drawn:
                continue  # compared below as the set of drawn values
            elif isinstance(v, float):
                ok &= cur is not None and abs(float(cur) - v) < 1e-9
            else:
                ok &= cur == v
        for p in params.values():  # a parameter with extra values: the set of values drawn
            if f"{p.name}s" in preset["values"]:
                want = measure_params.chosen_values(p, preset["values"])
                ok &= measure_params.chosen_values(p, values) == want
        if ok:
            return name
    return None


def page_specs(values: dict) -> tuple[list[MeasureSetting], list[MeasureSetting]]:
    """The curves a page's settings ask for: ``(uncentered, off-centered)`` setting lists.

    The asymmetric entropy (theta built in) goes with the off-centered ones; with the
    consistent form on, both its plain and consistent versions are drawn. Measures come in the
    registry's order, each once per chosen value of its parameters
    (:func:`offcenter.app.measure_params.variants`: several betas at once). Off-centered curves have
    ``theta="prior"``: the page's theta.

    >>> raw, oc = page_specs(TWO_CLASS_SCHEMA.defaults())
    >>> from offcenter.measures.curves import curve_label
    >>> [curve_label(s) for s in raw], [curve_label(s) for s in oc]
    (['Shannon'], ['off-centered Shannon', 'Asymmetric'])
    """
    chosen = set(values.get("measures") or ())
    version = values.get("version", "both")
    raw: list[MeasureSetting] = []
    oc: list[MeasureSetting] = []
    for name, info in MEASURES.items():
        if name not in chosen:
            continue
        if info.theta == "builtin":
            oc.append(MeasureSetting(name))
            if values.get("consistent"):
                oc.append(MeasureSetting(name, consistent=True, n=float(values.get("n", 20))))
            continue
        for params in measure_params.variants(info, values):
            if version in ("both", "oc", "side"):
                oc.append(MeasureSetting(name, theta="prior", params=params))
            if version in ("both", "raw", "side"):
                raw.append(MeasureSetting(name, params=params))
    return raw, oc


# ----------------------------------------------------------------------------------------------
# The pages' state objects: the only way the two curve pages read and write their session state
# ----------------------------------------------------------------------------------------------


def _clamp(value: float, low: float, high: float) -> float:
    return min(max(value, low), high)


class TwoClassesState(_us.PageState):
    """The "Two classes" page's state (keys ``tc_*``) and its callbacks.

    >>> page = TwoClassesState({}, {})
    >>> _ = page.restore()
    >>> page.set_cursor(0.456); page.set_theta(1.5); page.cursor, page.theta
    (0.46, 0.99)
    >>> page.preset("fig2"); page.get("measures"), page.get("betas")
    (['daroczy', 'rank_diversity', 'asymmetric'], ['0.5', '1', '2', '5'])
    >>> page.set_param("beta", 0.73); page.get("beta")
    0.7
    """

    schema = TWO_CLASS_SCHEMA
    prefix = "tc_"

    @property
    def theta(self) -> float:
        """θ, the off-centering point (the slider's value)."""
        return float(self.get("theta"))

    @property
    def cursor(self) -> float:
        """The p cursor."""
        return float(self.get("cursor"))

    @property
    def animate(self) -> bool:
        """Whether the figure animates θ."""
        return bool(self.get("animate"))

    @property
    def deriv(self) -> bool:
        """Whether the derivatives are shown."""
        return bool(self.get("deriv"))

    def apply(self, values: dict) -> None:
        """Set the fields in ``values`` (by field name; tuples kept as the widgets' lists)."""
        for k, v in values.items():
            self.set(k, list(v) if isinstance(v, tuple) else v)

    def preset(self, name: str) -> None:
        """Apply the paper's figure ``name`` (:data:`PRESETS`)."""
        self.apply(PRESETS[name]["values"])

    def set_cursor(self, p: float) -> None:
        """The p cursor at a clicked p (two decimals, in [0, 1])."""
        self.set("cursor", _clamp(round(p, 2), 0.0, 1.0))

    def set_theta(self, theta: float) -> None:
        """θ from the figure's own handling of the arrow keys, once they rest."""
        field = self.schema.fields["theta"]  # the slider's range and step
        self.set("theta", _clamp(round(theta, 2), field.low, field.high))

    def set_param(self, name: str, value: float) -> None:
        """A measure parameter (β) from the figure's own handling of the arrow keys on its
        slider, once they rest (snapped to the slider's step, in its range)."""
        field = self.schema.fields[name]  # the slider's range and step
        snapped = round(value / field.step) * field.step if field.step else value
        self.set(name, _clamp(round(snapped, 6), field.low, field.high))

    def clicked(self, chart_key: str) -> None:
        """A click on a figure sets the p cursor to the clicked p (plotly_chart's selection)."""
        x = self.clicked_x(chart_key)
        if x is not None:
            self.set_cursor(x)


class QClassesState(_us.PageState):
    """The "q classes" page's state (keys ``qc_*``) and its callbacks.

    The open tab: the tabs widget (key ``qc_tabs``, its label) rules once drawn; ``qc_tab``
    keeps its id for the URL and for coming back (a page switch drops ``qc_tabs``, so it is set
    again from ``qc_tab``). The θ editor's keys carry a version (``editor_version``): a preset,
    q or a reset sets its boxes afresh from ``qc_theta``.

    >>> page = QClassesState({}, {})
    >>> _ = page.restore(); page.open_tab(); page.get("tabs") == Q_TABS[page.get("tab")]
    True
    >>> page.set("q", 4); page.q_changed(); page.q, len(page.theta), page.editor_version
    (4, 4, 1)
    >>> page.uniform(); page.theta, page.theta_key(4, 0)
    ([0.25, 0.25, 0.25, 0.25], 'qc_th_2_4_0')
    """

    schema = Q_CLASS_SCHEMA
    prefix = "qc_"

    def open_tab(self) -> None:
        """Keep the open tab's id (``qc_tab``) and the tabs widget's label (``qc_tabs``) in
        step; call once the page is restored."""
        of_label = {label: tab for tab, label in Q_TABS.items()}
        if self.get("tabs") in of_label:
            self.set("tab", of_label[self.get("tabs")])
        else:
            self.set("tabs", Q_TABS[self.get("tab")])
        self.default("editor_version", 0)

    @property
    def q(self) -> int:
        """The number of classes."""
        return int(self.get("q"))

    @property
    def theta(self) -> list[float]:
        """θ as held (one value per class once the editor has checked it)."""
        return list(self.get("theta"))

    @theta.setter
    def theta(self, values) -> None:
        self.set("theta", [float(v) for v in values])

    @property
    def editor_version(self) -> int:
        """The θ editor's version (its boxes' keys change with it)."""
        return int(self.get("editor_version", 0))

    def theta_key(self, q: int, j: int) -> str:
        """The widget key of θ's ``j``-th box for ``q`` classes."""
        return f"{self.prefix}th_{self.editor_version}_{q}_{j}"

    def set_theta(self, values) -> None:
        """θ set from outside the editor (a preset, q): the editor's boxes set afresh."""
        self.theta = values
        self.set("editor_version", self.editor_version + 1)

    def uniform(self) -> None:
        """θ = (1/q, ..., 1/q)."""
        self.set_theta(np.full(self.q, 1.0 / self.q))

    def imbalanced(self) -> None:
        """θ an imbalanced example (:func:`imbalanced_example`)."""
        self.set_theta(imbalanced_example(self.q))

    def q_changed(self) -> None:
        """q moved: θ becomes the imbalanced example of q classes (kept when it fits)."""
        old = self.theta
        self.set_theta(imbalanced_example(self.q) if len(old) != self.q else old)

    def set_cursor(self, p1: float) -> None:
        """The p1 cursor at a clicked p1, or where the arrow keys left it once they rest (two
        decimals, in [0, 1])."""
        self.set("cursor", _clamp(round(float(p1), 2), 0.0, 1.0))

    def reset(self) -> None:
        """Every field back to its default, the address cleared and the θ editor set afresh."""
        super().reset()
        self.set("editor_version", self.editor_version + 1)

    def ternary_choice(self, keys: list[str], n_raw: int) -> str:
        """The measure shown over the simplex: the one chosen when still drawn, else the first
        off-centered one (the first one when none); returns it."""
        if self.get("ternary") not in keys:
            self.set("ternary", keys[n_raw] if len(keys) > n_raw else keys[0])
        return self.get("ternary")

    @property
    def p_text(self) -> str:
        """The distribution typed on the transform tab (empty: the slice's point)."""
        return str(self.get("p", ""))


# ----------------------------------------------------------------------------------------------
# Curve data, computed once per process for a given set of curves and theta
# ----------------------------------------------------------------------------------------------


def _frozen(value):
    """A hashable stand-in for an argument: sequences and arrays become tuples of floats/items."""
    if isinstance(value, np.ndarray):
        return tuple(float(v) for v in value.ravel())
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    return value


def _cached(fn: Callable, maxsize: int) -> Callable:
    """``fn`` with a process-wide LRU cache on its (frozen) arguments.

    The curve functions are pure: the same curves, theta and grid give the same table. A class
    moving theta over the slider's 99 values hits the cache most of the time, and a q-page cursor
    move does not recompute the slice. The returned frames are shared between sessions: callers
    read them (plot, relabel, select columns), never change them in place.
    """

    @functools.lru_cache(maxsize=maxsize)
    def frozen_call(args, kwargs):
        return fn(*args, **dict(kwargs))

    @functools.wraps(fn)
    def call(*args, **kwargs):
        return frozen_call(_frozen(args), tuple(sorted((k, _frozen(v)) for k, v in kwargs.items())))

    call.cache_info = frozen_call.cache_info
    call.cache_clear = frozen_call.cache_clear
    return call


# The cached twins of the core's curve functions: same arguments, same tables, shared between
# sessions (read-only). The ``cached_`` prefix says which one a caller holds.
cached_binary_curves = _cached(_curves.binary_curves, 256)
cached_binary_values_at = _cached(_curves.binary_values_at, 1024)
cached_binary_derivatives = _cached(_curves.binary_derivatives, 128)
cached_slice_curves = _cached(_curves.slice_curves, 128)
cached_transform_maps = _cached(_curves.transform_maps, 128)
cached_ternary_mesh = _cached(_curves.ternary_mesh, 16)  # 0.7 MB each: 11 MB at most
cached_theta_sweep = _cached(_curves.theta_sweep, 16)  # 0.5 MB each (49 frames): 9 MB at most


def _binary_figure(specs, theta, *, cursor=None, title=None, y_title=None, presentation=False):
    """The Two-classes figure (:func:`offcenter.viz.curves.curves_figure` of
    :func:`cached_binary_curves`) as plain dicts (:func:`offcenter.app.charts.figure_spec`)."""
    fig = curves_figure(
        cached_binary_curves(specs, theta),
        theta=theta,
        cursor=cursor,
        title=title,
        y_title=y_title,
        presentation=presentation,
    )
    return figure_spec(fig)


def _theta_frames_json(oc_specs) -> str:
    """The off-centered curves at every step of the θ slider
    (:func:`offcenter.viz.theta_frames.encode_frames` of :func:`cached_theta_sweep`), as JSON."""
    grid, sweep = cached_theta_sweep(oc_specs, FOLLOW_THETAS, n=FOLLOW_POINTS)
    return json.dumps(encode_frames(grid, sweep, FOLLOW_THETAS))


#: The off-centered curves for every θ step, per set of curves (about 0.2 MB of JSON each):
#: what the browser draws while the hand moves θ (:mod:`offcenter.app.theta_follow`).
cached_theta_frames_json = _cached(_theta_frames_json, 32)


def _param_frames_json(specs, theta, name: str, value: float) -> str | None:
    """The curves that move with a parameter's slider (``name``, now at ``value``: the settings
    of ``specs`` with that value) at every step of the slider, at ``theta``
    (:func:`offcenter.measures.curves.param_sweep`, with each step's legend label, colour, dash
    and marker), as JSON;
    None when no curve takes the parameter at that value."""
    moving = [s for s in specs if name in s.params and abs(s.params[name] - value) < 1e-9]
    if not moving:
        return None
    p = parameters()[name]
    steps = slider_steps(float(p.ui_low), float(p.ui_high), float(p.ui_step))
    grid, sweep, labels = _curves.param_sweep(moving, theta, name, steps, n=FOLLOW_POINTS)
    # each step's colour and dash: the server's figure at that value draws them
    styles = {
        s.key: [setting_style(_curves.moved_setting(s, name, v)) for v in steps] for s in moving
    }
    return json.dumps(encode_frames(grid, sweep, steps, labels, styles))


#: The curves that move with a parameter's slider (β, ρ), per (curves, θ, parameter, value),
#: about 30 kB of JSON per moving curve: what the browser draws while the hand moves it.
cached_param_frames_json = _cached(_param_frames_json, 64)


def followed_params(specs, theta, values: dict, prefix: str) -> list:
    """The measures' parameters whose sidebar sliders (``{prefix}<name>``) the Two classes
    figure follows in the browser (:class:`offcenter.app.theta_follow.FollowedParam`): each
    parameter of the registry that a curve of ``specs`` takes at the slider's value, with the
    frames of those curves (:func:`cached_param_frames_json`)."""
    from offcenter.app.theta_follow import FollowedParam

    out = []
    for p in parameters().values():
        value = float(values.get(p.name, p.default))
        moving = frozenset(
            s.key for s in specs if p.name in s.params and abs(s.params[p.name] - value) < 1e-9
        )
        if moving:
            frames = cached_param_frames_json(specs, theta, p.name, value)
            out.append(FollowedParam(p.name, prefix + p.name, value, frames, moving))
    return out


#: The Two-classes figure per (curves, theta, cursor, title, y title, presentation), shared by
#: sessions (read-only dicts, about 50 kB each): a class moving theta over the slider's values
#: builds each figure once.
cached_binary_figure = _cached(_binary_figure, 256)


def _binary_figure_json(specs, theta, **kwargs) -> str:
    """:func:`cached_binary_figure` as Plotly's JSON (what the θ-following chart draws)."""
    return figure_json(cached_binary_figure(specs, theta, **kwargs))


cached_binary_figure_json = _cached(_binary_figure_json, 256)

#: The q classes slice figure's x axis title (short: whole on a phone).
SLICE_X_TITLE = "p₁: frequency of class 1 on the slice"


def _slice_figure(specs, theta, *, cursor=None, y_title=None, presentation=False):
    """The q classes slice figure (:func:`offcenter.viz.curves.curves_figure` of
    :func:`cached_slice_curves` against p₁, the θ₁ line and the p₁ cursor) as plain dicts
    (:func:`offcenter.app.charts.figure_spec`)."""
    theta = np.asarray(theta, dtype=float)
    fig = curves_figure(
        cached_slice_curves(specs, theta),
        x="p1",
        theta=float(theta[0]),
        cursor=cursor,
        theta_label="θ₁",
        y_title=y_title,
        x_title=SLICE_X_TITLE,
        presentation=presentation,
    )
    return figure_spec(fig)


#: The q classes slice figure per (curves, θ, cursor, y title, presentation), shared by
#: sessions (read-only dicts).
cached_slice_figure = _cached(_slice_figure, 256)


def _slice_figure_json(specs, theta, **kwargs) -> str:
    """:func:`cached_slice_figure` as Plotly's JSON (what the cursor-following chart draws)."""
    return figure_json(cached_slice_figure(specs, theta, **kwargs))


cached_slice_figure_json = _cached(_slice_figure_json, 256)
