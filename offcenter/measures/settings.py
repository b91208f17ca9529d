r"""One measure setting: which measure, on which theta, with which parameters and score.

A :class:`MeasureSetting` is the one description of "how a node is scored" shared by the tree
(:attr:`offcenter.TreeClassifier.setting_`), the comparison tables
(:func:`offcenter.comparison_settings`, :mod:`offcenter.tree.inspect`), the cross-validation
(:mod:`offcenter.evaluation.runner`, ``python -m offcenter.evaluate --settings``) and the curve
pages (:mod:`offcenter.measures.curves`). It is frozen and hashable; equal settings compare equal
(registry defaults are filled in and names canonicalised at construction).

Keys
----
``key`` is a short, stable, URL- and CSV-safe name (characters ``a-z 0-9 _ . -``), and
``str(setting) == setting.key``; :meth:`MeasureSetting.parse` reads it back exactly::

    [oc_ | ocuniform_ | octheta<t1>-<t2>-..._] <measure> [_b<beta>] [_r<rho>]
        [_uniform | _theta<t1>-<t2>-...] [_consistent [_n<n>]] [_balanced] [_a<alpha>]

The ``oc`` prefix is for measures where off-centering is a choice (``oc_`` = on the prior); the
asymmetric entropy always has a theta, the prior unless a ``_uniform`` / ``_theta...`` suffix
says otherwise. Numbers are written in the shortest positional form that reads back to the same
float (``0.5``, ``2``, ``0.00001``). Examples: ``shannon``, ``oc_shannon``,
``ocuniform_shannon``, ``oc_daroczy_b0.5``, ``oc_rank_diversity_r0``, ``asymmetric``,
``asymmetric_consistent``, ``asymmetric_consistent_n20``, ``octheta0.8-0.2_gini_a0.5``,
``shannon_balanced`` (Shannon grown with ``class_weight="balanced"``).

Labels
------
``label`` is readable and exact: ``Shannon``, ``off-centered Shannon, θ = prior``,
``off-centered Shannon, θ = uniform``, ``off-centered Daroczy (β = 0.5), θ = prior``,
``Asymmetric, θ = prior, consistent``, ``off-centered Gini, θ = (0.8, 0.2), λ_α (α = 0.5)``,
``Gini, balanced classes``.
:meth:`MeasureSetting.label_for` adds the resolved theta for a class prior
(``off-centered Shannon, θ = prior (0.56, 0.44)``); :attr:`MeasureSetting.measure_label` leaves
theta out (for the curve pages, where the reference theta is the page's).

Distinct settings have distinct keys and distinct labels (tested with hypothesis).

Examples
--------
>>> s = MeasureSetting.parse("oc_daroczy_b0.5")
>>> s.measure, s.theta, s.beta, s.key, s.label
('daroczy', 'prior', 0.5, 'oc_daroczy_b0.5', 'off-centered Daroczy (β = 0.5), θ = prior')
>>> MeasureSetting("shannon", theta="uniform").key
'ocuniform_shannon'
>>> MeasureSetting("shannon", theta="prior").label_for([56, 44])
'off-centered Shannon, θ = prior (0.56, 0.44)'
>>> round(float(MeasureSetting("shannon", "prior").impurity([8, 2]).of_counts([8, 2])), 6)
1.0
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields

import numpy as np

from offcenter.measures._validation import as_float_array, as_parameter, as_theta
from offcenter.measures.impurity import Impurity, resolve_theta
from offcenter.measures.registry import TREE_MEASURES, get_measure, parameters
from offcenter.measures.scores import SCORES, get_score, resolve_score, score_like

__all__ = ["MEASURE_KEYWORDS", "MeasureSetting", "Params", "comparison_settings", "format_number"]

_THETA_WORDS = ("prior", "uniform")
_NUMBER = r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+"
_THETA_VALUES = rf"(?:{_NUMBER})(?:-(?:{_NUMBER}))+"
_RE_PREFIX_THETA = re.compile(rf"^octheta({_THETA_VALUES})$")
_RE_SUFFIX_THETA = re.compile(rf"^theta({_THETA_VALUES})$")
# a number token: <word><number>, the word a parameter's token of the registry (b<beta>,
# r<rho>, a registered measure's own) or a<alpha>, n<n>; signs and exponents are read here so
# that "b-1" gives the clear "beta out of range" error, not "unknown measure"
_RE_PARAM = re.compile(r"^([a-z]+?)([-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:e[-+]?[0-9]+)?)$")
_FIELD_KEYS = ("measure", "theta", "params", "consistent", "alpha", "n", "class_weight", "score")
_SYNTAX = (
    "[oc_|ocuniform_|octheta<t1>-<t2>_]<measure>[_<token><value> per parameter, e.g. _b0.5]"
    "[_uniform|_theta<t1>-<t2>][_consistent[_n<n>]][_balanced][_a<alpha>][_by<score>]"
)
_RE_SCORE = re.compile(r"^by([a-z]+)$")


def _tokens() -> dict[str, str]:
    """Key token -> parameter name: ``a`` (alpha), ``n`` and every registered parameter's
    (the registry's :attr:`~offcenter.measures.registry.ParamInfo.token`)."""
    out = {p.token: name for name, p in parameters().items()}
    out.update({"a": "alpha", "n": "n"})
    return out


def _param_token(raw: str, known: Mapping[str, str]):
    """``(word, number)`` of a number token whose word is a known token, else None."""
    m = _RE_PARAM.match(raw)
    if m is None or m.group(1) not in known:
        return None
    return m.group(1), m.group(2)


def format_number(value: float) -> str:
    """The shortest positional decimal that reads back to the same float (``0.5``, ``2``).

    Used in keys and labels so that they are exact: ``float(format_number(x)) == x``.

    >>> format_number(2.0), format_number(0.1 + 0.2), format_number(1e-5)
    ('2', '0.30000000000000004', '0.00001')
    """
    return np.format_float_positional(float(value) + 0.0, trim="-")


def _positive_number(value, name: str) -> float:
    return as_parameter(value, name, low=0.0, low_open=True) + 0.0


def _normalise_theta(theta, info) -> None | str | tuple[float, ...]:
    if info.theta == "none":
        if theta is not None:
            raise ValueError(
                f"the {info.label} takes no theta (it is skew-insensitive by construction); "
                f"leave theta=None (got {theta!r})."
            )
        return None
    if theta is None:
        return "prior" if info.theta == "builtin" else None
    if isinstance(theta, str):
        word = theta.strip().lower()
        if word not in _THETA_WORDS:
            raise ValueError(
                f"theta must be None, 'prior', 'uniform' or a distribution such as (0.8, 0.2); "
                f"got {theta!r}."
            )
        return word
    arr = as_float_array(theta, "theta")
    if arr.ndim > 1:
        raise ValueError(
            f"theta must be one distribution (a flat list of numbers); got shape {arr.shape}."
        )
    q = 2 if arr.ndim == 0 else arr.shape[0]
    if arr.ndim == 1 and q < 2:
        raise ValueError(
            f"theta needs one reference frequency per class (at least 2); got {arr.tolist()}."
        )
    # one rule for every theta (a single number is checked as given, its messages quote it);
    # the values kept are the given ones (exact keys)
    as_theta(arr, q)
    values = arr if arr.ndim == 1 else np.array([1.0 - arr.item(), arr.item()])
    return tuple(float(v) + 0.0 for v in values)


def _as_bool(value, name: str) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Integral) and value in (0, 1):
        return bool(value)
    raise TypeError(f"{name} must be True or False; got {value!r}.")


class Params(Mapping):
    """A setting's measure parameters: a read-only, hashable mapping name -> value, in the
    order the measure declares them.

    >>> Params({"beta": 0.5})["beta"], dict(Params({"beta": 0.5}))
    (0.5, {'beta': 0.5})
    """

    __slots__ = ("_items",)

    def __init__(self, items=()):
        self._items = tuple((str(k), float(v) + 0.0) for k, v in dict(items).items())

    def __getitem__(self, name):
        for k, v in self._items:
            if k == name:
                return v
        raise KeyError(name)

    def __iter__(self):
        return (k for k, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(frozenset(self._items))

    def __eq__(self, other) -> bool:
        if isinstance(other, Mapping):
            return dict(self._items) == dict(other.items())
        return NotImplemented

    def __repr__(self) -> str:
        return repr(dict(self._items))

    def __reduce__(self):
        return (Params, (dict(self._items),))


#: The keyword arguments of a tree (and a forest) that a setting fills
#: (:meth:`MeasureSetting.tree_params`): what a caller drops to put another setting in.
MEASURE_KEYWORDS = (
    "measure",
    "theta",
    "beta",
    "rho",
    "measure_params",
    "consistent",
    "split_score",
)


@dataclass(frozen=True, init=False)
class MeasureSetting:
    r"""A measure setting: a registered measure, its parameters, theta, consistency and score.

    Parameters
    ----------
    measure : str
        A name (or alias) of :data:`offcenter.measures.registry.TREE_MEASURES` (the measures and
        the split criteria); stored canonical.
    theta : None, "prior", "uniform" or sequence of float
        The off-centering reference. ``"prior"``: the class distribution of the training set
        (resolved by :meth:`impurity`; on the curve pages the page's reference theta plays the
        prior), ``"uniform"``: (1/q, ..., 1/q), a sequence: that distribution (a single number t
        means (1 - t, t)). None: not off-centered. The asymmetric entropy always has one (None
        becomes ``"prior"``).
    params : mapping of str to float, optional
        The measure's parameters, by the names its registry entry declares
        (:attr:`offcenter.MeasureInfo.params`: Daroczy's ``beta``, the rank diversity's ``rho``,
        a registered measure's own): each left out takes the registry default; a name the
        measure does not declare is an error. Stored as :class:`Params` (read-only, hashable).
    **param_values : float or None
        The same parameters as keywords (``beta=0.5``, ``gamma=2``), over ``params``; None
        means the default.
    consistent : bool
        Asymmetric entropy only: the consistent (Laplace) form, with each node's own n.
    alpha : float or None
        The split score: None scores a split by its gain; a number in [0, 1] by
        :math:`\lambda_\alpha = \text{gain} / (\alpha I(Y) + (1 - \alpha) I(X))`
        (see :func:`offcenter.lambda_alpha`).
    score : str or None
        The split score's name in :data:`offcenter.measures.scores.SCORES`: ``"gain"``,
        ``"lambda"`` (with ``alpha``), ``"criterion"`` (a split criterion's own value), a
        registered one. None: implied by ``alpha`` (``"lambda"``) or the measure's default.
    n : float or None
        A fixed sample size for the consistent form (the curve pages draw the consistent
        asymmetric entropy at one n); None: each distribution's own n.
    class_weight : None or "balanced"
        A training option of the tree, not of the measure: ``"balanced"`` grows the tree with
        scikit-learn's ``class_weight="balanced"`` (each row weighs
        ``n_samples / (n_classes * n_class)``, so every class weighs the same; the counts, the
        impurities, the gains and the prior are then weighted, see
        :class:`offcenter.TreeClassifier`). The usual way of making Shannon or Gini
        skew-insensitive, hence a peer of off-centering. Key suffix ``_balanced``.

    Raises
    ------
    ValueError, TypeError
        With a message naming the argument, for an unknown measure, a parameter the measure does
        not take or out of its range, a bad theta, ``consistent`` for a measure other than the
        asymmetric entropy, ``n`` without ``consistent``, alpha outside [0, 1].
    """

    measure: str = "shannon"
    theta: None | str | tuple[float, ...] = None
    params: Params = Params()
    consistent: bool = False
    alpha: float | None = None
    n: float | None = None
    class_weight: str | None = None
    score: str = "gain"

    def __init__(
        self,
        measure="shannon",
        theta=None,
        params=None,
        consistent=False,
        alpha=None,
        n=None,
        class_weight=None,
        score=None,
        **param_values,
    ) -> None:
        info = get_measure(measure)
        if params is None:
            given = {}
        elif isinstance(params, Mapping):
            given = dict(params)
        else:
            raise TypeError(
                f"params must be a mapping of parameter names to numbers (e.g. {{'beta': 0.5}}); "
                f"got {params!r}."
            )
        for name, value in param_values.items():
            if value is None:
                given.pop(name, None)
            else:
                given[name] = value
        given = {k: v for k, v in given.items() if v is not None}
        for name in given:
            if name not in info.param_names:
                raise ValueError(
                    f"the {info.label} does not take {name}; leave {name}=None "
                    f"(it takes {', '.join(info.param_names) or 'no parameters'})."
                )
        values = info.validate_params(given, fill_defaults=True)
        consistent = _as_bool(consistent, "consistent")
        if consistent and not info.uses_sample_size:
            raise ValueError(
                f"consistent=True applies only to the asymmetric entropy, not the {info.label}."
            )
        n = None if n is None else _positive_number(n, "n")
        if n is not None and not consistent:
            raise ValueError(
                "n (a fixed sample size) applies only to the consistent form: "
                "set consistent=True, or leave n=None."
            )
        alpha = (
            None
            if alpha is None
            else as_parameter(alpha, "alpha", low=0.0, high=1.0, what="the score lambda_alpha")
            + 0.0
        )
        if class_weight is not None:
            if not isinstance(class_weight, str) or class_weight.strip().lower() != "balanced":
                raise ValueError(
                    f"class_weight must be None or 'balanced' in a measure setting; got "
                    f"{class_weight!r} (a dict of weights goes to TreeClassifier directly)."
                )
            class_weight = "balanced"
        score = resolve_score(score, alpha, info)
        fixed = {
            "measure": info.name,
            "theta": _normalise_theta(theta, info),
            "params": Params((p, values[p]) for p in info.param_names),
            "consistent": consistent,
            "alpha": alpha,
            "n": n,
            "class_weight": class_weight,
            "score": score,
        }
        for name, value in fixed.items():
            object.__setattr__(self, name, value)

    # the parameters of the two built-in measures that have one, read as before
    @property
    def beta(self) -> float | None:
        """``params["beta"]`` (Daroczy's order), None for a measure without it."""
        return self.params.get("beta")

    @property
    def rho(self) -> float | None:
        """``params["rho"]`` (the rank diversity's order), None for a measure without it."""
        return self.params.get("rho")

    # ------------------------------------------------------------------ construction
    @classmethod
    def parse(cls, spec) -> MeasureSetting:
        """A setting from its key (or any syntax the CLI accepts), a dict, or a setting.

        Strings: see the module docs (case, spaces around, ``-`` for ``_`` between words and
        measure aliases are accepted, so ``OC-Shannon`` and ``oc_rank_r0`` work); parameters
        left out take the registry defaults. Dicts take the keys ``measure``, ``theta``,
        ``params``, ``consistent``, ``alpha``, ``n``, ``class_weight`` and any registered
        parameter's name (``beta``, ``rho``, ...).

        Examples
        --------
        >>> MeasureSetting.parse("asymmetric_consistent").key
        'asymmetric_consistent'
        >>> MeasureSetting.parse({"measure": "gini", "theta": "prior"}).label
        'off-centered Gini, θ = prior'
        >>> MeasureSetting.parse("oc_rank_r0").key
        'oc_rank_diversity_r0'
        """
        if isinstance(spec, MeasureSetting):
            return spec
        if isinstance(spec, Mapping):
            keys = (*_FIELD_KEYS, *parameters())
            unknown = set(spec) - set(keys)
            if unknown:
                raise ValueError(
                    f"unknown keys in a setting: {', '.join(sorted(map(str, unknown)))}; a "
                    f"setting takes {', '.join(keys)}."
                )
            if "measure" not in spec:
                raise ValueError("a setting needs a 'measure'.")
            return cls(**spec)
        if not isinstance(spec, str) or not spec.strip():
            raise ValueError(
                f"a setting is a name such as 'oc_shannon' (syntax {_SYNTAX}) or a dict; "
                f"got {spec!r}."
            )
        return cls._parse_text(spec)

    @classmethod
    def _parse_text(cls, spec: str) -> MeasureSetting:
        known = _tokens()
        tokens: list[str] = []
        for raw in re.split(r"[_\s]+", spec.strip().lower()):
            if not raw:
                continue
            if (
                _param_token(raw, known)
                or _RE_PREFIX_THETA.match(raw)
                or _RE_SUFFIX_THETA.match(raw)
            ):
                tokens.append(raw)
            else:
                tokens.extend(t for t in raw.split("-") if t)
        theta = None
        if tokens:
            head = tokens[0]
            m = _RE_PREFIX_THETA.match(head)
            if head == "oc":
                theta, tokens = "prior", tokens[1:]
            elif head == "ocuniform":
                theta, tokens = "uniform", tokens[1:]
            elif head == "ocprior":
                theta, tokens = "prior", tokens[1:]
            elif m:
                theta, tokens = _theta_values(m.group(1)), tokens[1:]
        found: dict = {}
        numbers_found: list[tuple[str, float, str]] = []  # (token word, value, token)

        def put(name, value, token):
            if name in found:
                raise ValueError(f"{spec!r} gives {name} twice (at {token!r}).")
            found[name] = value

        while len(tokens) > 1:
            tok = tokens[-1]
            m = _param_token(tok, known)
            if m:
                numbers_found.append((m[0], float(m[1]), tok))
            elif _RE_SCORE.match(tok) and _RE_SCORE.match(tok).group(1) in SCORES:
                put("score", _RE_SCORE.match(tok).group(1), tok)
            elif tok == "consistent":
                put("consistent", True, tok)
            elif tok == "balanced":
                put("class_weight", "balanced", tok)
            elif tok in _THETA_WORDS:
                put("theta", tok, tok)
            elif _RE_SUFFIX_THETA.match(tok):
                put("theta", _theta_values(_RE_SUFFIX_THETA.match(tok).group(1)), tok)
            else:
                break
            tokens = tokens[:-1]
        name = "_".join(tokens)
        try:
            info = get_measure(name)
        except (ValueError, TypeError):
            raise ValueError(
                f"unknown setting {spec!r}: expected {_SYNTAX} with a measure among "
                f"{', '.join(TREE_MEASURES)}, e.g. shannon, oc_shannon, ocuniform_shannon, "
                "oc_daroczy_b0.5, asymmetric_consistent."
            ) from None
        # a token names the measure's own parameter first (two measures may give one word to
        # different parameters), else whichever parameter has it (the setting then says the
        # measure does not take it)
        own = {p.token: p.name for p in info.params}
        params: dict = {}
        for word, value, tok in reversed(numbers_found):
            name = own.get(word) or known[word]
            if name in ("alpha", "n"):
                put(name, value, tok)
            elif name in params:
                raise ValueError(f"{spec!r} gives {name} twice (at {tok!r}).")
            else:
                params[name] = value
        if "theta" in found:
            if theta is not None:
                raise ValueError(f"{spec!r} gives theta twice (an oc prefix and a suffix).")
            theta = found.pop("theta")
        return cls(info.name, theta=theta, params=params, **found)

    # ------------------------------------------------------------------ descriptions
    @property
    def info(self):
        """The registry entry of the measure (:class:`offcenter.MeasureInfo`)."""
        return get_measure(self.measure)

    @property
    def score_info(self):
        """The registry entry of the score (:class:`offcenter.measures.scores.ScoreInfo`)."""
        return get_score(self.score)

    @property
    def takes_alpha(self) -> bool:
        """Whether a score with alpha (lambda_alpha) applies to the measure."""
        return any(s.uses_alpha and s.applies_to(self.info) for s in SCORES.values())

    def scored_like(self, other: MeasureSetting) -> MeasureSetting:
        """This setting scored as ``other`` is (its score and alpha), when this setting has
        its default score and ``other``'s applies to its measure; else this setting (a
        tree's comparison tables score each setting like the tree)."""
        if self.score != resolve_score(None, None, self.info):
            return self
        score, alpha = score_like(self.info, other.score, other.alpha)
        return self.replace(score=score, alpha=alpha)

    @property
    def off_centered(self) -> bool:
        """True when a measure that can be off-centered is (the asymmetric entropy: False)."""
        return self.theta is not None and self.info.theta == "optional"

    def _theta_key(self) -> str:
        if self.theta == "prior":
            return ""
        if self.theta == "uniform":
            return "uniform"
        return "theta" + "-".join(format_number(v) for v in self.theta)

    @property
    def key(self) -> str:
        """Short, stable, URL/CSV-safe identifier; :meth:`parse` reads it back exactly."""
        info = self.info
        parts = []
        if self.off_centered:
            parts.append("oc" + self._theta_key())
        parts.append(info.name)
        for p in info.params:
            parts.append(f"{p.token}{format_number(self.params[p.name])}")
        if info.theta == "builtin" and self.theta != "prior":
            parts.append(self._theta_key())
        if self.consistent:
            parts.append("consistent")
        if self.n is not None:
            parts.append(f"n{format_number(self.n)}")
        if self.class_weight is not None:
            parts.append("balanced")
        if self.alpha is not None:
            parts.append(f"a{format_number(self.alpha)}")
        if self.score != resolve_score(None, self.alpha, info):
            parts.append(f"by{self.score}")
        return "_".join(parts)

    def __str__(self) -> str:
        return self.key

    def _theta_text(self, resolved=None, digits: int = 2) -> str:
        if isinstance(self.theta, tuple):
            return "θ = (" + ", ".join(format_number(v) for v in self.theta) + ")"
        text = f"θ = {self.theta}"
        if resolved is not None:
            text += " (" + ", ".join(f"{v:.{digits}f}" for v in resolved) + ")"
        return text

    def _compose(self, theta_text: str | None, *, with_params: bool = True) -> str:
        info = self.info
        text = info.short
        params = []
        for p in info.params if with_params else ():
            params.append(f"{p.glyph} = {format_number(self.params[p.name])}")
        if params:
            text += " (" + ", ".join(params) + ")"
        if self.off_centered:
            text = "off-centered " + text
        if theta_text:
            text += ", " + theta_text
        if self.consistent:
            text += ", consistent"
            if self.n is not None:
                text += f" (n = {format_number(self.n)})"
        if self.class_weight is not None:
            text += ", balanced classes"
        if self.alpha is not None:
            text += f", λ_α (α = {format_number(self.alpha)})"
        if self.score != resolve_score(None, self.alpha, info):
            text += f", scored by {self.score_info.label}"
        return text

    @property
    def label(self) -> str:
        """Readable and exact, e.g. ``off-centered Daroczy (β = 0.5), θ = prior``."""
        return self._compose(None if self.theta is None else self._theta_text())

    @property
    def label_without_params(self) -> str:
        """The label without the parameters' values (``off-centered Daroczy, θ = prior``): a
        choice whose values sliders set.

        >>> MeasureSetting.parse("oc_daroczy_b0.5").label_without_params
        'off-centered Daroczy, θ = prior'
        """
        return self._compose(None if self.theta is None else self._theta_text(), with_params=False)

    @property
    def measure_label(self) -> str:
        """The label without theta (``off-centered Shannon``, ``Asymmetric, consistent``).

        For places where the reference theta is given by the context (the curve pages); not
        unique across settings that differ only in theta.
        """
        return self._compose(None)

    def label_for(self, class_counts, digits: int = 2) -> str:
        """The label with the theta values resolved for a class prior (counts or frequencies).

        >>> MeasureSetting("asymmetric").label_for([3, 1])
        'Asymmetric, θ = prior (0.75, 0.25)'
        """
        if self.theta is None or isinstance(self.theta, tuple):
            return self.label
        resolved = resolve_theta(self.theta, class_counts)
        return self._compose(self._theta_text(resolved, digits))

    def __repr__(self) -> str:
        return f"MeasureSetting.parse({self.key!r})"

    # ------------------------------------------------------------------ use
    def resolve_theta(self, class_counts) -> np.ndarray | None:
        """The reference distribution for these class counts (see :func:`resolve_theta`)."""
        counts = as_float_array(class_counts, "class_counts")
        if counts.ndim != 1 or counts.size < 2:
            raise ValueError(
                "class_counts must be one count (or frequency) per class, at least 2 classes; "
                f"got shape {counts.shape}."
            )
        theta = np.asarray(self.theta) if isinstance(self.theta, tuple) else self.theta
        return resolve_theta(theta, counts)

    def impurity(self, class_counts) -> Impurity:
        """The :class:`Impurity` of this setting for a training set with these class counts.

        ``"prior"`` resolves to the class distribution of ``class_counts`` (counts or
        frequencies), ``"uniform"`` to (1/q, ..., 1/q). ``alpha`` and ``n`` are not part of an
        impurity (they are the score and the curve pages' sample size).
        """
        return Impurity(
            self.measure,
            theta=self.resolve_theta(class_counts),
            consistent=self.consistent,
            **self.params,
        )

    def tree_params(self) -> dict:
        """The :class:`offcenter.TreeClassifier` keyword arguments of this setting.

        The measure's parameters go in ``measure_params`` (None for a measure without any);
        ``alpha`` and ``class_weight`` are included only when set, so that a caller's defaults
        are kept.

        >>> MeasureSetting("daroczy", beta=0.5).tree_params()["measure_params"]
        {'beta': 0.5}
        """
        if self.n is not None:
            raise ValueError(
                "a tree uses each node's own n: a setting with a fixed n is for curves only."
            )
        out = {
            "measure": self.measure,
            "theta": list(self.theta) if isinstance(self.theta, tuple) else self.theta,
            "measure_params": dict(self.params) or None,
            "consistent": self.consistent,
        }
        if self.alpha is not None:
            out["alpha"] = self.alpha
        if self.score != resolve_score(None, self.alpha, self.info):
            out["split_score"] = self.score
        if self.class_weight is not None:
            out["class_weight"] = self.class_weight
        return out

    def to_dict(self) -> dict:
        """Fields plus ``key`` and ``label`` (theta as a list, params as a dict), e.g. for
        JSON; :meth:`parse` reads it back without ``key`` and ``label``."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        if isinstance(self.theta, tuple):
            out["theta"] = list(self.theta)
        out["params"] = dict(self.params)
        out["key"] = self.key
        out["label"] = self.label
        return out

    def replace(self, **changes) -> MeasureSetting:
        """A copy with some fields changed (validated again); a parameter's name changes that
        parameter (None: back to its default), ``params`` replaces them all."""
        kwargs = {f.name: getattr(self, f.name) for f in fields(self)}
        if "score" not in changes and self.score == resolve_score(None, self.alpha, self.info):
            kwargs["score"] = None  # an implied score follows the new alpha (and measure)
        kwargs.update(changes)
        return MeasureSetting(**kwargs)

    def without_params(self) -> MeasureSetting:
        """The same setting with its measure's parameters at their defaults (the Tree page's
        choice of a setting, whose sliders give the values)."""
        return self.replace(params=None)


def _theta_values(text: str) -> tuple[float, ...]:
    return tuple(float(v) for v in text.split("-"))


def comparison_settings() -> list[MeasureSetting]:
    """The standard set of measure settings shown side by side in the app and the tree tables.

    Uncentered Shannon, Gini and misclassification; off-centered Shannon and Gini and the
    asymmetric entropy (plain and consistent) on the prior; Daroczy of order 0.5 and rank
    diversity of order 0 off-centered on the prior.

    >>> [s.key for s in comparison_settings()][:4]
    ['shannon', 'gini', 'misclassification', 'oc_shannon']
    """
    return [
        MeasureSetting("shannon"),
        MeasureSetting("gini"),
        MeasureSetting("misclassification"),
        MeasureSetting("shannon", theta="prior"),
        MeasureSetting("gini", theta="prior"),
        MeasureSetting("daroczy", theta="prior", beta=0.5),
        MeasureSetting("rank_diversity", theta="prior", rho=0.0),
        MeasureSetting("asymmetric", theta="prior"),
        MeasureSetting("asymmetric", theta="prior", consistent=True),
    ]


def impurities(settings: Iterable, class_counts) -> list[Impurity]:
    """Build several :class:`Impurity` objects from measure settings, resolving theta.

    Each item is a :class:`MeasureSetting`, its key (``"oc_shannon"``) or a dict with
    ``measure`` and optionally ``theta`` (``"prior"``, ``"uniform"``, a vector or None),
    ``consistent``, ``beta``, ``rho`` (see :meth:`MeasureSetting.parse`).

    >>> [imp.key for imp in impurities(["shannon", "oc_gini"], [70, 30])]
    ['shannon', 'oc_gini']
    """
    return [MeasureSetting.parse(s).impurity(class_counts) for s in settings]


# ---------------------------------------------------------------- setting catalogs (one home)
#: The settings a cross-validated comparison uses by default (the study of docs/evaluation.md).
EVALUATION_SETTINGS = (
    "shannon",
    "gini",
    "oc_shannon",
    "oc_gini",
    "oc_daroczy_b0.5",
    "asymmetric",
    "asymmetric_consistent",
)
#: The imbalance-aware peers offered beside the standard settings.
PEER_SETTINGS = ("dkm", "hellinger", "shannon_balanced", "gini_balanced")
#: The settings of the KEEL study (docs/imbalanced_study.md), Shannon first: the reference.
STUDY_SETTINGS = (
    "shannon",
    "gini",
    "dkm",
    "hellinger",
    "shannon_balanced",
    "gini_balanced",
    "oc_shannon",
    "oc_gini",
    "oc_daroczy_b0.5",
    "asymmetric",
    "asymmetric_consistent",
)


def available_settings() -> list[MeasureSetting]:
    """The settings the app offers: :func:`comparison_settings`, :data:`EVALUATION_SETTINGS`
    and :data:`PEER_SETTINGS`, each once, in that order.

    >>> [s.key for s in available_settings()][-2:]
    ['shannon_balanced', 'gini_balanced']
    """
    out: list[MeasureSetting] = []
    for spec in [*comparison_settings(), *EVALUATION_SETTINGS, *PEER_SETTINGS]:
        s = MeasureSetting.parse(spec)
        if s.key not in {o.key for o in out}:
            out.append(s)
    return out
