"""The Tree page's "trace a row" section: by row number, or typed in by its values.

The values form has one input per feature: a number input for a numeric feature (the
column's median by default; an empty box is a missing value) and a selectbox for a
categorical one (its categories seen at fit time, the most frequent first chosen, and
"(missing)"). Every tree routes missing values (offcenter.tree.trace), so "missing" is always
offered. The checking and the path are :func:`offcenter.tree.trace.trace_values`; a value the
column cannot take is shown with ``st.error``.

The section is an expander whose content is drawn only while it is open (``tr_trace_open``):
its form has one input per feature (20 on German credit), which every full run of the page (a
grow, a new data set) would otherwise draw again for nobody. Closed, no path is drawn on the
tree; the row number and the values last traced are kept and come back when it is opened again.

Session state (page prefix ``tr_``): ``tr_trace_open`` (the expander), ``tr_trace_row`` (row
number input) and ``tr_trace_row_kept`` (its value, kept while the input is not drawn),
``tr_trace_form`` (the form), ``tr_tv_{sig}_{j}`` (the inputs), ``tr_trace_values`` ({"sig",
"values"}: the last values submitted, traced again on every rerun so that edits of the tree are
followed, and the form's values when it is drawn again), ``tr_trace_mode`` ("row" or "values":
the trace drawn in the figure).
"""

from __future__ import annotations

import hashlib

import pandas as pd
import streamlit as st

from offcenter.app.tables import show_table
from offcenter.tree.trace import MISSING, RowTrace, trace_frame_row, trace_values
from offcenter.viz.format import md_escape


def _signature(clf, X: pd.DataFrame) -> str:
    names = [f.name for f in clf.features_]
    return hashlib.sha1(repr((names, len(X), X.shape)).encode()).hexdigest()[:10]


def _defaults(clf, X: pd.DataFrame) -> list:
    """Per feature: the median of a numeric column, the most frequent category otherwise.

    A median is rounded to 12 significant digits: the mean of 0.365 and 0.3655 is
    0.36524999999999996 in binary floating point, and the box shows what it is given.

    >>> from offcenter.tree import TreeClassifier
    >>> X = pd.DataFrame({"x": [0.365, 0.3655, 0.1, 0.9]})
    >>> _defaults(TreeClassifier().fit(X, [0, 0, 1, 1]), X)
    [0.36525]
    """
    out = []
    for info in clf.features_:
        col = X[info.name] if info.name in X.columns else pd.Series(dtype=object)
        if info.kind == "numeric":
            med = pd.to_numeric(col, errors="coerce").median()
            out.append(None if pd.isna(med) else float(f"{float(med):.12g}"))
        else:
            mode = col.dropna().mode()
            out.append(mode.iloc[0] if len(mode) else None)
    return out


def _show(trace: RowTrace) -> None:
    st.text("Path: " + trace.text())
    show_table(trace.steps.astype({"test": str, "value": str, "branch": str}))
    shares = pd.DataFrame(
        {"class": [str(c) for c in trace.shares.index], "share": trace.shares.to_numpy()}
    )
    st.text(f"Leaf {trace.leaf}: class shares of its training rows; predicted {trace.prediction}")
    show_table(shares, column_config={"share": st.column_config.NumberColumn(format="percent")})


def _by_row(clf, X: pd.DataFrame, y: pd.Series) -> RowTrace | None:
    S = st.session_state
    kept = S.get("tr_trace_row_kept")
    row_pos = st.number_input(
        f"Row number (0 to {len(X) - 1}) of the data used",
        0,
        max(len(X) - 1, 0),
        value=kept if isinstance(kept, int) and 0 <= kept < len(X) else None,
        key="tr_trace_row",
        placeholder="type a row number",
        on_change=lambda: S.__setitem__("tr_trace_mode", "row"),
    )
    S["tr_trace_row_kept"] = None if row_pos is None else int(row_pos)
    if row_pos is None:
        return None
    st.dataframe(
        X.iloc[[int(row_pos)]].assign(**{"(target)": y.iloc[int(row_pos)]}), width="stretch"
    )
    trace = trace_frame_row(clf, X.iloc[[int(row_pos)]])
    _show(trace)
    return trace


def _by_values(clf, X: pd.DataFrame) -> RowTrace | None:
    S = st.session_state
    sig = _signature(clf, X)
    defaults = _defaults(clf, X)
    saved = S.get("tr_trace_values")
    if saved and saved["sig"] == sig:  # the values last traced, when the form comes back
        defaults = [saved["values"].get(f.name, d) for f, d in zip(clf.features_, defaults)]
    st.caption(
        "One value per feature: numbers start at the column's median (empty the box for a "
        "missing value); categories offer the values seen in the data and “(missing)”."
    )
    with st.form("tr_trace_form", border=False):
        cols = st.columns(3)
        typed = {}
        for j, (info, default) in enumerate(zip(clf.features_, defaults)):
            box = cols[j % 3]
            key = f"tr_tv_{sig}_{j}"
            if info.kind == "numeric":
                typed[info.name] = box.number_input(
                    md_escape(info.name),  # a column name: read as typed, never markdown
                    value=default,
                    format="%g",
                    step=None,
                    key=key,
                    placeholder="missing",
                )
            else:
                options = [c for c in info.categories if c is not None] + [MISSING]
                index = options.index(default) if default in options else 0
                typed[info.name] = box.selectbox(
                    md_escape(info.name), options, index=index, key=key, format_func=str
                )
        submitted = st.form_submit_button("Trace this row")
    if submitted:
        try:
            trace_values(clf, typed)
        except (ValueError, TypeError) as exc:
            st.error(md_escape(f"This row cannot be traced: {exc}"))
            return None
        S["tr_trace_values"] = {"sig": sig, "values": typed}
        S["tr_trace_mode"] = "values"
    saved = S.get("tr_trace_values")
    if not saved or saved["sig"] != sig:
        return None
    try:
        trace = trace_values(clf, saved["values"])
    except (ValueError, TypeError):
        return None
    _show(trace)
    return trace


def trace_section(clf, X: pd.DataFrame, y: pd.Series) -> list[int]:
    """The expander "Trace a row through the tree" with, while it is open, the two ways of
    tracing a row (tabs); return the path to highlight in the figure (the last one used; empty
    when none, or when the expander is closed)."""
    S = st.session_state
    box = st.expander(
        "Trace a row through the tree",
        key="tr_trace_open",
        on_change="rerun",  # drawn only when open: one input per feature
    )
    if not box.open:
        return []
    with box:
        by_values, by_row = st.tabs(["Type a row's values", "Pick a row by number"])
        with by_values:
            t_values = _by_values(clf, X)
        with by_row:
            t_row = _by_row(clf, X, y)
    mode = S.get("tr_trace_mode", "row")
    chosen = t_values if mode == "values" else t_row
    chosen = chosen or t_row or t_values
    return list(chosen.path) if chosen is not None else []


__all__ = ["trace_section"]
