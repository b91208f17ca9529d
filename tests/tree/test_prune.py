"""Minimal cost-complexity pruning of TreeClassifier (offcenter.tree.prune): scikit-learn's
path and pruned trees on the trees that equal scikit-learn's, and the properties of the path
under every measure setting (monotone, optimal subtrees, nested), with edits and JSON."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn import datasets
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils import Bunch

from offcenter import TreeClassifier
from offcenter.tree.prune import prune_nodes, weakest_link

DATA = Path(__file__).resolve().parents[2] / "offcenter" / "data" / "bundled"


def _numeric_sets():
    sets = []
    for loader in (datasets.load_iris, datasets.load_wine, datasets.load_breast_cancer):
        d = loader()
        sets.append((loader.__name__, d.data, d.target))
    for name in ("pima_diabetes", "glass_binary", "ecoli_binary"):
        df = pd.read_csv(DATA / f"{name}.csv")
        sets.append((name, df.iloc[:, :-1].to_numpy(float), df.iloc[:, -1].to_numpy()))
    # sklearn reads X as float32: give both the same values
    return [(n, np.asarray(X, np.float32).astype(np.float64), y) for n, X, y in sets]


SETS = _numeric_sets()
IDS = [s[0] for s in SETS]


def _twins(X, y, criterion, class_weight=None, sample_weight=None):
    """scikit-learn's tree and ours made equal node for node: where the two pick different
    splits of equal gain (a tie: sklearn draws among tied features), sklearn's split is forced
    on ours with with_split (as in tests/tree/test_reference.py); likewise where sklearn
    splits a node of gain 0 (with weights, a pure node whose float impurity is a rounding
    error above 0), which is a leaf of ours."""
    sk = DecisionTreeClassifier(criterion=criterion, random_state=0, class_weight=class_weight)
    sk.fit(X, y, sample_weight=sample_weight)
    ours = TreeClassifier(
        measure="shannon" if criterion == "entropy" else "gini", class_weight=class_weight
    ).fit(X, y, sample_weight=sample_weight)
    t = sk.tree_
    forced = True
    while forced:
        forced = False
        queue = [(0, 0)]
        while queue:
            a, b = queue.pop(0)
            node = ours.tree_.nodes[b]
            if t.children_left[a] == -1:
                assert node.is_leaf
                continue
            if node.is_leaf or not (
                node.split.feature_index == t.feature[a]
                and node.split.threshold == pytest.approx(t.threshold[a], abs=1e-9)
            ):
                ours = ours.with_split(b, int(t.feature[a]), threshold=float(t.threshold[a]))
                forced = True
                break
            queue += [
                (t.children_left[a], node.children[0]),
                (t.children_right[a], node.children[1]),
            ]
    assert len(ours.tree_) == t.node_count
    np.testing.assert_allclose(ours.predict_proba(X), sk.predict_proba(X), rtol=0, atol=1e-12)
    return sk, ours


def _probe_alphas(alphas):
    """Values strictly between distinct consecutive path alphas, and above the last (alphas
    closer than 1e-12 are one value: ties up to rounding may be pruned in another order)."""
    a = np.unique(alphas)
    a = a[np.r_[True, np.diff(a) > 1e-12]]
    mids = (a[:-1] + a[1:]) / 2
    return [*mids.tolist(), float(a[-1]) * 1.5 + 1e-3]


def _same_path(table, sk_path):
    """Same alphas; same impurities, except inside a run of alphas equal to 1e-12 (nodes tied
    up to rounding, pruned in another order: the impurity at the run's end is the same)."""
    a = sk_path.ccp_alphas
    np.testing.assert_allclose(table["alpha"], a, rtol=0, atol=1e-12)
    run_end = np.r_[np.diff(a) > 1e-12, True]
    assert run_end.sum() >= len(a) // 2
    np.testing.assert_allclose(
        table["impurity"][run_end], sk_path.impurities[run_end], rtol=0, atol=1e-12
    )


def _same_tree(ours, sk, X):
    assert len(ours.tree_) == sk.tree_.node_count
    assert ours.tree_.n_leaves == sk.get_n_leaves()
    np.testing.assert_array_equal(ours.predict(X), sk.predict(X))
    np.testing.assert_allclose(ours.predict_proba(X), sk.predict_proba(X), rtol=0, atol=1e-12)
    np.testing.assert_allclose(
        ours.feature_importances_, sk.feature_importances_, rtol=0, atol=1e-12
    )


@pytest.mark.parametrize("criterion", ["entropy", "gini"])
@pytest.mark.parametrize("name,X,y", SETS, ids=IDS)
def test_path_and_pruned_trees_equal_sklearn(name, X, y, criterion):
    """On our tree equal to scikit-learn's: the same pruning path (alphas and impurities to
    1e-12), and pruning at any alpha between path values gives sklearn's ccp_alpha tree (node
    count, leaves, predictions, probabilities, feature importances)."""
    sk, ours = _twins(X, y, criterion)
    a = sk.cost_complexity_pruning_path(X, y)
    table = ours.cp_table()
    assert len(table) == len(a.ccp_alphas) >= 5
    _same_path(table, a)
    for alpha in _probe_alphas(a.ccp_alphas):
        s = DecisionTreeClassifier(criterion=criterion, random_state=0, ccp_alpha=alpha)
        _same_tree(ours.prune(alpha), s.fit(X, y), X)
    assert len(ours.prune(alpha).tree_) == 1  # above the last alpha: the root alone


@pytest.mark.parametrize("criterion", ["entropy", "gini"])
@pytest.mark.parametrize(
    "name,X,y", [SETS[i] for i in (0, 1, 4, 5)], ids=[IDS[i] for i in (0, 1, 4, 5)]
)
def test_fit_path_and_ccp_alpha_equal_sklearn(name, X, y, criterion):
    """The estimator's own cost_complexity_pruning_path and ccp_alpha on these sets (where
    the tied splits do not change the costs): sklearn's path, sklearn's pruned tree sizes."""
    sk = DecisionTreeClassifier(criterion=criterion, random_state=0)
    ours = TreeClassifier(measure="shannon" if criterion == "entropy" else "gini")
    a = sk.cost_complexity_pruning_path(X, y)
    b = ours.cost_complexity_pruning_path(X, y)
    assert isinstance(b, Bunch) and set(b) == {"ccp_alphas", "impurities"}
    assert len(b.ccp_alphas) == len(a.ccp_alphas) >= 5
    np.testing.assert_allclose(b.ccp_alphas, a.ccp_alphas, rtol=0, atol=1e-12)
    np.testing.assert_allclose(b.impurities, a.impurities, rtol=0, atol=1e-12)
    full = ours.fit(X, y)
    for alpha in _probe_alphas(a.ccp_alphas)[::2]:
        s = sk.set_params(ccp_alpha=alpha).fit(X, y)
        o = TreeClassifier(**{**full.get_params(), "ccp_alpha": alpha}).fit(X, y)
        assert len(o.tree_) == s.tree_.node_count and o.tree_.n_leaves == s.get_n_leaves()
        assert o.to_dict()["nodes"] == full.prune(alpha).to_dict()["nodes"]


@pytest.mark.parametrize("weights", ["balanced", "random"])
@pytest.mark.parametrize("criterion", ["entropy", "gini"])
def test_weighted_path_equals_sklearn(criterion, weights):
    """Sample and class weights: R(t) uses the weighted n (scikit-learn's
    weighted_n_node_samples)."""
    name, X, y = SETS[1]  # wine
    rng = np.random.default_rng(5)
    cw, sw = ("balanced", None) if weights == "balanced" else (None, rng.uniform(0, 3, len(y)))
    if sw is not None:
        sw[rng.random(len(y)) < 0.1] = 0.0
    sk, ours = _twins(X, y, criterion, cw, sw)
    a = sk.cost_complexity_pruning_path(X, y, sample_weight=sw)
    _same_path(ours.cp_table(), a)
    for alpha in _probe_alphas(a.ccp_alphas):
        s = DecisionTreeClassifier(
            criterion=criterion, random_state=0, ccp_alpha=alpha, class_weight=cw
        ).fit(X, y, sample_weight=sw)
        _same_tree(ours.prune(alpha), s, X)


# ----------------------------------------------------------------------------------------------
# every measure setting: properties of the path
# ----------------------------------------------------------------------------------------------

SETTINGS = [
    {"theta": "prior"},
    {"measure": "gini", "theta": "prior"},
    {"measure": "shannon", "theta": [0.7, 0.2, 0.1]},
    {"measure": "asymmetric", "theta": "prior"},
    {"measure": "asymmetric", "theta": "prior", "consistent": True},
    {"measure": "daroczy", "beta": 3.0, "theta": "uniform"},
    {"theta": "prior", "alpha": 0.5, "categorical": "multiway"},
]


def _mixed(seed=0, n=150):
    rng = np.random.default_rng(seed)
    y = rng.choice([0, 1, 2], n, p=[0.6, 0.3, 0.1])
    X = pd.DataFrame(
        {
            "a": np.round(rng.normal(size=n) + y, 1),
            "b": np.where(rng.random(n) < 0.1, np.nan, np.round(rng.normal(size=n) - y, 1)),
            "c": rng.choice(["u", "v", "w", None], size=n),
        }
    )
    return X, y


def _costs(clf):
    imp = clf.impurity_.of_counts(np.stack([nd.counts for nd in clf.tree_.nodes]))
    w = clf.tree_.nodes[0].weighted_n
    return {nd.id: nd.weighted_n * float(i) / w for nd, i in zip(clf.tree_.nodes, imp)}


def _leaf_cost(clf):
    r = _costs(clf)
    return sum(r[i] for i in clf.tree_.leaves)


def _optimal_cost(clf, alpha):
    """min over all subtrees of R(T) + alpha |leaves(T)|, by brute-force recursion."""
    r = _costs(clf)
    nodes = clf.tree_.nodes

    def opt(i):
        alone = r[i] + alpha
        if nodes[i].is_leaf:
            return alone
        return min(alone, sum(opt(c) for c in nodes[i].children))

    return opt(0)


@pytest.mark.parametrize("kw", SETTINGS, ids=str)
def test_path_properties_every_setting(kw):
    X, y = _mixed()
    full = TreeClassifier(**kw).fit(X, y)
    assert full.tree_.n_leaves >= 6
    path = full.cost_complexity_pruning_path(X, y)
    alphas, costs = path.ccp_alphas, path.impurities
    assert alphas[0] == 0.0
    assert np.all(np.diff(alphas) >= -1e-15)  # monotone
    assert np.all(np.diff(costs) >= -1e-15)  # each pruning raises the cost
    assert costs[0] == pytest.approx(_leaf_cost(full), abs=1e-12)
    assert costs[-1] == pytest.approx(_costs(full)[0], abs=1e-12)
    # the last alpha prunes to the root; just below it, not
    assert len(TreeClassifier(**kw, ccp_alpha=alphas[-1]).fit(X, y).tree_) == 1
    below = alphas[-1] - 1e-9 * max(alphas[-1], 1e-300)
    if alphas[-2] < below:
        assert len(TreeClassifier(**kw, ccp_alpha=below).fit(X, y).tree_) > 1
    table = full.cp_table()
    previous = None
    for k, a in enumerate(_probe_alphas(alphas)):
        pruned = TreeClassifier(**kw, ccp_alpha=a).fit(X, y)
        # the subtree of the path: the last entry whose alpha is <= a
        j = int(np.flatnonzero(alphas <= a)[-1])
        assert pruned.tree_.n_leaves == table["n_leaves"][j]
        assert _leaf_cost(pruned) == pytest.approx(costs[j], abs=1e-12)
        # ... which is optimal for R_alpha (Breiman et al. 1984, th. 3.10)
        optimal = _optimal_cost(full, a)
        assert _leaf_cost(pruned) + a * pruned.tree_.n_leaves == pytest.approx(optimal, abs=1e-12)
        # and nested: every leaf's conditions are those of a node of the previous subtree
        conds = {nd.conditions for nd in pruned.tree_.nodes}
        if previous is not None:
            assert conds <= previous
        previous = conds
        # the same subtree as pruning the fitted tree afterwards
        assert full.prune(a).to_dict()["nodes"] == pruned.to_dict()["nodes"]
        if k == 1:
            assert pruned.tree_.n_leaves < full.tree_.n_leaves


def test_negative_gains_keep_the_path_monotone():
    """Splits of negative gain (the consistent asymmetric entropy, min_gain=-inf) can have a
    negative effective alpha: pruned by any ccp_alpha > 0; the path starts at that alpha, and
    stays monotone."""
    X, y = _mixed(3)
    clf = TreeClassifier(
        measure="asymmetric", theta="prior", consistent=True, min_gain=-np.inf, max_depth=4
    ).fit(X, y)
    gains = [nd.split.gain for nd in clf.tree_.nodes if not nd.is_leaf]
    assert min(gains) < 0
    path = clf.cost_complexity_pruning_path(X, y)
    assert path.ccp_alphas[0] < 0 and path.ccp_alphas[0] == path.ccp_alphas[1]
    assert np.all(np.diff(path.ccp_alphas) >= -1e-15)
    tiny = TreeClassifier(**{**clf.get_params(), "ccp_alpha": 1e-300}).fit(X, y)
    assert tiny.tree_.n_leaves < clf.tree_.n_leaves
    assert _leaf_cost(tiny) + 1e-300 * tiny.tree_.n_leaves == pytest.approx(
        _optimal_cost(clf, 1e-300), abs=1e-12
    )


def test_cp_table():
    X, y = _mixed()
    clf = TreeClassifier(theta="prior", categorical="binary").fit(X, y)
    t = clf.cp_table()
    assert list(t.columns) == [
        "alpha",
        "n_leaves",
        "n_splits",
        "impurity",
        "rel_impurity",
        "cp",
        "pruned_node",
    ]
    path = clf.cost_complexity_pruning_path(X, y)
    np.testing.assert_array_equal(t["alpha"], path.ccp_alphas)
    np.testing.assert_array_equal(t["impurity"], path.impurities)
    assert t["n_leaves"].iloc[0] == clf.tree_.n_leaves and t["n_leaves"].iloc[-1] == 1
    assert t["n_splits"].iloc[0] == clf.tree_.n_leaves - 1 and t["n_splits"].iloc[-1] == 0
    assert t["rel_impurity"].iloc[-1] == 1.0
    r_root = _costs(clf)[0]
    np.testing.assert_allclose(t["cp"], t["alpha"] / r_root)
    assert pd.isna(t["pruned_node"].iloc[0]) and t["pruned_node"].iloc[-1] == 0
    # multiway splits: n_splits counts internal nodes, not n_leaves - 1
    Xc = X.assign(a=X["a"].round(0).astype(str))
    multi = TreeClassifier().fit(Xc, y).cp_table()
    assert (multi["n_splits"] < multi["n_leaves"] - 1).any()
    # a single-node tree
    one = TreeClassifier(max_depth=0).fit(X, y).cp_table()
    assert len(one) == 1 and one["n_leaves"].tolist() == [1]


@pytest.mark.parametrize("bad", [-0.1, "0.1", math.nan, None, True])
def test_ccp_alpha_validation(bad):
    X, y = _mixed()
    with pytest.raises(ValueError, match="ccp_alpha"):
        TreeClassifier(ccp_alpha=bad).fit(X, y)
    with pytest.raises(ValueError, match="ccp_alpha"):
        TreeClassifier().fit(X, y).prune(bad)


def test_infinite_alpha_is_the_root():
    X, y = _mixed()
    clf = TreeClassifier(ccp_alpha=math.inf).fit(X, y)
    assert len(clf.tree_) == 1 and clf.predict(X).tolist() == [0] * len(y)


# ----------------------------------------------------------------------------------------------
# edits, inspection, JSON
# ----------------------------------------------------------------------------------------------


def _alpha_pruning_some(X, y, **kw):
    path = TreeClassifier(**kw).fit(X, y).cost_complexity_pruning_path(X, y)
    a = np.unique(path.ccp_alphas)
    return float((a[len(a) // 2] + a[len(a) // 2 + 1]) / 2)


def test_edits_of_a_pruned_tree():
    """with_split / regrow grow the edited branch and prune it at their ccp_alpha (the edited
    node keeps its split); make_leaf does not prune; inspection works on pruned nodes."""
    X, y = _mixed()
    kw = {"theta": "prior"}
    a = _alpha_pruning_some(X, y, **kw)
    full = TreeClassifier(**kw).fit(X, y)
    pruned = TreeClassifier(**kw, ccp_alpha=a).fit(X, y)
    assert pruned.tree_.n_leaves < full.tree_.n_leaves
    by_cond = {nd.conditions: nd for nd in full.tree_.nodes}
    # a leaf that pruning made (internal in the full tree): inspection sees its rows
    leaf = next(
        nd for nd in pruned.tree_.nodes if nd.is_leaf and not by_cond[nd.conditions].is_leaf
    )
    cand = pruned.candidates(leaf.id)
    assert len(cand) == 3 and not cand["chosen"].any()
    assert len(pruned.node_indices(leaf.id)) == leaf.n
    # splitting it again: the forced split stays, the branch below is pruned at ccp_alpha
    edited = pruned.with_split(leaf.id, "a")
    node = edited.tree_.nodes[leaf.id]
    assert node.split is not None and node.split.feature == "a"
    grown = full.with_split(by_cond[leaf.conditions].id, "a")  # ccp_alpha=0: not pruned
    g_root = next(nd for nd in grown.tree_.nodes if nd.conditions == leaf.conditions)
    branch = [grown.tree_.nodes[i] for i in grown.tree_.subtree(g_root.id)]
    expected = prune_nodes(
        branch, a, total_weight=grown.tree_.nodes[0].weighted_n, protect=(g_root.id,)
    )
    assert len(expected) < len(branch)
    got = [edited.tree_.nodes[i] for i in edited.tree_.subtree(leaf.id)]
    assert sorted(nd.conditions for nd in got) == sorted(nd.conditions for nd in expected)
    # regrow: pruned at the tree's ccp_alpha, or at the one given
    regrown = pruned.regrow(leaf.id)
    assert not regrown.tree_.nodes[leaf.id].is_leaf  # the edited node is kept
    assert pruned.regrow(leaf.id, ccp_alpha=0.0).tree_.n_leaves > regrown.tree_.n_leaves
    # make_leaf does not prune; the edits are recorded
    ml = edited.make_leaf(leaf.id)
    assert ml.to_dict()["nodes"] == pruned.to_dict()["nodes"]
    assert ml.edits_ == [("with_split", leaf.id, node.split.branch_labels), ("make_leaf", leaf.id)]
    # a branch regrown with another measure: the table's costs are under impurity_
    other = pruned.regrow(0, measure="gini", ccp_alpha=0.0)
    t = other.cp_table()
    assert t["n_leaves"].iloc[0] == other.tree_.n_leaves
    assert t["impurity"].iloc[0] == pytest.approx(_leaf_cost(other), abs=1e-12)
    assert t["impurity"].iloc[-1] == pytest.approx(_costs(other)[0], abs=1e-12)


def test_json_round_trip_of_a_pruned_tree():
    X, y = _mixed()
    a = _alpha_pruning_some(X, y)
    clf = TreeClassifier(ccp_alpha=a).fit(X, y)
    back = TreeClassifier.from_json(clf.to_json())
    assert back.ccp_alpha == a
    assert back.to_dict()["nodes"] == clf.to_dict()["nodes"]
    np.testing.assert_array_equal(back.predict(X), clf.predict(X))
    pd.testing.assert_frame_equal(back.cp_table(), clf.cp_table())
    # prune() needs no training data
    b = TreeClassifier(ccp_alpha=2 * a).fit(X, y)
    assert back.prune(2 * a).to_dict()["nodes"] == b.to_dict()["nodes"]
    assert back.prune(2 * a).edits_ == [("prune", 2 * a)]
    again = TreeClassifier.from_json(back.prune(2 * a).to_json())
    assert again.edits_ == [("prune", 2 * a)]


def test_weakest_link_on_a_branch_protects_nodes():
    X, y = _mixed()
    clf = TreeClassifier().fit(X, y)
    res = weakest_link(clf.tree_.nodes, protect=(0,))
    assert 0 not in res["pruned"] and res["n_leaves"][-1] == len(clf.tree_.nodes[0].children)


# ------------------------------------------------------- predictions along the pruning path
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from offcenter.tree.prune import pruned_predictions  # noqa: E402


@settings(deadline=None, max_examples=25)
@given(
    seed=st.integers(0, 10_000),
    measure=st.sampled_from(["shannon", "gini", "asymmetric", "misclassification"]),
    theta=st.sampled_from([None, 0.2, 0.7]),
    leaf_rule=st.sampled_from(["majority", "prior"]),
    n_classes=st.integers(2, 3),
)
def test_pruned_predictions_equal_each_pruned_tree(seed, measure, theta, leaf_rule, n_classes):
    """One routing and one path give, for every alpha of the path, its geometric midpoints,
    0 and beyond the root's, what ``prune(a).predict`` gives (the inner CVs' shortcut)."""
    rng = np.random.default_rng(seed)
    n = 80
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.integers(0, 4, n).astype(float)})
    y = rng.integers(0, n_classes, n)
    y[:n_classes] = np.arange(n_classes)
    if n_classes > 2 and theta is not None:
        theta = None  # a scalar theta is for two classes
    clf = TreeClassifier(measure=measure, theta=theta, leaf_rule=leaf_rule).fit(X[:60], y[:60])
    path = clf.cp_table()["alpha"].to_numpy(float)
    mids = np.sqrt(np.abs(path[:-1] * path[1:]))
    alphas = [0.0, *path[path > 0].tolist(), *mids.tolist(), float(path[-1]) * 2 + 1.0]
    fast = pruned_predictions(clf, X[60:], alphas)
    for a, got in zip(alphas, fast):
        want = clf.prune(a).predict(X[60:]) if a > 0 else clf.predict(X[60:])
        np.testing.assert_array_equal(got, want, err_msg=f"alpha={a}")
