"""Streamlit-side helpers: URL state and page state schemas, shared page components.

Only the app (``app.py`` and ``pages/``) imports this package.
"""

from offcenter.measures.custom import load_plugins as _load_plugins

# measures of installed packages (entry point group "offcenter.measures") on every page
_load_plugins()
