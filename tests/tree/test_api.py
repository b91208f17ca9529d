"""TreeClassifier API: inspection, edits, export, scikit-learn compatibility, bad input."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn import datasets
from sklearn.base import clone
from sklearn.model_selection import cross_val_score

from offcenter import Impurity, TreeClassifier


@pytest.fixture(scope="module")
def iris():
    d = datasets.load_iris(as_frame=True)
    y = d.target.map(dict(enumerate(d.target_names)))
    return d.data, y


@pytest.fixture(scope="module")
def mixed():
    rng = np.random.default_rng(0)
    n = 300
    X = pd.DataFrame(
        {
            "age": rng.integers(18, 80, n).astype(float),
            "city": rng.choice(["Lyon", "Paris", "Nice"], n),
            "score": rng.normal(size=n),
            "member": rng.random(n) < 0.3,
        }
    )
    X.loc[::17, "score"] = np.nan
    y = np.where((X["age"] > 40) & (X["city"] != "Nice") | (X["member"]), "yes", "no")
    return X, y


def test_fitted_attributes(iris):
    X, y = iris
    clf = TreeClassifier(max_depth=3).fit(X, y)
    assert clf.classes_.tolist() == ["setosa", "versicolor", "virginica"]
    assert clf.n_features_in_ == 4
    assert list(clf.feature_names_in_) == list(X.columns)
    assert isinstance(clf.impurity_, Impurity) and clf.theta_ is None
    tree = clf.tree_
    assert tree.root == 0 and len(tree) == len(tree.nodes)
    assert tree.n_leaves == sum(nd.is_leaf for nd in tree.nodes)
    assert tree.depth == 3
    for nd in tree.nodes:
        assert tree.nodes[nd.id] is nd
        assert nd.n == nd.counts.sum()
        assert len(nd.conditions) == nd.depth
        if nd.parent is not None:
            parent = tree.nodes[nd.parent]
            assert nd.id in parent.children
            k = parent.children.index(nd.id)
            assert nd.conditions[-1] == parent.split.branch_labels[k]
        if nd.split is not None:
            assert sum(tree.nodes[c].n for c in nd.children) == nd.n
    assert tree.nodes[0].conditions == ()
    assert tree.nodes[1].conditions == ("petal length (cm) <= 2.45",)


def test_predict_and_decision_path(iris):
    X, y = iris
    clf = TreeClassifier(max_depth=3).fit(X, y)
    paths = clf.decision_paths(X.iloc[:3])
    assert paths[0][0] == 0 and clf.tree_.nodes[paths[0][-1]].is_leaf
    for p in paths:
        for a, b in zip(p[:-1], p[1:]):
            assert b in clf.tree_.nodes[a].children
    leaves = clf.apply(X)
    pred = clf.predict(X)
    assert [clf.tree_.nodes[leaf].prediction for leaf in leaves] == pred.tolist()
    assert clf.score(X, y) == pytest.approx(np.mean(pred == y.to_numpy()))
    # arrays work too, by column position
    np.testing.assert_array_equal(clf.predict(X.to_numpy()), pred)


def test_candidates_table(iris):
    X, y = iris
    clf = TreeClassifier(max_depth=3).fit(X, y)
    df = clf.candidates(0)
    keys = [k for k, _ in df.attrs["settings"]]
    assert df.attrs["chosen_key"] == "shannon" == keys[0]
    assert list(df["feature"]) == list(X.columns)
    for k in keys:
        assert {f"gain:{k}", f"score:{k}", f"rank:{k}"} <= set(df.columns)
        assert df[f"rank:{k}"].min() == 1
    assert df["chosen"].sum() == 1
    chosen = df[df["chosen"]].iloc[0]
    assert chosen["rank:shannon"] == 1
    assert chosen["gain:shannon"] == pytest.approx(clf.tree_.nodes[0].split.gain, abs=1e-12)
    assert chosen["children_counts"] == "[50, 0, 0] | [0, 50, 50]"
    # custom settings
    df2 = clf.candidates(
        0, settings=[{"measure": "gini"}, {"measure": "shannon", "theta": "uniform"}]
    )
    assert [k for k, _ in df2.attrs["settings"]] == ["shannon", "gini", "ocuniform_shannon"]
    # a leaf still has its candidate table (splits it could have had)
    leaf = next(nd.id for nd in clf.tree_.nodes if nd.is_leaf and nd.n > 5)
    assert len(clf.candidates(leaf)) == 4


def test_threshold_gains(iris):
    X, y = iris
    clf = TreeClassifier().fit(X, y)
    tg = clf.threshold_gains(0, "petal width (cm)")
    values = np.unique(X["petal width (cm)"])
    assert len(tg) == len(values) - 1
    np.testing.assert_allclose(tg["threshold"], (values[:-1] + values[1:]) / 2)
    best = tg.loc[tg["gain:shannon"].idxmax()]
    assert best["threshold"] == pytest.approx(0.8) and best["n_left"] == 50
    assert best["gain:shannon"] == pytest.approx(0.918296, abs=1e-6)
    assert (tg["n_left"] + tg["n_right"] == 150).all()
    with pytest.raises(ValueError, match="unknown feature"):
        clf.threshold_gains(0, "sepal colour")


def test_threshold_gains_categorical_is_an_error(mixed):
    X, y = mixed
    clf = TreeClassifier(max_depth=2).fit(X, y)
    with pytest.raises(ValueError, match="categorical"):
        clf.threshold_gains(0, "city")


def test_node_impurities(iris):
    X, y = iris
    clf = TreeClassifier(measure="gini", theta="prior").fit(X, y)
    s = clf.node_impurities(0)
    assert s.index[0] == clf.impurity_.key == "oc_gini"
    assert s.iloc[0] == pytest.approx(clf.tree_.nodes[0].impurity)
    assert set(s.attrs["labels"]) == set(s.index)


def test_node_indices(mixed):
    X, y = mixed
    clf = TreeClassifier(max_depth=3).fit(X, y)
    for nd in clf.tree_.nodes:
        rows = clf.node_indices(nd.id)
        assert len(rows) == nd.n
        counts = pd.Series(y[rows]).value_counts().reindex(clf.classes_, fill_value=0)
        assert counts.tolist() == nd.counts.tolist()
    with pytest.raises(ValueError, match="does not exist"):
        clf.node_indices(10_000)


def test_edits_return_new_trees(iris):
    X, y = iris
    clf = TreeClassifier(max_depth=3).fit(X, y)
    before = clf.to_json()
    leafy = clf.make_leaf(2)
    assert clf.to_json() == before  # the old tree is unchanged
    assert leafy.tree_.nodes[2].is_leaf and len(leafy.tree_) < len(clf.tree_)
    assert leafy is not clf
    # replace the root split by a candidate
    alt = clf.with_split(0, "petal width (cm)")
    assert alt.tree_.nodes[0].split.feature == "petal width (cm)"
    assert alt.tree_.nodes[0].split.threshold == pytest.approx(0.8)
    assert alt.tree_.nodes[0].split.gain == pytest.approx(0.918296, abs=1e-6)
    assert clf.to_json() == before
    # an explicit threshold, children grown with the same settings
    forced = clf.with_split(0, "sepal length (cm)", threshold=5.5)
    root = forced.tree_.nodes[0]
    assert root.split.threshold == 5.5
    assert forced.tree_.depth <= 3
    assert sum(forced.tree_.nodes[c].n for c in root.children) == 150
    for nd in forced.tree_.nodes:
        assert len(forced.node_indices(nd.id)) == nd.n
    # regrow a subtree with other settings
    re = clf.regrow(2, measure="gini", max_depth=6)
    sub = re.tree_.subtree(2)
    assert all(re.tree_.nodes[i].setting_key == "gini" for i in sub)
    assert re.tree_.nodes[0].criterion == "shannon"
    assert re.tree_.depth > 3 or len(sub) >= 1
    assert clf.to_json() == before
    assert [e[0] for e in re.edits_] == ["regrow"]
    with pytest.raises(ValueError, match="threshold"):
        clf.with_split(0, "sepal length (cm)", threshold=100.0)
    with pytest.raises(ValueError, match="unknown"):
        clf.regrow(0, depth=3)


def test_with_split_categorical_groups(mixed):
    X, y = mixed
    clf = TreeClassifier(max_depth=2).fit(X, y)
    grouped = clf.with_split(0, "city", groups=[["Lyon", "Paris"], ["Nice"]])
    s = grouped.tree_.nodes[0].split
    assert s.kind == "categorical_binary" and s.groups == (("Lyon", "Paris"), ("Nice",))
    multi = clf.with_split(0, "city", groups=[["Lyon"], ["Paris"], ["Nice"]])
    assert multi.tree_.nodes[0].split.kind == "categorical"
    assert len(multi.tree_.nodes[0].children) == 3
    with pytest.raises(ValueError, match="every category"):
        clf.with_split(0, "city", groups=[["Lyon"], ["Paris"]])
    with pytest.raises(ValueError, match="not a category"):
        clf.with_split(0, "city", groups=[["Lyon"], ["Rome", "Paris", "Nice"]])
    with pytest.raises(ValueError, match="groups"):
        clf.with_split(0, "age", groups=[[1], [2]])


def test_json_round_trip(mixed):
    X, y = mixed
    for kw in (
        {},
        {"measure": "asymmetric", "consistent": True},
        {"theta": "prior", "categorical": "binary", "alpha": 0.5},
    ):
        clf = TreeClassifier(max_depth=4, **kw).fit(X, y)
        text = clf.to_json()
        back = TreeClassifier.from_json(text)
        assert back.to_json() == text
        assert back.get_params() == clf.get_params()
        assert back.classes_.tolist() == clf.classes_.tolist()
        np.testing.assert_array_equal(back.predict(X), clf.predict(X))
        np.testing.assert_allclose(back.predict_proba(X), clf.predict_proba(X))
        assert back.to_text() == clf.to_text()
        assert json.loads(text)["format"] == "offcenter.tree/1"
        with pytest.raises(ValueError, match="training data"):
            back.candidates(0)
        back.attach_data(X, y)
        assert back.candidates(0)["gain:" + clf.impurity_.key].notna().any()
    with pytest.raises(ValueError, match="JSON"):
        TreeClassifier.from_json("{not json")
    with pytest.raises(ValueError, match="format"):
        TreeClassifier.from_json('{"a": 1}')


def test_json_round_trip_integer_and_bool_labels(iris):
    X, _ = iris
    y = datasets.load_iris().target
    clf = TreeClassifier(max_depth=2).fit(X, y)
    back = TreeClassifier.from_json(clf.to_json())
    assert back.predict(X).dtype == clf.predict(X).dtype
    yb = y == 0
    clf = TreeClassifier(max_depth=2).fit(X, yb)
    back = TreeClassifier.from_json(clf.to_json())
    np.testing.assert_array_equal(back.predict(X), clf.predict(X))
    assert back.predict(X).dtype == bool


def test_text_rules(iris):
    X, y = iris
    clf = TreeClassifier(max_depth=2).fit(X, y)
    rules = clf.to_text()
    assert rules.splitlines()[0].startswith("IF petal length (cm) <= 2.45 THEN class = setosa")
    assert len(rules.splitlines()) == clf.tree_.n_leaves
    tree = clf.to_text("tree")
    assert tree.splitlines()[0] == "|--- petal length (cm) <= 2.45"
    with pytest.raises(ValueError, match="style"):
        clf.to_text("xml")


def test_sklearn_compatibility(iris):
    X, y = iris
    clf = TreeClassifier(max_depth=3, theta="prior")
    c2 = clone(clf)
    assert c2.get_params() == clf.get_params() and c2 is not clf
    scores = cross_val_score(TreeClassifier(max_depth=3), X, y, cv=5)
    assert scores.shape == (5,) and scores.mean() > 0.85
    scores = cross_val_score(
        TreeClassifier(measure="asymmetric"), X, y, cv=3, scoring="balanced_accuracy"
    )
    assert scores.mean() > 0.8
    assert clf.set_params(max_depth=5) is clf and clf.max_depth == 5
    with pytest.raises(ValueError, match="Invalid parameter 'depth'"):
        clf.set_params(depth=3)
    assert "max_depth=5" in repr(clf)


def test_bad_input_errors():
    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0]])
    with pytest.raises(ValueError, match="single class"):
        TreeClassifier().fit(X, [1, 1, 1])
    with pytest.raises(ValueError, match="no rows"):
        TreeClassifier().fit(np.empty((0, 2)), [])
    with pytest.raises(ValueError, match="no columns"):
        TreeClassifier().fit(pd.DataFrame(index=range(3)), [0, 1, 0])
    with pytest.raises(ValueError, match="3 rows but y has 2"):
        TreeClassifier().fit(X, [0, 1])
    with pytest.raises(ValueError, match="infinite"):
        TreeClassifier().fit(np.array([[0.0], [np.inf], [1.0]]), [0, 1, 0])
    with pytest.raises(ValueError, match="missing labels"):
        TreeClassifier().fit(X, [0, None, 1])
    with pytest.raises(ValueError, match="2-D"):
        TreeClassifier().fit(np.array([1.0, 2.0, 3.0]), [0, 1, 0])
    with pytest.raises(ValueError, match="unknown measure"):
        TreeClassifier(measure="entropyy").fit(X, [0, 1, 0])
    with pytest.raises(ValueError, match="max_depth"):
        TreeClassifier(max_depth=-1).fit(X, [0, 1, 0])
    with pytest.raises(ValueError, match="min_samples_split"):
        TreeClassifier(min_samples_split=1).fit(X, [0, 1, 0])
    with pytest.raises(ValueError, match="min_samples_leaf"):
        TreeClassifier(min_samples_leaf=0).fit(X, [0, 1, 0])
    with pytest.raises(ValueError, match="alpha"):
        TreeClassifier(alpha=2).fit(X, [0, 1, 0])
    with pytest.raises(ValueError, match="categorical"):
        TreeClassifier(categorical="ternary").fit(X, [0, 1, 0])
    with pytest.raises(ValueError, match="does not take beta"):
        TreeClassifier(beta=2).fit(X, [0, 1, 0])
    with pytest.raises(ValueError, match="not fitted"):
        TreeClassifier().predict(X)
    clf = TreeClassifier().fit(X, [0, 1, 0])
    with pytest.raises(ValueError, match="features"):
        clf.predict(np.zeros((2, 3)))
    df = pd.DataFrame(X, columns=["a", "b"])
    clf = TreeClassifier().fit(df, [0, 1, 0])
    with pytest.raises(ValueError, match="lacks"):
        clf.predict(df.rename(columns={"a": "z"}))
    # columns in another order are matched by name
    np.testing.assert_array_equal(clf.predict(df[["b", "a"]]), clf.predict(df))


def test_daroczy_and_rank_defaults():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = [0, 0, 1, 1]
    clf = TreeClassifier(measure="daroczy").fit(X, y)
    assert clf.impurity_.params == {"beta": 2.0}
    clf = TreeClassifier(measure="daroczy", beta=0.5).fit(X, y)
    assert clf.impurity_.params == {"beta": 0.5}
    clf = TreeClassifier(measure="rank_diversity", rho=1).fit(X, y)
    assert clf.impurity_.key == "rank_diversity_r1"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 3), st.integers(0, 2)), min_size=4, max_size=40
    ),
    measure=st.sampled_from(["shannon", "gini", "misclassification", "asymmetric"]),
    theta=st.sampled_from([None, "prior"]),
)
def test_property_training_rows_and_gains(data, measure, theta):
    arr = np.array(data)
    X, y = arr[:, :2].astype(float), arr[:, 2]
    if len(np.unique(y)) < 2:
        return
    if theta == "prior" or measure == "asymmetric":
        if np.bincount(y).min() == 0:
            return
    clf = TreeClassifier(measure=measure, theta=theta).fit(X, y)
    imp = clf.impurity_
    for nd in clf.tree_.nodes:
        rows = clf.node_indices(nd.id)
        assert len(rows) == nd.n
        if nd.split is not None:
            kids = [clf.tree_.nodes[c] for c in nd.children]
            g = (
                float(imp.of_counts(nd.counts))
                - sum(k.n * float(imp.of_counts(k.counts)) for k in kids) / nd.n
            )
            assert nd.split.gain == pytest.approx(g, abs=1e-10)
            assert nd.split.gain > 0
            # the chosen split is the best candidate under the tree's measure
            cand = clf.candidates(nd.id)
            assert cand[f"gain:{imp.key}"].max() == pytest.approx(nd.split.gain, abs=1e-10)
    back = TreeClassifier.from_json(clf.to_json())
    np.testing.assert_array_equal(back.predict(X), clf.predict(X))
