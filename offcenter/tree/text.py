"""A text report of a tree with :func:`sklearn.tree.export_text`'s signature and format.

For a tree grown with the Shannon entropy or the Gini index (and ``min_gain=-inf``, so that
zero-gain splits are made as scikit-learn makes them), the output is byte for byte that of
``sklearn.tree.export_text`` on the equal :class:`~sklearn.tree.DecisionTreeClassifier`
(tested on several data sets); a tree converted by :func:`offcenter.tree.from_sklearn` gives
scikit-learn's text of the original tree.

Beyond scikit-learn: categorical splits are written one line per branch with the branch's
condition (``|--- colour = red``, ``|--- colour in {red, blue}``), and a scikit-learn tree is
accepted too (converted by :func:`~offcenter.tree.from_sklearn`). Children are written in
their order (numeric: ``<=`` then ``>``, as scikit-learn).
"""

from __future__ import annotations

import numbers
from io import StringIO

import numpy as np
from sklearn.utils.validation import check_is_fitted

from offcenter.tree.estimator import TreeClassifier
from offcenter.tree.labels import _cat_label
from offcenter.tree.sklearn_compat import from_sklearn

__all__ = ["export_text"]


def _as_names(values, what: str, expected: int) -> list[str] | None:
    if values is None:
        return None
    if isinstance(values, str) or not hasattr(values, "__len__"):
        raise ValueError(f"{what} must be a list of names; got {values!r}.")
    values = list(values)
    if len(values) != expected:
        raise ValueError(f"{what} must contain {expected} elements, got {len(values)}.")
    return values


def _subtree_depth(nodes, node_id: int) -> int:
    node = nodes[node_id]
    if not node.children:
        return 1
    return 1 + max(_subtree_depth(nodes, c) for c in node.children)


def export_text(
    decision_tree,
    *,
    feature_names=None,
    class_names=None,
    max_depth=10,
    spacing=3,
    decimals=2,
    show_weights=False,
) -> str:
    """A text report of the rules of a fitted tree, as :func:`sklearn.tree.export_text`.

    Parameters
    ----------
    decision_tree : TreeClassifier or sklearn.tree.DecisionTreeClassifier
        A fitted tree.
    feature_names : sequence of str, optional
        One name per feature; None: ``feature_0``, ``feature_1``, ... as scikit-learn (also
        when the tree was fitted on a DataFrame; pass ``clf.feature_names_in_`` for its names).
    class_names : sequence of str, optional
        One name per class of ``classes_``, in order; None: the class labels.
    max_depth : int
        Levels written; deeper branches are written ``truncated branch of depth k``.
    spacing : int
        Width of one indentation level (>= 1).
    decimals : int
        Digits after the point of the thresholds and the weights.
    show_weights : bool
        Write each leaf's (weighted) class counts before its class.

    Returns
    -------
    str
        One line per branch and per leaf, as scikit-learn writes them.

    Examples
    --------
    >>> import numpy as np
    >>> from offcenter import TreeClassifier
    >>> X = np.array([[1.0], [2.0], [3.0], [4.0]])
    >>> clf = TreeClassifier(measure="gini").fit(X, ["a", "a", "b", "b"])
    >>> print(export_text(clf, feature_names=["size"], show_weights=True))
    |--- size <= 2.50
    |   |--- weights: [2.00, 0.00] class: a
    |--- size >  2.50
    |   |--- weights: [0.00, 2.00] class: b
    <BLANKLINE>
    """

    if not isinstance(decision_tree, TreeClassifier):
        decision_tree = from_sklearn(decision_tree)
    check_is_fitted(decision_tree, "tree_")
    for name, value, low in (("max_depth", max_depth, 0), ("spacing", spacing, 1)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}; got {value!r}.")
    if isinstance(decimals, bool) or not isinstance(decimals, numbers.Integral) or decimals < 0:
        raise ValueError(f"decimals must be an integer >= 0; got {decimals!r}.")
    features = decision_tree.features_
    names = _as_names(feature_names, "feature_names", len(features))
    classes = _as_names(class_names, "class_names", len(decision_tree.classes_))
    if classes is None:
        classes = list(decision_tree.classes_)
    index = {str(c): k for k, c in enumerate(decision_tree.classes_)}
    nodes = decision_tree.tree_.nodes
    report = StringIO()

    def fname(j: int) -> str:
        return str(names[j]) if names is not None else f"feature_{j}"

    def leaf(node, indent: str) -> None:
        val = ""
        if show_weights:
            val = "[" + ", ".join(f"{v:.{decimals}f}" for v in node.counts) + "]"
        k = index.get(str(node.prediction), int(np.argmax(node.counts)))
        report.write(f"{indent}{' weights: ' if show_weights else ''}{val} class: {classes[k]}\n")

    def branch_text(split, k: int, j: int) -> str:
        if split.kind == "numeric":
            thr = f"{split.threshold:.{decimals}f}"
            return f"{fname(j)} <= {thr}" if k == 0 else f"{fname(j)} >  {thr}"
        group = split.groups[k]
        if split.kind == "categorical":
            if group[0] is None:
                return f"{fname(j)} is missing"
            return f"{fname(j)} = {_cat_label(group[0])}"
        return f"{fname(j)} in {{{', '.join(_cat_label(v) for v in group)}}}"

    def recurse(node_id: int, depth: int) -> None:
        indent = ("|" + " " * spacing) * depth
        indent = indent[:-spacing] + "-" * spacing
        node = nodes[node_id]
        if depth <= max_depth + 1:
            if node.split is None:
                leaf(node, indent)
                return
            sp = node.split
            j = (
                sp.feature_index
                if sp.feature_index >= 0
                else [f.name for f in features].index(sp.feature)
            )
            for k, child in enumerate(node.children):
                report.write(f"{indent} {branch_text(sp, k, j)}\n")
                recurse(child, depth + 1)
        else:
            sub = _subtree_depth(nodes, node_id)
            if sub == 1:
                leaf(node, indent)
            else:
                report.write(f"{indent} truncated branch of depth {sub}\n")

    recurse(0, 1)
    return report.getvalue()
