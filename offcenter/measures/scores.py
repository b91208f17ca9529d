r"""The registry of split scores, beside the measures': a score is a name.

A measure says how impure a node is; a **score** says how good a split is. A
:class:`~offcenter.MeasureSetting` names both: ``MeasureSetting("gini")`` is scored by the
gain, ``MeasureSetting("gini", score="lambda", alpha=0.5)`` (or just ``alpha=0.5``) by
:math:`\lambda_\alpha`, ``MeasureSetting("hellinger")`` (a split criterion) by its own value.
The tree engine builds the scorer registered under the setting's score
(:data:`offcenter.tree.scoring.SCORERS`, filled by :func:`offcenter.tree.scoring.scorer`, which
registers its :class:`ScoreInfo` here); nothing else asks which score or which kind of measure
a setting has: it reads the :class:`ScoreInfo`.

Built-in scores:

``gain``
    the impurity decrease :math:`I(Y) - I(Y|X)` (the default of an impurity measure);
``lambda``
    :math:`\lambda_\alpha = \mathrm{gain} / (\alpha I(Y) + (1 - \alpha) I(X))`, with ``alpha``;
``criterion``
    a split criterion's own value (the Hellinger distance of HDDT; the default, and the only
    score, of a criterion).

A new score is a :class:`~offcenter.tree.scoring.SplitScorer` subclass registered with
:func:`~offcenter.tree.scoring.scorer` (docs/architecture.md, "A new split score").
"""

from __future__ import annotations

from dataclasses import dataclass

from offcenter.measures.registry import MeasureInfo

__all__ = [
    "SCORES",
    "ScoreInfo",
    "default_score",
    "get_score",
    "register_score",
    "resolve_score",
    "score_for",
    "score_like",
    "score_names",
]


@dataclass(frozen=True)
class ScoreInfo:
    """What the settings, the tables and the pages know of a split score.

    Parameters
    ----------
    name : str
        Its name (``MeasureSetting(score=name)``; a setting key carries it as ``_<name>`` when
        it is not the measure's default nor implied by ``alpha``).
    label : str
        Readable, in a setting's label (``scored by <label>``) and the pages.
    description : str
        One sentence: what the number is.
    uses_alpha : bool
        Whether it takes ``alpha`` (then required).
    scores : "impurity" or "criterion"
        What it scores: an impurity measure's splits (from the node's and the children's
        impurities), or a split criterion's (its own value of the children's counts).
    relative : bool
        Whether "gain / node impurity" (the relative gain column) means something for it.
    """

    name: str
    label: str
    description: str
    uses_alpha: bool = False
    scores: str = "impurity"
    relative: bool = True

    def applies_to(self, info: MeasureInfo) -> bool:
        """Whether it scores splits under the measure ``info``."""
        return (info.criterion is not None) == (self.scores == "criterion")

    def value_name(self, info: MeasureInfo) -> str:
        """What a split's value under ``info`` is called: ``"gain"``, or a criterion's own
        name (``"Hellinger distance"``)."""
        return "gain" if info.criterion is None else info.criterion.score_name


#: The registry: name -> :class:`ScoreInfo`, in the order the scores are offered.
SCORES: dict[str, ScoreInfo] = {}


def register_score(info: ScoreInfo, *, replace: bool = False) -> ScoreInfo:
    """Add a score to :data:`SCORES` (:func:`offcenter.tree.scoring.scorer` calls it)."""
    if not isinstance(info.name, str) or not info.name.isalpha() or not info.name.islower():
        raise ValueError(f"a score's name is lower-case letters; got {info.name!r}.")
    if info.scores not in ("impurity", "criterion"):
        raise ValueError(f"ScoreInfo.scores is 'impurity' or 'criterion'; got {info.scores!r}.")
    if info.name in SCORES and not replace and SCORES[info.name] != info:
        raise ValueError(f"the score {info.name!r} is registered already (pass replace=True).")
    SCORES[info.name] = info
    return info


def get_score(name: str) -> ScoreInfo:
    """The registered score ``name``; ValueError naming the registered ones."""
    if name not in SCORES:
        raise ValueError(f"unknown score {name!r}; registered: {', '.join(SCORES)}.")
    return SCORES[name]


def score_names() -> list[str]:
    """Names of the registered scores."""
    return list(SCORES)


def resolve_score(score, alpha, info: MeasureInfo) -> str:
    """The score a setting of the measure ``info`` has: ``score`` checked against the
    measure and ``alpha``, or, when None, the first registered score that applies to the
    measure and takes an alpha when one is given (``alpha`` -> ``"lambda"``), else the
    measure's default (the first that applies without alpha)."""
    if score is None:
        for s in SCORES.values():
            if s.applies_to(info) and s.uses_alpha == (alpha is not None):
                return s.name
        if alpha is not None:
            raise ValueError(
                f"alpha (the score lambda_alpha of an impurity gain) does not apply to the "
                f"{info.label}, a split criterion scored by itself; leave alpha=None."
            )
        raise ValueError(f"no registered score applies to the {info.label}.")
    s = get_score(str(score).strip().lower())
    if not s.applies_to(info):
        takes = [t.name for t in SCORES.values() if t.applies_to(info)]
        raise ValueError(
            f"the score {s.name!r} ({s.description}) does not apply to the {info.label}; it "
            f"takes {', '.join(takes)}."
        )
    if s.uses_alpha and alpha is None:
        raise ValueError(f"the score {s.name!r} needs alpha in [0, 1] ({s.description}).")
    if not s.uses_alpha and alpha is not None:
        if info.criterion is not None:
            raise ValueError(
                f"alpha (the score lambda_alpha of an impurity gain) does not apply to the "
                f"{info.label}, a split criterion scored by itself; leave alpha=None."
            )
        raise ValueError(f"the score {s.name!r} takes no alpha; leave alpha=None.")
    return s.name


def score_like(info: MeasureInfo, score: str, alpha) -> tuple[str, float | None]:
    """``(score, alpha)`` for a split under ``info`` scored "like" another setting (a tree's
    comparison tables): that score and alpha when the score applies to ``info``, else its
    default (a split criterion beside a tree grown with lambda_alpha is scored by itself)."""
    if get_score(score).applies_to(info):
        return score, alpha
    return default_score(info), None


def score_for(info: MeasureInfo, score=None, alpha=None) -> tuple[str, float | None]:
    """``(score, alpha)`` as given (``score`` None: implied by alpha) when they apply to the
    measure ``info``, else its default score without alpha: lenient, for explanations that
    take a page's score to every setting (a split criterion is scored by itself)."""
    try:
        return resolve_score(score, alpha, info), alpha
    except ValueError:
        return default_score(info), None


def default_score(info: MeasureInfo) -> str:
    """The score of a setting of ``info`` without score nor alpha (``"gain"``, ``"criterion"``)."""
    return resolve_score(None, None, info)


# the built-in scores' declarations (their scorers: offcenter.tree.scoring)
for _info in (
    ScoreInfo("gain", "gain", "the impurity decrease I(Y) - I(Y|X)"),
    ScoreInfo(
        "lambda",
        "λ_α",
        "the gain over alpha I(Y) + (1 - alpha) I(X)",
        uses_alpha=True,
    ),
    ScoreInfo(
        "criterion",
        "its own value",
        "a split criterion's own value of the children's class counts",
        scores="criterion",
        relative=False,
    ),
):
    register_score(_info)
