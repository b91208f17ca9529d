"""AppTest of the shared data picker: bad uploads and unusable targets are refused with a
visible message and the previous data and tree stay; the data chosen or uploaded on the Tree
page is the one the Compare page opens on, and the other way round."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import run_app

ROOT = Path(__file__).resolve().parents[2]
TREE = str(ROOT / "pages" / "3_Tree.py")
COMPARE_PAGE = str(ROOT / "pages" / "4_Compare_measures.py")
BAD = ROOT / "tests" / "data" / "bad_csv"


def run(at=None, page=TREE, **query):
    return run_app(at, page=page, query=query)


def upload(at, name, data, key="tr_file"):
    at.file_uploader(key=key).set_value((name, data, "text/csv"))
    return run(at)


def node_options(at):
    sel = [s for s in at.selectbox if s.key and s.key.startswith("tr_node_select")][0]
    return list(sel.options)


def target_box(at, prefix="tr_"):
    return [s for s in at.selectbox if s.key and s.key.startswith(prefix + "target_")][0]


def csv_with_classes(n_rows=1000, n_classes=500, extra_class=True):
    """Columns x (numeric), group (3 values) and label (n_classes values) in that order, or
    with the 3-value column last (extra_class=False puts label last)."""
    rows = [(i * 0.37 % 11, ["a", "b", "c"][i % 3], f"c{i % n_classes}") for i in range(n_rows)]
    if extra_class:
        head = "x,label,group\n"
        body = "".join(f"{x:.2f},{lab},{g}\n" for x, g, lab in rows)
    else:
        head = "x,group,label\n"
        body = "".join(f"{x:.2f},{g},{lab}\n" for x, g, lab in rows)
    return (head + body).encode()


def test_a_500_class_upload_is_refused_and_the_previous_data_and_tree_stay():
    at = run()
    before = node_options(at)
    at = upload(at, "many.csv", csv_with_classes(extra_class=False))
    assert any("500 different values" in e.value and "not loaded" in e.value for e in at.error)
    assert at.selectbox(key="tr_data").value == "edible"
    assert node_options(at) == before
    # the file can still be used with another class column
    assert at.selectbox(key="tr_pending_target").options == ["group"]
    at.button(key="tr_pending_use").click()
    at = run(at)
    assert at.selectbox(key="tr_data").value == "upload"
    assert target_box(at).value == "group"
    assert not at.error


def test_a_500_class_target_chosen_is_refused_and_the_tree_stays():
    at = upload(run(), "mixed.csv", csv_with_classes(extra_class=True))
    assert target_box(at).value == "group"
    before = node_options(at)
    target_box(at).set_value("label")
    at = run(at)
    assert any("500 different values" in e.value for e in at.error)
    assert any("previous target" in e.value for e in at.error)
    assert target_box(at).value == "group"
    assert node_options(at) == before
    at = run(at)  # the refusal is not undone by the next rerun
    assert target_box(at).value == "group"


def test_a_file_over_the_limit_is_refused_visibly(monkeypatch):
    import offcenter.data.csv_io as csv_io

    monkeypatch.setattr(csv_io, "MAX_UPLOAD_BYTES", 1000)
    at = run()  # edible: a bundled file under 1,000 bytes
    before = node_options(at)
    at = upload(at, "big.csv", b"a,b\n" + b"1,x\n2,y\n" * 300)
    errors = [e.value for e in at.error]
    assert any("not loaded" in e and "too large" in e for e in errors), errors
    assert at.selectbox(key="tr_data").value == "edible"
    assert node_options(at) == before


@pytest.mark.parametrize(
    "name, words",
    [
        ("binary_png.csv", "not loaded"),
        ("undecodable.csv", "not loaded"),
        ("ragged_rows.csv", "Ragged rows"),
        ("empty.csv", "empty"),
        ("one_column.csv", "only one column"),
    ],
)
def test_unreadable_files_keep_an_earlier_upload(name, words):
    at = upload(run(), "good.csv", (BAD / "good" / "comma_utf8.csv").read_bytes())
    before = node_options(at)
    at = upload(at, name, (BAD / name).read_bytes())
    assert any(words in e.value for e in at.error), [e.value for e in at.error]
    assert at.selectbox(key="tr_data").value == "upload"
    assert "Uploaded: good.csv" in at.selectbox(key="tr_data").format_func("upload")
    assert node_options(at) == before


def test_an_upload_on_tree_is_the_data_compare_opens_on_and_back():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("pages/3_Tree.py")
    at = run(at)
    at = upload(at, "mine.csv", (BAD / "good" / "comma_utf8.csv").read_bytes())
    assert at.selectbox(key="tr_data").value == "upload"
    at.switch_page("pages/4_Compare_measures.py")
    at = run(at)
    assert at.selectbox(key="cm_data").value == "upload"
    assert at.selectbox(key="cm_data").format_func("upload") == "Uploaded: mine.csv"
    # a bundled set chosen on Compare is the one Tree opens on
    at.selectbox(key="cm_data").set_value("iris")
    at = run(at)
    at.switch_page("pages/3_Tree.py")
    at = run(at)
    assert at.selectbox(key="tr_data").value == "iris"
    # and an upload on Compare is offered on Tree
    at.switch_page("pages/4_Compare_measures.py")
    at = run(at)
    at = upload(at, "second.csv", (BAD / "good" / "tab_utf16.csv").read_bytes(), key="cm_file")
    at.switch_page("pages/3_Tree.py")
    at = run(at)
    assert at.selectbox(key="tr_data").value == "upload"
    assert at.selectbox(key="tr_data").format_func("upload") == "Uploaded: second.csv"


def _in_an_expander(at, key):
    """Whether the widget of this key is drawn inside an expander."""

    def walk(node):
        if getattr(node, "key", None) == key:
            return True
        return any(walk(child) for child in getattr(node, "children", {}).values())

    return any(walk(e) for e in at.expander)


@pytest.mark.parametrize("page, prefix", [(TREE, "tr_"), (COMPARE_PAGE, "cm_")])
def test_the_refused_files_picker_sits_by_its_message_and_is_gone_after_the_load(page, prefix):
    at = run(page=page)
    at = upload(at, "many.csv", csv_with_classes(extra_class=False), key=prefix + "file")
    message = [e for e in at.error if "not loaded" in e.value][0]
    assert "just below" in message.value
    picker = at.selectbox(key=prefix + "pending_target")
    assert picker.options == ["group"]
    # not in the upload box's expander (collapsed on the Compare page): beside the message
    assert not _in_an_expander(at, prefix + "pending_target")
    assert not _in_an_expander(at, prefix + "pending_use")
    at.button(key=prefix + "pending_use").click()
    at = run(at, page=page)
    assert at.selectbox(key=prefix + "data").value == "upload"
    assert not at.error
    keys = {w.key for w in (*at.selectbox, *at.button)}
    assert prefix + "pending_target" not in keys and prefix + "pending_use" not in keys


def refused_for_its_class() -> bytes:
    """Its last column has 300 values (not a class); "w" and "group" can be the class."""
    return (
        "w,group,label\n" + "".join(f"{i % 7},{'pq'[i % 2]},c{i}\n" for i in range(300))
    ).encode()


@pytest.mark.parametrize("page, prefix", [(TREE, "tr_"), (COMPARE_PAGE, "cm_")])
@pytest.mark.parametrize("file", ["good", "refused for its class"])
def test_an_upload_read_while_a_rerun_is_asked_for_is_read_again(monkeypatch, page, prefix, file):
    """A rerun asked for while the file is read (a student's click, the browser's report of
    the window's width) stops the run at its next Streamlit call, a session-state write
    included: the run that follows, with the file still in the uploader, reads it again (it
    was skipped as already read: no message, no data, the chip showing the file)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx
    from streamlit.runtime.scriptrunner_utils.script_requests import RerunData

    import offcenter.app.data_picker as data_picker
    from offcenter.data import csv_io

    reads = []

    def read_then_rerun(data, name):
        reads.append(name)
        if len(reads) == 1:  # as the browser's rerun request arriving during the read
            ctx = get_script_run_ctx()
            ctx.script_requests.request_rerun(
                RerunData(query_string=ctx.query_string, page_script_hash=ctx.page_script_hash)
            )
        return csv_io.read_upload(data, name)

    at = run(page=page)
    monkeypatch.setattr(data_picker, "read_upload", read_then_rerun)
    data = (
        (BAD / "good" / "comma_utf8.csv").read_bytes()
        if file == "good"
        else refused_for_its_class()
    )
    at = upload(at, "mine.csv", data, key=prefix + "file")
    if file == "good":
        assert at.selectbox(key=prefix + "data").value == "upload"
        assert not at.error
    else:
        assert any("not loaded" in e.value for e in at.error), [e.value for e in at.error]
        assert at.selectbox(key=prefix + "pending_target").options == ["w", "group"]
    assert len(reads) == 2  # stopped once, read again
    at = run(at, page=page)  # and not again
    assert len(reads) == 2
