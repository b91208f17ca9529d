"""Benchmark (not a test): one analyst's 200k x 30 upload and grow against a lecture of 22.

For each mode (the worker pool on, then off: ``OFFCENTER_HEAVY_POOL=1`` / ``0``, see
docs/deploy.md) a fresh ``streamlit run app.py`` process is started, and in one event loop:

- the shared load client (``../shared/tools/classroom_load.py``) runs 22 students on "Two
  classes" moving θ every 1 to 2 s (``--two 22``);
- after ``--analyst-delay`` seconds one analyst session opens the Tree page, uploads a generated
  200,000 x 30 CSV (about 45 MB) through ``/_stcore/upload_file`` as the browser does, hands it
  to the file uploader (the page reads it and grows a tree on its default sample), then turns the
  sample off (the page grows the tree on all 200,000 rows).

It reports the θ latency (interaction to the end of its script run) p50/p95/max over the
analyst's window (from the upload to the last grow's end) and over the whole class, and the
analyst's own step times. The students' clock and the analyst's are the load client's.

    python benchmarks/bench_heavy_work.py                 # both modes
    python benchmarks/bench_heavy_work.py --modes on      # the pool only

Results: benchmarks/results/heavy_work.md. On a shared machine the figures are indicative.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import importlib.util
import json
import os
import platform
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT.parent / "shared" / "tools" / "classroom_load.py"
if not TOOL.exists():
    TOOL = Path("/work/shared/tools/classroom_load.py")
sys.path.insert(0, str(ROOT))

from offcenter.ops.serve import streamlit_command  # noqa: E402
from offcenter.ops.warmup import wait_healthy  # noqa: E402


def _load_tool():
    spec = importlib.util.spec_from_file_location("classroom_load", TOOL)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["classroom_load"] = mod
    spec.loader.exec_module(mod)
    return mod


def make_csv(n_rows: int, n_cols: int, seed: int = 0) -> bytes:
    """A numeric data set with a two-class target (about 10 % minority), as CSV bytes."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n_rows, n_cols)).round(4),
                     columns=[f"x{j}" for j in range(n_cols)])  # fmt: skip
    score = X["x0"] + 0.5 * X["x1"] - 0.3 * X["x2"] + rng.normal(size=n_rows)
    return X.assign(target=np.where(score > 1.6, "yes", "no")).to_csv(index=False).encode()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _put(port: int, session_id: str, file_id: str, name: str, data: bytes) -> int:
    """The browser's upload: a multipart PUT to the upload route."""
    boundary = uuid.uuid4().hex
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
            "Content-Type: text/csv\r\n\r\n"
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    try:
        conn.request(
            "PUT",
            f"/_stcore/upload_file/{session_id}/{file_id}",
            body=body,
            headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
        )
        return conn.getresponse().status
    finally:
        conn.close()


def analyst_session(tool):
    """The load client's Session that also keeps its Streamlit session id."""

    class Analyst(tool.Session):
        session_id = None

        def _on_message(self, data: bytes) -> None:
            msg = tool.ForwardMsg()
            msg.ParseFromString(data)
            if msg.WhichOneof("type") == "new_session":
                self.session_id = msg.new_session.initialize.session_id
            super()._on_message(data)

    return Analyst


async def analyst(tool, port: int, data: bytes, delay: float, log: list) -> None:
    await asyncio.sleep(delay)
    s = analyst_session(tool)("analyst", port, timeout=900)
    await s.connect()

    def step(name, t0, r):
        log.append({"step": name, "t0": t0, "t1": tool.now(), "seconds": round(r.latency, 2),
                    "error": r.error, "exceptions": r.exceptions,
                    "texts": [t for t in s.texts if "busy" in t or "still running" in t][:3]})  # fmt: skip

    try:
        t0 = tool.now()
        r = await s.run(initial_page="Tree")
        step("open Tree", t0, r)
        wid = s.wid("tr_file")
        if wid is None:
            log.append({"step": "error", "error": "no tr_file widget"})
            return
        t0 = tool.now()
        file_id = uuid.uuid4().hex
        status = await asyncio.to_thread(_put, port, s.session_id, file_id, "big.csv", data)
        log.append({"step": "upload (PUT)", "t0": t0, "t1": tool.now(), "status": status,
                    "seconds": round(tool.now() - t0, 2)})  # fmt: skip
        ws = tool.WidgetState(id=wid)
        info = ws.file_uploader_state_value.uploaded_file_info.add()
        info.file_id, info.name, info.size = file_id, "big.csv", len(data)
        t0 = tool.now()
        r = await s.run(changes={wid: ws})
        step("read + grow on the sample", t0, r)
        key = s.find_key("tr_sample_")
        if key is None:
            log.append({"step": "error", "error": "no sample checkbox"})
            return
        cb = tool.WidgetState(id=s.wid(key))
        cb.bool_value = False
        t0 = tool.now()
        r = await s.run(changes={cb.id: cb})
        step("grow on all 200,000 rows", t0, r)
    finally:
        await s.close()


def stats(xs: list[float]) -> dict:
    if not xs:
        return {"n": 0}
    a = np.asarray(xs) * 1000
    return {"n": len(a), "p50": round(float(np.percentile(a, 50))),
            "p95": round(float(np.percentile(a, 95))), "max": round(float(a.max()))}  # fmt: skip


def run_mode(tool, mode: str, data: bytes, args, out: Path) -> dict:
    port = _free_port()
    env = dict(os.environ, OFFCENTER_HEAVY_POOL="1" if mode == "on" else "0",
               PYTHONPATH=str(ROOT))  # fmt: skip
    cmd = streamlit_command(port, "127.0.0.1", "--server.fileWatcherType", "none",
                            "--server.enableXsrfProtection", "false")  # fmt: skip
    log_file = open(out / f"heavy_{mode}.server.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT)
    try:
        wait_healthy(port, wait=300, process=proc)
        load_args = tool.parse([
            "--port", str(port), "--pid", str(proc.pid), "--two", "22",
            "--interactions", "500", "--duration", str(args.duration),
            "--timeout", "120", "--out", str(out / f"heavy_{mode}"),
        ])  # fmt: skip
        steps: list[dict] = []

        async def both():
            return await asyncio.gather(
                tool.main(load_args), analyst(tool, port, data, args.analyst_delay, steps)
            )

        summary, _ = asyncio.run(both())
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log_file.close()
    events = [json.loads(line) for line in open(out / f"heavy_{mode}.events.jsonl")]
    theta = [e for e in events if e.get("kind") == "theta" and e.get("latency") is not None]
    timed = [s for s in steps if "t0" in s and s["step"] != "open Tree"]
    w0 = min((s["t0"] for s in timed), default=0)
    w1 = max((s["t1"] for s in timed), default=0)
    during = [e["latency"] for e in theta if w0 <= e["t"] - e["latency"] and e["t"] <= w1]
    return {
        "mode": mode,
        "theta_during_analyst": stats(during),
        "theta_whole_class": stats([e["latency"] for e in theta]),
        "errors": sum(1 for e in events if e.get("error")),
        "analyst": steps,
        "analyst_window_s": round(w1 - w0, 1),
        "server_rss_max_mb": summary.get("server", {}).get("rss_max_mb"),
    }


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--modes", nargs="+", default=["on", "off"], choices=["on", "off"])
    p.add_argument("--rows", type=int, default=200_000)
    p.add_argument("--cols", type=int, default=30)
    p.add_argument("--duration", type=float, default=240)
    p.add_argument("--analyst-delay", type=float, default=12)
    p.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "heavy_work_runs"))
    args = p.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tool = _load_tool()
    data = make_csv(args.rows, args.cols)
    print(f"CSV {args.rows} x {args.cols}: {len(data) / 1e6:.1f} MB", flush=True)
    results = []
    for mode in args.modes:
        res = run_mode(tool, mode, data, args, out)
        results.append(res)
        print(json.dumps(res, indent=1, default=str), flush=True)
    meta = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "load": os.getloadavg(), "cpus": os.cpu_count(), "python": platform.python_version()}  # fmt: skip
    (out / "summary.json").write_text(json.dumps({"meta": meta, "results": results}, indent=1,
                                                 default=str))  # fmt: skip
    print(json.dumps(meta))


if __name__ == "__main__":
    main()
