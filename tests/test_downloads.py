"""offcenter.app.downloads: CSV bytes of a table and the download button drawing them."""

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from offcenter.app.downloads import frame_csv


def test_frame_csv_plain_and_relabelled():
    df = pd.DataFrame({"p": [0.0, 0.5], "oc_shannon": [0.0, 1.0], "x": ["a,b", "é"]})
    df.attrs["labels"] = {"oc_shannon": "off-centered Shannon", "absent": "ignored"}
    assert frame_csv(df) == df.to_csv(index=False).encode("utf-8")
    text = frame_csv(df, relabel=True).decode("utf-8")
    assert text.splitlines()[0] == "p,off-centered Shannon,x"
    assert '"a,b"' in text and "é" in text
    assert list(df.columns) == ["p", "oc_shannon", "x"]  # the frame itself is unchanged


def test_frame_csv_without_labels_keeps_the_names():
    df = pd.DataFrame({"a": [1]})
    assert frame_csv(df, relabel=True) == b"a\n1\n"


def test_frame_csv_names_a_bad_argument():
    with pytest.raises(TypeError, match="frame"):
        frame_csv([[1, 2]])


def _script():
    import pandas as pd
    import streamlit as st

    from offcenter.app.downloads import csv_button

    df = pd.DataFrame({"p": [0.5], "g": [1.0]})
    df.attrs["labels"] = {"g": "Gini"}
    csv_button("Now", df, "now.csv", "dl_now", relabel=True, lazy=False)
    csv_button("On click", df, "click.csv", "dl_click", relabel=True)
    c1, _ = st.columns(2)
    csv_button("Later", lambda: df, "later.csv", "dl_later", rerun=False, container=c1)


def test_buttons_are_drawn_with_their_keys():
    at = AppTest.from_function(_script)
    at.run()
    assert not at.exception
    buttons = {b.label: b for b in at.get("download_button")}
    assert set(buttons) == {"Now", "On click", "Later"}
    assert buttons["On click"].proto.deferred_file_id and not buttons["On click"].proto.url
    assert not buttons["Now"].proto.ignore_rerun and buttons["Now"].proto.url
    assert buttons["Later"].proto.ignore_rerun and buttons["Later"].proto.deferred_file_id
