"""A full temporary directory does not break uploads (issue 34): Streamlit's upload route
spooled every file over 1 MB there (Starlette's multipart parser), and with it full the
student saw "AxiosError: Network Error"; the app keeps uploads in memory up to the upload
limit (:func:`offcenter.app.session_end.keep_uploads_in_memory`).

Needs a small tmpfs (``mount``, so root): a failure otherwise, never a skip.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import subprocess
from pathlib import Path

import pytest
import requests

from offcenter.ops.serve import BACKEND_HEADER, COOKIE
from tests.deploy.test_haproxy import Tab, run


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


def test_an_upload_over_1_mb_works_with_the_temporary_directory_full(deployment):
    """On the tier's shared deployment (tests/deploy/conftest.py: its processes' ``TMPDIR`` is a
    full tmpfs), a session's upload of 5 MB through HAProxy, as a browser sends it (the
    process's cookie, Streamlit's XSRF token), is stored: 204."""
    assert shutil.disk_usage(deployment.tmpdir).free < 2**20  # (the directory is still full)
    base = f"http://127.0.0.1:{deployment.port}"
    browser = requests.Session()
    health = browser.get(f"{base}/_stcore/health", timeout=30)  # as the frontend does first
    assert health.status_code == 200
    xsrf = browser.cookies.get("_streamlit_xsrf")
    assert xsrf and browser.cookies.get(COOKIE), browser.cookies.get_dict()

    async def upload() -> int:
        tab = Tab(deployment.port, browser.cookies.get_dict())
        await tab.open("")
        try:
            assert tab.backend == health.headers[BACKEND_HEADER] and tab.session_id
            url = f"{base}/_stcore/upload_file/{tab.session_id}/file-1"
            body = b"x,y\n" * (5 * 2**20 // 4)
            files = {"file": ("u.csv", body, "text/csv")}
            put = await asyncio.to_thread(
                browser.put, url, files=files, headers={"X-Xsrftoken": xsrf}, timeout=120
            )
            return put.status_code
        finally:
            await tab.close()

    assert run(upload()) == 204
