"""Sessions stay apart: what one student does (an upload, a theta) never shows in another's page,
on one Streamlit process (several processes behind HAProxy: tests/deploy/test_haproxy.py)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.conftest import run_app

ROOT = Path(__file__).resolve().parents[2]
TREE = str(ROOT / "pages" / "3_Tree.py")
TWO = str(ROOT / "pages" / "1_Two_classes.py")
GOOD = ROOT / "tests" / "data" / "bad_csv" / "good" / "semicolon_latin1.csv"


def _run(at):
    return run_app(at)


def test_an_upload_in_one_session_is_invisible_in_another():
    one = _run(AppTest.from_file(TREE, default_timeout=120))
    other = _run(AppTest.from_file(TREE, default_timeout=120))
    one.file_uploader(key="tr_file").set_value(("fr.csv", GOOD.read_bytes(), "text/csv"))
    one = _run(one)
    assert one.selectbox(key="tr_data").value == "upload"
    other = _run(other)
    assert other.selectbox(key="tr_data").value != "upload"
    assert "upload" not in other.selectbox(key="tr_data").options
    assert one.session_state["data_upload"] is not None  # the upload, shared by one's pages
    assert "data_upload" not in other.session_state or other.session_state["data_upload"] is None


def test_a_theta_in_one_session_is_not_anothers():
    one = _run(AppTest.from_file(TWO, default_timeout=120))
    other = _run(AppTest.from_file(TWO, default_timeout=120))
    one.slider(key="tc_theta").set_value(0.7)
    one = _run(one)
    other = _run(other)
    assert one.slider(key="tc_theta").value == 0.7
    assert other.slider(key="tc_theta").value == 0.2
