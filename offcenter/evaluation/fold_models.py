"""What a benchmark does with a model inside one training fold: reusable, no study's choices.

- ``ccp_alpha`` chosen by an inner stratified cross-validation with rpart's 1-SE rule
  (:func:`cv_ccp_alpha`: the balanced error; :func:`cv_ccp_alpha_by`: 1 - ROC AUC or
  1 - G-mean under a leaf rule), for our trees and for scikit-learn's pipelines alike;
- a decision threshold tuned for G-mean on out-of-bag scores (:func:`tuned_threshold`);
- the labels of both leaf rules from one fitted model (:func:`leaf_rule_predictions`): a tree, a
  forest (each tree's label, majority vote) or any scikit-learn classifier;
- the ordinal encoder that lets scikit-learn's trees read nominal columns
  (:func:`ordinal_encoder`: missing and unseen categories become NaN, handled by the trees'
  native missing-value support).

Leaf rules
    ``"majority"`` predicts the class of largest leaf frequency, ``"prior"`` the class whose
    leaf frequency most exceeds its (weighted) training prior, exactly as
    :class:`~offcenter.TreeClassifier` does with ``leaf_rule`` (tested); a forest takes the
    majority vote of its trees' labels under that rule (ties as the forest breaks them).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.model_selection import StratifiedKFold
from sklearn.preprocessing import OrdinalEncoder

from offcenter.ensemble.forest import tree_input
from offcenter.evaluation import metrics as _metrics
from offcenter.tree.cp_cv import one_se_alpha
from offcenter.tree.params import LEAF_RULES
from offcenter.tree.prune import pruned_predictions

__all__ = [
    "INNER_FOLDS",
    "MAX_CANDIDATES",
    "candidate_alphas",
    "cv_ccp_alpha",
    "cv_ccp_alpha_by",
    "leaf_rule_predictions",
    "one_se_alpha_of_folds",
    "ordinal_encoder",
    "tuned_threshold",
]


def ordinal_encoder(X: pd.DataFrame):
    """Ordinal codes for the nominal columns (missing and unseen: NaN), numbers passed through.

    A :class:`~sklearn.compose.ColumnTransformer` whose
    :class:`~sklearn.preprocessing.OrdinalEncoder` codes the non-numeric columns of ``X``
    (categories in sorted order), for scikit-learn's trees, which read NaN natively.
    """
    nominal = [c for c in X.columns if not pd.api.types.is_numeric_dtype(X[c].dtype)]
    return ColumnTransformer(
        [
            (
                "nominal",
                OrdinalEncoder(
                    handle_unknown="use_encoded_value",
                    unknown_value=np.nan,
                    encoded_missing_value=np.nan,
                ),
                nominal,
            )
        ],
        remainder="passthrough",
    )


#: Folds of the inner cross-validation that chooses ccp_alpha.
INNER_FOLDS = 5


def _balanced_error(y_true, y_pred) -> float:
    """1 - balanced accuracy (the mean of the per-class error rates), the inner CV's loss."""
    y_true = np.asarray(y_true, dtype=object)
    y_pred = np.asarray(y_pred, dtype=object)
    errs = [np.mean(y_pred[y_true == c] != c) for c in sorted(set(y_true.tolist()))]
    return float(np.mean(errs))


def one_se_alpha_of_folds(alphas, errors) -> float:
    r"""rpart's 1-SE rule on per-fold losses: the largest alpha within one SE of the best.

    The rule itself is :func:`offcenter.tree.cp_cv.one_se_alpha`; here its table is made from
    the losses of the inner folds (``xerror`` their mean, ``xstd`` the standard error of the
    mean over folds).

    Parameters
    ----------
    alphas : array of shape (m,)
        Candidate ``ccp_alpha`` values, increasing (larger = smaller tree).
    errors : array of shape (k, m)
        The loss of each candidate on each of the k inner folds.

    Returns
    -------
    float
        The largest alpha whose mean loss is at most :math:`\min_j \bar e_j + SE_{j^*}`, with
        :math:`SE = s / \sqrt k` of the best candidate :math:`j^*` (Breiman et al. 1984, 3.4.3;
        rpart's ``xerror + xstd`` rule; the mean is over folds, not over rows).

    Examples
    --------
    >>> one_se_alpha_of_folds([0.0, 0.1, 0.2], [[0.30, 0.31, 0.40], [0.32, 0.33, 0.40]])
    0.1
    """
    errors = np.asarray(errors, dtype=float)
    k = errors.shape[0]
    mean = errors.mean(axis=0)
    se = errors.std(axis=0, ddof=1) / math.sqrt(k) if k > 1 else np.zeros_like(mean)
    table = pd.DataFrame({"alpha": np.asarray(alphas, dtype=float), "xerror": mean, "xstd": se})
    return one_se_alpha(table)


#: At most this many candidate alphas are cross-validated (evenly spaced along the path: the
#: cost of an inner CV is in pruning and predicting each candidate on each inner fold).
MAX_CANDIDATES = 16


def candidate_alphas(path_alphas) -> np.ndarray:
    """rpart's candidates: geometric means of consecutive alphas of the path (0 kept first),
    at most :data:`MAX_CANDIDATES` of them (evenly spaced by position, both ends kept)."""
    a = np.unique(np.asarray(path_alphas, dtype=float))
    a = a[a >= 0]
    if len(a) <= 1:
        return np.array([0.0])
    mids = np.sqrt(a[1:-1] * a[2:]) if len(a) > 2 else np.array([])
    cands = np.concatenate([[0.0], mids, [a[-1]]])
    if len(cands) > MAX_CANDIDATES:
        keep = np.unique(np.round(np.linspace(0, len(cands) - 1, MAX_CANDIDATES)).astype(int))
        cands = cands[keep]
    return cands


def cv_ccp_alpha(make, X_tr, y_tr, seed: int, n_splits: int = INNER_FOLDS, full=None) -> float:
    """``ccp_alpha`` chosen by an inner stratified CV on the training fold, with the 1-SE rule.

    ``make(ccp_alpha)`` returns an unfitted model (ours or scikit-learn's pipeline). The path of
    the tree grown on the whole training fold gives the candidates (:func:`candidate_alphas`);
    each inner fold grows a full tree and prunes it at every candidate; the loss is the
    balanced error (:func:`_balanced_error`) under the majority rule, the same loss for every
    measure, so that the choice does not depend on the measure's scale (the fixed
    ``cp x R(root)`` rule does: it prunes the consistent asymmetric entropy's trees to a third of
    Shannon's). With fewer than 2 rows of a class the full tree is kept (alpha 0). ``full``:
    our tree already grown on the training fold, whose pruning sequence gives the path without
    a refit.
    """
    y_tr = np.asarray(y_tr, dtype=object)
    cands = _inner_candidates(make, X_tr, y_tr, n_splits, full)
    if cands is None:
        return 0.0
    errors = []
    for Xa, ya, Xb, yb in _inner_folds(X_tr, y_tr, n_splits, seed):
        errors.append(
            [_balanced_error(yb, p) for p in _pruned_predictions(make, cands, Xa, ya, Xb)]
        )
    return one_se_alpha_of_folds(cands, errors)


def _inner_folds(X_tr, y_tr, n_splits: int, seed: int):
    """The inner stratified folds of a training fold, as (X_train, y_train, X_test, y_test):
    ``min(n_splits, rows of the smallest class)`` folds, shuffled with ``seed``."""
    k = int(min(n_splits, pd.Series(y_tr).value_counts().min()))
    inner = StratifiedKFold(n_splits=k, shuffle=True, random_state=seed)
    for tr, te in inner.split(np.zeros((len(y_tr), 1)), y_tr):
        yield X_tr.iloc[tr], y_tr[tr], X_tr.iloc[te], y_tr[te]


def _criterion_loss(metric: str, rule, y_true, proba, classes, prior) -> float:
    """1 - ``metric`` of the pruned tree's class scores ``proba`` on an inner test fold: ROC AUC
    of the scores (either class: the same for two classes), or G-mean of the labels of the leaf
    ``rule`` (:func:`_rule_labels` with the tree's ``prior``)."""
    classes = np.asarray(classes, dtype=object)
    y_true = np.asarray(y_true, dtype=object)
    if metric == "auc":
        value = _metrics.roc_auc_ovr(y_true == classes[-1], proba[:, -1], positive=True)
    else:
        labels = classes[_rule_labels(proba, np.asarray(prior, dtype=float))[rule]]
        value = _metrics.g_mean(y_true, labels, positive=classes[-1])
    return 1.0 - float(value) if np.isfinite(value) else 1.0


def cv_ccp_alpha_by(
    make, X_tr, y_tr, seed: int, metric: str, rule=None, n_splits: int = INNER_FOLDS, full=None
) -> float:
    """``ccp_alpha`` chosen by an inner stratified CV for ``metric`` under the leaf ``rule``.

    The candidates, inner folds and 1-SE rule of :func:`cv_ccp_alpha`; the loss is
    1 - ``metric`` (``"auc"``, or ``"gmean"`` under ``rule``) of each candidate's pruned tree on
    each inner test fold (:func:`_criterion_loss`), so that the choice follows the metric and
    rule a family reports (the KEEL study's sensitivity models,
    :data:`offcenter.studies.keel.protocol.PRUNE_BY`).
    """
    y_tr = np.asarray(y_tr, dtype=object)
    cands = _inner_candidates(make, X_tr, y_tr, n_splits, full)
    if cands is None:
        return 0.0
    errors = []
    for Xa, ya, Xb, yb in _inner_folds(X_tr, y_tr, n_splits, seed):
        classes, probas, prior = _pruned_probas(make, cands, Xa, ya, Xb)
        errors.append([_criterion_loss(metric, rule, yb, p, classes, prior) for p in probas])
    return one_se_alpha_of_folds(cands, errors)


def _inner_candidates(make, X_tr, y_tr, n_splits, full):
    """The candidate alphas of an inner CV, or None when there is nothing to choose (fewer than
    2 rows of a class, or a path of one alpha): the full tree is then kept."""
    counts = pd.Series(y_tr).value_counts()
    k = int(min(n_splits, counts.min())) if len(counts) > 1 else 0
    if k < 2:
        return None
    if full is not None:
        path = full.cp_table()["alpha"].to_numpy(dtype=float)
    else:
        path = _path(make(0.0), X_tr, y_tr)
    cands = candidate_alphas(path)
    return None if len(cands) == 1 else cands


def _pruned_probas(make, alphas, X_tr, y_tr, X_te):
    """(classes, class scores of each pruned tree on X_te, the prior of its prior-aware rule) of
    the tree grown on X_tr, pruned at each alpha (the anchor: uniform prior, balanced weights)."""
    full = make(0.0)
    if hasattr(full, "steps"):
        out = []
        for a in alphas:
            pipe = make(float(a)).fit(X_tr, y_tr)
            out.append(np.asarray(pipe.predict_proba(X_te), dtype=float))
        n = len(pipe.classes_)
        return pipe.classes_, out, np.full(n, 1.0 / n)
    full.fit(X_tr, y_tr)
    out = [
        np.asarray((full.prune(float(a)) if a > 0 else full).predict_proba(X_te), dtype=float)
        for a in alphas
    ]
    return full.classes_, out, np.asarray(full.prior_, dtype=float)


def _path(model, X, y) -> np.ndarray:
    if hasattr(model, "steps"):  # the anchor's pipeline
        Xt = model[:-1].fit_transform(X, y)
        return model[-1].cost_complexity_pruning_path(Xt, y).ccp_alphas
    return np.asarray(model.cost_complexity_pruning_path(X, y).ccp_alphas, dtype=float)


def _pruned_predictions(make, alphas, X_tr, y_tr, X_te):
    """Predictions (majority rule) of the tree grown on X_tr, pruned at each alpha."""
    full = make(0.0)
    if hasattr(full, "steps"):
        out = []
        for a in alphas:
            out.append(make(float(a)).fit(X_tr, y_tr).predict(X_te))
        return out
    full.fit(X_tr, y_tr)
    return pruned_predictions(full, X_te, [float(a) for a in alphas])


def tuned_threshold(y, score, positive) -> float:
    r"""The decision threshold on ``score`` (of ``positive``) of the largest G-mean on (y, score).

    The candidates are the midpoints between consecutive distinct scores (and the ends);
    a row is labelled ``positive`` when its score is at least the threshold. Of the candidates
    with the largest G-mean, the median one (a plateau's middle). Rows with a NaN score (a row
    in every bootstrap: no out-of-bag score) are left out.

    >>> tuned_threshold(["a", "b", "b", "a"], [0.1, 0.7, 0.4, 0.3], "b")
    0.35
    """
    y = np.asarray(y, dtype=object)
    score = np.asarray(score, dtype=float)
    ok = np.isfinite(score)
    y, score = y[ok], score[ok]
    u = np.unique(score)
    if len(u) < 2:
        return 0.5
    cands = np.concatenate([[u[0]], (u[1:] + u[:-1]) / 2, [u[-1] + 1e-12]])
    pos = y == positive
    g = []
    for t in cands:
        pred = score >= t
        tpr = np.mean(pred[pos]) if pos.any() else 0.0
        tnr = np.mean(~pred[~pos]) if (~pos).any() else 0.0
        g.append(math.sqrt(tpr * tnr))
    best = np.flatnonzero(np.asarray(g) == max(g))
    return float(cands[best[len(best) // 2]])


def _rule_labels(proba: np.ndarray, prior: np.ndarray) -> dict[str, np.ndarray]:
    """Column index predicted by each leaf rule from leaf frequencies (first class on ties)."""
    ratio = np.divide(proba, prior, out=np.zeros_like(proba), where=prior > 0)
    return {"majority": np.argmax(proba, axis=1), "prior": np.argmax(ratio, axis=1)}


def leaf_rule_predictions(est, X, prior=None) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Class scores and the labels of both leaf rules, from one fitted model.

    Returns ``(proba, {"majority": labels, "prior": labels})`` with ``proba`` in ``classes_``
    order. A :class:`~offcenter.TreeClassifier`: its leaf frequencies, argmax (majority) or argmax
    of frequency / ``prior_`` (prior-aware), as the tree labels its leaves. A
    :class:`~offcenter.ensemble.forest.ForestClassifier`: each tree's label under the rule (with
    its own prior), majority vote, ties to the larger averaged score then to class order, as the
    forest predicts. Anything else (the anchor): its ``predict_proba`` and the rules on it with
    ``prior``.
    """
    classes = np.asarray(est.classes_, dtype=object)
    trees = getattr(est, "estimators_", None)
    if trees is not None and hasattr(est, "vote_counts"):
        Xt = tree_input(est, X)
        index = {c: j for j, c in enumerate(classes.tolist())}
        total = np.zeros((len(Xt), len(classes)))
        votes = {r: np.zeros_like(total) for r in LEAF_RULES}
        rows = np.arange(len(Xt))
        for tree in trees:
            cols = np.array([index[c] for c in np.asarray(tree.classes_, dtype=object).tolist()])
            p = np.asarray(tree.predict_proba(Xt), dtype=float)
            total[:, cols] += p
            for rule, j in _rule_labels(p, np.asarray(tree.prior_, dtype=float)).items():
                votes[rule][rows, cols[j]] += 1
        proba = total / len(trees)
        tuned = getattr(est, "tuned_threshold_", None)
        if tuned is not None:  # threshold moving: the same labels under both rules
            positive, t = tuned
            other = [c for c in classes.tolist() if c != positive]
            hit = proba[:, classes.tolist().index(positive)] >= t
            labels = np.where(hit, positive, other[0] if other else positive).astype(object)
            return proba, dict.fromkeys(LEAF_RULES, labels)
        out = {}
        for rule, v in votes.items():
            key = np.where(v == v.max(axis=1, keepdims=True), proba, -np.inf)
            out[rule] = classes[np.argmax(key, axis=1)]
        return proba, out
    proba = np.asarray(est.predict_proba(X), dtype=float)
    if prior is None:
        prior = est.prior_
    rules = _rule_labels(proba, np.asarray(prior, dtype=float))
    return proba, {r: classes[j] for r, j in rules.items()}
