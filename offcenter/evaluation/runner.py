r"""Cross-validated comparison of measure settings, with paired statistics.

Does off-centering help on imbalanced data? This module answers with repeated stratified k-fold
cross-validation: every measure setting is grown on the *same* training folds with the *same*
stopping rules, scored on the same test folds with the metrics of :mod:`offcenter.evaluation.metrics`, and
compared with a reference setting (Shannon) fold by fold.

The paired statistics (wins/ties/losses, Wilcoxon signed-rank test, Nadeau and Bengio's corrected
resampled t-test, Holm's adjustment) are in :mod:`offcenter.evaluation.statistics`.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Iterable

import numpy as np
import pandas as pd
from joblib import delayed

from offcenter.ensemble.forest import ForestClassifier
from offcenter.evaluation import metrics as _metrics
from offcenter.evaluation.folds import Fold, fold_seed, stratified_folds
from offcenter.evaluation.parallel import _check_backend, _check_n_jobs, parallel_fits
from offcenter.evaluation.results import METRICS, SIZE_COLUMNS, EvaluationResult
from offcenter.measures.settings import (
    EVALUATION_SETTINGS,
    PEER_SETTINGS,
    MeasureSetting,
    available_settings,
)
from offcenter.tree.estimator import TreeClassifier
from offcenter.tree.params import LEAF_RULES

# Re-exported for the callers of this module's former contents (folds, parallel backend,
# results, setting catalogs now have their own homes).
__all__ = [
    "DEFAULT_SETTINGS",
    "METRICS",
    "PEER_SETTINGS",
    "SIZE_COLUMNS",
    "EvaluationResult",
    "CrossValidation",
    "Fold",
    "available_settings",
    "cross_validate_settings",
    "fold_seed",
    "parallel_fits",
    "parse_setting",
    "parse_settings",
    "stratified_folds",
]

#: The settings compared by default (the study of docs/evaluation.md): the catalog of
#: :mod:`offcenter.measures.settings`.
DEFAULT_SETTINGS = EVALUATION_SETTINGS


# ====================================================================== settings
def parse_setting(spec) -> MeasureSetting:
    """A :class:`~offcenter.MeasureSetting` from a key (``"oc_gini"``), a dict or a setting.

    A thin wrapper of :meth:`offcenter.MeasureSetting.parse` (see it for the syntax: an optional
    ``oc_`` prefix, a measure name or alias, a token per parameter of the measure (``_b<beta>``,
    ``_r<rho>``, a registered measure's own such as ``_gamma<gamma>``), ``_consistent``; the
    asymmetric entropy always uses theta = prior unless told otherwise).

    Examples
    --------
    >>> parse_setting("asymmetric_consistent").key
    'asymmetric_consistent'
    >>> parse_setting({"measure": "gini", "theta": "prior"}).label
    'off-centered Gini, θ = prior'
    >>> parse_setting("oc_rank_r0").key
    'oc_rank_diversity_r0'
    """
    return MeasureSetting.parse(spec)


def parse_settings(specs: Iterable) -> list[MeasureSetting]:
    """Several settings (a comma-separated string or an iterable); duplicates are an error."""
    if isinstance(specs, str):
        specs = [s for s in specs.split(",") if s.strip()]
    out = [parse_setting(s) for s in specs]
    if not out:
        raise ValueError("give at least one measure setting.")
    keys = [s.key for s in out]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        raise ValueError(f"the setting(s) {', '.join(dup)} are listed twice.")
    return out


# ====================================================================== one fit
def _fit_and_score(factory, params, X_tr, y_tr, X_te, y_te, classes, minority):
    """One fit and its test-fold metrics: (row fields, minority-class scores or None).

    Runs in a worker (process, thread or dask task): it gets everything it needs as arguments and
    never raises (a failing fit is recorded in ``error``).
    """
    row = {}
    scores = None
    t0 = time.perf_counter()
    try:
        est = factory(**params)
        est.fit(X_tr, y_tr)
        pred = np.asarray(est.predict(X_te))
        proba = np.asarray(est.predict_proba(X_te), dtype=float)
        full = np.zeros((len(y_te), len(classes)))
        for j, c in enumerate(list(est.classes_)):
            full[:, classes.index(c)] = proba[:, j]
        row.update(
            _metrics.classification_metrics(y_te, pred, full, classes=classes, minority=minority)
        )
        row["leaves"], row["depth"] = _tree_size(est)
        scores = full[:, classes.index(minority)]
        row["error"] = ""
    except Exception as err:  # one failing fit must not lose the whole study
        row.update({m: np.nan for m in [*METRICS, *SIZE_COLUMNS]})
        row["error"] = f"{type(err).__name__}: {err}"
    row["seconds"] = time.perf_counter() - t0
    return row, scores


# ====================================================================== the runner
def _default_model_factory(model: str):
    if model == "tree":
        return TreeClassifier
    if model == "forest":
        return ForestClassifier
    raise ValueError(f"model must be 'tree' or 'forest'; got {model!r}.")


def _tree_size(est) -> tuple[float, float]:
    trees = getattr(est, "estimators_", None)
    if trees is None:
        trees = [est]
    leaves = [float(t.tree_.n_leaves) for t in trees]
    depth = [float(t.tree_.depth) for t in trees]
    return float(np.mean(leaves)), float(np.mean(depth))


class CrossValidation:
    """A cross-validation in steps, one (repeat, fold) at a time, that can stop and resume.

    :func:`cross_validate_settings` runs it to the end; the app runs it step by step, keeping
    the object between reruns so that a cancelled run keeps the folds already done.

    Parameters
    ----------
    X : pandas.DataFrame or 2-D array
        Features (numeric and categorical columns, as :class:`offcenter.TreeClassifier` takes).
    y : sequence
        Class labels.
    settings : iterable
        Setting names or dicts (see :func:`parse_setting`); Shannon (or the first setting) is the
        reference unless ``reference`` names another key.
    n_splits, n_repeats, seed :
        Repeated stratified k-fold design (:func:`stratified_folds`); every setting sees the same
        folds.
    model : "tree" or "forest"
    leaf_rule : "majority" or "prior"
        How leaves are labelled (``"prior"``: the class whose leaf frequency most exceeds its
        prior).
    tree_params : dict
        The same stopping rules for every setting: ``max_depth``, ``min_samples_split``,
        ``min_samples_leaf``, ``min_gain``, ``categorical``...
    n_estimators, max_features :
        Forest only. Each forest is seeded from ``(seed, repeat, fold)``, the same for every
        setting.
    reference : str, optional
        The key of the setting the others are compared with (default above).
    data_name : str
        The data set's name, recorded in the result.
    model_factory : callable, optional
        Builds an estimator from the keyword arguments (default :class:`offcenter.TreeClassifier`
        or :class:`offcenter.ensemble.forest.ForestClassifier`).
    n_jobs : int or None
        Fits run at once, through joblib: None or 1 runs them one after the other in this process
        (unless a ``joblib.parallel_config`` context says otherwise), -1 on every core, -2 on
        all but one... The results are identical whatever ``n_jobs`` (each fit depends only on its
        fold and setting; the forest seeds are drawn up front); only ``seconds`` changes.
    backend : None or str
        The joblib backend: None (worker processes, loky), or ``"dask"`` to run the fits on a
        dask.distributed cluster when one machine is not enough (connect a
        ``distributed.Client`` first; needs the optional extra ``offcenter[distributed]``;
        ``n_jobs`` then defaults to every worker thread of the cluster).

    Examples
    --------
    >>> from offcenter.data.datasets import load
    >>> df = load("glass")
    >>> cv = CrossValidation(df.drop(columns="class"), df["class"], ["shannon", "oc_shannon"],
    ...                      n_splits=3, n_repeats=1, tree_params={"max_depth": 2})
    >>> cv.n_steps, cv.steps_done
    (3, 0)
    >>> _ = cv.run_step(); cv.steps_done, round(cv.fraction, 3)
    (1, 0.333)
    >>> cv.cancel(); res = cv.result(); res.cancelled, len(res.folds)
    (True, 2)
    """

    def __init__(
        self,
        X,
        y,
        settings=DEFAULT_SETTINGS,
        *,
        n_splits: int = 5,
        n_repeats: int = 3,
        seed: int = 0,
        model: str = "tree",
        leaf_rule: str = "majority",
        tree_params: dict | None = None,
        n_estimators: int = 25,
        max_features="sqrt",
        reference: str | None = None,
        data_name: str = "",
        model_factory: Callable | None = None,
        n_jobs: int | None = None,
        backend: str | None = None,
    ):
        self.n_jobs = _check_n_jobs(n_jobs)
        self.backend = _check_backend(backend)
        self.settings = parse_settings(settings)
        keys = [s.key for s in self.settings]
        if reference is None:
            reference = "shannon" if "shannon" in keys else keys[0]
        elif reference not in keys:
            raise ValueError(f"the reference {reference!r} is not among the settings {keys}.")
        if leaf_rule not in LEAF_RULES:
            raise ValueError(f"leaf_rule must be one of {LEAF_RULES}; got {leaf_rule!r}.")
        if model not in ("tree", "forest"):
            raise ValueError(f"model must be 'tree' or 'forest'; got {model!r}.")
        if model == "forest" and (
            isinstance(n_estimators, bool)
            or not isinstance(n_estimators, (int, np.integer))
            or n_estimators < 1
        ):
            raise ValueError(f"n_estimators must be an integer >= 1; got {n_estimators!r}.")
        self.factory = model_factory or _default_model_factory(model)
        self.model = model
        self.leaf_rule = leaf_rule
        self.tree_params = dict(tree_params or {})
        self.n_estimators = n_estimators
        self.max_features = max_features

        if isinstance(X, pd.DataFrame):
            self.X = X.reset_index(drop=True)
        else:
            arr = np.asarray(X)
            if arr.ndim != 2:
                raise ValueError(f"X must be 2-D (examples x features); got shape {arr.shape}.")
            self.X = pd.DataFrame(arr, columns=[f"x{j}" for j in range(arr.shape[1])])
        y_arr = np.asarray(y.to_numpy() if isinstance(y, pd.Series) else y)
        if y_arr.ndim != 1 or y_arr.shape[0] != len(self.X):
            raise ValueError(
                f"y must have one label per row of X: {len(self.X)} rows but y has shape "
                f"{y_arr.shape}."
            )
        if pd.isna(pd.Series(y_arr, dtype=object)).any():
            raise ValueError("the class column has missing values; drop those rows first.")
        self.y = y_arr
        self.classes = _metrics._sorted_labels(y_arr)
        if len(self.classes) < 2:
            raise ValueError("the class column has a single value: there is nothing to predict.")
        self.folds = stratified_folds(y_arr, n_splits, n_repeats, seed)
        self.minority = _metrics.minority_class(y_arr, self.classes)
        n = len(y_arr)
        self.seed = int(seed)
        self.config = {
            "data": data_name,
            "model": model,
            "leaf_rule": leaf_rule,
            "n_splits": int(n_splits),
            "n_repeats": int(n_repeats),
            "seed": int(seed),
            "tree_params": self.tree_params,
            "reference": reference,
            "minority": self.minority,
            "classes": self.classes,
            "class_counts": {c: int(np.sum(y_arr == c)) for c in self.classes},
            "n": n,
            "test_train_ratio": float(np.mean([len(f.test) / len(f.train) for f in self.folds])),
        }
        if model == "forest":
            self.config.update({"n_estimators": int(n_estimators), "max_features": max_features})
        self.scores = {s.key: np.full((n_repeats, n), np.nan) for s in self.settings}
        self.rows: list[dict] = []
        self.steps_done = 0
        self.cancelled = False

    @property
    def n_steps(self) -> int:
        return len(self.folds)

    @property
    def done(self) -> bool:
        return self.cancelled or self.steps_done >= self.n_steps

    @property
    def fraction(self) -> float:
        return self.steps_done / self.n_steps

    def cancel(self) -> None:
        """Stop here: :meth:`result` then holds the folds completed so far."""
        self.cancelled = True

    def step_label(self, i: int | None = None) -> str:
        f = self.folds[self.steps_done if i is None else i]
        return (
            f"repeat {f.repeat + 1}/{self.config['n_repeats']}, fold "
            f"{f.fold + 1}/{self.config['n_splits']}"
        )

    def _tasks(self, i: int) -> list[tuple]:
        """The arguments of :func:`_fit_and_score` for every setting on fold ``i``.

        The forest seed comes from ``(seed, repeat, fold)`` alone, drawn here before any fit, so
        the results do not depend on which worker runs which fit, nor in what order.
        """
        f = self.folds[i]
        X_tr, X_te = self.X.iloc[f.train], self.X.iloc[f.test]
        y_tr, y_te = self.y[f.train], self.y[f.test]
        seed = fold_seed(self.seed, f.repeat, f.fold)
        out = []
        for s in self.settings:
            params = {**self.tree_params, **s.tree_params(), "leaf_rule": self.leaf_rule}
            if self.model == "forest":
                # one core per forest: the evaluation parallelizes over the fits
                params.update(
                    n_estimators=self.n_estimators,
                    max_features=self.max_features,
                    random_state=seed,
                    n_jobs=1,
                )
            out.append((self.factory, params, X_tr, y_tr, X_te, y_te, self.classes, self.minority))
        return out

    def _row(self, i: int, s, fields: dict) -> dict:
        f = self.folds[i]
        return {
            "setting": s.key,
            "label": s.label,
            "repeat": f.repeat,
            "fold": f.fold,
            "n_train": len(f.train),
            "n_test": len(f.test),
            **fields,
        }

    def _commit(self, i: int, results: list[tuple]) -> None:
        f = self.folds[i]
        for s, (fields, scores) in zip(self.settings, results):
            self.rows.append(self._row(i, s, fields))
            if scores is not None:
                self.scores[s.key][f.repeat, f.test] = scores
        self.steps_done += 1

    def _report(self, progress, n_fits_done: int, i: int, s) -> None:
        if progress is not None:
            total = self.n_steps * len(self.settings)
            progress(n_fits_done / total, f"{self.step_label(i)}: {s.label}")

    @property
    def _sequential(self) -> bool:
        return self.backend is None and self.n_jobs in (None, 1)

    def run_step(
        self,
        progress: Callable[[float, str], None] | None = None,
        should_cancel: Callable[[], bool] | None = None,
        call: Callable | None = None,
    ) -> bool:
        """Fit every setting on the next fold (in parallel with ``n_jobs``/``backend``).

        Returns False (and cancels) if ``should_cancel`` says so before a fit (sequential) or
        before the fold starts and as its fits end (parallel), in which case that fold's fits are
        dropped. ``call`` as in :meth:`run`.
        """
        return self.run(progress, should_cancel, max_steps=1, call=call)

    def run(
        self,
        progress: Callable[[float, str], None] | None = None,
        should_cancel: Callable[[], bool] | None = None,
        max_steps: int | None = None,
        call: Callable | None = None,
    ) -> bool:
        """Fit every setting on the remaining folds (at most ``max_steps`` of them).

        Sequentially (``n_jobs`` 1 or None and no backend) ``should_cancel`` is checked before each
        fit; in parallel every fit of those folds is submitted at once to joblib (worker processes,
        or the dask cluster with ``backend="dask"``) and ``should_cancel`` is checked before and
        then as each fit ends (in submission order). ``progress`` is called after each fit in
        both cases. Only whole folds are kept. Returns False if cancelled.

        ``call(fn, *args)``, when given, runs each sequential fit instead of ``fn(*args)`` (the
        app's worker pool, :mod:`offcenter.app.heavy_work`); an exception it raises leaves the
        fold unfinished (its fits are dropped) and is raised here.
        """
        if self.done:
            return False
        stop = self.n_steps if max_steps is None else min(self.n_steps, self.steps_done + max_steps)
        steps = range(self.steps_done, stop)
        k = len(self.settings)
        if self._sequential:
            for i in steps:
                results = []
                for j, task in enumerate(self._tasks(i)):
                    if should_cancel is not None and should_cancel():
                        self.cancel()
                        return False
                    results.append(
                        _fit_and_score(*task) if call is None else call(_fit_and_score, *task)
                    )
                    self._report(progress, i * k + j + 1, i, self.settings[j])
                self._commit(i, results)
            return True
        if should_cancel is not None and should_cancel():
            self.cancel()
            return False
        tasks = [task for i in steps for task in self._tasks(i)]
        with parallel_fits(self.n_jobs, self.backend) as parallel:
            outputs = parallel(delayed(_fit_and_score)(*task) for task in tasks)
            results: list[tuple] = []
            for n, out in enumerate(outputs):
                i = steps[n // k]
                results.append(out)
                self._report(progress, i * k + n % k + 1, i, self.settings[n % k])
                if len(results) == k:
                    self._commit(i, results)
                    results = []
                if should_cancel is not None and n + 1 < len(tasks) and should_cancel():
                    with warnings.catch_warnings():  # "tasks executed but not used": wanted
                        warnings.simplefilter("ignore", UserWarning)
                        outputs.close()  # joblib cancels the fits not yet run
                    self.cancel()
                    return False
        return True

    def result(self) -> EvaluationResult:
        """The results so far (``cancelled`` is True if the run stopped before the end)."""
        columns = [
            "setting",
            "label",
            "repeat",
            "fold",
            "n_train",
            "n_test",
            *METRICS,
            *SIZE_COLUMNS,
            "seconds",
            "error",
        ]
        df = pd.DataFrame(self.rows, columns=columns)
        config = dict(self.config, steps_done=self.steps_done, n_steps=self.n_steps)
        return EvaluationResult(
            folds=df,
            settings=list(self.settings),
            config=config,
            scores={k: v.copy() for k, v in self.scores.items()},
            y_minority=self.y == self.minority,
            cancelled=self.steps_done < self.n_steps,
        )


def cross_validate_settings(
    X,
    y,
    settings=DEFAULT_SETTINGS,
    *,
    progress: Callable[[float, str], None] | None = None,
    should_cancel: Callable[[], bool] | None = None,
    **design,
) -> EvaluationResult:
    """Cross-validate trees (or forests) grown with several measure settings on one data set:
    ``CrossValidation(X, y, settings, **design)`` run to the end.

    Parameters
    ----------
    X, y, settings, **design
        The data, the settings and the design of the cross-validation (``n_splits``,
        ``n_repeats``, ``seed``, ``model``, ``leaf_rule``, ``tree_params``, ``n_jobs``, ...),
        as :class:`CrossValidation` takes them.
    progress : callable(fraction, message), optional
        Called after each fit (in submission order when the fits run in parallel).
    should_cancel : callable() -> bool, optional
        Checked before each fit (in parallel: before the start and as each fit ends); when it
        returns True the run stops and the result holds the completed folds with
        ``cancelled=True``.

    Returns
    -------
    EvaluationResult

    Examples
    --------
    >>> from offcenter.data.datasets import load
    >>> df = load("glass")
    >>> X, y = df.drop(columns="class"), df["class"]
    >>> kw = dict(n_splits=3, n_repeats=1, tree_params={"max_depth": 2})
    >>> one = cross_validate_settings(X, y, ["shannon", "gini"], **kw)
    >>> two = cross_validate_settings(X, y, ["shannon", "gini"], n_jobs=2, **kw)
    >>> one.folds.drop(columns="seconds").equals(two.folds.drop(columns="seconds"))
    True
    """
    cv = CrossValidation(X, y, settings, **design)
    cv.run(progress=progress, should_cancel=should_cancel)
    return cv.result()
