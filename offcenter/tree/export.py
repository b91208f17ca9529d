"""Export of a fitted tree: a JSON-ready dict (and back, losslessly) and readable rules."""

from __future__ import annotations

import numpy as np

from offcenter.measures.impurity import Impurity
from offcenter.tree.encode import FeatureInfo, _python_value
from offcenter.tree.nodes import Node, Tree

FORMAT = "offcenter.tree/1"


def _jsonable(v):
    if isinstance(v, dict):  # class_weight: pairs, so that the class keeps its type
        return {"__pairs__": [[_jsonable(k), _jsonable(x)] for k, x in v.items()]}
    if isinstance(v, np.ndarray):
        return [_jsonable(x) for x in v.tolist()]
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, np.random.Generator):
        return None
    return v


def to_dict(clf) -> dict:
    """Everything needed to predict and to show the tree, as JSON-compatible values."""
    clf._check_fitted()
    params = {k: _jsonable(v) for k, v in clf.get_params().items()}
    imp = clf.impurity_
    return {
        "format": FORMAT,
        "params": params,
        "classes": [_python_value(c) for c in clf.classes_],
        "classes_dtype": str(clf.classes_.dtype),
        "features": [f.to_dict() for f in clf.features_],
        "named": bool(clf._named),
        "prior": [float(p) for p in clf.prior_],
        "impurity": {"measure": imp.name, "theta": _jsonable(imp.theta),
                     "consistent": imp.consistent, "params": dict(imp.params)},
        "theta": _jsonable(clf.theta_),
        "edits": _jsonable([list(e) if not isinstance(e[-1], dict) else [*e[:-1], e[-1]]
                            for e in getattr(clf, "edits_", [])]),
        "nodes": [nd.to_dict(_python_value) for nd in clf.tree_.nodes],
    }


def from_dict(cls, d: dict):
    """Rebuild a fitted estimator from :func:`to_dict` output (without training data)."""
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise ValueError(f"not a tree exported by offcenter (expected format {FORMAT!r}).")
    params = dict(d["params"])
    for k, v in params.items():
        if isinstance(v, dict) and "__pairs__" in v:
            params[k] = {(tuple(a) if isinstance(a, list) else a): b for a, b in v["__pairs__"]}
    clf = cls(**params)
    dtype = d.get("classes_dtype", "object")
    classes = d["classes"]
    if dtype == "object":
        arr = np.empty(len(classes), dtype=object)
        arr[:] = classes
    else:
        arr = np.asarray(classes, dtype=dtype)
    clf.classes_ = arr
    clf.n_classes_ = len(arr)
    clf.features_ = [FeatureInfo.from_dict(f) for f in d["features"]]
    clf._named = bool(d["named"])
    if clf._named:
        clf.feature_names_in_ = np.asarray([f.name for f in clf.features_], dtype=object)
    clf.n_features_in_ = len(clf.features_)
    clf.prior_ = np.asarray(d["prior"], float)
    clf.setting_ = clf._make_setting()
    im = d["impurity"]
    clf.impurity_ = Impurity(im["measure"], theta=im["theta"], consistent=im["consistent"],
                             **im["params"])
    clf.theta_ = None if d["theta"] is None else np.asarray(d["theta"], float)
    clf.edits_ = [tuple(e) for e in d.get("edits", [])]
    clf.tree_ = Tree([Node.from_dict(nd, lambda v: v) for nd in d["nodes"]])
    clf._enc = None
    clf._y = None
    clf._w = None
    clf._train_leaf = None
    return clf


def _fmt_counts(nd: Node) -> str:
    return "[" + ", ".join(f"{c:g}" for c in nd.counts) + "]"


def to_text(clf, style="rules", precision=3) -> str:
    """Readable rules (one line per leaf) or an indented tree."""
    clf._check_fitted()
    nodes = clf.tree_.nodes
    if style not in ("rules", "tree"):
        raise ValueError(f"style must be 'rules' or 'tree'; got {style!r}.")
    if style == "rules":
        lines = []
        for nd in nodes:
            if not nd.is_leaf:
                continue
            cond = " AND ".join(nd.conditions) if nd.conditions else "TRUE"
            p = float(np.max(nd.proba))
            lines.append(f"IF {cond} THEN class = {nd.prediction} "
                         f"(n = {nd.n}, counts {_fmt_counts(nd)}, p = {p:.{precision}f})")
        return "\n".join(lines)
    lines = []

    def walk(i, indent):
        nd = nodes[i]
        if nd.is_leaf:
            lines.append(f"{indent}class: {nd.prediction} (n = {nd.n}, {_fmt_counts(nd)})")
            return
        for k, c in enumerate(nd.children):
            lines.append(f"{indent}|--- {nd.split.branch_labels[k]}")
            walk(c, indent + "|   ")

    walk(0, "")
    return "\n".join(lines)
