"""Trees bit-identical to the recorded ones on the bundled data sets (a guard for refactors).

``tests/data/tree_hashes.json`` holds, per (data set, setting), the SHA-256 of the fitted
tree's nodes as JSON (structure, thresholds, counts, impurities, gains, scores, probabilities;
every float to the last bit). Recorded before the engine was cut by concern (issue #23) and
checked unchanged after it. A change of the engine that changes a tree on purpose records the
hashes again: ``python tests/tree/test_regression.py --record`` (and says why in its commit).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from offcenter import TreeClassifier
from offcenter.data.datasets import DATASETS, load

HASHES = Path(__file__).resolve().parents[1] / "data" / "tree_hashes.json"

#: (name, TreeClassifier parameters, weighted): every kind of scorer and kernel path
CASES = {
    "shannon": ({}, False),
    "oc_shannon": ({"theta": "prior"}, False),
    "gini_kvalseth": ({"measure": "gini", "alpha": 0.5}, False),
    "oc_gini_ratio_binary": (
        {"measure": "gini", "theta": "prior", "alpha": 0.0, "categorical": "binary"},
        False,
    ),
    "asymmetric_consistent": ({"measure": "asymmetric", "consistent": True}, False),
    "daroczy_prior_rule": (
        {"measure": "daroczy", "theta": "uniform", "leaf_rule": "prior"},
        False,
    ),
    "dkm_weighted": ({"measure": "dkm"}, True),
    "hellinger": ({"measure": "hellinger"}, False),
    "hellinger_weighted": ({"measure": "hellinger", "min_samples_leaf": 3}, True),
    "shannon_balanced_pruned": ({"class_weight": "balanced", "ccp_alpha": 0.005}, False),
}


def tree_hash(data: str, case: str) -> str:
    ds = DATASETS[data]
    df = load(data)
    X, y = df.drop(columns=[ds.target]), df[ds.target]
    params, weighted = CASES[case]
    w = np.random.default_rng(0).integers(1, 4, len(y)) * 0.75 if weighted else None
    clf = TreeClassifier(max_depth=5, **params).fit(X, y, sample_weight=w)
    nodes = clf.to_dict()["nodes"]
    for nd in nodes:  # the key's name changed ("criterion" before #23), not its value
        nd["setting_key"] = nd.pop("criterion", None) or nd.get("setting_key")
    text = json.dumps(nodes, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _keys():
    return [(d, c) for d in DATASETS for c in CASES]


@pytest.mark.parametrize("data,case", _keys())
def test_tree_is_bit_identical_to_the_recorded_one(data, case):
    recorded = json.loads(HASHES.read_text())
    assert tree_hash(data, case) == recorded[f"{data}|{case}"]


if __name__ == "__main__" and "--record" in sys.argv:
    HASHES.write_text(
        json.dumps({f"{d}|{c}": tree_hash(d, c) for d, c in _keys()}, indent=1, sort_keys=True)
        + "\n"
    )
