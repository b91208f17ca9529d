"""cp_table_cv: rpart's cross-validated xerror and xstd columns, checked against a direct
computation with scikit-learn's folds, and the 1-SE rule."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.model_selection import StratifiedKFold

from offcenter import TreeClassifier
from offcenter.data.datasets import load
from offcenter.tree.cp_cv import cp_table_cv, one_se_alpha


@pytest.fixture(scope="module")
def pima():
    df = load("pima")
    return df.drop(columns="diabetes"), df["diabetes"].to_numpy()


def test_xerror_by_hand(pima):
    X, y = pima
    clf = TreeClassifier(measure="gini", max_depth=4).fit(X, y)
    table = cp_table_cv(clf, X, y, cv=4, random_state=1)
    assert list(table.columns[-3:]) == ["x_alpha", "xerror", "xstd"]
    base = clf.cp_table()
    assert table[base.columns].equals(base)
    # by hand for one row: the folds' trees pruned at sqrt(alpha_i alpha_i+1)
    i = len(table) // 2
    a = np.sqrt(table["alpha"][i] * table["alpha"][i + 1])
    assert table["x_alpha"][i] == pytest.approx(a)
    wrong = 0
    for tr, te in StratifiedKFold(4, shuffle=True, random_state=1).split(np.zeros(len(y)), y):
        tree = TreeClassifier(measure="gini", max_depth=4).fit(X.iloc[tr], y[tr])
        wrong += int((tree.prune(a).predict(X.iloc[te]) != y[te]).sum())
    r0 = len(y) - np.bincount(y).max()
    assert table["xerror"][i] == pytest.approx(wrong / r0)
    n = len(y)
    assert table["xstd"][i] == pytest.approx(np.sqrt(wrong - wrong**2 / n) / r0)
    # the root predicts the training majority in every fold: exactly the root's error
    assert table["xerror"].iloc[-1] == 1.0


def test_one_se_rule_and_weights(pima):
    X, y = pima
    clf = TreeClassifier(measure="shannon", theta="prior", max_depth=5).fit(X, y)
    table = cp_table_cv(clf, X, y, cv=5)
    alpha = one_se_alpha(table)
    best = table["xerror"].idxmin()
    row = table[table["alpha"] == alpha].iloc[0]
    assert row["xerror"] <= table["xerror"][best] + table["xstd"][best] + 1e-12
    assert row["n_leaves"] <= table["n_leaves"][best]
    # integer weights equal repeated rows in the loss: weights of 2 double both sums
    twice = cp_table_cv(clf, X, y, cv=5, sample_weight=np.full(len(y), 2.0))
    np.testing.assert_allclose(twice["xerror"], table["xerror"])


def test_errors(pima):
    X, y = pima
    clf = TreeClassifier(max_depth=2).fit(X, y)
    with pytest.raises(ValueError, match="cv must be"):
        cp_table_cv(clf, X, y, cv=1)
    with pytest.raises(ValueError, match="sample_weight"):
        cp_table_cv(clf, X, y, sample_weight=[1, 2])
    with pytest.raises(ValueError, match="xerror"):
        one_se_alpha(clf.cp_table())
