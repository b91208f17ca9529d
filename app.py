"""offcenter: the app's entry point (streamlit run app.py).

Every session's run executes this file as ``__main__``: it routes the run through
:func:`st.navigation` (see :mod:`offcenter.app.navigation`): the home page is
``pages/0_Home.py``, titled "Home"; the other pages are the files of ``pages/``.

``streamlit run app.py`` first imports it as the module ``app`` and finds ``app``, an
``st.App`` (Streamlit's ASGI mode): its lifespan (:func:`offcenter.ops.warmup.lifespan`) runs
every page once in the server's process before the server accepts a connection, so the server
answers its health check only once warm (docs/deploy.md).
"""

import streamlit as st

if __name__ == "__main__":  # a session's run (streamlit and AppTest run the script as __main__)
    from offcenter.app.navigation import run

    run()
else:  # imported by `streamlit run` to find the ASGI app
    from offcenter.ops.warmup import lifespan

    app = st.App(__file__, lifespan=lifespan)
