"""Test helper: fit a tree with the split search's screenings on or off."""

from __future__ import annotations

from functools import cached_property

import numpy as np

import offcenter.tree.screening as screening
from offcenter import TreeClassifier
from offcenter.tree.scoring import SplitScorer


def fit(X, y, screen=True, monkeypatch=None, small_blocks=False, **kw):
    """Fit with the screenings (default: block bound and float32), or with every threshold
    evaluated in float64 (``screen=False``). ``small_blocks`` (needs ``monkeypatch``) turns the
    block screening on for small nodes and every kernel with a row bound, so small data sets
    exercise it at every level."""
    original = SplitScorer.__dict__["kernel"]

    def kernel(self):
        k = original.func(self)
        if not screen:
            k.approx = None
            k.row_bound = None
        elif small_blocks and k.row_bound is not None:
            k.block_node_min = 16
        return k

    patched = cached_property(kernel)
    patched.__set_name__(SplitScorer, "kernel")
    SplitScorer.kernel = patched
    try:
        if small_blocks:
            monkeypatch.setattr(screening, "BLOCK_MIN", 64)
            monkeypatch.setattr(screening, "STRIDE_MIN", 2)
        return TreeClassifier(**kw).fit(X, y)
    finally:
        SplitScorer.kernel = original
        if small_blocks:
            monkeypatch.undo()


def random_tree_data(rng, q, n, features, scale, decimals, theta_kind):
    """Numeric data with q overlapping classes (rounded: ties) and a theta to off-center on:
    ``theta_kind`` 0 the prior, 1 a random distribution, 2 a heavy first class."""
    y = rng.choice(q, size=n, p=rng.dirichlet(np.ones(q) * 2))
    X = rng.normal(size=(n, features)) + rng.normal(scale=scale, size=(q, features))[y]
    X = np.round(X, decimals)
    prior = np.bincount(y, minlength=q) / n
    theta = [prior, rng.dirichlet(np.ones(q)), np.r_[0.9, np.full(q - 1, 0.1 / (q - 1))]]
    return X, y, theta[theta_kind]
