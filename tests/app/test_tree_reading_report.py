"""AppTest: the Tree page says what reading an uploaded CSV did (missing cells per column, the
markers read as missing, the decimal separator) and leaves constant columns out of the features
by default, with the reason; user text in these notes is shown as typed, never as markdown."""

import re
from pathlib import Path

from tests.conftest import run_app

ROOT = Path(__file__).resolve().parents[2]
TREE = str(ROOT / "pages" / "3_Tree.py")
COMPARE = str(ROOT / "pages" / "4_Compare_measures.py")

NASTY = "**b**[x](https://e.example)"


def csv_bytes():
    rows = ["w;" + NASTY + ";site;k;y"]
    for i in range(40):
        w = f"{i % 7},{i % 4}"  # a decimal comma
        b = ["?", "", "NA", "3", "4"][i % 5]
        rows.append(f"{w};{b};Lyon;{i % 3};{'pq'[i % 2]}")
    return ("\n".join(rows) + "\n").encode()


def upload(page=TREE, key="tr_file"):
    at = run_app(page=page)
    at.file_uploader(key=key).set_value(("lab.csv", csv_bytes(), "text/csv"))
    return run_app(at)


def captions(at):
    return [c.value for c in at.caption]


def test_the_reading_notes_are_shown_escaped():
    at = upload()
    assert not at.exception and not at.error
    notes = [c for c in captions(at) if "missing cells" in c]
    assert len(notes) == 1, captions(at)
    note = re.sub(r"\\(.)", r"\1", notes[0])  # as read on the screen (escapes removed)
    # 24 of 40 cells of the second column were markers: 8 "?", 8 empty, 8 "NA"
    assert "24 missing cells in 1 of 5 columns" in note
    assert "empty (8 cells)" in note and "“?” (8 cells)" in note and "“NA” (8 cells)" in note
    assert "Decimal separator: comma" in note and "“w”" in note
    # the column's name is escaped: no bold, no link once rendered
    assert NASTY not in notes[0]
    assert r"\*\*b\*\*\[x\]\(https" in notes[0]
    assert f"“{NASTY}” 24" in note


def test_a_constant_column_is_left_out_of_the_default_features_with_its_reason():
    at = upload()
    features = [m for m in at.multiselect if m.label == "Features"][0]
    assert "site" in features.options and "site" not in features.value
    assert "w" in features.value
    left = [d.value for d in at.dataframe if "reason" in d.value.columns]
    left += [t.value for t in at.table if "reason" in t.value.columns]
    assert left, "the table of the columns left out"
    reasons = dict(zip(left[0]["column"], left[0]["reason"]))
    assert reasons["site"] == "the same value (“Lyon”) in all 40 rows: it cannot split any node"


def test_compare_leaves_the_constant_column_out_and_shows_the_notes():
    at = upload(COMPARE, key="cm_file")
    assert not at.exception
    assert any("missing cells" in c for c in captions(at))
    left = [d.value for d in at.dataframe if "reason" in d.value.columns]
    left += [t.value for t in at.table if "reason" in t.value.columns]
    assert "site" in list(left[0]["column"])
