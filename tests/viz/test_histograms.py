"""The class histograms beside the gain plot (offcenter.viz.tree.class_histogram_figure,
category_histogram_figure) and the Tree page's "Categories by class" section, with AppTest."""

import base64
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from offcenter.app.node_settings import category_groups
from offcenter.data.datasets import DATASETS, load
from offcenter.tree import TreeClassifier
from offcenter.viz.tree import (
    MISSING_CATEGORY,
    category_histogram_figure,
    class_histogram_figure,
)

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "3_Tree.py")


def _values(v):
    if isinstance(v, dict):
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"]).tolist()
    return list(v)


def run(at=None, **query):
    if at is None:
        at = AppTest.from_file(PAGE, default_timeout=120)
        for k, v in query.items():
            at.query_params[k] = v
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def chart(at, key: str) -> dict:
    charts = [c for c in at.get("plotly_chart") if c.proto.id.endswith(key)]
    assert len(charts) == 1, [c.proto.id for c in at.get("plotly_chart")]
    return json.loads(charts[0].proto.spec)


# ------------------------------------------------------------------------------ the figures
def test_the_numeric_histogram_counts_each_class_on_shared_bins():
    x = [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, np.nan]
    lab = ["a", "a", "b", "a", "b", "b", "b", "a"]
    fig = class_histogram_figure(x, lab, ["a", "b"], "x", threshold=1.25, bins=3)
    a, b = fig.data
    assert (a.name, b.name) == ("a", "b")
    assert list(a.x) == list(b.x)  # shared bins
    assert list(a.y) == [2, 1, 0] and list(b.y) == [0, 1, 3]  # the missing value is left out
    assert fig.layout.shapes[0].x0 == 1.25 and fig.layout.barmode == "stack"
    assert class_histogram_figure(x, lab, ["a", "b"], "x").layout.shapes == ()
    assert fig.layout.legend.traceorder == "normal"  # the classes in order, not stack-reversed


def test_the_category_histogram_orders_bars_child_by_child_and_dashes_the_children():
    vals = ["r", "g", "b", "r", "b", None, "g", "r"]
    lab = [0, 1, 1, 0, 1, 0, 0, 0]
    fig = category_histogram_figure(vals, lab, [0, 1], "colour", groups=[("r", None), ("g", "b")])
    assert list(fig.data[0].x) == ["r", MISSING_CATEGORY, "g", "b"]
    assert list(fig.data[0].y) == [3, 1, 1, 0] and list(fig.data[1].y) == [0, 0, 1, 2]
    assert fig.layout.meta["groups"] == [0, 0, 1, 1]
    assert fig.layout.legend.traceorder == "normal"
    assert [s.x0 for s in fig.layout.shapes] == [1.5]  # one line between the two children
    # without groups: by decreasing frequency, no lines
    plain = category_histogram_figure(vals, lab, [0, 1], "colour")
    assert list(plain.data[0].x)[0] == "r" and plain.layout.shapes == ()


def test_the_category_histogram_escapes_and_merges_rare_categories():
    vals = ["<b>x</b>"] * 5 + [f"c{i}" for i in range(40)]
    fig = category_histogram_figure(vals, [0] * 45, [0, 1], "<i>f</i>", max_categories=10)
    names = list(fig.data[0].x)
    assert names[0] == "&lt;b&gt;x&lt;/b&gt;" and names[-1] == "(31 others)" and len(names) == 11
    assert sum(fig.data[0].y) == 45 and sum(fig.data[1].y) == 0
    assert fig.layout.xaxis.title.text == "&lt;i&gt;f&lt;/i&gt;"
    with pytest.raises(ValueError, match="differ in length"):
        category_histogram_figure(["a"], [0, 1], [0, 1], "f")


@given(
    st.lists(
        st.tuples(st.sampled_from(["a", "b", "c", "d", None]), st.integers(0, 2)), max_size=60
    ),
    st.integers(1, 6),
)
def test_the_category_bars_count_every_row_once(rows, cap):
    vals = [v for v, _ in rows]
    lab = [c for _, c in rows]
    fig = category_histogram_figure(vals, lab, [0, 1, 2], "f", max_categories=cap)
    for j, trace in enumerate(fig.data):
        assert sum(trace.y) == sum(1 for c in lab if c == j)
    assert len(set(fig.data[0].x)) == len(fig.data[0].x)  # distinct bars


def test_the_drawn_grouping_is_the_trees_split_or_the_best_grouping_of_the_feature():
    df = load("edible")
    t = DATASETS["edible"].target
    clf = TreeClassifier().fit(df.drop(columns=t), df[t])
    root = clf.tree_.nodes[0]
    cands = clf.candidates(0)
    groups, what = category_groups(root, cands, root.split.feature)
    assert groups == root.split.groups and what == "the tree's split"
    other = next(f for f in cands["feature"] if f != root.split.feature)
    groups, what = category_groups(root, cands, other)
    assert groups is not None and "best grouping" in what


# ------------------------------------------------------------------------------ the page
def test_the_page_draws_the_categories_of_the_nodes_nominal_split_by_class():
    at = run(data="edible")
    spec = chart(at, "tr_cat_chart")
    df = load("edible")
    t = DATASETS["edible"].target
    clf = TreeClassifier().fit(df.drop(columns=t), df[t])
    feat = clf.tree_.nodes[0].split.feature  # the root's split (the page's default tree)
    assert spec["layout"]["xaxis"]["title"]["text"] == feat
    names = [tr["name"] for tr in spec["data"]]
    assert names == [str(c) for c in clf.classes_]
    for tr in spec["data"]:  # every root row, in the bar of its category and class
        for x, k in zip(tr["x"], _values(tr["y"])):
            assert k == int(((df[feat] == x) & (df[t].astype(str) == tr["name"])).sum())
    assert len(spec["layout"]["shapes"]) == len(clf.tree_.nodes[0].children) - 1


def test_a_link_restores_the_nominal_feature_of_the_bars():
    at = run(data="edible")
    box = next(s for s in at.selectbox if s.key.startswith("tr_cat_feature_"))
    other = next(o for o in box.options if o != box.value)
    box.set_value(other)
    at = run(at)
    link = {k: (v[-1] if isinstance(v, list) else v) for k, v in at.query_params.items()}
    assert link["cat_feature"] == other
    assert chart(at, "tr_cat_chart")["layout"]["xaxis"]["title"]["text"] == other
    fresh = run(**link)
    assert chart(fresh, "tr_cat_chart")["layout"]["xaxis"]["title"]["text"] == other


def test_no_category_section_without_nominal_features():
    at = run(data="pima")
    assert not [c for c in at.get("plotly_chart") if c.proto.id.endswith("tr_cat_chart")]
    assert chart(at, "tr_hist_chart")["layout"]["barmode"] == "stack"


def test_the_histogram_of_another_feature_dashes_its_best_threshold_under_the_trees_setting():
    at = run(data="pima", thr_feature="bmi")
    spec = chart(at, "tr_hist_chart")
    df = load("pima")
    t = DATASETS["pima"].target
    clf = TreeClassifier(max_depth=5).fit(df.drop(columns=t), df[t])  # the page's default tree
    assert clf.tree_.nodes[0].split.feature != "bmi"
    cands = clf.candidates(0)
    best = float(cands.loc[cands["feature"] == "bmi", "threshold"].iloc[0])
    assert spec["layout"]["xaxis"]["title"]["text"] == "bmi"
    assert spec["layout"]["shapes"][0]["x0"] == pytest.approx(best)
    assert any("the best threshold of this feature" in c.value for c in at.caption)
