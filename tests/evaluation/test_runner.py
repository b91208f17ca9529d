"""The cross-validation runner: settings, determinism, progress, cancel, results tables."""

import numpy as np
import pandas as pd
import pytest

from offcenter.data.datasets import load
from offcenter.evaluation.runner import (
    DEFAULT_SETTINGS,
    METRICS,
    CrossValidation,
    available_settings,
    cross_validate_settings,
    parse_setting,
    parse_settings,
)


@pytest.fixture(scope="module")
def glass():
    df = load("glass")
    return df.drop(columns="class"), df["class"]


def test_parse_settings_round_trip():
    for key in DEFAULT_SETTINGS:
        assert parse_setting(key).key == key
    for s in available_settings():
        assert parse_setting(s.key) == s
    assert parse_setting("oc_daroczy").beta == 2.0  # registry default
    assert parse_setting("asymmetric").theta == "prior"
    assert (
        parse_setting({"measure": "asymmetric", "consistent": True}).key == "asymmetric_consistent"
    )
    assert parse_setting("OC-Shannon").key == "oc_shannon"


@pytest.mark.parametrize(
    "bad, match",
    [
        ("nonsense", "unknown setting"),
        ("shannon_consistent", "consistent"),
        ("oc_daroczy_b-1", "beta"),
        ({"theta": "prior"}, "needs a 'measure'"),
        ({"measure": "gini", "colour": 1}, "unknown keys"),
        ("", "a setting is"),
    ],
)
def test_parse_setting_errors(bad, match):
    with pytest.raises(ValueError, match=match):
        parse_setting(bad)


def test_parse_settings_duplicates_and_empty():
    with pytest.raises(ValueError, match="twice"):
        parse_settings("shannon,gini,shannon")
    with pytest.raises(ValueError, match="at least one"):
        parse_settings("")


def test_evaluate_tables(glass):
    X, y = glass
    res = cross_validate_settings(
        X,
        y,
        ["shannon", "oc_shannon", "asymmetric"],
        n_splits=3,
        n_repeats=2,
        seed=1,
        tree_params={"max_depth": 3},
    )
    assert not res.cancelled
    f = res.folds
    assert len(f) == 3 * 2 * 3
    assert (f["error"] == "").all()
    for m in METRICS:
        assert f[m].between(0, 1).all(), m
    assert (f["depth"] <= 3).all() and (f["leaves"] >= 1).all()
    # the same folds for every setting
    sizes = f.groupby("setting")["n_test"].apply(list)
    assert sizes["shannon"] == sizes["oc_shannon"] == sizes["asymmetric"]
    summ = res.summary()
    assert list(summ["setting"]) == ["shannon", "oc_shannon", "asymmetric"]
    assert summ["n_folds"].tolist() == [6, 6, 6]
    sh = f[f["setting"] == "shannon"]["balanced_accuracy"]
    assert summ.loc[0, "balanced_accuracy_mean"] == pytest.approx(sh.mean())
    assert summ.loc[0, "balanced_accuracy_std"] == pytest.approx(sh.std(ddof=1))
    paired = res.paired()
    assert set(paired["setting"]) == {"oc_shannon", "asymmetric"}
    row = paired[(paired["setting"] == "oc_shannon") & (paired["metric"] == "minority_recall")]
    row = row.iloc[0]
    assert row["wins"] + row["ties"] + row["losses"] == 6
    d = (
        f[f["setting"] == "oc_shannon"]["minority_recall"].to_numpy()
        - f[f["setting"] == "shannon"]["minority_recall"].to_numpy()
    )
    assert row["mean_diff"] == pytest.approx(d.mean())
    assert 0 <= row["t_p"] <= 1 and row["t_p_holm"] >= row["t_p"]
    assert res.config["minority"] == 0
    assert res.config["test_train_ratio"] == pytest.approx(0.5, abs=0.02)
    roc = res.roc_curves()
    assert set(roc["setting"]) == {"shannon", "oc_shannon", "asymmetric"}
    assert roc.groupby("setting")["fpr"].max().eq(1.0).all()
    csv = res.to_csv()
    assert csv.splitlines()[0].startswith("setting,label,repeat,fold")
    assert "5-fold" not in res.describe() and "3-fold" in res.describe()


def test_evaluate_is_deterministic(glass):
    X, y = glass
    kw = dict(n_splits=3, n_repeats=1, seed=5, tree_params={"max_depth": 2})
    a = cross_validate_settings(X, y, ["shannon", "gini"], **kw).folds.drop(columns="seconds")
    b = cross_validate_settings(X, y, ["shannon", "gini"], **kw).folds.drop(columns="seconds")
    pd.testing.assert_frame_equal(a, b)


def test_prior_leaf_rule_raises_minority_recall(glass):
    X, y = glass
    kw = dict(n_splits=3, n_repeats=1, seed=0, tree_params={"max_depth": 2})
    maj = cross_validate_settings(X, y, ["shannon"], leaf_rule="majority", **kw)
    pri = cross_validate_settings(X, y, ["shannon"], leaf_rule="prior", **kw)
    assert pri.config["leaf_rule"] == "prior"
    assert pri.folds["minority_recall"].mean() >= maj.folds["minority_recall"].mean()


def test_progress_and_cancel(glass):
    X, y = glass
    calls = []
    res = cross_validate_settings(
        X,
        y,
        ["shannon", "gini"],
        n_splits=3,
        n_repeats=1,
        tree_params={"max_depth": 2},
        progress=lambda f, m: calls.append((f, m)),
    )
    assert len(calls) == 6
    assert [round(c[0], 6) for c in calls] == [round(i / 6, 6) for i in range(1, 7)]
    assert calls[-1][0] == 1.0 and "fold 3/3" in calls[-1][1]
    assert not res.cancelled

    # cancel before the 4th fit: the second fold is dropped, the first kept
    count = {"n": 0}

    def should_cancel():
        count["n"] += 1
        return count["n"] > 3

    res = cross_validate_settings(
        X,
        y,
        ["shannon", "gini"],
        n_splits=3,
        n_repeats=1,
        tree_params={"max_depth": 2},
        should_cancel=should_cancel,
    )
    assert res.cancelled
    assert len(res.folds) == 2 and set(res.folds["fold"]) == {0}
    assert "CANCELLED" in res.describe()
    assert len(res.paired()) == len(METRICS)  # paired on the complete fold only


def test_stepwise_resume(glass):
    X, y = glass
    cv = CrossValidation(X, y, ["shannon"], n_splits=3, n_repeats=1, tree_params={"max_depth": 2})
    assert cv.run_step() and cv.steps_done == 1
    partial = cv.result()
    assert partial.cancelled and len(partial.folds) == 1
    while not cv.done:
        cv.run_step()
    full = cv.result()
    assert not full.cancelled and len(full.folds) == 3
    assert cv.run_step() is False


def test_failing_fit_is_recorded_not_raised(glass):
    X, y = glass

    class Broken:
        def __init__(self, **params):
            self.params = params

        def fit(self, X, y):
            if self.params["measure"] == "gini":
                raise RuntimeError("boom")
            from offcenter import TreeClassifier

            self.inner = TreeClassifier(**self.params).fit(X, y)
            self.classes_ = self.inner.classes_
            self.tree_ = self.inner.tree_
            return self

        def predict(self, X):
            return self.inner.predict(X)

        def predict_proba(self, X):
            return self.inner.predict_proba(X)

    res = cross_validate_settings(
        X, y, ["shannon", "gini"], n_splits=2, n_repeats=1, model_factory=Broken
    )
    err = res.folds[res.folds["setting"] == "gini"]["error"]
    assert err.str.contains("RuntimeError: boom").all()
    assert res.folds[res.folds["setting"] == "gini"]["accuracy"].isna().all()
    assert res.summary().loc[1, "n_folds"] == 0


@pytest.mark.parametrize(
    "kw, match",
    [
        (dict(leaf_rule="minority"), "leaf_rule"),
        (dict(model="svm"), "model"),
        (dict(reference="gini"), "reference"),
        (dict(n_splits=100), "fewer than"),
    ],
)
def test_evaluate_bad_arguments(glass, kw, match):
    X, y = glass
    with pytest.raises(ValueError, match=match):
        cross_validate_settings(X, y, ["shannon"], **kw)


def test_evaluate_bad_data():
    X = pd.DataFrame({"a": [1, 2, 3, 4]})
    with pytest.raises(ValueError, match="single value"):
        cross_validate_settings(X, ["x"] * 4, ["shannon"], n_splits=2)
    with pytest.raises(ValueError, match="one label per row"):
        cross_validate_settings(X, ["x", "y"], ["shannon"], n_splits=2)
    with pytest.raises(ValueError, match="missing"):
        cross_validate_settings(X, ["x", None, "y", "x"], ["shannon"], n_splits=2)


def test_numpy_input_and_multiclass():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(90, 3))
    y = np.repeat(["a", "b", "c"], [50, 25, 15])
    X[y == "b", 0] += 2
    X[y == "c", 1] += 2
    res = cross_validate_settings(
        X, y, ["shannon", "oc_gini"], n_splits=3, n_repeats=1, tree_params={"max_depth": 3}
    )
    assert res.config["minority"] == "c"
    assert res.folds["auc"].between(0, 1).all()
    assert (res.folds["error"] == "").all()
