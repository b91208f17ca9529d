"""Two trees grown on the same data: where their splits first differ, and how they score.

:func:`first_differences` walks two trees together from their roots. Two nodes reached by the
same path (the same sequence of tests and branches) are *the same* when both are leaves, or
both split on the same feature with the same test (numeric: the same threshold; categorical:
the same values in each branch, whatever the branches' order); the walk then goes on in each
pair of matching children. Otherwise the pair is a *first difference*: the subtrees under it
are not compared (their rows are not routed the same way any more). On the same data, two
nodes reached by the same path hold the same rows, so the differences are the places where the
two settings make different choices.

:func:`offcenter.evaluation.metrics.training_metrics` gives a tree's training scores (the one
training report) with its size.

Examples
--------
>>> import pandas as pd
>>> from offcenter import TreeClassifier
>>> X = pd.DataFrame({"a": [1, 2, 3, 4, 5, 6], "b": [0, 0, 1, 1, 0, 1]})
>>> y = ["x", "x", "x", "y", "y", "y"]
>>> t1 = TreeClassifier(max_depth=1).fit(X, y)
>>> first_differences(t1, t1)
[]
>>> t0 = TreeClassifier(max_depth=0).fit(X, y)
>>> first_differences(t1, t0)
[(0, 0)]
>>> difference_reason(t1, t0, 0, 0)
'tree A splits on a ≤ 3.5, tree B is a leaf'
"""

from __future__ import annotations

__all__ = ["difference_reason", "first_differences", "same_split"]

#: Two thresholds closer than this (relative to their size) are the same.
THRESHOLD_TOL = 1e-12


def _tree(obj, name: str):
    tree = getattr(obj, "tree_", obj)
    if not hasattr(tree, "nodes"):
        raise TypeError(
            f"{name} must be a fitted TreeClassifier or its tree_ (with .nodes); "
            f"got {type(obj).__name__}."
        )
    return tree


def _groups(split) -> list[frozenset]:
    return [frozenset(g) for g in (split.groups or ())]


def _child_map(split_a, split_b) -> list[tuple[int, int]] | None:
    """Matching children (k_a, k_b) when the two splits are the same test, else None."""
    if split_a.feature != split_b.feature or split_a.kind != split_b.kind:
        return None
    if split_a.kind == "numeric":
        ta, tb = float(split_a.threshold), float(split_b.threshold)
        if abs(ta - tb) > THRESHOLD_TOL * max(1.0, abs(ta), abs(tb)):
            return None
        return [(0, 0), (1, 1)]
    ga, gb = _groups(split_a), _groups(split_b)
    if len(ga) != len(gb) or set(ga) != set(gb):
        return None
    return [(k, gb.index(g)) for k, g in enumerate(ga)]


def same_split(split_a, split_b) -> bool:
    """Whether two splits are the same test (feature, kind, threshold or value groups).

    Thresholds are equal within a relative 1e-12; categorical groups are compared as sets of
    values, in any branch order. A leaf's split is None: two Nones are the same.
    """
    if split_a is None or split_b is None:
        return split_a is None and split_b is None
    return _child_map(split_a, split_b) is not None


def first_differences(tree_a, tree_b) -> list[tuple[int, int]]:
    """The node pairs (id in tree A, id in tree B) where the two trees' splits first differ.

    Parameters
    ----------
    tree_a, tree_b : TreeClassifier or Tree
        Two fitted trees (or their ``tree_``), normally grown on the same data.

    Returns
    -------
    list of (int, int)
        Pairs of nodes reached by the same path from the roots whose splits differ (another
        feature, another threshold or grouping, or one of them is a leaf), in breadth-first
        order; nothing under such a pair is compared. Empty when the trees make the same
        splits everywhere (their leaves' predictions may still differ, e.g. under another
        leaf rule).
    """
    ta, tb = _tree(tree_a, "tree_a"), _tree(tree_b, "tree_b")
    out: list[tuple[int, int]] = []
    queue = [(getattr(ta, "root", 0), getattr(tb, "root", 0))]
    while queue:
        nxt = []
        for a, b in queue:
            na, nb = ta.nodes[a], tb.nodes[b]
            if na.split is None and nb.split is None:
                continue
            pairs = None if na.split is None or nb.split is None else _child_map(na.split, nb.split)
            if pairs is None:
                out.append((int(a), int(b)))
                continue
            nxt += [(na.children[ka], nb.children[kb]) for ka, kb in pairs]
        queue = nxt
    return out


def _describe(split) -> str:
    if split is None:
        return "is a leaf"
    if split.kind == "numeric":
        return f"splits on {split.feature} ≤ {float(split.threshold):.6g}"
    if split.kind == "categorical_binary":
        groups = " | ".join(
            "{" + ", ".join("missing" if v is None else str(v) for v in g) + "}"
            for g in split.groups
        )
        return f"splits on {split.feature} into {groups}"
    return f"splits on {split.feature} (one branch per value)"


def difference_reason(tree_a, tree_b, a: int, b: int) -> str:
    """A sentence saying how node ``a`` of tree A and node ``b`` of tree B differ."""
    ta, tb = _tree(tree_a, "tree_a"), _tree(tree_b, "tree_b")
    sa, sb = ta.nodes[a].split, tb.nodes[b].split
    if sa is None and sb is None:
        return "both are leaves"
    if sa is not None and sb is not None and same_split(sa, sb):
        return "same split"
    return f"tree A {_describe(sa)}, tree B {_describe(sb)}"
