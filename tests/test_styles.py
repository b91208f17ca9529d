"""Curve styles (one per measure setting key, WCAG contrast), the ternary mesh, the theta sweep
of the animation and the URL parameter shared by every page (presentation mode)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from offcenter import MeasureSetting
from offcenter.app.curve_pages import PRESETS, TWO_CLASS_SCHEMA, page_specs
from offcenter.app.urlstate import GLOBAL_SCHEMA, Field, Schema, sync_global, sync_out
from offcenter.measures.curves import ternary_mesh, theta_sweep
from offcenter.measures.registry import MEASURES
from offcenter.viz.styles import (
    KNOWN,
    PALETTE,
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


def test_presentation_parameter_survives_a_pages_own_url_writes():
    schema = Schema([Field("theta", "float", 0.2)])
    query = {"present": "1"}
    sync_out(schema, {"theta": 0.3}, query)
    assert query == {"theta": "0.3", "present": "1"}
    sync_global({"present": False}, query)
    assert query == {"theta": "0.3"}
    values, warnings = GLOBAL_SCHEMA.decode({"present": "yes"})
    assert values == {"present": True} and not warnings
