"""A score is a name (issue 32), on the Tree page: the score registered by the worked example
of docs/architecture.md is offered, kept in the link and grown with, with no change to the page."""

from __future__ import annotations

from pathlib import Path

import pytest

from offcenter.app import tree_page
from offcenter.tree.scoring import unregister_scorer
from tests.conftest import run_app
from tests.tree.test_score_is_a_name import _doc_example

ROOT = Path(__file__).resolve().parents[2]
TREE_PAGE = str(ROOT / "pages" / "3_Tree.py")


@pytest.fixture
def normalized():
    exec(compile(_doc_example(), "docs/architecture.md", "exec"), {})
    yield
    unregister_scorer("normalized")


def test_the_tree_page_offers_a_registered_score(normalized):
    assert tree_page.SCORES["bynormalized"] == ("normalized gain", None)
    decoded, warnings = tree_page.SCHEMA.decode({"score": "bynormalized"})
    assert warnings == [] and decoded["score"] == "bynormalized"
    at = run_app(
        page=TREE_PAGE,
        query={"data": "pima", "setting": "gini", "score": "bynormalized", "max_depth": "2"},
    )
    grown = at.session_state["tr_session"].current
    assert grown.setting_.score == "normalized" and grown.setting_.key == "gini_bynormalized"
    link = at.query_params["score"]
    assert (link[-1] if isinstance(link, list) else link) == "bynormalized"
    # a split criterion is scored by itself: the page's choice does not reach it
    params = tree_page.tree_params(
        {"measure": "hellinger"},
        score="bynormalized",
        leaf_rule="majority",
        max_depth=2,
        min_split=2,
        min_leaf=1,
        min_gain=0.0,
        categorical="multiway",
        criterion=True,
    )
    assert "split_score" not in params and params["alpha"] is None


def test_without_it_the_choices_are_as_before():
    assert list(tree_page.SCORES) == ["gain", "relative", "ratio", "kvalseth", "alpha"]
