"""AppTest of pages/3_Tree.py: hand edits are part of the shared state. A link or a session
file restores the edited tree exactly, or says plainly what it cannot restore."""

from pathlib import Path

import pytest

from tests.conftest import run_app, shown

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "3_Tree.py")
GOOD = ROOT / "tests" / "data" / "bad_csv" / "good"


def run(at=None, **query):
    return run_app(at, page=PAGE, query=query)


def node_select(at):
    return [s for s in at.selectbox if s.key and s.key.startswith("tr_node_select")][0]


def query(at) -> dict:
    return {k: (v[-1] if isinstance(v, list) else v) for k, v in at.query_params.items()}


def shape(at):
    """Node ids, parents, split features and thresholds/groups of the tree shown."""
    tree = at.session_state["tr_session"].current.tree_
    return [
        (
            n.id,
            n.parent,
            None if n.split is None else (n.split.feature, n.split.threshold, n.split.groups),
        )
        for n in tree.nodes
    ]


def edit(at, node, feature=None):
    """Select ``node``; split it on ``feature``, or make it a leaf when feature is None."""
    node_select(at).set_value(node)
    at = run(at)
    if feature is None:
        at.button(key="tr_leaf").click()
    else:
        at.selectbox(key="tr_force_feature").set_value(feature)
        at = run(at)
        at.button(key="tr_force").click()
    return run(at)


def edited_pima():
    at = run(data="pima", setting="gini", max_depth="3")
    at = edit(at, 1, "age")
    at = edit(at, 2, None)
    at = edit(at, 0, "bmi")
    assert at.session_state["tr_session"].edits_text() == (
        "split node 1 on age; leaf at node 2; split node 0 on bmi"
    )
    return at


def test_a_link_with_edits_restores_the_edited_tree_exactly():
    at = edited_pima()
    q = query(at)
    assert q["edits"] == "s1:age,l2,s0:bmi"
    again = run(**q)
    assert shape(again) == shape(at)
    assert again.session_state["tr_session"].edits_text() == (
        at.session_state["tr_session"].edits_text()
    )
    assert any("3 of 3 hand edit(s) replayed" in s.value for s in again.success)
    assert query(again)["edits"] == q["edits"]  # the link still holds them
    assert not again.button(key="tr_undo").disabled  # and they can be undone one by one


def test_a_link_with_target_features_and_overrides_restores_them():
    at = run(data="mutation")
    target = [s for s in at.selectbox if s.key and s.key.startswith("tr_target_")][0]
    target.set_value("mutation_4")
    at = run(at)
    feats = [m for m in at.multiselect if m.key and m.key.startswith("tr_features_")][0]
    feats.set_value(["mutation_1", "mutation_2", "cancer"])
    at = run(at)
    at = edit(at, 0, "mutation_2")
    q = query(at)
    assert q["target"] == "mutation_4" and q["features"] == "mutation_1,mutation_2,cancer"
    again = run(**q)
    t = [s for s in again.selectbox if s.key and s.key.startswith("tr_target_")][0]
    assert t.value == "mutation_4"
    f = [m for m in again.multiselect if m.key and m.key.startswith("tr_features_")][0]
    assert f.value == ["mutation_1", "mutation_2", "cancer"]
    assert shape(again) == shape(at)


def test_an_edit_that_no_longer_applies_is_named_in_a_warning():
    at = run(data="pima", max_depth="2", edits="s0:glucose,l99,s0:nope,q")
    warnings = " ".join(shown(w.value) for w in at.warning)
    assert "edit 4 ('q') is not readable" in warnings
    assert "Edit 2 of 3 (leaf at node 99) was not restored" in warnings
    assert "Edit 3 of 3 (split node 0 on nope) was not restored" in warnings
    assert any("1 of 3 hand edit(s) replayed" in s.value for s in at.success)
    assert at.session_state["tr_session"].edits_text() == "split node 0 on glucose"


def test_a_link_to_an_upload_says_upload_it_again_then_restores_on_the_same_file():
    data = (GOOD / "comma_utf8.csv").read_bytes()
    at = run()
    at.file_uploader(key="tr_file").set_value(("mine.csv", data, "text/csv"))
    at = run(at)
    first_feature = node_select(at).options[0].split(" on ")[-1]
    at = edit(at, 0, None)
    q = query(at)
    assert q["data"] == "upload" and q["upload_name"] == "mine.csv" and q["edits"] == "l0"
    # a new session: the file is not in the link
    again = run(**q)
    warnings = " ".join(shown(w.value) for w in again.warning)
    assert "refers to an uploaded file “mine.csv”" in warnings and "upload it again" in warnings
    assert again.selectbox(key="tr_data").value == "edible"
    # another file (the same name, one more row): said so, nothing applied
    other = run(**q)
    other.file_uploader(key="tr_file").set_value(
        ("mine.csv", data + b"Vert,Petit,oui\n", "text/csv")
    )
    other = run(other)
    assert any("not the one this link refers to" in shown(w.value) for w in other.warning)
    assert not other.session_state["tr_session"].edited
    # the same file: the edited tree is back
    again.file_uploader(key="tr_file").set_value(("mine.csv", data, "text/csv"))
    again = run(again)
    assert shape(again) == shape(at)
    assert again.session_state["tr_session"].edits_text() == "leaf at node 0"
    assert first_feature  # the tree before the edit had a split at its root


def test_a_session_file_restores_settings_and_edits():
    at = edited_pima()
    text = at.session_state["tr_session_json"]
    labels = [b.label for b in at.get("download_button")]
    assert "Download the session (JSON)" in labels
    fresh = run()  # another session, on the default data and measure
    fresh.file_uploader(key="tr_session_file").set_value(
        ("tree_session.json", text.encode(), "application/json")
    )
    fresh = run(fresh)
    assert fresh.selectbox(key="tr_data").value == "pima"
    assert fresh.selectbox(key="tr_setting").value == "gini"
    assert fresh.slider(key="tr_max_depth").value == 3
    assert shape(fresh) == shape(at)
    assert any("session file's tree is restored" in s.value for s in fresh.success)
    assert query(fresh)["edits"] == "s1:age,l2,s0:bmi"


def test_a_file_that_is_not_a_session_file_is_refused_and_the_tree_stays():
    at = run(data="iris")
    before = shape(at)
    at.file_uploader(key="tr_session_file").set_value(("x.json", b"a,b\n1,2\n", "text/csv"))
    at = run(at)
    assert any("not a session file" in e.value for e in at.error)
    assert shape(at) == before


@pytest.mark.parametrize("kind", ["session file", "not a session file"])
def test_a_session_file_read_while_a_rerun_is_asked_for_is_read_again(monkeypatch, kind):
    """A rerun asked for while the session file is read (a click, the browser's report of
    the window's width) stops the run at its next Streamlit call, a session-state write
    included: the next run, with the file still in the uploader, reads it again (it was
    skipped as already read: no restore, no message)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx
    from streamlit.runtime.scriptrunner_utils.script_requests import RerunData

    import offcenter.app.tree_restore as tree_restore

    reads = []
    real = tree_restore.session_from_json

    def read_then_rerun(data):
        reads.append(len(data))
        if len(reads) == 1:  # as a rerun request arriving during the read
            ctx = get_script_run_ctx()
            ctx.script_requests.request_rerun(
                RerunData(query_string=ctx.query_string, page_script_hash=ctx.page_script_hash)
            )
        return real(data)

    if kind == "session file":
        at = edited_pima()
        data = at.session_state["tr_session_json"].encode()
    else:
        data = b"a,b\n1,2\n"
    fresh = run(data="iris")
    monkeypatch.setattr(tree_restore, "session_from_json", read_then_rerun)
    fresh.file_uploader(key="tr_session_file").set_value(("s.json", data, "application/json"))
    fresh = run(fresh)
    if kind == "session file":
        assert fresh.selectbox(key="tr_data").value == "pima"
        assert shape(fresh) == shape(at)
        assert query(fresh)["edits"] == "s1:age,l2,s0:bmi"
    else:
        assert any("not a session file" in e.value for e in fresh.error)
    assert len(reads) == 2  # stopped once, read again
    fresh = run(fresh)  # and not again
    assert len(reads) == 2
