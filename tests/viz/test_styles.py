"""Curve styles, presentation type, typeset labels, the ternary mesh and the theta animation."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from offcenter import MeasureSetting
from offcenter.app.curve_pages import PRESETS, TWO_CLASS_SCHEMA, page_specs
from offcenter.app.urlstate import GLOBAL_SCHEMA, Field, Schema, sync_global, sync_out
from offcenter.measures.curves import (
    binary_curves,
    binary_derivatives,
    ternary_mesh,
    theta_sweep,
    transform_maps,
    transform_table,
)
from offcenter.measures.registry import MEASURES
from offcenter.viz.curves import (
    curves_figure,
    derivative_figure,
    ternary_figure,
    theta_animation_figure,
    transform_bars_figure,
    transform_maps_figure,
)
from offcenter.viz.styles import (
    KNOWN,
    NORMAL,
    PALETTE,
    PRESENTATION,
    TEXT_COLOR,
    class_style,
    contrast_ratio,
    setting_style,
)


def specs_of(**values):
    raw, oc = page_specs({**TWO_CLASS_SCHEMA.defaults(), **values})
    return raw + oc


FIG1 = specs_of(**PRESETS["fig1"]["values"])
FIG2 = specs_of(**PRESETS["fig2"]["values"])
ALL_OC = specs_of(measures=tuple(MEASURES), version="oc", consistent=True)
ALL_RAW = specs_of(measures=tuple(MEASURES), version="raw")
FIG2_RAW = specs_of(**{**PRESETS["fig2"]["values"], "version": "raw"})


def trace_styles(fig) -> dict:
    return {
        t.name: (t.line.color, t.line.dash, t.marker.symbol)
        for t in fig.data
        if t.mode == "lines+markers"
    }


# ------------------------------------------------------------------ styles
def test_contrast_ratio_is_wcags():
    assert contrast_ratio("#000000") == pytest.approx(21.0)
    assert contrast_ratio("#FFFFFF") == pytest.approx(1.0)
    assert contrast_ratio("#777777") == pytest.approx(4.48, abs=0.01)  # WCAG's borderline grey
    assert contrast_ratio("#0072B2", "#000000") == pytest.approx(21 / contrast_ratio("#0072B2"))
    with pytest.raises(ValueError, match="color"):
        contrast_ratio("blue")


def test_palette_reads_on_white():
    assert len(set(PALETTE)) == 10
    for c in PALETTE:
        assert contrast_ratio(c) >= 3.0, c
    assert contrast_ratio(TEXT_COLOR) >= 7.0


def test_ten_class_styles_are_distinct():
    styles = [class_style(j) for j in range(10)]
    for part in range(3):
        assert len({s[part] for s in styles}) == 10
    assert class_style(10) == class_style(0)
    with pytest.raises(ValueError, match="j must be"):
        class_style(-1)


def test_known_styles_are_distinct_and_figures_have_distinct_colours_dashes_markers():
    assert len(set(KNOWN.values())) == len(KNOWN)
    for specs in (FIG2, ALL_OC, ALL_RAW, FIG2_RAW):
        styles = [setting_style(s.key) for s in specs]
        for part in range(3):
            assert len({s[part] for s in styles}) == len(styles), ([s.key for s in specs], part)
    fig1 = [setting_style(s.key) for s in FIG1]
    assert len({s.color for s in fig1}) == len({s.dash for s in fig1}) == 3


def test_style_depends_on_the_key_only():
    s = MeasureSetting("daroczy", "prior", beta=0.25)
    assert setting_style(s) == setting_style(s.key) == setting_style("oc_daroczy_b0.25")
    # the consistent asymmetric entropy keeps its style whatever n
    assert setting_style("asymmetric_consistent_n20") == setting_style("asymmetric_consistent_n7")
    with pytest.raises(TypeError, match="key"):
        setting_style(3)


def test_fig2_beta_05_keeps_its_style_when_beta_moves():
    """The issue's example: moving beta from 0 to 3 must not restyle the beta = 0.5 curve."""
    before = specs_of(**{**PRESETS["fig2"]["values"], "beta": 0.0})
    after = specs_of(**{**PRESETS["fig2"]["values"], "beta": 3.0})
    s_before = trace_styles(curves_figure(binary_curves(before, 0.2)))
    s_after = trace_styles(curves_figure(binary_curves(after, 0.2)))
    name = "off-centered Daroczy (β = 0.5)"
    assert s_before[name] == s_after[name]
    # off-centered Shannon keeps its colour in "off-centered only"
    both = trace_styles(curves_figure(binary_curves(FIG1, 0.2)))
    oc_only = trace_styles(
        curves_figure(
            binary_curves(specs_of(**{**PRESETS["fig1"]["values"], "version": "oc"}), 0.2)
        )
    )
    assert both["off-centered Shannon"] == oc_only["off-centered Shannon"]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(ALL_OC + ALL_RAW + FIG2), min_size=1, max_size=8, unique=True))
def test_adding_or_removing_a_curve_changes_no_other_style(specs):
    full = trace_styles(curves_figure(binary_curves(specs, 0.3)))
    for i in range(len(specs)):
        fewer = specs[:i] + specs[i + 1 :]
        if not fewer:
            continue
        part = trace_styles(curves_figure(binary_curves(fewer, 0.3)))
        for name, style in part.items():
            assert full[name] == style


# ------------------------------------------------------------------ type sizes, typeset labels
def _font_sizes(layout: dict) -> list[tuple[str, float]]:
    """Every font size set in a layout, with its path."""
    out = []

    def walk(node, path):
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "template":
                    continue
                if k == "size" and path.endswith("font"):
                    out.append((path, v))
                walk(v, f"{path}.{k}" if path else k)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{path}[{i}]")

    walk(layout, "")
    return out


def _all_figures(presentation: bool):
    theta3 = [0.6, 0.3, 0.1]
    grid, sweep = theta_sweep(FIG2, [0.2, 0.4])
    return [
        curves_figure(
            binary_curves(FIG1, 0.2),
            theta=0.2,
            cursor=0.4,
            title="Fig. 1",
            presentation=presentation,
        ),
        derivative_figure(binary_derivatives(FIG1, 0.2), theta=0.2, presentation=presentation),
        ternary_figure(
            ternary_mesh(MeasureSetting("shannon", "prior"), theta3, n=31),
            presentation=presentation,
        ),
        transform_bars_figure(transform_table([0.5, 0.3, 0.2], theta3), presentation=presentation),
        transform_maps_figure(transform_maps(theta3), theta3, presentation=presentation),
        theta_animation_figure(
            grid,
            sweep,
            [0.2, 0.4],
            labels=binary_curves(FIG2, 0.2).attrs["labels"],
            theta=0.2,
            presentation=presentation,
        ),
    ]


@pytest.mark.parametrize("presentation, least", [(False, 14), (True, 20)])
def test_every_text_of_every_figure_is_large_enough(presentation, least):
    for fig in _all_figures(presentation):
        layout = fig.to_dict()["layout"]
        sizes = _font_sizes(layout)
        assert sizes
        small = [(p, s) for p, s in sizes if s < least]
        assert not small, small
        # ticks, legends and titles set explicitly (Plotly's default is 12 px)
        for ax in ("xaxis", "yaxis"):
            if layout.get(ax, {}).get("visible", True):
                assert layout[ax]["tickfont"]["size"] >= least
                assert layout[ax]["tickfont"]["color"] == TEXT_COLOR


def test_presentation_lines_are_thicker():
    normal = curves_figure(binary_curves(FIG1, 0.2))
    big = curves_figure(binary_curves(FIG1, 0.2), presentation=True)
    assert all(t.line.width == NORMAL.line for t in normal.data)
    assert all(t.line.width == PRESENTATION.line > NORMAL.line for t in big.data)
    assert big.layout.height > normal.layout.height


def test_labels_use_greek_letters_not_names():
    for fig in _all_figures(False):
        d = fig.to_dict()
        d["layout"].pop("template")
        names = [t.get("name", "") for t in d["data"]]
        text = json.dumps([d["layout"], names], ensure_ascii=False)
        words = re.findall(r"\b(theta|beta|rho|pi)\b", text)
        assert not words, words
    fig = curves_figure(binary_curves(FIG2, 0.2), theta=0.2)
    assert "θ = 0.2" in [a.text for a in fig.layout.annotations]
    assert "off-centered Daroczy (β = 0.5)" in [t.name for t in fig.data]
    bars = transform_bars_figure(transform_table([0.5, 0.3, 0.2], [0.6, 0.3, 0.1]))
    assert "π* (off-centered pseudo-frequencies)" in [t.name for t in bars.data]


def test_bars_ticks_are_short_for_ten_classes():
    q = 10
    theta = np.full(q, 1 / q)
    bars = transform_bars_figure(transform_table(theta, theta))
    assert list(bars.data[0].x) == [str(j) for j in range(1, q + 1)]
    assert bars.layout.xaxis.title.text == "class j"


def test_legends_sit_outside_the_plotting_area():
    for fig in _all_figures(True):
        lay = fig.layout
        if lay.showlegend is False:
            continue
        assert lay.legend.y >= 1.0 and lay.legend.yanchor == "bottom"


# ------------------------------------------------------------------ ternary mesh
def test_ternary_mesh_is_fine_and_masked_to_the_simplex():
    theta = [0.6, 0.3, 0.1]
    m = ternary_mesh(MeasureSetting("shannon", "prior"), theta)
    z, p = m["z"], m["p"]
    assert z.shape == (len(m["y"]), len(m["x"])) and z.shape[1] >= 150
    inside = np.isfinite(z)
    # about half of the rectangle is the triangle
    assert 0.45 < inside.mean() < 0.55
    assert np.allclose(p[inside].sum(axis=-1), 1.0)
    assert (p[inside] >= -1e-9).all()
    # the top corner is class 1, the bottom corners classes 2 and 3
    assert np.isnan(z[-1, 0]) and np.isnan(z[-1, -1])
    assert p[0, 0] == pytest.approx([0, 1, 0]) and p[0, -1] == pytest.approx([0, 0, 1])
    assert m["argmax"] == pytest.approx(theta) and m["max"] == pytest.approx(math.log2(3))
    # Shannon (uncentered) peaks at the uniform distribution
    u = ternary_mesh(MeasureSetting("shannon"), theta)
    assert u["argmax"] == pytest.approx([1 / 3] * 3, abs=0.01)
    with pytest.raises(ValueError, match="n must be"):
        ternary_mesh(MeasureSetting("shannon"), theta, n=3)


def test_ternary_figure_is_a_filled_contour_with_theta_and_the_maximum_marked():
    m = ternary_mesh(MeasureSetting("gini", "prior"), [0.5, 0.3, 0.2], n=41)
    fig = ternary_figure(m, presentation=True)
    contour = fig.data[0]
    assert contour.type == "contour" and contour.contours.coloring == "heatmap"
    names = [t.name for t in fig.data]
    assert "θ" in names and "maximum" in names
    texts = [a.text for a in fig.layout.annotations]
    assert "θ = maximum" in texts
    assert fig.layout.yaxis.scaleanchor == "x"  # an equilateral triangle


# ------------------------------------------------------------------ animation frames
def test_theta_sweep_peaks_at_each_theta():
    thetas = [0.1, 0.25, 0.5, 0.9]
    grid, values = theta_sweep(
        [MeasureSetting("shannon", "prior"), MeasureSetting("asymmetric")], thetas
    )
    for key, v in values.items():
        assert v.shape == (len(thetas), grid.size)
        for k, t in enumerate(thetas):
            assert grid[np.argmax(v[k])] == pytest.approx(t), key
    with pytest.raises(ValueError, match="thetas"):
        theta_sweep([MeasureSetting("shannon", "prior")], [0.0, 0.5])


def test_animation_frames_move_the_off_centered_curves_only():
    thetas = [round(0.02 * k, 2) for k in range(1, 50)]
    specs = FIG1
    oc = [s for s in specs if s.theta is not None or s.measure == "asymmetric"]
    raw = [s for s in specs if s not in oc]
    grid, sweep = theta_sweep(oc, thetas)
    labels = binary_curves(specs, 0.2).attrs["labels"]
    fig = theta_animation_figure(
        grid, sweep, thetas, labels=labels, theta=0.2, fixed=binary_curves(raw, 0.2), cursor=0.4
    )
    assert len(fig.frames) == 49
    names = [t.name for t in fig.data]
    assert names == ["Shannon", "off-centered Shannon", "Asymmetric", "θ"]
    for k, frame in enumerate(fig.frames):
        assert frame.name == f"{thetas[k]:.2f}"
        assert list(frame.traces) == [1, 2, 3]
        oc_y = np.asarray(frame.data[0].y, dtype=float)
        assert grid[np.argmax(oc_y)] == pytest.approx(thetas[k])
        assert list(frame.data[-1].x) == [thetas[k], thetas[k]]
    # the figure opens on theta = 0.2 (frame 9), with its slider there
    assert fig.layout.sliders[0].active == 9
    y0 = np.asarray(fig.data[1].y, dtype=float)
    assert grid[np.argmax(y0)] == pytest.approx(0.2)
    # play: 33 ms per frame (30 frames per second), no redraw, no transition
    play = fig.layout.updatemenus[0].buttons[0]
    assert play.method == "animate"
    opts = play.args[1]
    assert opts["frame"] == {"duration": 33, "redraw": False}
    assert opts["transition"]["duration"] == 0
    # the y range is fixed over all frames
    lo, hi = fig.layout.yaxis.range
    assert lo == 0 and hi >= max(np.nanmax(v) for v in sweep.values())


# ------------------------------------------------------------------ URL: the shared parameter
def test_presentation_parameter_survives_a_pages_own_url_writes():
    schema = Schema([Field("theta", "float", 0.2)])
    query = {"present": "1"}
    sync_out(schema, {"theta": 0.3}, query)
    assert query == {"theta": "0.3", "present": "1"}
    sync_global({"present": False}, query)
    assert query == {"theta": "0.3"}
    values, warnings = GLOBAL_SCHEMA.decode({"present": "yes"})
    assert values == {"present": True} and not warnings


def test_evaluation_and_study_figures_colour_each_setting_by_its_key():
    """The Compare page's figures give a setting the colour it has on the curve pages, and the
    study's figures the study's own colour (no two study settings alike: STUDY_COLOURS),
    whatever the other settings drawn and their order."""
    import pandas as pd

    from offcenter.evaluation.runner import EvaluationResult, parse_settings
    from offcenter.viz.evaluation import metric_figure
    from offcenter.viz.study import STUDY_COLOURS, cd_diagram, gain_figure, study_colour
    from offcenter.viz.styles import setting_style

    for order in ("shannon,gini,oc_shannon", "oc_shannon,shannon", "gini"):
        settings = parse_settings(order)
        folds = pd.DataFrame(
            [
                {"setting": s.key, "label": s.label, "repeat": 0, "fold": f,
                 "balanced_accuracy": 0.7 + 0.01 * f}
                for s in settings
                for f in range(2)
            ]
        )  # fmt: skip
        fig = metric_figure(EvaluationResult(folds, settings, {"model": "tree"}))
        boxes = [t for t in fig.data if t.type == "box"]
        assert [b.line.color for b in boxes] == [setting_style(s.key).color for s in settings]
    ranks = pd.DataFrame(
        {"setting": ["gini", "shannon"], "label": ["Gini", "Shannon"], "mean_rank": [1.2, 1.8]}
    )
    fig = cd_diagram(ranks, 1.0)
    colours = {a.text.split(" (")[0]: a.font.color for a in fig.layout.annotations if "(" in a.text}
    assert colours == {"Gini": study_colour("gini"), "Shannon": study_colour("shannon")}
    assert len(set(STUDY_COLOURS.values())) == len(STUDY_COLOURS)
    gains = pd.DataFrame(
        {"data": list("abcd"), "setting": "oc_gini", "label": "X", "gain": [0.0, 0.1, 0.2, 0.3],
         "imbalance_ratio": [2.0, 5.0, 20.0, 100.0]}
    )  # fmt: skip
    assert gain_figure(gains).data[0].marker.color == study_colour("oc_gini")
