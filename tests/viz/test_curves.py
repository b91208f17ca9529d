"""Curve data and figure builders of the curve pages, checked against the package and the spec."""

import math

import numpy as np
import pandas as pd
import pytest

import offcenter as oc
from offcenter import MeasureSetting
from offcenter.app.curve_pages import (
    PRESETS,
    Q_CLASS_SCHEMA,
    TWO_CLASS_SCHEMA,
    imbalanced_example,
    matching_preset,
    page_specs,
)
from offcenter.app.curve_text import (
    formulas,
    normalise_theta,
    parse_distribution,
    reconstructions,
    y_axis_title,
)
from offcenter.app.measure_params import chosen_values
from offcenter.measures.curves import (
    binary_curves,
    binary_derivatives,
    binary_grid,
    binary_values_at,
    curve_label,
    pi_unnormalised,
    slice_curves,
    slice_distributions,
    ternary_grid,
    ternary_mesh,
    theta_sweep,
    transform_maps,
    transform_table,
)
from offcenter.measures.registry import parameters
from offcenter.viz.curves import (
    AXIS_MARGINS,
    DASHES,
    OKABE_ITO,
    curves_figure,
    derivative_figure,
    file_stub,
    png_config,
    style,
    ternary_figure,
    theta_animation_figure,
    transform_bars_figure,
    transform_maps_figure,
)

FIG2_BETAS = (0.0, 0.5, 1.0, 2.0, 5.0)


def fig1_specs():
    raw, ocs = page_specs({**TWO_CLASS_SCHEMA.defaults(), **PRESETS["fig1"]["values"]})
    return raw + ocs


def fig2_specs():
    raw, ocs = page_specs({**TWO_CLASS_SCHEMA.defaults(), **PRESETS["fig2"]["values"]})
    return raw + ocs


def at(df, p, col, x="p"):
    row = df[np.isclose(df[x], p)]
    assert len(row) == 1, f"{p} not on the grid"
    return float(row[col].iloc[0])


# ------------------------------------------------------------------ grid
@pytest.mark.parametrize("theta", [0.01, 0.2, 0.2013, 0.5, 0.99])
def test_grid_has_ends_and_theta_exactly(theta):
    g = binary_grid(theta)
    assert g[0] == 0.0 and g[-1] == 1.0
    assert np.any(g == theta)
    assert np.all(np.diff(g) > 0)
    assert len(g) in (401, 402)


# ------------------------------------------------------------------ Figure 1 and 2
def test_figure_1_curves_are_the_papers():
    specs = fig1_specs()
    assert [curve_label(s) for s in specs] == ["Shannon", "off-centered Shannon", "Asymmetric"]
    df = binary_curves(specs, 0.2)
    assert at(df, 0.1, "oc_shannon") == pytest.approx(0.811278, abs=1e-6)
    assert at(df, 0.6, "oc_shannon") == pytest.approx(0.811278, abs=1e-6)
    assert at(df, 0.2, "oc_shannon") == pytest.approx(1.0)
    assert at(df, 0.6, "asymmetric") == pytest.approx(0.6)
    assert at(df, 0.2, "asymmetric") == pytest.approx(1.0)
    assert at(df, 0.5, "shannon") == pytest.approx(1.0)
    # the peak of each off-centered curve is at theta, Shannon's at 1/2
    assert df.loc[df["oc_shannon"].idxmax(), "p"] == pytest.approx(0.2)
    assert df.loc[df["asymmetric"].idxmax(), "p"] == pytest.approx(0.2)
    assert df.loc[df["shannon"].idxmax(), "p"] == pytest.approx(0.5)
    assert not df.isna().any().any()


def test_figure_2_curves_peak_at_theta_and_vanish_at_the_ends():
    specs = fig2_specs()
    labels = [curve_label(s) for s in specs]
    assert labels == [f"off-centered Daroczy (β = {b:g})" for b in FIG2_BETAS] + [
        "off-centered Rank diversity (ρ = 0)",
        "Asymmetric",
    ]
    df = binary_curves(specs, 0.2)
    for col in df.columns[1:]:
        assert at(df, 0.2, col) == pytest.approx(1.0), col
        assert df[col].max() == pytest.approx(1.0, abs=1e-12), col
        assert at(df, 1.0, col) == pytest.approx(0.0, abs=1e-12), col
        assert at(df, 0.0, col) == pytest.approx(0.0, abs=1e-12), col
    inner = df[(df.p > 0) & (df.p < 1)]
    assert np.allclose(inner["oc_daroczy_b0"], 1.0)
    # same values as the package's public functions
    for b in FIG2_BETAS:
        assert at(df, 0.6, f"oc_daroczy_b{b:g}") == pytest.approx(
            oc.off_centered([0.4, 0.6], 0.2, "daroczy", beta=b)
        )
    assert at(df, 0.6, "oc_rank_diversity_r0") == pytest.approx(
        oc.off_centered([0.4, 0.6], 0.2, "rank_diversity", rho=0)
    )


@pytest.mark.parametrize("theta", [0.01, 0.99, 0.5])
@pytest.mark.parametrize("beta", [0.0, 1.0, 1.0 + 1e-9, 10.0])
def test_limits_draw_without_nan(theta, beta):
    specs = [
        MeasureSetting("daroczy", "prior", beta=beta),
        MeasureSetting("daroczy", beta=beta),
        MeasureSetting("rank_diversity", "prior", rho=0.0),
        MeasureSetting("rank_diversity", "prior", rho=5.0),
        MeasureSetting("asymmetric"),
        MeasureSetting("asymmetric", consistent=True, n=1.0),
        MeasureSetting("gini", "prior"),
        MeasureSetting("misclassification", "prior"),
    ]
    df = binary_curves(specs, theta)
    assert np.isfinite(df.to_numpy()).all()
    assert at(df, theta, specs[0].key) == pytest.approx(1.0)


def test_consistent_asymmetric_shrinks_with_n():
    df = binary_curves(
        [
            MeasureSetting("asymmetric", consistent=True, n=5),
            MeasureSetting("asymmetric", consistent=True, n=500),
        ],
        0.2,
    )
    assert at(df, 0.0, "asymmetric_consistent_n5") > at(df, 0.0, "asymmetric_consistent_n500") > 0
    assert df.attrs["labels"]["asymmetric_consistent_n5"] == "Asymmetric, consistent (n = 5)"


def test_values_at_cursor_match_the_package():
    specs = fig1_specs()
    table = binary_values_at(specs, 0.2, 0.1)
    assert table["value"].tolist() == pytest.approx(
        [oc.shannon([0.9, 0.1]), oc.off_centered([0.9, 0.1], 0.2), oc.asymmetric([0.9, 0.1], 0.2)]
    )


# ------------------------------------------------------------------ derivatives
def test_first_derivative_matches_the_papers_formula():
    theta = 0.2
    d = binary_derivatives(
        [MeasureSetting("shannon", "prior")], theta, binary_grid(theta, 201), order=1
    )
    for p in (0.05, 0.1, 0.15, 0.4, 0.7, 0.9):
        if p <= theta:
            pi, a = p / (2 * theta), 1 / (2 * theta)
        else:
            pi, a = (p + 1 - 2 * theta) / (2 * (1 - theta)), 1 / (2 * (1 - theta))
        exact = a * (math.log2(1 - pi) - math.log2(pi))
        assert at(d[d.side == ""], p, "oc_shannon") == pytest.approx(exact, rel=1e-6, abs=1e-6)
    left, right = d[d.side == "left"], d[d.side == "right"]
    assert float(left["oc_shannon"].iloc[0]) == pytest.approx(0.0, abs=1e-5)
    assert float(right["oc_shannon"].iloc[0]) == pytest.approx(0.0, abs=1e-5)


def test_second_derivative_jumps_at_theta():
    theta = 0.2
    d = binary_derivatives([MeasureSetting("shannon", "prior")], theta, order=2)
    left = float(d.loc[d.side == "left", "oc_shannon"].iloc[0])
    right = float(d.loc[d.side == "right", "oc_shannon"].iloc[0])
    ln2 = math.log(2)
    assert left == pytest.approx(-1 / (4 * theta**2 * ln2 * 0.25), rel=1e-3)
    assert right == pytest.approx(-1 / (4 * (1 - theta) ** 2 * ln2 * 0.25), rel=1e-3)


def test_rank_diversity_derivative_jumps_at_theta():
    d = binary_derivatives([MeasureSetting("rank_diversity", "prior", rho=0)], 0.2, order=1)
    col = "oc_rank_diversity_r0"
    assert float(d.loc[d.side == "left", col].iloc[0]) == pytest.approx(5.0, rel=1e-6)
    assert float(d.loc[d.side == "right", col].iloc[0]) == pytest.approx(-1.25, rel=1e-6)
    assert np.isfinite(d[col]).all()


@pytest.mark.parametrize("theta", [0.01, 0.99])
def test_derivatives_at_extreme_theta_are_finite(theta):
    d = binary_derivatives(fig2_specs(), theta, order=2)
    assert np.isfinite(d.drop(columns=["side"]).to_numpy(dtype=float)).all()
    with pytest.raises(ValueError):
        binary_derivatives(fig2_specs(), theta, order=3)


# ------------------------------------------------------------------ q classes
def test_slice_passes_through_theta_and_peaks_there():
    theta = [0.6, 0.3, 0.1]
    p = slice_distributions(theta, [0.0, 0.6, 1.0])
    assert p[1].tolist() == pytest.approx(theta)
    assert p.sum(axis=-1) == pytest.approx([1, 1, 1])
    df = slice_curves([MeasureSetting("shannon", "prior"), MeasureSetting("shannon")], theta)
    assert df.loc[df["oc_shannon"].idxmax(), "p1"] == pytest.approx(0.6)
    assert df["oc_shannon"].max() == pytest.approx(math.log2(3))
    assert not df.isna().any().any()


@pytest.mark.parametrize("q", [2, 3, 5, 10])
def test_slice_for_any_q_and_examples(q):
    for theta in (np.full(q, 1 / q), imbalanced_example(q)):
        df = slice_curves(fig2_specs(), theta)
        assert np.isfinite(df.to_numpy()).all()
        assert at(
            df, theta[0], "oc_shannon" if "oc_shannon" in df else df.columns[1], "p1"
        ) == pytest.approx(df[df.columns[1]].max())


def test_ternary_peak_follows_theta():
    theta = [0.6, 0.3, 0.1]
    t = ternary_grid(MeasureSetting("shannon", "prior"), theta, resolution=30)
    assert t.attrs["argmax"] == pytest.approx(theta)
    assert t.attrs["max"] == pytest.approx(math.log2(3))
    assert np.allclose(t[["p1", "p2", "p3"]].sum(axis=1), 1.0)
    u = ternary_grid(MeasureSetting("shannon"), theta, resolution=30)
    assert u.attrs["argmax"] == pytest.approx([1 / 3] * 3)
    # values are the package's
    row = t.iloc[5]
    assert row["value"] == pytest.approx(oc.off_centered(row[["p1", "p2", "p3"]].to_numpy(), theta))


def test_transform_table_and_maps():
    table = transform_table([0.5, 0.3, 0.2], [0.6, 0.3, 0.1])
    assert table["pi*"].tolist() == pytest.approx([0.272727, 0.327273, 0.4], abs=1e-6)
    assert (table["pi"] / table["pi"].sum()).tolist() == pytest.approx(table["pi*"].tolist())
    at_theta = transform_table([0.6, 0.3, 0.1], [0.6, 0.3, 0.1])
    assert at_theta["pi"].tolist() == pytest.approx([1 / 3] * 3)
    maps = transform_maps([0.6, 0.3, 0.1])
    for j, th in enumerate([0.6, 0.3, 0.1]):
        sub = maps[maps["class"] == f"class {j + 1}"]
        assert np.all(np.diff(sub["pi_j"]) > 0)
        assert at(sub, th, "pi_j", "p_j") == pytest.approx(1 / 3)
        assert at(sub, 0.0, "pi_j", "p_j") == 0.0 and at(sub, 1.0, "pi_j", "p_j") == 1.0
    assert pi_unnormalised([0.8, 0.2], [0.8, 0.2]).tolist() == pytest.approx([0.5, 0.5])


def test_normalise_theta_messages():
    th, notes = normalise_theta([1, 1, 2])
    assert th.tolist() == pytest.approx([0.25, 0.25, 0.5]) and notes
    th, notes = normalise_theta([0.333333, 0.333333, 0.333333])
    assert notes == []  # rounding of a shared link: no note
    for bad, word in [
        ([0, 1, 1], "class 1"),
        ([1, -1], "class 2"),
        ([1, np.nan], "empty"),
        ([1], "at least 2"),
        (["a", 1], "numbers"),
    ]:
        with pytest.raises(ValueError, match=word):
            normalise_theta(bad)
    with pytest.raises(ValueError, match="3 values"):
        normalise_theta([0.5, 0.5], q=3)
    with pytest.raises(ValueError, match="class 1 is 1e-13 after normalising.*at least 1e-12"):
        normalise_theta([1e-13, 1])


def test_parse_distribution():
    assert parse_distribution("0.5; 0.5", 2)[0].tolist() == [0.5, 0.5]
    assert parse_distribution("1, 1", 3)[0] is None
    assert parse_distribution("-1, 2", 2)[0] is None
    p, notes = parse_distribution("3, 1", 2)
    assert p.tolist() == [0.75, 0.25] and notes


# ------------------------------------------------------------------ page settings
def test_presets_and_matching():
    assert matching_preset(TWO_CLASS_SCHEMA.defaults()) == "fig1"
    fig2 = {**TWO_CLASS_SCHEMA.defaults(), **PRESETS["fig2"]["values"]}
    assert matching_preset(fig2) == "fig2"
    # the same betas chosen another way still match
    assert matching_preset({**fig2, "beta": 2.0, "betas": ("0", "0.5", "1", "5")}) == "fig2"
    assert matching_preset({**fig2, "theta": 0.3}) is None
    assert matching_preset({**fig2, "rho": 1.0}) is None
    assert PRESETS["fig1"]["title"] == "Fig. 1. Off-centered, asymmetric and Shannon's entropies"
    assert PRESETS["fig2"]["title"] == "Fig. 2. Off-centering of generalised entropies"
    beta = parameters()["beta"]
    assert chosen_values(beta, {"beta": 0.0, "betas": ("0.5", "1", "2", "5")}) == list(FIG2_BETAS)


@pytest.mark.parametrize(
    "version, n_raw, n_oc", [("both", 2, 3), ("oc", 0, 3), ("raw", 2, 1), ("side", 2, 3)]
)
def test_page_specs_versions(version, n_raw, n_oc):
    values = {
        **TWO_CLASS_SCHEMA.defaults(),
        "measures": ("gini", "shannon", "asymmetric"),
        "version": version,
    }
    raw, ocs = page_specs(values)
    assert (len(raw), len(ocs)) == (n_raw, n_oc)
    assert [s.measure for s in raw] == ["shannon", "gini"][:n_raw]  # registry order


def test_page_specs_consistent_and_reconstruction_flag():
    values = {
        **TWO_CLASS_SCHEMA.defaults(),
        "measures": ("asymmetric", "rank_diversity"),
        "consistent": True,
        "n": 30,
        "rho": 1.0,
    }
    raw, ocs = page_specs(values)
    assert [curve_label(s) for s in ocs] == [
        "off-centered Rank diversity (ρ = 1)",
        "Asymmetric",
        "Asymmetric, consistent (n = 30)",
    ]
    assert [s.measure for s in reconstructions(raw + ocs)] == ["rank_diversity"]
    assert not reconstructions(fig2_specs())
    assert page_specs({**values, "measures": ()}) == ([], [])


def test_q_schema_defaults_are_valid():
    d = Q_CLASS_SCHEMA.defaults()
    assert len(d["theta"]) == d["q"]
    normalise_theta(d["theta"], d["q"])


def test_formulas_and_units():
    items = formulas(fig1_specs())
    assert [i["name"] for i in items] == ["shannon", "asymmetric", "off_center"]
    assert all(i["latex"] and i["reference"] for i in items)
    assert "off_center" not in [i["name"] for i in formulas([MeasureSetting("shannon")])]
    rank = formulas([MeasureSetting("rank_diversity", "prior", rho=1)])[0]
    assert "reconstruction" in rank["notes"]
    assert y_axis_title([MeasureSetting("shannon", "prior")]) == "entropy (bits)"
    assert "bits" in y_axis_title(fig1_specs())
    assert y_axis_title([MeasureSetting("gini")]) == "uncertainty (unitless)"


# ------------------------------------------------------------------ figures
def _ys(fig):
    return [np.asarray(t.y, dtype=float) for t in fig.data]


def test_curves_figure_data_are_the_curve_data():
    df = binary_curves(fig2_specs(), 0.2)
    fig = curves_figure(df, theta=0.2, cursor=0.4, title="t")
    assert [t.name for t in fig.data] == list(df.attrs["labels"].values())
    for t, col in zip(fig.data, df.columns[1:]):
        assert np.array_equal(np.asarray(t.y, dtype=float), df[col].to_numpy())
        assert np.array_equal(np.asarray(t.x, dtype=float), df["p"].to_numpy())
    # grayscale / colour-blind: distinct dash styles and symbols, Okabe-Ito colours
    dashes = [t.line.dash for t in fig.data]
    assert len(set(dashes)) == len(dashes)
    assert {t.line.color for t in fig.data} <= set(OKABE_ITO)
    assert len({t.marker.symbol for t in fig.data}) == len(fig.data)
    shapes = fig.layout.shapes
    assert [s.x0 for s in shapes] == [0.2, 0.4]
    assert "p = frequency of class 1" in fig.layout.xaxis.title.text


def test_style_cycles_and_pngs():
    assert style(0) != style(1) and style(0) == style(len(DASHES))
    cfg = png_config("offcenter fig1 theta 0.2")
    assert cfg["toImageButtonOptions"] == {
        "format": "png",
        "filename": "offcenter_fig1_theta_0.2",
        "scale": 2,
    }
    assert file_stub("a/b", None, "", "c") == "a_b_c"


def test_derivative_and_other_figures_build():
    d = binary_derivatives(fig1_specs(), 0.2, order=2)
    fig = derivative_figure(d, theta=0.2, order=2)
    assert "second derivative" in fig.layout.yaxis.title.text
    lo, hi = fig.layout.yaxis.range
    assert lo < 0 < hi and np.isfinite([lo, hi]).all()
    t = ternary_mesh(MeasureSetting("gini", "prior"), [0.5, 0.3, 0.2], n=21)
    tf = ternary_figure(t)
    assert [tr.name for tr in tf.data][1:] == ["simplex", "θ", "maximum"]
    bars = transform_bars_figure(transform_table([0.5, 0.3, 0.2], [0.6, 0.3, 0.1]))
    assert [tr.type for tr in bars.data] == ["bar", "bar", "bar", "scatter"]
    maps = transform_maps_figure(transform_maps([0.6, 0.3, 0.1]), [0.6, 0.3, 0.1])
    assert len(maps.data) == 7
    assert isinstance(pd.DataFrame(), pd.DataFrame)


def test_every_builder_output_passes_plotly_validation():
    """The builders skip Plotly's per-property validation for speed: validate here instead."""
    import plotly.graph_objects as go

    theta3 = [0.6, 0.3, 0.1]
    figs = [
        curves_figure(binary_curves(fig2_specs(), 0.2), theta=0.2, cursor=0.3, title="t"),
        curves_figure(slice_curves(fig1_specs(), theta3), x="p1", theta=0.6),
        derivative_figure(binary_derivatives(fig1_specs(), 0.2), theta=0.2),
        ternary_figure(ternary_mesh(MeasureSetting("shannon", "prior"), theta3, n=21)),
        ternary_figure(
            ternary_mesh(MeasureSetting("shannon", "prior"), theta3, n=21), presentation=True
        ),
        theta_animation_figure(
            *theta_sweep(fig2_specs(), [0.1, 0.5]),
            [0.1, 0.5],
            labels=binary_curves(fig2_specs(), 0.2).attrs["labels"],
            theta=0.2,
            cursor=0.3,
        ),
        curves_figure(binary_curves(fig1_specs(), 0.2), theta=0.2, presentation=True),
        transform_bars_figure(transform_table([0.5, 0.3, 0.2], theta3)),
        transform_maps_figure(transform_maps(theta3), theta3),
    ]
    for fig in figs:
        d = fig.to_dict()
        assert isinstance(d["layout"]["template"], dict)
        go.Figure(d)  # raises ValueError on any invalid property
        fig.to_json()


@pytest.mark.parametrize("presentation", [False, True])
@pytest.mark.parametrize(
    "y_title", ["entropy (bits)", "uncertainty (bits for Shannon; others unitless)"]
)
def test_curves_figure_starts_with_the_margins_its_axes_push_to(presentation, y_title):
    """The left and bottom margins are the ones Plotly's automargin ends with (so a new
    figure is drawn once, not twice); automargin stays on for wider tick labels."""
    from offcenter.viz.styles import typography

    df = binary_curves(fig1_specs(), 0.2)
    fig = curves_figure(df, theta=0.2, y_title=y_title, presentation=presentation)
    layout = fig.to_plotly_json()["layout"]
    lefts, bottom = AXIS_MARGINS[typography(presentation)]
    lines = 2 if "<br>" in layout["yaxis"]["title"]["text"] else 1
    assert lines == (2 if len(y_title) > 34 else 1)
    assert (layout["margin"]["l"], layout["margin"]["b"]) == (lefts[lines - 1], bottom)
    assert layout["xaxis"]["automargin"] and layout["yaxis"]["automargin"]
    assert lefts[0] < lefts[1]  # a second title line needs room
