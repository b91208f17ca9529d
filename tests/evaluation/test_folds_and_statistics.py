"""Stratified folds and the paired statistics (offcenter.evaluation.statistics: scipy's values)."""

import math

import numpy as np
import pytest
import scipy.stats as st

from offcenter.evaluation.runner import stratified_folds
from offcenter.evaluation.statistics import (
    corrected_resampled_ttest,
    holm,
    wilcoxon_signed_rank,
    wins_ties_losses,
)


def test_folds_are_stratified_disjoint_and_seeded():
    y = np.array([0] * 85 + [1] * 15)
    folds = stratified_folds(y, n_splits=5, n_repeats=3, seed=42)
    assert len(folds) == 15
    for r in range(3):
        tests = [f.test for f in folds if f.repeat == r]
        allidx = np.concatenate(tests)
        assert sorted(allidx.tolist()) == list(range(100))
        for f in (f for f in folds if f.repeat == r):
            assert np.intersect1d(f.train, f.test).size == 0
            assert len(f.train) + len(f.test) == 100
            assert np.sum(y[f.test] == 1) == 3
            assert np.sum(y[f.test] == 0) == 17
    again = stratified_folds(y, n_splits=5, n_repeats=3, seed=42)
    assert all(np.array_equal(a.test, b.test) for a, b in zip(folds, again))
    other = stratified_folds(y, n_splits=5, n_repeats=1, seed=43)
    assert not all(np.array_equal(a.test, b.test) for a, b in zip(folds, other))
    # repeats differ from one another
    assert not np.array_equal(folds[0].test, folds[5].test)


def test_fold_sizes_differ_by_at_most_one():
    y = np.array(["a"] * 7 + ["b"] * 5 + ["c"] * 4)
    folds = stratified_folds(y, n_splits=3)
    sizes = [len(f.test) for f in folds]
    assert max(sizes) - min(sizes) <= 1


@pytest.mark.parametrize(
    "bad, match",
    [
        (dict(n_splits=1), "integer >= 2"),
        (dict(n_splits=2.5), "integer >= 2"),
        (dict(n_repeats=0), "repeats"),
        (dict(n_splits=4), "only 3 example"),
    ],
)
def test_fold_errors(bad, match):
    y = [0] * 10 + [1] * 3
    with pytest.raises(ValueError, match=match):
        stratified_folds(y, **{"n_splits": 3, **bad})


def test_wins_ties_losses():
    assert wins_ties_losses([1, 2, 3], [1, 1, 4]) == (1, 1, 1)


@pytest.mark.parametrize("seed", range(30))
def test_wilcoxon_is_scipys(seed):
    rng = np.random.default_rng(seed)
    # no ties, small n: scipy's exact distribution
    d = rng.normal(0.3, 1, int(rng.integers(1, 30)))
    ours, theirs = wilcoxon_signed_rank(d), st.wilcoxon(d)
    assert ours.statistic == theirs.statistic
    assert ours.pvalue == theirs.pvalue
    assert ours.n == d.size
    # ties, n <= 13: scipy's exhaustive permutation test (computed here with a vectorized
    # statistic: the same number)
    d = np.round(rng.normal(0.2, 1, int(rng.integers(3, 14))))
    d = d[d != 0]
    if d.size:
        ours, theirs = wilcoxon_signed_rank(d), st.wilcoxon(d)
        assert ours.statistic == theirs.statistic
        assert ours.pvalue == pytest.approx(theirs.pvalue, rel=1e-12, abs=0)
    # ties, 14 to 50: scipy's normal approximation with tie correction; large n: normal
    for n in (20, 80):
        d = np.round(rng.normal(0.2, 1, n), 1)
        d = d[d != 0]
        assert wilcoxon_signed_rank(d).pvalue == st.wilcoxon(d).pvalue


@pytest.mark.parametrize("seed", range(20))
def test_the_sign_flip_count_is_scipys_permutation_test_to_the_last_bit(seed):
    """With tied differences and at most 13 of them, the p-value counted over the subset sums of
    the ranks is the one scipy.stats.permutation_test gives over the 2^n sign flips."""
    rng = np.random.default_rng(seed)
    d = np.round(rng.normal(0.3, 1.5, int(rng.integers(2, 14))))
    d = d[d != 0]
    if d.size == 0 or np.unique(np.abs(d)).size == d.size:
        d = np.array([1.0, -1.0, 2.0, 2.0, -3.0])
    ranks = st.rankdata(np.abs(d))
    ref = st.permutation_test(
        (d,),
        lambda x, axis: np.sum((x > 0) * ranks, axis=axis),
        vectorized=True,
        permutation_type="samples",
        alternative="two-sided",
        axis=-1,
    )
    assert wilcoxon_signed_rank(d).pvalue == float(ref.pvalue)


def test_wilcoxon_zeros_up_to_rounding_are_dropped():
    assert wilcoxon_signed_rank([0.0, 0.0]).pvalue == 1.0
    assert wilcoxon_signed_rank([np.nan]).n == 0
    # n = 5 all positive: P(W+ = 15) = 1/32, two-sided 1/16
    assert wilcoxon_signed_rank([1, 2, 3, 4, 5]).pvalue == pytest.approx(1 / 16)
    # 1e-17 is a zero that floating point left behind (0.3 - 0.1 - 0.2): dropped, not ranked
    d = [1.0, 2.0, 3.0, 4.0, 5.0, 0.3 - 0.1 - 0.2]
    assert wilcoxon_signed_rank(d).pvalue == st.wilcoxon([1.0, 2.0, 3.0, 4.0, 5.0]).pvalue


def test_corrected_t_test():
    d = np.array([0.02, 0.01, 0.03, 0.0, 0.02, 0.015, -0.005, 0.01, 0.02, 0.0])
    ratio = 1 / 4
    r = corrected_resampled_ttest(d, ratio)
    t = d.mean() / math.sqrt((1 / len(d) + ratio) * d.var(ddof=1))
    assert r.statistic == pytest.approx(t)
    assert r.df == 9
    assert r.pvalue == pytest.approx(2 * st.t.sf(abs(t), 9))
    # the correction makes it more conservative than the plain paired t-test
    assert r.pvalue > st.ttest_1samp(d, 0).pvalue
    assert corrected_resampled_ttest([0.0, 0.0, 0.0], 0.25).pvalue == 1.0
    assert corrected_resampled_ttest([0.1, 0.1], 0.25).pvalue == 0.0
    assert math.isnan(corrected_resampled_ttest([0.1], 0.25).pvalue)


def test_holm():
    p = [0.01, 0.04, 0.03, np.nan, 0.5]
    out = holm(p)
    # sorted: 0.01*4, 0.03*3, 0.04*2, 0.5*1 -> monotone
    assert out[0] == pytest.approx(0.04)
    assert out[2] == pytest.approx(0.09)
    assert out[1] == pytest.approx(0.09)
    assert math.isnan(out[3])
    assert out[4] == pytest.approx(0.5)
