"""MeasureSetting: the one frozen description of a measure setting (keys, labels, parsing)."""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import offcenter as oc
from offcenter.measures.registry import MEASURES
from offcenter.measures.settings import MeasureSetting, comparison_settings, format_number

SAFE = set("abcdefghijklmnopqrstuvwxyz0123456789_.-")


# ---------------------------------------------------------------- strategies
def _numbers(low, high):
    return st.one_of(
        st.sampled_from([low, 0.5, 1.0, 2.0, 0.1, 0.2, 0.3, 1 / 3, 1e-5]).filter(
            lambda v: low <= v <= high
        ),
        st.floats(low, high, allow_nan=False, allow_infinity=False),
    )


@st.composite
def thetas(draw):
    kind = draw(st.sampled_from(["prior", "uniform", "tuple", "scalar"]))
    if kind in ("prior", "uniform"):
        return kind
    if kind == "scalar":
        return draw(st.floats(0.01, 0.99))
    q = draw(st.integers(2, 4))
    w = draw(st.lists(st.floats(0.05, 1.0), min_size=q, max_size=q))
    return tuple(np.asarray(w) / np.sum(w))


@st.composite
def measure_settings(draw):
    name = draw(st.sampled_from(list(MEASURES)))
    info = MEASURES[name]
    kw = {}
    if info.theta == "builtin":
        kw["theta"] = draw(st.one_of(st.none(), thetas()))
        kw["consistent"] = draw(st.booleans())
        if kw["consistent"] and draw(st.booleans()):
            kw["n"] = draw(st.sampled_from([1.0, 20.0, 500.0]) | st.floats(1e-3, 1e4))
    else:
        kw["theta"] = draw(st.one_of(st.none(), thetas()))
    for p in info.params:
        if draw(st.booleans()):
            kw[p.name] = draw(_numbers(0.0, 10.0))
    if draw(st.booleans()):
        kw["alpha"] = draw(_numbers(0.0, 1.0))
    kw["class_weight"] = draw(st.sampled_from([None, "balanced"]))
    return MeasureSetting(name, **kw)


# ---------------------------------------------------------------- properties
@settings(max_examples=300, deadline=None)
@given(measure_settings())
def test_parse_of_str_round_trips(s):
    assert MeasureSetting.parse(str(s)) == s
    assert MeasureSetting.parse(s.key).key == s.key
    assert set(s.key) <= SAFE
    assert hash(MeasureSetting.parse(s.key)) == hash(s)
    # constructing again from the fields gives the same setting (defaults already filled)
    assert MeasureSetting(**{f.name: getattr(s, f.name) for f in dataclasses.fields(s)}) == s


@settings(max_examples=200, deadline=None)
@given(measure_settings(), measure_settings())
def test_distinct_settings_have_distinct_keys_and_labels(a, b):
    if a == b:
        assert a.key == b.key and a.label == b.label
    else:
        assert a.key != b.key
        assert a.label != b.label


def test_distinct_keys_and_labels_over_a_fixed_family():
    family = (
        {
            MeasureSetting(m, theta=t, **p)
            for m in ("shannon", "gini", "misclassification")
            for t in (None, "prior", "uniform", (0.8, 0.2), (0.2, 0.8), (0.5, 0.3, 0.2))
            for p in ({}, {"alpha": 0.0}, {"alpha": 0.5}, {"alpha": 1.0})
        }
        | {
            MeasureSetting("daroczy", theta=t, beta=b)
            for t in (None, "prior", "uniform")
            for b in (0.0, 0.5, 1.0, 2.0, 1 / 3)
        }
        | {
            MeasureSetting("rank_diversity", theta=t, rho=r)
            for t in (None, "prior")
            for r in (0, 1)
        }
        | {
            MeasureSetting("asymmetric", theta=t, consistent=c, n=n)
            for t in ("prior", "uniform", (0.9, 0.1))
            for c, n in ((False, None), (True, None), (True, 20), (True, 21))
        }
    )
    family = list(family)
    assert len({s.key for s in family}) == len(family)
    assert len({s.label for s in family}) == len(family)
    for s in family:
        assert MeasureSetting.parse(str(s)) == s


# ---------------------------------------------------------------- fixed examples
@pytest.mark.parametrize(
    "setting, key, label",
    [
        (MeasureSetting("shannon"), "shannon", "Shannon"),
        (MeasureSetting("shannon", "prior"), "oc_shannon", "off-centered Shannon, θ = prior"),
        (
            MeasureSetting("shannon", "uniform"),
            "ocuniform_shannon",
            "off-centered Shannon, θ = uniform",
        ),
        (
            MeasureSetting("shannon", (0.8, 0.2)),
            "octheta0.8-0.2_shannon",
            "off-centered Shannon, θ = (0.8, 0.2)",
        ),
        (
            MeasureSetting("shannon", 0.2),
            "octheta0.8-0.2_shannon",
            "off-centered Shannon, θ = (0.8, 0.2)",
        ),
        (MeasureSetting("gini", "prior"), "oc_gini", "off-centered Gini, θ = prior"),
        (
            MeasureSetting("daroczy", "prior", beta=0.5),
            "oc_daroczy_b0.5",
            "off-centered Daroczy (β = 0.5), θ = prior",
        ),
        (MeasureSetting("daroczy"), "daroczy_b2", "Daroczy (β = 2)"),
        (
            MeasureSetting("rank", "prior", rho=0),
            "oc_rank_diversity_r0",
            "off-centered Rank diversity (ρ = 0), θ = prior",
        ),
        (MeasureSetting("asymmetric"), "asymmetric", "Asymmetric, θ = prior"),
        (
            MeasureSetting("asymmetric", consistent=True),
            "asymmetric_consistent",
            "Asymmetric, θ = prior, consistent",
        ),
        (MeasureSetting("asymmetric", "uniform"), "asymmetric_uniform", "Asymmetric, θ = uniform"),
        (
            MeasureSetting("asymmetric", consistent=True, n=20),
            "asymmetric_consistent_n20",
            "Asymmetric, θ = prior, consistent (n = 20)",
        ),
        (
            MeasureSetting("shannon", "prior", alpha=0.5),
            "oc_shannon_a0.5",
            "off-centered Shannon, θ = prior, λ_α (α = 0.5)",
        ),
        (
            MeasureSetting("misclassification", alpha=0),
            "misclassification_a0",
            "Misclassification, λ_α (α = 0)",
        ),
    ],
)
def test_key_and_label_stability(setting, key, label):
    assert setting.key == key
    assert str(setting) == key
    assert setting.label == label
    assert MeasureSetting.parse(key) == setting
    assert eval(repr(setting), {"MeasureSetting": MeasureSetting}) == setting


def test_uniform_and_prior_are_different_settings():
    """The bug: theta='uniform' had the key and label of theta='prior'."""
    prior, unif = MeasureSetting("shannon", "prior"), MeasureSetting("shannon", "uniform")
    assert prior != unif and prior.key != unif.key and prior.label != unif.label
    assert "prior" in prior.label and "uniform" in unif.label
    counts = [56, 44]
    np.testing.assert_allclose(prior.impurity(counts).theta, [0.56, 0.44])
    np.testing.assert_allclose(unif.impurity(counts).theta, [0.5, 0.5])


def test_label_for_resolves_theta():
    assert MeasureSetting("shannon", "prior").label_for([56, 44]) == (
        "off-centered Shannon, θ = prior (0.56, 0.44)"
    )
    assert MeasureSetting("shannon", "prior").label_for([0.56, 0.44]) == (
        "off-centered Shannon, θ = prior (0.56, 0.44)"
    )
    assert MeasureSetting("gini", "uniform").label_for([1, 2, 3]) == (
        "off-centered Gini, θ = uniform (0.33, 0.33, 0.33)"
    )
    assert (
        MeasureSetting("gini", "uniform")
        .label_for([1, 2, 3], digits=3)
        .endswith("(0.333, 0.333, 0.333)")
    )
    assert MeasureSetting("gini").label_for([1, 2]) == "Gini"
    assert MeasureSetting("gini", (0.7, 0.3)).label_for([1, 2]) == (
        "off-centered Gini, θ = (0.7, 0.3)"
    )
    assert MeasureSetting("asymmetric", consistent=True).label_for([3, 1]) == (
        "Asymmetric, θ = prior (0.75, 0.25), consistent"
    )


def test_measure_label_leaves_theta_out():
    assert MeasureSetting("shannon", "prior").measure_label == "off-centered Shannon"
    assert MeasureSetting("daroczy", beta=0.5).measure_label == "Daroczy (β = 0.5)"
    assert MeasureSetting("asymmetric", consistent=True, n=20).measure_label == (
        "Asymmetric, consistent (n = 20)"
    )


def test_registry_defaults_are_filled_so_equal_settings_compare_equal():
    assert MeasureSetting("daroczy") == MeasureSetting("daroczy", beta=2.0)
    assert MeasureSetting("daroczy").beta == 2.0
    assert MeasureSetting("rank_diversity").rho == 0.0
    assert MeasureSetting("entropy", "Prior") == MeasureSetting("shannon", "prior")
    assert MeasureSetting("asymmetric") == MeasureSetting("asymmetric", "prior")
    assert MeasureSetting("shannon", [0.8, 0.2]) == MeasureSetting("shannon", (0.8, 0.2))
    assert MeasureSetting("shannon", np.array([0.8, 0.2])).theta == (0.8, 0.2)
    assert MeasureSetting("gini", alpha=1) == MeasureSetting("gini", alpha=1.0)
    assert MeasureSetting("shannon").beta is None and MeasureSetting("shannon").rho is None
    assert len({MeasureSetting("daroczy"), MeasureSetting("daroczy", beta=2)}) == 1


def test_frozen():
    s = MeasureSetting("shannon")
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.theta = "prior"
    assert s.replace(theta="prior") == MeasureSetting("shannon", "prior")


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"measure": "nope"}, ValueError, "unknown measure"),
        ({"measure": "shannon", "beta": 2}, ValueError, "does not take beta"),
        ({"measure": "daroczy", "beta": -1}, ValueError, "beta"),
        ({"measure": "daroczy", "beta": "2"}, TypeError, "beta must be a number"),
        ({"measure": "rank_diversity", "rho": -0.5}, ValueError, "rho"),
        ({"measure": "gini", "consistent": True}, ValueError, "consistent"),
        ({"measure": "asymmetric", "n": 20}, ValueError, "consistent=True"),
        ({"measure": "asymmetric", "consistent": True, "n": 0}, ValueError, "n"),
        ({"measure": "shannon", "theta": "middle"}, ValueError, "theta must be"),
        ({"measure": "shannon", "theta": (0.5, 0.6)}, ValueError, "sum to 1"),
        ({"measure": "shannon", "theta": (1.0, 0.0)}, ValueError, "strictly between 0 and 1"),
        ({"measure": "shannon", "theta": (1.0,)}, ValueError, "at least 2"),
        ({"measure": "shannon", "theta": [[0.5, 0.5]]}, ValueError, "one distribution"),
        ({"measure": "shannon", "alpha": 1.5}, ValueError, "alpha"),
        ({"measure": "shannon", "consistent": "yes"}, TypeError, "consistent"),
    ],
)
def test_validation_errors(kwargs, error, match):
    with pytest.raises(error, match=match):
        MeasureSetting(**kwargs)


@pytest.mark.parametrize(
    "text, key",
    [
        ("OC-Shannon", "oc_shannon"),
        (" oc_rank_r0 ", "oc_rank_diversity_r0"),
        ("oc_daroczy", "oc_daroczy_b2"),
        ("oc-daroczy-b0.5", "oc_daroczy_b0.5"),
        ("rank-diversity", "rank_diversity_r0"),
        ("entropy", "shannon"),
        ("shannon_uniform", "ocuniform_shannon"),
        ("oc_asymmetric", "asymmetric"),
        ("asymmetric_theta0.9-0.1_consistent", "asymmetric_theta0.9-0.1_consistent"),
        ("oc_gini_a1", "oc_gini_a1"),
        ("oc_daroczy_b1e-05", "oc_daroczy_b0.00001"),
    ],
)
def test_parse_accepts_the_cli_syntaxes(text, key):
    assert MeasureSetting.parse(text).key == key


@pytest.mark.parametrize(
    "bad, error, match",
    [
        ("nonsense", ValueError, "unknown setting"),
        ("shannon_consistent", ValueError, "consistent"),
        ("oc_daroczy_b-1", ValueError, "beta"),
        ("oc_shannon_uniform", ValueError, "theta twice"),
        ("daroczy_b1_b2", ValueError, "beta twice"),
        ({"theta": "prior"}, ValueError, "needs a 'measure'"),
        ({"measure": "gini", "colour": 1}, ValueError, "unknown keys"),
        ("", ValueError, "a setting is"),
        (3, ValueError, "a setting is"),
    ],
)
def test_parse_errors(bad, error, match):
    with pytest.raises(error, match=match):
        MeasureSetting.parse(bad)


def test_parse_dicts_and_settings():
    s = MeasureSetting.parse({"measure": "asymmetric", "consistent": True})
    assert s.key == "asymmetric_consistent"
    assert MeasureSetting.parse(s) is s
    d = {
        k: v
        for k, v in MeasureSetting("gini", (0.7, 0.3), alpha=0.5).to_dict().items()
        if k not in ("key", "label")
    }
    assert MeasureSetting.parse(d) == MeasureSetting("gini", (0.7, 0.3), alpha=0.5)


def test_impurity_matches_the_package_functions():
    counts = np.array([30.0, 10.0])
    p = counts / counts.sum()
    s = MeasureSetting("daroczy", "prior", beta=0.5)
    imp = s.impurity(counts)
    assert imp == oc.Impurity("daroczy", theta=p, beta=0.5)
    assert float(imp([0.5, 0.5])) == pytest.approx(
        oc.off_centered([0.5, 0.5], p, "daroczy", beta=0.5)
    )
    a = MeasureSetting("asymmetric", consistent=True).impurity([3, 1])
    assert a.consistent and np.allclose(a.theta, [0.75, 0.25])
    with pytest.raises(ValueError, match="classes"):
        MeasureSetting("gini", (0.5, 0.3, 0.2)).impurity([1, 1])


def test_tree_params():
    assert MeasureSetting("daroczy", "prior", beta=0.5).tree_params() == {
        "measure": "daroczy",
        "theta": "prior",
        "measure_params": {"beta": 0.5},
        "consistent": False,
    }
    assert MeasureSetting("gini").tree_params()["measure_params"] is None
    assert MeasureSetting("gini", alpha=0.5).tree_params()["alpha"] == 0.5
    with pytest.raises(ValueError, match="curves only"):
        MeasureSetting("asymmetric", consistent=True, n=3).tree_params()


def test_comparison_settings_are_measure_settings_with_distinct_keys_and_labels():
    cs = comparison_settings()
    assert all(isinstance(s, MeasureSetting) for s in cs)
    assert oc.comparison_settings() == cs
    assert len({s.key for s in cs}) == len(cs) and len({s.label for s in cs}) == len(cs)
    assert [s.key for s in cs] == [
        "shannon",
        "gini",
        "misclassification",
        "oc_shannon",
        "oc_gini",
        "oc_daroczy_b0.5",
        "oc_rank_diversity_r0",
        "asymmetric",
        "asymmetric_consistent",
    ]


def test_format_number_is_exact():
    for v in (0.1, 1 / 3, 2.0, 1e-7, 123456.789, 0.1 + 0.2, -0.0):
        assert float(format_number(v)) == v
        assert "e" not in format_number(v) and "-" not in format_number(v)


# ---------------------------------------------------------------- the tree's setting
def _imbalanced(seed=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(120, 3))
    y = (X[:, 0] + 0.5 * rng.normal(size=120) > 0.9).astype(int)  # about 20 % positives
    return X, y


def test_tree_setting_and_the_uniform_column():
    """TreeClassifier(theta='uniform') gets its own column next to the off-centered one."""
    X, y = _imbalanced()
    clf = oc.TreeClassifier(theta="uniform", max_depth=2).fit(X, y)
    assert clf.setting_ == MeasureSetting("shannon", "uniform")
    assert clf.tree_.nodes[0].criterion == "ocuniform_shannon"
    cands = clf.candidates(0)
    keys = [k for k, _ in cands.attrs["settings"]]
    labels = [label for _, label in cands.attrs["settings"]]
    assert keys[0] == cands.attrs["chosen_key"] == "ocuniform_shannon"
    assert "oc_shannon" in keys and len(set(keys)) == len(keys) == len(set(labels))
    assert labels[0] == "off-centered Shannon, θ = uniform"
    # the two columns differ (the prior is not uniform here), and each matches its Impurity
    assert not np.allclose(cands["gain:oc_shannon"], cands["gain:ocuniform_shannon"])
    imps = clf.node_impurities(0)
    prior = np.bincount(y) / len(y)
    assert imps["oc_shannon"] == pytest.approx(1.0)
    assert imps["ocuniform_shannon"] == pytest.approx(float(oc.shannon(prior)))
    tg = clf.threshold_gains(0, 0)
    assert {"gain:oc_shannon", "gain:ocuniform_shannon"} <= set(tg.columns)


def test_tree_setting_with_alpha_and_vector_theta():
    X, y = _imbalanced()
    clf = oc.TreeClassifier("gini", theta=np.array([0.7, 0.3]), alpha=0.5, max_depth=2).fit(X, y)
    assert clf.setting_ == MeasureSetting("gini", (0.7, 0.3), alpha=0.5)
    assert clf.setting_.key == "octheta0.7-0.3_gini_a0.5"
    assert clf.tree_.nodes[0].criterion == clf.setting_.key
    cands = clf.candidates(0)
    # columns are keyed without the tree's alpha, and every score uses the tree's alpha
    assert cands.attrs["chosen_key"] == "octheta0.7-0.3_gini" and cands.attrs["alpha"] == 0.5
    chosen = cands[cands["chosen"]].iloc[0]
    assert chosen["score:octheta0.7-0.3_gini"] == pytest.approx(clf.tree_.nodes[0].split.score)
    # a compared setting with its own alpha is scored with it
    c2 = clf.candidates(0, settings=["oc_gini", "oc_gini_a1"])
    assert [k for k, _ in c2.attrs["settings"]][1:] == ["oc_gini", "oc_gini_a1"]
    assert not np.allclose(c2["score:oc_gini"], c2["score:oc_gini_a1"], equal_nan=True)
    np.testing.assert_allclose(c2["gain:oc_gini"], c2["gain:oc_gini_a1"])
    # the tree read back from JSON keeps its setting
    back = oc.TreeClassifier.from_json(clf.to_json())
    assert back.setting_ == clf.setting_
    assert back.node_impurities(0).index[0] == "octheta0.7-0.3_gini"
    assert clf.setting_.label_for(clf.prior_) == (
        "off-centered Gini, θ = (0.7, 0.3), λ_α (α = 0.5)"
    )


def test_tree_parameter_errors_come_from_the_setting():
    X, y = _imbalanced()
    with pytest.raises(ValueError, match="theta must be None, 'prior', 'uniform'"):
        oc.TreeClassifier(theta="middle").fit(X, y)
    with pytest.raises(ValueError, match="does not take beta"):
        oc.TreeClassifier(beta=2).fit(X, y)
    with pytest.raises(ValueError, match="3 values but the distribution has 2"):
        oc.TreeClassifier(theta=[0.5, 0.3, 0.2]).fit(X, y)


def test_regrown_nodes_record_their_setting_key():
    X, y = _imbalanced()
    clf = oc.TreeClassifier(max_depth=3).fit(X, y)
    node = clf.tree_.nodes[0].children[0]
    re = clf.regrow(node, measure="shannon", theta="uniform")
    assert re.tree_.nodes[node].setting_key == "ocuniform_shannon"
    assert re.tree_.nodes[0].criterion == "shannon"


def test_worked_calculation_names_the_setting_and_follows_a_regrown_node():
    from offcenter.viz.explain import md_escape, node_split_steps

    X, y = _imbalanced()
    clf = oc.TreeClassifier(theta="prior", max_depth=2).fit(X, y)
    steps = node_split_steps(clf, 0)
    text = {s.title: s.text for s in steps}["Parent impurity"]
    assert text.startswith(md_escape(clf.setting_.label_for(clf.prior_)))
    assert r"θ \= prior \(0\." in text
    node = clf.tree_.nodes[0].children[1]
    re = clf.regrow(node, measure="gini", theta=None)
    assert re.tree_.nodes[node].split is not None
    steps = node_split_steps(re, node)
    values = {s.title: s.value for s in steps}
    counts = re.tree_.nodes[node].counts
    assert values["Parent impurity"] == pytest.approx(float(oc.Impurity("gini").of_counts(counts)))
    assert {s.title: s.text for s in steps}["Parent impurity"].startswith("Gini of")


def test_impurity_needs_one_count_per_class():
    with pytest.raises(ValueError, match="class_counts must be one count"):
        MeasureSetting("shannon", "prior").impurity(0.2)
    with pytest.raises(ValueError, match="class_counts must be one count"):
        MeasureSetting("shannon").impurity([[1, 2], [3, 4]])


def test_curves_take_measure_settings():
    from offcenter.measures.curves import binary_curves, curve_label

    df = binary_curves(
        [
            MeasureSetting("shannon", "prior"),
            MeasureSetting("shannon", "uniform"),
            MeasureSetting("shannon", (0.5, 0.5)),
        ],
        0.2,
        grid=[0.2, 0.5],
    )
    # "prior" is the page's theta; "uniform" and a vector keep their own (so the same values)
    assert list(df.columns) == ["p", "oc_shannon", "ocuniform_shannon", "octheta0.5-0.5_shannon"]
    assert df["oc_shannon"].tolist() == pytest.approx(
        [1.0, float(oc.off_centered([0.5, 0.5], 0.2))]
    )
    np.testing.assert_allclose(df["ocuniform_shannon"], df["octheta0.5-0.5_shannon"])
    assert df.attrs["labels"]["oc_shannon"] == "off-centered Shannon"
    assert df.attrs["labels"]["ocuniform_shannon"] == "off-centered Shannon, θ = uniform"
    assert curve_label(MeasureSetting("asymmetric", consistent=True, n=20)) == (
        "Asymmetric, consistent (n = 20)"
    )
    with pytest.raises(ValueError, match="fixed sample"):
        binary_curves([MeasureSetting("asymmetric", consistent=True)], 0.2)
    with pytest.raises(ValueError, match="alpha"):
        binary_curves([MeasureSetting("gini", alpha=0.5)], 0.2)
    with pytest.raises(TypeError, match="MeasureSetting"):
        binary_curves(["oc_shannon"], 0.2)


def test_forest_setting_resolves_theta_once():
    X, y = _imbalanced()
    f = oc.ForestClassifier(
        n_estimators=3, measure="asymmetric", stratified=False, max_features=None, random_state=0
    ).fit(X, y)
    assert f.setting_ == MeasureSetting("asymmetric", "prior")
    prior = np.bincount(y) / len(y)
    np.testing.assert_allclose(f.theta_, prior)
    for t in f.estimators_:  # every tree peaks at the forest's prior, not its bootstrap's
        np.testing.assert_allclose(t.impurity_.theta, prior)


def test_cross_validation_takes_every_setting_syntax():
    from offcenter.evaluation.runner import cross_validate_settings, parse_settings

    settings = parse_settings("oc_shannon, ocuniform_shannon,oc_gini_a0.5")
    assert [s.key for s in settings] == ["oc_shannon", "ocuniform_shannon", "oc_gini_a0.5"]
    X, y = _imbalanced()
    res = cross_validate_settings(
        X, y, settings, n_splits=2, n_repeats=1, seed=0, tree_params={"max_depth": 2}
    )
    summary = res.summary()
    assert list(summary["setting"]) == ["oc_shannon", "ocuniform_shannon", "oc_gini_a0.5"]
    assert list(summary["label"]) == [
        "off-centered Shannon, θ = prior",
        "off-centered Shannon, θ = uniform",
        "off-centered Gini, θ = prior, λ_α (α = 0.5)",
    ]


def test_balanced_class_weight_is_part_of_the_setting():
    s = MeasureSetting("gini", class_weight="balanced")
    assert s.key == "gini_balanced" and s.label == "Gini, balanced classes"
    assert MeasureSetting.parse("gini_balanced") == s
    assert MeasureSetting.parse({"measure": "gini", "class_weight": "Balanced"}) == s
    assert s != MeasureSetting("gini")
    assert s.tree_params()["class_weight"] == "balanced"
    assert "class_weight" not in MeasureSetting("gini").tree_params()
    oc_bal = MeasureSetting.parse("oc_shannon_balanced_a0.5")
    assert (oc_bal.theta, oc_bal.class_weight, oc_bal.alpha) == ("prior", "balanced", 0.5)
    assert oc_bal.key == "oc_shannon_balanced_a0.5"
    with pytest.raises(ValueError, match="class_weight"):
        MeasureSetting("gini", class_weight={"a": 2})
    with pytest.raises(ValueError, match="class_weight"):
        MeasureSetting("gini", class_weight="heavy")
    with pytest.raises(ValueError, match="twice"):
        MeasureSetting.parse("gini_balanced_balanced")


def test_balanced_setting_grows_the_class_weighted_tree():
    from offcenter.evaluation.metrics import balanced_accuracy
    from offcenter.evaluation.runner import cross_validate_settings, stratified_folds

    rng = np.random.default_rng(3)
    X = rng.normal(size=(80, 3))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=80) > 1.0, "rare", "common")
    res = cross_validate_settings(
        X, y, ["shannon", "shannon_balanced"], n_splits=2, n_repeats=1, tree_params={"max_depth": 3}
    )
    tr = stratified_folds(y, 2, 1, 0)[0]
    clf = oc.TreeClassifier(max_depth=3, class_weight="balanced").fit(X[tr.train], y[tr.train])
    expected = balanced_accuracy(y[tr.test], clf.predict(X[tr.test]))
    got = res.folds[(res.folds.setting == "shannon_balanced") & (res.folds.fold == 0)]
    assert got["balanced_accuracy"].iloc[0] == expected
    plain = res.folds[(res.folds.setting == "shannon") & (res.folds.fold == 0)]
    plain_clf = oc.TreeClassifier(max_depth=3).fit(X[tr.train], y[tr.train])
    assert plain["balanced_accuracy"].iloc[0] == balanced_accuracy(
        y[tr.test], plain_clf.predict(X[tr.test])
    )
