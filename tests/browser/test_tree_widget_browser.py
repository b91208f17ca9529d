"""The tree widget's front end in headless Chromium: its ESM rendered with a stand-in for
anywidget's model (get/set/on/save_changes), state from the Python widget. A click on a node
sets ``selected`` and saves; the details the Python side computes are drawn (every setting's
row, the gain curves, the worked calculation); user text stays text."""

from __future__ import annotations

import anywidget  # noqa: F401  (the notebook extra; requirements-dev.txt)
import pandas as pd

from offcenter import TreeClassifier  # noqa: E402
from offcenter.viz.widget import TreeWidget  # noqa: E402

HARNESS = """
async ({src, state}) => {
  const listeners = {};
  window.__sets = []; window.__saves = 0;
  const model = {
    get: (k) => state[k],
    set: (k, v) => { state[k] = v; window.__sets.push([k, v]);
                     (listeners["change:" + k] || []).forEach((f) => f()); },
    on: (ev, f) => { (listeners[ev] = listeners[ev] || []).push(f); },
    save_changes: () => { window.__saves += 1; },
  };
  window.__model = model;
  const url = URL.createObjectURL(new Blob([src], {type: "text/javascript"}));
  const mod = await import(url);
  mod.default.render({model, el: document.getElementById("root")});
}
"""


def test_widget_front_end_click_and_details(page):
    X = pd.DataFrame(
        {"<img src=x onerror=window.__pwned=1>": [0.0, 1.0, 2.0, 3.0, 4.0, 5.0], "b": [1, 0] * 3}
    )
    y = ["<b>no</b>", "<b>no</b>", "<b>no</b>", "yes", "yes", "yes"]
    w = TreeWidget(TreeClassifier().fit(X, y), settings=["shannon", "gini", "oc_shannon"])
    page.set_content('<html><body><div id="root"></div></body></html>')
    page.evaluate(
        HARNESS, {"src": w._esm, "state": {"nodes": w.nodes, "selected": -1, "details": {}}}
    )
    assert page.locator("g[data-node]").count() == len(w.nodes)
    assert "Click a node" in page.inner_text("#root")
    page.locator('g[data-node="0"]').click()
    assert page.evaluate("window.__sets") == [["selected", 0]]
    assert page.evaluate("window.__saves") == 1
    assert page.locator("rect[stroke='#d62728']").count() == 1  # the selected box
    w.selected = 0  # what the kernel does on that change
    page.evaluate("(d) => window.__model.set('details', d)", w.details)
    text = page.inner_text("#root")
    for row in w.details["own_best"]:
        assert row["setting"] in text
    assert "Worked calculation" in text and "<b>no</b>" in page.evaluate(
        "document.querySelector('svg').textContent"
    )
    assert page.locator("polyline").count() == len(w.details["gains"]["series"]) == 3
    # user text was drawn as text: no element was made from it, no handler ran
    assert page.locator("#root img").count() == 0 and page.locator("#root b").count() == 0
    assert page.evaluate("window.__pwned === undefined")
