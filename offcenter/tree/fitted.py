"""One constructor for a fitted tree, and the checks other modules make on one.

A :class:`~offcenter.TreeClassifier` is fitted in three ways: grown by ``fit``, read back by
:func:`offcenter.tree.export.from_dict`, converted from scikit-learn by
:func:`offcenter.tree.sklearn_compat.from_sklearn`. All three set the fitted attributes
through :func:`set_fitted`, so a fitted tree has the same attributes whichever way it came:

``classes_``, ``n_classes_``, ``features_`` (:class:`~offcenter.tree.encode.FeatureInfo`),
``prior_`` (the training class distribution), ``setting_``, ``impurity_``, ``theta_``,
``tree_``, ``training_data_`` (None when loaded without data), ``edits_``; ``n_features_in_``
and ``feature_names_in_`` as scikit-learn defines them; ``heuristic_groupings_`` when grown.

Fittedness is scikit-learn's: :func:`sklearn.utils.validation.check_is_fitted` on ``tree_``.
"""

from __future__ import annotations

import copy
import numbers

import numpy as np
from sklearn.utils.validation import check_is_fitted


def set_fitted(
    clf,
    *,
    classes: np.ndarray,
    features: list,
    named: bool,
    prior: np.ndarray,
    setting,
    impurity,
    theta,
    tree,
    training_data=None,
    edits=(),
    heuristic_groupings: dict | None = None,
    record_inputs: bool = True,
):
    """Make ``clf`` a fitted tree with these attributes; returns ``clf``.

    Parameters
    ----------
    clf : TreeClassifier
        The estimator (its parameters already set).
    classes : ndarray
        The class labels, in the order of the counts.
    features : list of FeatureInfo
        The training columns' encodings.
    named : bool
        Whether the training X had column names (new X is then matched by name).
    prior, setting, impurity, theta, tree, training_data, edits
        The fitted attributes of the same names (``prior_``, ...).
    heuristic_groupings : dict, optional
        ``heuristic_groupings_`` (grown trees only; left unset otherwise).
    record_inputs : bool
        Set ``n_features_in_`` and ``feature_names_in_`` (when ``named``) from ``features``;
        False when scikit-learn's ``validate_data`` has already recorded them from X (``fit``).
    """
    clf.classes_ = classes
    clf.n_classes_ = len(classes)
    clf.features_ = features
    clf._named = bool(named)
    if record_inputs:
        clf.n_features_in_ = len(clf.features_)
        if named:
            clf.feature_names_in_ = np.asarray([f.name for f in clf.features_], dtype=object)
    clf.prior_ = prior
    clf.setting_ = setting
    clf.impurity_ = impurity
    clf.theta_ = theta
    clf.training_data_ = training_data
    clf.edits_ = list(edits)
    if heuristic_groupings is not None:
        clf.heuristic_groupings_ = heuristic_groupings
    clf._train_leaf = None  # the training rows' leaves, computed when first needed
    clf.tree_ = tree
    return clf


def names_given(clf) -> bool:
    """Whether the tree's training X had column names (new X is then matched by name)."""
    return clf._named


def check_fitted(clf) -> None:
    """scikit-learn's ``NotFittedError`` (a ValueError) before the tree is fitted."""
    check_is_fitted(clf, "tree_")


def require_data(clf) -> None:
    """A clear ValueError unless the fitted tree has its training rows (inspection and
    edits need them; a tree loaded from JSON gets them from ``attach_data``)."""
    check_fitted(clf)
    if getattr(clf, "training_data_", None) is None:
        raise ValueError(
            "this tree was loaded from JSON without its training data; inspection and edits "
            "need the training rows: refit it, or call attach_data(X, y)."
        )


def check_node(clf, node_id) -> None:
    """A clear ValueError unless ``node_id`` is a node of the fitted tree."""
    if (
        isinstance(node_id, bool)
        or not isinstance(node_id, numbers.Integral)
        or not (0 <= node_id < len(clf.tree_))
    ):
        raise ValueError(f"node {node_id!r} does not exist; ids go from 0 to {len(clf.tree_) - 1}.")


def copy_fitted(clf):
    """A shallow copy of a fitted tree to change ``tree_`` of: the training data are shared,
    the edits list is its own, the training rows' leaves are computed again."""
    new = copy.copy(clf)
    new._train_leaf = None
    new.edits_ = list(getattr(clf, "edits_", []))
    return new
