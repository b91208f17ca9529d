"""The Tree page as a lecture tool, measured in headless Chromium.

At 1400x900 in presentation mode (the lecture view) each of the first six steps of the lesson's
tree (Pima, off-centered Shannon on the prior) draws the node just split and its children inside
the chart, on the first screen (nothing scrolled), with node text of 18 px or more, beside the
step controls and the step's verdict; every bundled data set's tree opens at depth 2 with 18 px
text and fits the projector's screen (the tree that fits, issue 24: no text cut or under the
toolbar, a click on a node brings its details right under the tree); German credit's multiway
tree steps through in presentation and normal mode (normal mode: the drawing grows by exactly
the split's children, the step's heading, verdict, address and selected node follow). On a phone
(390x844, an iPhone's User-Agent) the lesson's tree ignores presentation mode and fits, and the
same steps draw the node just split and its children. Screenshots:
tests/artifacts/tree_lecture_step{k}.png, tree_lecture_depth2*.png, tree_fit_*.png,
tree_phone_step{k}.png, tree_*_german_step{k}.png, tree_steps_step2.png.

Each test is one page session walking what several pages opened before (one page load, the
next state reached by the page's own widgets where the app allows): what went where is said in
each test's docstring.
"""

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from offcenter.app.tree_page import view_size
from offcenter.app.tree_view import lecture_size
from offcenter.data.csv_io import left_out_columns
from offcenter.data.datasets import DATASETS, load
from offcenter.tree import TreeClassifier
from offcenter.tree.steps import split_order
from offcenter.viz.tree import fit_drawing
from offcenter.viz.tree_layout import tree_layout

from .conftest import ARTIFACTS, screenshot, wait_for_app, wait_for_drawing
from .test_presentation_browser import _TOOLBAR_STILL, check_phone_tables
from .test_tree_browser import wait_for_tree

NODE_IDS = """() => {
    const gd = document.querySelector(".oc-tree-figure, [data-testid='stPlotlyChart'] .js-plotly-plot");
    if (!gd || !gd.data) return null;
    const tr = gd.data.find(t => t.name === 'nodes');
    return tr ? Array.from(tr.customdata, c => c[0]).sort((a, b) => a - b) : null;
}"""


def wait_for_nodes(page, ids) -> None:
    """Wait until the tree chart draws exactly the nodes ``ids``."""
    want = "[" + ",".join(str(int(i)) for i in sorted(ids)) + "]"  # JSON.stringify's form
    page.wait_for_function(f"() => JSON.stringify(({NODE_IDS})()) === '{want}'", timeout=120_000)


pytestmark = pytest.mark.browser

# ------------------------------------------------ the tree that fits (issue 24)
# (formerly test_tree_fit_browser.py): everything read from bounding boxes where the browser
# drew it: the root's children inside the tree chart's plot area, no text of the figure cut
# by the chart or under Plotly's toolbar, the node text's computed font size.
IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
)

#: The tree chart measured: its box, plot area, node markers (page px), every text of the
#: figure (drawing, legend, title) with its box and font size, and the toolbar's box.
MEASURE = """() => {
  const gd = [...document.querySelectorAll(".oc-tree-figure, [data-testid='stPlotlyChart'] .js-plotly-plot")]
    .find(g => g.data && g.data.some(t => t.name === 'nodes') && g._fullLayout);
  if (!gd) return null;
  const fl = gd._fullLayout, xa = fl.xaxis, ya = fl.yaxis;
  const box = gd.getBoundingClientRect();
  const area = {left: box.left + xa._offset, right: box.left + xa._offset + xa._length,
                top: box.top + ya._offset, bottom: box.top + ya._offset + ya._length};
  const tr = gd.data.find(t => t.name === 'nodes');
  const nodes = tr.x.map((x, i) => ({id: tr.customdata[i][0],
    px: box.left + xa._offset + xa.l2p(x), py: box.top + ya._offset + ya.l2p(tr.y[i])}));
  const rect = e => { const r = e.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const texts = [...gd.querySelectorAll('text')].filter(t => t.textContent.trim())
    .map(t => ({text: t.textContent, size: parseFloat(getComputedStyle(t).fontSize),
                node: !!t.closest('.scatterlayer'), ...rect(t)}))
    .filter(r => r.right > r.left);
  const bar = gd.querySelector('.modebar');
  return {box: rect(gd), area, nodes, texts, modebar: bar ? rect(bar) : null,
          scroll: window.scrollY};
}"""


def open_tree(page, url):
    page.goto(url)
    wait_for_app(page)
    page.wait_for_function(
        "() => [...document.querySelectorAll(\".oc-tree-figure, [data-testid='stPlotlyChart'] .js-plotly-plot\")]"
        ".some(gd => gd.data && gd.data.some(t => t.name === 'nodes') && gd._fullLayout)",
        timeout=180_000,
    )
    wait_for_drawing(page)


def inside(r, box, tol=0.5):
    return (
        r["left"] >= box["left"] - tol
        and r["right"] <= box["right"] + tol
        and r["top"] >= box["top"] - tol
        and r["bottom"] <= box["bottom"] + tol
    )


def overlaps(a, b):
    return min(a["right"], b["right"]) > max(a["left"], b["left"]) and min(
        a["bottom"], b["bottom"]
    ) > max(a["top"], b["top"])


def check_fits(m, min_font):
    assert m is not None, "no tree chart"
    by_id = {n["id"]: n for n in m["nodes"]}
    for i in (0, 1, 2):  # the root and its children: in the plot area, so clickable
        p = by_id[i]
        assert m["area"]["left"] <= p["px"] <= m["area"]["right"], (i, p, m["area"])
        assert m["area"]["top"] <= p["py"] <= m["area"]["bottom"], (i, p, m["area"])
    node_texts = [t for t in m["texts"] if t["node"]]
    assert len(node_texts) >= 10
    assert min(t["size"] for t in node_texts) >= min_font, sorted({t["size"] for t in node_texts})
    # no text of the figure cut by the chart, none under the toolbar
    cut = [t["text"] for t in m["texts"] if not inside(t, m["box"])]
    assert cut == [], cut
    if m["modebar"] is not None:
        under = [t["text"] for t in m["texts"] if overlaps(t, m["modebar"])]
        assert under == [], under


def scroll_to_chart(page):
    page.locator(
        ".oc-tree-figure, [data-testid='stPlotlyChart']"
    ).first.scroll_into_view_if_needed()
    wait_for_drawing(page)


LESSON = "/Tree?data=pima&setting=oc_shannon&present=1&step_on=1"
#: The lesson's tree at step 4 of the lesson script: the whole tree in the lecture view.
LESSON_4 = "/Tree?data=pima&setting=oc_shannon&present=1"
GERMAN = "/Tree?data=german_credit&setting=oc_shannon&step_on=1"

#: Every drawn node's box in viewport px (from the markers' data coordinates and the axes), the
#: chart's box, the text trace's size, the main area's scroll.
BOXES = """() => {
    const gd = document.querySelector(".oc-tree-figure, [data-testid='stPlotlyChart'] .js-plotly-plot");
    if (!gd || !gd._fullLayout) return null;
    const fl = gd._fullLayout, r = gd.getBoundingClientRect();
    const xa = fl.xaxis, ya = fl.yaxis;
    const tr = gd.data.find(t => t.name === 'nodes');
    const text = gd.data.find(t => t.name === 'text');
    const sizes = tr.marker.size;
    const boxes = {};
    tr.customdata.forEach((c, k) => {
        const x = r.left + xa._offset + xa.d2p(tr.x[k]);
        const y = r.top + ya._offset + ya.d2p(tr.y[k]);
        boxes[c[0]] = [x, y];
    });
    const fonts = Array.from(gd.querySelectorAll('g.textpoint text'))
        .map(t => parseFloat(getComputedStyle(t).fontSize));
    const main = document.querySelector("[data-testid='stMain']");
    return {boxes, chart: [r.left, r.top, r.right, r.bottom], font: text.textfont.size,
            least: Math.min(...fonts), scroll: main ? main.scrollTop : window.scrollY,
            legend: Math.min(...Array.from(gd.querySelectorAll('.legend text'))
                .map(t => parseFloat(getComputedStyle(t).fontSize)))};
}"""


def _lesson_tree():
    df = load("pima")
    t = DATASETS["pima"].target
    return TreeClassifier(measure="shannon", theta="prior", max_depth=5).fit(
        df.drop(columns=t), df[t]
    )


def _shot(page, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))  # the first screen only


def _drawn_after(page, ids):
    """Wait until the chart draws at least the nodes ``ids``; return the measures."""
    want = ",".join(str(int(i)) for i in ids)
    page.wait_for_function(
        f"() => {{ const m = ({BOXES})(); return m && [{want}].every(i => i in m.boxes); }}",
        timeout=120_000,
    )
    wait_for_drawing(page)
    return page.evaluate(BOXES)


def _next_splits(page, tree, steps: int = 6):
    """Click the page's "Next split" ``steps`` times; after each click yield the step ``k``,
    the node it splits (the tree's breadth-first split order) and that node's children."""
    order = split_order(tree)
    next_button = page.get_by_role("button", name="Next split", exact=True)
    for k in range(1, steps + 1):
        next_button.click()
        node = order[k - 1]
        yield k, node, list(tree.nodes[node].children)


def _on_first_screen(box, height):
    return box["y"] >= 0 and box["y"] + box["height"] <= height


def test_the_lecture_view_draws_each_steps_split_on_the_first_screen_at_18_px(page, app_url):
    tree = _lesson_tree().tree_
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(app_url + LESSON)
    wait_for_app(page)
    wait_for_tree(page)
    wait_for_nodes(page, [0])
    next_button = page.get_by_role("button", name="Next split", exact=True)
    for k, node, kids in _next_splits(page, tree):
        _drawn_after(page, [node, *kids])
        wait_for_app(page)
        m = page.evaluate(BOXES)
        assert m["scroll"] == 0  # nothing scrolled: the first screen
        left, top, right, bottom = m["chart"]
        assert 0 <= top and bottom <= 900, m["chart"]  # the whole chart on the first screen
        for i in [node, *kids]:
            x, y = m["boxes"][str(i)]
            assert left <= x <= right and top <= y <= bottom and y <= 900, (k, i, m)
        assert m["font"] >= 18 and m["least"] >= 18 and m["legend"] >= 18, (k, m)
        # the controls and the step's verdict beside the tree, on the first screen
        assert _on_first_screen(next_button.bounding_box(), 900)
        verdict = page.get_by_text(f"Step {k}: node {node} is split", exact=False)
        assert _on_first_screen(verdict.bounding_box(), 900)
        alert = page.locator("[data-testid='stAlert']").first
        assert _on_first_screen(alert.bounding_box(), 900)
        assert page.locator("[data-testid='stException']").count() == 0
        _shot(page, f"tree_lecture_step{k}")
    # the node's details follow in tabs under the tree
    tab = page.get_by_role("tab", name="Own best splits and gain plot")
    assert tab.bounding_box()["y"] > m["chart"][3] - 1


#: Every box outline of the drawing in viewport px: the "box outline" trace's rectangles
#: (None-separated, 5 points each) through the axes.
BOX_RECTS = """() => {
    const gd = document.querySelector(".oc-tree-figure, [data-testid='stPlotlyChart'] .js-plotly-plot");
    const fl = gd._fullLayout, r = gd.getBoundingClientRect();
    const xa = fl.xaxis, ya = fl.yaxis;
    const tr = gd.data.find(t => t.name === 'box outline');
    const rects = [];
    let xs = [], ys = [];
    tr.x.forEach((x, k) => {
        if (x === null) {
            rects.push([Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)]);
            xs = []; ys = [];
            return;
        }
        xs.push(r.left + xa._offset + xa.d2p(x));
        ys.push(r.top + ya._offset + ya.d2p(tr.y[k]));
    });
    return rects;
}"""


def _expected_drawing(name):
    """The node ids the lecture view draws for a bundled set's default tree (the package's
    :func:`offcenter.viz.tree.fit_drawing` for the lecture view's chart), and the tree."""
    df = load(name)
    t = DATASETS[name].target
    out = [c for c in left_out_columns(df) if c != t]  # identifiers, constant columns
    clf = TreeClassifier(measure="shannon", theta="prior", max_depth=5).fit(
        df.drop(columns=[t, *out]), df[t]
    )
    size = lecture_size(view_size(True, False))
    fit = fit_drawing(clf, size.width, size.height, font_size=size.font_size,
                      min_font=size.min_font, allow_compact=True)  # fmt: skip
    lay = tree_layout(
        clf,
        max_depth=None if fit.depth >= clf.tree_.depth else fit.depth,
        compact=fit.compact,
        wrap_width=fit.wrap_width,
        sideways=fit.sideways,
    )
    return sorted(lay.boxes), clf.tree_, fit


def _pick_data_set(page, name):
    """Choose a bundled data set in the page's own selectbox (the same session)."""
    box = page.get_by_label("Data set", exact=True)
    box.scroll_into_view_if_needed()
    box.click()
    page.get_by_role("option", name=DATASETS[name].title, exact=True).click()


def _fits_the_projector(page):
    """The tree that fits, on the link's first screen (issue 24, formerly
    test_tree_fit_browser.py's ``test_lesson_step_4_at_1400x900_in_presentation_mode``): the
    root's children in the plot area, node text of 20 px or more, no text cut by the chart or
    under its toolbar, the drawing within 900 px; a click on node 2 brings its details right
    under the tree and into the address."""
    scroll_to_chart(page)
    page.locator(".oc-tree-figure, [data-testid='stPlotlyChart']").first.hover()  # the toolbar
    page.evaluate(_TOOLBAR_STILL, "tr_chart")  # its fade-in over (was a fixed 400 ms)
    m = page.evaluate(MEASURE)
    screenshot(page, "tree_fit_presentation_1400")
    _shot(page, "tree_fit_presentation_1400_view")
    check_fits(m, 20.0)
    assert m["box"]["bottom"] - m["box"]["top"] <= 900  # the whole drawing fits a 900-px screen
    n2 = next(n for n in m["nodes"] if n["id"] == 2)
    page.mouse.click(n2["px"], n2["py"])
    page.get_by_text("4. The selected node: node 2").first.wait_for(timeout=60_000)
    wait_for_app(page)
    head = page.get_by_text("4. The selected node: node 2").first.bounding_box()
    chart = page.locator(".oc-tree-figure, [data-testid='stPlotlyChart']").first.bounding_box()
    assert 0 <= head["y"] - (chart["y"] + chart["height"]) <= 200, (head, chart)
    assert "node=2" in page.url


def test_the_lecture_view_opens_every_bundled_data_sets_tree_at_depth_2_at_18_px(page, app_url):
    """Every bundled data set's tree, chosen one after the other in one page session, opens at
    depth 2 (or whole) in the lecture view: on the first screen, every box inside the chart,
    node text and legend at 18 px or more (German credit's 29 boxes and tic-tac-toe's 13 drawn
    left to right). The page opened by the link (Pima) has the step-through toggle on the first
    screen too, and fits the projector (:func:`_fits_the_projector`). The last set chosen is
    German credit: its step-through, switched on in the same session, draws each of its first
    six splits (:func:`_walk_multiway`, formerly opened by its own link in
    ``test_each_step_of_a_multiway_tree_draws_its_split_in_presentation_and_normal_mode``).
    Screenshots: tests/artifacts/tree_lecture_depth2.png (the link),
    tree_lecture_depth2_{name}.png, tree_fit_presentation_1400*.png,
    tree_lecture_german_step{k}.png."""
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(app_url + LESSON_4)
    wait_for_app(page)
    wait_for_tree(page)
    # the link opens the tree at depth 2 at 18 px, the step-through toggle on the first screen
    m = _drawn_after(page, [0, 1, 2, 3, 4, 5, 6])
    assert m["scroll"] == 0 and m["chart"][3] <= 900
    assert m["font"] >= 18 and m["least"] >= 18 and m["legend"] >= 18, m
    toggle = page.get_by_text("Step through the splits", exact=False).first
    assert _on_first_screen(toggle.bounding_box(), 900)
    _shot(page, "tree_lecture_depth2")
    _fits_the_projector(page)
    current = "pima"
    # German credit last: its steps follow in this session
    for name in sorted(DATASETS, key=lambda n: n == "german_credit"):
        if name != current:
            _pick_data_set(page, name)
            current = name
        drawn, tree, fit = _expected_drawing(name)
        ids = sorted(nd.id for nd in tree.nodes if nd.depth <= 2)
        assert set(ids) <= set(drawn) and fit.font_size >= 18, (name, fit)
        want = "[" + ",".join(str(i) for i in drawn) + "]"
        shown = (
            f"() => {{ const m = ({BOXES})(); return m && JSON.stringify(Object.keys(m.boxes)"
            ".map(Number).sort((a, b) => a - b)); }"
        )
        try:  # this set's drawing, not the last one's
            page.wait_for_function(f"() => ({shown})() === '{want}'", timeout=120_000)
        except PlaywrightTimeout:
            _shot(page, f"tree_lecture_depth2_{name}")
            raise AssertionError((name, want, page.evaluate(shown))) from None
        wait_for_app(page)
        page.evaluate(
            "() => { const m = document.querySelector(\"[data-testid='stMain']\");"
            " if (m) m.scrollTop = 0; window.scrollTo(0, 0); }"
        )
        wait_for_drawing(page)
        m = page.evaluate(BOXES)
        assert m["scroll"] == 0
        left, top, right, bottom = m["chart"]
        assert 0 <= top and bottom <= 900, (name, m["chart"])
        assert m["font"] >= 18 and m["least"] >= 18 and m["legend"] >= 18, (name, m)
        assert set(ids) <= {int(i) for i in m["boxes"]}, name
        rects = page.evaluate(BOX_RECTS)
        assert len(rects) == len(m["boxes"]), name
        for x0, y0, x1, y1 in rects:
            assert left - 1 <= x0 < x1 <= right + 1 and top - 1 <= y0 < y1 <= bottom + 1, (
                name,
                (x0, y0, x1, y1),
                m["chart"],
            )
        assert page.locator("[data-testid='stException']").count() == 0
        _shot(page, f"tree_lecture_depth2_{name}")
    assert current == "german_credit"
    page.get_by_text("Step through the splits", exact=False).first.click()
    wait_for_app(page)
    _walk_multiway(page, "tree_lecture_german_step", present=True)


def _walk_multiway(page, shots, present, steps_checks=False):
    """Steps 1-6 of German credit's multiway tree (one branch per value), from the root alone:
    each draws the node just split and its children, every box inside the chart; in
    presentation mode on the first screen, at 18 px or more while the node just split is at
    depth 1 or less. ``steps_checks`` (normal mode, formerly test_tree_steps_browser.py's
    ``test_next_split_twice_shows_the_second_split_and_its_verdict`` on Pima): step 0 says
    so; each step draws exactly the nodes of the tree after its first k splits, under the
    heading "Step k: node i is split"; at step 2 the verdict (the settings' agreement and the
    table of each setting's own best split), the address and section 4's selected node follow
    the step."""
    _drawn, tree, _fit = _expected_drawing("german_credit")
    wait_for_tree(page)
    wait_for_nodes(page, [0])  # the root alone
    if steps_checks:
        expect(page.get_by_text("Step 0: the root alone", exact=False)).to_be_visible()
    drawn = {0}
    for k, node, kids in _next_splits(page, tree):
        drawn |= set(kids)
        if steps_checks:
            wait_for_nodes(page, drawn)  # exactly the first k splits
        _drawn_after(page, [node, *kids])
        wait_for_app(page)
        m = page.evaluate(BOXES)
        left, top, right, bottom = m["chart"]
        for i in [node, *kids]:
            x, y = m["boxes"][str(i)]
            assert left <= x <= right and top <= y <= bottom, (k, i, m)
        for x0, y0, x1, y1 in page.evaluate(BOX_RECTS):
            assert left - 1 <= x0 < x1 <= right + 1 and top - 1 <= y0 < y1 <= bottom + 1, (k, m)
        if present:
            assert m["scroll"] == 0 and bottom <= 900, (k, m["chart"])
            if tree.nodes[node].depth <= 1:
                assert m["font"] >= 18 and m["least"] >= 18, (k, m)
            # the controls and the step's verdict beside the tree, on the first screen
            verdict = page.get_by_text(f"Step {k}: node {node} is split", exact=False)
            assert _on_first_screen(verdict.bounding_box(), 900), k
            alert = page.locator("[data-testid='stAlert']").first
            assert _on_first_screen(alert.bounding_box(), 900), k
        if steps_checks:
            heading = page.get_by_role("heading", name=f"Step {k}: node {node} is split")
            expect(heading).to_be_visible()
        if steps_checks and k == 2:
            verdict = page.get_by_text("on their own best split", exact=False).first
            expect(verdict).to_be_visible()
            expect(
                page.get_by_text("settings make the tree's split here", exact=False)
            ).to_be_visible()
            # the address follows the step (written by the rerun: waited for, a timeout fails)
            page.wait_for_function(
                f"() => location.search.includes('step=2')"
                f" && location.search.includes('node={node}')"
            )
            # the node just split is the selected node (section 4's heading)
            expect(
                page.get_by_role("heading", name=f"4. The selected node: node {node}")
            ).to_be_attached()
            heading.scroll_into_view_if_needed()
            screenshot(page, "tree_steps_step2")
        assert page.locator("[data-testid='stException']").count() == 0
        _shot(page, f"{shots}{k}")


def test_each_step_of_a_multiway_tree_draws_its_split_in_normal_mode(page, app_url):
    """German credit's steps in normal mode (:func:`_walk_multiway`; presentation mode is
    walked at the end of the lecture view's test), with the checks of the step-through's
    heading, verdict, address and selected node."""
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(app_url + GERMAN)
    wait_for_app(page)
    _walk_multiway(page, "tree_normal_german_step", present=False, steps_checks=True)


def test_a_phone_fits_the_lesson_and_draws_each_steps_split(phone, app_url):
    """A phone (390x844, touch, an iPhone's User-Agent), one page session: the lesson's link
    (presentation mode asked for) is drawn for the phone, not the projector, and fits (formerly
    test_tree_fit_browser.py's ``test_lesson_step_4_on_a_phone_ignores_presentation_mode``);
    switched to step-through, each of the lesson's first six steps draws the node just split
    and its children in the chart (formerly ``test_a_phone_draws_each_steps_split``, on a
    phone-sized window with a desktop User-Agent); German credit's multiway tree likewise
    (formerly ``test_a_phone_draws_each_step_of_a_multiway_tree``). On the link's load, the
    page's small tables hide nothing (test_presentation_browser.py's
    :func:`check_phone_tables`, formerly its ``test_phone_tables_hide_nothing`` on its own load
    of the same link on the phone tab). The session's phone tab
    (touch, 390x844) says it is an iPhone for the test (Chromium's own User-Agent override,
    undone after it)."""
    cdp = phone.context.new_cdp_session(phone)
    own = phone.evaluate("() => navigator.userAgent")
    cdp.send("Emulation.setUserAgentOverride", {"userAgent": IPHONE})
    try:
        phone.goto("about:blank")
        assert phone.evaluate("() => navigator.userAgent") == IPHONE
        open_tree(phone, app_url + LESSON_4)
        scroll_to_chart(phone)
        m = phone.evaluate(MEASURE)
        _shot(phone, "tree_fit_phone_390_view")
        check_fits(m, 14.0)
        node_texts = [t for t in m["texts"] if t["node"]]
        assert max(t["size"] for t in node_texts) < 20  # not the projector's size
        assert m["box"]["right"] <= 390
        # the page's small tables hide nothing on the phone (test_presentation_browser.py's
        # test_phone_tables_hide_nothing, once on its own load of this link on the phone tab)
        assert phone.locator("[data-testid='stException']").count() == 0
        check_phone_tables(phone, phone.url)

        tree = _lesson_tree().tree_
        phone.get_by_text("Step through the splits", exact=False).first.click()
        wait_for_app(phone)
        wait_for_nodes(phone, [0])
        for k, node, kids in _next_splits(phone, tree):
            m = _drawn_after(phone, [node, *kids])
            left, _top, right, _bottom = m["chart"]
            for i in [node, *kids]:
                x, _y = m["boxes"][str(i)]
                assert left <= x <= right, (k, i, m)
            assert m["least"] >= 10
            phone.locator(
                ".oc-tree-figure, [data-testid='stPlotlyChart']"
            ).first.scroll_into_view_if_needed()
            _shot(phone, f"tree_phone_step{k}")

        phone.goto(app_url + GERMAN)
        wait_for_app(phone)
        _walk_multiway(phone, "tree_phone_german_step", present=False)
    finally:
        cdp.send("Emulation.setUserAgentOverride", {"userAgent": own})
        cdp.detach()
