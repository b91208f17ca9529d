"""The way in for forests: ``offcenter.from_sklearn`` reads a fitted RandomForestClassifier or
ExtraTreesClassifier; the forest predicts as scikit-learn's and every tree is inspectable under
every measure setting.

Reference: scikit-learn's own trees. Each converted tree's node counts, recomputed from the
rows it was grown on (its bootstrap sample as row weights), must equal scikit-learn's
``tree_.value * weighted_n_node_samples`` (a UserWarning otherwise: turned into an error here).
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.ensemble import (
    ExtraTreesClassifier,
    GradientBoostingClassifier,
    RandomForestClassifier,
)

import offcenter as oc
from offcenter import ForestClassifier, TreeClassifier, comparison_settings
from offcenter.tree.inspect import agreement


def _data(name):
    loader = {"iris": load_iris, "cancer": load_breast_cancer}[name]
    X, y = loader(return_X_y=True, as_frame=True)
    return X.astype(np.float32).astype(np.float64), y


def _counts_of(sk_tree, ids):
    t = sk_tree.tree_
    return (t.value[:, 0, :] * t.weighted_n_node_samples[:, None])[ids]


CASES = [
    ("iris", RandomForestClassifier, {}),
    ("iris", ExtraTreesClassifier, {"bootstrap": True}),
    ("iris", ExtraTreesClassifier, {}),  # no bootstrap: every row once
    ("cancer", RandomForestClassifier, {"criterion": "entropy", "max_samples": 0.5}),
    ("cancer", RandomForestClassifier, {"class_weight": "balanced_subsample"}),
    ("cancer", RandomForestClassifier, {"class_weight": "balanced", "max_depth": 4}),
    ("iris", RandomForestClassifier, {"class_weight": {0: 1.0, 1: 3.0, 2: 0.5}}),
]


@pytest.mark.parametrize("data,cls,params", CASES)
def test_forest_reads_back_equal(data, cls, params):
    X, y = _data(data)
    sk = cls(n_estimators=6, random_state=1, **params).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # counts differing from tree_.value
        forest = oc.from_sklearn(sk, X, y)
    assert isinstance(forest, ForestClassifier) and forest.voting == "soft"
    assert forest.predict(X).tolist() == sk.predict(X).tolist()
    np.testing.assert_allclose(forest.predict_proba(X), sk.predict_proba(X), atol=1e-12)
    assert len(forest.estimators_) == 6
    for mine, theirs in zip(forest.estimators_, sk.estimators_):
        assert isinstance(mine, TreeClassifier)
        counts = np.stack([nd.counts for nd in mine.tree_.nodes])
        np.testing.assert_allclose(counts, _counts_of(theirs, mine.sklearn_ids_), rtol=1e-9)
        assert (
            mine.apply(X).tolist()
            == mine.sklearn_ids_.argsort()[theirs.apply(X.to_numpy())].tolist()
        )


def test_sample_weight_is_followed():
    X, y = _data("cancer")
    sw = np.random.default_rng(0).uniform(0.2, 3.0, len(y))
    sk = RandomForestClassifier(n_estimators=4, random_state=0).fit(X, y, sample_weight=sw)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        forest = oc.from_sklearn(sk, X, y, sample_weight=sw)
    assert forest.predict(X).tolist() == sk.predict(X).tolist()


def test_every_tree_inspectable_under_every_setting():
    X, y = _data("cancer")
    sk = RandomForestClassifier(n_estimators=3, max_depth=3, random_state=0).fit(X, y)
    forest = oc.from_sklearn(sk, X, y)
    keys = [s.key for s in comparison_settings()]
    for i, tree in enumerate(forest.estimators_):
        # the tree's rows: its bootstrap sample (distinct rows) and no other
        assert tree.node_indices(0).tolist() == np.unique(forest.samples_[i]).tolist()
        for node in (0, 1):
            own = tree.own_optima(node, keys)
            assert set(own["setting_key"]) >= set(keys)
            assert agreement(own).text
        gains = tree.threshold_gains(0, tree.tree_.nodes[0].split.feature)
        assert len(gains) > 0
        # scikit-learn's split at the root is the Gini setting's own best among all features
        # or a feature the tree did not draw (max_features="sqrt"): its gain is never above
        best = tree.own_optima(0, ["gini"])
        top = best[best["setting_key"] == "gini"]["gain"].max()
        assert tree.tree_.nodes[0].split.gain <= top + 1e-12
        regrown = tree.regrow(1, measure="shannon", theta="prior")
        assert regrown.tree_.nodes[1].setting_key == "oc_shannon"


def test_without_data_the_forest_predicts():
    X, y = _data("iris")
    sk = RandomForestClassifier(n_estimators=4, random_state=0).fit(X, y)
    forest = oc.from_sklearn(sk)
    assert forest.predict(X).tolist() == sk.predict(X).tolist()
    assert forest.estimators_[0].training_data_ is None


def test_dataframe_names_and_arrays():
    X, y = _data("iris")
    sk = RandomForestClassifier(n_estimators=3, random_state=0).fit(X.to_numpy(), y)
    forest = oc.from_sklearn(sk, X.to_numpy(), y.to_numpy())
    assert forest.predict(X.to_numpy()).tolist() == sk.predict(X.to_numpy()).tolist()
    assert not hasattr(forest, "feature_names_in_")


def test_refusals():
    X, y = _data("iris")
    with pytest.raises(TypeError, match="RandomForestClassifier or ExtraTreesClassifier"):
        oc.from_sklearn(GradientBoostingClassifier(n_estimators=2).fit(X, y))
    with pytest.raises(ValueError, match="not fitted"):
        oc.from_sklearn(RandomForestClassifier())
    sk = RandomForestClassifier(n_estimators=2, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="both X and y"):
        oc.from_sklearn(sk, X)
    multi = RandomForestClassifier(n_estimators=2).fit(X, pd.DataFrame({"a": y, "b": y}))
    with pytest.raises(ValueError, match="single-output"):
        oc.from_sklearn(multi)
    from offcenter.tree import from_sklearn as tree_only

    with pytest.raises(TypeError, match="offcenter.from_sklearn"):
        tree_only(sk)


def test_voting_parameter():
    X, y = _data("iris")
    hard = ForestClassifier(n_estimators=5, random_state=0, n_jobs=1).fit(X, y)
    soft = ForestClassifier(n_estimators=5, random_state=0, n_jobs=1, voting="soft").fit(X, y)
    assert soft.predict(X).tolist() == soft.classes_[soft.predict_proba(X).argmax(1)].tolist()
    assert (hard.predict_proba(X) == soft.predict_proba(X)).all()
    with pytest.raises(ValueError, match="voting must be"):
        ForestClassifier(voting="mean").fit(X, y)
