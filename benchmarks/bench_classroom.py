"""Benchmark (not a test): a class on one server, through Streamlit's own websocket protocol.

Starts the app (one ``streamlit run app.py`` process, or the deployment ``python -m
offcenter.ops.serve`` with ``--workers`` processes behind HAProxy), then for each class size runs
the students of ``classroom_load.py`` (the shared load client: ``../shared/tools/classroom_load.py``,
or ``--tool``): students on "Two classes" move theta, on "q classes" move the p1 cursor (sometimes
beta), on "Tree" pick a data set and click nodes (sometimes change the measure and grow), every
1 to 2 s, rerunning a fragment alone where the browser does. A class of N has the proportions of
the class of 30 (22 Two classes, 4 q classes, 4 Tree): 10 = 7/1/2, 60 = 44/8/8, 90 = 66/12/12.

It prints p50/p95/max of the time from an interaction to the end of its script run, per page and
kind, the errors, the server memory (RSS summed over the Streamlit processes, HAProxy and the
launcher) before the class, with every session open, and after they left, and the capacity
curve (students vs p95 of the slowest interaction kind). Behind HAProxy it also prints, per
process, the interactions' p50/p95 (each session's process is the ``X-Offcenter-Backend`` header
of its websocket; each student first asks for its page's address, as a browser does, which
HAProxy balances: the heavy pages, Tree and Compare, one process after the other) and a summary
of HAProxy's access log (requests, websocket sessions, p50/p95
of the server response time Tr). ``--cycles N`` instead opens and closes the 10-student class N
times and prints the memory after each (is it flat?).

    python benchmarks/bench_classroom.py --workers 1 --sizes 30             # one process
    python benchmarks/bench_classroom.py --workers 2 --sizes 60             # the deployment
    python benchmarks/bench_classroom.py --workers 1 --sizes 10,30,50,70,90  # the curve
    python benchmarks/bench_classroom.py --workers 2 --sizes 10,30,50,60,70,90
    python benchmarks/bench_classroom.py --workers 1 --sizes 30 --interactions 100 --duration 200
    python benchmarks/bench_classroom.py --workers 1 --cycles 4 -- --runner.postScriptGC true

Arguments after ``--`` go to ``streamlit run``. Results: benchmarks/results/classroom*.md.

``--duration`` only bounds a class: 25 interactions per student, 1 to 2 s apart, end by
themselves after about 45 s. A bound shorter than that cuts the class at one instant, and there
every student still thinking sends one last interaction at once (the load client's ``think``
returns at the deadline): a burst of some 25 interactions that no class produces, which stalled
the server for half a second and alone decided the p95 of every kind in 40-s runs. Keep the
default bound (60 s) or more; ``--interactions`` makes a longer class.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import platform
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT.parent / "shared" / "tools" / "classroom_load.py"
if not TOOL.exists():
    TOOL = Path("/work/shared/tools/classroom_load.py")
#: Pages of a class of 30 (Two classes, q classes, Tree); other sizes keep the proportions.
CLASS_30 = (22, 4, 4)


def mix(size: int) -> tuple[int, int, int]:
    """(Two classes, q classes, Tree) students of a class of ``size``.

    >>> mix(1), mix(10), mix(30), mix(60), mix(90)
    ((1, 0, 0), (7, 1, 2), (22, 4, 4), (44, 8, 8), (66, 12, 12))
    """
    two = max(1, round(size * CLASS_30[0] / 30))
    q = min(size - two, round(size * CLASS_30[1] / 30))
    return two, q, size - two - q


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as fh:
            return [int(x) for x in fh.read().split()]
    except OSError:
        return []


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _cpu_s(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            parts = fh.read().rsplit(")", 1)[1].split()
        return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return 0.0


class Server:
    """The app under test: one Streamlit process, or the deployment (HAProxy + processes)."""

    def __init__(
        self,
        workers: int,
        extra: list[str],
        access_log: Path | None = None,
        launcher_log: Path | None = None,
        env: dict[str, str] | None = None,
        root: Path = ROOT,
        launcher: list[str] | None = None,
    ):
        """Start it and wait until it is healthy (every process in service); ``env``: more
        environment for it (this process's is inherited); ``root``: the checkout served (this
        one by default); ``launcher``: what stands for ``python -m streamlit`` (one process
        only), e.g. ``[python, "-c", bootstrap]``."""
        self.port = _free_port()
        self.workers = workers
        self.access_log = access_log
        self.launcher_log = launcher_log
        if workers == 1:
            cmd = [*(launcher or [sys.executable, "-m", "streamlit"]), "run", "app.py"]
            cmd += ["--server.port"]
            cmd += [str(self.port), "--server.address", "127.0.0.1", "--server.headless", "true"]
            cmd += ["--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
            cmd += extra
            health = "/_stcore/health"
        else:
            cmd = [sys.executable, "-m", "offcenter.ops.serve", "--port", str(self.port)]
            cmd += ["--address", "127.0.0.1", "--workers", str(workers)]
            if access_log is not None:
                access_log.unlink(missing_ok=True)
                cmd += ["--access-log", str(access_log)]
            cmd += ["--", "--server.fileWatcherType", "none", *extra]
            health = "/healthz"  # 200 once a process is warm and in service
        env = {**os.environ, "PYTHONPATH": str(root), **(env or {})}
        sink = open(launcher_log, "w") if launcher_log else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=sink, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 300
        # every process warm and in service (the launcher warms them one after the other)
        want = workers if workers > 1 else 1
        while True:
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{self.port}{health}", timeout=3
                ) as r:
                    if r.status == 200 and (workers == 1 or self._in_service() >= want):
                        break
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise SystemExit("the app did not start")
            time.sleep(0.5)

    def _in_service(self) -> int:
        """Processes in service behind HAProxy (distinct backends answering new browsers)."""
        seen = set()
        for _ in range(8):
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/_stcore/health") as r:
                seen.add(r.headers.get("X-Offcenter-Backend"))
        return len(seen - {None})

    def pids(self) -> list[int]:
        return [self.proc.pid, *_children(self.proc.pid)]

    def rss_mb(self) -> float:
        return sum(_rss_mb(p) for p in self.pids())

    def cpu_s(self) -> float:
        return sum(_cpu_s(p) for p in self.pids())

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()


#: session name -> the process behind HAProxy that holds it (filled as sessions connect)
BACKENDS: dict[str, str | None] = {}


def per_backend(tool, events_file: Path) -> list[dict]:
    """p50/p95 of the interactions (open excluded) of each process's sessions."""
    groups: dict[str, list[float]] = {}
    errors: dict[str, int] = {}
    with open(events_file, encoding="utf-8") as fh:
        for line in fh:
            e = json.loads(line)
            if e.get("kind") in (None, "error", "open", "compare_fire"):
                continue
            b = BACKENDS.get(e.get("session")) or "-"
            if e.get("error") or e.get("latency") is None:
                errors[b] = errors.get(b, 0) + 1
                continue
            groups.setdefault(b, []).append(e["latency"])
    return [
        {
            "backend": b,
            "sessions": sum(1 for v in BACKENDS.values() if (v or "-") == b),
            "n": len(xs),
            "errors": errors.get(b, 0),
            "p50_ms": round(1000 * tool.pct(xs, 50)),
            "p95_ms": round(1000 * tool.pct(xs, 95)),
        }
        for b, xs in sorted(groups.items())
    ]


def haproxy_log_summary(path: Path, tool, offset: int = 0) -> list[dict]:
    """Per server: HTTP requests and websocket sessions in HAProxy's access log, with p50/p95 of
    the server's response time Tr (headers received; for a websocket, its upgrade) and of the
    websocket sessions' length Tt. Log format: offcenter.ops.serve.LOG_FORMAT."""
    rows: dict[str, dict] = {}
    if not path.exists():
        return []
    with open(path, encoding="utf-8", errors="replace") as fh:
        fh.seek(offset)
        for line in fh:
            parts = line.split()
            if len(parts) < 11 or "/" not in parts[1] or not parts[2].isdigit():
                continue
            server = parts[1].split("/", 1)[1]
            # %ci %b/%s %ST %Tw %Tc %Tr %Ta %Tt %B %HM %HPO
            status, tr, tt, path_ = int(parts[2]), int(parts[5]), int(parts[7]), parts[10:11]
            r = rows.setdefault(server, {"http": 0, "ws": 0, "5xx": 0, "tr": [], "ws_tt": []})
            if status >= 500:
                r["5xx"] += 1
            if status == 101 or (path_ and path_[0].startswith("/_stcore/stream")):
                r["ws"] += 1
                r["ws_tt"].append(tt)
            else:
                r["http"] += 1
                if tr >= 0:
                    r["tr"].append(tr)
    out = []
    for server, r in sorted(rows.items()):
        out.append(
            {
                "server": server,
                "http": r["http"],
                "websockets": r["ws"],
                "5xx": r["5xx"],
                "tr_p50_ms": round(tool.pct(r["tr"], 50)) if r["tr"] else None,
                "tr_p95_ms": round(tool.pct(r["tr"], 95)) if r["tr"] else None,
                "ws_tt_p50_s": round(tool.pct(r["ws_tt"], 50) / 1000, 1) if r["ws_tt"] else None,
            }
        )
    return out


def _switch_note() -> str:
    """The servers' GIL switch interval, as this environment sets it (:mod:`offcenter.ops.gil`;
    the servers inherit the environment): ``OFFCENTER_SWITCH_INTERVAL=1 python
    benchmarks/bench_classroom.py ...`` runs them at 1 ms instead of CPython's 5 ms, for an A/B."""
    sys.path.insert(0, str(ROOT))  # this checkout's package
    from offcenter.ops.gil import switch_interval

    seconds = switch_interval()
    return f"GIL switch interval {seconds * 1000:g} ms" if seconds else "GIL switch interval 5 ms"


def _load_tool():
    spec = importlib.util.spec_from_file_location("classroom_load", TOOL)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["classroom_load"] = mod  # its dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def _page_cookies(url: str, timeout: float) -> str:
    """A browser's first request, the page's address: the ``Cookie`` header a browser sends
    afterwards (behind HAProxy, ``OFFCENTER`` names the process that answered: HAProxy's choice
    for this student, by page for the heavy ones; '' if none)."""
    with urllib.request.urlopen(url, timeout=timeout) as r:
        sent = r.headers.get_all("Set-Cookie") or []
    return "; ".join(c.split(";", 1)[0] for c in sent)


def browser_like_session(tool, page_first: bool = False):
    """The load client's ``Session``, completed with what the browser does with fragments.

    The shared client (``classroom_load.py``) always asks for a full rerun. The browser does not:
    a widget drawn by an ``st.fragment`` (``Delta.fragment_id`` of its element) sends its
    ``rerun_script`` with that ``fragment_id``, and the server reruns the fragment alone; the
    widgets outside the fragment stay on the page with their values. This subclass does the same:

    - it remembers the fragment of every widget it receives;
    - a change of (or trigger on) a fragment's widget sends the fragment's id;
    - after a fragment run it keeps the widgets and values of the rest of the page (the client
      replaces its widget list with the run's, which would drop them);
    - the Tree page's measure choice is keyed ``tr_setting`` since issue 13 (the client looks for
      ``tr_measure``): it is found under both names, so that the Tree students change the
      measure and grow, as the client intends;
    - ``page_first`` (behind HAProxy): like a browser opening the link, it first asks for the
      page's address (``/Tree``), which HAProxy balances (the heavy pages by page) and answers
      with the cookie naming the process, then opens its websocket with that cookie. Without
      it every websocket was balanced alone, by ``leastconn``, whatever its page.

    The Tree chart's click (:func:`offcenter.app.tree_chart.click_state`) is imported here,
    before any class: imported at a session's first run, as it was until session 16, it loaded
    the app's modules (Streamlit, Plotly, scikit-learn: about 1.4 s of CPU) in the load client
    while the class opened, its event loop blocked, and the first students' opens were charged
    with it: the first run of ``--fresh 3`` (the client imports once) had the 1.4 s Tree open
    and the 350-360 ms Two-classes and q-classes opens of session 15's one-process runs.
    The client's heap is then frozen out of its garbage collections (``gc.freeze``), so that
    those modules' objects do not lengthen its collections during the class.
    """
    import gc

    sys.path.insert(0, str(ROOT))  # this checkout's package
    from offcenter.app.tree_chart import click_state
    from offcenter.viz.tree import selected_node

    gc.collect()
    gc.freeze()

    class BrowserLikeSession(tool.Session):
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            self.fragment_of: dict[str, str] = {}  # widget id -> fragment id
            self._fragment = ""

        async def connect(self) -> None:
            if not page_first:
                await super().connect()
            else:
                port = self.url.split(":")[2].split("/")[0]
                page = tool.PAGE_OF.get(self.name.rsplit("-", 1)[0], "")
                cookie = await asyncio.to_thread(
                    _page_cookies, f"http://{tool.HOST}:{port}/{page}", self.timeout
                )
                self.ws = await tool.websockets.connect(
                    self.url,
                    subprotocols=["streamlit"],
                    max_size=None,
                    open_timeout=self.timeout,
                    ping_interval=20,
                    ping_timeout=60,
                    close_timeout=5,
                    origin=f"http://{tool.HOST}:{port}",
                    additional_headers={"Cookie": cookie} if cookie else None,
                )
                self._reader = asyncio.create_task(self._read_loop())
            # behind HAProxy: the process that holds this session (None on one process)
            BACKENDS[self.name] = self.ws.response.headers.get("X-Offcenter-Backend")

        def _on_message(self, data: bytes) -> None:
            msg = tool.ForwardMsg()
            msg.ParseFromString(data)
            if msg.WhichOneof("type") == "delta" and msg.delta.fragment_id:
                el = msg.delta.new_element
                et = (
                    el.WhichOneof("type") if msg.delta.WhichOneof("type") == "new_element" else None
                )
                wid = getattr(getattr(el, et), "id", "") if et else ""
                if wid:
                    self.fragment_of[wid] = msg.delta.fragment_id
            super()._on_message(data)

        def _client_state(self, initial_page, changes, triggers):
            bm = super()._client_state(initial_page, changes, triggers)
            ids = [*changes, *(t.id for t in triggers)]
            frags = {self.fragment_of.get(i, "") for i in ids}
            self._fragment = frags.pop() if len(frags) == 1 and initial_page is None else ""
            if self._fragment:
                bm.rerun_script.fragment_id = self._fragment
            return bm

        def _chart_clicks(self, changes, triggers):
            """The Tree chart is a component (offcenter.app.tree_chart) since session 15: the
            client's plotly selection event on ``tr_chart`` becomes the component's ``node``
            trigger, sent as the browser sends it (in the chart's fragment)."""
            changes, triggers = dict(changes or {}), list(triggers or [])
            for wid, ws in list(changes.items()):
                w = next((w for w in self.widgets.values() if w["id"] == wid), None)
                if w is None or w["type"] != "bidi_component":
                    continue
                if ws.WhichOneof("value") != "string_value":
                    continue
                del changes[wid]
                node = selected_node(json.loads(ws.string_value))
                if node is not None:
                    click = click_state(wid, node)
                    self.fragment_of[click.id] = self.fragment_of.get(wid, "")
                    triggers.append(click)
            return changes, triggers

        async def run(self, initial_page=None, changes=None, triggers=None, send_only=False):
            changes, triggers = self._chart_clicks(changes, triggers)
            widgets, values = dict(self.widgets), dict(self.values)
            r = await super().run(initial_page, changes, triggers, send_only)
            if self._fragment and not send_only:
                # the run redrew the fragment only: the rest of the page is still there
                ran = self.fragment_of
                kept = {k: w for k, w in widgets.items() if ran.get(w["id"]) != self._fragment}
                self.widgets = {**kept, **self.widgets}
                ids = {w["id"] for w in self.widgets.values()}
                self.values = {**{k: v for k, v in values.items() if k in ids}, **self.values}
            if "tr_setting" in self.widgets:
                self.widgets["tr_measure"] = self.widgets["tr_setting"]
            return r

    return BrowserLikeSession


def run_class(tool, server: Server, size: int, args, out: Path, tag: str) -> dict:
    """One class of ``size`` students; the load client's summary (memory summed over pids)."""
    two, q, tree = mix(size)

    def read(self):  # the load client's monitor, over every process of the app
        return {
            "t": tool.now(),
            "cpu_s": server.cpu_s(),
            "rss_mb": server.rss_mb(),
            "threads": 0,
            "client_cpu_s": sum(os.times()[:2]),
        }

    tool.Monitor.read = read
    targs = tool.parse(
        [
            "--port", str(server.port), "--pid", "1", "--two", str(two), "--q", str(q),
            "--tree", str(tree), "--interactions", str(args.interactions),
            "--duration", str(args.duration), "--ramp", str(args.ramp),
            "--settle", str(args.settle), "--seed", str(args.seed),
            "--hold", str(args.hold), "--out", str(out / f"{tag}_n{size}"),
        ]
    )  # fmt: skip
    return asyncio.run(tool.main(targs))


def warm_up(tool, server: Server, args) -> None:
    """Open each page once (imports, caches of bundled data) before anything is measured.

    One process is warmed as the deployment warms each of its processes
    (:func:`offcenter.ops.warmup.warm`: every page, and the Tree page on every bundled data set,
    so that its tree and root tables are in the process's caches).
    """
    if server.workers == 1:
        sys.path.insert(0, str(ROOT))  # this checkout's package
        from offcenter.ops.warmup import warm

        asyncio.run(warm([server.port]))
    for role in ("two", "q", "tree"):

        async def one(role=role):
            s = tool.Session(f"warm-{role}", server.port, args.timeout)
            await s.connect()
            await s.run(initial_page=tool.PAGE_OF[role])
            await s.close()

        asyncio.run(one())


def _table(rows: list[tuple]) -> str:
    head = "| students | page | interaction | n | errors | p50 ms | p95 ms | max ms |"
    lines = [head, "|" + "---|" * 8]
    for size, r in rows:
        lines.append(
            f"| {size} | {r['role']} | {r['kind']} | {r['n']} | {r['errors']} | "
            f"{r['p50_ms']} | {r['p95_ms']} | {r['max_ms']} |"
        )
    return "\n".join(lines)


def _curve(rows: list[tuple]) -> str:
    """The capacity curve: per class size, the p95 of its slowest interaction kind."""
    by_size: dict[int, list[dict]] = {}
    for size, r in rows:
        by_size.setdefault(size, []).append(r)
    lines = [
        "| students | interactions | errors | p95 ms, slowest kind (open excluded) | kind |",
        "|---|---|---|---|---|",
    ]
    for size, rs in sorted(by_size.items()):
        kinds = [r for r in rs if r["kind"] != "open" and r["p95_ms"] is not None]
        worst = max(kinds, key=lambda r: r["p95_ms"]) if kinds else None
        lines.append(
            f"| {size} | {sum(r['n'] for r in rs)} | {sum(r['errors'] + r['with_exc'] for r in rs)} "
            f"| {worst['p95_ms'] if worst else '-'} | "
            f"{worst['role'] + ' ' + worst['kind'] if worst else '-'} |"
        )
    return "\n".join(lines)


def server_cpu(events_file: Path, monitor_file: Path) -> dict:
    r"""The server's CPU seconds in a class (summed over its processes, read every 0.5 s by the
    load client's monitor): before it (the start-up, and the server's own warm-up), from the
    class's start to the end of the last session's first run (the opens), and over the whole
    class; and per interaction after the opens (all kinds). Figures that the machine's other
    load does not inflate as it does latencies.

    >>> import tempfile, json
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = (d / "m.csv").write_text("t,cpu_s,rss_mb,threads,client_cpu_s\n1,10,0,0,0\n"
    ...     "2,11,0,0,0\n3,12.5,0,0,0\n4,13,0,0,0\n")
    >>> ev = [{"kind": "open", "latency": 0.5, "t": 2.4}, {"kind": "theta", "latency": 0.1, "t": 3.9}]
    >>> _ = (d / "e.jsonl").write_text("\n".join(json.dumps(e) for e in ev))
    >>> server_cpu(d / "e.jsonl", d / "m.csv")
    {'before_s': 10.0, 'opens_s': 2.5, 'class_s': 3.0, 'per_interaction_ms': 500.0}
    """
    samples = []
    with open(monitor_file, encoding="utf-8") as fh:
        next(fh)
        for line in fh:
            t, cpu = line.split(",")[:2]
            samples.append((float(t), float(cpu)))
    events = [json.loads(x) for x in events_file.read_text(encoding="utf-8").splitlines() if x]
    opens = [e["t"] for e in events if e.get("kind") == "open"]
    others = [e for e in events if e.get("kind") not in (None, "open", "error", "compare_fire")]

    def at(t: float) -> float:  # the first sample at or after t (the last one at the end)
        return next((c for ts, c in samples if ts >= t), samples[-1][1])

    first, last = samples[0][1], samples[-1][1]
    opened = at(max(opens)) if opens else first
    return {
        "before_s": round(first, 1),
        "opens_s": round(opened - first, 1),
        "class_s": round(last - first, 1),
        "per_interaction_ms": round(1000 * (last - opened) / max(1, len(others)), 1),
    }


def roles_per_backend(backends: dict[str, str | None]) -> dict[str, dict[str, int]]:
    """Students of each role per process, from session names (``tree-52``) and the process
    that holds each session.

    >>> roles_per_backend({"two-1": "app1", "tree-2": "app2", "tree-3": "app2", "q-4": None})
    {'app1': {'two': 1}, 'app2': {'tree': 2}, '-': {'q': 1}}
    """
    out: dict[str, dict[str, int]] = {}
    for name, backend in backends.items():
        role = name.rsplit("-", 1)[0]
        roles = out.setdefault(backend or "-", {})
        roles[role] = roles.get(role, 0) + 1
    return out


def fresh_runs(tool, args, size: int, out: Path, raw: Path) -> None:
    """The first class after start-up, ``args.fresh`` times, each on a newly started server.

    Nothing of ours runs before the measured class: the server is started, its health check
    (the deployment's: every process warmed by the launcher and in service; one ``streamlit
    run``: its own health route) says ready, and the class of ``size`` opens within
    ``args.ramp`` seconds. Prints, per page and interaction kind, the p95 of every run, their
    median and the worst, and the errors.
    """
    tag = f"fresh_w{args.workers}_n{size}"
    per_run: list[dict] = []
    cpu: list[dict] = []
    split: list[dict] = []
    t0 = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    for run in range(args.fresh):
        server = Server(args.workers, args.streamlit_args)
        BACKENDS.clear()
        try:
            s = run_class(tool, server, size, args, raw, f"{tag}_run{run + 1}")
        finally:
            server.stop()
        per_run.append({(r["role"], r["kind"]): r for r in s["latency"]})
        split.append(roles_per_backend(BACKENDS))
        stem = raw / f"{tag}_run{run + 1}_n{size}"
        cpu.append(server_cpu(Path(f"{stem}.events.jsonl"), Path(f"{stem}.monitor.csv")))
        time.sleep(3)
    kinds = sorted({k for r in per_run for k in r})
    lines = [
        f"First class on a fresh server: workers={args.workers}, {size} students opening within "
        f"{args.ramp:g} s of ready, {args.interactions} interactions each; {args.fresh} runs, "
        f"each on a newly started server, nothing before the measured class; started {t0}; "
        f"{os.cpu_count()} cores; {_switch_note()}; load average at the end "
        + ", ".join(f"{x:.1f}" for x in os.getloadavg()),
        "",
        "| page | interaction | n (all runs) | errors | p95 ms per run | median p95 | worst p95 "
        "| worst max ms |",
        "|---|---|---|---|---|---|---|---|",
    ]
    worst_all = 0
    errors_all = 0
    for k in kinds:
        rs = [r.get(k) for r in per_run]
        p95 = [r["p95_ms"] for r in rs if r and r["p95_ms"] is not None]
        n = sum(r["n"] for r in rs if r)
        err = sum(r["errors"] + r["with_exc"] for r in rs if r)
        errors_all += err
        mx = max((r["max_ms"] for r in rs if r and r["max_ms"] is not None), default=None)
        med = sorted(p95)[len(p95) // 2] if p95 else None
        worst = max(p95) if p95 else None
        worst_all = max(worst_all, worst or 0)
        lines.append(
            f"| {k[0]} | {k[1]} | {n} | {err} | {' / '.join(map(str, p95))} | {med} | {worst} "
            f"| {mx} |"
        )
    lines += ["", f"worst p95 of any kind in any run: {worst_all} ms; errors: {errors_all}"]
    lines += [
        "",
        "Server CPU (all its processes; the figures the machine's other load inflates least):",
        "",
        "| run | before the class s | until every session opened s | whole class s "
        "| per interaction after the opens ms |",
        "|---|---|---|---|---|",
        *(
            f"| {i + 1} | {c['before_s']} | {c['opens_s']} | {c['class_s']} "
            f"| {c['per_interaction_ms']} |"
            for i, c in enumerate(cpu)
        ),
    ]
    if args.workers > 1:
        lines += [
            "",
            "Students per process (HAProxy's choice: each student asks for its page's address "
            "first, as a browser does, then opens its websocket with the cookie it got; the "
            "X-Offcenter-Backend header of each session's websocket):",
            "",
            *(
                f"- run {i + 1}: "
                + "; ".join(
                    f"{b}: " + ", ".join(f"{n} {r}" for r, n in sorted(roles.items()))
                    for b, roles in sorted(sp.items())
                )
                for i, sp in enumerate(split)
            ),
        ]
    text = "\n".join(lines) + "\n"
    print(text)
    (out / f"classroom_{tag}.md").write_text(text, encoding="utf-8")


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--workers", type=int, default=2, help="Streamlit processes (1: no proxy)")
    p.add_argument("--sizes", default="1,10,30", help="class sizes (comma-separated)")
    p.add_argument("--interactions", type=int, default=25, help="per student")
    p.add_argument("--duration", type=float, default=60.0, help="s per class (bound)")
    p.add_argument("--ramp", type=float, default=5.0, help="s over which sessions open")
    p.add_argument("--settle", type=float, default=10.0, help="s after they leave, then RSS")
    p.add_argument(
        "--hold",
        type=float,
        default=0.0,
        help="s every session stays open after the class's end (0: each leaves after its last "
        "interaction)",
    )
    p.add_argument("--timeout", type=float, default=60.0)
    p.add_argument("--cycles", type=int, default=0, help="memory test: open/close N classes")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--fresh",
        type=int,
        default=0,
        help="first class on a fresh server, N times: each run starts the app anew, no warm-up "
        "session of ours and no earlier class before the measured one (one size)",
    )
    p.add_argument("--out", default=str(ROOT / "benchmarks" / "results"))
    p.add_argument("streamlit_args", nargs="*", help="after --: more `streamlit run` options")
    args = p.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    if any(not 1 <= s <= 200 for s in sizes):
        p.error("--sizes: class sizes between 1 and 200")
    out = Path(args.out)
    raw = out / "classroom_runs"
    raw.mkdir(parents=True, exist_ok=True)
    tool = _load_tool()
    tool.Session = browser_like_session(tool, page_first=args.workers > 1)
    if args.fresh:
        if len(sizes) != 1:
            p.error("--fresh: one class size")
        fresh_runs(tool, args, sizes[0], out, raw)
        return
    tag = f"w{args.workers}" + ("_" + "_".join(args.streamlit_args) if args.streamlit_args else "")
    tag = tag.replace("--", "").replace(".", "-").replace(" ", "")
    balancer = args.workers > 1
    access_log = raw / f"{tag}_haproxy_access.log" if balancer else None
    launcher_log = raw / f"{tag}_launcher.log" if balancer else None
    server = Server(args.workers, args.streamlit_args, access_log, launcher_log)
    rows, memory, errors, backends, logs = [], [], 0, [], []
    try:
        warm_up(tool, server, args)
        time.sleep(2)
        start_rss = server.rss_mb()
        if args.cycles:
            print(f"memory across {args.cycles} open/close cycles of 10 students ({tag})")
            print(f"start (after one visit of each page): {start_rss:.1f} MB")
            for c in range(args.cycles):
                s = run_class(tool, server, 10, args, raw, f"{tag}_cycle{c}")
                errors += sum(r["errors"] for r in s["latency"])
                memory.append((c + 1, s["rss_all_open_mb"], s["rss_after_close_mb"]))
                print(f"cycle {c + 1}: all open {s['rss_all_open_mb']} MB, after close "
                      f"{s['rss_after_close_mb']} MB")  # fmt: skip
        else:
            for size in sizes:
                before = server.rss_mb()
                BACKENDS.clear()
                offset = access_log.stat().st_size if balancer and access_log.exists() else 0
                s = run_class(tool, server, size, args, raw, tag)
                errors += sum(r["errors"] + r["with_exc"] for r in s["latency"])
                rows += [(size, r) for r in s["latency"]]
                memory.append((size, round(before, 1), s["rss_all_open_mb"],
                               s["rss_after_close_mb"]))  # fmt: skip
                if balancer:
                    events = raw / f"{tag}_n{size}.events.jsonl"
                    backends += [(size, r) for r in per_backend(tool, events)]
                    logs += [(size, r) for r in haproxy_log_summary(access_log, tool, offset)]
    finally:
        server.stop()
    cpu = f"{os.cpu_count()} cores, {platform.processor() or platform.machine()}"
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    head = (
        f"workers={args.workers} streamlit args={' '.join(args.streamlit_args) or '-'}; "
        f"{cpu}; {_switch_note()}; think 1-2 s, {args.interactions} interactions or {args.duration:g} s per student; "
        f"load average at the end {load} (above 2 on 2 cores: other work shared the machine)"
    )
    if args.cycles:
        text = head + "\n\n| cycle | RSS all open MB | RSS after close MB |\n|---|---|---|\n"
        text += "\n".join(f"| {c} | {a} | {b} |" for c, a, b in memory)
        text += f"\n\nstart {start_rss:.1f} MB; errors {errors}\n"
    else:
        text = head + "\n\n" + _table(rows) + "\n\n"
        text += (
            "| students | RSS before MB | all open MB | after they left MB |\n|---|---|---|---|\n"
        )
        text += "\n".join(f"| {a} | {b} | {c} | {d} |" for a, b, c, d in memory)
        text += f"\n\nerrors (failed runs or exceptions): {errors}\n"
        text += "\n" + _curve(rows) + "\n"
        if balancer:
            text += "\nPer process (each session's process: the X-Offcenter-Backend header):\n\n"
            text += "| students | process | sessions | interactions | errors | p50 ms | p95 ms |\n"
            text += "|---|---|---|---|---|---|---|\n"
            text += "\n".join(
                f"| {n} | {r['backend']} | {r['sessions']} | {r['n']} | {r['errors']} | "
                f"{r['p50_ms']} | {r['p95_ms']} |"
                for n, r in backends
            )
            text += "\n\nHAProxy's access log per server (Tr: the server's response time):\n\n"
            text += (
                "| students | server | HTTP requests | websockets | 5xx | Tr p50 ms | Tr p95 ms "
            )
            text += "| websocket length p50 s |\n|---|---|---|---|---|---|---|---|\n"
            text += "\n".join(
                f"| {n} | {r['server']} | {r['http']} | {r['websockets']} | {r['5xx']} | "
                f"{r['tr_p50_ms']} | {r['tr_p95_ms']} | {r['ws_tt_p50_s']} |"
                for n, r in logs
            )
            downs = launcher_log.read_text(errors="replace").count(" is DOWN")
            text += f"\n\nprocesses taken out by a health check during the run: {downs}\n"
    print()
    print(text)
    suffix = "_cycles" if args.cycles else "_n" + "-".join(map(str, sizes))
    name = f"classroom_{tag}{suffix}.md"
    (out / name).write_text(text, encoding="utf-8")
    (raw / (name + ".json")).write_text(json.dumps({"rows": rows, "memory": memory}, default=str))


if __name__ == "__main__":
    main()
