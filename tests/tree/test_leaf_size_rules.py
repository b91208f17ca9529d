"""The leaf-size rules (``min_samples_leaf``, ``min_weight_fraction_leaf``) are applied before
any pruning of thresholds (issue 35): the thresholds inside a run of one class are skipped only
among the thresholds the rules allow, so a run cut by a rule keeps its end where the rule cuts
it. Before the fix, ``min_weight_fraction_leaf`` was applied after the pruning and the example
below grew a single leaf instead of scikit-learn's split at 2.5."""

import numpy as np
import pandas as pd
import pytest
from sklearn.tree import DecisionTreeClassifier

from offcenter import TreeClassifier
from offcenter.ensemble.forest import ForestClassifier
from offcenter.tree.inspect import own_optima, threshold_gains

X10 = pd.DataFrame({"x": np.arange(10.0)})
Y10 = np.array([0, 0, 1, 1, 1, 1, 1, 1, 1, 1])


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
@pytest.mark.parametrize("weighted", [False, True])
def test_the_ten_rows_of_the_issue_split_at_2_5_as_scikit_learn(criterion, weighted):
    sw = np.ones(10) if weighted else None
    sk = DecisionTreeClassifier(criterion=criterion, min_weight_fraction_leaf=0.3)
    sk.fit(X10.to_numpy(), Y10, sample_weight=sw)
    assert sk.tree_.threshold[0] == 2.5
    clf = TreeClassifier(criterion=criterion, min_weight_fraction_leaf=0.3)
    clf.fit(X10, Y10, sample_weight=sw)
    root = clf.tree_.nodes[0]
    assert not root.is_leaf and root.split.threshold == 2.5
    if criterion == "gini":  # the issue's gain: 0.32 - 3/10 * 4/9
        assert root.split.gain == pytest.approx(0.32 - 0.3 * 4 / 9, rel=1e-14)
    same = TreeClassifier(criterion=criterion, min_samples_leaf=3).fit(X10, Y10)
    assert same.tree_.nodes[0].split.gain == pytest.approx(root.split.gain, abs=1e-15)


def test_unequal_weights_keep_the_end_where_the_weight_rule_cuts_the_run():
    # the first valid threshold under the weight rule lies inside the run of class 1
    w = np.array([1.0, 1.0, 2.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0])
    sk = DecisionTreeClassifier(min_weight_fraction_leaf=0.35).fit(X10, Y10, sample_weight=w)
    clf = TreeClassifier(criterion="gini", min_weight_fraction_leaf=0.35)
    clf.fit(X10, Y10, sample_weight=w)
    assert clf.tree_.nodes[0].split.threshold == sk.tree_.threshold[0] == 2.5


def test_own_optima_and_threshold_gains_follow_the_weight_rule():
    clf = TreeClassifier(criterion="gini", min_weight_fraction_leaf=0.3).fit(X10, Y10)
    o = own_optima(clf, 0)
    gini = o[o["setting_key"] == "gini"].iloc[0]
    assert gini["threshold"] == 2.5
    tg = threshold_gains(clf, 0, "x")
    # 3 rows per child at least: thresholds 2.5 .. 6.5
    assert tg.loc[tg["valid"], "threshold"].tolist() == [2.5, 3.5, 4.5, 5.5, 6.5]


def test_the_forest_follows_the_weight_rule():
    f = ForestClassifier(
        n_estimators=1,
        bootstrap=False,
        max_features=None,
        measure="gini",
        min_weight_fraction_leaf=0.3,
        random_state=0,
    ).fit(X10, Y10)
    assert f.estimators_[0].tree_.nodes[0].split.threshold == 2.5
