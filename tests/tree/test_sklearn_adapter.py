"""from_sklearn: a fitted scikit-learn tree inspected with the package's tools.

Checked on several data sets and both criteria: the predictions equal scikit-learn's, every
node's weighted class counts equal ``tree_.value`` (fractions times ``weighted_n_node_samples``
since scikit-learn 1.4) and its impurity ``tree_.impurity``; on a Gini tree the Gini setting's
own best split (own_optima) is scikit-learn's split at every node; the inspection tables, the
worked calculation, the drawing and export_text work on the result.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer, load_iris, load_wine, make_classification
from sklearn.tree import DecisionTreeClassifier

from offcenter.tree import from_sklearn
from offcenter.tree.inspect import agreement


def _datasets():
    iris = load_iris(return_X_y=True, as_frame=True)
    wine = load_wine(return_X_y=True)
    cancer = load_breast_cancer(return_X_y=True, as_frame=True)
    Xs, ys = make_classification(
        n_samples=300,
        n_features=6,
        n_informative=4,
        n_classes=3,
        weights=[0.7, 0.2, 0.1],
        random_state=0,
    )
    return {"iris": iris, "wine": wine, "cancer": cancer, "synthetic": (Xs, ys)}


DATA = _datasets()
CASES = [
    ("iris", dict(criterion="gini")),
    ("iris", dict(criterion="entropy", max_depth=3)),
    ("wine", dict(criterion="gini", min_samples_leaf=3)),
    ("wine", dict(criterion="log_loss")),
    ("cancer", dict(criterion="gini", max_depth=5)),
    ("synthetic", dict(criterion="gini", class_weight="balanced", max_depth=6)),
    ("synthetic", dict(criterion="entropy", min_samples_split=0.05)),
]


def _fit(name, params, weighted=False):
    X, y = DATA[name]
    sw = np.random.default_rng(0).uniform(0.2, 3.0, len(y)) if weighted else None
    sk = DecisionTreeClassifier(random_state=0, **params).fit(X, y, sample_weight=sw)
    return X, y, sw, sk, from_sklearn(sk, X, y, sample_weight=sw)


@pytest.mark.parametrize("name,params", CASES)
@pytest.mark.parametrize("weighted", [False, True])
def test_nodes_and_predictions_equal_sklearn(name, params, weighted):
    X, y, sw, sk, clf = _fit(name, params, weighted)
    t = sk.tree_
    np.testing.assert_array_equal(clf.predict(X), sk.predict(X))
    np.testing.assert_allclose(clf.predict_proba(X), sk.predict_proba(X), atol=1e-12)
    assert clf.get_depth() == sk.get_depth() and clf.get_n_leaves() == sk.get_n_leaves()
    assert len(clf.tree_) == t.node_count
    counts_sk = t.value[:, 0, :] * t.weighted_n_node_samples[:, None]
    for node in clf.tree_.nodes:
        old = clf.sklearn_ids_[node.id]
        np.testing.assert_allclose(node.counts, counts_sk[old], rtol=1e-9, atol=1e-9)
        assert node.n == t.n_node_samples[old]
        assert node.impurity == pytest.approx(t.impurity[old], abs=1e-9)
        if node.split is not None:
            assert node.split.feature_index == t.feature[old]
            assert node.split.threshold == t.threshold[old]
    # leaves agree with apply (ids mapped)
    np.testing.assert_array_equal(clf.sklearn_ids_[clf.apply(X)], sk.apply(X))


@pytest.mark.parametrize("name", ["iris", "wine", "cancer", "synthetic"])
def test_gini_setting_picks_sklearns_split_at_every_node(name):
    X, y, _, sk, clf = _fit(name, dict(criterion="gini", max_depth=6))
    checked = 0
    for node in clf.tree_.nodes:
        if node.split is None:
            continue
        opt = clf.own_optima(node.id, ["gini"])
        gini = opt[opt["setting_key"] == "gini"]
        top = gini["score"].max()
        ours = gini[gini["feature"] == node.split.feature].iloc[0]
        # scikit-learn's split is a best split under Gini (scikit-learn breaks ties at random)
        assert node.split.gain == pytest.approx(top, abs=1e-12)
        assert ours["score"] == pytest.approx(top, abs=1e-12)
        assert ours["threshold"] == pytest.approx(node.split.threshold, rel=1e-6)
        checked += 1
    assert checked == clf.get_n_leaves() - 1


def test_inspection_explain_drawing_and_text_work():
    from offcenter.tree.text import export_text
    from offcenter.viz.explain import node_split_steps, steps_markdown
    from offcenter.viz.tree import tree_figure

    X, y, _, sk, clf = _fit("cancer", dict(criterion="gini", max_depth=3))
    ag = agreement(clf.own_optima(0))
    assert ag.picks["gini"] == clf.tree_.nodes[0].split.branch_labels[0]
    gains = clf.threshold_gains(0, clf.tree_.nodes[0].split.feature)
    best = gains.loc[gains["gain:gini"].idxmax(), "threshold"]
    assert best == pytest.approx(clf.tree_.nodes[0].split.threshold)
    steps = node_split_steps(clf, 0)
    assert "Gini" in steps_markdown(steps)
    fig = tree_figure(clf)
    assert len(fig.data) > 0
    assert export_text(clf) == _sk_text(sk)
    # an edit: regrow the root's right branch under the off-centered Shannon entropy
    regrown = clf.regrow(clf.tree_.nodes[0].children[1], measure="shannon", theta="prior")
    assert regrown.get_n_leaves() >= 1


def _sk_text(sk):
    from sklearn.tree import export_text

    return export_text(sk)


def test_without_data_predicts_and_asks_for_data():
    X, y = DATA["iris"]
    sk = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    clf = from_sklearn(sk)
    np.testing.assert_array_equal(clf.predict(X), sk.predict(X))
    with pytest.raises(ValueError, match="attach_data"):
        clf.own_optima(0)


def test_missing_values_follow_sklearn():
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"a": rng.normal(size=200), "b": rng.normal(size=200)})
    y = (X["a"] + 0.3 * X["b"] > 0).astype(int)
    X.loc[rng.choice(200, 30, replace=False), "a"] = np.nan
    sk = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    clf = from_sklearn(sk, X, y)
    np.testing.assert_array_equal(clf.predict(X), sk.predict(X))
    root = clf.tree_.nodes[0]
    assert root.split.n_missing == int(X[root.split.feature].isna().sum())


def test_other_data_warns_and_bad_input_is_clear():
    X, y = DATA["iris"]
    sk = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    with pytest.warns(UserWarning, match="not the tree's training data"):
        clf = from_sklearn(sk, X.iloc[:100], y.iloc[:100])
    assert clf.tree_.nodes[0].counts.sum() == 100
    with pytest.raises(ValueError, match="both X and y"):
        from_sklearn(sk, X)
    with pytest.raises(TypeError, match="DecisionTreeClassifier"):
        from_sklearn(object())
    with pytest.raises(ValueError, match="not fitted"):
        from_sklearn(DecisionTreeClassifier())
    with pytest.raises(ValueError, match="expecting 4 features"):
        from_sklearn(sk, X.iloc[:, :3], y)
