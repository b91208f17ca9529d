"""The app's one convention: a page script is layout; its state is read and written through its
page-state object (:class:`offcenter.app.urlstate.PageState`, subclassed in the page's module),
never through ``st.session_state`` directly.

Read from the page sources with :mod:`ast` (no AppTest): any way of reaching the session state
in ``pages/`` fails, a subscript, an attribute, an alias, an import or a ``getattr`` by name.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "pages").glob("*.py"))


def session_state_touches(source: str) -> list[str]:
    """Where ``source`` reaches Streamlit's session state: ``line: what`` for each place."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "session_state":
            found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.Name) and node.id == "session_state":
            found.append(f"{node.lineno}: {node.id}")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name.split(".")[-1] == "session_state":
                    found.append(f"{node.lineno}: import {alias.name}")
        elif isinstance(node, ast.Constant) and node.value == "session_state":
            found.append(f"{node.lineno}: {node.value!r}")  # getattr(st, "session_state")
    return found


def test_the_pages_are_found():
    assert len(PAGES) >= 5, PAGES


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_a_page_never_touches_the_session_state(path):
    touches = session_state_touches(path.read_text(encoding="utf-8"))
    assert not touches, (
        f"{path.name} touches st.session_state (use its page-state object in offcenter/app): "
        + "; ".join(touches)
    )


@pytest.mark.parametrize(
    "planted",
    [
        "import streamlit as st\nS = st.session_state\nS['tc_cursor'] = 0.5\n",
        "import streamlit as st\nst.session_state['tc_cursor'] = 0.5\n",
        "import streamlit as st\nx = st.session_state.tc_cursor\n",
        "import streamlit as st\nif 'a' in st.session_state:\n    pass\n",
        "from streamlit import session_state as S\nS.pop('a')\n",
        "import streamlit\nstreamlit.session_state.setdefault('a', 1)\n",
        "import streamlit as st\nS = getattr(st, 'session_state')\n",
    ],
)
def test_the_check_fails_on_a_planted_touch(planted):
    assert session_state_touches(planted)


def test_the_check_passes_a_page_state_object():
    clean = (
        "import streamlit as st\n"
        "from offcenter.app.curve_pages import TwoClassesState\n"
        "page = TwoClassesState()\n"
        "page.set_cursor(0.5)\n"
        "st.slider('p', 0.0, 1.0, key='tc_cursor')\n"
    )
    assert session_state_touches(clean) == []
