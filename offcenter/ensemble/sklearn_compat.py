r"""Inspect a fitted scikit-learn forest with the package's tools: :func:`from_sklearn`.

A fitted :class:`sklearn.ensemble.RandomForestClassifier` or
:class:`~sklearn.ensemble.ExtraTreesClassifier` becomes a fitted
:class:`offcenter.ForestClassifier` whose ``estimators_`` are its trees read by
:func:`offcenter.tree.sklearn_compat.from_sklearn` (same nodes and splits), each with the rows
it was grown on attached, so every tree is inspectable under every measure setting
(``forest.estimators_[3].own_optima(node_id)``, ``threshold_gains``, the worked calculation,
the drawing, the edits). A single tree is passed on to the tree's ``from_sklearn``: this
function reads both (it is ``offcenter.from_sklearn``).

Conversion
----------
- Each tree's rows: its bootstrap sample (scikit-learn's ``estimators_samples_``, which honours
  ``max_samples``) attached as row weights, a row counting as many times as it was drawn, as
  scikit-learn grows its trees; ``class_weight="balanced_subsample"`` multiplies in each
  sample's balanced class weights; without bootstrap, the forest's ``sample_weight`` times its
  ``class_weight``. Since scikit-learn 1.9 a forest draws its bootstrap with probabilities
  proportional to ``sample_weight * class_weight`` and grows its trees on the counts alone;
  earlier versions multiply them into the counts: both are followed. The trees' node counts
  are then those of scikit-learn's ``tree_.value`` (a UserWarning otherwise, from the tree's
  ``from_sklearn``). ``samples_[i]`` holds tree i's drawn rows.
- The forest predicts as scikit-learn's: ``voting="soft"`` (the class of largest averaged
  ``predict_proba``), ``predict_proba`` the mean of the trees'.
- The measure is the criterion's (``"gini"`` -> Gini, ``"entropy"``/``"log_loss"`` ->
  Shannon in bits).

Examples
--------
>>> from sklearn.datasets import load_iris
>>> from sklearn.ensemble import RandomForestClassifier
>>> X, y = load_iris(return_X_y=True, as_frame=True)
>>> sk = RandomForestClassifier(n_estimators=5, max_depth=3, random_state=0).fit(X, y)
>>> forest = from_sklearn(sk, X, y)
>>> bool((forest.predict(X) == sk.predict(X)).all()), len(forest.estimators_)
(True, 5)
>>> forest.estimators_[0].own_optima(0, ["oc_shannon"]).shape[0] > 0
True
"""

from __future__ import annotations

import copy
import inspect

import numpy as np
import pandas as pd
from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier
from sklearn.ensemble import _forest as sk_forest
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.class_weight import compute_sample_weight
from sklearn.utils.validation import _check_sample_weight

from offcenter.ensemble.forest import ForestClassifier
from offcenter.tree.sklearn_compat import CRITERION_MEASURE
from offcenter.tree.sklearn_compat import from_sklearn as tree_from_sklearn

__all__ = ["from_sklearn"]

#: scikit-learn >= 1.9 draws the bootstrap with p ~ sample_weight and fits on the counts alone
_WEIGHTED_DRAW = "sample_weight" in inspect.signature(sk_forest._generate_sample_indices).parameters


def _row_weights(sk, y, sample_weight, i: int, n: int):
    """The weights scikit-learn grew tree i with (None: every row once)."""
    cw = sk.class_weight
    if not sk.bootstrap and cw == "balanced_subsample":
        cw = "balanced"  # what scikit-learn does without bootstrap
    base = None if sample_weight is None else _check_sample_weight(sample_weight, np.empty((n, 0)))
    if cw is not None and cw != "balanced_subsample":
        cwt = compute_sample_weight(cw, y)
        base = cwt if base is None else base * cwt
    if not sk.bootstrap:
        return base, np.arange(n)
    idx = np.asarray(sk.estimators_samples_[i], dtype=np.intp)
    w = np.bincount(idx, minlength=n).astype(np.float64)
    if cw == "balanced_subsample":
        w = w * compute_sample_weight("balanced", y, indices=idx)
    if base is not None and not _WEIGHTED_DRAW:
        w = w * base
    return w, np.sort(idx)


def from_sklearn(fitted, X=None, y=None, sample_weight=None):
    """A fitted scikit-learn tree or forest as the package's estimator.

    Parameters
    ----------
    fitted : DecisionTreeClassifier, RandomForestClassifier or ExtraTreesClassifier
        Fitted, single output, criterion ``"gini"``, ``"entropy"`` or ``"log_loss"``. A tree
        goes to :func:`offcenter.tree.sklearn_compat.from_sklearn`.
    X, y : optional
        The training data (both or neither). Without them the trees predict and draw (counts
        from ``tree_.value``) but cannot be inspected.
    sample_weight : array_like, optional
        The ``sample_weight`` the forest was fitted with.

    Returns
    -------
    TreeClassifier or ForestClassifier
        For a forest: fitted, ``estimators_`` the converted trees (each with its rows
        attached), ``samples_`` each tree's drawn rows (with X), ``voting="soft"``.

    Raises
    ------
    TypeError
        Anything but those three classes (a regressor, gradient boosting...).
    ValueError
        Unfitted, multi-output, another criterion, X without y (or the reverse).
    """
    if isinstance(fitted, DecisionTreeClassifier):
        return tree_from_sklearn(fitted, X, y, sample_weight)
    if not isinstance(fitted, (RandomForestClassifier, ExtraTreesClassifier)):
        raise TypeError(
            "from_sklearn takes a fitted sklearn DecisionTreeClassifier, ExtraTreeClassifier, "
            f"RandomForestClassifier or ExtraTreesClassifier; got {type(fitted).__name__}."
        )
    sk = fitted
    if not hasattr(sk, "estimators_"):
        raise ValueError(f"this {type(sk).__name__} is not fitted: call fit(X, y) first.")
    if sk.n_outputs_ != 1:
        raise ValueError("from_sklearn takes single-output forests (y of one column).")
    if sk.criterion not in CRITERION_MEASURE:
        raise ValueError(
            f"the forest's criterion {sk.criterion!r} has no measure here; "
            f"from_sklearn reads {', '.join(CRITERION_MEASURE)}."
        )
    if (X is None) != (y is None):
        raise ValueError("give both X and y (the forest's training data), or neither.")
    trees, samples = [], []
    yv = None
    if y is not None:
        yv = np.asarray(y.to_numpy() if isinstance(y, (pd.Series, pd.DataFrame)) else y)
        yv = yv.reshape(-1)
    names = getattr(sk, "feature_names_in_", None)
    for i, member in enumerate(sk.estimators_):
        if names is not None:  # scikit-learn fits its trees on arrays: a copy gets the names
            member = copy.copy(member)
            member.feature_names_in_ = names
        if X is None:
            trees.append(tree_from_sklearn(member))
            continue
        w, idx = _row_weights(sk, yv, sample_weight, i, len(yv))
        trees.append(tree_from_sklearn(member, X, y, w))
        samples.append(idx)
    forest = ForestClassifier(
        n_estimators=len(trees),
        bootstrap=bool(sk.bootstrap),
        stratified=False,
        max_features=sk.max_features,
        random_state=sk.random_state if isinstance(sk.random_state, int) else None,
        n_jobs=sk.n_jobs,
        measure=CRITERION_MEASURE[sk.criterion],
        max_depth=sk.max_depth,
        min_samples_split=trees[0].min_samples_split,
        min_samples_leaf=trees[0].min_samples_leaf,
        min_gain=-np.inf,
        class_weight=sk.class_weight,
        min_weight_fraction_leaf=float(sk.min_weight_fraction_leaf),
        voting="soft",
    )
    forest.classes_ = np.asarray(sk.classes_)
    forest.n_features_in_ = int(sk.n_features_in_)
    if names is not None:
        forest.feature_names_in_ = np.asarray(names, dtype=object)
    forest.setting_ = trees[0].setting_
    forest.theta_ = None
    forest.max_features_ = int(sk.estimators_[0].max_features_)
    forest.estimators_ = trees
    forest.samples_ = samples if X is not None else None
    return forest
