"""The DKM impurity (Dietterich, Kearns and Mansour 1996): values, extremes, concavity, skew
insensitivity of its split choice (Drummond and Holte 2000), and trees grown with it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import offcenter as oc
from offcenter.data.datasets import load
from offcenter.measures.registry import MEASURES


def test_hand_computed_values():
    # two classes: 2 sqrt(p (1 - p))
    assert oc.dkm([0.5, 0.5]) == pytest.approx(1.0, abs=1e-15)
    assert oc.dkm([0.9, 0.1]) == pytest.approx(0.6, abs=1e-15)  # 2 sqrt(0.09)
    assert oc.dkm([0.2, 0.8]) == pytest.approx(0.8, abs=1e-15)  # 2 sqrt(0.16)
    assert oc.dkm([9 / 16, 7 / 16]) == pytest.approx(np.sqrt(63) / 8, abs=1e-15)
    # three classes: sum_j sqrt(p_j (1 - p_j))
    expected = np.sqrt(0.5 * 0.5) + np.sqrt(0.3 * 0.7) + np.sqrt(0.2 * 0.8)
    assert oc.dkm([0.5, 0.3, 0.2]) == pytest.approx(expected, abs=1e-15)
    assert expected == pytest.approx(0.5 + 0.458257569 + 0.4, abs=1e-9)
    # vectorised over leading axes
    p = oc.boolean_distribution(np.array([[0.1, 0.5], [0.2, 0.0]]))
    np.testing.assert_allclose(oc.dkm(p), [[0.6, 1.0], [0.8, 0.0]], atol=1e-15)


@pytest.mark.parametrize("q", [2, 3, 5, 10])
def test_zero_at_sure_and_maximum_sqrt_q_minus_1_at_uniform(q):
    for j in range(q):
        assert oc.dkm(np.eye(q)[j]) == 0.0
    assert oc.dkm(np.full(q, 1 / q)) == pytest.approx(np.sqrt(q - 1), abs=1e-12)
    rng = np.random.default_rng(q)
    p = rng.dirichlet(np.ones(q), size=2000)
    assert np.all(oc.dkm(p) <= np.sqrt(q - 1) + 1e-12)
    assert np.all(oc.dkm(p) >= 0.0)


@st.composite
def pairs(draw):
    q = draw(st.integers(2, 6))
    a = draw(arrays(np.float64, q, elements=st.floats(0.0, 1.0)))
    b = draw(arrays(np.float64, q, elements=st.floats(0.0, 1.0)))
    if a.sum() < 1e-6 or b.sum() < 1e-6:
        a, b = np.ones(q), np.eye(q)[0]
    t = draw(st.floats(0.0, 1.0))
    return a / a.sum(), b / b.sum(), t


@given(pairs())
def test_concave(pt):
    p, r, t = pt
    mix = t * p + (1 - t) * r
    mix = mix / mix.sum()
    # sqrt has an infinite slope at 0: a share of 1e-15 moved by one rounding (1e-16) moves
    # sqrt(p_j (1 - p_j)) by about 1e-9 (hypothesis found 5e-11 with p == r), so the tolerance is
    # of the order of sqrt(machine epsilon), not of epsilon.
    assert oc.dkm(mix) >= t * oc.dkm(p) + (1 - t) * oc.dkm(r) - 1e-7


@given(pairs())
def test_symmetric_in_the_classes(pt):
    p, _, _ = pt
    assert oc.dkm(p[::-1]) == pytest.approx(oc.dkm(p), abs=1e-12)


def test_validation():
    with pytest.raises(ValueError, match="sum"):
        oc.dkm([0.5, 0.6])
    with pytest.raises(ValueError):
        oc.dkm([-0.1, 1.1])
    with pytest.raises(ValueError):
        oc.dkm([np.nan, 1.0])


def test_registry_and_setting():
    info = MEASURES["dkm"]
    assert info.function is oc.dkm and info.concave and info.off_centerable
    assert "Dietterich" in info.reference and "Drummond" in info.reference
    s = oc.MeasureSetting("dkm")
    assert (s.key, s.label) == ("dkm", "DKM")
    assert oc.MeasureSetting.parse("dkm") == s
    oc_s = oc.MeasureSetting.parse("oc_dkm")
    assert oc_s.label == "off-centered DKM, θ = prior"
    # off-centered on theta: the maximum moves to theta
    theta = np.array([0.8, 0.2])
    assert oc.off_centered(theta, theta, "dkm") == pytest.approx(1.0)
    imp = oc_s.impurity([80, 20])
    assert float(imp.of_counts([80, 20])) == pytest.approx(1.0)
    assert float(oc.Impurity("dkm").of_counts([9, 1])) == pytest.approx(0.6)


def test_split_choice_does_not_depend_on_the_class_ratio():
    """Two classes: multiplying one class's counts by c multiplies sum_k n_k D(child k), and
    n D(node), by sqrt(c), so the gains of all candidate splits are scaled alike and the
    chosen split is the same (Drummond and Holte 2000). Checked on a tree: class weights
    leave the DKM tree's splits unchanged (Shannon's change)."""
    df = load("pima")
    X, y = df.iloc[:, :-1], df.iloc[:, -1]

    def splits(clf):
        return [
            (nd.split.feature, nd.split.threshold) for nd in clf.tree_.nodes if nd.split is not None
        ]

    plain = oc.TreeClassifier(measure="dkm", max_depth=4).fit(X, y)
    weighted = oc.TreeClassifier(measure="dkm", max_depth=4, class_weight={0: 1, 1: 7}).fit(X, y)
    assert splits(plain) == splits(weighted)
    sh = oc.TreeClassifier(max_depth=4).fit(X, y)
    sh_w = oc.TreeClassifier(max_depth=4, class_weight={0: 1, 1: 7}).fit(X, y)
    assert splits(sh) != splits(sh_w)


@pytest.mark.parametrize("name", ["pima", "iris", "german_credit"])
def test_tree_grows_with_dkm(name):
    df = load(name)
    X, y = df.iloc[:, :-1], df.iloc[:, -1]
    clf = oc.TreeClassifier(measure="dkm", max_depth=4, min_samples_leaf=3).fit(X, y)
    assert sum(nd.split is not None for nd in clf.tree_.nodes) >= 3
    assert clf.score(X, y) > 0.75
    root = clf.tree_.nodes[0]
    assert root.impurity == pytest.approx(float(oc.dkm(root.counts / root.counts.sum())))
    assert root.split.gain > 0
    cand = clf.candidates(0)
    assert cand.loc[cand["chosen"], "rank:dkm"].iloc[0] == 1
