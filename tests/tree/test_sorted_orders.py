"""``TreeClassifier.fit(..., sorted_orders=...)``: the columns' sorts given grow the tree the
tree's own sorts grow; a wrong shape or an order that does not sort its column is refused."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from offcenter.tree import TreeClassifier


def _orders(X: np.ndarray, rng) -> np.ndarray:
    """Each column's sort, ties shuffled (any tie order must do), NaN last."""
    out = []
    for j in range(X.shape[1]):
        perm = rng.permutation(len(X))
        out.append(perm[np.argsort(X[perm, j], kind="stable")])
    return np.array(out)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    measure=st.sampled_from(["shannon", "gini", "dkm", "misclassification"]),
    classes=st.integers(2, 4),
    leaf=st.integers(1, 3),
)
def test_given_orders_grow_the_trees_own_tree(seed, measure, classes, leaf):
    rng = np.random.default_rng(seed)
    n = 120
    y = rng.integers(0, classes, n)
    y[:classes] = np.arange(classes)
    X = np.round(rng.normal(size=(n, 3)) + y[:, None] * 0.7, 1)  # ties
    X[rng.random(n) < 0.1, 2] = np.nan
    kw = {"measure": measure, "min_samples_leaf": leaf}
    own = TreeClassifier(**kw).fit(X, y)
    fast = TreeClassifier(**kw).fit(X, y, sorted_orders=_orders(X, rng))
    assert fast.to_dict()["nodes"] == own.to_dict()["nodes"]


def test_only_the_numeric_columns_are_given_on_a_mixed_frame():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(
        {"a": rng.normal(size=80), "c": rng.choice(["u", "v", "w"], 80), "b": rng.normal(size=80)}
    )
    y = (X["a"] + (X["c"] == "u") > 0.3).astype(int)
    orders = np.array([np.argsort(X["a"]), np.argsort(X["b"])])
    own = TreeClassifier().fit(X, y)
    fast = TreeClassifier().fit(X, y, sorted_orders=orders)
    assert fast.to_dict()["nodes"] == own.to_dict()["nodes"]


@pytest.mark.parametrize(
    "bad, message",
    [
        (lambda o: o[:1], "shape"),  # one row short
        (lambda o: o.astype(float), "integer array"),
        (lambda o: o[:, ::-1].copy(), "does not sort numeric column 0"),  # decreasing
        (lambda o: np.where(o == 5, 6, o), "does not sort"),  # not a permutation
        (lambda o: o + 1000, "does not sort"),  # out of range
    ],
)
def test_a_wrong_order_is_refused_with_its_reason(bad, message):
    rng = np.random.default_rng(2)
    X = rng.normal(size=(50, 2))
    y = (X[:, 0] > 0).astype(int)
    orders = np.argsort(X, axis=0).T
    with pytest.raises(ValueError, match=message):
        TreeClassifier().fit(X, y, sorted_orders=bad(orders))


def test_nan_inside_the_order_is_refused():
    X = np.array([[np.nan], [1.0], [2.0], [0.0]])
    y = np.array([0, 1, 1, 0])
    with pytest.raises(ValueError, match="does not sort"):
        TreeClassifier().fit(X, y, sorted_orders=np.array([[0, 3, 1, 2]]))
    TreeClassifier().fit(X, y, sorted_orders=np.array([[3, 1, 2, 0]]))
