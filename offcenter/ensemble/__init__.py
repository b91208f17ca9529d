"""Ensembles of :class:`offcenter.TreeClassifier`: bagged forests on any measure setting."""

from offcenter.ensemble.forest import ForestClassifier

__all__ = ["ForestClassifier"]
