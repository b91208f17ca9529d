"""Labels never cut in presentation mode: the gain plot's legend entries are broken into lines
(never shortened with an ellipsis while they fit two lines), the legend's height is added to
the figure's; the animation's θ label sits left of its line past θ = 0.5 (at 0.98 it ran out
of the plot)."""

import numpy as np
import pandas as pd
import pytest

from offcenter.app.curve_pages import PRESETS, TWO_CLASS_SCHEMA, page_specs
from offcenter.measures.curves import theta_sweep
from offcenter.viz.curves import theta_animation_figure
from offcenter.viz.format import plot_lines
from offcenter.viz.tree import threshold_figure

LONG = "off-centered Shannon, θ = prior (0.65, 0.35)"


def gains():
    return pd.DataFrame(
        {
            "threshold": [1.0, 2.0, 3.0],
            "n_left": [1, 2, 3],
            "gain:oc_shannon": [0.1, 0.3, 0.2],
            "gain:shannon": [0.05, 0.1, 0.2],
            "gain:gini": [0.01, 0.02, 0.01],
        }
    )


LABELS = {"oc_shannon": LONG, "shannon": "Shannon", "gini": "Gini"}


@pytest.mark.parametrize("presentation", [False, True])
def test_the_gain_plots_legend_keeps_every_label_whole(presentation):
    fig = threshold_figure(gains(), LABELS, "glucose", presentation=presentation)
    names = [t.name for t in fig.data]
    assert all("…" not in n for n in names)
    assert names[0].replace("<br>", " ") == LONG
    if presentation:  # 30 characters a line at 20 px and more
        assert names[0] == "off-centered Shannon,<br>θ = prior (0.65, 0.35)"
        # one entry a row, the two-line one counted twice: 4 lines of legend under the plot
        assert fig.layout.margin.b >= 4 * 20 * 1.3
        assert fig.layout.height >= 460 + 4 * 20 * 1.3


@pytest.mark.parametrize(
    "text, width",
    [(LONG, 30), ("a " * 40, 12), ("x" * 50, 10), ("<b>bold</b>, and more words", 8)],
)
def test_plot_lines_breaks_without_losing_text_up_to_its_lines(text, width):
    out = plot_lines(text, width, max_lines=20)
    assert "…" not in out
    assert out.replace("<br>", " ").split() == plot_lines(text, 10_000).split()
    assert "<b>" not in out  # escaped, as plot_text does


@pytest.mark.parametrize("theta", [0.02, 0.3, 0.5, 0.51, 0.9, 0.98])
def test_the_theta_label_sits_inside_the_plot_at_both_ends(theta):
    raw, specs = page_specs({**TWO_CLASS_SCHEMA.defaults(), **PRESETS["fig1"]["values"]})
    thetas = [0.02, 0.3, 0.5, 0.51, 0.9, 0.98]
    grid, sweep = theta_sweep(specs, thetas)
    labels = {k: k for k in sweep}
    fig = theta_animation_figure(grid, sweep, thetas, labels=labels, theta=theta, presentation=True)
    side = "bottom right" if theta <= 0.5 else "bottom left"
    assert fig.data[-1].textposition == side
    frames = {f.name: f for f in fig.frames}
    for th in thetas:  # every frame moves the label to its side
        assert frames[f"{th:.2f}"].data[-1].textposition == (
            "bottom right" if th <= 0.5 else "bottom left"
        )
    assert np.isclose(fig.data[-1].x[0], theta)
