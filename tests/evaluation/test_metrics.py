"""Metrics against hand-computed confusion tables and against scikit-learn called directly."""

import math

import numpy as np
import pytest
import sklearn.metrics as sk

from offcenter.evaluation import metrics as m

# A 2-class table, minority = 1: TP = 3, FN = 2, FP = 1, TN = 14 (20 examples).
Y_TRUE = [0] * 15 + [1] * 5
Y_PRED = [0] * 14 + [1] + [1] * 3 + [0] * 2


def test_confusion_matrix_hand():
    assert m.confusion_matrix(Y_TRUE, Y_PRED).tolist() == [[14, 1], [2, 3]]
    # explicit label order, and labels absent from the data
    assert m.confusion_matrix(Y_TRUE, Y_PRED, labels=[1, 0, 2]).tolist() == [
        [3, 2, 0],
        [1, 14, 0],
        [0, 0, 0],
    ]


def test_binary_metrics_hand():
    assert m.accuracy(Y_TRUE, Y_PRED) == pytest.approx(17 / 20)
    assert m.balanced_accuracy(Y_TRUE, Y_PRED) == pytest.approx((14 / 15 + 3 / 5) / 2)
    p, r, f = m.precision_recall_f1(Y_TRUE, Y_PRED, positive=1)
    assert (p, r) == pytest.approx((3 / 4, 3 / 5))
    assert f == pytest.approx(2 * 0.75 * 0.6 / 1.35)
    res = m.classification_metrics(Y_TRUE, Y_PRED)
    assert res["minority_recall"] == pytest.approx(0.6)
    assert math.isnan(res["auc"])


def test_three_class_hand():
    # rows truth a, b, c; columns prediction
    # a: 4 a, 1 b ; b: 2 b, 1 c ; c: 1 a, 1 c
    t = ["a"] * 5 + ["b"] * 3 + ["c"] * 2
    p = ["a"] * 4 + ["b"] + ["b"] * 2 + ["c"] + ["a", "c"]
    assert m.confusion_matrix(t, p).tolist() == [[4, 1, 0], [0, 2, 1], [1, 0, 1]]
    assert m.balanced_accuracy(t, p) == pytest.approx((4 / 5 + 2 / 3 + 1 / 2) / 3)
    assert m.minority_class(t) == "c"
    assert m.precision_recall_f1(t, p, "c") == pytest.approx((0.5, 0.5, 0.5))


def test_zero_division_conventions():
    # no predicted positive: precision 0; no true positive example: recall 0; F1 0
    assert m.precision_recall_f1([0, 1], [0, 0], 1) == (0.0, 0.0, 0.0)
    assert m.precision_recall_f1([0, 0], [0, 1], 1) == (0.0, 0.0, 0.0)
    # balanced accuracy ignores a class absent from the truth
    assert m.balanced_accuracy([0, 0, 0], [0, 1, 0]) == pytest.approx(2 / 3)


def test_roc_hand_with_ties():
    # scores with a tie between a positive and a negative: that pair counts 1/2
    t = [1, 0, 1, 0]
    s = [0.9, 0.5, 0.5, 0.1]
    fpr, tpr, thr = m.roc_curve(t, s)
    assert fpr.tolist() == [0.0, 0.0, 0.5, 1.0]
    assert tpr.tolist() == [0.0, 0.5, 1.0, 1.0]
    assert thr[0] == np.inf and thr[1:].tolist() == [0.9, 0.5, 0.1]
    # pairs (pos, neg): (0.9, 0.5) 1, (0.9, 0.1) 1, (0.5, 0.5) 1/2, (0.5, 0.1) 1 -> 3.5 / 4
    assert m.roc_auc_ovr(t, s) == pytest.approx(0.875)


def test_auc_undefined_single_class():
    assert math.isnan(m.roc_auc_ovr([1, 1, 1], [0.1, 0.2, 0.3]))
    assert math.isnan(m.roc_auc(["a", "a"], [[0.1, 0.5, 0.4], [0.3, 0.3, 0.4]], ["a", "b", "c"]))


def test_bad_inputs():
    with pytest.raises(ValueError, match="same length"):
        m.accuracy([0, 1], [0])
    with pytest.raises(ValueError, match="at least one"):
        m.accuracy([], [])
    with pytest.raises(ValueError, match="not among"):
        m.confusion_matrix([0, 1], [0, 2], labels=[0, 1])
    with pytest.raises(ValueError, match="finite"):
        m.roc_curve([0, 1], [0.1, np.nan])
    with pytest.raises(ValueError, match="shape"):
        m.roc_auc([0, 1], [0.1, 0.2], [0, 1])


@pytest.mark.parametrize("seed", range(40))
def test_against_sklearn_random(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 60))
    q = int(rng.integers(2, 5))
    t = rng.integers(0, q, n)
    p = rng.integers(0, q, n)
    labels = list(range(q))
    assert np.array_equal(
        m.confusion_matrix(t, p, labels), sk.confusion_matrix(t, p, labels=labels)
    )
    assert m.accuracy(t, p) == pytest.approx(sk.accuracy_score(t, p))
    with np.errstate(all="ignore"):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert m.balanced_accuracy(t, p) == pytest.approx(sk.balanced_accuracy_score(t, p))
    for c in labels:
        pr, rc, f, _ = sk.precision_recall_fscore_support(t, p, labels=[c], zero_division=0)
        assert m.precision_recall_f1(t, p, c) == pytest.approx((pr[0], rc[0], f[0]))
    # scores rounded to force ties
    s = np.round(rng.random(n), 1)
    if 0 < np.sum(t == 1) < n:
        fa, ta, tha = sk.roc_curve(t == 1, s, drop_intermediate=False)
        fb, tb, thb = m.roc_curve(t, s, positive=1)
        np.testing.assert_allclose(fb, fa)
        np.testing.assert_allclose(tb, ta)
        np.testing.assert_allclose(thb, tha)
        assert m.roc_auc_ovr(t, s, 1) == pytest.approx(sk.roc_auc_score(t == 1, s))
    # multi-class one-vs-rest macro AUC
    proba = rng.dirichlet(np.ones(q), n).round(1)
    proba = proba / proba.sum(axis=1, keepdims=True)
    if len(set(t.tolist())) == q and q > 2:
        assert m.roc_auc(t, proba, labels) == pytest.approx(
            sk.roc_auc_score(t, proba, multi_class="ovr", average="macro", labels=labels)
        )
    if q == 2 and len(set(t.tolist())) == 2:
        assert m.roc_auc(t, proba, labels) == pytest.approx(sk.roc_auc_score(t, proba[:, 1]))


def test_string_labels_and_minority():
    t = np.array(["neg", "pos", "neg", "neg"])
    p = np.array(["neg", "pos", "pos", "neg"])
    res = m.classification_metrics(
        t, p, proba=[[0.9, 0.1], [0.2, 0.8], [0.4, 0.6], [0.7, 0.3]], classes=["neg", "pos"]
    )
    assert res["minority_recall"] == 1.0
    assert res["minority_precision"] == 0.5
    assert res["auc"] == 1.0 and res["minority_auc"] == 1.0


# ---------------------------------------------------------------- one home: minority, report
def test_training_report_agrees_with_the_tree_pages_reports():
    """metrics.training_report is the one home of the training report: the two-tree table
    (metrics.training_metrics) and the Tree page's report (viz.comparison.training_report)
    are built from it and say the same."""
    import numpy as np

    from offcenter import TreeClassifier
    from offcenter.evaluation.metrics import training_metrics, training_report
    from offcenter.viz.comparison import training_report as page_report

    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 3))
    y = np.where(X[:, 0] + rng.normal(size=120) > 1.2, "rare", "common")
    clf = TreeClassifier(max_depth=2).fit(X, y)
    mine = training_report(y, clf.predict(X), clf.classes_)
    a = training_metrics(clf, X, y)
    b = page_report(clf, X, y)
    assert mine["minority"] == a["minority class"] == b.minority == "rare"
    assert mine["minority_recall"] == a["minority recall"] == b.minority_recall
    assert mine["accuracy"] == a["accuracy"] == b.accuracy
    assert mine["balanced_accuracy"] == a["balanced accuracy"]
    assert (mine["matrix"] == b.matrix.to_numpy()).all()
    assert mine["minority_precision"] == b.minority_precision
    assert mine["minority_f1"] == b.minority_f1


def test_minority_class_present_only_and_unknown_labels():
    import pytest

    from offcenter.evaluation.metrics import minority_class

    assert minority_class(["x", "y", "y"], labels=["y", "x", "z"]) == "z"
    assert minority_class(["x", "y", "y"], labels=["y", "x", "z"], present_only=True) == "x"
    assert minority_class(["x", "y"], labels=["y", "x"], present_only=True) == "y"  # tie: order
    with pytest.raises(ValueError, match="outside labels"):
        minority_class(["q"], labels=["a"])
