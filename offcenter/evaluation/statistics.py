r"""Paired statistics of a cross-validated comparison: wins/ties/losses, Wilcoxon, corrected t, Holm.

Every setting is compared with a reference setting fold by fold; the functions here take the
fold-wise differences ``d`` (setting - reference, one per (repeat, fold) pair).

- **Wins / ties / losses** across folds (a tie is an absolute difference <= 1e-12).
- **Wilcoxon signed-rank test** on the fold-wise differences: :func:`scipy.stats.wilcoxon` with
  its defaults (zero differences dropped, average ranks for ties, two-sided, no continuity
  correction, ``method="auto"``: the exact distribution up to 50 differences without ties or zeros,
  an exhaustive permutation test up to 13 differences with ties, and otherwise the normal
  approximation with the tie correction of the variance).
- **Corrected resampled t-test** of Nadeau and Bengio (2003). In repeated k-fold CV the training
  sets overlap, so fold-wise differences are *not* independent and the Wilcoxon test (like the
  plain paired t-test) is too optimistic. The corrected test inflates the variance:

  .. math:: t = \frac{\bar d}{\sqrt{\left(\frac{1}{J} + \frac{n_2}{n_1}\right) s_d^2}},
     \qquad J = k r \text{ folds},\ n_2/n_1 = \text{test/train sizes},\ \nu = J - 1

  and its two-sided p-value is :math:`2\,P(T_\nu > |t|)` from Student's t distribution
  (:data:`scipy.stats.t`). This is the test to read; the Wilcoxon p-value is shown for
  completeness.
- **Holm's step-down adjustment** of the corrected t-test p-values over the settings compared with
  the reference, for each metric (several settings are tested at once).

Across data sets (Demsar 2006, section 3.2), with one number per (data set, setting), the mean
over the folds:

- **Average ranks** (:func:`average_ranks`): on each data set the settings are ranked, 1 = best,
  ties sharing the average rank (:func:`scipy.stats.rankdata`); then averaged over the data sets.
- **Friedman test with the Iman-Davenport correction** (:func:`friedman_test`): the Friedman
  statistic of :func:`scipy.stats.friedmanchisquare` (which corrects for tied ranks; without ties
  it is Demsar's :math:`\chi^2_F = \frac{12N}{k(k+1)}[\sum_j R_j^2 - \frac{k(k+1)^2}{4}]`),
  then :math:`F_F = \frac{(N-1)\chi^2_F}{N(k-1) - \chi^2_F}` on (k - 1, (k - 1)(N - 1)) degrees
  of freedom (Iman and Davenport 1980: the chi-square is too conservative).
- **Post-hoc tests** from the average ranks: each setting against a control (Shannon) with
  :math:`z = (R_i - R_0) / \sqrt{k(k+1)/(6N)}`, two-sided normal p-values adjusted by Holm
  (:func:`holm_versus_control`); or all pairs with the Nemenyi test, whose critical difference is
  :math:`CD = q_\alpha \sqrt{k(k+1)/(6N)}` with :math:`q_\alpha` the studentized range quantile
  divided by :math:`\sqrt 2` (:func:`nemenyi_critical_difference`).

References
----------
C. Nadeau, Y. Bengio, Inference for the generalization error, Machine Learning 52 (2003) 239-281.
R. R. Bouckaert, E. Frank, Evaluating the replicability of significance tests for comparing
learning algorithms, PAKDD 2004.
J. Demsar, Statistical comparisons of classifiers over multiple data sets, JMLR 7 (2006) 1-30.
S. Holm, A simple sequentially rejective multiple test procedure, Scand. J. Statist. 6 (1979).
R. L. Iman, J. M. Davenport, Approximations of the critical region of the Friedman statistic,
Communications in Statistics A 9 (1980) 571-595.
"""

from __future__ import annotations

import functools
import math
import warnings
from typing import NamedTuple

import numpy as np
from scipy import stats

__all__ = [
    "FriedmanResult",
    "TIE_TOLERANCE",
    "TTestResult",
    "WilcoxonResult",
    "corrected_resampled_ttest",
    "average_ranks",
    "friedman_from_ranks",
    "friedman_test",
    "holm",
    "holm_versus_control",
    "nemenyi_critical_difference",
    "wilcoxon_signed_rank",
    "wins_ties_losses",
    "RANK_DECIMALS",
    "ROPE",
    "bayesian_signed_rank",
    "median_difference_ci",
    "paired_versus_control",
    "bayesian_correlated_ttest",
    "corrected_t_interval",
]

#: Absolute differences at most this large count as ties (and are dropped by the Wilcoxon test).
TIE_TOLERANCE = 1e-12
#: scipy.stats.wilcoxon's method="auto" tests tied differences exhaustively up to this many.
_EXHAUSTIVE_MAX = 13


#: What to do when baycomp is missing (it is the ``stats`` extra, not a core dependency).
BAYCOMP_HINT = (
    'the Bayesian tests need baycomp, the stats extra: pip install "offcenter[stats]" '
    "(or pip install baycomp; requirements.txt has it)."
)


def _baycomp():
    """The baycomp module, imported when a Bayesian test is asked for (it pulls matplotlib);
    an ImportError with :data:`BAYCOMP_HINT` without it."""
    try:
        import baycomp  # noqa: PLC0415
    except ImportError as exc:
        raise ImportError(BAYCOMP_HINT) from exc
    return baycomp


def _differences(d) -> np.ndarray:
    d = np.asarray(d, dtype=float).ravel()
    return d[~np.isnan(d)]


def wins_ties_losses(a, b, tol: float = TIE_TOLERANCE) -> tuple[int, int, int]:
    """Counts of pairs where ``a`` beats, ties with, and loses to ``b`` (NaN pairs dropped).

    Examples
    --------
    >>> wins_ties_losses([0.8, 0.7, 0.6, 0.5], [0.7, 0.7, 0.65, float("nan")])
    (1, 1, 1)
    """
    d = _differences(np.asarray(a, dtype=float) - np.asarray(b, dtype=float))
    return int(np.sum(d > tol)), int(np.sum(np.abs(d) <= tol)), int(np.sum(d < -tol))


class WilcoxonResult(NamedTuple):
    statistic: float  # min(W+, W-), scipy's two-sided statistic
    pvalue: float
    n: int  # number of non-zero differences


def _sign_flip_pvalue(ranks: np.ndarray, w_plus: float) -> float:
    """Two-sided p-value of W+ = ``w_plus`` over the 2^n sign flips of the ranks: the number
    :func:`scipy.stats.permutation_test` gives for the statistic W+ (``permutation_type="samples"``,
    exact: every flip), to the last bit (tests/evaluation compares them).

    The null distribution is the 2^n subset sums of the ranks (a 0/1 matrix of the subsets times
    the ranks); average ranks are multiples of 1/2, so every sum is exact, and so are scipy's
    comparisons (its tolerance, 100 eps times W+, is below the 1/2 between two sums) and counts:
    ``p = min(1, 2 min(#{sums <= W+}, #{sums >= W+}) / 2^n)``, computed as scipy computes it.
    scipy builds the 2^n flips as a list of Python tuples (about 20 ms for 13 ranks); this takes
    well under a millisecond.

    >>> r = np.array([1.5, 1.5, 3.0, 4.0])
    >>> w = 1.5 + 3.0
    >>> p = _sign_flip_pvalue(r, w)
    >>> res = stats.permutation_test(
    ...     (np.array([1.0, -1.0, 2.0, -3.0]),), lambda x, axis: np.sum((x > 0) * r, axis=axis),
    ...     vectorized=True, permutation_type="samples", axis=-1)
    >>> p == float(res.pvalue), p
    (True, 1.0)
    """
    n = ranks.size
    subsets = (np.arange(2**n)[:, None] >> np.arange(n)) & 1
    sums = subsets.astype(float) @ ranks
    less = np.count_nonzero(sums <= w_plus) / float(2**n)
    greater = np.count_nonzero(sums >= w_plus) / float(2**n)
    return float(np.clip(min(less, greater) * 2, 0.0, 1.0))


def wilcoxon_signed_rank(d, tol: float = TIE_TOLERANCE) -> WilcoxonResult:
    """Two-sided Wilcoxon signed-rank test of paired differences ``d`` (median 0 under H0).

    NaN differences and those with ``|d| <= tol`` are dropped first (the latter are zeros up to
    rounding, which scipy would otherwise rank); the p-value is then that of
    :func:`scipy.stats.wilcoxon` with its defaults (see the module notes). In one case the same
    number is computed by a faster route: with tied absolute differences and at most 13 of them,
    scipy runs an exhaustive permutation test of the signs whose statistic is not vectorized
    (seconds per call); here the same test, the one :func:`scipy.stats.permutation_test` runs
    with a vectorized statistic (W+ = the sum of the ranks of the positive differences, the ranks
    being fixed by the absolute values), is counted over the 2^n subset sums of the ranks
    (:func:`_sign_flip_pvalue`: permutation_test's number to the last bit, without its list of
    2^n flips). With no non-zero difference the p-value is 1.

    Examples
    --------
    >>> r = wilcoxon_signed_rank([1.0, 2.0, 3.0, 4.0, 5.0])
    >>> r.statistic, r.pvalue, r.n
    (0.0, 0.0625, 5)
    >>> wilcoxon_signed_rank([1.0, 1.0, -2.0, 3.0, 3.0, 4.0]).pvalue  # tied: 10 of the 64 signs
    0.15625
    """
    d = _differences(d)
    d = d[np.abs(d) > tol]
    n = int(d.size)
    if n == 0:
        return WilcoxonResult(0.0, 1.0, 0)
    ranks = stats.rankdata(np.abs(d))
    tied = np.unique(np.abs(d)).size < n
    if tied and n <= _EXHAUSTIVE_MAX:
        w_plus = float(np.sum(ranks[d > 0]))
        p = _sign_flip_pvalue(ranks, w_plus)
        return WilcoxonResult(min(w_plus, n * (n + 1) / 2.0 - w_plus), p, n)
    res = stats.wilcoxon(d)
    return WilcoxonResult(float(res.statistic), float(res.pvalue), n)


class TTestResult(NamedTuple):
    statistic: float
    pvalue: float
    df: int


def corrected_resampled_ttest(d, test_train_ratio: float) -> TTestResult:
    r"""Nadeau and Bengio's corrected resampled t-test of fold-wise differences ``d``.

    .. math:: t = \bar d \Big/ \sqrt{(1/J + n_2/n_1)\, s^2},\quad \nu = J - 1

    with J the number of (repeat, fold) pairs, s^2 the sample variance of d (ddof = 1) and
    ``test_train_ratio`` = n_2 / n_1 (1 / (k - 1) for k-fold CV). Two-sided p-value
    ``2 * scipy.stats.t.sf(|t|, J - 1)``. With zero variance: p = 1 if the mean difference is 0,
    else 0 (t = +-inf). NaN differences are dropped; fewer than 2 differences give NaN.

    Examples
    --------
    >>> r = corrected_resampled_ttest([0.02, 0.01, 0.03, 0.0, 0.02], 0.25)
    >>> round(r.statistic, 4), round(r.pvalue, 4), r.df
    (2.0919, 0.1046, 4)
    """
    d = _differences(d)
    j = d.shape[0]
    if j < 2:
        return TTestResult(float("nan"), float("nan"), max(j - 1, 0))
    mean = float(d.mean())
    var = float(d.var(ddof=1))
    if var <= 1e-300:
        if abs(mean) <= TIE_TOLERANCE:
            return TTestResult(0.0, 1.0, j - 1)
        return TTestResult(math.copysign(math.inf, mean), 0.0, j - 1)
    t = mean / math.sqrt((1.0 / j + float(test_train_ratio)) * var)
    p = 2.0 * float(stats.t.sf(abs(t), j - 1))
    return TTestResult(t, min(1.0, p), j - 1)


def holm(pvalues) -> np.ndarray:
    r"""Holm's step-down adjusted p-values (NaN entries are ignored and stay NaN).

    With the m p-values sorted increasingly, :math:`\tilde p_{(i)} = \min(1, \max_{k \le i}
    (m - k + 1)\, p_{(k)})`.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03]).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(pvalues, dtype=float)
    out = np.full_like(p, np.nan)
    ok = np.nonzero(~np.isnan(p))[0]
    m = ok.shape[0]
    if m == 0:
        return out
    order = ok[np.argsort(p[ok], kind="mergesort")]
    adjusted = np.maximum.accumulate((m - np.arange(m)) * p[order])
    out[order] = np.minimum(1.0, adjusted)
    return out


# ====================================================================== across data sets
#: Scores are rounded to this many decimals before they are ranked: means equal in exact
#: arithmetic but 1 ulp apart (sums of the same fold values in another order) must tie.
RANK_DECIMALS = 12


def _score_table(scores) -> np.ndarray:
    a = np.asarray(scores, dtype=float)
    if a.ndim != 2 or a.shape[1] < 2:
        raise ValueError(
            f"scores must be a table with one row per data set and one column per setting (at "
            f"least 2); got shape {a.shape}."
        )
    return np.round(a, RANK_DECIMALS)


def average_ranks(scores, higher_is_better: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Rank the settings on each data set (1 = best, ties averaged) and average the ranks.

    ``scores`` is (N data sets, k settings); rows with a NaN are left out (the Friedman test needs
    every setting on every data set). Returns ``(mean_ranks, ranks)`` with ``ranks`` the (N', k)
    ranks of the complete rows.

    Examples
    --------
    >>> mean, ranks = average_ranks([[0.9, 0.8, 0.8], [0.7, 0.9, 0.6]])
    >>> mean.tolist(), ranks.tolist()
    ([1.5, 1.75, 2.75], [[1.0, 2.5, 2.5], [2.0, 1.0, 3.0]])
    """
    a = _score_table(scores)
    a = a[~np.isnan(a).any(axis=1)]
    ranks = stats.rankdata(-a if higher_is_better else a, axis=1)
    mean = ranks.mean(axis=0) if a.shape[0] else np.full(a.shape[1], np.nan)
    return mean, ranks


class FriedmanResult(NamedTuple):
    mean_ranks: np.ndarray
    chi2: float  # Friedman's statistic
    chi2_pvalue: float
    f: float  # Iman-Davenport's F_F
    f_pvalue: float
    n: int  # data sets used (complete rows)
    k: int  # settings


def _iman_davenport(chi2: float, n: int, k: int) -> tuple[float, float]:
    denom = n * (k - 1) - chi2
    if denom <= 1e-12:  # every data set ranks the settings the same way
        return math.inf, 0.0
    f = (n - 1) * chi2 / denom
    return float(f), float(stats.f.sf(f, k - 1, (k - 1) * (n - 1)))


def friedman_from_ranks(mean_ranks, n: int) -> FriedmanResult:
    r"""Friedman and Iman-Davenport statistics from average ranks alone (Demsar 2006, eq. 3-4).

    :math:`\chi^2_F = \frac{12N}{k(k+1)}\left[\sum_j R_j^2 - \frac{k(k+1)^2}{4}\right]`
    (no correction for ties: the paper's formula), :math:`F_F = (N-1)\chi^2_F / (N(k-1) -
    \chi^2_F)`; p-values from the chi-square (k - 1 df) and F (k - 1, (k - 1)(N - 1)) laws.

    Examples
    --------
    Demsar's (2006) example, four variants of C4.5 on 14 data sets:

    >>> r = friedman_from_ranks([3.143, 2.000, 2.893, 1.964], 14)
    >>> round(r.chi2, 2), round(r.f, 2)
    (9.28, 3.69)
    """
    R = np.asarray(mean_ranks, dtype=float)
    k = R.shape[0]
    if k < 2 or n < 2:
        raise ValueError(
            f"the Friedman test needs at least 2 settings and 2 data sets; got k={k}, N={n}."
        )
    chi2 = 12.0 * n / (k * (k + 1)) * (np.sum(R**2) - k * (k + 1) ** 2 / 4.0)
    chi2 = max(float(chi2), 0.0)
    f, fp = _iman_davenport(chi2, n, k)
    return FriedmanResult(R, chi2, float(stats.chi2.sf(chi2, k - 1)), f, fp, int(n), int(k))


def friedman_test(scores, higher_is_better: bool = True) -> FriedmanResult:
    """Friedman test (:func:`scipy.stats.friedmanchisquare`) with Iman-Davenport's F.

    ``scores`` is (N data sets, k settings); rows with a NaN are left out. scipy's statistic
    corrects for tied ranks (equal to :func:`friedman_from_ranks` when there is no tie); when
    every setting ties on every data set the statistic is undefined and taken as 0 (p = 1).

    Examples
    --------
    >>> r = friedman_test([[0.9, 0.8, 0.7], [0.8, 0.7, 0.6], [0.7, 0.75, 0.5]])
    >>> r.mean_ranks.tolist(), round(r.chi2, 3), r.n
    ([1.3333333333333333, 1.6666666666666667, 3.0], 4.667, 3)
    """
    mean, ranks = average_ranks(scores, higher_is_better)
    n, k = ranks.shape
    if n < 2:
        raise ValueError(
            f"the Friedman test needs at least 2 data sets with every setting scored; got {n}."
        )
    a = _score_table(scores)
    a = a[~np.isnan(a).any(axis=1)]
    if np.all(np.ptp(a, axis=1) == 0):
        return FriedmanResult(mean, 0.0, 1.0, 0.0, 1.0, n, k)
    if k < 3:  # scipy needs 3 settings; the rank formula holds for 2 (no tie correction)
        return friedman_from_ranks(mean, n)._replace(mean_ranks=mean)
    with np.errstate(invalid="ignore", divide="ignore"):
        res = stats.friedmanchisquare(*a.T)
    chi2 = float(res.statistic)
    f, fp = _iman_davenport(chi2, n, k)
    return FriedmanResult(mean, chi2, float(res.pvalue), f, fp, n, k)


def nemenyi_critical_difference(k: int, n: int, alpha: float = 0.05) -> float:
    r"""Nemenyi's critical difference of average ranks, :math:`q_\alpha \sqrt{k(k+1)/(6N)}`.

    :math:`q_\alpha` is the studentized range quantile (k groups, infinite df,
    :data:`scipy.stats.studentized_range`) divided by :math:`\sqrt 2` (Demsar 2006, Table 5a).

    Examples
    --------
    >>> round(nemenyi_critical_difference(4, 14), 2)  # Demsar's example: q = 2.569, CD = 1.25
    1.25
    """
    if k < 2 or n < 1:
        raise ValueError(
            f"the critical difference needs k >= 2 settings and N >= 1 data sets; got k={k}, N={n}."
        )
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1); got {alpha!r}.")
    return _nemenyi_q(k, alpha) * math.sqrt(k * (k + 1) / (6.0 * n))


@functools.lru_cache(maxsize=64)
def _nemenyi_q(k: int, alpha: float) -> float:
    r""":math:`q_\alpha` of :func:`nemenyi_critical_difference`, computed once per (k, alpha):
    scipy integrates the studentized range numerically (about 5 ms a call), and a report asks
    for the same few values a hundred times."""
    return float(stats.studentized_range.ppf(1 - alpha, k, np.inf)) / math.sqrt(2.0)


def holm_versus_control(mean_ranks, n: int, control: int) -> dict:
    r"""Each setting against a control from average ranks: z, p, Holm-adjusted p.

    :math:`z_i = (R_i - R_c) / \sqrt{k(k+1)/(6N)}` (positive: the setting ranks worse than the
    control), two-sided :math:`p_i = 2(1 - \Phi(|z_i|))`, Holm-adjusted over the k - 1
    comparisons (Demsar 2006, section 3.2.2). The control's entries are NaN.

    Examples
    --------
    Demsar's example, C4.5 (rank 3.143) as the control (the paper gives p = 0.019, 0.607 and
    0.016 from the rounded z; Holm rejects the first and the last at 5%):

    >>> r = holm_versus_control([3.143, 2.000, 2.893, 1.964], 14, control=0)
    >>> [round(float(v), 3) for v in r["p"][1:]]
    [0.019, 0.608, 0.016]
    >>> [round(float(v), 3) for v in r["p_holm"][1:]]
    [0.047, 0.608, 0.047]
    """
    R = np.asarray(mean_ranks, dtype=float)
    k = R.shape[0]
    if not 0 <= control < k:
        raise ValueError(f"control must index one of the {k} settings; got {control!r}.")
    se = math.sqrt(k * (k + 1) / (6.0 * n))
    z = (R - R[control]) / se
    p = 2.0 * stats.norm.sf(np.abs(z))
    z[control] = np.nan
    p[control] = np.nan
    return {"z": z, "p": p, "p_holm": holm(p), "se": se}


# ====================================================================== against a control, per data set
#: Region of practical equivalence of the Bayesian signed-rank test: differences of the per-data-set
#: means within +-0.01 (one point of AUC, balanced accuracy, G-mean...) count as equivalent.
ROPE = 0.01


def _bootstrap_ci(d: np.ndarray, statistic, confidence: float, n_resamples: int, seed: int):
    """``statistic`` of the differences and its BCa bootstrap interval (percentile if BCa fails)."""
    value = float(statistic(d))
    if d.size < 3 or np.ptp(d) == 0:
        return value, value, value
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", stats.DegenerateDataWarning)
        res = stats.bootstrap(
            (d,),
            statistic,
            confidence_level=confidence,
            n_resamples=n_resamples,
            method="BCa",
            rng=np.random.default_rng(seed),
        )
    lo, hi = float(res.confidence_interval.low), float(res.confidence_interval.high)
    if not (np.isfinite(lo) and np.isfinite(hi)):  # BCa degenerate: the percentile interval
        rng = np.random.default_rng(seed)
        boots = statistic(rng.choice(d, size=(n_resamples, d.size)), axis=1)
        a = (1 - confidence) / 2
        lo, hi = (float(v) for v in np.quantile(boots, [a, 1 - a]))
    return value, lo, hi


def _median(x, axis: int = -1):
    """:func:`numpy.median` along ``axis`` by a full sort: the same numbers (the middle value, or
    the mean of the two middle values), about five times faster than numpy's partition on the
    bootstrap's 9,999 resamples of a few dozen differences. NaN in a row gives NaN, as numpy.

    >>> x = np.array([[3.0, 1.0, 2.0, 5.0], [1.0, np.nan, 0.0, 2.0]])
    >>> _median(x, axis=1).tolist(), np.median(x, axis=1).tolist()
    ([2.5, nan], [2.5, nan])
    """
    s = np.moveaxis(np.sort(np.asarray(x, dtype=float), axis=axis), axis, -1)
    n = s.shape[-1]
    out = s[..., (n - 1) // 2 : n // 2 + 1].mean(axis=-1)
    return np.where(np.isnan(s[..., -1]), np.nan, out)


def median_difference_ci(d, confidence: float = 0.95, n_resamples: int = 9999, seed: int = 0):
    """Median of the differences and its bootstrap confidence interval over the data sets.

    :func:`scipy.stats.bootstrap` (BCa, ``n_resamples`` resamples of the data sets, seeded);
    NaN dropped. With fewer than 3 differences, or all equal, the interval is the median itself.

    Examples
    --------
    >>> m, lo, hi = median_difference_ci([0.01, 0.02, 0.03, 0.0, 0.02, 0.05, -0.01])
    >>> m, lo <= m <= hi
    (0.02, True)
    """
    d = _differences(d)
    if d.size == 0:
        return math.nan, math.nan, math.nan
    return _bootstrap_ci(d, _median, confidence, n_resamples, seed)


def mean_difference_ci(d, confidence: float = 0.95, n_resamples: int = 9999, seed: int = 0):
    """Mean of the differences and its BCa bootstrap confidence interval over the data sets.

    As :func:`median_difference_ci`, for the mean: the interval that says how large a
    difference "not shown to differ" still allows.

    Examples
    --------
    >>> m, lo, hi = mean_difference_ci([0.01, 0.02, 0.03, 0.0, 0.02, 0.05, -0.01])
    >>> round(m, 4), lo < m < hi
    (0.0171, True)
    """
    d = _differences(d)
    if d.size == 0:
        return math.nan, math.nan, math.nan
    return _bootstrap_ci(d, np.mean, confidence, n_resamples, seed)


def bayesian_signed_rank(x, y, rope: float = ROPE, seed: int = 0, nsamples: int = 10000):
    """P(x better), P(equivalent), P(y better) by the Bayesian signed-rank test.

    :class:`baycomp.SignedRankTest` (Benavoli, Corani, Demsar and Zaffalon, JMLR 18, 2017):
    a Dirichlet process posterior over the per-data-set differences ``x - y`` (one pseudo
    observation at 0, ``nsamples`` Monte Carlo draws, seeded: a Monte Carlo standard error of
    at most 0.005 on each probability), the three probabilities that the difference lies right
    of the ROPE, inside ``[-rope, rope]``, or left of it. baycomp 1.0.3 works with numpy 2
    (checked); it is imported only here (it pulls matplotlib for its plots, unused).

    Examples
    --------
    >>> better, same, worse = bayesian_signed_rank([0.9, 0.8, 0.85, 0.7] * 5, [0.7, 0.6, 0.65, 0.5] * 5)
    >>> better > 0.99, same + worse < 0.01
    (True, True)
    """
    check_args = _baycomp().utils.check_args

    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    ok = ~(np.isnan(x) | np.isnan(y))
    x, y = x[ok], y[ok]
    if x.size < 2:
        return math.nan, math.nan, math.nan
    if np.all(np.abs(x - y) <= TIE_TOLERANCE):
        return 0.0, 1.0, 0.0
    if not rope > 0:
        raise ValueError(f"the ROPE must be a positive width; got {rope!r}.")
    check_args(x, y, rope, nsamples=nsamples)
    left, mid, right = _signed_rank_probs(x, y, rope, nsamples, seed)
    return float(left), float(mid), float(right)


@functools.lru_cache(maxsize=4)
def _dirichlet_draws(seed: int, size: int, prior: float, nsamples: int) -> np.ndarray:
    """``RandomState(seed).dirichlet([prior, 1, ..., 1], nsamples)`` (``size`` weights), read-only.

    The draws depend on nothing else, so the comparisons of a report (a thousand of them, most
    over the same number of data sets) share them instead of drawing them again.
    """
    weights = np.ones(size)
    weights[0] = prior
    draws = np.random.RandomState(seed).dirichlet(weights, nsamples)
    draws.flags.writeable = False
    return draws


@functools.cache
def _blas_controller():
    """threadpoolctl's controller of the BLAS libraries loaded (found once: ~10 ms)."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def _one_blas_thread():
    """A context in which the BLAS runs on one thread.

    The signed-rank test's matrix products (10,000 draws x ~42 weights by 42 x 42) are too small
    for threads: OpenBLAS's threads spent about four times the CPU of one thread on them, most of
    it waiting for each other, and took it from the other processes of a busy machine.
    """
    return _blas_controller().limit(limits=1, user_api="blas")


def _signed_rank_probs(x, y, rope: float, nsamples: int, seed: int, prior: float = 0.5):
    r"""``baycomp.SignedRankTest.probs(x, y, rope, nsamples=..., random_state=seed)``, the same
    numbers without its Python loop over the draws (baycomp 1.0.3 spends about 0.15 s a call; the
    study's report makes a thousand calls).

    The same Dirichlet draws :math:`w` (``RandomState(seed).dirichlet``, pseudo observation 0 of
    weight ``prior`` first) and per draw the posterior masses left of, inside and right of the
    ROPE, :math:`w^\top B w` with :math:`B_{ij} = H(-(z_i + z_j) - 2r)` (and :math:`H(z_i + z_j
    - 2r)` on the right; :math:`H` is 1 above 0, 1/2 at 0, :math:`z` the differences ``y - x``).
    The masses are computed as matrix products; a draw whose two largest masses lie within
    1e-9 of each other (where the order of a floating-point sum could decide its winner) is
    computed again as baycomp does (``np.sum`` of the outer product times :math:`B`), so the
    winners, and the three probabilities, are baycomp's exactly (tests/studies compares them).
    The products run on one BLAS thread (:func:`_one_blas_thread`): the same winners, at a
    quarter of the CPU.
    """
    diff = np.hstack(([0.0], y - x))
    sums = diff[:, None] + diff[None, :]

    def heaviside(a, thresh):
        return (a > thresh).astype(float) + 0.5 * (a == thresh).astype(float)

    below, above = heaviside(-sums, 2 * rope), heaviside(sums, 2 * rope)
    draws = _dirichlet_draws(seed, diff.size, prior, nsamples)
    masses = np.empty((3, nsamples))  # left, inside, right of the ROPE: one row each
    with _one_blas_thread():
        masses[0] = ((draws @ below) * draws).sum(axis=1)
        masses[2] = ((draws @ above) * draws).sum(axis=1)
    masses[1] = -masses[0] - masses[2] + 1
    left, mid, right = masses
    # the largest and the second largest of the three (exact: comparisons, no sort)
    first = np.maximum(np.maximum(left, mid), right)
    second = np.maximum(np.minimum(left, mid), np.minimum(np.maximum(left, mid), right))
    close = np.flatnonzero(first - second < 1e-9)
    for i in close:  # baycomp's own sums, for the draws a rounding could decide
        outer = np.outer(draws[i], draws[i])
        masses[0, i] = np.sum(outer * below)
        masses[2, i] = np.sum(outer * above)
        masses[1, i] = -masses[0, i] - masses[2, i] + 1
    winners = np.argmax(masses, axis=0)
    return np.bincount(winners, minlength=3) / nsamples


def paired_versus_control(
    scores,
    control: int,
    rope: float = ROPE,
    alpha: float = 0.05,
    seed: int = 0,
    bayes: bool = True,
) -> dict:
    r"""Each setting against a control on the per-data-set means: the decision rule of the study.

    For every setting i != control, the differences :math:`d_j = x_{ji} - x_{jc}` over the data
    sets j (one per data set: the mean over its folds, rounded to :data:`RANK_DECIMALS`):

    - the two-sided **Wilcoxon signed-rank** p-value (:func:`wilcoxon_signed_rank`: zeros dropped),
      **Holm-adjusted** over the k - 1 settings: the decision (``significant`` when < ``alpha``).
      Unlike the z-test on average ranks, its outcome for one setting does not depend on which
      other settings are in the pool (Benavoli, Corani and Mangili, JMLR 17, 2016);
    - effect sizes: mean and median difference, a bootstrap 95 % CI of the median
      (:func:`median_difference_ci`);
    - wins / ties / losses over the data sets (ties: ``|d| <= 1e-12``);
    - the Bayesian signed-rank test with a ROPE (:func:`bayesian_signed_rank`): P(better),
      P(equivalent), P(worse) (NaN with ``bayes=False``, for speed).

    Returns a dict of arrays (length k, the control's entries NaN): ``mean_diff``,
    ``median_diff``, ``ci_low``, ``ci_high``, ``wins``, ``ties``, ``losses``, ``p``,
    ``p_holm``, ``p_better``, ``p_rope``, ``p_worse``, ``n``.

    Examples
    --------
    >>> r = paired_versus_control([[0.8, 0.9], [0.7, 0.75], [0.6, 0.7], [0.5, 0.52]] * 3, 0)
    >>> int(r["wins"][1]), round(float(r["median_diff"][1]), 3), float(r["p_holm"][1]) < 0.05
    (12, 0.075, True)
    """
    a = _score_table(scores)
    k = a.shape[1]
    if not 0 <= control < k:
        raise ValueError(f"control must index one of the {k} settings; got {control!r}.")
    names = [
        "mean_diff", "median_diff", "ci_low", "ci_high", "wins", "ties", "losses",
        "p", "p_better", "p_rope", "p_worse", "n",
    ]  # fmt: skip
    out = {n: np.full(k, np.nan) for n in names}
    for i in range(k):
        if i == control:
            continue
        d = a[:, i] - a[:, control]
        d = d[~np.isnan(d)]
        out["n"][i] = d.size
        out["mean_diff"][i] = float(d.mean()) if d.size else np.nan
        out["median_diff"][i], out["ci_low"][i], out["ci_high"][i] = median_difference_ci(
            d, seed=seed
        )
        w, t, l_ = wins_ties_losses(d, np.zeros_like(d))
        out["wins"][i], out["ties"][i], out["losses"][i] = w, t, l_
        out["p"][i] = wilcoxon_signed_rank(d).pvalue if d.size else np.nan
        ok = ~np.isnan(a[:, i]) & ~np.isnan(a[:, control])
        if not bayes:
            continue
        out["p_better"][i], out["p_rope"][i], out["p_worse"][i] = bayesian_signed_rank(
            a[ok, i], a[ok, control], rope=rope, seed=seed
        )
    out["p_holm"] = holm(out["p"])
    out["significant"] = out["p_holm"] < alpha
    return out


def corrected_t_interval(d, test_train_ratio: float, confidence: float = 0.95):
    r"""Confidence interval of the mean fold-wise difference under Nadeau and Bengio's correction.

    :math:`\bar d \pm t_{\nu, (1+c)/2} \sqrt{(1/J + n_2/n_1) s^2}`, :math:`\nu = J - 1` (the
    interval of :func:`corrected_resampled_ttest`). Fewer than 2 differences: NaN.

    Examples
    --------
    >>> lo, hi = corrected_t_interval([0.02, 0.01, 0.03, 0.0, 0.02], 0.25)
    >>> round(lo, 4), round(hi, 4)
    (-0.0052, 0.0372)
    """
    d = _differences(d)
    j = d.size
    if j < 2:
        return math.nan, math.nan
    half = float(stats.t.ppf((1 + confidence) / 2, j - 1)) * math.sqrt(
        (1.0 / j + float(test_train_ratio)) * float(d.var(ddof=1))
    )
    m = float(d.mean())
    return m - half, m + half


def bayesian_correlated_ttest(x, y, runs: int = 1, rope: float = ROPE):
    """P(x better), P(equivalent), P(y better) by the Bayesian correlated t-test on one data set.

    :class:`baycomp.CorrelatedTTest` (Corani and Benavoli, Machine Learning 100, 2015): the
    fold-wise differences of a cross-validation repeated ``runs`` times, with Nadeau and Bengio's
    correlation correction, give a Student posterior of the mean difference; the three
    probabilities are its mass right of the ROPE ``[-rope, rope]``, inside it and left of it
    (closed form, no sampling). NaN pairs dropped; fewer than 2 pairs or an unequal split over
    the runs: NaN.

    Examples
    --------
    >>> b, e, w = bayesian_correlated_ttest([0.9, 0.8, 0.85, 0.9, 0.88], [0.7, 0.6, 0.65, 0.7, 0.69])
    >>> b > 0.95, round(b + e + w, 6)
    (True, 1.0)
    """
    CorrelatedTTest = _baycomp().CorrelatedTTest

    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    ok = ~(np.isnan(x) | np.isnan(y))
    x, y = x[ok], y[ok]
    runs = max(1, int(runs))
    if x.size < 2 or x.size % runs or x.size // runs < 2:
        return math.nan, math.nan, math.nan
    d = x - y
    if np.all(np.abs(d) <= TIE_TOLERANCE):
        return 0.0, 1.0, 0.0
    if np.ptp(d) <= TIE_TOLERANCE:  # no variance: the posterior is a point
        m = float(d.mean())
        return (1.0, 0.0, 0.0) if m > rope else ((0.0, 0.0, 1.0) if m < -rope else (0.0, 1.0, 0.0))
    left, mid, right = CorrelatedTTest.probs(x, y, rope=rope, runs=runs)
    return float(left), float(mid), float(right)
