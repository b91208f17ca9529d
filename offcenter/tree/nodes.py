"""The fitted tree: nodes, splits, and a compiled array form for fast routing."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np


@dataclass(frozen=True)
class Split:
    """The test of an internal node.

    Attributes
    ----------
    feature : column name.
    kind : ``"numeric"`` (``x <= threshold`` goes to child 0), ``"categorical"`` (one child per
        value, ``groups[k] == (value,)``) or ``"categorical_binary"`` (two groups of values).
    threshold : float for numeric splits, else None.
    groups : tuple of tuples of category values, one per child (None for numeric splits); the
        missing category is ``None``.
    branch_labels : readable condition of each child.
    gain : I(node) - sum_k n_k/n I(child_k) under the tree's measure.
    score : the gain, or lambda_alpha when the tree has an ``alpha``.
    missing_child : child index where a missing value goes (numeric: the larger child; a
        categorical split sends the missing category to its own branch or group when it was
        seen at this node, else to ``default_child``).
    default_child : child index for a category not seen at this node during training (the
        child with the most training rows; the first on a tie).
    n_missing : training rows at the node whose value of this feature is missing.
    """

    feature: str
    kind: str
    threshold: float | None
    groups: tuple | None
    branch_labels: tuple
    gain: float
    score: float
    missing_child: int | None
    default_child: int = 0
    n_missing: int = 0
    feature_index: int = -1

    def to_dict(self) -> dict:
        return {
            "feature": self.feature,
            "kind": self.kind,
            "threshold": self.threshold,
            "groups": None if self.groups is None else [list(g) for g in self.groups],
            "branch_labels": list(self.branch_labels),
            "gain": self.gain,
            "score": self.score,
            "missing_child": self.missing_child,
            "default_child": self.default_child,
            "n_missing": self.n_missing,
            "feature_index": self.feature_index,
        }

    @classmethod
    def from_dict(cls, d: dict) -> Split:
        groups = None if d["groups"] is None else tuple(tuple(g) for g in d["groups"])
        return cls(
            d["feature"],
            d["kind"],
            d["threshold"],
            groups,
            tuple(d["branch_labels"]),
            float(d["gain"]),
            float(d["score"]),
            d["missing_child"],
            int(d["default_child"]),
            int(d["n_missing"]),
            int(d["feature_index"]),
        )


@dataclass(frozen=True)
class Node:
    """A node of a fitted tree (see the module docs of :mod:`offcenter.tree`)."""

    id: int
    parent: int | None
    depth: int
    counts: np.ndarray
    impurity: float
    split: Split | None
    children: tuple
    prediction: object
    proba: np.ndarray
    conditions: tuple
    n_missing: int = 0
    #: key of the MeasureSetting the node was grown with (``oc_shannon``; a regrown branch
    #: may have another than the tree's)
    setting_key: str = ""
    n_samples: int = -1  # training rows of the node (-1: unknown, from an old JSON file)

    @property
    def criterion(self) -> str:
        """Former name of :attr:`setting_key` (kept for code written before the rename)."""
        return self.setting_key

    @property
    def n(self) -> int:
        """Number of training rows reaching the node (scikit-learn's n_node_samples)."""
        if self.n_samples >= 0:
            return self.n_samples
        return int(round(float(self.counts.sum())))

    @property
    def weighted_n(self) -> float:
        """Sum of the weights of the node's training rows (``counts.sum()``; equal to ``n``
        without weights)."""
        return float(self.counts.sum())

    @property
    def is_leaf(self) -> bool:
        return self.split is None

    def to_dict(self, class_to_json) -> dict:
        return {
            "id": self.id,
            "parent": self.parent,
            "depth": self.depth,
            "counts": [float(c) for c in self.counts],
            "impurity": float(self.impurity),
            "split": None if self.split is None else self.split.to_dict(),
            "children": list(self.children),
            "prediction": class_to_json(self.prediction),
            "proba": [float(p) for p in self.proba],
            "conditions": list(self.conditions),
            "n_missing": self.n_missing,
            "setting_key": self.setting_key,
            "n_samples": self.n_samples,
        }

    @classmethod
    def from_dict(cls, d: dict, class_from_json) -> Node:
        return cls(
            int(d["id"]),
            d["parent"],
            int(d["depth"]),
            np.asarray(d["counts"], float),
            float(d["impurity"]),
            None if d["split"] is None else Split.from_dict(d["split"]),
            tuple(d["children"]),
            class_from_json(d["prediction"]),
            np.asarray(d["proba"], float),
            tuple(d["conditions"]),
            int(d["n_missing"]),
            d.get("setting_key", d.get("criterion", "")),  # "criterion": files before the rename
            int(d.get("n_samples", -1)),
        )


#: scikit-learn's marks in ``children_left``/``children_right`` (a leaf) and in
#: ``feature``/``threshold`` (no test), from ``sklearn.tree._tree``.
TREE_LEAF = -1
TREE_UNDEFINED = -2


@dataclass
class Tree:
    """The nodes of a fitted tree; ``nodes[i].id == i``, the root is 0, nodes in breadth-first
    order.

    scikit-learn's ``Tree`` attributes are read from the nodes (array index = node id, so
    ``tree_.children_left[i]`` is a child of ``tree_.nodes[i]``): ``node_count``,
    ``capacity``, ``max_depth``, ``n_leaves``, ``n_outputs`` (1), ``n_classes``,
    ``max_n_classes``, ``impurity``, ``n_node_samples``, ``weighted_n_node_samples``,
    ``value`` (of shape ``(node_count, 1, n_classes)``: the node's ``proba``, which is what
    scikit-learn >= 1.4 stores for a classifier, the weighted class fractions, under the
    default ``leaf_estimate="frequency"``), and, for a tree of binary numeric splits
    ``x <= threshold`` only, ``children_left``, ``children_right``, ``feature``,
    ``threshold`` and ``missing_go_to_left``, with scikit-learn's marks for a leaf
    (:data:`TREE_LEAF` -1 for the children, :data:`TREE_UNDEFINED` -2 for the feature and
    threshold). A categorical split (multiway, or two groups of categories) has no such
    form: those five raise a ValueError naming the node.

    Examples
    --------
    >>> import numpy as np
    >>> from offcenter import TreeClassifier
    >>> t = TreeClassifier().fit(np.array([[0.0], [1.0], [2.0], [3.0]]), [0, 0, 1, 1]).tree_
    >>> t.node_count, t.children_left.tolist(), t.threshold.tolist(), t.value[1].tolist()
    (3, [1, -1, -1], [1.5, -2.0, -2.0], [[1.0, 0.0]])
    """

    nodes: list
    root: int = 0
    _compiled: dict | None = field(default=None, repr=False, compare=False)
    _arrays: dict | None = field(default=None, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.nodes)

    def __getitem__(self, i) -> Node:
        return self.nodes[i]

    def __iter__(self):
        return iter(self.nodes)

    @property
    def n_leaves(self) -> int:
        return sum(1 for nd in self.nodes if nd.is_leaf)

    @property
    def depth(self) -> int:
        return max(nd.depth for nd in self.nodes)

    @property
    def leaves(self) -> list[int]:
        return [nd.id for nd in self.nodes if nd.is_leaf]

    # ------------------------------------------------------------------ scikit-learn's Tree
    @property
    def node_count(self) -> int:
        return len(self.nodes)

    @property
    def capacity(self) -> int:
        return len(self.nodes)

    @property
    def max_depth(self) -> int:
        return self.depth

    @property
    def n_outputs(self) -> int:
        return 1

    @property
    def max_n_classes(self) -> int:
        return len(self.nodes[0].counts)

    @property
    def n_classes(self) -> np.ndarray:
        return np.array([self.max_n_classes], dtype=np.intp)

    def _sklearn_arrays(self) -> dict:
        """The per-node arrays of scikit-learn's Tree (cached; the splits' arrays only when
        every split is a binary numeric one)."""
        if self._arrays is not None:
            return self._arrays
        nodes = self.nodes
        m = len(nodes)
        out = {
            "impurity": np.array([nd.impurity for nd in nodes], dtype=np.float64),
            "n_node_samples": np.array([nd.n for nd in nodes], dtype=np.intp),
            "weighted_n_node_samples": np.array([nd.weighted_n for nd in nodes], np.float64),
            "value": np.stack([np.asarray(nd.proba, np.float64) for nd in nodes])[:, None, :],
        }
        left = np.full(m, TREE_LEAF, np.intp)
        right = np.full(m, TREE_LEAF, np.intp)
        feature = np.full(m, TREE_UNDEFINED, np.intp)
        threshold = np.full(m, float(TREE_UNDEFINED), np.float64)
        missing_left = np.zeros(m, np.uint8)
        problem = None
        for nd in nodes:
            s = nd.split
            if s is None:
                continue
            if s.kind != "numeric" or len(nd.children) != 2:
                kind = "multiway" if s.kind == "categorical" else "two groups of categories"
                problem = (
                    f"node {nd.id} splits the categorical feature {s.feature!r} "
                    f"({kind}: {', '.join(s.branch_labels)}); scikit-learn's Tree holds only "
                    "binary numeric splits x <= threshold. Encode the feature as numbers "
                    "(e.g. one-hot columns) before fitting to get scikit-learn's arrays."
                )
                break
            if s.feature_index < 0:
                problem = (
                    f"node {nd.id}'s split has no feature index (a tree read from a JSON file "
                    "written before feature indices were stored): refit it."
                )
                break
            left[nd.id], right[nd.id] = nd.children
            feature[nd.id] = s.feature_index
            threshold[nd.id] = s.threshold
            missing_left[nd.id] = 1 if s.missing_child == 0 else 0
        if problem is None:
            out.update(
                children_left=left,
                children_right=right,
                feature=feature,
                threshold=threshold,
                missing_go_to_left=missing_left,
            )
        else:
            out["problem"] = problem
        for a in out.values():
            if isinstance(a, np.ndarray):
                a.flags.writeable = False
        self._arrays = out
        return out

    def _split_array(self, name: str) -> np.ndarray:
        arrays = self._sklearn_arrays()
        if name not in arrays:
            raise ValueError(f"tree_.{name} cannot be given: {arrays['problem']}")
        return arrays[name]

    @property
    def impurity(self) -> np.ndarray:
        """Impurity of each node under the measure it was grown with (``Node.impurity``)."""
        return self._sklearn_arrays()["impurity"]

    @property
    def n_node_samples(self) -> np.ndarray:
        return self._sklearn_arrays()["n_node_samples"]

    @property
    def weighted_n_node_samples(self) -> np.ndarray:
        return self._sklearn_arrays()["weighted_n_node_samples"]

    @property
    def value(self) -> np.ndarray:
        return self._sklearn_arrays()["value"]

    @property
    def children_left(self) -> np.ndarray:
        return self._split_array("children_left")

    @property
    def children_right(self) -> np.ndarray:
        return self._split_array("children_right")

    @property
    def feature(self) -> np.ndarray:
        return self._split_array("feature")

    @property
    def threshold(self) -> np.ndarray:
        return self._split_array("threshold")

    @property
    def missing_go_to_left(self) -> np.ndarray:
        return self._split_array("missing_go_to_left")

    # ------------------------------------------------------------------ pickling
    def __getstate__(self) -> dict:
        """The nodes in columns (:func:`node_columns`): arrays and flat lists instead of one
        pickled object per node and split, so that a tree crosses a process boundary (a
        forest's joblib workers) in a few array copies; the caches are not kept."""
        state = node_columns(self.nodes)
        if state is None:  # nodes of another kind: pickled as they are
            state = {"nodes": self.nodes}
        state["root"] = self.root
        return state

    def __setstate__(self, state: dict) -> None:
        nodes = state["nodes"] if "nodes" in state else nodes_of_columns(state)
        self.__dict__.update(nodes=nodes, root=state["root"], _compiled=None, _arrays=None)

    def path_to(self, node_id: int) -> list[int]:
        path = [node_id]
        while self.nodes[path[-1]].parent is not None:
            path.append(self.nodes[path[-1]].parent)
        return path[::-1]

    def subtree(self, node_id: int) -> list[int]:
        out, stack = [], [node_id]
        while stack:
            i = stack.pop()
            out.append(i)
            stack.extend(self.nodes[i].children)
        return sorted(out)

    # ------------------------------------------------------------------ compiled form
    def compiled(self, features) -> dict:
        """Arrays for vectorised routing (cached)."""
        if self._compiled is not None:
            return self._compiled
        m = len(self.nodes)
        kind = np.zeros(m, np.int8)  # 0 leaf, 1 numeric, 2 categorical
        slot = np.zeros(m, np.int64)
        thr = np.zeros(m, np.float64)
        first = np.zeros(m, np.int64)
        miss = np.zeros(m, np.int64)
        offset = np.zeros(m, np.int64)
        catmap: list[np.ndarray] = []
        pos = 0
        names = [f.name for f in features]
        for nd in self.nodes:
            s = nd.split
            if s is None:
                continue
            j = s.feature_index if s.feature_index >= 0 else names.index(s.feature)
            info = features[j]
            first[nd.id] = nd.children[0]
            if s.kind == "numeric":
                kind[nd.id] = 1
                thr[nd.id] = s.threshold
                miss[nd.id] = s.missing_child
            else:
                kind[nd.id] = 2
                lookup = {}
                for k, g in enumerate(s.groups):
                    for v in g:
                        lookup[v] = k
                # table[0] is for code -1 (a category unseen at fit time), table[c + 1] code c
                table = np.full(len(info.categories) + 1, s.default_child, np.int64)
                for code, v in enumerate(info.categories):
                    if v in lookup:
                        table[code + 1] = lookup[v]
                offset[nd.id] = pos
                catmap.append(table)
                pos += len(table)
            slot[nd.id] = j
        self._compiled = {
            "kind": kind,
            "feature": slot,
            "thr": thr,
            "first": first,
            "miss": miss,
            "offset": offset,
            "catmap": np.concatenate(catmap) if catmap else np.zeros(1, np.int64),
        }
        return self._compiled


def breadth_first(root: int, children) -> list[int]:
    """The ids of a tree in breadth-first order from ``root`` (level by level, each node's
    children in their order); ``children(i)`` gives node i's children's ids.

    >>> breadth_first(0, {0: (1, 2), 1: (3, 4), 2: (), 3: (), 4: ()}.get)
    [0, 1, 2, 3, 4]
    """
    order, queue = [], [root]
    while queue:
        nxt = []
        for i in queue:
            order.append(i)
            nxt.extend(children(i))
        queue = nxt
    return order


def breadth_first_ids(nodes: list) -> list[int]:
    """The ids of ``nodes`` (a parent/children graph) in breadth-first order from the root:
    the order :func:`renumber` numbers them in."""
    by_id = {nd.id: nd for nd in nodes}
    root = next(nd.id for nd in nodes if nd.parent is None)
    return breadth_first(root, lambda i: by_id[i].children)


def renumber(nodes: list) -> list:
    """Breadth-first renumbering of a node list given as a dict-like parent/children graph."""
    by_id = {nd.id: nd for nd in nodes}
    order = breadth_first_ids(nodes)
    new_id = {old: k for k, old in enumerate(order)}
    out = []
    for old in order:
        nd = by_id[old]
        out.append(
            replace(
                nd,
                id=new_id[old],
                parent=None if nd.parent is None else new_id[nd.parent],
                children=tuple(new_id[c] for c in nd.children),
            )
        )
    return out


_SPLIT_FIELDS = (
    "feature",
    "kind",
    "threshold",
    "groups",
    "branch_labels",
    "gain",
    "score",
    "missing_child",
    "default_child",
    "n_missing",
    "feature_index",
)


def _stack(arrays: list):
    """One 2-D array of equal-shaped, equal-dtype 1-D arrays, or None."""
    first = arrays[0]
    if all(
        type(a) is np.ndarray and a.dtype == first.dtype and a.shape == first.shape for a in arrays
    ):
        return np.stack(arrays)
    return None


def node_columns(nodes: list) -> dict | None:
    """A fitted tree's nodes as columns (the pickled state of :class:`Tree`): numbers in
    arrays, text in lists, a node's ``conditions`` only where they are not its parent's plus
    the parent's branch label; None when the nodes are not plain :class:`Node` s."""
    if not nodes or any(type(nd) is not Node for nd in nodes):
        return None
    counts = _stack([nd.counts for nd in nodes])
    proba = _stack([nd.proba for nd in nodes])
    if counts is None or proba is None:
        return None
    by_id = {nd.id: nd for nd in nodes}
    conditions = {}
    for k, nd in enumerate(nodes):
        par = by_id.get(nd.parent) if nd.parent is not None else None
        if par is None or par.split is None or nd.id not in par.children:
            conditions[k] = nd.conditions
            continue
        label = par.split.branch_labels[par.children.index(nd.id)]
        if nd.conditions != par.conditions + (label,):
            conditions[k] = nd.conditions
    split_nodes = [k for k, nd in enumerate(nodes) if nd.split is not None]
    splits = [nodes[k].split for k in split_nodes]
    return {
        "id": [nd.id for nd in nodes],
        "parent": [nd.parent for nd in nodes],
        "depth": [nd.depth for nd in nodes],
        "counts": counts,
        "impurity": [nd.impurity for nd in nodes],
        "children": [nd.children for nd in nodes],
        "prediction": [nd.prediction for nd in nodes],
        "proba": proba,
        "conditions": conditions,
        "n_missing": [nd.n_missing for nd in nodes],
        "setting_key": [nd.setting_key for nd in nodes],
        "n_samples": [nd.n_samples for nd in nodes],
        "split_nodes": split_nodes,
        "splits": {f: [getattr(sp, f) for sp in splits] for f in _SPLIT_FIELDS},
    }


def frozen_instance(cls, values: dict):
    """An instance of the frozen dataclass ``cls`` with ``values`` (its fields), made without
    the field-by-field ``object.__setattr__`` of a frozen dataclass's ``__init__`` (ten times
    faster; ``values`` must name every field: those of a pickled instance, or of a node being
    made from the growth records)."""
    obj = object.__new__(cls)
    obj.__dict__.update(values)
    return obj


def nodes_of_columns(state: dict) -> list:
    """The nodes of :func:`node_columns`' columns, equal to those pickled (each node's
    ``counts`` and ``proba`` are rows of one array)."""
    sc = state["splits"]
    split_of = dict.fromkeys(range(len(state["id"])))
    for i, k in enumerate(state["split_nodes"]):
        split_of[k] = frozen_instance(Split, {f: sc[f][i] for f in _SPLIT_FIELDS})
    ids, parents, children = state["id"], state["parent"], state["children"]
    pos = {nid: k for k, nid in enumerate(ids)}
    given = state["conditions"]
    cond: list = [None] * len(ids)

    def condition(k):
        if cond[k] is None:
            if k in given:
                cond[k] = given[k]
            else:
                pk = pos[parents[k]]
                label = split_of[pk].branch_labels[children[pk].index(ids[k])]
                cond[k] = condition(pk) + (label,)
        return cond[k]

    keys = ("id", "parent", "depth", "counts", "impurity", "split", "children")
    keys += ("prediction", "proba", "conditions", "n_missing", "setting_key", "n_samples")
    columns = zip(
        ids,
        parents,
        state["depth"],
        list(state["counts"]),
        state["impurity"],
        split_of.values(),
        children,
        state["prediction"],
        list(state["proba"]),
        map(condition, range(len(ids))),
        state["n_missing"],
        state["setting_key"],
        state["n_samples"],
    )
    return [frozen_instance(Node, dict(zip(keys, row))) for row in columns]
