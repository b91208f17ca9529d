"""Optional dependencies: the core imports and fits without baycomp, Plotly or Streamlit, and
each of the parts that need one says how to install it (a subprocess where the module cannot
be imported: ``sys.modules[name] = None``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run_without(modules: list[str], code: str) -> subprocess.CompletedProcess:
    prelude = "import sys\n" + "".join(f"sys.modules[{m!r}] = None\n" for m in modules)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", prelude + code],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env=env,
    )


def test_core_without_baycomp_plotly_streamlit():
    out = _run_without(
        ["baycomp", "plotly", "streamlit", "matplotlib"],
        "import offcenter as oc\n"
        "from offcenter.evaluation import statistics\n"
        "clf = oc.TreeClassifier(theta='prior').fit([[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1])\n"
        "print(clf.get_n_leaves(), 'baycomp' in sys.modules and sys.modules['baycomp'] is not None)\n",
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["2", "False"]


def test_bayesian_test_without_baycomp_says_how_to_install():
    out = _run_without(
        ["baycomp"],
        "from offcenter.evaluation.statistics import bayesian_signed_rank\n"
        "try:\n"
        "    bayesian_signed_rank([0.9, 0.8] * 5, [0.7, 0.6] * 5)\n"
        "except ImportError as exc:\n"
        "    print(exc)\n",
    )
    assert out.returncode == 0, out.stderr
    assert 'pip install "offcenter[stats]"' in out.stdout


@pytest.mark.parametrize(
    "module,missing,hint",
    [
        ("offcenter.viz.plot_tree", "plotly", 'pip install "offcenter[app]"'),
        ("offcenter.viz.curves", "plotly", 'pip install "offcenter[app]"'),
        ("offcenter.app.launch", "streamlit", 'pip install "offcenter[app]"'),
    ],
)
def test_plotting_and_app_without_the_app_extra_say_how_to_install(module, missing, hint):
    out = _run_without(
        [missing, f"{missing}.graph_objects"],
        f"try:\n    import {module}\nexcept ImportError as exc:\n    print('HINT', exc)\n",
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("HINT") and hint in out.stdout
    assert "No module named" not in out.stdout
