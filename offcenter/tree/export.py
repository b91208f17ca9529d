"""Export of a fitted tree: a JSON-ready dict (and back, losslessly) and readable rules."""

from __future__ import annotations

import numpy as np

from offcenter.measures.impurity import Impurity
from offcenter.measures.settings import MeasureSetting
from offcenter.tree.encode import FeatureInfo, _python_value
from offcenter.tree.fitted import check_fitted, names_given, set_fitted
from offcenter.tree.nodes import Node, Tree
from offcenter.tree.params import tree_setting

FORMAT = "offcenter.tree/1"


def _jsonable(v):
    if isinstance(v, MeasureSetting):  # measure given as a whole setting
        d = v.to_dict()
        del d["key"], d["label"]
        params = d.pop("params")  # names to numbers: JSON as it is
        return {"__setting__": {**{k: _jsonable(x) for k, x in d.items()}, "params": params}}
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
    check_fitted(clf)
    params = {k: _jsonable(v) for k, v in clf.get_params().items()}
    imp = clf.impurity_
    return {
        "format": FORMAT,
        "params": params,
        "classes": [_python_value(c) for c in clf.classes_],
        "classes_dtype": str(clf.classes_.dtype),
        "features": [f.to_dict() for f in clf.features_],
        "named": names_given(clf),
        "prior": [float(p) for p in clf.prior_],
        "impurity": {
            "measure": imp.name,
            "theta": _jsonable(imp.theta),
            "consistent": imp.consistent,
            "params": dict(imp.params),
        },
        "theta": _jsonable(clf.theta_),
        "edits": _jsonable(
            [
                list(e) if not isinstance(e[-1], dict) else [*e[:-1], e[-1]]
                for e in getattr(clf, "edits_", [])
            ]
        ),
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
        elif isinstance(v, dict) and "__setting__" in v:
            params[k] = MeasureSetting.parse(v["__setting__"])
    clf = cls(**params)
    dtype = d.get("classes_dtype", "object")
    classes = d["classes"]
    if dtype == "object":
        arr = np.empty(len(classes), dtype=object)
        arr[:] = classes
    else:
        arr = np.asarray(classes, dtype=dtype)
    im = d["impurity"]
    return set_fitted(
        clf,
        classes=arr,
        features=[FeatureInfo.from_dict(f) for f in d["features"]],
        named=bool(d["named"]),
        prior=np.asarray(d["prior"], float),
        setting=tree_setting(clf.get_params()),
        impurity=Impurity(
            im["measure"], theta=im["theta"], consistent=im["consistent"], **im["params"]
        ),
        theta=None if d["theta"] is None else np.asarray(d["theta"], float),
        tree=Tree([Node.from_dict(nd, lambda v: v) for nd in d["nodes"]]),
        edits=[tuple(e) for e in d.get("edits", [])],
    )


def _fmt_counts(nd: Node) -> str:
    return "[" + ", ".join(f"{c:g}" for c in nd.counts) + "]"


def to_text(clf, style="rules", precision=3) -> str:
    """Readable rules (one line per leaf) or an indented tree."""
    check_fitted(clf)
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
            lines.append(
                f"IF {cond} THEN class = {nd.prediction} "
                f"(n = {nd.n}, counts {_fmt_counts(nd)}, p = {p:.{precision}f})"
            )
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


def _palette(n: int) -> list[tuple[int, int, int]]:
    """n colours of equally spaced hues (saturation 0.75, value 0.9), from hue 25 degrees, as
    in scikit-learn's export_graphviz."""
    s, v = 0.75, 0.9
    c = s * v
    m = v - c
    out = []
    for h in np.arange(25, 385, 360.0 / n).astype(int)[:n]:
        hb = h / 60.0
        x = c * (1 - abs((hb % 2) - 1))
        r, g, b = [(c, x, 0), (x, c, 0), (0, c, x), (0, x, c), (x, 0, c), (c, 0, x), (c, x, 0)][
            int(hb)
        ]
        out.append((int(255 * (r + m)), int(255 * (g + m)), int(255 * (b + m))))
    return out


def _fill(proba, colours) -> str:
    """The node's colour: its majority class's hue, the more opaque the purer the node
    (alpha = (p_first - p_second) / (1 - p_second))."""
    p = np.sort(np.asarray(proba, float))[::-1]
    k = int(np.argmax(proba))
    second = p[1] if p.size > 1 else 0.0
    alpha = 0.0 if second >= 1.0 else (p[0] - second) / (1.0 - second)
    rgb = [int(round(alpha * c + (1 - alpha) * 255)) for c in colours[k]]
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def _dot_text(text: str) -> str:
    return str(text).replace("\\", "\\\\").replace('"', '\\"')


def export_graphviz(
    clf,
    out_file=None,
    *,
    class_names=None,
    label="all",
    filled=False,
    impurity=True,
    node_ids=False,
    proportion=False,
    rounded=False,
    precision=3,
    fontname="helvetica",
) -> str | None:
    """The fitted tree in Graphviz DOT, in the style of :func:`sklearn.tree.export_graphviz`.

    Each node shows its test (numeric: ``feature <= threshold``, the left child being True;
    categorical: the feature, each edge its value(s)), its impurity under the measure it was
    grown with (``Node.setting_key``, e.g. ``oc_shannon = 0.52``), ``samples`` (training rows),
    ``value`` (class counts, sums of weights with sample weights) and ``class`` (the leaf
    rule's prediction). Render with ``dot -Tpng tree.dot -o tree.png``.

    Parameters
    ----------
    clf : fitted TreeClassifier
    out_file : None, str or file-like
        None: the DOT text is returned; a path or an open text file: written there (and None
        returned).
    class_names : None or list of str
        Names of the classes in ``classes_`` order (None: the labels themselves).
    label : "all", "root" or "none"
        Where the informative labels (``samples = `` etc.) are spelled out.
    filled : bool
        Colour each node by its majority class, more opaque when purer.
    impurity, node_ids, proportion : bool
        Show the impurity / the node id / ``value`` and ``samples`` as proportions.
    rounded : bool
        Rounded boxes.
    precision : int
        Digits of thresholds, impurities and values.
    fontname : str
    """
    check_fitted(clf)
    if label not in ("all", "root", "none"):
        raise ValueError(f"label must be 'all', 'root' or 'none'; got {label!r}.")
    if isinstance(precision, bool) or not isinstance(precision, (int, np.integer)) or precision < 0:
        raise ValueError(f"precision must be an integer >= 0; got {precision!r}.")
    classes = [_python_value(c) for c in clf.classes_]
    if class_names is None:
        names = [str(c) for c in classes]
    else:
        names = [str(c) for c in class_names]
        if len(names) != len(classes):
            raise ValueError(f"class_names has {len(names)} names for {len(classes)} classes.")
    index = {c: i for i, c in enumerate(classes)}
    nodes = clf.tree_.nodes
    root = nodes[0]
    colours = _palette(len(classes))
    style = []
    if filled:
        style.append("filled")
    if rounded:
        style.append("rounded")
    attrs = ["shape=box"]
    if style:
        attrs.append(f'style="{", ".join(style)}"')
    attrs += ['color="black"', f'fontname="{fontname}"']
    lines = ["digraph Tree {", f"node [{', '.join(attrs)}] ;", f'edge [fontname="{fontname}"] ;']

    def fmt(x) -> str:
        x = float(x)
        return str(int(x)) if x.is_integer() else f"{round(x, precision)}"

    for nd in nodes:
        show = label == "all" or (label == "root" and nd.id == 0)
        parts = []
        if node_ids:
            parts.append(f"node #{nd.id}" if show else f"#{nd.id}")
        sp = nd.split
        if sp is not None:
            if sp.kind == "numeric":
                parts.append(f"{sp.feature} <= {round(float(sp.threshold), precision)}")
            else:
                parts.append(f"{sp.feature}")
        if impurity:
            crit = nd.setting_key or clf.setting_.key
            try:
                # a split criterion's node impurity is another measure's (DKM for HDDT)
                crit = MeasureSetting.parse(crit).info.node_measure or crit
            except ValueError:
                pass
            parts.append(
                f"{crit} = {round(float(nd.impurity), precision)}"
                if show
                else f"{round(float(nd.impurity), precision)}"
            )
        if proportion:
            share = 100.0 * nd.weighted_n / root.weighted_n if root.weighted_n else 0.0
            parts.append(("samples = " if show else "") + f"{round(share, 1)}%")
            vals = ", ".join(f"{round(float(p), precision)}" for p in nd.proba)
        else:
            parts.append(("samples = " if show else "") + f"{nd.n}")
            vals = ", ".join(fmt(c) for c in nd.counts)
        parts.append(("value = " if show else "") + f"[{vals}]")
        pred = index.get(nd.prediction, int(np.argmax(nd.proba)))
        parts.append(("class = " if show else "") + names[pred])
        text = "\\n".join(_dot_text(p) for p in parts)
        fill = f', fillcolor="{_fill(nd.proba, colours)}"' if filled else ""
        lines.append(f'{nd.id} [label="{text}"{fill}] ;')
        if nd.parent is not None:
            par = nodes[nd.parent]
            k = par.children.index(nd.id)
            psp = par.split
            if psp.kind == "numeric":
                edge = ""
                if par.id == 0:
                    edge = (
                        ' [labeldistance=2.5, labelangle=45, headlabel="True"]'
                        if k == 0
                        else ' [labeldistance=2.5, labelangle=-45, headlabel="False"]'
                    )
            else:
                groups = psp.groups[k] if psp.groups is not None else ()
                values = ", ".join("missing" if v is None else str(v) for v in groups)
                edge = f' [label="{_dot_text(values)}"]'
            lines.append(f"{par.id} -> {nd.id}{edge} ;")
    lines.append("}")
    dot = "\n".join(lines) + "\n"
    if out_file is None:
        return dot
    if isinstance(out_file, (str, bytes)) or hasattr(out_file, "__fspath__"):
        with open(out_file, "w", encoding="utf-8") as fh:
            fh.write(dot)
    else:
        out_file.write(dot)
    return None
