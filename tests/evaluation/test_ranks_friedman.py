"""Statistics across data sets (Demsar 2006): average ranks, Friedman/Iman-Davenport, Holm, CD."""

import math

import numpy as np
import pytest
from scipy import stats

from offcenter.evaluation.statistics import (
    average_ranks,
    friedman_from_ranks,
    friedman_test,
    holm,
    holm_versus_control,
    nemenyi_critical_difference,
)

# Demsar (2006), section 3.2.2: four variants of C4.5 on 14 data sets, average ranks as printed
DEMSAR_RANKS = [3.143, 2.000, 2.893, 1.964]


def test_demsar_example_friedman_and_iman_davenport():
    r = friedman_from_ranks(DEMSAR_RANKS, 14)
    assert r.chi2 == pytest.approx(9.28, abs=0.005)  # the paper: chi2_F = 9.28
    assert r.f == pytest.approx(3.69, abs=0.005)  # the paper: F_F = 3.69
    # "the critical value of F(3, 39) for alpha = 0.05 is 2.85, so we reject the null hypothesis"
    assert stats.f.ppf(0.95, 3, 39) == pytest.approx(2.85, abs=0.005)
    assert r.f_pvalue < 0.05 and (r.n, r.k) == (14, 4)


def test_demsar_example_post_hoc():
    # Nemenyi: q_0.05 = 2.569 for k = 4 (Table 5a), CD = 1.25
    assert nemenyi_critical_difference(4, 14) / math.sqrt(20 / 84) == pytest.approx(2.569, abs=5e-4)
    assert nemenyi_critical_difference(4, 14) == pytest.approx(1.25, abs=0.005)
    # Table 5a, other k: q_0.05 = 1.960 (k=2), 3.164 (k=10)
    for k, q in [(2, 1.960), (10, 3.164)]:
        cd = nemenyi_critical_difference(k, 7)
        assert cd / math.sqrt(k * (k + 1) / 42) == pytest.approx(q, abs=5e-4)
    r = holm_versus_control(DEMSAR_RANKS, 14, control=0)
    assert r["se"] == pytest.approx(0.488, abs=5e-4)
    # C4.5+m+cf: z = (3.143 - 1.964) / 0.488 = 2.416 (the paper, sign: the control ranks worse)
    assert -r["z"][3] == pytest.approx(2.416, abs=0.002)
    assert math.isnan(r["p"][0]) and math.isnan(r["p_holm"][0])
    # Holm: 0.016 < 0.05/3 and 0.019 < 0.05/2 are rejected, 0.607 is not
    assert (r["p_holm"][1:] < 0.05).tolist() == [True, False, True]


def test_holm_on_hand_values():
    # sorted 0.01, 0.02, 0.03, 0.2 -> 4*0.01, 3*0.02, 2*0.03, 1*0.2 (monotone): .04 .06 .06 .2
    assert holm([0.03, 0.2, 0.01, 0.02]).tolist() == pytest.approx([0.06, 0.2, 0.04, 0.06])
    out = holm([0.5, float("nan"), 0.01])
    assert out[1] != out[1] and out.tolist()[0] == 0.5 and out[2] == pytest.approx(0.02)
    assert holm([0.6, 0.7]).tolist() == pytest.approx([1.0, 1.0])  # 2*0.6 capped, then max


def test_average_ranks_ties_direction_and_missing_rows():
    scores = [[0.9, 0.9, 0.5], [0.1, 0.3, 0.2], [np.nan, 0.3, 0.2]]
    mean, ranks = average_ranks(scores)
    assert ranks.tolist() == [[1.5, 1.5, 3.0], [3.0, 1.0, 2.0]]
    assert mean.tolist() == [2.25, 1.25, 2.5]
    mean_low, _ = average_ranks(scores, higher_is_better=False)  # errors: lower is better
    assert mean_low.tolist() == [1.75, 2.75, 1.5]


def test_friedman_test_is_scipys_and_matches_the_rank_formula_without_ties():
    rng = np.random.default_rng(0)
    scores = rng.random((12, 5)) + np.array([0.0, 0.1, 0.2, 0.0, 0.05])
    r = friedman_test(scores)
    expected = stats.friedmanchisquare(*scores.T)
    assert r.chi2 == pytest.approx(expected.statistic) and r.chi2_pvalue == pytest.approx(
        expected.pvalue
    )
    by_ranks = friedman_from_ranks(r.mean_ranks, 12)
    assert by_ranks.chi2 == pytest.approx(r.chi2) and by_ranks.f == pytest.approx(r.f)
    assert r.f == pytest.approx(11 * r.chi2 / (12 * 4 - r.chi2))
    assert r.f_pvalue == pytest.approx(stats.f.sf(r.f, 4, 44))


def test_friedman_degenerate_cases():
    same = friedman_test([[0.5, 0.5, 0.5], [0.7, 0.7, 0.7]])  # all tied: nothing to test
    assert (same.chi2, same.chi2_pvalue, same.f_pvalue) == (0.0, 1.0, 1.0)
    perfect = friedman_test([[3, 2, 1], [3, 2, 1], [3, 2, 1]])  # full agreement: F infinite
    assert perfect.f == math.inf and perfect.f_pvalue == 0.0
    with pytest.raises(ValueError, match="at least 2 data sets"):
        friedman_test([[0.1, 0.2], [np.nan, 0.3]])
    with pytest.raises(ValueError, match="one column per setting"):
        friedman_test([0.1, 0.2])
    with pytest.raises(ValueError, match="control"):
        holm_versus_control([1.0, 2.0], 5, control=2)
