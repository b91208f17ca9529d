r"""Split criteria that are not impurity decreases: the Hellinger distance of HDDT.

An impurity measure scores a split by the decrease it brings (the *gain*); a split criterion
scores the split directly from the class counts of its children. The tree engine treats both
alike through :class:`SplitCriterion`: a criterion maps a table of counts ``t[..., k, j]``
(child k, class j; leading axes are candidate splits) to one score per table, the larger the
better, vectorised over the leading axes.

The Hellinger distance criterion (Cieslak and Chawla 2008)
----------------------------------------------------------
For two classes (+ and -) and a split into children k = 1..K,

.. math::
    d_H = \sqrt{\sum_{k=1}^{K} \Bigl(\sqrt{\tfrac{n^+_k}{n^+}} -
          \sqrt{\tfrac{n^-_k}{n^-}}\Bigr)^2},

the Hellinger distance between the distributions of the positive and of the negative examples
over the children (0 for a split that does not separate them, :math:`\sqrt 2` for a split that
separates them perfectly). Each class is normalised by its own total, so multiplying one class's
counts (or weights) by any factor leaves it unchanged: it is skew-insensitive by construction,
and class weights cancel.

Two classes: a link with DKM. Since :math:`\sum_k \sqrt{n^+_k n^-_k}` is half the children's
weighted DKM impurity :math:`\sum_k n_k D(\text{child}_k)` and :math:`n D(\text{node}) = 2
\sqrt{n^+ n^-}`,

.. math:: d_H^2 = 2\,\frac{D(\text{node}) - \sum_k \frac{n_k}{n} D(\text{child}_k)}{D(\text{node})},

twice the *relative* DKM gain. At a node the Hellinger distance therefore ranks the candidate
splits exactly as the DKM gain does: with two classes an HDDT tree makes the same splits as a
DKM tree (up to ties within 1e-12), and the search for the best grouping of categories by
ordering them by class proportion (Breiman et al. 1984) is exact for it.

More than two classes: one-vs-rest, maximum (this package's choice)
-------------------------------------------------------------------
For q > 2 classes the score is the **largest** over the classes c of the Hellinger distance of
"c against the rest" (the one-vs-rest decomposition of the multi-class HDDT of Hoens, Qian,
Chawla and Zhou 2012):

.. math:: d_H = \max_c \sqrt{\sum_k \Bigl(\sqrt{\tfrac{n_{kc}}{n_c}} -
          \sqrt{\tfrac{n_k - n_{kc}}{n - n_c}}\Bigr)^2},

a class absent from the node (or the only class present) contributing 0. The maximum rather
than the mean, because (i) a split that isolates one class well is what a tree needs, whatever
the other classes do; (ii) the engine's two shortcuts stay exact: the search over binary
groupings of many categories orders them by each class's proportion in turn, and for each
one-vs-rest problem the best grouping is among those orderings (Breiman's theorem for the
concave DKM, by the identity above), so the maximum over classes is found; and thresholds
inside a run of rows pure of one class are skipped, since each one-vs-rest :math:`d_c^2` is
convex along such a run (so is their maximum, which is largest at an end of the run). With
two classes both one-vs-rest problems are the same, and the score is exactly the binary
:math:`d_H`. Class weights cancel exactly for two classes; with more, the positive side of each
one-vs-rest problem is unchanged by a class weight, but "the rest" pools the other classes with
their weights, so weights can change the choice.

References
----------
D. A. Cieslak and N. V. Chawla, *Learning decision trees for unbalanced data*, ECML PKDD 2008;
D. A. Cieslak, T. R. Hoens, N. V. Chawla and W. P. Kegelmeyer, *Hellinger distance decision
trees are robust and skew-insensitive*, Data Mining and Knowledge Discovery 24, 2012;
T. R. Hoens, Q. Qian, N. V. Chawla and Z.-H. Zhou, *Building decision trees for the multi-class
imbalance problem*, PAKDD 2012.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from offcenter.measures._validation import as_float_array, rescaled_table, scalar_or_array

__all__ = ["HELLINGER", "SplitCriterion", "hellinger_split"]


@dataclass(frozen=True)
class SplitCriterion:
    """A split criterion: a score of a split computed from its children's class counts.

    ``table(t)`` scores count tables ``t[..., k, j]`` (child k, class j) and returns the
    leading shape; ``pair(L, R)`` scores two-child splits given as left and right counts
    ``(m, q)`` (the engine's binary candidates) and returns ``(m,)``. Counts may be integers
    or sums of weights; no checks (the engine's data is valid). The larger, the better.
    """

    name: str
    table: Callable[[np.ndarray], np.ndarray]
    pair: Callable[[np.ndarray, np.ndarray], np.ndarray]
    #: What its score is called in text ("Hellinger distance"), and in a node's box.
    score_name: str = "score"
    score_short: str = "score"
    #: Its range, said where its values sit in a gain column ("0 to √2").
    score_range: str = ""
    #: The intermediate numbers of one split, ``parts(parent, children)``: what a worked
    #: calculation shows (a list of dicts; see :func:`hellinger_parts`). None: none.
    parts: Callable[[np.ndarray, np.ndarray], list] | None = None

    def value(self, t) -> float:
        """The score of one valid count table (K, q), scale-free (counts near 1e308 are
        scaled by a power of two first, exactly)."""
        return float(self.table(rescaled_table(np.asarray(t, dtype=np.float64))))


def _sqrt_ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """sqrt(num / den), 0 where den <= 0; negatives from round-off clamped to 0."""
    ok = den > 0
    return np.sqrt(np.maximum(num, 0.0) / np.where(ok, den, 1.0)) * ok


def _rest(t: np.ndarray, c: int) -> np.ndarray:
    """The counts of every class but ``c`` (last axis), summed from those classes' own counts:
    never a total minus the class's count, which cancels when the class weighs 1e16 times the
    others (``[[1, 0], [1, 2e20]]`` would give 0.0 instead of 0.7654)."""
    q = t.shape[-1]
    if q == 2:
        return t[..., 1 - c]
    return np.delete(t, c, axis=-1).sum(axis=-1)


def _hellinger_table(t: np.ndarray) -> np.ndarray:
    """Hellinger distance criterion of count tables (..., K, q); kernel, no checks."""
    t = np.asarray(t, dtype=np.float64)
    q = t.shape[-1]
    classes = [1] if q == 2 else range(q)
    best = None
    for c in classes:
        rest = _rest(t, c)  # (..., K) the other classes' counts per child
        tc = t[..., c]
        pc = tc.sum(axis=-1)
        pr = rest.sum(axis=-1)
        pos = _sqrt_ratio(tc, pc[..., None])
        neg = _sqrt_ratio(rest, pr[..., None])
        d2 = ((pos - neg) ** 2).sum(axis=-1)
        d2 = np.where((pc > 0) & (pr > 0), d2, 0.0)
        best = d2 if best is None else np.maximum(best, d2)
    return np.sqrt(best)


def _hellinger_pair(L: np.ndarray, R: np.ndarray) -> np.ndarray:
    """Hellinger distance criterion of two-child splits, left and right counts (m, q)."""
    L = np.asarray(L, dtype=np.float64)
    R = np.asarray(R, dtype=np.float64)
    q = L.shape[-1]
    classes = [1] if q == 2 else range(q)
    best = None
    for c in classes:
        lc, rc = L[..., c], R[..., c]
        lo, ro = _rest(L, c), _rest(R, c)  # the other classes, from their own counts
        pc = lc + rc
        rest = lo + ro
        dl = _sqrt_ratio(lc, pc) - _sqrt_ratio(lo, rest)
        dr = _sqrt_ratio(rc, pc) - _sqrt_ratio(ro, rest)
        d2 = np.where((pc > 0) & (rest > 0), dl * dl + dr * dr, 0.0)
        best = d2 if best is None else np.maximum(best, d2)
    return np.sqrt(best)


def hellinger_parts(parent: np.ndarray, kids: np.ndarray) -> list[dict]:
    """The one-vs-rest distances of a split, one dict per class scored (class 1 for two
    classes, each class for more): ``class`` (its index), ``positive`` and ``negative`` (each
    child's share of the class and of the rest; None when the node lacks either) and
    ``distance``."""
    n = parent.sum()
    q = parent.size
    sizes = kids.sum(axis=1)
    out = []
    for c in [1] if q == 2 else range(q):
        pos_total, neg_total = parent[c], n - parent[c]
        if pos_total <= 0 or neg_total <= 0:
            out.append({"class": c, "positive": None, "negative": None, "distance": 0.0})
            continue
        a = kids[:, c] / pos_total
        b = (sizes - kids[:, c]) / neg_total
        d = float(np.sqrt(((np.sqrt(a) - np.sqrt(b)) ** 2).sum()))
        out.append({"class": c, "positive": a, "negative": b, "distance": d})
    return out


#: The Hellinger distance criterion of HDDT (see the module docs).
HELLINGER = SplitCriterion(
    "hellinger",
    _hellinger_table,
    _hellinger_pair,
    score_name="Hellinger distance",
    score_short="Hellinger d",
    score_range="0 to √2",
    parts=hellinger_parts,
)


def hellinger_split(table):
    r"""The Hellinger distance split criterion (HDDT) of a split's count table.

    .. math::
        d_H = \sqrt{\sum_{k} \Bigl(\sqrt{\tfrac{n^+_k}{n^+}} - \sqrt{\tfrac{n^-_k}{n^-}}\Bigr)^2}

    for two classes (class 1 is "+", class 0 "-"; the value is symmetric in them), and for
    q > 2 classes the largest one-vs-rest distance over the classes (see
    :mod:`offcenter.measures.criteria` for the choice and why). Between 0 and
    :math:`\sqrt 2`; invariant to multiplying a class's counts by a positive factor (two
    classes). Scale-free: a table of counts near 1e308 (or subnormal ones) is first scaled
    by a power of two, exactly, so that its totals stay finite.

    Parameters
    ----------
    table : array_like, shape (..., k, q)
        Counts (or sums of weights, non-negative): child k on the second-to-last axis, class j
        on the last; leading axes are batch axes.

    Returns
    -------
    float or ndarray of shape (...)

    References
    ----------
    D. A. Cieslak and N. V. Chawla, *Learning decision trees for unbalanced data*, ECML PKDD
    2008; T. R. Hoens, Q. Qian, N. V. Chawla and Z.-H. Zhou, *Building decision trees for the
    multi-class imbalance problem*, PAKDD 2012 (one-vs-rest for q > 2).

    Examples
    --------
    >>> round(hellinger_split([[3, 1], [1, 3]]), 6)  # (sqrt(3) - 1) / sqrt(2)
    0.517638
    >>> round(hellinger_split([[5, 0], [0, 2]]), 6)  # perfect separation: sqrt(2)
    1.414214
    >>> round(hellinger_split([[30, 10], [60, 0]]), 6) == round(hellinger_split([[3, 10], [6, 0]]), 6)
    True
    """
    t = as_float_array(table, "table")
    if t.ndim < 2 or t.shape[-1] < 2 or t.shape[-2] < 1:
        raise ValueError(
            "table must have the children on its second-to-last axis and at least two classes "
            f"on its last (shape (..., k, q)); got shape {t.shape}."
        )
    if not np.all(np.isfinite(t)) or np.any(t < 0):
        raise ValueError("table must hold non-negative, finite counts.")
    # scale-free: counts near 1e308 would overflow the totals (exact power-of-two scaling)
    return scalar_or_array(_hellinger_table(rescaled_table(t)))
