r"""Inspect a fitted scikit-learn tree with the package's tools: :func:`from_sklearn`.

A fitted :class:`sklearn.tree.DecisionTreeClassifier` becomes a :class:`offcenter.TreeClassifier`
with the same nodes, splits and predictions; with its training data attached, every inspection
works on it: :meth:`~offcenter.TreeClassifier.own_optima` and
:func:`~offcenter.tree.inspect.agreement` ("what would the other measures have chosen at this
node?"), :meth:`~offcenter.TreeClassifier.threshold_gains`, the worked calculation of
:mod:`offcenter.viz.explain`, the Plotly drawing, :func:`offcenter.tree.export_text`, and even
the edits (:meth:`~offcenter.TreeClassifier.regrow` a branch under another measure).

Conversion
----------
- Nodes are renumbered breadth-first (the package's convention: ``tree_.nodes[i].id == i``);
  ``sklearn_ids_`` maps each node to scikit-learn's (depth-first) node id.
- The measure is scikit-learn's criterion: ``"gini"`` -> Gini, ``"entropy"`` and
  ``"log_loss"`` -> Shannon (base 2, as scikit-learn's entropy), so ``Node.impurity`` equals
  ``tree_.impurity``. Any other setting of the package can be compared with it node by node.
- A node's class counts are **weighted**, as ``tree_.value`` (scikit-learn >= 1.4 stores class
  *fractions* there: counts = ``value * weighted_n_node_samples``). With the data, they are
  recomputed from the rows routed through the tree (``sample_weight`` times the tree's
  ``class_weight``); a UserWarning says so when they differ from ``tree_.value`` (data other
  than the training set: the nodes then describe that data).
- Numeric splits only (scikit-learn's trees split ``x <= threshold``); X is read as float32
  before float64, as scikit-learn reads it, so the rows go where scikit-learn sent them.
  scikit-learn's missing-value direction (``missing_go_to_left``) is kept.
- Parameters carried over: criterion (as ``measure``), ``max_depth``, ``min_samples_split``,
  ``min_samples_leaf`` (fractions resolved on the data as scikit-learn does),
  ``min_weight_fraction_leaf``, ``class_weight``; ``min_gain=-inf`` so that a regrown branch
  makes zero-gain splits as scikit-learn does.

Examples
--------
>>> from sklearn.datasets import load_iris
>>> from sklearn.tree import DecisionTreeClassifier
>>> X, y = load_iris(return_X_y=True, as_frame=True)
>>> sk = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
>>> clf = from_sklearn(sk, X, y)
>>> bool((clf.predict(X) == sk.predict(X)).all()), clf.get_n_leaves()
(True, 3)
>>> from offcenter.tree.inspect import agreement
>>> agreement(clf.own_optima(2, ["oc_shannon"])).text  # would off-centering change this split?
'all 2 settings pick petal width (cm) <= 1.75'

"""

from __future__ import annotations

import math
import numbers
import warnings
from dataclasses import replace

import numpy as np
import pandas as pd
from sklearn.tree import DecisionTreeClassifier

from offcenter.tree.encode import FeatureInfo, _python_value
from offcenter.tree.estimator import TreeClassifier
from offcenter.tree.fitted import set_fitted
from offcenter.tree.labels import branch_labels
from offcenter.tree.nodes import Node, Split, Tree, breadth_first
from offcenter.tree.params import tree_setting

__all__ = ["from_sklearn", "CRITERION_MEASURE"]

#: scikit-learn's classification criteria and the package's measure of the same formula.
CRITERION_MEASURE = {"gini": "gini", "entropy": "shannon", "log_loss": "shannon"}


def _check_sklearn_tree(tree):
    if not isinstance(tree, DecisionTreeClassifier):
        raise TypeError(
            "from_sklearn takes a fitted sklearn.tree.DecisionTreeClassifier (or ExtraTree"
            f"Classifier, or one of a forest's estimators_); got {type(tree).__name__}. "
            "A whole RandomForestClassifier or ExtraTreesClassifier: offcenter.from_sklearn."
        )
    if not hasattr(tree, "tree_"):
        raise ValueError("this DecisionTreeClassifier is not fitted: call fit(X, y) first.")
    if tree.n_outputs_ != 1:
        raise ValueError("from_sklearn takes single-output trees (y of one column).")
    criterion = tree.criterion
    if criterion not in CRITERION_MEASURE:
        raise ValueError(
            f"the tree's criterion {criterion!r} has no measure here; "
            f"from_sklearn reads {', '.join(CRITERION_MEASURE)}."
        )
    return CRITERION_MEASURE[criterion]


def _resolve_min(value, n: int, low: int) -> int:
    if isinstance(value, numbers.Integral):
        return int(value)
    return max(low, int(math.ceil(value * n)))


def _order(t) -> list[int]:
    """scikit-learn's node ids in breadth-first order."""
    left, right = t.children_left, t.children_right
    return breadth_first(0, lambda i: () if left[i] == -1 else (int(left[i]), int(right[i])))


def _float32(X):
    """X read as scikit-learn reads it (float32), back in float64, names kept."""
    if isinstance(X, pd.DataFrame):
        return X.astype(np.float32).astype(np.float64)
    return np.asarray(X, dtype=np.float32).astype(np.float64)


def from_sklearn(fitted_tree, X=None, y=None, sample_weight=None):
    """A :class:`offcenter.TreeClassifier` with the nodes of a fitted scikit-learn tree.

    Parameters
    ----------
    fitted_tree : sklearn.tree.DecisionTreeClassifier
        Fitted, single output, criterion ``"gini"``, ``"entropy"`` or ``"log_loss"``.
    X : DataFrame or array_like of shape (n_samples, n_features), optional
        Its training data (numeric columns, as scikit-learn needs them). Without X and y the
        tree predicts and draws (counts from ``tree_.value``) but cannot be inspected until
        :meth:`~offcenter.TreeClassifier.attach_data`.
    y : array_like of shape (n_samples,), optional
        The training labels.
    sample_weight : array_like, optional
        The training ``sample_weight``, if the tree was fitted with one (its ``class_weight``
        is applied on top, as in scikit-learn).

    Returns
    -------
    TreeClassifier
        Fitted: ``tree_`` holds the converted nodes, ``sklearn_ids_[i]`` is scikit-learn's
        id of node i; ``setting_`` is the criterion's measure (Gini or Shannon).

    Raises
    ------
    TypeError
        For anything but a DecisionTreeClassifier.
    ValueError
        An unfitted or multi-output tree, another criterion, X without y (or the reverse),
        data of another shape, a class the tree does not know.

    See the module docs for the conversion rules and an example.
    """

    measure = _check_sklearn_tree(fitted_tree)
    if (X is None) != (y is None):
        raise ValueError("give both X and y (the tree's training data), or neither.")
    sk = fitted_tree
    t = sk.tree_
    names = getattr(sk, "feature_names_in_", None)
    named = names is not None
    if not named:
        names = [f"x{j}" for j in range(sk.n_features_in_)]
    n_train = int(t.n_node_samples[0])
    clf = TreeClassifier(
        measure=measure,
        max_depth=sk.max_depth,
        min_samples_split=_resolve_min(sk.min_samples_split, n_train, 2),
        min_samples_leaf=_resolve_min(sk.min_samples_leaf, n_train, 1),
        min_gain=-np.inf,
        min_weight_fraction_leaf=float(sk.min_weight_fraction_leaf),
        class_weight=sk.class_weight,
    )
    features = [FeatureInfo(str(nm), "numeric", [], False) for nm in names]
    order = _order(t)
    value = t.value[:, 0, :]
    counts = value * t.weighted_n_node_samples[:, None]  # fractions since scikit-learn 1.4
    if value.sum(axis=1).max() > 1.0 + 1e-9:  # an older scikit-learn stored counts
        counts = value.astype(np.float64)
    setting = tree_setting(clf.get_params())

    def fitted(features, counts, nodes, training_data=None):
        return set_fitted(
            clf,
            classes=np.asarray(sk.classes_),
            features=features,
            named=named,
            prior=counts[0] / counts[0].sum(),
            setting=setting,
            impurity=setting.impurity(counts[0]),
            theta=setting.resolve_theta(counts[0]),
            tree=Tree(nodes),
            training_data=training_data,
        )

    path, data = None, None
    if X is not None:  # fitted from the stored counts to read the data, then from the data
        data = (
            fitted(features, counts, []).attach_data(_float32(X), y, sample_weight).training_data_
        )
        has_missing = np.isnan(data.encoded.num).any(axis=0)
        features = [replace(f, has_missing=bool(m)) for f, m in zip(features, has_missing)]
        data.encoded.features = features
        path = sk.decision_path(X).tocsc()  # scikit-learn's own routing of the rows
        counts = _data_counts(data, path, counts)
    nodes = _nodes(
        t,
        order,
        counts,
        path,
        features=features,
        classes=np.asarray(sk.classes_),
        impurity=setting.impurity(counts[0]),
        key=setting.key,
        num=None if data is None else data.encoded.num,
    )
    clf = fitted(features, counts, nodes, data)
    clf.sklearn_ids_ = np.asarray(order, dtype=np.intp)
    return clf


def _data_counts(data, path, stored):
    """Weighted class counts of every scikit-learn node from the attached rows."""
    w = np.ones(data.n) if data.weights is None else data.weights
    onehot = np.zeros((data.n, stored.shape[1]))
    onehot[np.arange(data.n), data.y] = w
    counts = np.asarray(path.T @ onehot, dtype=np.float64)
    if not np.allclose(counts, stored, rtol=1e-6, atol=1e-6):
        warnings.warn(
            "the class counts of X, y (with sample_weight and class_weight) differ from the "
            "tree's tree_.value: X, y are not the tree's training data; the nodes describe the "
            "data given.",
            UserWarning,
            stacklevel=3,
        )
    return counts


def _nodes(t, order, counts, path, *, features, classes, impurity, key, num) -> list[Node]:
    """The package's nodes of scikit-learn's tree ``t``, breadth-first in ``order``, with
    the class ``counts`` of every scikit-learn node; ``path`` (the rows' decision paths)
    and ``num`` (their numeric values) count the missing values when the data are given."""
    new_id = {old: k for k, old in enumerate(order)}
    nan = None if path is None else np.isnan(num).astype(np.int64)
    imp = impurity
    impurities = imp.of_counts(counts)
    totals = counts.sum(axis=1)
    proba = counts / np.where(totals > 0, totals, 1.0)[:, None]
    pred = np.argmax(counts, axis=1)
    missing_left = getattr(t, "missing_go_to_left", None)
    parent: dict[int, int | None] = {0: None}
    depth = {0: 0}
    conditions: dict[int, tuple] = {0: ()}
    nodes = []
    for old in order:
        left, right = int(t.children_left[old]), int(t.children_right[old])
        split, children = None, ()
        if left != -1:
            j = int(t.feature[old])
            info = features[j]
            thr = float(t.threshold[old])
            miss = 0 if missing_left is None or missing_left[old] else 1
            labels = branch_labels(info, "numeric", thr, None, miss)
            n = totals[old]
            gain = float(
                impurities[old]
                - (totals[left] * impurities[left] + totals[right] * impurities[right]) / n
            )
            n_missing = 0 if path is None else int(path[:, old].multiply(nan[:, [j]]).sum())
            split = Split(
                feature=info.name,
                kind="numeric",
                threshold=thr,
                groups=None,
                branch_labels=labels,
                gain=gain,
                score=gain,
                missing_child=miss,
                default_child=0 if totals[left] >= totals[right] else 1,
                n_missing=n_missing,
                feature_index=j,
            )
            children = (new_id[left], new_id[right])
            for k, child in enumerate((left, right)):
                parent[child] = new_id[old]
                depth[child] = depth[old] + 1
                conditions[child] = conditions[old] + (labels[k],)
        nodes.append(
            Node(
                id=new_id[old],
                parent=parent[old],
                depth=depth[old],
                counts=counts[old].copy(),
                impurity=float(impurities[old]),
                split=split,
                children=children,
                prediction=_python_value(classes[pred[old]]),
                proba=proba[old].copy(),
                conditions=conditions[old],
                n_missing=split.n_missing if split is not None else 0,
                setting_key=key,
                n_samples=int(t.n_node_samples[old]),
            )
        )
    return nodes
