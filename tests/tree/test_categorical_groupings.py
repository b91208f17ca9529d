"""The two-group search of categorical features (``categorical="binary"``) against a brute-force
enumeration of every grouping: exact under the leaf-size rules (``min_samples_leaf``,
``min_weight_fraction_leaf``), with two and three classes and sample weights, in the tree, a
forest's tree, ``own_optima`` and ``candidates``; a heuristic search only above
``ENUMERATION_CAP`` values at a node, and then it says so (HeuristicGroupingWarning).

The property tests draw 11 to 14 values in the everyday profiles (15 examples each); under
``HYPOTHESIS_PROFILE=thorough`` 400 examples each, the first with 11 to ``ENUMERATION_CAP``
values.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from offcenter import TreeClassifier, hellinger_split
from offcenter.ensemble.forest import ForestClassifier
from offcenter.tree import categorical
from offcenter.tree.categorical import ENUMERATION_CAP, HeuristicGroupingWarning
from offcenter.tree.inspect import resolve_settings

#: examples in the everyday profiles (dev, ci); thorough: up to THOROUGH (an example at 20
#: values scores 2**19 groupings under every setting own_optima compares: seconds each)
EVERYDAY = 15
THOROUGH = 400


def _thorough() -> bool:
    return settings().max_examples >= 1000


def _examples() -> int:
    return min(settings().max_examples, THOROUGH) if _thorough() else EVERYDAY


def brute_force(codes, y, w, imp, min_samples_leaf=1, min_weight_leaf=0.0, hellinger=False):
    """(best gain, its left group) over every grouping of the values present (itertools), the
    gains from the reference ``imp.of_counts`` (``hellinger``: the Hellinger distance of
    :func:`offcenter.hellinger_split`); (-inf, None) when no grouping obeys the rules."""
    values = sorted(set(codes))
    q = int(y.max()) + 1
    w = np.ones(len(y)) if w is None else w
    onehot = np.zeros((len(y), q))
    onehot[np.arange(len(y)), y] = w
    idx = {v: np.flatnonzero(codes == v) for v in values}
    tab = np.array([onehot[idx[v]].sum(axis=0) for v in values])  # (k, q) weighted counts
    rows = np.array([idx[v].size for v in values])
    node_counts = tab.sum(axis=0)
    # every grouping: a subset of the first k-1 values on the left, the last on the right
    mem = np.array(list(itertools.product((0, 1), repeat=len(values) - 1)), float)[1:]
    mem = np.hstack([mem, np.zeros((len(mem), 1))])
    L = mem @ tab
    R = (1 - mem) @ tab
    rl, rr = mem @ rows, (1 - mem) @ rows
    ok = (rl >= min_samples_leaf) & (rr >= min_samples_leaf)
    ok &= (L.sum(1) >= min_weight_leaf) & (R.sum(1) >= min_weight_leaf)
    if not ok.any():
        return -np.inf, None
    L, R, mem = L[ok], R[ok], mem[ok]
    n = node_counts.sum()
    if hellinger:
        gain = hellinger_split(np.stack([L, R], axis=1))
    else:
        gain = (
            imp.of_counts(node_counts)
            - (L.sum(1) * imp.of_counts(L) + R.sum(1) * imp.of_counts(R)) / n
        )
    b = int(np.argmax(gain))
    return float(gain[b]), {f"v{values[i]:02d}" for i in np.flatnonzero(mem[b])}


def _frame(codes):
    return pd.DataFrame({"a": [f"v{c:02d}" for c in codes]})


# The best prefix of the values sorted by their share of class 1 breaks min_samples_leaf=7 and
# the best grouping is not a prefix: (class 0, class 1) rows per value v00..v10.
TABLE = [[2, 2], [0, 1], [1, 1], [0, 1], [1, 0], [0, 1], [1, 1], [0, 1], [3, 3], [0, 1], [2, 0]]
BEST_GAIN = 0.14375892207257823  # brute force; the best rule-abiding prefix has 0.0985
#: the best groupings' smaller group (v02 and v06 have the same counts: either of them)
BEST_LEFT = [{"v01", "v02", "v03", "v05", "v07", "v09"}, {"v01", "v03", "v05", "v06", "v07", "v09"}]


def _table_data():
    codes = np.repeat(np.arange(len(TABLE)), [a + b for a, b in TABLE])
    y = np.concatenate([[0] * a + [1] * b for a, b in TABLE])
    return _frame(codes), y, codes


@pytest.mark.parametrize(
    "rule", [{"min_samples_leaf": 7}, {"min_weight_fraction_leaf": 7 / 22 - 1e-9}]
)
def test_a_non_prefix_grouping_wins_under_a_leaf_size_rule(rule):
    X, y, codes = _table_data()
    clf = TreeClassifier(categorical="binary", max_depth=1, **rule)
    gain, left = brute_force(codes, y, None, clf.fit(X, y).impurity_, 7)
    assert gain == pytest.approx(BEST_GAIN, abs=1e-15) and left in BEST_LEFT
    with warnings.catch_warnings():
        warnings.simplefilter("error", HeuristicGroupingWarning)
        clf = TreeClassifier(categorical="binary", max_depth=1, **rule).fit(X, y)
        root = clf.tree_.nodes[0].split
        assert root.gain == pytest.approx(BEST_GAIN, abs=1e-12)
        assert set(root.groups[0]) in BEST_LEFT or set(root.groups[1]) in BEST_LEFT
        kids = sorted(clf.tree_.nodes[c].counts.tolist() for c in clf.tree_.nodes[0].children)
        assert kids == [[1, 6], [9, 6]]
        assert clf.heuristic_groupings_ == {}
        # own_optima and candidates search the node again
        own = clf.own_optima(0)
        mine = own[(own["setting_key"] == own.attrs["chosen_key"]) & (own["feature"] == "a")]
        assert mine["gain"].iloc[0] == pytest.approx(BEST_GAIN, abs=1e-12)
        cand = clf.candidates(0)
        key = cand.attrs["chosen_key"]
        assert cand.loc[cand["chosen"], f"gain:{key}"].iloc[0] == pytest.approx(
            BEST_GAIN, abs=1e-12
        )
        # every setting own_optima searches, against the brute force under its measure
        for key, _, scorer in resolve_settings(clf):
            best, _ = brute_force(codes, y, None, scorer.impurity, 7)
            row = own[(own["setting_key"] == key) & (own["feature"] == "a")]
            assert row["gain"].iloc[0] == pytest.approx(best, abs=1e-12), key
        # a forest's tree (every row, every feature)
        forest = ForestClassifier(
            n_estimators=1, bootstrap=False, max_features=None, n_jobs=1,
            categorical="binary", max_depth=1, random_state=0, **rule,
        ).fit(X, y)  # fmt: skip
        assert forest.estimators_[0].tree_.nodes[0].split.gain == pytest.approx(
            BEST_GAIN, abs=1e-12
        )


SETTINGS = [
    {},
    {"measure": "gini"},
    {"theta": "prior"},
    {"measure": "asymmetric", "consistent": True},
    {"measure": "gini", "theta": "prior"},
    {"criterion": "hellinger"},
]


@st.composite
def grouping_problems(draw, k_max=None):
    k_max = k_max or (ENUMERATION_CAP if _thorough() else 14)
    K = draw(st.integers(11, k_max))
    q = draw(st.sampled_from([2, 3]))
    sizes = draw(st.lists(st.integers(1, 6), min_size=K, max_size=K))
    codes = np.repeat(np.arange(K), sizes)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    share = rng.dirichlet(np.ones(q) * draw(st.sampled_from([0.3, 1.0, 5.0])), size=K)
    y = np.array([rng.choice(q, p=share[c]) for c in codes])
    y[:q] = np.arange(q)  # every class present
    weights = None
    if draw(st.booleans()):
        weights = rng.uniform(0.1, 3.0, codes.size) ** draw(st.sampled_from([1, 3]))
    n = codes.size
    rule = draw(st.sampled_from(["rows", "weight", "both", "none"]))
    min_samples_leaf = draw(st.integers(1, max(1, n // 2))) if rule in ("rows", "both") else 1
    mwf = draw(st.floats(0.0, 0.5)) if rule in ("weight", "both") else 0.0
    setting = draw(st.sampled_from(SETTINGS))
    return codes, y, weights, min_samples_leaf, mwf, setting


@settings(max_examples=_examples(), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grouping_problems())
def test_the_two_group_search_is_exact_up_to_the_cap(problem):
    _check_exact(*problem)


@settings(max_examples=_examples(), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grouping_problems(k_max=14))
def test_the_enumeration_in_many_small_chunks_is_exact(problem):
    # the chunks of the enumeration (low-bit tables of 2**3 sums, 32 groupings at once)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(categorical, "LOW_BITS", 3)
        mp.setattr(categorical, "CHUNK", 32)
        _check_exact(*problem, tables=False)


def _check_exact(codes, y, weights, min_samples_leaf, mwf, setting, tables=True):
    """The tree's root split (and with ``tables`` own_optima's, candidates' and a forest's
    tree's) against the brute force."""
    X = _frame(codes)
    kw = dict(categorical="binary", max_depth=1, min_samples_leaf=min_samples_leaf)
    kw.update(min_weight_fraction_leaf=mwf, **setting)
    with warnings.catch_warnings():
        warnings.simplefilter("error", HeuristicGroupingWarning)
        clf = TreeClassifier(**kw).fit(X, y, sample_weight=weights)
        total = len(y) if weights is None else weights.sum()
        hel = setting.get("criterion") == "hellinger"
        best, _ = brute_force(codes, y, weights, clf.impurity_, min_samples_leaf, mwf * total, hel)
        root = clf.tree_.nodes[0]
        if root.split is not None:
            assert root.split.gain == pytest.approx(best, abs=1e-12)
        else:  # no split: nothing obeys the rules, or the best gain is not above min_gain
            assert best <= 1e-12
        assert clf.heuristic_groupings_ == {}
        if not tables:
            return
        own = clf.own_optima(0)
        mine = own[(own["setting_key"] == own.attrs["chosen_key"]) & (own["feature"] == "a")]
        if best == -np.inf:
            assert mine.empty or not np.isfinite(mine["gain"]).any()
        else:
            assert mine["gain"].iloc[0] == pytest.approx(best, abs=1e-12)
            cand = clf.candidates(0)
            key = cand.attrs["chosen_key"]
            got = cand.loc[cand["feature"] == "a", f"gain:{key}"].iloc[0]
            assert got == pytest.approx(best, abs=1e-12)
        if weights is None:  # a forest's tree on every row (the forest takes no weights)
            forest = ForestClassifier(
                n_estimators=1, bootstrap=False, max_features=None, n_jobs=1, **kw
            ).fit(X, y)
            split = forest.estimators_[0].tree_.nodes[0].split
            assert (split is None and best <= 1e-12) or split.gain == pytest.approx(best, abs=1e-12)


def _many_values(K, q, n=600, seed=0):
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, K, n)
    codes[:K] = np.arange(K)
    eff = rng.normal(size=(K, q))
    y = np.array([rng.choice(q, p=np.exp(e) / np.exp(e).sum()) for e in eff[codes]])
    y[:q] = np.arange(q)
    return _frame(codes), y, codes


def test_above_the_cap_the_heuristic_warns_once_per_fit_and_names_the_feature():
    K = ENUMERATION_CAP + 5
    X, y, _ = _many_values(K, 3)
    with pytest.warns(HeuristicGroupingWarning, match="'a'") as caught:
        clf = TreeClassifier(categorical="binary", max_depth=2).fit(X, y)
    assert len([w for w in caught if w.category is HeuristicGroupingWarning]) == 1
    assert clf.heuristic_groupings_.get("a", 0) >= 1
    with pytest.warns(HeuristicGroupingWarning) as caught:
        ForestClassifier(
            n_estimators=3, max_features=None, n_jobs=1, categorical="binary", max_depth=2,
            random_state=0,
        ).fit(X, y)  # fmt: skip
    assert len([w for w in caught if w.category is HeuristicGroupingWarning]) == 1
    assert "3 trees" in str(caught[0].message)
    with pytest.warns(HeuristicGroupingWarning, match="own_optima"):
        clf.own_optima(0)
    with pytest.warns(HeuristicGroupingWarning, match="subtree grown at node 0"):
        again = clf.regrow(0, max_depth=1)
    assert again.heuristic_groupings_["a"] > clf.heuristic_groupings_["a"]


def test_a_forest_in_threads_warns_once_and_leaves_the_warning_on_for_the_next_tree():
    """The forest grows its trees inside ``heuristic_warning_deferred`` (a context variable,
    per thread): one warning for all its trees, and a tree fitted afterwards still warns."""
    K = ENUMERATION_CAP + 5
    X, y, _ = _many_values(K, 3)
    with pytest.warns(HeuristicGroupingWarning) as caught:
        forest = ForestClassifier(
            n_estimators=4, max_features=None, n_jobs=2, categorical="binary", max_depth=2,
            random_state=0,
        ).fit(X, y)  # fmt: skip
    assert len([w for w in caught if w.category is HeuristicGroupingWarning]) == 1
    assert "4 trees" in str(caught[0].message)
    assert all(t.heuristic_groupings_.get("a", 0) >= 1 for t in forest.estimators_)
    with pytest.warns(HeuristicGroupingWarning, match="TreeClassifier.fit"):
        TreeClassifier(categorical="binary", max_depth=2).fit(X, y)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with categorical.heuristic_warning_deferred():
            quiet = TreeClassifier(categorical="binary", max_depth=2).fit(X, y)
    assert not [w for w in caught if w.category is HeuristicGroupingWarning]
    assert quiet.heuristic_groupings_.get("a", 0) >= 1  # recorded for the caller to warn


def test_above_the_cap_two_classes_without_a_broken_rule_is_exact_and_silent():
    # the best prefix of the values sorted by class share is the best grouping (Breiman)
    X, y, codes = _many_values(ENUMERATION_CAP + 5, 2, seed=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error", HeuristicGroupingWarning)
        clf = TreeClassifier(categorical="binary", max_depth=1).fit(X, y)
    assert clf.heuristic_groupings_ == {}
    # a gain the local search must at least reach: every prefix of the sorted values
    tab = np.array([np.bincount(y[codes == v], minlength=2) for v in range(ENUMERATION_CAP + 5)])
    order = np.argsort(tab[:, 1] / tab.sum(1), kind="stable")
    imp = clf.impurity_
    node_counts = tab.sum(0)
    best = max(
        imp.of_counts(node_counts)
        - (L.sum() * imp.of_counts(L) + (node_counts - L).sum() * imp.of_counts(node_counts - L))
        / node_counts.sum()
        for L in np.cumsum(tab[order], axis=0)[:-1]
    )
    assert clf.tree_.nodes[0].split.gain == pytest.approx(best, abs=1e-12)


def test_above_the_cap_the_heuristic_is_no_worse_than_the_best_prefix():
    X, y, codes = _many_values(ENUMERATION_CAP + 4, 2, seed=5)
    with pytest.warns(HeuristicGroupingWarning):
        clf = TreeClassifier(categorical="binary", max_depth=1, min_samples_leaf=250).fit(X, y)
    K = ENUMERATION_CAP + 4
    tab = np.array([np.bincount(y[codes == v], minlength=2) for v in range(K)])
    order = np.argsort(tab[:, 1] / tab.sum(1), kind="stable")
    imp = clf.impurity_
    node_counts = tab.sum(0)
    gains = [
        imp.of_counts(node_counts)
        - (L.sum() * imp.of_counts(L) + (node_counts - L).sum() * imp.of_counts(node_counts - L))
        / node_counts.sum()
        for L in np.cumsum(tab[order], axis=0)[:-1]
        if min(L.sum(), (node_counts - L).sum()) >= 250
    ]
    split = clf.tree_.nodes[0].split
    assert split is not None and split.gain >= max(gains) - 1e-12


def test_ten_values_off_centered_three_classes_is_screened_without_a_crash():
    # 511 groupings of one node reach the float32 screening, whose subset of candidates took
    # their thresholds (groupings have none): a TypeError before
    rng = np.random.default_rng(0)
    codes = rng.integers(0, 10, 300)
    y = rng.integers(0, 3, 300)
    clf = TreeClassifier(categorical="binary", theta="prior", max_depth=1).fit(_frame(codes), y)
    best, _ = brute_force(codes, y, None, clf.impurity_)
    assert clf.tree_.nodes[0].split.gain == pytest.approx(best, abs=1e-12)
