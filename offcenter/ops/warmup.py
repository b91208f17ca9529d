"""Open a page of a running Streamlit server as a browser would, to warm it up or to test it.

A Streamlit process imports a page's modules (scikit-learn, the tree engine, pandas' readers)
and fills its caches (bundled data sets, curve data) the first time a session runs the page:
the first student on each process waits one to two seconds. :func:`warm` runs every page once on
each process before the class arrives (``python -m offcenter.ops.serve`` does it for each of its
processes before HAProxy sends it a student); :func:`open_page` is the one session it opens, also used by
the tests. The Tree page is also opened once on each bundled data set, so that the first
student to pick one finds its tree grown and its root's tables computed (the page's caches are
per process and shared by its sessions).

The protocol is Streamlit's own: a websocket on ``/_stcore/stream`` (subprotocol
``streamlit``), one ``BackMsg`` asking for a run of the page by its URL path name (as the
browser's first message does), then the server's ``ForwardMsg`` until ``script_finished``.
It uses the ``websockets`` client (declared in requirements.txt; Streamlit depends on it too).
Only the given host is contacted (127.0.0.1 by default).

``python -m offcenter.ops.warmup --port 8501 --wait 300`` waits for a server's health and warms
it (the Kubernetes manifest runs it as the container's postStart hook, so a pod is ready only
once warm).

A server also warms itself before it answers anything: ``app.py`` declares the app as an
``st.App`` whose :func:`lifespan` runs every link of :data:`LINKS` once in the server's own
process (:func:`warm_runtime`: sessions of Streamlit's runtime, without a socket) before uvicorn
accepts connections, so ``/_stcore/health`` answers 200 only once the imports are done and the
caches filled. A class that arrives at "ready" then finds the process warm, with no warm-up
session of anyone's. ``OFFCENTER_WARM=0`` in the environment skips it (a quicker start while
developing).

>>> PAGES[0], PAGES[-1]
('', 'Compare_measures')
>>> LINKS[0]
('', '')
>>> ("Tree", "data=pima") in LINKS
True
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import time
import urllib.request
from collections.abc import Iterable

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.asyncio.client import connect

from offcenter.data.datasets import DATASETS
from offcenter.ops import gil

__all__ = [
    "LINKS",
    "PAGES",
    "WARM_ENV",
    "lifespan",
    "open_page",
    "run_in_process",
    "wait_healthy",
    "warm",
    "warm_runtime",
]

#: The app's pages by URL path name ("" is the home page).
PAGES = ("", "Two_classes", "Q_classes", "Tree", "Compare_measures")
#: What :func:`warm` opens: every page, then the Tree page on every bundled data set
#: (page, query string).
LINKS = tuple((page, "") for page in PAGES) + tuple(("Tree", f"data={name}") for name in DATASETS)
#: The environment variable that skips the server's own warm-up (:func:`lifespan`) when "0".
WARM_ENV = "OFFCENTER_WARM"


def _rerun(page: str, query: str) -> BackMsg:
    """The browser's first message: run the page ``page`` with the link's ``query``."""
    bm = BackMsg()
    bm.rerun_script.page_name = page
    bm.rerun_script.query_string = query
    bm.rerun_script.widget_states.SetInParent()
    return bm


def _finished(msg: ForwardMsg) -> bool:
    """The end of a run (not one cut short by a newer run)."""
    return msg.WhichOneof("type") == "script_finished" and (
        msg.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN
    )


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
        The server's port (a Streamlit process, or HAProxy in front of them).
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

    async def session() -> int:
        conn = await connect(
            url,
            subprotocols=["streamlit"],
            origin=f"http://{host}:{port}",
            max_size=None,
            open_timeout=timeout,
            ping_interval=None,
        )
        try:
            await conn.send(_rerun(page, query).SerializeToString())
            async for data in conn:
                msg = ForwardMsg()
                msg.ParseFromString(data)
                if _finished(msg):
                    return msg.script_finished
            raise ConnectionError(f"the server closed the session on page {page!r}")
        finally:
            if close_abruptly:
                conn.transport.abort()  # the TCP connection, no close handshake
            else:
                await conn.close()

    return await asyncio.wait_for(session(), timeout)


async def warm(ports: Iterable[int], links: Iterable = LINKS, **kwargs) -> None:
    """Open every link once on each server of ``ports`` (one session each, in turn).

    ``links`` are page names, or (page, query string) pairs; by default :data:`LINKS`.
    """
    links = [(x, "") if isinstance(x, str) else tuple(x) for x in links]
    for port in ports:
        for page, query in links:
            await open_page(port, page, query=query, **kwargs)


class _InProcessClient:
    """A session's client inside the server's process (Streamlit's ``SessionClient``
    protocol): it keeps only the end of the first run."""

    client_context = None  # no browser request: no headers, cookies or address

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self._loop = loop
        self.finished: asyncio.Future = loop.create_future()

    def write_forward_msg(self, msg: ForwardMsg) -> None:
        if _finished(msg):
            self._loop.call_soon_threadsafe(self._done, msg.script_finished)

    def _done(self, status: int) -> None:
        if not self.finished.done():
            self.finished.set_result(status)


async def run_in_process(
    runtime, page: str = "", *, query: str = "", timeout: float = 300.0
) -> int:
    """:func:`open_page` inside the server: one session of ``runtime`` (Streamlit's
    ``Runtime``, started) runs ``page`` with the link's ``query`` once, through the runtime's
    own session API (``connect_session``, ``handle_backmsg``, ``close_session``: what its
    websocket route does for a browser). Returns the ``script_finished`` status.
    Runs on the runtime's event loop."""
    client = _InProcessClient(asyncio.get_running_loop())
    session_id = runtime.connect_session(client=client, user_info={})
    try:
        runtime.handle_backmsg(session_id, _rerun(page, query))
        return await asyncio.wait_for(client.finished, timeout)
    finally:
        runtime.close_session(session_id)


async def warm_runtime(runtime, links: Iterable = LINKS, timeout: float = 300.0) -> list[str]:
    """Run every link once in this server's process, in turn (:func:`run_in_process`).

    Returns the links that failed (a timeout or a run that did not finish), as
    ``page?query`` texts, after trying them all: a page that fails here fails for a student
    too, and the server still serves the others.
    """
    failed = []
    for page, query in [(x, "") if isinstance(x, str) else tuple(x) for x in links]:
        try:
            status = await run_in_process(runtime, page, query=query, timeout=timeout)
        except (TimeoutError, RuntimeError) as exc:
            failed.append(f"{page or 'Home'}?{query} ({exc!r})")
            continue
        if status != ForwardMsg.FINISHED_SUCCESSFULLY:
            failed.append(f"{page or 'Home'}?{query} (status {status})")
    return failed


@contextlib.asynccontextmanager
async def lifespan(app):
    """``st.App``'s lifespan for ``app.py``: set the process's GIL switch interval
    (:func:`offcenter.ops.gil.apply`: 5 ms unless ``OFFCENTER_SWITCH_INTERVAL`` says otherwise),
    then warm this process (:func:`warm_runtime`) after Streamlit's runtime started and before
    uvicorn accepts a connection (its health route included), unless
    ``OFFCENTER_WARM=0``. Prints one line when done."""
    gil.apply()
    if os.environ.get(WARM_ENV, "1") != "0":
        from streamlit.runtime import Runtime

        started = time.monotonic()
        failed = await warm_runtime(Runtime.instance())
        took = time.monotonic() - started
        if failed:
            print(f"offcenter: own warm-up: {len(failed)} links failed: {failed}", flush=True)
        print(
            f"offcenter: own warm-up: {len(LINKS) - len(failed)} of {len(LINKS)} links run in "
            f"this process ({took:.1f} s)",
            flush=True,
        )
    yield


def wait_healthy(port: int, host: str = "127.0.0.1", wait: float = 300.0, process=None) -> bool:
    """Poll ``/_stcore/health`` until it answers 200 (True) or ``wait`` seconds passed, or the
    server's ``process`` (a ``subprocess.Popen``, when the caller started it) exited (False)."""
    deadline = time.monotonic() + wait
    while True:
        if process is not None and process.poll() is not None:
            return False
        try:
            with urllib.request.urlopen(
                f"http://{host}:{port}/_stcore/health", timeout=3
            ) as response:
                if response.status == 200:
                    return True
        except OSError:
            pass
        if time.monotonic() > deadline:
            return False
        time.sleep(0.5)


def main(argv: list[str] | None = None) -> int:
    """``python -m offcenter.ops.warmup``: wait for one server, then open every link once."""
    parser = argparse.ArgumentParser(
        prog="python -m offcenter.ops.warmup",
        description="Wait for a Streamlit server of the app, then run every page once on it.",
    )
    parser.add_argument("--port", type=int, default=8501)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--wait", type=float, default=300.0, help="s to wait for its health")
    args = parser.parse_args(argv)
    if not wait_healthy(args.port, args.host, args.wait):
        print(
            f"warm-up: no server on {args.host}:{args.port} after {args.wait:g} s", file=sys.stderr
        )
        return 1
    started = time.monotonic()
    try:
        asyncio.run(warm([args.port], host=args.host))
    except (OSError, ConnectionError, TimeoutError) as exc:
        print(f"warm-up failed: {exc!r}", file=sys.stderr)
        return 1
    print(f"warm-up: every page ran once ({time.monotonic() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
