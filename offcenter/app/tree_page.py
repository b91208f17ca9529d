"""The Tree page's logic outside its layout: URL schema, parameters, caches, sizes, file names.

``pages/3_Tree.py`` holds the widgets and their order; everything it computes is here:

- :data:`SCHEMA`, the page's URL schema: the widget settings, the link's data choices
  (:data:`offcenter.app.tree_restore.LINK_FIELDS`) and the **view** (:data:`VIEW_FIELDS`: the
  selected node, the gain plot's feature and normalisation, the depth shown, the two-tree
  comparison on, its settings, layout and depth shown, the step-through and its step), so that a shared link opens the page as
  its sender saw it. State is kept across pages by :func:`offcenter.app.urlstate.restore` (the
  one precedence, written in that module's docstring);
- :data:`SCORES` (the split score's choice -> alpha) and :func:`tree_params` (the tree's
  parameters from the widgets' values);
- the caches :func:`cached_profile`, :func:`cached_xy`, :func:`cached_fit`;
- :func:`view_size` (the drawing's text size and the room it may take: presentation mode on a
  wide screen, a phone, a desktop) and :func:`file_stem` (every download's name carries the
  data set and the setting).

Examples
--------
>>> tree_params_for = tree_params(
...     {"measure": "shannon", "theta": None}, score="ratio", leaf_rule="prior",
...     max_depth=0, min_split=2, min_leaf=1, min_gain=0.0, categorical="multiway",
...     criterion=False)
>>> tree_params_for["alpha"], tree_params_for["max_depth"]
(0.0, None)
>>> file_stem("pima", "oc_shannon:prior")
'pima_oc_shannon-prior'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from offcenter.app import heavy_work, node_settings, tree_restore, urlstate
from offcenter.app.tree_session import TreeSession
from offcenter.app.two_trees import DEFAULT_A, DEFAULT_B, LAYOUTS
from offcenter.data.csv_io import (
    apply_kinds,
    column_table,
    infer_kinds,
    left_out_columns,
    prepare_xy,
    sample_xy,
)
from offcenter.data.datasets import DATASETS, DEFAULT
from offcenter.measures.scores import SCORES as SCORE_REGISTRY
from offcenter.tree import TreeClassifier
from offcenter.tree.params import depth_limit
from offcenter.viz.tree import NODE_FONT, PRESENTATION_FONT, fitted_font

__all__ = [
    "PREFIX",
    "SCORES",
    "VIEW_FIELDS",
    "SCHEMA",
    "TreePageState",
    "tree_params",
    "cached_profile",
    "cached_xy",
    "cached_fit",
    "cached_many_valued",
    "column_profile",
    "ViewSize",
    "view_size",
    "file_stem",
    "small_sample_note",
    "carry_features",
    "drawn_font",
]

PREFIX = "tr_"
#: The gain and the lambda_alpha family: (label, alpha of lambda_alpha; None = plain gain or
#: the slider).
_PAGE_SCORES = {
    "gain": ("gain", None),
    "relative": ("relative gain (alpha = 1)", 1.0),
    "ratio": ("gain ratio (alpha = 0)", 0.0),
    "kvalseth": ("Kvalseth (alpha = 1/2)", 0.5),
    "alpha": ("lambda_alpha, choose alpha", None),
}
#: The built-in scores the choices above stand for (a split criterion's: the page disables them).
_BUILT_IN = ("gain", "lambda", "criterion")
#: A registered score's choice id: ``by<name>`` (its setting key suffix).
_BY = "by"


class _ScoreChoices(Mapping):
    """The split score's choices, as the scores' registry holds them now: the gain and the
    lambda_alpha family, then every impurity score registered beyond the built-in ones
    (``by<name>``: a new score is offered with no change to the page)."""

    def _current(self) -> dict:
        out = dict(_PAGE_SCORES)
        for s in SCORE_REGISTRY.values():
            if s.name not in _BUILT_IN and s.scores == "impurity" and not s.uses_alpha:
                out[_BY + s.name] = (s.label, None)
        return out

    def __getitem__(self, choice):
        return self._current()[choice]

    def __iter__(self):
        return iter(self._current())

    def __len__(self) -> int:
        return len(self._current())


#: The split score's choices: id -> (label, alpha of lambda_alpha; None = none or the slider).
SCORES = _ScoreChoices()

#: The view in the link: what the sender looked at, beyond the tree itself. ``node`` is the
#: selected node; ``thr_feature`` the gain plot's feature ("" = the node's split feature) and
#: ``thr_norm`` its normalisation; ``cat_feature`` the nominal feature of the bars by class
#: ("" = the node's split feature when nominal); ``depth`` the tree's depth shown (0 = what fits);
#: ``pair_on``/``pair_a``/``pair_b``/``pair_layout``/``pair_depth`` the two-tree comparison;
#: ``step_on``/``step`` the step-through (:mod:`offcenter.app.tree_steps`) and its step.
VIEW_FIELDS = (
    urlstate.Field("node", "int", 0, low=0, high=1_000_000),
    urlstate.Field("thr_feature", "str", ""),
    urlstate.Field("thr_norm", "bool", False),
    urlstate.Field("cat_feature", "str", ""),
    urlstate.Field("depth", "int", 0, low=0, high=64),
    urlstate.Field("pair_on", "bool", False),
    urlstate.Field("pair_a", "str", DEFAULT_A),
    urlstate.Field("pair_b", "str", DEFAULT_B),
    urlstate.Field("pair_layout", "str", "side", choices=tuple(LAYOUTS)),
    urlstate.Field("pair_depth", "int", 0, low=0, high=64),
    # the "next split" step-through (offcenter.app.tree_steps): on, and the splits made
    urlstate.Field("step_on", "bool", False),
    urlstate.Field("step", "int", 0, low=0, high=1_000_000),
)

SCHEMA = urlstate.Schema(
    [
        urlstate.Field("data", "str", DEFAULT, choices=(*DATASETS, "upload")),
        # the setting (the measure as it is), the leaf rule, and one field per parameter of
        # the registry's measures (beta, rho, a registered measure's own: its slider's value)
        node_settings.url_fields,
        lambda: [urlstate.Field("score", "str", "gain", choices=tuple(SCORES))],
        urlstate.Field("alpha", "float", 0.5, low=0.0, high=1.0),
        urlstate.Field("max_depth", "int", 5, low=0, high=30),
        urlstate.Field("min_split", "int", 2, low=2, high=10_000),
        urlstate.Field("min_leaf", "int", 1, low=1, high=10_000),
        urlstate.Field("min_gain", "float", 0.0, low=0.0, high=1.0),
        urlstate.Field("categorical", "str", "multiway", choices=("multiway", "binary")),
        *tree_restore.LINK_FIELDS,  # target, features, edits ... (offcenter/app/tree_restore.py)
        *VIEW_FIELDS,
    ]
)
#: A field whose widget every run of the page draws (see :func:`urlstate.restore`).
ANCHOR = "setting"


class TreePageState(urlstate.PageState):
    """The Tree page's state (keys ``tr_*``, see :class:`offcenter.app.urlstate.PageState`):
    its link fields, the tree session, the node the view follows, the features carried to a
    new target.

    >>> page = TreePageState({}, {})
    >>> page.opening, page.open(), page.take_view_pending(), page.take_view_pending()
    (True, [], True, False)
    >>> page.session.grown is None, page.asked_node
    (True, 0)
    >>> page.follow_node(3); page.node, page.get("view_node"), page.get("thr_feature")
    (3, 3, '')
    """

    schema = SCHEMA
    prefix = PREFIX
    anchor = ANCHOR

    def open(self) -> list[str]:
        """Restore the page (:meth:`restore`, anchored on :data:`ANCHOR`); when it opens, the
        link's (or the saved) view applies once (:meth:`take_view_pending`); the tree session
        is made when missing (:attr:`session`). Returns the link's warnings."""
        if self.opening:
            self.set("view_pending", True)
        warnings = self.restore()
        self.default("session", TreeSession())
        return warnings

    @property
    def session(self) -> TreeSession:
        """The grown tree, its edits, the selected node (made when first asked)."""
        return self.default("session", TreeSession())

    def take_view_pending(self) -> bool:
        """True once after the page opened: the link's (or the saved) selected node applies."""
        return bool(self.state.pop(self.prefix + "view_pending", False))

    @property
    def asked_node(self) -> int:
        """The selected node the link (or the saved values) asks for."""
        return int(self.get("node", 0) or 0)

    @property
    def node(self) -> int:
        """The selected node, in the link."""
        return int(self.get("node", 0) or 0)

    @node.setter
    def node(self, node: int) -> None:
        self.set("node", int(node))

    @property
    def view_node(self) -> int | None:
        """The node the view (the gain plot's feature) was set for."""
        return self.get("view_node")

    @view_node.setter
    def view_node(self, node: int) -> None:
        self.set("view_node", node)

    def follow_node(self, node: int) -> None:
        """The selected node is ``node``: another node than the view's resets the gain plot's
        feature to its default."""
        if node != self.view_node:
            self.view_node = node
            self.set("thr_feature", "")
        self.node = node

    @property
    def last_choice(self) -> dict | None:
        """The data, target and features of the last run: ``{"data", "target", "features"}``."""
        return self.get("last_choice")

    @last_choice.setter
    def last_choice(self, choice: dict) -> None:
        self.set("last_choice", choice)

    def features_unset(self, features_key: str) -> bool:
        """True when the features widget ``features_key`` holds nothing yet (not drawn, not
        kept across pages)."""
        return features_key not in self.state and features_key not in self.get("keep", {})

    def carry_features(self, features_key: str, features: list, note: str | None) -> None:
        """A new target: the features widget ``features_key`` starts on ``features`` (the
        ones chosen, see :func:`carry_features`), with ``note`` said beside it."""
        self.state[features_key] = features
        self.target_note = note

    @property
    def target_note(self) -> str | None:
        """What the features carried to a new target left out (shown until they change)."""
        return self.get("target_note")

    @target_note.setter
    def target_note(self, note: str | None) -> None:
        self.set("target_note", note)


def tree_params(
    measure_params: dict,
    *,
    score: str,
    leaf_rule: str,
    max_depth: int,
    min_split: int,
    min_leaf: int,
    min_gain: float,
    categorical: str,
    criterion: bool,
    alpha: float | None = None,
) -> dict:
    """The tree's keyword arguments from the page's widget values.

    ``measure_params`` is ``MeasureSetting.tree_params()``; ``score`` a key of :data:`SCORES`
    (``"alpha"`` takes ``alpha`` from its slider); a split criterion (``criterion``, e.g. the
    Hellinger distance) takes no alpha; ``max_depth`` 0 means no limit.
    """
    if score not in SCORES:
        raise ValueError(f"score must be one of {tuple(SCORES)}; got {score!r}.")
    a = alpha if score == "alpha" else SCORES[score][1]
    named = {"split_score": score[len(_BY) :]} if score not in _PAGE_SCORES else {}
    if criterion:
        a, named = None, {}
    return {
        **measure_params,
        **named,
        "alpha": a,
        "leaf_rule": leaf_rule,
        "max_depth": depth_limit(max_depth),
        "min_samples_split": int(min_split),
        "min_samples_leaf": int(min_leaf),
        "min_gain": float(min_gain),
        "categorical": categorical,
    }


def own_score_note(setting) -> str | None:
    """None when the page's score choices (the gain and lambda_alpha, :data:`SCORES`) apply
    to the setting's measure (the scores' registry says, ``setting.takes_alpha``); else what
    scores it instead (a split criterion: its own value).

    >>> from offcenter.measures.settings import MeasureSetting
    >>> own_score_note(MeasureSetting("gini")) is None
    True
    >>> own_score_note(MeasureSetting("hellinger"))
    'The Hellinger distance (HDDT) is scored by its own value, the Hellinger distance.'
    """
    if setting.takes_alpha:
        return None
    return f"The {setting.info.short} is scored by {setting.score_info.label}, the {setting.info.score_name}."


def score_label(setting, choice: str) -> str:
    """What a tree of ``setting`` grown with the page's score ``choice`` is scored by: the
    choice's label, or the measure's own score when the choices do not apply."""
    if setting.takes_alpha:
        return SCORES[choice][0]
    return f"the {setting.info.score_name}"


# ------------------------------------------------------------------------------ caches
@st.cache_resource(max_entries=32, show_spinner=False)
def cached_profile(data_hash: str, overrides_json: str, _raw: pd.DataFrame):
    """Column kinds after the user's overrides, the columns left out by default (identifiers,
    constant columns) with the reason, and the types table (:func:`column_profile`; in the
    worker pool on many rows, :mod:`offcenter.app.heavy_work`)."""
    if heavy_work.is_heavy_rows(len(_raw)):
        return heavy_work.run(column_profile, _raw, overrides_json)
    return column_profile(_raw, overrides_json)


def column_profile(raw: pd.DataFrame, overrides_json: str):
    """:func:`cached_profile`'s work: the overrides applied, the kinds, the columns left out
    and the types table."""
    df, warnings = apply_kinds(raw, json.loads(overrides_json))
    kinds = infer_kinds(df)
    ids = left_out_columns(df, kinds)
    return df, warnings, kinds, ids, column_table(df, kinds, ids)


@st.cache_resource(max_entries=32, show_spinner=False)
def cached_xy(
    data_hash: str,
    overrides_json: str,
    target: str,
    features_json: str,
    n_sample: int,
    _df: pd.DataFrame,
    _features: list,
):
    """Features and labels (optionally a reproducible sample), with the class counts."""
    X, y, warnings = prepare_xy(_df, target, list(_features))
    X, y = sample_xy(X, y, n_sample, seed=0)
    counts = y.value_counts().sort_index()
    return X, y, warnings, [str(c) for c in counts.index], counts.to_numpy()


@st.cache_resource(max_entries=64, show_spinner=False)
def cached_fit(data_key: str, params_json: str, _X: pd.DataFrame, _y: pd.Series) -> TreeClassifier:
    """Fit once per (data, settings): shared by reruns, page switches and every session.

    On more rows than :data:`offcenter.app.heavy_work.Limits.rows` the fit runs in the
    process's worker pool (:mod:`offcenter.app.heavy_work`, which may refuse it with a
    :class:`~offcenter.app.heavy_work.Refused` message; a refusal is not cached)."""
    clf = TreeClassifier(**json.loads(params_json))
    if heavy_work.is_heavy_rows(len(_X)):
        return heavy_work.run(clf.fit, _X, _y)
    return clf.fit(_X, _y)


# ------------------------------------------------------------------------------ sizes
@dataclass(frozen=True)
class ViewSize:
    """How the tree is drawn for this viewer: node text (px), the chart's width and the
    height the drawing may take (px), and narrow boxes for a phone."""

    font_size: float
    width: float
    height: float
    wrap_width: int = 26
    shares_per_line: int = 3
    phone: bool = False
    present: bool = False
    #: compact boxes allowed (node id, test, n, bar), and the least text size before the
    #: drawing shrinks (:func:`offcenter.viz.tree.fit_drawing`)
    compact: bool = False
    min_font: float | None = None


def view_size(present: bool, phone: bool) -> ViewSize:
    """The drawing's size for presentation mode and a phone.

    - a phone (390 x 844): a chart about 358 px wide (Streamlit's 16 px side padding; 354 in
      the plot area), node text
      of 14 px in narrow boxes; presentation mode does not apply (a link's ``present=1`` is the
      sender's projector, not the student's phone);
    - presentation mode on a wide screen (1400 x 900): 20 px text, the curve pages' size, in a
      chart about 860 px wide (the mode's larger type widens the page's padding) and a drawing
      at most 640 px high (a 900 px screen holds it with the legend above it);
    - otherwise: 14 px text, 900 x 640 px (the chart's plot area at 1400 px with the sidebar
      open is about 930 px wide: measured in the browser tests).
    """
    if phone:
        return ViewSize(NODE_FONT, 354.0, 640.0, wrap_width=14, shares_per_line=2, phone=True)
    if present:
        return ViewSize(PRESENTATION_FONT, 860.0, 640.0, present=True)
    return ViewSize(NODE_FONT, 900.0, 640.0)


def file_stem(data: str, setting_key: str) -> str:
    """A file-name stem naming the data set and the measure setting (safe characters only),
    so that two analyses' downloads never overwrite each other.

    >>> file_stem("my data.csv", "oc_rank:0.3")
    'my-data_oc_rank-0.3'
    """

    def clean(text: str) -> str:
        text = re.sub(r"\.csv$", "", str(text), flags=re.IGNORECASE)
        return re.sub(r"[^A-Za-z0-9._]+", "-", text).strip("-._")[:60] or "data"

    return f"{clean(data)}_{clean(setting_key)}"


# ------------------------------------------------------------------------------ data checks
#: Fewer rows than this (or a class with fewer than :data:`SMALL_CLASS`) and the page warns
#: that the tree and its gains describe a handful of rows.
SMALL_SAMPLE = 30
SMALL_CLASS = 5


def small_sample_note(class_counts) -> str | None:
    """A warning for a tree grown on very few rows (None when there are enough).

    >>> small_sample_note([1, 1])
    'Only 2 rows (smallest class: 1): a tree grown on so few rows describes these rows only; its splits, gains and predictions are illustrations, not evidence.'
    >>> small_sample_note([500, 268]) is None
    True
    """
    counts = [int(round(float(c))) for c in class_counts]
    n = sum(counts)
    smallest = min(counts) if counts else 0
    if n >= SMALL_SAMPLE and smallest >= SMALL_CLASS:
        return None
    return (
        f"Only {n:,} rows (smallest class: {smallest:,}): a tree grown on so few rows "
        "describes these rows only; its splits, gains and predictions are illustrations, not "
        "evidence."
    )


def carry_features(
    previous: list, old_target, new_target, candidates: list
) -> tuple[list, str | None]:
    """The features after the target changes from ``old_target`` to ``new_target``: the
    previous selection without the new target, and the old target NOT added (it was the class:
    turning it into a feature silently would change the tree). Returns (features, note).

    >>> carry_features(["a", "b"], "c", "b", ["a", "b", "c"])
    (['a'], "The target is now 'b' (it left the features); the previous target 'c' is not a feature: add it under Features to use it.")
    """
    feats = [f for f in previous if f != new_target and f in candidates]
    if old_target == new_target:
        return feats, None
    note = f"The target is now {str(new_target)!r}"
    note += " (it left the features)" if new_target in previous else ""
    note += (
        f"; the previous target {str(old_target)!r} is not a feature: add it under Features "
        "to use it."
    )
    return feats, note


def drawn_font(clf, depth: int | None, size: ViewSize, layout=None) -> float:
    """The node text's size (px) of the drawing at ``depth`` in a chart ``size.width`` wide:
    ``size.font_size``, less when the drawing is wider than the chart
    (:func:`offcenter.viz.tree.fitted_font`; the page draws it at that size). ``layout``: the
    drawing's :func:`~offcenter.viz.tree_layout.tree_layout`, when already computed."""
    return fitted_font(
        clf,
        size.width,
        max_depth=depth,
        font_size=size.font_size,
        wrap_width=size.wrap_width,
        shares_per_line=size.shares_per_line,
        layout=layout,
    )


# ------------------------------------------------------------------------------ many values
#: A categorical feature is "many-valued" for its rows when it has at least this many levels
#: and fewer than :data:`ROWS_PER_LEVEL` rows per level on average: a split on it (one branch
#: per value, or the best of its groupings) separates the rows by chance.
MANY_LEVELS = 10
ROWS_PER_LEVEL = 20


def many_valued(df: pd.DataFrame, features, kinds: dict) -> dict:
    """The categorical features with many levels for their rows: name -> (levels, rows).

    >>> df = pd.DataFrame({"code": [f"Z{i}" for i in range(60)], "colour": ["r", "g"] * 30})
    >>> many_valued(df, ["code", "colour"], {"code": "categorical", "colour": "categorical"})
    {'code': (60, 60)}
    """
    out = {}
    for f in features:
        if kinds.get(f) != "categorical" or f not in df:
            continue
        col = df[f].dropna()
        levels, rows = int(col.nunique()), int(len(col))
        if levels >= MANY_LEVELS and rows < ROWS_PER_LEVEL * levels:
            out[f] = (levels, rows)
    return out


def _leave_out(features_key: str, name) -> None:
    S = st.session_state
    S[features_key] = [f for f in S.get(features_key, []) if f != name]


def _use_ratio() -> None:
    st.session_state[PREFIX + "score"] = "ratio"


@st.cache_resource(max_entries=64, show_spinner=False)
def cached_many_valued(cache_key: str, features_json: str, _df, _features, _kinds) -> dict:
    """:func:`many_valued` once per (data and column kinds, features), shared by every run and
    session (read-only): every whole-page run of the page shows its notes."""
    return many_valued(_df, _features, _kinds)


def show_many_valued(
    df: pd.DataFrame, features, kinds: dict, features_key: str, cache_key: str | None = None
) -> None:
    """A note per many-valued categorical feature (:func:`many_valued`), with its level count,
    and two offers: leave it out of the features, or score splits with the gain ratio (which
    divides the gain by the split's own entropy, so that many small branches no longer win by
    their number). ``cache_key`` (the data and its column kinds) computes it once per key
    (:func:`cached_many_valued`)."""
    if cache_key is None:
        found = many_valued(df, features, kinds)
    else:
        features_json = json.dumps([str(f) for f in features])
        found = cached_many_valued(cache_key, features_json, df, list(features), dict(kinds))
    for name, (levels, rows) in found.items():
        box = st.container(border=True)
        box.warning(
            f"`{str(name).replace('`', '')[:60]}` has {levels:,} distinct values for {rows:,} "
            f"rows (about {rows / levels:.1f} rows per value). A split on it, one branch per "
            "value or the best of its groupings, separates these rows by chance: such a feature "
            "wins splits without predicting anything. Leave it out, or score the splits with "
            "the gain ratio (it divides the gain by the split's own entropy)."
        )
        c1, c2 = box.columns(2)
        c1.button(
            "Leave it out",
            key=f"tr_many_out_{name}",
            on_click=_leave_out,
            args=(features_key, name),
        )
        c2.button(
            "Score with the gain ratio",
            key=f"tr_many_ratio_{name}",
            on_click=_use_ratio,
            disabled=st.session_state.get(PREFIX + "score") == "ratio",
        )
