"""The split search and growth, cut by concern; this module gathers their public names.

- :mod:`offcenter.tree.scoring`: the split-scoring interface (:class:`SplitScorer`), the
  engine's only view of a measure;
- :mod:`offcenter.tree.records`: growth parameters (:class:`GrowthParams`), candidate
  splits, screenings, best splits, growing nodes (:class:`Record`) and the split chosen at a
  node (:class:`SplitChoice`);
- :mod:`offcenter.tree.screening`: the float32 and block screenings of numeric candidates;
- :mod:`offcenter.tree.numeric`: the exact, vectorised threshold search;
- :mod:`offcenter.tree.categorical`: multiway and binary splits of categorical features;
- :mod:`offcenter.tree.growth`: level-wise growth (:func:`grow`);
- :mod:`offcenter.tree.labels`: the branches' readable text.

Tie-breaking (deterministic): highest score; on a tie (within ``TIE`` = 1e-12) the feature
that comes first in column order; within a feature the smallest threshold (numeric) or the
first grouping enumerated (categorical binary).
"""

from __future__ import annotations

from offcenter.tree.categorical import category_rows, category_table, search_categorical
from offcenter.tree.growth import grow
from offcenter.tree.labels import branch_labels
from offcenter.tree.numeric import numeric_positions, resolve_lazy, score_candidates, search_numeric
from offcenter.tree.records import (
    TIE,
    GrowthParams,
    Record,
    SplitChoice,
    categorical_split,
    numeric_split,
    split_choice,
)
from offcenter.tree.scoring import SplitScorer, make_scorer
from offcenter.tree.screening import block_screen, screen

__all__ = [
    "TIE",
    "GrowthParams",
    "Record",
    "SplitChoice",
    "SplitScorer",
    "block_screen",
    "branch_labels",
    "categorical_split",
    "category_rows",
    "category_table",
    "score_candidates",
    "grow",
    "make_scorer",
    "numeric_positions",
    "numeric_split",
    "resolve_lazy",
    "screen",
    "search_categorical",
    "search_numeric",
    "split_choice",
]
