r"""TreeClassifier: a decision tree on any measure of the package, every split inspectable.

The tree grows with a measure of :data:`offcenter.measures.registry.MEASURES`, optionally off-centered
on theta (``"prior"``: the training set's class distribution, fixed for all nodes, as Lallich,
Lenca and Vaillant (2007) recommend; ``"uniform"``; or a vector), or the asymmetric entropy
(plain, or consistent with each node's own n). At a node with class counts :math:`n_{\cdot j}`
and children :math:`k`:

.. math::
    \mathrm{gain} = I(\text{node}) - \sum_k \frac{n_k}{n} I(\text{child}_k), \qquad
    \mathrm{score} = \mathrm{gain} \ \text{or}\
    \lambda_\alpha = \frac{\mathrm{gain}}{\alpha I(\text{node}) + (1-\alpha) I(X)}

with I(X) the uncentered measure of the branch sizes (see :mod:`offcenter.measures.association`).

Split criteria (``measure="hellinger"``: the Hellinger distance of HDDT, Cieslak and Chawla
2008; see :mod:`offcenter.measures.criteria`) are not impurity decreases: a split's score is
computed from its children's class counts and maximised, and ``Split.gain`` and
``Split.score`` both hold it. theta and alpha do not apply. The node impurity of such a tree
(``Node.impurity``, the pruning costs and ``feature_importances_``) is the DKM impurity, whose
decrease ranks a node's splits exactly as the Hellinger distance does with two classes.

Rules
-----
Numeric features
    Binary splits ``x <= t`` at the midpoints between neighbouring distinct values of the node
    (every threshold is considered: exact, not histograms). When the midpoint rounds up to the
    upper value, the lower value is used (as scikit-learn does).
Categorical features
    ``categorical="multiway"``: one child per value present at the node (ID3/C4.5);
    ``"binary"``: two groups of values. With at most 10 categories every grouping is tried; with
    more, the categories are sorted by the proportion of a class and every prefix is tried
    (exact for two classes and a concave measure, Breiman et al. 1984; for more classes the
    orders by each class's proportion are tried and the best kept, a heuristic). The theorem
    is about the unconstrained search: with ``min_samples_leaf`` or
    ``min_weight_fraction_leaf`` the best *prefix* that satisfies them is taken, which can
    miss a better grouping that is not a prefix (a heuristic there too; with at most 10
    categories every grouping is tried, exact under the constraints).
Missing values
    A missing numeric value (NaN, None) goes to the **larger** child of the split (the child
    with more non-missing training rows at that node; the left one on a tie), both when the
    gain is computed and when predicting. A missing categorical value is a category of its own
    (a branch, or a member of a group, like any value). A category never seen at a node during
    training (including a missing one) goes to the child with the most training rows.
    ``Node.n_missing`` and ``Split.n_missing`` count the training rows of the node whose value
    of the split feature is missing.
Stopping
    A node is a leaf when it is pure, has fewer than ``min_samples_split`` rows or fewer than
    ``2 * min_samples_leaf``, is at ``max_depth``, has no split leaving ``min_samples_leaf``
    rows in every child, or when the gain of its best split is ``<= min_gain + 1e-12``.
Tie-breaking (deterministic)
    The highest score wins; on a tie (within 1e-12) the feature that comes first in column
    order, then the smallest threshold (numeric) or the first grouping enumerated. Majority
    votes pick the first class of ``classes_`` on a tie.
Monotonic constraints
    ``monotonic_cst`` (scikit-learn's parameter and rule, two classes, numeric features):
    splits on a constrained feature whose children's values are out of order or outside the
    node's bounds are not candidates; every node's value is clipped to its bounds (see
    :mod:`offcenter.tree.monotonic` for the formulas).
Leaves
    ``leaf_rule="majority"`` predicts the most frequent class of the leaf; ``"prior"`` the class
    whose leaf frequency most exceeds its prior (argmax of p_leaf / prior). ``predict_proba`` is
    the leaf's class frequencies either way.

Differences from scikit-learn's DecisionTreeClassifier (same impurity decreases and
predictions otherwise, tested): sklearn reads X as float32; it skips thresholds between values
closer than 1e-7; it makes a split even when its gain is 0 (here the node is a leaf); on ties
it picks a feature at random.

Examples
--------
>>> import pandas as pd
>>> from offcenter import TreeClassifier
>>> X = pd.DataFrame({"m1": [1, 1, 1, 0, 0, 0, 1], "m2": [1, 1, 0, 1, 0, 1, 1],
...                   "m3": [1, 0, 1, 1, 0, 0, 0], "m4": [0, 1, 1, 0, 0, 0, 0]})
>>> y = ["C", "C", "C", "C", "NC", "NC", "NC"]
>>> clf = TreeClassifier().fit(X, y)
>>> clf.tree_.nodes[0].split.branch_labels
('m3 <= 0.5', 'm3 > 0.5')
>>> round(clf.tree_.nodes[0].split.gain, 3)
0.522
>>> clf.predict(X).tolist() == y
True
"""

from __future__ import annotations

import html
import json
import warnings

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.class_weight import compute_sample_weight
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import (
    _check_feature_names,
    _check_n_features,
    _check_sample_weight,
    column_or_1d,
    validate_data,
)

from offcenter.measures.settings import MeasureSetting
from offcenter.tree import export, inspect, monotonic, prune, sklearn_tree
from offcenter.tree.categorical import warn_heuristic
from offcenter.tree.encode import (
    Encoded,
    FeatureInfo,
    _python_value,
    encode,
    encode_labels,
    fit_encode,
)
from offcenter.tree.fitted import (
    check_fitted,
    check_node,
    copy_fitted,
    require_data,
    set_fitted,
)
from offcenter.tree.growth import checked_orders, copies_of_rows, grow
from offcenter.tree.nodes import Node, Split, Tree, frozen_instance, renumber
from offcenter.tree.params import (
    TrainingData,
    check_tree_params,
    growth_params,
    tree_setting,
)
from offcenter.tree.records import Record
from offcenter.tree.scoring import SplitScorer

#: Largest row weights kept as they are; outside, every weight is divided by the largest.
WEIGHT_RANGE = (2.0**-200, 2.0**200)


def _dense(X) -> np.ndarray:
    """A scipy sparse matrix or array as a dense float array (see the class Notes on memory);
    no rows: a ValueError as for dense input."""
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (rows x features); got a sparse array of shape {X.shape}.")
    if X.shape[0] == 0:
        raise ValueError("X has no rows: a tree needs at least one example.")
    if X.dtype.kind not in "biuf":
        raise ValueError(f"sparse X must hold numbers; got dtype {X.dtype}.")
    return np.asarray(X.toarray(), dtype=np.float64)


def _check_forced(sp, cst, bounds, node_id) -> None:
    """A forced split (``with_split``) on a constrained feature must be admissible."""
    sign = int(cst[sp.feature_index])
    if sign and not monotonic.split_admissible(sign, bounds, *sp.child_counts):
        raise ValueError(
            f"this split of node {node_id} breaks monotonic_cst ({sign:+d} on feature "
            f"index {sp.feature_index}): its children's probabilities of the positive class "
            "are out of order or outside the bounds the node's ancestors set."
        )


def leaf_proba(counts, estimate: str = "frequency") -> np.ndarray:
    r"""Class probabilities of nodes from their (weighted) class counts.

    Parameters
    ----------
    counts : array_like of shape (..., q)
        Class counts (sums of weights) of each node.
    estimate : "frequency" or "laplace"
        :math:`n_c / n` (0 for a node without weight), or the Laplace estimate
        :math:`(n_c + 1) / (n + q)` (Provost and Domingos 2003; Cieslak and Chawla 2008).

    Examples
    --------
    >>> leaf_proba([[3.0, 0.0]], "laplace").tolist()
    [[0.8, 0.2]]
    """
    c = np.asarray(counts, dtype=np.float64)
    n = c.sum(axis=-1, keepdims=True)
    if estimate == "laplace":
        return (c + 1.0) / (n + c.shape[-1])
    return c / np.where(n > 0, n, 1.0)


_PARAMS = (
    "measure",
    "theta",
    "beta",
    "rho",
    "measure_params",
    "consistent",
    "alpha",
    "split_score",
    "max_depth",
    "min_samples_split",
    "min_samples_leaf",
    "min_gain",
    "categorical",
    "leaf_rule",
    "leaf_estimate",
    "max_features",
    "random_state",
    "class_weight",
    "min_weight_fraction_leaf",
    "ccp_alpha",
    "criterion",
    "splitter",
    "min_impurity_decrease",
    "max_leaf_nodes",
    "monotonic_cst",
)


def nodes_of_records(
    recs: list[Record],
    base: int,
    imp,
    *,
    features: list[FeatureInfo],
    classes: np.ndarray,
    prior: np.ndarray,
    leaf_rule: str,
    leaf_estimate: str,
    parent=None,
    root_id=None,
    key: str = "",
    bounded: bool = False,
) -> list[Node]:
    """Frozen nodes from growth records; record k gets id base + k (record 0: root_id).

    ``features``, ``classes`` and ``prior`` are the tree's (its training data's);
    ``leaf_rule`` and ``leaf_estimate`` its parameters, which give each node's prediction
    and ``proba``.

    ``bounded`` (monotonic constraints): each node's frequencies and ``proba`` are
    clipped to its bounds (:func:`offcenter.tree.monotonic.clip`), and its predicted
    class is read from the clipped frequencies."""
    counts = np.stack([r.counts for r in recs]).astype(np.float64)
    impurities = imp.of_counts(counts)
    n = counts.sum(axis=1)
    freq = counts / np.where(n > 0, n, 1.0)[:, None]
    proba = leaf_proba(counts, leaf_estimate)
    if bounded:
        b = np.array([r.bounds for r in recs], np.float64)
        freq, proba = monotonic.clip(freq, b), monotonic.clip(proba, b)
    if bounded and leaf_rule != "prior":
        pred = np.argmax(freq, axis=1)
    elif leaf_rule == "prior":
        ratio = np.divide(freq, prior, out=np.zeros_like(freq), where=prior > 0)
        pred = np.argmax(ratio, axis=1)
    else:
        pred = np.argmax(counts, axis=1)

    def nid(k):
        return root_id if (k == 0 and root_id is not None) else base + k

    nodes = []
    for k, r in enumerate(recs):  # every field given: made without the frozen __init__
        split = None
        if r.split is not None:
            sp = r.split
            split = frozen_instance(
                Split,
                {
                    "feature": features[sp.feature_index].name,
                    "kind": sp.kind,
                    "threshold": sp.threshold,
                    "groups": sp.groups,
                    "branch_labels": tuple(sp.labels),
                    "gain": float(sp.gain),
                    "score": float(sp.score),
                    "missing_child": sp.missing_child,
                    "default_child": int(sp.default_child),
                    "n_missing": int(sp.n_missing),
                    "feature_index": int(sp.feature_index),
                },
            )
        par = parent if (k == 0) else nid(r.parent)
        nodes.append(
            frozen_instance(
                Node,
                {
                    "id": nid(k),
                    "parent": par,
                    "depth": r.depth,
                    "counts": counts[k],
                    "impurity": float(impurities[k]),
                    "split": split,
                    "children": tuple(nid(c) for c in r.children),
                    "prediction": _python_value(classes[pred[k]]),
                    "proba": proba[k],
                    "conditions": tuple(r.conditions),
                    "n_missing": r.n_missing,
                    "setting_key": key,
                    "n_samples": r.n_rows,
                },
            )
        )
    return nodes


class TreeClassifier(ClassifierMixin, BaseEstimator):
    r"""Decision tree classifier on any measure of the package (see the module docs for the rules).

    Parameters
    ----------
    measure : str or MeasureSetting
        A registered measure (``offcenter.measure_names()``) or split criterion
        (``offcenter.criterion_names()``: ``"hellinger"``, HDDT); or a whole
        :class:`~offcenter.MeasureSetting`, kept as it is (``setting_`` is that object):
        ``theta``, ``measure_params``, ``beta``, ``rho`` and ``consistent`` are then left at
        their defaults (they are in the setting), ``alpha`` may add a score to a setting without one, and the
        setting's ``class_weight`` ("balanced") applies as if given to the tree.
    theta : None, "prior", "uniform" or array_like
        Off-centering reference (fixed for every node). None: no off-centering, except for the
        asymmetric entropy, which always has a theta and then takes the prior.
    beta, rho : float or None
        Parameters of the Daroczy entropy and the rank diversity (None: the registry default):
        shorthands for ``measure_params={"beta": ...}``.
    measure_params : dict or None
        The measure's parameters by the names its registry entry declares
        (:attr:`offcenter.MeasureInfo.params`), e.g. ``{"gamma": 2.0}`` for a registered
        measure with a parameter gamma; those left out take the registry default.
    consistent : bool
        Asymmetric entropy only: the consistent form, with each node's own n.
    alpha : float in [0, 1] or None
        None: splits are scored by their gain; otherwise by lambda_alpha (1: relative gain,
        0: gain ratio, 0.5: Kvalseth).
    split_score : str or None
        The split score's name (:data:`offcenter.measures.scores.SCORES`: ``"gain"``,
        ``"lambda"``, ``"criterion"`` or a registered one); None: implied by ``alpha``, else
        the measure's default (see :class:`~offcenter.MeasureSetting`).
    max_depth : int or None
    min_samples_split : int >= 2
    min_samples_leaf : int >= 1
        Rows (not weight) a child must have, as in scikit-learn.
    min_gain : float
        A split is made only if its gain is > min_gain + 1e-12 (round-off of a zero gain is
        not a gain; ``-inf``: whatever its gain; gains can be negative with an off-centered
        measure).
    categorical : "multiway" or "binary"
        ``"binary"``: two groups of values per split, the best grouping (exact up to 20 values
        at a node, and for two classes with the gain of a concave measure or the Hellinger
        distance whenever the best sorted-share prefix obeys the leaf-size rules; otherwise a
        local search, with a :class:`~offcenter.tree.categorical.HeuristicGroupingWarning`: see
        :mod:`offcenter.tree.categorical`).
    leaf_rule : "majority" or "prior"
    leaf_estimate : "frequency" or "laplace"
        What ``predict_proba`` (and ``Node.proba``) gives for a node with (weighted) class
        counts :math:`n_c`, :math:`n = \sum_c n_c`, q classes: ``"frequency"`` (default)
        :math:`n_c / n`; ``"laplace"`` the Laplace estimate

        .. math:: \hat p_c = \frac{n_c + 1}{n + q},

        which keeps small leaves off 0 and 1 and so ranks examples better (AUC): C4.4,
        Provost and Domingos (2003), "Tree induction for probability-based ranking", Machine
        Learning 52; HDDT, Cieslak and Chawla (2008), "Learning decision trees for unbalanced
        data", ECML PKDD. With weights the counts are sums of weights (the +1 is not
        rescaled). The predicted class (``leaf_rule``) does not depend on it; e.g. a pure
        two-class leaf of n rows gives (n + 1) / (n + 2).
    max_features : None, int, float in (0, 1], "sqrt" or "log2"
        Number of features drawn at random at each node (forests); None: all.
    random_state : None, int, numpy Generator or RandomState
        Seed of the feature draws (used only with max_features).
    min_weight_fraction_leaf : float in [0, 0.5]
        Fewest share of the total training weight a child must have (scikit-learn's
        parameter: with weights, what ``min_samples_leaf`` is to rows).
    class_weight : None, "balanced" or dict
        Weights of the classes, multiplied into the rows' ``sample_weight`` (as in
        scikit-learn): a dict ``{class: weight}`` (classes not in it weigh 1), or
        ``"balanced"``: ``n_samples / (n_classes * np.bincount(y))`` (unweighted class counts).
    criterion : None, "gini", "entropy", "log_loss" or a measure name
        scikit-learn's name for the measure (``"entropy"`` and ``"log_loss"`` are Shannon's
        entropy). One rule: None (default) leaves ``measure`` in charge; a criterion sets the
        measure, and ``measure`` must then be left at ``"shannon"`` or name the same one.
    splitter : "best"
        Every threshold is searched exactly (scikit-learn's ``"best"``); ``"random"`` is not
        offered.
    min_impurity_decrease : float >= 0
        scikit-learn's rule, distinct from ``min_gain``: a node t is split only if
        :math:`\frac{W_t}{W} \mathrm{gain} \ge` ``min_impurity_decrease`` (W_t, W: the
        weights of the node and of the training set; 10 machine epsilons of slack, as
        scikit-learn). For a split criterion (HDDT) the gain is its value.
    max_leaf_nodes : int >= 2 or None
        scikit-learn's best-first growth: the node of the largest weighted impurity decrease
        :math:`\frac{W_t}{W} \mathrm{gain}` is split first, until there are
        ``max_leaf_nodes`` leaves (None: no limit). The tree is grown whole (level-wise) and
        its best-first top kept, which is the same tree since a node's split does not depend
        on the order of growth. Applied at fit (edits do not re-apply it).
    ccp_alpha : float >= 0
        Minimal cost-complexity pruning at the end of fit (0: none), as scikit-learn's: every
        weakest link of effective alpha ``<= ccp_alpha`` is collapsed, with costs
        R(t) = (weighted n_t / weighted N) I(t) under the tree's own measure (see
        :mod:`offcenter.tree.prune`). Edits: :meth:`regrow` and :meth:`with_split` prune the
        branch they grow at their ``ccp_alpha`` (the edited node keeps its split);
        :meth:`make_leaf` does not prune; :meth:`prune` prunes the current tree.
    monotonic_cst : None or array_like of int of shape (n_features,)
        scikit-learn's monotonic constraints, with its rule (:mod:`offcenter.tree.monotonic`):
        1, the probability of the positive class (``classes_[1]``) must not decrease as the
        feature grows; -1, not increase; 0, no constraint. Two classes and numeric features
        only (a ValueError otherwise). Every node carries bounds on its value (its first
        class's fraction v, inherited from its ancestors; unbounded at the root); a split on
        a constrained feature is a candidate only if its children's values are in the
        required order and within the node's bounds, and **the measure picks among the
        admissible candidates** (any measure, off-centered or not; a node with none is a
        leaf). After such a split the children's bounds meet at the middle value
        :math:`m = v_L / 2 + v_R / 2`; every node's ``proba`` (``predict_proba``, the
        predicted class) is its value clipped to its bounds, so that
        ``predict_proba[:, 1]`` is monotone in each constrained feature. The trees are
        scikit-learn's ``DecisionTreeClassifier(monotonic_cst=...)`` node by node under
        ``criterion="gini"``/``"entropy"`` (tested). The inspection tables
        (:meth:`candidates`, :meth:`own_optima`, :meth:`with_split` without a threshold)
        search the admissible splits too; :meth:`threshold_gains` adds an ``admissible``
        column; :meth:`with_split` refuses a split that breaks the constraint.

    Attributes
    ----------
    classes_, n_classes_ : the class labels (sorted) and their number.
    n_features_in_ : number of features seen in fit.
    feature_names_in_ : the column names, only when X was a DataFrame with string names.
    features_ : list of FeatureInfo, how each column is encoded (numeric or categorical).
    prior_ : class distribution of the (weighted) training set.
    setting_ : MeasureSetting, the measure setting of the fit (measure, theta, params,
        consistent, alpha) with its key and label; ``setting_.label_for(prior_)`` shows the
        resolved theta.
    impurity_, theta_ : the Impurity the tree grew with and its resolved theta.
    tree_ : Tree, the fitted nodes.
    heuristic_groupings_ : dict, per categorical feature whose two-group split ``fit`` (or a
        later ``regrow``/``with_split``) searched by a heuristic at some node (not provably the
        best grouping; each then warns with a
        :class:`~offcenter.tree.categorical.HeuristicGroupingWarning`), the number of such
        searches. Empty when every split searched is exact.

    Notes
    -----
    Input. ``X`` is a DataFrame (numeric columns as numbers; object, string, category and bool
    columns as categorical features, see :mod:`offcenter.tree.encode`) or a dense 2-D array
    (an object array is typed column by column like a DataFrame). Missing values (NaN, None)
    are allowed and handled by the rules of the module docs; infinite values are an error.
    **Sparse input** (a scipy sparse matrix or array) is converted to a dense array (the
    engine sorts and scans dense columns): it takes n_samples x n_features x 8 bytes, e.g.
    800 MB for 100,000 rows of 1,000 features, however few entries are stored. Its zeros are
    values (not missing), as in scikit-learn. A DataFrame given to predict is matched to the training columns by
    name (any order). A value that cannot be hashed (a dict, a list) in a categorical column
    is read as its text.

    Weights. ``fit(X, y, sample_weight)`` and ``class_weight`` make every class count a sum of
    row weights (``sample_weight * class_weight[y]``), as scikit-learn's trees do: node
    counts, impurities, gains and scores, the candidates of :meth:`candidates`, the leaves'
    predictions and ``predict_proba``, the prior (``theta="prior"``) and the missing-value
    rule (the heavier child). Rows of weight 0 are left out of the training (scikit-learn
    does the same). ``min_samples_split`` and ``min_samples_leaf`` count rows, not weight, as
    in scikit-learn; ``Node.n`` is the number of training rows of a node and
    ``Node.weighted_n`` the sum of their weights. Integer weights give the tree of the data
    with each row repeated that many times; weights all equal to 1 give exactly the
    unweighted tree (the fast integer-count path is used). The splits do not depend on the
    scale of the weights: when the largest is outside [2**-200, 2**200] (about 6e-61 to
    1.6e60), every weight is divided by the largest before fitting (so uniform weights of
    1e-170 or 1e300 give the unweighted tree), and the node counts are in those units.

    Zero-gain splits. A node is split only if its best gain is ``> min_gain + 1e-12`` (a gain
    within 1e-12 of ``min_gain`` is round-off: children in the node's exact class proportions
    have a gain of 0 that the subtraction of impurities can leave at 2.2e-16); with the
    default ``min_gain=0`` a split of gain 0 is *not* made (XOR-like data: no single
    split reduces the impurity), whereas scikit-learn's DecisionTreeClassifier makes it
    (its only rule is impurity decrease >= ``min_impurity_decrease``, 0 by default) and may
    then find useful splits below. ``min_gain=-inf`` (any gain) or a small negative value
    makes such splits as scikit-learn does; the trees then agree at every node (tested).
    """

    def __init__(
        self,
        measure="shannon",
        theta=None,
        beta=None,
        rho=None,
        measure_params=None,
        consistent=False,
        alpha=None,
        split_score=None,
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_gain=0.0,
        categorical="multiway",
        leaf_rule="majority",
        leaf_estimate="frequency",
        max_features=None,
        random_state=None,
        class_weight=None,
        min_weight_fraction_leaf=0.0,
        ccp_alpha=0.0,
        criterion=None,
        splitter="best",
        min_impurity_decrease=0.0,
        max_leaf_nodes=None,
        monotonic_cst=None,
    ):
        self.measure = measure
        self.theta = theta
        self.beta = beta
        self.rho = rho
        self.measure_params = measure_params
        self.consistent = consistent
        self.alpha = alpha
        self.split_score = split_score
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_gain = min_gain
        self.categorical = categorical
        self.leaf_rule = leaf_rule
        self.leaf_estimate = leaf_estimate
        self.max_features = max_features
        self.random_state = random_state
        self.class_weight = class_weight
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.ccp_alpha = ccp_alpha
        self.criterion = criterion
        self.splitter = splitter
        self.min_impurity_decrease = min_impurity_decrease
        self.max_leaf_nodes = max_leaf_nodes
        self.monotonic_cst = monotonic_cst

    # ------------------------------------------------------------------ sklearn conventions
    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True  # missing values are handled (module docs)
        tags.input_tags.categorical = True  # non-numeric DataFrame columns
        tags.input_tags.string = True  # strings are categories
        tags.input_tags.sparse = True  # converted to dense (class Notes)
        return tags

    # ------------------------------------------------------------------ notebook display
    def summary(self) -> str | None:
        """One line on the fitted tree: depth, leaves, nodes, its measure setting (theta
        resolved), features and classes; None before fit.

        Examples
        --------
        >>> clf = TreeClassifier(theta="prior").fit([[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1])
        >>> clf.summary()
        'depth 1, 2 leaves, 3 nodes; off-centered Shannon, θ = prior (0.50, 0.50); 1 feature; classes 0, 1'
        """
        if getattr(self, "tree_", None) is None:
            return None
        t = self.tree_
        nf = len(self.features_)
        classes = ", ".join(str(_python_value(c)) for c in self.classes_)
        edited = f"; {len(self.edits_)} edits" if getattr(self, "edits_", None) else ""
        return (
            f"depth {t.depth}, {t.n_leaves} leaves, {len(t)} nodes; "
            f"{self.setting_.label_for(self.prior_)}; {nf} feature{'s' if nf != 1 else ''}; "
            f"classes {classes}{edited}"
        )

    def __repr__(self, N_CHAR_MAX=700):
        """scikit-learn's repr (the parameters), and :meth:`summary` once fitted."""
        text = super().__repr__(N_CHAR_MAX)
        line = self.summary()
        return text if line is None else f"{text}\n# fitted: {line}"

    def _html_repr(self):
        """The notebook's HTML: :meth:`summary` (escaped: labels and class names are user
        text) above scikit-learn's parameter box."""
        box = super()._html_repr()
        line = self.summary()
        if line is None:
            return box
        return (
            '<div class="offcenter-summary" style="font-family: monospace; margin: 0 0 4px 0">'
            f"<b>fitted</b>: {html.escape(line)}</div>{box}"
        )

    # ------------------------------------------------------------------ input validation
    def _validate_X(self, X, reset: bool):
        """X checked with scikit-learn's conventions, as a DataFrame or a dense 2-D array.

        A DataFrame is kept as it is (its columns typed one by one by the encoding); anything
        else goes through ``validate_data`` (sparse input: made dense; complex numbers,
        fewer than one feature: ValueError), without dtype conversion (strings stay
        categories) and with NaN allowed (infinite values are refused by the encoding).
        """
        if isinstance(X, pd.DataFrame):
            if reset:
                _check_feature_names(self, X, reset=True)
            _check_n_features(self, X, reset=reset)
            return X
        if X is None:
            raise ValueError("X is None; give a DataFrame or a 2-D array.")
        if isinstance(X, pd.Series):
            raise ValueError(
                "X must be 2-D (a DataFrame or a 2-D array); got a Series. "
                "Use X.to_frame() for a single feature."
            )
        if sp.issparse(X):
            X = _dense(X)
        else:
            if not hasattr(X, "shape"):
                X = np.asarray(X)
            shape = X.shape
            if len(shape) != 2:
                raise ValueError(
                    f"X must be 2-D (rows x features); got an array of shape {shape}. "
                    "Reshape your data: X.reshape(-1, 1) for a single feature."
                )
            if shape[0] == 0:
                raise ValueError("X has no rows: a tree needs at least one example.")
        return validate_data(
            self,
            X,
            reset=reset,
            accept_sparse=False,
            dtype=None,
            ensure_all_finite=False,
            ensure_min_features=1,
        )

    @staticmethod
    def _validate_y(y, n: int) -> np.ndarray:
        if y is None:
            raise ValueError("TreeClassifier requires y to be passed, but the target y is None.")
        if isinstance(y, pd.DataFrame) and y.shape[1] != 1:
            raise ValueError(f"y must be one column of labels; got {y.shape[1]} columns.")
        arr = y.to_numpy() if isinstance(y, (pd.Series, pd.DataFrame)) else np.asarray(y)
        if arr.ndim == 2 and arr.shape[1] != 1 or arr.ndim > 2:
            raise ValueError(f"y must be 1-D (one label per row); got shape {arr.shape}.")
        arr = column_or_1d(arr, warn=True)
        if len(arr) != n:
            raise ValueError(f"X has {n} rows but y has {len(arr)} labels; they must match.")
        if arr.dtype.kind in "iub":
            return arr  # 1-D integers or booleans: always class labels, never missing
        if pd.isna(pd.Series(arr, dtype=object if arr.dtype == object else None)).any():
            raise ValueError("y contains missing labels (NaN or None); drop those rows first.")
        check_classification_targets(arr)
        return arr

    def _row_weights(self, sample_weight, y: np.ndarray, n: int):
        """sample_weight * class_weight[y], or None when every row weighs 1."""
        cw = self._class_weight()
        if sample_weight is None and cw is None:
            return None
        w = _check_sample_weight(
            sample_weight, np.empty((n, 0)), dtype=np.float64, ensure_non_negative=True
        )
        if cw is not None:
            w = w * compute_sample_weight(cw, y)
        if not np.all(np.isfinite(w)):
            raise ValueError("sample_weight must be finite.")
        if not (w > 0).any():
            raise ValueError(
                "every row has weight 0 (sample_weight * class_weight): nothing to fit."
            )
        top = float(w.max())
        if not WEIGHT_RANGE[0] <= top <= WEIGHT_RANGE[1]:
            # the maths is scale-free: weights far from 1 (whose squares or sums would
            # underflow or overflow in the kernels) are divided by the largest
            w = w / top
        if np.all(w == 1.0):
            return None
        return w

    def _class_weight(self):
        """``class_weight``, or the one of a MeasureSetting given as ``measure``."""
        m, cw = self.measure, self.class_weight
        if isinstance(m, MeasureSetting) and m.class_weight is not None:
            if cw is not None and cw != m.class_weight:
                raise ValueError(
                    f"class_weight={cw!r} and the setting's class_weight={m.class_weight!r} "
                    "disagree; give one."
                )
            return m.class_weight
        return cw

    # ------------------------------------------------------------------ settings
    def _make_setting(self, params=None) -> MeasureSetting:
        """The :class:`~offcenter.MeasureSetting` of these parameters (validated): ``measure``
        itself when it is one (kept whole; ``alpha`` may add its score), else one built from
        ``measure``, ``theta``, the measure's parameters, ``consistent`` and ``alpha``."""
        return tree_setting(self.get_params() if params is None else params)

    def _scorer(self, setting: MeasureSetting, class_counts, data: TrainingData) -> SplitScorer:
        """The split scorer of ``setting``, theta resolved on ``class_counts``."""
        return SplitScorer.from_setting(
            setting, class_counts, n_max=data.n, weighted=data.weights is not None
        )

    # ------------------------------------------------------------------ fit / predict
    def fit(self, X, y, sample_weight=None, *, sorted_orders=None):
        """Grow the tree on X (DataFrame or dense 2-D array) and labels y.

        Parameters
        ----------
        X : DataFrame or array_like of shape (n_samples, n_features)
            Numeric and categorical features; NaN/None are missing values. Sparse input is
            made dense (class Notes: memory).
        y : array_like of shape (n_samples,)
            Class labels (at least two classes).
        sample_weight : None or array_like of shape (n_samples,)
            Non-negative row weights (None: 1 each), multiplied by ``class_weight``; see the
            class docs (Weights) for what they change.
        sorted_orders : None or int array of shape (n_numeric_features, n_samples)
            For each numeric column of X, in column order, the row positions in increasing
            order of its values, missing values last (ties in any order), as
            ``np.argsort(X[:, j])`` gives them: the tree then skips its own sorts. Used when
            the rows are unweighted (a forest sorts each column once for all its trees,
            :mod:`offcenter.ensemble.forest`); the tree is the same as without it. A wrong
            shape or an order that does not sort its column is a ``ValueError``.
        """
        params = {**self.get_params(), **check_tree_params(self.get_params())}
        setting = self._make_setting()
        Xv = self._validate_X(X, reset=True)
        enc, named = fit_encode(Xv)
        yv = self._validate_y(y, enc.n)
        classes, codes = encode_labels(yv, enc.n)
        w = self._row_weights(sample_weight, yv, enc.n)
        counts = np.bincount(codes, weights=w, minlength=len(classes)).astype(np.float64)
        prior = counts / counts.sum()
        data = TrainingData(enc, codes, w)
        scorer = self._scorer(setting, counts, data)
        rows = np.arange(enc.n) if w is None else np.flatnonzero(w > 0)
        copies = copies_of_rows(enc, codes) if w is None else None
        mult = None
        if copies is not None:  # grown on the distinct runs of rows, counted with copies
            rows, mult = copies
        notes: dict = {}
        gp = growth_params(scorer, params, data, len(enc.features))
        presorted = None if sorted_orders is None else checked_orders(enc, sorted_orders)
        recs = grow(
            enc,
            codes,
            gp,
            [(rows, 0, ())],
            w=w,
            heuristic=notes,
            presorted=presorted,
            mult=mult,
        )
        warn_heuristic(notes, f"{type(self).__name__}.fit")  # silent in a forest's trees
        grown = Tree(
            nodes_of_records(
                recs,
                0,
                scorer.impurity,
                features=enc.features,
                classes=classes,
                prior=prior,
                leaf_rule=self.leaf_rule,
                leaf_estimate=self.leaf_estimate,
                key=setting.key,
                bounded=gp.monotonic is not None,
            )
        )
        tree = prune.prune_tree(
            prune.best_first(grown, params["max_leaf_nodes"]), params["ccp_alpha"]
        )  # unchanged when max_leaf_nodes is None and ccp_alpha == 0
        return set_fitted(
            self,
            classes=classes,
            features=enc.features,
            named=named,
            prior=prior,
            setting=setting,
            impurity=scorer.impurity,
            theta=setting.resolve_theta(counts),
            tree=tree,
            training_data=data,
            heuristic_groupings=notes,
            record_inputs=False,  # validate_data recorded n_features_in_, feature_names_in_
        )

    def _encode(self, X) -> Encoded:
        check_fitted(self)
        return encode(self._validate_X(X, reset=False), self.features_, self._named)

    def apply(self, X) -> np.ndarray:
        """The leaf id reached by each row of X."""
        return self._route(self._encode(X))

    def _route(self, enc: Encoded) -> np.ndarray:
        c = self.tree_.compiled(self.features_)
        slots = np.asarray(enc.slot, np.int64)
        n = enc.n
        cur = np.zeros(n, np.int64)
        active = np.arange(n)
        while active.size:
            nodes = cur[active]
            kind = c["kind"][nodes]
            inner = kind > 0
            active, nodes, kind = active[inner], nodes[inner], kind[inner]
            if not active.size:
                break
            child = np.zeros(active.size, np.int64)
            num = kind == 1
            if num.any():
                a, d = active[num], nodes[num]
                v = enc.num[a, slots[c["feature"][d]]]
                k = np.where(v <= c["thr"][d], 0, 1)
                nan = np.isnan(v)
                if nan.any():
                    k = np.where(nan, c["miss"][d], k)
                child[num] = k
            cat = ~num
            if cat.any():
                a, d = active[cat], nodes[cat]
                codes = enc.cat[a, slots[c["feature"][d]]]
                child[cat] = c["catmap"][c["offset"][d] + codes + 1]
            cur[active] = c["first"][nodes] + child
        return cur

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities of the leaf each row reaches (columns in ``classes_`` order):
        its class frequencies, or their Laplace estimate (``leaf_estimate``)."""
        leaves = self.apply(X)
        proba = np.stack([nd.proba for nd in self.tree_.nodes])
        return proba[leaves]

    def predict(self, X) -> np.ndarray:
        """The class of the leaf each row reaches (``leaf_rule``)."""
        leaves = self.apply(X)
        index = {c: i for i, c in enumerate(_python_value(v) for v in self.classes_)}
        pred = np.asarray([index[nd.prediction] for nd in self.tree_.nodes])
        return self.classes_[pred[leaves]]

    # ------------------------------------------------------------------ training rows
    def attach_data(self, X, y, sample_weight=None):
        """Attach training data to a tree loaded from JSON (enables inspection and edits).

        ``sample_weight`` (and the tree's ``class_weight``) as in :meth:`fit`."""
        check_fitted(self)
        enc = self._encode(X)
        index = {_python_value(c): i for i, c in enumerate(self.classes_)}
        labels = np.asarray(y.to_numpy() if isinstance(y, pd.Series) else y).reshape(-1)
        if len(labels) != enc.n:
            raise ValueError(f"X has {enc.n} rows but y has {len(labels)} labels.")
        try:
            codes = np.asarray([index[_python_value(v)] for v in labels], np.int64)
        except KeyError as exc:
            raise ValueError(f"y holds a class the tree does not know: {exc.args[0]!r}.") from None
        self.training_data_ = TrainingData(
            enc,
            codes.astype(np.int8 if len(self.classes_) < 127 else np.int32),
            self._row_weights(sample_weight, labels, enc.n),
        )
        self._train_leaf = None
        return self

    def node_indices(self, node_id: int) -> np.ndarray:
        """Positions of the training rows that reach ``node_id`` (rows of weight 0, left out
        of the training, are not included)."""
        require_data(self)
        check_node(self, node_id)
        if getattr(self, "_train_leaf", None) is None:
            self._train_leaf = self._route(self.training_data_.encoded)
        leaves = [i for i in self.tree_.subtree(node_id) if self.tree_.nodes[i].is_leaf]
        reach = np.isin(self._train_leaf, leaves)
        w = self.training_data_.weights
        if w is not None:
            reach &= w > 0
        return np.flatnonzero(reach)

    # ------------------------------------------------------------------ inspection
    def candidates(self, node_id: int, settings=None) -> pd.DataFrame:
        """The best split of every feature at a node, scored under every measure setting."""

        return inspect.candidates(self, node_id, settings)

    def threshold_gains(self, node_id: int, feature, settings=None) -> pd.DataFrame:
        """Gain of every threshold of a numeric feature at a node, under every setting."""

        return inspect.threshold_gains(self, node_id, feature, settings)

    def own_optima(self, node_id: int, settings=None) -> pd.DataFrame:
        """Every setting's own best split of every feature at a node, ranked under it.

        See :func:`offcenter.tree.inspect.own_optima`; :func:`offcenter.tree.inspect.agreement`
        says whether the settings' overall best splits coincide.
        """

        return inspect.own_optima(self, node_id, settings)

    def node_comparison(self, node_id: int, settings=None) -> tuple[pd.DataFrame, pd.DataFrame]:
        """``(own_optima, candidates)`` of a node in one pass (see
        :func:`offcenter.tree.inspect.node_comparison`)."""

        return inspect.node_comparison(self, node_id, settings)

    def node_impurities(self, node_id: int, settings=None) -> pd.Series:
        """Impurity of a node under every measure setting."""

        return inspect.node_impurities(self, node_id, settings)

    # ------------------------------------------------------------------ edits
    def _splice(self, node_id: int, new_nodes: list[Node]) -> Tree:
        """Replace the subtree at node_id by new_nodes (whose root has id node_id)."""
        drop = set(self.tree_.subtree(node_id))
        kept = [nd for nd in self.tree_.nodes if nd.id not in drop]
        return Tree(renumber(kept + new_nodes))

    def make_leaf(self, node_id: int) -> TreeClassifier:
        """A new tree where ``node_id`` is a leaf (its subtree removed)."""
        check_fitted(self)
        check_node(self, node_id)
        old = self.tree_.nodes[node_id]
        leaf = Node(
            old.id,
            old.parent,
            old.depth,
            old.counts,
            old.impurity,
            None,
            (),
            old.prediction,
            old.proba,
            old.conditions,
            0,
            old.setting_key,
            old.n_samples,
        )
        new = copy_fitted(self)
        new.tree_ = self._splice(node_id, [leaf])
        new.edits_.append(("make_leaf", node_id))
        return new

    def _regrow_at(self, node_id: int, params: dict, forced_split=None, new=None) -> Tree:
        rows = self.node_indices(node_id)
        old = self.tree_.nodes[node_id]
        data = self.training_data_
        setting = self._make_setting(params)
        params = {**params, **check_tree_params(params)}
        scorer = self._scorer(setting, self.prior_ * data.n, data)
        gp = growth_params(scorer, params, data, len(self.features_))
        bounds = None
        if gp.monotonic is not None:  # the node's bounds, from its ancestors' splits
            bounds = [tuple(monotonic.tree_bounds(self.tree_.nodes, gp.monotonic)[node_id])]
            if forced_split is not None:
                _check_forced(forced_split, gp.monotonic, bounds[0], node_id)
        forced = {0: forced_split} if forced_split is not None else None
        notes: dict = {}
        recs = grow(
            data.encoded,
            data.y,
            gp,
            [(rows, old.depth, old.conditions)],
            forced,
            w=data.weights,
            bounds=bounds,
            heuristic=notes,
        )
        warn_heuristic(notes, f"The subtree grown at node {node_id}", stacklevel=4)
        if new is not None and notes:  # the new tree's record of heuristic searches
            merged = dict(getattr(self, "heuristic_groupings_", {}))
            for name, k in notes.items():
                merged[name] = merged.get(name, 0) + k
            new.heuristic_groupings_ = merged
        base = len(self.tree_) + 1
        nodes = nodes_of_records(
            recs,
            base,
            scorer.impurity,
            features=self.features_,
            classes=self.classes_,
            prior=self.prior_,
            leaf_rule=self.leaf_rule,
            leaf_estimate=self.leaf_estimate,
            parent=old.parent,
            root_id=node_id,
            key=setting.key,
            bounded=gp.monotonic is not None,
        )
        nodes = prune.prune_nodes(
            nodes,
            params.get("ccp_alpha", 0.0),
            None,
            self.tree_.nodes[0].weighted_n,
            protect=(node_id,),
        )
        return self._splice(node_id, nodes)

    def regrow(self, node_id: int, **params) -> TreeClassifier:
        """A new tree where the subtree at ``node_id`` is grown again with other settings.

        ``params`` are any constructor parameters (e.g. ``measure="shannon", theta="prior",
        max_depth=6``); ``max_depth`` counts from the root of the whole tree. The nodes of the
        regrown subtree record the key of their measure setting in ``Node.setting_key``.
        """
        require_data(self)
        check_node(self, node_id)
        p = self.get_params()
        for k in params:
            if k not in _PARAMS:
                raise ValueError(f"regrow got an unknown parameter {k!r}.")
        p.update(params)
        new = copy_fitted(self)
        new.tree_ = self._regrow_at(node_id, p, new=new)
        new.edits_.append(("regrow", node_id, dict(params)))
        return new

    def with_split(self, node_id: int, feature, threshold=None, groups=None) -> TreeClassifier:
        """A new tree where ``node_id`` splits on ``feature`` (children grown as usual).

        ``threshold`` (numeric) or ``groups`` (categorical: a list of lists of values, one per
        child) fixes the split; None takes the best split of that feature.
        """

        require_data(self)
        check_node(self, node_id)
        sp = inspect.forced_split(self, node_id, feature, threshold, groups)
        new = copy_fitted(self)
        new.tree_ = self._regrow_at(node_id, self.get_params(), sp, new=new)
        new.edits_.append(("with_split", node_id, sp.labels))
        return new

    # ------------------------------------------------------------------ pruning
    def cost_complexity_pruning_path(self, X, y, sample_weight=None):
        r"""The minimal cost-complexity pruning path, as scikit-learn's method.

        A clone with ``ccp_alpha=0`` is fitted on ``(X, y, sample_weight)`` and pruned link
        by link (weakest first) down to its root, with
        :math:`R(t) = \frac{w_t}{W} I(t)` (I: the tree's measure) and effective alphas
        :math:`g(t) = (R(t) - R(T_t)) / (|T_t| - 1)`; see :mod:`offcenter.tree.prune`
        (Breiman et al. 1984, ch. 3; scikit-learn's user guide, "Minimal Cost-Complexity
        Pruning").

        Returns
        -------
        sklearn.utils.Bunch
            ``ccp_alphas``: the effective alphas, non-decreasing (the first, 0, for the
            unpruned tree; the last prunes to the root); ``impurities``: the total leaf cost
            :math:`R(T)` of the subtree for each alpha.
        """
        return prune.cost_complexity_pruning_path(self, X, y, sample_weight)

    def cp_table(self) -> pd.DataFrame:
        """The pruning sequence of the current tree, like rpart's ``printcp`` (no
        cross-validation): one row per subtree, from this tree to the root alone.

        Columns: ``alpha`` (the smallest ``ccp_alpha`` giving that subtree; the first row
        is the current tree), ``n_leaves``, ``n_splits`` (internal nodes), ``impurity`` (total
        leaf cost R(T), the ``impurities`` of :meth:`cost_complexity_pruning_path`),
        ``rel_impurity`` = R(T) / R(root) (rpart's "rel error"), ``cp`` = alpha / R(root)
        (rpart's CP), ``pruned_node`` (id, in the current tree, of the node collapsed at that
        step). Costs are under ``impurity_`` for every node, also for a branch regrown
        with another measure.
        """
        return prune.cp_table(self)

    def prune(self, ccp_alpha) -> TreeClassifier:
        """A new tree: the current one pruned at ``ccp_alpha`` (weakest links of effective
        alpha ``<= ccp_alpha`` collapsed, costs under ``impurity_``). Works without training
        data (JSON-loaded trees); ``ccp_alpha`` (the parameter) is left as it is."""
        check_fitted(self)
        a = prune.check_ccp_alpha(ccp_alpha)
        new = copy_fitted(self)
        new.tree_ = prune.prune_tree(self.tree_, a, self.impurity_)
        new.edits_.append(("prune", a))
        return new

    # ------------------------------------------------------------------ export
    def to_dict(self) -> dict:
        return export.to_dict(self)

    def to_json(self, **kwargs) -> str:
        """JSON text of the fitted tree (structure, settings, classes, predictions)."""
        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_dict(cls, d: dict) -> TreeClassifier:
        return export.from_dict(cls, d)

    @classmethod
    def from_json(cls, text: str) -> TreeClassifier:
        """Rebuild a tree written by :meth:`to_json` (predictions work; inspection needs
        :meth:`attach_data`)."""
        try:
            d = json.loads(text)
        except (TypeError, json.JSONDecodeError) as exc:
            raise ValueError(f"not a tree in JSON: {exc}") from None
        return cls.from_dict(d)

    def export_graphviz(self, out_file=None, **kwargs) -> str | None:
        """The tree in Graphviz DOT (the style of :func:`sklearn.tree.export_graphviz`); see
        :func:`offcenter.tree.export.export_graphviz` for the options."""
        return export.export_graphviz(self, out_file, **kwargs)

    def to_sklearn(self):
        """This tree as a fitted :class:`sklearn.tree.DecisionTreeClassifier` (binary numeric
        splits), for scikit-learn's ``plot_tree``/``export_graphviz``/``export_text``,
        dtreeviz or supertree; it predicts as this tree. See
        :func:`offcenter.tree.sklearn_tree.to_sklearn` for the rules and what is refused."""
        return sklearn_tree.to_sklearn(self)

    @property
    def feature_importances_(self) -> np.ndarray:
        r"""Impurity-based importance of each feature (mean decrease in impurity), as
        scikit-learn's trees compute it, under the tree's own measure.

        For feature f, the sum over the nodes that split on f of
        :math:`W_t I(t) - \sum_k W_{t_k} I(t_k)` (W: the node's weight, its number of rows
        without weights; I: the node's impurity under the measure it was grown with, see
        ``Node.setting_key``), divided by the sum over all features so that the importances
        add up to 1. A tree without splits, or whose splits sum to a non-positive decrease
        (possible with an off-centered measure and ``min_gain < 0``), gets the raw sums
        (zeros for a single leaf). Shape ``(n_features_in_,)``.
        """
        check_fitted(self)
        names = [f.name for f in self.features_]
        out = np.zeros(len(names))
        nodes = self.tree_.nodes
        for nd in nodes:
            sp = nd.split
            if sp is None:
                continue
            j = sp.feature_index if sp.feature_index >= 0 else names.index(sp.feature)
            kids = sum(nodes[c].weighted_n * nodes[c].impurity for c in nd.children)
            out[j] += nd.weighted_n * nd.impurity - kids
        total = out.sum()
        return out / total if total > 0 else out

    def to_text(self, style="rules", precision=3) -> str:
        """Readable rules (``"rules"``: one IF ... THEN line per leaf) or an indented tree
        (``"tree"``)."""
        return export.to_text(self, style, precision)

    # ------------------------------------------------------------------ scikit-learn's names
    def get_depth(self) -> int:
        """Depth of the tree: the longest root-to-leaf path in edges (0 for a single leaf), as
        :meth:`sklearn.tree.DecisionTreeClassifier.get_depth`."""
        check_fitted(self)
        return int(self.tree_.depth)

    def get_n_leaves(self) -> int:
        """Number of leaves, as :meth:`sklearn.tree.DecisionTreeClassifier.get_n_leaves`."""
        check_fitted(self)
        return int(self.tree_.n_leaves)

    def predict_log_proba(self, X) -> np.ndarray:
        """Natural logarithm of :meth:`predict_proba` (``-inf`` for a class absent from the
        leaf), as scikit-learn's trees."""
        proba = self.predict_proba(X)
        with np.errstate(divide="ignore"):
            return np.log(proba)

    def decision_path(self, X, *, as_list=False):
        """The nodes each row goes through, as scikit-learn's sparse indicator matrix.

        Returns
        -------
        scipy.sparse.csr_matrix of shape (n_samples, n_nodes)
            Entry (i, j) is 1 when row i passes through node j (ids of ``tree_.nodes``,
            breadth-first; scikit-learn numbers its nodes depth-first), as
            :meth:`sklearn.tree.DecisionTreeClassifier.decision_path`.

        ``as_list=True`` returns the former list form (for each row the node ids from the root
        to its leaf) with a FutureWarning; use :meth:`decision_paths` for that form.

        Examples
        --------
        >>> import numpy as np
        >>> clf = TreeClassifier().fit(np.array([[0.0], [1.0], [2.0], [3.0]]), [0, 0, 1, 1])
        >>> clf.decision_path(np.array([[0.0], [3.0]])).toarray().tolist()
        [[1, 1, 0], [1, 0, 1]]
        """
        if as_list:
            warnings.warn(
                "decision_path(X, as_list=True) is deprecated and will be removed in offcenter "
                "0.3: decision_path returns scikit-learn's sparse indicator matrix; use "
                "decision_paths(X) for the lists of node ids.",
                FutureWarning,
                stacklevel=2,
            )
            return self.decision_paths(X)
        paths = self.decision_paths(X)
        indptr = np.zeros(len(paths) + 1, np.int64)
        np.cumsum([len(pth) for pth in paths], out=indptr[1:])
        indices = np.fromiter((i for pth in paths for i in pth), np.int64, int(indptr[-1]))
        data = np.ones(len(indices), np.int64)
        return sp.csr_matrix((data, indices, indptr), shape=(len(paths), len(self.tree_)))

    def decision_paths(self, X) -> list[list[int]]:
        """For each row, the node ids it goes through, from the root to its leaf (a list of
        lists; :meth:`decision_path` gives scikit-learn's sparse indicator)."""
        leaves = self.apply(X)
        cache: dict[int, list[int]] = {}
        out = []
        for leaf in leaves.tolist():
            if leaf not in cache:
                cache[leaf] = self.tree_.path_to(leaf)
            out.append(list(cache[leaf]))
        return out


__all__ = ["TreeClassifier", "Tree", "Node", "Split", "FeatureInfo"]
