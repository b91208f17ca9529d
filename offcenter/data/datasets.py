"""The data sets bundled with the package: worked examples of the sources, iris, real imbalanced sets.

Each entry of :data:`DATASETS` has a name, a title, a description, its provenance (with the citation
to give), the target column and the CSV file in ``offcenter/data/bundled/``. :func:`load` returns a fresh
copy of the table read through :func:`offcenter.data.csv_io.read_csv_bytes` (so a bundled set and an
upload go through the same code).

Examples
--------
>>> df = load("edible")
>>> df.shape, DATASETS["edible"].target
((16, 4), 'edible')
>>> df["edible"].value_counts().to_dict()
{'+': 9, '-': 7}
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pandas as pd

from offcenter.data.csv_io import read_csv_bytes

DATA_DIR = Path(__file__).resolve().parent / "bundled"

_UCI = (
    "UCI Machine Learning Repository (CC BY 4.0), https://archive.ics.uci.edu; binary version "
    "shipped with offcenter (see offcenter/data/bundled/README.md)"
)


@dataclass(frozen=True)
class Dataset:
    """A bundled data set."""

    name: str
    title: str
    description: str
    source: str
    target: str
    filename: str

    @property
    def path(self) -> Path:
        return DATA_DIR / self.filename


#: name -> :class:`Dataset`, in the order the app lists them. The first one is the app's default.
DATASETS: dict[str, Dataset] = {
    d.name: d
    for d in (
        Dataset(
            "edible",
            "Edible (16 rows, lecture slides)",
            "The worked example of entropy and information gain: colour, size and shape of 16 "
            "fruits, 9 edible (+) and 7 not (-). Gain(size) = 0.1058 bits (the slides print "
            "0.1008 from a rounding slip in I(all) = 0.9887).",
            "Lecture slides 'Entropy and Information Gain'",
            "edible",
            "edible.csv",
        ),
        Dataset(
            "mutation",
            "Gene mutations (7 samples, Wikipedia)",
            "Seven samples, four gene mutations (1 = present), cancerous (C) or not (NC). At the "
            "root mutation 3 has the largest gain (0.522), then 4 (0.292), 1 (0.128), 2 (0.006). "
            "The sample column is an identifier.",
            "Wikipedia, 'Information gain (decision tree)', CC BY-SA 4.0",
            "cancer",
            "mutation.csv",
        ),
        Dataset(
            "iris",
            "Iris (150 rows, 3 balanced classes)",
            "Fisher's iris flowers: four measurements in cm, three species of 50 each. The first "
            "Shannon split isolates setosa (petal width <= 0.8 or petal length <= 2.45), gain "
            "0.918.",
            "R. A. Fisher (1936), via the UCI Machine Learning Repository; public domain",
            "species",
            "iris.csv",
        ),
        Dataset(
            "pima",
            "Pima diabetes (768 rows, 35% positive)",
            "Diabetes among Pima women: 8 numeric measurements (zeros stand for missing in "
            "several columns).",
            _UCI + "; National Institute of Diabetes and Digestive and Kidney Diseases",
            "diabetes",
            "pima_diabetes.csv",
        ),
        Dataset(
            "german_credit",
            "German credit (1000 rows, 30% bad)",
            "Credit applicants: 13 categorical (UCI codes A11, ...) and 7 numeric features.",
            _UCI + "; donor H. Hofmann",
            "bad_credit",
            "german_credit.csv",
        ),
        Dataset(
            "breast_cancer",
            "Breast cancer Wisconsin (569 rows, 37% malignant)",
            "30 numeric features of cell nuclei; benign = 0 means malignant.",
            _UCI + "; W. H. Wolberg, W. N. Street, O. L. Mangasarian",
            "benign",
            "breast_cancer_wisconsin.csv",
        ),
        Dataset(
            "tic_tac_toe",
            "Tic-tac-toe endgame (958 rows, 35% negative)",
            "Final boards (x, o, b for blank in each of 9 squares); does x win?",
            _UCI + "; donor D. W. Aha",
            "x_wins",
            "tic_tac_toe_endgame.csv",
        ),
        Dataset(
            "ecoli",
            "E. coli (336 rows, 15% minority)",
            "Protein localisation sites, 7 numeric features, made binary.",
            _UCI + "; K. Nakai",
            "class",
            "ecoli_binary.csv",
        ),
        Dataset(
            "glass",
            "Glass (214 rows, 33% minority)",
            "Glass fragments by chemical composition (9 numeric features), made binary.",
            _UCI + "; B. German",
            "class",
            "glass_binary.csv",
        ),
    )
}

DEFAULT = "edible"


def get_dataset(name: str) -> Dataset:
    """The :class:`Dataset` called ``name`` (ValueError listing the names otherwise)."""
    if name not in DATASETS:
        raise ValueError(f"unknown data set {name!r}; choose one of: {', '.join(DATASETS)}.")
    return DATASETS[name]


@cache
def _read(name: str) -> pd.DataFrame:
    d = get_dataset(name)
    df, _ = read_csv_bytes(d.path.read_bytes(), d.filename)
    return df


def load(name: str) -> pd.DataFrame:
    """A fresh copy of a bundled data set as a DataFrame (target column included)."""
    return _read(name).copy()


def load_bytes(name: str) -> bytes:
    """The raw CSV bytes of a bundled data set (for downloads and tests)."""
    return get_dataset(name).path.read_bytes()
