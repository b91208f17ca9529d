"""Open a page of a running Streamlit server as a browser would, to warm it up or to test it.

A Streamlit process imports a page's modules (scikit-learn, the tree engine, pandas' readers)
and fills its caches (bundled data sets, curve data) the first time a session runs the page:
the first student on each process waits one to two seconds. :func:`warm` runs every page once on
each process before the class arrives (``python -m offcenter.app.serve`` does it for each of its
processes before it opens its port); :func:`open_page` is the one session it opens, also used by
the tests. The Tree page is also opened once on each bundled data set, so that the first
student to pick one finds its tree grown and its root's tables computed (the page's caches are
per process and shared by its sessions).

The protocol is Streamlit's own: a websocket on ``/_stcore/stream`` (subprotocol
``streamlit``), one ``BackMsg`` asking for a run of the page by its URL path name (as the
browser's first message does), then the server's ``ForwardMsg`` until ``script_finished``.
It uses Tornado's websocket client (Streamlit's own dependency). Only the given host is
contacted (127.0.0.1 by default).

>>> PAGES[0], PAGES[-1]
('', 'Compare_measures')
>>> LINKS[0]
('', '')
>>> ("Tree", "data=pima") in LINKS
True
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

import tornado.httpclient
import tornado.websocket
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from offcenter.data.datasets import DATASETS

__all__ = ["LINKS", "PAGES", "open_page", "warm"]

#: The app's pages by URL path name ("" is the home page).
PAGES = ("", "Two_classes", "Q_classes", "Tree", "Compare_measures")
#: What :func:`warm` opens: every page, then the Tree page on every bundled data set
#: (page, query string).
LINKS = tuple((page, "") for page in PAGES) + tuple(("Tree", f"data={name}") for name in DATASETS)


async def open_page(
    port: int,
    page: str = "",
    *,
    query: str = "",
    host: str = "127.0.0.1",
    timeout: float = 300.0,
    close_abruptly: bool = False,
) -> int:
    """Open one session on ``page`` and wait for the end of its first run.

    Parameters
    ----------
    port : int
        The server's port (a Streamlit process, or the proxy of :mod:`offcenter.app.serve`).
    page : str
        The page's URL path name (``"Tree"``), ``""`` for the home page.
    query : str
        The link's query string (``"data=pima"``), as the browser sends it.
    host : str
        The server's address.
    timeout : float
        Seconds for the whole session (connection and run).
    close_abruptly : bool
        Drop the connection without a websocket close handshake (a browser tab killed).

    Returns
    -------
    int
        The ``script_finished`` status of the run (0: ``FINISHED_SUCCESSFULLY``).

    Raises
    ------
    ConnectionError
        When the server closes the session before its run ends.
    """
    url = f"ws://{host}:{port}/_stcore/stream"
    request = tornado.httpclient.HTTPRequest(url, headers={"Origin": f"http://{host}:{port}"})

    async def session() -> int:
        conn = await tornado.websocket.websocket_connect(
            request, subprotocols=["streamlit"], max_message_size=1 << 30
        )
        try:
            bm = BackMsg()
            bm.rerun_script.page_name = page
            bm.rerun_script.query_string = query
            bm.rerun_script.widget_states.SetInParent()
            await conn.write_message(bm.SerializeToString(), binary=True)
            while True:
                data = await conn.read_message()
                if data is None:
                    raise ConnectionError(f"the server closed the session on page {page!r}")
                msg = ForwardMsg()
                msg.ParseFromString(data)
                if msg.WhichOneof("type") == "script_finished" and (
                    msg.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN
                ):
                    return msg.script_finished
        finally:
            if close_abruptly and conn.stream is not None:
                conn.stream.close()  # the TCP connection, no close handshake
            else:
                conn.close()

    return await asyncio.wait_for(session(), timeout)


async def warm(ports: Iterable[int], links: Iterable = LINKS, **kwargs) -> None:
    """Open every link once on each server of ``ports`` (one session each, in turn).

    ``links`` are page names, or (page, query string) pairs; by default :data:`LINKS`.
    """
    links = [(x, "") if isinstance(x, str) else tuple(x) for x in links]
    for port in ports:
        for page, query in links:
            await open_page(port, page, query=query, **kwargs)
