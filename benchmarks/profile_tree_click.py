"""Profile (not a test): the work of one Tree-page node click and one grow, outside Streamlit.

A node click reruns the page's ``tree_and_node`` fragment: the tree figure with the node
selected (:func:`offcenter.viz.tree.tree_figure`), its conversion to the JSON that Streamlit
sends, the node's impurities, its tables (cached per node by the page) and the worked
calculation. A grow fits the tree (cached per setting by the page) and draws it. This times
each part on a bundled data set at the page's default depth (median of ``--repeat``, ms) and
prints cProfile's top functions of the click, so that the per-click work to cache or
precompute is named by measure, not guessed.

    python benchmarks/profile_tree_click.py [--data pima german_credit] [--repeat 20]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import plotly.io as pio  # noqa: E402

from offcenter import TreeClassifier  # noqa: E402
from offcenter.app.tree_click import cached_tree_figure  # noqa: E402
from offcenter.data.datasets import DATASETS, load  # noqa: E402
from offcenter.viz.tree import tree_figure  # noqa: E402


def _ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(1000 * (time.perf_counter() - t))
    return round(statistics.median(times), 1)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", nargs="+", default=["pima", "german_credit"])
    p.add_argument("--repeat", type=int, default=20)
    p.add_argument("--depth", type=int, default=5)
    args = p.parse_args(argv)
    for name in args.data:
        profile_one(name, args)


def profile_one(name: str, args) -> None:
    """Time and profile a click and a grow on one bundled data set."""
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
        "click: cached_tree_figure, node clicked before (any session)": _ms(
            lambda: cached_tree_figure(name, None, node, (), clf), args.repeat
        ),
        "click: figure to JSON": _ms(lambda: pio.to_json(fig, validate=False), args.repeat),
        "click: node_impurities": _ms(lambda: clf.node_impurities(node), args.repeat),
        "click: candidates (cached by the page)": _ms(
            lambda: clf.candidates(node), max(3, args.repeat // 4)
        ),
        "click: own_optima (cached by the page)": _ms(
            lambda: clf.own_optima(node), max(3, args.repeat // 4)
        ),
    }
    print(f"\n{name}: {len(X)} rows, {len(nodes)} nodes at depth {args.depth}")
    print(json.dumps(parts, indent=1))
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(5):
        f = tree_figure(clf, selected=node)
        pio.to_json(f, validate=False)
        clf.node_impurities(node)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(18)
    print(out.getvalue()[:4000])


if __name__ == "__main__":
    main()
