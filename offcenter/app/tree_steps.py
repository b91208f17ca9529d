"""The Tree page's "next split" step-through: grow the tree again one split at a time.

Streamlit side of :mod:`offcenter.tree.steps`. In a lecture the teacher switches on **Step
through the splits**: the tree is drawn as the root alone, and each **Next split** adds one
split, level by level (breadth-first: the fitted tree's node ids stay the same at every step,
so "node 4" on the projector is node 4 on the students' phones, in the node selector and in the
whole tree; see :mod:`offcenter.tree.steps` for why this order). The node just split is
selected and highlighted, and under the drawing each measure setting's own best split at that
node is listed with whether it is the split the tree made (the node's tables of
:func:`offcenter.app.node_settings.node_tables`, cached per node, reused as they are).
**Previous** and **Reset** go back; **Whole tree** jumps to the last step.

The mode and the step are the page's URL fields ``step_on`` and ``step``
(:data:`offcenter.app.tree_page.VIEW_FIELDS`): a shared link opens at the same step. A step
beyond the tree's last split shows the whole tree.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

from offcenter.app import heavy_work, node_settings
from offcenter.tree.steps import (
    PartialTree,
    check_step,
    classifier_at_step,
    step_verdict,
    tree_at_step,
)
from offcenter.viz.explain import md_escape

__all__ = ["StepView", "cached_step", "step_controls", "show_step_verdict", "verdict_table"]

ON = "tr_step_on"  # the toggle's key (URL field step_on)
STEP = "tr_step"  # the step (URL field step)
MOVED = "tr_step_moved"  # set by the buttons: select the node just split at the next run


@dataclass(frozen=True)
class StepView:
    """What the page draws in step mode: the partial tree (``clf``) under its cache key
    (``key``), and the :class:`~offcenter.tree.steps.PartialTree` it is."""

    clf: object
    key: str
    step: PartialTree


@st.cache_resource(max_entries=128, show_spinner=False)
def cached_step(tree_key: str, k: int, _clf) -> tuple[PartialTree, object]:
    """The step ``k`` of the tree ``tree_key`` and its partial classifier, once per process
    (read-only; shared by the sessions of a class stepping through the same tree)."""
    return tree_at_step(_clf.tree_, k), classifier_at_step(_clf, k)


def _move(to: str, n: int) -> None:
    """A button's callback: the next, previous, first or last step (before the rerun)."""
    S = st.session_state
    k = int(S.get(STEP, 0) or 0)
    S[STEP] = {"next": min(k + 1, n), "previous": max(k - 1, 0), "reset": 0, "last": n}[to]
    S[MOVED] = True


def _switched() -> None:
    """The toggle's callback: switched on, the step's node is selected at this run."""
    st.session_state[MOVED] = True


def step_controls(clf, tree_state, tree_key: str, short: bool = False) -> StepView | None:
    """The toggle and, when it is on, the buttons and the step's caption (``short``: the
    lecture view's narrow column, the step and the node counts only).

    Returns the partial tree to draw (None when the mode is off: the page draws the whole
    tree). After a button, the node just split becomes the selected node (the root at step 0).
    """
    S = st.session_state
    if not isinstance(S.get(ON), bool):
        S[ON] = False
    on = st.toggle(
        "Step through the splits" if short else "Step through the splits, one at a time",
        key=ON,
        on_change=_switched,
        help="For a lesson: the tree starts as the root alone; each 'Next split' adds one "
        "split, level by level, and shows every measure setting's verdict at that node.",
    )
    if not on:
        S[MOVED] = False
        return None
    tree = clf.tree_
    n = sum(1 for nd in tree.nodes if nd.split is not None)
    k = check_step(S.get(STEP, 0), tree)
    S[STEP] = k
    # one row that wraps on a phone (columns would stack into four rows there)
    row = st.container(horizontal=True, key="tr_step_buttons")
    row.button("Reset", key="tr_step_reset", on_click=_move, args=("reset", n), disabled=k == 0)
    row.button(
        "Previous", key="tr_step_prev", on_click=_move, args=("previous", n), disabled=k == 0
    )
    row.button("Next split", key="tr_step_next", on_click=_move, args=("next", n),
               disabled=k >= n, type="primary")  # fmt: skip
    row.button("Whole tree", key="tr_step_last", on_click=_move, args=("last", n), disabled=k >= n)
    step, partial = cached_step(tree_key, k, clf)
    if S.pop(MOVED, False):  # a button, or the mode switched on: the step's node is selected
        tree_state.node = step.full_node if step.full_node is not None else 0
        S["tr_view_node"] = tree_state.node  # a new node: the gain plot's default feature
        S["tr_thr_feature"] = ""
        S["tr_cat_feature"] = ""
    if short:
        st.caption(f"Step {k} of {n}: {len(step.tree)} of {len(tree)} nodes.")
        return StepView(partial, f"{tree_key}|step{k}", step)
    st.caption(
        f"Step {k} of {n}: the tree after its first {k} split{'s' if k != 1 else ''} "
        f"({len(step.tree)} of {len(tree)} nodes), grown level by level so that the node "
        "numbers stay those of the whole tree."
        + (" The root alone: press Next split." if k == 0 and n else "")
        + (" This tree has no split: its root is a leaf." if n == 0 else "")
        + (" This is the whole tree." if k == n and n else "")
    )
    return StepView(partial, f"{tree_key}|step{k}", step)


def _code(text) -> str:
    """User text as an inline code span (shown literally: no markdown, no HTML)."""
    return "`" + str(text).replace("`", "'").replace("\n", " ") + "`"


def verdict_table(optima: pd.DataFrame, split) -> pd.DataFrame:
    """:func:`offcenter.tree.steps.step_verdict` for display: the agreement as a word.

    >>> from offcenter.tree import TreeClassifier
    >>> clf = TreeClassifier().fit(pd.DataFrame({"x": [0.0, 1, 2, 3]}), [0, 0, 1, 1])
    >>> verdict_table(clf.own_optima(0, ["gini"]), clf.tree_.nodes[0].split)["the tree's split?"].tolist()
    ['yes', 'yes']
    """
    v = step_verdict(optima, split)
    same = v.pop("same as the tree")
    v.insert(0, "the tree's split?", ["yes" if s else "no" for s in same])
    return v


def show_step_verdict(view: StepView, clf, tables_key, table: bool = True) -> pd.DataFrame | None:
    """Under the drawing: the node just split, its split, and every setting's verdict there.

    ``clf`` is the whole tree; ``tables_key(node)`` the key of a node's tables in the cache
    shared with section 4 (:func:`offcenter.app.tree_click.node_key`: a node's rows, hence its
    optima, do not depend on the step). Returns the verdict table (:func:`verdict_table`;
    None at step 0 or without candidates), shown here when ``table`` (the lecture view shows it
    in a tab under the tree).
    """
    step = view.step
    if step.full_node is None:
        root = clf.tree_.nodes[0]
        st.info(
            f"Step 0: the root alone, {int(round(root.n)):,} rows, predicting "
            f"{md_escape(root.prediction, 40)}. "
            + (
                "Press **Next split** to make the tree's first split."
                if view.step.n_steps
                else "The tree makes no split (see the stopping rules in section 2)."
            )
        )
        return None
    node = clf.tree_.nodes[step.full_node]
    if not table:  # the lecture view: short, its details in the tabs under the tree
        return _short_verdict(view, clf, node, tables_key)
    st.subheader(f"Step {step.k}: node {step.full_node} is split")
    st.markdown(
        f"The tree splits node {step.full_node} (depth {node.depth}, n = {int(round(node.n)):,}) "
        + _split_text(node)
    )
    found = _step_verdict(view, clf, node, tables_key)
    if found is None:
        return None
    verdict, agree, kind, text = found
    getattr(st, kind)(text)
    st.caption(
        f"{agree} of {len(verdict)} settings make the tree's split here as their own best split; "
        "the others would split this node otherwise (their own best split "
        + ("in the tabs under the tree)." if not table else "below). The node's details follow "
           "in section 4.")
    )  # fmt: skip
    if table:
        node_settings.show_table(verdict, "tr_step_verdict")
    return verdict


def _split_text(node) -> str:
    """The node's split as the steps say it: "on `feature`: `branch`; `branch`." (markdown)."""
    return (
        f"on {_code(node.split.feature)}: "
        + "; ".join(_code(b) for b in node.split.branch_labels)
        + "."
    )


def _step_verdict(view: StepView, clf, node, tables_key):
    """The step's verdict table, how many settings agree and the page's verdict message.

    None (after an info message on the page) when the node has no verdict: its tables could
    not be computed or it has no candidate split.
    """
    try:
        tables = node_settings.node_tables(tables_key(node), node.id, clf)
    except heavy_work.Refused as exc:
        st.warning(exc.message)
        return None
    except (ValueError, KeyError) as exc:
        st.info(f"No verdict at this node: {md_escape(exc)}")
        return None
    if "verdict" not in tables:
        st.info("No candidate splits at this node.")
        return None
    verdict = verdict_table(tables["optima"], node.split)
    agree = int((verdict["the tree's split?"] == "yes").sum())
    kind, text = tables["verdict"]
    return verdict, agree, kind, text


def _short_verdict(view: StepView, clf, node, tables_key) -> pd.DataFrame | None:
    """The lecture view's verdict: the step's split, the settings' agreement in one box."""
    st.markdown(
        f"**Step {view.step.k}: node {node.id} is split** (n = {int(round(node.n)):,}) "
        + _split_text(node)
    )
    found = _step_verdict(view, clf, node, tables_key)
    if found is None:
        return None
    verdict, agree, kind, text = found
    head = text.split("\n", 1)[0].rstrip(":")
    getattr(st, kind)(
        f"{head}. **{agree} of {len(verdict)}** settings make the tree's split here; "
        "each one's own best split is in the tabs under the tree."
    )
    return verdict
