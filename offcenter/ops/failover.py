"""What a student loses when the server process that held their session is gone, in words.

Behind HAProxy (:mod:`offcenter.ops.serve`) each browser session lives in the memory of one
Streamlit process. When that process dies (or is taken out as hung), the browser reconnects and
HAProxy sends it to a live process (``option redispatch``), where a *new* session starts: what
the page's address carries comes back (every page's settings, the Tree page's data choice,
target, features and hand edits, through :mod:`offcenter.app.urlstate` and
:mod:`offcenter.app.tree_link`); what lived only in the old process does not:

- an uploaded file (the link names it, by file name and fingerprint, but cannot carry it);
- a tree grown or a comparison run since the last change of the address (regrown or rerun
  from the settings, which the address has);
- the undo history of the Tree page's edits (the edits themselves are in the address).

How a page knows (:func:`moved`): the browser asks to resume the session it had (Streamlit's
page sends that session's id when its stream reopens, :func:`lost_session_id`) and gets a new
one; this holds for a lone ``streamlit run`` restarted too. Behind HAProxy also: HAProxy copies the cookie naming the process that held the browser's
websocket (``OFFCENTER_SESSION``, set on the websocket's handshake only; else the stickiness
cookie) into the request header :data:`PREVIOUS_HEADER`. The stickiness cookie alone was not
enough: the browser's health and configuration requests, sent before the websocket reopens,
reach the live process first and rewrite it, so the notice never appeared in a browser; the launcher tells each
process its own name in the environment variable :data:`NAME_ENV`. A session whose header names
another process is a session that moved. Streamlit-free: the page passes
``st.context.headers`` and ``os.environ``.

>>> failover_notice({"X-Offcenter-Previous": "app1"}, {"OFFCENTER_BACKEND": "app2"}) is not None
True
>>> failover_notice({"X-Offcenter-Previous": "app2"}, {"OFFCENTER_BACKEND": "app2"}) is None
True
>>> failover_notice({}, {"OFFCENTER_BACKEND": "app2"}) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = [
    "NAME_ENV",
    "PREVIOUS_HEADER",
    "LOST_ON_FAILOVER",
    "failover_notice",
    "lost_session_id",
    "moved",
]

#: The request header in which HAProxy names the process the browser's cookie pointed to.
PREVIOUS_HEADER = "X-Offcenter-Previous"
#: The environment variable that gives a Streamlit process its name behind HAProxy.
NAME_ENV = "OFFCENTER_BACKEND"
#: What does not survive a move to another process (for docs/deploy.md and the notice).
LOST_ON_FAILOVER = (
    "an uploaded file",
    "results computed since the address last changed (they are computed again)",
    "the undo history of the tree's edits",
)


def _get(headers: Mapping, name: str) -> str:
    """A header's value, whatever the case of its name ('' when absent)."""
    for key, value in headers.items():
        if str(key).lower() == name.lower():
            return str(value).strip()
    return ""


def lost_session_id(headers: Mapping) -> str:
    """The session the browser asked to resume when it (re)opened its stream, '' if none.

    Streamlit's page sends it as the third entry of the websocket's ``Sec-WebSocket-Protocol``
    header (``streamlit, <xsrf token>, <session id>``) when it reconnects; a process that still
    holds that session resumes it under the same id.

    >>> lost_session_id({"Sec-WebSocket-Protocol": "streamlit, tok, 6f1e"})
    '6f1e'
    >>> lost_session_id({"sec-websocket-protocol": "streamlit, tok"})
    ''
    """
    entries = [e.strip() for e in _get(headers, "Sec-WebSocket-Protocol").split(",")]
    return entries[2] if len(entries) >= 3 else ""


def moved(headers: Mapping, env: Mapping, session_id: str | None = None) -> bool:
    """True when this session's browser had a session that this process does not hold.

    Either HAProxy names another process as the one that held the browser's stream (it died or
    was taken out), or the browser asked to resume a session (:func:`lost_session_id`) and got
    a new one (``session_id`` differs): its process stopped and this one, perhaps the same
    server restarted, started afresh.

    Parameters
    ----------
    headers : Mapping
        The session's request headers (``st.context.headers``).
    env : Mapping
        The process's environment (``os.environ``).
    session_id : str, optional
        This session's id (Streamlit's script run context); None skips the second test.

    >>> moved({"Sec-WebSocket-Protocol": "streamlit, tok, old"}, {}, session_id="new")
    True
    >>> moved({"Sec-WebSocket-Protocol": "streamlit, tok, same"}, {}, session_id="same")
    False
    """
    previous = _get(headers, PREVIOUS_HEADER)
    own = str(env.get(NAME_ENV, "")).strip()
    if previous and own and previous != own:
        return True
    lost = lost_session_id(headers)
    return bool(session_id and lost and lost != session_id)


def failover_notice(
    headers: Mapping,
    env: Mapping,
    *,
    link_names_upload: bool = False,
    session_id: str | None = None,
) -> str | None:
    """The message for a student whose session moved to this process, or None.

    Parameters
    ----------
    headers, env : Mapping
        As :func:`moved`.
    link_names_upload : bool
        The page's address names an uploaded file (``data=upload``): say it must be uploaded
        again.
    session_id : str, optional
        This session's id, for :func:`moved`'s second test (a lost session on a restarted
        process).

    Returns
    -------
    str or None
        Plain text (to show with ``st.info``; never rendered as HTML).

    Examples
    --------
    >>> text = failover_notice(
    ...     {"x-offcenter-previous": "app1"}, {"OFFCENTER_BACKEND": "app2"}, link_names_upload=True
    ... )
    >>> "upload it again" in text
    True
    """
    if not moved(headers, env, session_id):
        return None
    text = (
        "The server process that held your session stopped; you are now on another one. "
        "The page's settings came back from its address."
    )
    if link_names_upload:
        text += (
            " Your uploaded file was in the memory of the process that stopped and cannot come "
            "back: upload it again."
        )
    return text
