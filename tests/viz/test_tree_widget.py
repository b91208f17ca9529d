"""The notebook's tree widget (anywidget), tested through its model state: a selection fills
``details`` with the node's own best split under every setting (the same as own_optima), the
gain of every threshold under every setting (threshold_gains) and the worked calculation."""

from __future__ import annotations

import anywidget  # noqa: F401  (the notebook extra; requirements-dev.txt)
import numpy as np
import pytest
from sklearn.datasets import load_iris

from offcenter import TreeClassifier, comparison_settings  # noqa: E402
from offcenter.viz.widget import TreeWidget  # noqa: E402


@pytest.fixture(scope="module")
def clf():
    X, y = load_iris(return_X_y=True, as_frame=True)
    return TreeClassifier(theta="prior", max_depth=3).fit(X, y)


def test_widget_draws_every_node(clf):
    w = TreeWidget(clf)
    assert [n["id"] for n in w.nodes] == list(range(len(clf.tree_)))
    leaves = [n for n in w.nodes if n["leaf"]]
    assert sorted(n["x"] for n in leaves) == list(range(clf.get_n_leaves()))
    assert w.nodes[0]["label"].startswith("petal length (cm)") and w.nodes[0]["n"] == 150
    assert w.selected == -1 and w.details == {}
    assert "export default" in w._esm and "innerHTML" not in w._esm


def test_a_click_shows_every_setting(clf):
    w = TreeWidget(clf)
    settings = comparison_settings()
    w.selected = 2
    d = w.details
    assert d["node"] == 2 and len(d["own_best"]) == len(settings)
    optima = clf.own_optima(2, settings)
    for setting, row in zip(settings, d["own_best"]):
        best = optima[(optima["setting_key"] == setting.key) & optima["is_best"]].iloc[0]
        assert row["setting"] == best["setting_label"] and row["split"] == best["split"]
        assert row["gain"] == pytest.approx(best["gain"])
    mine = [r for r in d["own_best"] if r["setting"].startswith("off-centered Shannon")][0]
    assert mine["agrees"]  # the tree's own setting picks the tree's split
    g = d["gains"]
    node = clf.tree_.nodes[2]
    assert g["feature"] == node.split.feature and g["chosen"] == pytest.approx(node.split.threshold)
    ref = clf.threshold_gains(2, node.split.feature, settings)
    assert g["thresholds"] == pytest.approx(ref["threshold"].tolist())
    assert len(g["series"]) == len(settings)
    np.testing.assert_allclose(
        [v for v in g["series"][0]["values"]], ref[f"gain:{settings[0].key}"], equal_nan=True
    )
    assert f"{node.split.gain:.4f}"[:5] in d["calculation"].replace(" ", "")
    # a leaf: the settings' own best splits, no calculation of a split
    leaf = clf.tree_.leaves[0]
    w.selected = leaf
    assert w.details["calculation"] is None and w.details["title"].startswith("leaf")
    w.selected = 999
    assert "does not exist" in w.details["error"]
    w.selected = -1
    assert w.details == {}


def test_needs_training_data(clf):
    loaded = TreeClassifier.from_json(clf.to_json())
    with pytest.raises(ValueError, match="attach_data"):
        TreeWidget(loaded)
