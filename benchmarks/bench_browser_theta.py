"""Benchmark (not a test): key press on the theta slider to idle, in headless Chromium.

Opens "Two classes" on Figure 2 (7 curves: off-centered generalized entropies beta = 0, 0.5, 1,
2, 5, rank diversity rho = 0, asymmetric entropy) at 1400x1000, then presses an arrow key on the
theta slider N times (right, then left, ...), waiting for idle after each. For each press:

- ``idle``: from the key press to the later of the end of the script run the key started
  (Streamlit's ``script_finished`` message on the websocket) and the last change of the drawn
  figure (checked in the browser every animation frame: the chart element or its data; quiet
  for 0.5 s): what the user waits for;
- ``server``: from the rerun request leaving the browser to ``script_finished`` arriving.

Prints p50/p90/max of both. Goal: idle p50 at most 250 ms on this machine.

    python benchmarks/bench_browser_theta.py [--presses 30] [--url http://127.0.0.1:8501]

Without ``--url`` it starts ``streamlit run app.py`` itself (the repository's config).
"""

from __future__ import annotations

import argparse
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
# Every animation frame: has the figure (its element or its last trace's y) changed? The chart
# element may be replaced on a rerun, so it is looked up again each frame.
INSTALL = """() => {
  const b = window.__bench = {keydown: [], afterplot: [], sig: null, ids: new WeakMap(), n: 0};
  document.addEventListener('keydown', () => b.keydown.push(performance.now()), true);
  const poll = () => {
    const gd = document.querySelector('.js-plotly-plot');
    if (gd && gd.data && gd.data.length) {
      if (!b.ids.has(gd)) b.ids.set(gd, ++b.n);
      const sig = b.ids.get(gd) + ':' + JSON.stringify(gd.data[gd.data.length - 1].y);
      if (sig !== b.sig) { b.sig = sig; b.afterplot.push(performance.now()); }
    }
    requestAnimationFrame(poll);
  };
  poll();
}"""


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
    deadline = time.monotonic() + 120
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


def measure(url: str, presses: int, quiet_ms: int = 500) -> dict:
    from playwright.sync_api import sync_playwright
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    events: list[tuple[str, float]] = []  # ("sent"|"finished", time.perf_counter())

    def on_ws(ws):
        def sent(payload):
            if isinstance(payload, (bytes, bytearray)):
                bm = BackMsg()
                try:
                    bm.ParseFromString(bytes(payload))
                except Exception:
                    return
                if bm.WhichOneof("type") == "rerun_script":
                    events.append(("sent", time.perf_counter()))

        def received(payload):
            if isinstance(payload, (bytes, bytearray)):
                fm = ForwardMsg()
                try:
                    fm.ParseFromString(bytes(payload))
                except Exception:
                    return
                if (
                    fm.WhichOneof("type") == "script_finished"
                    and fm.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN
                ):
                    events.append(("finished", time.perf_counter()))

        ws.on("framesent", sent)
        ws.on("framereceived", received)

    idle, server = [], []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=CHROMIUM_ARGS
        )
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.on("websocket", on_ws)
        page.goto(url + FIG2)
        page.wait_for_selector(".js-plotly-plot .scatterlayer .trace", timeout=120_000)
        page.wait_for_timeout(3000)
        n_traces = page.evaluate("() => document.querySelector('.js-plotly-plot').data.length")
        page.evaluate(INSTALL)
        slider = page.get_by_role(
            "slider", name=re.compile(r"^(theta|θ): the off-centering point")
        ).first
        slider.focus()
        for i in range(presses):
            key = "ArrowRight" if (i // 5) % 2 == 0 else "ArrowLeft"
            page.evaluate("() => { window.__bench.keydown = []; window.__bench.afterplot = []; }")
            n_events = len(events)
            t_press = time.perf_counter()
            slider.press(key)
            deadline = time.perf_counter() + 60
            while not any(e[0] == "finished" for e in events[n_events:]):
                if time.perf_counter() > deadline:
                    raise SystemExit("no script_finished within 60 s")
                page.wait_for_timeout(10)
            # idle: no redraw for quiet_ms after the run finished
            last = None
            while True:
                page.wait_for_timeout(quiet_ms)
                count = page.evaluate("() => window.__bench.afterplot.length")
                if count == last:
                    break
                last = count
            kd, ap = page.evaluate("() => [window.__bench.keydown, window.__bench.afterplot]")
            new = events[n_events:]
            t_sent = next((t for k, t in new if k == "sent"), None)
            t_fin = max(t for k, t in new if k == "finished")
            drawn = ap[-1] - kd[0] if kd and ap else 0.0
            idle.append(max(drawn, 1000 * (t_fin - t_press)))
            if t_sent is not None and t_fin is not None:
                server.append(1000 * (t_fin - t_sent))
        browser.close()
    return {"idle": idle, "server": server, "traces": n_traces}


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--presses", type=int, default=30)
    p.add_argument("--url", default=None, help="an app already running (else started here)")
    args = p.parse_args(argv)
    proc = None
    url = args.url
    if url is None:
        proc, url = _start_server()
    try:
        r = measure(url, args.presses)
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=20)
    print(f"Figure 2 ({r['traces']} traces), {len(r['idle'])} theta key presses, 1400x1000")
    for name in ("idle", "server"):
        xs = r[name]
        if xs:
            print(
                f"{name:7s} p50 {statistics.median(xs):6.0f} ms   p90 {_pct(xs, 90):6.0f} ms"
                f"   max {max(xs):6.0f} ms"
            )


if __name__ == "__main__":
    main()
