"""register_measure: a measure in plain Python works like a built-in one.

A Python Gini grows the Gini tree (same splits and gains, off-centered too); a parametrised
measure (Tsallis, beta) works with TreeClassifier, MeasureSetting keys, the inspection tables,
the forest in worker processes, the evaluation CLI (--plugin) and the entry point group; bad
functions are refused with clear messages.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from joblib import parallel_config
from sklearn.datasets import load_breast_cancer, load_wine

import offcenter as oc
from offcenter import ForestClassifier, MeasureSetting, TreeClassifier
from offcenter.evaluate import main as evaluate_main

ROOT = Path(__file__).resolve().parents[2]


def py_gini(p):
    return 1.0 - (p * p).sum(axis=-1)


def tsallis(p, beta):
    """Tsallis entropy of order beta (beta = 2: Gini)."""
    if beta == 1.0:
        safe = np.where(p > 0, p, 1.0)
        return -(p * np.log(safe)).sum(axis=-1)
    return (1.0 - (p**beta).sum(axis=-1)) / (beta - 1.0)


def _same_tree(a, b):
    assert len(a.tree_) == len(b.tree_)
    for x, y in zip(a.tree_.nodes, b.tree_.nodes):
        assert (x.split is None) == (y.split is None)
        np.testing.assert_allclose(x.counts, y.counts)
        assert x.impurity == pytest.approx(y.impurity, abs=1e-12)
        if x.split is not None:
            assert x.split.feature == y.split.feature
            assert x.split.threshold == y.split.threshold
            assert x.split.gain == pytest.approx(y.split.gain, abs=1e-12)


@pytest.mark.parametrize("theta", [None, "prior", "uniform", [0.2, 0.3, 0.5]])
def test_python_gini_grows_the_gini_tree(registered, theta):
    registered("py_gini", py_gini, label="Gini in Python")
    X, y = load_wine(return_X_y=True)
    ours = TreeClassifier(measure="py_gini", theta=theta, max_depth=4).fit(X, y)
    ref = TreeClassifier(measure="gini", theta=theta, max_depth=4).fit(X, y)
    _same_tree(ours, ref)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))


def test_parametrised_measure_everywhere(registered):
    info = registered(
        "tsallis",
        tsallis,
        label="Tsallis entropy",
        params={"beta": {"default": 2.0, "low": 0.0, "high": 10.0}},
    )
    assert info.param_names == ("beta",) and info.concave
    assert oc.get_measure("tsallis") is info
    assert "tsallis" in oc.measure_names()
    assert info.function([0.5, 0.5], beta=2.0) == pytest.approx(0.5)
    s = MeasureSetting.parse("oc_tsallis_b1.5")
    assert (s.measure, s.beta, s.theta) == ("tsallis", 1.5, "prior")
    assert MeasureSetting.parse(s.key) == s
    X, y = load_breast_cancer(return_X_y=True)
    clf = TreeClassifier(**s.tree_params(), max_depth=3).fit(X, y)
    assert clf.setting_.key == "oc_tsallis_b1.5"
    ref = TreeClassifier(measure="gini", theta="prior", max_depth=3).fit(X, y)
    # Tsallis of order 2 is the Gini index: the same tree
    _same_tree(TreeClassifier(measure="tsallis", theta="prior", max_depth=3).fit(X, y), ref)
    table = clf.own_optima(0, ["tsallis", "oc_tsallis", "gini"])
    assert {"tsallis_b2", "oc_tsallis_b1.5", "gini"} <= set(table["setting_key"])
    cands = clf.candidates(0, ["tsallis"])
    assert len(cands) == X.shape[1]
    with pytest.raises(ValueError, match="beta"):
        TreeClassifier(measure="tsallis", beta=-1).fit(X, y)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=2, max_size=6).filter(lambda v: sum(v) > 1e-3))
def test_registered_function_validates_and_matches(values):
    name = "py_gini_h"
    oc.register_measure(name, py_gini)
    try:  # registered and removed within each example: nothing leaks into other tests
        p = np.asarray(values) / np.sum(values)
        theta = np.full(len(p), 1 / len(p))
        assert oc.get_measure(name).function(p) == pytest.approx(oc.gini(p), abs=1e-12)
        assert oc.off_centered(p, theta=theta, measure=name) == pytest.approx(
            oc.off_centered(p, theta=theta, measure="gini"), abs=1e-12
        )
    finally:
        oc.unregister_measure(name)


@pytest.mark.parametrize(
    "func,match",
    [
        (lambda p: -(p * np.log2(p)).sum(axis=-1), "not finite"),
        (lambda p: p.max(axis=-1) - 1.0, "non-negative"),
        (lambda p: 1.0 - p.min(axis=-1), "0 on a pure distribution"),
        (lambda p: p, "one value per distribution"),
        (lambda p: float(p[0]), "raised"),
    ],
)
def test_bad_functions_are_refused(func, match):
    with np.errstate(all="ignore"), pytest.raises(ValueError, match=match):
        oc.register_measure("bad_one", func)
    assert "bad_one" not in oc.measure_names()


def test_bad_names_and_params(registered):
    with pytest.raises(ValueError, match="taken by a built-in"):
        oc.register_measure("gini", py_gini)
    with pytest.raises(ValueError, match="taken by a built-in"):
        oc.register_measure("entropy", py_gini)  # an alias
    with pytest.raises(ValueError, match="lower-case"):
        oc.register_measure("My Gini", py_gini)
    with pytest.raises(ValueError, match="setting key"):
        oc.register_measure("oc_gini2", py_gini)
    with pytest.raises(TypeError, match="function"):
        oc.register_measure("nofunc", 3)
    with pytest.raises(ValueError, match="field of a measure setting"):
        oc.register_measure("tsal", tsallis, params={"theta": 2.0})
    with pytest.raises(ValueError, match="lower-case letters"):
        oc.register_measure("tsal", tsallis, params={"q2": 2.0})
    with pytest.raises(ValueError, match="key token 'b' is beta's"):
        oc.register_measure("tsal", tsallis, params={"q": {"default": 2.0, "token": "b"}})
    registered("py_gini2", py_gini)
    with pytest.raises(ValueError, match="replace=True"):
        oc.register_measure("py_gini2", py_gini)
    oc.register_measure("py_gini2", py_gini, label="again", replace=True)
    assert oc.get_measure("py_gini2").label == "again"
    with pytest.raises(ValueError, match="not a custom measure"):
        oc.unregister_measure("gini")


@pytest.mark.slow
def test_forest_on_a_custom_measure_in_worker_processes(registered):
    registered("py_gini_f", py_gini)
    X, y = load_wine(return_X_y=True)
    kw = dict(n_estimators=4, random_state=0, max_depth=3)
    with parallel_config(backend="loky"):  # processes (the default is threads)
        two = ForestClassifier(measure="py_gini_f", n_jobs=2, **kw).fit(X, y)
    ref = ForestClassifier(measure="gini", n_jobs=1, **kw).fit(X, y)
    np.testing.assert_array_equal(two.predict_proba(X), ref.predict_proba(X))


PLUGIN = textwrap.dedent(
    """
    import numpy as np
    import offcenter

    def dkm_half(p):
        return 0.5 * np.sqrt(p * (1.0 - p)).sum(axis=-1)

    offcenter.register_measure("dkm_half", dkm_half, label="half DKM")
    """
)


@pytest.mark.slow
def test_cli_plugin_option(tmp_path, capsys):
    """``--plugin`` in a fresh command line whose workers are processes; a plugin that does not
    import is refused with a clear message (``main()`` in this process: no interpreter is needed
    to read a usage error, and any other exception than the usage error's exit fails)."""
    (tmp_path / "my_measures.py").write_text(PLUGIN)
    data = tmp_path / "d.csv"
    rng = np.random.default_rng(0)
    rows = ["a,b,cls"] + [
        f"{a:.3f},{b:.3f},{int(a + 0.3 * b > 0.6)}" for a, b in rng.random((80, 2))
    ]
    data.write_text("\n".join(rows) + "\n")
    env = {"PYTHONPATH": f"{tmp_path}:{ROOT}", "PATH": "/usr/bin:/bin"}
    cmd = [sys.executable, "-m", "offcenter.evaluate", str(data), "--plugin", "my_measures"]
    cmd += ["--settings", "gini,dkm_half,oc_dkm_half", "--folds", "3", "--quiet", "--n-jobs", "2"]
    out = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "dkm_half" in out.stdout
    with pytest.raises(SystemExit) as bad:
        evaluate_main([str(data), "--plugin", "no_such_module", "--settings", "gini"])
    err = capsys.readouterr().err
    assert bad.value.code == 2 and "no_such_module" in err
    assert "Traceback" not in err


def test_entry_point_group(tmp_path):
    """An installed package's entry point (group offcenter.measures) adds its measure."""
    pkg = tmp_path / "site"
    (pkg / "my_measures.py").parent.mkdir(parents=True)
    (pkg / "my_measures.py").write_text(
        PLUGIN.replace('offcenter.register_measure("dkm_half", dkm_half, label="half DKM")', "")
        + "\ndef register():\n    offcenter.register_measure('dkm_half', dkm_half)\n"
    )
    dist = pkg / "my_measures-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: my-measures\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        "[offcenter.measures]\ndkm_half = my_measures:register\n"
    )
    code = (
        "import offcenter\n"
        "print(offcenter.load_plugins())\n"
        "import offcenter.app\n"  # the app loads them itself, once
        "print('dkm_half' in offcenter.measure_names())\n"
    )
    env = {"PYTHONPATH": f"{pkg}:{ROOT}", "PATH": "/usr/bin:/bin"}
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["['dkm_half']", "True"]


@pytest.mark.slow
def test_curve_pages_show_an_installed_plugin(tmp_path):
    """An installed package's measure (entry point) is a choice of the curve pages, drawn raw
    and off-centered (AppTest in a fresh interpreter: the app loads the plugins at start)."""
    pkg = tmp_path / "site"
    pkg.mkdir()
    (pkg / "my_measures.py").write_text(
        PLUGIN.replace('offcenter.register_measure("dkm_half", dkm_half, label="half DKM")', "")
        + "\ndef register():\n    offcenter.register_measure('dkm_half', dkm_half, label='half DKM')\n"
    )
    dist = pkg / "my_measures-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: my-measures\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[offcenter.measures]\nhalf = my_measures:register\n")
    page = ROOT / "pages" / "1_Two_classes.py"
    code = textwrap.dedent(
        f"""
        import json
        from streamlit.testing.v1 import AppTest
        at = AppTest.from_file({str(page)!r}, default_timeout=120)
        at.query_params["measures"] = "gini,dkm_half"
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        assert "half DKM" in at.multiselect(key="tc_measures").options
        assert at.multiselect(key="tc_measures").value == ["gini", "dkm_half"]
        names = set()
        specs = [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]
        for comp in at.get("bidi_component"):  # the chart that follows θ (app.theta_follow)
            data = json.loads(comp.proto.json)
            if "figure" in data:
                specs.append(json.loads(data["figure"]))
        for spec in specs:
            names |= {{t.get("name") for t in spec["data"]}}
        print(sorted(n for n in names if n and "DKM" in n))
        """
    )
    env = {"PYTHONPATH": f"{pkg}:{ROOT}", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert "'half DKM'" in out.stdout and "'off-centered half DKM'" in out.stdout, out.stdout


@pytest.mark.slow
def test_parallel_evaluate_knows_a_plugin_loaded_after_workers_started(tmp_path):
    """load_plugins restarts joblib's reusable workers: a cross-validation in worker processes
    started before the plugin was loaded still knows its measure (no NaN)."""
    (tmp_path / "my_measures.py").write_text(PLUGIN)
    code = textwrap.dedent(
        """
        import numpy as np
        import offcenter
        from sklearn.datasets import load_wine
        from offcenter.evaluation.runner import cross_validate_settings
        X, y = load_wine(return_X_y=True)
        offcenter.ForestClassifier(n_estimators=2, n_jobs=2).fit(X, y)  # workers started
        offcenter.load_plugins(["my_measures"])
        r = cross_validate_settings(X, y, ["gini", "oc_dkm_half"], n_splits=2, n_repeats=1, n_jobs=2)
        print(r.summary().set_index("setting")["accuracy_mean"].notna().all())
        """
    )
    env = {"PYTHONPATH": f"{tmp_path}:{ROOT}", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip().splitlines()[-1] == "True", out.stdout
