"""CSV download buttons of the pages: one table, one button.

>>> import pandas as pd
>>> df = pd.DataFrame({"p": [0.5], "shannon": [1.0]})
>>> df.attrs["labels"] = {"shannon": "Shannon"}
>>> frame_csv(df, relabel=True)
b'p,Shannon\\n0.5,1.0\\n'
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from offcenter.data.csv_io import to_csv_bytes


def frame_csv(frame: pd.DataFrame, *, relabel: bool = False) -> bytes:
    """The frame as UTF-8 CSV bytes without the index.

    ``relabel`` renames the columns by ``frame.attrs["labels"]`` (column -> readable label, as
    the curve functions of :mod:`offcenter.measures.curves` set it); columns it does not name
    keep their name.
    """
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame: expected a pandas DataFrame, got {type(frame).__name__}")
    if relabel:
        frame = frame.rename(columns=dict(frame.attrs.get("labels", {})))
    return to_csv_bytes(frame)


def csv_button(
    label: str,
    frame: pd.DataFrame | Callable[[], pd.DataFrame],
    file_name: str,
    key: str,
    *,
    relabel: bool = False,
    rerun: bool = True,
    lazy: bool = True,
    container=st,
) -> None:
    """A download button for ``frame`` as CSV (``mime="text/csv"``).

    Parameters
    ----------
    label, file_name, key : str
        The button's label, the downloaded file's name and the widget key.
    frame : DataFrame or callable
        The table, or a callable returning it.
    lazy : bool
        Make the CSV only when the file is downloaded (Streamlit's deferred download, a
        callable ``data``), not on every rerun: a CSV is rarely wanted, a rerun is frequent
        (a slider move). False builds the bytes now (a ``/media`` URL in the page).
    relabel : bool
        Rename the columns by ``frame.attrs["labels"]`` (see :func:`frame_csv`).
    rerun : bool
        Whether a click reruns the page (Streamlit's default); False for ``on_click="ignore"``.
    container
        Where the button is drawn (``st``, a column, the sidebar).
    """
    if callable(frame):
        data = lambda: frame_csv(frame(), relabel=relabel)  # noqa: E731 - deferred CSV
    elif lazy:
        frame_csv(frame.iloc[:0], relabel=relabel)  # a bad argument fails here, not on click
        data = lambda: frame_csv(frame, relabel=relabel)  # noqa: E731 - deferred CSV
    else:
        data = frame_csv(frame, relabel=relabel)
    container.download_button(
        label,
        data,
        file_name=file_name,
        mime="text/csv",
        key=key,
        on_click="rerun" if rerun else "ignore",
    )
