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
    rerun: bool = False,
    container=st,
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
    """
    table = frame() if callable(frame) else frame
    container.download_button(
        label,
        frame_csv(table, relabel=relabel),
        file_name=file_name,
        mime="text/csv",
        key=key,
        on_click="rerun" if rerun else "ignore",
    )
