"""ForestClassifier's class_weight with scikit-learn's meanings (issue 35): ``"balanced"``
weighs the classes by n / (q n_c) of the whole training set, ``"balanced_subsample"`` by the
same rule on each tree's bootstrap sample (the forest's former ``"balanced"``)."""

import numpy as np
import pandas as pd
import pytest

from offcenter.ensemble.forest import ForestClassifier


def _data():
    rng = np.random.default_rng(3)
    y = np.array([0] * 45 + [1] * 12 + [2] * 3)
    X = pd.DataFrame({"a": rng.normal(size=60) + y, "b": rng.normal(size=60)})
    return X, y


def _forest(class_weight):
    X, y = _data()
    f = ForestClassifier(
        n_estimators=4,
        stratified=False,
        class_weight=class_weight,
        max_depth=2,
        random_state=1,
        n_jobs=1,
    )
    return f.fit(X, y), y


def test_balanced_weighs_by_the_whole_training_set():
    f, y = _forest("balanced")
    whole = len(y) / (3 * np.bincount(y))
    for tree, idx in zip(f.estimators_, f.samples_):
        drawn = np.bincount(y[idx], minlength=3)
        np.testing.assert_allclose(tree.tree_.nodes[0].counts, drawn * whole, rtol=1e-14)


def test_balanced_subsample_weighs_by_each_bootstrap_sample():
    f, y = _forest("balanced_subsample")
    for tree, idx in zip(f.estimators_, f.samples_):
        present = np.bincount(y[idx], minlength=3) > 0
        # each class present in the sample weighs m / q in all
        want = np.where(present, len(idx) / present.sum(), 0.0)
        np.testing.assert_allclose(tree.tree_.nodes[0].counts, want, rtol=1e-14)


def test_the_two_differ_on_a_plain_bootstrap_and_agree_on_a_stratified_one():
    a, _ = _forest("balanced")
    b, _ = _forest("balanced_subsample")
    assert any(
        not np.allclose(s.tree_.nodes[0].counts, t.tree_.nodes[0].counts)
        for s, t in zip(a.estimators_, b.estimators_)
    )
    X, y = _data()
    kw = dict(n_estimators=3, max_depth=3, random_state=0, n_jobs=1)
    s = ForestClassifier(class_weight="balanced", **kw).fit(X, y)
    t = ForestClassifier(class_weight="balanced_subsample", **kw).fit(X, y)
    np.testing.assert_allclose(s.predict_proba(X), t.predict_proba(X), atol=1e-12)


def test_a_bad_class_weight_is_refused_with_the_choices():
    X, y = _data()
    with pytest.raises(ValueError, match="balanced_subsample"):
        ForestClassifier(class_weight="balancd").fit(X, y)
