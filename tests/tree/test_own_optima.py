"""Each measure setting's OWN best split per feature (own_optima) and the agreement verdict."""

import numpy as np
import pandas as pd
import pytest

import offcenter
from offcenter import MeasureSetting
from offcenter.data.datasets import get_dataset, load
from offcenter.tree.inspect import agreement, own_optima

SHANNON = MeasureSetting("shannon")
OC_SHANNON = MeasureSetting("shannon", theta="prior")
MISCLASS = MeasureSetting("misclassification")


def _pick(o, key, feature=None):
    sub = o[o["setting_key"] == key]
    if feature is None:
        return sub[sub["is_best"]].iloc[0]
    return sub[sub["feature"] == feature].iloc[0]


@pytest.fixture(scope="module")
def pima_tree():
    d = get_dataset("pima")
    df = load("pima")
    X, y = df.drop(columns=d.target), df[d.target]
    return offcenter.TreeClassifier(measure="shannon", theta="prior", max_depth=2).fit(X, y)


def test_pima_root_shannon_vs_off_centered(pima_tree):
    clf = pima_tree
    before = clf.candidates(0)
    o = clf.own_optima(0)
    # candidates() is unchanged: the off-centered tree's thresholds for every setting
    cand = before.set_index("feature")["threshold"]
    assert cand["glucose"] == 111.5 and cand["pregnancies"] == 2.5
    pd.testing.assert_frame_equal(before, clf.candidates(0))
    # one row per (setting, feature), the tree's own setting first
    keys = [k for k, _ in o.attrs["settings"]]
    assert keys[0] == "oc_shannon" and len(keys) == 9
    assert len(o) == 9 * len(clf.features_)
    # Shannon's own best splits of glucose and pregnancies differ from the tree's
    assert _pick(o, "shannon", "glucose")["threshold"] == 127.5
    assert _pick(o, "shannon", "pregnancies")["threshold"] == 6.5
    assert _pick(o, "oc_shannon", "glucose")["threshold"] == 111.5
    assert _pick(o, "oc_shannon", "pregnancies")["threshold"] == 2.5
    # the off-centered setting's own optimum is the tree's root split
    root = clf.tree_.nodes[0].split
    best = _pick(o, "oc_shannon")
    assert best["feature"] == root.feature == "glucose" and best["threshold"] == 111.5
    assert _pick(o, "shannon")["pick"] == "glucose <= 127.5"
    # each feature's own optimum scores at least what the tree's threshold scores there
    for key, _ in o.attrs["settings"]:
        mine = o[o["setting_key"] == key].set_index("feature")["score"]
        theirs = before.set_index("feature")[f"score:{key}"]
        assert (mine >= theirs - 1e-12).all(), key
    a = agreement(o)
    assert not a.agree
    assert a.picks["shannon"] == "glucose <= 127.5"
    assert a.picks["oc_shannon"] == "glucose <= 111.5"
    assert "they disagree" in a.text
    assert "; Shannon and Gini pick glucose <= 127.5;" in a.text
    assert a.text.startswith(
        "they disagree: off-centered Shannon, θ = prior picks glucose <= 111.5"
    )
    assert "glucose <= 111.5" in a.text
    assert a.no_winner == ()


def test_same_feature_different_thresholds_is_a_disagreement():
    y = np.array([1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0])
    X = pd.DataFrame({"x": np.arange(16.0)})
    clf = offcenter.TreeClassifier(measure="shannon", max_depth=1).fit(X, y)
    o = own_optima(clf, 0, settings=[OC_SHANNON])
    assert set(o["feature"]) == {"x"}
    assert _pick(o, "shannon")["threshold"] == 2.5
    assert _pick(o, "oc_shannon")["threshold"] == 12.5
    a = agreement(o)
    assert not a.agree  # a verdict on features only would wrongly agree
    assert a.text == (
        "they disagree: Shannon picks x <= 2.5; off-centered Shannon, θ = prior picks x <= 12.5"
    )


def test_agreement_when_all_pick_the_same_split():
    y = np.array([0] * 6 + [1] * 6)
    X = pd.DataFrame(
        {
            "a": np.arange(12.0),
            "b": np.r_[0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1.0],  # worse than a
            "c": np.arange(12.0)[::-1],  # separates as well as a
        }
    )
    clf = offcenter.TreeClassifier(measure="gini").fit(X, y)
    o = own_optima(clf, 0, settings=[SHANNON, OC_SHANNON])
    a = agreement(o)
    assert a.agree
    assert a.text == "all 3 settings pick a <= 5.5"
    # a and c separate the classes equally well: tied at rank 1, the first one is picked
    for key in ("gini", "shannon", "oc_shannon"):
        sub = o[o["setting_key"] == key]
        assert list(sub["rank"]) == [1.0, 3.0, 1.0]
        assert list(sub["is_best"]) == [True, False, False]
        assert not sub["tied_all"].any()


def test_all_features_tied_with_a_positive_score_have_no_winner():
    y = np.array([0] * 6 + [1] * 6)
    X = pd.DataFrame({"a": np.arange(12.0), "c": np.arange(12.0)[::-1]})
    clf = offcenter.TreeClassifier(measure="gini").fit(X, y)
    o = own_optima(clf, 0)
    assert o["tied_all"].all() and o["rank"].isna().all() and not o["is_best"].any()
    assert (o["gain"] > 0).all()
    a = agreement(o)
    assert not a.agree and len(a.no_winner) == 9
    assert a.text == "no setting has a winner: all features tie under every setting"


def test_misclassification_all_tied_has_no_winner():
    # the minority class never becomes a child's majority: every misclassification gain is 0
    y = np.array([0, 0, 1, 0, 0, 0, 0, 1, 0, 0])
    X = pd.DataFrame({"x1": np.arange(10.0), "x2": np.array([0, 1, 0, 1, 0, 1, 0, 1, 0, 1], float)})
    clf = offcenter.TreeClassifier(measure="shannon").fit(X, y)
    o = own_optima(clf, 0, settings=[MISCLASS])
    mis = o[o["setting_key"] == "misclassification"]
    assert np.allclose(mis["score"], 0.0)
    assert mis["tied_all"].all()
    assert mis["rank"].isna().all()  # not rank 1 for all
    assert not mis["is_best"].any()
    sh = o[o["setting_key"] == "shannon"]
    assert not sh["tied_all"].any() and sh["is_best"].sum() == 1
    a = agreement(o)
    assert a.no_winner == ("misclassification",)
    assert "misclassification" not in a.picks
    assert a.agree  # the only setting with a winner agrees with itself
    assert "Misclassification: no winner" in a.text


def _brute_best(x, y, imp, min_leaf=1):
    """Max gain over all midpoint thresholds of x, computed directly from counts."""
    q = int(y.max()) + 1
    T = np.bincount(y, minlength=q).astype(float)
    n = T.sum()
    i_parent = float(imp.of_counts(T))
    vals = np.unique(x)
    best = (-np.inf, None)
    for a, b in zip(vals[:-1], vals[1:]):
        thr = (a + b) / 2.0
        left = x <= thr
        if left.sum() < min_leaf or (~left).sum() < min_leaf:
            continue
        L = np.bincount(y[left], minlength=q).astype(float)
        R = np.bincount(y[~left], minlength=q).astype(float)
        g = i_parent - L.sum() / n * float(imp.of_counts(L)) - R.sum() / n * float(imp.of_counts(R))
        if g > best[0] + 1e-12:
            best = (g, thr)
    return best


BRUTE_SETTINGS = [
    MeasureSetting("shannon"),
    MeasureSetting("gini"),
    MeasureSetting("shannon", theta="prior"),
    MeasureSetting("asymmetric", theta="prior"),
    MeasureSetting("asymmetric", theta="prior", consistent=True),
    MeasureSetting("misclassification"),
]


@pytest.mark.parametrize("seed", range(8))
def test_own_optima_equal_brute_force_max(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(8, 30))
    q = 2 if seed % 2 == 0 else 3
    y = rng.integers(0, q, n)
    y[:q] = np.arange(q)  # every class present
    X = pd.DataFrame(
        {
            "f0": rng.integers(0, 6, n).astype(float),  # many ties in value
            "f1": rng.normal(size=n).round(2),
            "f2": rng.integers(0, 3, n).astype(float),
        }
    )
    min_leaf = 1 + seed % 3
    clf = offcenter.TreeClassifier(measure="gini", min_samples_leaf=min_leaf).fit(X, y)
    o = own_optima(clf, 0, settings=BRUTE_SETTINGS)
    counts = np.bincount(y, minlength=q)
    for ms in BRUTE_SETTINGS:
        imp = ms.impurity(counts)
        sub = o[o["setting_key"] == ms.key].set_index("feature")
        for f in X.columns:
            g, thr = _brute_best(X[f].to_numpy(), y, imp, min_leaf)
            row = sub.loc[f]
            if thr is None:
                assert np.isnan(row["score"])
                continue
            assert abs(row["gain"] - g) <= 1e-12, (ms.key, f)
            assert abs(row["score"] - g) <= 1e-12, (ms.key, f)
            # the reported threshold attains the max; the engine takes the smallest on a tie
            assert row["threshold"] == thr, (ms.key, f)
        scores = sub["score"].to_numpy()
        if not sub["tied_all"].any():
            top = np.nanmax(scores)
            assert sub["score"][sub["is_best"]].iloc[0] >= top - 1e-12
            assert (sub["rank"] == 1).sum() == (scores >= top - 1e-12).sum()
        else:
            assert np.nanmax(scores) - np.nanmin(scores) <= 1e-12


def test_agreement_rejects_other_input():
    with pytest.raises(TypeError, match="own_optima"):
        agreement(pd.DataFrame({"a": [1]}))


def test_categorical_groupings_are_compared():
    # x: a/b vs c splits the classes; binary mode searches the groupings
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 1, 1])
    X = pd.DataFrame({"x": list("aaaabbbbcccc")})
    clf = offcenter.TreeClassifier(measure="gini", categorical="binary").fit(X, y)
    o = own_optima(clf, 0, settings=[SHANNON])
    assert set(o["kind"]) == {"categorical_binary"}
    assert o["threshold"].isna().all()
    for key in ("gini", "shannon"):
        best = _pick(o, key)
        assert best["groups"] == (("a",), ("b", "c"))
        assert best["pick"] == "x in {a} / x in {b, c}"
    a = agreement(o)
    assert a.agree and a.text == "all 2 settings pick x in {a} / x in {b, c}"


@pytest.mark.parametrize("seed", range(6))
def test_multiway_own_optima_equal_the_direct_sums(seed):
    """One branch per value: the split is the same under every setting (searched once per node,
    :meth:`offcenter.tree.inspect._NodeSearch._multiway`), each setting's gain is its own
    I(node) - sum n_k / n I(child k), from the counts; a value with fewer rows than
    ``min_samples_leaf`` leaves the feature without a valid split under every setting."""
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(12, 40))
    q = 2 + seed % 2
    y = rng.integers(0, q, n)
    y[:q] = np.arange(q)
    levels = np.array(list("abcd"))[: 2 + seed % 3]
    X = pd.DataFrame(
        {"c": rng.choice(levels, n), "d": rng.choice(["u", "v"], n), "x": rng.normal(size=n)}
    )
    min_leaf = 1 + seed % 3
    clf = offcenter.TreeClassifier(measure="gini", min_samples_leaf=min_leaf).fit(X, y)
    o = own_optima(clf, 0, settings=BRUTE_SETTINGS)
    counts = np.bincount(y, minlength=q)
    for ms in BRUTE_SETTINGS:
        imp = ms.impurity(counts)
        sub = o[o["setting_key"] == ms.key].set_index("feature")
        for f in ("c", "d"):
            values = X[f].to_numpy()
            kids = [np.bincount(y[values == v], minlength=q) for v in np.unique(values)]
            row = sub.loc[f]
            if len(kids) < 2 or min(k.sum() for k in kids) < min_leaf:
                assert np.isnan(row["score"]) and row["split"] == "", (ms.key, f)
                continue
            gain = float(imp.of_counts(counts)) - sum(
                k.sum() / n * float(imp.of_counts(k)) for k in kids
            )
            assert abs(row["gain"] - gain) <= 1e-12, (ms.key, f)
            assert abs(row["score"] - gain) <= 1e-12, (ms.key, f)
            texts = " | ".join("[" + ", ".join(str(int(c)) for c in k) + "]" for k in kids)
            assert row["children_counts"] == texts, (ms.key, f)
