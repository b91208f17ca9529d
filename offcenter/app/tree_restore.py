"""The Tree page's glue for restoring a shared tree from a link or a session file.

The link carries, beyond the page's widget settings, the fields :data:`LINK_FIELDS` (target,
features, type overrides, sample box, hand edits, and for an uploaded file its fingerprint
and name); the session file carries the same as JSON (:mod:`offcenter.app.tree_link`).
Opening either replays the edits on the tree grown from the same data and settings, so the
edited tree is restored exactly, or says plainly what it cannot restore: an uploaded data set
(a link cannot carry the file: "upload it again"; a different file is named as such), a
target or feature the data does not have, an edit that no longer applies (named in a
warning, never silently dropped).

The page calls, in order: :func:`start` (after reading its URL), :func:`prepare` (after the
data picker), :func:`publish` (before writing its URL), :func:`restore_tree` (before its
grow block), :func:`publish_edits` (after it) and :func:`session_box` (in its export section).

Session state (page prefix ``tr_``): ``tr_restore`` (the pending :class:`Restore`),
``tr_link_read`` (the link was read once), ``tr_file_restore`` (a session file read, applied
at the top of the next run), ``tr_session_seen``, ``tr_session_json`` (the session file's text),
and the link fields ``tr_target``, ``tr_features``, ... (:data:`LINK_FIELDS`).
"""

from __future__ import annotations

import streamlit as st

from offcenter.app import heavy_work, urlstate
from offcenter.app.data_picker import remember
from offcenter.app.tree_link import (
    Restore,
    decode_edits,
    decode_names,
    encode_edits,
    encode_names,
    replay,
    session_from_json,
    session_to_json,
)
from offcenter.app.tree_session import Grow, TreeSession
from offcenter.data.csv_io import infer_kinds
from offcenter.data.datasets import DATASETS
from offcenter.viz.format import md_escape

__all__ = [
    "LINK_FIELDS",
    "start",
    "prepare",
    "publish",
    "restore_tree",
    "publish_edits",
    "session_box",
]

_NAMES = ("target", "features", "ascat", "asnum", "sample", "edits", "upload", "upload_name")
#: The URL fields the page adds to its schema (all text, empty by default).
LINK_FIELDS = tuple(urlstate.Field(n, "str", "") for n in _NAMES)


def _restore_from_link(prefix: str) -> Restore | None:
    S = st.session_state
    v = {n: str(S.get(prefix + n, "") or "") for n in _NAMES}
    edits, warnings = decode_edits(v["edits"])
    r = Restore(
        origin="link",
        data=str(S.get(prefix + "data", "")),
        fingerprint=v["upload"],
        file_name=v["upload_name"],
        target=v["target"] or None,
        features=decode_names(v["features"]) if v["features"] else None,
        as_categorical=decode_names(v["ascat"]),
        as_numeric=decode_names(v["asnum"]),
        sample={"1": True, "0": False}.get(v["sample"]),
        edits=edits,
        warnings=[f"Link parameter fixed: {w}" for w in warnings],
    )
    return None if r.empty else r


def start(schema: urlstate.Schema, prefix: str) -> list[str]:
    """At the top of the page, after ``urlstate.sync_in``: read the link's extra fields once
    per session, or apply a session file read at the previous run (its page settings go into
    the widgets). Returns warnings to show."""
    S = st.session_state
    warnings: list[str] = []
    if not S.get(prefix + "link_read"):
        S[prefix + "link_read"] = True
        r = _restore_from_link(prefix)
        if r is not None:
            S[prefix + "restore"] = r
    r = S.pop(prefix + "file_restore", None)
    if r is not None:
        own = urlstate.Schema([f for f in schema if f.name not in _NAMES])
        values, fixed = own.decode(r.page)
        warnings += [f"Session file setting fixed: {w}" for w in fixed]
        for f in own:
            if f.name != "data":
                value = values[f.name]
                S[prefix + f.name] = list(value) if f.kind in ("floats", "strs") else value
        if r.data in DATASETS or r.data == "upload":
            S[prefix + "data"] = r.data
        else:
            warnings.append(f"The session file's data set {r.data!r} is not one of this page's.")
        S[prefix + "restore"] = r
    return warnings


def _warn(text: str) -> None:
    """A warning naming a link's or a file's values: shown as plain text (never markdown)."""
    st.warning(md_escape(text))


def _seed(prefix: str, key: str, value) -> None:
    """Set a widget's value before it is drawn, and in the page's memory of kept values."""
    S = st.session_state
    S[key] = value
    remember(prefix, key)


def prepare(prefix: str, picked) -> None:
    """After the data picker: when a pending restore is for the data picked, set the target,
    features, type overrides and sample box it names (before their widgets are drawn).

    A restore for an uploaded file waits, with a warning, until that file is uploaded again;
    another file (a different fingerprint) drops it, saying so.
    """
    S = st.session_state
    r: Restore | None = S.get(prefix + "restore")
    if r is None or r.seeded:
        return
    n_edits = f" and {len(r.edits)} hand edit(s)" if r.edits else ""
    if r.data == "upload":
        name = f" “{r.file_name}”" if r.file_name else ""
        fp = f" (fingerprint {r.fingerprint[:8]})" if r.fingerprint else ""
        if picked.source != "upload":
            _warn(
                f"This {r.origin} refers to an uploaded file{name}{fp} with its target, "
                f"features{n_edits}; a {r.origin} cannot carry the file itself: upload it again "
                "to restore the tree."
            )
            return
        if r.fingerprint and picked.data_hash != r.fingerprint:
            _warn(
                f"The uploaded file is not the one this {r.origin} refers to{name}{fp}: its "
                f"content differs, so the {r.origin}'s target, features{n_edits} are not applied."
            )
            S.pop(prefix + "restore", None)
            return
    elif picked.source != r.data:
        S.pop(prefix + "restore", None)
        return
    for w in urlstate.for_display(r.warnings, lead=""):
        st.warning(w)
    raw, h = picked.raw, picked.data_hash
    columns = [str(c) for c in raw.columns]
    problems = []
    kinds = infer_kinds(raw)
    ascat = [c for c in r.as_categorical if kinds.get(c) == "numeric"]
    asnum = [c for c in r.as_numeric if kinds.get(c) == "categorical"]
    problems += [c for c in r.as_categorical + r.as_numeric if c not in ascat + asnum]
    _seed(prefix, f"{prefix}ascat_{h}", ascat)
    _seed(prefix, f"{prefix}asnum_{h}", asnum)
    target = r.target if r.target is not None else picked.default_target
    if target not in columns:
        _warn(
            f"The {r.origin}'s target {target!r} is not a column of this data; "
            "the default target is used and its edits are not replayed."
        )
        r.edits = []
        target = picked.default_target
    else:
        _seed(prefix, f"{prefix}target_{h}", target)
    if r.features is not None:
        feats = [f for f in r.features if f in columns and f != target]
        problems += [f for f in r.features if f not in feats]
        _seed(prefix, f"{prefix}features_{h}_{target}", feats)
    if r.sample is not None:
        _seed(prefix, f"{prefix}sample_{h}", bool(r.sample))
    if problems:
        _warn(
            f"The {r.origin} names column(s) this data does not have (or not of that type): "
            + ", ".join(repr(p) for p in problems)
            + "; they are left out."
        )
    r.seeded = True


def publish(
    prefix: str,
    picked,
    *,
    target,
    features: list,
    default_features: list,
    as_categorical: list,
    as_numeric: list,
    sample: bool | None,
) -> None:
    """Put the data choices the widgets do not carry into the link fields (before the page
    writes its URL). Nothing is written while a restore waits for its uploaded file."""
    S = st.session_state
    r = S.get(prefix + "restore")
    if r is not None and not r.seeded:
        return
    upload = picked.source == "upload"
    # an upload's default target is its last column when it is opened again from a link
    default_target = picked.raw.columns[-1] if upload else picked.default_target
    S[prefix + "target"] = "" if target == default_target else str(target)
    S[prefix + "features"] = (
        "" if list(features) == list(default_features) else encode_names(features)
    )
    S[prefix + "ascat"] = encode_names(as_categorical)
    S[prefix + "asnum"] = encode_names(as_numeric)
    S[prefix + "sample"] = "" if sample is None or sample else "0"
    S[prefix + "upload"] = picked.data_hash if upload else ""
    S[prefix + "upload_name"] = picked.name if upload else ""


def restore_tree(prefix: str, tree_state: TreeSession, record: Grow, grow_fn) -> None:
    """Before the page's grow block: replay a pending restore's edits on the tree grown from
    ``record`` (``grow_fn()`` grows it when the session's tree is another one). Edits that no
    longer apply are named in a warning."""
    S = st.session_state
    r: Restore | None = S.get(prefix + "restore")
    if r is None or not r.seeded:
        return
    if tree_state.grown == record:
        base = tree_state.steps[0].tree
    else:
        try:
            base = grow_fn()
        except heavy_work.Refused as exc:  # kept: the next run tries again
            st.warning(exc.message)
            return
        except (ValueError, TypeError) as exc:
            S.pop(prefix + "restore", None)
            st.error(md_escape(f"The {r.origin}'s tree could not be grown: {exc}"))
            return
    S.pop(prefix + "restore", None)
    tree_state.start(record, base)
    if not r.edits:
        return
    _, applied, trees, warnings = replay(base, r.edits)
    for e, t in zip(applied, trees):
        tree_state.apply(e, t)
    for w in urlstate.for_display(warnings, lead=""):
        st.warning(w)
    st.success(
        f"The {r.origin}'s tree is restored: {len(applied)} of {len(r.edits)} hand edit(s) "
        "replayed."
    )


def publish_edits(
    schema: urlstate.Schema, prefix: str, tree_state: TreeSession, record: Grow
) -> None:
    """After the page's grow block: the hand edits into the link (only when the tree shown
    was grown with the current data and settings), then write the URL."""
    S = st.session_state
    r = S.get(prefix + "restore")
    if r is not None and not r.seeded:
        return
    S[prefix + "edits"] = encode_edits(tree_state.edits) if tree_state.grown == record else ""
    S[prefix + "saved"] = urlstate.current_values(schema, S, prefix)
    urlstate.sync_out(schema, S, st.query_params, prefix)


def session_box(
    schema: urlstate.Schema,
    prefix: str,
    picked,
    tree_state: TreeSession,
    *,
    target,
    features: list,
    as_categorical: list,
    as_numeric: list,
    sample: bool | None,
    setting_key: str,
    tree_params: dict,
    file_name: str = "tree_session.json",
    container=st,
) -> None:
    """Download the session as a file (``file_name``: the page names the data set and the
    setting in it); open one (applied at the next run)."""
    S = st.session_state
    own = urlstate.Schema([f for f in schema if f.name not in _NAMES])
    page = own.encode(urlstate.current_values(own, S, prefix), skip_defaults=False)
    text = session_to_json(
        data=picked.source,
        file_name=picked.name if picked.source == "upload" else "",
        fingerprint=picked.data_hash if picked.source == "upload" else "",
        target=target,
        features=features,
        as_categorical=as_categorical,
        as_numeric=as_numeric,
        sample=sample,
        edits=tree_state.edits,
        page=page,
        setting=setting_key,
        tree_params=tree_params,
    )
    S[prefix + "session_json"] = text
    container.download_button(
        "Download the session (JSON)",
        text,
        file_name=file_name,
        mime="application/json",
        on_click="ignore",
        key=prefix + "dl_session",
        help="The data set's name (or the uploaded file's name and fingerprint, not the file), "
        "target, features, settings and hand edits. Open it below to restore the tree.",
    )
    up = container.file_uploader(
        "Open a session file",
        type=None,
        key=prefix + "session_file",
        max_upload_size=5,
        help="A file downloaded with “Download the session”.",
    )
    if up is None:
        return
    seen = (getattr(up, "file_id", None), up.name, up.size)
    if seen == S.get(prefix + "session_seen"):
        return
    # "seen" is written last: a rerun asked for while the file is read (a click, the
    # browser's report of its width) stops this run at its next Streamlit call, session-state
    # writes included, and the next run, with the file still in the uploader, reads it again
    # (written first, the file was skipped as read: no restore, no message).
    if up.size > 5 * 2**20:
        container.error("This is not a session file: it is larger than 5 MB.")
        S[prefix + "session_seen"] = seen
        return
    try:
        r = session_from_json(up.getvalue())
    except ValueError as exc:
        container.error(str(exc))
        S[prefix + "session_seen"] = seen
        return
    S[prefix + "file_restore"] = r
    S[prefix + "session_seen"] = seen
    st.rerun()
