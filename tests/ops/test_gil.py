"""The app process's GIL switch interval (offcenter.ops.gil): 5 ms by default, set by the
server's lifespan before its warm-up; the environment variable read safely."""

from __future__ import annotations

import sys

import pytest

from offcenter.ops import gil, warmup
from tests.conftest import run_coroutine


@pytest.fixture
def restore_interval():
    before = sys.getswitchinterval()
    yield
    sys.setswitchinterval(before)


@pytest.mark.parametrize(
    ("value", "seconds"),
    [("", 0.005), ("1", 0.001), (" 2.5 ", 0.0025), ("0.25", 0.00025), ("100", 0.1), ("0", None)],
)
def test_the_interval_read_from_the_environment(value, seconds):
    assert gil.switch_interval({gil.SWITCH_ENV: value}) == seconds


@pytest.mark.parametrize("value", ["five", "-1", "nan", "inf", "1e400", "101", "1ms", "=1+2"])
def test_a_bad_value_gives_a_message_and_the_default(value, capsys):
    assert gil.switch_interval({gil.SWITCH_ENV: value}) == gil.DEFAULT_MS / 1000
    err = capsys.readouterr().err
    assert gil.SWITCH_ENV in err and "milliseconds" in err
    assert "Traceback" not in err


def test_apply_sets_the_process_interval(restore_interval):
    sys.setswitchinterval(0.002)
    assert gil.apply({}) == pytest.approx(0.005)
    assert sys.getswitchinterval() == pytest.approx(0.005)
    assert gil.apply({gil.SWITCH_ENV: "0.5"}) == pytest.approx(0.0005)


def test_zero_leaves_pythons_interval(restore_interval):
    sys.setswitchinterval(0.002)
    assert gil.apply({gil.SWITCH_ENV: "0"}) == pytest.approx(0.002)


def test_the_servers_lifespan_sets_it_before_the_warm_up(restore_interval, monkeypatch):
    sys.setswitchinterval(0.002)
    seen = []

    async def fake_warm(runtime):
        seen.append(sys.getswitchinterval())
        return []

    monkeypatch.setenv(warmup.WARM_ENV, "1")
    monkeypatch.setenv(gil.SWITCH_ENV, "1")
    monkeypatch.setattr(warmup, "warm_runtime", fake_warm)
    monkeypatch.setattr("streamlit.runtime.Runtime.instance", staticmethod(lambda: None))

    async def go():
        async with warmup.lifespan(None):
            return sys.getswitchinterval()

    # the interval is the process's, so the lifespan may run in a thread of its own
    assert run_coroutine(go()) == pytest.approx(0.001)
    assert seen == [pytest.approx(0.001)]
