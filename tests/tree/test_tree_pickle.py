"""A fitted tree pickles in columns (``Tree.__getstate__``, :func:`offcenter.tree.nodes.
node_columns`): the nodes come back equal, field by field, for grown, regrown, pruned,
JSON-loaded and scikit-learn-read trees, and a forest grown by two joblib workers is the forest
grown by one."""

from __future__ import annotations

import pickle

import numpy as np
import pandas as pd
from sklearn.tree import DecisionTreeClassifier

from offcenter import ForestClassifier, TreeClassifier, from_sklearn
from offcenter.tree.nodes import Tree


def _same_nodes(a: Tree, b: Tree):
    assert len(a.nodes) == len(b.nodes)
    for x, y in zip(a.nodes, b.nodes):
        assert type(x) is type(y)
        assert x.__dict__.keys() == y.__dict__.keys()
        for k, v in x.__dict__.items():
            w = y.__dict__[k]
            if isinstance(v, np.ndarray):
                assert v.dtype == w.dtype
                np.testing.assert_array_equal(v, w)
            else:
                assert v == w, k
                assert type(v) is type(w), k


def _data(n=300, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(
        {
            "a": np.round(rng.normal(size=n), 2),
            "b": rng.integers(0, 5, n).astype(float),
            "colour": rng.choice(["red", "green", "blue", None], n),
        }
    )
    X.loc[rng.random(n) < 0.05, "a"] = np.nan
    y = np.where(X["a"].fillna(0) + (X["colour"] == "red") + rng.normal(size=n) > 0.8, "yes", "no")
    return X, y


def test_trees_come_back_equal():
    X, y = _data()
    clf = TreeClassifier(theta="prior", max_depth=5).fit(X, y)
    trees = [
        clf,
        clf.regrow(clf.tree_.nodes[0].children[0], measure="gini", max_depth=7),
        clf.prune(0.01),
        TreeClassifier(categorical="binary", measure="hellinger").fit(X, y),
        TreeClassifier.from_json(clf.to_json()),
    ]
    Xn = np.nan_to_num(X[["a", "b"]].to_numpy())
    trees.append(from_sklearn(DecisionTreeClassifier(max_depth=4).fit(Xn, y)))
    for t in trees:
        again = pickle.loads(pickle.dumps(t))
        _same_nodes(t.tree_, again.tree_)
        Xp = Xn if t is trees[-1] else X
        np.testing.assert_array_equal(again.predict_proba(Xp), t.predict_proba(Xp))


def test_the_state_is_columns_not_objects():
    X, y = _data(2000)
    tree = TreeClassifier(min_gain=-np.inf).fit(X, y).tree_
    state = tree.__getstate__()
    assert "nodes" not in state and state["counts"].shape == (len(tree), 2)
    assert len(state["conditions"]) == 1  # only the root's: the others follow from the splits
    assert len(pickle.dumps(tree)) < len(pickle.dumps(tree.nodes)) / 2


def test_a_forest_on_two_workers_is_the_forest_on_one():
    X, y = _data(400, seed=3)
    kw = dict(n_estimators=4, random_state=0, max_features=2, theta="prior")
    one = ForestClassifier(n_jobs=1, **kw).fit(X, y)
    two = ForestClassifier(n_jobs=2, **kw).fit(X, y)
    for a, b in zip(one.estimators_, two.estimators_):
        _same_nodes(a.tree_, b.tree_)
    np.testing.assert_array_equal(one.predict_proba(X), two.predict_proba(X))
