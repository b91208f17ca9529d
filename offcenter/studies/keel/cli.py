"""Command line of the KEEL study (:mod:`offcenter.studies.keel`): its runs and its report.

Protocol, not a reusable piece: its defaults are the study's (the committed folder, the models
of the committed run, the anchors); :func:`offcenter.evaluate.main` dispatches
``python -m offcenter.evaluate study ...`` here.

Usage::

    python -m offcenter.evaluate study [FOLDER] --out folds.csv [--markdown report.md] \\
        [--settings shannon,gini,...] [--no-anchor] [--models tree,pruned,forest,...] \\
        [--folds 5] [--repeats 3] [--seed 0] [--max-depth 5] [--cp 0.01] [--n-estimators 25] \\
        [--only NAME,NAME] [--n-jobs -1] [--resume] [--smallest-first] [--quiet]
    python -m offcenter.evaluate study --report folds.csv --markdown report.md

The per-fold CSV (``--out``, gzip-compressed if its name ends in ``.gz``) has one row per (data set, model, leaf rule, setting, repeat, fold);
beside it ``<out>.json`` records the protocol, the settings, the data sets (n, features, nominal,
missing, imbalance ratio), the files left out and the wall time. ``--resume`` keeps the groups
(data set, model, setting) already complete in ``--out`` (same protocol) and runs only the others:
a long study can be run in parts, or a setting added later. ``--out`` is also written every minute
during the run and when it is interrupted (Ctrl-C / SIGINT; ``"complete": false`` in the JSON), so
a run that is stopped can be resumed. ``--smallest-first`` runs the data sets in increasing size
(rows x features), each whole before the next, so that a run stopped at a fixed time leaves
complete data sets (by default the longest groups run first).
``--report`` rebuilds the Markdown tables from a per-fold CSV and its JSON without fitting
anything.

Progress goes to stderr, one line per (data set, model, setting) with the elapsed time and an
estimate of the time left. Bad arguments exit with code 2, unusable input with code 1 and one
line on stderr; a file that cannot be used is left out and reported, it does not stop the study.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shlex
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from offcenter.evaluation.benchmark import (
    FOLD_COLUMNS,
    STUDY_METRICS,
    THRESHOLD_FREE,
    THRESHOLD_METRICS,
    data_table,
    git_commit,
    problem_counts,
    read_folder,
    read_folds,
    sort_folds,
)
from offcenter.evaluation.benchmark import environment_versions as versions
from offcenter.evaluation.cli_common import (
    CliError,
    comma_list_of,
    int_at_least,
    n_jobs_count,
    settings_list,
    write_text_file,
)
from offcenter.evaluation.wording import p_text
from offcenter.measures.settings import STUDY_SETTINGS
from offcenter.studies.keel.analysis import rank_tests, setting_labels
from offcenter.studies.keel.protocol import (
    ANCHOR,
    DEFAULT_MODELS,
    MODEL_COST,
    MODELS,
    PRIMARY_ENDPOINT,
    WEIGHTED_FOREST,
    StudyProtocol,
    run_study,
    sklearn_anchor_problem,
)
from offcenter.tree.params import LEAF_RULES

SIGNIFICANCE = 0.05
#: The committed KEEL folder, relative to the repository root (the working directory of the
#: documented command).
DEFAULT_FOLDER = Path("data/keel")
#: Seconds between two checkpoints of --out during a run.
CHECKPOINT_SECONDS = 60.0


def _cp(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number in [0, 1), got {text!r}") from None
    if not 0 <= v < 1:
        raise argparse.ArgumentTypeError(f"must be in [0, 1), got {text}")
    return v


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m offcenter.evaluate study",
        description=(
            "Benchmark the measure settings (and scikit-learn's class-weighted tree) on every "
            "binary CSV of a folder, on the same stratified folds; rank them across data sets "
            "(Friedman / Iman-Davenport, Holm against Shannon, Nemenyi)."
        ),
    )
    p.add_argument(
        "folder",
        nargs="?",
        type=Path,
        default=None,
        help=f"folder of CSV files (class: last column; default {DEFAULT_FOLDER}, the 41 KEEL "
        "sets committed in the repository, when it exists)",
    )
    p.add_argument(
        "--report",
        type=Path,
        metavar="FOLDS.csv",
        help="only rebuild the tables "
        "from a per-fold CSV (and its .json) written by an earlier run",
    )
    p.add_argument("--target", default=None, help="class column (default: the last column)")
    p.add_argument(
        "--positive",
        default="positive",
        help="label of the positive class when "
        "present (default 'positive', KEEL's minority); else the least frequent class",
    )
    p.add_argument(
        "--settings",
        type=settings_list,
        default=None,
        help="comma-separated measure settings (default: "
        + ",".join(STUDY_SETTINGS)
        + "); shannon is the reference",
    )
    p.add_argument(
        "--no-anchor",
        action="store_true",
        help="leave out scikit-learn's DecisionTreeClassifier(class_weight='balanced')",
    )
    p.add_argument(
        "--models",
        type=comma_list_of(MODELS),
        default=list(DEFAULT_MODELS),
        help="comma-separated, default "
        + ",".join(DEFAULT_MODELS)
        + " (what docs/imbalanced_study.md shows). Each model, with its CPU cost on the 41 KEEL "
        "sets relative to 'tree' (about 1.4 CPU-minutes; docs/imbalanced_study.md says how "
        "measured): " + "; ".join(f"{k} = {v} (x{MODEL_COST[k]:g})" for k, v in MODELS.items()),
    )
    p.add_argument("--folds", type=int_at_least(2), default=5)
    p.add_argument("--repeats", type=int_at_least(1), default=3)
    p.add_argument("--seed", type=int_at_least(0), default=0)
    p.add_argument(
        "--max-depth",
        type=int_at_least(1),
        default=5,
        help="depth of the depth-limited trees (default 5)",
    )
    p.add_argument(
        "--cp",
        type=_cp,
        default=0.01,
        help="pruning: ccp_alpha = cp x the root's "
        "impurity (rpart's complexity parameter; default 0.01)",
    )
    p.add_argument(
        "--n-estimators", type=int_at_least(1), default=25, help="trees per forest (default 25)"
    )
    p.add_argument(
        "--only",
        default=None,
        metavar="NAME,NAME",
        help="only these data sets (file names without .csv), for a quick run",
    )
    p.add_argument(
        "--n-jobs",
        type=n_jobs_count,
        default=-1,
        help="joblib workers (default -1: all cores); the numbers are the same whatever runs them",
    )
    p.add_argument("--out", type=Path, default=None, help="per-fold CSV (and <out>.json)")
    p.add_argument("--markdown", type=Path, default=None, help="tables as Markdown")
    p.add_argument(
        "--resume",
        action="store_true",
        help="keep the complete groups of --out and run only the missing ones",
    )
    p.add_argument(
        "--smallest-first",
        action="store_true",
        help="run the data sets smallest first (rows x features), each whole before the next, "
        "so that a run stopped early leaves complete data sets (default: longest groups first)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    return p


# ---------------------------------------------------------------------- markdown
def _p(x: float) -> str:
    if x is None or not np.isfinite(x):
        return "n/a"
    return "< 0.001" if x < 0.001 else f"{x:.3f}"


def _columns(folds: pd.DataFrame) -> list[tuple[str, str]]:
    """(metric, leaf rule) columns of the rank tables: threshold-free once, the others per rule."""
    present = set(folds["leaf_rule"].unique())
    rules = [r for r in LEAF_RULES if r in present]
    out = []
    for m in STUDY_METRICS:
        out.extend([(m, "majority")] if m in THRESHOLD_FREE else [(m, r) for r in rules])
    return out


def _column_name(metric: str, rule: str) -> str:
    name = STUDY_METRICS[metric]
    return name if metric in THRESHOLD_FREE else f"{name} ({rule})"


def markdown_report(folds: pd.DataFrame, meta: dict, bayes: bool = True) -> str:
    """The study's tables: data sets, problems, then per model the ranks and the tests.

    ``bayes=False`` leaves the Bayesian signed-rank columns out (n/a), for quick checks.
    """
    lines: list[str] = []
    if meta.get("command"):
        lines += ["Command:", "", "```", meta["command"], "```", ""]
    proto = meta.get("protocol", {})
    if proto:
        lines.append(
            "Protocol: "
            + ", ".join(f"{k} = {v}" for k, v in proto.items())
            + (
                f"; wall time {meta['wall_seconds'] / 60:.1f} min"
                if meta.get("wall_seconds")
                else ""
            )
            + "."
        )
        lines.append("")
    info = pd.DataFrame(meta.get("data", []))
    if len(info):
        lines += [
            "### Data sets",
            "",
            "| data set | n | features | nominal | rows with a missing "
            "value | constant features | positives | IR |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for _, r in info.iterrows():
            lines.append(
                f"| {r['data']} | {r['n']} | {r['features']} | {r['nominal']} | "
                f"{r['missing_rows']} | {r['constant_features']} | {r['positives']} | "
                f"{r['imbalance_ratio']:.2f} |"
            )
        lines.append("")
    probs = pd.DataFrame(meta.get("problem_counts", []))
    lines += ["### Bad input, counted", ""]
    if len(probs):
        lines.append("| " + " | ".join(map(str, probs.columns)) + " |")
        lines.append("|" + "---|" * probs.shape[1])
        for _, r in probs.fillna("").iterrows():
            lines.append("| " + " | ".join(str(v) for v in r.tolist()) + " |")
    else:
        lines.append("Nothing unusual: every test fold holds a positive row, no fit failed.")
    for text in meta.get("problems", []):
        lines.append(f"- {text}")
    lines.append("")
    errors = folds[folds["error"] != ""]
    if len(errors):
        lines.append(f"{len(errors)} row(s) with a failed fit; first: {errors['error'].iloc[0]}")
        lines.append("")
    versions = meta.get("versions")
    if versions:
        lines += ["Versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()) + ".", ""]
    lines += [STATISTICS_NOTE, ""]
    present = set(folds["model"].unique())
    for model in [m for m in MODELS if m in present]:
        labels = setting_labels(folds, model=model)
        part = folds[folds["model"] == model]
        n_data = part["data"].nunique()
        if n_data < 2:  # --only with one data set: nothing to rank across data sets
            lines += [
                f"### {MODELS[model]} ({model})",
                "",
                f"{n_data} data set: the tests across data sets need at least 2; the per-fold "
                "results are in the CSV.",
                "",
            ]
            continue
        n_settings = part["setting"].nunique()
        if n_settings < 2:  # one setting (a competitor run alone): nothing to rank it against
            lines += [
                f"### {MODELS[model]} ({model})",
                "",
                f"{n_settings} setting: the rank tests compare settings and need at least 2; "
                "the per-fold results are in the CSV (compare them with another run's).",
                "",
            ]
            continue
        cols = _columns(part)
        tests = {c: rank_tests(part, c[0], model, c[1], bayes=bayes) for c in cols}
        lines += [f"### {MODELS[model]} ({model}): average ranks over the data sets", ""]
        lines.append(
            "Rank 1 = best on a data set (means rounded to 1e-12, ties share the average rank), "
            "averaged over the data sets; `*` = differs from Shannon at 5 % by the decision rule "
            "(Wilcoxon signed-rank on the per-data-set means, Holm-adjusted over the settings), "
            "`+`/`-` its sign; `z` = Demsar's z-test on the ranks alone would call it (Holm, "
            "shown for comparison only). Below: Friedman / Iman-Davenport p, data sets and "
            "Nemenyi's CD (5 %)."
        )
        lines.append("")
        lines.append("| setting | " + " | ".join(_column_name(*c) for c in cols) + " |")
        lines.append("|---|" + "---|" * len(cols))
        keys = list(tests[cols[0]]["ranks"]["setting"])
        for k in keys:
            cells = []
            for c in cols:
                r = tests[c]["ranks"].set_index("setting").loc[k]
                cells.append(f"{r['mean_rank']:.2f}{_marks(r)}")
            lines.append(f"| {labels.get(k, k)} | " + " | ".join(cells) + " |")
        lines.append(
            "| Iman-Davenport p | "
            + " | ".join(_p(tests[c]["friedman"].f_pvalue) for c in cols)
            + " |"
        )
        lines.append(
            "| data sets (CD) | "
            + " | ".join(f"{tests[c]['n']} ({tests[c]['cd']:.2f})" for c in cols)
            + " |"
        )
        lines.append("")
        lines.append(f"Mean over the data sets of the fold means ({model}):")
        lines.append("")
        lines.append(
            "| setting | " + " | ".join(_column_name(*c) for c in cols) + " | leaves | depth |"
        )
        lines.append("|---|" + "---|" * (len(cols) + 2))
        for k in keys:
            cells = [f"{tests[c]['table'][k].mean():.3f}" for c in cols]
            r0 = tests[cols[0]]["ranks"].set_index("setting").loc[k]
            cells += [f"{r0['leaves']:.1f}", f"{r0['depth']:.1f}"]
            lines.append(f"| {labels.get(k, k)} | " + " | ".join(cells) + " |")
        lines.append("")
        pooled = {
            c: rank_tests(part, c[0], model, c[1], pooled=True, bayes=bayes)
            for c in cols
            if c[0] in THRESHOLD_METRICS
        }
        families = [(c, tests[c], "per-fold means") for c in cols]
        families += [(c, pooled[c], "pooled over the folds of a repetition") for c in pooled]
        for c, t, how in families:
            lines += _family_table(model, c, t, how, labels)
    return "\n".join(lines)


#: How the tables are computed (written at the top of the report).
STATISTICS_NOTE = (
    "Statistics (docs/imbalanced_study.md, *Protocol*): per data set the mean over its 15 "
    "test folds (threshold metrics also from the confusion counts pooled over the 5 folds of "
    "each repetition, Forman and Scholz 2010, in separate tables), rounded to 1e-12. Per family "
    "(model, metric, leaf rule): Friedman / Iman-Davenport over all settings. The decision "
    "rule: each setting against Shannon by the two-sided Wilcoxon signed-rank test on the "
    "per-data-set means (scipy.stats.wilcoxon), Holm-adjusted over the settings of the family; "
    "effect sizes: mean and median difference with a BCa bootstrap 95 % CI of the median over "
    "the data sets (scipy.stats.bootstrap, 9,999 resamples, seed 0), wins/ties/losses over "
    "the data sets; the Bayesian signed-rank test (baycomp, ROPE +-0.01, 10,000 draws, seed "
    "0): P(better), P(equivalent), P(worse). DKM and HDDT are the same method for two "
    "classes (d_H^2 = 2 x DKM's relative gain) and are counted once (the DKM column). The "
    "primary endpoint is ROC AUC of the depth-limited trees (tree); every other family is "
    "exploratory."
)


def _marks(r) -> str:
    star = ""
    if bool(r.get("significant", False)):
        star = " *" + ("+" if r["mean_diff"] > 0 else "-")
    z = " z" if (np.isfinite(r.get("p_holm_z", np.nan)) and r["p_holm_z"] < SIGNIFICANCE) else ""
    return star + z


def _family_table(model, col, t, how, labels) -> list[str]:
    metric, rule = col
    primary = (
        model == PRIMARY_ENDPOINT["model"]
        and metric == PRIMARY_ENDPOINT["metric"]
        and how.startswith("per-fold")
    )
    title = f"#### {model}, {_column_name(metric, rule)}, {how}"
    title += " (primary endpoint)" if primary else " (exploratory)"
    fr = t["friedman"]
    out = [
        title,
        "",
        f"Iman-Davenport F = {fr.f:.2f}, {p_text(fr.f_pvalue)}; {t['n']} data sets.",
        "",
        "| setting | mean | mean diff | median diff [95 % CI] | W/T/L | Wilcoxon-Holm p | "
        "P(better / equiv. / worse) | mean rank | z-Holm p | leaves | depth |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for _, r in t["ranks"].iterrows():
        name = labels.get(r["setting"], r["setting"])
        if not np.isfinite(r["p"]):
            out.append(
                f"| {name} (reference) | {r['mean']:.4f} | | | | | | {r['mean_rank']:.2f} | | "
                f"{r['leaves']:.1f} | {r['depth']:.1f} |"
            )
            continue
        star = " *" if r["significant"] else ""
        bayes = (
            f"{r['p_better']:.2f} / {r['p_rope']:.2f} / {r['p_worse']:.2f}"
            if np.isfinite(r["p_better"])
            else "n/a"
        )
        out.append(
            f"| {name} | {r['mean']:.4f} | {r['mean_diff']:+.4f} | {r['median_diff']:+.4f} "
            f"[{r['ci_low']:+.4f}, {r['ci_high']:+.4f}] | {int(r['wins'])}/{int(r['ties'])}/"
            f"{int(r['losses'])} | {_p(r['p_holm'])}{star} | {bayes} | {r['mean_rank']:.2f} | "
            f"{_p(r['p_holm_z'])} | {r['leaves']:.1f} | {r['depth']:.1f} |"
        )
    out.append("")
    return out


# ---------------------------------------------------------------------- main
def _write_folds(path: Path, folds: pd.DataFrame) -> None:
    """The per-fold CSV; gzip-compressed (reproducibly: no time stamp) when it ends in .gz."""
    text = folds.to_csv(index=False)  # full precision: --report rebuilds the same tables
    if path.suffix != ".gz":
        write_text_file(path, text)
        return
    if path.parent and not path.parent.exists():
        raise CliError(f"{path}: its folder {path.parent} does not exist")
    try:
        path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    except OSError as err:
        raise CliError(f"{path}: cannot be written ({err.strerror or err})") from None


def _meta_path(out: Path) -> Path:
    return out.with_suffix(out.suffix + ".json")


def _read_previous(out: Path, protocol: dict) -> tuple[pd.DataFrame, dict]:
    """The per-fold rows and the JSON of an earlier run of the same protocol (empty if none)."""
    if not out.exists():
        return pd.DataFrame(), {}
    meta_file = _meta_path(out)
    if not meta_file.exists():
        raise CliError(f"--resume: {meta_file} is missing, cannot check the protocol of {out}")
    meta = json.loads(meta_file.read_text(encoding="utf-8"))
    if meta.get("protocol") != protocol:
        raise CliError(
            f"--resume: {out} was computed with another protocol ({meta.get('protocol')}); "
            "remove it or use the same options"
        )
    return read_folds(out), meta


def _runs_of(meta: dict) -> list[dict]:
    """The runs recorded in a results JSON (one for a JSON written before runs were listed)."""
    if meta.get("runs"):
        return list(meta["runs"])
    if meta.get("command"):
        return [
            {
                "command": meta["command"],
                "git_commit": meta.get("git_commit", "not recorded"),
                "versions": meta.get("versions", {}),
                "wall_seconds": meta.get("wall_seconds_this_run", meta.get("wall_seconds")),
            }
        ]
    return []


def _complete_groups(prev: pd.DataFrame, n_folds: int) -> set:
    if prev.empty:
        return set()
    ok = prev[prev["error"] == ""]
    sizes = ok.groupby(["data", "model", "setting"]).size()
    return {k for k, v in sizes.items() if v == n_folds * len(LEAF_RULES)}


def _report_only(args) -> int:
    try:
        folds = read_folds(args.report)
    except (ValueError, pd.errors.ParserError) as err:
        raise CliError(f"{args.report}: {err}") from None
    meta_file = _meta_path(args.report)
    meta = json.loads(meta_file.read_text(encoding="utf-8")) if meta_file.exists() else {}
    text = markdown_report(folds, meta)
    if args.markdown is not None:
        write_text_file(args.markdown, text + "\n")
    else:
        print(text)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    argv_list = list(sys.argv[2:] if argv is None else argv)
    try:
        if args.report is not None:
            if not args.report.exists():
                raise CliError(f"{args.report}: no such file")
            return _report_only(args)
        if args.folder is None:
            if not DEFAULT_FOLDER.is_dir():
                parser.error(
                    f"give a FOLDER of CSV files (or --report FOLDS.csv); the default "
                    f"{DEFAULT_FOLDER} is not here (run from the repository root)"
                )
            args.folder = DEFAULT_FOLDER
        if args.resume and args.out is None:
            parser.error("--resume needs --out (the per-fold CSV to complete)")
        protocol = StudyProtocol(
            n_splits=args.folds,
            n_repeats=args.repeats,
            seed=args.seed,
            max_depth=args.max_depth,
            cp=args.cp,
            n_estimators=args.n_estimators,
        )
        settings = args.settings or settings_list(",".join(STUDY_SETTINGS))
        keys = [s.key for s in settings]
        if "shannon" not in keys:
            parser.error("--settings must include shannon (the reference)")
        wanted = [w.strip() for w in args.only.split(",") if w.strip()] if args.only else None
        try:  # with --only, only those files are parsed
            data_sets, problems = read_folder(args.folder, args.target, args.positive, wanted)
        except ValueError as err:
            raise CliError(str(err)) from None
        if wanted:
            missing = [w for w in wanted if w not in {d.name for d in data_sets}]
            if missing:
                raise CliError(f"--only: no data set named {', '.join(missing)} in {args.folder}")
            data_sets = [d for d in data_sets if d.name in wanted]
        if not data_sets:
            raise CliError(f"{args.folder}: no usable data set ({'; '.join(problems)})")
        if not args.no_anchor and (problem := sklearn_anchor_problem()):
            raise CliError(problem)
        prev, prev_meta = pd.DataFrame(), {}
        if args.resume:
            prev, prev_meta = _read_previous(args.out, protocol.to_dict())
        prev_seconds = float(prev_meta.get("wall_seconds", 0.0))
        prev_runs = _runs_of(prev_meta)
        command = "python -m offcenter.evaluate study " + shlex.join(argv_list)
        commit = git_commit()
        skip = _complete_groups(prev, protocol.n_splits * protocol.n_repeats)
        for text in problems:
            print(f"warning: {text}", file=sys.stderr)
        t0 = time.perf_counter()

        def progress(done: int, total: int, message: str) -> None:
            if args.quiet:
                return
            spent = time.perf_counter() - t0
            left = spent / done * (total - done)
            print(
                f"[{done}/{total}] {spent / 60:.1f} min, ~{left / 60:.1f} min left: {message}",
                file=sys.stderr,
                flush=True,
            )

        forests = any(m in ("forest", "balanced_forest") for m in args.models)
        anchors = [] if args.no_anchor else [ANCHOR, *([WEIGHTED_FOREST] if forests else [])]
        all_keys = [*keys, *anchors]
        kept = prev
        if len(prev):  # every complete group is kept, of this run's settings or not
            kept = prev[prev.set_index(["data", "model", "setting"]).index.isin(list(skip))]
        names = [d.name for d in data_sets]
        # what the file holds after this run: the earlier groups kept and this run's
        kept_keys = kept["setting"].unique().tolist() if len(kept) else []
        kept_models = kept["model"].unique().tolist() if len(kept) else []
        file_keys = list(dict.fromkeys([*prev_meta.get("settings", []), *all_keys, *kept_keys]))
        file_keys = [k for k in file_keys if k in all_keys or k in kept_keys]
        file_models = [
            m
            for m in dict.fromkeys([*prev_meta.get("models", []), *args.models, *kept_models])
            if m in args.models or m in kept_models
        ]
        kept_data = set(kept["data"]) if len(kept) else set()
        earlier = [r for r in prev_meta.get("data", []) if r.get("data") in kept_data - set(names)]
        kept_order = kept["data"].unique().tolist() if len(kept) else []
        file_names = list(dict.fromkeys([*kept_order, *names]))
        done_rows: list[dict] = []
        last = [time.perf_counter()]

        def table(rows) -> pd.DataFrame:
            new = pd.DataFrame(rows, columns=FOLD_COLUMNS)
            both = pd.concat([kept, new], ignore_index=True) if len(kept) else new
            return sort_folds(both, file_names, file_models, file_keys)

        def meta_for(folds, wall, complete) -> dict:
            return {
                "command": command,
                "git_commit": commit,
                "versions": versions(),
                "runs": [
                    *prev_runs,
                    {
                        "command": command,
                        "git_commit": commit,
                        "versions": versions(),
                        "wall_seconds": round(wall, 1),
                    },
                ],
                "protocol": protocol.to_dict(),
                "settings": file_keys,
                "models": file_models,
                "data": data_table(data_sets).to_dict(orient="records") + earlier,
                "problems": problems,
                "problem_counts": problem_counts(folds, data_sets).to_dict(orient="records"),
                "wall_seconds": round(prev_seconds + wall, 1),
                "wall_seconds_this_run": round(wall, 1),
                "complete": complete,
            }

        def save() -> None:
            folds = table(done_rows)
            _write_folds(args.out, folds)
            meta = meta_for(folds, time.perf_counter() - t0, False)
            write_text_file(_meta_path(args.out), json.dumps(meta, indent=1, default=str) + "\n")

        def checkpoint(rows: list[dict]) -> None:
            """Every minute, the groups finished so far (a killed run can --resume)."""
            done_rows.extend(rows)
            if args.out is None or time.perf_counter() - last[0] < CHECKPOINT_SECONDS:
                return
            last[0] = time.perf_counter()
            save()

        try:
            run_study(
                data_sets,
                settings,
                args.models,
                protocol,
                anchor=not args.no_anchor,
                n_jobs=args.n_jobs,
                progress=progress,
                skip=skip,
                on_group=checkpoint,
                smallest_first=args.smallest_first,
            )
        except KeyboardInterrupt:  # a stopped run keeps every group finished so far
            if args.out is not None and done_rows:
                save()
                print(f"interrupted: {args.out} holds the groups finished so far", file=sys.stderr)
            raise
        wall = time.perf_counter() - t0
        folds = table(done_rows)
        meta = meta_for(folds, wall, True)
        if args.out is not None:  # the results first: the report is rebuilt from them
            _write_folds(args.out, folds)
            write_text_file(_meta_path(args.out), json.dumps(meta, indent=1, default=str) + "\n")
        text = markdown_report(folds, meta)
        if args.markdown is not None:
            write_text_file(args.markdown, text + "\n")
        if args.out is None and args.markdown is None:
            print(text)
        if not args.quiet:
            print(f"done: {len(folds)} rows in {wall / 60:.1f} min", file=sys.stderr)
    except CliError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
