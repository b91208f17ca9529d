"""The generic URL-state codec: decoding with defaults, clamping and warnings; encoding; syncing."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from offcenter.app import urlstate
from offcenter.app.urlstate import Field, Schema, current_values, reset, sync_in, sync_out

SCHEMA = Schema(
    [
        Field("theta", "float", 0.2, low=0.01, high=0.99, step=0.01),
        Field("q", "int", 3, low=2, high=10),
        Field("deriv", "bool", False),
        Field("version", "str", "both", choices=("both", "oc", "raw")),
        Field("measures", "strs", ("shannon",), choices=("shannon", "gini", "asymmetric")),
        Field("vec", "floats", (0.6, 0.3, 0.1), low=0.0, high=10.0, min_len=2, max_len=4),
        Field("free", "str", ""),
    ]
)


def test_empty_query_gives_defaults_without_warnings():
    values, warnings = SCHEMA.decode({})
    assert values == SCHEMA.defaults()
    assert warnings == []


def test_valid_values_decode():
    values, warnings = SCHEMA.decode(
        {
            "theta": "0.35",
            "q": "5",
            "deriv": "1",
            "version": "oc",
            "measures": "gini,asymmetric",
            "vec": "2,1,1",
            "free": "x y",
        }
    )
    assert warnings == []
    assert values == {
        "theta": 0.35,
        "q": 5,
        "deriv": True,
        "version": "oc",
        "measures": ("gini", "asymmetric"),
        "vec": (2.0, 1.0, 1.0),
        "free": "x y",
    }


@pytest.mark.parametrize(
    "text, expected", [("-3", 0.01), ("7", 0.99), ("0.014", 0.01), ("0.236", 0.24)]
)
def test_numbers_are_clamped_and_snapped(text, expected):
    values, _ = SCHEMA.decode({"theta": text})
    assert values["theta"] == pytest.approx(expected)


def test_clamping_warns():
    values, warnings = SCHEMA.decode({"theta": "7", "q": "1"})
    assert values["q"] == 2
    assert any("above its maximum" in w for w in warnings)
    assert any("below its minimum" in w for w in warnings)


@pytest.mark.parametrize("bad", ["abc", "nan", "inf", "", "1e999"])
def test_bad_numbers_fall_back_to_default_with_a_warning(bad):
    values, warnings = SCHEMA.decode({"theta": bad})
    assert values["theta"] == 0.2
    assert len(warnings) == 1 and "theta" in warnings[0]


def test_int_field_rounds_non_integers_with_a_warning():
    values, warnings = SCHEMA.decode({"q": "4.6"})
    assert values["q"] == 4
    assert warnings


@pytest.mark.parametrize(
    "text, expected", [("1", True), ("true", True), ("on", True), ("0", False), ("no", False)]
)
def test_bool_values(text, expected):
    assert SCHEMA.decode({"deriv": text})[0]["deriv"] is expected


def test_bad_bool_and_choice_warn():
    values, warnings = SCHEMA.decode({"deriv": "maybe", "version": "sideways"})
    assert values["deriv"] is False and values["version"] == "both"
    assert len(warnings) == 2


def test_unknown_list_items_are_dropped_and_duplicates_merged():
    values, warnings = SCHEMA.decode({"measures": "gini,foo,gini,<script>"})
    assert values["measures"] == ("gini",)
    assert len(warnings) == 1 and "'foo'" in warnings[0] and "'<script>'" in warnings[0]


def test_list_length_limits():
    values, warnings = SCHEMA.decode({"vec": "1"})
    assert values["vec"] == (0.6, 0.3, 0.1) and warnings
    values, warnings = SCHEMA.decode({"vec": "1,1,1,1,1"})
    assert values["vec"] == (0.6, 0.3, 0.1) and warnings
    values, warnings = SCHEMA.decode({"vec": "1,x"})
    assert values["vec"] == (0.6, 0.3, 0.1) and warnings


def test_repeated_keys_use_the_last_value():
    assert SCHEMA.decode({"q": ["4", "6"]})[0]["q"] == 6


def test_unknown_keys_are_ignored():
    values, warnings = SCHEMA.decode({"other_page": "1"})
    assert values == SCHEMA.defaults() and warnings == []


def test_encode_skips_defaults_and_roundtrips():
    values = {
        **SCHEMA.defaults(),
        "theta": 0.3,
        "measures": ("gini", "shannon"),
        "deriv": True,
        "vec": (0.5, 0.5),
    }
    enc = SCHEMA.encode(values)
    assert enc == {"theta": "0.3", "measures": "gini,shannon", "deriv": "1", "vec": "0.5,0.5"}
    back, warnings = SCHEMA.decode(enc)
    assert warnings == [] and back == values
    assert SCHEMA.encode(SCHEMA.defaults()) == {}
    assert len(SCHEMA.encode(SCHEMA.defaults(), skip_defaults=False)) == len(SCHEMA.fields)


def test_schema_rejects_bad_definitions():
    with pytest.raises(ValueError):
        Field("x", "complex", 0)
    with pytest.raises(ValueError):
        Schema([Field("x", "int", 0), Field("x", "int", 1)])


class FakeQuery(dict):
    def to_dict(self):
        return dict(self)


def test_sync_in_reads_only_missing_keys():
    state = {"p_theta": 0.5}
    warnings = sync_in(SCHEMA, state, {"theta": "0.3", "q": "12"}, "p_")
    assert state["p_theta"] == 0.5  # the widget's value wins
    assert state["p_q"] == 10 and any("q" in w for w in warnings)
    assert state["p_measures"] == ["shannon"]  # lists for multiselects
    assert sync_in(SCHEMA, state, {"q": "12"}, "p_") == []  # nothing missing: nothing read


def test_sync_out_and_reset():
    state = {}
    sync_in(SCHEMA, state, {}, "p_")
    state["p_theta"] = 0.4
    query = FakeQuery(stale="1")
    enc = sync_out(SCHEMA, state, query, "p_")
    assert enc == {"theta": "0.4"} and query == {"theta": "0.4"}
    assert current_values(SCHEMA, state, "p_")["theta"] == 0.4
    reset(SCHEMA, state, query, "p_")
    assert query == {} and state["p_theta"] == 0.2


# ---------------------------------------------------------------------------- hostile links
HOSTILE_NUMBERS = [
    "inf",
    "-inf",
    "+inf",
    "nan",
    "1e400",
    "-1e400",
    "9" * 400,
    "-" + "9" * 400,
    "1e308",
    "-1e308",
    "1" * 5000,
    "0x10",
    "1e",
    "١٢",
    "1_0",
    "\x00",
    "  ",
]


@pytest.mark.parametrize("text", HOSTILE_NUMBERS)
@pytest.mark.parametrize(
    "field",
    [
        Field("n", "int", 3, low=2, high=10),
        Field("n", "int", 3),
        Field("n", "float", 0.2, low=0.01, high=0.99, step=0.01),
        Field("n", "float", 0.5, step=0.01),
        Field("n", "floats", (0.6, 0.4), low=0.0, high=1e6, min_len=2, max_len=4),
    ],
)
def test_huge_and_non_finite_numbers_fall_back_without_raising(field, text):
    """``inf``, ``1e400``, a 400-digit integer, ``1e308`` on a stepped slider: a value of the
    field's type and range (or its default), never an exception."""
    values, _ = Schema([field]).decode({"n": text})
    v = values["n"]
    vs = v if isinstance(v, tuple) else (v,)
    for x in vs:
        assert isinstance(x, int if field.kind == "int" else float)
        assert math.isfinite(x)
        assert field.low is None or x >= field.low
        assert field.high is None or x <= field.high


def test_a_repeated_unknown_value_gives_one_warning():
    values, warnings = SCHEMA.decode({"measures": ",".join(["nope"] * 5000)})
    assert values["measures"] == ()
    assert len(warnings) == 1 and warnings[0].count("nope") == 1


def test_warnings_are_capped():
    schema = Schema([Field(f"x{i}", "float", 0.0, low=0, high=1) for i in range(100)])
    _, warnings = schema.decode({f"x{i}": "2" for i in range(100)})
    assert len(warnings) == urlstate.MAX_WARNINGS + 1
    assert warnings[-1].startswith("92 more values")


def test_warnings_quote_a_cut_value_and_are_escaped_for_markdown():
    _, warnings = SCHEMA.decode({"version": "[log in](https://evil.example/" + "x" * 500 + ")"})
    assert len(warnings[0]) < 200
    shown = urlstate.for_display(warnings)[0]
    assert "](" not in shown and "\\[log in\\]\\(https" in shown


@given(st.text(max_size=60))
def test_any_text_decodes_without_raising(text):
    values, warnings = SCHEMA.decode({f.name: text for f in SCHEMA})
    assert set(values) == set(SCHEMA.fields)
    assert len(warnings) <= urlstate.MAX_WARNINGS + 1
