"""Custom measures checked where they are used, and models fitted with them saved (issue 35).

A registered measure is validated again at every parameter value a tree uses (cached per
value), its concavity there decides whether thresholds inside pure runs may be skipped, and
every call checks what the function returns: a negative value, a NaN, an exception or a
maximum away from the uniform distribution is a ValueError naming the measure, the parameter
values and the distribution. A tree or forest fitted with a custom measure pickles, and loads
in a fresh process where the measure's module is importable (or says which module to import).
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import offcenter as oc
from offcenter import TreeClassifier
from offcenter.measures import custom

ROOT = Path(__file__).resolve().parents[2]


def gini_power(p, rho):
    """Gini to the power rho: concave for rho <= 1, not for rho = 3."""
    return (1.0 - (p * p).sum(axis=-1)) ** rho


def tsallis(p, beta):
    return (1.0 - (p**beta).sum(axis=-1)) / (beta - 1.0)


def _structure(clf):
    return [
        None if n.split is None else (n.split.feature, n.split.threshold) for n in clf.tree_.nodes
    ]


def _runs_data(seed):
    """Numeric data with long runs of one class (where pruning skips thresholds)."""
    rng = np.random.default_rng(seed)
    n = 40
    y = np.repeat(rng.integers(0, 2, 8), 5)
    X = pd.DataFrame({"a": np.arange(n, dtype=float), "b": rng.integers(0, 6, n).astype(float)})
    return X, y


def test_concavity_is_checked_at_the_parameter_value_the_tree_uses(registered):
    """Gini^rho is concave at rho = 1 (the default), not at rho = 3: a tree at rho = 3 must
    search every threshold, as the same function registered with rho = 3 fixed does. Before
    the fix it skipped thresholds inside pure runs (concavity known at the default only)."""
    registered("gpow", gini_power, params={"rho": 1.0})
    registered("gpow_fixed", lambda p: gini_power(p, 3.0))
    assert oc.get_measure("gpow").concave and not oc.get_measure("gpow_fixed").concave
    differ = 0
    for seed in range(12):
        X, y = _runs_data(seed)
        at3 = TreeClassifier(measure="gpow", rho=3.0, max_depth=3).fit(X, y)
        fixed = TreeClassifier(measure="gpow_fixed", max_depth=3).fit(X, y)
        assert _structure(at3) == _structure(fixed)
        pruned = TreeClassifier(measure="gpow", rho=1.0, max_depth=3).fit(X, y)
        differ += _structure(pruned) != _structure(fixed)
    assert differ  # the data do tell the two apart


def _window(p):
    """True where the first class's share is in [0.1234, 0.1236]: no test point of the
    registration falls there."""
    return (p[..., 0] >= 0.1234) & (p[..., 0] <= 0.1236)


def _gini(p):
    return 1.0 - (p * p).sum(axis=-1)


# 10 rows of class 0 among 81: the root's p0 = 0.12346 is in the window
X81 = pd.DataFrame({"x": np.arange(81, dtype=float)})
Y81 = np.array([0] * 10 + [1] * 71)


def test_a_negative_value_away_from_the_test_points_is_an_error(registered):
    registered("negwin", lambda p: _gini(p) - 5.0 * _window(p))
    with pytest.raises(ValueError, match=r"measure 'negwin' is negative .* at p = \[0\.123"):
        TreeClassifier(measure="negwin").fit(X81, Y81)


def test_a_nan_away_from_the_test_points_is_an_error_not_a_broadcast_failure(registered):
    registered("nanwin", lambda p: np.where(_window(p), np.nan, _gini(p)))
    with pytest.raises(ValueError, match=r"measure 'nanwin' is not finite \(nan\) at p = \[0\.123"):
        TreeClassifier(measure="nanwin").fit(X81, Y81)


def test_an_exception_is_reported_with_the_measure_and_its_parameters(registered):
    def boom(p, beta):
        if beta > 3:
            raise ZeroDivisionError("beta too large")
        return tsallis(p, beta)

    registered("boom", boom, params={"beta": 2.0})
    with pytest.raises(ValueError, match=r"measure 'boom' at beta=4: .*ZeroDivisionError"):
        TreeClassifier(measure="boom", beta=4.0).fit(X81, Y81)


def test_an_exception_in_the_concavity_probe_is_wrapped():
    def probe_fails(p):
        if p.shape[0] == 30:  # the size of the concavity probe's batches
            raise RuntimeError("no batches of 30")
        return _gini(p)

    with pytest.raises(ValueError, match=r"'probe_fails'.*concavity.*RuntimeError"):
        oc.register_measure("probe_fails", probe_fails)
    assert "probe_fails" not in custom.custom_measure_names()


def test_a_maximum_away_from_the_uniform_distribution_is_refused():
    def lopsided(p):
        return (p * (1.0 - p)).sum(axis=-1) * (1.0 + p[..., 0])

    with pytest.raises(ValueError, match=r"'lopsided' must be largest at the uniform"):
        oc.register_measure("lopsided", lopsided)


def test_values_checked_at_the_parameter_values_used(registered):
    # fine at the default beta = 2; negative at beta = -1
    registered("scaled", lambda p, beta: beta * _gini(p), params={"beta": 2.0})
    with pytest.raises(ValueError, match=r"measure 'scaled' at beta=-1 must be non-negative"):
        TreeClassifier(measure="scaled", beta=-1.0).fit(X81, Y81)
    # the check is cached per value: a second tree at beta = 3 does not validate again
    kernel = oc.get_measure("scaled").kernel
    TreeClassifier(measure="scaled", beta=3.0).fit(X81, Y81)
    assert ((("beta", 3.0),) in kernel._checked) and len(kernel._checked) == 2


# ------------------------------------------------------------------ drawn measures


def _broken(kind):
    if kind == "negative":
        return lambda p: _gini(p) - 5.0 * _window(p)
    if kind == "nan":
        return lambda p: np.where(_window(p), np.nan, _gini(p))

    def raises(p):
        if _window(p).any():
            raise ArithmeticError("window")
        return _gini(p)

    return raises


@settings(max_examples=8, deadline=None)
@given(
    kind=st.sampled_from(["tsallis", "scaled_gini", "negative", "nan", "raises"]),
    beta=st.floats(min_value=0.3, max_value=4.0).filter(lambda b: abs(b - 1.0) > 0.05),
    scale=st.floats(min_value=0.2, max_value=5.0),
    seed=st.integers(min_value=0, max_value=10_000),
    hit=st.booleans(),
)
def test_a_drawn_measure_grows_the_builtin_tree_or_is_refused(kind, beta, scale, seed, hit):
    """Tsallis at a random beta grows the Daroczy tree at that beta (a positive multiple of
    it); a scaled Gini the Gini tree; a broken measure (negative, NaN or an exception inside a
    narrow window of distributions) either grows the Gini tree, when no node and no child
    falls in its window, or is refused with a ValueError that names it."""
    rng = np.random.default_rng(seed)
    n = 81 if hit else 60
    y = Y81 if hit else rng.integers(0, 2, n)
    X = pd.DataFrame({"a": rng.normal(size=n).round(1), "b": rng.integers(0, 4, n).astype(float)})
    name = f"drawn_{kind}"
    if kind == "tsallis":
        oc.register_measure(name, tsallis, params={"beta": 2.0}, replace=True)
        want = TreeClassifier(measure="daroczy", beta=beta, max_depth=3).fit(X, y)
        kw = {"beta": beta}
    elif kind == "scaled_gini":
        oc.register_measure(name, lambda p: scale * _gini(p), replace=True)
        want = TreeClassifier(measure="gini", max_depth=3).fit(X, y)
        kw = {}
    else:
        oc.register_measure(name, _broken(kind), replace=True)
        want = TreeClassifier(measure="gini", max_depth=3).fit(X, y)
        kw = {}
    try:
        try:
            got = TreeClassifier(measure=name, max_depth=3, **kw).fit(X, y)
        except ValueError as exc:
            assert kind in ("negative", "nan", "raises"), exc
            assert f"measure {name!r}" in str(exc) and "p = " in str(exc) or "raised" in str(exc)
            return
        assert _structure(got) == _structure(want)
    finally:
        oc.unregister_measure(name)


# ------------------------------------------------------------------ saving models


def test_a_tree_with_a_local_custom_measure_pickles_in_process(registered):
    registered("local_gini", lambda p: _gini(p))
    clf = TreeClassifier(measure="local_gini", max_depth=2).fit(X81, Y81)
    again = pickle.loads(pickle.dumps(clf))
    assert again.setting_.info is oc.get_measure("local_gini")
    np.testing.assert_array_equal(again.predict_proba(X81), clf.predict_proba(X81))


PLUGIN = textwrap.dedent(
    """
    import numpy as np
    import offcenter

    def tsal(p, beta):
        return (1.0 - (p ** beta).sum(axis=-1)) / (beta - 1.0)

    offcenter.register_measure("tsal", tsal, params={"beta": 2.0})
    """
)

FIT = textwrap.dedent(
    """
    import sys, joblib, numpy as np
    import offcenter, my_measures_35  # registers "tsal"
    X = np.arange(60, dtype=float).reshape(30, 2) % 7
    y = (np.arange(30) % 3 == 0).astype(int)
    tree = offcenter.TreeClassifier(measure="tsal", beta=3.0, max_depth=3).fit(X, y)
    forest = offcenter.ForestClassifier(
        measure="tsal", n_estimators=3, max_depth=2, random_state=0, n_jobs=1
    ).fit(X, y)
    joblib.dump((tree, forest, X), sys.argv[1])
    np.save(sys.argv[2], np.hstack([tree.predict_proba(X), forest.predict_proba(X)]))
    """
)

LOAD = textwrap.dedent(
    """
    import sys, joblib, numpy as np
    tree, forest, X = joblib.load(sys.argv[1])  # no import of my_measures_35 here
    got = np.hstack([tree.predict_proba(X), forest.predict_proba(X)])
    assert np.array_equal(got, np.load(sys.argv[2]))
    assert tree.setting_.measure == "tsal" and "my_measures_35" in sys.modules
    print("loaded")
    """
)


def _run(code, args, pythonpath):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(pythonpath)}
    env.pop("OFFCENTER_PLUGINS", None)
    return subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, timeout=120
    )


@pytest.mark.slow
def test_models_with_a_custom_measure_save_and_load_in_a_fresh_process(tmp_path):
    (tmp_path / "my_measures_35.py").write_text(PLUGIN)
    model, proba = str(tmp_path / "model.joblib"), str(tmp_path / "proba.npy")
    fit = _run(FIT, [model, proba], [str(ROOT), str(tmp_path)])
    assert fit.returncode == 0, fit.stderr
    load = _run(LOAD, [model, proba], [str(ROOT), str(tmp_path)])
    assert load.returncode == 0 and "loaded" in load.stdout, load.stderr
    # where the module cannot be imported, the error names it
    elsewhere = _run(LOAD, [model, proba], [str(ROOT)])
    assert elsewhere.returncode != 0
    assert "custom measure 'tsal'" in elsewhere.stderr
    assert "import the module 'my_measures_35'" in elsewhere.stderr
