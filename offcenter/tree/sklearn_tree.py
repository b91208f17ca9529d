r"""An offcenter tree as a fitted scikit-learn tree: :func:`to_sklearn`.

The way out of the package, the reverse of :func:`offcenter.tree.sklearn_compat.from_sklearn`:
a fitted :class:`offcenter.TreeClassifier` of binary numeric splits becomes a fitted
:class:`sklearn.tree.DecisionTreeClassifier` whose ``tree_`` is a real scikit-learn ``Tree``
(built through its ``__setstate__`` from the arrays of ``clf.tree_``), so every tool that
reads scikit-learn's trees reads it: :func:`sklearn.tree.plot_tree`,
:func:`~sklearn.tree.export_graphviz`, :func:`~sklearn.tree.export_text`, dtreeviz,
supertree.

Conversion
----------
- Nodes keep their ids (breadth-first, ``tree_.nodes[i]`` is scikit-learn's node i), so
  ``to_sklearn(clf).apply(X) == clf.apply(X)``.
- ``tree_.value`` holds each node's ``proba`` (the weighted class fractions, what
  scikit-learn >= 1.4 stores), so ``predict_proba`` is the same; ``tree_.impurity`` is the
  impurity under the tree's own measure (each node's ``setting_key``).
- ``criterion`` is ``"gini"`` or ``"entropy"`` when every node was grown with plain Gini or
  plain Shannon (base 2, scikit-learn's entropy: the impurities are the ones scikit-learn
  would compute). Any other measure (off-centered, a score ``alpha``, another entropy, a
  regrown branch under another setting) has no criterion name in scikit-learn: the
  estimator's ``criterion`` is then scikit-learn's Entropy criterion object, which
  :func:`~sklearn.tree.plot_tree` and :func:`~sklearn.tree.export_graphviz` label
  ``impurity = ...`` (what it is: the offcenter measure's value), and ``offcenter_setting_``
  names the setting. Refitting the converted estimator uses scikit-learn's own criterion.
- Predictions: scikit-learn reads X as float32 and compares it with the float64
  thresholds, so rows whose values are float32 numbers (integers, data read as float32) go
  exactly where the offcenter tree sends them, missing values included
  (``missing_go_to_left``); a float64 value within float32 rounding (relative 6e-8) of a
  threshold may go the other way.

Refused, with a ValueError saying why: categorical splits (multiway or two groups of
categories; scikit-learn's Tree holds ``x <= threshold`` only), a categorical feature even
unused (scikit-learn's estimator reads numeric X only), and ``leaf_rule="prior"`` trees whose
leaf predictions are not the most probable class (scikit-learn predicts the argmax of
``value``).

Examples
--------
>>> from sklearn.datasets import load_iris
>>> from sklearn.tree import export_text
>>> from offcenter import TreeClassifier
>>> X, y = load_iris(return_X_y=True)
>>> clf = TreeClassifier(max_depth=2).fit(X, y)
>>> sk = to_sklearn(clf)
>>> bool((sk.predict(X) == clf.predict(X)).all()), sk.criterion
(True, 'entropy')
>>> print(export_text(sk, feature_names=["sl", "sw", "pl", "pw"]))
|--- pl <= 2.45
|   |--- class: 0
|--- pl >  2.45
|   |--- pw <= 1.75
|   |   |--- class: 1
|   |--- pw >  1.75
|   |   |--- class: 2
<BLANKLINE>
"""

from __future__ import annotations

import numpy as np
from sklearn.tree import DecisionTreeClassifier
from sklearn.tree._criterion import Entropy
from sklearn.tree._tree import NODE_DTYPE
from sklearn.tree._tree import Tree as SkTree
from sklearn.utils.validation import check_is_fitted

from offcenter.tree.params import TREE_PARAMETERS, n_max_features

__all__ = ["to_sklearn", "sklearn_tree"]

#: offcenter setting keys with a scikit-learn criterion of the same impurity.
SETTING_CRITERION = {"gini": "gini", "shannon": "entropy"}


def sklearn_tree(tree, n_features: int) -> SkTree:
    """A scikit-learn ``Tree`` with the nodes of an offcenter ``Tree`` (binary numeric
    splits), built through ``Tree.__setstate__`` with a nodes array of scikit-learn's
    ``NODE_DTYPE``.

    Raises
    ------
    ValueError
        A categorical split (the message names the node).
    """
    m = tree.node_count
    q = tree.max_n_classes
    nodes = np.zeros(m, dtype=NODE_DTYPE)
    nodes["left_child"] = tree.children_left
    nodes["right_child"] = tree.children_right
    nodes["feature"] = tree.feature
    nodes["threshold"] = tree.threshold
    nodes["impurity"] = tree.impurity
    nodes["n_node_samples"] = tree.n_node_samples
    nodes["weighted_n_node_samples"] = tree.weighted_n_node_samples
    nodes["missing_go_to_left"] = tree.missing_go_to_left
    out = SkTree(int(n_features), np.array([q], dtype=np.intp), 1)
    out.__setstate__(
        {
            "max_depth": int(tree.max_depth),
            "node_count": int(m),
            "nodes": nodes,
            "values": np.ascontiguousarray(tree.value, dtype=np.float64),
        }
    )
    return out


def _criterion(clf):
    keys = {nd.setting_key for nd in clf.tree_.nodes}
    if len(keys) == 1:
        key = keys.pop()
        if key in SETTING_CRITERION and key == clf.setting_.key:
            return SETTING_CRITERION[key]
    return Entropy(1, np.array([clf.n_classes_], dtype=np.intp))


def to_sklearn(clf) -> DecisionTreeClassifier:
    """A fitted :class:`sklearn.tree.DecisionTreeClassifier` with the nodes of ``clf``.

    Parameters
    ----------
    clf : TreeClassifier
        Fitted, binary numeric splits only (see the module docs).

    Returns
    -------
    DecisionTreeClassifier
        ``tree_`` a scikit-learn ``Tree`` with ``clf``'s node ids, ``classes_``,
        ``n_classes_``, ``n_features_in_``, ``feature_names_in_`` (when ``clf`` has them),
        ``n_outputs_``, ``max_features_``; ``max_depth``, ``min_samples_split``,
        ``min_samples_leaf``, ``min_weight_fraction_leaf``, ``class_weight``, ``ccp_alpha``,
        ``min_impurity_decrease``, ``max_leaf_nodes`` carried over; ``offcenter_setting_`` the
        measure setting's label. Predicts (and gives ``predict_proba``, ``apply``,
        ``decision_path``) as ``clf`` on float32 values.

    Raises
    ------
    ValueError
        Unfitted, a categorical feature or split, or leaf predictions scikit-learn cannot
        express (``leaf_rule="prior"``).
    """
    check_is_fitted(clf, "tree_")
    cats = [f.name for f in clf.features_ if f.kind != "numeric"]
    if cats:
        raise ValueError(
            f"to_sklearn needs numeric features; {', '.join(map(repr, cats))} "
            f"{'is' if len(cats) == 1 else 'are'} categorical (scikit-learn's trees read numbers "
            "only): encode them (e.g. one-hot columns) and fit again."
        )
    tree = clf.tree_
    index = {c: i for i, c in enumerate(np.asarray(clf.classes_).tolist())}
    for nd in tree.nodes:
        if nd.is_leaf and index[nd.prediction] != int(np.argmax(nd.proba)):
            raise ValueError(
                f"leaf {nd.id} predicts {nd.prediction!r} (leaf_rule={clf.leaf_rule!r}) but its "
                "most probable class is another: scikit-learn's trees predict the most "
                "probable class of the leaf, so this tree has no scikit-learn form."
            )
    sk_tree = sklearn_tree(tree, clf.n_features_in_)
    p = clf.get_params()
    sk = DecisionTreeClassifier(
        criterion=_criterion(clf),
        max_depth=p["max_depth"],
        min_samples_split=p["min_samples_split"],
        min_samples_leaf=p["min_samples_leaf"],
        min_weight_fraction_leaf=p["min_weight_fraction_leaf"],
        max_features=p["max_features"],
        random_state=p["random_state"] if isinstance(p["random_state"], int) else None,
        class_weight=p["class_weight"],
        ccp_alpha=p["ccp_alpha"],
        min_impurity_decrease=p["min_impurity_decrease"],
        max_leaf_nodes=p["max_leaf_nodes"],
    )
    sk.classes_ = np.asarray(clf.classes_)
    sk.n_classes_ = int(clf.n_classes_)
    sk.n_outputs_ = 1
    sk.n_features_in_ = int(clf.n_features_in_)
    names = getattr(clf, "feature_names_in_", None)
    if names is not None:
        sk.feature_names_in_ = np.asarray(names, dtype=object)
    mf = n_max_features(TREE_PARAMETERS["max_features"](p["max_features"]), sk.n_features_in_)
    sk.max_features_ = sk.n_features_in_ if mf is None else mf
    sk.tree_ = sk_tree
    sk.offcenter_setting_ = clf.setting_.label_for(clf.prior_)
    return sk
