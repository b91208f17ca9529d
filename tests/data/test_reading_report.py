"""What reading did: missing cells per column, the markers read as missing, the decimal
separator (CsvReport.reading_notes), and the constant columns left out by default."""

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from offcenter.data.csv_io import (
    MISSING_MARKERS,
    DataProblem,
    constant_columns,
    id_like_columns,
    left_out_columns,
    read_csv_bytes,
)


def test_missing_cells_are_counted_per_column_with_the_markers_as_written():
    text = "a,b,c,y\n1,?,x,p\n,NA,x,q\n3,?,,p\n4,5,N/A,q\n"
    df, rep = read_csv_bytes(text.encode())
    assert rep.missing == {"a": 1, "b": 3, "c": 2}
    assert rep.missing == {c: int(k) for c, k in df.isna().sum().items() if k}
    # most frequent first, then by the text; "" is an empty cell; the case is kept
    assert list(rep.missing_tokens.items()) == [("", 2), ("?", 2), ("N/A", 1), ("NA", 1)]
    notes = rep.reading_notes()
    assert notes[0] == "6 missing cells in 3 of 4 columns: “a” 1, “b” 3, “c” 2."
    assert notes[1] == (
        "Read as missing: empty (2 cells), “?” (2 cells), “N/A” (1 cell), “NA” (1 cell)."
    )
    assert notes[2] == "Decimal separator: point (“2.5”)."


def test_no_missing_cells_is_said():
    _, rep = read_csv_bytes(b"a,y\n1.5,p\n2.5,q\n")
    assert rep.missing == {} and rep.missing_tokens == {}
    assert rep.reading_notes() == ["No missing cells.", "Decimal separator: point (“2.5”)."]


def test_decimal_comma_is_detected_per_column():
    text = "w;h;k;y\n1,5;2;a;p\n2,25;3;b;q\n-0,5;4;c;p\n"
    df, rep = read_csv_bytes(text.encode())
    assert df["w"].tolist() == [1.5, 2.25, -0.5]
    assert rep.decimal == "," and rep.decimal_comma == ["w"]
    assert rep.reading_notes()[-1] == (
        "Decimal separator: comma (“2,5” read as 2.5), in 1 column: “w”."
    )
    _, rep = read_csv_bytes(b"w;y\n1.5;p\n2.5;q\n")
    assert rep.decimal == "." and rep.decimal_comma == []


def test_a_text_column_with_commas_is_not_a_decimal_comma_column():
    _, rep = read_csv_bytes(b"w;y\n1,5;p\nabc;q\n")
    assert rep.decimal_comma == []


def test_blank_rows_and_empty_columns_left_out_are_not_counted_as_missing():
    text = "a,b,empty,y\n1,x,,p\n,,,\n2,?,,q\n3,z,,p\n"
    df, rep = read_csv_bytes(text.encode())
    assert list(df.columns) == ["a", "b", "y"] and len(df) == 3
    assert rep.missing == {"b": 1}
    assert rep.missing_tokens == {"?": 1}


def test_infinite_numbers_count_as_missing_cells_but_not_as_markers():
    _, rep = read_csv_bytes(b"a,y\n1,p\ninf,q\n?,p\n")
    assert rep.missing == {"a": 2}
    assert rep.missing_tokens == {"?": 1}


def test_many_columns_are_cut_in_the_note():
    head = ",".join(f"c{i}" for i in range(12)) + ",y\n"
    rows = "".join(
        ",".join("" if i == r % 12 else "1" for i in range(12)) + ",p\n" for r in range(12)
    )
    _, rep = read_csv_bytes((head + rows + "1," * 12 + "q\n").encode())
    note = rep.reading_notes(limit=8)[0]
    assert note.startswith("12 missing cells in 12 of 13 columns: “c0” 1,")
    assert note.endswith("“c7” 1, and 4 more columns.")


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(
            st.sampled_from(["1", "2.5", "x", "", " ?", "NA", "null", "nan", "None"]),
            min_size=3,
            max_size=3,
        ),
        min_size=2,
        max_size=12,
    )
)
def test_the_report_counts_every_missing_cell_of_the_table_read(rows):
    text = "a,b,c,y\n" + "".join(",".join(r) + f",{'pq'[i % 2]}\n" for i, r in enumerate(rows))
    try:
        df, rep = read_csv_bytes(text.encode())
    except DataProblem as exc:  # every feature column empty: refused, nothing to report
        assert "Only one column has values" in str(exc)
        return
    assert rep.missing == {c: int(k) for c, k in df.isna().sum().items() if k}
    # no infinities here: every missing cell was one of the markers
    assert sum(rep.missing_tokens.values()) == int(df.isna().sum().sum())
    assert all(t.lower() in MISSING_MARKERS for t in rep.missing_tokens)


def test_constant_columns_are_left_out_with_the_reason():
    df = pd.DataFrame(
        {
            "id": range(12),
            "site": ["Lyon"] * 12,
            "zero": [0] * 12,
            "flag": [1.0, np.nan] * 6,  # the value or missing: it can split
            "x": [1.5, 2.5, 3.5] * 4,
            "y": list("ab") * 6,
        }
    )
    const = constant_columns(df)
    assert const == {
        "site": "the same value (“Lyon”) in all 12 rows: it cannot split any node",
        "zero": "the same value (“0”) in all 12 rows: it cannot split any node",
    }
    out = left_out_columns(df)
    assert list(out) == ["id", "site", "zero"]
    assert out["id"] == id_like_columns(df)["id"]


def test_a_constant_column_read_from_a_file_is_left_out():
    df, _ = read_csv_bytes(b"k,x,y\n7,1.5,p\n7,2.5,q\n7,3.5,p\n")
    assert list(left_out_columns(df)) == ["k"]
