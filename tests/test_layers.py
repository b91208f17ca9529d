"""The import layers (docs/architecture.md): the core works without Streamlit and Plotly.

Core = ``offcenter`` itself and ``offcenter.{measures,tree,ensemble,data,evaluation}``.

- Static: every module's source is parsed and each ``import`` in it, at any depth (inside
  functions too), is checked: the core never imports streamlit, plotly, offcenter.viz or
  offcenter.app; offcenter.viz never imports streamlit or offcenter.app.
- Dynamic: a fresh interpreter in which streamlit and plotly cannot be imported imports every
  core module, then fits a small tree (and a forest, and a two-fold evaluation). One test per
  module reads its line of that run.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import offcenter

PACKAGE_DIR = Path(offcenter.__file__).resolve().parent
ROOT = PACKAGE_DIR.parent
CORE_PACKAGES = ("measures", "tree", "ensemble", "data", "evaluation")
APP_ONLY = ("streamlit", "plotly")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _layer(module: str) -> str:
    """``core``, ``viz``, ``app`` or ``other`` for a module of the package."""
    parts = module.split(".")
    if len(parts) == 1 or parts[1] in CORE_PACKAGES or parts[1] == "evaluate":
        return "core"
    return parts[1] if parts[1] in ("viz", "app") else "other"


MODULES = {_module_name(p): p for p in sorted(PACKAGE_DIR.rglob("*.py"))}
CORE = sorted(m for m in MODULES if _layer(m) == "core")
VIZ = sorted(m for m in MODULES if _layer(m) == "viz")

#: What each layer must never import (a name and everything below it).
FORBIDDEN = {
    "core": ("streamlit", "plotly", "offcenter.viz", "offcenter.app"),
    "viz": ("streamlit", "offcenter.app"),
}


def imported_names(module: str) -> list[tuple[int, str]]:
    """``(line, module name)`` of every import in ``module``'s source, relative ones resolved.

    ``from a import b`` gives both ``a`` and ``a.b`` (b may be a submodule).
    """
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def _is_under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def test_the_layers_are_found():
    assert {
        "offcenter",
        "offcenter.measures.entropies",
        "offcenter.tree.search",
        "offcenter.ensemble.forest",
        "offcenter.data.csv_io",
        "offcenter.evaluation.runner",
    } <= set(CORE)
    assert "offcenter.viz.curves" in VIZ
    assert _layer("offcenter.app.urlstate") == "app"


def test_the_static_check_sees_imports_inside_functions(tmp_path, monkeypatch):
    bad = tmp_path / "offcenter" / "measures" / "bad.py"
    bad.parent.mkdir(parents=True)
    bad.write_text("def f():\n    from ..viz import curves\n    import plotly.express\n")
    monkeypatch.setitem(MODULES, "offcenter.measures.bad", bad)
    names = [n for _, n in imported_names("offcenter.measures.bad")]
    assert "offcenter.viz.curves" in names and "plotly.express" in names


@pytest.mark.parametrize("module", CORE + VIZ)
def test_static_imports_respect_the_layers(module):
    forbidden = FORBIDDEN[_layer(module)]
    bad = [
        f"line {line}: {name}"
        for line, name in imported_names(module)
        if any(_is_under(name, f) for f in forbidden)
    ]
    assert not bad, f"{module} ({_layer(module)} layer) imports {', '.join(bad)}"


_PROBE = textwrap.dedent(
    """
    import importlib, importlib.abc, json, sys, traceback

    BLOCKED = {blocked!r}
    attempts = []

    class Blocker(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                attempts.append(name)
                raise ImportError(f"{{name}} is blocked: the core must work without it")
            return None

    sys.meta_path.insert(0, Blocker())
    results = {{}}

    def record(key, action):
        del attempts[:]
        try:
            action()
            results[key] = {{"ok": True, "attempts": list(attempts)}}
        except BaseException:
            results[key] = {{"ok": False, "attempts": list(attempts),
                            "error": traceback.format_exc(limit=-3)}}

    for name in {modules!r}:
        record(name, lambda name=name: importlib.import_module(name))

    def fit():
        import offcenter as oc
        from offcenter.data.datasets import load
        from offcenter.evaluation.runner import evaluate
        df = load("edible")
        X, y = df.drop(columns="edible"), df["edible"]
        clf = oc.TreeClassifier(measure="shannon", theta="prior", max_depth=3).fit(X, y)
        assert clf.predict(X).shape == (16,) and len(clf.tree_) > 1
        assert len(clf.candidates(0)) == 3
        oc.TreeClassifier.from_json(clf.to_json())
        oc.ForestClassifier(n_estimators=3, random_state=0).fit(X, y).predict(X)
        res = evaluate(X, y, ["shannon", "oc_shannon"], n_splits=2, n_repeats=1,
                       tree_params={{"max_depth": 2}})
        assert len(res.folds) == 4

    record("fit", fit)
    results["loaded"] = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
    print(json.dumps(results))
    """
)


@pytest.fixture(scope="module")
def probe() -> dict:
    """One run of the probe in a fresh interpreter with streamlit and plotly blocked."""
    code = _PROBE.format(blocked=set(APP_ONLY), modules=CORE)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
    }
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, timeout=600
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_without_streamlit_and_plotly(probe, module):
    res = probe[module]
    assert res["ok"], f"import {module} failed with streamlit and plotly blocked:\n{res['error']}"
    assert not res["attempts"], f"import {module} tried to import {res['attempts']}"


def test_a_tree_fits_without_streamlit_and_plotly(probe):
    res = probe["fit"]
    assert res["ok"], res.get("error")
    assert not res["attempts"], f"fitting tried to import {res['attempts']}"
    assert probe["loaded"] == []
