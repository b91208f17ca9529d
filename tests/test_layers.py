"""The import layers (docs/architecture.md): the core works without Streamlit and Plotly.

The contracts live in pyproject.toml (``[tool.importlinter]``) and a maintained tool checks them:
``lint-imports`` (import-linter, on grimp's static graph of every import statement, inside
functions too). The tests here

- run ``lint-imports`` (so that CI runs it) and show that each contract catches what it is for:
  a new subpackage importing streamlit, a layer imported from below, a cycle, plotly in the core,
  the core importing a study (``offcenter.studies``: the KEEL study's protocol and wording),
  operations importing the library;
- check that tests/ is laid out by layer (one folder per subpackage, beside the tiers);
- add what a static graph cannot see: ``importlib.import_module("offcenter.viz...")`` and
  ``__import__("...")`` with a literal name are checked against the same layer order (read from
  the layers contract), and a dynamic import whose name is not a literal is refused in the core;
- Dynamic: a fresh interpreter in which streamlit and plotly cannot be imported imports every
  core module, then fits a small tree (and a forest, and a two-fold evaluation). One test per
  module reads its line of that run.

Core = every module of ``offcenter`` outside ``offcenter.viz``, ``offcenter.app`` and ``offcenter.ops``: a new
subpackage is core until the layers contract places it.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import offcenter

if sys.version_info >= (3, 11):
    import tomllib
else:  # pytest depends on tomli before 3.11
    import tomli as tomllib

PACKAGE_DIR = Path(offcenter.__file__).resolve().parent
ROOT = PACKAGE_DIR.parent
APP_ONLY = ("streamlit", "plotly")
CONTRACTS = {
    c["id"]: c
    for c in tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["importlinter"][
        "contracts"
    ]
}
#: The layers, top first; "measures | data" is one layer of two independent subpackages.
LAYERS = [[part.strip() for part in layer.split("|")] for layer in CONTRACTS["layers"]["layers"]]
LAYER_OF = {sub: i for i, layer in enumerate(LAYERS) for sub in layer}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _layer(module: str) -> str:
    """``viz``, ``app``, ``ops`` or ``core`` for a module of the package: everything else is core."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ("viz", "app", "ops") else "core"


MODULES = {_module_name(p): p for p in sorted(PACKAGE_DIR.rglob("*.py"))}
CORE = sorted(m for m in MODULES if _layer(m) == "core")
VIZ = sorted(m for m in MODULES if _layer(m) == "viz")

#: What each layer must never import (a name and everything below it).
FORBIDDEN = {
    "core": ("streamlit", "plotly", "tornado", "offcenter.viz", "offcenter.app"),
    "viz": ("streamlit", "tornado", "offcenter.app"),
}
#: Core modules allowed a dynamic import of a computed name, and why.
DYNAMIC_ALLOWED = {
    # plugins named by the user (entry points, --plugin, OFFCENTER_PLUGINS); it refuses any
    # offcenter module, so the layers stay whole
    "offcenter.measures.custom": "user plugins",
}
_DYNAMIC = {("importlib", "import_module"), (None, "import_module"), (None, "__import__")}


def _resolve(name: str, package: str, level: int) -> str:
    if not level:
        return name
    anchor = package.split(".")[: len(package.split(".")) - level + 1]
    return ".".join([*anchor, name] if name else anchor)


def _dynamic_call(node: ast.Call) -> bool:
    f = node.func
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
        return (f.value.id, f.attr) in _DYNAMIC
    return isinstance(f, ast.Name) and (None, f.id) in _DYNAMIC


def imported_names(module: str) -> list[tuple[int, str]]:
    """``(line, module name)`` of every import in ``module``'s source, relative ones resolved.

    ``from a import b`` gives both ``a`` and ``a.b`` (b may be a submodule).
    ``importlib.import_module("a.b")``, ``import_module(".b", package)`` and
    ``__import__("a")`` give their literal name; a name that is not a literal gives
    ``"<dynamic>"``.
    """
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(node.module or "", package, node.level)
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
        elif isinstance(node, ast.Call) and _dynamic_call(node) and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                name = arg.value
                level = len(name) - len(name.lstrip("."))
                anchor = package  # import_module(".x", __package__) and the like
                if len(node.args) > 1 and isinstance(node.args[1], ast.Constant):
                    anchor = str(node.args[1].value)
                found.append((node.lineno, _resolve(name.lstrip("."), anchor, level)))
            else:
                found.append((node.lineno, "<dynamic>"))
    return found


def _is_under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _sub(name: str) -> str | None:
    """The subpackage of ``offcenter`` that ``name`` is in (None: the root or outside)."""
    parts = name.split(".")
    return parts[1] if parts[0] == "offcenter" and len(parts) > 1 else None


def violations(module: str) -> list[str]:
    """Every import of ``module`` (static or a literal dynamic one) its layer forbids."""
    forbidden = FORBIDDEN.get(_layer(module), ())
    here = _sub(module)
    bad = []
    for line, name in imported_names(module):
        if name == "<dynamic>":
            if _layer(module) == "core" and module not in DYNAMIC_ALLOWED:
                bad.append(f"line {line}: a dynamic import whose name is not a literal")
            continue
        if any(_is_under(name, f) for f in forbidden):
            bad.append(f"line {line}: {name}")
            continue
        there = _sub(name)
        if here is None or there is None or here == there:
            continue
        if there not in LAYER_OF:
            continue  # a name from the package root (``from offcenter import x``)
        if here in LAYER_OF and LAYER_OF[there] <= LAYER_OF[here]:
            bad.append(f"line {line}: {name} (layer {there} is not below {here})")
    return bad


def test_the_layers_are_found():
    assert {
        "offcenter",
        "offcenter.measures.entropies",
        "offcenter.tree",
        "offcenter.ensemble.forest",
        "offcenter.data.csv_io",
        "offcenter.evaluation",
        "offcenter.evaluation.benchmark",
        "offcenter.studies.keel.protocol",
    } <= set(CORE)
    assert "offcenter.viz.curves" in VIZ
    assert _layer("offcenter.app.urlstate") == "app"
    assert _layer("offcenter.brand_new.module") == "core"
    assert LAYERS[:3] == [["app"], ["ops"], ["viz"]] and LAYERS[-1] == ["measures", "data"]


def test_the_static_check_sees_imports_inside_functions(tmp_path, monkeypatch):
    bad = tmp_path / "offcenter" / "measures" / "bad.py"
    bad.parent.mkdir(parents=True)
    bad.write_text("def f():\n    from ..viz import curves\n    import plotly.express\n")
    monkeypatch.setitem(MODULES, "offcenter.measures.bad", bad)
    names = [n for _, n in imported_names("offcenter.measures.bad")]
    assert "offcenter.viz.curves" in names and "plotly.express" in names


@pytest.mark.parametrize(
    "source, expected",
    [
        ('import importlib\nimportlib.import_module("offcenter.viz")\n', "offcenter.viz"),
        ('from importlib import import_module\nimport_module(".viz.curves", "offcenter")\n', ""),
        ('m = __import__("plotly.express")\n', "plotly.express"),
        ('import importlib\nimportlib.import_module("..tree.search", __package__)\n', ""),
    ],
)
def test_string_imports_are_seen_and_checked(tmp_path, monkeypatch, source, expected):
    # issue #23: an importlib import of offcenter.viz from measures/curves.py passed every test
    bad = tmp_path / "curves.py"
    bad.write_text(source)
    monkeypatch.setitem(MODULES, "offcenter.measures.curves", bad)
    found = violations("offcenter.measures.curves")
    assert found, f"{source!r} was not caught"
    assert expected in found[0]


def test_a_dynamic_import_in_the_core_needs_a_literal_name(tmp_path, monkeypatch):
    bad = tmp_path / "curves.py"
    bad.write_text('import importlib\nNAME = "offcenter." + "viz"\nimportlib.import_module(NAME)\n')
    monkeypatch.setitem(MODULES, "offcenter.measures.curves", bad)
    assert violations("offcenter.measures.curves") == [
        "line 3: a dynamic import whose name is not a literal"
    ]


def test_a_new_subpackage_is_core_and_checked(tmp_path, monkeypatch):
    # issue #23: a new subpackage importing streamlit passed every test
    new = tmp_path / "__init__.py"
    new.write_text("import streamlit as st\n")
    monkeypatch.setitem(MODULES, "offcenter.brand_new", new)
    assert violations("offcenter.brand_new") == ["line 1: streamlit"]


def test_the_order_inside_the_core_is_checked(tmp_path, monkeypatch):
    bad = tmp_path / "entropies.py"
    bad.write_text("def f():\n    from offcenter.tree import nodes\n    import offcenter.data\n")
    monkeypatch.setitem(MODULES, "offcenter.measures.entropies", bad)
    assert violations("offcenter.measures.entropies") == [
        "line 2: offcenter.tree (layer tree is not below measures)",
        "line 2: offcenter.tree.nodes (layer tree is not below measures)",
        "line 3: offcenter.data (layer data is not below measures)",
    ]


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_respect_the_layers(module):
    """Static and literal dynamic imports, in every module (app's are checked for cycles and
    order by lint-imports; here they have nothing forbidden)."""
    bad = violations(module)
    assert not bad, f"{module} ({_layer(module)} layer) imports {', '.join(bad)}"


# ---------------------------------------------------------------------------- import-linter
def _lint_imports(cwd: Path) -> subprocess.CompletedProcess:
    exe = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    env = {**os.environ, "PYTHONPATH": str(cwd)}
    return subprocess.run(
        [exe, "--no-cache"], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


def test_lint_imports_keeps_every_contract():
    out = _lint_imports(ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 broken" in out.stdout


def test_every_subpackage_is_in_a_layer():
    subpackages = {p.parent.name for p in PACKAGE_DIR.glob("*/__init__.py")}
    modules = {p.stem for p in PACKAGE_DIR.glob("*.py") if p.stem != "__init__"}
    assert subpackages | modules == set(LAYER_OF), (
        "every subpackage and top-level module of offcenter is placed in the layers contract "
        "of pyproject.toml (and only those)"
    )


#: Folders of tests/ that are tiers, not layers (tests/conftest.py marks everything in them).
TIER_FOLDERS = {"browser", "deploy"}
#: The only test modules at tests/ itself: what checks the package across its layers.
CROSS_CUTTING = {
    "test_docs.py",
    "test_layers.py",
    "test_notebooks.py",
    "test_optional_deps.py",
    "test_xdist_order.py",
}


def test_the_tests_are_laid_out_by_layer():
    """tests/<subpackage>/ holds the tests of offcenter/<subpackage>/, one folder per subpackage
    (tests/studies/ the KEEL study's), beside the tiers' folders; at tests/ itself only the
    cross-cutting checks."""
    tests = ROOT / "tests"
    # not layers: bytecode, and the screenshots and server logs the browser tests write
    # (tests/artifacts/, ignored by git; made during a CI run before this test may run)
    folders = {p.name for p in tests.iterdir() if p.is_dir()} - {"__pycache__", "artifacts"}
    subpackages = {p.parent.name for p in PACKAGE_DIR.glob("*/__init__.py")}
    assert folders - TIER_FOLDERS == subpackages, (
        "tests/ has one folder per subpackage of offcenter (and the tiers "
        f"{sorted(TIER_FOLDERS)}): extra {sorted(folders - TIER_FOLDERS - subpackages)}, "
        f"missing {sorted(subpackages - folders)}"
    )
    assert {p.name for p in tests.glob("test_*.py")} == CROSS_CUTTING


#: Each mutation of a copy of the package, and the contract lint-imports must find broken.
MUTATIONS = {
    "new subpackage importing streamlit": (
        {"offcenter/brand_new/__init__.py": "import streamlit\n"},
        "Layers",
    ),
    "a layer imported from below, inside a function": (
        {"offcenter/measures/_bad.py": "def f():\n    from offcenter.tree import nodes\n"},
        "Layers",
    ),
    "data importing measures (independent siblings)": (
        {"offcenter/data/_bad.py": "import offcenter.measures\n"},
        "Layers",
    ),
    "viz importing app": ({"offcenter/viz/_bad.py": "import offcenter.app.urlstate\n"}, "Layers"),
    "plotly in the core": (
        {"offcenter/tree/_bad.py": "import plotly.graph_objects\n"},
        "never imports Streamlit, Plotly",
    ),
    "streamlit in viz": ({"offcenter/viz/_bad.py": "import streamlit\n"}, "offcenter.viz draws"),
    "operations importing the tree": (
        {"offcenter/ops/_bad.py": "from offcenter.tree import params\n"},
        "Operations (offcenter.ops",
    ),
    "the core importing the KEEL study, inside a function": (
        {
            "offcenter/evaluation/_bad.py": "def f():\n    from offcenter.studies.keel import protocol\n"
        },
        "Studies (offcenter.studies",
    ),
    "a cycle between two modules": (
        {
            "offcenter/data/_a.py": "from offcenter.data import _b\n",
            "offcenter/data/_b.py": "def f():\n    from offcenter.data import _a\n",
        },
        "No import cycle",
    ),
}


@pytest.fixture(scope="module")
def package_copy(tmp_path_factory):
    base = tmp_path_factory.mktemp("layers")
    shutil.copytree(PACKAGE_DIR, base / "offcenter", ignore=shutil.ignore_patterns("*.csv"))
    shutil.copy(ROOT / "pyproject.toml", base / "pyproject.toml")
    return base


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_lint_imports_catches(package_copy, mutation):
    files, contract = MUTATIONS[mutation]
    try:
        for rel, text in files.items():
            (package_copy / rel).parent.mkdir(parents=True, exist_ok=True)
            (package_copy / rel).write_text(text)
        out = _lint_imports(package_copy)
    finally:
        for rel in files:
            (package_copy / rel).unlink()
        new = package_copy / "offcenter" / "brand_new"
        if new.exists():
            shutil.rmtree(new)
    assert out.returncode != 0, out.stdout
    assert "Broken contracts" in out.stdout, out.stdout + out.stderr
    assert contract in out.stdout.split("Broken contracts")[1], out.stdout


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
        from offcenter.evaluation.runner import cross_validate_settings
        df = load("edible")
        X, y = df.drop(columns="edible"), df["edible"]
        clf = oc.TreeClassifier(measure="shannon", theta="prior", max_depth=3).fit(X, y)
        assert clf.predict(X).shape == (16,) and len(clf.tree_) > 1
        assert len(clf.candidates(0)) == 3
        oc.TreeClassifier.from_json(clf.to_json())
        oc.ForestClassifier(n_estimators=3, random_state=0).fit(X, y).predict(X)
        res = cross_validate_settings(X, y, ["shannon", "oc_shannon"], n_splits=2, n_repeats=1,
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
