"""csv_io: encodings, separators, repairs, and a user-facing DataProblem for every bad file."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from offcenter.data.csv_io import (
    MAX_CLASSES,
    DataProblem,
    apply_kinds,
    check_target,
    column_table,
    frame_hash,
    id_like_columns,
    infer_kinds,
    prepare_xy,
    read_csv_bytes,
    sample_rows,
    sample_xy,
    too_large,
)

BAD = Path(__file__).resolve().parents[1] / "data" / "bad_csv"
GOOD = BAD / "good"


def read(name):
    return read_csv_bytes((BAD / name).read_bytes(), name)


@pytest.mark.parametrize(
    "name, encoding, sep",
    [
        ("semicolon_latin1.csv", "Latin-1", ";"),
        ("semicolon_utf8_bom.csv", "UTF-8 (BOM)", ";"),
        ("tab_utf16.csv", "UTF-16", "\t"),
        ("comma_utf8.csv", "UTF-8", ","),
    ],
)
def test_good_encodings_and_separators(name, encoding, sep):
    df, rep = read_csv_bytes((GOOD / name).read_bytes(), name)
    assert rep.encoding == encoding
    assert rep.separator == sep
    assert list(df.columns) == ["couleur", "taille", "mangeable"]
    assert df.shape == (5, 3)
    assert df["couleur"].iloc[4] == "Été"
    assert "5 rows x 3 columns" in rep.summary()


@pytest.mark.parametrize(
    "name, words",
    [
        ("empty.csv", "empty"),
        ("whitespace_only.csv", "empty"),
        ("header_only.csv", "no data rows"),
        ("one_column.csv", "only one column"),
        ("binary_png.csv", "PNG"),
        ("binary_zip_xlsx.csv", "ZIP"),
        ("binary_nul.csv", "binary"),
        ("mixed_separators.csv", "Mixed separators"),
        ("ragged_rows.csv", "Ragged rows"),
        ("undecodable.csv", "cannot be decoded"),
    ],
)
def test_bad_files_raise_a_clear_data_problem(name, words):
    with pytest.raises(DataProblem) as info:
        read(name)
    msg = str(info.value)
    assert words.lower() in msg.lower()
    assert "Traceback" not in msg
    assert isinstance(info.value, ValueError)


def test_ragged_rows_names_the_lines():
    with pytest.raises(DataProblem, match="line 3 has 2.*line 4 has 4"):
        read("ragged_rows.csv")


def test_mixed_separators_names_the_lines():
    with pytest.raises(DataProblem, match="line\\(s\\) 3, 5 use semicolons"):
        read("mixed_separators.csv")


def test_file_over_the_limit():
    with pytest.raises(DataProblem, match="too large"):
        read_csv_bytes(b"a,b\n1,2\n" * 100, max_bytes=50)


def test_constant_target_and_hundreds_of_classes():
    df, _ = read("constant_target.csv")
    with pytest.raises(DataProblem, match="single value"):
        check_target(df, "y")
    df, _ = read("hundreds_of_classes.csv")
    with pytest.raises(DataProblem, match=f"300 different values.*at most {MAX_CLASSES}"):
        check_target(df, "y")


def test_all_missing_column_is_dropped_with_a_warning():
    df, rep = read("all_missing_column.csv")
    assert list(df.columns) == ["x", "y"]
    assert any("no value at all" in w and "“empty”" in w for w in rep.warnings)


def test_infinite_values_become_missing_with_a_warning():
    df, rep = read("infinite_values.csv")
    assert df["z"].isna().sum() == 3
    assert np.isfinite(df["z"].dropna()).all()
    assert any("infinite" in w for w in rep.warnings)


def test_duplicate_and_empty_names_are_renamed():
    df, rep = read("duplicate_and_empty_names.csv")
    assert list(df.columns) == ["x", "x (2)", "column 3", "y"]
    assert len(rep.warnings) == 2


def test_long_names_are_shortened():
    df, rep = read("long_names.csv")
    assert len(df.columns[0]) == 80
    assert "300 characters" in rep.warnings[0]


def test_script_like_names_are_kept_as_plain_text():
    df, rep = read("script_names.csv")
    assert df.columns[0] == "<script>alert(1)</script>"
    assert df.columns[2] == "<img src=x onerror=alert(1)>"
    assert df["class"].iloc[0] == "<b>yes</b>"
    assert id_like_columns(df) == {}  # "<b>bold</b>" counts 1..6, but 6 rows are too few to say


def test_kinds_inference_and_overrides():
    df = pd.DataFrame({"code": [1, 2, 3, 1], "t": ["1", "x", "2", "3"], "y": list("abab")})
    assert infer_kinds(df) == {"code": "numeric", "t": "categorical", "y": "categorical"}
    out, warnings = apply_kinds(df, {"code": "categorical", "t": "numeric"})
    assert out["code"].tolist() == ["1", "2", "3", "1"]
    assert out["t"].isna().sum() == 1
    assert "1 value(s) are not numbers" in warnings[0]
    with pytest.raises(DataProblem, match="no numbers"):
        apply_kinds(df, {"y": "numeric"})


def test_numeric_code_parsed_and_decimal_commas():
    df, rep = read_csv_bytes(b"a;b;y\n1,5;1;u\n2,5;2;v\n")
    assert df["a"].tolist() == [1.5, 2.5]
    assert df["b"].dtype == np.int64


def test_missing_markers():
    df, _ = read_csv_bytes(b"a,b,y\n1,?,u\nNA,x,v\n3,,u\n")
    assert df["a"].isna().sum() == 1
    assert df["b"].isna().sum() == 2


def test_id_like_columns_with_reasons():
    df = pd.DataFrame(
        {
            "row": range(1, 21),
            "patient_id": np.arange(20) * 7 + 3,
            "name": [f"n{i}" for i in range(20)],
            "x": np.linspace(0, 1, 20),
            "y": ["a", "b"] * 10,
        }
    )
    ids = id_like_columns(df)
    assert set(ids) == {"row", "patient_id", "name"}
    assert "row number" in ids["row"]
    assert "distinct" in ids["name"]


def test_prepare_xy_drops_rows_without_target():
    df = pd.DataFrame({"x": [1, 2, 3, 4], "y": ["a", None, "b", "a"]})
    X, y, warnings = prepare_xy(df, "y", ["x"])
    assert len(X) == 3 and y.tolist() == ["a", "b", "a"]
    assert "1 row(s)" in warnings[0]
    with pytest.raises(DataProblem):
        prepare_xy(df, "y", [])


def test_numeric_target_becomes_labels():
    y = check_target(pd.DataFrame({"y": [0, 1, 1.0]}), "y")
    assert y.tolist() == ["0", "1", "1"]


def test_too_large_sample_and_hash():
    assert too_large(100_000, 30) is not None
    assert "sample" in too_large(100_000, 30)
    df = pd.DataFrame({"a": range(100)})
    s = sample_rows(df, 10)
    assert len(s) == 10 and sample_rows(df, 10).equals(s)
    assert frame_hash(df) == frame_hash(df.copy()) != frame_hash(s)


def test_sample_xy_is_reproducible_and_keeps_rows_paired():
    X = pd.DataFrame({"a": range(100), "b": [f"v{i}" for i in range(100)]})
    y = pd.Series([f"c{i % 3}" for i in range(100)])
    Xs, ys = sample_xy(X, y, 10, seed=0)
    rows = np.sort(np.random.default_rng(0).choice(100, 10, replace=False))
    assert Xs["a"].tolist() == rows.tolist()  # the Tree page's sample, unchanged
    assert ys.tolist() == [f"c{i % 3}" for i in rows]
    assert list(Xs.index) == list(range(10)) and list(ys.index) == list(range(10))
    for n in (0, 100, 500):
        assert sample_xy(X, y, n)[0] is X
    with pytest.raises(ValueError, match="n:"):
        sample_xy(X, y, -1)
    with pytest.raises(ValueError, match="y:"):
        sample_xy(X, y[:5], 3)


def test_column_table_lists_kinds_missing_distinct_and_reasons():
    df = pd.DataFrame({"id": range(12), "x": [1.5, None] * 6, "y": list("ab") * 6})
    kinds = infer_kinds(df)
    table = column_table(df, kinds, id_like_columns(df, kinds))
    assert table["column"].tolist() == ["id", "x", "y"]
    assert table["type"].tolist() == ["numeric", "numeric", "categorical"]
    assert table["missing"].tolist() == [0, 6, 0]
    assert table["distinct"].tolist() == [12, 1, 2]
    assert "row number" in table["left out because"][0] and table["left out because"][1] == ""


def test_infer_kinds_reads_the_dtypes_without_taking_a_column(monkeypatch):
    """The rule column by column, read from the dtypes: a column taken from a cached frame at
    every rerun left a dead weak reference in pandas' bookkeeping (issue 34)."""
    df = pd.DataFrame(
        {
            "i": [1, 2],
            "f": [1.5, np.nan],
            "b": [True, False],
            "s": ["a", "b"],
            "o": pd.Series(["a", 1], dtype=object),
            "c": pd.Categorical(["x", "y"]),
            "d": pd.to_datetime(["2020-01-01", "2020-01-02"]),
            "I": pd.array([1, None], dtype="Int64"),
            "B": pd.array([True, None], dtype="boolean"),
            "u8": np.array([1, 2], dtype=np.uint8),
        }
    )
    by_column = {
        c: "numeric"
        if pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c])
        else "categorical"
        for c in df.columns
    }
    shared = pd.DataFrame([[1, 2, "a"]], columns=["a", "a", "b"])

    def no_column(self, key):
        raise AssertionError(f"column {key!r} taken")

    monkeypatch.setattr(pd.DataFrame, "__getitem__", no_column)
    assert infer_kinds(df) == by_column
    assert by_column == {
        "i": "numeric", "f": "numeric", "b": "categorical", "s": "categorical",
        "o": "categorical", "c": "categorical", "d": "categorical", "I": "numeric",
        "B": "categorical", "u8": "numeric",
    }  # fmt: skip
    assert infer_kinds(shared) == {"a": "categorical", "b": "categorical"}  # a shared name
