"""AppTest of the Tree page on a file with a many-valued categorical column: the page says how
many levels it has for its rows and offers to leave it out or to score with the gain ratio; the
drawing's labels stay short; the tree grows and is drawn in a few seconds."""

import io
import re
import time

import numpy as np
import pandas as pd

from offcenter.app.tree_page import many_valued
from tests.app.test_tree_page import run, texts, upload
from tests.app.tree_charts import tree_spec


def _file(n=600, levels=349, seed=0) -> bytes:
    rng = np.random.default_rng(seed)
    codes = [f"Z{i:04d}" for i in range(levels)]
    df = pd.DataFrame(
        {
            "code": rng.choice(codes, n),
            "age": rng.integers(20, 80, n),
            "bmi": rng.normal(28, 5, n).round(1),
        }
    )
    df["class"] = np.where(df["bmi"] + rng.normal(0, 4, n) > 30, "yes", "no")
    out = io.StringIO()
    df.to_csv(out, index=False)
    return out.getvalue().encode()


def test_many_valued_is_the_categorical_columns_with_few_rows_per_level():
    df = pd.read_csv(io.BytesIO(_file()))
    kinds = {"code": "categorical", "age": "numeric", "bmi": "numeric"}
    assert many_valued(df, ["code", "age", "bmi"], kinds) == {"code": (df["code"].nunique(), 600)}
    few = pd.DataFrame({"c": list("abcdefghij") * 100})
    assert many_valued(few, ["c"], {"c": "categorical"}) == {}  # 100 rows per level


def test_a_many_valued_column_is_noted_and_can_be_left_out_or_scored_by_gain_ratio():
    at = run()
    start = time.perf_counter()
    at = upload(at, "codes.csv", _file())
    took = time.perf_counter() - start
    assert not at.exception
    levels = pd.read_csv(io.BytesIO(_file()))["code"].nunique()
    assert f"has {levels:,} distinct values for 600 rows" in texts(at)
    # the drawing's labels stay short (no list of every code)
    tree = tree_spec(at)
    lines = next(t for t in tree["data"] if t.get("name") == "text")["text"]
    assert max(len(re.sub(r"<[^>]+>", "", t)) for t in lines) < 40  # markup aside
    assert took < 60  # grown and drawn (AppTest on a loaded 2-core machine: generous)
    at.button(key="tr_many_ratio_code").click()
    at = run(at)
    assert at.selectbox(key="tr_score").value == "ratio"
    at.button(key="tr_many_out_code").click()
    at = run(at)
    feats = [m for m in at.multiselect if m.label == "Features"][0]
    assert "code" not in feats.value
    assert "distinct values for 600 rows" not in texts(at)
