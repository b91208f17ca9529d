"""``plot_tree``: the Plotly tree drawing with :func:`sklearn.tree.plot_tree`'s parameters.

:func:`plot_tree` takes a fitted :class:`offcenter.TreeClassifier` (or a scikit-learn
``DecisionTreeClassifier``, converted by :func:`offcenter.tree.from_sklearn`) and
scikit-learn's main parameters, and returns the interactive figure of
:func:`offcenter.viz.tree.tree_figure` (one box per node: id, split, n, impurity, gain, a bar
of the class shares; pan and zoom; user text escaped).

Parameters as in scikit-learn: ``max_depth`` (deeper subtrees are collapsed into their
ancestor, "+ k nodes hidden"), ``feature_names`` and ``class_names`` (renamed in the boxes, the
branch conditions and the legend; ``class_names=True`` is scikit-learn's "class labels"),
``fontsize``. The drawing always shows what scikit-learn's ``label="all"``, ``filled=True``,
``impurity=True``, ``node_ids=True``, ``rounded=True`` show: those parameters are accepted
(code written for scikit-learn runs) and other values are refused with a clear message;
``proportion`` and ``precision`` are accepted and change nothing (the boxes show counts and
shares, impurities with 4 significant digits). ``ax`` (a matplotlib axes) is refused: the
result is a Plotly figure.
"""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from sklearn.utils.validation import check_is_fitted

from offcenter.tree.estimator import TreeClassifier
from offcenter.tree.labels import branch_labels
from offcenter.tree.nodes import Tree
from offcenter.tree.sklearn_compat import from_sklearn
from offcenter.viz.tree import tree_figure

__all__ = ["plot_tree", "sample_path"]


def _renamed(clf, feature_names, class_names):
    """A view of the fitted tree with other feature and class names (for drawing only)."""
    features = clf.features_
    if feature_names is not None:
        if isinstance(feature_names, str) or len(feature_names) != len(features):
            raise ValueError(
                f"feature_names must contain {len(features)} names, got "
                f"{1 if isinstance(feature_names, str) else len(feature_names)}."
            )
        features = [replace(f, name=str(n)) for f, n in zip(features, feature_names)]
    classes = np.asarray(clf.classes_)
    if class_names is not None and class_names is not True:
        if isinstance(class_names, str) or len(class_names) != len(classes):
            raise ValueError(f"class_names must contain {len(classes)} names.")
        classes = np.asarray([str(c) for c in class_names], dtype=object)
    by_label = {str(c): classes[k] for k, c in enumerate(clf.classes_)}
    index = {f.name: j for j, f in enumerate(clf.features_)}
    nodes, conditions = [], {}
    for nd in clf.tree_.nodes:
        split = nd.split
        if split is not None:
            j = split.feature_index if split.feature_index >= 0 else index[split.feature]
            info = features[j]
            labels = branch_labels(
                info, split.kind, split.threshold, split.groups, split.missing_child
            )
            split = replace(split, feature=info.name, branch_labels=labels, feature_index=j)
        cond = () if nd.parent is None else conditions[nd.parent][nd.id]
        if split is not None:
            conditions[nd.id] = dict(zip(nd.children, (cond + (lab,) for lab in labels)))
        nodes.append(
            replace(
                nd,
                split=split,
                prediction=by_label.get(str(nd.prediction), nd.prediction),
                conditions=cond,
            )
        )
    return SimpleNamespace(tree_=Tree(nodes), classes_=classes, features_=features)


def sample_path(clf, x) -> list[int]:
    """Node ids from the root to the leaf that one sample ``x`` reaches (see ``plot_tree``'s
    ``x``); a ValueError for anything but one row.

    Examples
    --------
    >>> from offcenter import TreeClassifier
    >>> clf = TreeClassifier().fit([[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1])
    >>> sample_path(clf, [2.5])
    [0, 2]
    """
    names = getattr(clf, "feature_names_in_", None)
    if isinstance(x, pd.DataFrame):
        row = x
    elif isinstance(x, (pd.Series, dict)):
        row = pd.DataFrame([dict(x)])
    else:
        arr = np.asarray(x, dtype=object)
        if arr.ndim == 2 and arr.shape[0] == 1:
            arr = arr[0]
        if arr.ndim != 1:
            raise ValueError(
                f"x must be one row (a 1-D array, a Series, a dict); got shape {arr.shape}."
            )
        if names is not None:
            row = pd.DataFrame([arr], columns=list(names))
        else:
            row = arr.reshape(1, -1)
            try:
                row = row.astype(np.float64)
            except (TypeError, ValueError):
                pass
    if row.shape[0] != 1:
        raise ValueError(f"x must be one row; got {row.shape[0]} rows.")
    return clf.decision_paths(row)[0]


def plot_tree(
    decision_tree,
    *,
    max_depth=None,
    feature_names=None,
    class_names=None,
    label="all",
    filled=True,
    impurity=True,
    node_ids=True,
    proportion=False,
    rounded=True,
    precision=3,
    ax=None,
    fontsize=None,
    title=None,
    height=None,
    x=None,
) -> go.Figure:
    """Draw a fitted tree, with :func:`sklearn.tree.plot_tree`'s parameters (see the module
    docs for which ones change the drawing).

    Parameters
    ----------
    decision_tree : TreeClassifier or sklearn.tree.DecisionTreeClassifier
    max_depth : int, optional
        Deepest level drawn (deeper subtrees collapsed).
    feature_names, class_names : sequence of str, optional
        Names drawn instead of the tree's column names / class labels.
    fontsize : int, optional
        Font size of the whole figure (px).
    title : str, optional
        The figure's title (escaped).
    height : int, optional
        Figure height in px (default: the drawing's own).
    x : one row, optional
        A sample whose path from the root to its leaf is drawn in the highlight colour (as the
        Tree page's row trace): a 1-D array or list (the training columns in order), a pandas
        Series or dict (values by column name), or a one-row DataFrame.
    label, filled, impurity, node_ids, proportion, rounded, precision, ax :
        scikit-learn's; see the module docs.

    Returns
    -------
    plotly.graph_objects.Figure

    Examples
    --------
    >>> import numpy as np
    >>> from offcenter import TreeClassifier
    >>> clf = TreeClassifier().fit(np.array([[0.0], [1.0], [2.0], [3.0]]), [0, 0, 1, 1])
    >>> fig = plot_tree(clf, feature_names=["size"], class_names=["small", "large"])
    >>> [t.name for t in fig.data if t.name in ("small", "large")]
    ['small', 'large']
    """

    if ax is not None:
        raise TypeError(
            "plot_tree draws a Plotly figure, not on a matplotlib axes: leave ax=None and show "
            "the returned figure (fig.show(), st.plotly_chart(fig))."
        )
    fixed = {"label": "all", "filled": True, "impurity": True, "node_ids": True, "rounded": True}
    given = {
        "label": label,
        "filled": filled,
        "impurity": impurity,
        "node_ids": node_ids,
        "rounded": rounded,
    }
    for name, value in given.items():
        if value != fixed[name]:
            raise ValueError(
                f"{name}={value!r} is not available: the drawing always shows the node ids, "
                "the impurity and filled, rounded boxes (label='all'); use export_text or "
                "tree_figure for other views."
            )
    if not isinstance(decision_tree, TreeClassifier):
        decision_tree = from_sklearn(decision_tree)
    check_is_fitted(decision_tree, "tree_")
    view = _renamed(decision_tree, feature_names, class_names)
    path = () if x is None else sample_path(decision_tree, x)
    fig = tree_figure(view, max_depth=max_depth, title=title, height=height, path=path)
    if fontsize is not None:
        fig.update_layout(font={"size": int(fontsize)})
    return fig
