"""Fit time and peak memory of offcenter.TreeClassifier against scikit-learn, in the same run.

Usage::

    python benchmarks/bench_tree.py            # 10k, 100k and 1M rows (about 15 minutes)
    python benchmarks/bench_tree.py --quick    # 10k and 100k rows only

Every fit runs in a fresh subprocess that builds the same data (fixed seed) and fits either
scikit-learn's DecisionTreeClassifier(criterion="entropy") or our tree with one measure. Fit
time is wall-clock ``time.perf_counter`` (below 100k rows: best of 3 fits in each of 3
alternating rounds of processes). Peak memory is
**resource based**: before each fit the process's peak resident set size is reset
(``/proc/self/clear_refs``, Linux) and the peak (``VmHWM``) after the fit minus the resident
size before it is reported, so it counts every allocation (numpy's and scikit-learn's C
allocations alike) made during the fit, including scikit-learn's float32 copy of X.

Synthetic data: 20 numeric features, normal with class-dependent means (overlapping classes),
one class of 10% and the others sharing the rest. The mixed set has 10 numeric and 10
categorical columns (3 to 30 levels); our tree splits the categories multiway, scikit-learn gets
them one-hot encoded (encoding not timed). Results: a table on stdout and
``benchmarks/results/tree.md`` (the run it replaces moves to the file's history section).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

MEASURES = {
    "shannon": {"measure": "shannon"},
    "oc_shannon": {"measure": "shannon", "theta": "prior"},
    "asymmetric": {"measure": "asymmetric"},
    "gini": {"measure": "gini"},
}


def _status() -> dict:
    out = {}
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(("VmHWM", "VmRSS")):
                key, value = line.split(":")
                out[key] = int(value.split()[0]) / 1024.0  # MiB
    return out


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def _make_data(n: int, q: int, mixed: bool, seed: int = 0):
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    probs = [0.9, 0.1] if q == 2 else [0.1] + [0.9 / (q - 1)] * (q - 1)
    y = rng.choice(q, size=n, p=probs)
    F = 10 if mixed else 20
    means = rng.normal(scale=0.5, size=(q, F))
    X = rng.normal(size=(n, F)) + means[y]
    if not mixed:
        return X, y, None
    df = pd.DataFrame(X, columns=[f"num{j}" for j in range(F)])
    for j in range(10):
        k = int(rng.integers(3, 31))
        shift = rng.normal(size=(q, k))
        logits = rng.normal(size=(n, k)) + shift[y]
        codes = np.argmax(logits, axis=1)
        df[f"cat{j}"] = pd.Categorical.from_codes(codes, [f"v{i}" for i in range(k)])
    onehot = pd.get_dummies(df, dtype=np.float64).to_numpy()
    return df, y, onehot


def _timed_fit(make, X, y, repeats: int):
    best_t, peak = float("inf"), None
    for _ in range(repeats):
        est = make()
        ok = _reset_peak()
        before = _status()["VmRSS"]
        t0 = time.perf_counter()
        est.fit(X, y)
        dt = time.perf_counter() - t0
        after = _status()
        mem = after["VmHWM"] - before if ok else float("nan")
        best_t = min(best_t, dt)
        peak = mem if peak is None else max(peak, mem)
        n_nodes = len(est.tree_) if hasattr(est.tree_, "nodes") else est.tree_.node_count
        del est
    return best_t, peak, n_nodes


def worker(job: dict) -> dict:
    """One fit in a fresh process: job = case + "estimator" ("sklearn" or a measure name)."""
    sys.path.insert(0, str(ROOT))
    from sklearn.tree import DecisionTreeClassifier

    from offcenter import TreeClassifier

    X, y, onehot = _make_data(job["n"], job["q"], job["mixed"])
    repeats = 3 if job["n"] < 100_000 else 1
    if job["estimator"] == "sklearn":
        t, mem, nodes = _timed_fit(
            lambda: DecisionTreeClassifier(
                criterion="entropy", max_depth=job["depth"], random_state=0
            ),
            onehot if onehot is not None else X,
            y,
            repeats,
        )
    else:
        t, mem, nodes = _timed_fit(
            lambda: TreeClassifier(max_depth=job["depth"], **MEASURES[job["estimator"]]),
            X,
            y,
            repeats,
        )
    return {"time": t, "mem": mem, "nodes": nodes}


def _run(job: dict) -> dict:
    proc = subprocess.run(
        [sys.executable, __file__, "--worker", json.dumps(job)],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def run_case(case: dict) -> dict:
    """Fit scikit-learn and then each of our measures, each in a fresh process.

    Below 100k rows the estimators take turns for 3 rounds (sklearn, ours, sklearn, ours...)
    and each keeps its best time, so a burst of load from other jobs on a shared machine does
    not land on one side only.
    """
    rounds = 3 if case["n"] < 100_000 else 1
    names = ["sklearn", *case["measures"]]
    best: dict = {}
    for _ in range(rounds):
        for name in names:
            r = _run({**case, "estimator": name})
            if name not in best or r["time"] < best[name]["time"]:
                best[name] = {**r, "mem": max(r["mem"], best.get(name, r)["mem"])}
    sk = best["sklearn"]
    rows = []
    for name in case["measures"]:
        ours = best[name]
        rows.append(
            {
                "measure": name,
                "ours": ours["time"],
                "ours_mem": ours["mem"],
                "nodes": ours["nodes"],
                "sk": sk["time"],
                "sk_mem": sk["mem"],
                "sk_nodes": sk["nodes"],
            }
        )
    return {"case": case, "rows": rows}


def cases(quick: bool) -> list[dict]:
    sizes = [10_000, 100_000] if quick else [10_000, 100_000, 1_000_000]
    out = []
    for n in sizes:
        for q in (2, 5):
            for depth in (4, 8):
                if n >= 1_000_000:
                    measures = ["shannon", "oc_shannon", "asymmetric"]
                else:
                    measures = ["shannon", "oc_shannon", "asymmetric", "gini"]
                out.append({"n": n, "q": q, "depth": depth, "mixed": False, "measures": measures})
    out.append(
        {
            "n": 100_000,
            "q": 2,
            "depth": 8,
            "mixed": True,
            "measures": ["shannon", "oc_shannon", "asymmetric"],
        }
    )
    return out


def _table(results: list[dict]) -> str:
    """The results as a Markdown table; ``vs shannon`` = our time / our Shannon time, same case."""
    head = (
        "| data | rows | classes | depth | measure | ours (s) | sklearn (s) | ratio "
        "| vs shannon | ours peak (MiB) | sklearn peak (MiB) | nodes (ours / sklearn) |"
    )
    lines = [head, "|" + "---|" * 12]
    for res in results:
        c = res["case"]
        data = "mixed 10 num + 10 cat" if c["mixed"] else "20 numeric"
        sh = {r["measure"]: r["ours"] for r in res["rows"]}.get("shannon")
        for r in res["rows"]:
            vs = f"{r['ours'] / sh:.2f}" if sh else "-"
            lines.append(
                f"| {data} | {c['n']:,} | {c['q']} | {c['depth']} | {r['measure']} "
                f"| {r['ours']:.3f} | {r['sk']:.3f} | {r['ours'] / r['sk']:.2f} | {vs} "
                f"| {r['ours_mem']:.0f} | {r['sk_mem']:.0f} | {r['nodes']} / {r['sk_nodes']} |"
            )
    return "\n".join(lines)


HISTORY = "## History"


def write_keeping_history(out: Path, text: str) -> None:
    """Write ``text`` (a results page) to ``out``, keeping the runs it replaces below it.

    The page ``out`` held before (its title dropped, its headings demoted) becomes the first
    entry of its ``## History`` section, newest first, so a results file is the latest run
    followed by every earlier one.
    """
    old = out.read_text() if out.exists() else ""
    previous, _, history = old.partition(HISTORY + "\n")
    lines = previous.strip().splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    entries = []
    if any(line.strip() for line in lines):
        body = "\n".join(("##" + line) if line.startswith("#") else line for line in lines)
        entries.append("### Earlier run\n" + body.rstrip() + "\n")
    if history.strip():
        entries.append(history.strip() + "\n")
    if entries:
        text = text.rstrip() + "\n\n" + HISTORY + "\n\n" + "\n".join(entries)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="skip the 1M-row cases")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--out", default=str(HERE / "results" / "tree.md"))
    args = ap.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(json.loads(args.worker))))
        return 0
    results = []
    start = time.time()
    for case in cases(args.quick):
        try:
            res = run_case(case)
        except RuntimeError as exc:
            print(exc, file=sys.stderr)
            return 1
        results.append(res)
        if not results[1:]:
            print("\n".join(_table([res]).splitlines()[:2]))
        print("\n".join(_table([res]).splitlines()[2:]), flush=True)
    table = _table(results)
    import numpy
    import sklearn

    info = (
        f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}, numpy {numpy.__version__}, scikit-learn "
        f"{sklearn.__version__}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
        f"total {time.time() - start:.0f} s."
    )
    text = (
        "# Tree fit benchmark: offcenter.TreeClassifier vs scikit-learn\n\n"
        f"{info}\n\n"
        "ratio = our fit time / scikit-learn's (criterion='entropy'), same data, same process. "
        "Peak memory: resource-based (peak RSS during the fit, reset with "
        "/proc/self/clear_refs). Exact splits on both sides (no histograms). "
        f"{'Quick run (no 1M rows). ' if args.quick else ''}\n\n{table}\n"
    )
    out = Path(args.out)
    write_keeping_history(out, text)
    print(f"\n{info}\nwritten to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
