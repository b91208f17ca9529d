"""One constructor for a fitted tree (offcenter.tree.fitted.set_fitted): a tree grown by fit,
read back from JSON or converted from scikit-learn has the same fitted attributes, and
fittedness is scikit-learn's check_is_fitted."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.validation import check_is_fitted

from offcenter import TreeClassifier
from offcenter.tree.fitted import check_node, copy_fitted, names_given, require_data
from offcenter.tree.sklearn_compat import from_sklearn

FITTED = {
    "classes_",
    "n_classes_",
    "features_",
    "n_features_in_",
    "prior_",
    "setting_",
    "impurity_",
    "theta_",
    "tree_",
    "training_data_",
    "edits_",
}


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(3)
    X = pd.DataFrame({"a": rng.normal(size=60), "b": rng.normal(size=60)})
    y = np.where(X["a"] + 0.3 * rng.normal(size=60) > 0, "yes", "no")
    return X, y


def _fitted_names(clf) -> set:
    return {k for k in vars(clf) if k.endswith("_") and not k.startswith("_")}


def test_three_ways_to_a_fitted_tree_give_the_same_attributes(data):
    X, y = data
    grown = TreeClassifier(max_depth=3).fit(X, y)
    loaded = TreeClassifier.from_json(grown.to_json())
    converted = from_sklearn(DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y), X, y)
    for clf in (grown, loaded, converted):
        check_is_fitted(clf)
        assert FITTED <= _fitted_names(clf), FITTED - _fitted_names(clf)
        assert names_given(clf) is True
        assert list(clf.feature_names_in_) == ["a", "b"]
        assert clf.n_classes_ == len(clf.classes_) == 2
    assert grown.training_data_ is not None and converted.training_data_ is not None
    assert loaded.training_data_ is None
    assert "heuristic_groupings_" in _fitted_names(grown)
    np.testing.assert_array_equal(loaded.predict(X), grown.predict(X))


def test_an_unfitted_tree_is_refused_with_scikit_learns_error(data):
    X, _ = data
    clf = TreeClassifier()
    with pytest.raises(NotFittedError):
        clf.predict(X)
    with pytest.raises(NotFittedError):
        require_data(clf)


def test_checks_on_a_fitted_tree(data):
    X, y = data
    clf = TreeClassifier(max_depth=2).fit(X, y)
    for bad in (-1, len(clf.tree_), True, 1.0, "0"):
        with pytest.raises(ValueError, match="does not exist"):
            check_node(clf, bad)
    loaded = TreeClassifier.from_json(clf.to_json())
    with pytest.raises(ValueError, match="attach_data"):
        require_data(loaded)
    copy = copy_fitted(clf)
    copy.edits_.append(("prune", 0.1))
    assert clf.edits_ == [] and copy.training_data_ is clf.training_data_
