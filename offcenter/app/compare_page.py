"""The Compare page's declarations: its settings, models and URL schema (the page,
``pages/4_Compare_measures.py``, holds the widgets and the layout).

Declared in the package, not in the page script, so that tests read the schema the page
decodes its link with (the property test of :mod:`tests.test_link_fuzz` throws arbitrary text
at every field of every page's schema).
"""

from __future__ import annotations

from offcenter.app import urlstate
from offcenter.data.datasets import DATASETS
from offcenter.evaluation.runner import DEFAULT_SETTINGS, METRICS, available_settings
from offcenter.tree.params import LEAF_RULES

__all__ = ["PREFIX", "SETTINGS", "DATA_DEFAULT", "MODELS", "SCHEMA"]

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
