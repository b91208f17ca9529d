"""offcenter.tree.export_text against sklearn.tree.export_text: byte-equal texts.

Our Shannon / Gini tree (``min_gain=-inf``: zero-gain splits made as scikit-learn makes them)
is grown on the data scikit-learn sees (float32); where the two trees pick different but
equally good splits (scikit-learn breaks ties at random) scikit-learn's split is forced on ours
with ``with_split``, as in tests/tree/test_reference.py, so that the whole texts can be
compared, with every option of export_text.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn import datasets
from sklearn.tree import DecisionTreeClassifier
from sklearn.tree import export_text as sk_export_text

from offcenter import TreeClassifier
from offcenter.tree import export_text, from_sklearn

DATA = Path(__file__).resolve().parents[2] / "offcenter" / "data" / "bundled"


def _sets():
    out = []
    for loader in (datasets.load_wine, datasets.load_breast_cancer):
        d = loader()
        out.append((loader.__name__, d.data, d.target, list(d.feature_names)))
    for name in ("pima_diabetes", "glass_binary", "ecoli_binary"):
        df = pd.read_csv(DATA / f"{name}.csv")
        out.append((name, df.iloc[:, :-1].to_numpy(float), df.iloc[:, -1].to_numpy(), None))
    return out


SETS = _sets()


def _equal_trees(X, y, criterion, max_depth, class_weight=None):
    X = np.asarray(X, dtype=np.float32).astype(np.float64)
    sk = DecisionTreeClassifier(
        criterion=criterion, max_depth=max_depth, random_state=0, class_weight=class_weight
    ).fit(X, y)
    ours = TreeClassifier(
        measure="shannon" if criterion == "entropy" else "gini",
        max_depth=max_depth,
        min_gain=-np.inf,
        class_weight=class_weight,
    ).fit(X, y)
    t = sk.tree_
    changed = True
    while changed:
        changed = False
        queue = [(0, 0)]
        while queue:
            a, b = queue.pop(0)
            node = ours.tree_.nodes[b]
            if t.children_left[a] == -1:
                assert node.is_leaf
                continue
            same = node.split is not None and (
                node.split.feature_index == t.feature[a]
                and node.split.threshold == pytest.approx(t.threshold[a], abs=1e-9)
            )
            if not same:  # a tie: take scikit-learn's split and walk again
                ours = ours.with_split(b, int(t.feature[a]), threshold=float(t.threshold[a]))
                changed = True
                break
            queue += [
                (t.children_left[a], node.children[0]),
                (t.children_right[a], node.children[1]),
            ]
    return X, sk, ours


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
@pytest.mark.parametrize("max_depth", [3, None])
@pytest.mark.parametrize("name,X,y,names", SETS, ids=[s[0] for s in SETS])
def test_export_text_equals_sklearn(name, X, y, names, criterion, max_depth):
    X, sk, ours = _equal_trees(X, y, criterion, max_depth)
    assert export_text(ours) == sk_export_text(sk)
    classes = [f"class {c}" for c in sk.classes_]
    feats = names or [f"column {j}" for j in range(X.shape[1])]
    for kw in (
        dict(show_weights=True),
        dict(feature_names=feats, class_names=classes),
        dict(max_depth=2, spacing=2, decimals=4, show_weights=True),
        dict(max_depth=0, feature_names=feats),
        dict(spacing=5, decimals=0),
    ):
        assert export_text(ours, **kw) == sk_export_text(sk, **kw), kw


def test_weighted_tree_and_converted_tree():
    d = datasets.load_wine()
    X, sk, ours = _equal_trees(d.data, d.target, "gini", 4, class_weight="balanced")
    assert export_text(ours, show_weights=True) == sk_export_text(sk, show_weights=True)
    # a tree converted from scikit-learn, and scikit-learn's tree itself
    conv = from_sklearn(sk, X, d.target)
    assert export_text(conv, show_weights=True, decimals=3) == sk_export_text(
        sk, show_weights=True, decimals=3
    )
    assert export_text(sk, max_depth=1) == sk_export_text(sk, max_depth=1)


def test_categorical_splits_and_errors():
    X = pd.DataFrame({"colour": ["red", "blue", "red", "green", "blue", "green"] * 3})
    y = [1, 0, 1, 0, 0, 1] * 3
    multi = TreeClassifier().fit(X, y)
    text = export_text(multi, feature_names=["colour"])
    assert "|--- colour = blue" in text and "|--- colour = red" in text
    binary = TreeClassifier(categorical="binary").fit(X, y)
    assert "colour in {" in export_text(binary, feature_names=["colour"])
    with pytest.raises(ValueError, match="feature_names must contain 1 elements"):
        export_text(multi, feature_names=["a", "b"])
    with pytest.raises(ValueError, match="class_names must contain 2"):
        export_text(multi, class_names=["x"])
    with pytest.raises(ValueError, match="spacing"):
        export_text(multi, spacing=0)
