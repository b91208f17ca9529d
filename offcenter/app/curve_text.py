r"""The curve pages' text and typed input: axis titles, formulas, notes, number formatting,
and the parsing of a typed theta or distribution (Streamlit-free; only the app uses it).

The numbers are computed by :mod:`offcenter.measures.curves`; this module says them. Every
number a page shows of a theta or a distribution is formatted by :func:`format_values` with
:data:`DIGITS` significant digits, so that what is shown is what was computed: 1/3 reads
0.3333 (never 0.33 or 0.3300), 2**-10 / (1 - 2**-10) reads 0.0009775 (never 0.0000).

Examples
--------
>>> format_values([1 / 3] * 3)
'0.3333, 0.3333, 0.3333'
>>> y_axis_title([MeasureSetting("shannon")])
'entropy (bits)'
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from offcenter.measures._validation import THETA_MIN
from offcenter.measures.registry import OFF_CENTER_LATEX, OFF_CENTER_REFERENCE
from offcenter.measures.settings import MeasureSetting

__all__ = [
    "DIGITS",
    "format_value",
    "format_values",
    "normalise_theta",
    "parse_distribution",
    "formulas",
    "reconstructions",
    "reconstruction_notes",
    "y_axis_title",
]

#: Significant digits of every theta or frequency the curve pages show.
DIGITS = 4


def format_value(v: float, digits: int = DIGITS) -> str:
    """One number with ``digits`` significant digits, no exponent for 1e-4 <= v < 1e6.

    >>> format_value(0.0009775171065493646), format_value(0.5), format_value(1e-05)
    ('0.0009775', '0.5', '1e-05')
    """
    return f"{float(v):.{digits}g}"


def format_values(values, digits: int = DIGITS) -> str:
    """Numbers joined by ", " (:func:`format_value` each).

    >>> format_values([0.6, 0.3, 0.1])
    '0.6, 0.3, 0.1'
    """
    return ", ".join(format_value(v, digits) for v in np.ravel(np.asarray(values, dtype=float)))


def normalise_theta(values, q: int | None = None) -> tuple[np.ndarray, list[str]]:
    """Validate and normalise a user-edited theta vector: ``(theta, notes)``.

    Values must be finite and > 0; they are divided by their sum when it is not 1 (a note says
    so). Raises ``ValueError`` with a readable message otherwise.

    Examples
    --------
    >>> th, notes = normalise_theta([2, 1, 1])
    >>> th.tolist(), notes
    ([0.5, 0.25, 0.25], ['The values sum to 4, so each was divided by the sum: θ = (0.5, 0.25, 0.25).'])
    """
    try:
        arr = np.asarray(values, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise ValueError("θ must be numbers, one per class.") from None
    if q is not None and arr.size != q:
        raise ValueError(f"θ needs {q} values, one per class; got {arr.size}.")
    if arr.size < 2:
        raise ValueError("θ needs at least 2 classes.")
    if not np.all(np.isfinite(arr)):
        raise ValueError("θ has an empty or non-numeric value; give every class a number.")
    if np.any(arr <= 0):
        j = int(np.argmax(arr <= 0)) + 1
        raise ValueError(
            f"θ of class {j} is {format_value(arr[j - 1])}; every class needs a reference frequency above 0 "
            "(off-centering divides by it)."
        )
    notes = []
    total = float(arr.sum())
    th = arr / total
    if abs(total - 1.0) > 1e-5:  # rounding in a shared link is not worth a note
        notes.append(
            f"The values sum to {format_value(total, 6)}, so each was divided by the sum: "
            f"θ = ({format_values(th)})."
        )
    if np.any(th >= 1.0):
        raise ValueError("θ must give every class a frequency strictly below 1.")
    if np.any(th < THETA_MIN):
        j = int(np.argmax(th < THETA_MIN)) + 1
        raise ValueError(
            f"θ of class {j} is {format_value(th[j - 1])} after normalising; every class needs a "
            f"reference frequency of at least {THETA_MIN:g} (off-centering divides by it)."
        )
    return th, notes


def formulas(specs: Sequence[MeasureSetting]) -> list[dict]:
    """The LaTeX formula, label and reference of each distinct measure drawn (registry data),
    then the off-centering transform when any curve is off-centered.

    Each item: ``{"name", "label", "latex", "reference", "notes"}``.
    """
    out: list[dict] = []
    seen: set[str] = set()
    any_oc = False
    for s in dict.fromkeys(specs):  # distinct settings, in order
        info = s.info
        any_oc = any_oc or s.off_centered
        if info.name in seen:
            continue
        seen.add(info.name)
        out.append(
            {
                "name": info.name,
                "label": info.label,
                "latex": info.latex,
                "reference": info.reference,
                "notes": info.notes,
            }
        )
    if any_oc:
        out.append(
            {
                "name": "off_center",
                "label": "off-centering on theta",
                "latex": OFF_CENTER_LATEX,
                "reference": OFF_CENTER_REFERENCE,
                "notes": "",
            }
        )
    return out


def reconstructions(specs: Sequence[MeasureSetting]) -> list[MeasureSetting]:
    """The settings drawn at parameter values their reference does not state (the rank
    diversity of order rho != 0: a reconstruction, which the registry's ``notes`` explain),
    one per measure."""
    out: dict[str, MeasureSetting] = {}
    for s in specs:
        if s.info.reconstructed(s.params):
            out.setdefault(s.measure, s)
    return list(out.values())


def reconstruction_notes(specs: Sequence[MeasureSetting]) -> list[str]:
    """What the pages say of :func:`reconstructions`: the measure at its values, and its
    registry note (markdown, the package's own text)."""
    return [f"{s.measure_label}: {s.info.notes}" for s in reconstructions(specs)]


def y_axis_title(specs: Sequence[MeasureSetting]) -> str:
    """Axis title with units: bits when every curve is a Shannon entropy.

    >>> y_axis_title([MeasureSetting("shannon"), MeasureSetting("shannon", "prior")])
    'entropy (bits)'
    """

    def in_bits(s: MeasureSetting) -> bool:
        return s.info.in_bits(s.params)

    specs = list(specs)
    if specs and all(in_bits(s) for s in specs):
        return "entropy (bits)"
    if any(in_bits(s) for s in specs):
        return "uncertainty (bits for Shannon; others unitless)"
    return "uncertainty (unitless)"


def parse_distribution(text: str, q: int) -> tuple[np.ndarray | None, list[str]]:
    """Parse a typed distribution such as ``"0.5, 0.3, 0.2"``: ``(p or None, messages)``.

    Non-negative numbers, q of them; normalised (with a note) when they do not sum to 1.

    >>> parse_distribution("2, 1, 1", 3)[0].tolist()
    [0.5, 0.25, 0.25]
    >>> parse_distribution("a, 1", 2)
    (None, ['p: `a` is not a number.'])
    """
    parts = [t.strip() for t in str(text).replace(";", ",").split(",") if t.strip()]
    vals = []
    for t in parts:
        try:
            vals.append(float(t))
        except ValueError:
            shown = t[:20].replace("`", "'")  # typed text: in a code span, never markup
            return None, [f"p: `{shown}` is not a number."]
    if len(vals) != q:
        return None, [f"p needs {q} numbers, one per class; got {len(vals)}."]
    arr = np.asarray(vals)
    if not np.all(np.isfinite(arr)) or np.any(arr < 0) or arr.sum() <= 0:
        return None, ["p: frequencies must be finite, non-negative and not all zero."]
    notes = []
    if abs(arr.sum() - 1.0) > 1e-9:
        notes.append(
            f"The values sum to {format_value(arr.sum(), 6)}, so each was divided by the sum: "
            f"p = ({format_values(arr / arr.sum())})."
        )
    return arr / arr.sum(), notes
