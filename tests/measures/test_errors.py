"""Every kind of bad input raises ValueError or TypeError with a message a student understands."""

import warnings

import numpy as np
import pytest

import offcenter as oc


@pytest.mark.parametrize(
    "p, exc, words",
    [
        ([0.5, np.nan], ValueError, "NaN"),
        ([0.5, np.inf], ValueError, "infinite"),
        ([1.2, -0.2], ValueError, "negative"),
        ([0.5, 0.4], ValueError, "sum to 1"),
        ([], ValueError, "empty"),
        (0.3, ValueError, "single number"),
        ("0.5, 0.5", TypeError, "text"),
        ([0.5 + 0j, 0.5], TypeError, "complex"),
        ([[0.5, 0.5], [0.5]], TypeError, "different lengths"),
        (["a", "b"], TypeError, "numbers"),
        ([None, 1.0], TypeError, "None"),
    ],
)
def test_bad_distributions(p, exc, words):
    with pytest.raises(exc, match=words):
        oc.shannon(p)


def test_counts_hint():
    with pytest.raises(ValueError, match="divide them by their total"):
        oc.gini([3, 1])


def test_batch_reports_the_bad_sum():
    with pytest.raises(ValueError, match="sums to 0.9"):
        oc.shannon([[0.5, 0.5], [0.5, 0.4]])


@pytest.mark.parametrize(
    "theta, words",
    [
        ([0.0, 1.0], "strictly between 0 and 1"),
        ([1.0, 0.0], "strictly between 0 and 1"),
        ([0.5, 0.6], "sum to 1"),
        ([0.2, 0.3, 0.5], "has 3 values but the distribution has 2"),
        ([np.nan, 0.5], "NaN"),
        (1.5, "strictly between 0 and 1"),
    ],
)
def test_bad_theta(theta, words):
    with pytest.raises(ValueError, match=words):
        oc.off_center([0.5, 0.5], theta)


def test_scalar_theta_needs_two_classes():
    with pytest.raises(ValueError, match="only makes sense for two classes"):
        oc.off_centered([0.2, 0.3, 0.5], 0.2)


@pytest.mark.parametrize(
    "call, exc, words",
    [
        (lambda: oc.daroczy([0.5, 0.5], -1), ValueError, "beta >= 0"),
        (lambda: oc.daroczy([0.5, 0.5], np.nan), ValueError, "finite"),
        (lambda: oc.daroczy([0.5, 0.5], "2"), TypeError, "beta must be a number"),
        (lambda: oc.rank_diversity([0.5, 0.5], -0.5), ValueError, "0 <= rho <= 100"),
        (lambda: oc.asymmetric([0.5, 0.5], 0.2, n=-3), ValueError, "sample size"),
        (
            lambda: oc.asymmetric([[0.5, 0.5]] * 3, 0.2, n=[1, 2]),
            ValueError,
            "one per distribution",
        ),
        (lambda: oc.off_centered([0.5, 0.5], 0.2, "asymmetric"), ValueError, "by construction"),
        (lambda: oc.off_centered([0.5, 0.5], 0.2, "nope"), ValueError, "unknown measure 'nope'"),
        (
            lambda: oc.off_centered([0.5, 0.5], 0.2, "daroczy"),
            ValueError,
            "needs its parameter beta",
        ),
        (
            lambda: oc.off_centered([0.5, 0.5], 0.2, "gini", beta=2),
            ValueError,
            "does not take beta",
        ),
        (lambda: oc.off_centered([0.5, 0.5], 0.2, 3), TypeError, "named by a string"),
        (lambda: oc.boolean_distribution(1.5), ValueError, "between 0 and 1"),
    ],
)
def test_bad_parameters(call, exc, words):
    with pytest.raises(exc, match=words):
        call()


@pytest.mark.parametrize(
    "table, words",
    [
        ([1, 2, 3], "at least 2-D"),
        ([[1, -1], [2, 2]], "negative count"),
        ([[0, 0], [0, 0]], "no examples"),
        ([[1, np.nan], [2, 2]], "NaN"),
        (np.zeros((0, 2)), "empty"),
    ],
)
def test_bad_tables(table, words):
    with pytest.raises(ValueError, match=words):
        oc.association(table)


def test_bad_alpha():
    with pytest.raises(ValueError, match="0 <= alpha <= 1"):
        oc.lambda_alpha([[1, 2], [3, 4]], 1.5)


def test_impurity_errors():
    with pytest.raises(ValueError, match="needs theta"):
        oc.Impurity("asymmetric")
    with pytest.raises(ValueError, match="only to the asymmetric"):
        oc.Impurity("shannon", consistent=True)
    with pytest.raises(ValueError, match="theta has 2 classes but the data has 3"):
        oc.Impurity("shannon", theta=[0.2, 0.8]).of_counts([1, 2, 3])
    with pytest.raises(ValueError, match="every class to be present"):
        oc.resolve_theta("prior", [5, 0])
    with pytest.raises(ValueError, match="'prior', 'uniform'"):
        oc.resolve_theta("priors", [5, 3])


# A reference frequency below 1e-12 (here subnormal: 5e-324) would make off-centering divide by
# q theta_j and overflow; every entry point refuses it with the rule, no warning on the way.
TINY_THETAS = [
    [5e-324, 1 - 5e-324],  # 1 - 5e-324 == 1.0: the tiny value is the one named
    [1e-320, 0.5, 0.5],
    [1e-13, 0.3, 0.7 - 1e-13],
]


def _no_warning(call):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return call()


@pytest.mark.parametrize("theta", TINY_THETAS)
@pytest.mark.parametrize(
    "call",
    [
        lambda th: oc.off_center(np.full(len(th), 1 / len(th)), th),
        lambda th: oc.off_centered(np.full(len(th), 1 / len(th)), th),
        lambda th: oc.off_centered(np.full(len(th), 1 / len(th)), th, "daroczy", beta=2),
        lambda th: oc.asymmetric(np.full(len(th), 1 / len(th)), th),
        lambda th: oc.Impurity("shannon", theta=th),
        lambda th: oc.Impurity("asymmetric", theta=th, consistent=True),
        lambda th: oc.TreeClassifier(measure="shannon", theta=th).fit(
            np.arange(12.0).reshape(-1, 1), np.arange(12) % len(th)
        ),
        lambda th: oc.TreeClassifier(measure="asymmetric", theta=th).fit(
            np.arange(12.0).reshape(-1, 1), np.arange(12) % len(th)
        ),
    ],
    ids=[
        "off_center",
        "off_centered",
        "off_centered_daroczy",
        "asymmetric",
        "Impurity",
        "Impurity_consistent",
        "tree",
        "tree_asymmetric",
    ],
)
def test_subnormal_theta_is_refused_with_the_rule(call, theta):
    with pytest.raises(
        ValueError, match=r"every value of theta must be at least 1e-12.*got [0-9.e-]+"
    ):
        _no_warning(lambda: call(theta))


def test_smallest_allowed_theta_works_everywhere():
    th = [1e-12, 0.5, 0.5 - 1e-12]
    p = [0.2, 0.3, 0.5]
    values = _no_warning(
        lambda: [
            oc.off_centered(p, th),
            oc.asymmetric(p, th),
            oc.Impurity("gini", theta=th).of_counts([2, 3, 5]),
        ]
    )
    assert np.all(np.isfinite(values))
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(300, 3)), rng.integers(0, 3, 300)
    for measure in ("shannon", "gini", "asymmetric"):
        clf = _no_warning(
            lambda m=measure: oc.TreeClassifier(measure=m, theta=th, max_depth=3).fit(X, y)
        )
        assert all(np.isfinite(n.impurity) for n in clf.tree_.nodes)


def test_rank_diversity_order_is_bounded_so_values_stay_finite():
    # (q - 1)^rho overflowed: rank_diversity([0.5, 0.3, 0.2], 2000) was inf with a RuntimeWarning
    with pytest.raises(ValueError, match=r"rho = 2000 is out of range.*0 <= rho <= 100"):
        oc.rank_diversity([0.5, 0.3, 0.2], 2000)
    with pytest.raises(ValueError, match="rho"):
        oc.off_centered([0.9, 0.1], 0.2, "rank_diversity", rho=101)
    assert oc.MEASURES["rank_diversity"].params[0].high == 100
    # at the bound, 1,000 classes stay finite
    q = 1000
    value = oc.rank_diversity(np.full(q, 1.0 / q), 100)
    assert np.isfinite(value) and value > 0


@pytest.mark.parametrize(
    "theta, given, derived",
    [
        (0.0, "theta = 0 ", "got 1."),
        (-0.1, "theta = -0.1 ", "1.1"),
        (1.0, "theta = 1 ", "got 0"),
        (1.25, "theta = 1.25 ", "-0.25"),
        (1e-13, "theta = 1e-13 ", "0.9999"),
        (1 - 1e-13, "theta = 0.9999999999999 ", "e-13"),
    ],
)
def test_scalar_theta_message_quotes_the_value_given(theta, given, derived):
    # a single theta t means (1 - t, t): the message names t, never the derived 1 - t
    for call in (
        lambda: oc.off_centered([0.7, 0.3], theta),
        lambda: oc.off_center([0.7, 0.3], theta),
        lambda: oc.asymmetric([0.7, 0.3], theta),
        lambda: oc.TreeClassifier(theta=theta).fit([[0.0], [1.0]], [0, 1]),
    ):
        with pytest.raises(ValueError) as info:
            call()
        assert given in str(info.value)
        assert derived not in str(info.value)


def test_consistent_asymmetric_table_beyond_the_largest_float():
    with pytest.raises(ValueError, match="sample size n") as info:
        oc.association([[1e308, 1e308], [1e308, 0.0]], "asymmetric", consistent=True)
    assert "1.8e308" in str(info.value)
