"""Streamlit-side helpers: URL state and page state schemas, shared page components.

Only the app (``app.py`` and ``pages/``) imports this package.
"""

try:
    import streamlit  # noqa: F401
except ImportError as exc:  # pragma: no cover - tested in a subprocess without streamlit
    raise ImportError(
        "the offcenter app needs Streamlit and Plotly, the app extra: "
        'pip install "offcenter[app]" (from the repository: pip install -r requirements.txt -e .).'
    ) from exc

from offcenter.measures.custom import load_plugins as _load_plugins  # noqa: E402

# measures of installed packages (entry point group "offcenter.measures") on every page
_load_plugins()
