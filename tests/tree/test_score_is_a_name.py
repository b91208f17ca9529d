"""A score is a name (issue 32): the scores' registry beside the measures', an abstract
``SplitScorer`` with opt-in screening, and a new score in one class (the worked example of
docs/architecture.md, run here)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from offcenter import MeasureSetting, TreeClassifier
from offcenter.measures.scores import SCORES, get_score
from offcenter.tree.scoring import (
    SCORERS,
    CriterionScorer,
    GainScorer,
    LambdaAlphaScorer,
    SplitScorer,
    make_scorer,
    unregister_scorer,
)
from offcenter.viz.explain import split_steps

ROOT = Path(__file__).resolve().parents[2]


def _doc_example() -> str:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    part = text.split("### A new split score, worked example", 1)[1]
    return re.search(r"```python\n(.*?)```", part, re.S).group(1)


@pytest.fixture
def normalized():
    namespace: dict = {}
    exec(compile(_doc_example(), "docs/architecture.md", "exec"), namespace)
    yield namespace["NormalizedGainScorer"]
    unregister_scorer("normalized")


def _data():
    rng = np.random.default_rng(0)
    n = 300
    colour = rng.choice(list("abcdef"), n)
    size = rng.normal(size=n)
    y = ((np.isin(colour, ["a", "b"])) ^ (size > 0.8)).astype(int)
    return pd.DataFrame({"colour": colour, "size": size}), y


def test_the_documented_new_score_works_everywhere(normalized):
    assert SCORERS["normalized"] is normalized and SCORES["normalized"].label == "normalized gain"
    s = MeasureSetting("gini", score="normalized")
    assert s.key == "gini_bynormalized" and MeasureSetting.parse(s.key) == s
    assert s.label == "Gini, scored by normalized gain"
    X, y = _data()
    clf = TreeClassifier(measure="gini", split_score="normalized", max_depth=2).fit(X, y)
    assert clf.setting_ == s
    by_setting = TreeClassifier(measure=s, max_depth=2).fit(X, y)
    assert [n.split and n.split.feature for n in by_setting.tree_.nodes] == [
        n.split and n.split.feature for n in clf.tree_.nodes
    ]
    scorer = make_scorer(clf.impurity_, 2, len(y), score="normalized")
    assert not scorer.screenable and not scorer.can_block_screen()  # never screened
    assert not scorer.prune_pure_runs  # nor are pure runs skipped: no proof for it
    # the root's multiway split on colour: score = gain / log2(6)
    root = clf.tree_.nodes[0]
    if root.split.feature == "colour":
        assert root.score == pytest.approx(root.gain / np.log2(len(root.children)))
    # the worked calculation formats the scorer's numbers
    steps = split_steps(
        [50, 50],
        [[30, 5], [10, 15], [10, 30]],
        ["0", "1"],
        clf.impurity_,
        ["a", "b", "c"],
        score="normalized",
    )
    assert steps[-1].title == "Score" and "branches \\= 3" in steps[-1].text
    gain = steps[-2].value
    assert steps[-1].value == pytest.approx(gain / np.log2(3))
    # the comparison tables score the other settings like the tree where it applies
    optima = clf.own_optima(0, ["shannon", "hellinger"])
    assert set(optima["setting_key"]) >= {"gini_bynormalized", "shannon", "hellinger"}


def test_scores_are_names_with_the_old_spellings():
    assert MeasureSetting("gini").score == "gain"
    assert MeasureSetting("gini", alpha=0.5) == MeasureSetting("gini", score="lambda", alpha=0.5)
    assert MeasureSetting("gini", alpha=0.5).key == "gini_a0.5"
    assert MeasureSetting("hellinger").score == "criterion"
    assert MeasureSetting("gini", alpha=0.5).replace(alpha=None).score == "gain"
    with pytest.raises(ValueError, match="needs alpha"):
        MeasureSetting("gini", score="lambda")
    with pytest.raises(ValueError, match="split criterion scored by itself"):
        MeasureSetting("hellinger", alpha=0.5)
    with pytest.raises(ValueError, match="does not apply"):
        MeasureSetting("hellinger", score="gain")
    with pytest.raises(ValueError, match="unknown score"):
        MeasureSetting("gini", score="nope")
    assert get_score("lambda").uses_alpha and not get_score("criterion").relative
    for name, cls in (
        ("gain", GainScorer),
        ("lambda", LambdaAlphaScorer),
        ("criterion", CriterionScorer),
    ):
        assert SCORERS[name] is cls


def test_screening_is_opt_in_and_the_interface_abstract():
    assert GainScorer.screened and LambdaAlphaScorer.screened and not CriterionScorer.screened

    class Inherited(GainScorer):  # no bound proven for it: not screened
        pass

    assert not Inherited.screened and not Inherited.pure_runs_proven
    assert GainScorer.pure_runs_proven and CriterionScorer.pure_runs_proven
    with pytest.raises(TypeError):
        SplitScorer(None, 2, 10)  # abstract

    class Partial(SplitScorer):
        def pair(self, L, R, n_left, n_right, parent_impurity, n):
            return parent_impurity, parent_impurity

    with pytest.raises(TypeError):
        Partial(None, 2, 10)  # multiway, table and quantities are missing


def test_no_criterion_branch_outside_the_scores():
    allowed = {
        "offcenter/measures/registry.py",  # the measure's own data (its criterion's names)
        "offcenter/measures/scores.py",
        "offcenter/measures/criteria.py",
        "offcenter/tree/scoring.py",
    }
    needles = (".criterion is", "is_criterion", "split_criterion is", "takes_alpha else")
    offenders = []
    for path in [*ROOT.joinpath("offcenter").rglob("*.py"), *ROOT.joinpath("pages").glob("*.py")]:
        rel = path.relative_to(ROOT).as_posix()
        if rel in allowed:
            continue
        text = path.read_text(encoding="utf-8")
        offenders += [f"{rel}: {n}" for n in needles if n in text]
    assert offenders == []
