"""offcenter.app.downloads: CSV bytes of a table and the download button drawing them."""

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from offcenter.app.downloads import frame_csv


def test_frame_csv_plain_and_relabelled():
    df = pd.DataFrame({"p": [0.0, 0.5], "oc_shannon": [0.0, 1.0], "x": ["a,b", "é"]})
    df.attrs["labels"] = {"oc_shannon": "off-centered Shannon", "absent": "ignored"}
    assert frame_csv(df) == df.to_csv(index=False, lineterminator="\r\n").encode("utf-8")
    text = frame_csv(df, relabel=True).decode("utf-8")
    assert text.splitlines()[0] == "p,off-centered Shannon,x"
    assert '"a,b"' in text and "é" in text
    assert list(df.columns) == ["p", "oc_shannon", "x"]  # the frame itself is unchanged


def test_frame_csv_without_labels_keeps_the_names():
    df = pd.DataFrame({"a": [1]})
    assert frame_csv(df, relabel=True) == b"a\r\n1\r\n"


def test_frame_csv_names_a_bad_argument():
    with pytest.raises(TypeError, match="frame"):
        frame_csv([[1, 2]])


def _script():
    import pandas as pd
    import streamlit as st

    from offcenter.app.downloads import csv_button

    df = pd.DataFrame({"p": [0.5], "g": [1.0]})
    df.attrs["labels"] = {"g": "Gini"}
    csv_button("Frame", df, "frame.csv", "dl_frame", relabel=True)
    c1, _ = st.columns(2)
    csv_button("Callable", lambda: df, "later.csv", "dl_later", container=c1)
    csv_button("Rerun", df, "rerun.csv", "dl_rerun", rerun=True)


def _buttons(at):
    return {b.label: b.proto for b in at.get("download_button")}


def test_every_download_is_a_static_file_that_survives_reruns():
    """The download race (three CSV buttons clicked 0.3 s apart): no deferred download, whose
    id a rerun revokes; a static file with the same URL on the next run, and a click that does
    not rerun the page (the browser test clicks three buttons 0.3 s apart)."""
    at = AppTest.from_function(_script, default_timeout=30)
    at.run()
    assert not at.exception
    first = _buttons(at)
    assert set(first) == {"Frame", "Callable", "Rerun"}
    for label, proto in first.items():
        assert proto.url and not proto.deferred_file_id, label
    assert first["Frame"].ignore_rerun and first["Callable"].ignore_rerun
    assert not first["Rerun"].ignore_rerun
    at.run()  # what a click on "Rerun" (or any widget) does
    again = _buttons(at)
    assert {k: p.url for k, p in again.items()} == {k: p.url for k, p in first.items()}


def test_a_bad_frame_is_refused_when_drawn():
    def script():
        from offcenter.app.downloads import csv_button

        csv_button("Bad", [[1, 2]], "bad.csv", "dl_bad")

    at = AppTest.from_function(script, default_timeout=30)
    at.run()
    assert at.exception and "expected a pandas DataFrame" in at.exception[0].value
