"""Benchmark (not a test): the script thread's CPU per interaction, as a class makes them.

One real ``streamlit run app.py`` of a checkout (headless), driven by the classroom load
client's browser-like sessions (``benchmarks/bench_classroom.py``). Every script run's CPU is
read in the server itself (``time.thread_time`` of the script thread, and the process's
``time.process_time`` over the same run: the event loop's share of it too), with the CPU of a
few Streamlit calls inside it (messages sent, blocks, ``filtered_state``, cached functions,
select boxes, charts). No profiler: the figures are the run's own.

The interactions, in the class's regime:

- **theta (warm)**: the Two-classes page's θ slider on the classroom client's random walk (from
  0.2, steps of 0.01 to 0.1): six students walk first (the per-θ caches warm, as the class's
  other students warm them), three more on the same walks are measured;
- **data set**: a Tree student picks German credit (the page's whole run);
- **node (new)** and **node (seen)**: twelve node clicks, then the same twelve again (the
  node's tables and figures cached by the first);
- **grow (cached)**: Grow the tree with unchanged settings (the page's whole run, the tree and
  the node cached).

    python benchmarks/bench_interaction_cpu.py [--checkout DIR] [--grows 12]

Prints the median per interaction kind, ms. ``--checkout`` measures another checkout (a ``git
worktree add`` of an older commit: a before/after on the same machine moment).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

# The server's bootstrap: every ScriptRunner._run_script's CPU (and that of a few calls inside
# it) appended to CPU_LOG as one JSON line.
BOOT = """
import importlib, json, os, sys, time
from streamlit.runtime.scriptrunner import script_runner as sr
log = os.environ["CPU_LOG"]
acc = {}
depth = {}
CALLS = [
    ("streamlit.runtime.scriptrunner.script_runner", "ScriptRunner._enqueue_forward_msg", "messages"),
    ("streamlit.runtime.state.session_state", "SessionState.filtered_state", "filtered_state"),
    ("streamlit.delta_generator", "DeltaGenerator._block", "blocks"),
    ("streamlit.runtime.caching.cache_utils", "CachedFunc.__call__", "cached functions"),
    ("streamlit.elements.widgets.selectbox", "SelectboxMixin.selectbox", "select boxes"),
    ("streamlit.elements.plotly_chart", "PlotlyMixin.plotly_chart", "plotly charts"),
]
def timed(fn, name):
    def call(*a, **k):
        d = depth.get(name, 0)
        depth[name] = d + 1
        t = time.thread_time()
        try:
            return fn(*a, **k)
        finally:
            depth[name] = d
            if d == 0:
                acc[name] = acc.get(name, 0.0) + time.thread_time() - t
    return call
for mod, qual, name in CALLS:
    cls_name, attr = qual.split(".")
    cls = getattr(importlib.import_module(mod), cls_name)
    raw = cls.__dict__[attr]
    if isinstance(raw, property):
        setattr(cls, attr, property(timed(raw.fget, name)))
    else:
        setattr(cls, attr, timed(raw, name))
run = sr.ScriptRunner._run_script
def measured(self, rerun_data):
    acc.clear()
    t, p = time.thread_time(), time.process_time()
    try:
        return run(self, rerun_data)
    finally:
        out = {"script": time.thread_time() - t, "process": time.process_time() - p, **acc}
        with open(log, "a") as f:
            f.write(json.dumps({k: round(1000 * v, 3) for k, v in out.items()}) + "\\n")
sr.ScriptRunner._run_script = measured
from streamlit.web.cli import main
sys.argv = ["streamlit", *sys.argv[1:]]
main()
"""


def _walk(seed: int, n: int = 25) -> list[float]:
    """A Two-classes student's θ values (``classroom_load.student_two``'s random walk)."""
    rng = random.Random(seed)
    theta, out = 0.2, []
    for _ in range(n):
        step = rng.choice([-1, 1]) * rng.choice([0.01, 0.01, 0.02, 0.05, 0.1])
        theta = min(0.99, max(0.01, round(theta + step, 2)))
        out.append(theta)
    return out


class Runs:
    """The server's CPU lines, read per interaction."""

    def __init__(self, log: Path):
        self.log = log
        self.rows: dict[str, list[dict]] = {}

    def _lines(self) -> list[str]:
        return self.log.read_text().splitlines() if self.log.exists() else []

    async def run(self, session, kind: str | None, **kw):
        n = len(self._lines())
        r = await session.run(**kw)
        if r.error or r.exceptions:
            raise RuntimeError(f"{kind}: {r.error} {r.exceptions}")
        await asyncio.sleep(0.02)  # the line is written as the run ends
        if kind is not None:
            new = [json.loads(x) for x in self._lines()[n:]]  # with the st.rerun()s it made
            total: dict[str, float] = {}
            for d in new:
                for k, v in d.items():
                    total[k] = total.get(k, 0.0) + v
            self.rows.setdefault(kind, []).append(total)
        return r

    def table(self) -> str:
        names = ["script", "process", "messages", "blocks", "filtered_state"]
        names += ["cached functions", "select boxes", "plotly charts"]
        lines = ["| interaction | runs | " + " | ".join(names) + " |"]
        lines.append("|---|---|" + "---|" * len(names))
        for kind, rows in self.rows.items():
            cells = [f"{statistics.median(r.get(n, 0.0) for r in rows):.1f}" for n in names]
            lines.append(f"| {kind} | {len(rows)} | " + " | ".join(cells) + " |")
        return "\n".join(lines)


async def drive(port: int, runs: Runs, grows: int, tree: bool = True) -> None:
    sys.path.insert(0, str(HERE))
    from bench_classroom import _load_tool, browser_like_session

    tool = _load_tool()
    Session = browser_like_session(tool)
    for k, kind in [(k, None) for k in range(6)] + [(k, "theta (warm)") for k in range(3)]:
        s = Session(f"two-{k}-{kind}", port, 300)
        await s.connect()
        await runs.run(s, None, initial_page="Two_classes")
        for theta in _walk(k):
            wid = s.wid("tc_theta")
            await runs.run(s, kind, changes={wid: tool.ws_double_array(wid, [theta])})
        await s.close()
    if not tree:
        return

    s = Session("tree-0", port, 300)
    await s.connect()
    await runs.run(s, None, initial_page="Tree")
    w = s.widgets["tr_data"]
    label = next(o for o in w["proto"].options if "german" in o.lower())
    await runs.run(s, "data set", changes={w["id"]: tool.ws_string(w["id"], label)})
    n = next(int(t.split(" nodes")[0].split()[-1]) for t in s.texts if " nodes, " in t)
    rng = random.Random(1)
    nodes = [rng.randrange(n) for _ in range(12)]
    for kind in ("node (new)", "node (seen)"):
        for node in nodes:
            wid = s.wid("tr_chart")
            point = {"curve_number": 0, "point_number": node, "point_index": node}
            point["customdata"] = [node]
            event = {
                "selection": {"points": [point], "point_indices": [node], "box": [], "lasso": []}
            }
            await runs.run(s, kind, changes={wid: tool.ws_string(wid, json.dumps(event))})
    for _ in range(grows):
        await runs.run(s, "grow (cached)", triggers=[tool.ws_trigger(s.wid("tr_grow"))])
    await s.close()


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--checkout", default=str(HERE.parent), help="the checkout to serve")
    p.add_argument("--grows", type=int, default=12)
    p.add_argument("--theta-only", action="store_true", help="the θ moves only")
    args = p.parse_args(argv)
    root = Path(args.checkout).resolve()
    sys.path.insert(0, str(HERE))
    from bench_classroom import Server

    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "cpu.jsonl"
        server = Server(
            1, [], env={"CPU_LOG": str(log)}, root=root, launcher=[sys.executable, "-c", BOOT]
        )
        try:
            runs = Runs(log)
            asyncio.run(drive(server.port, runs, args.grows, tree=not args.theta_only))
        finally:
            server.stop()
    print(f"{root}: CPU ms per interaction (median; script: the script thread's, process: the")
    print("whole process's during the run; then calls inside the script thread)\n")
    print(runs.table())


if __name__ == "__main__":
    main()
