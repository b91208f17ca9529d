r"""Base uncertainty measures of a class distribution.

Every function takes ``p``, an array whose **last axis** holds the q class frequencies
(non-negative, summing to 1); leading axes are batch axes, so a curve of 1,000 binary
distributions is one call on an array of shape ``(1000, 2)``. The result has the batch shape
(a Python float for a single distribution). Logarithms are base 2 (bits), ``0 log 0 = 0``.

All measures are 0 on a sure distribution (one class of frequency 1) and, except the raw
``gini`` and ``misclassification`` (kept as in rpart, scikit-learn and the NPFL054 lecture),
equal 1 on the binary uniform distribution (1/2, 1/2).

Each public function validates its input and calls a private *kernel* (``_shannon`` ...) that
assumes valid float64 input; the tree engine and the curve builders call the kernels directly
on data they have already checked.

Accuracy: every value has a relative error below 1e-13 against 400-digit mpmath references
(tests/measures/test_accuracy.py), near a sure distribution too (frequencies of 1e-300 beside
1), at sample sizes up to 1e300 and for theta down to 1e-12. The input is read as the
distribution the numbers given make once divided by their sum, so for ``[1e-17, 1.0]`` the
complement of the second frequency is 1e-17 (not ``1 - 1.0 = 0``). Method: the complement
1 - p_j of the frequency above 1/2 (if any) is the sum of the others, its logarithm
``log1p(-(1 - p_j))``; each measure is then a sum of terms of one sign.

References
----------
Shannon (1948); Daroczy, *Generalized information functions*, Information and Control 16 (1970);
Patil and Taillie, *Diversity as a concept and its measurement*, JASA 77 (1982);
Marcellin, Zighed and Ritschard, *An asymmetric entropy measure for decision trees*, IPMU 2006;
Zighed, Marcellin and Ritschard, *Mesure d'entropie asymetrique et consistante*, EGC 2007;
Dietterich, Kearns and Mansour, *Applying the weak learning framework to understand and improve
C4.5*, ICML 1996; Drummond and Holte, *Exploiting the cost (in)sensitivity of decision tree
splitting criteria*, ICML 2000;
Lallich, Lenca and Vaillant, *Construction of an off-centered entropy for supervised learning*,
ASMDA 2007 (hal-02121319).
"""

from __future__ import annotations

import math

import numpy as np

from offcenter.measures._validation import (
    as_distribution,
    as_float_array,
    as_parameter,
    as_sample_size,
    as_theta,
    scalar_or_array,
)

_LN2 = math.log(2.0)

# ----------------------------------------------------------------------------------------------
# Kernels: valid float64 input of shape (..., q), result of shape (...). No checks.
#
# Accuracy. A frequency near 1 holds little information in float64: 1 - 1e-17 is stored as 1.0,
# and 1 - p computed by subtraction keeps none of it. Every kernel therefore takes the
# complement 1 - p_j of the (at most one) frequency above 1/2 as the sum of the other
# frequencies (:func:`_complement`), and its logarithm as log1p(-(1 - p_j)). After that each
# measure is a sum of terms of one sign, each with a small relative error, so the result has a
# small *relative* error (<= 1e-13 against mpmath, tests/measures/test_accuracy.py), down to
# frequencies of 1e-300 beside 1.
# ----------------------------------------------------------------------------------------------


def _row_sum(x: np.ndarray) -> np.ndarray:
    """``x.sum(axis=-1)``, by columns when there are few (numpy's reduction over a short last
    axis is several times slower than a few vector additions)."""
    q = x.shape[-1]
    if q > 8:
        return x.sum(axis=-1)
    total = x[..., 0].copy()
    for j in range(1, q):
        total += x[..., j]
    return total


def _complement(p: np.ndarray) -> np.ndarray:
    """1 - p_j for each class, accurately: for a frequency above 1/2, the sum of the others.

    At most one frequency of a distribution exceeds 1/2, and its complement is a sum of
    non-negative frequencies, free of the cancellation of ``1 - p_j`` (which is 0 for
    p = (1e-17, 1.0)). Elsewhere ``1 - p_j >= 1/2`` is computed directly (exact or within
    half an ulp).
    """
    comp = 1.0 - p
    big = comp < 0.5  # p_j > 1/2 (1 - p is exact there)
    if big.any():
        np.copyto(comp, _row_sum(p * ~big)[..., None], where=big)
    return comp


def _log(p: np.ndarray, comp: np.ndarray) -> np.ndarray:
    """Natural log of the frequencies, 0 where p_j = 0 (0 log 0 = 0 then follows).

    ``log1p(-(1 - p_j))`` above 1/2, so that a frequency just below 1 keeps its small log.
    """
    logs = np.log(np.where(p > 0.0, p, 1.0))
    big = comp < 0.5
    if big.any():
        np.log1p(-comp, out=logs, where=big)
    return logs


def _shannon(p: np.ndarray) -> np.ndarray:
    # each -p_j log2 p_j >= 0: the sum has a small relative error
    return np.maximum(-_row_sum(p * _log(p, _complement(p))) / _LN2, 0.0)


def _gini(p: np.ndarray) -> np.ndarray:
    # 1 - sum p_j^2 = sum p_j (1 - p_j), a sum of non-negative terms (sum p = 1)
    return np.maximum(_row_sum(p * _complement(p)), 0.0)


def _misclassification(p: np.ndarray) -> np.ndarray:
    # 1 - max p_j, the complement of the largest frequency
    return np.maximum(_complement(p).min(axis=-1), 0.0)


def _expm1_ratio(x: np.ndarray) -> np.ndarray:
    """phi(x) = expm1(x) / x, 1 at x = 0; a few ulps everywhere (expm1 is accurate near 0)."""
    return np.divide(np.expm1(x), x, out=np.ones_like(x), where=x != 0.0)


def _daroczy(p: np.ndarray, beta: float) -> np.ndarray:
    d = beta - 1.0
    if d == 0.0:
        return _shannon(p)
    # frequencies above 1 by round-off are capped: p^beta then stays <= 1 for every beta
    safe = np.minimum(p, 1.0)
    comp = _complement(safe)
    if abs(d) <= 0.5:
        # Near beta = 1, with phi(x) = expm1(x) / x: p^beta - p = d p ln p phi(d ln p) and
        # 2^d / (2^d - 1) = 1 / (d ln 2 phi(-d ln 2)), so d cancels and
        #     H = -sum p ln p phi(d ln p) / (ln 2 phi(-d ln 2)),
        # Shannon's formula times factors near 1: no cancellation, no underflow of d ln p,
        # continuous at beta = 1. Each term p ln p phi(d ln p) = (p^beta - p) / d <= 0, and 0
        # for an absent class (ln p is taken as 0 there).
        log_p = _log(safe, comp)
        x = d * log_p
        terms = safe * log_p * _expm1_ratio(x)
        # exp of a large d ln p (a tiny p) magnifies the rounding of d ln p (5e-14 at 346):
        # there p^beta / p is far from 1 and (p^beta - p) / d has no cancellation
        far = np.abs(x) >= 1.0
        if far.any():
            np.copyto(terms, (np.power(safe, beta) - safe) / d, where=far)
        y = -d * _LN2
        factor = y / (_LN2 * math.expm1(y))  # 1 / (ln 2 phi(-d ln 2)), d != 0
        return np.maximum(-factor * _row_sum(terms), 0.0)
    # p^beta in [0, 1] cannot overflow (it underflows to 0), and p^beta - p has no
    # cancellation for p <= 1/2; above 1/2, p^beta - p = p expm1(d ln p) with
    # ln p = log1p(-(1 - p)), d ln p in [-d ln 2, 0] (or [0, ln 2] for beta < 1/2).
    diff = np.power(safe, beta) - safe
    big = comp < 0.5
    if big.any():
        log_big = np.log1p(-comp, out=np.zeros_like(comp), where=big)
        np.copyto(diff, safe * np.expm1(d * log_big), where=big)
    if beta == 0.0:
        diff = np.where(safe > 0.0, diff, 0.0)  # 0^0 = 0 here: an absent class does not count
    # (1 - sum p^beta) = -sum (p^beta - p) because sum p = 1; every term has the sign of
    # 1 - beta. The factor 2^d / (2^d - 1) = 1 / (1 - 2^-d) = -1 / expm1(-d ln 2) is finite
    # for every d != 0 (2^d itself overflows from beta = 1025 on); it tends to 1 as beta grows.
    factor = -1.0 / math.expm1(-d * _LN2)
    return np.maximum(-factor * _row_sum(diff), 0.0)


def _rank_diversity(p: np.ndarray, rho: float) -> np.ndarray:
    q = p.shape[-1]
    ordered = -np.sort(-p, axis=-1)  # decreasing
    ranks = np.arange(q, dtype=np.float64)  # i - 1 for i = 1..q
    if rho == 0.0:
        weights = (ranks > 0).astype(np.float64)
    else:
        weights = np.power(ranks, rho)
    # the largest frequency has weight 0: only the small ones count, no cancellation
    return np.maximum(2.0 * _row_sum(ordered * weights), 0.0)


def _dkm(p: np.ndarray) -> np.ndarray:
    # p_j (1 - p_j) >= 0 with the accurate complement (sqrt(1e-17 (1 - 1.0)) would be 0)
    return _row_sum(np.sqrt(p * _complement(p)))


def _laplace(p: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Laplace estimates (n p_j + 1) / (n + q) and their complements (n (1 - p_j) + q - 1) / (n + q).

    Both as ratios of sums of non-negative terms: at n = 1e15, 1 - (n + 1)/(n + 2) by
    subtraction would keep 2 digits.
    """
    q = p.shape[-1]
    n = n[..., None]
    den = n + q
    return (n * p + 1.0) / den, (n * _complement(p) + (q - 1.0)) / den


def _difference(x: np.ndarray, x_comp: np.ndarray, theta: np.ndarray, theta_comp: np.ndarray):
    """x_j - theta_j, as (1 - theta_j) - (1 - x_j) where theta_j > 1/2 (both near 1)."""
    return np.where(theta > 0.5, theta_comp - x_comp, x - theta)


def _asymmetric(p: np.ndarray, theta: np.ndarray, n: np.ndarray | None = None) -> np.ndarray:
    q = p.shape[-1]
    if n is None:
        ph, ph_comp = p, _complement(p)
    else:
        ph, ph_comp = _laplace(p, n)
    # (1 - 2 theta) ph + theta^2 == (ph - theta)^2 + ph (1 - ph): a sum of non-negative terms,
    # free of the cancellation of the first form when theta is near 0 or 1; ph (1 - ph) and
    # ph - theta use the accurate complements.
    num = ph * ph_comp
    gap = _difference(ph, ph_comp, theta, _complement(theta))
    denom = gap * gap + num
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(num > 0.0, num / np.where(denom > 0.0, denom, 1.0), 0.0)
    return np.maximum(_row_sum(terms) / q, 0.0)


def _relative_entropy_term(delta: np.ndarray) -> np.ndarray:
    """f(r) = r ln r - r + 1 >= 0 at r = 1 + delta (delta >= -1), without cancellation.

    Where |delta| < 0.1 the series sum_{m >= 2} (-delta)^m / (m (m - 1)) (18 terms: error
    below 1e-17 relative); elsewhere (1 + delta) log1p(delta) - delta loses at most 5 bits.
    """
    small = np.abs(delta) < 0.1
    x = np.where(small, delta, 0.0)
    series = np.zeros_like(x)
    for m in range(18, 1, -1):
        series = series * -x + 1.0 / (m * (m - 1))
    with np.errstate(divide="ignore", invalid="ignore"):
        direct = np.where(delta <= -1.0, 1.0, (1.0 + delta) * np.log1p(delta) - delta)
    return np.where(small, x * x * series, direct)


def _expm1_ratio_minus_one(x: np.ndarray) -> np.ndarray:
    """expm1(x)/x - 1 = x/2 + x^2/6 + ..., without cancellation (series where |x| < 0.1)."""
    small = np.abs(x) < 0.1
    y = np.where(small, x, 0.0)
    series = np.zeros_like(y)
    for m in range(18, 1, -1):  # sum_{m >= 2} y^(m-1) / m!
        series = (series * y + 1.0) / m
    series = series * y
    with np.errstate(over="ignore", invalid="ignore"):
        direct = np.expm1(x) / np.where(small, 1.0, x) - 1.0
    return np.where(small, series, direct)


def _bregman_power_term(delta: np.ndarray, beta: float) -> np.ndarray:
    """f(delta) = (1 + delta)^beta - 1 - beta delta (delta >= -1), without cancellation.

    ``y^beta f(delta)`` is the Bregman divergence of x^beta between x = y (1 + delta) and y.
    Where |beta delta| < 0.1 (and |delta| < 0.1) the binomial series sum_{m >= 2}
    C(beta, m) delta^m (24 terms, each at most 0.1 times the one before); elsewhere
    expm1(beta log1p(delta)) - beta delta, which loses at most 5 bits there.
    """
    small = np.abs(delta) * max(abs(beta), 1.0) < 0.1
    x = np.where(small, delta, 0.0)
    term = beta * x  # C(beta, 1) x
    series = np.zeros_like(x)
    for m in range(2, 26):
        term = term * x * ((beta - m + 1.0) / m)
        series += term
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        # inf where (1 + delta)^beta overflows: _repair_overflow recomputes that class
        direct = np.expm1(beta * np.log1p(delta)) - beta * delta
    return np.where(small, series, direct)


def _gain_of_frequencies(
    rows: np.ndarray, weights: np.ndarray, p: np.ndarray, name: str, beta: float = 2.0
):
    r"""Gain :math:`I(p) - \sum_k w_k I(p_k)` of Shannon, Gini or Daroczy, as a sum of terms of one sign.

    ``rows`` (..., k, q) are the rows' class frequencies, ``weights`` (..., k) the rows'
    shares :math:`w_k = n_k / n` and ``p`` (..., q) the margin :math:`\sum_k w_k p_k`. With
    :math:`d_{kj} = p_{kj} - p_j` (computed from the complements for a class above 1/2) and
    :math:`\delta_{kj} = d_{kj} / p_j`,

    .. math::
        \text{Gini: } \sum_k w_k \sum_j d_{kj}^2, \qquad
        \text{Shannon: } \frac{1}{\ln 2}\sum_k w_k \sum_j p_j\,
        \bigl((1 + \delta_{kj})\ln(1 + \delta_{kj}) - \delta_{kj}\bigr),

        \text{Daroczy: } \frac{2^{\beta-1}}{2^{\beta-1}-1} \sum_k w_k \sum_j p_j^\beta
        \bigl((1 + \delta_{kj})^\beta - 1 - \beta\delta_{kj}\bigr).

    Shannon's is the mutual information as the rows' divergences from the margin; Daroczy's
    adds :math:`-\beta p_j^{\beta-1} \sum_k w_k d_{kj} = 0` to each class's Jensen gap, making
    each term a Bregman divergence of :math:`x^\beta` (of the sign of beta - 1, as the
    factor). The difference :math:`I(p) - I(Y|X)` loses digits when the gain is small against
    I(p) (a nearly pure node); these sums do not. Daroczy needs beta > 0 (beta = 1: Shannon).
    """
    gap = _difference(rows, _complement(rows), p[..., None, :], _complement(p)[..., None, :])
    if name == "gini":
        per_row = (gap * gap).sum(axis=-1)
        return _weighted_rows(weights, per_row)
    pj = p[..., None, :]
    present = pj > 0.0
    with np.errstate(over="ignore"):  # an infinite delta: its class is repaired below
        delta = np.divide(gap, pj, out=np.zeros_like(gap), where=present)
    # over/invalid: a term that overflows (or is 0 * inf) is recomputed by _repair_overflow
    with np.errstate(over="ignore", invalid="ignore"):
        if name == "shannon" or beta == 1.0:
            terms = pj * _relative_entropy_term(delta)
            factor = 1.0 / _LN2
        elif abs(beta - 1.0) <= 0.5:
            # d = beta - 1 cancels as in the entropy: with L = log1p(delta),
            # (1 + delta)^beta - 1 - beta delta = d [f(delta) + (1 + delta) L psi(d L)], f the
            # Shannon term and psi(x) = expm1(x)/x - 1; the factor times d is 1/(ln 2 phi(-d ln 2))
            d = beta - 1.0
            with np.errstate(divide="ignore", invalid="ignore"):
                log1p = np.log1p(np.maximum(delta, -1.0))
                extra = (1.0 + delta) * log1p * _expm1_ratio_minus_one(d * log1p)
            extra = np.where(delta <= -1.0, 0.0, extra)
            terms = np.power(pj, beta) * (_relative_entropy_term(delta) + extra)
            x = -d * _LN2
            factor = x / (_LN2 * math.expm1(x))
        else:
            terms = np.power(pj, beta) * _bregman_power_term(delta, beta)
            factor = -1.0 / math.expm1(-(beta - 1.0) * _LN2)
    terms = _repair_overflow(terms, rows, pj, present, weights, name, beta)
    per_row = np.where(present, terms, 0.0).sum(axis=-1)
    return factor * _weighted_rows(weights, per_row)


def shannon_gain(rows: np.ndarray, weights: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Shannon's gain as a sum of terms of one sign (:func:`_gain_of_frequencies`): the
    registry's ``exact_gain`` of Shannon."""
    return _gain_of_frequencies(rows, weights, p, "shannon")


def gini_gain(rows: np.ndarray, weights: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Gini's gain as a sum of terms of one sign (:func:`_gain_of_frequencies`)."""
    return _gain_of_frequencies(rows, weights, p, "gini")


def daroczy_gain(rows: np.ndarray, weights: np.ndarray, p: np.ndarray, beta: float):
    """Daroczy's gain as a sum of terms of one sign (:func:`_gain_of_frequencies`) for
    beta > 0; None for beta <= 0 (no such sum: the plain difference stands)."""
    if not beta > 0.0:
        return None
    return _gain_of_frequencies(rows, weights, p, "daroczy", beta)


def _repair_overflow(terms, rows, pj, present, weights, name, beta):
    r"""The classes whose one-signed terms overflowed, recomputed without the linear term.

    With a class frequency :math:`p_j` of 1e-200 beside rows of frequency near 1, the ratio
    :math:`\delta` is 1e200: :math:`(1 + \delta)^\beta` overflows while :math:`p_j^\beta`
    underflows, and their product is NaN. The linear term
    :math:`-\beta p_j^{\beta-1} d_{kj}` of each term sums to 0 over the rows
    (:math:`\sum_k w_k d_{kj} = 0`), so such a class's terms are, over all its rows,
    :math:`p_{kj}^\beta - p_j^\beta` (over :math:`\beta - 1` in the near-Shannon branch), or
    :math:`p_{kj} \ln(p_{kj} / p_j)` for Shannon: finite, and exact in sum. Classes whose terms
    are finite are left as they are, bit for bit.
    """
    used = (weights > 0.0)[..., None] & present
    bad = (used & ~np.isfinite(terms)).any(axis=-2, keepdims=True)
    if not bad.any():
        return terms
    with np.errstate(all="ignore"):
        if name == "shannon" or beta == 1.0:
            alt = np.where(rows > 0.0, rows * (np.log(rows) - np.log(pj)), 0.0)
        else:
            alt = np.power(rows, beta) - np.power(pj, beta)
            if abs(beta - 1.0) <= 0.5:
                alt = alt / (beta - 1.0)
    return np.where(bad, alt, terms)


def _weighted_rows(weights: np.ndarray, per_row: np.ndarray) -> np.ndarray:
    """sum_k w_k t_k, an empty row (w_k = 0, its frequencies undefined: NaN) counting 0."""
    out = np.zeros(np.broadcast_shapes(weights.shape, per_row.shape))
    np.multiply(weights, per_row, out=out, where=weights > 0.0)
    return out.sum(axis=-1)


# ----------------------------------------------------------------------------------------------
# Public, validated functions.
# ----------------------------------------------------------------------------------------------


def shannon(p):
    r"""Shannon entropy in bits.

    .. math:: H(p) = -\sum_{j=1}^{q} p_j \log_2 p_j, \qquad 0 \log 0 = 0.

    Maximal, equal to :math:`\log_2 q`, at the uniform distribution; 0 at a sure distribution.
    Relative error below 1e-13: a frequency above 1/2 has its log computed as
    ``log1p(-(sum of the other frequencies))`` (``shannon([1e-20, 1.0])`` keeps the
    :math:`1e{-20}/\ln 2` of the second term).

    Parameters
    ----------
    p : array_like, shape (..., q)
        Class frequencies on the last axis (non-negative, summing to 1).

    Returns
    -------
    float or ndarray of shape (...)

    References
    ----------
    C. E. Shannon, *A mathematical theory of communication*, Bell System Technical Journal, 1948.

    Examples
    --------
    >>> round(shannon([0.5, 0.5]), 6)
    1.0
    >>> round(shannon([9 / 16, 7 / 16]), 6)
    0.988699
    """
    return scalar_or_array(_shannon(as_distribution(p)))


def gini(p):
    r"""Gini index (quadratic entropy), raw.

    .. math:: G(p) = 1 - \sum_{j=1}^{q} p_j^2.

    Kept raw, as in rpart, scikit-learn and the NPFL054 lecture 5 (Hladká and Holub, Charles
    University): its maximum is :math:`(q-1)/q`, so 1/2 for two classes. Daroczy's entropy of
    order 2 is twice it. Computed as :math:`\sum_j p_j (1 - p_j)` with 1 - p_j of a frequency
    above 1/2 as the sum of the others: relative error below 1e-13 (``1 - sum p^2`` is 0 for
    (1e-17, 1 - 1e-17)).

    Parameters
    ----------
    p : array_like, shape (..., q)

    Returns
    -------
    float or ndarray of shape (...)

    References
    ----------
    C. Gini (1912); Goodman and Kruskal, JASA 1954 (its relative gain is their tau).

    Examples
    --------
    >>> round(gini([2 / 6, 4 / 6]), 3)
    0.444
    """
    return scalar_or_array(_gini(as_distribution(p)))


def misclassification(p):
    r"""Misclassification error (Bayes error of the majority rule), raw.

    .. math:: E(p) = 1 - \max_j p_j.

    Maximum :math:`(q-1)/q`. The rank diversity of order 0 is twice it. Computed as the sum
    of the frequencies other than the largest one when it exceeds 1/2 (exact to rounding).

    Parameters
    ----------
    p : array_like, shape (..., q)

    Returns
    -------
    float or ndarray of shape (...)

    References
    ----------
    Breiman et al., *Classification and Regression Trees*, 1984; its relative gain is Guttman's
    lambda (Goodman and Kruskal, 1954).

    Examples
    --------
    >>> round(misclassification([1 / 6, 5 / 6]), 3)
    0.167
    """
    return scalar_or_array(_misclassification(as_distribution(p)))


def daroczy(p, beta):
    r"""Generalized entropy of order beta (Daroczy, 1970).

    .. math::
        H_\beta(p) = \frac{2^{\beta-1}}{2^{\beta-1}-1}\Bigl(1 - \sum_{j:\,p_j>0} p_j^\beta\Bigr),
        \qquad \beta \ge 0,\ \beta \ne 1,

    and :math:`H_1 = ` Shannon entropy (the limit as beta tends to 1). Normalised so that
    :math:`H_\beta(1/2, 1/2) = 1` for every beta.

    Special orders: beta = 0 gives (number of non-empty classes) - 1, the "number of species"
    diversity (classes of frequency 0 are not counted, i.e. :math:`0^0 = 0` here); beta = 1 is
    Shannon; beta = 2 is twice the Gini index.

    Numerics: with :math:`d = \beta - 1`, the factor is evaluated as
    :math:`2^d/(2^d - 1) = -1/\mathrm{expm1}(-d \ln 2)`, finite for every beta (:math:`2^d`
    alone overflows from beta = 1025), and the bracket as
    :math:`-\sum_j (p_j^\beta - p_j)`, a sum of terms of one sign, with
    :math:`p_j^\beta - p_j = p_j\,\mathrm{expm1}(d \ln p_j)` for a frequency above 1/2
    (:math:`\ln p_j = \mathrm{log1p}(-(1 - p_j))`, 1 - p_j the sum of the others). When
    :math:`|d| \le 1/2`, d cancels exactly: with :math:`\varphi(x) = \mathrm{expm1}(x)/x`,
    :math:`H_\beta = -\sum_j p_j \ln p_j\, \varphi(d \ln p_j) / (\ln 2\, \varphi(-d \ln 2))`,
    Shannon's formula times factors near 1. So every finite beta >= 0 gives a finite value,
    the measure is continuous in beta, exactly Shannon at beta = 1, accurate to a relative
    1e-13 for every beta (near 1 and near a sure distribution included), and as beta grows it
    tends to 1 on every distribution that is not sure.

    Parameters
    ----------
    p : array_like, shape (..., q)
    beta : float
        Order, ``beta >= 0``.

    Returns
    -------
    float or ndarray of shape (...)

    References
    ----------
    Z. Daroczy, *Generalized information functions*, Information and Control 16:36-51, 1970;
    Lallich, Lenca and Vaillant, ASMDA 2007, section 5.

    Examples
    --------
    >>> round(daroczy([0.5, 0.3, 0.2], 2), 6)
    1.24
    >>> round(daroczy([0.5, 0.3, 0.2], 1 + 1e-9), 6) == round(shannon([0.5, 0.3, 0.2]), 6)
    True
    >>> daroczy([0.3, 0.7], 1025)
    1.0
    """
    beta = as_parameter(beta, "beta", low=0.0, what="the order of the generalized entropy")
    return scalar_or_array(_daroczy(as_distribution(p), beta))


#: Largest order of the rank diversity: (q - 1)^rho stays finite in float64 up to q = 1,000.
RHO_MAX = 100.0


def rank_diversity(p, rho):
    r"""Rank diversity of order rho.

    .. math::
        R_\rho(p) = 2 \sum_{i \ge 2} (i-1)^\rho\, p_{(i)}, \qquad p_{(1)} \ge p_{(2)} \ge \dots

    (frequencies sorted decreasingly), rho >= 0. Order 0 gives the paper's
    :math:`H_{\rho=0}(p) = 2(1 - \max_j p_j)`, twice the misclassification error (relative gain:
    Guttman's lambda); order 1 the measure behind Utton's coefficient. Equal to 1 at (1/2, 1/2)
    for every rho.

    The paper (Lallich et al. 2007, section 5) states only rho = 0. The general order is a
    **reconstruction** from Patil and Taillie's "average rarity" diversity with the rank-based
    rarity :math:`(i-1)^\rho` of the i-th most frequent class, scaled by 2 to match the paper's
    rho = 0 case.

    Parameters
    ----------
    p : array_like, shape (..., q)
    rho : float
        Order, ``0 <= rho <= 100`` (:data:`RHO_MAX`). The value grows like ``(q - 1)^rho``:
        the bound keeps it finite in float64 for up to 1,000 classes (``999^100`` is about
        ``1e300``); a larger order is refused with a ValueError that says so.

    Returns
    -------
    float or ndarray of shape (...)

    References
    ----------
    G. P. Patil and C. Taillie, *Diversity as a concept and its measurement*, JASA 77:548-567,
    1982; Lallich, Lenca and Vaillant, ASMDA 2007, section 5.

    Examples
    --------
    >>> round(rank_diversity([0.5, 0.3, 0.2], 0), 6)
    1.0
    >>> round(rank_diversity([0.5, 0.3, 0.2], 1), 6)
    1.4
    """
    rho = as_parameter(
        rho,
        "rho",
        low=0.0,
        high=RHO_MAX,
        what="the order of the rank diversity (bounded so that (q - 1)^rho stays finite)",
    )
    return scalar_or_array(_rank_diversity(as_distribution(p), rho))


def asymmetric(p, theta, n=None):
    r"""Asymmetric entropy of Marcellin, Zighed and Ritschard, optionally consistent.

    .. math::
        h_\theta(p) = \frac{1}{q} \sum_{j=1}^{q}
            \frac{\hat p_j (1 - \hat p_j)}{(1 - 2\theta_j)\hat p_j + \theta_j^2},

    with :math:`\hat p = p` when ``n`` is None, and otherwise the Laplace estimate
    :math:`\hat p_j = (n p_j + 1)/(n + q)` (the *consistent* asymmetric entropy of Zighed et al.
    2007, n the sample size).

    The denominator is evaluated as :math:`(\hat p_j - \theta_j)^2 + \hat p_j(1-\hat p_j)`, the
    same quantity written as a sum of non-negative terms (no cancellation for theta near 0 or 1);
    :math:`1 - \hat p_j` is :math:`(n(1 - p_j) + q - 1)/(n + q)`, with 1 - p_j of a frequency
    above 1/2 the sum of the others, and :math:`\hat p_j - \theta_j` is
    :math:`(1 - \theta_j) - (1 - \hat p_j)` when theta_j > 1/2. Relative error below 1e-13 for
    every n (1e300 included; ``1 - (n + 1)/(n + 2)`` by subtraction kept 2 digits at n = 1e15)
    and theta down to 1e-12.

    The sum is divided by q so that the maximum, reached at :math:`p = \theta`, is 1 (the
    paper's formula for q classes omits this factor). For q = 2 the two terms are equal and this
    is exactly Marcellin et al.'s :math:`h_\theta(p) = p(1-p)/((1-2\theta)p + \theta^2)` with p
    the frequency of class 1. For theta uniform and q = 2 it equals twice the Gini index.

    With ``n`` given the measure is **not** 0 on a sure distribution; as n grows it tends to the
    plain :math:`h_\theta(p)`, so to 0 on a sure distribution ("asymptotic minimality").

    How it moves with n, for fixed frequencies p: :math:`\hat p = \lambda p + (1-\lambda) u`
    with :math:`\lambda = n/(n+q)`, so :math:`\hat p` runs along the segment from the uniform
    distribution u (n = 0) to p (n -> infinity), each :math:`\hat p_j` monotonically from 1/q to
    :math:`p_j`. The j-th term :math:`g_j(x) = x(1-x)/((1-2\theta_j)x + \theta_j^2)` has

    .. math:: g_j'(x) = \frac{(\theta_j - x)\,(\theta_j(1-x) + x(1-\theta_j))}
                             {((1-2\theta_j)x + \theta_j^2)^2},

    the sign of :math:`\theta_j - x`: it rises while :math:`\hat p_j` approaches
    :math:`\theta_j` and falls once it moves away. Hence:

    - theta **uniform**: every :math:`\hat p_j` leaves :math:`\theta_j = 1/q` at once, so the
      measure decreases as n grows (strictly unless p is uniform): Zighed et al.'s
      "consistency" holds in this case.
    - theta **not uniform**: it need not decrease. For q = 2, with p and theta the frequencies
      of class 1: if theta lies strictly between 1/2 and p, the measure rises with n up to its
      maximum 1, reached when :math:`\hat p = \theta`, i.e. at
      :math:`n^* = (1 - 2\theta)/(\theta - p)`, and falls after it; if p lies strictly between
      1/2 and theta (or p = theta), it rises for every n; otherwise (theta = 1/2, or p and theta
      on opposite sides of 1/2, or p = 1/2) it decreases or stays constant. For example
      p = (1, 0), theta = (0.8, 0.2): n* = (1 - 0.4)/0.2 = 3 (example below). For q >= 3 the terms can move in opposite directions,
      and the sum can rise, fall, or both.

    Parameters
    ----------
    p : array_like, shape (..., q)
    theta : array_like, shape (q,) or broadcastable to p; or a float when q = 2
        Reference distribution where the maximum sits, 0 < theta_j < 1, summing to 1. A single
        number t for two classes means (1 - t, t).
    n : float or array_like of shape (...), optional
        Sample size (n >= 0) behind each distribution; None for the plain asymmetric entropy.

    Returns
    -------
    float or ndarray of shape (...)

    References
    ----------
    S. Marcellin, D. A. Zighed and G. Ritschard, *An asymmetric entropy measure for decision
    trees*, IPMU 2006; D. A. Zighed, S. Marcellin and G. Ritschard, *Mesure d'entropie
    asymetrique et consistante*, EGC 2007.

    Examples
    --------
    >>> round(asymmetric([0.4, 0.6], 0.2), 6)
    0.6
    >>> round(asymmetric([0.8, 0.2], [0.8, 0.2]), 6)
    1.0
    >>> [round(asymmetric([1, 0], 0.2, n=n), 3) for n in (0, 1, 2, 3, 10, 50)]
    [0.735, 0.926, 0.987, 1.0, 0.849, 0.366]
    """
    p = as_distribution(p)
    th = as_theta(theta, p.shape[-1])
    nn = None if n is None else as_sample_size(n, p.shape[:-1])
    return scalar_or_array(_asymmetric(p, th, nn))


def dkm(p):
    r"""The DKM impurity of Dietterich, Kearns and Mansour (1996), q-class form.

    .. math:: D(p) = \sum_{j=1}^{q} \sqrt{p_j (1 - p_j)},

    which for two classes is the published :math:`2\sqrt{p(1-p)}` (p the frequency of
    class 1): equal to 1 at (1/2, 1/2) like the other normalised measures, 0 at a sure
    distribution, maximal, :math:`\sqrt{q-1}`, at the uniform distribution, and strictly
    concave (each :math:`\sqrt{x(1-x)}` is).

    The q-class form is a **choice** (the paper defines two classes only): the sum over the
    classes of the one-vs-rest DKM :math:`2\sqrt{p_j(1-p_j)}`, halved. Halving makes it exactly
    the binary DKM for q = 2, where the two one-vs-rest problems are one and the same; summing
    over one-vs-rest problems keeps, for every class, the property that makes DKM
    skew-insensitive (Drummond and Holte 2000): the weighted sum of a split's children,
    :math:`\sum_k n_k \sqrt{p_{kj}(1-p_{kj})} = \sum_k \sqrt{n_{kj}(n_k - n_{kj})}`, is
    multiplied by :math:`\sqrt{c}` when class j's counts are multiplied by c, for two classes
    the same factor for every candidate split, so the choice of split does not depend on the
    class ratio. It also ties DKM to the Hellinger distance split criterion (HDDT): for
    two classes, :math:`d_H^2 = 2\,\Delta D / D(\text{node})` (see
    :func:`offcenter.measures.criteria.hellinger_split`).

    Computed with 1 - p_j of a frequency above 1/2 as the sum of the others: relative error
    below 1e-13 (``dkm([2.2e-17, 1.0])`` is :math:`2\sqrt{2.2e{-17}}`, not half of it).

    Parameters
    ----------
    p : array_like, shape (..., q)
        Class frequencies on the last axis (non-negative, summing to 1).

    Returns
    -------
    float or ndarray of shape (...)

    References
    ----------
    T. Dietterich, M. Kearns and Y. Mansour, *Applying the weak learning framework to
    understand and improve C4.5*, ICML 1996; C. Drummond and R. C. Holte, *Exploiting the cost
    (in)sensitivity of decision tree splitting criteria*, ICML 2000.

    Examples
    --------
    >>> round(dkm([0.5, 0.5]), 6)
    1.0
    >>> round(dkm([0.9, 0.1]), 6)  # 2 sqrt(0.09)
    0.6
    >>> round(dkm([1 / 3, 1 / 3, 1 / 3]), 6) == round(2**0.5, 6)  # sqrt(q - 1)
    True
    """
    return scalar_or_array(_dkm(as_distribution(p)))


def boolean_distribution(p):
    """Turn frequencies of class 1 into two-class distributions ``(1 - p, p)``.

    The paper's boolean case writes a distribution as the frequency p of class 1; the package's
    functions take the full distribution on the last axis. ``p`` may be a number or an array;
    the result has one more axis of length 2.

    Examples
    --------
    >>> boolean_distribution([0.1, 0.6]).tolist()
    [[0.9, 0.1], [0.4, 0.6]]
    """
    arr = as_float_array(p, "p")
    if not np.all(np.isfinite(arr)) or np.any((arr < 0) | (arr > 1)):
        raise ValueError("the frequency p of class 1 must be between 0 and 1.")
    return np.stack([1.0 - arr, arr], axis=-1)
