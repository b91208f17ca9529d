"""Streamlit-side helpers: URL state and page state schemas, shared page components.

Only the app (``app.py`` and ``pages/``) imports this package.
"""
