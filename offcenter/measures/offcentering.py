r"""The off-centering transform of Lallich, Lenca and Vaillant (2007) and off-centered measures.

The transform maps a distribution p to pseudo-frequencies :math:`\pi^*` so that any measure that
peaks at the uniform distribution, applied to :math:`\pi^*`, peaks at a user-chosen distribution
theta instead (for example the a priori class distribution of an imbalanced data set).
"""

from __future__ import annotations

import numpy as np

from offcenter.measures._validation import as_distribution, as_theta, scalar_or_array
from offcenter.measures.entropies import _complement, _difference
from offcenter.measures.registry import get_measure


def _off_center(p: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """Kernel of :func:`off_center`; valid input, no checks.

    The right branch uses 1 - p_j and 1 - theta_j computed as sums of the other frequencies,
    and p_j - theta_j as (1 - theta_j) - (1 - p_j) when theta_j > 1/2: near theta = (1 - 1e-12,
    1e-12) the plain differences of numbers close to 1 would keep 4 digits.
    """
    q = p.shape[-1]
    p_comp, theta_comp = _complement(p), _complement(theta)
    gap = _difference(p, p_comp, theta, theta_comp)  # p - theta
    left = p / (q * theta)
    right = (q * gap + p_comp) / (q * theta_comp)
    pi = np.where(gap <= 0.0, left, right)
    return pi / pi.sum(axis=-1, keepdims=True)


def off_center(p, theta):
    r"""Off-centering transform: the pseudo-frequencies :math:`\pi^*` of p around theta.

    For each class j (section 4 of the paper),

    .. math::
        \pi_j = \begin{cases}
            \dfrac{p_j}{q\,\theta_j} & 0 \le p_j \le \theta_j \\[1ex]
            \dfrac{q (p_j - \theta_j) + 1 - p_j}{q (1 - \theta_j)} & \theta_j \le p_j \le 1
        \end{cases}
        \qquad \pi^*_j = \pi_j \Big/ \sum_k \pi_k .

    Each :math:`\pi_j` is piecewise linear and increasing in :math:`p_j`, from 0 at 0 to 1/q at
    :math:`\theta_j` and to 1 at 1, so :math:`p = \theta` is sent to the uniform distribution
    and a sure distribution stays sure. For q = 2 the sum is already 1 and this is the boolean
    transform of section 3, :math:`\pi = p/(2\theta)` below theta and
    :math:`(p + 1 - 2\theta)/(2(1-\theta))` above. With theta uniform it is the identity.

    Numerics: 1 - p_j and 1 - theta_j are the sums of the other frequencies when p_j or
    theta_j exceeds 1/2, and p_j - theta_j is :math:`(1-\theta_j) - (1-p_j)` when
    theta_j > 1/2, so each :math:`\pi^*_j` and its complement keep a relative error of a few
    ulps even for theta = (1 - 1e-12, 1e-12) and p within 1e-13 of a sure distribution (the
    plain formulas kept 4 digits there). A single theta t is checked as given (messages quote
    t, not 1 - t).

    Parameters
    ----------
    p : array_like, shape (..., q)
        Class frequencies on the last axis.
    theta : array_like, shape (q,) or broadcastable; or a float when q = 2
        Reference distribution, 0 < theta_j < 1, summing to 1.

    Returns
    -------
    ndarray, shape of p broadcast with theta
        The normalised pseudo-frequencies, a distribution on the last axis.

    References
    ----------
    S. Lallich, P. Lenca and B. Vaillant, *Construction of an off-centered entropy for supervised
    learning*, ASMDA 2007 (hal-02121319), sections 3.1 and 4.

    Examples
    --------
    >>> off_center([0.9, 0.1], [0.8, 0.2]).round(6).tolist()
    [0.75, 0.25]
    >>> off_center([0.5, 0.3, 0.2], [0.6, 0.3, 0.1]).round(6).tolist()
    [0.272727, 0.327273, 0.4]
    """
    p = as_distribution(p)
    th = as_theta(theta, p.shape[-1])
    return _off_center(p, th)


def off_centered(p, theta, measure="shannon", **params):
    r"""An off-centered measure: ``measure(off_center(p, theta), **params)``.

    .. math:: \eta_\theta(p) = I(\pi^*(p; \theta)).

    Its maximum is reached at :math:`p = \theta` and equals the base measure's value at the
    uniform distribution (1 for two classes, for every measure but the raw Gini and
    misclassification, whose maximum is 1/2); it is 0 at a sure distribution. For q = 2 and a
    concave base measure it is concave in p, with a kink at theta (section 3.2 of the paper).
    Relative error below 1e-13 against mpmath, theta down to 1e-12 and p near a sure
    distribution included (see :func:`off_center` for the method).

    Parameters
    ----------
    p : array_like, shape (..., q)
    theta : array_like, shape (q,); or a float when q = 2
    measure : str
        Any base measure but ``"asymmetric"`` (which is off-centered by construction):
        ``"shannon"``, ``"gini"``, ``"misclassification"``, ``"daroczy"`` (needs ``beta``),
        ``"rank_diversity"`` (needs ``rho``).
    **params
        The measure's parameters (``beta=`` or ``rho=``).

    Returns
    -------
    float or ndarray of shape (...)

    References
    ----------
    Lallich, Lenca and Vaillant, ASMDA 2007, sections 3 to 5.

    Examples
    --------
    >>> round(off_centered([0.9, 0.1], 0.2), 6)
    0.811278
    >>> round(off_centered([0.4, 0.6], 0.2), 6)
    0.811278
    >>> round(off_centered([0.8, 0.2], 0.2, "daroczy", beta=5), 6)
    1.0
    """

    info = get_measure(measure)
    if not info.off_centerable:
        raise ValueError(
            f"the {info.label} cannot be off-centered with off_centered(): it already takes its "
            f"maximum at theta by construction; call {info.name}(p, theta) instead."
        )
    values = info.validate_params(params)
    p = as_distribution(p)
    th = as_theta(theta, p.shape[-1])
    if np.any((p > 0.0) & (p < _NORMAL)):
        # a subnormal frequency (5e-324) keeps a digit or two: p / (q theta) would round to a
        # multiple of 5e-324 before the measure sees it (40 % off for Shannon). The extended
        # precision of np.longdouble (where the platform has it) holds it; the value is then
        # rounded once, to float64
        wide = _off_center(p.astype(np.longdouble), th.astype(np.longdouble))
        return scalar_or_array(np.asarray(info.kernel(wide, **values), dtype=np.float64))
    return scalar_or_array(info.kernel(_off_center(p, th), **values))


#: The smallest normal float64: below it a frequency is subnormal.
_NORMAL = np.finfo(np.float64).smallest_normal
