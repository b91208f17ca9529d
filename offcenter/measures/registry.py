"""The one registry of measures that the pages, the tree engine and the evaluation read.

A measure is added in one place, :data:`MEASURES`, with its parameters and their ranges, whether
a reference distribution theta applies, its formula in LaTeX, a one-line description and its
reference; it then shows up in every page, the tree engine and the comparison tables.

Split criteria that are not impurity decreases (the Hellinger distance of HDDT) are listed apart,
in :data:`CRITERIA`, with the same :class:`MeasureInfo` (``criterion`` set): the tree engine, the
settings and the comparison tables take them like any measure (:func:`get_measure` finds both),
while the curve pages, which draw functions of p, list :data:`MEASURES` only.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from offcenter.measures import criteria as _c
from offcenter.measures import entropies as _m
from offcenter.measures._validation import as_parameter

#: Names a measure's parameter cannot take: they are the other fields of a setting, or the
#: words of its key.
RESERVED_PARAM_NAMES = frozenset(
    {
        "measure",
        "theta",
        "consistent",
        "alpha",
        "n",
        "class_weight",
        "params",
        "score",
        "oc",
        "uniform",
        "prior",
        "balanced",
    }
)
#: Key tokens a parameter cannot take (alpha's ``a``, the sample size's ``n``, theta's).
RESERVED_TOKENS = frozenset({"a", "n", "theta", "octheta", "oc", "ocuniform", "ocprior"})


@dataclass(frozen=True)
class ParamInfo:
    """A numeric parameter of a measure: everything the settings, the estimators, the pages'
    links and sliders and the CLI read of it (nothing outside the registry names it).

    ``low``/``high`` are the mathematically valid range (``None`` = unbounded); ``ui_low``,
    ``ui_high`` and ``ui_step`` the range a slider offers. ``token`` is the parameter's word in
    a setting key (``b`` for beta: ``oc_daroczy_b0.5``; default: its name,
    ``tsallis_gamma0.5``); ``glyph`` its sign in labels (``β``; default: the Greek letter of
    that name, else the name); ``presets`` the values the curve pages offer to draw at once.
    """

    name: str
    symbol: str
    default: float
    low: float | None
    high: float | None
    ui_low: float
    ui_high: float
    ui_step: float
    description: str
    token: str = ""
    glyph: str = ""
    presets: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        if not self.token:
            object.__setattr__(self, "token", self.name)
        if not self.glyph:
            object.__setattr__(self, "glyph", greek_glyph(self.name))

    def validate(self, value: object, measure_label: str) -> float:
        return as_parameter(
            value,
            self.name,
            low=self.low,
            high=self.high,
            what=f"the {measure_label}",
        )


@dataclass(frozen=True)
class MeasureInfo:
    """Everything the app and the engine need to know about one base measure."""

    name: str
    label: str
    short: str
    params: tuple[ParamInfo, ...]
    #: "optional": off-centering on theta is a choice (off_centered); "builtin": the measure
    #: itself takes theta (the asymmetric entropy); "none": no theta (a split criterion).
    theta: str
    latex: str
    description: str
    reference: str
    function: Callable
    kernel: Callable
    uses_sample_size: bool = False
    #: True when the raw measure is concave in p (so gains are >= 0 by Jensen's inequality).
    concave: bool = True
    notes: str = ""
    aliases: tuple[str, ...] = field(default_factory=tuple)
    #: A split criterion (:class:`offcenter.measures.criteria.SplitCriterion`) scores a split
    #: from its children's class counts, instead of by an impurity decrease; ``function`` and
    #: ``kernel`` are then the node measure (node impurities, pruning costs, importances).
    criterion: _c.SplitCriterion | None = None
    #: The gain as a sum of terms of one sign, ``exact_gain(rows, weights, prior, **params)``
    #: (rows' class frequencies, rows' shares, the margin), used where the difference of
    #: impurities cancels (a nearly pure node); it returns None at parameter values without
    #: such a sum. None: the plain difference.
    exact_gain: Callable | None = None
    #: The parameter values at which the measure is Shannon's entropy in bits (``()``: always;
    #: None: never): the curve pages' axis says "bits" then.
    shannon_at: tuple[tuple[str, float], ...] | None = None
    #: The parameter values its reference states (None: all); others are this package's
    #: reconstruction, which :attr:`notes` explains (the pages say so when they draw one).
    stated_params: tuple[tuple[str, float], ...] | None = None

    @property
    def is_criterion(self) -> bool:
        """True for a split criterion (not an impurity decrease): no theta, no alpha."""
        return self.criterion is not None

    @property
    def node_measure(self) -> str | None:
        """For a split criterion, the name of the measure of its node impurities (pruning
        costs, importances: ``"dkm"`` for HDDT); None for an impurity measure (its own)."""
        return None if self.criterion is None else self.function.__name__

    # What the pages and the drawings say of a measure's split scores: read here, so that
    # nothing outside the registry and the scoring interface asks whether it is a criterion.
    @property
    def score_name(self) -> str:
        """What a split's score is called: ``"gain"`` for an impurity decrease, else the
        criterion's own name (``"Hellinger distance"``)."""
        return "gain" if self.criterion is None else self.criterion.score_name

    @property
    def score_short(self) -> str:
        """:attr:`score_name` in a node's box (``"gain"``, ``"Hellinger d"``)."""
        return "gain" if self.criterion is None else self.criterion.score_short

    @property
    def label_suffix(self) -> str:
        """Appended to the measure's label in a table beside impurity measures."""
        return "" if self.criterion is None else " (criterion, not an impurity)"

    @property
    def score_note(self) -> str | None:
        """A note for a table whose gain and score columns hold this measure's scores (None
        for an impurity decrease, whose gain is what the column says)."""
        if self.criterion is None:
            return None
        c = self.criterion
        return (
            f"For the {self.short}, a split criterion, the gain and score "
            f"columns hold the {c.score_name} of the split ({c.score_range}), not an impurity "
            "decrease."
        )

    @property
    def setting_note(self) -> str | None:
        """A note beside the measure's setting (None for an impurity measure): a split
        criterion takes no theta and no alpha, and names the measure of its node impurities."""
        if self.criterion is None:
            return None
        return (
            f"The {self.criterion.score_name} takes no theta and no alpha: it is "
            f"skew-insensitive by construction. Its node impurity (pruning costs, importances) "
            f"is {self.node_measure.upper() if self.node_measure else 'its node measure'}."
        )

    def in_bits(self, params) -> bool:
        """Whether the measure at ``params`` (a mapping) is Shannon's entropy in bits."""
        return self.shannon_at is not None and all(params.get(k) == v for k, v in self.shannon_at)

    def reconstructed(self, params) -> bool:
        """Whether ``params`` are outside the values the measure's reference states."""
        return self.stated_params is not None and any(
            params.get(k) != v for k, v in self.stated_params
        )

    @property
    def off_centerable(self) -> bool:
        return self.theta == "optional"

    @property
    def param_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params)

    def defaults(self) -> dict[str, float]:
        return {p.name: p.default for p in self.params}

    def validate_params(self, params: dict, *, fill_defaults: bool = False) -> dict[str, float]:
        """Check a measure's parameters: all required present, none unknown, each in range."""
        unknown = set(params) - set(self.param_names)
        if unknown:
            allowed = ", ".join(self.param_names) or "no parameters"
            raise ValueError(
                f"the {self.label} does not take {', '.join(sorted(unknown))}; it takes {allowed}."
            )
        out = {}
        for info in self.params:
            if params.get(info.name) is None:
                if fill_defaults:
                    out[info.name] = info.default
                    continue
                raise ValueError(
                    f"the {self.label} needs its parameter {info.name} "
                    f"({info.description}); for example {info.name}={info.default:g}."
                )
            out[info.name] = info.validate(params[info.name], self.label)
        return out


def greek_glyph(name: str) -> str:
    """The Greek letter a parameter is named after (``"beta"`` -> ``"β"``), else the name.

    >>> greek_glyph("gamma"), greek_glyph("width")
    ('γ', 'width')
    """
    try:
        return unicodedata.lookup(f"GREEK SMALL LETTER {name.upper()}")
    except KeyError:
        return name


def parameters() -> dict[str, ParamInfo]:
    """Every parameter name the registered measures declare, with one :class:`ParamInfo`
    each (what the pages' links hold): the first declaration's default, description, token and
    glyph, and the union of the declarations' slider ranges (the finest step), so that one
    link field carries the parameter for every measure that has it.

    >>> sorted(parameters())
    ['beta', 'rho']
    """
    out: dict[str, ParamInfo] = {}
    for info in TREE_MEASURES.values():
        for p in info.params:
            if p.name not in out:
                out[p.name] = p
                continue
            q = out[p.name]
            out[p.name] = replace(
                q,
                ui_low=min(q.ui_low, p.ui_low),
                ui_high=max(q.ui_high, p.ui_high),
                ui_step=min(q.ui_step, p.ui_step),
            )
    return out


_BETA = ParamInfo(
    "beta",
    r"\beta",
    2.0,
    0.0,
    None,
    0.0,
    10.0,
    0.1,
    "order of the generalized entropy, beta >= 0 (0: number of classes - 1, 1: Shannon, "
    "2: twice Gini)",
    token="b",
    presets=(0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0),
)
_RHO = ParamInfo(
    "rho",
    r"\rho",
    0.0,
    0.0,
    _m.RHO_MAX,
    0.0,
    5.0,
    0.1,
    "order of the rank diversity, 0 <= rho <= 100 (0: twice the misclassification error; "
    "the bound keeps (q - 1)^rho finite)",
    token="r",
)

_PAPER = (
    "S. Lallich, P. Lenca, B. Vaillant, Construction of an off-centered entropy for supervised "
    "learning, ASMDA 2007 (hal-02121319)"
)

#: The registry: name -> :class:`MeasureInfo`, in the order the app lists them.
MEASURES: dict[str, MeasureInfo] = {
    info.name: info
    for info in (
        MeasureInfo(
            name="shannon",
            label="Shannon entropy",
            short="Shannon",
            params=(),
            theta="optional",
            latex=r"H(p) = -\sum_{j=1}^{q} p_j \log_2 p_j",
            description="Average information, in bits, needed to name the class of an example.",
            reference="C. E. Shannon, A mathematical theory of communication, 1948",
            function=_m.shannon,
            kernel=_m._shannon,
            aliases=("entropy",),
            exact_gain=_m.shannon_gain,
            shannon_at=(),
        ),
        MeasureInfo(
            name="gini",
            label="Gini index",
            short="Gini",
            params=(),
            theta="optional",
            latex=r"G(p) = 1 - \sum_{j=1}^{q} p_j^2",
            description="Chance that two examples drawn at random have different classes.",
            reference="C. Gini, 1912; Breiman et al., Classification and Regression Trees, 1984",
            function=_m.gini,
            kernel=_m._gini,
            exact_gain=_m.gini_gain,
        ),
        MeasureInfo(
            name="misclassification",
            label="Misclassification error",
            short="Misclassification",
            params=(),
            theta="optional",
            latex=r"E(p) = 1 - \max_j p_j",
            description="Error rate of predicting the majority class.",
            reference="Breiman et al., Classification and Regression Trees, 1984",
            function=_m.misclassification,
            kernel=_m._misclassification,
        ),
        MeasureInfo(
            name="daroczy",
            label="generalized entropy of order beta (Daroczy)",
            short="Daroczy",
            params=(_BETA,),
            theta="optional",
            latex=(
                r"H_\beta(p) = \frac{2^{\beta-1}}{2^{\beta-1}-1}"
                r"\Bigl(1 - \sum_{j} p_j^{\beta}\Bigr)"
            ),
            description="A family through Shannon (beta = 1) and twice Gini (beta = 2).",
            reference="Z. Daroczy, Generalized information functions, Information and Control, 1970",
            function=_m.daroczy,
            kernel=_m._daroczy,
            aliases=("generalized",),
            exact_gain=_m.daroczy_gain,
            shannon_at=(("beta", 1.0),),
        ),
        MeasureInfo(
            name="rank_diversity",
            label="rank diversity of order rho",
            short="Rank diversity",
            params=(_RHO,),
            theta="optional",
            latex=r"R_\rho(p) = 2 \sum_{i \ge 2} (i-1)^{\rho}\, p_{(i)}",
            description="Weights each class by its rank among the frequencies (rho = 0: 2 x error).",
            reference=(
                "G. P. Patil, C. Taillie, Diversity as a concept and its measurement, JASA 1982 "
                "(general order reconstructed; the paper states rho = 0)"
            ),
            function=_m.rank_diversity,
            kernel=_m._rank_diversity,
            notes=(
                "The paper states only rho = 0; the general order is a reconstruction from Patil "
                "and Taillie's average rarity with rank-based rarity (i - 1)^rho."
            ),
            aliases=("rank",),
            stated_params=(("rho", 0.0),),
        ),
        MeasureInfo(
            name="asymmetric",
            label="asymmetric entropy (Marcellin, Zighed, Ritschard)",
            short="Asymmetric",
            params=(),
            theta="builtin",
            latex=(
                r"h_\theta(p) = \frac{1}{q}\sum_{j=1}^{q}"
                r"\frac{\hat p_j (1-\hat p_j)}{(1-2\theta_j)\hat p_j + \theta_j^2},"
                r"\quad \hat p_j = \frac{n p_j + 1}{n + q}\ \text{(consistent)}"
            ),
            description=(
                "Peaks at theta by construction; its consistent form moves from the uniform "
                "estimate (n = 0) to p as n grows."
            ),
            reference=(
                "S. Marcellin, D. A. Zighed, G. Ritschard, An asymmetric entropy measure for "
                "decision trees, IPMU 2006; Zighed, Marcellin, Ritschard, EGC 2007"
            ),
            function=_m.asymmetric,
            kernel=_m._asymmetric,
            uses_sample_size=True,
        ),
        MeasureInfo(
            name="dkm",
            label="DKM impurity (Dietterich, Kearns, Mansour)",
            short="DKM",
            params=(),
            theta="optional",
            latex=r"D(p) = \sum_{j=1}^{q} \sqrt{p_j (1 - p_j)}",
            description=(
                "Skew-insensitive impurity: 2 sqrt(p(1 - p)) for two classes; for q classes the "
                "halved sum of the one-vs-rest DKM (maximum sqrt(q - 1))."
            ),
            reference=(
                "T. Dietterich, M. Kearns, Y. Mansour, Applying the weak learning framework to "
                "understand and improve C4.5, ICML 1996; skew insensitivity: C. Drummond, "
                "R. C. Holte, Exploiting the cost (in)sensitivity of decision tree splitting "
                "criteria, ICML 2000"
            ),
            function=_m.dkm,
            kernel=_m._dkm,
            notes=(
                "The paper defines two classes; the q-class form (sum over classes of "
                "sqrt(p_j (1 - p_j)), i.e. half the sum of the one-vs-rest DKM) is this "
                "package's choice: exactly 2 sqrt(p(1 - p)) for two classes."
            ),
        ),
    )
}

#: Split criteria that are not impurity decreases, name -> :class:`MeasureInfo`.
CRITERIA: dict[str, MeasureInfo] = {
    info.name: info
    for info in (
        MeasureInfo(
            name="hellinger",
            label="Hellinger distance split criterion (HDDT)",
            short="Hellinger distance (HDDT)",
            params=(),
            theta="none",
            latex=(
                r"d_H = \sqrt{\sum_{k} \Bigl(\sqrt{\tfrac{n^+_k}{n^+}} - "
                r"\sqrt{\tfrac{n^-_k}{n^-}}\Bigr)^2}"
                r"\quad(q > 2:\ \max_c \text{ of class } c \text{ vs the rest})"
            ),
            description=(
                "Split criterion, not an impurity: the Hellinger distance between the "
                "distributions of the two classes over the children (0 to sqrt 2), "
                "skew-insensitive; q > 2: the largest one-vs-rest distance. Its 'gain' is this "
                "score; its node measure is DKM (d_H^2 = 2 x relative DKM gain, two classes)."
            ),
            reference=(
                "D. A. Cieslak, N. V. Chawla, Learning decision trees for unbalanced data, "
                "ECML PKDD 2008; q > 2 one-vs-rest: T. R. Hoens, Q. Qian, N. V. Chawla, "
                "Z.-H. Zhou, Building decision trees for the multi-class imbalance problem, "
                "PAKDD 2012"
            ),
            function=_m.dkm,
            kernel=_m._dkm,
            notes=(
                "A split criterion: the tree maximises d_H over the candidate splits; the node "
                "measure (node impurity, pruning costs, importances) is the DKM impurity, which "
                "ranks a node's splits as d_H does for two classes. For q > 2 the score is the "
                "maximum over the classes of the one-vs-rest distance (this package's choice)."
            ),
            aliases=("hddt", "hellinger_distance"),
            criterion=_c.HELLINGER,
        ),
    )
}

#: LaTeX of the off-centering transform, for the pages.
OFF_CENTER_LATEX = (
    r"\pi_j = \begin{cases} \dfrac{p_j}{q\theta_j} & p_j \le \theta_j \\[1ex]"
    r"\dfrac{q(p_j-\theta_j)+1-p_j}{q(1-\theta_j)} & p_j \ge \theta_j \end{cases},"
    r"\qquad \pi^*_j = \frac{\pi_j}{\sum_k \pi_k},\qquad \eta_\theta(p) = I(\pi^*)"
)
OFF_CENTER_REFERENCE = _PAPER

#: Every measure the tree can grow with: the impurity measures, then the split criteria.
TREE_MEASURES: dict[str, MeasureInfo] = {**MEASURES, **CRITERIA}

_ALIASES = {alias: info.name for info in TREE_MEASURES.values() for alias in info.aliases}


def get_measure(name: str) -> MeasureInfo:
    """Look up a measure or split criterion by name (or alias), with a helpful error for
    unknown names."""
    if not isinstance(name, str):
        raise TypeError(f"a measure is named by a string such as 'shannon'; got {name!r}.")
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    key = _ALIASES.get(key, key)
    if key not in TREE_MEASURES:
        raise ValueError(f"unknown measure {name!r}; choose one of: {', '.join(TREE_MEASURES)}.")
    return TREE_MEASURES[key]


def measure_names() -> list[str]:
    """Names of the registered impurity measures, in display order."""
    return list(MEASURES)


def criterion_names() -> list[str]:
    """Names of the registered split criteria (``["hellinger"]``)."""
    return list(CRITERIA)


def uniform(q: int) -> np.ndarray:
    """The uniform distribution on q classes."""
    return np.full(q, 1.0 / q)
