"""The measure controls shared by the "Two classes" and "q classes" pages.

Both pages draw the same block in their sidebar: the measures, how uncentered and off-centered
versions are drawn, the measures' parameters (a slider each, and a list of more values to draw
at once for a parameter with presets: the orders beta of Figure 2), and the consistent
asymmetric entropy with its sample size n. The widget keys are ``{prefix}measures``,
``{prefix}version``, ``{prefix}<parameter>`` (``beta``, ``rho``, a registered measure's own),
``{prefix}<parameter>s`` (``betas``), ``{prefix}consistent`` and ``{prefix}n``: fields that both
curve pages' URL schemas (:mod:`offcenter.app.curve_pages`) share, so the URL reads and writes
them; the parameters come from the registry (:mod:`offcenter.app.measure_params`). :func:`formulas_section` writes the formulas of the measures chosen, on both pages.
"""

from __future__ import annotations

import streamlit as st

from offcenter.app.curve_pages import VERSIONS
from offcenter.app.curve_text import formulas
from offcenter.app.measure_params import draw_sliders, preset_choices
from offcenter.measures.registry import MEASURES, parameters


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
    for p in parameters().values():
        draw_sliders((p,), prefix, st)
        if p.presets:
            st.multiselect(
                f"More values of {p.glyph} to draw at once",
                list(preset_choices(p)),
                key=f"{prefix}{p.name}s",
                format_func=lambda v, g=p.glyph: f"{g} = {v}",
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
        if item["notes"]:  # a reconstruction or a choice of the package (the registry's note)
            st.caption(item["notes"])
