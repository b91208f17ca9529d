"""The split-scoring interface (offcenter.tree.scoring): the engine's only view of a measure."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import offcenter as oc
from offcenter import ForestClassifier, Impurity, MeasureSetting, TreeClassifier
from offcenter.tree.params import TrainingData, check_tree_params
from offcenter.tree.scoring import (
    CriterionScorer,
    GainScorer,
    LambdaAlphaScorer,
    SplitScorer,
    make_scorer,
)

TREE = Path(oc.__file__).parent / "tree"


@pytest.mark.parametrize(
    "setting,kind",
    [
        (MeasureSetting("shannon"), GainScorer),
        (MeasureSetting("gini", theta="prior", alpha=0.0), LambdaAlphaScorer),
        (MeasureSetting("hellinger"), CriterionScorer),
    ],
)
def test_built_once_from_a_setting_and_the_prior(setting, kind):
    s = SplitScorer.from_setting(setting, [30.0, 10.0])
    assert type(s) is kind
    assert s.alpha == setting.alpha
    if setting.theta == "prior":
        np.testing.assert_allclose(s.impurity.theta, [0.75, 0.25])


def test_a_criterion_takes_no_alpha_one_rule():
    with pytest.raises(ValueError, match="does not apply to the Hellinger"):
        make_scorer(Impurity("hellinger"), 2, 10, alpha=0.5)
    with pytest.raises(ValueError, match="does not apply to the Hellinger"):
        MeasureSetting("hellinger", alpha=0.5)  # the same rule, the same words


counts = st.integers(0, 40)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(counts, counts, counts, counts), min_size=1, max_size=6),
    st.sampled_from([("shannon", None), ("gini", 0.5), ("asymmetric", 1.0), ("hellinger", None)]),
)
def test_pair_multiway_and_table_agree(rows, case):
    name, alpha = case
    L = np.array([[a, b] for a, b, _, _ in rows], np.int64)
    R = np.array([[c, d] for _, _, c, d in rows], np.int64)
    keep = (L.sum(1) > 0) & (R.sum(1) > 0)
    if not keep.any():
        return
    L, R = L[keep], R[keep]
    theta = [0.7, 0.3] if name == "asymmetric" else None
    s = make_scorer(Impurity(name, theta=theta), 2, 200, alpha=alpha)
    T = L + R
    n = T.sum(1)
    ip = s.node_impurity(T, n)
    gain, score = s.pair(L, R, L.sum(1), R.sum(1), ip, n)
    tables = np.stack([L, R], axis=1)
    g_m, s_m = s.multiway(tables, tables.sum(2), ip, n)
    g_t, s_t = s.table(tables)
    np.testing.assert_allclose(gain, g_t, atol=1e-12)
    np.testing.assert_allclose(score, s_t, atol=1e-12)
    np.testing.assert_allclose(g_m, g_t, atol=1e-12)
    np.testing.assert_allclose(s_m, s_t, atol=1e-12)
    if alpha is not None:  # lambda_alpha is the measures' own formula
        ref = oc.lambda_alpha(tables, alpha, name, theta=theta)
        np.testing.assert_allclose(s_t, ref, atol=1e-12)
    if name == "hellinger":
        np.testing.assert_allclose(score, oc.hellinger_split(tables), atol=1e-12)


def test_no_criterion_branch_in_the_engine_outside_the_scorer():
    offenders = []
    for path in TREE.glob("*.py"):
        if path.name == "scoring.py":
            continue
        text = path.read_text(encoding="utf-8")
        for needle in ("is_criterion", ".criterion is", "criterion.pair", "criterion.table"):
            if needle in text:
                offenders.append(f"{path.name}: {needle}")
    assert not offenders


def test_node_setting_key_and_old_json():
    X, y = [[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1]
    clf = TreeClassifier(theta="prior").fit(X, y)
    assert clf.tree_.nodes[0].setting_key == "oc_shannon"
    assert clf.tree_.nodes[0].criterion == "oc_shannon"  # the former name still reads
    d = json.loads(clf.to_json())
    for nd in d["nodes"]:  # a file written before the rename
        nd["criterion"] = nd.pop("setting_key")
    old = TreeClassifier.from_dict(d)
    assert [nd.setting_key for nd in old.tree_.nodes] == ["oc_shannon"] * len(old.tree_)


def test_training_data_is_public_and_frozen():
    X, y = [[0.0], [1.0], [2.0], [3.0]], ["a", "a", "b", "b"]
    clf = TreeClassifier().fit(X, y, sample_weight=[1.0, 2.0, 1.0, 1.0])
    data = clf.training_data_
    assert isinstance(data, TrainingData)
    assert data.n == 4 and data.total_weight == 5.0
    np.testing.assert_array_equal(data.class_counts(np.arange(4), 2), [3.0, 2.0])
    with pytest.raises(AttributeError):
        data.y = None
    loaded = TreeClassifier.from_json(clf.to_json())
    assert loaded.training_data_ is None
    loaded.attach_data(X, y, sample_weight=[1.0, 2.0, 1.0, 1.0])
    np.testing.assert_array_equal(loaded.training_data_.y, data.y)


def test_parameter_checks_are_shared_by_the_forest():
    with pytest.raises(ValueError, match="leaf_rule must be 'majority' or 'prior'; got 'max'"):
        TreeClassifier(leaf_rule="max").fit([[0.0], [1.0]], [0, 1])
    with pytest.raises(ValueError, match="leaf_rule must be 'majority' or 'prior'; got 'max'"):
        ForestClassifier(n_estimators=2, leaf_rule="max", n_jobs=1).fit([[0.0], [1.0]], [0, 1])
    assert check_tree_params({"max_depth": 3, "min_gain": -np.inf}) == {
        "max_depth": 3,
        "min_gain": -np.inf,
    }


def _iris_binary():
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    return X, (y == 2).astype(int)


def test_a_measure_setting_is_kept_whole():
    X, y = _iris_binary()
    s = MeasureSetting("gini", theta="prior", alpha=0.5, class_weight="balanced")
    whole = TreeClassifier(measure=s, max_depth=3).fit(X, y)
    assert whole.setting_ is s  # no dict or JSON round trip inside fit
    kwargs = TreeClassifier(
        measure="gini", theta="prior", alpha=0.5, class_weight="balanced", max_depth=3
    ).fit(X, y)
    a, b = whole.to_dict()["nodes"], kwargs.to_dict()["nodes"]
    assert {nd.pop("setting_key") for nd in a} == {s.key}  # with its "_balanced"
    assert {nd.pop("setting_key") for nd in b} == {"oc_gini_a0.5"}
    assert json.dumps(a) == json.dumps(b)
    back = TreeClassifier.from_json(whole.to_json())
    assert back.measure == s and back.setting_ == s
    np.testing.assert_array_equal(back.predict_proba(X), whole.predict_proba(X))
    from sklearn.base import clone

    assert clone(whole).get_params()["measure"] == s
    plus = TreeClassifier(measure=MeasureSetting("shannon"), alpha=1.0).fit(X, y)
    assert plus.setting_ == MeasureSetting("shannon", alpha=1.0)


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"theta": "prior"}, "give theta in it"),
        ({"consistent": True}, "give consistent in it"),
        ({"alpha": 0.2}, "disagree"),
        ({"class_weight": {0: 2.0}}, "disagree"),
    ],
)
def test_a_measure_setting_and_tree_parameters_that_conflict(kwargs, match):
    X, y = _iris_binary()
    s = MeasureSetting("gini", alpha=0.5, class_weight="balanced")
    with pytest.raises(ValueError, match=match):
        TreeClassifier(measure=s, **kwargs).fit(X, y)


@pytest.mark.parametrize(
    "criterion,measure,key",
    [
        ("gini", "shannon", "gini"),
        ("entropy", "shannon", "shannon"),
        ("log_loss", "shannon", "shannon"),
        ("dkm", "dkm", "dkm"),
        (None, "gini", "gini"),
    ],
)
def test_criterion_names_the_measure(criterion, measure, key):
    X, y = _iris_binary()
    clf = TreeClassifier(criterion=criterion, measure=measure, max_depth=2).fit(X, y)
    assert clf.setting_.key == key


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"criterion": "gini", "measure": "dkm"}, "disagree"),
        ({"criterion": "gini", "measure": MeasureSetting("gini")}, "give criterion in it"),
        ({"criterion": 3}, "criterion must be None"),
        ({"criterion": "squared_error"}, "squared_error"),
        ({"splitter": "random"}, "splitter must be 'best'"),
        ({"max_leaf_nodes": 1}, r"max_leaf_nodes must be an integer >= 2 or None; got 1\."),
        ({"min_impurity_decrease": -0.1}, r"min_impurity_decrease .* got -0.1\."),
    ],
)
def test_sklearn_names_bad_values(kwargs, match):
    X, y = _iris_binary()
    with pytest.raises(ValueError, match=match):
        TreeClassifier(**kwargs).fit(X, y)


def test_the_forest_takes_a_whole_setting_too():
    X, y = _iris_binary()
    s = MeasureSetting("gini", theta="prior", alpha=0.5)
    whole = ForestClassifier(n_estimators=3, measure=s, random_state=0, n_jobs=1).fit(X, y)
    kwargs = ForestClassifier(
        n_estimators=3, measure="gini", theta="prior", alpha=0.5, random_state=0, n_jobs=1
    ).fit(X, y)
    assert whole.setting_ is s
    np.testing.assert_array_equal(whole.predict_proba(X), kwargs.predict_proba(X))
    with pytest.raises(ValueError, match="give theta in it"):
        ForestClassifier(n_estimators=2, measure=s, theta="uniform", n_jobs=1).fit(X, y)
