"""Trace one row, typed in by its values, through a fitted tree.

:func:`row_from_values` turns a mapping ``{feature: value}`` into a one-row frame the tree can
route, checking every value against what the column can take (a number for a numeric
feature, one of the categories seen at fit time for a categorical one; ``None`` is a missing
value, which every tree routes: a numeric missing value goes to the split's larger child, a
categorical one to its own branch when missing values were seen at the node, else to the
branch with the most training rows). :func:`trace_values` returns the path: the node ids
from the root to the leaf, the test at every internal node with the branch taken, and the
leaf's class shares and prediction.

>>> import pandas as pd
>>> from offcenter.tree import TreeClassifier
>>> X = pd.DataFrame({"size": [1.0, 2, 3, 4, 5, 6], "colour": list("rrgggb")})
>>> clf = TreeClassifier(measure="gini").fit(X, ["a", "a", "a", "b", "b", "b"])
>>> t = trace_values(clf, {"size": 5, "colour": "g"})
>>> t.path, t.prediction
([0, 2], 'b')
>>> row_from_values(clf, {"size": 5, "colour": "purple"})
Traceback (most recent call last):
...
ValueError: values['colour']: 'purple' is not a value of this column; it takes 'b', 'g', 'r' (or None for a missing value).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["RowTrace", "MISSING", "row_from_values", "trace_values", "trace_frame_row"]

#: The text the page shows for a missing value (also accepted by :func:`row_from_values`).
MISSING = "(missing)"


def _is_missing(v) -> bool:
    if v is None or (isinstance(v, str) and v == MISSING):
        return True
    try:
        return bool(pd.isna(v))
    except (TypeError, ValueError):
        return False


def _numeric(name, v) -> float:
    if isinstance(v, bool):
        raise ValueError(f"values[{name!r}]: {v!r} is not a number (the column is numeric).")
    if isinstance(v, numbers.Real):
        x = float(v)
    elif isinstance(v, str):
        try:
            x = float(v.strip().replace(",", ".") if v.count(",") == 1 and "." not in v else v)
        except ValueError:
            raise ValueError(
                f"values[{name!r}]: {v!r} is not a number (the column is numeric)."
            ) from None
    else:
        raise ValueError(f"values[{name!r}]: {v!r} is not a number (the column is numeric).")
    if not math.isfinite(x):
        raise ValueError(
            f"values[{name!r}]: {v!r} is not a finite number; leave the value missing instead."
        )
    return x


def _category(name, v, categories: list):
    known = [c for c in categories if c is not None]
    for c in known:
        if c == v and type(c) is type(v):
            return c
    for c in known:  # typed text for a number category, 1 for 1.0 ...
        if str(c) == str(v) or (
            isinstance(v, numbers.Number) and isinstance(c, numbers.Number) and c == v
        ):
            return c
    shown = ", ".join(repr(c) for c in known[:12]) + (", ..." if len(known) > 12 else "")
    raise ValueError(
        f"values[{name!r}]: {v!r} is not a value of this column; it takes {shown} "
        "(or None for a missing value)."
    )


def row_from_values(clf, values: Mapping) -> pd.DataFrame:
    """A one-row frame of the tree's features built from typed values, checked.

    Parameters
    ----------
    clf : TreeClassifier
        A fitted tree.
    values : mapping
        One value per feature the tree was fitted on (``clf.features_`` names). ``None``,
        NaN or :data:`MISSING` is a missing value. A numeric feature takes a finite number
        (or its text, ``"2.5"``; ``"2,5"`` is read as 2.5); a categorical one takes one of
        the categories seen at fit time (or its text: ``"1"`` for the category 1).

    Returns
    -------
    pandas.DataFrame
        One row, the columns in the fitted order (numeric ones float64, categorical ones
        object).

    Raises
    ------
    TypeError
        ``values`` is not a mapping.
    ValueError
        The tree is not fitted; a feature has no value; a key is not a feature; a value
        the column cannot take (text in a numeric column, an infinite number, a category
        not seen at fit time). The message names the feature.
    """
    features = getattr(clf, "features_", None)
    if features is None:
        raise ValueError("clf: the tree is not fitted; fit it before tracing a row.")
    if not isinstance(values, Mapping):
        raise TypeError(
            f"values: expected a mapping {{feature: value}}, got {type(values).__name__}."
        )
    names = [f.name for f in features]
    by_text = {str(k): k for k in values}
    unknown = [k for k in by_text if k not in names]
    if unknown:
        raise ValueError(
            f"values: {', '.join(map(repr, unknown))} not a feature of the tree "
            f"(its features: {', '.join(map(repr, names))})."
        )
    lacking = [n for n in names if n not in by_text]
    if lacking:
        raise ValueError(
            f"values: no value for {', '.join(map(repr, lacking))}; give one per feature "
            "(None for a missing value)."
        )
    cols = {}
    for info in features:
        v = values[by_text[info.name]]
        if info.kind == "numeric":
            x = np.nan if _is_missing(v) else _numeric(info.name, v)
            cols[info.name] = pd.Series([x], dtype="float64")
        else:
            c = None if _is_missing(v) else _category(info.name, v, info.categories)
            cols[info.name] = pd.Series([c], dtype=object)
    return pd.DataFrame(cols)


@dataclass(frozen=True)
class RowTrace:
    """A row's way through a tree.

    Attributes
    ----------
    row : pandas.DataFrame
        The one-row frame traced.
    path : list of int
        Node ids from the root (0) to the leaf.
    steps : pandas.DataFrame
        One row per node of the path: ``node``, ``depth``, ``test`` (the node's split, or
        "leaf"), ``value`` (the row's value of the split feature, "missing" when absent),
        ``branch`` (the condition of the branch taken; empty at the leaf).
    leaf : int
        The leaf's node id.
    shares : pandas.Series
        The leaf's class shares (training rows), indexed by class.
    prediction : object
        The leaf's predicted class (the tree's leaf rule).
    """

    row: pd.DataFrame
    path: list
    steps: pd.DataFrame
    leaf: int
    shares: pd.Series
    prediction: object

    def text(self) -> str:
        """The path in one line: ``node 0 (size <= 3.5) → node 2 → leaf: predicted b``."""
        parts = []
        for r in self.steps.itertuples(index=False):
            parts.append(f"node {r.node}" + (f" ({r.branch})" if r.branch else ""))
        return " → ".join(parts) + f"; predicted {self.prediction}"


def _split_test(split) -> str:
    if split.kind == "numeric":
        return f"{split.feature} <= {split.threshold:.6g}"
    return f"{split.feature}: " + " | ".join(split.branch_labels)


def trace_frame_row(clf, row: pd.DataFrame) -> RowTrace:
    """Trace the first row of ``row`` (a frame with the tree's features) through ``clf``."""
    if not isinstance(row, pd.DataFrame) or len(row) < 1:
        raise ValueError("row: expected a DataFrame with at least one row.")
    row = row.iloc[[0]]
    path = [int(i) for i in clf.decision_paths(row)[0]]
    nodes = clf.tree_.nodes
    records = []
    for k, nid in enumerate(path):
        nd = nodes[nid]
        if nd.split is None:
            records.append(
                {"node": nid, "depth": nd.depth, "test": "leaf", "value": "", "branch": ""}
            )
            continue
        s = nd.split
        child = nd.children.index(path[k + 1])
        v = row[s.feature].iloc[0] if s.feature in row.columns else None
        value = "missing" if _is_missing(v) else (f"{v:.6g}" if isinstance(v, float) else str(v))
        records.append(
            {
                "node": nid,
                "depth": nd.depth,
                "test": _split_test(s),
                "value": value,
                "branch": str(s.branch_labels[child]),
            }
        )
    leaf = nodes[path[-1]]
    classes = [c.item() if isinstance(c, np.generic) else c for c in clf.classes_]
    shares = pd.Series(np.asarray(leaf.proba, dtype=float), index=classes, name="share")
    return RowTrace(row, path, pd.DataFrame(records), path[-1], shares, leaf.prediction)


def trace_values(clf, values: Mapping) -> RowTrace:
    """Trace a row given by its values (checked by :func:`row_from_values`)."""
    return trace_frame_row(clf, row_from_values(clf, values))
