"""Benchmark (not a test): the GIL switch interval of the app's process, A/B, under a class.

Each run starts a fresh ``streamlit run app.py`` (warm before it answers) with
``OFFCENTER_SWITCH_INTERVAL`` set to one of the intervals (ms; :mod:`offcenter.ops.gil`), and
puts on it the Two-classes and q-classes students of a class of 30 (22 move θ, 4 move the
cursor or β: the shared load client's students, ``classroom_load.py``) and one Tree student
who, for ``--duration`` seconds, repeats a fixed round: a data-set choice (German credit and Pima
in turn), three node clicks, a measure and the grow (0.5 to 1 s apart, same seed in every run).
The intervals take turns (``--rounds`` rounds of every interval), so a change of the machine's
load falls on all of them. It prints, per interval, p50 / p95 / max ms of the Tree student's
kinds and of the class's θ, and the errors, and writes the table to
``benchmarks/results/switch_interval.md``.

The Tree student's interactions are few per run (8 to 10 data-set choices and grows in 45 s):
the rounds are merged per interval.

    python benchmarks/bench_switch_interval.py [--intervals 5,1,0.5] [--rounds 2] [--duration 45]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_classroom import Server, _load_tool, browser_like_session  # noqa: E402

from offcenter.ops.gil import SWITCH_ENV  # noqa: E402

KINDS = ("dataset", "node", "grow", "theta")


class _Args:
    """The load client's knobs that its students read."""

    interactions = 60
    think_min, think_max = 1.0, 2.0
    timeout = 60.0
    ramp = 5.0
    seed = 1
    tree_data = ["Pima", "German"]
    full_reruns = False


class _Rec:
    def __init__(self):
        self.events: list[dict] = []

    def add(self, **event):
        self.events.append(event)


def _nodes(session) -> int:
    import re

    for t in session.texts:
        m = re.search(r"(\d+) nodes, (\d+) leaves", t)
        if m:
            return int(m.group(1))
    return 1


async def tree_student(tool, session_cls, port: int, lat: dict, deadline: float) -> None:
    """The probe: data set, three node clicks, measure, grow; again until the deadline."""
    s = session_cls("tree-probe", port, 120)
    await s.connect()
    await s.run(initial_page="Tree")
    rng = random.Random(7)
    await asyncio.sleep(3)
    options = list(s.widgets["tr_data"]["proto"].options)
    sets = [next(o for o in options if name in o.lower()) for name in ("german", "pima")]
    i = 0
    while time.monotonic() < deadline:
        w = s.widgets["tr_data"]
        r = await s.run(changes={w["id"]: tool.ws_string(w["id"], sets[i % 2])})
        lat["dataset"].append(r.latency)
        for _ in range(3):
            await asyncio.sleep(rng.uniform(0.5, 1.0))
            node = rng.randrange(_nodes(s))
            point = {"curve_number": 0, "point_number": node, "point_index": node}
            point["customdata"] = [node]
            event = {"selection": {"points": [point], "point_indices": [node]}}
            event["selection"].update(box=[], lasso=[])
            wid = s.wid("tr_chart")
            r = await s.run(changes={wid: tool.ws_string(wid, json.dumps(event))})
            lat["node"].append(r.latency)
        await asyncio.sleep(rng.uniform(0.5, 1.0))
        w = s.widgets["tr_setting"]
        measure = list(w["proto"].options)[(i // 2) % len(w["proto"].options)]
        await s.run(changes={w["id"]: tool.ws_string(w["id"], measure)})
        await asyncio.sleep(rng.uniform(0.5, 1.0))
        r = await s.run(triggers=[tool.ws_trigger(s.wid("tr_grow"))])
        lat["grow"].append(r.latency)
        await asyncio.sleep(rng.uniform(0.5, 1.0))
        i += 1
    await s.close()


async def one_run(tool, session_cls, interval: str, duration: float) -> tuple[dict, int]:
    """One fresh server at ``interval`` ms under the class: latencies (s) per kind, errors."""
    server = Server(1, [], env={SWITCH_ENV: interval})
    port = server.port
    try:
        args = _Args()
        args.port = port
        tool.now = time.monotonic  # the students' deadline in this clock
        deadline = time.monotonic() + duration
        rec, sessions = _Rec(), []
        lat = {k: [] for k in KINDS}
        roles = ["two"] * 22 + ["q"] * 4
        tasks = [
            asyncio.create_task(
                tool.student(role, i, args, rec, deadline, asyncio.Event(), sessions)
            )
            for i, role in enumerate(roles)
        ]
        await tree_student(tool, session_cls, port, lat, deadline)
        await asyncio.gather(*tasks, return_exceptions=True)
        for s in sessions:
            try:
                await s.close()
            except Exception:  # noqa: BLE001 (a session the server already closed)
                pass
        lat["theta"] = [e["latency"] for e in rec.events if e.get("kind") == "theta"]
        lat["theta"] = [x for x in lat["theta"] if x is not None]
        errors = sum(1 for e in rec.events if e.get("error"))
        return lat, errors
    finally:
        server.stop()


def _cell(tool, xs: list[float]) -> str:
    if not xs:
        return "-"
    ms = [1000 * x for x in xs]
    return f"{statistics.median(ms):.0f} / {tool.pct(ms, 95):.0f} / {max(ms):.0f} (n {len(ms)})"


async def main_async(args) -> str:
    tool = _load_tool()
    session_cls = browser_like_session(tool)
    intervals = args.intervals.split(",")
    merged = {iv: {k: [] for k in KINDS} for iv in intervals}
    errors = dict.fromkeys(intervals, 0)
    for r in range(args.rounds):
        for iv in intervals:
            lat, err = await one_run(tool, session_cls, iv, args.duration)
            errors[iv] += err
            for k in KINDS:
                merged[iv][k].extend(lat[k])
            cells = " | ".join(_cell(tool, lat[k]) for k in KINDS)
            print(f"round {r + 1}, {iv} ms: | {cells} | errors {err}", flush=True)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    lines = [
        f"GIL switch interval A/B: 22 θ + 4 q students and one Tree student, {args.duration:g} s "
        f"per run, {args.rounds} rounds of the intervals in turn, a fresh `streamlit run app.py` "
        f"each; {os.cpu_count()} cores; load average at the end {load}",
        "",
        "p50 / p95 / max ms (n), the rounds merged:",
        "",
        "| interval | Tree data set | Tree node click | Tree grow | Two classes θ | errors |",
        "|---|---|---|---|---|---|",
    ]
    for iv in intervals:
        cells = " | ".join(_cell(tool, merged[iv][k]) for k in KINDS)
        lines.append(f"| {iv} ms | {cells} | {errors[iv]} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--intervals", default="5,1,0.5", help="ms, comma-separated")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--duration", type=float, default=45.0)
    p.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "switch_interval.md"))
    args = p.parse_args(argv)
    text = asyncio.run(main_async(args))
    print(text)
    Path(args.out).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
