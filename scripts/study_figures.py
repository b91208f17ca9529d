"""The figures of docs/imbalanced_study.md as PNG, from the committed per-fold CSV (no refit).

    python scripts/study_figures.py [docs/imbalanced_study_folds.csv.gz] [--out docs/img]

The Plotly figures of offcenter.viz.study are rendered by Debian's chromium through Playwright
(kaleido is not installed; the README screenshots are taken the same way): each figure is written
as a self-contained HTML page (plotly.js inlined, no network) and its plot element screenshotted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path

from offcenter.evaluation.benchmark import STUDY_METRICS, read_folds
from offcenter.studies.keel.analysis import gains, rank_tests
from offcenter.studies.keel.protocol import MODELS
from offcenter.studies.keel.summary import SHORT_ANSWER_FIGURE
from offcenter.tree.params import LEAF_RULES
from offcenter.viz.study import (
    cd_diagram,
    common_range,
    dataset_figure,
    effect_figure,
    gain_figure,
)

ROOT = Path(__file__).resolve().parents[1]
#: (model, metric, leaf rule) of the figures in the document (tree AUC: the primary endpoint).
FIGURES = [
    ("tree", "auc", "majority"),
    ("tree", "gmean", "majority"),
    ("tree", "gmean", "prior"),
    ("forest", "auc", "majority"),
    ("forest", "gmean", "majority"),
    ("pruned_cv", "auc", "majority"),
    ("laplace", "auc", "majority"),
    ("bagged_laplace", "auc", "majority"),
    ("balanced_forest", "gmean", "majority"),
]
GAINS = [
    ("tree", "auc", "majority"),
    ("tree", "gmean", "majority"),
    ("forest", "auc", "majority"),
]
DATASETS = [("tree", "gmean", "majority")]


def _chromium() -> str:
    for c in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if c and Path(c).exists():
            return c
    sys.exit("Debian's chromium is needed: apt-get install -y chromium")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "csv", nargs="?", type=Path, default=ROOT / "docs" / "imbalanced_study_folds.csv.gz"
    )
    p.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    args = p.parse_args(argv)
    folds = read_folds(args.csv)
    meta_file = Path(str(args.csv) + ".json")
    meta = json.loads(meta_file.read_text()) if meta_file.exists() else {}
    ir = {r["data"]: r["imbalance_ratio"] for r in meta.get("data", [])}
    figs = {}
    models = set(folds["model"])
    for model, metric, rule in FIGURES:
        if model not in models:
            continue
        res = rank_tests(folds, metric, model, rule)
        name = STUDY_METRICS[metric] + ("" if metric in ("auc", "ap") else f", {rule} rule")
        fig = cd_diagram(res["ranks"], res["cd"], f"{MODELS[model]}: {name}", n_data=res["n"])
        fig.update_layout(width=900)
        figs[f"study_cd_{model}_{metric}_{rule}"] = fig
    tables = {
        (model, metric, rule): gains(folds, metric, model, rule, imbalance=ir)
        for model, metric, rule in GAINS + DATASETS
        if model in models
    }
    ranges = {
        metric: common_range(*[g for (_, m, _), g in tables.items() if m == metric])
        for metric in {k[1] for k in tables}
    }  # one y-scale per metric, whatever the model
    for model, metric, rule in GAINS:
        if model not in models:
            continue
        name = STUDY_METRICS[metric] + ("" if metric in ("auc", "ap") else f", {rule} rule")
        fig = gain_figure(
            tables[(model, metric, rule)],
            name,
            f"{MODELS[model]}: gain over Shannon against the imbalance ratio",
            columns=4,
            y_range=ranges[metric],
        )
        fig.update_layout(width=1100)
        figs[f"study_gain_{model}_{metric}_{rule}"] = fig
    for model, metric, rule in DATASETS:
        if model not in models:
            continue
        name = STUDY_METRICS[metric] + ("" if metric in ("auc", "ap") else f", {rule} rule")
        fig = dataset_figure(tables[(model, metric, rule)], name, f"{MODELS[model]}: per data set")
        fig.update_layout(width=1000)
        figs[f"study_datasets_{model}_{metric}_{rule}"] = fig
    model, metric = SHORT_ANSWER_FIGURE
    if model in models:
        fams = {
            f"{rule} leaf rule": rank_tests(folds, metric, model, rule)["ranks"]
            for rule in LEAF_RULES
        }
        fig = effect_figure(
            fams, STUDY_METRICS[metric], f"{MODELS[model]}s: difference from Shannon"
        )
        fig.update_layout(width=1000)
        figs[f"study_effect_{model}_{metric}"] = fig

    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=_chromium(), args=["--no-sandbox", "--disable-gpu"], headless=True
        )
        page = browser.new_page(viewport={"width": 1100, "height": 800}, device_scale_factor=1.5)
        for name, fig in figs.items():
            page.set_content(fig.to_html(include_plotlyjs=True, full_html=True))
            page.wait_for_selector(".main-svg")
            page.locator(".plotly-graph-div").first.screenshot(path=str(args.out / f"{name}.png"))
            print(args.out / f"{name}.png")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
