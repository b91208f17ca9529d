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

References
----------
C. Nadeau, Y. Bengio, Inference for the generalization error, Machine Learning 52 (2003) 239-281.
R. R. Bouckaert, E. Frank, Evaluating the replicability of significance tests for comparing
learning algorithms, PAKDD 2004.
J. Demsar, Statistical comparisons of classifiers over multiple data sets, JMLR 7 (2006) 1-30.
S. Holm, A simple sequentially rejective multiple test procedure, Scand. J. Statist. 6 (1979).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from scipy import stats

__all__ = [
    "TIE_TOLERANCE",
    "TTestResult",
    "WilcoxonResult",
    "corrected_resampled_ttest",
    "holm",
    "wilcoxon_signed_rank",
    "wins_ties_losses",
]

#: Absolute differences at most this large count as ties (and are dropped by the Wilcoxon test).
TIE_TOLERANCE = 1e-12
#: scipy.stats.wilcoxon's method="auto" tests tied differences exhaustively up to this many.
_EXHAUSTIVE_MAX = 13


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


def wilcoxon_signed_rank(d, tol: float = TIE_TOLERANCE) -> WilcoxonResult:
    """Two-sided Wilcoxon signed-rank test of paired differences ``d`` (median 0 under H0).

    NaN differences and those with ``|d| <= tol`` are dropped first (the latter are zeros up to
    rounding, which scipy would otherwise rank); the p-value is then that of
    :func:`scipy.stats.wilcoxon` with its defaults (see the module notes). In one case the same
    number is computed by a faster route: with tied absolute differences and at most 13 of them,
    scipy runs an exhaustive permutation test of the signs whose statistic is not vectorized
    (seconds per call); here :func:`scipy.stats.permutation_test` runs the same test with a
    vectorized statistic (W+ = the sum of the ranks of the positive differences, the ranks being
    fixed by the absolute values). With no non-zero difference the p-value is 1.

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
        res = stats.permutation_test(
            (d,),
            lambda x, axis: np.sum((x > 0) * ranks, axis=axis),
            vectorized=True,
            permutation_type="samples",
            alternative="two-sided",
            axis=-1,
        )
        return WilcoxonResult(min(w_plus, n * (n + 1) / 2.0 - w_plus), float(res.pvalue), n)
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
