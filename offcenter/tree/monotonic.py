r"""Monotonic constraints (``monotonic_cst``), as scikit-learn's trees define them.

``monotonic_cst[j]`` is 1 when the probability of the positive class (``classes_[1]``) must
not decrease as feature j grows, -1 when it must not increase, 0 for no constraint; two
classes only, numeric features only. The rule is scikit-learn's (``sklearn/tree/_tree.pyx``,
``_splitter.pyx``, ``_criterion.pyx``, version 1.9), which works on the **first** class's
fraction :math:`v = n_{\cdot 0} / n` (a node's "value"; :math:`p = 1 - v` is the positive
class's), each constraint's sign flipped:

- every node carries bounds :math:`[l, u]` on v, :math:`(-\infty, \infty)` at the root;
- a split on a constrained feature is **admissible** when its children's values
  :math:`v_L, v_R` both lie in :math:`[l, u]` and are in the required order: with
  ``monotonic_cst[j] = 1``, :math:`v_L \ge v_R` (so :math:`p_L \le p_R`); with -1,
  :math:`v_L \le v_R`. Splits on unconstrained features are always admissible;
- the search keeps only the admissible candidates, and the measure picks among them (the
  measure still decides; the constraint only removes candidates): a node with none is a leaf;
- after a split on a constrained feature at the middle value
  :math:`m = v_L / 2 + v_R / 2`, the children inherit the node's bounds with the inner one
  replaced by m (with 1: the left child's upper bound and the right child's lower bound are
  m; with -1 the other way round); after an unconstrained split both children inherit the
  node's bounds;
- every node's value is clipped to its bounds, :math:`v \leftarrow \min(\max(v, l), u)`, and
  its ``proba`` (``predict_proba``, ``tree_.value``) is :math:`(v, 1 - v)`; its predicted
  class is read from the clipped frequencies (either leaf rule). With
  ``leaf_estimate="laplace"`` the Laplace estimate is clipped the same way.

Every leaf of a constrained split's left subtree then has :math:`p \le m' \le` every leaf of
its right subtree's (with 1), so ``predict_proba[:, 1]`` is monotone in each constrained
feature whatever the other features' values: the guarantee of scikit-learn's trees
(scikit-learn's user guide, "Monotonic Constraints"; Auguste, Malory and Smirnov 2020,
"A better method to enforce monotonic constraints in regression and classification trees",
arXiv:2011.00986). The candidates' values are the children's class counts as the engine
defines them (missing values in the child they go to). The comparisons are exact, as
scikit-learn's (no tolerance): with weights whose sums round (``class_weight="balanced"``),
two values equal in exact arithmetic can compare either way, here and in scikit-learn, whose
sums are accumulated in another order.
"""

from __future__ import annotations

import numpy as np

#: The reason a multiclass constraint is refused (scikit-learn refuses it too).
MULTICLASS = (
    "monotonic_cst applies to two classes only (as in scikit-learn: the constraint is on the "
    "positive class's probability); y has {q} classes."
)


def check_constraints(cst, features, q: int) -> np.ndarray | None:
    """The constraints of a fit: ``cst`` (checked by ``params._monotonic_cst``: None or a
    1-D array of -1, 0, 1) as an int8 array of one entry per feature, or None when nothing is
    constrained; a ValueError when it cannot apply (its length is not the number of
    features, y has more than two classes, a categorical feature is constrained)."""
    if cst is None:
        return None
    arr = np.asarray(cst).astype(np.int8)
    if arr.shape[0] != len(features):
        raise ValueError(
            f"monotonic_cst has {arr.shape[0]} entries but X has {len(features)} features; "
            "give one of -1, 0 or 1 per feature."
        )
    if not arr.any():
        return None
    if q > 2:
        raise ValueError(MULTICLASS.format(q=q))
    for c, info in zip(arr, features):
        if c != 0 and info.kind != "numeric":
            raise ValueError(
                f"monotonic_cst constrains numeric features only: {info.name!r} is "
                "categorical (its values have no order); give it 0."
            )
    return arr


def _values(L, R, n_left, n_right):
    with np.errstate(divide="ignore", invalid="ignore"):
        return L[:, 0] / n_left, R[:, 0] / n_right


def admissible(L, R, n_left, n_right, sign: int, lower, upper) -> np.ndarray:
    """Which candidate splits satisfy the constraint ``sign`` (1 or -1) and their node's
    bounds ``lower``, ``upper`` (one per candidate, on the first class's fraction): children's
    class counts ``L``, ``R`` (m, 2) with totals ``n_left``, ``n_right``."""
    vl, vr = _values(L, R, n_left, n_right)
    inside = (vl >= lower) & (vr >= lower) & (vl <= upper) & (vr <= upper)
    # scikit-learn's test, on the first class: (v_L - v_R) * (-sign) <= 0
    return inside & ((vl - vr) * -sign <= 0)


def middle_value(left_counts, right_counts) -> float:
    """The value the children's bounds meet at: :math:`v_L / 2 + v_R / 2` (scikit-learn's
    ``middle_value``, on the first class's fraction)."""
    L = np.asarray(left_counts, np.float64)
    R = np.asarray(right_counts, np.float64)
    return float(L[0] / (2 * L.sum()) + R[0] / (2 * R.sum()))


def child_bounds(sign: int, lower: float, upper: float, mid: float) -> list[tuple]:
    """The (lower, upper) bounds of the left and right children of a split whose node has
    bounds ``lower``, ``upper``; ``sign`` is the split feature's constraint (0: none)."""
    if sign == 0:
        return [(lower, upper), (lower, upper)]
    if sign == 1:  # p_L <= p_R: v_L >= m >= v_R
        return [(mid, upper), (lower, mid)]
    return [(lower, mid), (mid, upper)]


def clip(proba: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """Probabilities (m, 2) with the first class's clipped to ``bounds`` (m, 2: lower,
    upper) and the second set to its complement, on every node as scikit-learn's
    ``clip_node_value`` does."""
    p = np.asarray(proba, np.float64).copy()
    p[:, 0] = np.minimum(np.maximum(p[:, 0], bounds[:, 0]), bounds[:, 1])
    p[:, 1] = 1.0 - p[:, 0]
    return p


def split_admissible(sign: int, bounds: tuple, left_counts, right_counts) -> bool:
    """Whether one split (its children's class counts) satisfies ``sign`` within ``bounds``."""
    L = np.asarray(left_counts, np.float64)[None, :]
    R = np.asarray(right_counts, np.float64)[None, :]
    return bool(admissible(L, R, L.sum(1), R.sum(1), sign, bounds[0], bounds[1])[0])


def tree_bounds(nodes, cst: np.ndarray) -> np.ndarray:
    """The bounds (n_nodes, 2) of every node of a fitted tree (``nodes``: its
    :class:`~offcenter.tree.nodes.Node` list, ids in order, parents before children), from
    its splits and children's counts, as the growth set them."""
    out = np.tile([-np.inf, np.inf], (len(nodes), 1))
    for nd in nodes:
        if nd.split is None:
            continue
        sign = int(cst[nd.split.feature_index]) if nd.split.kind == "numeric" else 0
        lo, hi = out[nd.id]
        mid = 0.0
        if sign:
            mid = middle_value(nodes[nd.children[0]].counts, nodes[nd.children[1]].counts)
        for c, b in zip(nd.children, child_bounds(sign, lo, hi, mid)):
            out[c] = b
    return out
