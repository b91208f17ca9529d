"""Plotly figures and display text built from the package's data (the app's drawing layer).

Imports plotly; never streamlit. The core layers never import this package. Plotly belongs to
the ``app`` extra: without it, importing any module of this package says how to install it.
"""

try:
    import plotly  # noqa: F401
except ImportError as exc:  # pragma: no cover - tested in a subprocess without plotly
    raise ImportError(
        "offcenter's figures (offcenter.viz: plot_tree, the curves, the tree drawing) need "
        'Plotly, part of the app extra: pip install "offcenter[app]" (or pip install plotly).'
    ) from exc
