"""offcenter: the app's entry point (streamlit run app.py).

It names the pages and their addresses; the home page itself is pages/0_Home.py.
"""

import streamlit as st

st.set_page_config(page_title="offcenter: entropies for imbalanced classes", layout="wide")

PAGES = [
    st.Page("pages/0_Home.py", title="Home", icon=":material/home:", default=True),
    st.Page("pages/1_Two_classes.py", title="Two classes", icon=":material/show_chart:",
            url_path="Two_classes"),
    st.Page("pages/2_Q_classes.py", title="q classes", icon=":material/change_history:",
            url_path="Q_classes"),
    st.Page("pages/3_Tree.py", title="Tree", icon=":material/account_tree:", url_path="Tree"),
    st.Page("pages/4_Compare_measures.py", title="Compare measures",
            icon=":material/balance:", url_path="Compare_measures"),
]

st.navigation(PAGES).run()
