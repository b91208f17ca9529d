"""Growing an unweighted tree on its runs of identical consecutive rows, each counted with its
copies (``offcenter.tree.growth.copies_of_rows``, as a forest's bootstrap sample gives them),
grows the tree of every row: the same nodes to the last bit (counts, rows, thresholds,
impurities, gains, scores)."""

from __future__ import annotations

from unittest import mock

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from offcenter import ForestClassifier, TreeClassifier
from offcenter.tree import growth

#: (measure, extra parameters): every family of scorer and kernel path the level search meets
_FAMILIES = [
    ("shannon", {}),
    ("shannon", {"theta": "prior"}),
    ("gini", {"alpha": 0.5}),
    ("dkm", {}),
    ("asymmetric", {}),  # the block screening
    ("daroczy", {"beta": 3.0}),
    ("misclassification", {}),
    ("rank_diversity", {"rho": 1.0}),
    ("hellinger", {}),
]


def _both(fit):
    """``fit()`` with the copies merged, and with every row kept."""
    assert growth.MERGE_COPIES
    merged = fit()
    with mock.patch.object(growth, "MERGE_COPIES", False):
        every = fit()
    return merged, every


def _nodes(tree):
    return tree.to_dict()["nodes"]


def _sample(rng, q, n, missing, categorical):
    """A bootstrap sample (rows drawn with replacement, in row order: copies consecutive)
    of numeric data with ties, missing values and a categorical column."""
    y0 = rng.integers(0, q, n)
    y0[:q] = np.arange(q)
    X0 = rng.normal(size=(n, 5)) + 0.7 * rng.normal(size=(q, 5))[y0]
    X0[:, 0] = np.round(X0[:, 0])  # ties
    X0[:, 3] = np.round(X0[:, 3] * 2) / 2
    if missing:
        X0[rng.random(n) < 0.15, 1] = np.nan
    idx = np.sort(rng.integers(0, n, n))
    X, y = X0[idx], y0[idx]
    if categorical:
        X = pd.DataFrame(X, columns=[f"x{j}" for j in range(5)])
        X["c"] = pd.Categorical(np.array(list("abcd"))[(idx * 7) % 4])
    return X, y


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**16),
    q=st.integers(2, 4),
    family=st.sampled_from(_FAMILIES),
    max_features=st.sampled_from([None, 1, 2, 3]),
    min_samples_leaf=st.integers(1, 4),
    min_samples_split=st.integers(2, 6),
    missing=st.booleans(),
    categorical=st.booleans(),
    stack_rows=st.sampled_from([1, 1 << 21]),
)
def test_runs_of_copies_grow_the_tree_of_every_row(
    seed,
    q,
    family,
    max_features,
    min_samples_leaf,
    min_samples_split,
    missing,
    categorical,
    stack_rows,
):
    """Ties, missing values, a categorical column, 2 to 4 classes, every measure family,
    min_samples_leaf and min_samples_split (counting the copies), max_features draws, the
    stacked and the one-feature search."""
    rng = np.random.default_rng(seed)
    X, y = _sample(rng, q, int(rng.integers(40, 260)), missing, categorical)
    measure, extra = family
    kw = {
        "measure": measure,
        "max_features": max_features,
        "min_samples_leaf": min_samples_leaf,
        "min_samples_split": min_samples_split,
        "min_gain": -np.inf,
        "random_state": seed,
        **extra,
    }
    with mock.patch.object(growth, "STACK_ROWS", stack_rows):
        merged, every = _both(lambda: TreeClassifier(**kw).fit(X, y))
    assert _nodes(merged) == _nodes(every)


@pytest.mark.parametrize(
    "kw",
    [
        {"min_weight_fraction_leaf": 0.05, "max_depth": 6},
        {"monotonic_cst": [1, 0, -1, 0, 0]},
        {"max_leaf_nodes": 12, "measure": "gini"},
        {"ccp_alpha": 0.01, "theta": "prior"},
        {"min_impurity_decrease": 0.001, "measure": "hellinger"},
    ],
)
def test_runs_of_copies_under_the_other_rules(kw):
    """The leaf-weight share, monotonic constraints, best-first growth, pruning and the
    impurity decrease rule see the copies as rows."""
    X, y = _sample(np.random.default_rng(5), 2, 400, False, False)
    merged, every = _both(lambda: TreeClassifier(min_gain=-np.inf, **kw).fit(X, y))
    assert _nodes(merged) == _nodes(every)
    assert merged.tree_.nodes[0].n == 400


def test_copies_are_found_and_counted():
    """Runs of identical rows (NaN equal to NaN) with one class are merged; a row differing
    in a value, a category or its class starts a run; few copies: nothing merged."""
    from offcenter.tree.encode import fit_encode

    X = pd.DataFrame(
        {
            "a": [1.0, 1.0, 1.0, 1.0, np.nan, np.nan, 2.0, 2.0],
            "c": pd.Categorical(list("xxxyzzzz")),
        }
    )
    y = np.array([0, 0, 1, 1, 0, 0, 0, 0])
    enc, _ = fit_encode(X)
    first, mult = growth.copies_of_rows(enc, y)
    assert first.tolist() == [0, 2, 3, 4, 6]
    assert mult.tolist() == [2, 0, 1, 1, 2, 0, 2, 0]
    enc, _ = fit_encode(np.arange(100.0)[:, None])
    assert growth.copies_of_rows(enc, np.zeros(100, int)) is None


@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"max_features": 2, "min_samples_leaf": 3, "measure": "dkm"},
        {"bootstrap": "balanced", "theta": "prior"},
        {"max_samples": 0.5, "stratified": False, "measure": "asymmetric"},
        {"class_weight": "balanced"},  # weighted rows: every row kept (see forest.py)
    ],
)
def test_forest_trees_on_their_samples_distinct_rows_are_the_same(kw):
    """A forest's trees grown on their bootstrap samples' distinct rows, each counted with
    its copies, are the trees of the samples' every row: presorted columns, ties, missing
    values, 3 classes."""
    rng = np.random.default_rng(11)
    n = 600
    y = rng.choice(3, size=n, p=[0.6, 0.3, 0.1])
    X = rng.normal(size=(n, 5)) + 0.8 * rng.normal(size=(3, 5))[y]
    X[:, 0] = np.round(X[:, 0])
    X[rng.random(n) < 0.1, 3] = np.nan
    params = {"n_estimators": 3, "random_state": 2, "n_jobs": 1, "min_gain": -np.inf, **kw}
    merged, every = _both(lambda: ForestClassifier(**params).fit(X, y))
    for a, b in zip(merged.estimators_, every.estimators_):
        assert _nodes(a) == _nodes(b)
