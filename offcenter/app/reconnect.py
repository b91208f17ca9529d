"""Rerun a page whose browser reconnected to the server, so that a lost session comes back.

Streamlit (1.67) keeps a page's session in the memory of one server process. When the
websocket drops and the browser reconnects, Streamlit's page resumes the old session if that
process still holds it; if not (the process was restarted, or it died and HAProxy sent the
browser to another one, :mod:`offcenter.ops.failover`) a *new, empty* session starts, and the
page's script is **not run** in it: the page shows the old drawing, which answers nothing,
until the student touches a widget. Measured in Chromium: 60 s after a restart, still the old
process's page.

The fix, client-side: :data:`RERUN_ON_RECONNECT` (static JavaScript, no user text) wraps the
page's ``WebSocket`` constructor once per page load, after the page's first stream opened; when
Streamlit opens its stream (``/_stcore/stream``) again, i.e. reconnects, it asks for a rerun the way a user does
with Streamlit's "Rerun" keyboard shortcut (``r``), shortly after the socket opens. The rerun
carries the page's widget values and its address (the query string), so the new session shows
the page as it was, and the failover notice (:func:`offcenter.ops.failover.failover_notice`)
tells the student what moved. A reconnection that resumed its session gets one more rerun,
which changes nothing.

It is injected by :func:`offcenter.app.navigation.run` on every page with ``st.html(...,
unsafe_allow_javascript=True)``; tested in Chromium by tests/deploy/test_failover_browser.py.
"""

from __future__ import annotations

__all__ = ["RERUN_ON_RECONNECT"]

#: How long after the reopened stream the rerun is asked for (ms): Streamlit's page first
#: exchanges its session's opening messages on the new socket.
DELAY_MS = 600

#: The script (static; installed once per page load, whatever the number of reruns).
RERUN_ON_RECONNECT = (
    "<script>(function () {"
    " if (window.__offcenterRerunOnReconnect) return;"
    " window.__offcenterRerunOnReconnect = true;"
    # installed after the page's first stream opened: every stream made from now on reconnects
    " var Native = window.WebSocket;"
    " function rerun() {"
    "  var init = {key: 'r', code: 'KeyR', keyCode: 82, which: 82, bubbles: true};"
    "  document.dispatchEvent(new KeyboardEvent('keydown', init));"
    "  document.dispatchEvent(new KeyboardEvent('keyup', init));"
    " }"
    " function Wrapped(url, protocols) {"
    "  var ws = protocols === undefined ? new Native(url) : new Native(url, protocols);"
    "  if (String(url).indexOf('/_stcore/stream') >= 0) ws.addEventListener('open', function () {"
    f"   setTimeout(rerun, {DELAY_MS});"
    "  });"
    "  return ws;"
    " }"
    " Wrapped.prototype = Native.prototype;"
    " ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED'].forEach(function (k) { Wrapped[k] = Native[k]; });"
    " window.WebSocket = Wrapped;"
    "})();</script>"
)
