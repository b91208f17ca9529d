"""The measure controls shared by the "Two classes" and "q classes" pages.

Both pages draw the same block in their sidebar: the measures, how uncentered and off-centered
versions are drawn, the orders beta and rho, and the consistent asymmetric entropy with its
sample size n. The widget keys are ``{prefix}measures``, ``{prefix}version``, ``{prefix}beta``,
``{prefix}betas``, ``{prefix}rho``, ``{prefix}consistent`` and ``{prefix}n``: fields that both
curve pages' URL schemas (:mod:`offcenter.app.curve_pages`) share, so the URL reads and writes
them. :func:`formulas_section` writes the formulas of the measures chosen, on both pages.
"""

from __future__ import annotations

import streamlit as st

from offcenter.app.curve_pages import BETA_CHOICES, VERSIONS
from offcenter.app.curve_text import formulas
from offcenter.measures.registry import MEASURES


def measure_controls(prefix: str) -> None:
    """Draw the measure controls where the caller is (``with st.sidebar:``).

    The values are read from ``st.session_state`` (or the page's URL state) afterwards.
    """
    S = st.session_state
    st.multiselect(
        "Measures", list(MEASURES), format_func=lambda n: MEASURES[n].label, key=prefix + "measures"
    )
    st.radio(
        "Uncentered and off-centered versions",
        list(VERSIONS),
        format_func=VERSIONS.get,
        key=prefix + "version",
    )
    b = MEASURES["daroczy"].params[0]
    st.slider(
        "β: order of the generalized entropy",
        b.ui_low,
        b.ui_high,
        step=b.ui_step,
        key=prefix + "beta",
        help=b.description,
    )
    st.multiselect(
        "More orders β to draw at once",
        list(BETA_CHOICES),
        key=prefix + "betas",
        format_func=lambda v: f"β = {v}",
    )
    r = MEASURES["rank_diversity"].params[0]
    st.slider(
        "ρ: order of the rank diversity",
        r.ui_low,
        r.ui_high,
        step=r.ui_step,
        key=prefix + "rho",
        help=r.description,
    )
    st.checkbox(
        "Also draw the consistent asymmetric entropy (sample size n)", key=prefix + "consistent"
    )
    st.slider(
        "n: sample size of the consistent asymmetric entropy",
        1,
        500,
        step=1,
        key=prefix + "n",
        disabled=not S[prefix + "consistent"],
    )


def formulas_section(specs) -> None:
    """The LaTeX formula, label and reference of each measure drawn
    (:func:`offcenter.app.curve_text.formulas`), where the caller is."""
    for item in formulas(specs):
        st.markdown(f"**{item['label']}**")
        st.latex(item["latex"])
        st.caption(f"Reference: {item['reference']}")
        if item["notes"] and item["name"] == "rank_diversity":
            st.caption(item["notes"])
