"""A node's search under many settings scores its features in batches (issue 34, session 16).

``tree.inspect._NodeSearch.best_of_every_feature`` scores every numeric feature's thresholds in
one call per setting (each feature a segment, as the growth scores a level's nodes) and the
categorical features' one-branch-per-value splits in one call per number of values. Each
feature's best split must be the one ``_NodeSearch.best`` finds for that feature alone (the
engine's search, one feature at a time): the same threshold or grouping, children's counts,
gain and score to the last bit, under every compared setting, on numeric, categorical,
missing-valued, weighted and constrained data, with the float32 screening on and off.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from offcenter import TreeClassifier
from offcenter.app.node_settings import node_comparison_settings
from offcenter.data.datasets import DATASETS, load
from offcenter.tree.inspect import _NodeSearch, resolve_settings


def _fields(sp):
    """A SplitChoice as comparable plain values (None: no valid split)."""
    if sp is None:
        return None
    return (
        sp.feature_index,
        sp.kind,
        sp.threshold,
        sp.group_codes,
        sp.groups,
        [np.asarray(c).tolist() for c in sp.child_counts],
        sp.missing_child,
        sp.default_child,
        sp.gain,
        sp.score,
        sp.n_missing,
        sp.labels,
    )


def _check(clf, nodes) -> int:
    """Batched vs one feature at a time on ``nodes`` under every compared setting; returns
    the number of (node, setting, feature) compared."""
    sets = resolve_settings(clf, node_comparison_settings(len(clf.classes_)))
    compared = 0
    for node in nodes:
        batched = _NodeSearch(clf, node)
        for _key, _label, scorer in sets:
            got = batched.best_of_every_feature(scorer)
            alone = _NodeSearch(clf, node)  # nothing prepared by the batch
            st = alone.growth(scorer)
            pi = scorer.node_impurity(alone.node_counts, alone.n)
            want = [alone.best(j, st, pi) for j in range(len(clf.features_))]
            assert [_fields(s) for s in got] == [_fields(s) for s in want], (node, _key)
            compared += len(want)
    return compared


def _spread(clf, k: int = 8) -> list[int]:
    n = len(clf.tree_.nodes)
    return list(range(0, n, max(1, n // k)))


@pytest.mark.parametrize("name", ["pima", "german_credit", "tic_tac_toe", "iris"])
@pytest.mark.parametrize(
    "params",
    [
        {"max_depth": 3},
        {"max_depth": 3, "categorical": "binary"},
        {"max_depth": 3, "min_samples_leaf": 9},
    ],
    ids=["multiway", "binary", "leaf9"],
)
def test_bundled_data_batched_equals_one_feature_at_a_time(name, params):
    df = load(name)
    target = DATASETS[name].target
    clf = TreeClassifier(**params).fit(df.drop(columns=[target]), df[target])
    assert _check(clf, _spread(clf)) > 0


def _random_frame(seed: int, n: int = 400):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(
        {
            "a": rng.normal(size=n).round(1),  # ties: repeated values
            "b": rng.integers(0, 30, n).astype(float),
            "c": rng.choice(["u", "v", "w", "x", "y"], n),
            "d": rng.choice(["p", "q"], n),
            "e": rng.exponential(size=n),  # many distinct values: the float32 screening
        }
    )
    X.loc[rng.random(n) < 0.1, "a"] = np.nan
    X.loc[rng.random(n) < 0.1, "c"] = None
    y = np.where(X["b"] + 10 * (X["c"] == "u") + rng.normal(scale=6, size=n) > 18, "yes", "no")
    y[rng.random(n) < 0.15] = "maybe"  # three classes
    return X, y, rng


@pytest.mark.parametrize("seed", range(4))
def test_missing_values_weights_and_constraints_batched_equals_alone(seed):
    X, y, rng = _random_frame(seed)
    w = rng.uniform(0.2, 3.0, len(y))
    plain = TreeClassifier(max_depth=3, min_samples_leaf=5).fit(X, y)
    weighted = TreeClassifier(max_depth=3).fit(X, y, sample_weight=w)
    binary = (y == "yes").astype(int)
    constrained = TreeClassifier(
        max_depth=3, monotonic_cst=[1, -1, 0, 0, 1], categorical="binary"
    ).fit(X.fillna({"a": 0.0}), binary)
    for clf in (plain, weighted, constrained):
        assert _check(clf, _spread(clf, 5)) > 0
