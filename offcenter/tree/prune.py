r"""Minimal cost-complexity (weakest-link) pruning of a fitted tree, under any measure setting.

The cost of a node t is its share of the training weight times its impurity under the tree's
own measure (the measure setting the tree was grown with, off-centered or not):

.. math::
    R(t) = \frac{w_t}{W} I(t), \qquad
    R(T) = \sum_{\ell \in \mathrm{leaves}(T)} R(\ell), \qquad
    R_\alpha(T) = R(T) + \alpha\,|\mathrm{leaves}(T)|

with :math:`w_t` the weighted number of training rows of t (``Node.weighted_n``), W the root's
and I the tree's impurity (``TreeClassifier.impurity_``). The *effective alpha* of an internal
node t, whose branch :math:`T_t` has :math:`|T_t|` leaves, is the alpha at which the branch and
the node alone cost the same:

.. math::
    g(t) = \frac{R(t) - R(T_t)}{|T_t| - 1}.

Weakest-link pruning (Breiman, Friedman, Olshen and Stone 1984, *Classification and Regression
Trees*, ch. 3.3; scikit-learn's "Minimal Cost-Complexity Pruning",
https://scikit-learn.org/stable/modules/tree.html#minimal-cost-complexity-pruning) repeatedly
collapses the internal node of smallest g (the first in depth-first, left-to-right order on a
tie, as scikit-learn does), updating g above it, until the root is a leaf. The sequence of
those g values is the *pruning path*; it never decreases (if :math:`g(p) \ge a` for an
ancestor p of the pruned node t, :math:`g(t) = a`, then after pruning
:math:`(R(p) - R(T_p) - a(|T_t| - 1)) / (|T_p| - |T_t|) \ge a`), whatever the measure.
Pruning with ``ccp_alpha = a`` collapses every weakest link of effective alpha ``<= a``: the
subtree of the path whose alpha is the largest one ``<= a``. This is scikit-learn's algorithm,
step for step, with the tree's measure as I; on the same tree with Shannon ("entropy") or Gini
it gives scikit-learn's path and pruned trees (tested).

Binary and multiway splits are pruned alike (the complexity is the number of leaves).
With an off-centered measure and ``min_gain < 0`` a split can raise the cost
(:math:`R(t) < R(T_t)`): its g is negative and any ``ccp_alpha > 0`` prunes it. As in
scikit-learn the first alpha of the path (the unpruned tree) is reported as 0, or as the first
effective alpha when that one is negative, so that the path stays monotone.

rpart's ``printcp`` table (Therneau and Atkinson, *An Introduction to Recursive Partitioning
Using the RPART Routines*, section 4) lists the same sequence with ``CP = alpha / R(root)`` and
``rel error = R(T) / R(root)``; :func:`cp_table` gives both scalings, without cross-validation.
"""

from __future__ import annotations

import heapq
import math
import numbers

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.utils import Bunch
from sklearn.utils.validation import check_is_fitted

from offcenter.tree.encode import _python_value
from offcenter.tree.nodes import Node, Tree, renumber


def check_ccp_alpha(value) -> float:
    """``ccp_alpha`` as a float >= 0 (``inf`` allowed: the root alone), or a ValueError."""
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or math.isnan(value)
        or value < 0
    ):
        raise ValueError(f"ccp_alpha must be a number >= 0 (0: no pruning); got {value!r}.")
    return float(value)


def as_leaf(nd: Node) -> Node:
    """The node with its split and children removed (its counts, prediction and proba kept)."""
    return Node(
        nd.id,
        nd.parent,
        nd.depth,
        nd.counts,
        nd.impurity,
        None,
        (),
        nd.prediction,
        nd.proba,
        nd.conditions,
        0,
        nd.setting_key,
        nd.n_samples,
    )


def _costs(nodes: list[Node], impurity, total_weight: float) -> dict[int, float]:
    """R(t) = w_t / W * I(t) per node id (I: ``impurity`` of the counts, or ``Node.impurity``)."""
    if impurity is None:
        imp = np.asarray([nd.impurity for nd in nodes], np.float64)
    else:
        imp = np.asarray(impurity.of_counts(np.stack([nd.counts for nd in nodes])), np.float64)
    return {nd.id: float(nd.weighted_n) * float(i) / total_weight for nd, i in zip(nodes, imp)}


def _preorder(by_id: dict, root: int) -> list[int]:
    """Depth-first, children left to right (scikit-learn's node order)."""
    out, stack = [], [root]
    while stack:
        i = stack.pop()
        out.append(i)
        stack.extend(reversed(by_id[i].children))
    return out


def weakest_link(
    nodes: list[Node],
    impurity=None,
    total_weight: float | None = None,
    ccp_alpha: float | None = None,
    protect=(),
) -> dict:
    """Run weakest-link pruning on a node list forming one tree or branch.

    Parameters
    ----------
    nodes : list of Node
        A tree, or a branch (its root is the node whose parent is not in the list).
    impurity : Impurity or None
        I of the costs, evaluated on each node's counts; None: each ``Node.impurity``.
    total_weight : float or None
        W of the costs (None: the weighted n of the list's root).
    ccp_alpha : float or None
        Stop before the first weakest link of effective alpha ``> ccp_alpha``; None: prune
        down to the root (the whole path).
    protect : iterable of node ids
        Nodes that are never collapsed (their branches below still are).

    Returns
    -------
    dict with ``alphas``, ``impurities`` (R of the subtree after each step, the first entry
    for the unpruned tree), ``n_leaves``, ``n_splits`` (internal nodes), ``pruned`` (id of
    the node collapsed at each step, None for the first entry) and ``collapsed`` (ids of the
    nodes that are leaves of the final subtree and were internal).

    Notes
    -----
    Each step scans the effective alphas of all remaining internal nodes (vectorised; one
    step per pruned node, as scikit-learn), and the branch of a node is a contiguous range
    of the depth-first order.
    """
    by_id = {nd.id: nd for nd in nodes}
    root = next(nd.id for nd in nodes if nd.parent not in by_id)
    if total_weight is None:
        total_weight = by_id[root].weighted_n
    if not total_weight > 0:
        raise ValueError("the tree's root has no training weight: nothing to prune.")
    cost = _costs(nodes, impurity, total_weight)
    order = _preorder(by_id, root)
    m = len(order)
    pos = {i: k for k, i in enumerate(order)}
    parent = np.full(m, -1, np.int64)
    for k, i in enumerate(order):
        p = by_id[i].parent
        if p in pos:
            parent[k] = pos[p]
    leaf = np.asarray([by_id[i].is_leaf for i in order])
    r_node = np.asarray([cost[i] for i in order], np.float64)
    size = np.ones(m, np.int64)  # nodes in each branch: branch k is order[k : k + size[k]]
    for k in range(m - 1, 0, -1):
        size[parent[k]] += size[k]
    r_branch = np.zeros(m, np.float64)
    n_leaves = np.zeros(m, np.int64)
    par = parent.tolist()
    for k in np.flatnonzero(leaf).tolist():  # each leaf bubbled up in node order (as sklearn)
        r_branch[k] = r_node[k]
        j = par[k]
        while j >= 0:
            r_branch[j] += r_node[k]
            n_leaves[j] += 1
            j = par[j]
    cand = ~leaf
    inner = ~leaf
    for i in protect:
        if i in pos:
            cand[pos[i]] = False
    collapsed = np.zeros(m, bool)
    n_splits = int(inner.sum())
    alphas, costs, sizes, splits, pruned = (
        [0.0],
        [float(r_branch[0])],
        [max(int(n_leaves[0]), 1)],
        [n_splits],
        [None],
    )
    while cand.any():
        with np.errstate(divide="ignore", invalid="ignore"):
            g = (r_node - r_branch) / np.maximum(n_leaves - 1, 1)
        g = np.where(cand, g, np.inf)
        k = int(np.argmin(g))  # the first smallest in depth-first order
        best_alpha = float(g[k])
        if ccp_alpha is not None and ccp_alpha < best_alpha:
            break
        end = k + size[k]
        cand[k:end] = False
        n_splits -= int(inner[k:end].sum())
        inner[k:end] = False
        collapsed[k:end] = False
        collapsed[k] = True
        n_pruned = int(n_leaves[k]) - 1
        n_leaves[k] = 0
        r_diff = r_node[k] - r_branch[k]
        r_branch[k] = r_node[k]
        j = par[k]
        while j >= 0:
            n_leaves[j] -= n_pruned
            r_branch[j] += r_diff
            j = par[j]
        alphas.append(best_alpha)
        costs.append(float(r_branch[0]))
        sizes.append(max(int(n_leaves[0]), 1))
        splits.append(n_splits)
        pruned.append(order[k])
    if len(alphas) > 1 and alphas[1] < 0:
        alphas[0] = alphas[1]
    return {
        "alphas": np.asarray(alphas, np.float64),
        "impurities": np.asarray(costs, np.float64),
        "n_leaves": np.asarray(sizes, np.int64),
        "n_splits": np.asarray(splits, np.int64),
        "pruned": pruned,
        "collapsed": sorted(order[k] for k in np.flatnonzero(collapsed)),
    }


def prune_nodes(
    nodes: list[Node],
    ccp_alpha: float,
    impurity=None,
    total_weight: float | None = None,
    protect=(),
) -> list[Node]:
    """The node list pruned at ``ccp_alpha`` (ids kept, removed nodes left out; see
    :func:`weakest_link` for the arguments). ``ccp_alpha == 0`` returns the list unchanged
    (no pruning, as scikit-learn's default)."""
    ccp_alpha = check_ccp_alpha(ccp_alpha)
    if ccp_alpha == 0.0 or all(nd.is_leaf for nd in nodes):
        return list(nodes)
    res = weakest_link(nodes, impurity, total_weight, ccp_alpha, protect)
    if not res["collapsed"]:
        return list(nodes)
    by_id = {nd.id: nd for nd in nodes}
    drop: set[int] = set()
    for i in res["collapsed"]:
        drop.update(j for j in _preorder(by_id, i) if j != i)
    keep = set(res["collapsed"])
    return [as_leaf(nd) if nd.id in keep else nd for nd in nodes if nd.id not in drop]


def best_first(tree: Tree, max_leaf_nodes: int | None) -> Tree:
    """The tree grown best-first to at most ``max_leaf_nodes`` leaves, as scikit-learn's
    ``max_leaf_nodes``: from the root, the open node of the largest weighted impurity decrease
    :math:`\frac{W_t}{W} \\mathrm{gain}` is split next (ties: the smaller id); a multiway
    split that would exceed the limit is skipped. Each node's split does not depend on the
    order of growth, so the result is the top of the fully grown ``tree`` (nodes renumbered
    breadth-first); None returns ``tree``."""
    if max_leaf_nodes is None or tree.n_leaves <= max_leaf_nodes:
        return tree
    nodes = tree.nodes
    total = nodes[0].weighted_n
    heap: list = []

    def push(i):
        nd = nodes[i]
        if nd.split is not None:
            heapq.heappush(heap, (-(nd.weighted_n / total) * nd.split.gain, i))

    push(0)
    leaves, expanded = 1, set()
    while heap:
        _, i = heapq.heappop(heap)
        extra = len(nodes[i].children) - 1
        if leaves + extra > max_leaf_nodes:
            continue
        leaves += extra
        expanded.add(i)
        for c in nodes[i].children:
            push(c)
    keep = {0}
    for i in sorted(expanded):
        keep.update(nodes[i].children)
    out = [nd if nd.id in expanded else as_leaf(nd) for nd in nodes if nd.id in keep]
    return Tree(renumber(out))


def prune_tree(tree: Tree, ccp_alpha: float, impurity=None) -> Tree:
    """A new Tree pruned at ``ccp_alpha`` (nodes renumbered breadth-first)."""
    nodes = prune_nodes(tree.nodes, ccp_alpha, impurity)
    if len(nodes) == len(tree.nodes):
        return tree
    return Tree(renumber(nodes))


# ---------------------------------------------------------------------------------- estimator
def pruning_path(clf) -> dict:
    """The weakest-link path of a fitted estimator's current tree, under ``clf.impurity_``."""
    check_is_fitted(clf, "tree_")
    return weakest_link(clf.tree_.nodes, clf.impurity_)


def pruned_predictions(clf, X, alphas) -> list[np.ndarray]:
    """``[clf.prune(a).predict(X) for a in alphas]``, from one routing of X and one path.

    The tree pruned at ``a > 0`` is the current one with the weakest links of the path's
    leading steps of effective alpha ``<= a`` collapsed (:func:`weakest_link`), so a row's
    prediction is that of the first collapsed node on its way from the root to its leaf, or of
    its leaf; ``a == 0`` is the unpruned tree, as :meth:`~offcenter.TreeClassifier.prune`.
    The cross-validations of ``ccp_alpha`` (:func:`offcenter.tree.cp_cv.cp_table_cv`, the
    study's ``pruned_cv``) predict every candidate alpha this way instead of building each
    pruned tree (the same numbers, tested against ``prune(a).predict``).
    """
    check_is_fitted(clf, "tree_")
    alphas = [check_ccp_alpha(a) for a in alphas]
    nodes = clf.tree_.nodes
    if any(nd.id != k for k, nd in enumerate(nodes)):
        raise ValueError("the tree's node ids are not their positions; renumber it first.")
    leaves = clf.apply(X)
    index = {c: i for i, c in enumerate(_python_value(v) for v in clf.classes_)}
    node_pred = np.asarray([index[nd.prediction] for nd in nodes], np.int64)
    if all(nd.is_leaf for nd in nodes):
        return [clf.classes_[node_pred[leaves]] for _ in alphas]
    path = weakest_link(nodes, clf.impurity_)
    step_alpha = path["alphas"][1:]
    step_node = np.asarray(path["pruned"][1:], np.int64)
    # the step that collapses each node (len(steps): never); parents come before children
    step_of = np.full(len(nodes), len(step_node), np.int64)
    step_of[step_node] = np.arange(len(step_node))
    parent = np.asarray([-1 if nd.parent is None else nd.parent for nd in nodes], np.int64)
    order = np.argsort([nd.depth for nd in nodes], kind="stable")
    out = []
    for a in alphas:
        if a == 0.0:
            out.append(clf.classes_[node_pred[leaves]])
            continue
        above = np.flatnonzero(step_alpha > a)
        n_steps = int(above[0]) if above.size else len(step_alpha)
        collapsed = step_of < n_steps
        top = np.arange(len(nodes))  # the node each one predicts with after pruning
        for k in order.tolist():
            p = parent[k]
            if p >= 0 and collapsed[top[p]]:
                top[k] = top[p]
        out.append(clf.classes_[node_pred[top[leaves]]])
    return out


def cost_complexity_pruning_path(clf, X, y, sample_weight=None):
    """scikit-learn's ``cost_complexity_pruning_path``: fit a clone without pruning and return
    ``Bunch(ccp_alphas, impurities)`` of its weakest-link path."""
    est = clone(clf).set_params(ccp_alpha=0.0)
    est.fit(X, y, sample_weight=sample_weight)
    path = pruning_path(est)
    return Bunch(ccp_alphas=path["alphas"], impurities=path["impurities"])


def cp_table(clf) -> pd.DataFrame:
    """The pruning sequence of the fitted tree as a table (rpart's ``printcp`` without
    cross-validation); see :meth:`offcenter.TreeClassifier.cp_table`."""
    path = pruning_path(clf)
    r_root = float(path["impurities"][-1])
    nan = np.full(len(path["alphas"]), np.nan)
    return pd.DataFrame(
        {
            "alpha": path["alphas"],
            "n_leaves": path["n_leaves"],
            "n_splits": path["n_splits"],
            "impurity": path["impurities"],
            "rel_impurity": path["impurities"] / r_root if r_root > 0 else nan,
            "cp": path["alphas"] / r_root if r_root > 0 else nan,
            "pruned_node": pd.array(path["pruned"], dtype="Int64"),
        }
    )
