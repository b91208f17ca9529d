r"""Grow a fitted tree again one split at a time: the lesson's "next split" step-through.

A fitted tree with :math:`s` internal nodes is replayed as the sequence of partial trees
:math:`T_0 \subset T_1 \subset \dots \subset T_s`: :math:`T_0` is the root alone (a leaf),
:math:`T_k` is :math:`T_{k-1}` with one more node split exactly as in the fitted tree, and
:math:`T_s` is the fitted tree. Each node's split depends only on the training rows that reach
it, that is on its ancestors' splits, never on the order in which the other nodes are split:
every order gives the same :math:`T_s`, and the split made at step k is the one the fitted
tree has there. The order only decides what the class sees first.

Two orders are offered (:data:`ORDERS`):

``"breadth"`` (the default, the Tree page's)
    Level by level, left to right: the order of the node ids, which the fitted tree numbers
    breadth-first (:func:`offcenter.tree.nodes.renumber`), as its drawing is read top down.
    Each partial tree then holds exactly the nodes ``0 .. m - 1`` of the fitted tree with the
    SAME ids, so "node 4" is node 4 at every step, in the node selector, in a shared link and
    in the whole tree. This is why the page uses it: the student following on a phone and the
    teacher's projector name the same nodes.
``"best"``
    Best-first: the open node of the largest weighted impurity decrease
    :math:`\frac{W_t}{W}\,\mathrm{gain}_t` next (ties: the smaller id), scikit-learn's growth
    order under ``max_leaf_nodes`` (:func:`offcenter.tree.prune.best_first`). Its partial trees
    are renumbered breadth-first; :class:`PartialTree` ``ids`` maps their ids to the fitted tree's.

References
----------
Breiman, Friedman, Olshen and Stone (1984), *Classification and Regression Trees*, ch. 2
(a tree grown by successive splits); scikit-learn, ``DecisionTreeClassifier(max_leaf_nodes=...)``
(best-first growth).

Examples
--------
>>> import pandas as pd
>>> from offcenter.tree import TreeClassifier
>>> X = pd.DataFrame({"x": [0.0, 1, 2, 3, 4, 5, 6, 7]})
>>> clf = TreeClassifier(measure="gini").fit(X, [0, 0, 1, 1, 0, 0, 1, 1])
>>> order = split_order(clf.tree_)
>>> order  # the internal nodes, level by level: the root, node 2, node 4
[0, 2, 4]
>>> step = tree_at_step(clf.tree_, 1)
>>> len(step.tree), step.node, step.ids
(3, 0, (0, 1, 2))
>>> classifier_at_step(clf, 0).tree_.n_leaves
1
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.utils.validation import check_is_fitted

from offcenter.tree.fitted import copy_fitted
from offcenter.tree.nodes import Tree, breadth_first_ids, renumber
from offcenter.tree.prune import as_leaf

__all__ = [
    "ORDERS",
    "PartialTree",
    "split_order",
    "n_steps",
    "check_step",
    "tree_at_step",
    "classifier_at_step",
    "step_verdict",
]

#: The orders of growth: name -> one-line description (for a widget's labels).
ORDERS = {
    "breadth": "level by level (breadth-first, node ids kept)",
    "best": "largest weighted gain first (best-first, as scikit-learn's max_leaf_nodes)",
}


def _check_order(order: str) -> str:
    if order not in ORDERS:
        raise ValueError(f"order must be one of {tuple(ORDERS)}; got {order!r}.")
    return order


def split_order(tree: Tree, order: str = "breadth") -> list[int]:
    r"""The internal nodes of ``tree`` (ids) in the order a step-through splits them.

    Parameters
    ----------
    tree : Tree
        A fitted tree (``clf.tree_``), nodes numbered breadth-first.
    order : {"breadth", "best"}
        ``"breadth"``: increasing id (level by level, left to right). ``"best"``: among the
        nodes whose parent is already split, the one of the largest
        :math:`\frac{W_t}{W}\,\mathrm{gain}_t` (``Node.weighted_n``, ``Split.gain``) first,
        the smaller id on a tie.

    Returns
    -------
    list of int
        Every internal node once; a parent always before its children.
    """
    _check_order(order)
    nodes = tree.nodes
    if order == "breadth":
        return [nd.id for nd in nodes if nd.split is not None]
    total = nodes[0].weighted_n or 1.0
    heap: list = []

    def push(i: int) -> None:
        nd = nodes[i]
        if nd.split is not None:
            heapq.heappush(heap, (-(nd.weighted_n / total) * float(nd.split.gain), i))

    push(0)
    out = []
    while heap:
        _, i = heapq.heappop(heap)
        out.append(i)
        for c in nodes[i].children:
            push(c)
    return out


def n_steps(tree: Tree) -> int:
    """The number of steps of a step-through: the tree's internal nodes (splits)."""
    return sum(1 for nd in tree.nodes if nd.split is not None)


def check_step(k, tree: Tree) -> int:
    """``k`` clamped to ``0 .. n_steps(tree)`` (a link's step beyond the tree's last split
    shows the whole tree, a negative one the root alone)."""
    try:
        k = int(k)
    except (TypeError, ValueError):
        k = 0
    return max(0, min(k, n_steps(tree)))


@dataclass(frozen=True)
class PartialTree:
    """The partial tree after ``k`` splits.

    Attributes
    ----------
    k : int
        Splits made (0: the root alone).
    n_steps : int
        Splits of the fitted tree (the last step).
    tree : Tree
        The partial tree: the fitted tree's nodes reached by the first ``k`` splits, those
        not split yet drawn as leaves (their counts, prediction and probabilities kept).
    node : int or None
        The node split at step ``k``, as an id of ``tree`` (None at step 0).
    full_node : int or None
        The same node as an id of the fitted tree.
    ids : tuple of int
        ``ids[i]`` is the fitted tree's id of the partial tree's node ``i`` (the identity
        ``0 .. m - 1`` in breadth-first order).
    order : str
        The order of growth.
    """

    k: int
    n_steps: int
    tree: Tree
    node: int | None
    full_node: int | None
    ids: tuple
    order: str

    @property
    def full_ids(self) -> dict:
        """The partial tree's id of each of its nodes, keyed by the fitted tree's id."""
        return {full: i for i, full in enumerate(self.ids)}


def tree_at_step(tree: Tree, k: int, order: str = "breadth") -> PartialTree:
    """The partial tree of the first ``k`` splits of :func:`split_order` (see :class:`PartialTree`).

    ``k`` is clamped to ``0 .. n_steps(tree)``; ``k = n_steps(tree)`` gives the fitted tree's
    nodes unchanged. The partial tree is renumbered breadth-first; in breadth-first order its
    ids are the fitted tree's (its nodes are the first ``m`` of the fitted tree).
    """
    order_ids = split_order(tree, order)
    k = max(0, min(int(k), len(order_ids)))
    split = set(order_ids[:k])
    keep = {tree.root}
    for i in split:
        keep.update(tree.nodes[i].children)
    kept = [nd if nd.id in split else as_leaf(nd) for nd in tree.nodes if nd.id in keep]
    old_ids = breadth_first_ids(kept)
    partial = Tree(renumber(kept))
    full = order_ids[k - 1] if k > 0 else None
    return PartialTree(
        k=k,
        n_steps=len(order_ids),
        tree=partial,
        node=None if full is None else old_ids.index(full),
        full_node=full,
        ids=tuple(old_ids),
        order=order,
    )


def classifier_at_step(clf, k: int, order: str = "breadth"):
    """A copy of the fitted ``clf`` whose tree is the partial tree after ``k`` splits.

    It predicts, draws and is inspected like any tree (its training data stay attached:
    ``node_indices``, ``own_optima`` work; a node's rows are those of the fitted tree's node,
    which depend on its ancestors only). The edits list is the fitted tree's: a step is a view,
    not an edit. ``classifier_at_step(clf, n_steps(clf.tree_))`` predicts as ``clf``.
    """
    check_is_fitted(clf, "tree_")
    step = tree_at_step(clf.tree_, k, order)
    new = copy_fitted(clf)  # the training data are shared, the routing cache reset
    new.tree_ = step.tree
    return new


def _ident(feature, threshold, groups) -> tuple:
    thr = None if threshold is None or pd.isna(threshold) else round(float(threshold), 12)
    grp = None if groups is None else tuple(tuple(g) for g in groups)
    return (str(feature), thr, grp)


def step_verdict(optima: pd.DataFrame, split) -> pd.DataFrame:
    """Each setting's own best split at a node and whether it is the split the tree made.

    Parameters
    ----------
    optima : pandas.DataFrame
        :func:`offcenter.tree.inspect.own_optima` of the node (``attrs["settings"]`` lists
        the settings, the tree's own first).
    split : Split or None
        The tree's split at the node (``node.split``).

    Returns
    -------
    pandas.DataFrame
        One row per setting, in the order of ``attrs["settings"]``: ``setting`` (the label),
        ``best split`` (its pick, e.g. ``glucose <= 127.5``; ``"no winner"`` when every
        feature ties under it, ``"no valid split"`` when none is valid), ``gain``,
        ``same as the tree`` (True when it is the tree's split: same feature and the same
        threshold or grouping; False otherwise, also without a winner).

    >>> from offcenter.tree import TreeClassifier
    >>> clf = TreeClassifier().fit(pd.DataFrame({"x": [0.0, 1, 2, 3]}), [0, 0, 1, 1])
    >>> v = step_verdict(clf.own_optima(0, ["gini"]), clf.tree_.nodes[0].split)
    >>> v["best split"].tolist(), v["same as the tree"].tolist()
    (['x <= 1.5', 'x <= 1.5'], [True, True])
    """
    tree_ident = None if split is None else _ident(split.feature, split.threshold, split.groups)
    rows = []
    table = optima.copy(deep=False)
    table.attrs = {}
    for key, label in optima.attrs.get("settings", []):
        sub = table[(table["setting_key"] == key).to_numpy(bool)]
        best = sub[sub["is_best"].to_numpy(bool)]
        if len(best):
            r = best.iloc[0]
            same = tree_ident is not None and _ident(r["feature"], r["threshold"], r["groups"]) == (
                tree_ident
            )
            rows.append((label, str(r["pick"]), float(r["gain"]), bool(same)))
        elif len(sub) and bool(sub["tied_all"].any()):
            rows.append((label, "no winner", float(sub["gain"].dropna().iloc[0]), False))
        else:
            rows.append((label, "no valid split", np.nan, False))
    return pd.DataFrame(rows, columns=["setting", "best split", "gain", "same as the tree"])
