"""The data picker of the Tree and Compare pages: a bundled data set or an uploaded CSV, then the
target column.

Reading and checking a file is :func:`offcenter.data.csv_io.read_upload`: every bad file becomes
a :class:`~offcenter.data.csv_io.DataProblem` whose message is shown with ``st.error`` (never a
traceback), and the previous data is kept. User text (file and column names) is only shown in
widget options, ``st.text``, and the reader's own messages passed through
:func:`offcenter.viz.format.md_escape` before ``st.warning``/``st.error`` render them (a column
named ``[log in](https://...)`` reads as typed, never as a link), never as HTML.

Refused, with the previous data and tree kept:

- a file the reader cannot use (binary, undecodable, ragged, empty, one column, ...);
- a file over :data:`~offcenter.data.csv_io.MAX_UPLOAD_BYTES` (50 MB): the uploader's own
  ``max_upload_size`` (:data:`UPLOAD_LIMIT_MB`) says the limit once ("Limit 50MB per file")
  and refuses the file in the browser; the reader checks the size again;
- a file whose last column (the default class) cannot be a class (a single value, or more than
  :data:`~offcenter.data.csv_io.MAX_CLASSES` = 50 different values): the file is held aside and
  the user may load it with another class column (:func:`~offcenter.data.csv_io.target_columns`);
- a target chosen in the selectbox that cannot be a class: the previous target stays.

Shared by the two pages (one session, keys without a page prefix):

- ``data_upload``: ``{"name", "df", "report", "hash", "target"}`` of the last good upload, or
  None: an upload on one page is offered on the other;
- ``data_choice``: ``{"source", "version"}``, the data set last chosen on either page; a page
  whose ``{prefix}data_version`` is older adopts it when it opens.

Per page, for keys starting with ``prefix`` (``"tr_"``, ``"cm_"``):

- ``{prefix}data``: the data set selectbox (``"upload"`` once a good file is read); the page's
  URL schema fills it before :func:`pick_data` runs;
- ``{prefix}file`` (then ``{prefix}file_<k>``, :func:`upload_key`): the file uploader; a
  refused file is cleared from it (``{prefix}file_gen`` counts the refusals);
- ``{prefix}upload_seen``: the id of the last file read (good or bad), so a file is read once;
  written last, once the file's state is (a run stopped by a rerun request while it read the
  file leaves it unset, and the next run reads the file again);
- ``{prefix}upload_error``: the message of the last bad file, or None;
- ``{prefix}upload_busy``: the worker pool's message when a large file could not be read yet
  (:mod:`offcenter.app.heavy_work`: the pool is full, or the session's previous job still
  runs), or None; the file stays in the uploader and is read at the next run;
- ``{prefix}pending``: a readable file refused for its class column, with the columns that
  could be the class, or None;
- ``{prefix}target_error``: the message of a refused target choice (shown once);
- ``{prefix}keep``: widget values that survive page switches (see :func:`keep`).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

from offcenter.app import heavy_work
from offcenter.data import csv_io
from offcenter.data.csv_io import (
    CsvReport,
    DataProblem,
    check_target,
    read_upload,
    target_columns,
)
from offcenter.data.datasets import DATASETS, load
from offcenter.viz.format import md_escape

#: The upload widget's own limit (MB), the one the user reads ("Limit 50MB per file"); the
#: reader checks :data:`~offcenter.data.csv_io.MAX_UPLOAD_BYTES` (the same 50 MB) again.
UPLOAD_LIMIT_MB = int(csv_io.MAX_UPLOAD_BYTES // 1_000_000)


#: Streamlit refuses a file over the widget's limit in the browser and writes why in a
#: visually hidden alert (shown on hover only): these rules show it under the file's chip.
CHIP_ERROR_CSS = """<style>
[data-testid="stFileChip"] [role="alert"] {
  position: static !important; width: auto !important; height: auto !important;
  clip: auto !important; clip-path: none !important; overflow: visible !important;
  margin: 0 0 0 0.5rem !important; white-space: normal !important;
  color: #b00020; font-size: 0.85rem;
}
</style>"""


def upload_key(prefix: str) -> str:
    """The file uploader's current key: ``{prefix}file``, then ``{prefix}file_<k>`` after the
    k-th refused file (a new, empty widget: the refused file's chip is gone)."""
    gen = int(st.session_state.get(prefix + "file_gen", 0))
    return prefix + "file" if gen == 0 else f"{prefix}file_{gen}"


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


SHARED_UPLOAD = "data_upload"
SHARED_CHOICE = "data_choice"


def _accept(prefix: str, upload: dict, target) -> None:
    S = st.session_state
    S[SHARED_UPLOAD] = {**upload, "target": target}
    S[prefix + "data"] = "upload"
    S[prefix + "upload_error"] = None
    S[prefix + "pending"] = None


def _receive_upload(prefix: str, name: str, data: bytes) -> bool:
    """Read an uploaded file; keep the previous data when it is bad (the error is shown).

    A readable file whose last column cannot be the class is held in ``{prefix}pending``
    (refused for now, with the columns that could be the class). Returns False when the file
    was not read (the worker pool refused it for now: it stays in the box, read at a retry).
    """
    S = st.session_state
    S[prefix + "pending"] = None
    S[prefix + "upload_busy"] = None
    try:
        if heavy_work.is_heavy_bytes(len(data)):  # a large file is read in the worker pool
            upload = heavy_work.run(read_upload, data, name)
        else:
            upload = read_upload(data, name)
    except heavy_work.Refused as exc:  # not read: the file stays in the box, read at a retry
        S[prefix + "upload_error"] = None
        S[prefix + "upload_busy"] = exc.message
        return False
    except DataProblem as exc:
        S[prefix + "upload_error"] = f"The file was not loaded: {exc}"
        return True
    df = upload["df"]
    last = df.columns[-1]
    try:
        check_target(df, last)
    except DataProblem as exc:
        usable = [c for c in target_columns(df) if c != last]
        S[prefix + "upload_error"] = (
            "The file was not loaded: its last column is the class by default, but it cannot "
            f"be one. {exc}"
            + (
                " Choose another class column for it just below."
                if usable
                else " No column of the file can be a class (2 to 50 different values)."
            )
        )
        if usable:
            S[prefix + "pending"] = {"upload": upload, "columns": usable}
        return True
    _accept(prefix, upload, last)
    return True


def _load_pending(prefix: str) -> None:
    """on_click of the pending file's button: load it with the class column chosen (in a
    callback, so that the run that follows draws neither the message nor the picker)."""
    S = st.session_state
    pending = S[prefix + "pending"]
    if pending is not None:
        _accept(prefix, pending["upload"], S[prefix + "pending_target"])


def _pending_box(prefix: str, container) -> None:
    """Offer to load a file refused for its last column with another class column, in
    ``container`` (beside the refusal's message)."""
    columns = st.session_state[prefix + "pending"]["columns"]
    p1, p2 = container.columns([2, 1], vertical_alignment="bottom")
    p1.selectbox(
        "Class column for this file", columns, key=prefix + "pending_target", format_func=str
    )
    p2.button(
        "Load the file with this class column",
        key=prefix + "pending_use",
        on_click=_load_pending,
        args=(prefix,),
    )


def _upload_box(prefix: str, detailed: bool) -> None:
    S = st.session_state
    expanded = (S[SHARED_UPLOAD] is None or bool(S[prefix + "upload_error"])) if detailed else False
    with st.expander("Upload your own CSV", expanded=expanded):
        mb = f"{csv_io.MAX_UPLOAD_BYTES / 1e6:.4g} MB"
        # the limit is said once, by the widget itself ("Limit 50MB per file"), and enforced
        # by it (max_upload_size); the size check below stays for a file sent past it
        label = (
            "CSV file (comma, semicolon or tab separated; UTF-8, UTF-16 or Latin-1)"
            if detailed
            else "CSV file (comma, semicolon or tab separated)"
        )
        # a refused file's chip is cleared by drawing a new, empty uploader (a file uploader's
        # value cannot be set): its key carries a generation counted up at each refusal
        gen = int(S.get(prefix + "file_gen", 0))
        st.html(CHIP_ERROR_CSS)
        uploaded = st.file_uploader(
            label,
            type=None,
            key=upload_key(prefix),
            max_upload_size=UPLOAD_LIMIT_MB,
            help="The first row holds the column names; the last column is the class by default.",
        )
        if uploaded is not None:
            file_id = (getattr(uploaded, "file_id", None), uploaded.name, uploaded.size)
            if file_id != S[prefix + "upload_seen"]:
                read = True
                if uploaded.size > csv_io.MAX_UPLOAD_BYTES:  # refused before reading it
                    S[prefix + "pending"] = None
                    S[prefix + "upload_error"] = (
                        f"The file was not loaded: it is too large ({uploaded.size / 1e6:.1f}"
                        f" MB; the limit is {mb}). Upload a sample of the rows."
                    )
                elif detailed:
                    with st.spinner("Reading the file..."):
                        read = _receive_upload(prefix, uploaded.name, uploaded.getvalue())
                else:
                    read = _receive_upload(prefix, uploaded.name, uploaded.getvalue())
                refused = S[prefix + "upload_error"] and S[prefix + "pending"] is None
                if refused:
                    S[prefix + "file_gen"] = gen + 1  # the refused file leaves the uploader
                # Last: the file counts as read only once all its state is written. A rerun
                # asked for while it was read (a click, the window's width reported) stops
                # this run at its next Streamlit call, session-state writes included; the
                # run that follows, with the same file in the uploader, reads it again.
                S[prefix + "upload_seen"] = file_id if read else None
                if refused:
                    st.rerun()
    if S.get(prefix + "upload_busy"):
        st.warning(S[prefix + "upload_busy"] + " The file stays in the upload box.")
        st.button("Read the file again", key=prefix + "upload_retry")
    # outside the expander, so that a collapsed box never hides it; a file refused for its
    # class column has its picker right under the message (gone once the file is loaded)
    if S[prefix + "upload_error"]:
        box = st.container(border=S[prefix + "pending"] is not None)
        box.error(md_escape(S[prefix + "upload_error"]))
        if S[prefix + "pending"] is not None:
            _pending_box(prefix, box)
        box.caption("The data shown below is unchanged.")


def show_reading(report: CsvReport) -> None:
    """What reading an uploaded file did (:meth:`~offcenter.data.csv_io.CsvReport.reading_notes`:
    the missing cells per column, the markers read as missing, the decimal separator), one
    escaped line each: the notes quote column names and cells, shown as typed."""
    st.caption("\n".join(f"- {md_escape(n)}" for n in report.reading_notes()))


def pick_data(prefix: str, default: str, *, detailed: bool = False) -> PickedData:
    """Draw the upload box and the data set selectbox; return the data picked.

    The choice (and the upload) is shared with the other page of the session: a page opens on
    the data set last chosen or uploaded on either page.

    Parameters
    ----------
    prefix : str
        The page's session-state prefix (``"tr_"``, ``"cm_"``).
    default : str
        The bundled data set chosen when the selection is not available (a link to an upload,
        which is not shared between sessions).
    detailed : bool
        The Tree page's fuller section: the upload box stays open until a file is read, reads
        with a spinner; the label names the encodings; the reader's summary ("Read as: ...")
        and the bundled set's source are shown.
    """
    if default not in DATASETS:
        raise ValueError(f"default: {default!r} is not a bundled data set")
    S = st.session_state
    for name in ("upload_seen", "upload_error", "pending"):
        S.setdefault(prefix + name, None)
    S.setdefault(SHARED_UPLOAD, None)
    shared = S.setdefault(SHARED_CHOICE, None)
    if shared is not None and shared["version"] != S.get(prefix + "data_version"):
        S[prefix + "data"] = shared["source"]  # chosen on the other page since this one ran
        S[prefix + "data_version"] = shared["version"]
    _upload_box(prefix, detailed)

    upload = S[SHARED_UPLOAD]
    options = list(DATASETS) + (["upload"] if upload is not None else [])
    if S[prefix + "data"] not in options:
        if S[prefix + "data"] == "upload":
            st.info(
                "This link refers to an uploaded file, which a link cannot carry: upload it "
                "again (the bundled data set is shown meanwhile)."
            )
        S[prefix + "data"] = default
    labels = {name: d.title for name, d in DATASETS.items()}
    if upload is not None:
        labels["upload"] = "Uploaded: " + upload["name"]
    source = st.selectbox("Data set", options, format_func=labels.get, key=prefix + "data")
    shared = S[SHARED_CHOICE]
    if shared is None or shared["source"] != source:
        version = (shared["version"] if shared else 0) + 1
        S[SHARED_CHOICE] = {"source": source, "version": version}
        S[prefix + "data_version"] = version

    if source == "upload":
        report = upload["report"]
        if detailed:
            st.caption("Read as: " + md_escape(report.summary()))
        show_reading(report)
        for w in report.warnings:
            st.warning(md_escape(w))
        raw = upload["df"]
        target = upload.get("target", raw.columns[-1])
        return PickedData(source, raw, upload["hash"], upload["name"], target, report)
    info = DATASETS[source]
    st.caption(info.description)
    if detailed:
        st.caption("Source: " + info.source)
    return PickedData(source, cached_dataset(source), source, source, info.target)


def _check_target_choice(prefix: str, key: str, raw: pd.DataFrame, default) -> None:
    """on_change of the target selectbox: refuse a column that cannot be a class (the previous
    target is put back and the reason shown)."""
    S = st.session_state
    previous = S.get(prefix + "keep", {}).get(key, default)
    try:
        check_target(raw, S[key])
    except DataProblem as exc:
        S[prefix + "target_error"] = f"{exc} The previous target, {previous!s}, is kept."
        S[key] = previous


def pick_target(prefix: str, data: PickedData, columns: list, container=st) -> str:
    """The target selectbox (key ``{prefix}target_{data_hash}``), remembered across page
    switches; by default the data's class column, else the last column.

    A column that cannot be a class (a single value, more than ``MAX_CLASSES`` values) is
    refused when chosen: the previous target stays and ``st.error`` says why.
    ``container`` is where it is drawn (``st`` or a column).
    """
    if not columns:
        raise ValueError("columns: the data has no column to choose a target from")
    default = data.default_target if data.default_target in columns else columns[-1]
    key = keep(prefix, f"{prefix}target_{data.data_hash}", default)
    if st.session_state[key] not in columns:
        st.session_state[key] = default
    target = container.selectbox(
        "Target (the class)",
        columns,
        key=key,
        on_change=_check_target_choice,
        args=(prefix, key, data.raw, default),
    )
    error = st.session_state.pop(prefix + "target_error", None)
    if error:
        container.error(md_escape(error))
    remember(prefix, key)
    return target
