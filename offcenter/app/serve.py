"""Serve the app from several Streamlit processes behind one sticky proxy (one command).

    python -m offcenter.app.serve --port 8501 --workers 2

One Streamlit process runs every session's script in one Python process: a class on one server
shares one core (one GIL) whatever the machine has. This starts ``--workers`` processes of
``streamlit run app.py`` on local ports (default: one per core) and a proxy on ``--port`` that
spreads the sessions over them and keeps each session on its process:

- a browser session is one websocket (``/_stcore/stream``): it is piped, whole, to one process,
  the one with the fewest open sessions when it opens;
- every other request (the page, static files, uploads, downloads, media) goes to the process
  named by the ``offcenter_backend`` cookie, which the proxy sets on the first response, so the
  websocket, the uploads and the downloads of a browser all reach the process that holds its
  session (Streamlit keeps session state, uploads and media in the memory of one process);
  a client without the cookie (the load benchmark) gets the least-loaded process.

Before its port opens, every page runs once on each process (:func:`offcenter.app.warmup.warm`:
the imports and caches of a first visit), so that no student waits for them; ``--no-warm``
skips it.

Sessions stay isolated as in one process (each process has its own sessions; a session never
moves). A process that dies is restarted by nobody: the command exits (and stops the others),
so a supervisor (systemd, docker) can restart the whole. Tornado is Streamlit's own dependency.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import tornado.httpclient
import tornado.web
import tornado.websocket

from offcenter.app.warmup import warm

ROOT = Path(__file__).resolve().parents[2]
COOKIE = "offcenter_backend"
HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailers",
    "transfer-encoding",
    "upgrade",
    "content-length",
    "content-encoding",
}


class Backends:
    """The Streamlit processes: their ports and how many sessions each has open."""

    def __init__(self, ports: list[int]):
        self.ports = list(ports)
        self.sessions = [0] * len(ports)

    def pick(self, cookie: str | None) -> int:
        """The index named by the cookie when valid, else the least-loaded process."""
        if cookie is not None and cookie.isdigit() and int(cookie) < len(self.ports):
            return int(cookie)
        return min(range(len(self.ports)), key=lambda i: (self.sessions[i], i))


class StreamProxy(tornado.websocket.WebSocketHandler):
    """Pipe one browser session's websocket to one Streamlit process."""

    def initialize(self, backends: Backends) -> None:
        self.backends = backends
        self.upstream = None
        self.index = None

    def select_subprotocol(self, subprotocols):
        # Streamlit's client offers "streamlit" and may pass a session id as a 2nd protocol
        self._offered = list(subprotocols)
        return subprotocols[0] if subprotocols else None

    def check_origin(self, origin: str) -> bool:
        return True  # the backend checks the origin itself (headers are passed on)

    async def open(self, *args) -> None:
        self.index = self.backends.pick(self.get_cookie(COOKIE))
        self.backends.sessions[self.index] += 1
        port = self.backends.ports[self.index]
        headers = {
            k: v
            for k, v in self.request.headers.get_all()
            if k.lower() in ("cookie", "origin", "user-agent", "accept-language")
        }
        headers["Host"] = self.request.host
        request = tornado.httpclient.HTTPRequest(
            f"ws://127.0.0.1:{port}{self.request.uri}", headers=headers
        )
        try:
            self.upstream = await tornado.websocket.websocket_connect(
                request,
                subprotocols=getattr(self, "_offered", None) or None,
                max_message_size=1 << 30,
                ping_interval=None,
            )
        except Exception:
            self.close(1011, "backend unavailable")
            return
        asyncio.ensure_future(self._pump())

    async def _pump(self) -> None:
        while True:
            msg = await self.upstream.read_message()
            if msg is None:
                break
            try:
                await self.write_message(msg, binary=isinstance(msg, bytes))
            except tornado.websocket.WebSocketClosedError:
                break
        self.close()

    async def on_message(self, message) -> None:
        if self.upstream is not None:
            try:
                await self.upstream.write_message(message, binary=isinstance(message, bytes))
            except tornado.websocket.WebSocketClosedError:
                self.close()

    def on_close(self) -> None:
        if self.index is not None:
            self.backends.sessions[self.index] -= 1
            self.index = None
        if self.upstream is not None:
            self.upstream.close()
            self.upstream = None


class HttpProxy(tornado.web.RequestHandler):
    """Every other request: to the cookie's process (set on the first response)."""

    SUPPORTED_METHODS = ("GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH")

    def initialize(self, backends: Backends) -> None:
        self.backends = backends

    def compute_etag(self):
        return None

    async def _proxy(self) -> None:
        cookie = self.get_cookie(COOKIE)
        index = self.backends.pick(cookie)
        if cookie != str(index):
            self.set_cookie(COOKIE, str(index), httponly=True, samesite="Lax")
        port = self.backends.ports[index]
        headers = {k: v for k, v in self.request.headers.get_all() if k.lower() not in HOP_BY_HOP}
        body = self.request.body if self.request.method in ("POST", "PUT", "PATCH") else None
        request = tornado.httpclient.HTTPRequest(
            f"http://127.0.0.1:{port}{self.request.uri}",
            method=self.request.method,
            headers=headers,
            body=body,
            allow_nonstandard_methods=True,
            follow_redirects=False,
            decompress_response=False,
            request_timeout=600,
        )
        client = tornado.httpclient.AsyncHTTPClient()
        try:
            response = await client.fetch(request, raise_error=False)
        except Exception as exc:  # the backend is gone
            self.set_status(502)
            self.finish(f"backend unavailable: {exc}")
            return
        self.set_status(response.code, response.reason)
        self._headers = tornado.httputil.HTTPHeaders()
        if cookie != str(index):
            self.set_cookie(COOKIE, str(index), httponly=True, samesite="Lax")
        for k, v in response.headers.get_all():
            if k.lower() not in HOP_BY_HOP:
                self.add_header(k, v) if k.lower() == "set-cookie" else self.set_header(k, v)
        if response.headers.get("Content-Encoding"):
            self.set_header("Content-Encoding", response.headers["Content-Encoding"])
        if response.body and self.request.method != "HEAD":
            self.write(response.body)
        self.finish()

    get = head = post = put = delete = options = patch = _proxy


def make_app(ports: list[int]) -> tornado.web.Application:
    """The proxy application for Streamlit processes on these local ports."""
    backends = Backends(ports)
    return tornado.web.Application(
        [
            (r"/_stcore/stream", StreamProxy, {"backends": backends}),
            (r".*", HttpProxy, {"backends": backends}),
        ],
        websocket_max_message_size=1 << 30,
    )


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_backends(n: int, extra: list[str]) -> tuple[list[subprocess.Popen], list[int]]:
    """Start ``n`` headless Streamlit processes of app.py on free local ports; wait for them."""
    ports = [_free_port() for _ in range(n)]
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "streamlit",
                "run",
                str(ROOT / "app.py"),
                "--server.headless",
                "true",
                "--server.address",
                "127.0.0.1",
                "--server.port",
                str(port),
                "--browser.gatherUsageStats",
                "false",
                *extra,
            ],
            cwd=ROOT,
        )
        for port in ports
    ]
    deadline = time.monotonic() + 120
    for proc, port in zip(procs, ports):
        while True:
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/_stcore/health", timeout=2
                ) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                for p in procs:
                    p.terminate()
                raise RuntimeError(f"streamlit on port {port} did not start")
            time.sleep(0.3)
    return procs, ports


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=8501, help="the public port (proxy)")
    parser.add_argument("--address", default="0.0.0.0", help="the proxy's address")
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="Streamlit processes"
    )
    parser.add_argument(
        "--no-warm", action="store_true", help="do not run each page once per process first"
    )
    parser.add_argument("streamlit_args", nargs="*", help="more `streamlit run` options (after --)")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    procs, ports = start_backends(args.workers, args.streamlit_args)
    print(
        f"offcenter: {args.workers} Streamlit processes (pids "
        f"{', '.join(str(p.pid) for p in procs)}, ports {', '.join(map(str, ports))}) behind "
        f"http://{args.address}:{args.port}",
        flush=True,
    )

    async def serve() -> None:
        if not args.no_warm:
            started = time.monotonic()
            await warm(ports)
            print(
                f"offcenter: every page ran once on each process "
                f"({time.monotonic() - started:.1f} s)",
                flush=True,
            )
        make_app(ports).listen(args.port, address=args.address, xheaders=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        while not stop.is_set():
            if any(p.poll() is not None for p in procs):
                print("offcenter: a Streamlit process exited; stopping", flush=True)
                break
            try:
                await asyncio.wait_for(stop.wait(), 1.0)
            except asyncio.TimeoutError:
                pass

    try:
        asyncio.run(serve())
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()


if __name__ == "__main__":
    main()
