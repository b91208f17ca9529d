"""The app's navigation: the pages in ``pages/`` under their own names, the home page "Home".

``app.py`` is the entry point: it calls :func:`run`, which lists the page files of ``pages/`` with
:func:`st.navigation` (titles and icons in :data:`PAGES`; ``pages/0_Home.py`` is the default page,
served at ``/``; the other addresses are the ones Streamlit derives from the file names,
``/Two_classes``, ``/Q_classes``, ``/Tree``, ``/Compare_measures``, so older links keep working).

Streamlit 1.67 keeps a process-wide switch, ``PagesManager.uses_pages_directory``, that it sets
from the first session: True when a ``pages/`` directory sits beside the entry script, False once
``st.navigation`` has run. While it is True, a session runs the page files directly (file names
in the sidebar, "app" for the home page). When the very first visitor of a fresh server opened a
deep link such as ``/Tree``, ``app.py`` never ran, so the switch stayed True for everyone.
:func:`ensure_router` turns it off and reruns, so that every run goes through ``app.py`` from the
first request on, whatever page is asked for first.
"""

from __future__ import annotations

import os

import streamlit as st
from streamlit import config
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.scriptrunner_utils.exceptions import StopException

from offcenter.app import session_end, widget_state
from offcenter.app.lecture_script import lecture_bar, page_top
from offcenter.app.presentation import is_on, presentation_toggle, viewport
from offcenter.app.reconnect import RERUN_ON_RECONNECT
from offcenter.ops import failover, heap

__all__ = ["PAGES", "ensure_router", "run"]

# every page imports this module first: its value widgets stop copying the session state
widget_state.install()

#: (file, title, icon) of every page, in the order of the navigation menu; the first is the home.
PAGES = (
    ("pages/0_Home.py", "Home", ":material/home:"),
    ("pages/1_Two_classes.py", "Two classes", ":material/show_chart:"),
    ("pages/2_Q_classes.py", "q classes", ":material/change_history:"),
    ("pages/3_Tree.py", "Tree", ":material/account_tree:"),
    ("pages/4_Compare_measures.py", "Compare measures", ":material/balance:"),
)


def ensure_router() -> None:
    """Make sure this and every later run goes through ``app.py``'s :func:`st.navigation`.

    Called first by every page file. A no-op when the page runs under ``app.py``'s navigation
    (or alone, in ``AppTest.from_file``); when Streamlit's ``pages/`` mode runs the page file
    directly (the first request of a fresh server was this page's address), it switches that
    mode off and reruns the same address, through ``app.py``. When the run did not go through
    :func:`run` (AppTest runs page files itself), it draws what :func:`run` draws for every page.
    """

    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        # AppTest resets the switch before every run and then runs the page file itself, on
        # purpose: a rerun there would only drop the run's button clicks.
        if not config.get_option("global.appTest"):
            st.rerun()
    if not _through_navigation():
        # AppTest runs a page file itself (its own file, or the page after the first run of
        # app.py): draw what navigation.run draws for every page (the presentation toggle).
        _every_page()


#: Our only style rules (static, never user text), for narrow screens, where Streamlit has no
#: option for them: a displayed equation wider than the screen (a phone) scrolls sideways
#: instead of being cut; below 640 px (a phone: Streamlit stacks the columns there) a figure's
#: title (its legend's title, see :mod:`offcenter.viz.curves`) and its x axis title take
#: smaller type, since Plotly never wraps a title and sizes it for the 1400 px layout: "Fig. 1.
#: Off-centered, asymmetric" needs 274 px at 18 px, and a 390 px phone leaves it 277 px beside
#: the y axis (its bounding box is checked in tests/browser/test_classroom_browser.py).
STYLE = (
    "<style>"
    ".katex-display { overflow-x: auto; overflow-y: hidden; }"
    "@media (max-width: 640px) {"
    " .js-plotly-plot .legendtitletext { font-size: 15px !important; }"
    " .js-plotly-plot .g-xtitle text { font-size: 14px !important; }"
    "}"
    "</style>"
)


def _this_run():
    """An object that identifies the current script run (its cursors dict, new every run)."""

    ctx = get_script_run_ctx()
    return ctx, (ctx.cursors if ctx is not None else None)


def _through_navigation() -> bool:
    """Whether :func:`run` drew the parts of every page in this script run."""
    ctx, run_id = _this_run()
    return ctx is None or getattr(ctx, "_offcenter_every_page", None) is run_id


def _every_page() -> None:
    """What every page shows besides its own content, drawn once per run."""
    ctx, run_id = _this_run()
    if ctx is not None:
        ctx._offcenter_every_page = run_id
    st.html(STYLE)
    # a lost session comes back (in the sidebar: an element of its own, which would push the
    # page down by a row gap in the main area); a page the lecture opened starts at its top
    st.sidebar.html(RERUN_ON_RECONNECT + page_top(), unsafe_allow_javascript=True)
    presentation_toggle()  # large type for a projector, kept in the URL (present=1)
    lecture_bar(is_on())  # while a lecture runs: its step, Next and Previous (sidebar)
    _failover_notice()


def _failover_notice() -> None:
    """Once per session: say so when this session moved here from a process that died
    (HAProxy's header, :mod:`offcenter.ops.failover`), and what did not come back."""
    if "_failover_note" not in st.session_state:
        try:
            headers = st.context.headers
        except Exception:  # no browser request (AppTest, bare mode)
            headers = {}
        ctx = get_script_run_ctx()
        st.session_state["_failover_note"] = failover.failover_notice(
            headers or {},
            os.environ,
            link_names_upload=st.query_params.get("data") == "upload",
            session_id=ctx.session_id if ctx is not None else None,
        )
    note = st.session_state["_failover_note"]
    if note:  # shown on every page of the session that moved
        st.info(note)


def run() -> None:
    """Route this run through :data:`PAGES` (the first one is the default page).

    ``st.navigation`` itself switches Streamlit's ``pages/`` mode off for the process.
    """
    pages = [
        st.Page(path, title=title, icon=icon, default=i == 0)
        for i, (path, title, icon) in enumerate(PAGES)
    ]
    page = st.navigation(pages)
    session_end.start()  # once per process: what ended sessions held is freed
    _every_page()
    asked = st.query_params.to_dict()  # the link as opened (pages rewrite it as they run)
    ended = False
    try:
        page.run()
        viewport()  # after the page: the browser's report of a narrow window reruns it
        ended = True
    except StopException:  # st.stop(): the page ended here on purpose
        ended = True
        raise
    finally:
        if ended:  # the warm-up's milestones freeze the process's heap (offcenter.ops.heap)
            heap.after_run(page.url_path, asked)
