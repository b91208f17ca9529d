"""The node's figures cached per node and view (offcenter.app.node_settings.threshold_chart,
class_histogram_chart, category_chart): the same figures as the viz builders', built once."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import plotly.io as pio
import pytest

from offcenter.app import node_settings
from offcenter.app.charts import figure_spec
from offcenter.tree import TreeClassifier
from offcenter.viz.tree import category_histogram_figure, class_histogram_figure, threshold_figure


@pytest.fixture
def tree():
    rng = np.random.default_rng(3)
    X = pd.DataFrame(
        {
            "x": rng.normal(size=60).round(2),
            "c": rng.choice(["r", "g", "b"], size=60),
        }
    )
    X.loc[[4, 9], "x"] = np.nan
    y = pd.Series(np.where(rng.random(60) < 0.4, "yes", "no"))
    clf = TreeClassifier(max_depth=2).fit(X, y)
    return clf, X, y


def _json(spec) -> str:
    return pio.to_json(spec, validate=False)


def test_the_figures_are_the_builders_and_built_once(tree, monkeypatch):
    clf, X, y = tree
    for fn in (
        node_settings.threshold_chart,
        node_settings.class_histogram_chart,
        node_settings.category_chart,
    ):
        fn.clear()
    settings = node_settings.node_comparison_settings(len(clf.classes_))
    gains = clf.threshold_gains(0, "x", settings)
    labels = dict(gains.attrs["settings"])
    keys = tuple(labels)[:2]
    assert len(keys) == 2
    spec = node_settings.threshold_chart("t", 0, "x", keys, False, False, gains, labels, None)
    want = threshold_figure(gains, labels, "x", chosen=None, keys=list(keys), normalise=False)
    assert _json(spec) == _json(figure_spec(want))

    idx = clf.node_indices(0)
    hist, missing = node_settings.class_histogram_chart("t", 0, "x", 0.5, False, clf, X, y)
    values = pd.to_numeric(X["x"].iloc[idx], errors="coerce")
    want = class_histogram_figure(
        values.to_numpy(dtype=float), y.iloc[idx].to_numpy(), list(clf.classes_), "x", threshold=0.5
    )
    assert _json(hist) == _json(figure_spec(want)) and missing == 2

    groups = (("r",), ("g", "b"))
    cat = node_settings.category_chart("t", 0, "c", groups, False, clf, X, y)
    want = category_histogram_figure(
        X["c"].iloc[idx].tolist(), y.iloc[idx].to_numpy(), list(clf.classes_), "c", groups=groups
    )
    assert _json(cat) == _json(figure_spec(want))

    # a second call (another click on the node, another session) builds nothing
    def fail(*args, **kwargs):
        raise AssertionError("built again")

    for name in ("threshold_figure", "class_histogram_figure", "category_histogram_figure"):
        monkeypatch.setattr(node_settings, name, fail)
    assert (
        node_settings.threshold_chart("t", 0, "x", keys, False, False, gains, labels, None) is spec
    )
    again = node_settings.class_histogram_chart("t", 0, "x", 0.5, False, clf, X, y)
    assert again[0] is hist
    assert node_settings.category_chart("t", 0, "c", groups, False, clf, X, y) is cat
    json.loads(_json(cat))  # plain JSON, as sent
