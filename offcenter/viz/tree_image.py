"""The whole tree as a PNG or SVG file, drawn on the server from the page's own layout.

Plotly's image export needs kaleido (a Chromium it drives), which this project does not install;
the drawing already has an exact pixel layout (:func:`offcenter.viz.tree_layout.tree_layout`),
so matplotlib (Agg, no display) draws the same boxes, bars, edges, branch labels and text,
with a title naming the data set, the setting with its theta, the leaf rule and the depth. The
whole tree is drawn (no collapsed level unless ``max_depth`` asks), whatever the chart shows.

>>> from offcenter.tree import TreeClassifier
>>> clf = TreeClassifier().fit([[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1])
>>> tree_image(clf, "svg", title="demo")[:5]
b'<?xml'
>>> tree_image(clf, "png", title="demo")[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import functools
import io

import matplotlib
import numpy as np
from PIL import Image, ImageDraw, ImageFont

matplotlib.use("Agg")  # no display on a server; set before pyplot is imported

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import font_manager  # noqa: E402
from matplotlib.collections import LineCollection, PatchCollection  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

from offcenter.viz.tree_layout import (  # noqa: E402
    FONT_SIZE,
    class_color,
    tree_layout,
    wrap,
)

__all__ = ["tree_image", "TreeImage", "FORMATS"]

#: The formats offered, with their MIME types.
FORMATS = {"png": "image/png", "svg": "image/svg+xml"}
_DPI = 100.0
_FAMILY = "DejaVu Sans Mono"
#: Pixels of a PNG at most, where ``scale`` allows (a tree of 500 boxes side by side is 33,000
#: layout px wide: at 2x, 100 megapixels); at least one pixel per layout pixel whatever.
_MAX_PIXELS = 40e6


@functools.cache
def _font(px: float, bold: bool) -> ImageFont.FreeTypeFont:
    """The drawing's monospaced font at ``px`` pixels (the file matplotlib finds for it)."""
    prop = font_manager.FontProperties(family=_FAMILY, weight="bold" if bold else "normal")
    return ImageFont.truetype(font_manager.findfont(prop), size=max(1, round(px)))


class TreeImage(bytes):
    """The bytes of a PNG or SVG drawing that a notebook displays inline.

    A ``bytes`` (``open(f, "wb").write(img)``, ``st.download_button(data=img)`` work as they
    did) with ``fmt`` ("png" or "svg") and IPython's display hooks: ``_repr_png_`` for a PNG,
    ``_repr_svg_`` (the text) for an SVG; the other returns None, so the notebook shows the
    drawing once.
    """

    fmt: str

    def __new__(cls, data: bytes, fmt: str):
        obj = super().__new__(cls, data)
        obj.fmt = fmt
        return obj

    def __reduce__(self):  # pickled (Streamlit's cache) with its format
        return (TreeImage, (bytes(self), self.fmt))

    def _repr_png_(self):
        return bytes(self) if self.fmt == "png" else None

    def _repr_svg_(self):
        return bytes(self).decode("utf-8") if self.fmt == "svg" else None

    def __repr__(self) -> str:
        return f"<TreeImage {self.fmt.upper()}, {len(self)} bytes>"


def tree_image(
    clf,
    fmt: str = "png",
    *,
    title: str = "",
    max_depth: int | None = None,
    scale: float = 2.0,
) -> TreeImage:
    """The tree drawn whole as ``fmt`` ("png" or "svg") bytes, with ``title`` above it.

    The bytes are a :class:`TreeImage`: written to a file or a download as they are, and shown
    inline by a notebook (Jupyter calls its ``_repr_png_`` or ``_repr_svg_``).

    ``scale`` multiplies the layout's pixels (a PNG at 2x reads well when printed or projected;
    an SVG is a vector drawing, scale only sets its nominal size); a very wide tree's PNG is
    drawn at a smaller scale, 40 megapixels at most, never under 1. Text is plain (user text
    is never interpreted: matplotlib's mathtext is switched off for every string, Pillow draws
    characters). The marks are matplotlib's collections; a PNG's text is drawn by Pillow on
    matplotlib's raster, an SVG's is one ``<text>`` element per line.
    """
    if fmt not in FORMATS:
        raise ValueError(f"fmt must be one of {tuple(FORMATS)}; got {fmt!r}.")
    lay = tree_layout(clf, max_depth=max_depth)
    if fmt == "png":  # a very wide tree: fewer pixels (never under 1 px per layout px)
        full = (lay.width + 0.0) * (lay.height + 40.0)
        scale = min(scale, max(1.0, (_MAX_PIXELS / full) ** 0.5))
    title_lines = wrap(str(title), max(40, int(lay.width / (0.6 * 14)))) if title else []
    title_h = 10 + 20 * len(title_lines)
    w, h = lay.width, lay.height + title_h
    fig = plt.figure(figsize=(w * scale / _DPI, h * scale / _DPI), dpi=_DPI)
    try:
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, w)
        ax.set_ylim(h, 0)  # y downwards, as the layout
        ax.axis("off")
        pt = 72.0 / _DPI * scale  # one layout px in points

        # PNG: matplotlib draws the marks, Pillow (matplotlib's own image library) the text on
        # the raster: Agg renders a text glyph by glyph, 26,000 glyphs of a 489-node tree took
        # 20 s; SVG: matplotlib writes each line as a <text> element (not a path per glyph)
        texts: list[tuple] = []  # (x, y, text, colour, size px, bold, ha) in layout px

        def text(x, y, s, color="#202124", size=FONT_SIZE, weight="normal", ha="center"):
            texts.append((x, y, s, color, size, weight == "bold", ha))

        for k, line in enumerate(title_lines):
            text(6, 14 + 20 * k, line, size=14, weight="bold", ha="left")
        dy = title_h
        # one collection per kind of mark (edges, boxes, bars): a tree of 500 nodes draws in
        # a second or two, not the half-minute of one artist per mark
        segments = [
            [(p[0], p[1] + dy) for p in piece] for _p, _c, pieces in lay.edges for piece in pieces
        ]
        ax.add_collection(LineCollection(segments, colors="#9aa0a6", linewidths=1.5 * pt))
        boxes, fills = [], []
        bars, bar_colors = [], []
        for b in lay.boxes.values():
            fill = "#ffffff"
            if b.leaf:
                c = class_color(b.prediction_index)
                r, g, bl = (int(c[i : i + 2], 16) for i in (1, 3, 5))
                fill = "#" + "".join(f"{round(255 - 0.16 * (255 - v)):02x}" for v in (r, g, bl))
            boxes.append(Rectangle((b.left, b.top + dy), b.width, b.height))
            fills.append(fill)
            for j, left, top, right, bottom in b.bar_rects():
                bars.append(Rectangle((left, top + dy), right - left, bottom - top))
                bar_colors.append(class_color(j))
        ax.add_collection(
            PatchCollection(boxes, facecolors=fills, edgecolors="#5f6368", linewidths=1.0 * pt)
        )
        ax.add_collection(
            PatchCollection(bars, facecolors=bar_colors, edgecolors="#ffffff", linewidths=0.5 * pt)
        )
        for line in lay.text_lines():
            bold = line.text.startswith("<b>")
            text(
                line.x,
                line.y + dy,
                line.plain,
                color=line.color,
                weight="bold" if bold else "normal",
            )
        buf = io.BytesIO()
        if fmt == "svg":
            for x, y, s, color, size, bold, ha in texts:
                ax.text(
                    x, y, s, ha=ha, va="center", color=color, fontsize=size * pt,
                    family=_FAMILY, fontweight="bold" if bold else "normal", usetex=False,
                    parse_math=False,
                )  # fmt: skip
            with matplotlib.rc_context({"svg.fonttype": "none"}):
                fig.savefig(buf, format="svg", dpi=_DPI, metadata={"Title": str(title)[:200]})
        else:
            fig.canvas.draw()
            image = Image.fromarray(np.asarray(fig.canvas.buffer_rgba())[..., :3])
            draw = ImageDraw.Draw(image)
            for x, y, s, color, size, bold, ha in texts:
                draw.text(
                    (x * scale, y * scale), s, fill=color, font=_font(size * scale, bold),
                    anchor="lm" if ha == "left" else "mm",
                )  # fmt: skip
            # a quick zlib level: a wide tree's PNG is tens of megapixels, mostly white
            image.save(buf, format="png", compress_level=3)
        return TreeImage(buf.getvalue(), fmt)
    finally:
        plt.close(fig)
