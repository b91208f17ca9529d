"""Monotonic constraints (``monotonic_cst``) as scikit-learn defines them.

- node by node against ``DecisionTreeClassifier(monotonic_cst=...)`` on hypothesis-drawn data
  (the model: :mod:`tests.tree.test_sklearn_equivalence`): equal rows, weights, impurities,
  gains and clipped values everywhere; where the two choose different splits of equal gain
  (scikit-learn draws its feature order at random), scikit-learn's is forced on ours with
  ``with_split`` (which regrows below it within the node's bounds) and the walk goes on;
- predictions monotone in every constrained feature under every measure (off-centered ones
  included), for the tree and the forest;
- the refusals (multiclass, categorical, wrong length), pickling, edits.
"""

from __future__ import annotations

import pickle

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from sklearn.tree import DecisionTreeClassifier

from offcenter import ForestClassifier, TreeClassifier
from offcenter.tree import monotonic
from tests.tree.test_reference import _sk_gain
from tests.tree.test_sklearn_equivalence import _examples


def _match_monotonic(X, y, cst, criterion, sample_weight=None, on_tie=None, **shared):
    """Walk ours and scikit-learn's constrained trees; returns (nodes compared, ties)."""
    X = np.asarray(X, dtype=np.float32).astype(np.float64)  # sklearn reads float32
    sk = DecisionTreeClassifier(
        criterion=criterion, monotonic_cst=cst, random_state=0, **shared
    ).fit(X, y, sample_weight=sample_weight)
    ours = TreeClassifier(criterion=criterion, monotonic_cst=cst, min_gain=-np.inf, **shared)
    ours = ours.fit(X, y, sample_weight=sample_weight)
    t = sk.tree_
    ties = 0
    while True:
        queue, compared, forced = [(0, 0)], 0, False
        while queue:
            a, b = queue.pop(0)
            node = ours.tree_.nodes[b]
            assert node.n == t.n_node_samples[a]
            assert node.weighted_n == pytest.approx(t.weighted_n_node_samples[a], rel=1e-12)
            assert node.impurity == pytest.approx(t.impurity[a], abs=1e-9)
            # the node's value, clipped to its bounds (scikit-learn's tree_.value)
            np.testing.assert_allclose(node.proba, t.value[a][0], rtol=0, atol=1e-12)
            if t.children_left[a] == -1:
                assert node.is_leaf
                continue
            assert not node.is_leaf
            compared += 1
            assert node.split.gain == pytest.approx(_sk_gain(t, a), abs=1e-9)
            same = node.split.feature_index == t.feature[a] and node.split.threshold == (
                pytest.approx(t.threshold[a], abs=1e-9)
            )
            if not same:  # a tie: scikit-learn's feature order is random
                ties += 1
                if on_tie is not None:
                    on_tie()
                ours = ours.with_split(b, int(t.feature[a]), threshold=float(t.threshold[a]))
                forced = True
                break
            queue += [
                (t.children_left[a], node.children[0]),
                (t.children_right[a], node.children[1]),
            ]
        if not forced:
            break
    assert len(ours.tree_) == t.node_count
    np.testing.assert_array_equal(ours.predict(X), sk.predict(X))
    np.testing.assert_allclose(ours.predict_proba(X), sk.predict_proba(X), rtol=0, atol=1e-12)
    return compared, ties


@st.composite
def constrained(draw):
    n = draw(st.integers(min_value=6, max_value=40))
    p = draw(st.integers(min_value=1, max_value=3))
    grid = draw(st.sampled_from([2, 4, 8, 16]))  # few distinct values: ties
    X = np.array(
        draw(st.lists(st.integers(0, grid), min_size=n * p, max_size=n * p)), float
    ).reshape(n, p)
    X /= 2.0
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    y[:2] = [0, 1]
    cst = draw(st.lists(st.sampled_from([-1, 0, 1]), min_size=p, max_size=p))
    assume(any(cst))
    kw = {
        "criterion": draw(st.sampled_from(["gini", "entropy"])),
        "max_depth": draw(st.sampled_from([None, 1, 2, 3, 5])),
        "min_samples_split": draw(st.integers(min_value=2, max_value=6)),
        "min_samples_leaf": draw(st.integers(min_value=1, max_value=4)),
        "max_leaf_nodes": draw(st.sampled_from([None, None, 3, 6])),
        # dyadic weights: every sum of weights is exact in both engines (see the test)
        "class_weight": draw(st.sampled_from([None, None, {0: 1.0, 1: 4.0}, {0: 0.5, 1: 2.0}])),
    }
    sw = None
    if draw(st.booleans()):
        sw = np.array(draw(st.lists(st.integers(1, 3), min_size=n, max_size=n)), float)
    return X, y, cst, sw, kw


@settings(max_examples=_examples(), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=constrained())
def test_constrained_tree_matches_decision_tree_classifier_node_by_node(case):
    """Weights are integers and powers of two, so that every class sum is exact: scikit-learn
    sums a child's weights as a running sum from the node's first row, ours as a difference of
    one cumulative sum, and where a constraint compares two equal values (children in the
    node's exact proportions, a child on its bound) the rounding of weights such as
    ``"balanced"``'s n / (2 n_c) decides it, differently in each (hypothesis found three)."""
    X, y, cst, sw, kw = case
    kw = dict(kw)
    criterion = kw.pop("criterion")
    tie = None
    if kw["max_leaf_nodes"] is not None:
        # best-first growth splits the node of the largest weighted gain first: two gains
        # equal up to rounding (often zero under a constraint) are ordered by their rounding,
        # which differs between the engines; such examples are discarded, as ties of splits
        whole = {k: v for k, v in kw.items() if k != "max_leaf_nodes"}
        full = TreeClassifier(criterion=criterion, monotonic_cst=cst, min_gain=-np.inf, **whole)
        full.fit(np.asarray(X, np.float32).astype(float), y, sample_weight=sw)
        gains = sorted(nd.split.gain * nd.weighted_n for nd in full.tree_.nodes if nd.split)
        assume(bool(np.all(np.diff(gains) > 1e-9)))
        tie = lambda: assume(False)  # noqa: E731
    _match_monotonic(X, y, cst, criterion, sw, on_tie=tie, **kw)


def _data(n=400, seed=0):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, 3)), 2)
    # the positive class rises with x0, falls with x1, and x2 is noise with a bump
    logit = 1.5 * X[:, 0] - X[:, 1] + np.sin(3 * X[:, 2])
    y = (logit + rng.normal(size=n) > 1.2).astype(int)  # about a fifth positive
    return X, y


@pytest.mark.parametrize(
    "criterion,seed", [("gini", 0), ("entropy", 1), ("gini", 2), ("log_loss", 3)]
)
def test_matches_decision_tree_classifier_on_larger_data(criterion, seed):
    X, y = _data(seed=seed)
    compared, ties = _match_monotonic(X, y, [1, -1, 0], criterion)
    assert compared >= 10
    unconstrained = DecisionTreeClassifier(criterion=criterion, random_state=0).fit(X, y)
    constrained_ = TreeClassifier(criterion=criterion, monotonic_cst=[1, -1, 0]).fit(X, y)
    # the constraint bites: the probabilities are not the unconstrained tree's
    assert not np.allclose(constrained_.predict_proba(X), unconstrained.predict_proba(X))


def _assert_monotone(model, X, cst, grid_size=25):
    """predict_proba[:, 1] never moves against cst[j] as x_j alone goes up, from every row."""
    for j, c in enumerate(cst):
        if c == 0:
            continue
        grid = np.linspace(X[:, j].min() - 1, X[:, j].max() + 1, grid_size)
        rows = np.repeat(X, grid_size, axis=0)
        rows[:, j] = np.tile(grid, len(X))
        p = model.predict_proba(rows)[:, 1].reshape(len(X), grid_size)
        steps = np.diff(p, axis=1) * c
        assert steps.min() >= -1e-12, (j, c, steps.min())
        # the predicted class moves the same way (majority or prior rule)
        k = (model.predict(rows) == model.classes_[1]).reshape(len(X), grid_size)
        assert (np.diff(k.astype(int), axis=1) * c).min() >= 0


SETTINGS = [
    {"measure": "shannon", "theta": "prior"},
    {"measure": "gini", "theta": "prior", "leaf_rule": "prior"},
    {"measure": "asymmetric", "consistent": True},
    {"measure": "shannon", "theta": "prior", "alpha": 0.5},
    {"measure": "hellinger"},
    {"measure": "shannon", "theta": [0.9, 0.1], "leaf_estimate": "laplace"},
]


@settings(max_examples=_examples(), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    setting=st.sampled_from(SETTINGS),
    cst=st.lists(st.sampled_from([-1, 0, 1]), min_size=3, max_size=3).filter(any),
    depth=st.sampled_from([None, 2, 4]),
)
def test_predictions_are_monotone_in_constrained_features_under_every_measure(
    seed, setting, cst, depth
):
    X, y = _data(n=150, seed=seed)
    clf = TreeClassifier(monotonic_cst=cst, max_depth=depth, min_gain=-np.inf, **setting)
    clf.fit(X, y)
    _assert_monotone(clf, X[:40], cst)
    # the constraint only removes candidates: every split on a constrained feature is
    # admissible within its node's bounds
    nodes = clf.tree_.nodes
    bounds = monotonic.tree_bounds(nodes, np.asarray(cst))
    for nd in nodes:
        if nd.split is not None and cst[nd.split.feature_index]:
            kids = [nodes[c].counts for c in nd.children]
            assert monotonic.split_admissible(cst[nd.split.feature_index], bounds[nd.id], *kids)


@pytest.mark.parametrize("setting", SETTINGS[:3], ids=["oc_shannon", "oc_gini", "asym"])
def test_the_measure_picks_among_the_admissible_splits(setting):
    """The constraint only removes candidates: the root's split is the admissible one of the
    highest gain under the tree's own (off-centered) measure, by brute force over every
    threshold of every feature."""
    X, y = _data(n=300, seed=5)
    cst = [-1, 1, 0]  # against the data's directions
    clf = TreeClassifier(monotonic_cst=cst, max_depth=1, **setting).fit(X, y)
    imp = clf.impurity_
    whole = np.bincount(y, minlength=2).astype(float)
    best, best_any = -np.inf, -np.inf
    for j, c in enumerate(cst):
        v = np.unique(X[:, j])
        for lo, hi in zip(v[:-1], v[1:]):
            left = X[:, j] <= (lo + hi) / 2
            L = np.bincount(y[left], minlength=2).astype(float)
            R = whole - L
            gain = float(
                imp.of_counts(whole[None])[0]
                - (L.sum() * imp.of_counts(L[None])[0] + R.sum() * imp.of_counts(R[None])[0])
                / whole.sum()
            )
            best_any = max(best_any, gain)
            if monotonic.split_admissible(c, (-np.inf, np.inf), L, R):
                best = max(best, gain)
    root = clf.tree_.nodes[0].split
    assert root.gain == pytest.approx(best, abs=1e-12)
    assert best < best_any  # on this data the constraint removes the measure's favourite


def test_forest_passes_the_constraint_to_its_trees():
    X, y = _data(n=300, seed=7)
    forest = ForestClassifier(
        n_estimators=5, monotonic_cst=[1, -1, 0], random_state=0, n_jobs=1, max_features=2
    ).fit(X, y)
    for tree in forest.estimators_:
        assert list(tree.monotonic_cst) == [1, -1, 0]
        _assert_monotone(tree, X[:20], [1, -1, 0])
    _assert_monotone(forest, X[:20], [1, -1, 0])  # an average of monotone trees


def test_refusals_are_clear():
    X, y = _data(n=60)
    with pytest.raises(ValueError, match="two classes only"):
        TreeClassifier(monotonic_cst=[1, 0, 0]).fit(X, np.arange(60) % 3)
    with pytest.raises(ValueError, match="3 features"):
        TreeClassifier(monotonic_cst=[1, 0]).fit(X, y)
    with pytest.raises(ValueError, match="-1, 0 and 1"):
        TreeClassifier(monotonic_cst=[2, 0, 0]).fit(X, y)
    df = pd.DataFrame({"a": X[:, 0], "colour": np.where(X[:, 1] > 0, "red", "blue")})
    with pytest.raises(ValueError, match="numeric features only: 'colour' is categorical"):
        TreeClassifier(monotonic_cst=[0, 1]).fit(df, y)
    TreeClassifier(monotonic_cst=[1, 0]).fit(df, y)  # the numeric one may be constrained
    # no constraint at all is the unconstrained tree
    a = TreeClassifier(monotonic_cst=[0, 0, 0]).fit(X, y)
    b = TreeClassifier().fit(X, y)
    assert a.to_dict()["nodes"] == b.to_dict()["nodes"]


def test_pickles_and_edits_keep_the_constraint():
    X, y = _data(n=300, seed=3)
    clf = TreeClassifier(monotonic_cst=[1, -1, 0], theta="prior", max_depth=4).fit(X, y)
    again = pickle.loads(pickle.dumps(clf))
    np.testing.assert_array_equal(again.predict_proba(X), clf.predict_proba(X))
    # a regrown branch stays within its node's bounds
    node = clf.tree_.nodes[0].children[1]
    regrown = clf.regrow(node, measure="gini", theta=None, max_depth=6)
    _assert_monotone(regrown, X[:20], [1, -1, 0])
    # a forced split that breaks the constraint is refused with the reason
    against = TreeClassifier(monotonic_cst=[-1, 1, 0], max_depth=2).fit(X, y)
    with pytest.raises(ValueError, match="breaks monotonic_cst"):  # p rises with x0 here
        against.with_split(0, "x0", threshold=float(np.median(X[:, 0])))
    clf.with_split(0, "x1")  # the best admissible split of x1


def test_inspection_searches_the_admissible_splits():
    """candidates, own_optima and with_split(feature) search what the growth searched; the
    thresholds' table says which are admissible."""
    X, y = _data(n=300, seed=5)
    cst = [-1, 1, 0]
    clf = TreeClassifier(monotonic_cst=cst, theta="prior", max_depth=3).fit(X, y)
    nodes = clf.tree_.nodes
    bounds = monotonic.tree_bounds(nodes, np.array(cst))
    for nd in nodes:
        if nd.split is None:
            continue
        cand = clf.candidates(nd.id)
        row = cand[cand["chosen"]].iloc[0]
        assert row["threshold"] == pytest.approx(nd.split.threshold)  # the tree's own split
        for j in (0, 1):
            if np.isnan(cand["threshold"][j]):  # no admissible split of x_j here
                continue
            edited = clf.with_split(nd.id, f"x{j}").tree_.nodes
            counts = [edited[k].counts for k in edited[nd.id].children]
            assert monotonic.split_admissible(cst[j], bounds[nd.id], *counts)
    assert "admissible" not in clf.threshold_gains(0, "x2")  # unconstrained
    assert len(clf.own_optima(0)) > 0
    along = TreeClassifier(monotonic_cst=[1, -1, 0], max_depth=4).fit(X, y)
    shares = [
        along.threshold_gains(nd.id, "x0")["admissible"].mean()
        for nd in along.tree_.nodes
        if nd.split is not None
    ]
    assert any(0 < s < 1 for s in shares)  # some thresholds of a node are, some are not
