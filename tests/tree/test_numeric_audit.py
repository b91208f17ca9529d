"""Tree-level items of the numerical audit (issue #23, "Also fix"): each failed before its fix."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from offcenter import TreeClassifier, gain, hellinger_split
from offcenter.tree.inspect import threshold_gains

X4 = [[0.0], [1.0], [2.0], [3.0]]
Y4 = [0, 0, 1, 1]


@pytest.mark.parametrize("setting", [{"measure": "gini"}, {"measure": "dkm"}, {"alpha": 0.5}])
@pytest.mark.parametrize("weight", [1e-170, 1e155, 2.5e307])  # totals 4e-170, 4e155, 1e308
def test_uniform_tiny_or_huge_weights_give_the_unweighted_tree(setting, weight):
    # Gini crashed (array not broadcastable), DKM grew one node, alpha=0.5 gave NaN or blamed
    # a theta never given: the maths is scale-free, so the weights are rescaled
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        weighted = TreeClassifier(**setting).fit(X4, Y4, sample_weight=[weight] * 4)
    plain = TreeClassifier(**setting).fit(X4, Y4)
    assert weighted.to_json() == plain.to_json()
    assert np.isfinite(weighted.predict_proba(X4)).all()


def test_wide_weights_are_rescaled_by_the_largest():
    w = np.array([1e-170, 3e-170, 2e-170, 1e-170])
    clf = TreeClassifier(measure="gini").fit(X4, Y4, sample_weight=w)
    np.testing.assert_allclose(clf.tree_.nodes[0].counts, [4 / 3, 1.0])  # in units of 3e-170
    np.testing.assert_allclose(clf.prior_, [4 / 7, 3 / 7])


def test_hellinger_running_sums_are_exact_with_weights_1e20_and_1():
    # two rows of weight 1e20 first, then rows of weight 1: a plain running sum of the weights
    # loses the 1s after the 1e20, and the children's counts with them (scores 1e-10 off)
    n = 12
    X = np.arange(float(n))[:, None]
    y = np.array([0, 1] * (n // 2))
    w = np.ones(n)
    w[:2] = 1e20
    clf = TreeClassifier(measure="hellinger", max_depth=1, min_gain=-np.inf)
    clf.fit(X, y, sample_weight=w)
    table = clf.threshold_gains(0, 0, settings=[])
    for t, g in zip(table["threshold"], table["gain:hellinger"]):
        left = X[:, 0] <= t
        L = [math.fsum(w[left & (y == k)]) for k in (0, 1)]
        R = [math.fsum(w[~left & (y == k)]) for k in (0, 1)]
        assert abs(g - hellinger_split([L, R])) <= 1e-15


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_thresholds_near_the_largest_float_do_not_overflow(sign):
    X = [[sign * 1.7e308], [sign * 1.79e308]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # was "overflow encountered in add"
        clf = TreeClassifier().fit(X, [0, 1])
    assert clf.tree_.nodes[0].split.threshold == sign * 1.745e308  # the midpoint, not a value
    assert clf.predict(X).tolist() == [0, 1]


def test_a_stray_string_in_a_numeric_column_is_an_error_at_predict_time():
    clf = TreeClassifier().fit(pd.DataFrame({"age": [20.0, 30.0, 40.0, 50.0]}), Y4)
    stray = pd.DataFrame({"age": pd.Series([25.0, "forty", None], dtype=object)})
    with pytest.raises(ValueError, match=r"column 'age' .* holds 'forty' \(row 1\)"):
        clf.predict(stray)  # was routed as a missing value, silently
    text = pd.DataFrame({"age": pd.Series([25.0, "45", None], dtype=object)})
    assert clf.predict(text).tolist() == [0, 1, 0]  # numeric text is read; None is missing
    with pytest.raises(ValueError, match="column 'age'"):
        clf.predict(pd.DataFrame({"age": ["a", "b"]}))  # an all-string column, as before


@pytest.mark.parametrize("theta", [-0.1, 0.0, 1.0, 1.1])
def test_a_single_theta_is_quoted_as_given(theta):
    # the value given, never 1 - theta (it was "got 1.1." for -0.1): as_theta's one message
    with pytest.raises(ValueError, match=rf"^theta = {theta:g} must be strictly between 0 and 1"):
        TreeClassifier(theta=theta).fit(X4, Y4)


def test_rows_of_weight_below_1e_154_do_not_stop_a_gini_fit():
    """Issue 35: a node of weight below about 1e-154 made the Gini kernel divide 0 by 0 (its
    n * n underflowed): 41 of 100 fits with wide random weights stopped on a RuntimeWarning.
    Such a node's impurity is now that of its frequencies."""
    rng = np.random.default_rng(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(12):
            X = rng.normal(size=(40, 3))
            y = rng.integers(0, 2, 40)
            w = 10.0 ** rng.uniform(-300, 300, 40)
            clf = TreeClassifier(measure="gini").fit(X, y, sample_weight=w)
            assert np.isfinite([n.impurity for n in clf.tree_.nodes]).all()
    # the children of weight 2e-200 are scored from their frequencies: every threshold's gain
    # is the exact gain of its table
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y, w = np.array([0, 1, 0, 1]), np.array([1e-200, 1e-200, 1.0, 1.0])
    clf = TreeClassifier(measure="gini", max_depth=1, min_gain=-np.inf).fit(X, y, sample_weight=w)
    table = threshold_gains(clf, 0, "x0")
    for t, g in zip(table["threshold"], table["gain:gini"]):
        left = X[:, 0] <= t
        tab = [[w[left & (y == c)].sum() for c in (0, 1)] for left in (left, ~left)]
        assert abs(g - gain(tab, "gini")) <= 1e-16
