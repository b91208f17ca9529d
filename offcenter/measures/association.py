r"""Association between a predictor X and the class Y: gain and the normalised coefficients.

For a contingency table ``table[k, j]`` (count of X = x_k and Y = y_j) and an impurity I
(possibly off-centered on theta):

.. math::
    \mathrm{gain} = I(Y) - I(Y|X), \qquad I(Y|X) = \sum_k \frac{n_k}{n} I(Y \mid X = x_k),

    \lambda_\alpha(Y/X) = \frac{I(Y) - I(Y|X)}{\alpha I(Y) + (1-\alpha) I(X)}
    \quad (0 \text{ when the denominator is } 0).

alpha = 1 gives the relative gain (Theil's u with Shannon, Goodman and Kruskal's tau with Gini,
Guttman's lambda with the misclassification error); alpha = 0 Quinlan's gain ratio; alpha = 1/2
Kvalseth's coefficient. I(X) is the same measure on the X margin with theta **uniform**
(off-centering is about the class, not the predictor); for the asymmetric entropy, theta uniform
and no Laplace correction.

References
----------
Lallich, Lenca and Vaillant, ASMDA 2007, sections 1 and 5; S. Lallich, HDR, Lyon 2, 2002;
Quinlan, C4.5, 1993; Theil, 1970; Kvalseth, IEEE SMC 17(3), 1987; Goodman and Kruskal, JASA 1954.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from offcenter.measures._validation import (
    as_float_array,
    as_parameter,
    rescaled_table,
    scalar_or_array,
)
from offcenter.measures.impurity import Impurity, resolve_theta
from offcenter.measures.registry import get_measure
from offcenter.measures.scores import get_score


@dataclass(frozen=True)
class Association:
    """The parts of an association coefficient for one table (or a batch of tables).

    Attributes
    ----------
    i_y : I(Y), the impurity of the class margin.
    i_y_given_x : I(Y|X), the weighted impurity of the rows.
    i_x : I(X), the (uncentered) impurity of the predictor margin.
    gain : I(Y) - I(Y|X).
    """

    i_y: float | np.ndarray
    i_y_given_x: float | np.ndarray
    i_x: float | np.ndarray
    gain: float | np.ndarray

    def lambda_alpha(self, alpha: float) -> float | np.ndarray:
        r""":math:`\lambda_\alpha = \mathrm{gain} / (\alpha I(Y) + (1-\alpha) I(X))`, 0 if 0/0."""
        alpha = as_parameter(
            alpha, "alpha", low=0.0, high=1.0, what="the weight of I(Y) in the normaliser"
        )
        return scalar_or_array(
            _lambda(np.asarray(self.gain), np.asarray(self.i_y), np.asarray(self.i_x), alpha)
        )

    @property
    def relative_gain(self):
        """alpha = 1: gain / I(Y)."""
        return self.lambda_alpha(1.0)

    @property
    def gain_ratio(self):
        """alpha = 0: gain / I(X) (Quinlan)."""
        return self.lambda_alpha(0.0)

    @property
    def kvalseth(self):
        """alpha = 1/2: 2 gain / (I(X) + I(Y)) (Kvalseth)."""
        return self.lambda_alpha(0.5)


def lambda_denominator(i_y, i_x, alpha: float):
    r"""The denominator :math:`\alpha I(Y) + (1 - \alpha) I(X)` of lambda_alpha (arrays, no
    checks): with :func:`lambda_of`, the one place lambda_alpha is computed (the tree engine's
    split scores and :meth:`Association.lambda_alpha` alike)."""
    return alpha * i_y + (1.0 - alpha) * i_x


def lambda_of(gain, denom):
    """lambda_alpha = gain / denom from :func:`lambda_denominator`; 0 where the denominator is
    not above 1e-15 (0/0: a split of a pure node, or of one branch)."""
    ok = denom > 1e-15
    return np.where(ok, gain / np.where(ok, denom, 1.0), 0.0)


def _lambda(gain, i_y, i_x, alpha):
    with np.errstate(divide="ignore", invalid="ignore"):
        return lambda_of(gain, lambda_denominator(i_y, i_x, alpha))


def _as_table(table) -> np.ndarray:
    t = as_float_array(table, "table")
    if t.ndim < 2:
        raise ValueError(
            "table must be a contingency table with one row per value of X and one column per "
            f"class of Y (at least 2-D); got shape {t.shape}."
        )
    if t.shape[-1] == 0 or t.shape[-2] == 0:
        raise ValueError(f"table is empty (shape {t.shape}).")
    if not np.all(np.isfinite(t)):
        raise ValueError("table contains NaN or infinite counts.")
    if np.any(t < 0):
        raise ValueError("table contains a negative count; counts must be >= 0.")
    with np.errstate(over="ignore"):  # a total beyond 1.8e308 is inf, still > 0
        empty = np.any(t.sum(axis=(-2, -1)) <= 0)
    if empty:
        raise ValueError("table has no examples (all counts are 0).")
    return t


def _association_counts(
    t: np.ndarray, imp: Impurity, *, with_i_x: bool = True
) -> tuple[np.ndarray, ...]:
    """Kernel on a valid count table (..., k, q): returns I(Y), I(Y|X), I(X), gain.

    ``with_i_x=False``: I(X) is not computed (None in its place; the gain does not use it).
    """
    class_counts = t.sum(axis=-2)
    rows = t.sum(axis=-1)
    n = rows.sum(axis=-1)
    i_y = imp.of_counts(class_counts)
    i_rows = imp.of_counts(t)
    if t.shape[-2] == 1:
        # one row: X takes one value, so I(Y|X) is I(Y), the gain 0 and I(X) 0 (a sure margin)
        # under every measure (for_predictor(1) would need a theta of one class)
        return i_y, i_y, np.zeros_like(i_y), np.zeros_like(i_y)
    i_y_x = (rows * i_rows).sum(axis=-1) / n
    i_x = imp.for_predictor(t.shape[-2]).of_counts(rows) if with_i_x else None
    g = i_y - i_y_x
    exact_gain = imp.info.exact_gain  # the registry's: a measure with such a sum declares it
    if exact_gain is not None and imp.theta is None:
        # the difference cancels when the gain is small against I(Y) (a nearly pure node):
        # there, the gain as a sum of non-negative terms (relative error ~1e-15)
        lost = np.abs(g) < 0.0625 * i_y  # more than 4 bits lost
        if np.any(lost):
            safe = np.where(rows > 0, rows, 1.0)
            freqs = t / safe[..., None]
            exact = exact_gain(
                freqs, rows / n[..., None], class_counts / n[..., None], **imp.params
            )
            if exact is not None:
                g = np.where(lost, exact, g)
    return i_y, i_y_x, i_x, g


def association(table, measure="shannon", theta=None, *, consistent=False, **params) -> Association:
    r"""I(Y), I(Y|X), I(X) and the gain of a contingency table, from which any lambda_alpha follows.

    Parameters
    ----------
    table : array_like, shape (..., k, q)
        Counts: rows are the values of the predictor X, columns the classes of Y. Leading axes
        are batch axes (many candidate splits at once).
    measure : str or Impurity
        A registered measure name, or a ready :class:`~offcenter.measures.impurity.Impurity`.
    theta : None, "prior", "uniform" or array_like
        Off-centering reference for the class. ``"prior"`` is the table's class margin.
        For the asymmetric entropy, None means ``"prior"``. The prior of a degenerate table:
        classes with no example in the table are left out (the table restricted to the
        classes it contains is the same data, and a reference frequency of 0 cannot
        off-center); a table of a single class is pure, and I(Y) = I(Y|X) = 0 under every
        measure (the consistent form included: the Laplace estimate on one class is 1).
    consistent : bool
        Asymmetric entropy only: Laplace estimate with each row's own n (and the total n for
        I(Y)).
    **params
        The measure's parameters (``beta``, ``rho``, a registered measure's own).

    Returns
    -------
    Association

    Notes
    -----
    A table of one row (X takes one value) has I(Y|X) = I(Y), gain 0 and I(X) = 0 under every
    measure, so every lambda_alpha is 0. Only the ratios of the counts matter (except for the
    consistent asymmetric entropy, whose Laplace estimate uses n itself): a table whose totals
    would overflow (counts near 1e308), or whose counts are subnormal, is first scaled by a
    power of two, which is exact; a consistent asymmetric table whose total overflows is
    refused with a message that says so.

    Accuracy: I(Y), I(Y|X) and I(X) have the relative error of the measure (below 1e-13). The
    gain I(Y) - I(Y|X) loses digits when it is small against I(Y) (a nearly pure node); for
    plain Shannon, Gini and Daroczy (beta > 0) it is then computed as a sum of terms of one
    sign, the rows' divergences from the margin (``entropies._gain_of_frequencies``), which keeps a
    relative error below 1e-13 (Shannon's gain of [[1e15, 1], [1e15, 0]] was 16 % off): the
    measures whose registry entry declares such a sum (``MeasureInfo.exact_gain``). Two
    limits remain: a nearly *independent* table (rows with almost the same class shares) keeps
    the rounding of the frequencies (1e-10 relative for counts near 1e6), and the gain of
    other measures is the plain difference.

    Examples
    --------
    >>> a = association([[3, 1], [1, 2]])  # Wikipedia's mutation 1: has / lacks it
    >>> round(a.gain, 3)
    0.128
    >>> round(association([[2, 2], [0, 4]], "gini").relative_gain, 4)
    0.3333
    """
    t = _as_table(table)
    if measure.consistent if isinstance(measure, Impurity) else consistent:
        with np.errstate(over="ignore"):
            finite = np.all(np.isfinite(t.sum(axis=(-2, -1))))
        if not finite:
            raise ValueError(
                "the consistent asymmetric entropy depends on the sample size n (its Laplace "
                "estimate is (n p + 1) / (n + q)), and this table's n, its total count, is "
                "beyond the largest float (about 1.8e308): divide the counts by a common "
                "factor yourself if that is what you mean."
            )
    else:
        t = rescaled_table(t)  # scale-free: keep the totals finite (exact, powers of two)
    if isinstance(measure, Impurity):
        imp = measure
    else:
        info = get_measure(measure)
        if theta is None and info.theta == "builtin":
            theta = "prior"
        if np.ndim(theta) == 0 and isinstance(theta, str) and t.ndim > 2 and theta == "prior":
            raise ValueError(
                "theta='prior' needs a single table; pass theta explicitly for a batch."
            )
        if isinstance(theta, str) and theta.strip().lower() == "prior" and t.ndim == 2:
            present = t.sum(axis=0) > 0
            if present.sum() == 1:
                # a pure table: every row is a sure distribution, 0 under every measure and
                # every theta (the Laplace estimate on the one class present is 1 too)
                theta, consistent = ("uniform" if info.theta == "builtin" else None), False
            elif not present.all():
                t = t[:, present]  # the prior of the classes the table contains
        th = resolve_theta(theta, t.sum(axis=-2)) if theta is not None else None
        imp = Impurity(info.name, theta=th, consistent=consistent, **params)
    if not get_score("gain").applies_to(imp.info):  # the scores' registry: a criterion's own
        raise ValueError(
            f"the {imp.info.label} is a split criterion, not an impurity: it has no gain or "
            "lambda_alpha; score a table with offcenter.hellinger_split(table)."
        )
    i_y, i_y_x, i_x, g = _association_counts(t, imp)
    return Association(*(scalar_or_array(np.asarray(v)) for v in (i_y, i_y_x, i_x, g)))


def gain(table, measure="shannon", theta=None, **kwargs):
    """Gain I(Y) - I(Y|X) of a contingency table; see :func:`association`.

    Examples
    --------
    >>> round(gain([[3, 3], [0, 3], [1, 1], [0, 1]]), 6) >= 0  # any table: gain >= 0 for Shannon
    True
    """
    return association(table, measure, theta, **kwargs).gain


def lambda_alpha(table, alpha, measure="shannon", theta=None, **kwargs):
    r"""Normalised gain :math:`\lambda_\alpha(Y/X)`; see :func:`association`.

    alpha = 1: relative gain; 0: gain ratio; 0.5: Kvalseth.
    """
    return association(table, measure, theta, **kwargs).lambda_alpha(alpha)


def relative_gain(table, measure="shannon", theta=None, **kwargs):
    """gain / I(Y) (alpha = 1)."""
    return lambda_alpha(table, 1.0, measure, theta, **kwargs)


def gain_ratio(table, measure="shannon", theta=None, **kwargs):
    """Quinlan's gain ratio, gain / I(X) (alpha = 0)."""
    return lambda_alpha(table, 0.0, measure, theta, **kwargs)


def kvalseth(table, measure="shannon", theta=None, **kwargs):
    """Kvalseth's coefficient, 2 gain / (I(X) + I(Y)) (alpha = 0.5)."""
    return lambda_alpha(table, 0.5, measure, theta, **kwargs)


def theil_u(table):
    """Theil's uncertainty coefficient u: relative gain of Shannon's entropy."""
    return relative_gain(table, "shannon")


def goodman_kruskal_tau(table):
    """Goodman and Kruskal's tau: relative gain of the Gini index."""
    return relative_gain(table, "gini")


def guttman_lambda(table):
    """Guttman's (Goodman and Kruskal's) lambda: relative gain of the misclassification error."""
    return relative_gain(table, "misclassification")
