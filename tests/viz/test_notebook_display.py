"""Notebook display of fitted trees: the repr and HTML repr (depth, leaves, setting; user text
escaped), plot_tree(x=row) drawing a sample's path, tree_image shown inline."""

from __future__ import annotations

import pickle

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris

from offcenter import TreeClassifier
from offcenter.viz.plot_tree import plot_tree, sample_path
from offcenter.viz.tree import tree_figure
from offcenter.viz.tree_image import TreeImage, tree_image


@pytest.fixture(scope="module")
def iris_tree():
    X, y = load_iris(return_X_y=True, as_frame=True)
    return TreeClassifier(theta="prior", max_depth=3).fit(X, y), X


def test_repr_says_depth_leaves_and_setting(iris_tree):
    clf, _ = iris_tree
    text = repr(clf)
    assert text.startswith("TreeClassifier(max_depth=3, theta='prior')")
    line = text.splitlines()[-1]
    assert line.startswith(f"# fitted: depth {clf.get_depth()}, {clf.get_n_leaves()} leaves")
    assert "off-centered Shannon, θ = prior" in line and "4 features" in line
    assert repr(TreeClassifier()) == "TreeClassifier()"  # unfitted: scikit-learn's
    bundle = clf._repr_mimebundle_()
    assert bundle["text/plain"] == text
    assert "<b>fitted</b>: depth 3," in bundle["text/html"]
    assert clf._repr_html_().startswith('<div class="offcenter-summary"')


def test_html_repr_escapes_user_text():
    X = pd.DataFrame({"<img src=x onerror=alert(1)>": [0.0, 1.0, 2.0, 3.0]})
    clf = TreeClassifier().fit(X, ["<script>alert(1)</script>", "a", "b", "b"])
    html_text = clf._repr_mimebundle_()["text/html"]
    head = html_text.split("</div>", 1)[0]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in head
    assert "<script>alert" not in head
    assert "edits" not in clf.summary()
    assert "1 edits" in clf.make_leaf(0).summary()


def test_plot_tree_draws_a_samples_path(iris_tree):
    clf, X = iris_tree
    row = X.iloc[120]
    path = clf.decision_paths(X.iloc[[120]])[0]
    assert len(path) == clf.get_depth() + 1 or clf.tree_.nodes[path[-1]].is_leaf
    for given in (row, row.to_dict(), row.to_numpy(), X.iloc[[120]], list(row)):
        assert sample_path(clf, given) == path
    fig = plot_tree(clf, x=row)
    traced = [t for t in fig.data if t.name == "traced path"]
    ref = [t for t in tree_figure(clf, path=path).data if t.name == "traced path"]
    assert len(traced) == 1 and traced[0].x == ref[0].x and traced[0].y == ref[0].y
    # every edge of the path is drawn: two pieces around its label, a gap after each
    assert len([v for v in traced[0].x if v is None]) == 2 * (len(path) - 1)
    plain = plot_tree(clf)
    assert not [t for t in plain.data if t.name == "traced path" and t.x]
    with pytest.raises(ValueError, match="one row"):
        sample_path(clf, X.iloc[:2])
    with pytest.raises(ValueError, match="one row"):
        sample_path(clf, np.zeros((2, 4)))


def test_tree_image_is_displayable_inline(iris_tree):
    clf, _ = iris_tree
    png = tree_image(clf, "png")
    assert isinstance(png, bytes) and isinstance(png, TreeImage)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png._repr_png_() == bytes(png)
    assert png._repr_svg_() is None
    svg = tree_image(clf, "svg", title="<b>not markup</b>")
    assert svg._repr_png_() is None and svg._repr_svg_().lstrip().startswith("<?xml")
    assert "&lt;b&gt;not markup&lt;/b&gt;" in svg._repr_svg_()
    again = pickle.loads(pickle.dumps(svg))  # Streamlit's cache pickles it
    assert again == svg and again.fmt == "svg"
    assert repr(png).startswith("<TreeImage PNG, ")
