"""offcenter.app.widget_state: Streamlit's value widgets read their key without copying the
session state (no ``filtered_state`` built), with the values they read before."""

from __future__ import annotations

import importlib

import pytest
from streamlit.runtime.state import session_state as ss
from streamlit.testing.v1 import AppTest

from offcenter.app import widget_state


def _script():
    import datetime

    import streamlit as st

    from offcenter.app import widget_state

    widget_state.install()
    S = st.session_state
    if "init" not in S:
        S.init = True
        S.sel_none, S.sel_b, S.radio_none = None, "b", None
        S.num_none, S.text_none, S.area_none = None, None, None
        S.time_none, S.date_none, S.slide = None, None, (2, 5)
    st.write(
        repr(
            [
                st.selectbox("sel none", ["a", "b"], key="sel_none"),
                st.selectbox("sel b", ["a", "b"], key="sel_b"),
                st.selectbox("sel free", ["a", "b"], key="sel_free"),
                st.radio("radio none", ["a", "b"], key="radio_none"),
                st.number_input("num none", 0, 9, key="num_none"),
                st.text_input("text none", "x", key="text_none"),
                st.text_area("area none", "y", key="area_none"),
                st.time_input("time none", datetime.time(1, 2), key="time_none"),
                st.date_input("date none", datetime.date(2020, 1, 2), key="date_none"),
                st.slider("range", 0, 9, key="slide"),
                st.slider("plain", 0, 9),
            ]
        )
    )


EXPECTED = "[None, 'b', 'a', None, None, None, None, None, None, (2, 5), 0]"


def test_the_widgets_read_the_values_they_read_before(monkeypatch):
    at = AppTest.from_function(_script).run()
    assert not at.exception
    assert at.markdown[0].value == EXPECTED
    assert widget_state.installed() == list(widget_state.WIDGET_MODULES)
    # the same script with Streamlit's own get_session_state: the same values
    from streamlit.runtime.state import get_session_state

    for name in widget_state.WIDGET_MODULES:
        monkeypatch.setattr(importlib.import_module(name), "get_session_state", get_session_state)
    monkeypatch.setattr(widget_state, "install", lambda: [])
    at = AppTest.from_function(_script).run()
    assert at.markdown[0].value == EXPECTED


def test_no_copy_of_the_state(monkeypatch):
    widget_state.install()
    calls = []
    real = ss.SessionState.filtered_state

    def counting(self):
        calls.append(1)
        return real.fget(self)

    monkeypatch.setattr(ss.SessionState, "filtered_state", property(counting))
    at = AppTest.from_function(_script).run()
    assert at.markdown[0].value == EXPECTED
    assert calls == []


def test_install_is_idempotent_and_only_replaces_streamlits_function():
    widget_state.install()
    assert widget_state.install() == []  # already there
    assert widget_state.installed() == list(widget_state.WIDGET_MODULES)


@pytest.mark.parametrize("name", widget_state.WIDGET_MODULES)
def test_streamlit_still_reads_the_state_this_way(name):
    """Where a Streamlit upgrade reads the state otherwise, install leaves the module alone;
    this says so (the view then serves nothing)."""
    import inspect

    source = inspect.getsource(importlib.import_module(name))
    assert "get_session_state().filtered_state" in source
