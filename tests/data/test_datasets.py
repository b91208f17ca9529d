"""Bundled data sets: the sources' tables as printed, iris, the real imbalanced sets."""

import numpy as np
import pytest

from offcenter import Impurity
from offcenter.data.csv_io import check_target, id_like_columns
from offcenter.data.datasets import DATASETS, DEFAULT, get_dataset, load, load_bytes


@pytest.mark.parametrize("name", list(DATASETS))
def test_every_dataset_loads_with_its_target(name):
    d = DATASETS[name]
    df = load(name)
    assert d.target in df.columns
    assert df.columns[-1] == d.target
    check_target(df, d.target)
    assert d.description and d.source and d.title
    assert load_bytes(name).startswith(df.columns[0].encode())


def test_sources_name_the_real_documents():
    """What the app shows (title, description, source) names documents, not internal ids."""
    for d in DATASETS.values():
        text = " ".join([d.title, d.description, d.source]).lower()
        assert "seed" not in text, d.name
    assert DATASETS["edible"].title == "Edible (16 rows, lecture slides)"
    assert DATASETS["edible"].source == "Lecture slides 'Entropy and Information Gain'"
    assert DATASETS["mutation"].source == (
        "Wikipedia, 'Information gain (decision tree)', CC BY-SA 4.0"
    )


def test_default_and_unknown():
    assert DEFAULT in DATASETS
    with pytest.raises(ValueError, match="unknown data set"):
        get_dataset("nope")


def test_load_returns_a_copy():
    a = load("edible")
    a.iloc[0, 0] = "changed"
    assert load("edible").iloc[0, 0] == "Yellow"


def _gain(df, feature, target):
    imp = Impurity("shannon")
    table = df.groupby([feature, target]).size().unstack(fill_value=0).to_numpy(float)
    parent = imp.of_counts(table.sum(0))
    n = table.sum()
    return parent - sum(t.sum() / n * imp.of_counts(t) for t in table)


def test_edible_matches_the_lecture_slides():
    df = load("edible")
    assert df.shape == (16, 4)
    assert df["edible"].value_counts().to_dict() == {"+": 9, "-": 7}
    assert _gain(df, "size", "edible") == pytest.approx(0.105843, abs=1e-6)
    assert _gain(df, "color", "edible") == pytest.approx(0.035514, abs=1e-6)
    assert _gain(df, "shape", "edible") == pytest.approx(0.035880, abs=1e-6)


def test_mutation_matches_the_wikipedia_article():
    df = load("mutation")
    assert df.shape == (7, 6)
    gains = {m: _gain(df, f"mutation_{m}", "cancer") for m in (1, 2, 3, 4)}
    assert np.round([gains[3], gains[4], gains[1], gains[2]], 3).tolist() == [
        0.522,
        0.292,
        0.128,
        0.006,
    ]
    assert "sample" in id_like_columns(df)


def test_iris():
    df = load("iris")
    assert df.shape == (150, 5)
    assert df["species"].value_counts().tolist() == [50, 50, 50]
    assert id_like_columns(df) == {}
