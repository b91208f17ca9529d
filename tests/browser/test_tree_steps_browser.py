"""The Tree page's "next split" step-through in headless Chromium: two clicks on Next split grow
the drawing to the tree's first two splits and show the verdict at the node just split."""

import pytest
from playwright.sync_api import expect

from offcenter.data.datasets import DATASETS, load
from offcenter.tree import TreeClassifier
from offcenter.tree.steps import split_order

from .conftest import screenshot, wait_for_app
from .test_tree_browser import wait_for_tree

pytestmark = pytest.mark.browser

NODE_IDS = """() => {
    const gd = document.querySelector(".oc-tree-figure, [data-testid='stPlotlyChart'] .js-plotly-plot");
    if (!gd || !gd.data) return null;
    const tr = gd.data.find(t => t.name === 'nodes');
    return tr ? Array.from(tr.customdata, c => c[0]).sort((a, b) => a - b) : null;
}"""


def wait_for_nodes(page, ids: list[int]) -> None:
    """Wait until the tree chart draws exactly the nodes ``ids``."""
    want = "[" + ",".join(str(int(i)) for i in ids) + "]"  # JSON.stringify's form
    page.wait_for_function(f"() => JSON.stringify(({NODE_IDS})()) === '{want}'", timeout=120_000)


def test_next_split_twice_shows_the_second_split_and_its_verdict(page, app_url):
    df = load("pima")
    t = DATASETS["pima"].target
    clf = TreeClassifier(measure="shannon", theta="prior", max_depth=5).fit(
        df.drop(columns=t), df[t]
    )
    second = split_order(clf.tree_)[1]  # breadth-first: the second node split

    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(app_url + "/Tree?data=pima&setting=oc_shannon&step_on=1")
    wait_for_app(page)
    wait_for_tree(page)
    wait_for_nodes(page, [0])  # the root alone
    expect(page.get_by_text("Step 0: the root alone", exact=False)).to_be_visible()

    next_button = page.get_by_role("button", name="Next split", exact=True)
    next_button.click()
    wait_for_nodes(page, [0, 1, 2])
    expect(page.get_by_role("heading", name="Step 1: node 0 is split")).to_be_visible()
    next_button.click()
    wait_for_nodes(page, [0, 1, 2, 3, 4])
    heading = page.get_by_role("heading", name=f"Step 2: node {second} is split")
    expect(heading).to_be_visible()
    # the verdict: the settings' agreement and the table of each setting's own best split
    verdict = page.get_by_text("on their own best split", exact=False).first
    expect(verdict).to_be_visible()
    expect(page.get_by_text("settings make the tree's split here", exact=False)).to_be_visible()
    # the address follows the step (written by the rerun: waited for, a timeout fails)
    page.wait_for_function(
        f"() => location.search.includes('step=2') && location.search.includes('node={second}')"
    )
    # the node just split is the selected node (section 4's heading)
    expect(
        page.get_by_role("heading", name=f"4. The selected node: node {second}")
    ).to_be_attached()
    assert page.locator("[data-testid='stException']").count() == 0
    heading.scroll_into_view_if_needed()
    screenshot(page, "tree_steps_step2")
