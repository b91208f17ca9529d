r"""One drawing style per measure setting, per class, and the type sizes of normal and
presentation mode.

A curve's style (colour, dash, marker) is a function of its :attr:`MeasureSetting.key` alone:
the same setting looks the same on every page and whatever else is drawn beside it, so adding or
removing a curve changes no other curve's style. Keys drawn by the paper's figures and the pages'
defaults have a fixed entry (:data:`KNOWN`, all distinct); any other key gets a stable hash of its
text (CRC-32, the same in every process, unlike Python's ``hash``).

The palette is colour-blind safe (the hues of Okabe and Ito 2008 and of Paul Tol's schemes,
darkened where needed) and every colour has a WCAG 2 contrast ratio of at least 3:1 against
white (the AA level for graphics), computed by :func:`contrast_ratio`; with a dash and a marker
of its own, every curve also reads in grayscale.

Examples
--------
>>> setting_style("oc_shannon")
Style(color='#0072B2', dash='solid', symbol='square')
>>> setting_style("shannon")
Style(color='#000000', dash='dash', symbol='square')
>>> setting_style("shannon") == setting_style("shannon")
True
>>> round(contrast_ratio("#0072B2"), 2)
5.19
"""

from __future__ import annotations

import re
import zlib
from typing import NamedTuple

__all__ = [
    "PALETTE",
    "CLASS_COLORS",
    "DASHES",
    "SYMBOLS",
    "KNOWN",
    "Style",
    "Typography",
    "NORMAL",
    "PRESENTATION",
    "typography",
    "typeset",
    "legend_title_on_top",
    "wrap_label",
    "setting_style",
    "class_style",
    "contrast_ratio",
    "TEXT_COLOR",
]

#: Ten colours, each at least 3:1 against white (see :func:`contrast_ratio`).
PALETTE = (
    "#000000",  # black
    "#0072B2",  # blue (Okabe-Ito)
    "#D55E00",  # vermillion (Okabe-Ito)
    "#007A5E",  # bluish green, darkened (Okabe-Ito #009E73)
    "#B8568F",  # reddish purple, darkened (Okabe-Ito #CC79A7)
    "#A35F00",  # orange, darkened (Okabe-Ito #E69F00)
    "#332288",  # indigo (Tol)
    "#666666",  # grey
    "#882255",  # wine (Tol)
    "#1A7F94",  # cyan, darkened (Tol #66CCEE)
)
#: Fill colours of the classes in the tree's boxes and bars (Okabe and Ito 2008, undarkened:
#: filled areas with the text beside them, not lines), cycled for many classes. The curves'
#: class colours are :data:`PALETTE` (:func:`class_style`).
CLASS_COLORS = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#D55E00",
    "#CC79A7",
    "#56B4E9",
    "#F0E442",
    "#000000",
)
#: Ten dash patterns (Plotly names or dash lengths in px).
DASHES = (
    "solid",
    "dash",
    "dot",
    "dashdot",
    "longdash",
    "longdashdot",
    "5px,2px,1px,2px",
    "12px,3px,3px,3px,3px,3px",
    "2px,5px",
    "8px,2px",
)
#: Ten marker symbols.
SYMBOLS = (
    "circle",
    "square",
    "diamond",
    "triangle-up",
    "x",
    "triangle-down",
    "star",
    "cross",
    "pentagon",
    "hexagram",
)

#: Text colour of figures (17:1 against white).
TEXT_COLOR = "#1A1A1A"


class Style(NamedTuple):
    """Colour, dash pattern and marker symbol of one curve."""

    color: str
    dash: str
    symbol: str


# (colour, dash, marker) indices. Within Figure 1, within Figure 2 (drawn off-centered or
# uncentered), and within all the measures drawn off-centered or all uncentered, colours, dashes
# and markers are each distinct (tested); a measure's uncentered and off-centered versions share
# the marker.
_KNOWN_INDEX = {
    "shannon": (0, 1, 1),
    "oc_shannon": (1, 0, 1),
    "asymmetric": (2, 3, 2),
    "asymmetric_consistent": (9, 9, 6),
    "gini": (7, 2, 3),
    "oc_gini": (3, 7, 3),
    "misclassification": (6, 7, 4),
    "oc_misclassification": (5, 8, 4),
    "oc_daroczy_b0": (7, 2, 5),
    "oc_daroczy_b0.5": (5, 4, 6),
    "oc_daroczy_b1": (6, 0, 7),
    "oc_daroczy_b2": (8, 5, 8),
    "oc_daroczy_b5": (9, 6, 9),
    "oc_rank_diversity_r0": (4, 1, 0),
    "daroczy_b0": (7, 7, 5),
    "daroczy_b0.5": (5, 8, 6),
    "daroczy_b1": (6, 9, 7),
    "daroczy_b2": (8, 6, 8),
    "daroczy_b5": (9, 2, 9),
    "rank_diversity_r0": (4, 4, 0),
    "dkm": (3, 8, 5),
    "oc_dkm": (6, 4, 5),
}
#: The fixed styles of known keys.
KNOWN = {k: Style(PALETTE[c], DASHES[d], SYMBOLS[m]) for k, (c, d, m) in _KNOWN_INDEX.items()}

# The consistent asymmetric entropy keeps one style whatever its sample size n.
_N_SUFFIX = re.compile(r"_n[0-9.e+-]+(?=$|_)")


def setting_style(key: object) -> Style:
    """The style of a measure setting, from its key alone.

    Parameters
    ----------
    key : str or MeasureSetting
        ``MeasureSetting.key`` (a setting is accepted and its key used).

    Returns
    -------
    Style
        A fixed entry of :data:`KNOWN` (the sample size ``_n...`` of the consistent asymmetric
        entropy is ignored), else colour, dash and marker from the CRC-32 ``h`` of the key:
        ``PALETTE[h % 10]``, ``DASHES[h // 10 % 10]``, ``SYMBOLS[h // 100 % 10]``.
    """
    k = getattr(key, "key", key)
    if not isinstance(k, str) or not k:
        raise TypeError(f"key must be a MeasureSetting key (a non-empty str); got {key!r}.")
    base = _N_SUFFIX.sub("", k)
    if base in KNOWN:
        return KNOWN[base]
    h = zlib.crc32(k.encode("utf-8"))
    n = len(PALETTE)
    return Style(PALETTE[h % n], DASHES[h // n % n], SYMBOLS[h // (n * n) % n])


def class_style(j: int) -> Style:
    """Style of class ``j`` (0-based) of the q-class figures: ten distinct colours, dashes and
    markers for q <= 10 (cycles beyond)."""
    if isinstance(j, bool) or not isinstance(j, int) or j < 0:
        raise ValueError(f"j must be a class index >= 0; got {j!r}.")
    n = len(PALETTE)
    return Style(PALETTE[j % n], DASHES[j % n], SYMBOLS[j % n])


def _relative_luminance(color: str) -> float:
    text = color.lstrip("#")
    if not re.fullmatch(r"[0-9A-Fa-f]{6}", text):
        raise ValueError(f"color must be '#RRGGBB'; got {color!r}.")
    channels = [int(text[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast_ratio(color: str, background: str = "#FFFFFF") -> float:
    r"""WCAG 2 contrast ratio :math:`(L_1 + 0.05) / (L_2 + 0.05)` of two ``#RRGGBB`` colours,
    :math:`L` the relative luminance (sRGB channels linearised, weights 0.2126, 0.7152,
    0.0722), :math:`L_1 \ge L_2`. 21 for black on white; AA asks 4.5 for text, 3 for graphics.
    """
    a, b = _relative_luminance(color), _relative_luminance(background)
    hi, lo = max(a, b), min(a, b)
    return (hi + 0.05) / (lo + 0.05)


class Typography(NamedTuple):
    """Type sizes (px) and line widths of a figure."""

    font: int  # default text (hover, colour bar)
    tick: int  # tick labels
    axis_title: int
    legend: int
    title: int
    annotation: int
    line: float  # curve width
    marker: int  # curve marker size
    guide: float  # reference lines (theta, cursor)


#: Normal mode: dark text of at least 14 px.
NORMAL = Typography(
    font=15, tick=15, axis_title=16, legend=15, title=18, annotation=14, line=2.5, marker=8, guide=2
)
#: Presentation mode (a projector at 1400 px wide): text of at least 20 px, thicker lines.
PRESENTATION = Typography(
    font=22,
    tick=22,
    axis_title=24,
    legend=22,
    title=28,
    annotation=22,
    line=4.5,
    marker=13,
    guide=3,
)


def typography(presentation: bool = False) -> Typography:
    """:data:`PRESENTATION` if ``presentation`` else :data:`NORMAL`."""
    return PRESENTATION if presentation else NORMAL


def wrap_label(text: str, width: int = 22) -> str:
    """Break ``text`` into lines of at most ``width`` characters at spaces (Plotly's ``<br>``);
    a word longer than ``width`` keeps its own line. Text that already has ``<br>`` is kept.

    >>> wrap_label("off-centered Daroczy (β = 0.5), θ = prior", 22)
    'off-centered Daroczy<br>(β = 0.5), θ = prior'
    >>> wrap_label("Shannon", 5)
    'Shannon'
    """
    if len(text) <= width or "<br>" in text:
        return text
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "<br>".join(lines)


def typeset(fig, presentation: bool = False):
    """Set a built Plotly figure's text to the sizes of :func:`typography` (in place).

    The figures of the Compare page (:mod:`offcenter.viz.evaluation`, :mod:`offcenter.viz.study`)
    are built with Plotly's methods; this gives them the curve pages' type: the default text
    ``font``, the title ``title``, axis titles ``axis_title``, tick labels ``tick``, the legend
    ``legend`` (capped at 20 px, as a long legend of the curve pages) and every annotation
    ``annotation``, all dark (:data:`TEXT_COLOR`) in presentation mode. A figure's own layout
    (heights, margins, wrapped labels) is its builder's business.

    Returns the figure.
    """
    t = typography(presentation)
    color = {"color": TEXT_COLOR} if presentation else {}
    fig.update_layout(
        font={"size": t.font, **color},
        hoverlabel={"font": {"size": t.font}},
        legend={"font": {"size": min(t.legend, 20)}},
    )
    if presentation:  # the toolbar as a column in the right margin, not a row over the title
        fig.update_layout(modebar={"orientation": "v"})
    if fig.layout.title.text:
        fig.update_layout(title={"font": {"size": t.title, **color}})
    axis = {"title_font": {"size": t.axis_title, **color}, "tickfont": {"size": t.tick, **color}}
    fig.update_xaxes(**axis)
    fig.update_yaxes(**axis)
    fig.update_annotations(font_size=t.annotation)
    return fig


def legend_title_on_top(fig, title: str | None, presentation: bool = False, columns: int = 1):
    """Put a figure's legend in rows above the plot, headed by the figure's title (in place).

    The curve pages' layout (:mod:`offcenter.viz.curves`): a layout title and a legend above
    the plot overlap at presentation size (Plotly makes room for the legend, not for the two),
    so the title becomes the legend's title, in bold, and the plot moves down for both.
    ``columns`` > 1 puts the entries in that many columns. Returns the figure.
    """
    t = typography(presentation)
    legend = {
        "orientation": "h",
        "yanchor": "bottom",
        "y": 1.02,
        "xanchor": "left",
        "x": 0,
        "font": {"size": min(t.legend, 20), "color": TEXT_COLOR},
    }
    if columns > 1:
        legend.update(entrywidthmode="fraction", entrywidth=1 / columns)
    if title:
        legend["title"] = {
            "text": f"<b>{title}</b>",
            "side": "top",
            "font": {"size": t.title, "color": TEXT_COLOR},
        }
    fig.update_layout(title={"text": None}, legend=legend, showlegend=True)
    return fig
