"""The ``offcenter-app`` console script: the app started from an installed wheel.

The wheel carries the repository's top-level ``app.py`` and ``pages/`` (and the study results
that the Compare measures page reads) as the package ``offcenter_app``: pyproject.toml maps
that package to the repository root, so each page has one copy, in ``pages/``. From a checkout
(``pip install -e .``) ``offcenter_app`` is the repository itself.

    offcenter-app                        # streamlit run <offcenter_app>/app.py
    offcenter-app --server.port 8600     # any option of ``streamlit run``
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import streamlit.web.cli as stcli

__all__ = ["app_dir", "main"]


def app_dir() -> Path:
    """The directory holding ``app.py`` and ``pages/``: the installed ``offcenter_app``, else
    the repository root beside the package (a checkout without install).

    Raises
    ------
    FileNotFoundError
        Neither holds them.
    """
    candidates = []
    spec = importlib.util.find_spec("offcenter_app")
    if spec is not None and spec.submodule_search_locations:
        candidates += [Path(p) for p in spec.submodule_search_locations]
    candidates.append(Path(__file__).resolve().parents[2])
    for d in candidates:
        if (d / "app.py").is_file() and (d / "pages").is_dir():
            return d
    raise FileNotFoundError(
        "the app's app.py and pages/ were not found (looked in "
        f"{', '.join(map(str, candidates))}): reinstall offcenter with its app extra, "
        'pip install "offcenter[app]".'
    )


def main(argv: list[str] | None = None) -> int:
    """Run ``streamlit run app.py`` with the given options (default: the command line's)."""
    args = sys.argv[1:] if argv is None else list(argv)
    d = app_dir()
    study = d / "docs" / "imbalanced_study_folds.csv.gz"
    if study.is_file():
        os.environ.setdefault("OFFCENTER_STUDY_CSV", str(study))
    sys.argv = ["streamlit", "run", str(d / "app.py"), *args]
    return stcli.main()
