r"""A bagged forest of :class:`offcenter.TreeClassifier` trees (random forests with any measure).

Breiman's random forests, as presented in the lecture "Learning Decision Trees and Random Forests"
(NPFL054 Introduction to Machine Learning, lecture 5, B. Hladká and M. Holub, Charles University):
each tree is grown on a bootstrap sample of the training set (n examples drawn with replacement),
choosing its split at each node among a random subset of the features (``max_features``, by
default sqrt of their number); the forest predicts by the majority vote of its trees, and its class
scores are the average of the trees' leaf frequencies. It lets one see whether the measure still matters once trees are averaged.

Choices
-------
- **Class-stratified bootstrap** (default): each class is resampled with replacement within
  itself, keeping its count. Every tree then sees every class in the training proportions, so
  ``theta="prior"`` is one and the same reference for all trees (it is resolved once, on the
  forest's training set, and passed to each tree as a vector) and no tree lacks the minority class.
  ``stratified=False`` gives the plain bootstrap (a tree whose sample misses a class then predicts
  only the classes it saw; its scores for the others are 0). A plain sample that holds a single
  class, which no tree can split, is drawn again from the same generator (the sample is then a
  bootstrap sample conditioned on holding two classes; scikit-learn grows a one-leaf tree
  instead). With one row of the minority among n, a draw misses it with probability
  :math:`(1 - 1/n)^n \approx e^{-1}`.
- **Class-balanced bootstrap** (``bootstrap="balanced"``): each tree's sample of n rows holds
  every class equally often, the rows of a class drawn with replacement within it: the minority
  is oversampled and the majority undersampled to n / q rows each. This is **not** the balanced
  random forest of Chen, Liaw and Breiman (2004), whose trees see a bootstrap of the minority
  class and the same number of majority rows (a sample of q x n_min rows). Stratified (default): n // q rows from each class, the
  remainder one more row each for the first classes in order; ``stratified=False``: each of the n
  rows is a class drawn uniformly, then a row of that class (a multinomial draw with row
  probabilities proportional to 1 / n_c, which is how scikit-learn 1.9's forests draw their
  bootstrap under ``class_weight="balanced"``). ``theta="prior"`` still means the training set's
  prior (the true class frequencies), not the balanced sample's.
- **Votes** are counted per class; ties go to the class with the larger averaged score, then to the
  first class in order.
- **Determinism and parallelism**: given an integer ``random_state`` the forest is reproducible:
  tree i draws its sample from a generator seeded with ``(random_state, i)`` and gets its own seed
  for the feature subsets. These seeds are drawn up front, not from a generator shared by the
  trees, so the trees are the same whether they are grown one after the other or by ``n_jobs``
  joblib workers (threads by default, as in scikit-learn's forests: the engine's array work
  releases the GIL, and threads pay no worker start, package import or copy of the trees back;
  any ``joblib.parallel_config`` backend, worker processes and dask included).
  A ``numpy.random.RandomState`` or ``Generator`` as ``random_state`` gives the integer first.
- **Each tree's work**: a tree's sample is given in row order, so the copies of a drawn row
  are consecutive, and an unweighted tree grows on the sample's distinct rows (about 63 % of
  a bootstrap sample), each counted with its copies
  (:func:`offcenter.tree.growth.copies_of_rows`): the counts are exact integers, so the tree
  is the one of every row, ``min_samples_leaf`` and ``min_samples_split`` still counting the
  drawn rows with their copies (scikit-learn's forests count distinct rows instead). Trees
  with weights (``class_weight``) keep every row: a sum of c copies of a weight w and c * w
  can differ in the last bit, which could change a tie between splits.
- **scikit-learn**: the forest is a scikit-learn classifier (``get_params``/``set_params``,
  ``clone``, pipelines, ``check_estimator``); its input is checked with scikit-learn's validation
  and it accepts what its trees accept (its input tags are theirs).

References
----------
L. Breiman, Random forests, Machine Learning 45 (2001) 5-32. L. Breiman, Bagging predictors,
Machine Learning 24 (1996) 123-140. C. Chen, A. Liaw, L. Breiman, Using random forest to learn
imbalanced data, Technical report 666, Department of Statistics, UC Berkeley (2004). B. Hladká, M. Holub, Learning Decision Trees and Random
Forests, NPFL054 Introduction to Machine Learning, lecture 5, Charles University, Prague.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import scipy.sparse as sp
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.metrics import accuracy_score
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, column_or_1d, validate_data

from offcenter.measures.custom import ensure_registered, registration
from offcenter.measures.settings import MeasureSetting
from offcenter.tree.categorical import heuristic_warning_deferred, warn_heuristic
from offcenter.tree.estimator import TreeClassifier, _dense
from offcenter.tree.params import (
    TREE_PARAMETERS,
    check_tree_params,
    n_max_features,
    tree_setting,
)

__all__ = ["ForestClassifier", "tree_input"]

_TREE_PARAMS = (
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
    "class_weight",
    "min_weight_fraction_leaf",
    "criterion",
    "ccp_alpha",
    "min_impurity_decrease",
    "max_leaf_nodes",
    "monotonic_cst",
)


def _grow_tree(
    params: dict, X, y: np.ndarray, idx: np.ndarray, reg=None, orders=None
) -> TreeClassifier:
    """One tree on the rows ``idx`` (run by a joblib worker: everything comes as arguments,
    a custom measure's registration too). ``orders``: the whole data's columns' sorted orders
    (:func:`_sample_orders`), which spare the tree its own sorts."""
    ensure_registered(reg)
    Xi = X.iloc[idx] if isinstance(X, pd.DataFrame) else X[idx]
    tree = TreeClassifier(**params)
    sample = None if orders is None else _sample_orders(orders, idx)
    with heuristic_warning_deferred():  # the forest warns once, for all its trees
        return tree.fit(Xi, y[idx], sorted_orders=sample)


def tree_input(forest: ForestClassifier, X):
    """``X`` checked and shaped as the fitted ``forest``'s trees were fitted: for reading them one
    by one (``[t.predict_proba(tree_input(forest, X)) for t in forest.estimators_]``).

    A DataFrame with the training columns when the forest was fitted on named columns (an
    array given is named), otherwise an array; the number of features is checked, as
    :meth:`ForestClassifier.predict` checks it. An unfitted forest is a ``NotFittedError``.
    """
    check_is_fitted(forest)
    return forest._for_trees(X)


#: Sort each numeric column of a plain array once for the forest, and give each tree its
#: sample's orders from it (:func:`_sample_orders`), when the trees take every row once,
#: unweighted (``bootstrap=False`` and no class weight: :func:`_presorts`); False: each tree
#: sorts its own sample. The trees are the same either way (tested). A bootstrap tree sorts
#: its own sample's distinct rows (:func:`offcenter.tree.growth.copies_of_rows`): measured
#: faster than the sample's orders from the forest's sort (at 20,000 rows 190 against
#: 207 ms of CPU per tree; at 200,000, 2.06 against 2.40 s).
PRESORT = True


def _presorts(bootstrap, tree_params: dict) -> bool:
    """Whether the forest sorts the columns once for its trees (``PRESORT``): they take
    every row once (no bootstrap) and unweighted (no class weight, the tree's or its
    setting's)."""
    return PRESORT and bootstrap is False and TreeClassifier(**tree_params)._class_weight() is None


def _whole_orders(X) -> np.ndarray | None:
    """(features, rows) int32: each column's rows in increasing order (NaN last), for a plain
    numeric array; None for a DataFrame or another array (its trees sort their own)."""
    if not PRESORT or not isinstance(X, np.ndarray) or X.ndim != 2:
        return None
    if not (np.issubdtype(X.dtype, np.floating) or np.issubdtype(X.dtype, np.integer)):
        return None
    return np.stack([np.argsort(X[:, j]).astype(np.int32) for j in range(X.shape[1])])


def _sample_orders(orders: np.ndarray, idx: np.ndarray) -> np.ndarray | None:
    """The positions 0..m-1 of the sample ``X[idx]`` sorted by each column's values, from the
    whole data's ``orders`` (:func:`_whole_orders`), in O(m + n) without a sort.

    ``idx`` is sorted, so the copies of row r fill the positions first_r .. first_r + c_r - 1
    (c_r: its number of copies); walking the rows in the whole data's order, each sampled
    row contributes its copies in a run. Rows of equal values come in the whole data's order
    rather than the sample's own sort's: the tree is the same (its counts are read only
    where the value changes, and its unweighted counts are exact integers; a tree with
    weights sorts its own sample). None when ``idx`` is not sorted."""
    if idx.size and np.any(idx[1:] < idx[:-1]):
        return None
    c = np.bincount(idx, minlength=orders.shape[1])
    first = np.cumsum(c) - c
    copies = c.take(orders)
    kept = copies > 0
    F = orders.shape[0]
    rows = orders[kept].reshape(F, -1)
    cr = copies[kept].reshape(F, -1)
    start = first.take(rows) - (np.cumsum(cr, axis=1) - cr)
    out = np.repeat(start.ravel(), cr.ravel()).reshape(F, -1) + np.arange(idx.size)
    return out.astype(np.int32)


#: Draws of a plain bootstrap sample before a forest gives up on holding two classes.
_MAX_REDRAWS = 1000


def _n_bootstrap(max_samples, n: int, bootstrap) -> int:
    """Rows of each tree's sample for ``max_samples`` (scikit-learn's rule), checked."""
    if max_samples is None:
        return n
    if bootstrap is False:
        raise ValueError(
            "max_samples needs a bootstrap: it cannot be set with bootstrap=False "
            "(every tree then takes every row)."
        )
    if isinstance(max_samples, (bool, np.bool_)):
        raise ValueError(
            f"max_samples must be None, an int >= 1 or a float in (0, 1]; got {max_samples!r}."
        )
    if isinstance(max_samples, (int, np.integer)):
        if max_samples < 1:
            raise ValueError(f"max_samples must be >= 1 as an int; got {max_samples}.")
        return int(max_samples)
    if isinstance(max_samples, (float, np.floating)) and 0.0 < max_samples <= 1.0:
        return max(1, round(n * float(max_samples)))
    raise ValueError(
        f"max_samples must be None, an int >= 1 or a float in (0, 1]; got {max_samples!r}."
    )


def _class_sizes(counts: list[int], m: int) -> list[int]:
    """Rows drawn from each class by the stratified bootstrap for a sample of m rows: the
    class counts when m is the training size, else m shared in proportion to them (largest
    remainders first, ties in class order), each class at least one row."""
    n = sum(counts)
    if m == n:
        return list(counts)
    exact = np.asarray(counts, float) * m / n
    sizes = np.floor(exact).astype(int)
    order = np.argsort(-(exact - sizes), kind="stable")
    sizes[order[: m - int(sizes.sum())]] += 1
    return np.maximum(sizes, 1).tolist()


def _check_class_weight(class_weight) -> None:
    """A forest's ``class_weight``: None, a dict (checked by the trees), ``"balanced"`` or
    ``"balanced_subsample"``."""
    if class_weight is None or isinstance(class_weight, dict):
        return
    if isinstance(class_weight, str) and class_weight in ("balanced", "balanced_subsample"):
        return
    raise ValueError(
        "class_weight must be None, a dict {class: weight}, 'balanced' or 'balanced_subsample'; "
        f"got {class_weight!r}."
    )


def _tree_class_weight(class_weight, classes: np.ndarray, counts: np.ndarray):
    """What each tree gets for the forest's ``class_weight``, with scikit-learn's meanings.

    ``"balanced"``: the weights :math:`n / (q n_c)` of the **whole training set**, as a dict
    (each tree's rows then weigh that times the number of times the bootstrap drew them);
    ``"balanced_subsample"``: ``"balanced"`` for each tree, computed on its own bootstrap
    sample; None or a dict: as given.
    """
    if class_weight == "balanced":
        w = counts.sum() / (len(classes) * counts)
        return {c: float(v) for c, v in zip(classes.tolist(), w)}
    if class_weight == "balanced_subsample":
        return "balanced"
    return class_weight


def _balanced_sample(
    by_class: list[np.ndarray], n: int, stratified: bool, rng: np.random.Generator
) -> np.ndarray:
    """Row indices of a class-balanced bootstrap sample of size n.

    ``by_class[c]`` holds the rows of class c. Stratified: ``n // q`` rows of each class, plus
    one for each of the first ``n % q`` classes, drawn with replacement within the class. Not
    stratified: a multinomial draw, each row's probability ``1 / (q n_c)`` (a uniform class,
    then a uniform row of it).
    """
    q = len(by_class)
    if stratified:
        sizes = [n // q + (1 if c < n % q else 0) for c in range(q)]
    else:
        sizes = np.bincount(rng.integers(0, q, n), minlength=q).tolist()
    return np.concatenate([rng.choice(ix, size=k, replace=True) for ix, k in zip(by_class, sizes)])


class ForestClassifier(ClassifierMixin, BaseEstimator):
    """A bagged forest of off-centered (or not) decision trees.

    Parameters
    ----------
    n_estimators : int
        Number of trees (>= 1).
    bootstrap : bool or "balanced"
        Grow each tree on a bootstrap sample (True), on a class-balanced bootstrap sample of the
        same size (``"balanced"``: every class equally often; see the module notes) or on the
        whole training set (False; the trees then differ only by their random feature subsets).
    stratified : bool
        Class-stratified bootstrap: fixed class counts in each sample (see the module notes).
    max_features : "sqrt", "log2", int, float in (0, 1] or None
        Features considered at each node: sqrt or log2 of their number, a count, a share, or all.
        They are drawn, afresh at each node, among the features that vary in the node (all of
        those when fewer vary), as scikit-learn's forests do: a feature constant in the node
        cannot split it, and drawing it would end the branch in an impure leaf.
    random_state : None, int, numpy.random.RandomState or Generator
    n_jobs : int or None
        Trees grown at once by joblib workers: -1 (default) every core, 1 one after the other,
        None joblib's default (1 unless a ``joblib.parallel_config`` context says otherwise),
        as scikit-learn's ``n_jobs``. The forest, its ``feature_importances_`` and its
        out-of-bag estimates are the same whatever ``n_jobs`` (tested). Unlike scikit-learn's
        forests (default None), the default is -1; prediction runs in the calling process.
    voting : "hard" or "soft"
        ``"hard"`` (default): :meth:`predict` is the majority vote of the trees (see Votes
        above); ``"soft"``: the class of largest averaged score (:meth:`predict_proba`; ties:
        the first class in order), scikit-learn's forests' rule (the forests read by
        :func:`offcenter.ensemble.from_sklearn` predict so).
    oob_score : bool or callable
        As scikit-learn's forests: estimate the generalisation score on the out-of-bag rows
        (each row scored by the trees whose sample did not draw it), with accuracy (True) or a
        callable ``score(y_true, y_pred)``. Needs ``bootstrap`` True or ``"balanced"``.
    measure, theta, beta, rho, measure_params, consistent, alpha, split_score, max_depth, min_samples_split,
    min_samples_leaf, min_gain, categorical, leaf_rule, leaf_estimate :
        Passed to every :class:`offcenter.TreeClassifier` (``leaf_estimate="laplace"``: each
        tree's probabilities are Laplace estimates, as in the bagged HDDT of Cieslak et al.
        2012; the forest averages them).
    class_weight : None, "balanced", "balanced_subsample" or dict
        Weighs every tree's rows by class, with scikit-learn's meanings: ``"balanced"``:
        n / (q n_c) computed on the **whole training set** (the same weights for every tree);
        ``"balanced_subsample"``: the same rule computed on each tree's bootstrap sample (with
        the stratified bootstrap the class counts, hence the weights, are those of the
        training set, and both give the same trees); a dict: passed to every tree.
    min_weight_fraction_leaf : float
        Passed to every tree: the least share of the (class-weighted) total weight of its sample
        that a leaf must hold.
    criterion, ccp_alpha, min_impurity_decrease, max_leaf_nodes, monotonic_cst :
        scikit-learn's names, passed to every tree (see :class:`offcenter.TreeClassifier`):
        ``criterion`` ``"gini"``, ``"entropy"``/``"log_loss"`` (Shannon) or a measure name sets
        the measure (None: ``measure`` decides); ``ccp_alpha`` prunes each tree at the end of
        its fit. ``monotonic_cst`` (two classes, numeric features) constrains every tree as
        scikit-learn's forests do (:mod:`offcenter.tree.monotonic`): each tree's
        ``predict_proba[:, 1]`` is monotone in the constrained features, and so is the
        forest's, their average.
    max_samples : None, int >= 1 or float in (0, 1]
        Size of each tree's bootstrap sample, as scikit-learn's: None n (the training rows), an
        int that many, a float that share of n (at least 1). The stratified bootstrap shares it
        among the classes in proportion to their counts (largest remainders first, then at
        least one row of each class); ``"balanced"`` draws that many rows, equally from each
        class. Needs a bootstrap (``bootstrap=False`` with ``max_samples`` is refused).
    warm_start : bool
        As scikit-learn's: ``True`` and a fitted forest, ``fit`` keeps its trees and grows only
        the missing ones, up to ``n_estimators`` (tree i still from the seeds ``(seed, i)``,
        so a forest grown in steps with an integer ``random_state`` is the forest grown at
        once); a smaller ``n_estimators`` is refused and an equal one warns and grows nothing.
        Give the same data as before.

    Attributes
    ----------
    classes_ : numpy.ndarray
    estimators_ : list of TreeClassifier
        The fitted trees, as scikit-learn's ``estimators_`` (each a full
        :class:`offcenter.TreeClassifier`: ``estimators_[i].own_optima(...)`` and the other
        inspection methods work on tree i's bootstrap sample).
    feature_importances_ : numpy.ndarray of shape (n_features_in_,)
        Mean decrease in impurity, as scikit-learn's: the mean of the trees' normalised
        ``feature_importances_`` (trees that are a single leaf left out), normalised to sum 1;
        zeros when every tree is a single leaf. Under the forest's measure.
    oob_score_ : float
        The out-of-bag score (only with ``oob_score``).
    oob_decision_function_ : numpy.ndarray of shape (n_samples, n_classes)
        The out-of-bag class scores: for each training row, the mean ``predict_proba`` of the
        trees that did not draw it. As in scikit-learn, a row drawn by every tree gets zeros
        (with a UserWarning) and still counts in ``oob_score_`` (only with ``oob_score``).
    samples_ : list of numpy.ndarray
        The rows (indices into the training set) each tree was grown on.
    setting_ : MeasureSetting
        The forest's measure setting; its theta is resolved once on the training set
        (``theta_``) and given to every tree as a vector.
    theta_ : numpy.ndarray or None
        The resolved theta, the same for every tree.
    max_features_ : int or None
    n_features_in_, feature_names_in_ :
        As in scikit-learn.

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"a": [0, 1, 2, 3, 4, 5, 6, 7], "b": [1, 0, 1, 0, 1, 0, 1, 0]})
    >>> y = [0, 0, 0, 0, 1, 1, 1, 1]
    >>> forest = ForestClassifier(n_estimators=5, max_features=None, random_state=0, n_jobs=1)
    >>> forest.fit(X, y).predict(X).tolist()
    [0, 0, 0, 0, 1, 1, 1, 1]
    """

    def __init__(
        self,
        n_estimators: int = 25,
        *,
        bootstrap: bool | str = True,
        stratified: bool = True,
        max_features="sqrt",
        random_state=None,
        n_jobs: int | None = -1,
        measure: str = "shannon",
        theta=None,
        beta=None,
        rho=None,
        measure_params=None,
        consistent: bool = False,
        alpha=None,
        split_score=None,
        max_depth=None,
        min_samples_split: int = 2,
        min_samples_leaf: int = 1,
        min_gain: float = 0.0,
        categorical: str = "multiway",
        leaf_rule: str = "majority",
        leaf_estimate: str = "frequency",
        class_weight=None,
        min_weight_fraction_leaf: float = 0.0,
        oob_score=False,
        voting="hard",
        criterion=None,
        ccp_alpha=0.0,
        min_impurity_decrease=0.0,
        max_leaf_nodes=None,
        max_samples=None,
        warm_start=False,
        monotonic_cst=None,
    ):
        self.n_estimators = n_estimators
        self.bootstrap = bootstrap
        self.stratified = stratified
        self.max_features = max_features
        self.random_state = random_state
        self.n_jobs = n_jobs
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
        self.class_weight = class_weight
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.oob_score = oob_score
        self.voting = voting
        self.criterion = criterion
        self.ccp_alpha = ccp_alpha
        self.min_impurity_decrease = min_impurity_decrease
        self.max_leaf_nodes = max_leaf_nodes
        self.max_samples = max_samples
        self.warm_start = warm_start
        self.monotonic_cst = monotonic_cst

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # the forest accepts what its trees accept (missing values, categories...)
        tags.input_tags = TreeClassifier().__sklearn_tags__().input_tags
        return tags

    # ------------------------------------------------------------------ validation
    def _validate_X(self, X, reset: bool):
        """X checked by scikit-learn's ``validate_data``; a DataFrame is kept as it is.

        A DataFrame's columns are typed one by one by the trees, so only its feature names and
        count are checked (``skip_check_array``); anything else is checked as a dense 2-D array
        (sparse input: made dense, as the trees do; 1-D, empty, complex: ValueError) without
        dtype conversion and
        with NaN left to the trees.
        """
        if isinstance(X, pd.DataFrame):
            return validate_data(self, X, reset=reset, skip_check_array=True)
        if sp.issparse(X):
            X = _dense(X)
        X = validate_data(
            self,
            X,
            reset=reset,
            accept_sparse=False,
            dtype=None,
            ensure_all_finite=False,
            ensure_min_features=1,
        )
        return X

    def _for_trees(self, X):
        """X as the trees were fitted: a DataFrame with the training columns, or an array."""
        X = self._validate_X(X, reset=False)
        names = getattr(self, "feature_names_in_", None)
        if names is not None and not isinstance(X, pd.DataFrame):
            return pd.DataFrame(X, columns=names)
        if names is None and isinstance(X, pd.DataFrame):
            return X.to_numpy()
        return X

    def _n_features(self, n_features: int) -> int | None:
        """Features drawn per node (the tree's rule, :func:`offcenter.tree.params.n_max_features`)."""
        return n_max_features(TREE_PARAMETERS["max_features"](self.max_features), n_features)

    def _base_seed(self) -> int:
        rs = self.random_state
        if rs is None:
            return int(np.random.SeedSequence().generate_state(1)[0])
        if isinstance(rs, (int, np.integer)) and not isinstance(rs, bool):
            return int(rs)
        if isinstance(rs, np.random.Generator):
            return int(rs.integers(2**31 - 1))
        return int(check_random_state(rs).randint(2**31 - 1))

    # ------------------------------------------------------------------ fitting
    def fit(self, X, y) -> ForestClassifier:
        """Grow the trees on bootstrap samples of (X, y).

        Parameters
        ----------
        X : DataFrame or array_like of shape (n_samples, n_features)
            Numeric and categorical features, as :class:`offcenter.TreeClassifier` takes them.
        y : array_like of shape (n_samples,)
            Class labels.
        """
        if (
            isinstance(self.n_estimators, bool)
            or not isinstance(self.n_estimators, (int, np.integer))
            or self.n_estimators < 1
        ):
            raise ValueError(f"n_estimators must be an integer >= 1; got {self.n_estimators!r}.")
        if not ((isinstance(self.bootstrap, (bool, np.bool_))) or self.bootstrap == "balanced"):
            raise ValueError(
                f"bootstrap must be True, False or 'balanced'; got {self.bootstrap!r}."
            )
        if self.voting not in ("hard", "soft"):
            raise ValueError(f"voting must be 'hard' or 'soft'; got {self.voting!r}.")
        oob = self.oob_score
        if not (isinstance(oob, (bool, np.bool_)) or callable(oob)):
            raise ValueError(f"oob_score must be True, False or a callable; got {oob!r}.")
        if oob and self.bootstrap is False:
            raise ValueError(
                "oob_score needs a bootstrap (True or 'balanced'), not bootstrap=False."
            )
        # the trees' parameters, checked once here (the same checks as TreeClassifier's)
        _check_class_weight(self.class_weight)
        check_tree_params({**self._tree_params(), "class_weight": None})
        if y is None:
            raise ValueError("ForestClassifier requires y to be passed, but the target y is None.")
        Xa = self._validate_X(X, reset=True)
        y_arr = np.asarray(y.to_numpy() if isinstance(y, (pd.Series, pd.DataFrame)) else y)
        y_arr = column_or_1d(y_arr, warn=True)
        n = Xa.shape[0]
        if y_arr.shape[0] != n:
            raise ValueError(
                f"y must have one label per row of X: {n} rows but {y_arr.shape[0]} labels."
            )
        if pd.isna(pd.Series(y_arr, dtype=object)).any():
            raise ValueError("y contains missing labels (NaN or None); drop those rows first.")
        check_classification_targets(y_arr)
        classes, codes = np.unique(y_arr, return_inverse=True)
        if len(classes) < 2:
            raise ValueError(
                f"y has a single class ({classes[0]!r}): a forest needs at least two "
                "classes, not one class."
            )
        counts = np.bincount(codes, minlength=len(classes)).astype(float)
        # one setting for the forest; its theta ("prior" too, and the asymmetric entropy's
        # default) is resolved once, on the forest's training set, and given to every tree
        setting = tree_setting(self._tree_params())
        theta_ = setting.resolve_theta(counts)
        theta = None if theta_ is None else theta_.tolist()
        mf = self._n_features(Xa.shape[1])
        m = _n_bootstrap(self.max_samples, n, self.bootstrap)
        keep = self._warm_trees(classes)
        if keep is not None and len(keep[0]) == self.n_estimators:
            warnings.warn(
                "Warm-start fitting without increasing n_estimators does not fit new trees.",
                UserWarning,
                stacklevel=2,
            )

        base = keep[2] if keep is not None else self._base_seed()
        by_class = [np.nonzero(codes == c)[0] for c in range(len(classes))]
        tree_params = self._tree_params()
        tree_params["class_weight"] = _tree_class_weight(self.class_weight, classes, counts)
        if isinstance(self.measure, MeasureSetting):  # a whole setting, with theta resolved
            tree_params["measure"] = (
                setting if theta is None else setting.replace(theta=tuple(theta))
            )
        else:
            tree_params["theta"] = theta
        samples, seeds = [], []
        sizes = _class_sizes([ix.shape[0] for ix in by_class], m)
        first = 0 if keep is None else len(keep[0])
        for i in range(first, int(self.n_estimators)):  # every random draw up front, tree by tree
            rng = np.random.default_rng([base, i])
            if isinstance(self.bootstrap, str):  # "balanced"
                idx = np.sort(_balanced_sample(by_class, m, self.stratified, rng))
            elif not self.bootstrap:
                idx = np.arange(n)
            elif self.stratified:
                idx = np.sort(
                    np.concatenate(
                        [rng.choice(ix, size=k, replace=True) for ix, k in zip(by_class, sizes)]
                    )
                )
            else:
                idx = np.sort(rng.integers(0, n, m))
                for _ in range(_MAX_REDRAWS):  # a tree needs two classes: draw again
                    if np.unique(codes[idx]).size > 1:
                        break
                    idx = np.sort(rng.integers(0, n, m))
                else:
                    raise ValueError(
                        f"{_MAX_REDRAWS} plain bootstrap samples in a row held a single class: "
                        "use the stratified bootstrap (stratified=True)."
                    )
            samples.append(idx)
            seeds.append(int(rng.integers(2**31 - 1)))
        reg = registration(setting.measure)  # a custom measure travels to the workers
        orders = _whole_orders(Xa) if _presorts(self.bootstrap, tree_params) else None
        # threads unless a joblib.parallel_config context chooses a backend (measured:
        # benchmarks/results/forest.md)
        trees = Parallel(n_jobs=self.n_jobs, prefer="threads")(
            delayed(_grow_tree)(
                {**tree_params, "max_features": mf, "random_state": seed},
                Xa,
                y_arr,
                idx,
                reg,
                orders,
            )
            for idx, seed in zip(samples, seeds)
        )
        notes: dict = {}
        for tree in trees:
            for name, k in tree.heuristic_groupings_.items():
                notes[name] = notes.get(name, 0) + k
        warn_heuristic(notes, f"{type(self).__name__}.fit ({len(trees)} trees)")
        if keep is not None:
            trees = keep[0] + list(trees)
            samples = keep[1] + samples
        self.classes_ = classes
        self.setting_ = setting
        self.theta_ = theta_
        self.max_features_ = mf
        self.seed_ = base
        self.estimators_ = list(trees)
        self.samples_ = samples
        if oob:
            self._set_oob(Xa, y_arr)
        return self

    def _tree_params(self) -> dict:
        """The forest's parameters that its trees take, as set (class_weight as given)."""
        return {k: getattr(self, k) for k in _TREE_PARAMS}

    def _warm_trees(self, classes):
        """``(trees, samples, seed)`` kept by a warm start, or None for a fresh fit."""
        if not self.warm_start or not hasattr(self, "estimators_"):
            return None
        have = len(self.estimators_)
        if self.n_estimators < have:
            raise ValueError(
                f"n_estimators={self.n_estimators} must be larger or equal to "
                f"len(estimators_)={have} when warm_start==True."
            )
        if len(classes) != len(self.classes_) or (classes != self.classes_).any():
            raise ValueError(
                "warm_start: y holds other classes than the forest's first fit "
                f"({list(classes)} vs {list(self.classes_)}); give the same data."
            )
        seed = getattr(self, "seed_", None)
        if seed is None:
            seed = self._base_seed()
        return list(self.estimators_), list(self.samples_), seed

    def _set_oob(self, X, y) -> None:
        """``oob_decision_function_`` and ``oob_score_``, as scikit-learn's forests."""

        n = X.shape[0]
        total = np.zeros((n, len(self.classes_)))
        seen = np.zeros(n, np.int64)
        for tree, idx in zip(self.estimators_, self.samples_):
            out = np.ones(n, bool)
            out[idx] = False
            rows = np.flatnonzero(out)
            if not rows.size:
                continue
            Xo = X.iloc[rows] if isinstance(X, pd.DataFrame) else X[rows]
            total[np.ix_(rows, self._column_map(tree))] += tree.predict_proba(Xo)
            seen[rows] += 1
        if (seen == 0).any():
            warnings.warn(
                "Some inputs do not have OOB scores. This probably means too few trees were "
                "used to compute any reliable OOB estimates.",
                UserWarning,
                stacklevel=3,
            )
        self.oob_decision_function_ = total / np.maximum(seen, 1)[:, None]
        score = accuracy_score if self.oob_score is True else self.oob_score
        pred = self.classes_[np.argmax(self.oob_decision_function_, axis=1)]
        self.oob_score_ = float(score(y, pred))

    @property
    def feature_importances_(self) -> np.ndarray:
        """Mean decrease in impurity of each feature, as scikit-learn's forests (see the
        class Attributes)."""
        check_is_fitted(self)
        each = [t.feature_importances_ for t in self.estimators_ if len(t.tree_) > 1]
        if not each:
            return np.zeros(self.n_features_in_)
        mean = np.mean(each, axis=0)
        return mean / mean.sum()

    # ------------------------------------------------------------------ prediction
    def _column_map(self, tree) -> np.ndarray:
        index = {c: j for j, c in enumerate(self.classes_.tolist())}
        return np.array([index[c] for c in np.asarray(tree.classes_).tolist()], dtype=np.intp)

    def _proba(self, X) -> np.ndarray:
        total = np.zeros((X.shape[0], len(self.classes_)))
        for tree in self.estimators_:
            total[:, self._column_map(tree)] += np.asarray(tree.predict_proba(X), dtype=float)
        return total / len(self.estimators_)

    def _votes(self, X) -> np.ndarray:
        index = {c: j for j, c in enumerate(self.classes_.tolist())}
        votes = np.zeros((X.shape[0], len(self.classes_)))
        rows = np.arange(X.shape[0])
        for tree in self.estimators_:
            pred = np.asarray(tree.predict(X)).tolist()
            votes[rows, [index[c] for c in pred]] += 1
        return votes

    def predict_proba(self, X) -> np.ndarray:
        """The average of the trees' class frequencies, columns in ``classes_`` order."""
        check_is_fitted(self)
        return self._proba(self._for_trees(X))

    def predict_log_proba(self, X) -> np.ndarray:
        """Natural logarithm of :meth:`predict_proba` (``-inf`` for a score of 0), as
        scikit-learn's forests."""
        proba = self.predict_proba(X)
        with np.errstate(divide="ignore"):
            return np.log(proba)

    def apply(self, X) -> np.ndarray:
        """The leaf each row reaches in each tree, shape ``(n_samples, n_estimators)``
        (tree i's node ids, ``estimators_[i].tree_.nodes``), as scikit-learn's forests."""
        check_is_fitted(self)
        X = self._for_trees(X)
        return np.column_stack([tree.apply(X) for tree in self.estimators_])

    def decision_path(self, X):
        """The nodes each row goes through in every tree, as scikit-learn's forests.

        Returns
        -------
        indicator : scipy.sparse.csr_matrix of shape (n_samples, n_nodes)
            Entry (i, j) is 1 when row i passes through node j, the trees' nodes side by side:
            tree k's node v is column ``n_nodes_ptr[k] + v``.
        n_nodes_ptr : numpy.ndarray of shape (n_estimators + 1,)
            Where each tree's columns start (the last entry: the number of columns).
        """
        check_is_fitted(self)
        X = self._for_trees(X)
        paths = [tree.decision_path(X) for tree in self.estimators_]
        ptr = np.zeros(len(paths) + 1, dtype=np.intp)
        np.cumsum([p.shape[1] for p in paths], out=ptr[1:])
        return sp.hstack(paths).tocsr(), ptr

    def vote_counts(self, X) -> np.ndarray:
        """Number of trees voting for each class (n, q)."""
        check_is_fitted(self)
        return self._votes(self._for_trees(X))

    def predict(self, X) -> np.ndarray:
        """Majority vote of the trees (ties: larger averaged score, then class order); with
        ``voting="soft"`` the class of largest averaged score."""
        check_is_fitted(self)
        X = self._for_trees(X)
        if self.voting == "soft":
            return self.classes_[np.argmax(self._proba(X), axis=1)]
        votes, proba = self._votes(X), self._proba(X)
        best = votes.max(axis=1, keepdims=True)
        key = np.where(votes == best, proba, -np.inf)
        return self.classes_[np.argmax(key, axis=1)]
