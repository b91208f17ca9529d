"""CSV download buttons of the pages: one table, one button.

>>> import pandas as pd
>>> df = pd.DataFrame({"p": [0.5], "shannon": [1.0]})
>>> df.attrs["labels"] = {"shannon": "Shannon"}
>>> frame_csv(df, relabel=True)
b'p,Shannon\\r\\n0.5,1.0\\r\\n'
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from offcenter.data.csv_io import to_csv_bytes


def frame_csv(frame: pd.DataFrame, *, relabel: bool = False) -> bytes:
    """The frame as UTF-8 CSV bytes without the index, by the app's one CSV writer
    (:func:`offcenter.data.csv_io.to_csv_text`: formula cells and headers neutralised, CRLF
    line ends).

    ``relabel`` renames the columns by ``frame.attrs["labels"]`` (column -> readable label, as
    the curve functions of :mod:`offcenter.measures.curves` set it); columns it does not name
    keep their name.
    """
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame: expected a pandas DataFrame, got {type(frame).__name__}")
    if relabel:
        frame = frame.rename(columns=dict(frame.attrs.get("labels", {})))
    return to_csv_bytes(frame)


@st.cache_resource(max_entries=128, show_spinner=False)
def _cached_csv(cache_key: str, file_name: str, relabel: bool, _frame) -> bytes:
    """:func:`frame_csv` of a table (or of a callable's), once per (key, file name)."""
    return frame_csv(_frame() if callable(_frame) else _frame, relabel=relabel)


def prepare_csv(
    cache_key: str,
    file_name: str,
    frame: pd.DataFrame | Callable[[], pd.DataFrame],
    *,
    relabel: bool = False,
) -> bytes:
    """The CSV that :func:`csv_button` with these ``cache_key``, ``file_name``, ``frame`` and
    ``relabel`` shows, made now (ahead of the page: a grow's background preparation) and
    kept for it."""
    return _cached_csv(cache_key, file_name, relabel, frame)


def csv_button(
    label: str,
    frame: pd.DataFrame | Callable[[], pd.DataFrame],
    file_name: str,
    key: str,
    *,
    relabel: bool = False,
    rerun: bool = False,
    container=st,
    cache_key: str | None = None,
) -> None:
    """A download button for ``frame`` as CSV (``mime="text/csv"``), robust to quick clicks.

    The CSV is made now and stored as a static file whose id is a hash of its bytes (a
    ``/media`` URL in the page), and a click does not rerun the page. Streamlit's deferred
    downloads (a callable ``data=``) get a new id on every rerun and revoke the previous one,
    so three buttons clicked 0.3 s apart, each click rerunning the page, lost the later files
    (``MediaFileStorageError: Deferred file ... not found`` in the server log, nothing on
    screen). A static file keeps its id across reruns while its bytes are the same, and
    Streamlit keeps a downloadable file for one more cleanup after its last reference, so a
    click that races a rerun still finds it.

    Parameters
    ----------
    label, file_name, key : str
        The button's label, the downloaded file's name and the widget key.
    frame : DataFrame or callable
        The table, or a callable returning it (called now).
    relabel : bool
        Rename the columns by ``frame.attrs["labels"]`` (see :func:`frame_csv`).
    rerun : bool, default False
        Whether a click reruns the page (``on_click="rerun"``); by default it does not
        (``"ignore"``): a download changes nothing on the page.
    container
        Where the button is drawn (``st``, a column, the sidebar).
    cache_key : str, optional
        What identifies the table's content (a tree and its data, a node of it): the CSV is
        then made once per key and file name, shared by reruns and sessions, instead of at
        every rerun (the frame, or the callable, is not used again while it is cached).
    """
    if cache_key is None:
        data = frame_csv(frame() if callable(frame) else frame, relabel=relabel)
    else:
        data = prepare_csv(cache_key, file_name, frame, relabel=relabel)
    container.download_button(
        label,
        data,
        file_name=file_name,
        mime="text/csv",
        key=key,
        on_click="rerun" if rerun else "ignore",
    )
