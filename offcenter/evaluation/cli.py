"""Command line: compare measure settings by cross-validation over one or many data sets.

Usage (see ``python -m offcenter.evaluate --help``)::

    python -m offcenter.evaluate data.csv [more.csv ...] [--target COL] \\
        [--settings shannon,gini,oc_shannon,...] [--folds 5] [--repeats 3] [--seed 0] \\
        [--max-depth 5] [--leaf-rule majority[,prior]] [--model tree[,forest]] \\
        [--n-jobs -1] [--scheduler ADDRESS] [--out results.csv] [--markdown results.md]

Every combination of ``--model`` and ``--leaf-rule`` is run on every file. The CSV holds one row
per (data set, model, leaf rule, setting, repeat, fold); the Markdown file holds, per model and
leaf rule, a table per metric (rows: data sets; columns: settings; cells: mean +- std over the folds
and wins/ties/losses against Shannon, with a star when Holm-adjusted corrected t-test p < 0.05),
then a line across data sets (wins/losses of the means and the Wilcoxon p over data sets, as
Demsar (2006) recommends for two classifiers over several data sets; exact for so few data sets).

The fits run in parallel on every core by default (``--n-jobs``), or on a dask.distributed cluster
(``--scheduler ADDRESS``); the results are the same whatever runs them.

``python -m offcenter.evaluate study FOLDER ...`` runs the KEEL study's benchmark over a folder of
data sets instead (ranks across data sets, Demsar 2006): :mod:`offcenter.evaluate` dispatches it
to :mod:`offcenter.studies.keel.cli`, which this module never imports.

Bad arguments print the usage and exit with code 2; a missing or unreadable file, or data that
cannot be evaluated, print one line on stderr and exit with code 1.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from offcenter.data.csv_io import read_csv_bytes
from offcenter.evaluation.cli_common import (
    CliError,
    comma_list_of,
    int_at_least,
    n_jobs_count,
    settings_list,
    write_text_file,
)
from offcenter.evaluation.runner import (
    DEFAULT_SETTINGS,
    METRICS,
    EvaluationResult,
    cross_validate_settings,
    parse_settings,
)
from offcenter.evaluation.statistics import (
    corrected_resampled_ttest,
    holm,
    wilcoxon_signed_rank,
    wins_ties_losses,
)
from offcenter.measures.registry import parameters
from offcenter.measures.scores import score_names
from offcenter.tree.params import LEAF_RULES

#: Metrics shown in the Markdown tables (all are in the CSV).
MARKDOWN_METRICS = ("balanced_accuracy", "minority_recall", "minority_f1", "auc", "accuracy")
SIGNIFICANCE = 0.05


# ---------------------------------------------------------------------- argument types
def _max_features(text: str):
    if text in ("sqrt", "log2"):
        return text
    if text.lower() in ("none", "all"):
        return None
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected sqrt, log2, all, a count or a share in (0, 1]; got {text!r}"
        ) from None
    if value >= 1 and value.is_integer():
        return int(value)
    if 0 < value < 1:
        return value
    raise argparse.ArgumentTypeError(f"expected a count >= 1 or a share in (0, 1); got {text!r}")


def _dask_client(address: str):
    """A dask.distributed client of the scheduler at ``address`` (imported only when asked)."""
    try:
        from distributed import Client  # the optional `distributed` extra: only when asked
    except ImportError:
        raise CliError(
            "--scheduler needs dask.distributed, an optional dependency: "
            "pip install 'offcenter[distributed]'"
        ) from None
    try:
        return Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError) as err:
        raise CliError(f"--scheduler {address}: cannot connect ({err})") from None


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m offcenter.evaluate",
        description=(
            "Cross-validated comparison of decision trees (or bagged forests) grown with several "
            "entropy measures, on one or more CSV files."
        ),
        epilog=(
            "Settings (offcenter.MeasureSetting keys): [oc_|ocuniform_]<measure>["
            + "|".join(f"_{p.token}<{p.name}>" for p in parameters().values())
            + ", a parameter of the measure][_uniform][_consistent][_a<alpha>][_by<score>, "
            + "a registered split score: "
            + ", ".join(score_names())
            + "], e.g. shannon, gini, oc_shannon (off-centered on "
            "the training prior), ocuniform_shannon (on the uniform distribution), "
            "oc_daroczy_b0.5, oc_rank_diversity_r0, asymmetric, asymmetric_consistent, "
            "oc_gini_a0.5 (scored by lambda_alpha, alpha = 0.5). Default: "
            + ",".join(DEFAULT_SETTINGS)
            + "."
        ),
    )
    p.add_argument("files", nargs="+", metavar="data.csv", help="CSV files (header row)")
    p.add_argument(
        "--target",
        action="append",
        metavar="COL",
        help="class column: once for every file, or once per file in order "
        "(default: the last column of each file)",
    )
    p.add_argument(
        "--settings",
        type=settings_list,
        default=None,
        help="comma-separated measure settings (default: the standard list below)",
    )
    p.add_argument(
        "--reference",
        default=None,
        help="setting every other is compared with (default: shannon if listed)",
    )
    p.add_argument("--folds", type=int_at_least(2), default=5, help="k of k-fold CV (default 5)")
    p.add_argument(
        "--repeats",
        type=int_at_least(1),
        default=3,
        help="repetitions of the k-fold CV (default 3)",
    )
    p.add_argument("--seed", type=int_at_least(0), default=0, help="random seed (default 0)")
    p.add_argument(
        "--max-depth",
        type=int_at_least(0),
        default=5,
        help="maximum tree depth, 0 = unlimited (default 5)",
    )
    p.add_argument(
        "--min-samples-leaf",
        type=int_at_least(1),
        default=1,
        help="minimum examples per leaf (default 1)",
    )
    p.add_argument(
        "--min-samples-split",
        type=int_at_least(2),
        default=2,
        help="minimum examples to split a node (default 2)",
    )
    p.add_argument(
        "--leaf-rule",
        type=comma_list_of(LEAF_RULES),
        default=["majority"],
        help="majority and/or prior, comma-separated (default majority)",
    )
    p.add_argument(
        "--model",
        type=comma_list_of(("tree", "forest")),
        default=["tree"],
        help="tree and/or forest, comma-separated (default tree)",
    )
    p.add_argument(
        "--n-estimators", type=int_at_least(1), default=25, help="trees per forest (default 25)"
    )
    p.add_argument(
        "--max-features",
        type=_max_features,
        default="sqrt",
        help="features tried at each node of a forest's trees: sqrt, log2, all, a "
        "count or a share (default sqrt)",
    )
    p.add_argument(
        "--n-jobs",
        type=n_jobs_count,
        default=-1,
        help="fits run at once on this machine: -1 = every core (default), 1 = one "
        "after the other, -2 = all cores but one...; the results are the same",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help="run the fits on a dask.distributed cluster instead, e.g. "
        "tcp://host:8786 (needs the optional extra offcenter[distributed]; "
        "--n-jobs then counts the cluster's worker threads, every one by default)",
    )
    p.add_argument("--out", type=Path, default=None, help="write the per-fold results as CSV")
    p.add_argument("--markdown", type=Path, default=None, help="write the tables as Markdown")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.add_argument(
        "--plugin",
        action="append",
        default=[],
        metavar="module.path",
        help="import a module that registers measures (offcenter.register_measure) before the "
        "settings are read; repeatable; 'module:function' calls the function",
    )
    return p


# ---------------------------------------------------------------------- data
def read_table(path: Path) -> pd.DataFrame:
    """Read a CSV file as the app does (:func:`offcenter.data.csv_io.read_csv_bytes`)."""
    if not path.exists():
        raise CliError(f"{path}: no such file")
    if path.is_dir():
        raise CliError(f"{path}: is a directory, not a CSV file")
    try:
        data = path.read_bytes()
    except OSError as err:
        raise CliError(f"{path}: cannot be read ({err.strerror or err})") from None
    try:
        df, _ = read_csv_bytes(data, path.name)
    except (ValueError, UnicodeDecodeError, pd.errors.ParserError) as err:
        raise CliError(f"{path}: not a readable CSV file: {err}") from None
    return df


def split_target(df: pd.DataFrame, target: str | None, path: Path):
    """Features and class labels; the class is the last column unless ``target`` names one."""
    if target is None:
        target = str(df.columns[-1])
    if target not in df.columns:
        cols = ", ".join(map(str, df.columns[:12])) + (" ..." if df.shape[1] > 12 else "")
        raise CliError(f"{path}: no column {target!r} to use as the target (columns: {cols})")
    y = df[target]
    keep = y.notna()
    y = y[keep].reset_index(drop=True)
    X = df.loc[keep].drop(columns=[target]).reset_index(drop=True)
    if X.shape[1] == 0:
        raise CliError(f"{path}: no feature column besides the target {target!r}")
    # numbers as labels "0", "1" (as the app shows them); the class stays categorical
    y = y.map(lambda v: str(int(v)) if isinstance(v, float) and float(v).is_integer() else str(v))
    if y.nunique() < 2:
        raise CliError(f"{path}: the target {target!r} has a single value")
    return X, y.to_numpy(dtype=object), target


# ---------------------------------------------------------------------- markdown
def _fmt(x: float, digits: int = 3) -> str:
    return "n/a" if x is None or (isinstance(x, float) and np.isnan(x)) else f"{x:.{digits}f}"


def markdown_tables(results: list[EvaluationResult], command: str = "") -> str:
    """The Markdown report of a study: one table per (model, leaf rule) and metric."""
    lines: list[str] = []
    if command:
        lines += ["Command:", "", "```", command, "```", ""]
    groups: dict[tuple, list[EvaluationResult]] = {}
    for r in results:
        groups.setdefault((r.config["model"], r.config["leaf_rule"]), []).append(r)
    for (model, rule), rs in groups.items():
        first = rs[0]
        settings = first.settings
        ref = first.reference
        ref_label = first.labels().get(ref, ref)
        lines.append(f"## {model}, leaf rule: {rule}")
        lines.append("")
        lines.append(first.describe().split("; minority class")[0] + ".")
        lines.append("")
        lines.append(
            f"Cells: mean ± std over the folds, then wins/ties/losses against {ref_label} across "
            "the folds; `*` = the corrected resampled t-test (Nadeau-Bengio) against "
            f"{ref_label}, Holm-adjusted over the settings, gives p < {SIGNIFICANCE}."
        )
        lines.append("")
        paired = [r.paired() for r in rs]
        summaries = [r.summary() for r in rs]
        for metric in [*MARKDOWN_METRICS, "leaves"]:
            lines.append(f"### {METRICS.get(metric, metric)}")
            lines.append("")
            header = ["data set"] + [s.label for s in settings]
            lines.append("| " + " | ".join(header) + " |")
            lines.append("|" + "---|" * len(header))
            means = np.full((len(rs), len(settings)), np.nan)
            for i, (r, summ, pr) in enumerate(zip(rs, summaries, paired)):
                cells = [str(r.config.get("data", ""))]
                for j, s in enumerate(settings):
                    row = summ[summ["setting"] == s.key].iloc[0]
                    mean, std = row[f"{metric}_mean"], row[f"{metric}_std"]
                    means[i, j] = mean
                    digits = 1 if metric == "leaves" else 3
                    cell = f"{_fmt(mean, digits)} ± {_fmt(std, digits)}"
                    if metric in METRICS and s.key != ref:
                        prow = pr[(pr["setting"] == s.key) & (pr["metric"] == metric)]
                        if len(prow):
                            prow = prow.iloc[0]
                            cell += f" ({prow['wins']}/{prow['ties']}/{prow['losses']})"
                            if prow["t_p_holm"] < SIGNIFICANCE:
                                cell += " *"
                    cells.append(cell)
                lines.append("| " + " | ".join(cells) + " |")
            if metric in METRICS and len(rs) > 1:
                ref_j = [s.key for s in settings].index(ref)
                cells = [f"across data sets: better/worse than {ref_label} (Wilcoxon p)"]
                for j in range(len(settings)):
                    if j == ref_j:
                        cells.append("")
                        continue
                    d = means[:, j] - means[:, ref_j]
                    d = d[~np.isnan(d)]
                    better, worse = int(np.sum(d > 1e-12)), int(np.sum(d < -1e-12))
                    p = wilcoxon_signed_rank(d).pvalue if d.size else float("nan")
                    cells.append(f"{better}/{worse} (p = {_fmt(p, 2)})")
                lines.append("| " + " | ".join(cells) + " |")
            lines.append("")
    return "\n".join(lines)


def leaf_rule_tables(results: list[EvaluationResult]) -> str:
    """Prior-aware against majority leaf labelling, fold by fold, when both were run.

    The two rules label the leaves of the *same* trees (same folds, same seeds), so the fold-wise
    differences are paired; tested as the other comparisons (corrected resampled t-test, Holm over
    the settings of one data set and metric).
    """
    by_key: dict[tuple, dict[str, EvaluationResult]] = {}
    for r in results:
        by_key.setdefault((r.config["model"], r.config.get("data")), {})[r.config["leaf_rule"]] = r
    pairs = [
        (k, v["prior"], v["majority"])
        for k, v in by_key.items()
        if "prior" in v and "majority" in v
    ]
    if not pairs:
        return ""
    lines = []
    models = list(dict.fromkeys(k[0] for k, _, _ in pairs))
    for model in models:
        mine = [(k, p, m) for k, p, m in pairs if k[0] == model]
        settings = mine[0][1].settings
        lines += [
            f"## {model}: prior-aware against majority leaf rule",
            "",
            "Cells: mean difference prior - majority over the folds (the same trees), "
            "wins/ties/losses of the prior-aware rule, `*` = corrected resampled t-test, "
            f"Holm-adjusted over the settings, p < {SIGNIFICANCE}.",
            "",
        ]
        for metric in ("minority_recall", "balanced_accuracy", "minority_f1", "accuracy"):
            lines.append(f"### {METRICS[metric]}")
            lines.append("")
            header = ["data set"] + [s.label for s in settings]
            lines.append("| " + " | ".join(header) + " |")
            lines.append("|" + "---|" * len(header))
            for (_, data), rp, rm in mine:
                a = rp.folds.set_index(["setting", "repeat", "fold"])
                b = rm.folds.set_index(["setting", "repeat", "fold"])
                ratio = rp.config.get("test_train_ratio", 0.0)
                cells, ps = [], []
                for s in settings:
                    idx = a.loc[s.key].index.intersection(b.loc[s.key].index)
                    x = a.loc[s.key].loc[idx, metric].to_numpy(dtype=float)
                    y = b.loc[s.key].loc[idx, metric].to_numpy(dtype=float)
                    d = x - y
                    d = d[~np.isnan(d)]
                    w, t, lo = wins_ties_losses(x, y)
                    ps.append(corrected_resampled_ttest(d, ratio).pvalue)
                    cells.append(f"{d.mean():+.3f} ({w}/{t}/{lo})" if d.size else "n/a")
                for j, ph in enumerate(holm(ps)):
                    if ph < SIGNIFICANCE:
                        cells[j] += " *"
                lines.append("| " + " | ".join([str(data), *cells]) + " |")
            lines.append("")
    return "\n".join(lines)


# ---------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    args_in = list(sys.argv[1:] if argv is None else argv)
    try:  # plugins first: --settings may name their measures (and the help their parameters)
        from offcenter.measures.custom import load_plugins, plugin_args

        load_plugins(plugin_args(args_in), strict=True)
    except ValueError as exc:
        build_parser().error(str(exc))
    parser = build_parser()
    args = parser.parse_args(argv)
    argv_list = list(sys.argv[1:] if argv is None else argv)
    files = [Path(f) for f in args.files]
    targets = args.target or [None]
    if len(targets) == 1:
        targets = targets * len(files)
    elif len(targets) != len(files):
        parser.error(
            f"--target is given {len(targets)} times for {len(files)} files: give it once for "
            "every file, or once per file in order"
        )
    settings = args.settings or parse_settings(DEFAULT_SETTINGS)
    keys = [s.key for s in settings]
    if args.reference is not None and args.reference not in keys:
        parser.error(f"--reference {args.reference!r} is not among the settings {','.join(keys)}")
    tree_params = {
        "max_depth": args.max_depth or None,
        "min_samples_leaf": args.min_samples_leaf,
        "min_samples_split": args.min_samples_split,
    }
    client = None
    try:
        backend, n_jobs = None, args.n_jobs
        if args.scheduler is not None:
            client = _dask_client(args.scheduler)
            backend = "dask"
            if n_jobs == -1:
                n_jobs = None  # every worker thread of the cluster
        tables = []
        for path, target in zip(files, targets):
            df = read_table(path)
            X, y, target = split_target(df, target, path)
            tables.append((path, X, y, target))
        results: list[EvaluationResult] = []
        frames = []
        for model in args.model:
            for rule in args.leaf_rule:
                for path, X, y, target in tables:
                    t0 = time.perf_counter()
                    try:
                        res = cross_validate_settings(
                            X,
                            y,
                            settings,
                            n_splits=args.folds,
                            n_repeats=args.repeats,
                            seed=args.seed,
                            model=model,
                            leaf_rule=rule,
                            tree_params=tree_params,
                            n_estimators=args.n_estimators,
                            max_features=args.max_features,
                            reference=args.reference,
                            data_name=path.stem,
                            n_jobs=n_jobs,
                            backend=backend,
                        )
                    except ValueError as err:
                        raise CliError(f"{path}: {err}") from None
                    errors = res.folds.loc[res.folds["error"] != "", "error"]
                    if len(errors):
                        raise CliError(
                            f"{path}: {len(errors)} fit(s) failed ({model}, {rule}); first: "
                            f"{errors.iloc[0]}"
                        )
                    if not args.quiet:
                        print(
                            f"{path.name}: {model}, leaf rule {rule}, target {target!r}: "
                            f"{len(res.folds)} fits in {time.perf_counter() - t0:.1f} s",
                            file=sys.stderr,
                        )
                    results.append(res)
                    frame = res.folds.copy()
                    frame.insert(0, "data", path.stem)
                    frame.insert(1, "target", target)
                    frame.insert(2, "model", model)
                    frame.insert(3, "leaf_rule", rule)
                    frames.append(frame)
        out = pd.concat(frames, ignore_index=True)
        command = "python -m offcenter.evaluate " + shlex.join(argv_list)
        text = markdown_tables(results, command)
        extra = leaf_rule_tables(results)
        if extra:
            text += "\n" + extra
        if args.out is not None:
            write_text_file(args.out, out.to_csv(index=False))
        if args.markdown is not None:
            write_text_file(args.markdown, text + "\n")
        if args.out is None and args.markdown is None:
            print(text)
    except CliError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        if client is not None:
            client.close()
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
