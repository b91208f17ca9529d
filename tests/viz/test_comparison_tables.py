"""Pure functions of offcenter.viz.comparison (setting choices, own-optima tables, the chosen
split under every setting, flat curves, training report) and the worked calculation's numbers."""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import confusion_matrix

import offcenter
from offcenter import MeasureSetting
from offcenter.app.downloads import frame_csv
from offcenter.data.datasets import get_dataset, load
from offcenter.tree.inspect import agreement, own_optima
from offcenter.viz.comparison import (
    NO_WINNER,
    chosen_split_table,
    flat_curves,
    fmt,
    imbalance_note,
    is_imbalanced,
    own_best_table,
    own_feature_table,
    setting_choices,
    training_report,
    tree_title,
    with_prior_labels,
)
from offcenter.viz.explain import (
    candidate_display,
    node_measure_label,
    node_split_steps,
    steps_markdown,
)
from offcenter.viz.tree import threshold_figure


def _xy(name):
    d = get_dataset(name)
    df = load(name)
    X, y = df.drop(columns=d.target), df[d.target]
    if name == "mutation":
        X = X.drop(columns="sample")
    return X, y


@pytest.fixture(scope="module")
def pima_oc():
    X, y = _xy("pima")
    return offcenter.TreeClassifier(measure="shannon", theta="prior", max_depth=2).fit(X, y)


# a node where every misclassification gain is 0: the minority never becomes a majority
TIED_Y = np.array([0, 0, 1, 0, 0, 0, 0, 1, 0, 0])
TIED_X = pd.DataFrame(
    {"x1": np.arange(10.0), "x2": np.array([0, 1, 0, 1, 0, 1, 0, 1, 0, 1], float)}
)


def test_fmt_six_significant_digits_of_the_exact_value():
    assert fmt(0.10584334459644862) == "0.105843"  # not 0.105840 (rounded to 5 decimals first)
    assert fmt(0.0132512) == "0.0132512"
    assert fmt(127.5) == "127.5"
    assert fmt(np.nan) == "" and fmt(None) == "" and fmt(0.0) == "0"


def test_setting_choices_are_labels_that_parse_back():
    choices = setting_choices()
    labels = [s.label for s in choices.values()]
    assert labels[:3] == [
        "Shannon",
        "off-centered Shannon, θ = prior",
        "off-centered Shannon, θ = uniform",
    ]
    assert "Asymmetric, θ = prior, consistent" in labels
    assert "Shannon, balanced classes" in labels
    assert len(set(labels)) == len(labels)
    for cid, s in choices.items():
        assert MeasureSetting.parse(cid) == s
    assert choices["shannon"].theta is None  # the default is plain Shannon, not off-centered


def test_imbalance_is_suggested_never_switched_on():
    assert not is_imbalanced([9, 7]) and is_imbalanced([500, 268]) and not is_imbalanced([50] * 3)
    text, suggested = imbalance_note(MeasureSetting("shannon"), [500, 268])
    assert suggested == MeasureSetting("shannon", theta="prior")
    assert "off-centered Shannon, θ = prior (0.65, 0.35)" in text
    assert "34.9%" in text and "not switched on" in text
    assert imbalance_note(MeasureSetting("shannon"), [9, 7]) is None
    assert imbalance_note(MeasureSetting("shannon", theta="prior"), [500, 268]) is None
    assert imbalance_note(MeasureSetting("asymmetric"), [500, 268]) is None
    assert imbalance_note(MeasureSetting("shannon", class_weight="balanced"), [500, 268]) is None
    _, d = imbalance_note(MeasureSetting("daroczy", beta=0.5), [500, 268])
    assert d.beta == 0.5 and d.theta == "prior"


def test_own_best_table_lists_every_setting_with_both_pima_thresholds(pima_oc):
    o = with_prior_labels(pima_oc.own_optima(0), pima_oc.prior_)
    t = own_best_table(o)
    assert list(t.columns) == ["setting", "gain", "best split"]  # which setting, first
    assert len(t) == 9
    by = dict(zip(t["setting"], t["best split"]))
    assert by["off-centered Shannon, θ = prior (0.65, 0.35)"] == "glucose <= 111.5"
    assert by["Shannon"] == "glucose <= 127.5"
    # the gain is the exact own optimum (not rounded)
    sh = o[(o["setting_key"] == "shannon") & o["is_best"]]
    assert t.loc[t["setting"] == "Shannon", "gain"].iloc[0] == sh["gain"].iloc[0]
    a = agreement(o)
    assert (
        not a.agree
        and "off-centered Shannon, θ = prior (0.65, 0.35) picks glucose <= 111.5" in a.text
    )


def test_misclassification_all_tied_is_no_winner_in_every_table():
    clf = offcenter.TreeClassifier(measure="shannon").fit(TIED_X, TIED_Y)
    o = own_optima(clf, 0, settings=[MeasureSetting("misclassification")])
    best = own_best_table(o)
    row = best[best["setting"] == "Misclassification"].iloc[0]
    assert row["best split"] == NO_WINNER and row["gain"] == 0
    per = own_feature_table(o, ["misclassification"])
    assert list(per["rank"]) == [NO_WINNER, NO_WINNER]  # not rank 1 for all
    assert not per["best"].any()
    per_sh = own_feature_table(o, ["shannon"])
    assert per_sh["rank"].iloc[0] == "1" and per_sh["best"].iloc[0]
    assert list(per_sh.columns) == ["rank", "gain", "best", "split", "feature", "setting"]
    cands = clf.candidates(0, settings=[MeasureSetting("misclassification")])
    chosen = chosen_split_table(cands, o, clf.tree_.nodes[0].split.feature)
    assert chosen.set_index("setting").loc["Misclassification", "rank"] == NO_WINNER


def test_tied_features_share_the_rank():
    y = np.array([0] * 6 + [1] * 6)
    X = pd.DataFrame(
        {
            "a": np.arange(12.0),
            "b": np.r_[0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1.0],
            "c": np.arange(12.0)[::-1],
        }
    )
    clf = offcenter.TreeClassifier(measure="gini").fit(X, y)
    per = own_feature_table(own_optima(clf, 0, settings=[]), ["gini"])
    assert list(per["feature"]) == ["a", "c", "b"]
    assert list(per["rank"]) == ["1 (tie)", "1 (tie)", "3"]
    assert list(per["best"]) == [True, False, False]


def test_chosen_split_scored_under_every_setting(pima_oc):
    clf = pima_oc
    o = clf.own_optima(0)
    cands = clf.candidates(0)
    t = chosen_split_table(cands, o, "glucose").set_index("setting")
    assert list(t.columns) == ["gain", "rank", "own best gain", "gap", "own best split"]
    own = t.loc["off-centered Shannon, θ = prior"]
    assert own["gap"] == 0 and own["rank"] == "1" and own["own best split"] == "glucose <= 111.5"
    sh = t.loc["Shannon"]
    # Shannon scores the tree's glucose <= 111.5 below its own glucose <= 127.5
    assert sh["own best split"] == "glucose <= 127.5"
    assert sh["gap"] > 0 and sh["own best gain"] == pytest.approx(sh["gain"] + sh["gap"])
    assert sh["gain"] == pytest.approx(
        float(cands.set_index("feature").loc["glucose", "gain:shannon"])
    )
    with pytest.raises(ValueError, match="not a candidate"):
        chosen_split_table(cands, o, "nope")


def test_candidate_display_numbers_first_and_exact(pima_oc):
    cands = pima_oc.candidates(0)
    table, _ = candidate_display(cands)
    cols = list(table.columns)
    assert cols[:2] == ["feature", "chosen"]
    assert cols[2].startswith("gain · ") and cols[-4:] == [
        "best under",
        "measures disagree",
        "split",
        "children counts",
    ]
    g = cands.set_index("feature")["gain:shannon"]
    assert table.set_index("feature")["gain · Shannon"]["glucose"] == g["glucose"]
    # the CSV keeps full precision
    assert repr(float(g["glucose"])) in frame_csv(table).decode()


def test_flat_curves_stay_flat_when_normalised():
    clf = offcenter.TreeClassifier(measure="shannon").fit(TIED_X, TIED_Y)
    gains = clf.threshold_gains(0, "x1", settings=[MeasureSetting("misclassification")])
    assert flat_curves(gains, ["shannon", "misclassification"]) == ["misclassification"]
    # round-off in a flat curve must not become a 0-to-1 curve
    gains["gain:misclassification"] = (
        gains["gain:misclassification"] + np.r_[1e-17, np.zeros(len(gains) - 1)]
    )
    labels = dict(gains.attrs["settings"])
    fig = threshold_figure(
        gains, labels, "x1", keys=["shannon", "misclassification"], normalise=True
    )
    assert max(fig.data[0].y) == pytest.approx(1.0)
    assert np.all(np.asarray(fig.data[1].y) == 0)
    raw = threshold_figure(gains, labels, "x1", keys=["shannon"])
    assert np.allclose(raw.data[0].y, gains["gain:shannon"])
    assert raw.layout.yaxis.title.text == "gain"


def test_training_report_and_the_no_minority_note():
    X, y = _xy("german_credit")
    clf = offcenter.TreeClassifier(measure="shannon", max_depth=1).fit(X, y)
    rep = training_report(clf, X, y)
    assert rep.minority == 1 and rep.leaves_predicting_minority == 0
    assert rep.minority_recall == 0.0
    assert "No leaf predicts the minority class" in rep.note
    cm = confusion_matrix(y, clf.predict(X), labels=clf.classes_)
    assert (rep.matrix.to_numpy() == cm).all()
    assert list(rep.matrix.index) == ["true: 0", "true: 1"]
    assert rep.accuracy == pytest.approx(np.trace(cm) / cm.sum())
    prior_rule = offcenter.TreeClassifier(measure="shannon", max_depth=1, leaf_rule="prior").fit(
        X, y
    )
    rep2 = training_report(prior_rule, X, y)
    assert rep2.leaves_predicting_minority >= 1 and rep2.note is None
    assert rep2.minority_recall > 0.5


def test_titles_carry_the_exact_label(pima_oc):
    assert tree_title(pima_oc.setting_, pima_oc.prior_, leaf_rule="prior") == (
        "Tree grown with off-centered Shannon, θ = prior (0.65, 0.35); score: gain; "
        "leaf rule: prior-aware"
    )
    assert node_measure_label(pima_oc, 0) == "off-centered Shannon, θ = prior (0.65, 0.35)"
    o = with_prior_labels(pima_oc.own_optima(0), pima_oc.prior_)
    assert o.attrs["settings"][0] == ("oc_shannon", "off-centered Shannon, θ = prior (0.65, 0.35)")
    assert set(o["setting_label"]) == {label for _, label in o.attrs["settings"]}


def test_edible_opens_on_plain_shannon_with_the_slides_gain():
    X, y = _xy("edible")
    setting = setting_choices()["shannon"]
    clf = offcenter.TreeClassifier(**setting.tree_params()).fit(X, y)
    steps = node_split_steps(clf, 0)
    assert node_measure_label(clf, 0) == "Shannon"
    md = steps_markdown(steps)
    assert "0.105843" in md and "Shannon of the parent node" in md
    assert "0.988699" in md


@pytest.mark.parametrize(
    "params",
    [{}, {"leaf_rule": "prior", "theta": "prior"}, {"leaf_estimate": "laplace"}],
)
def test_predictions_table_is_what_apply_predict_proba_and_predict_give(params):
    from offcenter.data.datasets import DATASETS, load
    from offcenter.tree import TreeClassifier
    from offcenter.viz.comparison import predictions_table

    df = load("german_credit")
    target = DATASETS["german_credit"].target
    X, y = df.drop(columns=[target]), df[target]
    X.iloc[::7, 1] = np.nan  # missing values are routed too
    clf = TreeClassifier(max_depth=5, **params).fit(X, y)
    table = predictions_table(clf, X)
    assert table["leaf"].tolist() == clf.apply(X).tolist()
    proba = clf.predict_proba(X)
    for j, c in enumerate(clf.classes_):
        assert np.array_equal(table[f"P({c})"].to_numpy(), proba[:, j])
    assert table["predicted"].tolist() == clf.predict(X).tolist()
    # the true class beside each prediction, when given
    with_y = predictions_table(clf, X, y=y)
    assert with_y["true class"].tolist() == y.tolist()
    assert list(with_y.columns[:3]) == ["row", "true class", "leaf"]
