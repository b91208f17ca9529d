"""offcenter.app.result_store: the Compare page's least-recently-used result store."""

import threading

import pytest

from offcenter.app.result_store import CAPACITY, ResultStore, shared_result_store


def test_get_put_and_default():
    s = ResultStore(3)
    assert s.get("a") is None and s.get("a", "none") == "none"
    s.put("a", 1)
    assert s.get("a") == 1 and "a" in s and len(s) == 1
    s.put("a", 2)  # replaced, not added
    assert s.get("a") == 2 and len(s) == 1


def test_least_recently_used_goes_first():
    s = ResultStore(3)
    for k in "abc":
        s.put(k, k.upper())
    s.get("a")  # a read counts as a use
    s.put("d", "D")
    assert s.keys() == ["c", "a", "d"]
    s.put("c", "C2")  # so does a write
    s.put("e", "E")
    assert s.keys() == ["d", "c", "e"]
    assert s.get("a") is None and s.get("b") is None


def test_a_stored_none_is_told_apart_with_a_default():
    s = ResultStore(2)
    s.put("k", None)
    missing = object()
    assert "k" in s and s.get("k", missing) is None and s.get("x", missing) is missing


@pytest.mark.parametrize(
    "bad, exc",
    [(0, ValueError), (-1, ValueError), (2.5, TypeError), (True, TypeError), ("3", TypeError)],
)
def test_bad_capacity_is_named(bad, exc):
    with pytest.raises(exc, match="capacity"):
        ResultStore(bad)


def test_threads_never_exceed_the_capacity():
    s = ResultStore(8)
    errors = []

    def work(t):
        try:
            for i in range(2000):
                s.put((t, i % 20), i)
                s.get((t, (i * 7) % 20))
                assert len(s) <= 8
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    assert len(s) == 8 and len(set(s.keys())) == 8


def test_the_shared_store_is_one_per_process():
    a = shared_result_store()
    assert a is shared_result_store() and a.capacity == CAPACITY
