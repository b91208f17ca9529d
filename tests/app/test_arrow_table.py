"""offcenter.app.tables.arrow_table: a read-only table converted to Arrow once per frame, the
same bytes as st.dataframe's own conversion, kept on the frame itself."""

from __future__ import annotations

import gc

import numpy as np
import pandas as pd
from streamlit import dataframe_util

from offcenter.app import tables


def _frames():
    yield pd.DataFrame({"impurity": [0.5, np.nan], "measure": ["Shannon", "=cmd()"]})
    yield pd.DataFrame({"n": [1, 2, 3]}, index=["a", "b", "c"])  # an index of its own
    mixed = pd.DataFrame({"x": [1, "a", 2.5]}, dtype=object)  # Arrow refuses: repaired
    yield mixed
    yield pd.DataFrame({"class": pd.Categorical(["yes", "no"]), "ok": [True, False]})


def test_the_bytes_are_those_of_st_dataframe():
    for df in _frames():
        assert dataframe_util.convert_arrow_table_to_arrow_bytes(
            tables.arrow_table(df)
        ) == dataframe_util.convert_pandas_df_to_arrow_bytes(df)


def test_one_conversion_per_frame_object(monkeypatch):
    calls = []
    convert = dataframe_util.convert_pandas_df_to_arrow_table

    def counting(df, **kwargs):
        calls.append(id(df))
        return convert(df, **kwargs)

    monkeypatch.setattr(dataframe_util, "convert_pandas_df_to_arrow_table", counting)
    df = pd.DataFrame({"a": [1.0, 2.0]})
    first = tables.arrow_table(df)
    assert tables.arrow_table(df) is first and len(calls) == 1
    equal = df.copy()  # another object, even equal, is converted
    tables.arrow_table(equal)
    assert len(calls) == 2


def test_kept_on_the_frame_only():
    df = pd.DataFrame({"a": [1.0]})
    table = tables.arrow_table(df)
    assert not gc.is_tracked(table)  # nothing more for CPython's full collections to scan
    assert df.copy().__dict__.get(tables._ARROW_ATTR) is None  # a derived frame converts anew
    assert list(df.columns) == ["a"] and df.attrs == {}
