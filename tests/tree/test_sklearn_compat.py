"""scikit-learn's estimator checks (``check_estimator``) on the package's estimators.

Each entry of ``ESTIMATORS`` is run through every check of ``check_estimator`` (one test per
estimator and check); add an estimator (or another setting of one) to the list to have it
checked too. The array-API check needs ``SCIPY_ARRAY_API=1`` before scipy is imported (it
skips otherwise), so it runs in a fresh interpreter (``test_array_api_check``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.utils.estimator_checks import estimator_checks_generator

from offcenter import ForestClassifier, TreeClassifier

ESTIMATORS = [
    TreeClassifier(),  # plain Shannon
    TreeClassifier(theta="prior"),  # off-centered on the training prior
    TreeClassifier(measure="asymmetric", theta="prior", consistent=True),
    TreeClassifier(measure="gini", ccp_alpha=0.01),  # cost-complexity pruning
    TreeClassifier(measure="dkm"),  # the DKM impurity (a skew-insensitive peer)
    TreeClassifier(measure="hellinger"),  # HDDT: a split criterion, not an impurity
    TreeClassifier(measure="hellinger", leaf_estimate="laplace"),  # HDDT as published
    # forests: few trees to keep the checks short; one grows its trees in two processes
    # (the default ForestClassifier(), 25 trees on every core, passes them too, in about 75 s)
    ForestClassifier(n_estimators=5, n_jobs=1),
    ForestClassifier(
        n_estimators=4, measure="asymmetric", theta="prior", consistent=True, n_jobs=2
    ),
    ForestClassifier(n_estimators=3, bootstrap="balanced", n_jobs=1),  # class-balanced samples
]

ARRAY_API_CHECK = "check_array_api_input"


def _check_name(check) -> str:
    return getattr(check, "func", check).__name__


def _cases():
    for est in ESTIMATORS:
        for est_, check in estimator_checks_generator(est, legacy=True):
            name = _check_name(check)
            if name != ARRAY_API_CHECK:
                yield pytest.param(est_, check, id=f"{est!r}-{name}")


@pytest.mark.parametrize("estimator,check", list(_cases()))
def test_sklearn_check(estimator, check):
    check(estimator)


@pytest.mark.slow
def test_array_api_check():
    """check_array_api_input (numpy dispatch) for every estimator, with SCIPY_ARRAY_API=1."""
    code = (
        "from sklearn.utils.estimator_checks import estimator_checks_generator\n"
        "from tests.tree.test_sklearn_compat import ESTIMATORS, ARRAY_API_CHECK, _check_name\n"
        "n = 0\n"
        "for est in ESTIMATORS:\n"
        "    for e, check in estimator_checks_generator(est, legacy=True):\n"
        "        if _check_name(check) == ARRAY_API_CHECK:\n"
        "            check(e)\n"
        "            n += 1\n"
        "print('ran', n)\n"
    )
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, SCIPY_ARRAY_API="1", PYTHONPATH=str(root))
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert f"ran {len(ESTIMATORS)}" in out.stdout


def test_tags_are_honest():
    tags = TreeClassifier().__sklearn_tags__()
    assert tags.estimator_type == "classifier"
    assert tags.input_tags.allow_nan and tags.input_tags.categorical
    assert tags.input_tags.string and tags.input_tags.sparse  # made dense
    X = pd.DataFrame({"a": [1.0, np.nan, 3.0, 4.0], "c": ["u", "v", None, "u"]})
    TreeClassifier().fit(X, [0, 1, 0, 1])  # NaN and strings: accepted


@pytest.mark.parametrize("make", [sp.csr_matrix, sp.csc_array, sp.coo_matrix])
def test_sparse_input_is_the_dense_one(make):
    rng = np.random.default_rng(0)
    dense = rng.integers(0, 3, (80, 5)) * (rng.random((80, 5)) < 0.4)
    y = (dense[:, 0] + dense[:, 1] > 1).astype(int)
    X = make(dense)
    for est in (TreeClassifier(theta="prior"), ForestClassifier(n_estimators=3, n_jobs=1)):
        a = clone(est).set_params(random_state=0).fit(X, y)
        b = clone(est).set_params(random_state=0).fit(dense, y)
        assert a.predict(X).tolist() == b.predict(dense).tolist() == b.predict(X).tolist()
        np.testing.assert_array_equal(a.predict_proba(dense), b.predict_proba(X))
    with pytest.raises(ValueError, match="no rows"):
        TreeClassifier().fit(sp.csr_matrix((0, 3)), [])


@pytest.mark.parametrize("est", [TreeClassifier, ForestClassifier])
def test_monotonic_cst_accepted_and_checked(est):
    """scikit-learn's monotonic_cst (tests/tree/test_monotonic.py: the rule itself)."""
    X, y = np.eye(4), [0, 1, 0, 1]
    est(monotonic_cst=[0, 0, 0, 0]).fit(X, y)  # no constraint
    est(monotonic_cst=None).fit(X, y)
    est(monotonic_cst=[1, 0, 0, -1]).fit(X, y)
    with pytest.raises(ValueError, match="-1, 0 and 1"):
        est(monotonic_cst=[2, 0, 0, 0]).fit(X, y)
    with pytest.raises(ValueError, match="two classes only"):
        est(monotonic_cst=[1, 0, 0, 0]).fit(X, [0, 1, 2, 1])


def test_not_fitted_and_feature_count():
    with pytest.raises(NotFittedError):
        TreeClassifier().predict(np.zeros((2, 2)))
    clf = TreeClassifier().fit(np.eye(4), [0, 1, 0, 1])
    with pytest.raises(ValueError, match="X has 3 features, but TreeClassifier is expecting 4"):
        clf.predict(np.zeros((2, 3)))
    assert clf.n_features_in_ == 4 and not hasattr(clf, "feature_names_in_")
    df = pd.DataFrame(np.eye(4), columns=list("abcd"))
    clf = TreeClassifier().fit(df, [0, 1, 0, 1])
    assert clf.feature_names_in_.tolist() == list("abcd")
