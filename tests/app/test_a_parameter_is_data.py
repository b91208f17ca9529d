"""A parameter is data (issue 32): a measure registered with a new parameter, ``gamma``, goes
through a setting's key, the Tree page's link and session file, the curve pages, the CLI, the
tree and the forest (pickled too) with no other change; old links (``beta=``) still open.

The measure is the Gini index raised to the power gamma: 0 on a pure node, largest at the
uniform distribution, and each gamma ranks splits differently, so a lost gamma shows.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.datasets import load_wine

import offcenter as oc
from offcenter import ForestClassifier, MeasureSetting, TreeClassifier
from offcenter.app import curve_pages, tree_link, tree_page
from offcenter.data.datasets import DATASETS
from offcenter.measures import custom
from tests.conftest import run_app

ROOT = Path(__file__).resolve().parents[2]
TREE_PAGE = str(ROOT / "pages" / "3_Tree.py")
NAME = "powgini"


def powgini(p, gamma=2.0):
    """(1 - sum p_j^2) ** gamma."""
    return (1.0 - (p * p).sum(axis=-1)) ** gamma


@pytest.fixture
def gamma_measure():
    info = oc.register_measure(
        NAME,
        powgini,
        label="powered Gini",
        params={"gamma": {"default": 2.0, "low": 0.5, "high": 3.0, "description": "power"}},
    )
    yield info
    if NAME in custom.custom_measure_names():
        oc.unregister_measure(NAME)


def test_the_registry_declares_it_and_the_setting_carries_it(gamma_measure):
    (p,) = gamma_measure.params
    assert (p.name, p.token, p.glyph, p.symbol) == ("gamma", "gamma", "γ", r"\gamma")
    s = MeasureSetting(NAME, theta="prior", gamma=1.5)
    assert s.params == {"gamma": 1.5} and s.key == "oc_powgini_gamma1.5"
    assert s.label == "off-centered powered Gini (γ = 1.5), θ = prior"
    assert MeasureSetting.parse(s.key) == s
    assert MeasureSetting.parse({"measure": NAME, "theta": "prior", "gamma": 1.5}) == s
    assert MeasureSetting(NAME, params={"gamma": 1.5}, theta="prior") == s
    assert MeasureSetting(NAME).params == {"gamma": 2.0}  # the registry default
    assert s.replace(gamma=None).params == {"gamma": 2.0}
    assert s.tree_params()["measure_params"] == {"gamma": 1.5}
    with pytest.raises(ValueError, match="out of range"):
        MeasureSetting(NAME, gamma=9.0)
    with pytest.raises(ValueError, match="does not take gamma"):
        MeasureSetting("shannon", gamma=1.0)


def _tree_rows(clf):
    return [(n.id, None if n.split is None else n.split.feature) for n in clf.tree_.nodes]


def test_tree_and_forest_carry_it_and_pickle(gamma_measure):
    X, y = load_wine(return_X_y=True)
    clf = TreeClassifier(measure=NAME, measure_params={"gamma": 0.5}, max_depth=3).fit(X, y)
    assert clf.setting_.params == {"gamma": 0.5} and clf.impurity_.params == {"gamma": 0.5}
    again = pickle.loads(pickle.dumps(clf))
    assert again.setting_ == clf.setting_ and again.get_params()["measure_params"] == {"gamma": 0.5}
    np.testing.assert_array_equal(again.predict_proba(X), clf.predict_proba(X))
    assert clone(clf).get_params()["measure_params"] == {"gamma": 0.5}
    # the value is used: the node impurities are gini ** gamma
    root = clf.tree_.nodes[0]
    gini = 1.0 - ((root.counts / root.counts.sum()) ** 2).sum()
    assert root.impurity == pytest.approx(gini**0.5)
    # a setting as the measure: the same tree
    by_setting = TreeClassifier(measure=MeasureSetting(NAME, gamma=0.5), max_depth=3).fit(X, y)
    assert _tree_rows(by_setting) == _tree_rows(clf)

    forest = ForestClassifier(
        n_estimators=3,
        measure=NAME,
        measure_params={"gamma": 0.5},
        max_depth=2,
        n_jobs=1,
        random_state=0,
    ).fit(X, y)
    assert {t.setting_.params["gamma"] for t in forest.estimators_} == {0.5}
    loaded = pickle.loads(pickle.dumps(forest))
    assert loaded.get_params()["measure_params"] == {"gamma": 0.5}
    np.testing.assert_array_equal(loaded.predict_proba(X), forest.predict_proba(X))


def test_beta_and_rho_keywords_still_work():
    X, y = load_wine(return_X_y=True)
    old = TreeClassifier(measure="daroczy", beta=0.5, max_depth=3).fit(X, y)
    new = TreeClassifier(measure="daroczy", measure_params={"beta": 0.5}, max_depth=3).fit(X, y)
    assert old.setting_ == new.setting_ and _tree_rows(old) == _tree_rows(new)
    assert MeasureSetting("rank_diversity", rho=1.0).params == {"rho": 1.0}
    with pytest.raises(ValueError, match="disagree"):
        TreeClassifier(measure="daroczy", beta=0.5, measure_params={"beta": 1.0}).fit(X, y)


def test_the_pages_links_carry_it(gamma_measure):
    # the Tree page's link
    values = {**tree_page.SCHEMA.defaults(), "setting": "oc_powgini", "gamma": 1.5}
    query = tree_page.SCHEMA.encode(values)
    assert query["gamma"] == "1.5" and query["setting"] == "oc_powgini"
    decoded, warnings = tree_page.SCHEMA.decode(query)
    assert warnings == [] and decoded["gamma"] == 1.5 and decoded["setting"] == "oc_powgini"
    # the curve pages: its slider's value in the link, and the curves drawn with it
    for schema in (curve_pages.TWO_CLASS_SCHEMA, curve_pages.Q_CLASS_SCHEMA):
        values = {**schema.defaults(), "measures": (NAME,), "gamma": 1.5}
        decoded, warnings = schema.decode(schema.encode(values))
        assert warnings == [] and decoded["gamma"] == 1.5 and decoded["measures"] == (NAME,)
        raw, oc_specs = curve_pages.page_specs(decoded)
        assert [s.key for s in raw + oc_specs] == ["powgini_gamma1.5", "oc_powgini_gamma1.5"]


def test_old_links_and_session_files_still_open():
    decoded, warnings = tree_page.SCHEMA.decode({"setting": "oc_daroczy", "beta": "0.5"})
    assert warnings == [] and decoded["beta"] == 0.5 and decoded["rho"] == 0.0
    fig2 = "measures=daroczy,rank_diversity,asymmetric&version=oc&beta=0&betas=0.5,1,2,5&rho=0"
    query = dict(kv.split("=") for kv in fig2.split("&"))
    decoded, warnings = curve_pages.TWO_CLASS_SCHEMA.decode({**query, "theta": "0.2"})
    assert warnings == [] and curve_pages.matching_preset(decoded) == "fig2"
    raw, oc_specs = curve_pages.page_specs(decoded)
    assert [s.key for s in oc_specs][:5] == [
        f"oc_daroczy_b{b}" for b in ("0", "0.5", "1", "2", "5")
    ]
    # a session file written before (its page values hold beta)
    text = json.dumps(
        {
            "format": tree_link.FORMAT,
            "version": tree_link.VERSION,
            "data": {"source": "pima"},
            "target": "class",
            "features": [],
            "setting": "oc_daroczy_b0.5",
            "tree_params": {"measure": "daroczy", "theta": "prior", "beta": 0.5, "rho": None},
            "page": {"setting": "oc_daroczy", "beta": 0.5},
            "edits": [],
        }
    )
    r = tree_link.session_from_json(text)
    decoded, warnings = tree_page.SCHEMA.decode(r.page)
    assert warnings == [] and decoded["beta"] == 0.5 and decoded["setting"] == "oc_daroczy"


def test_the_tree_page_grows_with_it_and_its_session_file_keeps_it(gamma_measure):
    at = run_app(
        page=TREE_PAGE,
        query={"data": "pima", "setting": "oc_powgini", "gamma": "0.75", "max_depth": "2"},
    )
    assert at.session_state["tr_gamma"] == 0.75
    grown = at.session_state["tr_session"].current
    assert grown.setting_.key == "oc_powgini_gamma0.75"
    link = at.query_params["gamma"]
    assert (link[-1] if isinstance(link, list) else link) == "0.75"
    text = at.session_state["tr_session_json"]
    assert json.loads(text)["page"]["gamma"] == "0.75"  # the link's text
    fresh = run_app(page=TREE_PAGE)  # another session, on the default data and measure
    fresh.file_uploader(key="tr_session_file").set_value(
        ("tree_session.json", text.encode(), "application/json")
    )
    fresh = run_app(fresh)
    fresh = run_app(fresh)
    assert fresh.session_state["tr_gamma"] == 0.75
    assert fresh.session_state["tr_session"].current.setting_.key == "oc_powgini_gamma0.75"


def test_the_cli_takes_it(gamma_measure, tmp_path, capsys):
    from offcenter.evaluation.cli import main

    csv = tmp_path / "glass.csv"
    pd.read_csv(DATASETS["glass"].path).to_csv(csv, index=False)
    out = tmp_path / "r.csv"
    args = [str(csv), "--settings", "powgini_gamma0.5,oc_powgini_gamma1.5", "--folds", "2"]
    args += ["--repeats", "1", "--max-depth", "2", "--n-jobs", "1", "--out", str(out), "--quiet"]
    assert main(args) == 0
    df = pd.read_csv(out)
    assert set(df["setting"]) == {"powgini_gamma0.5", "oc_powgini_gamma1.5"}
    assert (df["error"].isna() | (df["error"] == "")).all()
