"""The readable text of a split's branches (``age <= 40.5``, ``city in {Lyon, Paris}``)."""

from __future__ import annotations


def _fmt(x: float) -> str:
    """A threshold for reading (6 significant digits; the split keeps the exact value)."""
    return f"{float(x):.6g}"


def _cat_label(v) -> str:
    return "missing" if v is None else str(v)


def branch_labels(info, kind, threshold=None, groups=None, missing_child=None):
    name = info.name
    if kind == "numeric":
        labels = [f"{name} <= {_fmt(threshold)}", f"{name} > {_fmt(threshold)}"]
        if info.has_missing and missing_child is not None:
            labels[missing_child] += " (or missing)"
        return tuple(labels)
    if kind == "categorical":
        return tuple(
            f"{name} is missing" if g[0] is None else f"{name} = {_cat_label(g[0])}" for g in groups
        )
    return tuple(f"{name} in {{{', '.join(_cat_label(v) for v in g)}}}" for g in groups)
