"""Numerical accuracy of the measures against mpmath at 400 significant digits.

Conventions of the references: a distribution is the float array given, renormalised exactly
(in mpmath) to sum to 1; a scalar theta t for two classes is (1 - t, t) with 1 - t exact; a
count table is taken exactly as given. Every measure here is a sum of terms of one sign once
its complements 1 - p_j are computed as sums of the other frequencies, so the package can and
must reach a *relative* error of about 1e-13 everywhere, including near a sure distribution
(frequencies of 1e-17 beside 1), at huge sample sizes (n = 1e15) and at the smallest theta
(1e-12); tables of counts near 1e308 must give the same values as the table rescaled.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import offcenter as oc

mp = mpmath.mp
mp.dps = 400  # 1 - 1e-300 and (n + 1)/(n + 2) at n = 1e300 need 300 digits

#: relative error allowed against the reference (about 500 ulps: the kernels chain a
#: few dozen rounded operations, and a log or expm1 of numpy is within a few ulps)
REL = 1e-13


# --------------------------------------------------------------------------------------------
# mpmath references
# --------------------------------------------------------------------------------------------


def _mp_dist(p):
    xs = [mpmath.mpf(float(v)) for v in p]
    s = mpmath.fsum(xs)
    return [x / s for x in xs]


def _mp_theta(theta, q):
    if np.ndim(theta) == 0:
        t = mpmath.mpf(float(theta))
        return [1 - t, t]
    return _mp_dist(theta)


def ref_shannon(p):
    return -mpmath.fsum(x * mpmath.log(x, 2) for x in p if x > 0)


def ref_gini(p):
    return 1 - mpmath.fsum(x * x for x in p)


def ref_misclassification(p):
    return 1 - max(p)


def ref_daroczy(p, beta):
    beta = mpmath.mpf(beta)
    if beta == 1:
        return ref_shannon(p)
    d = beta - 1
    return 2**d / (2**d - 1) * (1 - mpmath.fsum(x**beta for x in p if x > 0))


def ref_rank(p, rho):
    ordered = sorted(p, reverse=True)
    if rho == 0:
        return 2 * mpmath.fsum(ordered[1:])
    return 2 * mpmath.fsum(mpmath.mpf(i) ** rho * x for i, x in enumerate(ordered) if i > 0)


def ref_dkm(p):
    return mpmath.fsum(mpmath.sqrt(x * (1 - x)) for x in p)


def ref_asymmetric(p, theta, n=None):
    q = len(p)
    if n is not None:
        n = mpmath.mpf(n)
        p = [(n * x + 1) / (n + q) for x in p]
    return (
        mpmath.fsum(x * (1 - x) / ((1 - 2 * t) * x + t * t) for x, t in zip(p, theta, strict=True))
        / q
    )


def ref_off_center(p, theta):
    q = len(p)
    pi = [
        x / (q * t) if x <= t else (q * (x - t) + 1 - x) / (q * (1 - t))
        for x, t in zip(p, theta, strict=True)
    ]
    s = mpmath.fsum(pi)
    return [x / s for x in pi]


REF = {
    "shannon": ref_shannon,
    "gini": ref_gini,
    "misclassification": ref_misclassification,
    "dkm": ref_dkm,
}


def rel_err(got, want):
    got = mpmath.mpf(float(got))
    if want == 0:
        return abs(got)
    return abs(got - want) / abs(want)


def assert_close(got, want, rel=REL):
    if abs(want) < 2.0**-1022:  # the value is below float64's normal range: absolutely close
        assert abs(mpmath.mpf(float(got)) - want) <= 2.0**-1060, (float(got), want)
        return
    err = rel_err(got, want)
    assert err <= rel, f"got {float(got)!r}, mpmath {mpmath.nstr(want, 20)}, rel. error {err}"


# --------------------------------------------------------------------------------------------
# The audit's cases
# --------------------------------------------------------------------------------------------


def test_dkm_near_a_sure_distribution():
    # was 4.7078e-09 (the class of frequency 1.0 gave sqrt(1 (1 - 1.0)) = 0), true 9.4157e-09
    p = [2.216362469257433e-17, 1.0]
    assert_close(oc.dkm(p), ref_dkm(_mp_dist(p)))


def test_consistent_asymmetric_at_huge_n():
    # 1 - (n p + 1)/(n + q) cancelled: relative error 1.1e-5 at n = 1e12, 4e-4 at n = 1e15
    for n in (1e6, 1e12, 1e15, 1e18, 1e300):
        want = ref_asymmetric(_mp_dist([1.0, 0.0]), _mp_dist([0.8, 0.2]), n)
        assert_close(oc.asymmetric([1.0, 0.0], [0.8, 0.2], n=n), want)


def test_off_centered_at_the_smallest_theta():
    # was off by 7.1e-6: 1 - theta and p - theta cancelled near theta_0 = 1 - 1e-12
    p = oc.boolean_distribution(5.25e-13)
    want = ref_shannon(ref_off_center(_mp_dist(p), _mp_theta(1e-12, 2)))
    assert_close(oc.off_centered(p, 1e-12), want)
    pi = oc.off_center(p, 1e-12)
    ref = ref_off_center(_mp_dist(p), _mp_theta(1e-12, 2))
    assert_close(pi[1], ref[1])
    assert_close(pi[0], ref[0])


@pytest.mark.parametrize("measure", ["shannon", "gini", "misclassification", "dkm"])
@pytest.mark.parametrize("eps", [1e-300, 2.216362469257433e-17, 1e-17, 3e-13, 1e-10, 1e-4])
def test_near_sure_distributions(measure, eps):
    # [eps, 1.0] sums to 1 + eps: renormalised, its complement of 1.0 is eps / (1 + eps)
    for p in ([eps, 1.0 - eps], [1.0 - eps, eps], [eps / 2, 1.0 - eps, eps / 2], [eps, 1.0]):
        if eps > 1e-9 and p[-1] == 1.0:
            continue
        assert_close(getattr(oc, measure)(p), REF[measure](_mp_dist(p)))


@pytest.mark.parametrize("eps", [1e-300, 1e-17, 3e-13, 1e-6])
@pytest.mark.parametrize(
    "beta", [0.0, 0.3, 0.5, 1 - 1e-12, 1.0, 1 + 1e-15, 1 + 1e-9, 1.7, 2.0, 30.0]
)
def test_daroczy_near_a_sure_distribution(beta, eps):
    for p in ([eps, 1.0 - eps], [eps / 2, 1.0 - eps, eps / 2], [0.25, 0.75 - eps, eps]):
        assert_close(oc.daroczy(p, beta), ref_daroczy(_mp_dist(p), beta))


@pytest.mark.parametrize("d", [1e-15, -1e-15, 1e-12, -1e-9, 1e-6, 1e-3])
def test_daroczy_near_beta_one(d):
    for p in ([0.5, 0.3, 0.2], [0.9, 0.1], [1e-10, 1.0]):
        assert_close(oc.daroczy(p, 1.0 + d), ref_daroczy(_mp_dist(p), mpmath.mpf(1.0 + d)))


@pytest.mark.parametrize("rho", [0.0, 0.5, 1.0, 3.0])
def test_rank_diversity_near_a_sure_distribution(rho):
    for p in ([1e-17, 1.0], [1e-300, 1.0, 1e-20], [0.5, 0.3, 0.2]):
        assert_close(oc.rank_diversity(p, rho), ref_rank(_mp_dist(p), rho))


@pytest.mark.parametrize(
    "p, theta",
    [
        ([1.0, 0.0], [0.8, 0.2]),
        ([1e-17, 1.0], [0.5, 0.5]),
        ([1.0, 1e-17], [1 - 1e-12, 1e-12]),
        ([1e-13, 1.0], [1e-12, 1 - 1e-12]),
        ([1e-20, 1.0, 1e-20], [0.2, 0.3, 0.5]),
    ],
)
@pytest.mark.parametrize("n", [None, 0.0, 3.0, 1e9, 1e15, 1e300])
def test_asymmetric_extremes(p, theta, n):
    want = ref_asymmetric(_mp_dist(p), _mp_dist(theta), n)
    assert_close(oc.asymmetric(p, theta, n=n), want)


@pytest.mark.parametrize("t", [1e-12, 3e-12, 1e-6, 0.3, 1 - 1e-6, 1 - 2e-12])
@pytest.mark.parametrize("x", [0.0, 1e-300, 5.25e-13, 1e-12, 2e-12, 1e-6, 0.5, 1 - 1e-9, 1.0])
@pytest.mark.parametrize("measure", ["shannon", "gini", "dkm", "misclassification"])
def test_off_centered_tiny_theta(measure, t, x):
    p = oc.boolean_distribution(x)
    want = REF[measure](ref_off_center(_mp_dist(p), _mp_theta(t, 2)))
    assert_close(oc.off_centered(p, t, measure), want)


def test_off_centered_many_classes_tiny_theta():
    theta = [1 - 2e-12, 1e-12, 1e-12]
    for p in ([1.0, 3e-13, 2e-13], [1.0, 1e-12, 0.0], [1 - 1e-9, 1e-9, 0.0], [0.2, 0.5, 0.3]):
        want = ref_shannon(ref_off_center(_mp_dist(p), _mp_dist(theta)))
        assert_close(oc.off_centered(p, theta), want)
        want = ref_daroczy(ref_off_center(_mp_dist(p), _mp_dist(theta)), 2.0)
        assert_close(oc.off_centered(p, theta, "daroczy", beta=2.0), want)


# --------------------------------------------------------------------------------------------
# Tables: counts near the largest float, the one-row table
# --------------------------------------------------------------------------------------------


def ref_hellinger(table):
    t = [[mpmath.mpf(float(v)) for v in row] for row in table]
    q = len(t[0])
    best = mpmath.mpf(0)
    for c in [1] if q == 2 else range(q):
        # the other classes from their own counts (exact in mpmath, whatever the ratio of the
        # weights: a total minus the class would need more than 400 digits at 1e-217 / 1e194)
        rest = [mpmath.fsum(v for j, v in enumerate(row) if j != c) for row in t]
        pos = mpmath.fsum(row[c] for row in t)
        neg = mpmath.fsum(rest)
        if pos == 0 or neg == 0:
            continue
        d2 = mpmath.fsum(
            (mpmath.sqrt(row[c] / pos) - mpmath.sqrt(r / neg)) ** 2
            for row, r in zip(t, rest, strict=True)
        )
        best = max(best, d2)
    return mpmath.sqrt(best)


def ref_shannon_gain(table):
    t = [[mpmath.mpf(float(v)) for v in row] for row in table]
    n = mpmath.fsum(mpmath.fsum(row) for row in t)
    margin = [mpmath.fsum(col) for col in zip(*t, strict=True)]
    i_y = ref_shannon([m / n for m in margin])
    i_yx = mpmath.fsum(
        mpmath.fsum(row) / n * ref_shannon([v / mpmath.fsum(row) for v in row])
        for row in t
        if mpmath.fsum(row) > 0
    )
    return i_y - i_yx


def test_hellinger_and_gain_of_counts_near_the_largest_float():
    table = [[1e308, 1e308], [1e308, 0.0]]
    assert_close(oc.hellinger_split(table), ref_hellinger(table))
    assert_close(oc.gain(table), ref_shannon_gain(table))
    with np.errstate(all="raise"):  # no overflow warning on the way
        oc.hellinger_split(table)
        oc.association(table, "gini")


@pytest.mark.parametrize(
    "measure, kw",
    [
        ("shannon", {}),
        ("gini", {}),
        ("misclassification", {}),
        ("dkm", {}),
        ("daroczy", {"beta": 0.5}),
        ("rank_diversity", {"rho": 1.0}),
        ("shannon", {"theta": "prior"}),
        ("asymmetric", {}),
        ("asymmetric", {"theta": [0.3, 0.7]}),
    ],
)
def test_tables_near_the_largest_float_equal_the_rescaled_table(measure, kw):
    small = np.array([[3.0, 1.0], [1.0, 2.0], [0.0, 5.0]])
    big = small * 2.0**1020  # about 1.1e307 per unit: sums overflow float64
    a, b = oc.association(small, measure, **kw), oc.association(big, measure, **kw)
    for name in ("i_y", "i_y_given_x", "i_x", "gain"):
        assert getattr(b, name) == getattr(a, name), name
    for alpha in (0.0, 0.5, 1.0):
        assert b.lambda_alpha(alpha) == a.lambda_alpha(alpha)
    tiny = small * 2.0**-1060  # subnormal counts
    c = oc.association(tiny, measure, **kw)
    assert c.gain == pytest.approx(a.gain, rel=1e-12, abs=1e-300)


def test_consistent_asymmetric_of_an_overflowing_table_is_refused_clearly():
    with pytest.raises(ValueError, match="sample size"):
        oc.association([[1e308, 1e308], [1e308, 0.0]], "asymmetric", consistent=True)


@pytest.mark.parametrize(
    "measure, kw",
    [
        ("shannon", {}),
        ("shannon", {"theta": "prior"}),
        ("gini", {"theta": [0.2, 0.8]}),
        ("asymmetric", {}),
        ("asymmetric", {"theta": "prior"}),
        ("asymmetric", {"theta": "prior", "consistent": True}),
        ("asymmetric", {"theta": [0.4, 0.6], "consistent": True}),
        ("daroczy", {"beta": 3.0, "theta": "prior"}),
        ("rank_diversity", {"rho": 0.0}),
    ],
)
def test_one_row_table_has_gain_zero_under_every_measure(measure, kw):
    a = oc.association([[3, 5]], measure, **kw)
    assert a.gain == 0.0
    assert a.i_x == 0.0
    assert a.i_y_given_x == a.i_y
    assert a.i_y > 0.0
    for alpha in (0.0, 0.5, 1.0):
        assert a.lambda_alpha(alpha) == 0.0
    batch_kw = {**kw, "theta": "uniform" if measure == "asymmetric" else None}
    batch = oc.association(np.array([[[3, 5]], [[1, 1]]]), measure, **batch_kw)
    assert np.all(batch.gain == 0.0) and np.all(batch.i_x == 0.0)


@pytest.mark.parametrize("measure", ["shannon", "gini", "daroczy", "asymmetric"])
def test_prior_of_a_table_with_an_absent_class(measure):
    params = {"beta": 2.0} if measure == "daroczy" else {}
    table = [[3, 0, 1], [1, 0, 4]]
    a = oc.association(table, measure, "prior", **params)
    b = oc.association([[3, 1], [1, 4]], measure, "prior", **params)
    assert (a.i_y, a.i_y_given_x, a.i_x, a.gain) == (b.i_y, b.i_y_given_x, b.i_x, b.gain)
    pure = oc.association([[3, 0], [2, 0]], measure, "prior", **params)
    assert pure.gain == 0.0 and pure.i_y == 0.0 and pure.i_y_given_x == 0.0
    assert pure.i_x > 0.0


# --------------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------------

_exponent = st.integers(min_value=-80, max_value=0)
_mantissa = st.floats(min_value=0.5, max_value=1.0)


@st.composite
def spread_distributions(draw, q_max=4):
    """Distributions whose frequencies span up to 80 binary orders of magnitude (or are 0)."""
    q = draw(st.integers(min_value=2, max_value=q_max))
    parts = [
        0.0
        if draw(st.booleans()) and draw(st.booleans())
        else draw(_mantissa) * 2.0 ** draw(_exponent)
        for _ in range(q)
    ]
    if sum(parts) == 0:
        parts[0] = 1.0
    total = math.fsum(parts)
    return [x / total for x in parts]


@settings(max_examples=150, deadline=None)
@given(p=spread_distributions(), beta=st.sampled_from([0.0, 0.5, 1 - 1e-10, 1.0, 2.0, 7.5]))
def test_every_measure_agrees_with_mpmath(p, beta):
    mpp = _mp_dist(p)
    for name, ref in REF.items():
        assert_close(getattr(oc, name)(p), ref(mpp))
    assert_close(oc.daroczy(p, beta), ref_daroczy(mpp, mpmath.mpf(beta)))
    assert_close(oc.rank_diversity(p, 1.5), ref_rank(mpp, 1.5))


@settings(max_examples=150, deadline=None)
@given(
    p=spread_distributions(q_max=3),
    theta=spread_distributions(q_max=3),
    n=st.sampled_from([None, 0.0, 7.0, 1e10, 1e16, 1e200]),
)
def test_off_centered_and_asymmetric_agree_with_mpmath(p, theta, n):
    q = len(p)
    theta = (theta + [0.5] * q)[:q]
    theta = [max(t, 1e-11) for t in theta]
    total = math.fsum(theta)
    theta = [t / total for t in theta]
    mpp, mpt = _mp_dist(p), _mp_dist(theta)
    pi = ref_off_center(mpp, mpt)
    assert_close(oc.off_centered(p, theta), ref_shannon(pi))
    assert_close(oc.off_centered(p, theta, "gini"), ref_gini(pi))
    assert_close(oc.asymmetric(p, theta, n=n), ref_asymmetric(mpp, mpt, n))


_tables = st.lists(
    st.lists(st.integers(min_value=0, max_value=50), min_size=2, max_size=2), min_size=1, max_size=4
).filter(lambda t: sum(map(sum, t)) > 0)


@settings(max_examples=100, deadline=None)
@given(table=_tables, shift=st.integers(min_value=-1070, max_value=1015))
def test_table_functions_are_scale_free(table, shift):
    """gain, lambda_alpha and the Hellinger distance of s * table equal those of the table."""
    t = np.array(table, dtype=np.float64)
    s = np.ldexp(t, shift)
    if np.any((t > 0) & (s < 2.0**-1022)):  # subnormal counts lose digits: compare loosely
        rel, abs_ = 1e-9, 1e-300
    else:
        rel, abs_ = 0.0, 0.0
    assert oc.hellinger_split(s) == pytest.approx(oc.hellinger_split(t), rel=rel, abs=abs_)
    for measure in ("shannon", "gini", "dkm"):
        a, b = oc.association(t, measure), oc.association(s, measure)
        assert b.gain == pytest.approx(a.gain, rel=rel, abs=abs_)
        assert b.kvalseth == pytest.approx(a.kvalseth, rel=rel, abs=abs_)


@settings(max_examples=100, deadline=None)
@given(
    x=st.one_of(st.just(0.0), st.floats(min_value=1e-290, max_value=1e-3)),  # no subnormal result
    t=st.floats(min_value=1e-12, max_value=0.5),
)
def test_off_centered_is_continuous_at_a_sure_distribution(x, t):
    """Near the sure distribution (1, 0) the value tends to 0 with the reference's slope."""
    p = oc.boolean_distribution(x)
    want = ref_shannon(ref_off_center(_mp_dist(p), _mp_theta(t, 2)))
    assert_close(oc.off_centered(p, t), want)
    want = ref_asymmetric(_mp_dist(p), _mp_theta(t, 2))
    assert_close(oc.asymmetric(p, t), want)


# --------------------------------------------------------------------------------------------
# Gain and lambda_alpha of a nearly pure table
# --------------------------------------------------------------------------------------------


def ref_association(table, measure, **params):
    impurity = {
        "shannon": ref_shannon,
        "gini": ref_gini,
        "daroczy": lambda p: ref_daroczy(p, mpmath.mpf(params.get("beta", 2.0))),
    }[measure]
    t = [[mpmath.mpf(float(v)) for v in row] for row in table]
    rows = [mpmath.fsum(row) for row in t]
    n = mpmath.fsum(rows)
    margin = [mpmath.fsum(col) / n for col in zip(*t, strict=True)]
    i_y = impurity(margin)
    i_y_x = mpmath.fsum(
        r / n * impurity([v / r for v in row]) for row, r in zip(t, rows, strict=True) if r > 0
    )
    i_x = impurity([r / n for r in rows])
    return i_y, i_y - i_y_x, i_x


@pytest.mark.parametrize(
    "measure, params",
    [
        ("shannon", {}),
        ("gini", {}),
        ("daroczy", {"beta": 2.0}),  # was 60 % off on the first table
        ("daroczy", {"beta": 0.5}),
        ("daroczy", {"beta": 1 + 1e-9}),
        ("daroczy", {"beta": 3.5}),
    ],
)
@pytest.mark.parametrize(
    "table",
    [
        [[1e15, 1], [1e15, 0]],  # Shannon's gain was 16 % off (difference of 2.6e-14 and 2.56e-14)
        [[1e12, 3], [1e12, 1]],  # 2e-4 off
        [[10, 1e-9], [5, 0]],
        [[7, 1e-300], [5, 0], [1, 0]],
        [[0, 1e-12, 5], [3, 0, 4e9], [0, 0, 0]],
        [[3, 1], [1, 2]],
    ],
)
def test_gain_of_a_nearly_pure_table(measure, params, table):
    i_y, g, i_x = ref_association(table, measure, **params)
    a = oc.association(table, measure, **params)
    assert_close(a.i_y, i_y)
    assert_close(a.gain, g)
    assert_close(a.lambda_alpha(0.0), g / i_x)
    assert_close(a.lambda_alpha(0.5), 2 * g / (i_x + i_y))
    if i_y > 1e-15:  # below, lambda_alpha's denominator threshold returns 0
        assert_close(a.relative_gain, g / i_y)
    if measure == "shannon":
        assert_close(oc.kvalseth(table), 2 * g / (i_x + i_y))
        assert_close(oc.gain_ratio(table), g / i_x)
        if i_y > 1e-15:
            assert_close(oc.theil_u(table), g / i_y)


@settings(max_examples=100, deadline=None)
@given(
    big=st.integers(min_value=1, max_value=2**50),
    small=st.lists(st.integers(min_value=0, max_value=9), min_size=4, max_size=4),
)
def test_gain_of_a_large_nearly_pure_table_agrees_with_mpmath(big, small):
    # (rows with the same small class share, a nearly independent table, are another matter:
    # their gain is limited by the rounding of the frequencies, 1e-10 relative at n = 1e6)
    table = [[big, small[0] + 1], [big + small[1], 0], [small[3], small[2]]]
    for measure, params in (("shannon", {}), ("gini", {}), ("daroczy", {"beta": 3.0})):
        _, g, _ = ref_association(table, measure, **params)
        assert_close(oc.gain(table, measure, **params), g)


@pytest.mark.parametrize(
    "measure, params",
    [("shannon", {}), ("gini", {}), ("daroczy", {"beta": 5.0}), ("daroczy", {"beta": 1.2})],
)
def test_an_empty_row_adds_nothing_to_the_gain(measure, params):
    # hypothesis found NaN for [[1, 2], [0, 0]] under Daroczy beta = 5 (the empty row's
    # frequencies are 0/0; its weight 0 must make it count 0, not NaN)
    with_empty = oc.gain([[1, 2], [0, 0], [3, 1]], measure, **params)
    assert with_empty == oc.gain([[1, 2], [3, 1]], measure, **params)
    assert oc.gain([[1, 2], [0, 0]], measure, **params) == 0.0


# --------------------------------------------------------------------------------------------
# Hellinger at wide weight ratios (issue 35: the other class was the total minus the class)
# --------------------------------------------------------------------------------------------


def test_hellinger_of_the_issues_table():
    table = [[1, 0], [1, 2e20]]
    assert float(ref_hellinger(table)) == pytest.approx(0.7653668647301796, abs=1e-16)
    assert abs(oc.hellinger_split(table) - ref_hellinger(table)) <= 2.3e-16


@settings(max_examples=60, deadline=None)
@given(
    counts=st.lists(st.integers(min_value=0, max_value=6), min_size=9, max_size=9),
    # each class at its own scale, 1e-150 .. 1e150: ratios between classes up to 1e300
    exps=st.lists(st.integers(min_value=-150, max_value=150), min_size=3, max_size=3),
    q=st.sampled_from([2, 3]),
    k=st.sampled_from([2, 3]),
)
def test_hellinger_at_class_weight_ratios_up_to_1e300_agrees_with_mpmath(counts, exps, q, k):
    """Each class's counts scaled by its own power of ten (ratios up to 1e300): the distance is
    within 2.3e-16 (absolute; it lies in [0, sqrt(2)]) of mpmath's, in the criterion and in
    the tree's two-child kernel."""
    from offcenter.measures.criteria import _hellinger_pair

    t = np.array(counts[: k * q], float).reshape(k, q) * 10.0 ** np.array(exps[:q], float)
    want = ref_hellinger(t.tolist())
    assert abs(oc.hellinger_split(t) - want) <= 2.3e-16
    if k == 2:
        assert abs(_hellinger_pair(t[:1], t[1:])[0] - want) <= 2.3e-16


@settings(max_examples=60, deadline=None)
@given(
    counts=st.lists(st.integers(min_value=0, max_value=3), min_size=9, max_size=9),
    exps=st.lists(st.integers(min_value=-320, max_value=307), min_size=9, max_size=9),
    shape=st.sampled_from([(2, 2), (2, 3), (3, 2), (3, 3)]),
    beta=st.sampled_from([0.2, 0.6, 1.0, 1.2, 1.7, 2.0, 3.0, 10.0]),
)
def test_daroczy_gain_of_extreme_tables_is_finite_and_agrees_with_mpmath(counts, exps, shape, beta):
    """Issue 35: with a class frequency of 1e-200 beside rows near 1, (1 + delta)^beta
    overflowed while p_j^beta underflowed, and the gain was NaN (2,895 of 20,000 random
    tables at beta >= 2). Now finite and within 1e-15 of mpmath (absolute: the gain of such a
    table can be far below the rounding of the frequencies)."""
    k, q = shape
    t = (np.array(counts[: k * q], float) * 10.0 ** np.array(exps[: k * q], float)).reshape(k, q)
    if not (t.sum(axis=1) > 0).any() or not np.isfinite(t.sum()):
        return
    try:
        got = oc.gain(t, "daroczy", beta=beta)
    except ValueError:  # a table with one class or no rows: refused, as documented
        return
    assert np.isfinite(got)
    _, want, _ = ref_association(t.tolist(), "daroczy", beta=beta)
    assert abs(mpmath.mpf(float(got)) - want) <= 1e-15


def test_daroczy_gain_of_a_table_that_gave_nan():
    t = [[2.9999999999999997e99, 1e10], [3e281, 1e35]]
    g = oc.gain(t, "daroczy", beta=10.0)
    assert np.isfinite(g)
    assert abs(mpmath.mpf(g) - ref_association(t, "daroczy", beta=10.0)[1]) <= 1e-15


# --------------------------------------------------------------------------------------------
# Tree level: the root split at class weight ratios 1e-300 .. 1e300 is the brute force's
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("measure", ["gini", "shannon", "hellinger"])
@pytest.mark.parametrize("exponent", [-300, -100, -20, 20, 100, 300])
def test_the_root_splits_where_brute_force_splits_at_wide_class_weights(measure, exponent):
    """Every threshold of every feature scored by the package's exact measure functions on the
    weighted count table (brute force): the tree's root takes the best, within 1e-12, or is a
    leaf where the best gain is below the tree's absolute tolerance of 1e-12."""
    rng = np.random.default_rng(abs(exponent))
    y = rng.integers(0, 2, 40)
    X = np.round(rng.normal(size=(40, 2)) + 0.8 * y[:, None], 1)
    cw = {0: 1.0, 1: 10.0**exponent}
    clf = oc.TreeClassifier(measure=measure, max_depth=1, class_weight=cw).fit(X, y)
    w = np.where(y == 1, cw[1], cw[0])
    best, where = -np.inf, []
    for j in range(2):
        values = np.unique(X[:, j])
        for lo, hi in zip(values[:-1], values[1:]):
            left = X[:, j] <= lo
            table = [[w[side & (y == c)].sum() for c in (0, 1)] for side in (left, ~left)]
            g = oc.hellinger_split(table) if measure == "hellinger" else oc.gain(table, measure)
            if g > best + 1e-12:
                best, where = g, [(j, (lo + hi) / 2)]
            elif g >= best - 1e-12:
                where.append((j, (lo + hi) / 2))
    root = clf.tree_.nodes[0].split
    if best <= 1e-12:  # the stopping rule (gain <= min_gain + 1e-12: a leaf), brute force too
        # (at 1e20 and beyond a Gini or Shannon node is so nearly pure that every gain is)
        assert root is None
        return
    assert root is not None
    assert root.gain == pytest.approx(best, rel=1e-12, abs=1e-15)
    assert (root.feature_index, root.threshold) in where


@pytest.mark.parametrize("measure", ["shannon", "gini", "misclassification", "dkm"])
@pytest.mark.parametrize("p", [[5e-324, 1.0], [1.0, 5e-324], [1e-320, 1.0], [3e-310, 1.0]])
@pytest.mark.parametrize("t", [0.3, 0.5, 1e-12, 0.999])
def test_off_centered_at_subnormal_frequencies(measure, p, t):
    """Issue 35: at p = 5e-324, p / (q theta) rounded to a multiple of 5e-324 before the
    measure saw it (Shannon 40 % off, 1,500 quanta of the result). Now within one quantum
    (4.9e-324) of mpmath's value, or 1e-13 relative where that is larger."""
    want = REF[measure](ref_off_center(_mp_dist(p), _mp_theta(t, 2)))
    got = oc.off_centered(p, t, measure)
    assert abs(mpmath.mpf(got) - want) <= max(2.0**-1074, 1e-13 * float(want))
