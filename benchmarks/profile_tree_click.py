"""Profile (not a test): the server's work per Tree-page interaction, as the browser asks for it.

Two parts.

``--parts`` (outside Streamlit): the pieces of a node click and a grow on a bundled data set at
the page's default depth (median of ``--repeat``, ms): fit, figure, figure JSON, the node's
impurities, candidates, own optima.

``--server`` (the default): one real ``streamlit run app.py`` (headless, this checkout), whose
script runs are each profiled by cProfile in the script thread, driven by one student of the
classroom load client (``../shared/tools/classroom_load.py``, through
``benchmarks/bench_classroom.py``'s browser-like session: a fragment's widget reruns that
fragment alone). The student opens the Tree page, picks a bundled data set, clicks nodes,
changes the depth shown, the maximum depth and the measure and grows, then opens the q-classes
page and moves beta, then the Two-classes page and moves theta; each kind is repeated ``--repeat`` times with other values. Per kind it
prints the server's CPU ms per rerun (the process's user + system time, /proc), the latency
and the bytes sent (median), and with ``--top N`` the top functions (cumulative) of the kind's
runs.

    python benchmarks/profile_tree_click.py [--data german_credit] [--repeat 6] [--top 15]
    python benchmarks/profile_tree_click.py --parts [--data pima german_credit]

The page's caches are per process and shared by sessions: the first grow of a setting fits,
the next students' grows of the same setting do not. ``--fresh`` makes every grow a new
setting (minimum gain moved), the worst case.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from offcenter.ops.warmup import wait_healthy  # noqa: E402  (after this checkout's path)

# The server's bootstrap: every ScriptRunner._run_script (one per rerun request, with the
# st.rerun()s it triggers) is profiled into PROFILE_DIR/<ns>.prof.
BOOT = """
import cProfile, os, sys, time
from streamlit.runtime.scriptrunner import script_runner as sr
out = os.environ.get("PROFILE_DIR")
orig = sr.ScriptRunner._run_script
def profiled(self, rerun_data):
    prof = cProfile.Profile()
    prof.enable()
    try:
        return orig(self, rerun_data)
    finally:
        prof.disable()
        prof.dump_stats(os.path.join(out, f"{time.monotonic_ns()}.prof"))
if out:
    sr.ScriptRunner._run_script = profiled
from streamlit.web.cli import main
sys.argv = ["streamlit", *sys.argv[1:]]
main()
"""


def _ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(1000 * (time.perf_counter() - t))
    return round(statistics.median(times), 1)


# ------------------------------------------------------------------------------ parts
def profile_parts(name: str, args) -> None:
    """Time a click's and a grow's pieces on one bundled data set, outside Streamlit."""
    import plotly.io as pio

    from offcenter import TreeClassifier
    from offcenter.data.datasets import DATASETS, load
    from offcenter.viz.tree import tree_figure

    df = load(name)
    target = DATASETS[name].target
    X, y = df.drop(columns=[target]), df[target]
    fit = lambda: TreeClassifier(max_depth=args.depth).fit(X, y)  # noqa: E731
    clf = fit()
    nodes = clf.tree_.nodes
    node = nodes[len(nodes) // 2].id
    fig = tree_figure(clf, selected=node)
    parts = {
        "grow: fit": _ms(fit, max(3, args.repeat // 4)),
        "click: tree_figure": _ms(lambda: tree_figure(clf, selected=node), args.repeat),
        "click: figure to JSON": _ms(lambda: pio.to_json(fig, validate=False), args.repeat),
        "click: node_impurities": _ms(lambda: clf.node_impurities(node), args.repeat),
        "click: candidates": _ms(lambda: clf.candidates(node), max(3, args.repeat // 4)),
        "click: own_optima": _ms(lambda: clf.own_optima(node), max(3, args.repeat // 4)),
    }
    print(f"\n{name}: {len(X)} rows, {len(nodes)} nodes at depth {args.depth}")
    print(json.dumps(parts, indent=1))


# ------------------------------------------------------------------------------ server
def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Profiled:
    """A headless Streamlit server of this checkout whose script runs are profiled."""

    def __init__(self, prof_dir: Path, profile: bool = True):
        self.port = _free_port()
        self.dir = prof_dir
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PROFILE_DIR": str(prof_dir) * profile}
        cmd = [sys.executable, "-c", BOOT, "run", "app.py", "--server.port", str(self.port)]
        cmd += ["--server.address", "127.0.0.1", "--server.headless", "true"]
        cmd += ["--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
        self.proc = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        if not wait_healthy(self.port, wait=300, process=self.proc):
            self.stop()
            raise RuntimeError("the profiled server did not start")

    def cpu_s(self) -> float:
        return _cpu_s(self.proc.pid)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Recorder:
    """Per interaction kind: CPU ms, latency ms, bytes, and the profiles of its runs."""

    def __init__(self, server: Profiled):
        self.server = server
        self.rows: dict[str, list[tuple[float, float, int]]] = {}
        self.profiles: dict[str, list[Path]] = {}

    async def run(self, session, kind: str | None, **kw):
        seen = set(self.server.dir.iterdir())
        cpu = self.server.cpu_s()
        r = await session.run(**kw)
        await asyncio.sleep(0.05)  # the profile file is written as the run ends
        cpu = self.server.cpu_s() - cpu
        if r.error or r.exceptions:
            raise RuntimeError(f"{kind}: {r.error} {r.exceptions}")
        if kind is not None:
            self.rows.setdefault(kind, []).append((1000 * cpu, 1000 * r.latency, r.nbytes))
            new = set(self.server.dir.iterdir()) - seen
            self.profiles.setdefault(kind, []).extend(sorted(new))
        return r

    def table(self) -> str:
        lines = [
            "| interaction | runs | server CPU ms (median) | latency ms (median) | bytes sent |",
            "|---|---|---|---|---|",
        ]
        for kind, rows in self.rows.items():
            cpu = statistics.median(r[0] for r in rows)
            lat = statistics.median(r[1] for r in rows)
            nb = statistics.median(r[2] for r in rows)
            lines.append(f"| {kind} | {len(rows)} | {cpu:.0f} | {lat:.0f} | {nb:,.0f} |")
        return "\n".join(lines)

    def top(self, kind: str, n: int) -> str:
        paths = [str(p) for p in self.profiles.get(kind, [])]
        if not paths:
            return ""
        out = io.StringIO()
        stats = pstats.Stats(*paths, stream=out)
        stats.strip_dirs().sort_stats("cumulative").print_stats(n)
        return out.getvalue()


def _nodes(session) -> int | None:
    import re

    for t in session.texts:
        m = re.search(r"(\d+) nodes, (\d+) leaves", t)
        if m:
            return int(m.group(1))
    return None


async def drive(server: Profiled, args) -> Recorder:
    """One student: the Tree page's interactions, then the q-classes page's beta, then the
    Two-classes page's theta."""
    from bench_classroom import _load_tool, browser_like_session

    tool = _load_tool()
    Session = browser_like_session(tool)
    rec = Recorder(server)
    rng = random.Random(args.seed)

    s = Session("tree-0", server.port, 300)
    await s.connect()
    await rec.run(s, "open Tree", initial_page="Tree")
    w = s.widgets["tr_data"]
    want = args.data.lower().replace("_", " ")
    label = next(o for o in w["proto"].options if want in o.lower())
    await rec.run(s, "data set", changes={w["id"]: tool.ws_string(w["id"], label)})
    gain = 0.0
    for i in range(args.repeat):
        for _ in range(3):  # node clicks, some on nodes clicked before
            n = _nodes(s) or 1
            node = rng.randrange(n)
            wid = s.wid("tr_chart")
            event = {
                "selection": {
                    "points": [
                        {"curve_number": 0, "point_number": node, "point_index": node},
                    ],
                    "point_indices": [node],
                    "box": [],
                    "lasso": [],
                }
            }
            event["selection"]["points"][0]["customdata"] = [node]
            await rec.run(s, "node click", changes={wid: tool.ws_string(wid, json.dumps(event))})
        shown = s.find_key("tr_shown_")
        if shown:
            w = s.widgets[shown]
            lo, hi = int(w["proto"].min), int(w["proto"].max)
            v = lo + (i % max(1, hi - lo + 1))
            await rec.run(s, "depth shown", changes={w["id"]: tool.ws_double_array(w["id"], [v])})
        w = s.widgets["tr_max_depth"]
        depth = [3, 4, 5, 6, 8, 2][i % 6]
        await rec.run(s, "max depth", changes={w["id"]: tool.ws_double_array(w["id"], [depth])})
        if args.fresh:
            gain += 0.0001
            w = s.widgets["tr_min_gain"]
            ws = tool.WidgetState(id=w["id"], double_value=gain)
            await rec.run(s, None, changes={w["id"]: ws})
        await rec.run(s, "grow", triggers=[tool.ws_trigger(s.wid("tr_grow"))])
        w = s.widgets["tr_setting"]
        options = list(w["proto"].options)
        await rec.run(
            s, "measure", changes={w["id"]: tool.ws_string(w["id"], options[i % len(options)])}
        )
        await rec.run(s, "grow", triggers=[tool.ws_trigger(s.wid("tr_grow"))])
    await s.close()

    q = Session("q-0", server.port, 300)
    await q.connect()
    await rec.run(q, "open Q classes", initial_page="Q_classes")
    for i in range(args.repeat):
        wid = q.wid("qc_beta")
        beta = [0.5, 1.0, 2.0, 3.0, 5.0][i % 5]
        await rec.run(q, "q beta", changes={wid: tool.ws_double_array(wid, [beta])})
        wid = q.wid("qc_cursor")
        if wid:
            await rec.run(q, "q cursor", changes={wid: tool.ws_double_array(wid, [0.1 + i / 20])})
    await q.close()

    t = Session("two-0", server.port, 300)
    await t.connect()
    await rec.run(t, "open Two classes", initial_page="Two_classes")
    for i in range(3 * args.repeat):
        wid = t.wid("tc_theta")
        theta = [0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.9][i % 8] + 0.01 * (i // 8)
        await rec.run(t, "two theta", changes={wid: tool.ws_double_array(wid, [theta])})
    await t.close()
    return rec


def profile_server(args) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = Profiled(Path(tmp), profile=args.top > 0)
        try:
            rec = asyncio.run(drive(server, args))
        finally:
            server.stop()
        print(f"\n{args.data}, {args.repeat} rounds{' (every grow fits)' if args.fresh else ''}")
        print(rec.table())
        for kind in rec.rows if args.top else ():
            print(f"\n==== {kind}\n" + rec.top(kind, args.top))
        if args.save and args.top:  # the merged profile of each kind, for pstats/snakeviz
            Path(args.save).mkdir(parents=True, exist_ok=True)
            for kind, paths in rec.profiles.items():
                if paths:
                    stats = pstats.Stats(*map(str, paths), stream=io.StringIO())
                    stats.dump_stats(str(Path(args.save) / (kind.replace(" ", "_") + ".prof")))


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--parts", action="store_true", help="the pieces, outside Streamlit")
    p.add_argument("--data", default="german_credit", help="bundled data set (part of its name)")
    p.add_argument("--repeat", type=int, default=6)
    p.add_argument("--depth", type=int, default=5, help="--parts: the tree's depth")
    p.add_argument(
        "--top",
        type=int,
        default=0,
        help="profile (cProfile) and print the top N functions per kind",
    )
    p.add_argument("--save", help="with --top: write each kind's merged profile to this folder")
    p.add_argument("--fresh", action="store_true", help="every grow a new setting (fits)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    if args.parts:
        for name in args.data.split(","):
            profile_parts(name, args)
    else:
        profile_server(args)


if __name__ == "__main__":
    main()
