"""Links that cannot break a page (issue 34): arbitrary text in every field of every page's
schema gives a page without an exception (a warning and the default for what is unusable),
through Streamlit's AppTest; session files of any JSON are read or refused plainly.

Cheap in the everyday run (a few examples per page under the ``dev`` and ``ci`` profiles, plus
the hostile corpus of ``tests/data/hostile.json`` in every field as explicit examples), more under
``thorough`` (``HYPOTHESIS_PROFILE=thorough``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from offcenter.app import urlstate
from offcenter.app.compare_page import SCHEMA as COMPARE_SCHEMA
from offcenter.app.curve_pages import Q_CLASS_SCHEMA, TWO_CLASS_SCHEMA
from offcenter.app.tree_link import FORMAT, session_from_json
from offcenter.app.tree_page import SCHEMA as TREE_SCHEMA
from tests.conftest import run_app

HOSTILE = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "hostile.json").read_text("utf-8")
)
HOSTILE_VALUES = [v for k, vs in HOSTILE.items() if k != "about" for v in vs]

PAGES = {
    "app.py": urlstate.GLOBAL_SCHEMA,
    "pages/1_Two_classes.py": TWO_CLASS_SCHEMA,
    "pages/2_Q_classes.py": Q_CLASS_SCHEMA,
    "pages/3_Tree.py": TREE_SCHEMA,
    "pages/4_Compare_measures.py": COMPARE_SCHEMA,
}
THOROUGH = settings.get_current_profile_name() == "thorough"
#: AppTest runs per page (a Tree page run takes seconds): few in the everyday run.
N_PAGE_EXAMPLES = 60 if THOROUGH else 3

_values = st.one_of(st.text(max_size=40), st.sampled_from(HOSTILE_VALUES))


def _queries(schema: urlstate.Schema):
    return st.dictionaries(st.sampled_from([f.name for f in schema]), _values, min_size=1)


def _open(page: str, query: dict) -> None:
    at = run_app(page=page, query=query)  # fails on any exception the page raised
    # what the page shows of the link is escaped: never a live link or an outside image
    for w in at.warning:
        assert "](" not in w.value, w.value


@pytest.mark.parametrize("page", list(PAGES))
@pytest.mark.parametrize(
    "value",
    ["1e308", "9" * 400, "[log in](https://evil.example)", "nope," * 5000],
    ids=["1e308", "400-digits", "markdown-link", "5000-repeats"],
)
def test_a_hostile_value_in_every_field_opens_the_page(page, value):
    """One hostile value in every field at once (``inf``-like numbers, a 400-digit integer,
    ``1e308`` on a stepped slider, a markdown link, 5,000 repeats of an unknown value)."""
    query = {f.name: value for f in PAGES[page]}
    at = run_app(page=page, query=query)
    assert len(at.warning) <= urlstate.MAX_WARNINGS + 5  # capped (plus the page's own)
    for w in at.warning:
        assert "](" not in w.value


@pytest.mark.parametrize("page", list(PAGES))
def test_arbitrary_link_text_never_breaks_a_page(page):
    @settings(max_examples=N_PAGE_EXAMPLES)
    @given(query=_queries(PAGES[page]))
    @example(query={f.name: "inf" for f in PAGES[page]})
    @example(query={f.name: "-1e400" for f in PAGES[page]})
    def check(query):
        _open(page, query)

    check()


# ---------------------------------------------------------------------------- session files
_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)


@given(
    page=st.dictionaries(st.sampled_from([f.name for f in TREE_SCHEMA]), _json, max_size=6),
    edits=_json,
    rest=st.dictionaries(st.sampled_from(["target", "features", "sample", "data"]), _json),
)
def test_any_session_file_is_read_or_refused_plainly(page, edits, rest):
    doc = {"format": FORMAT, "version": 1, "data": {"source": "iris"}, "target": "class"}
    doc.update({"page": page, "edits": edits, **rest})
    try:
        r = session_from_json(json.dumps(doc))
    except ValueError:
        return
    # every page value is link text the page's schema parses without raising
    values, warnings = TREE_SCHEMA.decode(r.page)
    assert set(values) == set(TREE_SCHEMA.fields)
    assert len(warnings) <= urlstate.MAX_WARNINGS + 1
