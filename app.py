"""offcenter: the app's entry point (streamlit run app.py).

It routes every run through :func:`st.navigation` (see :mod:`offcenter.app.navigation`): the home
page is ``pages/0_Home.py``, titled "Home"; the other pages are the files of ``pages/``.
"""

from offcenter.app.navigation import run

run()
