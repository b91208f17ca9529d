"""The Tree page's tree state: the grown tree, the hand edits with undo, the selected node.

Streamlit-free (the page keeps one :class:`TreeSession` in its session state), so the edit
history is unit-tested without a page. The history is typed: a :class:`Grow` record (the data
and settings the tree was grown with) followed by edit records (:class:`ForcedSplit`,
:class:`MakeLeaf`), each with the tree it produced, so that undo is a pop.

>>> s = TreeSession()
>>> s.start(Grow("data", "{}"), "tree 0")
>>> s.apply(MakeLeaf(0), "tree 1")
>>> s.current, s.edits_text(), s.edited
('tree 1', 'leaf at node 0', True)
>>> s.undo(); s.current
'tree 0'
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Grow:
    """The first record: the tree was grown on ``data_key`` with the settings ``params_json``.

    Both are opaque strings built by the page (JSON of the data choice and of the tree's
    parameters); any character may appear in them.
    """

    data_key: str
    params_json: str

    def describe(self) -> str:
        return "grown"

    def as_key(self) -> list:
        return ["grow", self.data_key, self.params_json]


@dataclass(frozen=True)
class ForcedSplit:
    """Edit: node ``node`` splits on ``feature`` (the best split of that feature)."""

    node: int
    feature: Hashable

    def describe(self) -> str:
        return f"split node {self.node} on {self.feature}"

    def as_key(self) -> list:
        return ["split", int(self.node), str(self.feature)]

    def apply(self, tree):
        """The edited tree (``tree.with_split``; its ValueError/KeyError pass through)."""
        return tree.with_split(self.node, self.feature)


@dataclass(frozen=True)
class MakeLeaf:
    """Edit: node ``node`` becomes a leaf (its subtree removed)."""

    node: int

    def describe(self) -> str:
        return f"leaf at node {self.node}"

    def as_key(self) -> list:
        return ["leaf", int(self.node)]

    def apply(self, tree):
        """The edited tree (``tree.make_leaf``)."""
        return tree.make_leaf(self.node)


Edit = ForcedSplit | MakeLeaf


@dataclass(frozen=True)
class HistoryEntry:
    """One history entry: a record and the tree after it."""

    record: Grow | ForcedSplit | MakeLeaf
    tree: Any


def _n_nodes(tree) -> int | None:
    """Number of nodes of a fitted tree (None for anything else, e.g. in doctests)."""
    t = getattr(tree, "tree_", None)
    return len(t.nodes) if t is not None else None


@dataclass
class TreeSession:
    """The Tree page's tree: history (grow, then edits), selected node, last clicked node.

    Attributes
    ----------
    steps : list of HistoryEntry
        ``steps[0]`` holds a :class:`Grow` record; the later ones hold edits; the last step's
        tree is the one shown. Empty before the first growth.
    node : int
        The selected node's id (0 = the root).
    last_click : int or None
        The node last clicked in the figure (a click is acted on once, not at every rerun).
    """

    steps: list[HistoryEntry] = field(default_factory=list)
    node: int = 0
    last_click: int | None = None

    # ---------------------------------------------------------------------------- reading
    @property
    def grown(self) -> Grow | None:
        """The :class:`Grow` record, or None before the first growth."""
        return self.steps[0].record if self.steps else None

    @property
    def current(self):
        """The tree shown (the last step's), or None before the first growth."""
        return self.steps[-1].tree if self.steps else None

    @property
    def edits(self) -> list[ForcedSplit | MakeLeaf]:
        """The edit records since the growth, oldest first."""
        return [s.record for s in self.steps[1:]]

    @property
    def edited(self) -> bool:
        """True when the tree was edited by hand since it was grown."""
        return len(self.steps) > 1

    def edits_text(self) -> str:
        """The edits in words, ``"; "``-separated (empty when none)."""
        return "; ".join(e.describe() for e in self.edits)

    def data_changed(self, data_key: str) -> bool:
        """True before the first growth or when the tree was grown on other data."""
        return self.grown is None or self.grown.data_key != data_key

    def settings_changed(self, params_json: str) -> bool:
        """True when a tree exists and was grown with other settings."""
        return self.grown is not None and self.grown.params_json != params_json

    @property
    def key(self) -> str:
        """A string that identifies the current tree (growth and edits): for cache keys.

        Two sessions with the same data, settings and edits have the same key.
        """
        return json.dumps([s.record.as_key() for s in self.steps], default=str)

    @staticmethod
    def key_after(grow: Grow) -> str:
        """:attr:`key` of a session right after :meth:`start` with ``grow`` (no edit): what
        the page's caches will be asked for after that grow.

        >>> g = Grow("pima", '{"max_depth": 3}')
        >>> s = TreeSession()
        >>> s.start(g, None)
        >>> TreeSession.key_after(g) == s.key
        True
        """
        return json.dumps([grow.as_key()], default=str)

    @property
    def tag(self) -> str:
        """A short hash of :attr:`key`, for widget keys that must change with the tree."""
        return hashlib.sha1(self.key.encode()).hexdigest()[:12]

    # ---------------------------------------------------------------------------- changing
    def start(self, grow: Grow, tree) -> None:
        """A newly grown tree: the history restarts from it and the root is selected."""
        self.steps = [HistoryEntry(grow, tree)]
        self.node = 0

    def apply(self, edit: ForcedSplit | MakeLeaf, tree=None) -> None:
        """Add an edit; ``tree`` is the edited tree, computed by ``edit.apply`` when None.

        Raises
        ------
        ValueError
            Before the first growth. The tree's own ValueError/KeyError (a feature that
            cannot split the node, a bad node id) pass through; the history is unchanged.
        """
        if not self.steps:
            raise ValueError("edit: grow a tree before editing it")
        if tree is None:
            tree = edit.apply(self.current)
        self.steps = [*self.steps, HistoryEntry(edit, tree)]

    def undo(self) -> None:
        """Drop the last edit (the growth itself is never undone); the root is selected when
        the selected node no longer exists."""
        if len(self.steps) <= 1:
            return
        self.steps = self.steps[:-1]
        n = _n_nodes(self.current)
        if n is not None and self.node >= n:
            self.node = 0

    def check_node(self, n_nodes: int) -> None:
        """Select the root when the selected node is not one of ``n_nodes`` nodes."""
        if not 0 <= int(self.node) < n_nodes:
            self.node = 0

    def click(self, clicked: int | None, n_nodes: int) -> None:
        """A click in the figure (``clicked`` node, None when nothing is selected).

        A new click selects its node (when it exists); the same click seen again at a rerun
        changes nothing, so that the node selectbox can move the selection elsewhere.
        """
        if clicked is None:
            self.last_click = None
        elif clicked != self.last_click:
            self.last_click = clicked
            if 0 <= clicked < n_nodes:
                self.node = clicked
