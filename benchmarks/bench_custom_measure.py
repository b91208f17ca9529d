"""Fit time of a measure registered in Python against the built-in with the same formula.

A custom measure (offcenter.register_measure) is a plain numpy function called by the same
engine as the built-ins; this script times TreeClassifier.fit with the Python Gini and the
Python Shannon entropy against the built-in "gini" and "shannon", plain and off-centered on
the prior, on the same data in the same process (best of --repeats fits, after one warm-up
fit each). The goal is a ratio within 2x. The trees are checked to be equal.

    python benchmarks/bench_custom_measure.py            # 20,000 rows x 10 features, 3 repeats
    python benchmarks/bench_custom_measure.py --rows 5000 --repeats 5

It prints a Markdown table (and writes it with --out).
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np

import offcenter as oc
from offcenter import TreeClassifier


def py_gini(p):
    return 1.0 - (p * p).sum(axis=-1)


def py_shannon(p):
    logs = np.log2(np.where(p > 0.0, p, 1.0))
    return -(p * logs).sum(axis=-1)


def data(rows: int, features: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = (rng.random(rows) < 0.15).astype(int) + (rng.random(rows) < 0.1).astype(int)
    X = rng.normal(size=(rows, features)) + 0.6 * y[:, None] * rng.random(features)
    return np.round(X, 3), y


def best_fit(X, y, repeats: int, **params) -> tuple[float, TreeClassifier]:
    TreeClassifier(**params).fit(X[:500], y[:500])  # warm-up
    best, clf = np.inf, None
    for _ in range(repeats):
        t0 = time.perf_counter()
        clf = TreeClassifier(**params).fit(X, y)
        best = min(best, time.perf_counter() - t0)
    return best, clf


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=20000)
    ap.add_argument("--features", type=int, default=10)
    ap.add_argument("--max-depth", type=int, default=8)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    oc.register_measure("py_gini", py_gini)
    oc.register_measure("py_shannon", py_shannon)
    X, y = data(a.rows, a.features)
    lines = [
        f"Fit time, {a.rows} rows x {a.features} numeric features, 3 classes, max_depth="
        f"{a.max_depth}; best of {a.repeats}; Python {platform.python_version()}, numpy "
        f"{np.__version__}, {platform.machine()}.",
        "",
        "| formula | theta | built-in (s) | custom (s) | custom / built-in | same tree |",
        "|---|---|---:|---:|---:|---|",
    ]
    print("\n".join(lines), flush=True)
    for builtin, custom in (("gini", "py_gini"), ("shannon", "py_shannon")):
        for theta in (None, "prior"):
            kw = dict(max_depth=a.max_depth, theta=theta)
            t_b, b = best_fit(X, y, a.repeats, measure=builtin, **kw)
            t_c, c = best_fit(X, y, a.repeats, measure=custom, **kw)
            same = len(b.tree_) == len(c.tree_) and all(
                (n.split is None and m.split is None)
                or (
                    n.split is not None
                    and m.split is not None
                    and (n.split.feature, n.split.threshold) == (m.split.feature, m.split.threshold)
                )
                for n, m in zip(b.tree_.nodes, c.tree_.nodes)
            )
            row = (
                f"| {builtin} | {theta or 'none'} | {t_b:.3f} | {t_c:.3f} | {t_c / t_b:.2f} | "
                f"{'yes' if same else 'NO'} |"
            )
            lines.append(row)
            print(row, flush=True)
    if a.out:
        with open(a.out, "w") as fh:
            fh.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
