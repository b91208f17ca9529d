"""The tree engine against the worked examples of the sources and against scikit-learn."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn import datasets
from sklearn.tree import DecisionTreeClassifier

from offcenter import TreeClassifier
from tests.measures.test_reference import EDIBLE as EDIBLE_ROWS

DATA = Path(__file__).resolve().parents[2] / "offcenter" / "data" / "bundled"

# encyclopedia article "Information gain (decision tree)": the gene-mutation data (C = cancer, NC = not)
MUTATIONS = pd.DataFrame(
    {
        "mutation 1": [1, 1, 1, 0, 0, 0, 1],
        "mutation 2": [1, 1, 0, 1, 0, 1, 1],
        "mutation 3": [1, 0, 1, 1, 0, 0, 0],
        "mutation 4": [0, 1, 1, 0, 0, 0, 0],
    }
)
MUTATION_Y = ["C", "C", "C", "C", "NC", "NC", "NC"]

# lecture slides "Entropy and Information Gain": the 16-row "edible" table (one copy, in the
# measures reference tests)
EDIBLE = pd.DataFrame(EDIBLE_ROWS, columns=["color", "size", "shape", "edible"])


def test_information_gain_article_mutation_root_gains():
    clf = TreeClassifier().fit(MUTATIONS, MUTATION_Y)
    cand = clf.candidates(0).set_index("feature")
    gains = cand["gain:shannon"].round(3).to_dict()
    assert gains == {
        "mutation 1": 0.128,
        "mutation 2": 0.006,
        "mutation 3": 0.522,
        "mutation 4": 0.292,
    }
    assert cand.loc["mutation 3", "chosen"]
    assert cand["rank:shannon"].to_dict() == {
        "mutation 1": 3,
        "mutation 2": 4,
        "mutation 3": 1,
        "mutation 4": 2,
    }
    root = clf.tree_.nodes[0]
    assert root.split.feature == "mutation 3"
    assert root.impurity == pytest.approx(0.985228, abs=1e-6)


def test_information_gain_article_mutation_second_level():
    clf = TreeClassifier().fit(MUTATIONS, MUTATION_Y)
    root = clf.tree_.nodes[0]
    absent = clf.tree_.nodes[root.children[0]]  # mutation 3 <= 0.5: 1 C, 3 NC
    assert absent.counts.tolist() == [1, 3]
    assert absent.impurity == pytest.approx(0.811278, abs=1e-6)
    cand = clf.candidates(absent.id).set_index("feature")
    g = cand["gain:shannon"].round(3)
    assert (g["mutation 4"], g["mutation 1"], g["mutation 2"]) == (0.811, 0.311, 0.123)
    assert absent.split.feature == "mutation 4"
    # the tree then classifies the training set perfectly, as the article says
    assert clf.score(MUTATIONS, MUTATION_Y) == 1.0
    # the outside samples NC10 and C15 are both classified NC
    outside = pd.DataFrame([[0, 1, 0, 0], [1, 1, 0, 0]], columns=MUTATIONS.columns)
    assert clf.predict(outside).tolist() == ["NC", "NC"]


def test_lecture_slides_edible_multiway_gains():
    X, y = EDIBLE.drop(columns="edible"), EDIBLE["edible"]
    clf = TreeClassifier(max_depth=1).fit(X, y)
    assert clf.tree_.nodes[0].impurity == pytest.approx(0.988699, abs=1e-6)
    cand = clf.candidates(0).set_index("feature")
    assert cand.loc["size", "gain:shannon"] == pytest.approx(0.105843, abs=1e-6)
    assert cand.loc["color", "gain:shannon"] == pytest.approx(0.035514, abs=1e-6)
    assert cand.loc["shape", "gain:shannon"] == pytest.approx(0.035880, abs=1e-6)
    root = clf.tree_.nodes[0]
    assert root.split.feature == "size" and root.split.kind == "categorical"
    kids = [clf.tree_.nodes[c] for c in root.children]
    assert {k.conditions[0]: round(k.impurity, 6) for k in kids} == {
        "size = Large": 0.954434,
        "size = Small": 0.811278,
    }


def test_iris_first_split():
    iris = datasets.load_iris(as_frame=True)
    X = iris.data
    clf = TreeClassifier(max_depth=1).fit(X, iris.target)
    root = clf.tree_.nodes[0]
    assert root.split.gain == pytest.approx(0.918296, abs=1e-6)
    label = root.split.branch_labels[0]
    # petal length <= 2.45 comes first in column order, and petal width <= 0.8 ties with it
    assert label == "petal length (cm) <= 2.45"
    cand = clf.candidates(0).set_index("feature")
    assert cand.loc["petal width (cm)", "gain:shannon"] == pytest.approx(0.918296, abs=1e-6)
    assert cand.loc["petal width (cm)", "threshold"] == pytest.approx(0.8)
    assert cand.loc["petal width (cm)", "rank:shannon"] == 1
    kids = [clf.tree_.nodes[c] for c in root.children]
    weighted = sum(k.n * k.impurity for k in kids) / root.n
    assert weighted == pytest.approx(0.666667, abs=1e-6)


# ----------------------------------------------------------------------------------------------
# scikit-learn as a peer
# ----------------------------------------------------------------------------------------------


def _sk_gain(t, a):
    left, right = t.children_left[a], t.children_right[a]
    w = t.weighted_n_node_samples
    return t.impurity[a] - (w[left] * t.impurity[left] + w[right] * t.impurity[right]) / w[a]


def _sk_subtree_size(t, a):
    if t.children_left[a] == -1:
        return 1
    return 1 + _sk_subtree_size(t, t.children_left[a]) + _sk_subtree_size(t, t.children_right[a])


def _match_sklearn(
    X,
    y,
    criterion,
    max_depth,
    class_weight=None,
    sample_weight=None,
    min_gain=0.0,
    min_impurity_decrease=0.0,
    max_leaf_nodes=None,
    ours=None,
    on_tie=None,
    **shared,
):
    """Walk both trees; assert equal impurity decreases at every node. Where the two choose
    different but equally good splits (a tie), force sklearn's split on ours with with_split
    and continue, so that the whole trees and the predictions can be compared. Class and
    sample weights, and the ``shared`` parameters of both estimators, are given to both.

    ``ours``: a tree already fitted on (X, y) (a forest's member) instead of one fitted here;
    ``on_tie``: called before a tie is forced (the equivalence suite discards the example there
    when ``max_leaf_nodes`` is set: ``with_split`` regrows below the forced split with a leaf
    budget of its own, so the best-first order cannot be followed past a tie).

    Returns (nodes compared, ties resolved).
    """
    X = np.asarray(X, dtype=np.float32).astype(np.float64)  # sklearn reads float32
    sk = DecisionTreeClassifier(
        criterion=criterion,
        max_depth=max_depth,
        random_state=0,
        class_weight=class_weight,
        min_impurity_decrease=min_impurity_decrease,
        max_leaf_nodes=max_leaf_nodes,
        **shared,
    ).fit(X, y, sample_weight=sample_weight)
    ours = (
        ours
        if ours is not None
        else TreeClassifier(  # scikit-learn's names: criterion, min_impurity_decrease
            criterion=criterion,
            max_depth=max_depth,
            class_weight=class_weight,
            min_gain=min_gain,
            min_impurity_decrease=min_impurity_decrease,
            max_leaf_nodes=max_leaf_nodes,
            **shared,  # min_samples_split, min_samples_leaf, min_weight_fraction_leaf
        ).fit(X, y, sample_weight=sample_weight)
    )
    t = sk.tree_
    ties = 0
    while True:
        queue = [(0, 0)]
        compared = 0
        extra = 0  # sklearn's nodes below its splits of gain ~0 (where ours is a leaf)
        forced = False
        while queue and not forced:
            a, b = queue.pop(0)
            node = ours.tree_.nodes[b]
            assert node.counts.tolist() == t.value[a][0].round(6).tolist() or np.allclose(
                node.counts / node.weighted_n, t.value[a][0], rtol=0, atol=1e-12
            )
            assert node.weighted_n == pytest.approx(t.weighted_n_node_samples[a], rel=1e-12)
            assert node.n == t.n_node_samples[a]
            assert node.impurity == pytest.approx(t.impurity[a], abs=1e-9)
            sk_leaf = t.children_left[a] == -1
            if sk_leaf:
                assert node.is_leaf
                continue
            if node.is_leaf:
                # sklearn also splits when the best gain is 0; we make a leaf (documented)
                # (or splits a pure node whose float impurity is a rounding error above 0:
                # a pure node is a leaf whatever min_gain, even -inf)
                pure = int((node.counts > 0).sum()) <= 1
                assert (min_gain >= 0 or pure) and _sk_gain(t, a) <= 1e-12
                extra += _sk_subtree_size(t, a) - 1
                continue
            compared += 1
            assert node.split.gain == pytest.approx(_sk_gain(t, a), abs=1e-9)
            same = node.split.feature_index == t.feature[
                a
            ] and node.split.threshold == pytest.approx(t.threshold[a], abs=1e-9)
            if not same:
                ties += 1
                if on_tie is not None:
                    on_tie()
                ours = ours.with_split(b, int(t.feature[a]), threshold=float(t.threshold[a]))
                assert ours.tree_.nodes[b].split.gain == pytest.approx(_sk_gain(t, a), abs=1e-9)
                forced = True
                break
            queue += [
                (t.children_left[a], node.children[0]),
                (t.children_right[a], node.children[1]),
            ]
        if not forced:
            break
    assert len(ours.tree_) == t.node_count - extra
    np.testing.assert_array_equal(ours.predict(X), sk.predict(X))
    np.testing.assert_allclose(ours.predict_proba(X), sk.predict_proba(X), atol=1e-12)
    return compared, ties


def _real_sets():
    sets = []
    for loader in (datasets.load_iris, datasets.load_wine, datasets.load_breast_cancer):
        d = loader()
        sets.append((loader.__name__, d.data, d.target))
    for name in ("pima_diabetes", "glass_binary", "ecoli_binary"):
        df = pd.read_csv(DATA / f"{name}.csv")
        sets.append((name, df.iloc[:, :-1].to_numpy(float), df.iloc[:, -1].to_numpy()))
    return sets


@pytest.mark.parametrize("criterion", ["entropy", "gini"])
@pytest.mark.parametrize("max_depth", [3, None])
@pytest.mark.parametrize("name,X,y", _real_sets(), ids=[s[0] for s in _real_sets()])
def test_matches_sklearn(name, X, y, criterion, max_depth):
    compared, ties = _match_sklearn(X, y, criterion, max_depth)
    assert compared >= 1
    assert ties <= compared


@pytest.mark.parametrize("mid", [0.002, 0.02])
@pytest.mark.parametrize("criterion", ["log_loss", "gini"])
@pytest.mark.parametrize("name,X,y", _real_sets(), ids=[s[0] for s in _real_sets()])
def test_matches_sklearn_min_impurity_decrease(name, X, y, criterion, mid):
    """scikit-learn's min_impurity_decrease (weighted decrease W_t / W * gain), node by node."""
    compared, ties = _match_sklearn(X, y, criterion, None, min_impurity_decrease=mid)
    assert compared >= 1
    plain = TreeClassifier(criterion=criterion).fit(X, y)
    fewer = TreeClassifier(criterion=criterion, min_impurity_decrease=mid).fit(X, y)
    assert len(fewer.tree_) <= len(plain.tree_)


@pytest.mark.parametrize("criterion", ["entropy", "gini"])
def test_matches_sklearn_min_impurity_decrease_weighted(criterion):
    name, X, y = _real_sets()[3]  # pima
    cw, sw = _weights("random", y)
    compared, _ = _match_sklearn(X, y, criterion, None, cw, sw, min_impurity_decrease=0.003)
    assert compared >= 1


def _no_tie_sets():
    # the sets whose trees have no tied splits (a tie is resolved by with_split, which does
    # not re-apply max_leaf_nodes below it)
    return [s for s in _real_sets() if s[0] in ("load_wine", "pima_diabetes", "ecoli_binary")]


@pytest.mark.parametrize("max_leaf_nodes", [2, 4, 7, 12])
@pytest.mark.parametrize("criterion", ["entropy", "gini"])
@pytest.mark.parametrize("name,X,y", _no_tie_sets(), ids=[s[0] for s in _no_tie_sets()])
def test_matches_sklearn_max_leaf_nodes(name, X, y, criterion, max_leaf_nodes):
    """scikit-learn's best-first growth: the same nodes, node by node, and predictions."""
    compared, ties = _match_sklearn(X, y, criterion, None, max_leaf_nodes=max_leaf_nodes)
    clf = TreeClassifier(criterion=criterion, max_leaf_nodes=max_leaf_nodes).fit(X, y)
    full = TreeClassifier(criterion=criterion).fit(X, y)
    assert clf.tree_.n_leaves == min(max_leaf_nodes, full.tree_.n_leaves)
    assert compared + ties >= clf.tree_.n_leaves - 1


def test_matches_sklearn_max_leaf_nodes_weighted_and_with_min_impurity_decrease():
    name, X, y = _real_sets()[3]  # pima
    cw, sw = _weights("random", y)
    compared, _ = _match_sklearn(X, y, "gini", None, cw, sw, max_leaf_nodes=9)
    assert compared == 8
    _match_sklearn(X, y, "entropy", None, max_leaf_nodes=20, min_impurity_decrease=0.004)


def _weights(kind, y, seed=0):
    if kind == "balanced":
        return "balanced", None
    rng = np.random.default_rng(seed)
    w = rng.uniform(0.0, 3.0, size=len(y))
    w[rng.random(len(y)) < 0.1] = 0.0  # some rows left out, as by sklearn
    return None, w


@pytest.mark.parametrize("weights", ["balanced", "random"])
@pytest.mark.parametrize("criterion", ["entropy", "gini"])
@pytest.mark.parametrize("max_depth", [4, None])
@pytest.mark.parametrize("name,X,y", _real_sets(), ids=[s[0] for s in _real_sets()])
def test_matches_sklearn_weighted(name, X, y, criterion, max_depth, weights):
    """class_weight="balanced" and random sample weights (some 0): same weighted counts,
    impurities and impurity decreases at every node, same predictions and probabilities."""
    cw, sw = _weights(weights, y)
    compared, ties = _match_sklearn(X, y, criterion, max_depth, cw, sw)
    assert compared >= 1
    assert ties <= compared


def test_matches_sklearn_weighted_both():
    d = datasets.load_wine()
    cw = {0: 2.0, 1: 0.5}  # class 2 weighs 1
    _, sw = _weights("random", d.target, seed=3)
    compared, _ = _match_sklearn(d.data, d.target, "entropy", None, cw, sw)
    assert compared >= 5


XOR_X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 3, dtype=float)
XOR_Y = np.array([0, 1, 1, 0] * 3)


def test_zero_gain_rule():
    """A split is made only when its gain is > min_gain: on XOR data the root's best gain is
    exactly 0, so with min_gain=0 the root is a leaf, while scikit-learn splits it (and then
    separates the classes). With min_gain=-inf the trees are the same at every node."""
    clf = TreeClassifier().fit(XOR_X, XOR_Y)
    assert len(clf.tree_) == 1 and clf.tree_.nodes[0].is_leaf
    sk = DecisionTreeClassifier(criterion="entropy", random_state=0).fit(XOR_X, XOR_Y)
    assert sk.tree_.node_count == 7 and _sk_gain(sk.tree_, 0) == 0.0
    deep = TreeClassifier(min_gain=-np.inf).fit(XOR_X, XOR_Y)
    assert deep.tree_.nodes[0].split.gain == 0.0
    assert deep.score(XOR_X, XOR_Y) == 1.0 and len(deep.tree_) == 7
    compared, _ = _match_sklearn(XOR_X, XOR_Y, "entropy", None, min_gain=-np.inf)
    assert compared == 3
    # a small positive gain is still a split with min_gain=0
    X = np.r_[XOR_X, [[0.0, 0.0]]]
    y = np.r_[XOR_Y, 0]
    assert not TreeClassifier().fit(X, y).tree_.nodes[0].is_leaf


def test_matches_sklearn_without_ties_digits_depth_3():
    d = datasets.load_digits()
    compared, ties = _match_sklearn(d.data, d.target, "entropy", 3)
    assert compared == 7 and ties == 0


@pytest.mark.parametrize(
    "setting",
    ["shannon", "gini", "dkm", "hellinger", "daroczy", "asymmetric", "misclassification"],
)
@pytest.mark.parametrize("weighted", [False, True])
def test_round_off_of_a_zero_gain_is_no_split(setting, weighted):
    """Children in the node's exact class proportions have gain 0 under every impurity, but the
    subtraction of impurities can leave it at 1e-16 to 1e-15: before the fix, 139 of these 1,500
    small cases (Shannon with counts (2, 2) split into (1, 1) and (1, 1) x ... ; DKM on (8, 4)
    split into (2, 1) and (6, 3), a node of a KEEL haberman forest tree where DKM split and
    HDDT, whose score is exactly 0 there, did not) were split on round-off. A gain within 1e-12
    of min_gain is no gain: every such node is a leaf under every setting."""
    for a, b, k in itertools.product(range(1, 5), range(1, 5), range(1, 5)):
        X = np.array([0.0] * (a + b) + [1.0] * (k * (a + b)))[:, None]
        y = np.array([0] * a + [1] * b + [0] * (k * a) + [1] * (k * b))
        sw = np.full(len(y), 3.0) if weighted else None
        clf = TreeClassifier(measure=setting).fit(X, y, sample_weight=sw)
        assert len(clf.tree_) == 1, (a, b, k, clf.tree_.nodes[0].split)
