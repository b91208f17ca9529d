"""Decision trees on any measure of the package, with every candidate split inspectable.

See :mod:`offcenter.tree.estimator` for the rules (splits, missing values, stopping, ties).
"""

from offcenter.tree.estimator import TreeClassifier
from offcenter.tree.nodes import Node, Split, Tree
from offcenter.tree.sklearn_compat import from_sklearn
from offcenter.tree.text import export_text

__all__ = ["Node", "Split", "Tree", "TreeClassifier", "export_text", "from_sklearn"]
