"""A standing equivalence suite against scikit-learn (issue 35).

Hypothesis draws small data sets (numeric values on a coarse grid, so with ties; duplicated
rows; constant features; two or three classes) and every parameter the two estimators share
(criterion, max_depth, min_samples_split, min_samples_leaf, min_weight_fraction_leaf,
min_impurity_decrease, max_leaf_nodes, class_weight, sample_weight), and compares
:class:`offcenter.TreeClassifier` with :class:`sklearn.tree.DecisionTreeClassifier` node by
node (``_match_sklearn``: equal counts, impurities and gains everywhere; where the two choose
different splits of equal gain, scikit-learn's is forced on ours and the walk goes on), then
the predictions and probabilities. Ours is grown with ``min_gain=-inf`` (it splits a node at
a zero gain, as scikit-learn does; by default it makes a leaf there, documented). With
``max_leaf_nodes`` an example whose trees tie is discarded (see ``_match_sklearn``). The forest: each member tree of a
:class:`offcenter.ForestClassifier` against a ``DecisionTreeClassifier`` fitted on the same
bootstrap sample given as row weights (times the class weights), every feature searched.
Small in the everyday run; ``HYPOTHESIS_PROFILE=thorough`` runs 2,000 examples of each.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from offcenter.ensemble.forest import ForestClassifier
from tests.tree.test_reference import _match_sklearn

#: examples per test in the everyday profiles (dev, ci); thorough: the profile's own count
EVERYDAY = 12


def _examples():
    current = settings().max_examples
    return current if current >= 1000 else EVERYDAY


@st.composite
def data_sets(draw):
    n = draw(st.integers(min_value=6, max_value=30))
    p = draw(st.integers(min_value=1, max_value=3))
    q = draw(st.integers(min_value=2, max_value=3))
    grid = draw(st.sampled_from([2, 4, 8]))  # few distinct values: ties
    X = (
        np.array(
            draw(st.lists(st.integers(0, grid), min_size=n * p, max_size=n * p)), float
        ).reshape(n, p)
        / 2.0
    )
    y = np.array(draw(st.lists(st.integers(0, q - 1), min_size=n, max_size=n)))
    if draw(st.booleans()):  # a constant feature
        X = np.column_stack([X, np.full(n, 1.5)])
    dup = draw(st.integers(min_value=0, max_value=5))  # duplicated rows
    if dup:
        rows = np.array(draw(st.lists(st.integers(0, n - 1), min_size=dup, max_size=dup)))
        X, y = np.vstack([X, X[rows]]), np.concatenate([y, y[rows]])
    y[:q] = np.arange(q)  # every class present
    return X, y


@st.composite
def shared_params(draw, q):
    kw = {
        "criterion": draw(st.sampled_from(["gini", "entropy"])),
        "max_depth": draw(st.sampled_from([None, 1, 2, 3, 5])),
        "min_samples_split": draw(st.integers(min_value=2, max_value=6)),
        "min_samples_leaf": draw(st.integers(min_value=1, max_value=4)),
        "min_weight_fraction_leaf": draw(st.sampled_from([0.0, 0.0, 0.05, 0.15, 0.3])),
        "min_impurity_decrease": draw(st.sampled_from([0.0, 0.0, 0.01, 0.05])),
        "max_leaf_nodes": draw(st.sampled_from([None, None, 2, 3, 5, 8])),
    }
    cw = draw(st.sampled_from([None, "balanced", "dict"]))
    if cw == "dict":
        cw = {c: draw(st.sampled_from([0.5, 1.0, 2.0, 3.0])) for c in range(q)}
    kw["class_weight"] = cw
    return kw


@st.composite
def trees(draw):
    X, y = draw(data_sets())
    kw = draw(shared_params(int(y.max()) + 1))
    kind = draw(st.sampled_from(["none", "ints", "floats"]))
    if kind == "ints":
        sw = np.array(draw(st.lists(st.integers(0, 3), min_size=len(y), max_size=len(y))), float)
        sw[: int(y.max()) + 1] = 1.0  # the class-marking rows keep a weight
    elif kind == "floats":
        sw = np.array(
            draw(
                st.lists(
                    st.sampled_from([0.25, 0.5, 1.0, 1.5, 4.0]), min_size=len(y), max_size=len(y)
                )
            )
        )
    else:
        sw = None
    return X, y, sw, kw


def _compare(X, y, sw, kw):
    kw = dict(kw)
    criterion = kw.pop("criterion")
    max_depth = kw.pop("max_depth")
    cw = kw.pop("class_weight")
    mid = kw.pop("min_impurity_decrease")
    mln = kw.pop("max_leaf_nodes")
    return _match_sklearn(
        X,
        y,
        criterion,
        max_depth,
        cw,
        sw,
        min_impurity_decrease=mid,
        max_leaf_nodes=mln,
        min_gain=-np.inf,  # split at a zero gain, as scikit-learn does (XOR-like nodes)
        on_tie=None if mln is None else (lambda: assume(False)),
        **kw,
    )


@settings(max_examples=_examples(), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=trees())
def test_tree_matches_decision_tree_classifier_node_by_node(case):
    X, y, sw, kw = case
    _compare(X, y, sw, kw)


@st.composite
def forests(draw):
    X, y = draw(data_sets())
    q = int(y.max()) + 1
    kw = draw(shared_params(q))
    kw.pop("max_leaf_nodes")  # kept for the single tree: the forest's trees search it alike
    cw = kw["class_weight"]
    if cw == "balanced":
        kw["class_weight"] = draw(st.sampled_from(["balanced", "balanced_subsample"]))
    stratified = draw(st.booleans())
    seed = draw(st.integers(0, 1000))
    return X, y, kw, stratified, seed


def _pure_node_split_by_round_off():
    """scikit-learn splits a pure node whose float Gini is 7e-15 (two rows of class 0 under
    "balanced" weights); ours is a leaf, also with min_gain=-inf."""
    X = np.zeros((25, 3))
    X[21, 2], X[22, 2] = 0.5, 1.0
    y = np.zeros(25, np.int64)
    y[1] = 1
    kw = {
        "criterion": "gini", "max_depth": None, "min_samples_split": 2, "min_samples_leaf": 1,
        "min_weight_fraction_leaf": 0.0, "min_impurity_decrease": 0.0, "class_weight": "balanced",
    }  # fmt: skip
    return X, y, kw, False, 0


@settings(max_examples=_examples(), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=forests())
@example(case=_pure_node_split_by_round_off())
def test_each_forest_tree_matches_a_decision_tree_on_its_bootstrap_weights(case):
    """The forest cannot share scikit-learn's bootstrap: its draw is its own (stratified by
    default) and its trees grow on the drawn rows themselves (a row drawn twice is two rows,
    for ``min_samples_leaf`` too), where scikit-learn's weigh each row by its draws. So each
    member tree is compared with a ``DecisionTreeClassifier`` fitted on the same drawn rows,
    with the class weights the forest gives it (``"balanced"``: those of the whole training
    set; ``"balanced_subsample"``: ``"balanced"`` on the drawn rows)."""
    X, y, kw, stratified, seed = case
    kw = dict(kw)
    criterion = kw.pop("criterion")
    cw = kw.pop("class_weight")
    forest = ForestClassifier(
        n_estimators=2,
        stratified=stratified,
        max_features=None,
        criterion=criterion,
        class_weight=cw,
        random_state=seed,
        n_jobs=1,
        min_gain=-np.inf,  # split at a zero gain, as scikit-learn does
        **kw,
    ).fit(pd.DataFrame(X), y)
    q = int(y.max()) + 1
    for tree, idx in zip(forest.estimators_, forest.samples_):
        if cw == "balanced":  # the whole training set's weights
            tree_cw = dict(enumerate(len(y) / (q * np.bincount(y, minlength=q))))
        elif cw == "balanced_subsample":  # scikit-learn's "balanced" on the drawn rows
            tree_cw = "balanced"
        else:
            tree_cw = cw
        shared = {k: v for k, v in kw.items() if k not in ("min_impurity_decrease", "max_depth")}
        _match_sklearn(
            X[idx], y[idx], criterion, kw["max_depth"], tree_cw, None,
            min_impurity_decrease=kw["min_impurity_decrease"], ours=tree, min_gain=-np.inf,
            **shared,
        )  # fmt: skip
