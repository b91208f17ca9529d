r"""The home page's lesson: four guided steps a teacher follows in class, each with a link that
opens the right page with the right settings.

The steps are data (:data:`STEPS`); :func:`step_link` turns a step into the page to open and its
query string. The query is encoded through the target page's URL schema
(:data:`~offcenter.app.curve_pages.TWO_CLASS_SCHEMA`,
:data:`~offcenter.app.curve_pages.Q_CLASS_SCHEMA`, :data:`TREE_LINK_SCHEMA`), so a link only
ever carries parameter names and values the page reads back without a warning. The step's own
settings are always written, defaults included: a link that names a field of a page sets every
field of that page (the ones it leaves out take their default), whatever the user had set
before. ``present=1`` (:data:`~offcenter.app.urlstate.GLOBAL_SCHEMA`) is added when the
presentation mode is on.

No Streamlit call: the home page only lays the steps out.

Examples
--------
>>> link = step_link(STEPS[2])
>>> link.page, link.url_path, link.query_string
('pages/1_Two_classes.py', 'Two_classes', 'theta=0.2&measures=shannon%2Casymmetric&version=both&consistent=0')
>>> step_link(STEPS[2], present=True).query["present"]
'1'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import urlencode

from offcenter.app import urlstate
from offcenter.app.curve_pages import PRESETS, Q_CLASS_SCHEMA, TWO_CLASS_SCHEMA
from offcenter.app.tree_page import SCHEMA as TREE_SCHEMA

__all__ = [
    "TWO_CLASSES",
    "Q_CLASSES",
    "TREE",
    "TREE_LINK_SCHEMA",
    "SCHEMAS",
    "LessonStep",
    "StepLink",
    "STEPS",
    "url_path",
    "step_link",
]

TWO_CLASSES = "pages/1_Two_classes.py"
Q_CLASSES = "pages/2_Q_classes.py"
TREE = "pages/3_Tree.py"

#: The Tree page's URL schema (:data:`offcenter.app.tree_page.SCHEMA`), the one the page
#: reads: a lesson's step sets some of its fields (the data set, the measure setting, a node,
#: the gain plot's feature ...); the others keep their defaults.
TREE_LINK_SCHEMA = TREE_SCHEMA

#: The URL schema of each page a step opens.
SCHEMAS: dict[str, urlstate.Schema] = {
    TWO_CLASSES: TWO_CLASS_SCHEMA,
    Q_CLASSES: Q_CLASS_SCHEMA,
    TREE: TREE_LINK_SCHEMA,
}


@dataclass(frozen=True)
class LessonStep:
    """One step of the lesson.

    Parameters
    ----------
    title : str
        A short title (plain text).
    text : str
        Two or three sentences of explanation (Markdown; ``$...$`` for inline formulas).
    latex : tuple of str
        Displayed formulas (``st.latex``), each short enough for half the page's width.
    page : str
        The page file the link opens (a key of :data:`SCHEMAS`).
    label : str
        The link's text: the page and what it shows (short: a link does not wrap, and is cut
        on a phone beyond about 40 characters).
    detail : str
        The link's tooltip: every setting the link sets.
    settings : mapping
        The page's settings, by field name of its schema (decoded values: floats, tuples...).
    """

    title: str
    text: str
    latex: tuple[str, ...]
    page: str
    label: str
    detail: str
    settings: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StepLink:
    """Where a step's link goes: the page file (for ``st.page_link``), its URL path (``""`` for
    the home page) and the query, as a mapping and as urlencoded text."""

    page: str
    url_path: str
    query: dict[str, str]

    @property
    def query_string(self) -> str:
        return urlencode(self.query)

    @property
    def href(self) -> str:
        """A relative link: ``/Two_classes?theta=0.2&...``."""
        q = self.query_string
        return "/" + self.url_path + ("?" + q if q else "")


STEPS: tuple[LessonStep, ...] = (
    LessonStep(
        title="What entropy measures",
        text=(
            "A node of a tree holds examples of two classes, a fraction p of them in class 1. "
            "An entropy turns p into the uncertainty about the class of an example of the "
            "node: 0 when the node is pure (p = 0 or p = 1), largest when the classes are "
            "mixed. Shannon's entropy counts bits (yes/no questions); Gini's is the chance "
            "that two examples drawn at random are of different classes."
        ),
        latex=(r"h(p) = -(1-p)\log_2(1-p) - p\log_2 p", r"g(p) = 2p(1-p)"),
        page=TWO_CLASSES,
        label="Two classes: Shannon and Gini",
        detail="Shannon's and Gini's entropies, uncentered only (θ = 0.5: no off-centering).",
        # theta = 1/2 is the uniform distribution: off-centering there changes nothing
        settings={"measures": ("shannon", "gini"), "version": "raw", "theta": 0.5},
    ),
    LessonStep(
        title="Why the maximum is at the uniform distribution",
        text=(
            "A rare class is surprising but seldom seen; a common class is seen often but is "
            "no surprise. Averaged over the classes, the uncertainty is largest when every "
            "class is equally likely: with q classes, at p = (1/q, …, 1/q), where Shannon's "
            "entropy reaches $\\log_2 q$. The ternary view draws it over every distribution "
            "of 3 classes: its peak is the centre of the triangle."
        ),
        latex=(r"H(p) = -\sum_{j=1}^{q} p_j \log_2 p_j \;\le\; \log_2 q",),
        page=Q_CLASSES,
        label="q classes: ternary view, uniform θ",
        detail="q = 3 classes, θ = (1/3, 1/3, 1/3), Shannon's entropy over the triangle.",
        settings={
            "q": 3,
            "theta": (1 / 3, 1 / 3, 1 / 3),
            "measures": ("shannon",),
            "version": "raw",
            "tab": "ternary",
            "ternary": "shannon",
        },
    ),
    LessonStep(
        title="What off-centering moves",
        text=(
            "With imbalanced classes, say 20 % in class 1, a node with 20 % in class 1 tells "
            "nothing new, yet Shannon's entropy calls p = 0.5 the most uncertain. "
            "Off-centering maps p to π, sending θ to 1/2, and applies the entropy to π: the "
            "maximum moves from p = 1/2 to p = θ, and pure nodes stay at 0."
        ),
        latex=(
            r"\pi = \begin{cases} \dfrac{p}{2\theta} & p \le \theta \\[2ex]"
            r" \dfrac{p + 1 - 2\theta}{2(1-\theta)} & p \ge \theta \end{cases}",
            r"\eta_\theta(p) = h(\pi)",
        ),
        page=TWO_CLASSES,
        label="Two classes: Figure 1, θ = 0.2",
        detail="The paper's Figure 1: Shannon's, the off-centered Shannon and the asymmetric "
        "entropies at θ = 0.2.",
        settings=dict(PRESETS["fig1"]["values"]),
    ),
    LessonStep(
        title="What it does to a split",
        text=(
            "A split's gain is the parent's uncertainty minus its children's, weighted by "
            "their sizes. Off-centered on the prior (35 % diabetic patients in the Pima data), "
            "a child with more diabetics than the prior counts as purer, so splits that "
            "isolate the minority class gain more. The Tree page opens on the root, one split "
            "at a time: press Next split to see each split and which measures would make it."
        ),
        latex=(
            r"\Delta = \eta_\theta(\text{parent})"
            r" - \sum_k \frac{n_k}{n}\,\eta_\theta(\text{child}_k)",
        ),
        page=TREE,
        label="Tree: Pima, off-centered Shannon",
        detail="The Pima diabetes data, a tree grown with the off-centered Shannon entropy, "
        "θ = the prior, stepped through one split at a time from the root.",
        settings={"data": "pima", "setting": "oc_shannon", "step_on": True},
    ),
)


def url_path(page: str) -> str:
    """The URL path Streamlit serves a page file at: the file name without its number prefix
    and extension (the home page, ``pages/0_Home.py``, is the default page: ``""``).

    >>> url_path("pages/3_Tree.py"), url_path("pages/0_Home.py")
    ('Tree', '')
    """
    stem = PurePosixPath(page).stem
    if stem == "0_Home":
        return ""
    return re.sub(r"^[0-9]+_", "", stem)


def step_link(step: LessonStep, present: bool = False) -> StepLink:
    """The page and query string of a step's link.

    The step's settings are encoded through the page's schema (:data:`SCHEMAS`), every one of
    them even when it equals the default (so that the link overrides what the user had set);
    ``present=1`` is added when ``present`` is true.

    Raises
    ------
    KeyError
        When the step names a page without a schema, or a setting its schema does not have
        (a programming error in :data:`STEPS`, caught by the tests).
    """
    schema = SCHEMAS[step.page]
    unknown = [k for k in step.settings if k not in schema]
    if unknown:
        raise KeyError(f"{step.page} has no URL field {', '.join(unknown)}")
    query = schema.encode(step.settings, skip_defaults=False)
    query.update(urlstate.GLOBAL_SCHEMA.encode({"present": bool(present)}))
    return StepLink(step.page, url_path(step.page), query)
