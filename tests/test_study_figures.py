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
