r"""rpart's cross-validated columns of the pruning table: ``xerror`` and ``xstd``.

:func:`cp_table_cv` adds to :meth:`offcenter.TreeClassifier.cp_table` the two columns of
rpart's ``printcp``: the cross-validated misclassification error of each subtree of the
pruning sequence, relative to the root's, and its standard error. With them the usual choice
is the 1-SE rule (:func:`one_se_alpha`): the smallest subtree whose ``xerror`` is within one
``xstd`` of the minimum (Breiman et al. 1984, section 3.4.3; Therneau and Atkinson, *An
introduction to recursive partitioning using the RPART routines*, section 4.2).

Method (rpart's ``xval``): the rows are split in ``cv`` stratified folds; on each training
part a tree with the same parameters (``ccp_alpha=0``) is grown and pruned at the
representative alpha of every row of the table, the geometric mean
:math:`\sqrt{\alpha_i \alpha_{i+1}}` of its alpha and the next one (the subtree of row i is
the optimal one for alpha in :math:`[\alpha_i, \alpha_{i+1})`; the last row, the root:
infinity, the folds' roots); each held-out row gets a loss :math:`e_k \in \{0, 1\}` (misclassified) for
every alpha. With row weights :math:`w_k` (``sample_weight``; 1 by default) and
:math:`R_0` the weighted misclassification of the root on all the rows (predicting its
majority class):

.. math::
    \mathrm{xerror} = \frac{\sum_k w_k e_k}{R_0}, \qquad
    \mathrm{xstd} = \frac{\sqrt{\sum_k w_k e_k^2 - (\sum_k w_k e_k)^2 / \sum_k w_k}}{R_0}

Costs along the path are the tree's measure (``cp_table``'s alphas); the loss is the
misclassification, as rpart's ``xerror`` for classification trees.
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold
from sklearn.utils.validation import check_is_fitted

from offcenter.tree.prune import pruned_predictions

__all__ = ["cp_table_cv", "one_se_alpha"]


def _take(X, rows):
    return X.iloc[rows] if isinstance(X, pd.DataFrame) else np.asarray(X)[rows]


def cp_table_cv(clf, X, y, *, cv=10, sample_weight=None, random_state=0) -> pd.DataFrame:
    """:meth:`~offcenter.TreeClassifier.cp_table` with rpart's ``xerror`` and ``xstd``.

    Parameters
    ----------
    clf : TreeClassifier
        A fitted tree (its current pruning sequence is the table's rows; its parameters grow
        the cross-validation trees).
    X, y : the training data of ``clf``.
    cv : int >= 2
        Number of stratified folds (rpart's default: 10).
    sample_weight : array_like, optional
        Row weights, for the fits and the losses.
    random_state : int
        Seed of the fold assignment (shuffled stratified folds).

    Returns
    -------
    pandas.DataFrame
        The columns of ``cp_table()`` plus ``x_alpha`` (the alpha the folds' trees were pruned
        at), ``xerror`` and ``xstd``.

    Examples
    --------
    >>> from offcenter import TreeClassifier
    >>> from offcenter.data.datasets import load
    >>> df = load("pima")
    >>> X, y = df.drop(columns="diabetes"), df["diabetes"]
    >>> clf = TreeClassifier(measure="gini", max_depth=4).fit(X, y)
    >>> table = cp_table_cv(clf, X, y, cv=5)
    >>> float(table["xerror"].iloc[-1])  # the root: its error, relative to itself
    1.0
    >>> bool(table["xerror"].min() < 1)
    True
    """
    if isinstance(cv, bool) or not isinstance(cv, numbers.Integral) or cv < 2:
        raise ValueError(f"cv must be an integer >= 2; got {cv!r}.")
    check_is_fitted(clf, "tree_")
    table = clf.cp_table()
    yv = np.asarray(y.to_numpy() if isinstance(y, (pd.Series, pd.DataFrame)) else y).ravel()
    n = len(yv)
    w = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    if w.shape != (n,):
        raise ValueError(f"sample_weight must have one weight per row ({n}); got {w.shape}.")
    _, counts = np.unique(yv, return_counts=True)
    if counts.min() < cv:
        raise ValueError(
            f"cv={cv} folds need at least {cv} rows of every class; the smallest class has "
            f"{counts.min()}."
        )
    alphas = table["alpha"].to_numpy(float)
    x_alpha = np.append(np.sqrt(alphas[:-1] * alphas[1:]), np.inf)  # last: the root
    errors = np.zeros((n, len(alphas)))
    folds = StratifiedKFold(n_splits=cv, shuffle=True, random_state=random_state)
    base = clone(clf).set_params(ccp_alpha=0.0)
    for train, test in folds.split(np.zeros(n), yv):
        tree = clone(base).fit(_take(X, train), yv[train], sample_weight=w[train])
        preds = pruned_predictions(tree, _take(X, test), x_alpha)
        for j, pred in enumerate(preds):
            errors[test, j] = pred != yv[test]
    classes, inverse = np.unique(yv, return_inverse=True)
    r0 = float(w.sum() - np.bincount(inverse, weights=w).max())
    out = table.copy()
    out["x_alpha"] = x_alpha
    if r0 <= 0:  # a single class: no error to relate to
        out["xerror"] = np.nan
        out["xstd"] = np.nan
        return out
    s1 = (w[:, None] * errors).sum(axis=0)
    s2 = (w[:, None] * errors**2).sum(axis=0)
    out["xerror"] = s1 / r0
    out["xstd"] = np.sqrt(np.maximum(s2 - s1**2 / w.sum(), 0.0)) / r0
    return out


def one_se_alpha(table: pd.DataFrame) -> float:
    """The 1-SE rule on a :func:`cp_table_cv` table: the alpha of the smallest subtree whose
    ``xerror`` is at most ``min(xerror) + xstd`` (of the row of the minimum)."""
    if "xerror" not in table or table["xerror"].isna().all():
        raise ValueError("the table has no xerror column: make it with cp_table_cv.")
    best = int(table["xerror"].idxmin())
    limit = table.loc[best, "xerror"] + table.loc[best, "xstd"]
    ok = table.index[table["xerror"] <= limit + 1e-12]
    smallest = max(ok, key=lambda i: (table.loc[i, "alpha"], i))  # later rows are smaller
    return float(table.loc[smallest, "alpha"])
