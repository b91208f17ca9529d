"""The data picker of the Tree and Compare pages: a bundled data set or an uploaded CSV, then the
target column.

Reading and checking a file is :func:`offcenter.data.csv_io.read_upload`: every bad file becomes
a :class:`~offcenter.data.csv_io.DataProblem` whose message is shown with ``st.error`` (never a
traceback), and the previous data is kept. User text (file and column names) is only shown in
widget labels, ``st.caption``/``st.warning`` of the reader's own messages, never as HTML.

Session state, for a page whose keys start with ``prefix`` (``"tr_"``, ``"cm_"``):

- ``{prefix}data``: the data set selectbox (``"upload"`` once a good file is read); the page's
  URL schema fills it before :func:`pick_data` runs;
- ``{prefix}file``: the file uploader;
- ``{prefix}upload``: ``{"name", "df", "report", "hash"}`` of the last good upload, or None;
- ``{prefix}upload_seen``: the id of the last file read (good or bad), so a file is read once;
- ``{prefix}upload_error``: the message of the last bad file, or None;
- ``{prefix}keep``: widget values that survive page switches (see :func:`keep`).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

from offcenter.data.csv_io import MAX_UPLOAD_BYTES, CsvReport, DataProblem, read_upload
from offcenter.data.datasets import DATASETS, load


@dataclass(frozen=True)
class PickedData:
    """The data the user picked.

    Attributes
    ----------
    source : str
        A bundled data set's name, or ``"upload"``.
    raw : pandas.DataFrame
        The table as read (bundled, or the uploaded file after the reader's repairs).
    data_hash : str
        Identifies the data in cache keys: the bundled name, or the upload's content hash.
    name : str
        The bundled name or the uploaded file's name.
    default_target : str
        The bundled set's class column, or the upload's last column.
    report : CsvReport or None
        What the reader found and repaired (uploads only).
    """

    source: str
    raw: pd.DataFrame
    data_hash: str
    name: str
    default_target: str
    report: CsvReport | None = None


@st.cache_data(max_entries=16, show_spinner=False)
def cached_dataset(name: str) -> pd.DataFrame:
    """A bundled data set, read once per process."""
    return load(name)


def keep(prefix: str, key: str, default) -> str:
    """A widget key whose value survives page switches.

    Streamlit forgets the state of widgets that are not drawn, so a page switch loses it: the
    value is restored from ``{prefix}keep`` (else ``default``) when the key is missing. Call
    :func:`remember` after drawing the widget.
    """
    memory = st.session_state.setdefault(prefix + "keep", {})
    if key not in st.session_state:
        st.session_state[key] = memory.get(key, default)
    return key


def remember(prefix: str, *keys: str) -> None:
    """Copy the current values of these widget keys into ``{prefix}keep``."""
    S = st.session_state
    memory = S.setdefault(prefix + "keep", {})
    S[prefix + "keep"] = {**memory, **{k: S[k] for k in keys if k in S}}


def _receive_upload(prefix: str, name: str, data: bytes) -> None:
    """Read an uploaded file; keep the previous data when it is bad (the error is shown)."""
    S = st.session_state
    try:
        upload = read_upload(data, name)
    except DataProblem as exc:
        S[prefix + "upload_error"] = str(exc)
        return
    S[prefix + "upload_error"] = None
    S[prefix + "upload"] = upload
    S[prefix + "data"] = "upload"


def _upload_box(prefix: str, detailed: bool) -> None:
    S = st.session_state
    expanded = S[prefix + "upload"] is None if detailed else False
    with st.expander("Upload your own CSV", expanded=expanded):
        label = (
            "CSV file (comma, semicolon or tab separated; UTF-8, UTF-16 or Latin-1)"
            if detailed
            else "CSV file (comma, semicolon or tab separated)"
        )
        uploaded = st.file_uploader(
            label,
            type=None,
            key=prefix + "file",
            help=f"At most {MAX_UPLOAD_BYTES // 2**20} MB. The first row holds the column names.",
        )
        if uploaded is not None:
            file_id = (getattr(uploaded, "file_id", None), uploaded.name, uploaded.size)
            if file_id != S[prefix + "upload_seen"]:
                S[prefix + "upload_seen"] = file_id
                if detailed:
                    with st.spinner("Reading the file..."):
                        _receive_upload(prefix, uploaded.name, uploaded.getvalue())
                else:
                    _receive_upload(prefix, uploaded.name, uploaded.getvalue())
        if S[prefix + "upload_error"]:
            st.error(S[prefix + "upload_error"])
            if detailed:
                st.caption("The data shown below is unchanged.")


def pick_data(prefix: str, default: str, *, detailed: bool = False) -> PickedData:
    """Draw the upload box and the data set selectbox; return the data picked.

    Parameters
    ----------
    prefix : str
        The page's session-state prefix (``"tr_"``, ``"cm_"``).
    default : str
        The bundled data set chosen when the selection is not available (a link to an upload,
        which is not shared between sessions).
    detailed : bool
        The Tree page's fuller section: the upload box stays open until a file is read, reads
        with a spinner and says the data is unchanged after a bad file; the label names the
        encodings; the reader's summary ("Read as: ...") and the bundled set's source are shown.
    """
    if default not in DATASETS:
        raise ValueError(f"default: {default!r} is not a bundled data set")
    S = st.session_state
    for name in ("upload", "upload_seen", "upload_error"):
        S.setdefault(prefix + name, None)
    _upload_box(prefix, detailed)

    upload = S[prefix + "upload"]
    options = list(DATASETS) + (["upload"] if upload is not None else [])
    if S[prefix + "data"] not in options:
        if S[prefix + "data"] == "upload":
            st.info("The link refers to an uploaded file, which is not shared: upload it again.")
        S[prefix + "data"] = default
    labels = {name: d.title for name, d in DATASETS.items()}
    if upload is not None:
        labels["upload"] = "Uploaded: " + upload["name"]
    source = st.selectbox("Data set", options, format_func=labels.get, key=prefix + "data")

    if source == "upload":
        report = upload["report"]
        if detailed:
            st.caption("Read as: " + report.summary())
        for w in report.warnings:
            st.warning(w)
        raw = upload["df"]
        return PickedData(source, raw, upload["hash"], upload["name"], raw.columns[-1], report)
    info = DATASETS[source]
    st.caption(info.description)
    if detailed:
        st.caption("Source: " + info.source)
    return PickedData(source, cached_dataset(source), source, source, info.target)


def pick_target(prefix: str, data: PickedData, columns: list, container=st) -> str:
    """The target selectbox (key ``{prefix}target_{data_hash}``), remembered across page
    switches; by default the data's class column, else the last column.

    ``container`` is where it is drawn (``st`` or a column).
    """
    if not columns:
        raise ValueError("columns: the data has no column to choose a target from")
    default = data.default_target if data.default_target in columns else columns[-1]
    key = keep(prefix, f"{prefix}target_{data.data_hash}", default)
    if st.session_state[key] not in columns:
        st.session_state[key] = default
    target = container.selectbox("Target (the class)", columns, key=key)
    remember(prefix, key)
    return target
