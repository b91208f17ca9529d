"""Tracing a row typed in by its values (offcenter.tree.trace)."""

import numpy as np
import pandas as pd
import pytest

from offcenter.data.datasets import DATASETS, load
from offcenter.tree import TreeClassifier
from offcenter.tree.trace import MISSING, row_from_values, trace_values


@pytest.fixture(scope="module")
def german():
    df = load("german_credit")
    t = DATASETS["german_credit"].target
    X, y = df.drop(columns=t), df[t]
    return TreeClassifier(measure="shannon", max_depth=4).fit(X, y), X


@pytest.fixture(scope="module")
def with_missing():
    rng = np.random.default_rng(0)
    n = 200
    size = rng.normal(size=n)
    colour = rng.choice(["red", "green", "blue"], size=n).astype(object)
    y = np.where(size + (colour == "red") > 0.5, "yes", "no")
    size[rng.random(n) < 0.2] = np.nan
    colour[rng.random(n) < 0.2] = None
    X = pd.DataFrame({"size": size, "colour": colour})
    return TreeClassifier(max_depth=3).fit(X, y), X


def test_every_training_row_typed_in_follows_the_trees_own_route(german):
    clf, X = german
    expected = clf.decision_paths(X)
    for i in range(0, len(X), 37):
        values = {c: X[c].iloc[i] for c in X.columns}
        t = trace_values(clf, values)
        assert t.path == expected[i]
        assert t.prediction == clf.predict(X.iloc[[i]])[0]
        assert t.leaf == t.path[-1]
        assert np.isclose(t.shares.sum(), 1.0)


def test_steps_name_each_test_and_the_branch_taken(german):
    clf, X = german
    t = trace_values(clf, {c: X[c].iloc[0] for c in X.columns})
    assert list(t.steps["node"]) == t.path
    root = clf.tree_.nodes[0].split
    assert t.steps["test"].iloc[0].startswith(root.feature)
    assert t.steps["branch"].iloc[0] in root.branch_labels
    assert t.steps["test"].iloc[-1] == "leaf"
    assert "predicted" in t.text()


def test_missing_values_follow_the_trees_missing_rule(with_missing):
    clf, X = with_missing
    for size, colour in [(None, "red"), (0.7, None), (np.nan, MISSING), (-1.0, "blue")]:
        t = trace_values(clf, {"size": size, "colour": colour})
        frame = pd.DataFrame(
            {
                "size": [np.nan if size is None else size],
                "colour": pd.Series([None if colour == MISSING else colour], dtype=object),
            }
        )
        assert t.path == clf.decision_paths(frame)[0]
    t = trace_values(clf, {"size": None, "colour": "red"})
    if clf.tree_.nodes[0].split.feature == "size":
        assert t.steps["value"].iloc[0] == "missing"


def test_numbers_as_text_and_categories_by_their_text():
    X = pd.DataFrame({"a": [1.0, 2, 3, 4, 5, 6], "code": [1, 1, 2, 2, 3, 3]})
    X["code"] = X["code"].astype(object)  # integer categories
    clf = TreeClassifier().fit(X, list("aabbcc"))
    row = row_from_values(clf, {"a": "2.5", "code": "2"})
    assert row["a"].iloc[0] == 2.5 and row["code"].iloc[0] == 2
    assert row_from_values(clf, {"a": "2,5", "code": 2})["a"].iloc[0] == 2.5


@pytest.mark.parametrize(
    "values, words",
    [
        ({"size": "big", "colour": "red"}, "'size'.*not a number"),
        ({"size": float("inf"), "colour": "red"}, "'size'.*not a finite number"),
        ({"size": True, "colour": "red"}, "'size'.*not a number"),
        ({"size": 1.0, "colour": "purple"}, "'colour'.*not a value of this column.*'blue'"),
        ({"size": 1.0}, "no value for 'colour'"),
        ({"size": 1.0, "colour": "red", "weight": 3}, "'weight' not a feature"),
    ],
)
def test_values_the_column_cannot_take_are_named(with_missing, values, words):
    clf, _ = with_missing
    with pytest.raises(ValueError, match=words):
        row_from_values(clf, values)


def test_not_a_mapping_and_not_fitted():
    with pytest.raises(TypeError, match="values: expected a mapping"):
        row_from_values(TreeClassifier().fit([[0.0], [1.0]], [0, 1]), [1.0])
    with pytest.raises(ValueError, match="not fitted"):
        row_from_values(TreeClassifier(), {"x0": 1.0})
