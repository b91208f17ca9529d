"""Tree figures and the worked calculation: layout, escaping, click selection, seed numbers."""

import re
from types import SimpleNamespace

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from offcenter import Impurity
from offcenter.viz.explain import (
    candidate_display,
    disagreement,
    md_escape,
    node_split_steps,
    split_steps,
    steps_markdown,
)
from offcenter.viz.tree import (
    layout_positions,
    node_trace_index,
    nodes_by_depth,
    plot_text,
    selected_node,
    short_branch,
    threshold_figure,
    tree_figure,
    visible_depth,
)


def _node(i, parent, depth, counts, split=None, children=(), prediction="+", conditions=()):
    counts = np.asarray(counts, float)
    return SimpleNamespace(
        id=i,
        parent=parent,
        depth=depth,
        counts=counts,
        n=counts.sum(),
        impurity=0.0,
        split=split,
        children=children,
        prediction=prediction,
        proba=counts / counts.sum(),
        conditions=conditions,
        n_missing=0,
    )


def fake_edible_tree(feature="size"):
    """The edible table's root split on size, as a fitted tree would hold it."""
    split = SimpleNamespace(
        feature=feature,
        kind="categorical",
        threshold=None,
        groups=(("Large",), ("Small",)),
        branch_labels=(f"{feature} = Large", f"{feature} = Small"),
        gain=0.105843,
        score=0.105843,
        missing_child=None,
    )
    nodes = [
        _node(0, None, 0, [9, 7], split=split, children=(1, 2)),
        _node(1, 0, 1, [3, 5], prediction="-", conditions=(f"{feature} = Large",)),
        _node(2, 0, 1, [6, 2], prediction="+", conditions=(f"{feature} = Small",)),
    ]
    tree = SimpleNamespace(nodes=nodes, root=0, depth=1, n_leaves=2)
    return SimpleNamespace(tree_=tree, classes_=np.array(["+", "-"]), impurity_=Impurity("shannon"))


def test_layout_positions_centres_parents_and_collapses():
    children = {0: (1, 2), 1: (3, 4), 2: (), 3: (), 4: ()}
    pos = layout_positions(children)
    assert pos[3] == (0.0, 2) and pos[4] == (1.0, 2) and pos[2] == (2.0, 1)
    assert pos[1] == (0.5, 1) and pos[0] == (1.25, 0)
    collapsed = layout_positions(children, max_depth=1)
    assert set(collapsed) == {0, 1, 2}


def test_layout_of_a_deep_chain_has_no_recursion_limit():
    n = 5000
    children = {i: (i + 1,) for i in range(n)}
    pos = layout_positions(children)
    assert len(pos) == n + 1 and pos[0] == (0.0, 0)


def test_visible_depth_and_counts():
    assert visible_depth([1, 2, 4]) == 2
    assert visible_depth([1, 2, 4, 8, 16, 32, 64, 128]) == 5
    assert nodes_by_depth(fake_edible_tree().tree_) == [1, 2]


def test_tree_figure_nodes_carry_their_ids():
    fig = tree_figure(fake_edible_tree(), selected=1, path=[0, 1])
    k = node_trace_index(fig)
    nodes = fig.data[k]
    assert [c[0] for c in nodes.customdata] == [1, 2, 0]
    text = [t for t in fig.data if t.name == "text"][0]
    assert "n = 16" in text.text and "<b>node 0</b>" in text.text
    bars = [tr for tr in fig.data if tr.name.startswith("bar ")]
    assert len(bars) == 2  # one trace per class, one rectangle per node
    assert len([v for v in bars[0].x if v is None]) == 3
    path = [t for t in fig.data if t.name == "traced path"][0]
    # the elbow from node 0 to node 1, in two pieces around the branch label
    assert len([v for v in path.x if v is not None]) == 6
    assert len([v for v in path.x if v is None]) == 2
    outline = [t for t in fig.data if t.name == "box outline selected"][0]
    assert len([v for v in outline.x if v is None]) == 1  # one box: the selected node


def test_tree_figure_escapes_user_text():
    clf = fake_edible_tree(feature="<script>alert(1)</script>")
    clf.classes_ = np.array(["<b>x</b>", "-"])
    fig = tree_figure(clf)
    blob = fig.to_json()
    assert "<script>" not in blob and "<b>x</b>" not in blob
    assert "&lt;script&gt;" in blob


def test_selected_node_reads_plotly_events():
    event = {"selection": {"points": [{"curve_number": 3, "customdata": [7]}]}}
    assert selected_node(event) == 7
    assert selected_node({"selection": {"points": []}}) is None
    assert selected_node(None) is None
    assert selected_node({"selection": {"points": [{"x": 1}]}}) is None


def test_short_branch_and_plot_text():
    assert short_branch("petal width <= 0.8", "petal width") == "<= 0.8"
    assert short_branch("other", "x") == "other"
    assert plot_text("abcdef", 4) == "abc…"


def test_threshold_figure():
    gains = pd.DataFrame(
        {
            "threshold": [1.0, 2.0, 3.0],
            "n_left": [1, 2, 3],
            "gain:shannon": [0.1, 0.3, 0.2],
            "gain:gini": [0.05, 0.1, 0.2],
        }
    )
    fig = threshold_figure(
        gains, {"shannon": "Shannon", "gini": "Gini"}, "x", chosen=2.0, normalise=True
    )
    assert len(fig.data) == 2
    assert max(fig.data[0].y) == pytest.approx(1.0)
    go.Figure(fig.to_dict())  # valid Plotly (built unvalidated, for speed)
    # a template name is expanded only by validation: none may reach the browser as a string
    assert not isinstance(fig.to_dict()["layout"].get("template"), str)
    # each setting's own style (its key), whatever else is drawn and in whichever order
    from offcenter.viz.styles import setting_style

    for keys in (["shannon", "gini"], ["gini", "shannon"], ["gini"]):
        one = threshold_figure(gains, {"shannon": "Shannon", "gini": "Gini"}, "x", keys=keys)
        for trace, key in zip(one.data, keys):
            assert trace.line.color == setting_style(key).color
            assert trace.line.dash == setting_style(key).dash
    chosen = [s for s in fig.layout.shapes if s.x0 == 2.0]
    assert chosen and chosen[0].line.dash == "dash"
    assert [a.text for a in fig.layout.annotations] == ["chosen"]


def test_worked_calculation_of_the_lecture_slides_edible_table():
    steps = node_split_steps(fake_edible_tree(), 0)
    values = {s.title: s.value for s in steps}
    assert values["Parent impurity"] == pytest.approx(0.988699, abs=1e-6)
    assert values["Child 1: size = Large"] == pytest.approx(0.954434, abs=1e-6)
    assert values["Child 2: size = Small"] == pytest.approx(0.811278, abs=1e-6)
    assert values["Gain"] == pytest.approx(0.105843, abs=1e-6)
    md = steps_markdown(steps)
    # 6 significant digits of the exact values (the slides round to 4 decimals)
    assert r"\tfrac{8}{16} \times 0.954434" in md
    assert "0.988699 - 0.882856 = 0.105843" in md
    assert node_split_steps(fake_edible_tree(), 1) is None


def test_worked_calculation_of_the_information_gain_article_mutation_3():
    # mutation 3 present: (C, NC) = (3, 0); absent: (1, 3)
    steps = split_steps(
        [4, 3],
        [[3, 0], [1, 3]],
        ["C", "NC"],
        Impurity("shannon"),
        ["mutation 3 = 1", "mutation 3 = 0"],
    )
    assert steps[-1].value == pytest.approx(0.522, abs=5e-4)


def test_worked_calculation_off_centered_and_scores():
    imp = Impurity("shannon", theta=[0.8, 0.2])
    steps = split_steps([80, 20], [[70, 5], [10, 15]], ["a", "b"], imp, ["L", "R"], alpha=0.0)
    assert "off-centered" in steps[0].text
    assert r"\pi^*" in steps[0].latex
    assert steps[1].value == pytest.approx(1.0)
    assert steps[-1].title == "Normalised score"
    i_x = Impurity("shannon").of_counts([75, 25])
    assert steps[-1].value == pytest.approx(steps[-2].value / i_x)


def test_user_text_is_escaped_in_markdown():
    steps = split_steps(
        [1, 1],
        [[1, 0], [0, 1]],
        ["<img src=x onerror=alert(1)>", "$x$"],
        Impurity("gini"),
        ["**bold**", "[l](javascript:alert(1))"],
    )
    md = steps_markdown(steps)
    assert re.search(r"(?<!\\)[<>\[\]]", md) is None  # every <, >, [, ] is escaped
    assert "**bold**" not in md and "\\<img" in md
    assert md_escape("a_b") == r"a\_b"


def _cands():
    df = pd.DataFrame(
        {
            "feature": ["a", "b", "c"],
            "kind": ["numeric"] * 3,
            "split": ["a <= 1", "b <= 2", "c"],
            "children_counts": ["[1 2] [3 4]"] * 3,
            "chosen": [True, False, False],
            "gain:s": [0.3, 0.2, 0.1],
            "score:s": [0.3, 0.2, 0.1],
            "rank:s": [1, 2, 3],
            "gain:g": [0.1, 0.2, 0.05],
            "score:g": [0.1, 0.2, 0.05],
            "rank:g": [2, 1, 3],
        }
    )
    df.attrs["settings"] = [("s", "Shannon"), ("g", "Gini")]
    df.attrs["chosen_key"] = "s"
    return df


def test_candidate_display_flags_disagreement():
    cands = _cands()
    assert disagreement(cands) == [True, True, False]
    table, flags = candidate_display(cands)
    assert list(table["best under"]) == ["Shannon", "Gini", ""]
    assert "gain · Shannon" in table.columns and "rank · Gini" in table.columns
    assert "score · Shannon" not in table.columns  # equal to the gain
    cands["rank:g"] = [1, 2, 3]
    assert disagreement(cands) == [False, False, False]


def test_a_measure_without_preference_is_left_out():
    cands = _cands()
    cands["gain:g"] = cands["score:g"] = [0.0, 0.0, 0.0]
    cands["rank:g"] = [1, 1, 1]  # all tied: the misclassification error often does this
    assert disagreement(cands) == [False, False, False]
    table, _ = candidate_display(cands)
    assert list(table["best under"]) == ["Shannon", "", ""]


# ---------------------------------------------------------------- with the real engine
from offcenter.data.datasets import load  # noqa: E402
from offcenter.tree import TreeClassifier  # noqa: E402


def _fit(name, target, **params):
    df = load(name)
    return TreeClassifier(**params).fit(df.drop(columns=target), df[target])


@pytest.mark.parametrize(
    "measure, theta",
    [("shannon", "prior"), ("gini", None), ("asymmetric", "prior"), ("daroczy", "prior")],
)
@pytest.mark.parametrize("alpha", [None, 0.0, 0.5, 1.0])
def test_worked_calculation_matches_the_engine(measure, theta, alpha):
    extra = {"beta": 0.5} if measure == "daroczy" else {}
    clf = _fit(
        "german_credit",
        "bad_credit",
        measure=measure,
        theta=theta,
        alpha=alpha,
        max_depth=2,
        **extra,
    )
    for node in clf.tree_.nodes:
        steps = node_split_steps(clf, node.id, alpha=alpha)
        if node.split is None:
            assert steps is None
            continue
        values = {s.title: s.value for s in steps}
        assert values["Parent impurity"] == pytest.approx(node.impurity, abs=1e-9)
        assert values["Gain"] == pytest.approx(node.split.gain, abs=1e-9)
        if alpha is not None:
            assert steps[-1].value == pytest.approx(node.split.score, abs=1e-9)


def test_edible_root_with_the_engine():
    clf = _fit("edible", "edible", measure="shannon")
    root = clf.tree_.nodes[0]
    assert root.split.feature == "size"
    steps = node_split_steps(clf, 0)
    assert steps[-1].value == pytest.approx(0.105843, abs=1e-6)


def test_real_tree_figure_and_candidates_table():
    clf = _fit("iris", "species", measure="shannon", theta="prior")
    fig = tree_figure(
        clf,
        selected=0,
        path=[n for n in clf.decision_paths(load("iris").drop(columns="species").iloc[[0]])[0]],
    )
    nodes = fig.data[node_trace_index(fig)]
    assert sorted(c[0] for c in nodes.customdata) == list(range(len(clf.tree_)))
    collapsed = tree_figure(clf, max_depth=1)
    assert len(collapsed.data[node_trace_index(collapsed)].customdata) == 3
    table, flags = candidate_display(clf.candidates(0))
    assert len(table) == 4 and len(flags) == 4
    gains = clf.threshold_gains(0, "petal length")
    fig = threshold_figure(
        gains,
        dict(clf.candidates(0).attrs["settings"]),
        "petal length",
        chosen=clf.tree_.nodes[0].split.threshold,
    )
    assert len(fig.data) == len(clf.candidates(0).attrs["settings"])


def test_disagreement_on_an_imbalanced_set():
    # somewhere in a pima tree, the measures rank the candidate splits differently
    clf = _fit("pima", "diabetes", measure="shannon", theta="prior", max_depth=3)
    assert any(
        any(disagreement(clf.candidates(n.id))) for n in clf.tree_.nodes if n.split is not None
    )


@pytest.mark.parametrize(
    "name, target, depth",
    [("pima", "diabetes", 10), ("german_credit", "bad_credit", 10), ("iris", "species", 6)],
)
def test_fitting_depth_is_the_deepest_level_that_fits(name, target, depth):
    """The top-down search gives what trying every level from the bottom gives."""
    from offcenter.viz.tree import fitting_depth
    from offcenter.viz.tree_layout import tree_layout

    clf = _fit(name, target, max_depth=depth)
    full = int(clf.tree_.depth)
    for width in (200, 460, 940, 3000, 1e6):
        brute = next(
            (
                d
                for d in range(full, 0, -1)
                if tree_layout(clf, max_depth=None if d == full else d).width <= width
            ),
            min(full, 1),
        )
        assert fitting_depth(clf, width) == brute, width
