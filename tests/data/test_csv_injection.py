"""CSV injection (issue 34): every CSV the app writes neutralises formula cells and headers
(OWASP: a leading ``'`` for ``=``, ``+``, ``-``, ``@``, tab and carriage return), with the
hostile corpus of ``tests/data/hostile.json``; numbers, negative or not, stay numbers."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from offcenter.app.downloads import frame_csv
from offcenter.data.csv_io import (
    FORMULA_STARTS,
    frame_hash,
    neutralise_formulas,
    read_upload,
    to_csv_text,
)
from offcenter.evaluation.runner import cross_validate_settings

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "hostile.json").read_text("utf-8")
)
TEXTS = [v for k, vs in HOSTILE.items() if k != "about" for v in vs]


def _cells(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def _safe(cell: str) -> bool:
    return not cell.startswith(FORMULA_STARTS)


def test_the_hostile_corpus_is_neutralised_in_values_and_headers():
    names = [f"{t}" for t in HOSTILE["formulas"]]
    df = pd.DataFrame(
        {
            n: [HOSTILE["formulas"][(i + j) % len(names)] for i in range(len(names))]
            for j, n in enumerate(names)
        }
    )
    df["negative"] = -np.arange(len(df), dtype=float) - 0.5
    df["count"] = -np.arange(len(df))
    rows = _cells(frame_csv(df).decode("utf-8"))
    header, body = rows[0], rows[1:]
    assert all(_safe(h) for h in header[:-2]) and header[-2:] == ["negative", "count"]
    assert all(_safe(c) for row in body for c in row[:-2])
    # numbers are numbers: the negative columns read back as they were
    back = pd.read_csv(io.BytesIO(frame_csv(df)))
    assert back["negative"].tolist() == df["negative"].tolist()
    assert back["count"].tolist() == df["count"].tolist()
    # a neutralised cell keeps its text after the quote
    assert body[0][0] == "'" + df.iloc[0, 0]


@given(
    st.lists(st.text(max_size=12) | st.sampled_from(TEXTS), min_size=1, max_size=8),
    st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=8),
)
def test_no_text_cell_of_any_csv_starts_a_formula(texts, numbers):
    n = min(len(texts), len(numbers))
    df = pd.DataFrame({texts[0]: texts[:n], "x": numbers[:n]})
    df["cat"] = pd.Categorical(texts[:n])
    out = neutralise_formulas(df)
    assert all(_safe(str(c)) for c in out.columns)
    for col in (out.iloc[:, 0], out["cat"]):
        assert all(not isinstance(v, str) or _safe(v) for v in col)
    assert out["x"].tolist() == df["x"].tolist()  # numeric column untouched
    assert out["x"].dtype == df["x"].dtype


def test_an_uploaded_file_s_names_and_values_are_neutralised_in_its_csvs():
    text = '=HYPERLINK("x"),+b,-c,@d\n=1+1,-2,@SUM(A1),\t=3\n=1+1,-3,x,y\n'
    df = read_upload(text.encode(), "=evil.csv")["df"]
    rows = _cells(to_csv_text(df))
    assert all(_safe(c) for row in rows for c in row if not re.fullmatch(r"-?\d+(\.\d*)?", c))
    assert rows[1][1] in ("-2", "-2.0")  # the numeric column stays numeric


def test_compare_s_per_fold_csv_neutralises_the_uploaded_file_name():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"=x": rng.normal(size=40)})
    y = pd.Series(np.where(np.arange(40) < 12, "@minor", "major"))
    res = cross_validate_settings(
        X, y, ["shannon"], n_splits=2, n_repeats=1, seed=0, tree_params={"max_depth": 1}
    )
    res.config["data"] = "=cmd|' /C calc'!A0.csv"
    rows = _cells(res.to_csv())
    i = rows[0].index("data")
    assert rows[1][i] == "'=cmd|' /C calc'!A0.csv"
    assert all(_safe(c) or re.fullmatch(r"-[\d.e+-]+", c) for row in rows for c in row)


def test_every_csv_of_the_app_goes_through_the_one_writer():
    """No page or app module writes a CSV itself: ``DataFrame.to_csv`` appears only in the
    writer (``offcenter/data/csv_io.py``)."""
    sources = [
        *ROOT.glob("pages/*.py"),
        ROOT / "app.py",
        *(ROOT / "offcenter" / "app").rglob("*.py"),
    ]
    offenders = [
        str(p.relative_to(ROOT))
        for p in sources
        if re.search(r"\.to_csv\((?!\)\.encode)", p.read_text("utf-8"))
    ]
    # result.to_csv() (offcenter.evaluation.results) is itself the one writer's
    assert offenders == []


def test_fingerprint_tells_apart_names_that_share_their_joined_text():
    a = pd.DataFrame([[1, 2]], columns=["a,b", "c"])
    b = pd.DataFrame([[1, 2]], columns=["a", "b,c"])
    assert frame_hash(a) != frame_hash(b)
    assert frame_hash(pd.DataFrame({"a": [1]})) != frame_hash(pd.DataFrame({"a": ["1"]}))
    assert frame_hash(pd.DataFrame({"a": [1, 2], "b": [3, 4]})) != frame_hash(
        pd.DataFrame({"a": [1, 3], "b": [2, 4]})
    )
    # read from files: the collision the review found
    f1 = read_upload(b'"a,b",c,y\n1,2,u\n3,4,v\n1,2,u\n', "one.csv")
    f2 = read_upload(b'a,"b,c",y\n1,2,u\n3,4,v\n1,2,u\n', "two.csv")
    assert f1["hash"] != f2["hash"]


def test_categorical_and_string_columns_are_neutralised_and_clean_columns_kept():
    """A column with no formula cell is left as it is (no copy of its values); a string or
    categorical column with one is neutralised, the categorical through its values."""
    df = pd.DataFrame(
        {
            "clean": pd.Series(["a", "b", None], dtype="str"),
            "cat": pd.Categorical(["x", "=HYPERLINK()", "x"]),
            "unused": pd.Categorical(["x", "y", "x"], categories=["x", "y", "@z"]),
            "num": [-1.0, 2.0, np.nan],
        }
    )
    out = neutralise_formulas(df)
    assert out["clean"].equals(df["clean"])
    assert out["cat"].tolist() == ["x", "'=HYPERLINK()", "x"]
    assert out["unused"].tolist() == ["x", "y", "x"]
    assert out["num"].equals(df["num"])
    rows = _cells(to_csv_text(df))
    assert rows[1:] == [
        ["a", "x", "x", "-1.0"],
        ["b", "'=HYPERLINK()", "y", "2.0"],
        ["", "x", "x", ""],
    ]
