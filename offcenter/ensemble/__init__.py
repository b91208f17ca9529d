"""Ensembles of :class:`offcenter.TreeClassifier`: bagged forests on any measure setting."""

from offcenter.ensemble.forest import ForestClassifier
from offcenter.ensemble.sklearn_compat import from_sklearn

__all__ = ["ForestClassifier", "from_sklearn"]
