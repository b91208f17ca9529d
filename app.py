"""offcenter: home page of the app (streamlit run app.py)."""

import streamlit as st

st.set_page_config(page_title="offcenter: entropies for imbalanced classes", layout="wide")

st.title("offcenter")
st.write(
    "Explore the entropy measures that decision trees split on, and the off-centered entropy of "
    "Lallich, Lenca and Vaillant (2007), built for imbalanced classes."
)
