"""Property tests (hypothesis) for the invariants of the measures and the off-centering.

A property stated for several measures is one ``@given`` run that checks every measure on each
example (the assertion names the measure): each measure still sees the profile's example count,
and Hypothesis's engine (most of the CPU, the measures being cheap) runs once, not per measure.
Likewise the peaks of the off-centered and asymmetric entropies at theta are one run, and the
named members of the Daroczy and rank-diversity families one run."""

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import offcenter as oc
from offcenter.measures.registry import MEASURES

OFF_CENTERABLE = [
    ("shannon", {}),
    ("gini", {}),
    ("misclassification", {}),
    ("daroczy", {"beta": 0.5}),
    ("daroczy", {"beta": 2.0}),
    ("daroczy", {"beta": 5.0}),
    ("rank_diversity", {"rho": 0.0}),
    ("rank_diversity", {"rho": 1.0}),
]


@st.composite
def distributions(draw, q=None, min_q=2, max_q=6, strictly_positive=False):
    q = q or draw(st.integers(min_q, max_q))
    low = 1e-3 if strictly_positive else 0.0
    w = draw(arrays(np.float64, q, elements=st.floats(low, 1.0)))
    assume(w.sum() > 1e-6)
    return w / w.sum()


@st.composite
def dist_and_theta(draw, min_q=2, max_q=6):
    q = draw(st.integers(min_q, max_q))
    p = draw(distributions(q=q))
    theta = draw(distributions(q=q, strictly_positive=True))
    assume(np.all((theta > 1e-3) & (theta < 1 - 1e-3)))
    return p, theta


def base(measure, params, p):
    return MEASURES[measure].function(p, **params)


@given(pt=dist_and_theta())
def test_off_centered_and_asymmetric_peak_at_theta(pt):
    p, theta = pt
    q = len(p)
    for measure, params in OFF_CENTERABLE:
        peak = oc.off_centered(theta, theta, measure, **params)
        assert peak == pytest.approx(base(measure, params, np.full(q, 1 / q)), abs=1e-9), measure
        assert oc.off_centered(p, theta, measure, **params) <= peak + 1e-9, (measure, params)
    # the asymmetric entropy peaks at theta too, with the value one
    assert oc.asymmetric(theta, theta) == pytest.approx(1.0, abs=1e-12)
    assert oc.asymmetric(p, theta) <= 1.0 + 1e-12


@given(q=st.integers(2, 7), j=st.integers(0, 6), theta=distributions(strictly_positive=True))
def test_zero_at_sure_distributions(q, j, theta):
    sure = np.zeros(q)
    sure[j % q] = 1.0
    for measure, params in OFF_CENTERABLE:
        assert base(measure, params, sure) == pytest.approx(0.0, abs=1e-12), (measure, params)
        if len(theta) == q and np.all(theta < 1 - 1e-9):
            off = oc.off_centered(sure, theta, measure, **params)
            assert off == pytest.approx(0.0, abs=1e-12), (measure, params)
            assert oc.asymmetric(sure, theta) == pytest.approx(0.0, abs=1e-12)


@given(pt=dist_and_theta(), n=st.floats(1, 1e4))
def test_consistent_asymmetric_positive_on_sure_distribution(pt, n):
    _, theta = pt
    sure = np.zeros(len(theta))
    sure[0] = 1.0
    assert oc.asymmetric(sure, theta, n=n) > 0.0


def test_consistent_asymmetric_tends_to_plain():
    p, theta = [0.7, 0.3], [0.8, 0.2]
    plain = oc.asymmetric(p, theta)
    diffs = [abs(oc.asymmetric(p, theta, n=n) - plain) for n in (10, 100, 1e4, 1e7)]
    assert diffs == sorted(diffs, reverse=True) and diffs[-1] < 1e-5


@given(p=distributions())
def test_off_center_is_identity_at_uniform_theta(p):
    q = len(p)
    np.testing.assert_allclose(oc.off_center(p, np.full(q, 1 / q)), p, atol=1e-12)


@given(pt=dist_and_theta())
def test_off_center_is_a_distribution_sending_theta_to_uniform(pt):
    p, theta = pt
    pi = oc.off_center(p, theta)
    assert np.all(pi >= 0) and pi.sum() == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(oc.off_center(theta, theta), np.full(len(p), 1 / len(p)), atol=1e-12)


@given(p=distributions(), eps=st.floats(1e-12, 1e-6))
def test_daroczy_tends_to_shannon_at_beta_one(p, eps):
    h = oc.shannon(p)
    assert oc.daroczy(p, 1.0) == h
    assert oc.daroczy(p, 1.0 + eps) == pytest.approx(h, abs=10 * eps + 1e-12)
    assert oc.daroczy(p, 1.0 - eps) == pytest.approx(h, abs=10 * eps + 1e-12)


def test_daroczy_is_continuous_across_beta_one():
    p = [0.5, 0.3, 0.2]
    betas = 1.0 + np.array([-1e-3, -1e-6, -1e-9, 0.0, 1e-9, 1e-6, 1e-3])
    values = np.array([oc.daroczy(p, b) for b in betas])
    assert np.all(np.abs(np.diff(values)) < 2e-3)
    assert np.all(np.isfinite(values))
    # monotone decreasing in beta for a fixed p (a known property of the family near beta = 1)
    assert np.all(np.diff(values) <= 1e-15)


@given(p=distributions())
def test_named_members_of_the_families(p):
    # Daroczy at beta = 2 is twice Gini
    assert oc.daroczy(p, 2.0) == pytest.approx(2 * oc.gini(p), abs=1e-12)
    # Daroczy at beta = 0 counts the non-empty classes
    assert oc.daroczy(p, 0.0) == pytest.approx(np.count_nonzero(p) - 1, abs=1e-9)
    # rank diversity at rho = 0 is twice the misclassification
    assert oc.rank_diversity(p, 0.0) == pytest.approx(2 * oc.misclassification(p), abs=1e-12)


@given(theta=st.floats(0.01, 0.99), a=st.floats(0, 1), b=st.floats(0, 1), t=st.floats(0, 1))
def test_binary_off_centered_is_concave_in_p(theta, a, b, t):
    for measure, params in OFF_CENTERABLE[:6] + [("asymmetric", {})]:
        if measure == "asymmetric":

            def f(x):
                return oc.asymmetric(oc.boolean_distribution(x), theta)
        else:

            def f(x, measure=measure, params=params):
                return oc.off_centered(oc.boolean_distribution(x), theta, measure, **params)

        x = t * a + (1 - t) * b
        assert f(x) >= t * f(a) + (1 - t) * f(b) - 1e-9, (measure, params)


def _tables():
    return (
        st.integers(2, 5)
        .flatmap(
            lambda k: st.integers(2, 4).flatmap(
                lambda q: arrays(np.int64, (k, q), elements=st.integers(0, 30))
            )
        )
        .filter(lambda t: t.sum() > 0)
    )


@given(table=_tables())
def test_gain_non_negative_for_concave_measures(table):
    assume(np.all(table.sum(axis=0) > 0))
    for measure, params in OFF_CENTERABLE + [("asymmetric", {})]:
        assert oc.gain(table, measure, **params) >= -1e-12, (measure, params)


@given(table=_tables(), theta=st.floats(0.02, 0.98))
def test_binary_off_centered_gain_non_negative(table, theta):
    table = table[:, :2]
    assume(table.sum() > 0)
    for measure, params in OFF_CENTERABLE:
        gain = oc.gain(table, measure, theta=[1 - theta, theta], **params)
        assert gain >= -1e-12, (measure, params)


@given(table=_tables())
def test_lambda_alpha_reduces_to_named_coefficients(table):
    assume(np.all(table.sum(axis=0) > 0) and np.all(table.sum(axis=1) > 0))
    t = table.astype(float)
    n = t.sum()
    py, px = t.sum(axis=0) / n, t.sum(axis=1) / n
    hy, hx = oc.shannon(py), oc.shannon(px)
    hyx = sum(t[k].sum() / n * oc.shannon(t[k] / t[k].sum()) for k in range(len(t)))
    g = hy - hyx
    assert oc.gain(t) == pytest.approx(g, abs=1e-12)
    if hy > 1e-12:
        assert oc.theil_u(t) == pytest.approx(g / hy, abs=1e-9)
        assert oc.relative_gain(t) == pytest.approx(g / hy, abs=1e-9)
    if hx > 1e-12:
        assert oc.gain_ratio(t) == pytest.approx(g / hx, abs=1e-9)
    if hx + hy > 1e-12:
        assert oc.kvalseth(t) == pytest.approx(2 * g / (hx + hy), abs=1e-9)
    # Guttman's lambda, closed form
    top = t.max(axis=1).sum()
    if n - t.sum(axis=0).max() > 0:
        lam = (top - t.sum(axis=0).max()) / (n - t.sum(axis=0).max())
        assert oc.guttman_lambda(t) == pytest.approx(lam, abs=1e-9)
    # Goodman and Kruskal's tau, closed form
    gy = 1 - np.sum(py**2)
    if gy > 1e-12:
        within = sum(t[k].sum() / n * (1 - np.sum((t[k] / t[k].sum()) ** 2)) for k in range(len(t)))
        assert oc.goodman_kruskal_tau(t) == pytest.approx((gy - within) / gy, abs=1e-9)


@given(table=_tables(), alpha=st.floats(0, 1))
def test_lambda_alpha_is_the_weighted_normalisation(table, alpha):
    a = oc.association(table)
    denom = alpha * a.i_y + (1 - alpha) * a.i_x
    expected = a.gain / denom if denom > 1e-15 else 0.0
    assert a.lambda_alpha(alpha) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("name", list(MEASURES))
def test_vectorised_matches_pointwise(name):
    rng = np.random.default_rng(0)
    p = rng.dirichlet(np.ones(4), size=(10, 3))
    theta = [0.1, 0.2, 0.3, 0.4]
    info = MEASURES[name]
    if info.theta == "builtin":

        def f(x):
            return oc.asymmetric(x, theta, n=50)
    else:

        def f(x):
            return oc.off_centered(x, theta, name, **info.defaults())

    batch = f(p)
    assert batch.shape == (10, 3)
    for i in range(10):
        for j in range(3):
            assert batch[i, j] == pytest.approx(f(p[i, j]), abs=1e-14)


def test_thousand_point_curve_is_one_call():
    grid = oc.boolean_distribution(np.linspace(0, 1, 1000))
    for name, info in MEASURES.items():
        if info.theta == "builtin":
            values = oc.asymmetric(grid, 0.2)
        else:
            values = oc.off_centered(grid, 0.2, name, **info.defaults())
        assert values.shape == (1000,) and np.all(np.isfinite(values))


@pytest.mark.parametrize("theta", [1e-9, 1e-6, 1 - 1e-6, 1 - 1e-9])
def test_stable_near_extreme_theta(theta):
    grid = oc.boolean_distribution(np.linspace(0, 1, 2001))
    for name, info in MEASURES.items():
        if info.theta == "builtin":
            values = oc.asymmetric(grid, theta)
        else:
            values = oc.off_centered(grid, theta, name, **info.defaults())
        assert np.all(np.isfinite(values)) and values.max() <= 1.0 + 1e-9


def test_stable_near_sure_p():
    for eps in (1e-300, 1e-200, 1e-16):
        p = [1 - eps, eps]
        for b in (0.0, 0.5, 1 - 1e-9, 1.0, 2.0, 5.0):
            v = oc.daroczy(p, b)
            assert np.isfinite(v) and v >= 0


# ---------------------------------------------------------------- Daroczy for large beta
def _daroczy_exact(counts, beta: int) -> Fraction:
    """H_beta(counts / total) in exact rational arithmetic, for an integer beta >= 2."""
    total = sum(counts)
    f = Fraction(2) ** (beta - 1)
    return f / (f - 1) * (1 - sum(Fraction(c, total) ** beta for c in counts))


@given(p=distributions(), beta=st.floats(0.0, 1e6))
def test_daroczy_is_finite_for_every_beta(p, beta):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow, divide or invalid warning either
        value = oc.daroczy(p, beta)
        oc.off_centered(p, np.full(len(p), 1 / len(p)), "daroczy", beta=beta)
    assert np.isfinite(value) and value >= 0.0
    # the maximum over distributions of q classes is reached at the uniform distribution
    assert value <= oc.daroczy(np.full(len(p), 1 / len(p)), beta) + 1e-9


@given(
    counts=st.lists(st.integers(0, 50), min_size=2, max_size=6).filter(lambda c: sum(c) > 0),
    beta=st.integers(2, 1500),
)
def test_daroczy_matches_exact_rational_arithmetic(counts, beta):
    # up to 1500, past beta = 1025 where 2^(beta-1) overflows a float
    p = np.array(counts) / sum(counts)
    exact = float(_daroczy_exact(counts, beta))
    assert oc.daroczy(p, beta) == pytest.approx(exact, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("p", [[0.3, 0.7], [0.5, 0.3, 0.2], [0.999, 0.001], [1 - 1e-9, 1e-9]])
def test_daroczy_is_continuous_in_beta_from_moderate_to_huge(p):
    # 1025 is where 2^(beta - 1) overflows a float: no jump there
    betas = np.sort(np.r_[np.geomspace(1.5, 1e6, 2000), 1024.5, 1025.0, 1025.5])
    h = 1e-6
    values = np.array([oc.daroczy(p, b) for b in betas])
    moved = np.array([oc.daroczy(p, b + h) for b in betas])
    assert np.all(np.isfinite(values))
    assert np.max(np.abs(moved - values)) < 10 * h  # |dH/dbeta| < 10 here
    # as beta grows, H_beta = (1 - sum p^beta) / (1 - 2^(1 - beta)) -> 1 - sum p^beta, with
    # p_j = 1 - (sum of the others) (1 - 1e-9 is stored 2.8e-17 away from it: x**1e6 of the
    # stored number is off by 2.8e-11)
    powers = [math.exp(1e6 * math.log1p(-math.fsum(p[:i] + p[i + 1 :]))) for i in range(len(p))]
    assert values[-1] == pytest.approx(1 - sum(powers), abs=1e-12)


@given(theta=st.floats(0.01, 0.99), p=st.floats(0, 1), beta=st.floats(50, 1e6))
def test_off_centered_daroczy_large_beta(theta, p, beta):
    value = oc.off_centered([1 - p, p], theta, "daroczy", beta=beta)
    assert np.isfinite(value) and 0.0 <= value <= 1.0 + 1e-12
    assert oc.off_centered([1 - theta, theta], theta, "daroczy", beta=beta) == pytest.approx(1.0)


def test_daroczy_large_beta_in_impurity_and_tree():
    imp = oc.Impurity("daroczy", theta=[0.8, 0.2], beta=2000)
    assert imp.of_counts([[9, 1], [8, 2], [0, 5]]).tolist() == pytest.approx([1.0, 1.0, 0.0])
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(200, 3)), rng.integers(0, 3, 200)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clf = oc.TreeClassifier(measure="daroczy", beta=1e6, theta="prior", max_depth=2).fit(X, y)
    assert all(np.isfinite(n.impurity) for n in clf.tree_.nodes)


# ---------------------------------------------------------------- consistent asymmetric vs n
NS = np.r_[0.0, np.geomspace(1e-3, 1e6, 300)]


@given(p=distributions(min_q=2, max_q=6))
def test_consistent_asymmetric_decreases_with_n_when_theta_is_uniform(p):
    q = len(p)
    values = oc.asymmetric(np.tile(p, (len(NS), 1)), np.full(q, 1 / q), n=NS)
    assert values[0] == pytest.approx(1.0)  # n = 0: the uniform Laplace estimate
    assert np.all(np.diff(values) <= 1e-12)


@given(p=st.floats(0, 1), theta=st.floats(0.01, 0.99))
def test_consistent_asymmetric_in_n_two_classes(p, theta):
    """The docstring's statement: with p and theta the frequencies of class 1, the value rises
    to 1 at n* = (1 - 2 theta)/(theta - p) and falls when theta is strictly between 1/2 and p;
    rises for every n when p is strictly between 1/2 and theta; otherwise never rises."""
    assume(abs(p - 0.5) > 1e-6 and abs(theta - 0.5) > 1e-6 and abs(p - theta) > 1e-6)
    values = oc.asymmetric(np.tile([1 - p, p], (len(NS), 1)), theta, n=NS)
    steps = np.diff(values)
    tol = 1e-12
    if min(p, 0.5) < theta < max(p, 0.5):
        n_star = (1 - 2 * theta) / (theta - p)
        assert oc.asymmetric([1 - p, p], theta, n=n_star) == pytest.approx(1.0, abs=1e-9)
        assert np.all(steps[NS[1:] <= n_star] >= -tol)
        assert np.all(steps[NS[:-1] >= n_star] <= tol)
    elif min(theta, 0.5) < p < max(theta, 0.5):
        assert np.all(steps >= -tol)
    else:  # p and theta on opposite sides of 1/2
        assert np.all(steps <= tol)


def test_consistent_asymmetric_rises_then_falls_example():
    values = [oc.asymmetric([1, 0], 0.2, n=n) for n in (0, 1, 2, 3, 10, 50)]
    assert values == sorted(values[:4]) + sorted(values[3:], reverse=True)[1:]
    assert values[3] == pytest.approx(1.0)  # n* = (1 - 0.4) / 0.2 = 3
    assert [round(v, 3) for v in values] == [0.735, 0.926, 0.987, 1.0, 0.849, 0.366]
