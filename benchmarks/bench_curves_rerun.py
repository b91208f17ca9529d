"""Benchmark (not a test): server-side rerun time of the curve pages after a slider move.

For each page (home, Two classes, q classes) it runs the page once in streamlit's AppTest, then
N times moves a slider (alternating between two values, so every rerun recomputes) and times the
rerun: the whole script, the package's curve computations, the Plotly figure building and
Streamlit's serialisation of the elements (not the browser's drawing). Also times the package
part alone (curve data + figures) for the two-classes page. Prints a table and writes
benchmarks/results/curves.md. Goal: under 100 ms per rerun.

    python benchmarks/bench_curves_rerun.py [--repeat 30]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from offcenter.app.curve_pages import PRESETS, TWO_CLASS_SCHEMA, page_specs  # noqa: E402
from offcenter.measures.curves import binary_curves, binary_values_at  # noqa: E402
from offcenter.viz.curves import curves_figure  # noqa: E402

GOAL_MS = 100.0

# (label, page, widget kind, key, two values, setup: list of (kind, key, value) before timing)
CASES = [
    ("Home (Figure 1 thumbnail): full rerun", "app.py", None, None, None, []),
    (
        "Two classes, Figure 1: theta slider",
        "pages/1_Two_classes.py",
        "slider",
        "tc_theta",
        (0.2, 0.3),
        [],
    ),
    (
        "Two classes, Figure 2 (7 curves): theta slider",
        "pages/1_Two_classes.py",
        "slider",
        "tc_theta",
        (0.2, 0.3),
        [("button", "tc_btn_fig2", None)],
    ),
    (
        "Two classes, Figure 2 + derivative panel: theta slider",
        "pages/1_Two_classes.py",
        "slider",
        "tc_theta",
        (0.2, 0.3),
        [("button", "tc_btn_fig2", None), ("checkbox", "tc_deriv", True)],
    ),
    (
        "Two classes, p cursor slider",
        "pages/1_Two_classes.py",
        "slider",
        "tc_cursor",
        (0.1, 0.5),
        [],
    ),
    (
        "q classes (q = 3, slice tab open; lazy tabs): p1 cursor",
        "pages/2_Q_classes.py",
        "slider",
        "qc_cursor",
        (0.5, 0.3),
        [],
    ),
    ("q classes: q slider 3 <-> 4", "pages/2_Q_classes.py", "slider", "qc_q", (4, 3), []),
]


def _act(at: AppTest, kind: str, key: str, value) -> None:
    if kind == "button":
        at.button(key=key).click()
    elif kind == "checkbox":
        at.checkbox(key=key).set_value(value)
    else:
        getattr(at, kind)(key=key).set_value(value)
    at.run()


def time_case(page: str, kind, key, values, setup, repeat: int) -> list[float]:
    at = AppTest.from_file(str(ROOT / page), default_timeout=120)
    at.run()
    for s_kind, s_key, s_val in setup:
        _act(at, s_kind, s_key, s_val)
    # warm-up
    for _ in range(2):
        if kind is None:
            at.run()
        else:
            _act(at, kind, key, values[0])
            _act(at, kind, key, values[1])
    times = []
    for i in range(repeat):
        if kind is None:
            t = time.perf_counter()
            at.run()
        else:
            getattr(at, kind)(key=key).set_value(values[i % 2])
            t = time.perf_counter()
            at.run()
        times.append((time.perf_counter() - t) * 1000)
        assert not at.exception, [e.value for e in at.exception]
    return times


def time_package_only(repeat: int) -> list[float]:
    values = {**TWO_CLASS_SCHEMA.defaults(), **PRESETS["fig2"]["values"]}
    times = []
    for i in range(repeat):
        theta = 0.2 if i % 2 else 0.3
        t = time.perf_counter()
        raw, oc = page_specs(values)
        df = binary_curves(raw + oc, theta)
        binary_values_at(raw + oc, theta, 0.1)
        fig = curves_figure(df, theta=theta, cursor=0.1)
        fig.to_json()
        times.append((time.perf_counter() - t) * 1000)
    return times


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=30)
    args = ap.parse_args(argv)

    rows = []
    for label, page, kind, key, values, setup in CASES:
        times = time_case(page, kind, key, values, setup, args.repeat)
        rows.append((label, statistics.median(times), min(times), max(times)))
        print(
            f"{label:64s} median {rows[-1][1]:7.1f} ms  (min {rows[-1][2]:.1f}, "
            f"max {rows[-1][3]:.1f})",
            flush=True,
        )
    pk = time_package_only(args.repeat)
    rows.append(
        (
            "Package only: Figure 2 curves + readout + figure JSON",
            statistics.median(pk),
            min(pk),
            max(pk),
        )
    )
    print(f"{rows[-1][0]:64s} median {rows[-1][1]:7.1f} ms")

    import numpy
    import plotly
    import streamlit

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    machine = (
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs "
        f"(load average {load} during the run), "
        f"Python {platform.python_version()}, streamlit {streamlit.__version__}, "
        f"plotly {plotly.__version__}, numpy {numpy.__version__}"
    )
    lines = [
        "# Curve pages: server-side rerun time after a slider move",
        "",
        f"`python benchmarks/bench_curves_rerun.py --repeat {args.repeat}` on {machine}, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.",
        "",
        "AppTest rerun of the page script after the widget changed: the package's curve "
        "computations, the Plotly figures and Streamlit's serialisation of every element (not "
        f"the browser's drawing). Median of {args.repeat} reruns; goal: under {GOAL_MS:.0f} ms.",
        "",
        "| case | median (ms) | min (ms) | max (ms) | goal met |",
        "| --- | ---: | ---: | ---: | :---: |",
    ]
    for label, med, lo, hi in rows:
        lines.append(
            f"| {label} | {med:.1f} | {lo:.1f} | {hi:.1f} | {'yes' if med < GOAL_MS else 'no'} |"
        )
    out = ROOT / "benchmarks" / "results" / "curves.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n")
    print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
