"""The frames the θ-following chart carries (offcenter.viz.theta_frames)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from offcenter.measures.curves import theta_sweep
from offcenter.measures.settings import MeasureSetting
from offcenter.viz.theta_frames import (
    FOLLOW_POINTS,
    FOLLOW_THETAS,
    decode_frames,
    encode_frames,
    figure_json,
)

SPECS = [
    MeasureSetting("shannon", theta="prior"),
    MeasureSetting("daroczy", theta="prior", beta=5.0),
    MeasureSetting("asymmetric"),
]


def test_every_slider_step_is_a_frame_on_the_grid():
    assert FOLLOW_THETAS[0] == 0.01 and FOLLOW_THETAS[-1] == 0.99 and len(FOLLOW_THETAS) == 99
    grid, sweep = theta_sweep(SPECS, FOLLOW_THETAS, n=FOLLOW_POINTS)
    assert grid.size == FOLLOW_POINTS  # every θ step is a point of linspace(0, 1, 101)
    frames = encode_frames(grid, sweep, FOLLOW_THETAS)
    back = decode_frames(json.loads(json.dumps(frames)))
    for key, values in sweep.items():
        # 16 bits between the curve's min and max: at most half a level off
        step = (values.max() - values.min()) / 65534
        assert np.abs(back[key] - values).max() <= step / 2 + 1e-12, key
        # the off-centered curves still peak exactly at their θ
        peaks = np.asarray(frames["grid"])[np.argmax(back[key], axis=1)]
        assert peaks == pytest.approx(FOLLOW_THETAS), key


def test_not_finite_values_come_back_as_nan():
    grid = np.linspace(0, 1, 3)
    sweep = {"k": np.array([[0.0, np.inf, 1.0], [np.nan, 0.5, 2.0]])}
    back = decode_frames(encode_frames(grid, sweep, [0.2, 0.4]))["k"]
    assert np.isnan(back[0, 1]) and np.isnan(back[1, 0])
    assert (
        back[0, 0] == 0.0
        and back[1, 2] == pytest.approx(2.0)
        and back[1, 1] == pytest.approx(0.5, abs=2e-5)
    )


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-1e3, 1e3), min_size=2, max_size=30))
def test_round_trip_within_half_a_level(xs):
    values = np.asarray(xs).reshape(1, -1)
    back = decode_frames(encode_frames(np.linspace(0, 1, values.size), {"k": values}, [0.5]))["k"]
    span = values.max() - values.min()
    assert np.abs(back - values).max() <= span / 65534 / 2 + 1e-9 * max(1.0, np.abs(values).max())


def test_figure_json_is_plotly_json():
    spec = {"data": [{"type": "scatter", "x": np.arange(3.0), "y": np.ones(3)}], "layout": {}}
    out = json.loads(figure_json(spec))
    assert out["data"][0]["type"] == "scatter" and "layout" in out


# ------------------------------------------------------------------ a parameter's frames (β)
def test_param_sweep_is_the_curves_at_each_step_with_their_labels():
    from offcenter.measures.curves import binary_curves, param_sweep
    from offcenter.viz.theta_frames import slider_steps

    steps = slider_steps(0.0, 10.0, 0.1)
    assert len(steps) == 101 and steps[35] == 3.5 and steps[-1] == 10.0
    specs = [
        MeasureSetting("daroczy", theta="prior", beta=2.0),
        MeasureSetting("daroczy", beta=2.0),
        MeasureSetting("shannon"),  # takes no β: left out
    ]
    grid, sweep, labels = param_sweep(specs, 0.3, "beta", steps, n=FOLLOW_POINTS)
    assert list(sweep) == ["oc_daroczy_b2", "daroczy_b2"]
    for k in (0, 5, 35, 100):
        moved = [
            MeasureSetting("daroczy", theta="prior", beta=steps[k]),
            MeasureSetting("daroczy", beta=steps[k]),
        ]
        ref = binary_curves(moved, 0.3, grid)
        for old, new in zip(sweep, moved, strict=True):
            np.testing.assert_allclose(sweep[old][k], ref[new.key], rtol=1e-12, atol=1e-12)
    assert labels["oc_daroczy_b2"][35] == "off-centered Daroczy (β = 3.5)"
    assert labels["daroczy_b2"][0] == "Daroczy (β = 0)"
    # the off-centered curves peak at the page's θ whatever β (β = 0 is flat: skip it)
    peaks = grid[np.argmax(sweep["oc_daroczy_b2"][1:], axis=1)]
    assert peaks == pytest.approx(0.3)
    frames = encode_frames(grid, sweep, steps, labels)
    back = decode_frames(json.loads(json.dumps(frames)))
    assert frames["steps"] == list(steps) and frames["names"]["daroczy_b2"] == labels["daroczy_b2"]
    step = (sweep["daroczy_b2"].max() - sweep["daroczy_b2"].min()) / 65534
    assert np.abs(back["daroczy_b2"] - sweep["daroczy_b2"]).max() <= step / 2 + 1e-12


def test_param_sweep_refuses_no_values():
    from offcenter.measures.curves import param_sweep

    with pytest.raises(ValueError, match="non-empty"):
        param_sweep([MeasureSetting("daroczy")], 0.3, "beta", [])


@settings(max_examples=30, deadline=None)
@given(
    st.floats(0.0, 5.0),
    st.sampled_from([0.1, 0.25, 0.01, 1.0]),
    st.integers(0, 60),
)
def test_slider_steps_run_from_low_to_high_by_step(low, step, count):
    from offcenter.viz.theta_frames import slider_steps

    low = round(low, 2)
    high = round(low + count * step, 6)
    steps = slider_steps(low, high, step)
    assert len(steps) == count + 1
    assert steps[0] == pytest.approx(low) and steps[-1] == pytest.approx(high)
    assert np.diff(steps) == pytest.approx([step] * count, abs=1e-9) if count else True


def test_a_parameters_frames_carry_each_steps_colour_dash_and_marker():
    """The style of a setting comes from its key, which holds the parameter's value: each step
    of β's frames has the colour, dash and marker the server's figure gives that β."""
    from offcenter.app.curve_pages import cached_param_frames_json
    from offcenter.measures.curves import moved_setting
    from offcenter.viz.styles import setting_style

    spec = MeasureSetting("daroczy", theta="prior", beta=2.0)
    frames = json.loads(cached_param_frames_json([spec], 0.3, "beta", 2.0))
    styles = frames["styles"]["oc_daroczy_b2"]
    assert len(styles["color"]) == len(frames["steps"]) == len(styles["dash"])
    k = frames["steps"].index(2.3)
    at = setting_style("oc_daroczy_b2.3")
    assert (styles["color"][k], styles["dash"][k], styles["symbol"][k]) == (
        at.color,
        at.dash,
        at.symbol,
    )
    assert moved_setting(spec, "beta", 2.3).key == "oc_daroczy_b2.3"
    # a step's style is not the first step's (the old browser kept the old colour and dash)
    assert {(c, d) for c, d in zip(styles["color"], styles["dash"])} != {
        (styles["color"][0], styles["dash"][0])
    }
    # without styles, none are carried
    g = np.linspace(0, 1, 3)
    assert encode_frames(g, {"a": np.zeros((1, 3))}, [0.5])["styles"] == {}
