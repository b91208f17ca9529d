"""Serve the app from several Streamlit processes behind HAProxy (one command).

    python -m offcenter.ops.serve --port 8501 --workers 2

One Streamlit process runs every session's script in one Python process: a class on one server
shares one core (one GIL) whatever the machine has. This command starts ``--workers`` processes
of ``streamlit run app.py`` on local ports (default: one per core) and HAProxy (Debian's
``haproxy`` package, ``apt-get install haproxy``) on ``--port`` in front of them, with the
configuration of :func:`haproxy_config`:

- ``balance leastconn``: a new session (a browser without the cookie below) goes to the process
  with the fewest open connections (each student's websocket on ``/_stcore/stream`` is one);
- the heavy pages (:data:`HEAVY_PAGES`: Tree, Compare) balanced as such: a browser's first
  request is the page's address (``/Tree?data=...``), which HAProxy sends to a backend of the
  page's own (:func:`heavy_pool`: the same processes, tracking the main backend's states) with
  ``balance roundrobin``: one Tree student to each process in turn, whatever the other pages'
  students do (``leastconn`` counts connections, not pages: a class's 8 Tree students fell 3/5
  on two processes in every run). A websocket names no page, so only the address can say it; a
  student who opens another page first and then goes to the Tree page stays on that process;
- ``cookie OFFCENTER insert indirect nocache``: the first response sets a cookie naming the
  process, so a browser's page, websocket, uploads and downloads all reach the process that
  holds its session (Streamlit keeps session state, uploads and media in one process's memory);
- health checks: ``GET /_stcore/health`` every second, a process is out after 2 failed checks
  or 2 checks without an answer within 1.5 s (a dead process is out within about 2 s, a hung one
  within about 4 s), and back after 2 good ones; ``option redispatch`` sends a cookie naming a
  process that is out to a live one (a dead process's students, whose browser reconnects, get a
  new session there; a hung process's open sessions are left alone: they go on after SIGCONT);
- websocket timeouts: ``timeout tunnel 1h`` (an idle student keeps their session),
  ``timeout client-fin``/``server-fin`` for half-closed connections;
- ``/healthz`` on the balancer: 200 while at least one process is in service, else 503.

Warm-up before traffic: each ``streamlit run app.py`` warms itself before it accepts a
connection (``app.py``'s ``st.App`` lifespan, :func:`offcenter.ops.warmup.lifespan`: every page,
and the Tree page on every bundled data set, run once in its own process: the imports and caches
of a first visit). HAProxy starts with every process in maintenance; each process is put in
service (through HAProxy's admin socket) only once it answers its health check, warm, and every
page ran once on it through its websocket (:func:`offcenter.ops.warmup.warm`, a check of the real
path that costs little on a warm process), so no student waits for a cold process. The
processes are brought in at once, each in a thread of its own: one is in service as soon as it
is warm, and "ready" comes when the last one is (not after the sum of their warm-ups).
``--no-warm`` skips both (``OFFCENTER_WARM=0`` for its processes).

Supervision: a Streamlit process that dies is taken out by the health check, restarted on its
port, warmed, then put back in service; the command keeps running (its other processes and their
sessions are untouched). HAProxy that dies is started again in front of the same processes
(warm ones back in service at once; three exits within a minute stop the command). The command
stops (and stops everything it started) on SIGINT/SIGTERM.

Several machines: run ``streamlit run app.py`` on each app host, then on the balancer host
``python -m offcenter.ops.serve --backends host1:8501 host2:8501`` (the same HAProxy
configuration, with remote servers; they are warmed through their own ports before they get
traffic), or ``--print-config`` to write the configuration for an HAProxy run by systemd.
``--hosts`` binds the local processes to other addresses (the tests use 127.0.0.2, 127.0.0.3).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from offcenter.ops.failover import NAME_ENV, PREVIOUS_HEADER
from offcenter.ops.warmup import WARM_ENV, warm

__all__ = [
    "Backend",
    "heavy_pool",
    "haproxy_command",
    "haproxy_config",
    "find_haproxy",
    "main",
    "parse_backend",
]

ROOT = Path(__file__).resolve().parents[2]
#: HAProxy's backend (the pool of Streamlit processes) in the generated configuration.
POOL = "streamlit"
#: The pages whose students are balanced as such (:func:`heavy_pool`): their script runs cost
#: the most CPU (a Tree node click or grow 80-190 ms, against 20 ms for a θ move).
HEAVY_PAGES = ("Tree", "Compare_measures")
#: The stickiness cookie HAProxy sets (its value names the process).
COOKIE = "OFFCENTER"
#: The cookie HAProxy sets on a websocket's handshake only: the process that held the session
#: (the failover notice compares it with the process the session reaches).
SESSION_COOKIE = "OFFCENTER_SESSION"
#: The response header naming the process that answered (the load benchmark reads it).
BACKEND_HEADER = "X-Offcenter-Backend"
#: What HAProxy logs for each request or websocket session (one line, space-separated):
#: frontend time (ms), server, status, Tw Tc Tr Ta Tt (ms: queue, connect, response, active,
#: total), bytes read, method, path.
LOG_FORMAT = "%ci %b/%s %ST %Tw %Tc %Tr %Ta %Tt %B %HM %HPO"
#: What a browser gets while no process is in service: it reloads itself after 3 s.
BUSY_PAGE = (
    "<!doctype html><meta http-equiv=refresh content=3><title>offcenter</title>"
    "<p>The app is restarting or busy: this page tries again in 3 seconds.</p>"
)


@dataclass(frozen=True)
class Backend:
    """One Streamlit process as HAProxy sees it: a server name, a host and a port."""

    name: str
    host: str
    port: int

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"


def streamlit_command(port: int, host: str = "127.0.0.1", *extra: str) -> list[str]:
    """The command of one headless ``streamlit run app.py`` on ``host:port`` (no usage
    statistics), ``extra`` options appended: the deployment's, the browser tests' and the
    screenshot script's, written once.

    >>> streamlit_command(8601, "127.0.0.2", "--server.fileWatcherType", "none")[-4:]
    ['--browser.gatherUsageStats', 'false', '--server.fileWatcherType', 'none']
    """
    return [
        sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
        "--server.headless", "true", "--server.address", host, "--server.port", str(port),
        "--browser.gatherUsageStats", "false", *extra,
    ]  # fmt: skip


def parse_backend(text: str, index: int) -> Backend:
    """``host:port`` (``[v6]:port`` too) as the ``index``-th backend, named ``app<index>``.

    >>> parse_backend("10.0.0.7:8501", 2)
    Backend(name='app2', host='10.0.0.7', port=8501)
    """
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"{text!r} is not host:port (for example 10.0.0.7:8501)")
    return Backend(f"app{index}", host, int(port))


def heavy_pool(page: str) -> str:
    """HAProxy's backend for a heavy page's address (the same processes, tracked, round robin).

    >>> heavy_pool("Compare_measures")
    'streamlit_compare_measures'
    """
    return f"{POOL}_{page.lower()}"


def haproxy_config(
    backends: list[Backend],
    *,
    bind: str = "0.0.0.0:8501",
    admin_socket: str | None = None,
    log: bool = False,
    disabled: bool = False,
    check_interval_ms: int = 1000,
    check_timeout_ms: int = 1500,
    fall: int = 2,
    rise: int = 2,
) -> str:
    """HAProxy's configuration for these Streamlit processes (see the module docs).

    Parameters
    ----------
    backends : list of Backend
        The Streamlit processes, on this machine or others.
    bind : str
        The public address and port.
    admin_socket : str, optional
        A Unix socket path for HAProxy's runtime API (level admin), used to put processes in
        service after their warm-up (:func:`haproxy_command`).
    log : bool
        Log every request and websocket session to HAProxy's stdout (format :data:`LOG_FORMAT`).
    disabled : bool
        Start every server in maintenance (put in service through the admin socket).
    check_interval_ms, check_timeout_ms, fall, rise : int
        Health checks of ``/_stcore/health``: every ``check_interval_ms``, a server is out after
        ``fall`` failures in a row (a refused connection, an error status, or no answer within
        ``check_timeout_ms``: a hung process) and back after ``rise`` successes; after a first
        failure the next check comes after half the interval. The timeout is above the interval
        so that a process busy with a class (its event loop waiting for the GIL) is not taken
        for a hung one.

    Returns
    -------
    str
        The configuration text (``haproxy -c -f`` accepts it).

    Examples
    --------
    >>> text = haproxy_config([Backend("app1", "127.0.0.1", 8601)], bind="127.0.0.1:8501")
    >>> "balance leastconn" in text and "cookie OFFCENTER insert indirect nocache" in text
    True
    >>> "server app1 127.0.0.1:8601 check cookie app1" in text
    True
    >>> "use_backend streamlit_tree if page_tree" in text and "balance roundrobin" in text
    True
    """
    if not backends:
        raise ValueError("HAProxy needs at least one Streamlit process")
    names = [b.name for b in backends]
    if len(set(names)) != len(names):
        raise ValueError(f"backend names repeat: {names}")
    glob = ["global", "    maxconn 4096", "    hard-stop-after 30s"]
    if admin_socket:
        glob.append(f"    stats socket {admin_socket} mode 600 level admin")
    if log:
        glob.append("    log stdout format raw local0 info")
    lines = [
        "# Generated by offcenter.ops.serve (python -m offcenter.ops.serve --print-config).",
        *glob,
        "",
        "defaults",
        "    mode http",
        *(["    log global", f'    log-format "{LOG_FORMAT}"'] if log else []),
        "    option dontlognull",
        "    option forwardfor",
        "    option redispatch",
        "    retries 2",
        "    timeout connect 5s",
        "    timeout client 60s",
        "    timeout server 60s",
        "    timeout http-request 15s",
        "    timeout http-keep-alive 15s",
        "    timeout queue 30s",
        f"    timeout check {check_timeout_ms}ms",
        "    # a student's websocket (/_stcore/stream) may stay idle for a whole lecture",
        "    timeout tunnel 1h",
        "    timeout client-fin 30s",
        "    timeout server-fin 30s",
        "",
        "frontend offcenter",
        f"    bind {bind}",
        "    # the balancer's own readiness: 200 while at least one app process is in service",
        "    acl healthz path /healthz",
        f"    http-request return status 200 content-type text/plain string ok if healthz "
        f"{{ nbsrv({POOL}) gt 0 }}",
        "    http-request return status 503 content-type text/plain "
        'string "no app process in service" if healthz',
        "    # no process in service (all restarting, or all too busy to answer their check): a",
        "    # page that tries again by itself rather than HAProxy's bare 503",
        '    http-request return status 503 content-type "text/html; charset=utf-8" string '
        f'"{BUSY_PAGE}" if !healthz {{ nbsrv({POOL}) eq 0 }}',
        "    # the process a browser's cookie names, for the page (offcenter.ops.failover): a session",
        "    # that reaches another process moved there because its own stopped",
        f"    http-request del-header {PREVIOUS_HEADER}",
        f"    http-request set-header {PREVIOUS_HEADER} %[req.cook({COOKIE})] "
        f"if {{ req.cook({COOKIE}) -m found }}",
        "    # ... preferably the one that held its websocket: the browser's health and config",
        "    # requests, sent before the websocket reopens, already rewrite the stickiness cookie",
        f"    http-request set-header {PREVIOUS_HEADER} %[req.cook({SESSION_COOKIE})] "
        f"if {{ req.cook({SESSION_COOKIE}) -m found }}",
        "    http-request set-var(txn.stream) bool(true) if { path_end /_stcore/stream }",
        "    # a heavy page's address (a browser's first request for it: /Tree or /Tree/, any",
        "    # case, as Streamlit; not /Tree/_stcore/...): that page's students in turn",
        *(
            f"    acl page_{page.lower()} path_reg -i ^/{page}/?$\n"
            f"    use_backend {heavy_pool(page)} if page_{page.lower()}"
            for page in HEAVY_PAGES
        ),
        f"    default_backend {POOL}",
        "",
        f"backend {POOL}",
        "    balance leastconn",
        f"    cookie {COOKIE} insert indirect nocache httponly",
        "    option httpchk",
        "    http-check send meth GET uri /_stcore/health",
        "    http-check expect status 200",
        f"    http-response set-header {BACKEND_HEADER} %s",
        "    # the process that holds the websocket (set on the stream's handshake only)",
        f'    http-response add-header Set-Cookie "{SESSION_COOKIE}=%s; Path=/; HttpOnly; '
        'SameSite=Lax" if { var(txn.stream) -m bool }',
        f"    default-server inter {check_interval_ms}ms fastinter {check_interval_ms // 2}ms "
        f"downinter {check_interval_ms}ms fall {fall} rise {rise}",
    ]
    for b in backends:
        host = f"[{b.host}]" if ":" in b.host else b.host
        state = " disabled" if disabled else ""
        lines.append(f"    server {b.name} {host}:{b.port} check cookie {b.name}{state}")
    for page in HEAVY_PAGES:
        lines += [
            "",
            f"backend {heavy_pool(page)}",
            f"    # {page}'s first requests, one process after the other; the same cookie, so a",
            "    # browser that has one stays on its process; each server follows its state in",
            f"    # {POOL} (health, maintenance), no checks of its own",
            "    balance roundrobin",
            f"    cookie {COOKIE} insert indirect nocache httponly",
            f"    http-response set-header {BACKEND_HEADER} %s",
        ]
        for b in backends:
            host = f"[{b.host}]" if ":" in b.host else b.host
            lines.append(
                f"    server {b.name} {host}:{b.port} cookie {b.name} track {POOL}/{b.name}"
            )
    return "\n".join(lines) + "\n"


def haproxy_command(admin_socket: str, command: str, timeout: float = 5.0) -> str:
    """Send one command to HAProxy's runtime API (its admin socket); return the answer.

    ``set server streamlit/app1 state ready`` puts a process in service, ``show stat`` gives
    every server's status (UP, DOWN, MAINT) as CSV.
    """
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(admin_socket)
        s.sendall(command.encode() + b"\n")
        chunks = []
        while True:
            data = s.recv(65536)
            if not data:
                break
            chunks.append(data)
    return b"".join(chunks).decode()


def server_states(admin_socket: str) -> dict[str, str]:
    """Each server's status in HAProxy (``{"app1": "UP", "app2": "DOWN", ...}``)."""
    text = haproxy_command(admin_socket, "show stat")
    head, *rows = [line for line in text.splitlines() if line]
    cols = head.lstrip("# ").split(",")
    out = {}
    for row in rows:
        rec = dict(zip(cols, row.split(",")))
        if rec.get("pxname") == POOL and rec.get("svname") not in ("FRONTEND", "BACKEND"):
            out[rec["svname"]] = rec["status"]
    return out


def find_haproxy(path: str | None = None) -> str:
    """The HAProxy binary (``path``, or ``haproxy`` on PATH, or Debian's /usr/sbin/haproxy)."""
    if path is not None:
        if os.access(path, os.X_OK):
            return path
        raise FileNotFoundError(f"--haproxy {path}: no executable there")
    for candidate in (shutil.which("haproxy"), "/usr/sbin/haproxy"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    raise FileNotFoundError(
        "HAProxy is not installed: install Debian's package (sudo apt-get install haproxy) "
        "or pass --haproxy PATH"
    )


def _die_with_parent() -> None:  # pragma: no cover - runs in the child
    """In a child: get SIGTERM when the launcher dies (even by kill -9): no stray process."""
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def _healthy(host: str, port: int, timeout: float = 2.0) -> bool:
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/_stcore/health", timeout=timeout) as r:
            return r.status == 200
    except OSError:
        return False


def _wait_port(host: str, port: int, deadline: float, proc=None) -> bool:
    """Poll until ``host:port`` accepts connections (or the process exits / the deadline)."""
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            return False
        with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=1):
            return True
        time.sleep(0.1)
    return False


class _Stop(BaseException):
    """SIGINT or SIGTERM: stop everything (raised by the signal handler)."""


class AppProcess:
    """One local ``streamlit run app.py`` on a fixed host and port (restartable)."""

    def __init__(self, backend: Backend, extra: list[str], warm: bool = True):
        self.backend = backend
        self.extra = list(extra)
        self.warm = warm  # False: no warm-up of its own (OFFCENTER_WARM=0)
        self.proc: subprocess.Popen | None = None
        self.starts: list[float] = []

    def start(self) -> None:
        b = self.backend
        cmd = streamlit_command(b.port, b.host, *self.extra)
        env = {**os.environ, NAME_ENV: b.name}  # its name behind HAProxy (failover notice)
        if not self.warm:
            env[WARM_ENV] = "0"
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, preexec_fn=_die_with_parent)
        self.starts.append(time.monotonic())

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self, timeout: float = 10.0) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.proc.pid, signal.SIGCONT)  # a stopped process cannot exit
            self.proc.terminate()
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Deployment:
    """HAProxy and the app processes behind it (see :func:`main`)."""

    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.log = lambda text: print(f"offcenter: {text}", flush=True)
        self.run_dir = Path(args.run_dir or tempfile.mkdtemp(prefix="offcenter-serve-"))
        self.own_run_dir = args.run_dir is None
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.admin = str(self.run_dir / "haproxy.sock")
        self.config = self.run_dir / "haproxy.cfg"
        self.haproxy: subprocess.Popen | None = None
        self.apps: list[AppProcess] = []
        if args.backends:
            self.backends = [parse_backend(t, i + 1) for i, t in enumerate(args.backends)]
        else:
            hosts = args.hosts or ["127.0.0.1"]
            self.backends = []
            for i in range(args.workers):
                host = hosts[i % len(hosts)]
                self.backends.append(Backend(f"app{i + 1}", host, _free_port(host)))
            self.apps = [
                AppProcess(b, args.streamlit_args, warm=not args.no_warm) for b in self.backends
            ]
        self.in_service: set[str] = set()
        self.stopping = threading.Event()  # set by stop(): the bring-in threads give up

    # ---------------------------------------------------------------- pieces
    def start_haproxy(self, binary: str) -> None:
        text = haproxy_config(
            self.backends,
            bind=f"{self.args.address}:{self.args.port}",
            admin_socket=self.admin,
            log=self.args.access_log is not None,
            disabled=not self.args.no_warm,
        )
        self.config.write_text(text, encoding="utf-8")
        check = subprocess.run(
            [binary, "-c", "-q", "-f", str(self.config)], capture_output=True, text=True
        )
        if check.returncode != 0:
            raise RuntimeError(f"HAProxy refused its configuration:\n{check.stderr}")
        out = open(self.args.access_log, "a") if self.args.access_log else subprocess.DEVNULL  # noqa: SIM115
        self.haproxy = subprocess.Popen(
            [binary, "-db", "-f", str(self.config)],
            stdout=out,
            stderr=None,
            preexec_fn=_die_with_parent,
        )
        host = "127.0.0.1" if self.args.address in ("0.0.0.0", "") else self.args.address
        if not _wait_port(host, self.args.port, time.monotonic() + 30, self.haproxy):
            raise RuntimeError(f"HAProxy did not open port {self.args.port}")

    def restart_haproxy(self, binary: str) -> None:
        """HAProxy died: start it again in front of the same processes, which keep running
        (their sessions reconnect through it); the processes that were in service, warm,
        are put back in service at once, the others come in through :meth:`bring_in`."""
        self.log(
            f"HAProxy exited ({self.haproxy.returncode}); restarting it "
            "(the app processes keep running)"
        )
        with contextlib.suppress(OSError):
            os.unlink(self.admin)  # the dead HAProxy's admin socket
        try:
            self.start_haproxy(binary)
        except RuntimeError as exc:
            self.log(f"HAProxy did not start again: {exc}")
            return
        warm = set(self.in_service)
        self.in_service.clear()
        deadline = time.monotonic() + self.args.start_timeout
        live = [
            (b, app)
            for b, app in zip(self.backends, self.apps or [None] * len(self.backends))
            if app is None or app.alive()  # a dead one: the supervision loop restarts it
        ]
        # the warm ones back in service together first (HAProxy's checks of each overlap) ...
        back = [b for b, _ in live if b.name in warm]
        if not self.args.no_warm:
            for b in back:
                haproxy_command(self.admin, f"set server {POOL}/{b.name} state ready")
        for b in back:
            while server_states(self.admin).get(b.name) != "UP" and time.monotonic() < deadline:
                time.sleep(0.2)
            self.in_service.add(b.name)
        # ... then the local ones that were not in service yet (a remote one: watch_remote
        # brings it in when it answers)
        for b, app in live:
            if b.name not in warm and app is not None:
                self.bring_in(b, app, deadline)
        self.log(f"HAProxy (pid {self.haproxy.pid}) back on port {self.args.port}")

    def bring_in(self, b: Backend, app: AppProcess | None, deadline: float) -> bool:
        """Wait for a process's health, warm it, put it in service. False if it failed."""
        while not _healthy(b.host, b.port):
            if (app is not None and not app.alive()) or time.monotonic() > deadline:
                return False
            if self.stopping.wait(0.3):
                return False
        if not self.args.no_warm:
            started = time.monotonic()
            try:
                asyncio.run(warm([b.port], host=b.host, timeout=self.args.warm_timeout))
            except Exception as exc:  # a page failed: keep the process out, say why
                self.log(f"{b.name} ({b.address}): warm-up failed: {exc!r}")
                return False
            self.log(
                f"{b.name} ({b.address}): every page ran once ({time.monotonic() - started:.1f} s)"
            )
            haproxy_command(self.admin, f"set server {POOL}/{b.name} state ready")
        # in service once HAProxy's own checks pass (it routes to it from then on)
        while server_states(self.admin).get(b.name) != "UP":
            if (app is not None and not app.alive()) or time.monotonic() > deadline:
                return False
            if self.stopping.wait(0.2):
                return False
        self.in_service.add(b.name)
        self.log(f"{b.name} ({b.address}) in service")
        return True

    def bring_in_all(self, deadline: float) -> Backend | None:
        """:meth:`bring_in` every process at once, each in a thread of its own: each is put in
        service as soon as it is warm, not after the ones before it (their own warm-ups end at
        different times, the websocket's warm-ups and HAProxy's checks overlap). The first
        process that failed, or None when all are in service; an error of one is raised here.
        The threads are daemons and end when :meth:`stop` is called: a signal stops the command
        at once, as it did when the processes were brought in one after the other."""
        results: queue.Queue = queue.Queue()

        def one(b: Backend, app: AppProcess | None) -> None:
            try:
                results.put((b, self.bring_in(b, app, deadline)))
            except BaseException as exc:  # noqa: BLE001 - handed to the main thread
                results.put((b, exc))

        for b, app in zip(self.backends, self.apps or [None] * len(self.backends)):
            name = f"offcenter-bring-in-{b.name}"
            threading.Thread(target=one, args=(b, app), name=name, daemon=True).start()
        for _ in self.backends:
            b, outcome = results.get()  # a signal's exception interrupts the wait
            if isinstance(outcome, BaseException):
                raise outcome
            if not outcome:
                return b
        return None

    def watch_remote(self) -> None:
        """Processes on other machines (``--backends``): one that HAProxy marks DOWN is held in
        maintenance; when it answers again (restarted by its machine's supervisor), it is
        warmed, then put back in service, so that no student meets it cold."""
        states = server_states(self.admin)
        for b in self.backends:
            state = states.get(b.name, "")
            if b.name in self.in_service:
                if state.startswith("DOWN"):
                    self.in_service.discard(b.name)
                    if not self.args.no_warm:
                        haproxy_command(self.admin, f"set server {POOL}/{b.name} state maint")
                    self.log(f"{b.name} ({b.address}) is down; back in service once it answers")
            elif _healthy(b.host, b.port, timeout=1.0):
                self.bring_in(b, None, time.monotonic() + self.args.start_timeout)

    def stop(self) -> None:
        self.stopping.set()
        if self.haproxy is not None and self.haproxy.poll() is None:
            self.haproxy.terminate()
            try:
                self.haproxy.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.haproxy.kill()
                self.haproxy.wait()
        for app in self.apps:
            if app.proc is not None and app.proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(app.proc.pid, signal.SIGCONT)
                app.proc.terminate()
        for app in self.apps:
            app.stop()
        if self.own_run_dir:
            shutil.rmtree(self.run_dir, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                os.unlink(self.admin)

    # ---------------------------------------------------------------- the whole
    def run(self, binary: str, stop_event) -> int:
        for app in self.apps:
            app.start()
        self.start_haproxy(binary)
        where = ", ".join(
            f"{b.name}={b.address}" + (f" pid {a.proc.pid}" if a else "")
            for b, a in zip(self.backends, self.apps or [None] * len(self.backends))
        )
        self.log(
            f"HAProxy (pid {self.haproxy.pid}) on http://{self.args.address}:{self.args.port} "
            f"in front of {len(self.backends)} Streamlit processes: {where}; "
            f"admin socket {self.admin}"
        )
        if stop_event():
            return 0
        failed = self.bring_in_all(time.monotonic() + self.args.start_timeout)
        if failed:
            self.log(f"{failed.name} ({failed.address}) did not start")
            return 1
        self.log(f"ready: http://{self.args.address}:{self.args.port}")
        restarts: dict[str, list[float]] = {}
        while not stop_event():
            if self.haproxy.poll() is not None:
                recent = [t for t in restarts.get("haproxy", []) if time.monotonic() - t < 60]
                if len(recent) >= 3:
                    self.log(f"HAProxy exited ({self.haproxy.returncode}) again; stopping")
                    return 1
                restarts["haproxy"] = [*recent, time.monotonic()]
                self.restart_haproxy(binary)
            if not self.apps:
                try:
                    self.watch_remote()
                except OSError as exc:  # HAProxy died meanwhile: restarted on the next turn
                    self.log(f"HAProxy did not answer ({exc})")
            for app in self.apps:
                if app.alive():
                    continue
                b = app.backend
                code = app.proc.returncode if app.proc is not None else None
                self.in_service.discard(b.name)
                recent = [t for t in restarts.get(b.name, []) if time.monotonic() - t < 60]
                if len(recent) >= 3:
                    continue  # failing again and again: leave it out (HAProxy has it DOWN)
                self.log(f"{b.name} ({b.address}) exited ({code}); restarting it")
                restarts[b.name] = [*recent, time.monotonic()]
                if not self.args.no_warm:
                    with contextlib.suppress(OSError):
                        haproxy_command(self.admin, f"set server {POOL}/{b.name} state maint")
                app.start()
                try:
                    self.bring_in(b, app, time.monotonic() + self.args.start_timeout)
                except OSError as exc:  # HAProxy died meanwhile: its restart brings the process in
                    self.log(f"{b.name} ({b.address}): HAProxy did not answer ({exc})")
            time.sleep(0.2)
        return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m offcenter.ops.serve",
        description="Serve the app from several Streamlit processes behind HAProxy "
        "(sticky sessions, health checks, warm-up before traffic).",
        epilog="Arguments after -- go to every `streamlit run`. HAProxy: sudo apt-get install "
        "haproxy. See docs/deploy.md.",
    )
    parser.add_argument("--port", type=int, default=8501, help="the public port (HAProxy)")
    parser.add_argument("--address", default="0.0.0.0", help="HAProxy's address")
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="local Streamlit processes (default: one per core)",
    )
    parser.add_argument(
        "--hosts",
        nargs="+",
        metavar="ADDRESS",
        help="addresses the local processes bind, in turn (default 127.0.0.1)",
    )
    parser.add_argument(
        "--backends",
        nargs="+",
        metavar="HOST:PORT",
        help="Streamlit processes already running (other machines): start none locally",
    )
    parser.add_argument(
        "--print-config",
        action="store_true",
        help="print HAProxy's configuration for these processes and exit",
    )
    parser.add_argument(
        "--no-warm",
        action="store_true",
        help="no warm-up before traffic (the processes' own included: OFFCENTER_WARM=0)",
    )
    parser.add_argument(
        "--access-log", metavar="FILE", help="append HAProxy's access log (one line a request)"
    )
    parser.add_argument("--haproxy", metavar="PATH", help="the HAProxy binary")
    parser.add_argument("--run-dir", help="where HAProxy's configuration and admin socket go")
    parser.add_argument("--start-timeout", type=float, default=300.0, help=argparse.SUPPRESS)
    parser.add_argument("--warm-timeout", type=float, default=300.0, help=argparse.SUPPRESS)
    parser.add_argument("streamlit_args", nargs="*", help="more `streamlit run` options (after --)")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    if not 0 < args.port < 65536:
        parser.error("--port must be between 1 and 65535")
    try:
        backends = (
            [parse_backend(t, i + 1) for i, t in enumerate(args.backends)] if args.backends else []
        )
    except ValueError as exc:
        parser.error(f"--backends: {exc}")
    if args.print_config:
        if not backends:
            hosts = args.hosts or ["127.0.0.1"]
            backends = [
                Backend(f"app{i + 1}", hosts[i % len(hosts)], 8601 + i) for i in range(args.workers)
            ]
        print(haproxy_config(backends, bind=f"{args.address}:{args.port}"), end="")
        return 0
    try:
        binary = find_haproxy(args.haproxy)
    except FileNotFoundError as exc:
        print(f"offcenter: {exc}", file=sys.stderr)
        return 2

    def on_signal(signum, frame):
        raise _Stop(signum)

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, on_signal)
    deployment = Deployment(args)
    try:
        return deployment.run(binary, lambda: False)
    except _Stop:
        deployment.log("stopping")
        return 0
    except (RuntimeError, OSError) as exc:
        print(f"offcenter: {exc}", file=sys.stderr)
        return 1
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second signal cannot cut the stop short
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        deployment.stop()
        deployment.log("stopped")


if __name__ == "__main__":
    sys.exit(main())
