"""Benchmark (not a test): key press on the theta slider to the redrawn figure and to idle, in
headless Chromium, and where the time goes.

Opens "Two classes" on Figure 2 (7 curves: off-centered generalized entropies beta = 0, 0.5, 1,
2, 5, rank diversity rho = 0, asymmetric entropy) at 1400x1000, then presses an arrow key on the
theta slider N times (right, then left, ...), waiting for quiet after each. Every time is taken
in the page (``performance.now``), from a script installed before Streamlit's own:

- the key press (``keydown``);
- every websocket message: the rerun request sent (a ``BackMsg`` with ``rerun_script``), each
  message received (deltas, ``script_finished``), with its size;
- every Plotly call on a figure: its start (Plotly assigning ``gd.data``) and its end
  (``plotly_afterplot`` / ``plotly_react`` events), and whether the figure's element is new;
- the browser's long animation frames (over 50 ms, with the scripts that ran in them) and the
  last change of the page (a ``MutationObserver``).

Per press:

- ``figure`` (key -> redrawn figure): key press to the animation frame after the first Plotly
  call that ends after it (its ``plotly_update`` / ``plotly_restyle`` / ``plotly_afterplot`` /
  ``plotly_react`` event): when the figure shows the new theta. Since issue 33 the Two classes
  figure follows the slider in the browser (offcenter.app.theta_follow: a restyle of the
  off-centered curves from precomputed frames, no server, no re-mount), so this is the
  browser's own work; the server's figure comes with the rerun and counts in ``idle``;
- ``idle``: key press to the last of ``script_finished`` arriving, the last Plotly call ending,
  the last long frame ending and the last change of the page: what the user waits for;
- the breakdown: ``key->sent`` (the slider to the rerun request), ``server`` (request sent to
  ``script_finished`` received: the script run, its deltas on the wire and the browser reading
  them), ``after run`` (``script_finished`` to idle: drawing what arrived last), the Plotly calls
  (count, figures newly created, time inside them) and the main thread's busy time in long
  frames, by script.

Prints p50/p90/max of ``figure`` and ``idle``, the medians of the breakdown and the CPU time per press of the
Streamlit server and of the browser's processes (``psutil``; with ``--url``, ``--server-pid``
names the server), which a loaded machine changes much less than the wall times. Where the time
went on 2 cores (Figure 2, Streamlit 1.67) before issue 33, with ``st.plotly_chart``: Streamlit
mounts a changed chart afresh (its id hashes the figure), so every theta move was a new
``Plotly.newPlot`` (drawn hidden at the
autosized width) and a second full ``Plotly.react`` (the measured width, on a JSON copy of the
figure that Plotly's diff cannot match); the server's run is about 30 ms of CPU. With ``--profile`` it also
samples the page's JavaScript (Chrome DevTools Protocol profiler) and prints self time per
script file (which code the time is spent in). Goals: figure p50 at most 50 ms on a quiet
machine (issue 33), idle p50 at most 250 ms on this machine. ``--runs`` (default 3) repeats the
whole measure on a fresh page and prints, beside each run's figures, the median run's p50 and the
worst run's (the machine's load changes from one run to the next).

    python benchmarks/bench_browser_theta.py [--presses 30] [--runs 3] [--url http://127.0.0.1:8501] [--profile] [--slider beta]

``--slider beta`` presses the sidebar's β slider instead (Figure 2's β = 0 curve follows it in
the browser from frames over β's slider; the value goes to the server once the keys rest).

Without ``--url`` it starts ``streamlit run app.py`` itself (the repository's config).
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIG2 = "/Two_classes?measures=daroczy,rank_diversity,asymmetric&version=oc&beta=0&betas=0.5,1,2,5&rho=0"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
#: The sliders a benchmark presses (``--slider``): their accessible names.
SLIDERS = {
    "theta": re.compile(r"^(theta|θ): the off-centering point"),
    "beta": re.compile(r"^β: order of the generalized entropy"),
}
#: Protobuf field numbers (streamlit/proto): BackMsg.rerun_script, ForwardMsg.delta,
#: ForwardMsg.script_finished, ForwardMsg.ref_hash (a message the browser has cached).
RERUN_SCRIPT, DELTA, SCRIPT_FINISHED, REF_HASH = 11, 5, 6, 11
FINISHED_EARLY_FOR_RERUN = 2

# Installed before the page's scripts: timestamps of key presses, websocket messages, Plotly
# calls, long animation frames and page changes, in window.__bd.ev as [kind, time, detail].
INIT = r"""(() => {
  const B = window.__bd = {ev: [], gd: new WeakMap(), ngd: 0, mut: 0, armed: false};
  const now = () => performance.now();
  const log = (k, x) => B.ev.push([k, now(), x === undefined ? null : x]);
  const gdId = (gd) => { if (!B.gd.has(gd)) B.gd.set(gd, ++B.ngd); return B.gd.get(gd); };
  document.addEventListener('keydown', (e) => { log('key', e.key); B.armed = true; }, true);
  // the figure redrawn: the first Plotly call that ends after the key press (its event), and
  // the animation frame that follows (the one that shows it)
  const DRAWN = new Set(['plotly_afterplot', 'plotly_update', 'plotly_restyle', 'plotly_react',
    'plotly_relayout']);
  // top-level protobuf fields of a message: [[field, varint value or length], ...]
  const fields = (u) => {
    let i = 0; const out = [];
    const varint = () => { let r = 0, s = 1, b; do { b = u[i++]; r += (b & 0x7f) * s; s *= 128; } while (b & 0x80); return r; };
    while (i < u.length) {
      const tag = varint(), f = Math.floor(tag / 8), w = tag & 7; let v = null;
      if (w === 0) v = varint(); else if (w === 2) { v = varint(); i += v; }
      else if (w === 1) i += 8; else if (w === 5) i += 4; else break;
      out.push([f, v]);
    }
    return out;
  };
  const bytes = (d) => d instanceof ArrayBuffer ? new Uint8Array(d)
    : ArrayBuffer.isView(d) ? new Uint8Array(d.buffer, d.byteOffset, d.byteLength) : null;
  const WS = window.WebSocket;
  class TimedWebSocket extends WS {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', (m) => {
        const u = bytes(m.data);
        const f = u ? fields(u).filter((x) => x[0] > 2) : [];
        log('recv', [f.length ? f[0][0] : 0, f.length ? f[0][1] : null, u ? u.length : -1]);
      });
    }
    send(d) {
      const u = bytes(d);
      log('send', [u ? fields(u).map((x) => x[0]) : [], u ? u.length : -1]);
      return super.send(d);
    }
  }
  window.WebSocket = TimedWebSocket;
  // Plotly: a call starts by assigning gd.data, ends with plotly_afterplot / plotly_react.
  Object.defineProperty(HTMLElement.prototype, 'emit', {
    configurable: true, get() { return undefined; },
    set(fn) {
      const id = gdId(this);
      Object.defineProperty(this, 'emit', {configurable: true, writable: true,
        value: function (name, d) {
          log('plotly', [name, id]);
          if (B.armed && DRAWN.has(name)) {
            B.armed = false;
            log('fig', name);
            requestAnimationFrame(() => log('figframe', name));
          }
          return fn.call(this, name, d);
        }});
    },
  });
  Object.defineProperty(HTMLDivElement.prototype, 'data', {
    configurable: true, get() { return undefined; },
    set(v) {
      Object.defineProperty(this, 'data', {configurable: true, enumerable: true,
        get() { return this.__bdData; },
        set(x) { log('plotly', ['start', gdId(this), Array.isArray(x) ? x.length : 0]); this.__bdData = x; }});
      this.data = v;
    },
  });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        log('loaf', [e.startTime, e.duration, (e.scripts || []).map((s) => [
          (s.sourceURL || '').split('/').pop().split('?')[0], s.invoker, s.duration])]);
      }
    }).observe({type: 'long-animation-frame', buffered: false});
  } catch (e) { /* no Long Animation Frames API */ }
  const watch = () => new MutationObserver(() => { B.mut = now(); }).observe(document.body,
    {subtree: true, childList: true, attributes: true, characterData: true});
  if (document.body) watch(); else document.addEventListener('DOMContentLoaded', watch);
})()"""


def _pct(xs, p):
    xs = sorted(xs)
    k = (len(xs) - 1) * p / 100
    f = int(k)
    c = min(f + 1, len(xs) - 1)
    return xs[f] + (xs[c] - xs[f]) * (k - f)


def _start_server() -> tuple[subprocess.Popen, str]:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true"]
        + ["--server.port", str(port), "--server.address", "127.0.0.1"]
        + ["--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300  # its own warm-up runs before it answers
    while True:
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return proc, url
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise SystemExit("streamlit did not start")
        time.sleep(0.3)


def press_breakdown(ev: list, mutation: float) -> dict:
    """Phases of one key press from the page's events (times in ms, ``performance.now``)."""
    key = next(t for k, t, _ in ev if k == "key")
    sent = next((t for k, t, d in ev if k == "send" and RERUN_SCRIPT in d[0]), None)
    recv = [(t, d) for k, t, d in ev if k == "recv" and (sent is None or t >= sent)]
    fin = [t for t, d in recv if d[0] == SCRIPT_FINISHED and d[1] != FINISHED_EARLY_FOR_RERUN]
    deltas = [(t, d[2]) for t, d in recv if d[0] in (DELTA, REF_HASH)]
    plotly = [(t, d) for k, t, d in ev if k == "plotly"]
    loafs = [d for k, _, d in ev if k == "loaf" and d[0] + d[1] > key]
    # Plotly calls: from a start to the next afterplot/react of the same figure
    calls, open_ = [], {}
    for t, d in plotly:
        if d[0] == "start":
            open_.setdefault(d[1], t)
        elif d[0] in ("afterplot", "plotly_afterplot", "plotly_react") and d[1] in open_:
            calls.append((open_.pop(d[1]), t, d[1]))
    fig = next((t for k, t, _ in ev if k == "figframe"), None)
    ends = [t for t, _ in plotly] + [d[0] + d[1] for d in loafs] + fin + [mutation]
    idle = max(t for t in ends if t >= key) if ends else key
    by_script: collections.Counter = collections.Counter()
    for d in loafs:
        for src, invoker, dur in d[2]:
            by_script[f"{src or '?'} ({invoker.split('.')[0] if invoker else '?'})"] += dur
    out = {
        "idle": idle - key,
        "figure": (fig - key) if fig is not None else float("nan"),
        "key->sent": (sent - key) if sent else float("nan"),
        "server": (fin[-1] - sent) if (fin and sent) else float("nan"),
        "sent->first delta": (deltas[0][0] - sent) if (deltas and sent) else float("nan"),
        "deltas": len(deltas),
        "delta kB": sum(n for _, n in deltas) / 1000,
        "after run": (idle - fin[-1]) if fin else float("nan"),
        "plotly calls": len(calls),
        "plotly ms": sum(b - a for a, b, _ in calls),
        "plotly 1st call ms": (calls[0][1] - calls[0][0]) if calls else float("nan"),
        "plotly 2nd call ms": (calls[1][1] - calls[1][0]) if len(calls) > 1 else float("nan"),
        "new figures": len({g for _, _, g in calls}),
        "last plotly end->idle": (idle - max(b for _, b, _ in calls)) if calls else float("nan"),
        "long frames ms": sum(d[1] for d in loafs),
        "scripts": by_script,
    }
    return out


def _profile_summary(profile: dict, top: int = 12) -> list[tuple[str, float]]:
    """Self time (ms) per script file of a CDP CPU profile."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    self_us: collections.Counter = collections.Counter()
    for nid, dt in zip(profile["samples"], profile["timeDeltas"]):
        cf = nodes[nid]["callFrame"]
        url = cf.get("url", "").split("/")[-1].split("?")[0]
        name = url or cf.get("functionName") or "?"
        if name == "(idle)":
            continue
        self_us[name] += dt
    return [(k, v / 1000) for k, v in self_us.most_common(top)]


def _cpu_ms(pids: list[int]) -> float:
    """CPU time (user + system, ms) of these processes and their children, 0 if unknown."""
    try:
        import psutil
    except ImportError:
        return 0.0
    total = 0.0
    for pid in pids:
        try:
            root = psutil.Process(pid)
            for p in [root, *root.children(recursive=True)]:
                t = p.cpu_times()
                total += t.user + t.system
        except psutil.Error:
            continue
    return 1000 * total


def _browser_pids() -> list[int]:
    """Chromium processes started by this benchmark (children of Playwright's driver)."""
    try:
        import psutil
    except ImportError:
        return []
    kids = psutil.Process().children(recursive=True)
    chrome = {p.pid for p in kids if "chrom" in (p.name() or "").lower()}
    # the top Chromium processes: their children are counted by _cpu_ms
    return [p.pid for p in kids if p.pid in chrome and p.ppid() not in chrome]


def measure(
    url: str,
    presses: int,
    quiet_ms: int = 500,
    profile: bool = False,
    server_pid: int | None = None,
    slider_name: str = "theta",
) -> dict:
    from playwright.sync_api import sync_playwright

    rows = []
    prof = None
    cpu = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=CHROMIUM_ARGS
        )
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.add_init_script(INIT)
        page.goto(url + FIG2)
        page.wait_for_selector(".js-plotly-plot .scatterlayer .trace", timeout=120_000)
        page.wait_for_timeout(3000)
        info = page.evaluate(
            """() => { const gd = document.querySelector('.js-plotly-plot');
            return [gd.data.length, gd.data.reduce((n, t) => n + (t.x ? t.x.length : 0), 0),
                    (gd.layout.shapes || []).length, (gd.layout.annotations || []).length]; }"""
        )
        slider = page.get_by_role("slider", name=SLIDERS[slider_name]).first
        slider.focus()
        cdp = None
        if profile:
            cdp = page.context.new_cdp_session(page)
            cdp.send("Profiler.enable")
            cdp.send("Profiler.setSamplingInterval", {"interval": 200})
            cdp.send("Profiler.start")
        browser_pids = _browser_pids()
        cpu0 = (_cpu_ms(browser_pids), _cpu_ms([server_pid]) if server_pid else 0.0)
        for i in range(presses):
            key = "ArrowRight" if (i // 5) % 2 == 0 else "ArrowLeft"
            page.evaluate("() => { window.__bd.ev = []; window.__bd.mut = 0; }")
            slider.press(key)
            deadline = time.perf_counter() + 60
            # wait for the run's end, then for quiet_ms without any page event or change
            while True:
                page.wait_for_timeout(quiet_ms)
                ev, mut = page.evaluate("() => [window.__bd.ev, window.__bd.mut]")
                done = any(
                    k == "recv" and d[0] == SCRIPT_FINISHED and d[1] != FINISHED_EARLY_FOR_RERUN
                    for k, _, d in ev
                )
                now = page.evaluate("() => performance.now()")
                last = max([t for _, t, _ in ev] + [mut])
                if done and now - last >= quiet_ms:
                    break
                if time.perf_counter() > deadline:
                    raise SystemExit("no quiet within 60 s")
            rows.append(press_breakdown(ev, mut))
        cpu["browser"] = (_cpu_ms(browser_pids) - cpu0[0]) / presses
        if server_pid:
            cpu["server"] = (_cpu_ms([server_pid]) - cpu0[1]) / presses
        if cdp is not None:
            prof = _profile_summary(cdp.send("Profiler.stop")["profile"])
        browser.close()
    return {"rows": rows, "info": info, "profile": prof, "cpu": cpu, "slider": slider_name}


def report(r: dict) -> None:
    rows = r["rows"]
    n_traces, n_points, n_shapes, n_ann = r["info"]
    print(
        f"Figure 2: {n_traces} traces, {n_points} points, {n_shapes} shapes, {n_ann} annotations;"
        f" {len(rows)} {r.get('slider', 'theta')} key presses, 1400x1000"
    )
    for name, what in (("figure", "key -> redrawn figure"), ("idle", "key -> idle")):
        xs = [x[name] for x in rows if x[name] == x[name]]
        if xs:
            print(
                f"{what:22s} p50 {statistics.median(xs):6.0f} ms   p90 {_pct(xs, 90):6.0f} ms"
                f"   max {max(xs):6.0f} ms"
            )
    print("breakdown (medians over the presses):")
    for name in (
        "key->sent",
        "sent->first delta",
        "server",
        "after run",
        "last plotly end->idle",
        "plotly calls",
        "new figures",
        "plotly ms",
        "plotly 1st call ms",
        "plotly 2nd call ms",
        "deltas",
        "delta kB",
        "long frames ms",
    ):
        xs = [x[name] for x in rows if x[name] == x[name]]
        if xs:
            print(f"  {name:22s} {statistics.median(xs):8.1f}")
    for who, ms in r.get("cpu", {}).items():
        print(
            f"  CPU {who:18s} {ms:8.1f}  (per press, all its processes, the quiet waits included)"
        )
    scripts: collections.Counter = collections.Counter()
    for x in rows:
        scripts.update(x["scripts"])
    if scripts:
        print("  long frames' scripts, ms per press (entry point: the time includes its callees):")
        for k, v in scripts.most_common(6):
            print(f"    {v / len(rows):7.1f}  {k}")
    if r["profile"]:
        print("JavaScript self time per file, ms per press (CDP sampling profiler):")
        for k, v in r["profile"]:
            print(f"  {v / len(rows):7.1f}  {k}")


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--presses", type=int, default=30)
    p.add_argument("--url", default=None, help="an app already running (else started here)")
    p.add_argument("--profile", action="store_true", help="also sample the page's JavaScript")
    p.add_argument("--server-pid", type=int, default=None, help="with --url: its process, for CPU")
    p.add_argument("--runs", type=int, default=3, help="runs (a fresh page each), summarised")
    p.add_argument(
        "--slider",
        choices=tuple(SLIDERS),
        default="theta",
        help="the slider pressed: theta, or beta (the sidebar's, its curves follow too)",
    )
    args = p.parse_args(argv)
    proc = None
    url = args.url
    if url is None:
        proc, url = _start_server()
    runs = []
    try:
        for i in range(args.runs):
            r = measure(
                url,
                args.presses,
                profile=args.profile,
                server_pid=proc.pid if proc else args.server_pid,
                slider_name=args.slider,
            )
            print(f"--- run {i + 1} of {args.runs}")
            report(r)
            runs.append(r)
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=20)
    summary(runs)


def summary(runs: list[dict]) -> None:
    """Each run's p50/p90/max, then the median run's and the worst run's."""
    if not runs:
        return
    print(f"=== {len(runs)} runs")
    for name, what in (("figure", "key -> redrawn figure"), ("idle", "key -> idle")):
        per = []
        for r in runs:
            xs = [x[name] for x in r["rows"] if x[name] == x[name]]
            if xs:
                per.append((statistics.median(xs), _pct(xs, 90), max(xs)))
        if not per:
            continue
        cells = "  ".join(f"{a:.0f}/{b:.0f}/{c:.0f}" for a, b, c in per)
        print(f"{what:22s} p50/p90/max per run (ms): {cells}")
        print(
            f"{'':22s} median run p50 {statistics.median(a for a, _, _ in per):.0f} ms, "
            f"worst run p50 {max(a for a, _, _ in per):.0f} ms, "
            f"worst p90 {max(b for _, b, _ in per):.0f} ms, max {max(c for _, _, c in per):.0f} ms"
        )


if __name__ == "__main__":
    main()
