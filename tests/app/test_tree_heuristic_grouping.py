"""AppTest of the Tree page when a two-group split was searched by a heuristic (more values at a
node than the exact search takes, three classes): the page grows the tree, with no traceback,
and says which feature's grouping may not be the best."""

import io

import numpy as np
import pandas as pd

from offcenter.tree.categorical import ENUMERATION_CAP
from tests.app.test_tree_page import run, texts, upload


def _file(n=400, levels=ENUMERATION_CAP + 4, seed=0) -> bytes:
    rng = np.random.default_rng(seed)
    code = rng.integers(0, levels, n)
    code[:levels] = np.arange(levels)
    shift = rng.normal(size=levels)
    z = shift[code] + rng.normal(0, 0.5, n)
    df = pd.DataFrame({"shop": [f"S{c:02d}" for c in code], "size": rng.normal(0, 1, n)})
    df["class"] = np.array(["low", "mid", "high"])[np.digitize(z, [-0.5, 0.5])]
    out = io.StringIO()
    df.to_csv(out, index=False)
    return out.getvalue().encode()


def test_a_heuristic_grouping_is_said_on_the_page():
    at = upload(run(), "shops.csv", _file())
    assert not at.exception
    assert "searched by a heuristic" not in texts(at)  # one branch per value: nothing to search
    at.radio(key="tr_categorical").set_value("binary")
    at.button(key="tr_grow").click()
    at = run(at)
    assert not at.exception
    shown = texts(at)
    assert "searched by a heuristic" in shown and "shop" in shown
