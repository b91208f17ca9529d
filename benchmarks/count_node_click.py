"""Instructions of the computed part of first node clicks on the Tree page (not a test).

A first click on a node computes its tables (:func:`offcenter.app.node_settings.compute_node_tables`),
the per-feature table (:func:`offcenter.viz.comparison.own_feature_table`), the own-optima CSV
and the gain curves of the feature the page shows first
(:meth:`offcenter.TreeClassifier.threshold_gains`). This counts their instructions under
valgrind's callgrind (Debian package ``valgrind``, a dev-only tool) on about 12 nodes spread
over the page's default tree (depth 5) of each data set: a count repeatable to a few parts in a
thousand whatever else the machine runs, unlike a time. One first click per node is warmed up
uncounted (imports, allocator).

``--grow``: a grow's computed part instead, per data set for 6 of the compared settings: the
fit at depth 5 and its root's first click (what the grow prepares for the page: the root's
tables, per-feature table, own-optima CSV and gain curves); the training report and the
drawing are not counted.

``--page``: the tables as the page reads them, through its per-node caches
(:func:`~offcenter.app.node_settings.node_tables` and
:func:`~offcenter.app.node_settings.impurity_table`, "Impurity under each measure"); the warm-up
node is then counted as a click on a node computed before.

    python benchmarks/count_node_click.py [--data pima,german_credit] [--page] [--grow]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def click(clf, i: int, settings, page: bool = False) -> None:
    """The computed part of a first click on node ``i`` (``page``: through the page's caches)."""
    from offcenter.app import node_settings as ns
    from offcenter.app.downloads import frame_csv
    from offcenter.viz.comparison import own_feature_table

    if page:
        key = f"{clf.n_features_in_}/{len(clf.tree_.nodes)}/{i}"
        tables = ns.node_tables(key, i, clf)
        ns.impurity_table(key, i, clf)
    else:
        tables = ns.compute_node_tables(i, clf)
    cands = tables["cands"]
    if not len(cands):
        return
    own_feature_table(tables["optima"], None)
    frame_csv(tables["optima"].drop(columns=["groups"]))
    numeric = [str(f) for f, k in zip(cands["feature"], cands["kind"]) if k == "numeric"]
    if numeric:
        split = clf.tree_.nodes[i].split
        own = split is not None and str(split.feature) in numeric
        clf.threshold_gains(i, str(split.feature) if own else numeric[0], settings)


def grows(name: str, X, y, ctl) -> int:
    """Count the fit and root click of 6 settings' trees on one data set; how many."""
    from offcenter import TreeClassifier
    from offcenter.app import node_settings as ns

    settings = ns.node_comparison_settings(y.nunique())[:6]
    click(TreeClassifier(max_depth=5).fit(X, y), 0, settings)  # warm-up, uncounted
    ctl("-z")
    ctl("-i", "on")
    for s in settings:
        clf = TreeClassifier(max_depth=5, **s.tree_params()).fit(X, y)
        click(clf, 0, ns.node_comparison_settings(len(clf.classes_)))
    ctl("-i", "off")
    return len(settings)


def worker(names: list[str], page: bool = False, grow: bool = False) -> None:
    """Inside valgrind: per data set, one uncounted click, then the counted ones (dumped)."""
    sys.path.insert(0, str(ROOT))
    from offcenter import TreeClassifier
    from offcenter.app import node_settings as ns
    from offcenter.data.datasets import DATASETS, load

    pid = str(os.getpid())

    def ctl(*args):
        subprocess.run(["callgrind_control", *args, pid], capture_output=True, check=False)

    for name in names:
        df = load(name)
        target = DATASETS[name].target
        if grow:
            n = grows(name, df.drop(columns=[target]), df[target], ctl)
            ctl("-d", f"{name}:{n}")
            continue
        clf = TreeClassifier(max_depth=5).fit(df.drop(columns=[target]), df[target])
        settings = ns.node_comparison_settings(len(clf.classes_))
        nodes = clf.tree_.nodes

        click(clf, 0, settings, page)
        ctl("-z")
        ctl("-i", "on")
        for i in range(0, len(nodes), max(1, len(nodes) // 12)):
            click(clf, i, settings, page)
        ctl("-i", "off")
        ctl("-d", f"{name}:{len(range(0, len(nodes), max(1, len(nodes) // 12)))}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="pima,german_credit")
    ap.add_argument("--page", action="store_true", help="through the page's per-node caches")
    ap.add_argument("--grow", action="store_true", help="count grows (fit + root click)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker(args.worker.split(","), args.page, args.grow)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no"]
        cmd += [f"--callgrind-out-file={os.path.join(tmp, 'cg.%p')}"]
        cmd += [os.path.realpath(sys.executable), __file__, "--worker", args.data]
        cmd += ["--page"] * args.page + ["--grow"] * args.grow
        subprocess.run(cmd, capture_output=True, check=True)
        what = "grow" if args.grow else "node"
        print(f"| data set | {what}s | instructions | per {what} |\n|---|---|---|---|")
        for f in sorted(Path(tmp).iterdir()):
            text = f.read_text(errors="replace")
            trig = re.search(r"^desc: Trigger: dump (\S+):(\d+)", text, re.M)
            tot = re.search(r"^totals: (\d+)", text, re.M)
            if trig and tot:
                n, total = int(trig.group(2)), int(tot.group(1))
                print(f"| {trig.group(1)} | {n} | {total / 1e9:.3f} G | {total / n / 1e6:.0f} M |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
