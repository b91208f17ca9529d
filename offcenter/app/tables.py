r"""Small tables a room can read: one helper, :func:`show_table`, for every small table of the
Tree and Compare pages.

``st.dataframe`` draws its cells on a canvas (Glide Data Grid): CSS cannot reach its text,
which stays at 14 px on a projector, and at 1400 px in presentation mode a wide table hides
columns behind a horizontal scroll and cuts long cells ("Impurity under each measure" on the
Tree page hid its values). ``st.table`` is plain HTML: its text follows the presentation
mode's type (:data:`offcenter.app.presentation.TABLE_PX`, the CSS rule for wide screens of
:func:`offcenter.app.presentation.presentation_toggle`) and its cells wrap, so every value is
shown.

The rule:

- presentation mode on (a wide screen) or a phone (a narrow screen, where a grid hid the
  values beyond its 358 px too), and at most :data:`SMALL_ROWS` rows: ``st.table`` (a table of
  more than :data:`MAX_COLUMNS` columns, :data:`NARROW_COLUMNS` on a phone, as several,
  :func:`column_groups`), its
  cells written as text (numbers in the column's ``column_config`` format, else 6 significant
  digits, :func:`offcenter.viz.format.fmt_sig`) and **every cell, header and index label
  markdown-escaped** (:func:`offcenter.viz.format.md_escape`): ``st.table`` renders
  GitHub-flavoured Markdown in cells, and column names and values come from users' CSV files;
- otherwise (normal mode on a wide screen, a large table such as a data preview): ``st.dataframe`` as
  given (sortable, searchable, its own download; it shows text as text).

Examples
--------
>>> import pandas as pd
>>> table_text(pd.DataFrame({"a <b>": [0.123456789, None], "n": [3, 4]})).to_dict("list")
{'a \\<b\\>': ['0\\.123457', ''], 'n': ['3', '4']}
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping

import numpy as np
import pandas as pd
import pyarrow as pa
import streamlit as st
from streamlit import dataframe_util

from offcenter.app.presentation import is_narrow, is_on
from offcenter.viz.format import fmt_sig, md_escape

__all__ = [
    "MAX_COLUMNS",
    "NARROW_COLUMNS",
    "SMALL_ROWS",
    "arrow_table",
    "column_groups",
    "show_table",
    "table_text",
    "uses_static_table",
]

#: Tables of at most this many rows are drawn as static tables in presentation mode; longer
#: ones (a data preview, the rows reaching a node) stay interactive grids.
SMALL_ROWS = 50
#: The most columns of one static table: at 20 px a column's longest word (``+0.0000``,
#: ``difference``) needs about 100 px, and the main column is 860 px wide at 1400 px (the
#: study's 12-column tables overflowed). A wider table is drawn as several, each repeating
#: the first column (the row's name) or the index.
MAX_COLUMNS = 9
#: The most columns of one static table on a phone (a 358 px column: a canvas grid hid the
#: values beyond its width there too).
NARROW_COLUMNS = 4


def _format_of(config: object) -> str | None:
    """The number format of a ``st.column_config`` entry (a dict), if any: printf style
    (``"%.4f"``), or Streamlit's ``"percent"`` (0.651 is written ``65.10%``, as Streamlit
    does)."""
    if not isinstance(config, Mapping):
        return None
    fmt = (config.get("type_config") or {}).get("format")
    if fmt == "percent":
        return fmt
    return fmt if isinstance(fmt, str) and "%" in fmt else None


def _label_of(config: object, column: object) -> str:
    if isinstance(config, Mapping) and isinstance(config.get("label"), str):
        return config["label"]
    if isinstance(config, str):
        return config
    return str(column)


def _cell(value: object, fmt: str | None) -> str:
    if value is None:
        return ""
    if isinstance(value, (float, np.floating)) and math.isnan(float(value)):
        return ""
    if value is pd.NA or value is pd.NaT:
        return ""
    if isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)):
        if fmt == "percent":
            return f"{float(value) * 100:.2f}%"
        if fmt is not None:
            try:
                return fmt % value
            except (TypeError, ValueError):
                pass
        if isinstance(value, (float, np.floating)):
            return fmt_sig(value)
    return str(value)


def table_text(df: pd.DataFrame, column_config: Mapping | None = None) -> pd.DataFrame:
    """The frame ``st.table`` is given: every cell, column name and index label as escaped text.

    Numbers are written in the column's ``column_config`` format (printf style, as
    ``st.column_config.NumberColumn(format="%.4f")``), else floats with 6 significant digits;
    missing values are empty; a ``column_config`` label renames its column. Then
    :func:`offcenter.viz.format.md_escape` escapes markdown, HTML and LaTeX, so that user text
    reads as typed (``<b>``, ``*``, ``$`` and ``:red[...]`` are shown, never run).
    """
    config = dict(column_config or {})
    out = pd.DataFrame(index=range(len(df)))
    names = []
    for i, column in enumerate(df.columns):
        cfg = config.get(column)
        fmt = _format_of(cfg)
        out[i] = [md_escape(_cell(v, fmt)) for v in df.iloc[:, i].tolist()]
        names.append(md_escape(_label_of(cfg, column)))
    out.columns = names
    out.index = [md_escape(v) for v in df.index]
    if df.index.name is not None:
        out.index.name = md_escape(df.index.name)
    return out


def column_groups(columns, keep_first: bool, most: int = MAX_COLUMNS) -> list[list]:
    """The columns of the static tables that show a table of ``columns``: all of them if they
    are at most ``most``, else balanced groups, each headed by the first column when
    ``keep_first`` (the row's name; False when the index is shown on every table).

    >>> column_groups(list("abcdefghijkl"), True)
    [['a', 'b', 'c', 'd', 'e', 'f', 'g'], ['a', 'h', 'i', 'j', 'k', 'l']]
    >>> column_groups(list("abc"), True)
    [['a', 'b', 'c']]
    """
    columns = list(columns)
    if len(columns) <= most:
        return [columns]
    head, rest = (columns[:1], columns[1:]) if keep_first else ([], columns)
    per = most - len(head)
    n = -(-len(rest) // per)
    size = -(-len(rest) // n)
    return [head + rest[i : i + size] for i in range(0, len(rest), size)]


def uses_static_table(df: pd.DataFrame, max_rows: int = SMALL_ROWS) -> bool:
    """Whether :func:`show_table` draws ``df`` as a static table: presentation mode applies
    (:func:`offcenter.app.presentation.is_on`) or the screen is a phone's
    (:func:`offcenter.app.presentation.is_narrow`), and ``df`` has at most ``max_rows`` rows."""
    return (is_on() or is_narrow()) and len(df) <= max_rows


#: The attribute of a read-only frame that holds its Arrow table (:func:`arrow_table`).
_ARROW_ATTR = "_offcenter_arrow"


def arrow_table(df: pd.DataFrame) -> pa.Table:
    """``df`` as the Arrow table ``st.dataframe`` sends, converted once per frame object.

    ``st.dataframe`` converts a pandas frame to Arrow at every call
    (``pyarrow.Table.from_pandas``, through Streamlit's converter, which also repairs columns
    Arrow refuses); given the Arrow table it only writes its bytes, the same bytes. A table
    drawn from a cache (a node's tables, shared by the reruns and the sessions that show the
    node) is then converted once, not at every click. ``df`` must not change after its first
    call (the tables of the caches are read-only). The table is kept on the frame object itself
    (an attribute pandas does not copy to derived frames): it lives and goes with the frame,
    and adds no object that CPython's collector tracks (an Arrow table is not one).

    >>> df = pd.DataFrame({"a": [1.5, 2.0], "b": ["x", "y"]})
    >>> arrow_table(df) is arrow_table(df), arrow_table(df).column_names
    (True, ['a', 'b'])
    """
    table = df.__dict__.get(_ARROW_ATTR)
    if table is None:
        table = dataframe_util.convert_pandas_df_to_arrow_table(df)
        object.__setattr__(df, _ARROW_ATTR, table)  # not a column: pandas' own setattr warns
    return table


def show_table(
    df: pd.DataFrame,
    *,
    hide_index: bool | None = True,
    column_config: Mapping | None = None,
    key: str | None = None,
    height: int | str | None = None,
    max_rows: int = SMALL_ROWS,
    container=None,
    read_only: bool = False,
) -> None:
    """Draw a table: a static, readable one in presentation mode, else ``st.dataframe``.

    Parameters
    ----------
    df : DataFrame
        The table (user text allowed: it is never rendered as markdown or HTML).
    hide_index : bool or None
        As ``st.dataframe`` / ``st.table`` (True: no index column).
    column_config : mapping, optional
        ``st.column_config`` entries; on the static path their printf-style number formats
        and labels are applied (:func:`table_text`).
    key, height
        ``st.dataframe``'s (the static table shows all its rows, without a key).
    max_rows : int
        The largest table drawn static (:data:`SMALL_ROWS`).
    container : optional
        Where to draw (a column, an expander); the page by default.
    read_only : bool, default False
        ``df`` never changes (a cached table): ``st.dataframe`` is given its Arrow table,
        converted once per frame (:func:`arrow_table`), the same bytes.
    """
    target = st if container is None else container
    if uses_static_table(df, max_rows):
        text = table_text(df, column_config)
        most = NARROW_COLUMNS if is_narrow() else MAX_COLUMNS
        for group in column_groups(text.columns, hide_index is not False, most):
            target.table(text[group], hide_index=hide_index, border="horizontal")
        return
    kwargs = {"hide_index": hide_index, "width": "stretch"}
    if column_config is not None:
        kwargs["column_config"] = dict(column_config)
    if key is not None:
        kwargs["key"] = key
    if height is not None:
        kwargs["height"] = height
    target.dataframe(arrow_table(df) if read_only else df, **kwargs)
