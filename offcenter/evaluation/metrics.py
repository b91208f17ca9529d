r"""Classification metrics for imbalanced classes, computed by scikit-learn.

Everything the evaluation reports is computed here, from the true labels, the predicted labels
and the class scores (``predict_proba``). The labels are first coded 0..q-1 in a fixed class order
(so that any hashable labels work, mixed types included), then :mod:`sklearn.metrics` computes the
numbers; this module fixes the conventions below and gives clear errors.

Conventions
-----------
- Labels can be any hashable values (numbers, strings, booleans). ``labels`` fixes the class order;
  by default it is the sorted union of the true and predicted labels.
- The confusion matrix ``C[i, j]`` counts examples of true class ``labels[i]`` predicted as
  ``labels[j]`` (rows: truth, columns: prediction), as in scikit-learn.
- **Zero division.** A precision with no predicted positive, a recall with no true positive
  example, and an F1 whose precision and recall are both 0, are **0** (scikit-learn's
  ``zero_division=0``). Balanced accuracy averages the recalls of the classes *present in the
  truth* only (as scikit-learn does), so an absent class neither helps nor hurts.
- **Minority class**: the least frequent class of a reference set (the whole data set in the
  evaluation, so that it is the same class in every fold); ties go to the first label in order.
- **ROC curve and AUC** from scores, with ties handled as scikit-learn does: one point per
  *distinct* threshold (examples with equal scores enter together), starting at (0, 0) with the
  threshold +inf, and the area by the trapezoid rule over those points; tied scores thus count
  one half, as in the Mann-Whitney statistic. The AUC is undefined (NaN) when the truth holds a
  single class.
- **Multi-class AUC**: the one-vs-rest AUC of each class present in the truth (its score against
  all the others), macro-averaged, as scikit-learn's ``roc_auc_score(multi_class="ovr",
  average="macro")``. For two classes this is the ordinary AUC (both one-vs-rest AUCs are equal
  when the scores sum to 1). Because the question here is the minority class, the evaluation also
  reports the minority-vs-rest AUC (:func:`roc_auc_ovr` with the minority class), which for two
  classes is the same number.

References
----------
T. Fawcett, An introduction to ROC analysis, Pattern Recognition Letters 27 (2006) 861-874.
K. H. Brodersen et al., The balanced accuracy and its posterior distribution, ICPR 2010.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np
from sklearn import metrics as skm
from sklearn.exceptions import UndefinedMetricWarning

__all__ = [
    "accuracy",
    "average_precision",
    "balanced_accuracy",
    "classification_metrics",
    "confusion_matrix",
    "g_mean",
    "metrics_table",
    "minority_class",
    "positive_vs_rest",
    "precision_recall_f1",
    "roc_auc",
    "roc_auc_ovr",
    "roc_curve",
    "training_metrics",
    "training_report",
]


def _labels_array(values) -> np.ndarray:
    arr = np.asarray(values, dtype=object) if not isinstance(values, np.ndarray) else values
    if arr.ndim != 1:
        arr = np.asarray(list(values), dtype=object)
    if arr.ndim != 1:
        raise ValueError(f"labels must be a 1-D sequence; got shape {arr.shape}.")
    return arr


def _sorted_labels(*arrays) -> list:
    seen = set()
    out = []
    for arr in arrays:
        for v in arr.tolist():
            if v not in seen:
                seen.add(v)
                out.append(v)
    try:
        return sorted(out)
    except TypeError:
        return sorted(out, key=lambda v: (type(v).__name__, str(v)))


def _pair(y_true, y_pred):
    t = _labels_array(y_true)
    p = _labels_array(y_pred)
    if t.shape != p.shape:
        raise ValueError(
            f"y_true and y_pred must have the same length; got {t.shape[0]} and {p.shape[0]}."
        )
    if t.shape[0] == 0:
        raise ValueError("the metrics need at least one example.")
    return t, p


def _codes(values: np.ndarray, labels: Sequence) -> np.ndarray:
    index = {v: i for i, v in enumerate(labels)}
    try:
        return np.fromiter((index[v] for v in values.tolist()), dtype=np.intp, count=len(values))
    except KeyError as err:
        raise ValueError(
            f"label {err.args[0]!r} is not among the labels {list(labels)!r}."
        ) from None


def _coded(t: np.ndarray, p: np.ndarray, labels) -> tuple[list, np.ndarray, np.ndarray]:
    labels = _sorted_labels(t, p) if labels is None else list(labels)
    return labels, _codes(t, labels), _codes(p, labels)


def confusion_matrix(y_true, y_pred, labels=None) -> np.ndarray:
    """Confusion matrix ``C[i, j]``: examples of true class i predicted as class j.

    :func:`sklearn.metrics.confusion_matrix` on the coded labels.

    Parameters
    ----------
    y_true, y_pred : sequence
        True and predicted labels, same length.
    labels : sequence, optional
        Class order; default the sorted union of both.

    Examples
    --------
    >>> confusion_matrix([0, 0, 1, 1, 1], [0, 1, 1, 1, 0]).tolist()
    [[1, 1], [1, 2]]
    """
    t, p = _pair(y_true, y_pred)
    labels, ti, pi = _coded(t, p, labels)
    return skm.confusion_matrix(ti, pi, labels=np.arange(len(labels)))


def accuracy(y_true, y_pred) -> float:
    """Share of correct predictions (:func:`sklearn.metrics.accuracy_score`).

    Examples
    --------
    >>> accuracy([0, 0, 1, 1], [0, 1, 1, 1])
    0.75
    """
    t, p = _pair(y_true, y_pred)
    _, ti, pi = _coded(t, p, None)
    return float(skm.accuracy_score(ti, pi))


def balanced_accuracy(y_true, y_pred, labels=None) -> float:
    r"""Mean of the per-class recalls over the classes present in the truth.

    .. math:: \mathrm{BA} = \frac{1}{|K|} \sum_{k \in K} \frac{C_{kk}}{\sum_j C_{kj}}

    with K the classes that occur in ``y_true`` (:func:`sklearn.metrics.balanced_accuracy_score`).
    A classifier that always predicts the majority class scores 1/|K| whatever the imbalance, where
    its accuracy is the majority share.

    Examples
    --------
    >>> balanced_accuracy([0, 0, 0, 1], [0, 0, 0, 0])
    0.5
    >>> balanced_accuracy([0, 0, 1, 1], [0, 1, 1, 1])
    0.75
    """
    t, p = _pair(y_true, y_pred)
    _, ti, pi = _coded(t, p, labels)
    with warnings.catch_warnings():  # "y_pred contains classes not in y_true": ignored by design
        warnings.simplefilter("ignore", UserWarning)
        return float(skm.balanced_accuracy_score(ti, pi))


def precision_recall_f1(y_true, y_pred, positive, labels=None) -> tuple[float, float, float]:
    r"""Precision, recall and F1 of one class (``positive``) against the others.

    .. math::
        P = \frac{TP}{TP + FP},\quad R = \frac{TP}{TP + FN},\quad F_1 = \frac{2PR}{P + R}

    each set to 0 when its denominator is 0 (no predicted positive, no true positive example,
    P = R = 0): :func:`sklearn.metrics.precision_recall_fscore_support` with ``zero_division=0``.

    Examples
    --------
    >>> precision_recall_f1([0, 0, 1, 1, 1], [0, 1, 1, 1, 0], positive=1)
    (0.6666666666666666, 0.6666666666666666, 0.6666666666666666)
    >>> precision_recall_f1([0, 0, 1], [0, 0, 0], positive=1)
    (0.0, 0.0, 0.0)
    """
    t, p = _pair(y_true, y_pred)
    if labels is not None and positive not in list(labels):
        raise ValueError(f"the positive class {positive!r} is not among the labels.")
    is_t = t == positive
    is_p = p == positive
    prec, rec, f1, _ = skm.precision_recall_fscore_support(
        is_t, is_p, labels=[True], average=None, zero_division=0
    )
    return float(prec[0]), float(rec[0]), float(f1[0])


def positive_vs_rest(y_true, y_pred, positive) -> dict:
    r"""The scores of one class (``positive``) against the others, from one confusion count.

    ``precision``, ``recall`` and ``f1`` of ``positive`` (as :func:`precision_recall_f1`),
    ``specificity`` (the recall of the other classes taken together), and

    .. math::
        \mathrm{BA} = \frac{R_+ + R_-}{2},\qquad G = \sqrt{R_+ R_-}

    the balanced accuracy of the positive-vs-rest labels and the G-mean (Kubat and Matwin
    1997), both NaN when the truth has no positive or no negative example (a recall is
    undefined). One :func:`sklearn.metrics.precision_recall_fscore_support` call on the
    positive-vs-rest labels (``zero_division=0``) gives them all: the per-fold metrics of a
    study ask for all of them at once, and scikit-learn validates its inputs in every call.

    Examples
    --------
    >>> m = positive_vs_rest([0, 0, 0, 0, 1, 1], [0, 0, 0, 1, 1, 0], positive=1)
    >>> m["recall"], m["specificity"], m["balanced_accuracy"], round(m["g_mean"], 4)
    (0.5, 0.75, 0.625, 0.6124)
    """
    t, p = _pair(y_true, y_pred)
    is_t, is_p = t == positive, p == positive
    precision, recall, f1, _ = skm.precision_recall_fscore_support(
        is_t, is_p, labels=[True, False], average=None, zero_division=0
    )
    both = bool(is_t.any() and not is_t.all())
    return {
        "precision": float(precision[0]),
        "recall": float(recall[0]),
        "f1": float(f1[0]),
        "specificity": float(recall[1]),
        "balanced_accuracy": float(np.mean(recall)) if both else float("nan"),
        "g_mean": float(np.sqrt(recall[0] * recall[1])) if both else float("nan"),
    }


def g_mean(y_true, y_pred, positive) -> float:
    r"""Geometric mean of the recalls of ``positive`` and of the other classes taken together.

    .. math:: G = \sqrt{\frac{TP}{TP + FN} \cdot \frac{TN}{TN + FP}}

    (Kubat and Matwin 1997), the recalls from :func:`sklearn.metrics.precision_recall_fscore_support`
    on the positive-vs-rest labels (:func:`positive_vs_rest`). NaN when the truth has no
    positive or no negative example (one of the recalls is undefined).

    Examples
    --------
    >>> round(g_mean([0, 0, 0, 0, 1, 1], [0, 0, 0, 1, 1, 0], positive=1), 4)  # sqrt(0.5 * 0.75)
    0.6124
    >>> import math; math.isnan(g_mean([0, 0], [0, 1], positive=1))
    True
    """
    return positive_vs_rest(y_true, y_pred, positive)["g_mean"]


def average_precision(y_true, scores, positive=1) -> float:
    r"""Average precision of the scores for the class ``positive``; NaN with no positive example.

    :func:`sklearn.metrics.average_precision_score`: :math:`\sum_n (R_n - R_{n-1}) P_n` over the
    distinct thresholds (the step-wise area under the precision-recall curve, no interpolation).
    Its chance level is the positive share, so on rare classes it is more telling than the AUC
    (Saito and Rehmsmeier 2015).

    Examples
    --------
    >>> average_precision([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.8333333333333333
    """
    is_pos, s = _scored(y_true, scores, positive)
    if not is_pos.any():
        return float("nan")
    return float(skm.average_precision_score(is_pos, s))


def minority_class(y, labels=None, present_only: bool = False):
    """The least frequent class of ``y`` (ties: the first in label order): the one rule.

    With ``labels``, they fix the order; a label absent from ``y`` has frequency 0 and is the
    minority class, unless ``present_only`` (then only the classes present in ``y`` compete: the
    rule of a tree's training report, whose ``classes_`` may hold a class absent from the rows
    shown).

    Examples
    --------
    >>> minority_class(["a", "b", "b", "a", "c", "b"])
    'c'
    >>> minority_class([1, 1, 0, 0])
    0
    >>> minority_class(["a", "b", "b"], labels=["b", "a", "z"]), minority_class(
    ...     ["a", "b", "b"], labels=["b", "a", "z"], present_only=True)
    ('z', 'a')
    """
    arr = _labels_array(y)
    if arr.shape[0] == 0 and (labels is None or present_only):
        raise ValueError("the minority class of an empty set of labels is undefined.")
    labels = _sorted_labels(arr) if labels is None else list(labels)
    unknown = set(arr.tolist()) - set(labels)
    if unknown:
        raise ValueError(f"y holds labels outside labels: {sorted(map(str, unknown))}.")
    counts = np.bincount(_codes(arr, labels), minlength=len(labels)).astype(float)
    if present_only:
        counts[counts == 0] = np.inf
    return labels[int(np.argmin(counts))]


def training_report(y_true, y_pred, classes, minority=None) -> dict:
    """What a tree predicts on its training rows: the one training report.

    Parameters
    ----------
    y_true, y_pred : sequences of labels
    classes : sequence
        The model's classes (their order fixes the confusion matrix's).
    minority : label, optional
        The class whose recall is reported; by default :func:`minority_class` of ``y_true``
        among ``classes``, present classes only.

    Returns
    -------
    dict
        ``accuracy``, ``balanced_accuracy`` (mean recall over the classes present),
        ``minority``, ``minority_recall`` (0 when no row of it is predicted as it),
        ``minority_precision`` and ``minority_f1`` (0 when none is predicted as it) and
        ``matrix`` (the confusion matrix in ``classes`` order, rows the truth), all from
        :mod:`sklearn.metrics`.

    Examples
    --------
    >>> r = training_report(["a", "a", "a", "b"], ["a", "a", "b", "a"], ["a", "b"])
    >>> r["minority"], r["minority_recall"], r["accuracy"], r["matrix"].tolist()
    ('b', 0.0, 0.5, [[2, 1], [1, 0]])
    """
    t, p = _pair(y_true, y_pred)
    classes = list(classes)
    unknown = (set(t.tolist()) | set(p.tolist())) - set(classes)
    if unknown:
        raise ValueError(f"labels outside the model's classes: {sorted(map(str, unknown))}.")
    if minority is None:
        minority = minority_class(t, classes, present_only=True)
    elif minority not in classes:
        raise ValueError(f"minority must be one of the classes {classes}; got {minority!r}.")
    tc, pc = _codes(t, classes), _codes(p, classes)
    m = classes.index(minority)
    # the minority's three scores in one call (sklearn validates its parameters per call)
    precision, recall, f1, _ = skm.precision_recall_fscore_support(
        tc, pc, labels=[m], zero_division=0
    )
    return {
        "accuracy": float(skm.accuracy_score(tc, pc)),
        "balanced_accuracy": balanced_accuracy(t, p, classes),
        "minority": minority,
        "minority_recall": float(recall[0]),
        "minority_precision": float(precision[0]),
        "minority_f1": float(f1[0]),
        "matrix": skm.confusion_matrix(tc, pc, labels=list(range(len(classes)))),
    }


def _scored(y_true, scores, positive) -> tuple[np.ndarray, np.ndarray]:
    t = _labels_array(y_true)
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim != 1 or s.shape[0] != t.shape[0]:
        raise ValueError("scores must be a 1-D array with one score per example.")
    if t.shape[0] == 0:
        raise ValueError("a ROC curve needs at least one example.")
    if not np.all(np.isfinite(s)):
        raise ValueError("scores must be finite numbers.")
    return t == positive, s


def roc_curve(y_true, scores, positive=1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ROC curve points from scores: false positive rates, true positive rates, thresholds.

    An example is predicted positive when its score is >= the threshold. There is one point per
    distinct score (tied examples enter together), preceded by (0, 0) at threshold +inf: this is
    :func:`sklearn.metrics.roc_curve` with ``drop_intermediate=False``. The rates are NaN when the
    truth has no negative (fpr) or no positive (tpr) example.

    Examples
    --------
    >>> fpr, tpr, thr = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    """
    is_pos, s = _scored(y_true, scores, positive)
    with warnings.catch_warnings():  # no positive / no negative example: NaN rates, documented
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        fpr, tpr, thresholds = skm.roc_curve(is_pos, s, pos_label=True, drop_intermediate=False)
    return fpr.astype(np.float64), tpr.astype(np.float64), thresholds.astype(np.float64)


def roc_auc_ovr(y_true, scores, positive=1) -> float:
    """Area under the ROC curve of one class against the rest; NaN if undefined.

    :func:`sklearn.metrics.roc_auc_score` (trapezoid rule). Equals the probability that a random
    positive example scores higher than a random negative one, ties counting one half (the
    Mann-Whitney U statistic divided by n_pos n_neg). NaN when the truth holds a single class.

    Examples
    --------
    >>> roc_auc_ovr([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    >>> roc_auc_ovr([0, 1], [0.5, 0.5])
    0.5
    >>> import math; math.isnan(roc_auc_ovr([1, 1], [0.2, 0.3]))
    True
    """
    is_pos, s = _scored(y_true, scores, positive)
    if is_pos.all() or not is_pos.any():
        return float("nan")
    return float(skm.roc_auc_score(is_pos, s))


def roc_auc(y_true, proba, classes) -> float:
    """AUC from class scores ``proba`` (n, q) whose columns follow ``classes``.

    Two classes: the AUC of the second class's score (the same as the first's when rows sum to
    1). More classes: the macro average of the one-vs-rest AUCs of the classes present in the truth
    (NaN if fewer than two are present); when every class is present, this is
    ``roc_auc_score(y, proba, multi_class="ovr", average="macro")``.

    Examples
    --------
    >>> roc_auc([0, 0, 1, 1], [[0.9, 0.1], [0.6, 0.4], [0.65, 0.35], [0.2, 0.8]], [0, 1])
    0.75
    """
    t = _labels_array(y_true)
    pr = np.asarray(proba, dtype=np.float64)
    classes = list(classes)
    if pr.ndim != 2 or pr.shape != (t.shape[0], len(classes)):
        raise ValueError(
            f"proba must have shape (n_examples, n_classes) = ({t.shape[0]}, {len(classes)}); "
            f"got {pr.shape}."
        )
    if len(classes) == 2:
        return roc_auc_ovr(t, pr[:, 1], positive=classes[1])
    present = [j for j, c in enumerate(classes) if np.any(t == c)]
    if len(present) < 2:
        return float("nan")
    return float(np.mean([roc_auc_ovr(t, pr[:, j], positive=classes[j]) for j in present]))


def classification_metrics(y_true, y_pred, proba=None, classes=None, minority=None) -> dict:
    """All the metrics the evaluation reports, as a dict of floats.

    Keys: ``accuracy``, ``balanced_accuracy``, ``minority_recall``, ``minority_precision``,
    ``minority_f1``, ``auc`` (macro one-vs-rest, see :func:`roc_auc`) and ``minority_auc``
    (minority vs rest), the last two NaN without ``proba``.

    Examples
    --------
    >>> m = classification_metrics([0, 0, 0, 1], [0, 0, 1, 1], minority=1)
    >>> m["accuracy"], m["balanced_accuracy"], m["minority_recall"], m["minority_precision"]
    (0.75, 0.8333333333333333, 1.0, 0.5)
    """
    t, p = _pair(y_true, y_pred)
    if classes is None:
        classes = _sorted_labels(t, p)
    if minority is None:
        minority = minority_class(t, classes)
    prec, rec, f1 = precision_recall_f1(t, p, positive=minority)
    out = {
        "accuracy": accuracy(t, p),
        "balanced_accuracy": balanced_accuracy(t, p, labels=_sorted_labels(t, p)),
        "minority_recall": rec,
        "minority_precision": prec,
        "minority_f1": f1,
        "auc": float("nan"),
        "minority_auc": float("nan"),
    }
    if proba is not None:
        pr = np.asarray(proba, dtype=np.float64)
        out["auc"] = roc_auc(t, pr, classes)
        j = list(classes).index(minority)
        out["minority_auc"] = roc_auc_ovr(t, pr[:, j], positive=minority)
    return out


def training_metrics(clf, X, y, minority=None) -> dict:
    """A tree's scores on its training data (:func:`training_report`), and its size.

    Parameters
    ----------
    clf : TreeClassifier
        A fitted tree.
    X, y : the rows it was grown on (or any labelled rows).
    minority : class label, optional
        The class whose recall is reported; by default :func:`minority_class` of ``y`` among
        the tree's classes (present classes only).

    Returns
    -------
    dict
        ``accuracy``, ``balanced accuracy``, ``minority class``, ``minority recall``,
        ``leaves``, ``depth``, ``nodes``.
    """
    y_true = np.asarray(y, dtype=object)
    if y_true.ndim != 1 or len(y_true) == 0:
        raise ValueError(f"y must be a non-empty 1-d sequence of labels; got shape {y_true.shape}.")
    y_pred = np.asarray(clf.predict(X), dtype=object)
    if len(y_pred) != len(y_true):
        raise ValueError(f"X has {len(y_pred)} rows but y has {len(y_true)} labels.")
    classes = list(clf.classes_)
    missing = [v for v in set(y_true.tolist()) if v not in set(classes)]
    if missing:
        raise ValueError(f"y holds labels the tree does not know: {sorted(map(str, missing))}.")
    if minority is not None and minority not in classes:
        raise ValueError(f"minority must be one of the tree's classes {classes}; got {minority!r}.")
    r = training_report(y_true, y_pred, classes, minority)
    tree = clf.tree_
    return {
        "accuracy": r["accuracy"],
        "balanced accuracy": r["balanced_accuracy"],
        "minority class": r["minority"],
        "minority recall": r["minority_recall"],
        "leaves": int(tree.n_leaves),
        "depth": int(tree.depth),
        "nodes": len(tree.nodes),
    }


def metrics_table(trees: Sequence, X, y, names: Sequence[str]) -> list[dict]:
    """:func:`training_metrics` of several trees, one dict per tree with its ``name``, the
    minority class fixed by ``y`` for all of them."""
    if len(trees) != len(names):
        raise ValueError(f"{len(trees)} trees but {len(names)} names.")
    rows = []
    first = None
    for clf, name in zip(trees, names):
        row = training_metrics(clf, X, y, minority=first)
        first = row["minority class"]
        rows.append({"tree": name, **row})
    return rows
