r"""Text for the figures and pages: escaping user text and writing numbers, in one place.

Escaping
    Plotly renders a small HTML subset in every label, title, hover and annotation (``<b>``,
    ``<br>``, ``<a href>``, ``<span style>``), and ``st.markdown`` renders markdown, HTML and
    LaTeX. Text that comes from the user (column names, class labels, file names) goes through
    :func:`plot_text` before a figure shows it and :func:`md_escape` before a page's markdown
    shows it: it reads as typed, and is never run as markup.

Numbers
    One function per way a number is read:

    ==========================  =============================  ===========================
    function                    used for                       example
    ==========================  =============================  ===========================
    :func:`fmt_sig`             a value with its digits        ``0.105843``, ``1e-12``
    :func:`fmt_calc`            a step of a worked formula     ``0.0000001`` (no ``e``)
    :func:`fmt_threshold`       a split threshold              ``127.5``
    :func:`fmt_value`           impurity or gain in a node     ``0.4688``, ``0``
    :func:`fmt_share`           a class share                  ``62.5%``, ``<0.1%``
    :func:`fmt_fixed`           a table of metrics             ``0.8125``
    :func:`fmt_exact`           a number written in a link     ``0.1``, ``0.333333333333``
    ==========================  =============================  ===========================

    The core writes its own numbers (branch labels, exports, error messages; it never imports
    this module: see docs/architecture.md); :func:`fmt_threshold` is the same rule as the
    branch labels' (6 significant digits).

Examples
--------
>>> plot_text("<b>age</b> & weight")
'&lt;b&gt;age&lt;/b&gt; &amp; weight'
>>> plot_text("a very long column name", limit=8)
'a very …'
>>> fmt_sig(0.10584334), fmt_sig(1e-12), fmt_sig(float("nan"))
('0.105843', '1e-12', '')
>>> fmt_threshold(127.50000001), fmt_value(3e-14), fmt_share(0.0001), fmt_fixed(0.8125)
('127.5', '0', '<0.1%', '0.8125')
"""

from __future__ import annotations

import html
import re

import numpy as np

__all__ = [
    "plot_text",
    "plot_lines",
    "md_escape",
    "fmt_sig",
    "fmt_calc",
    "fmt_threshold",
    "fmt_value",
    "fmt_share",
    "fmt_fixed",
    "fmt_exact",
]


# ------------------------------------------------------------------------------ escaping
def _cut(text: object, limit: int | None) -> str:
    s = str(text)
    if limit is not None and len(s) > limit:
        s = s[: limit - 1] + "…"
    return s


def plot_text(text: object, limit: int | None = None) -> str:
    """Escape text for a Plotly label (which interprets ``<b>``, ``<br>``, ``<a>``...).

    ``&``, ``<`` and ``>`` become entities (quotes need none: Plotly reads no attribute of
    user text). With ``limit``, text longer than ``limit`` characters is cut to ``limit - 1``
    and an ellipsis.

    >>> plot_text("x<br>y")
    'x&lt;br&gt;y'
    """
    return html.escape(_cut(text, limit), quote=False)


def plot_lines(text: object, width: int = 30, max_lines: int = 2) -> str:
    """Escape text for a Plotly label (:func:`plot_text`) and break it into lines of about
    ``width`` characters, at spaces (after a comma when one is near), joined by ``<br>``: a
    legend entry does not wrap by itself, and a cut one loses what tells settings apart
    ("θ = prior (0.65, …"). Only text longer than ``max_lines`` lines is cut (an ellipsis).

    >>> plot_lines("off-centered Shannon, θ = prior (0.65, 0.35)")
    'off-centered Shannon,<br>θ = prior (0.65, 0.35)'
    >>> plot_lines("Gini"), plot_lines("a<b " * 4, width=7)
    ('Gini', 'a&lt;b a&lt;b<br>a&lt;b a&lt;b')
    >>> plot_lines("one two three four five six", width=8)
    'one two<br>three f…'
    """
    words = str(text).split()
    lines: list[str] = []
    line = ""
    for i, word in enumerate(words):
        candidate = f"{line} {word}" if line else word
        # break after a comma when the line is already more than half full
        comma_break = line.endswith(",") and len(line) > width // 2
        if line and (len(candidate) > width or comma_break):
            lines.append(line)
            line = word
            if len(lines) == max_lines:
                rest = " ".join([line, *words[i + 1 :]])
                lines[-1] = _cut(lines[-1] + " " + rest, width)
                line = ""
                break
        else:
            line = candidate
    if line:
        lines.append(line)
    return "<br>".join(html.escape(ln, quote=False) for ln in lines)


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>$~&=:\"'])")


def md_escape(text: object, limit: int | None = None) -> str:
    r"""Escape a user string for ``st.markdown``: every markdown, HTML or LaTeX special is
    backslash-escaped, newlines become spaces, and long strings are cut.

    >>> md_escape("<b>x</b> $y$ *z*")
    '\\<b\\>x\\</b\\> \\$y\\$ \\*z\\*'
    """
    s = _cut(str(text).replace("\r", " ").replace("\n", " "), limit)
    return _MD_SPECIAL.sub(r"\\\1", s)


# ------------------------------------------------------------------------------ numbers
def fmt_sig(value, digits: int = 6) -> str:
    """A number with ``digits`` significant digits of its exact value ('' for None or NaN).

    >>> fmt_sig(0.105840), fmt_sig(0.10584334), fmt_sig(1e-12), fmt_sig(3)
    ('0.10584', '0.105843', '1e-12', '3')
    """
    if value is None:
        return ""
    x = float(value)
    if np.isnan(x):
        return ""
    if x == 0:
        return "0"
    return f"{x:.{digits}g}"


def fmt_calc(x: float, digits: int = 6) -> str:
    """A number of a worked calculation: ``digits`` significant digits of its exact value
    (0.105843, not 0.105840), trailing zeros dropped (0.5625, 0), never an exponent (LaTeX
    shows ``1e-07`` badly: the positional form has the same digits).

    >>> fmt_calc(0.5625), fmt_calc(0), fmt_calc(1e-7), fmt_calc(float("inf"))
    ('0.5625', '0', '0.0000001', 'inf')
    """
    x = float(x)
    if x == 0 or not np.isfinite(x):
        return "0" if x == 0 else str(x)
    text = f"{x:.{digits}g}"
    if "e" in text:
        text = np.format_float_positional(
            x, precision=digits, unique=False, fractional=False, trim="-"
        )
    return text


def fmt_threshold(x: float) -> str:
    """A threshold as the tree's branch labels write it (6 significant digits).

    >>> fmt_threshold(127.5), fmt_threshold(0.1234567)
    ('127.5', '0.123457')
    """
    return f"{float(x):.6g}"


def fmt_value(x: float) -> str:
    """An impurity or a gain in a node box (4 significant digits; below 5e-13, round-off of
    zero, it is ``0``).

    >>> fmt_value(0.46875), fmt_value(-1e-15), fmt_value(float("nan"))
    ('0.4688', '0', 'nan')
    """
    x = float(x)
    if not np.isfinite(x):
        return str(x)
    if abs(x) < 5e-13:
        return "0"
    return f"{x:.4g}"


def fmt_share(p: float) -> str:
    """A class share in a node box: one decimal, ``<0.1%`` for a tiny non-zero share.

    >>> fmt_share(0.625), fmt_share(0.0), fmt_share(0.0004)
    ('62.5%', '0%', '<0.1%')
    """
    if p <= 0:
        return "0%"
    if p < 0.0005:
        return "<0.1%"
    return f"{100 * p:.1f}%"


def fmt_fixed(x, decimals: int = 4) -> str:
    """A float with ``decimals`` decimals (a table of metrics); anything else as ``str``.

    >>> fmt_fixed(0.8125), fmt_fixed(np.float32(0.5)), fmt_fixed(12), fmt_fixed("n/a")
    ('0.8125', '0.5000', '12', 'n/a')
    """
    if isinstance(x, (float, np.floating)):
        return f"{float(x):.{decimals}f}"
    return str(x)


def fmt_exact(x: float) -> str:
    """A float written in a link: 12 significant digits, the shortest text that reads back
    to the value a slider or a text box gave.

    >>> fmt_exact(0.1), fmt_exact(1 / 3), fmt_exact(2.0)
    ('0.1', '0.333333333333', '2')
    """
    return f"{x:.12g}"
