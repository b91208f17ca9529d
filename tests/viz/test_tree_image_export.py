"""The whole-tree export of a many-valued tree (issue 33): bounded by work, not by time.

A categorical column of 349 levels in 600 rows wins the root with one branch per value: 489
nodes, 3,279 lines of text. matplotlib's Agg renders a text glyph by glyph (20 s for that tree,
under load) and its SVG wrote a path per glyph: the PNG's text is drawn by Pillow on
matplotlib's raster (no Agg text draw at all) and the SVG's is one ``<text>`` per line.
"""

from __future__ import annotations

import io
import re

import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import RendererAgg
from PIL import Image, ImageDraw

from offcenter.tree import TreeClassifier
from offcenter.viz import tree_image as ti
from offcenter.viz.tree_layout import tree_layout
from tests.app.test_tree_many_valued import _file


@pytest.fixture(scope="module")
def many_valued_tree():
    df = pd.read_csv(io.BytesIO(_file()))
    clf = TreeClassifier(measure="shannon", theta="prior").fit(
        df[["code", "age", "bmi"]], df["class"]
    )
    lay = tree_layout(clf)
    assert len(lay.boxes) > 450 and len(lay.text_lines()) > 3000  # the tree
    return clf, lay


def _counting(monkeypatch, cls, name):
    calls = []
    original = getattr(cls, name)

    def counted(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(cls, name, counted)
    return calls


def test_png_text_is_drawn_by_pillow_once_per_line(monkeypatch, many_valued_tree):
    clf, lay = many_valued_tree
    agg_text = _counting(monkeypatch, RendererAgg, "draw_text")
    pil_text = _counting(monkeypatch, ImageDraw.ImageDraw, "text")
    png = ti.tree_image(clf, "png", title="codes.csv, off-centered Shannon")
    assert agg_text == []  # no glyph-by-glyph text of matplotlib's
    assert len(pil_text) == len(lay.text_lines()) + 1  # each line once, and the title
    image = Image.open(io.BytesIO(png))
    # a 33,000 px wide tree: 40 megapixels at most, at least 1 px per layout px
    assert image.width * image.height <= 40e6 * 1.01 and image.width >= lay.width
    # text was drawn: dark pixels in the first box's text rows
    b = lay.boxes[0]
    s = image.width / lay.width
    title_h = 30  # one title line
    crop = np.asarray(image.convert("L"))[
        int((b.top + title_h) * s) : int((b.top + title_h + 30) * s),
        int(b.left * s) : int((b.left + b.width) * s),
    ]
    assert (crop < 100).sum() > 50


def test_svg_has_one_text_element_per_line_and_no_glyph_paths(many_valued_tree):
    clf, lay = many_valued_tree
    svg = ti.tree_image(clf, "svg", title="codes.csv").decode()
    assert len(re.findall(r"<text\b", svg)) == len(lay.text_lines()) + 1
    assert '<use xlink:href="#DejaVu' not in svg and 'id="DejaVuSansMono' not in svg
    assert f">node {max(lay.boxes)}<" in svg  # the whole tree, as text


def test_a_wide_png_is_scaled_down_a_small_one_is_not():
    clf = TreeClassifier().fit([[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1])
    lay = tree_layout(clf)
    image = Image.open(io.BytesIO(ti.tree_image(clf, "png", title="t", scale=2.0)))
    assert image.width == pytest.approx(2 * lay.width, abs=2)
