"""A full temporary directory does not break uploads (issue 34): Streamlit's upload route
spooled every file over 1 MB there (Starlette's multipart parser), and with it full the
student saw "AxiosError: Network Error"; the app keeps uploads in memory up to the upload
limit (:func:`offcenter.app.session_end.keep_uploads_in_memory`).

Needs a small tmpfs (``mount``, so root); skipped otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
from pathlib import Path

import pytest
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.asyncio.client import connect

from offcenter.ops.serve import streamlit_command
from offcenter.ops.warmup import wait_healthy
from tests.conftest import run_coroutine
from tests.deploy.test_memory import _free_port, _put

ROOT = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def mounted_full_tmp(where: Path):
    """A 2 MB tmpfs at ``where`` (made), filled but for 64 kB; unmounted after."""
    where.mkdir(parents=True, exist_ok=True)
    ok = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(where)], capture_output=True
    )
    if ok.returncode != 0:
        # a failure, never a skip (as a missing browser): CI runs the deployment tier as root
        pytest.fail(f"cannot mount a tmpfs here (needs root): {ok.stderr.decode()[:200]}")
    try:
        # fill it, leaving room for tempfile's own check of the directory, not for a file
        (where / "filler").write_bytes(b"\0" * (2 * 2**20 - 64 * 2**10))
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


@pytest.fixture
def full_tmp(tmp_path):
    with mounted_full_tmp(tmp_path / "tmpfs") as where:
        yield where


async def _upload_in_a_session(port: int, size: int) -> int:
    conn = await connect(
        f"ws://127.0.0.1:{port}/_stcore/stream", subprotocols=["streamlit"], max_size=None
    )
    try:
        bm = BackMsg()
        bm.rerun_script.page_name = ""
        bm.rerun_script.widget_states.SetInParent()
        await conn.send(bm.SerializeToString())
        session_id = None
        async for data in conn:
            msg = ForwardMsg()
            msg.ParseFromString(data)
            kind = msg.WhichOneof("type")
            if kind == "new_session":
                session_id = msg.new_session.initialize.session_id
            if kind == "script_finished":
                break
        return await asyncio.to_thread(_put, port, session_id, size)
    finally:
        await conn.close()


def test_an_upload_over_1_mb_works_with_the_temporary_directory_full(full_tmp):
    port = _free_port()
    cmd = streamlit_command(
        port,
        "127.0.0.1",
        "--server.fileWatcherType",
        "none",
        "--server.enableXsrfProtection",
        "false",
    )
    env = {**os.environ, "TMPDIR": str(full_tmp), "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        assert wait_healthy(port, wait=180, process=proc), "no server"
        assert run_coroutine(_upload_in_a_session(port, 5 * 2**20)) == 204
    finally:
        proc.terminate()
        proc.wait(timeout=30)
