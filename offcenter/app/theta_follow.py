"""The Two classes figure drawn in the browser, following the θ slider as the hand moves it.

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
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import plotly
import streamlit as st
import streamlit.components.v1 as _components_v1
import streamlit.components.v2 as _components_v2

from offcenter.viz.theta_frames import figure_json as _figure_json

__all__ = ["follow_chart"]

_PLOTLY_DIR = str(Path(plotly.__file__).parent / "package_data")
#: The name under which Streamlit serves plotly.js (a components v1 declaration that is never
#: mounted: its directory, the plotly package's own data, is what the route serves).
_PLOTLY_ROUTE = "plotlyjs"

_JS = r"""
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

const sliderValue = (S) => {
  const t = thumbOf(S.data.slider_key);
  const v = t ? parseFloat(t.value) : NaN;
  return Number.isFinite(v) ? v : null;
};

// the off-centered curves, the θ line and its label at theta (the nearest frame)
const drawFrame = (S, theta) => {
  const d = S.data, f = d.frames;
  if (!S.Plotly || !S.drawn) return;
  const xs = [], ys = [], idx = [];
  let th = Math.round(theta * 100) / 100;
  if (f && S.values) {
    let k = 0;
    for (let i = 1; i < f.thetas.length; i++) {
      if (Math.abs(f.thetas[i] - theta) < Math.abs(f.thetas[k] - theta)) k = i;
    }
    const n = f.grid.length;
    for (const [i, key] of d.traces) {
      const v = S.values[key];
      if (!v) continue;
      idx.push(i);
      xs.push(f.grid);
      ys.push(Array.from(v.subarray(k * n, (k + 1) * n)));
    }
    th = f.thetas[k];
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
  // a title that holds at the server's θ only (the paper's figures, at θ = 0.2)
  if (d.title_at_theta) {
    rel['legend.title.text'] = Math.abs(th - d.theta) < 1e-9 ? S.title : '';
  }
  S.shown = th;
  if (idx.length) S.Plotly.update(S.gd, {x: xs, y: ys}, rel, idx);
  else S.Plotly.relayout(S.gd, rel);
};

// Keys on the θ slider are handled here, before Streamlit's slider sees them (it would send each
// press to the server): each press moves the figure and the slider's thumb at once; the value
// goes to the server once the keys rest (REST_MS after the last key up, a "theta" trigger).
const REST_MS = 250;
const STEPS = {ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 10, PageDown: -10};

const handValue = (S) => (S.pending !== null && S.pending !== undefined ? S.pending : sliderValue(S));

const showThumb = (input, v) => {
  const min = parseFloat(input.min), max = parseFloat(input.max);
  const digits = ((input.step || '1').split('.')[1] || '').length;
  const thumb = input.parentElement && input.parentElement.parentElement;  // the positioned one
  if (thumb && thumb.style && thumb.style.left) {
    thumb.style.left = (100 * (v - min) / (max - min)) + '%';
  }
  const label = thumb && thumb.querySelector('[data-testid="stSliderThumbValue"] p');
  if (label) label.textContent = v.toFixed(digits);
};

const keyHandlers = (S) => {
  const isOurs = (e) => {
    const input = thumbOf(S.data.slider_key);
    return input && e.target === input && (e.key in STEPS || e.key === 'Home' || e.key === 'End')
      && !e.altKey && !e.ctrlKey && !e.metaKey ? input : null;
  };
  const down = (e) => {
    if (!S.gd.isConnected) { document.removeEventListener('keydown', down, true); return; }
    const input = isOurs(e);
    if (!input || !S.drawn) return;
    e.preventDefault();
    e.stopPropagation();
    clearTimeout(S.restTimer);
    const min = parseFloat(input.min), max = parseFloat(input.max), step = parseFloat(input.step);
    const cur = handValue(S);
    let v = e.key === 'Home' ? min : e.key === 'End' ? max : cur + STEPS[e.key] * step;
    v = Math.min(max, Math.max(min, Math.round(v / step) * step));
    v = Number(v.toFixed(10));
    S.pending = v;
    showThumb(input, v);
    if (v !== S.shown) drawFrame(S, v);
  };
  const up = (e) => {
    if (!S.gd.isConnected) { document.removeEventListener('keyup', up, true); return; }
    if (!isOurs(e) || S.pending === null || S.pending === undefined) return;
    e.preventDefault();
    e.stopPropagation();
    clearTimeout(S.restTimer);
    S.restTimer = setTimeout(() => S.setTriggerValue('theta', S.pending), REST_MS);
  };
  document.addEventListener('keydown', down, true);
  document.addEventListener('keyup', up, true);
};

// the p cursor's line and label follow the cursor slider (its readout comes with the rerun)
const drawCursor = (S) => {
  const d = S.data;
  if (!S.Plotly || !S.drawn || !d.cursor_key || d.cursor_shape === null) return;
  const input = thumbOf(d.cursor_key);
  const v = input ? parseFloat(input.value) : NaN;
  if (!Number.isFinite(v) || v === S.cursorShown) return;
  S.cursorShown = v;
  const rel = {};
  rel['shapes[' + d.cursor_shape + '].x0'] = v;
  rel['shapes[' + d.cursor_shape + '].x1'] = v;
  if (d.cursor_annotation !== null) {
    rel['annotations[' + d.cursor_annotation + '].x'] = v;
    rel['annotations[' + d.cursor_annotation + '].text'] = d.cursor_label + ' ' + fmt(v);
  }
  S.Plotly.relayout(S.gd, rel);
};

const watchCursor = (S) => {
  const input = S.data.cursor_key ? thumbOf(S.data.cursor_key) : null;
  if (input === S.cursorInput) return;
  if (S.cursorObserver) S.cursorObserver.disconnect();
  S.cursorInput = input;
  if (!input) return;
  S.cursorObserver = new MutationObserver(() => drawCursor(S));
  S.cursorObserver.observe(input, {attributes: true, attributeFilter: ['aria-valuetext', 'value']});
};

const watch = (S) => {
  const thumb = thumbOf(S.data.slider_key);
  if (thumb === S.thumb) return;
  if (S.observer) S.observer.disconnect();
  S.thumb = thumb;
  if (!thumb) return;
  S.observer = new MutationObserver(() => {
    if (S.pending !== null && S.pending !== undefined) return;  // the keys lead
    const v = sliderValue(S);
    if (v !== null && v !== S.shown) drawFrame(S, v);
  });
  S.observer.observe(thumb, {attributes: true, attributeFilter: ['aria-valuetext', 'value']});
};

const render = (S) => {
  const d = S.data;
  if (S.framesText !== d.frames_json) {
    S.framesText = d.frames_json;
    d.frames = d.frames_json ? JSON.parse(d.frames_json) : null;
    S.frames = d.frames;
    S.values = d.frames ? decode(d.frames) : null;
  } else {
    d.frames = S.frames;
  }
  const fig = JSON.parse(d.figure);  // a fresh copy: restyle changes the arrays it is given
  if (S.pending !== null && S.pending !== undefined && Math.abs(S.pending - d.theta) < 1e-9) {
    S.pending = null;  // the server has the keys' value
  }
  const live = handValue(S);
  watch(S);
  watchCursor(S);
  if (S.pending !== null && S.pending !== undefined && S.thumb) showThumb(S.thumb, S.pending);
  if (S.drawn && live !== null && Math.abs(live - d.theta) > 1e-9) {
    // a figure for a θ the hand has already left: keep following the hand
    drawFrame(S, live);
    return;
  }
  S.title = ((fig.layout.legend || {}).title || {}).text || '';
  fig.layout.autosize = true;
  delete fig.layout.width;
  const config = Object.assign({responsive: true}, d.config);
  const first = !S.drawn;
  const call = first ? S.Plotly.newPlot : S.Plotly.react;
  S.drawn = true;
  S.shown = d.theta;
  S.cursorShown = d.cursor;
  return call(S.gd, fig.data, fig.layout, config).then(() => {
    if (first) {
      S.gd.on('plotly_click', (ev) => {
        const pt = ev && ev.points && ev.points[0];
        if (pt && typeof pt.x === 'number') S.setTriggerValue('click', pt.x);
      });
    }
    const v = handValue(S);
    if (v !== null && Math.abs(v - S.shown) > 1e-9) drawFrame(S, v);
    drawCursor(S);
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
    S.pending = null;
    keyHandlers(S);
  }
  loadPlotly(data.plotly_src).then((Plotly) => {
    S.Plotly = Plotly;
    // one draw at a time, in the order the data came
    S.queue = (S.queue || Promise.resolve()).then(() => render(S)).catch((e) => console.error(e));
  });
}
"""

_CSS = ".oc-follow-figure { width: 100%; }"

_component: Callable | None = None


def _mount() -> Callable:
    global _component
    if _component is None:
        _component = _components_v2.component(
            "offcenter.theta_follow", js=_JS, css=_CSS, isolate_styles=False
        )
    # the route that serves plotly.js (registered with the running server: once per run is
    # cheap, and a restarted runtime gets it again)
    _components_v1.declare_component(_PLOTLY_ROUTE, path=_PLOTLY_DIR)
    return _component


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
    slider_key: str,
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
    slider_key : str
        The key of the page's θ ``st.slider``.
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
        "plotly_src": _plotly_src(),
    }

    def _trigger(name: str, fn: Callable[[float], None] | None) -> Callable[[], None]:
        def call() -> None:
            state = st.session_state.get(key) or {}
            x = state.get(name) if hasattr(state, "get") else None
            if fn is not None and isinstance(x, (int, float)) and not isinstance(x, bool):
                fn(float(x))

        return call

    component(
        key=key,
        data=data,
        on_click_change=_trigger("click", on_click),
        on_theta_change=_trigger("theta", on_theta),
    )
