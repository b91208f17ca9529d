r"""A measure together with its settings: the impurity function a tree node is scored with.

:class:`Impurity` bundles a registered measure, its parameters (the registry's), an optional
off-centering reference theta and, for the asymmetric entropy, the consistent (Laplace) form.
It evaluates frequencies or class counts, vectorised over leading axes, and is what the
association coefficients, the tree engine and the evaluation share.
"""

from __future__ import annotations

import numpy as np

from offcenter.measures._validation import (
    as_distribution,
    as_float_array,
    as_theta,
    scalar_or_array,
)
from offcenter.measures.offcentering import _off_center
from offcenter.measures.registry import get_measure, uniform


def resolve_theta(theta, class_counts) -> np.ndarray | None:
    """Turn a theta setting into a reference distribution (or None).

    ``"prior"`` is the class distribution of ``class_counts`` (the training set's a priori
    distribution, the paper's recommendation); ``"uniform"`` is (1/q, ..., 1/q); an array is
    validated; None stays None. A prior with an empty class cannot be a theta (every theta_j
    must be > 0): the error says so.
    """
    counts = as_float_array(class_counts, "class counts")
    q = counts.shape[-1]
    if theta is None:
        return None
    if isinstance(theta, str):
        key = theta.strip().lower()
        if key == "uniform":
            return uniform(q)
        if key == "prior":
            total = counts.sum()
            if total <= 0:
                raise ValueError("theta='prior' needs at least one example to compute the prior.")
            prior = counts / total
            if np.any(prior <= 0) or np.any(prior >= 1):
                raise ValueError(
                    "theta='prior' needs every class to be present and none to be alone: the "
                    f"class distribution here is {np.round(prior, 4).tolist()}. Remove empty "
                    "classes or give theta explicitly."
                )
            return prior
        raise ValueError(
            f"theta must be 'prior', 'uniform', None or a distribution; got {theta!r}."
        )
    return as_theta(theta, q)


class Impurity:
    r"""An impurity function: a base measure, its parameters, and optional off-centering.

    .. math::
        I(p) = \begin{cases} M(p) & \theta = \text{None} \\ M(\pi^*(p;\theta)) & \text{otherwise}
        \end{cases}

    for a base measure M; for the asymmetric entropy theta is the measure's own parameter
    (required) and ``consistent=True`` replaces p by its Laplace estimate with the sample size n
    of each distribution (each tree node's own n).

    For a split criterion (``"hellinger"``, HDDT) the object evaluates the criterion's node
    measure (DKM) and carries the criterion in ``split_criterion``
    (:class:`offcenter.measures.criteria.SplitCriterion`): the tree engine then scores a split
    by it instead of by the impurity decrease.

    Parameters
    ----------
    measure : str
        A name of :data:`offcenter.measures.registry.MEASURES`.
    theta : array_like or None
        Reference distribution (already resolved; see :func:`resolve_theta`). Required for the
        asymmetric entropy.
    consistent : bool
        Asymmetric entropy only: use the Laplace estimate with each distribution's n.
    **params
        The measure's parameters, by the names its registry entry declares (``beta`` for
        daroczy, ``rho`` for rank_diversity, a registered measure's own).

    Examples
    --------
    >>> imp = Impurity("shannon", theta=[0.8, 0.2])
    >>> round(float(imp.of_counts([9, 1])), 6)
    0.811278
    """

    def __init__(self, measure="shannon", theta=None, *, consistent=False, **params):
        self.info = get_measure(measure)
        self.params = self.info.validate_params(
            {k: v for k, v in params.items() if v is not None or k in self.info.param_names},
            fill_defaults=False,
        )
        self.consistent = bool(consistent)
        if self.consistent and not self.info.uses_sample_size:
            raise ValueError(
                f"consistent=True applies only to the asymmetric entropy, not the {self.info.label}."
            )
        #: the split criterion of a criterion setting (HDDT), None for an impurity measure
        self.split_criterion = self.info.criterion
        # a custom measure is validated at the parameter values used here (cached per value;
        # offcenter.measures.custom); a built-in measure's concavity is its registry's
        check = getattr(self.info.kernel, "check", None)
        #: whether the measure is concave at these parameter values
        self.concave = self.info.concave if check is None else check(self.params)
        if theta is not None and self.info.theta == "none":
            raise ValueError(
                f"the {self.info.label} takes no theta: it is skew-insensitive by construction."
            )
        if theta is None:
            if self.info.theta == "builtin":
                raise ValueError(
                    f"the {self.info.label} needs theta, the distribution where it peaks "
                    "(in a tree, theta='prior' uses the class distribution of the training set)."
                )
            self.theta = None
        else:
            th = as_float_array(theta, "theta")
            q = 2 if th.ndim == 0 else th.shape[-1]
            self.theta = as_theta(th, q)

    @property
    def criterion(self):
        """Former name of :attr:`split_criterion` (kept for code written before the rename)."""
        return self.split_criterion

    # ------------------------------------------------------------------ descriptions
    @property
    def name(self) -> str:
        return self.info.name

    @property
    def off_centered(self) -> bool:
        return self.theta is not None and self.info.theta == "optional"

    @property
    def key(self) -> str:
        """A short, stable identifier, e.g. ``oc_daroczy_b2`` or ``asymmetric_consistent``."""
        parts = []
        if self.off_centered:
            parts.append("oc")
        parts.append(self.info.name)
        tokens = {p.name: p.token for p in self.info.params}
        for k, v in self.params.items():
            parts.append(f"{tokens[k]}{v:g}")
        if self.consistent:
            parts.append("consistent")
        return "_".join(parts)

    @property
    def label(self) -> str:
        """A readable name, e.g. ``off-centered Shannon`` or ``Daroczy (beta=0.5)``."""
        text = self.info.short
        if self.params:
            text += " (" + ", ".join(f"{k}={v:g}" for k, v in self.params.items()) + ")"
        if self.off_centered:
            text = "off-centered " + text
        if self.consistent:
            text += ", consistent"
        return text

    def __repr__(self) -> str:
        theta = None if self.theta is None else np.round(self.theta, 4).tolist()
        extra = "".join(f", {k}={v:g}" for k, v in self.params.items())
        cons = ", consistent=True" if self.consistent else ""
        return f"Impurity({self.info.name!r}, theta={theta}{extra}{cons})"

    def __eq__(self, other) -> bool:
        if not isinstance(other, Impurity):
            return NotImplemented
        same_theta = (self.theta is None and other.theta is None) or (
            self.theta is not None
            and other.theta is not None
            and np.array_equal(self.theta, other.theta)
        )
        return (self.name, self.params, self.consistent) == (
            other.name,
            other.params,
            other.consistent,
        ) and same_theta

    def __hash__(self) -> int:
        th = None if self.theta is None else tuple(np.round(self.theta, 12))
        return hash((self.name, tuple(sorted(self.params.items())), self.consistent, th))

    # ------------------------------------------------------------------ evaluation
    def _check_q(self, q: int) -> None:
        if self.theta is not None and self.theta.shape[-1] != q:
            raise ValueError(
                f"theta has {self.theta.shape[-1]} classes but the data has {q}; "
                "give one reference frequency per class."
            )

    def _eval(self, p: np.ndarray, n: np.ndarray | None) -> np.ndarray:
        """Kernel: valid frequencies p (..., q), sample sizes n (...) or None."""
        if self.info.theta == "builtin":
            return self.info.kernel(p, self.theta, n if self.consistent else None)
        if self.theta is not None:
            p = _off_center(p, self.theta)
        return self.info.kernel(p, **self.params)

    def __call__(self, p, n=None):
        """Evaluate on frequencies p (validated); ``n`` is the sample size (consistent form)."""
        p = as_distribution(p)
        self._check_q(p.shape[-1])
        if self.consistent:
            if n is None:
                raise ValueError("the consistent asymmetric entropy needs the sample size n.")
            n = np.broadcast_to(as_float_array(n, "n"), p.shape[:-1])
        return scalar_or_array(self._eval(p, n))

    def of_counts(self, counts):
        """Evaluate on class counts (..., q); a row with no examples has impurity 0.

        The frequencies are counts / n, and n (the row total) is the sample size of the
        consistent asymmetric entropy.
        """
        c = np.asarray(counts, dtype=np.float64)
        if c.ndim == 0 or c.shape[-1] == 0:
            raise ValueError("counts must have the classes on their last axis.")
        self._check_q(c.shape[-1])
        n = c.sum(axis=-1)
        empty = n <= 0
        safe_n = np.where(empty, 1.0, n)
        p = c / safe_n[..., None]
        if np.any(empty):
            p = np.where(empty[..., None], 1.0 / c.shape[-1], p)
        values = self._eval(p, n)
        return np.where(empty, 0.0, values)

    def maximum(self, q: int) -> float:
        """The measure's largest value on q classes (reached at theta, or the uniform)."""
        peak = np.asarray(self.theta if self.theta is not None else uniform(q), dtype=float)
        if self.consistent:
            # The Laplace estimate equals theta for a suitable p at any n, so the bound is the
            # plain measure's value at theta.
            return float(self.info.kernel(peak, self.theta, None))
        return float(self._eval(peak, None))

    def for_predictor(self, k: int) -> Impurity:
        """The same measure for a predictor's margin of k values: theta uniform, no Laplace.

        Off-centering is about the class, not the predictor, so I(X) of the gain ratio and
        Kvalseth's coefficient uses the uncentered measure (for the asymmetric entropy: theta
        uniform over the k values and no Laplace correction).
        """
        if self.info.theta == "builtin":
            return Impurity(self.name, theta=uniform(k))
        return Impurity(self.name, **self.params)
