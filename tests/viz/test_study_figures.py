"""The study's figures (offcenter.viz.study): nothing they write is cut or runs into a neighbour."""

import pandas as pd

from offcenter.viz.study import cd_diagram, gain_figure

LABELS = [
    "scikit-learn CART, balanced classes",
    "off-centered Daroczy (β = 0.5), θ = prior",
    "Asymmetric, θ = prior, consistent",
    "Shannon",
    "Gini",
    "DKM",
    "Hellinger distance (HDDT)",
]


def test_cd_labels_fit_in_their_side_margins():
    ranks = pd.DataFrame({"label": LABELS, "mean_rank": [1.5, 2.0, 3.1, 4.0, 4.2, 5.5, 6.0]})
    fig = cd_diagram(ranks, 1.2, "forest")
    lo, hi = fig.layout.xaxis.range
    labels = [a for a in fig.layout.annotations if a.xanchor in ("left", "right")]
    assert len(labels) == len(LABELS)
    for a in labels:
        # the label starts inside the axes' range and runs into the margin on its side, which
        # holds it at 6.5 px per character of 12 px text (Arial's widest lower-case average)
        assert lo < a.x < hi
        margin = fig.layout.margin.l if a.xanchor == "right" else fig.layout.margin.r
        assert margin >= 6.5 * len(a.text), (a.text, margin)


def test_gain_facet_titles_put_the_statistic_on_a_line_of_its_own():
    rows = [
        {
            "data": f"d{i}",
            "label": lab,
            "gain": (i % 3) * 0.01 * (k + 1),
            "imbalance_ratio": 2.0 + i,
        }
        for k, lab in enumerate(LABELS)
        for i in range(6)
    ]
    fig = gain_figure(pd.DataFrame(rows), "AUC", "forest", columns=4)
    titles = [a.text for a in fig.layout.annotations if a.text.split("<br>")[0] in LABELS]
    assert len(titles) == len(LABELS)
    assert all("<br>(ρ = " in t for t in titles)
    assert list(fig.layout.xaxis.ticktext[:5]) == ["1", "2", "5", "10", "20"]


def test_no_two_study_settings_share_a_colour():
    from offcenter.measures.settings import STUDY_SETTINGS
    from offcenter.studies.keel.protocol import ANCHOR, WEIGHTED_FOREST
    from offcenter.viz.study import STUDY_COLOURS, study_colour

    keys = [*STUDY_SETTINGS, ANCHOR, WEIGHTED_FOREST]
    colours = [study_colour(k).lower() for k in keys]
    assert len(set(colours)) == len(keys)
    assert set(keys) <= set(STUDY_COLOURS)


def test_cd_diagram_marks_the_decision_rule_and_says_what_the_bars_are():
    from offcenter.viz.study import NOTE

    ranks = pd.DataFrame(
        {
            "setting": ["shannon", "gini", "dkm"],
            "label": ["Shannon", "Gini", "DKM"],
            "mean_rank": [2.5, 1.2, 2.3],
            "mean_diff": [float("nan"), 0.03, -0.01],
            "significant": [False, True, False],
        }
    )
    fig = cd_diagram(ranks, 3.0)
    texts = [a.text for a in fig.layout.annotations]
    assert "Gini (1.20) ▲" in texts and "DKM (2.30)" in texts and "Shannon (2.50)" in texts
    assert NOTE in texts  # Gini is starred yet inside the one Nemenyi clique: said under it
    ranks.loc[1, "mean_diff"] = -0.03
    assert "Gini (1.20) ▼" in [a.text for a in cd_diagram(ranks, 3.0).layout.annotations]


def test_gain_figures_share_one_y_range_per_metric_and_title_every_row():
    from offcenter.viz.study import common_range

    rows = [
        {"data": f"d{i}", "label": lab, "gain": 0.01 * i, "imbalance_ratio": 2.0 + i}
        for lab in LABELS
        for i in range(5)
    ]
    a = pd.DataFrame(rows)
    b = a.assign(gain=-a["gain"] * 3)
    rng = common_range(a, b)
    assert rng[0] == -rng[1] and rng[1] >= 0.12
    fig = gain_figure(a, "AUC", columns=4, y_range=rng)
    axes = [fig.layout[k] for k in fig.layout if k.startswith("yaxis")]
    assert all(tuple(ax.range) == rng for ax in axes)
    titled = [ax for ax in axes if ax.title.text]
    assert len(titled) == 2  # 7 settings on 4 columns: 2 rows, one title each


def test_dataset_and_effect_figures():
    from offcenter.viz.study import dataset_figure, effect_figure

    g = pd.DataFrame(
        {
            "data": ["a", "b", "a", "b"],
            "setting": ["gini", "gini", "dkm", "dkm"],
            "label": ["Gini", "Gini", "DKM", "DKM"],
            "gain": [0.1, -0.2, 0.0, 0.05],
            "imbalance_ratio": [2.0, 9.0, 2.0, 9.0],
        }
    )
    h = dataset_figure(g, "G-mean").data[0]
    assert h.zmid == 0 and h.zmin == -0.2 and h.zmax == 0.2
    r = pd.DataFrame(
        {
            "setting": ["shannon", "gini"],
            "label": ["Shannon", "Gini"],
            "median_diff": [float("nan"), -0.02],
            "ci_low": [float("nan"), -0.03],
            "ci_high": [float("nan"), -0.01],
            "mean_diff": [float("nan"), -0.02],
            "significant": [False, True],
            "wins": [float("nan"), 3],
            "ties": [float("nan"), 0],
            "losses": [float("nan"), 30],
        }
    )
    fig = effect_figure({"majority": r, "prior": r.assign(significant=False)}, "G-mean")
    assert list(fig.data[0].y) == list(fig.data[1].y) == ["Gini"]  # one row per setting
    assert list(fig.data[0].text) == ["▼"] and list(fig.data[1].text) == [""]
    assert fig.data[1].marker.symbol == ("circle-open",)
