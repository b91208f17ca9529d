"""Plotly figures and display text built from the package's data (the app's drawing layer).

Imports plotly; never streamlit. The core layers never import this package.
"""
