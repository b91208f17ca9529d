"""Input validation shared by every public function of the package.

Each checker turns what the caller gave into a float64 numpy array and raises ``ValueError``
(or ``TypeError`` for things that are not numbers at all) with a message that says what was
wrong, which value, and what is allowed. The messages are written for a student, not for a
developer: they name the argument, show the offending value and state the rule.
"""

from __future__ import annotations

import numbers

import numpy as np

#: Tolerance on "sums to 1" for distributions and reference distributions.
SUM_TOLERANCE = 1e-9
#: Negative frequencies down to ``-NEG_TOLERANCE`` are treated as round-off and clipped to 0.
NEG_TOLERANCE = 1e-12
#: Smallest reference frequency a theta may give a class. Off-centering divides by q theta_j:
#: below about 1e-308 (subnormal numbers) that overflows float64, below about 1e-38 the tree's
#: float32 screening, and a class prior is at least 1/n anyway, far above 1e-12.
THETA_MIN = 1e-12


def _short(value: object) -> str:
    text = np.array2string(np.asarray(value), precision=6, threshold=8, edgeitems=3)
    return text if len(text) <= 80 else text[:77] + "..."


def _num(x) -> str:
    """A number as a student reads it (no numpy type names)."""
    return f"{float(x):.10g}"


def as_float_array(value: object, name: str) -> np.ndarray:
    """Convert ``value`` to a float64 array, raising ``TypeError`` for non-numeric input."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be numbers, not text ({value!r}).")
    try:
        arr = np.asarray(value)
    except ValueError:
        raise TypeError(
            f"{name} could not be read as an array of numbers: its rows have different lengths."
        ) from None
    except Exception as exc:  # pragma: no cover - numpy raises many kinds here
        raise TypeError(f"{name} could not be read as an array of numbers: {exc}") from None
    if arr.dtype == object:
        if any(v is None for v in arr.flat):
            raise TypeError(
                f"{name} contains a missing value (None); every entry must be a number."
            )
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError(
                f"{name} must be an array of numbers; got {_short(value)}, which holds "
                "something else (text, None, or rows of different lengths)."
            ) from None
    if arr.dtype.kind in "c":
        raise TypeError(f"{name} must hold real numbers, not complex ones: {_short(arr)}.")
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be an array of numbers; got values of type {arr.dtype}.")
    return arr.astype(np.float64, copy=False)


def as_distribution(p: object, name: str = "p") -> np.ndarray:
    """Validate a (batch of) distribution(s): last axis = class frequencies summing to 1.

    Returns a float64 array of at least one dimension, renormalised to sum exactly to 1 along
    the last axis (the tolerance on the input sum is ``SUM_TOLERANCE``), with round-off
    negatives (down to ``-NEG_TOLERANCE``) clipped to 0.
    """
    arr = as_float_array(p, name)
    if arr.ndim == 0:
        raise ValueError(
            f"{name} must be a distribution (a list of class frequencies such as [0.8, 0.2]), "
            f"not the single number {_num(arr.item())}. For two classes, write [1 - p, p] "
            "or use offcenter.boolean_distribution(p)."
        )
    if arr.shape[-1] == 0:
        raise ValueError(f"{name} is empty: a distribution needs at least one class frequency.")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinite values: {_short(arr)}.")
    if np.any(arr < -NEG_TOLERANCE):
        bad = arr[arr < -NEG_TOLERANCE].flat[0]
        raise ValueError(
            f"{name} contains a negative frequency ({_num(bad)}); class frequencies must be >= 0."
        )
    arr = np.clip(arr, 0.0, None)
    total = arr.sum(axis=-1, keepdims=True)
    off = np.abs(total - 1.0) > SUM_TOLERANCE
    if np.any(off):
        bad = total[off].flat[0]
        raise ValueError(
            f"the frequencies in {name} must sum to 1 (within {SUM_TOLERANCE:g}), but one "
            f"distribution sums to {_num(bad)}. If you have counts, divide them by their total first."
        )
    return arr / total


def as_theta(theta: object, q: int, name: str = "theta") -> np.ndarray:
    """Validate a reference distribution for ``q`` classes.

    ``theta`` is a vector (or a batch broadcastable against the distributions) of q values,
    each strictly between 0 and 1, summing to 1. As a convenience for the boolean case, a single
    number t with ``q == 2`` means ``(1 - t, t)`` (t is the reference frequency of class 1).
    Every value must be at least :data:`THETA_MIN` (1e-12), so that the off-centering's
    divisions by q theta_j stay finite. A single number t is checked as given
    (``1e-12 <= t <= 1 - 1e-12``), so that its messages quote t and never the derived 1 - t.
    """
    arr = as_float_array(theta, name)
    if arr.ndim == 0:
        t = arr.item()
        if q != 2:
            raise ValueError(
                f"{name} = {_num(t)} is a single number, which only makes sense for two "
                f"classes (it then means (1 - {name}, {name})); here there are {q} classes, so "
                f"give {q} reference frequencies."
            )
        # Checked here, on the number given: the messages below would quote 1 - t.
        if not np.isfinite(t):
            raise ValueError(f"{name} must be a finite number; got {t!r}.")
        if not 0.0 < t < 1.0:
            raise ValueError(
                f"{name} = {_num(t)} must be strictly between 0 and 1 (a single number is the "
                f"reference frequency of class 1, and (1 - {name}, {name}) must give both "
                "classes a chance)."
            )
        if t < THETA_MIN or 1.0 - t < THETA_MIN:
            raise ValueError(
                f"{name} = {t!r} is too close to {0 if t < 0.5 else 1}: a single number "
                f"must lie between {THETA_MIN:g} and 1 - {THETA_MIN:g} (off-centering divides "
                f"by q {name}_j, which would overflow)."
            )
        arr = np.array([1.0 - t, t])
    if arr.shape[-1] != q:
        raise ValueError(
            f"{name} has {arr.shape[-1]} values but the distribution has {q} classes; "
            "give one reference frequency per class."
        )
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinite values: {_short(arr)}.")
    tiny = (arr > 0.0) & (arr < THETA_MIN)
    if np.any(tiny):
        raise ValueError(
            f"every value of {name} must be at least {THETA_MIN:g} (off-centering divides by "
            f"q {name}_j, which would overflow); got {arr[tiny].flat[0]:.6g}."
        )
    if np.any((arr <= 0.0) | (arr >= 1.0)):
        bad = arr[(arr <= 0.0) | (arr >= 1.0)].flat[0]
        raise ValueError(
            f"every value of {name} must be strictly between 0 and 1 (the maximum of the measure "
            f"sits at {name}, which must be a distribution that gives every class a chance); "
            f"got {_num(bad)}."
        )
    total = arr.sum(axis=-1, keepdims=True)
    if np.any(np.abs(total - 1.0) > SUM_TOLERANCE):
        bad = total[np.abs(total - 1.0) > SUM_TOLERANCE].flat[0]
        raise ValueError(f"the values of {name} must sum to 1, but they sum to {_num(bad)}.")
    return arr / total


def as_parameter(
    value: object,
    name: str,
    *,
    low: float | None = None,
    high: float | None = None,
    low_open: bool = False,
    what: str = "",
) -> float:
    """Validate a real scalar parameter within ``[low, high]`` (or ``(low, high]`` if ``low_open``)."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.floating, np.integer)):
        raise TypeError(f"{name} must be a number; got {value!r} ({type(value).__name__}).")
    v = float(value)
    rule = []
    if low is not None:
        rule.append(f"{name} {'>' if low_open else '>='} {low:g}")
    if high is not None:
        rule.append(f"{name} <= {high:g}")
    rule_text = " and ".join(rule)
    if low is not None and high is not None:
        rule_text = f"{low:g} {'<' if low_open else '<='} {name} <= {high:g}"
    for_what = f" for {what}" if what else ""
    if not np.isfinite(v):
        raise ValueError(f"{name} must be a finite number; got {value!r}.")
    if low is not None and (v < low or (low_open and v == low)):
        raise ValueError(f"{name} = {v:g} is out of range{for_what}: {rule_text} is required.")
    if high is not None and v > high:
        raise ValueError(f"{name} = {v:g} is out of range{for_what}: {rule_text} is required.")
    return v


def as_sample_size(n: object, batch_shape: tuple[int, ...], name: str = "n") -> np.ndarray:
    """Validate a sample size (scalar or array broadcastable to the batch shape), n >= 0."""
    arr = as_float_array(n, name)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} (the sample size) must be finite; got {_short(arr)}.")
    if np.any(arr < 0):
        raise ValueError(f"{name} (the sample size) must be >= 0; got {_short(arr)}.")
    try:
        return np.broadcast_to(arr, batch_shape).astype(np.float64)
    except ValueError:
        raise ValueError(
            f"{name} has shape {arr.shape}, which does not match the {batch_shape} distributions "
            "given; pass one sample size, or one per distribution."
        ) from None


def scalar_or_array(values: np.ndarray) -> float | np.ndarray:
    """Return a Python float for a 0-d result, the array otherwise."""
    if values.ndim == 0:
        return float(values)
    return values


#: Largest binary exponent a count table's entries keep after :func:`rescaled_table`, less
#: the bits of its number of cells: its totals stay below 2**960, leaving room for products
#: of totals and impurities.
_TABLE_EXP_MAX = 960


def rescaled_table(t: np.ndarray) -> np.ndarray:
    """A count table (..., k, q), each table scaled by a power of two if its sums could overflow.

    Functions of a table that depend only on ratios of its counts (frequencies, the gain and
    every lambda_alpha, the Hellinger distance) are scale-free, but its totals are computed:
    counts near 1e308 overflow them (NaN results), and subnormal counts (below 2.2e-308) lose
    digits in products. A table whose largest count is above about 2**(960 - log2(cells)) is
    scaled down to that level, one whose largest count is below 2**-960 is scaled up to
    [1/2, 1). Scaling by a power of two is exact for normal numbers, so every other table is
    returned unchanged and the results are those of the table as given. Not for the consistent
    asymmetric entropy, whose Laplace estimate depends on the counts themselves.
    """
    if t.size == 0:
        return t
    top = t.max(axis=(-2, -1), keepdims=True)
    _, e = np.frexp(top)  # top = m 2**e, 1/2 <= m < 1
    hi = _TABLE_EXP_MAX - int(np.ceil(np.log2(t.shape[-2] * t.shape[-1])))
    shift = np.where(e > hi, hi - e, np.where((top > 0) & (e < -_TABLE_EXP_MAX), -e, 0))
    if not np.any(shift):
        return t
    return np.ldexp(t, shift)
