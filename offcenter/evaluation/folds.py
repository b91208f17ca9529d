"""The folds of a cross-validation: repeated stratified k-fold splits and their seeds.

One concern of the cross-validation (:mod:`offcenter.evaluation.runner` uses it).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from sklearn.model_selection import RepeatedStratifiedKFold

from offcenter.evaluation import metrics as _metrics

__all__ = ["Fold", "fold_seed", "stratified_folds"]


class Fold(NamedTuple):
    repeat: int
    fold: int
    train: np.ndarray
    test: np.ndarray


def stratified_folds(y, n_splits: int = 5, n_repeats: int = 1, seed: int = 0) -> list[Fold]:
    """Repeated stratified k-fold splits: :class:`sklearn.model_selection.RepeatedStratifiedKFold`.

    ``RepeatedStratifiedKFold(n_splits, n_repeats, random_state=seed)`` on the class labels (coded
    0..q-1 in sorted label order, so any hashable labels work), returned as :class:`Fold` tuples
    in its order (repeat by repeat, fold by fold). Each test fold holds about the same share of
    every class, and every example is in exactly one test fold per repeat; deterministic given
    ``seed``. Unlike scikit-learn (a warning), a class with fewer examples than folds is a
    ValueError here: a test fold would have no example of it and its recall would be undefined.

    Examples
    --------
    >>> folds = stratified_folds([0] * 8 + [1] * 4, n_splits=4, n_repeats=2, seed=1)
    >>> len(folds), sorted(len(f.test) for f in folds[:4])
    (8, [3, 3, 3, 3])
    >>> sorted(np.concatenate([f.test for f in folds[:4]]).tolist()) == list(range(12))
    True
    """
    y = np.asarray(y, dtype=object) if not isinstance(y, np.ndarray) else y
    n = y.shape[0]
    if isinstance(n_splits, bool) or not isinstance(n_splits, (int, np.integer)) or n_splits < 2:
        raise ValueError(f"the number of folds must be an integer >= 2; got {n_splits!r}.")
    if isinstance(n_repeats, bool) or not isinstance(n_repeats, (int, np.integer)) or n_repeats < 1:
        raise ValueError(f"the number of repeats must be an integer >= 1; got {n_repeats!r}.")
    if n_splits > n:
        raise ValueError(f"{n_splits} folds need at least {n_splits} examples; there are {n}.")
    labels = _metrics._sorted_labels(y)
    codes = _metrics._codes(y, labels)
    counts = np.bincount(codes, minlength=len(labels))
    if counts.min() < n_splits:
        small = labels[int(np.argmin(counts))]
        raise ValueError(
            f"the class {small!r} has only {int(counts.min())} example(s), fewer than the "
            f"{n_splits} folds; use at most {int(counts.min())} folds or more data."
        )
    splitter = RepeatedStratifiedKFold(
        n_splits=int(n_splits), n_repeats=int(n_repeats), random_state=int(seed)
    )
    return [
        Fold(i // n_splits, i % n_splits, train, test)
        for i, (train, test) in enumerate(splitter.split(np.zeros((n, 1)), codes))
    ]


def fold_seed(seed: int, repeat: int, fold: int) -> int:
    """The random seed of the models of one (repeat, fold): from the three numbers alone.

    Drawn before any fit, so that results do not depend on which worker runs which fit.

    >>> fold_seed(0, 0, 0) == fold_seed(0, 0, 0) != fold_seed(0, 0, 1)
    True
    """
    return int(np.random.default_rng([int(seed), int(repeat), int(fold), 7]).integers(2**31))
