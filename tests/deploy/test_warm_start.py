"""A fresh ``streamlit run app.py`` is warm before it says it is up (issue 34, "the first class
fast"): ``app.py``'s ``st.App`` lifespan (:func:`offcenter.ops.warmup.lifespan`) runs every
link of :data:`offcenter.ops.warmup.LINKS` in the server's process before uvicorn accepts a
connection. The evidence is the server's own: at the first 200 of ``/_stcore/health``, before
any session of ours, Streamlit's ``/_stcore/metrics`` already counts the cache misses of every
page's data (each bundled data set read, each Tree fitted). With ``OFFCENTER_WARM=0`` the same server answers 200 cold (the
control: the check can fail).
"""

from __future__ import annotations

import os
import re
import subprocess
import urllib.request
from pathlib import Path

from offcenter.data.datasets import DATASETS
from offcenter.ops.serve import streamlit_command
from offcenter.ops.warmup import LINKS, WARM_ENV, wait_healthy
from tests.conftest import stop_process
from tests.deploy.test_memory import _free_port

ROOT = Path(__file__).resolve().parents[2]


def _misses(metrics: str) -> dict[str, int]:
    """Each cached function's misses in Streamlit's metrics text (``cache_lookups_total``)."""
    out = {}
    for m in re.finditer(
        r'cache_lookups_total\{cache="([^"]+)"[^}]*result="miss"\} (\d+)', metrics
    ):
        out[m[1]] = int(m[2])
    return out


def _first_health(tmp_path, warm: bool) -> tuple[dict[str, int], str]:
    """Start the app, wait for its first healthy answer, then read its metrics and its log;
    stop it."""
    port = _free_port()
    log = tmp_path / "server.log"
    env = {**os.environ, WARM_ENV: "1" if warm else "0", "PYTHONPATH": str(ROOT)}
    cmd = streamlit_command(port, "127.0.0.1", "--server.fileWatcherType", "none")
    with open(log, "w") as sink:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT)
    try:
        assert wait_healthy(port, wait=300, process=proc), log.read_text()  # a bound, not a time
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/metrics", timeout=30) as r:
            metrics = r.read().decode()
    finally:
        stop_process(proc)
    return _misses(metrics), log.read_text()


def test_a_fresh_server_has_run_every_page_before_its_health_check_answers(tmp_path):
    misses, log = _first_health(tmp_path, warm=True)
    assert f"own warm-up: {len(LINKS)} of {len(LINKS)} links run in this process" in log, log
    assert "links failed" not in log, log
    # every bundled data set read (the Tree page on each), a tree fitted and drawn for each
    assert misses.get("offcenter.app.data_picker.cached_dataset", 0) >= len(DATASETS), misses
    for cache in (
        "offcenter.app.tree_page.cached_fit",
        "offcenter.app.tree_click.cached_tree_layout",
        "offcenter.app.node_settings.node_tables",
        "offcenter.app.study_view._load",
    ):
        assert misses.get(cache, 0) >= 1, (cache, misses)


def test_without_the_warm_up_the_same_server_answers_cold(tmp_path):
    misses, log = _first_health(tmp_path, warm=False)
    assert "warm-up" not in log, log
    assert not any(misses.values()), misses


def test_streamlit_finds_the_asgi_app_of_app_py():
    # `streamlit run app.py` runs app.py's st.App (its lifespan) only if its discovery sees it
    from streamlit.web.server.app_discovery import discover_asgi_app

    found = discover_asgi_app(ROOT / "app.py")
    assert found.is_asgi_app and found.import_string == "app:app"
