"""The Two classes figure drawn in the browser, following the θ slider (and β, and the p
cursor) as the hand moves it.

``st.plotly_chart`` mounts a changed figure afresh: every θ move was a server rerun, then a new
``Plotly.newPlot`` and a second full ``Plotly.react``, a visible delay from a key press to the
redrawn figure (benchmarks/bench_browser_theta.py; benchmarks/results/theta_browser.md). This
module draws the figure with a custom component (Streamlit's components v2, inline JavaScript,
no build step) instead:

- the figure is drawn by the plotly.js bundled in the installed ``plotly`` package (served by
  Streamlit's component file route, no CDN), in one ``div`` that stays across reruns: a rerun's
  figure is drawn with ``Plotly.react`` on the same ``div``, never re-mounted;
- the payload carries the off-centered curves for every step of the θ slider (0.01 to 0.99) on
  a coarse grid (:func:`offcenter.viz.theta_frames.encode_frames` of one
  :func:`offcenter.measures.curves.theta_sweep` call, 16-bit values);
- in the browser the component watches the page's own θ slider (``st.slider``, by its key):
  each change of its value (a key press, a drag) restyles the off-centered curves and moves
  the θ line at once, before any server answer; Streamlit's slider sends the value when the
  hand stops (key up, mouse up), and that rerun draws the exact figure, the readout, the link.

Arrow keys (and Page Up/Down, Home, End) on the θ slider are handled by the component before
Streamlit's slider sees them, since that slider sends every key press to the server: each press
moves the thumb and the figure at once, and the value goes to the server once the keys rest
(250 ms after the last key up, a ``theta`` trigger that sets the slider). A drag already goes to
the server on release only. A click on the figure sends its p (``click`` trigger): the page
sets the cursor there, as the chart's point selection did.

The same holds for the measures' parameters (:class:`FollowedParam`: β, a sidebar slider):
the payload carries the curves that take the slider's value at every step of that slider,
with their legend labels (:func:`offcenter.app.curve_pages.cached_param_frames_json`); keys
and drags restyle them at once, and the value goes to the server once the keys rest (a
``param`` trigger; the page then reruns whole, the curves being the page's). And for the p
cursor: its line follows its slider, and its keys send one value once they rest (``cursor``).
The q classes slice figure uses the same component for its p₁ cursor alone (no θ slider:
``slider_key`` None, nothing moving with θ).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import plotly
import streamlit as st
import streamlit.components.v1 as _components_v1
import streamlit.components.v2 as _components_v2

from offcenter.viz.theta_frames import figure_json as _figure_json

__all__ = ["LOAD_PLOTLY_JS", "FollowedParam", "follow_chart", "plotly_src", "serve_plotly"]


@dataclass(frozen=True)
class FollowedParam:
    """A measure parameter's slider that the figure follows in the browser.

    Attributes
    ----------
    name : str
        The parameter (``"beta"``).
    slider_key : str
        The key of its ``st.slider`` (``"tc_beta"``).
    value : float
        The slider's value in this run (the server's).
    frames_json : str or None
        The curves that take it at every step of its slider
        (:func:`offcenter.app.curve_pages.cached_param_frames_json`); None: nothing follows.
    moving : frozenset of str
        The keys of those curves (the traces the frames restyle).
    """

    name: str
    slider_key: str
    value: float
    frames_json: str | None
    moving: frozenset = frozenset()


_PLOTLY_DIR = str(Path(plotly.__file__).parent / "package_data")
#: The name under which Streamlit serves plotly.js (a components v1 declaration that is never
#: mounted: its directory, the plotly package's own data, is what the route serves).
_PLOTLY_ROUTE = "plotlyjs"

#: The browser's loader of that plotly.js (once per page: a promise of ``window.Plotly``), for
#: every component that draws with it (this one, :mod:`offcenter.app.tree_chart`).
LOAD_PLOTLY_JS = r"""
const loadPlotly = (src) => {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!window.__ocPlotly) {
    window.__ocPlotly = new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = src;
      s.onload = () => resolve(window.Plotly);
      s.onerror = () => { window.__ocPlotly = null; reject(new Error('plotly.js did not load')); };
      document.head.appendChild(s);
    });
  }
  return window.__ocPlotly;
};
"""

_JS = (
    LOAD_PLOTLY_JS
    + r"""
const b64u16 = (b64) => {
  const bin = atob(b64);
  const u8 = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) u8[i] = bin.charCodeAt(i);
  return new Uint16Array(u8.buffer);
};

// key -> Float64Array (thetas x grid), NaN where the value was not finite
const decode = (frames) => {
  const out = {};
  for (const [key, c] of Object.entries(frames.curves)) {
    const q = b64u16(c.q);
    const v = new Float64Array(q.length);
    for (let i = 0; i < q.length; i++) v[i] = q[i] === 65535 ? NaN : c.lo + q[i] * c.scale;
    out[key] = v;
  }
  return out;
};

const fmt = (x) => String(Number(x.toPrecision(3)));

// the slider's input (a range input, hidden under Streamlit's own thumb)
const thumbOf = (key) => document.querySelector('.st-key-' + key + ' input[type="range"]');

const inputValue = (key) => {
  const t = key ? thumbOf(key) : null;
  const v = t ? parseFloat(t.value) : NaN;
  return Number.isFinite(v) ? v : null;
};

const nearest = (steps, v) => {
  let k = 0;
  for (let i = 1; i < steps.length; i++) {
    if (Math.abs(steps[i] - v) < Math.abs(steps[k] - v)) k = i;
  }
  return k;
};

// The sliders the figure follows (a "hand" each): θ (the frames over θ), each parameter of
// the measures with frames (β, ρ: the frames over its slider), the p cursor (its line). Each
// has the server's value, a pending value (keys pressed, not yet sent) and what it draws.
const hands = (S) => {
  const d = S.data, out = [];
  if (d.slider_key) out.push({key: d.slider_key, trigger: 'theta', server: d.theta, draw: (v) => drawTheta(S, v), titled: true});
  if (d.cursor_key) out.push({key: d.cursor_key, trigger: 'cursor', server: d.cursor, draw: (v) => drawCursor(S, v)});
  for (const p of d.params) {
    out.push({key: p.slider_key, trigger: 'param', name: p.name, server: p.value, draw: (v) => drawParam(S, p, v), titled: true});
  }
  return out;
};

const pendingOf = (S, key) => (key in S.pend ? S.pend[key] : null);
const handValue = (S, h) => { const p = pendingOf(S, h.key); return p !== null ? p : inputValue(h.key); };
const away = (v, server) => v !== null && server !== null && Math.abs(v - server) > 1e-9;

// a title that holds at the server's values only (the paper's figures, at θ = 0.2, β = 2)
const titleRel = (S, rel) => {
  if (!S.data.title_at_theta) return;
  const moved = hands(S).some((h) => h.titled && away(S.shown[h.key] ?? h.server, h.server));
  rel['legend.title.text'] = moved ? '' : S.title;
};

// the moving curves of a frames payload at step k, restyled on the traces ``traces``
const frameUpdate = (S, frames, values, traces, k) => {
  const xs = [], ys = [], names = [], idx = [], styles = [];
  const n = frames.grid.length;
  for (const [i, key] of traces) {
    const v = values[key];
    if (!v) continue;
    idx.push(i);
    xs.push(frames.grid);
    ys.push(Array.from(v.subarray(k * n, (k + 1) * n)));
    const nm = (frames.names || {})[key];
    names.push(nm ? nm[k] : undefined);
    styles.push((frames.styles || {})[key]);
  }
  const upd = {x: xs, y: ys};
  if (names.some((x) => x !== undefined)) upd.name = names;
  // a parameter's step has its own colour, dash and marker (the setting's key holds it)
  if (styles.length && styles.every((st) => st)) {
    upd['line.color'] = styles.map((st) => st.color[k]);
    upd['line.dash'] = styles.map((st) => st.dash[k]);
    upd['marker.color'] = styles.map((st) => st.color[k]);
    upd['marker.symbol'] = styles.map((st) => st.symbol[k]);
  }
  return [upd, idx];
};

// the off-centered curves, the θ line and its label at theta (the nearest frame)
const drawTheta = (S, theta) => {
  const d = S.data, f = S.frames;
  if (!S.Plotly || !S.drawn) return;
  let th = Math.round(theta * 100) / 100, upd = null, idx = [];
  if (f && S.values) {
    const k = nearest(f.steps, theta);
    [upd, idx] = frameUpdate(S, f, S.values, d.traces, k);
    th = f.steps[k];
  }
  const rel = {};
  if (d.theta_shape !== null) {
    rel['shapes[' + d.theta_shape + '].x0'] = th;
    rel['shapes[' + d.theta_shape + '].x1'] = th;
  }
  if (d.theta_annotation !== null) {
    rel['annotations[' + d.theta_annotation + '].x'] = th;
    rel['annotations[' + d.theta_annotation + '].text'] = d.theta_label + ' = ' + fmt(th);
  }
  S.shown[d.slider_key] = th;
  titleRel(S, rel);
  if (idx.length) S.Plotly.update(S.gd, upd, rel, idx);
  else S.Plotly.relayout(S.gd, rel);
};

// the curves that take a parameter (β), at its nearest step, their legend labels with them
const drawParam = (S, p, value) => {
  if (!S.Plotly || !S.drawn) return;
  const f = S.paramFrames[p.name];
  if (!f) return;
  const k = nearest(f.frames.steps, value);
  const [upd, idx] = frameUpdate(S, f.frames, f.values, p.traces, k);
  S.shown[p.slider_key] = f.frames.steps[k];
  const rel = {};
  titleRel(S, rel);
  if (idx.length) S.Plotly.update(S.gd, upd, rel, idx);
};

// the p cursor's line and label (its readout comes with the server's run)
const drawCursor = (S, v) => {
  const d = S.data;
  if (!S.Plotly || !S.drawn || d.cursor_shape === null) return;
  S.shown[d.cursor_key] = v;
  const rel = {};
  rel['shapes[' + d.cursor_shape + '].x0'] = v;
  rel['shapes[' + d.cursor_shape + '].x1'] = v;
  if (d.cursor_annotation !== null) {
    rel['annotations[' + d.cursor_annotation + '].x'] = v;
    rel['annotations[' + d.cursor_annotation + '].text'] = d.cursor_label + ' ' + fmt(v);
  }
  S.Plotly.relayout(S.gd, rel);
};

// Keys on a followed slider are handled here, before Streamlit's slider sees them (it would
// send each press to the server): each press moves the figure and the slider's thumb at once;
// the value goes to the server once the keys rest (REST_MS after the last key up, a trigger).
const REST_MS = 250;
const STEPS = {ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 10, PageDown: -10};

const showThumb = (input, v) => {
  const min = parseFloat(input.min), max = parseFloat(input.max);
  const thumb = input.parentElement && input.parentElement.parentElement;  // the positioned one
  if (thumb && thumb.style && thumb.style.left) {
    thumb.style.left = (100 * (v - min) / (max - min)) + '%';
  }
  const label = thumb && thumb.querySelector('[data-testid="stSliderThumbValue"] p');
  if (label) {
    // as many decimals as the slider shows (Streamlit's format: 2.30 for β, 0.23 for θ)
    const shown = /^-?\d+(?:\.(\d+))?$/.exec(label.textContent.trim());
    const digits = shown ? (shown[1] || '').length
      : ((input.step || '1').split('.')[1] || '').length;
    label.textContent = v.toFixed(digits);
  }
};

const keyHandlers = (S) => {
  const ours = (e) => {
    if (!(e.key in STEPS || e.key === 'Home' || e.key === 'End') || e.altKey || e.ctrlKey || e.metaKey) return null;
    for (const h of hands(S)) {
      const input = h.key ? thumbOf(h.key) : null;
      if (input && e.target === input) return [h, input];
    }
    return null;
  };
  const down = (e) => {
    if (!S.gd.isConnected) { document.removeEventListener('keydown', down, true); return; }
    const hit = ours(e);
    if (!hit || !S.drawn) return;
    const [h, input] = hit;
    e.preventDefault();
    e.stopPropagation();
    clearTimeout(S.restTimer[h.key]);
    const min = parseFloat(input.min), max = parseFloat(input.max), step = parseFloat(input.step);
    const cur = handValue(S, h);
    let v = e.key === 'Home' ? min : e.key === 'End' ? max : cur + STEPS[e.key] * step;
    v = Math.min(max, Math.max(min, Math.round((v - min) / step) * step + min));
    v = Number(v.toFixed(10));
    S.pend[h.key] = v;
    showThumb(input, v);
    if (v !== S.shown[h.key]) h.draw(v);
  };
  const up = (e) => {
    if (!S.gd.isConnected) { document.removeEventListener('keyup', up, true); return; }
    const hit = ours(e);
    if (!hit) return;
    const [h] = hit;
    if (pendingOf(S, h.key) === null) return;
    e.preventDefault();
    e.stopPropagation();
    clearTimeout(S.restTimer[h.key]);
    S.restTimer[h.key] = setTimeout(() => {
      const v = pendingOf(S, h.key);
      if (v === null) return;
      if (h.trigger === 'param') S.setTriggerValue('param', {name: h.name, value: v});
      else S.setTriggerValue(h.trigger, v);
    }, REST_MS);
  };
  document.addEventListener('keydown', down, true);
  document.addEventListener('keyup', up, true);
};

// a drag (or the server) moves a slider: the figure follows its value, unless keys lead
const watch = (S) => {
  S.observers = S.observers || {};
  const live = new Set();
  for (const h of hands(S)) {
    if (!h.key) continue;
    live.add(h.key);
    const input = thumbOf(h.key);
    const o = S.observers[h.key];
    if (o && o.input === input) continue;
    if (o) o.observer.disconnect();
    if (!input) { delete S.observers[h.key]; continue; }
    const key = h.key;
    const observer = new MutationObserver(() => {
      if (pendingOf(S, key) !== null) return;  // the keys lead
      const hh = hands(S).find((x) => x.key === key);
      const v = inputValue(key);
      // frames were drawn because the slider still showed an old value when the server's
      // figure came: once every slider shows the server's values, draw the server's figure
      if (S.framed && hh && v !== null && !hands(S).some((x) => away(handValue(S, x), x.server))) {
        render(S);
        return;
      }
      if (hh && v !== null && v !== S.shown[key]) hh.draw(v);
    });
    observer.observe(input, {attributes: true, attributeFilter: ['aria-valuetext', 'value']});
    S.observers[h.key] = {input, observer};
  }
  for (const k of Object.keys(S.observers)) {
    if (!live.has(k)) { S.observers[k].observer.disconnect(); delete S.observers[k]; }
  }
};

const decodeOnce = (S, slot, text) => {
  const c = S.cache[slot];
  if (c && c.text === text) return c;
  const frames = text ? JSON.parse(text) : null;
  const out = {text, frames, values: frames ? decode(frames) : null};
  S.cache[slot] = out;
  return out;
};

const render = (S) => {
  const d = S.data;
  const th = decodeOnce(S, 'theta', d.frames_json);
  S.frames = th.frames;
  S.values = th.values;
  S.paramFrames = {};
  for (const p of d.params) {
    const c = decodeOnce(S, 'param:' + p.name, p.frames_json);
    if (c.frames) S.paramFrames[p.name] = c;
  }
  const fig = JSON.parse(d.figure);  // a fresh copy: restyle changes the arrays it is given
  const hs = hands(S);
  for (const h of hs) {
    const p = pendingOf(S, h.key);
    if (p !== null && !away(p, h.server)) delete S.pend[h.key];  // the server has the keys' value
  }
  watch(S);
  for (const h of hs) {
    const p = pendingOf(S, h.key);
    const input = h.key ? thumbOf(h.key) : null;
    if (p !== null && input) showThumb(input, p);
  }
  // a figure for a value the hand has already left: keep following the hand
  const moved = hs.filter((h) => away(handValue(S, h), h.server));
  if (S.drawn && moved.length) {
    for (const h of moved) h.draw(handValue(S, h));
    S.framed = true;
    return;
  }
  S.framed = false;
  S.title = ((fig.layout.legend || {}).title || {}).text || '';
  fig.layout.autosize = true;
  delete fig.layout.width;
  const config = Object.assign({responsive: true}, d.config);
  const first = !S.drawn;
  const call = first ? S.Plotly.newPlot : S.Plotly.react;
  S.drawn = true;
  S.shown = {};
  for (const h of hs) S.shown[h.key] = h.server;
  return call(S.gd, fig.data, fig.layout, config).then(() => {
    if (first) {
      S.gd.on('plotly_click', (ev) => {
        const pt = ev && ev.points && ev.points[0];
        if (pt && typeof pt.x === 'number') S.setTriggerValue('click', pt.x);
      });
    }
    for (const h of hands(S)) {
      const v = handValue(S, h);
      if (v !== null && away(v, S.shown[h.key])) h.draw(v);
    }
  });
};

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  const S = parentElement.__ocFollow || (parentElement.__ocFollow = {});
  S.data = data;
  S.setTriggerValue = setTriggerValue;
  if (!S.gd) {
    S.gd = document.createElement('div');
    S.gd.className = 'oc-follow-figure';
    parentElement.appendChild(S.gd);
    S.pend = {};
    S.shown = {};
    S.restTimer = {};
    S.cache = {};
    keyHandlers(S);
  }
  loadPlotly(data.plotly_src).then((Plotly) => {
    S.Plotly = Plotly;
    // one draw at a time, in the order the data came
    S.queue = (S.queue || Promise.resolve()).then(() => render(S)).catch((e) => console.error(e));
  });
}
"""
)

_CSS = ".oc-follow-figure { width: 100%; }"

_component: Callable | None = None


def _mount() -> Callable:
    global _component
    if _component is None:
        _component = _components_v2.component(
            "offcenter.theta_follow", js=_JS, css=_CSS, isolate_styles=False
        )
    serve_plotly()
    return _component


def serve_plotly() -> None:
    """Register the route that serves plotly.js with the running server (once per run is
    cheap, and a restarted runtime gets it again)."""
    _components_v1.declare_component(_PLOTLY_ROUTE, path=_PLOTLY_DIR)


def plotly_src() -> str:
    """The address of plotly.js on this server (:func:`serve_plotly`), for ``loadPlotly``."""
    return _plotly_src()


def _plotly_src() -> str:
    base = (st.get_option("server.baseUrlPath") or "").strip("/")
    prefix = f"/{base}" if base else ""
    # declare_component prefixes the caller's module name
    return f"{prefix}/component/{__name__}.{_PLOTLY_ROUTE}/plotly.min.js"


def follow_chart(
    spec: dict,
    *,
    key: str,
    config: dict,
    figure_json: str | None = None,
    slider_key: str | None,
    theta: float,
    trace_keys: Sequence[str],
    moving: Sequence[str],
    frames_json: str | None,
    theta_label: str = "θ",
    title_at_theta: bool = False,
    on_click: Callable[[float], None] | None = None,
    on_theta: Callable[[float], None] | None = None,
    cursor: float | None = None,
    cursor_key: str | None = None,
    on_cursor: Callable[[float], None] | None = None,
    params: Sequence[FollowedParam] = (),
    on_param: Callable[[str, float], None] | None = None,
) -> None:
    """Draw ``spec`` (a curves figure with the θ line first among its shapes and annotations)
    with the component; in the browser it follows the slider ``slider_key``.

    Parameters
    ----------
    spec : dict
        The figure's plain dicts (:func:`offcenter.app.charts.figure_spec`) at ``theta``.
    figure_json : str, optional
        :func:`offcenter.viz.theta_frames.figure_json` of ``spec`` when the caller has it
        (cached).
    key : str
        The component's key (its state: the last click).
    config : dict
        plotly.js config (:func:`offcenter.app.charts.chart_config`).
    slider_key : str or None
        The key of the page's θ ``st.slider``; None when θ has no slider (the q classes
        slice: θ is typed, and only the p₁ cursor follows the hand).
    trace_keys : sequence of str
        The setting key of each trace of ``spec``, in order.
    moving : sequence of str
        The keys of the curves that move with θ (the curves of ``frames_json``).
    frames_json : str or None
        ``json.dumps(encode_frames(...))`` (cached by the caller), None when nothing moves.
    title_at_theta : bool
        The legend's title holds at ``theta`` only (a paper's figure): the browser hides it
        while θ is elsewhere.
    on_click : callable, optional
        Called with the clicked p (in the rerun's callbacks, before the page's widgets).
    cursor, cursor_key : float and str, optional
        The p cursor of ``spec`` (its line the second shape and annotation) and the key of its
        ``st.slider``: the line and its label follow that slider in the browser too.
    on_theta : callable, optional
        Called with the θ the arrow keys chose once they rest (the browser handles the keys
        on the slider itself: Streamlit's slider would send every press); it sets the slider.
    on_cursor : callable, optional
        The same for the cursor's slider: called with the p the keys chose once they rest.
    params : sequence of FollowedParam
        The measures' parameters whose sliders the figure follows (β): each with its frames
        (:func:`offcenter.app.curve_pages.cached_param_frames_json`, the curves that take it).
    on_param : callable, optional
        Called with a parameter's name and the value the keys chose on its slider once they
        rest; it sets the slider (a parameter changes the curves: the page reruns whole).
    """
    component = _mount()
    moving = set(moving) if frames_json else set()
    shapes = spec["layout"].get("shapes") or []
    notes = spec["layout"].get("annotations") or []
    data = {
        "figure": figure_json if figure_json is not None else _figure_json(spec),
        "config": config,
        "theta": float(theta),
        "theta_label": theta_label,
        "theta_shape": 0 if shapes else None,
        "theta_annotation": 0 if notes else None,
        "title_at_theta": bool(title_at_theta),
        "slider_key": slider_key,
        "cursor": None if cursor is None else float(cursor),
        "cursor_key": cursor_key if cursor is not None else None,
        "cursor_shape": 1 if cursor is not None and len(shapes) > 1 else None,
        "cursor_annotation": 1 if cursor is not None and len(notes) > 1 else None,
        "cursor_label": "cursor",
        "traces": [[i, k] for i, k in enumerate(trace_keys) if k in moving],
        "frames_json": frames_json,
        "params": [
            {
                "name": p.name,
                "slider_key": p.slider_key,
                "value": float(p.value),
                "frames_json": p.frames_json,
                "traces": [[i, k] for i, k in enumerate(trace_keys) if k in p.moving],
            }
            for p in params
            if p.frames_json
        ],
        "plotly_src": _plotly_src(),
    }

    def _number(x) -> bool:
        return isinstance(x, (int, float)) and not isinstance(x, bool)

    def _value(name: str):
        state = st.session_state.get(key) or {}
        return state.get(name) if hasattr(state, "get") else None

    def _trigger(name: str, fn: Callable[[float], None] | None) -> Callable[[], None]:
        def call() -> None:
            x = _value(name)
            if fn is not None and _number(x):
                fn(float(x))

        return call

    def _param() -> None:
        x = _value("param")
        names = {p.name for p in params}
        if on_param is not None and hasattr(x, "get") and x.get("name") in names:
            if _number(x.get("value")):
                on_param(str(x["name"]), float(x["value"]))

    component(
        key=key,
        data=data,
        on_click_change=_trigger("click", on_click),
        on_theta_change=_trigger("theta", on_theta),
        on_cursor_change=_trigger("cursor", on_cursor),
        on_param_change=_param,
    )
