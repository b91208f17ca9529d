"""The Compare page's declarations: its settings, models and URL schema (the page,
``pages/4_Compare_measures.py``, holds the widgets and the layout).

Declared in the package, not in the page script, so that tests read the schema the page
decodes its link with (the property test of :mod:`tests.app.test_link_fuzz` throws arbitrary text
at every field of every page's schema).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

from offcenter.app import urlstate
from offcenter.data.datasets import DATASETS
from offcenter.evaluation.runner import DEFAULT_SETTINGS, METRICS, available_settings
from offcenter.tree.params import LEAF_RULES

__all__ = [
    "PREFIX",
    "SETTINGS",
    "DATA_DEFAULT",
    "MODELS",
    "SCHEMA",
    "TREE_PREFIX",
    "ComparePageState",
    "download_stem",
    "take_tree_leaf_rule",
]

#: The page's session-state prefix.
PREFIX = "cm_"
#: The measure settings a run may compare, by key.
SETTINGS = {s.key: s for s in available_settings()}
#: The bundled data set the page opens on.
DATA_DEFAULT = "pima" if "pima" in DATASETS else next(iter(DATASETS))
#: The models a run fits: key -> label.
MODELS = {"tree": "one tree", "forest": "bagged forest (random forest)"}
#: The page's link parameters.
SCHEMA = urlstate.Schema(
    [
        urlstate.Field("data", "str", DATA_DEFAULT, choices=(*DATASETS, "upload")),
        urlstate.Field("settings", "strs", DEFAULT_SETTINGS, choices=tuple(SETTINGS), min_len=1),
        urlstate.Field("folds", "int", 5, low=2, high=10),
        urlstate.Field("repeats", "int", 3, low=1, high=10),
        urlstate.Field("seed", "int", 0, low=0, high=1_000_000),
        urlstate.Field("max_depth", "int", 5, low=0, high=20),
        urlstate.Field("min_leaf", "int", 1, low=1, high=1000),
        urlstate.Field("leaf_rule", "str", "majority", choices=LEAF_RULES),
        urlstate.Field("model", "str", "tree", choices=tuple(MODELS)),
        urlstate.Field("trees", "int", 25, low=2, high=200),
        urlstate.Field("metric", "str", "balanced_accuracy", choices=tuple(METRICS)),
    ]
)

#: The Tree page's session-state prefix (its saved values are ``tr_saved``).
TREE_PREFIX = "tr_"


def take_tree_leaf_rule(state: Any, query: Mapping[str, Any]) -> str | None:
    """When the page opens without a link field (through the navigation, e.g. from the Tree
    page), its leaf rule is the one the Tree page left (``tr_saved``), so that the comparison
    scores the trees the way the Tree page predicts. Call after
    :func:`offcenter.app.urlstate.restore`, with the page's ``opening`` state known by the
    caller; returns the rule taken (None: nothing changed).

    >>> state = {"tr_saved": {"leaf_rule": "prior"}, "cm_leaf_rule": "majority"}
    >>> take_tree_leaf_rule(state, {}), state["cm_leaf_rule"]
    ('prior', 'prior')
    >>> take_tree_leaf_rule(state, {"leaf_rule": "majority"}) is None  # a link rules
    True
    """
    params = query.to_dict() if hasattr(query, "to_dict") else dict(query or {})
    if any(f.name in params for f in SCHEMA):
        return None
    rule = (state.get(TREE_PREFIX + "saved") or {}).get("leaf_rule")
    if rule not in LEAF_RULES:
        return None
    state[PREFIX + "leaf_rule"] = rule
    return rule


class ComparePageState(urlstate.PageState):
    """The Compare page's state (see :class:`offcenter.app.urlstate.PageState`): its link
    fields under ``cm_``, the run in progress (``job``) and the Tree page's leaf rule taken when
    it opens without a link.

    >>> state = {"tr_saved": {"leaf_rule": "prior"}}
    >>> page = ComparePageState(state, {})
    >>> page.open(), state["cm_leaf_rule"], page.job, page.trees
    ([], 'prior', None, 25)
    """

    schema = SCHEMA
    prefix = PREFIX

    def open(self) -> list[str]:
        """Restore the page (a link rules, else the values left, :meth:`restore`); when it
        opens, take the Tree page's leaf rule (:func:`take_tree_leaf_rule`). Returns the link's
        warnings."""
        opening = self.opening
        warnings = self.restore()
        if opening:
            take_tree_leaf_rule(self.state, self.query)  # the Tree page's, without a link
        self.default("job", None)
        return warnings

    @property
    def job(self) -> dict | None:
        """The run in progress: ``{"key": str, "cv": CrossValidation}``, None before a run."""
        return self.get("job")

    @job.setter
    def job(self, job: dict | None) -> None:
        self.set("job", job)

    @property
    def trees(self) -> int:
        """Trees per forest (the slider is drawn only for a forest)."""
        return int(self.get("trees", 25))


def download_stem(data_name: str, params: Mapping[str, Any]) -> str:
    """The downloads' file-name stem: the data set, the settings compared, the model, and a
    short digest of the protocol (folds, repeats, seed, stopping rules, leaf rule), so that two
    runs' files never overwrite each other yet say what they hold.

    >>> download_stem("pima", {"settings": ["shannon", "oc_shannon"], "model": "tree"})[:37]
    'compare_pima_shannon_oc_shannon_tree_'
    """

    def clean(text: str, n: int) -> str:
        text = re.sub(r"\.csv$", "", str(text), flags=re.IGNORECASE)
        return re.sub(r"[^A-Za-z0-9._]+", "-", text).strip("-._")[:n] or "data"

    digest = hashlib.sha1(json.dumps(dict(params), sort_keys=True, default=str).encode())
    settings = "_".join(str(k) for k in params.get("settings", []))
    return (
        f"compare_{clean(data_name, 40)}_{clean(settings, 60)}_{clean(params.get('model', ''), 10)}"
        f"_{digest.hexdigest()[:6]}"
    )
