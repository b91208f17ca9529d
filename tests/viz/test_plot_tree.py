"""plot_tree: the Plotly drawing with scikit-learn's plot_tree parameters."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.tree import DecisionTreeClassifier

from offcenter import TreeClassifier
from offcenter.viz.plot_tree import plot_tree
from offcenter.viz.tree import tree_figure


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True, as_frame=True)


def _texts(fig) -> str:
    parts = []
    for tr in fig.data:
        for attr in ("text", "hovertext"):
            v = getattr(tr, attr, None)
            if v is not None:
                parts.extend(map(str, np.atleast_1d(v)))
    parts += [str(a.text) for a in fig.layout.annotations or ()]
    return "\n".join(parts)


def test_default_is_tree_figure(iris):
    X, y = iris
    clf = TreeClassifier(max_depth=3).fit(X, y)
    assert plot_tree(clf).to_plotly_json() == tree_figure(clf).to_plotly_json()


def test_names_depth_and_font(iris):
    X, y = iris
    clf = TreeClassifier(max_depth=3).fit(X, y)
    feats = ["SL", "SW", "<b>PL</b>", "PW"]
    fig = plot_tree(clf, feature_names=feats, class_names=["setosa", "versicolor", "virginica"])
    text = _texts(fig)
    assert "petal" not in text and ("&lt;b&gt;PL&lt;/b&gt;" in text or "PW" in text)
    assert "<b>PL</b>" not in text  # user text is escaped
    assert {"setosa", "versicolor", "virginica"} <= {t.name for t in fig.data}
    # the fitted tree itself is unchanged
    assert clf.tree_.nodes[0].split.feature.startswith("petal")
    shallow = plot_tree(clf, max_depth=1)
    assert "hidden" in _texts(shallow)
    assert plot_tree(clf, fontsize=9).layout.font.size == 9
    # accepted for code written for scikit-learn
    plot_tree(clf, filled=True, impurity=True, proportion=True, precision=2, rounded=True)


def test_sklearn_tree_and_errors(iris):
    X, y = iris
    sk = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    fig = plot_tree(sk, class_names=["a", "b", "c"])
    assert {"a", "b", "c"} <= {t.name for t in fig.data}
    clf = TreeClassifier(max_depth=2).fit(X, y)
    with pytest.raises(TypeError, match="Plotly"):
        plot_tree(clf, ax=object())
    with pytest.raises(ValueError, match="impurity=False"):
        plot_tree(clf, impurity=False)
    with pytest.raises(ValueError, match="feature_names must contain 4"):
        plot_tree(clf, feature_names=["a"])
    with pytest.raises(ValueError, match="class_names must contain 3"):
        plot_tree(clf, class_names=["a"])
