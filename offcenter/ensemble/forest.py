r"""A bagged forest of :class:`offcenter.TreeClassifier` trees (random forests with any measure).

Breiman's random forests, as in the lecture notes of seed 004: each tree is grown on a bootstrap
sample of the training set (n examples drawn with replacement), choosing its split at each node
among a random subset of the features (``max_features``, by default sqrt of their number); the
forest predicts by the majority vote of its trees, and its class scores are the average of the
trees' leaf frequencies. It lets one see whether the measure still matters once trees are averaged.

Choices
-------
- **Class-stratified bootstrap** (default): each class is resampled with replacement within
  itself, keeping its count. Every tree then sees every class in the training proportions, so
  ``theta="prior"`` is one and the same reference for all trees (it is resolved once, on the
  forest's training set, and passed to each tree as a vector) and no tree lacks the minority class.
  ``stratified=False`` gives the plain bootstrap (a tree whose sample misses a class then predicts
  only the classes it saw; its scores for the others are 0).
- **Votes** are counted per class; ties go to the class with the larger averaged score, then to the
  first class in order.
- **Determinism**: given an integer ``random_state`` the forest is reproducible: tree i draws its
  sample from a generator seeded with ``(random_state, i)`` and gets its own seed for the feature
  subsets.

References
----------
L. Breiman, Random forests, Machine Learning 45 (2001) 5-32. L. Breiman, Bagging predictors,
Machine Learning 24 (1996) 123-140.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from offcenter.measures.settings import MeasureSetting

__all__ = ["ForestClassifier"]

_TREE_PARAMS = (
    "measure", "theta", "beta", "rho", "consistent", "alpha", "max_depth",
    "min_samples_split", "min_samples_leaf", "min_gain", "categorical", "leaf_rule",
)


class ForestClassifier:
    """A bagged forest of off-centered (or not) decision trees.

    Parameters
    ----------
    n_estimators : int
        Number of trees (>= 1).
    bootstrap : bool
        Grow each tree on a bootstrap sample (True) or on the whole training set (False; the trees
        then differ only by their random feature subsets).
    stratified : bool
        Class-stratified bootstrap (see the module notes).
    max_features : "sqrt", "log2", int, float in (0, 1] or None
        Features considered at each node: sqrt or log2 of their number, a count, a share, or all.
    random_state : int or None
    measure, theta, beta, rho, consistent, alpha, max_depth, min_samples_split, min_samples_leaf,
    min_gain, categorical, leaf_rule :
        Passed to every :class:`offcenter.TreeClassifier`.

    Attributes
    ----------
    setting_ : MeasureSetting
        The forest's measure setting; its theta is resolved once on the training set
        (``theta_``) and given to every tree as a vector.

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"a": [0, 1, 2, 3, 4, 5, 6, 7], "b": [1, 0, 1, 0, 1, 0, 1, 0]})
    >>> y = [0, 0, 0, 0, 1, 1, 1, 1]
    >>> forest = ForestClassifier(n_estimators=5, max_features=None, random_state=0).fit(X, y)
    >>> forest.predict(X).tolist()
    [0, 0, 0, 0, 1, 1, 1, 1]
    """

    def __init__(
        self,
        n_estimators: int = 25,
        *,
        bootstrap: bool = True,
        stratified: bool = True,
        max_features="sqrt",
        random_state=None,
        measure: str = "shannon",
        theta=None,
        beta=None,
        rho=None,
        consistent: bool = False,
        alpha=None,
        max_depth=None,
        min_samples_split: int = 2,
        min_samples_leaf: int = 1,
        min_gain: float = 0.0,
        categorical: str = "multiway",
        leaf_rule: str = "majority",
    ):
        self.n_estimators = n_estimators
        self.bootstrap = bootstrap
        self.stratified = stratified
        self.max_features = max_features
        self.random_state = random_state
        self.measure = measure
        self.theta = theta
        self.beta = beta
        self.rho = rho
        self.consistent = consistent
        self.alpha = alpha
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_gain = min_gain
        self.categorical = categorical
        self.leaf_rule = leaf_rule

    # ------------------------------------------------------------------ params
    def get_params(self, deep: bool = True) -> dict:
        names = ("n_estimators", "bootstrap", "stratified", "max_features", "random_state",
                 *_TREE_PARAMS)
        return {k: getattr(self, k) for k in names}

    def set_params(self, **params) -> ForestClassifier:
        valid = self.get_params()
        for k, v in params.items():
            if k not in valid:
                raise ValueError(f"unknown parameter {k!r} of ForestClassifier.")
            setattr(self, k, v)
        return self

    def __repr__(self) -> str:
        return (f"ForestClassifier(n_estimators={self.n_estimators}, measure={self.measure!r}, "
                f"theta={self.theta!r}, max_features={self.max_features!r}, "
                f"random_state={self.random_state!r})")

    # ------------------------------------------------------------------ fitting
    def _n_features(self, n_features: int) -> int | None:
        mf = self.max_features
        if mf is None:
            return None
        if isinstance(mf, str):
            if mf == "sqrt":
                return max(1, int(math.sqrt(n_features)))
            if mf == "log2":
                return max(1, int(math.log2(n_features))) if n_features > 1 else 1
            raise ValueError(f"max_features must be 'sqrt', 'log2', a number or None; got {mf!r}.")
        if isinstance(mf, bool):
            raise ValueError("max_features must be 'sqrt', 'log2', a number or None.")
        if isinstance(mf, (int, np.integer)):
            if mf < 1:
                raise ValueError(f"max_features must be >= 1; got {mf}.")
            return min(int(mf), n_features)
        if isinstance(mf, float):
            if not 0.0 < mf <= 1.0:
                raise ValueError(f"a fractional max_features must be in (0, 1]; got {mf}.")
            return max(1, int(mf * n_features))
        raise ValueError(f"max_features must be 'sqrt', 'log2', a number or None; got {mf!r}.")

    def fit(self, X, y) -> ForestClassifier:
        """Grow the trees on bootstrap samples of (X, y)."""
        try:
            from offcenter import TreeClassifier
        except ImportError:  # the package __init__ may not re-export it
            from offcenter.tree import TreeClassifier

        if (isinstance(self.n_estimators, bool) or not isinstance(self.n_estimators, (int, np.integer))
                or self.n_estimators < 1):
            raise ValueError(f"n_estimators must be an integer >= 1; got {self.n_estimators!r}.")
        is_df = isinstance(X, pd.DataFrame)
        Xa = X if is_df else np.asarray(X)
        if not is_df and Xa.ndim != 2:
            raise ValueError(f"X must be 2-D (examples x features); got shape {Xa.shape}.")
        y_arr = np.asarray(y.to_numpy() if isinstance(y, pd.Series) else y)
        n = Xa.shape[0]
        if y_arr.ndim != 1 or y_arr.shape[0] != n:
            raise ValueError(f"y must have one label per row of X ({n} rows).")
        classes, codes = np.unique(y_arr, return_inverse=True)
        self.classes_ = classes
        counts = np.bincount(codes, minlength=len(classes)).astype(float)
        # one setting for the forest; its theta ("prior" too, and the asymmetric entropy's
        # default) is resolved once, on the forest's training set, and given to every tree
        self.setting_ = MeasureSetting(self.measure, theta=self.theta, beta=self.beta,
                                       rho=self.rho, consistent=self.consistent, alpha=self.alpha)
        self.theta_ = self.setting_.resolve_theta(counts)
        theta = None if self.theta_ is None else self.theta_.tolist()
        self.n_features_in_ = Xa.shape[1]
        if is_df:
            self.feature_names_in_ = np.asarray(X.columns, dtype=object)
        mf = self._n_features(self.n_features_in_)
        self.max_features_ = mf

        if self.random_state is None:
            root = np.random.SeedSequence()
            base = int(root.generate_state(1)[0])
        else:
            base = int(self.random_state)
        by_class = [np.nonzero(codes == c)[0] for c in range(len(classes))]
        tree_params = {k: getattr(self, k) for k in _TREE_PARAMS}
        tree_params["theta"] = theta
        self.estimators_ = []
        self.samples_ = []
        for i in range(int(self.n_estimators)):
            rng = np.random.default_rng([base, i])
            if not self.bootstrap:
                idx = np.arange(n)
            elif self.stratified:
                idx = np.sort(np.concatenate([rng.choice(ix, size=ix.shape[0], replace=True)
                                              for ix in by_class]))
            else:
                idx = np.sort(rng.integers(0, n, n))
            seed_i = int(rng.integers(2**31 - 1))
            tree = TreeClassifier(**tree_params, max_features=mf, random_state=seed_i)
            Xi = Xa.iloc[idx] if is_df else Xa[idx]
            tree.fit(Xi, y_arr[idx])
            self.estimators_.append(tree)
            self.samples_.append(idx)
        return self

    # ------------------------------------------------------------------ prediction
    def _check_fitted(self):
        if not hasattr(self, "estimators_"):
            raise ValueError("this ForestClassifier is not fitted yet: call fit(X, y) first.")

    def _column_map(self, tree) -> np.ndarray:
        index = {c: j for j, c in enumerate(self.classes_.tolist())}
        return np.array([index[c] for c in np.asarray(tree.classes_).tolist()], dtype=np.intp)

    def predict_proba(self, X) -> np.ndarray:
        """The average of the trees' class frequencies, columns in ``classes_`` order."""
        self._check_fitted()
        total = None
        for tree in self.estimators_:
            p = np.asarray(tree.predict_proba(X), dtype=float)
            if total is None:
                total = np.zeros((p.shape[0], len(self.classes_)))
            total[:, self._column_map(tree)] += p
        return total / len(self.estimators_)

    def vote_counts(self, X) -> np.ndarray:
        """Number of trees voting for each class (n, q)."""
        self._check_fitted()
        index = {c: j for j, c in enumerate(self.classes_.tolist())}
        votes = None
        for tree in self.estimators_:
            pred = np.asarray(tree.predict(X)).tolist()
            if votes is None:
                votes = np.zeros((len(pred), len(self.classes_)))
            votes[np.arange(len(pred)), [index[c] for c in pred]] += 1
        return votes

    def predict(self, X) -> np.ndarray:
        """Majority vote of the trees (ties: larger averaged score, then class order)."""
        votes = self.vote_counts(X)
        proba = self.predict_proba(X)
        best = votes.max(axis=1, keepdims=True)
        key = np.where(votes == best, proba, -np.inf)
        return self.classes_[np.argmax(key, axis=1)]

    def score(self, X, y) -> float:
        """Accuracy on (X, y)."""
        return float(np.mean(self.predict(X) == np.asarray(y)))
