"""The load benchmark's summary of HAProxy's access log (benchmarks/bench_classroom.py) reads
the fields of offcenter.ops.serve.LOG_FORMAT where they are: a websocket session's length is
its %Tt, not its byte count."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from offcenter.ops.serve import LOG_FORMAT

ROOT = Path(__file__).resolve().parents[2]


def _bench():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    spec = importlib.util.spec_from_file_location(
        "bench_classroom", ROOT / "benchmarks" / "bench_classroom.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class _Tool:
    @staticmethod
    def pct(xs, q):
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(round(q / 100 * (len(xs) - 1))))]


def test_the_log_summary_reads_each_field_of_the_log_format(tmp_path):
    assert LOG_FORMAT.split() == [
        "%ci", "%b/%s", "%ST", "%Tw", "%Tc", "%Tr", "%Ta", "%Tt", "%B", "%HM", "%HPO",
    ]  # fmt: skip
    log = tmp_path / "access.log"
    log.write_text(
        "127.0.0.1 streamlit/app1 101 0 0 1 48104 48104 2480023 GET /_stcore/stream\n"
        "127.0.0.1 streamlit/app1 101 0 0 2 52000 52000 1000000 GET /_stcore/stream\n"
        "127.0.0.1 streamlit/app1 200 0 0 7 9 9 5120 GET /Tree\n"
        "127.0.0.1 streamlit/app2 503 0 0 -1 3 3 200 GET /\n",
        encoding="utf-8",
    )
    rows = {r["server"]: r for r in _bench().haproxy_log_summary(log, _Tool)}
    assert rows["app1"]["websockets"] == 2 and rows["app1"]["http"] == 1
    assert rows["app1"]["ws_tt_p50_s"] in (48.1, 52.0)  # seconds of the session, not bytes
    assert rows["app1"]["tr_p50_ms"] == 7
    assert rows["app2"]["5xx"] == 1 and rows["app2"]["tr_p50_ms"] is None
