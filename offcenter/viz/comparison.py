r"""Tables that compare measure settings at a node, the setting choices and the training report.

Pure functions (pandas, numpy, scikit-learn; no Streamlit): the Tree page
(:mod:`offcenter.app.node_settings`) shows what they return.

- :func:`setting_choices`: the measure settings offered as what they are ("Shannon",
  "off-centered Shannon, θ = prior", ...), by a short choice id.
- :func:`imbalance_note`: the suggestion to off-center when the prior is imbalanced (the page
  suggests it, it never switches it on).
- :func:`own_best_table`, :func:`own_feature_table`: every setting's OWN best split
  (:func:`offcenter.tree.inspect.own_optima`), per setting and per feature, with ties shown as
  ties.
- :func:`chosen_split_table`: the split the tree chose, scored under every setting.
- :func:`flat_curves`: the settings whose gain curve is flat (span below 1e-9).
- :func:`training_report`: the training confusion matrix and the minority recall.
- :func:`fmt`: numbers as text, 6 significant digits of the exact value.

Numbers stay full-precision floats in the tables (the CSV downloads keep them; only round-off
below 1e-12 is shown as 0, see :func:`snap`); the page shows them with :data:`NUMBER_FORMAT`.

Examples
--------
>>> fmt(0.10584334459644862), fmt(127.5), fmt(float("nan"))
('0.105843', '127.5', '')
>>> [c.label for c in setting_choices().values()][:3]
['Shannon', 'off-centered Shannon, θ = prior', 'off-centered Shannon, θ = uniform']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from offcenter.evaluation import metrics
from offcenter.measures.registry import CRITERIA, MEASURES
from offcenter.measures.settings import MeasureSetting
from offcenter.tree.inspect import best_rows, without_attrs
from offcenter.tree.params import LEAF_RULES
from offcenter.viz.format import fmt_sig as fmt

__all__ = [
    "NUMBER_FORMAT",
    "NO_WINNER",
    "TrainingReport",
    "chosen_split_table",
    "flat_curves",
    "fmt",
    "imbalance_note",
    "own_best_table",
    "own_feature_table",
    "setting_choices",
    "training_report",
]

#: printf format of the numbers in the page's tables: 6 significant digits of the exact value.
NUMBER_FORMAT = "%.6g"
#: what a setting under which every feature ties (e.g. misclassification gains all 0) shows.
NO_WINNER = "no winner (all tied)"
#: gain curves whose values span less than this are flat (a normalised view leaves them at 0).
FLAT_SPAN = 1e-9


def snap(values, tol: float = 1e-12):
    """Values within ``tol`` of 0 (round-off, e.g. a misclassification gain of -5.6e-17) as 0.

    The tables of the page show gains with 6 significant digits; without this a gain of 0
    computed as -5.6e-17 would print as -5.55112e-17.

    >>> snap(-5.551115123125783e-17), snap(0.1)
    (0.0, 0.1)
    """
    if isinstance(values, pd.Series):
        return values.where(values.isna() | (values.abs() >= tol), 0.0).astype(float)
    x = float(values)
    return 0.0 if abs(x) < tol else x


# ------------------------------------------------------------------------------ settings
def setting_choices() -> dict[str, MeasureSetting]:
    """The measure settings offered on the Tree page, by choice id, in display order.

    Each measure plain, then off-centered on the prior and on the uniform distribution when it
    can be; the asymmetric entropy on the prior or uniform, plain or consistent; the split
    criteria (``hellinger``, HDDT); Shannon and
    Gini with balanced class weights (``class_weight="balanced"``) last. The choice id
    is a key :meth:`MeasureSetting.parse` reads (parameters take their defaults; the page sets
    beta and rho with sliders).

    >>> list(setting_choices())[:4]
    ['shannon', 'oc_shannon', 'ocuniform_shannon', 'gini']
    """
    out: dict[str, MeasureSetting] = {}
    for name, info in MEASURES.items():
        if info.theta == "builtin":
            ids = [name, f"{name}_uniform"]
            if info.uses_sample_size:
                ids += [f"{name}_consistent", f"{name}_uniform_consistent"]
        elif info.off_centerable:
            ids = [name, f"oc_{name}", f"ocuniform_{name}"]
        else:
            ids = [name]
        for cid in ids:
            out[cid] = MeasureSetting.parse(cid)
    # split criteria (HDDT's Hellinger distance): no theta, no alpha
    for name in CRITERIA:
        out[name] = MeasureSetting.parse(name)
    # class weights, the other answer to an imbalanced prior, for the two usual measures
    for cid in ("shannon_balanced", "gini_balanced"):
        out[cid] = MeasureSetting.parse(cid)
    return out


def is_imbalanced(class_counts, ratio: float = 1.5) -> bool:
    """True when the most frequent class is at least ``ratio`` times the least frequent one.

    >>> is_imbalanced([9, 7]), is_imbalanced([500, 268])
    (False, True)
    """
    c = np.asarray(class_counts, float)
    c = c[c > 0]
    if c.size < 2:
        return False
    return bool(c.max() >= ratio * c.min())


def imbalance_note(setting: MeasureSetting, class_counts) -> tuple[str, MeasureSetting] | None:
    """The suggestion to off-center a measure on an imbalanced prior, or None.

    Returns (text, suggested setting) when the classes are imbalanced (see
    :func:`is_imbalanced`) and ``setting`` is a measure that can be off-centered but is not;
    the page shows the text and offers the suggested setting, it never switches it on.

    >>> text, s = imbalance_note(MeasureSetting("shannon"), [500, 268])
    >>> s.label
    'off-centered Shannon, θ = prior'
    >>> imbalance_note(MeasureSetting("shannon"), [9, 7]) is None
    True
    """
    if not is_imbalanced(class_counts):
        return None
    info = setting.info
    if not info.off_centerable or setting.theta is not None or setting.class_weight is not None:
        return None
    c = np.asarray(class_counts, float)
    p = c / c.sum()
    suggested = setting.replace(theta="prior")
    text = (
        f"The classes are imbalanced (the smallest is {p.min():.1%} of the rows). "
        f"{setting.label} is maximal at the uniform distribution; "
        f"{suggested.label_for(c)} is maximal at the prior instead, so that a split which "
        "raises the minority's share above its prior counts as a gain. It is not switched on: "
        "choose it if you wish."
    )
    return text, suggested


# ------------------------------------------------------------------------------ own optima
def _score_differs(optima: pd.DataFrame) -> bool:
    g = optima["gain"].to_numpy(float)
    s = optima["score"].to_numpy(float)
    return not np.allclose(g, s, equal_nan=True, rtol=0, atol=0)


def own_best_table(optima: pd.DataFrame, impurities=None) -> pd.DataFrame:
    """Every setting's own overall best split: one row per setting, every setting listed.

    Columns: ``setting`` (the label, first), ``gain``, ``score`` (only when some score
    differs from the gain, i.e. with an alpha), ``best split`` (its pick, e.g.
    ``glucose <= 127.5``, or :data:`NO_WINNER` when all features tie under the setting, or
    ``no valid split``).
    For a setting with no winner the gain and score are the value every feature ties at.

    With ``impurities`` (``clf.node_impurities(node, settings)``, indexed by setting key) the
    table says why, and on which scale:

    - ``relative gain`` = gain / I(node), the share of the node's impurity under that measure
      the split removes (measures have different scales: Shannon's maximum is log2 q bits,
      Gini's 1 - 1/q, an off-centered measure's 1; a relative gain compares them). A split
      criterion (the Hellinger distance) is not an impurity decrease: NaN;
    - ``children (class counts)`` and ``children (class shares)`` of the best split, one
      ``[...]`` per child;
    - a split criterion's label ends with "(criterion, not an impurity)".

    >>> from offcenter.tree import TreeClassifier
    >>> clf = TreeClassifier().fit(pd.DataFrame({"x": [0.0, 1, 2, 3]}), [0, 0, 1, 1])
    >>> t = own_best_table(clf.own_optima(0, ["shannon"]), clf.node_impurities(0, ["shannon"]))
    >>> t.loc[0, "relative gain"], t.loc[0, "children (class counts)"]
    (np.float64(1.0), '[2, 0] | [0, 2]')
    """
    plain = without_attrs(optima)
    setting_key = plain["setting_key"].to_numpy(object)
    gain, score = plain["gain"].to_numpy(float), plain["score"].to_numpy(float)
    with_score = not np.allclose(gain, score, equal_nan=True, rtol=0, atol=0)  # _score_differs
    pick, counts = plain["pick"].to_numpy(object), plain["children_counts"].to_numpy(object)
    best = best_rows(plain)
    tie = {}  # a setting without a winner: its first feature with a score (they all tie)
    for i in np.flatnonzero(plain["tied_all"].to_numpy(bool) & ~np.isnan(score)):
        tie.setdefault(setting_key[i], int(i))
    settings = list(optima.attrs.get("settings", []))
    cols: dict = {"setting": [], "gain": [], "score": [], "best split": [], "counts": []}
    for key, label in settings:
        if key in best:
            i = best[key]
            row = (snap(gain[i]), snap(score[i]), pick[i], counts[i])
        elif key in tie:
            i = tie[key]
            row = (snap(gain[i]), snap(score[i]), NO_WINNER, "")
        else:
            row = (np.nan, np.nan, "no valid split", "")
        cols["setting"].append(label)
        for name, value in zip(("gain", "score", "best split", "counts"), row):
            cols[name].append(value)
    keys = [k for k, _ in settings]
    # one frame built at once, the setting first (the grid scrolls sideways, never hiding
    # which row is which setting)
    out = {"setting": cols["setting"], "gain": np.array(cols["gain"], dtype=float)}
    if impurities is not None:
        parsed = [_setting(k) for k in keys]  # each key parsed once
        infos = [None if s is None else s.info for s in parsed]
        # "gain / node impurity" means something for the score of the setting (not for a
        # split criterion's own value): the scores' registry says
        crit = [s is not None and not s.score_info.relative for s in parsed]
        imp = np.array([float(impurities.get(k, np.nan)) for k in keys], dtype=float)
        with np.errstate(divide="ignore", invalid="ignore"):
            rel = np.where(np.array(crit, dtype=bool) | ~(imp > 1e-12), np.nan, out["gain"] / imp)
        out["relative gain"] = _snap_array(rel)
        out["node impurity"] = _snap_array(imp)
        out["setting"] = [
            lab + (i.label_suffix if i is not None else "")
            for lab, i in zip(cols["setting"], infos)
        ]
    if with_score:
        out["score"] = np.array(cols["score"], dtype=float)
    out["best split"] = cols["best split"]
    if impurities is not None:
        out["children (class counts)"] = cols["counts"]
        out["children (class shares)"] = [
            children_shares_text(t) if t else "" for t in cols["counts"]
        ]
    table = pd.DataFrame(out)
    table.attrs["keys"] = keys
    return table


def _snap_array(x: np.ndarray, tol: float = 1e-12) -> np.ndarray:
    """:func:`snap` of a float array: values within ``tol`` of 0 as 0, NaN kept."""
    return np.where(np.isnan(x) | (np.abs(x) >= tol), x, 0.0)


def _setting(key: str):
    """The :class:`MeasureSetting` of a setting key (None for an unknown key)."""
    try:
        return MeasureSetting.parse(key)
    except ValueError:
        return None


def children_shares_text(text: str) -> str:
    """Each child's class shares from its counts text (``"[3, 1] | [0, 2]"`` ->
    ``"75.0% / 25.0% | 0.0% / 100.0%"``)."""
    out = []
    for part in str(text).split("|"):
        vals = [float(v) for v in part.strip().strip("[]").split(",") if v.strip()]
        n = sum(vals)
        out.append(" / ".join(f"{v / n:.1%}" if n > 0 else "-" for v in vals))
    return " | ".join(out)


def _rank_text(rank: float, n_same: int, tied_all: bool) -> str:
    if tied_all:
        return NO_WINNER
    if np.isnan(rank):
        return "no valid split"
    text = str(int(rank))
    return f"{text} (tie)" if n_same > 1 else text


def own_feature_table(optima: pd.DataFrame, keys: Sequence[str] | None = None) -> pd.DataFrame:
    """Each feature's own best split under each setting, ranked under that setting.

    One row per (setting, feature), settings in ``keys`` order (default all), features by rank.
    Columns: ``rank`` (text: ``1``, ``1 (tie)`` when features share the rank, or
    :data:`NO_WINNER` for every feature of a setting under which all tie), ``gain``, ``score``
    (with an alpha only), ``best`` (True on the one split the setting would make), ``split``
    (the feature's own threshold or grouping under the setting), ``feature``, ``setting``.
    """
    with_score = _score_differs(optima)
    labels = dict(optima.attrs.get("settings", []))
    keys = list(labels) if keys is None else [k for k in keys if k in labels]
    order = {k: i for i, k in enumerate(keys)}
    plain = without_attrs(optima)
    setting_key = plain["setting_key"].to_numpy(object)
    rows = np.flatnonzero([k in order for k in setting_key])
    if not rows.size:
        return pd.DataFrame(
            columns=["rank", "gain", "score", "best", "split", "feature", "setting"]
        )
    rank = plain["rank"].to_numpy(float)[rows]
    keys_of = setting_key[rows]
    # how many features share each (setting, rank), a missing rank a group of its own: "1 (tie)"
    groups = [(k, None if np.isnan(r) else float(r)) for k, r in zip(keys_of, rank)]
    same = Counter(groups)
    tied = plain["tied_all"].to_numpy(bool)[rows]
    text = [_rank_text(r, same[g], t) for r, g, t in zip(rank, groups, tied)]
    sort = np.lexsort((np.where(np.isnan(rank), np.inf, rank), [order[k] for k in keys_of]))
    take = rows[sort]

    def column(name: str) -> np.ndarray:
        return plain[name].to_numpy()[take]

    out = {
        "rank": [text[i] for i in sort],
        "gain": _snap_array(column("gain").astype(float)),
        "score": _snap_array(column("score").astype(float)),
        "best": column("is_best").astype(bool),
        "split": [str(v) for v in column("split")],
        "feature": [str(v) for v in column("feature")],
        "setting": [str(v) for v in column("setting_label")],
    }
    if not with_score:
        del out["score"]
    return pd.DataFrame(out)  # built at once from numpy columns and lists of text


def chosen_split_table(
    cands: pd.DataFrame, optima: pd.DataFrame, feature, best_table: pd.DataFrame | None = None
) -> pd.DataFrame:
    """The split the tree chose at the node (on ``feature``), scored under every setting.

    One row per setting of ``cands`` (:func:`offcenter.tree.inspect.candidates`). Columns:
    ``gain`` and ``score`` of the chosen split under the setting (``score`` only with an alpha),
    ``rank`` of the chosen feature among the features at the tree's thresholds (text, ties and
    no winner as in :func:`own_feature_table`), ``own best gain`` (the gain of the setting's own
    overall best split), ``gap`` (own best score minus the chosen split's score: 0 when the
    setting makes the same choice), ``own best split``, ``setting``. ``best_table``: the
    node's :func:`own_best_table` when already computed (with or without impurities).
    """
    with_score = _score_differs(optima)
    settings = list(cands.attrs.get("settings", []))
    cands = without_attrs(cands)
    at = np.flatnonzero(cands["feature"].astype(str).to_numpy(object) == str(feature))
    if not at.size:
        raise ValueError(f"feature {feature!r} is not a candidate of this node.")
    c = int(at[0])
    if best_table is None:
        best_table = own_best_table(optima)
    best_split = dict(zip(best_table.attrs["keys"], best_table["best split"]))
    plain = without_attrs(optima)
    setting_key = plain["setting_key"].to_numpy(object)
    own_gains, own_scores = plain["gain"].to_numpy(float), plain["score"].to_numpy(float)
    own = best_rows(plain)
    records = []
    for key, label in settings:
        scores = cands[f"score:{key}"].to_numpy(float)
        chosen_score = float(scores[c])
        valid = scores[~np.isnan(scores)]
        tied_all = valid.size >= 2 and float(valid.max() - valid.min()) <= 1e-12
        rank = float(cands[f"rank:{key}"].to_numpy(float)[c])
        n_same = int(np.sum(np.abs(valid - chosen_score) <= 1e-12))
        if key in own:
            own_score, own_gain = float(own_scores[own[key]]), float(own_gains[own[key]])
        else:
            mine = setting_key == key
            own_score = float(np.nanmax(own_scores[mine]))
            own_gain = float(np.nanmax(own_gains[mine]))
        records.append(
            {
                "gain": snap(cands[f"gain:{key}"].to_numpy(float)[c]),
                "score": snap(chosen_score),
                "rank": _rank_text(rank, n_same, tied_all),
                "own best gain": snap(own_gain),
                "gap": snap(max(own_score - chosen_score, 0.0)),
                "own best split": best_split.get(key, ""),
                "setting": label,
            }
        )
    out = pd.DataFrame.from_records(records)
    if not with_score:
        out = out.drop(columns="score")
    return out


# ------------------------------------------------------------------------------ curves
def flat_curves(gains: pd.DataFrame, keys: Sequence[str], tol: float = FLAT_SPAN) -> list[str]:
    """Keys of the settings whose gain over the thresholds spans less than ``tol``.

    Divided by its maximum such a curve would show round-off as a 0-to-1 curve; the normalised
    plot leaves it flat at 0 (see :func:`offcenter.viz.tree.threshold_figure`).
    """
    out = []
    for key in keys:
        col = f"gain:{key}"
        if col not in gains.columns:
            continue
        y = np.asarray(gains[col], float)
        y = y[~np.isnan(y)]
        if y.size == 0 or float(y.max() - y.min()) < tol:
            out.append(key)
    return out


# ------------------------------------------------------------------------------ training report
@dataclass(frozen=True)
class TrainingReport:
    """The tree's predictions on its training rows.

    Attributes
    ----------
    matrix : pandas.DataFrame
        The confusion matrix (:func:`sklearn.metrics.confusion_matrix`): rows the true class
        ("true: c"), columns the predicted class ("predicted: c").
    minority : object
        The least frequent class of the training rows.
    minority_recall : float
        Share of the minority rows predicted as the minority
        (:func:`sklearn.metrics.recall_score`).
    accuracy : float
        Share of rows predicted right.
    leaves_predicting_minority : int
        How many leaves predict the minority class.
    minority_precision : float
        Share of the rows predicted as the minority that are of it
        (:func:`sklearn.metrics.precision_score`; 0 when none is predicted).
    minority_f1 : float
        F1 of the minority class, 2 P R / (P + R) (:func:`sklearn.metrics.f1_score`).
    balanced_accuracy : float
        Mean recall over the classes (:func:`sklearn.metrics.balanced_accuracy_score`).

    A tree that predicts the minority class everywhere has recall 1 and a precision equal to
    the minority's share: the three together say whether it found the minority or only
    guessed it.
    """

    matrix: pd.DataFrame
    minority: object
    minority_recall: float
    accuracy: float
    leaves_predicting_minority: int
    minority_precision: float = float("nan")
    minority_f1: float = float("nan")
    balanced_accuracy: float = float("nan")

    def metrics_frame(self) -> pd.DataFrame:
        """The metrics as a two-column table (``metric``, ``value``), for a CSV or a table."""
        return pd.DataFrame(
            {
                "metric": [
                    "accuracy",
                    "balanced accuracy",
                    f"minority ({self.minority}) recall",
                    f"minority ({self.minority}) precision",
                    f"minority ({self.minority}) F1",
                    "leaves predicting the minority",
                ],
                "value": [
                    self.accuracy,
                    self.balanced_accuracy,
                    self.minority_recall,
                    self.minority_precision,
                    self.minority_f1,
                    float(self.leaves_predicting_minority),
                ],
            }
        )

    @property
    def note(self) -> str | None:
        """A warning when no leaf predicts the minority class, else None."""
        if self.leaves_predicting_minority:
            return None
        return (
            f"No leaf predicts the minority class {self.minority!r}: the tree never predicts it "
            "(minority recall 0). Try the prior-aware leaf rule, or an off-centered measure."
        )


def training_report(clf, X, y) -> TrainingReport:
    """Confusion matrix, accuracy and minority recall of a fitted tree on (X, y).

    Parameters
    ----------
    clf : TreeClassifier
        A fitted tree (hand edits included).
    X, y
        The rows it was grown on and their classes.
    """

    y = pd.Series(y).reset_index(drop=True)
    pred = pd.Series(clf.predict(X)).reset_index(drop=True)
    classes = list(clf.classes_)
    r = metrics.training_report(y, pred, classes)  # the one training report
    names = [str(c) for c in classes]
    matrix = pd.DataFrame(
        r["matrix"], index=[f"true: {c}" for c in names], columns=[f"predicted: {c}" for c in names]
    )
    minority = r["minority"]
    leaves = [nd for nd in clf.tree_.nodes if not nd.children]
    n_min = sum(1 for nd in leaves if nd.prediction == minority)
    return TrainingReport(
        matrix=matrix,
        minority=minority,
        minority_recall=r["minority_recall"],
        accuracy=r["accuracy"],
        leaves_predicting_minority=int(n_min),
        minority_precision=r["minority_precision"],
        minority_f1=r["minority_f1"],
        balanced_accuracy=r["balanced_accuracy"],
    )


def predictions_table(clf, X, row_ids=None, y=None) -> pd.DataFrame:
    """Every row's leaf, class probabilities and predicted class (for a CSV download).

    Columns: ``row`` (``row_ids``, default the index of ``X``), ``true class`` (``y``, when
    given), ``leaf`` (the node id of the row's leaf, :meth:`TreeClassifier.apply`),
    ``P(<class>)`` for every class (the leaf's ``proba``, as
    :meth:`~TreeClassifier.predict_proba` gives) and ``predicted`` (the leaf's prediction, as
    :meth:`~TreeClassifier.predict`); the rows are routed once.

    >>> from offcenter.tree import TreeClassifier
    >>> clf = TreeClassifier().fit(pd.DataFrame({"x": [0.0, 1, 2, 3]}), ["a", "a", "b", "b"])
    >>> predictions_table(clf, pd.DataFrame({"x": [0.5, 2.5]}))
       row  leaf  P(a)  P(b) predicted
    0    0     1   1.0   0.0         a
    1    1     2   0.0   1.0         b
    >>> predictions_table(clf, pd.DataFrame({"x": [0.5, 2.5]}), y=["a", "a"])["true class"].tolist()
    ['a', 'a']
    """
    X = pd.DataFrame(X)
    leaves = np.asarray(clf.apply(X), dtype=int)  # routed once: the leaf gives the rest
    nodes = clf.tree_.nodes
    proba = np.stack([np.asarray(nd.proba, dtype=float) for nd in nodes])[leaves]
    out = pd.DataFrame({"row": list(X.index if row_ids is None else row_ids)})
    if y is not None:
        out["true class"] = list(np.asarray(y, dtype=object))
    out["leaf"] = leaves
    for j, c in enumerate(clf.classes_):
        out[f"P({c})"] = proba[:, j]
    out["predicted"] = [nodes[i].prediction for i in leaves]
    return out


# ------------------------------------------------------------------------------ labels
def prior_label(key: str, prior) -> str:
    """The label of a setting key with theta resolved on the prior (``label_for``).

    >>> prior_label("oc_shannon", [9, 7])
    'off-centered Shannon, θ = prior (0.56, 0.44)'
    """
    return MeasureSetting.parse(key).label_for(prior)


def resolved_labels(settings, prior) -> dict[str, str]:
    """``{key: label}`` of (key, label) pairs with theta resolved on the prior
    (:func:`prior_label`; a key it cannot parse keeps its label)."""
    labels = {}
    for key, label in settings:
        try:
            labels[key] = prior_label(key, prior)
        except ValueError:
            labels[key] = label
    return labels


def with_prior_labels(table: pd.DataFrame, prior, labels: dict | None = None) -> pd.DataFrame:
    """A copy of an :func:`~offcenter.tree.inspect.own_optima` or
    :func:`~offcenter.tree.inspect.candidates` table whose setting labels carry the theta
    values resolved on ``prior`` (``off-centered Shannon, θ = prior (0.65, 0.35)``).
    ``labels``: :func:`resolved_labels` of the table's settings when already computed (the
    node's tables share them)."""
    out = table.copy(deep=False)  # the columns are shared; the label column is replaced
    settings = list(table.attrs.get("settings", []))
    if labels is None or any(k not in labels for k, _ in settings):
        labels = resolved_labels(settings, prior)
    out.attrs = {**table.attrs, "settings": [(k, labels[k]) for k, _ in settings]}
    if "setting_label" in out.columns:
        out["setting_label"] = out["setting_key"].map(labels).fillna(out["setting_label"])
    return out


#: Each leaf rule's label (keys: :data:`offcenter.tree.params.LEAF_RULES`, the vocabulary).
LEAF_RULE_LABELS = dict(
    zip(
        LEAF_RULES,
        (
            "majority class",
            "prior-aware (the class whose share most exceeds its prior)",
        ),
        strict=True,
    )
)
#: The short word of each leaf rule in a title.
LEAF_RULE_WORDS = dict(zip(LEAF_RULES, ("majority", "prior-aware"), strict=True))


def tree_title(
    setting: MeasureSetting, prior, *, score: str = "gain", leaf_rule: str = "majority"
) -> str:
    """The title of a grown tree: its exact setting (theta resolved), score and leaf rule.

    >>> tree_title(MeasureSetting("shannon", theta="prior"), [9, 7])
    'Tree grown with off-centered Shannon, θ = prior (0.56, 0.44); score: gain; leaf rule: majority'
    """
    rule = LEAF_RULE_WORDS.get(leaf_rule, leaf_rule)
    return (
        f"Tree grown with {setting.replace(alpha=None).label_for(prior)}; score: {score}; "
        f"leaf rule: {rule}"
    )
