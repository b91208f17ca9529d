"""Decision trees on any measure of the package, with every candidate split inspectable.

See :mod:`offcenter.tree.tree` for the rules (splits, missing values, stopping, ties).
"""

from ._nodes import Node, Split, Tree
from .tree import TreeClassifier

__all__ = ["Node", "Split", "Tree", "TreeClassifier"]
