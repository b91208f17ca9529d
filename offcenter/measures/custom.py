r"""Your own measure, in plain Python: :func:`register_measure` and the plugin entry points.

scikit-learn's trees take three criteria or a Cython object; a criterion written in Python is
"a common request" it does not serve (scikit-learn issues #17436, #10251). Here a measure is a
vectorised function of class proportions, registered once:

.. math::
    I : \{p \in [0, 1]^q : \textstyle\sum_j p_j = 1\} \to [0, \infty), \qquad
    I(e_j) = 0 \ \text{(pure distributions)}

``func(p, **params)`` receives a float64 array whose **last axis** holds the q class
proportions (leading axes are batches: the tree scores all the thresholds of a feature in one
call) and returns one value per distribution (shape ``p.shape[:-1]``). After
:func:`register_measure` the name works everywhere a built-in measure does:
``TreeClassifier(measure=name)`` (and ``theta="prior"``: off-centered on any theta, as
Lallich, Lenca and Vaillant's transform applies to any measure), :class:`MeasureSetting`,
the inspection tables, the forest, the evaluation and its CLI (``--plugin module``) and the
curve pages (an installed package declares an entry point in the ``offcenter.measures``
group; see :func:`load_plugins`).

Validation on registration
--------------------------
The function is called on pure, uniform and random distributions of 2, 3 and 5 classes (with
its parameters at their defaults): the result must have one value per distribution, be finite
and non-negative (round-off down to -1e-12 is clipped), and be 0 (within 1e-9) on every pure
distribution, and be largest at the uniform distribution (within 1e-9; off-centering moves
that maximum to theta, so a measure that peaks elsewhere would not peak at theta). Anything
else is a ``ValueError`` that names the measure, its parameter values and the distribution
that failed; an exception raised by ``func`` is reported with it. Concavity (which makes every
gain >= 0, and lets the tree skip thresholds inside runs of one class) is checked numerically
and recorded in ``MeasureInfo.concave``, not required.

Checked where it is used
------------------------
The same validation runs again at every other parameter value a tree, a forest or a page
uses (once per value: cached), and its concavity **at that value** decides whether the tree
may skip thresholds (``Impurity.concave``). Every call also checks what the function
returns: a NaN, an infinity or a negative value anywhere (not only at the test points) is a
``ValueError`` naming the measure, the parameter values and the distribution, never a silent
tree or a numpy broadcasting error.

Saving models
-------------
A tree or forest fitted with a custom measure pickles (``pickle``, ``joblib.dump``) with the
measure by name and its function by reference (module and name). Loading it in another
process uses the measure registered there under that name; otherwise imports the function's
module (whose import may register it) and registers the function from it; otherwise fails
with an ``ImportError`` that says which module to import. A function defined in
``__main__`` or inside another function cannot be found again: register it before loading.

Parameters
----------
A custom measure's parameters take any name (lower-case letters, not a setting's field such as
``theta`` or ``alpha``): ``params={"gamma": 2.0}``. The registry declares them, and everything
else reads them from there: :class:`~offcenter.MeasureSetting` (``params``, or ``gamma=`` as a
keyword), the setting keys (``mymeasure_gamma2``; a parameter named ``beta`` or ``rho`` keeps
the built-in ``b``/``r`` token, ``mymeasure_b0.5``), the estimators
(``TreeClassifier(measure="mymeasure", measure_params={"gamma": 2.0})``, the forest alike),
the CLI's ``--settings`` and the pages' links, sliders and session files.

Examples
--------
>>> import numpy as np
>>> from offcenter import TreeClassifier, register_measure
>>> def gini_again(p):
...     return 1.0 - (p * p).sum(axis=-1)
>>> info = register_measure("gini_again", gini_again, label="Gini, as a plugin")
>>> X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0]])
>>> clf = TreeClassifier(measure="gini_again", theta="prior").fit(X, [0, 0, 0, 1, 1])
>>> clf.setting_.label
'off-centered Gini, as a plugin, θ = prior'
>>> unregister_measure("gini_again")
"""

from __future__ import annotations

import copyreg
import importlib
import numbers
import os
import re
import warnings
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points as _entry_points

import numpy as np

from offcenter.measures import registry as _registry
from offcenter.measures._validation import as_distribution, scalar_or_array
from offcenter.measures.registry import MeasureInfo, ParamInfo

__all__ = [
    "ENTRY_POINT_GROUP",
    "custom_measure_names",
    "load_plugins",
    "register_measure",
    "unregister_measure",
]

#: The entry point group an installed package declares its measures in (pyproject.toml:
#: ``[project.entry-points."offcenter.measures"] my_measure = "my_pkg.measures:register"``).
ENTRY_POINT_GROUP = "offcenter.measures"
#: Environment variable listing the plugins loaded in this process (``module`` or
#: ``module:function``, comma-separated), so that worker processes (joblib, dask) load them too.
PLUGINS_ENV = "OFFCENTER_PLUGINS"

_NAME = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
_PARAM_NAME = re.compile(r"^[a-z]+$")
_CUSTOM: dict[str, Callable] = {}  # name -> the user's function
_KWARGS: dict[str, dict] = {}  # name -> the other arguments of its registration
_LOADED: set[str] = set()  # plugin specs loaded in this process


def _check_name(name) -> str:
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError(
            f"a measure name is lower-case letters, digits and single underscores, starting "
            f"with a letter (e.g. 'tsallis'); got {name!r}."
        )
    if name in ("oc", "ocuniform", "ocprior", "consistent", "balanced", "uniform", "prior"):
        raise ValueError(f"{name!r} is a word of the setting keys; choose another name.")
    tokens = "|".join(
        sorted({"b", "r", "a", "n", *(p.token for p in _registry.parameters().values())})
    )
    if re.match(r"^(oc|octheta)", name) or re.search(rf"_({tokens})[-+]?[0-9.]", name):
        raise ValueError(
            f"{name!r} would be read as part of a setting key (an 'oc' prefix or a number "
            "suffix such as _b0.5 or _a1); choose another name."
        )
    return name


def _param_info(name: str, spec, measure: str) -> ParamInfo:
    if not isinstance(name, str) or not _PARAM_NAME.match(name):
        raise ValueError(
            f"a parameter of a custom measure is named by lower-case letters (e.g. 'gamma'); "
            f"got {name!r}."
        )
    if name in _registry.RESERVED_PARAM_NAMES:
        raise ValueError(
            f"{name!r} is a field of a measure setting, not a name for a measure's parameter; "
            "rename it in your function."
        )
    if isinstance(spec, ParamInfo):
        if spec.name != name:
            raise ValueError(f"the ParamInfo for {name!r} is named {spec.name!r}.")
        return _check_token(spec)
    known = _registry.parameters().get(name)
    token = known.token if known is not None else name
    if isinstance(spec, Mapping):
        extra = set(spec) - {"default", "low", "high", "description", "token"}
        if extra or "default" not in spec:
            raise ValueError(
                f"parameter {name!r}: give a default number, or a dict with 'default' and "
                f"optionally 'low', 'high', 'description', 'token'; got {dict(spec)!r}."
            )
        default, low, high = spec["default"], spec.get("low"), spec.get("high")
        description = spec.get("description", f"parameter {name} of the {measure} measure")
        token = spec.get("token", token)
    else:
        default, low, high, description = spec, None, None, f"parameter {name} of {measure}"
    for what, v in (("default", default), ("low", low), ("high", high)):
        if v is not None and (
            isinstance(v, bool) or not isinstance(v, numbers.Real) or not np.isfinite(v)
        ):
            raise ValueError(f"parameter {name!r}: {what} must be a finite number; got {v!r}.")
    default = float(default)
    if (low is not None and default < low) or (high is not None and default > high):
        raise ValueError(f"parameter {name!r}: the default {default} is outside [{low}, {high}].")
    ui_low = float(low) if low is not None else default - max(1.0, abs(default))
    ui_high = float(high) if high is not None else default + max(1.0, abs(default))
    glyph = _registry.greek_glyph(name)
    return _check_token(
        ParamInfo(
            name,
            rf"\{name}" if glyph != name else rf"\mathrm{{{name}}}",
            default,
            None if low is None else float(low),
            None if high is None else float(high),
            ui_low,
            ui_high,
            (ui_high - ui_low) / 100.0,
            str(description),
            token=str(token),
        )
    )


def _check_token(info: ParamInfo) -> ParamInfo:
    """A parameter's key token is letters, not a word the keys reserve, and names one
    parameter only (``b`` is beta's)."""
    token = info.token
    if not _PARAM_NAME.match(token) or token in _registry.RESERVED_TOKENS:
        raise ValueError(
            f"parameter {info.name!r}: its key token {token!r} must be lower-case letters other "
            f"than {', '.join(sorted(_registry.RESERVED_TOKENS))}."
        )
    for other, p in _registry.parameters().items():
        if p.token == token and other != info.name:
            raise ValueError(
                f"parameter {info.name!r}: the key token {token!r} is {other}'s; give another "
                "('token' in its dict)."
            )
    return info


def _test_distributions(q: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Pure distributions, the uniform one, and random ones (some with zeros); the mask says
    which rows are pure."""
    pure = np.eye(q)
    uniform = np.full((1, q), 1.0 / q)
    rand = rng.dirichlet(np.ones(q), size=40)
    sparse = rng.dirichlet(np.ones(q), size=10)
    sparse[:, 0] = 0.0
    sparse /= sparse.sum(axis=1, keepdims=True)
    p = np.vstack([pure, uniform, rand, sparse])
    mask = np.zeros(len(p), bool)
    mask[:q] = True
    return p, mask


def _at(name: str, params: Mapping) -> str:
    """``measure 'name'`` with its parameter values, for the messages."""
    values = ", ".join(f"{k}={v:g}" for k, v in sorted(params.items()))
    return f"measure {name!r}" + (f" at {values}" if values else "")


def _validate(name: str, func: Callable, params: dict[str, float]) -> bool:
    """Check func on test distributions at the parameter values ``params``; returns whether it
    looks concave. A ValueError names the measure, the values and the failing distribution."""
    rng = np.random.default_rng(20070101)
    concave = True
    where = _at(name, params)
    for q in (2, 3, 5):
        p, pure = _test_distributions(q, rng)
        try:
            out = func(p.copy(), **params)
        except Exception as exc:  # the user's code: report whatever it raised
            raise ValueError(
                f"{where}: calling it on an array of shape {p.shape} (the last axis "
                f"holds the {q} class proportions) raised {type(exc).__name__}: {exc}"
            ) from exc
        out = np.asarray(out, dtype=float) if out is not None else None
        if out is None or out.shape != p.shape[:-1]:
            got = None if out is None else out.shape
            raise ValueError(
                f"{where} must return one value per distribution: for p of shape "
                f"{p.shape} (last axis: the {q} classes) it returned shape {got}; reduce over "
                "the last axis (e.g. .sum(axis=-1))."
            )
        bad = ~np.isfinite(out)
        if bad.any():
            raise ValueError(
                f"{where} is not finite (value {out[bad][0]}) at p = "
                f"{np.round(p[bad][0], 4).tolist()}; handle p_j = 0 (e.g. 0 log 0 = 0)."
            )
        if (out < -1e-12).any():
            k = int(np.argmin(out))
            raise ValueError(
                f"{where} must be non-negative; it is {out[k]:.6g} at p = "
                f"{np.round(p[k], 4).tolist()}."
            )
        if (np.abs(out[pure]) > 1e-9).any():
            k = int(np.flatnonzero(pure & (np.abs(out) > 1e-9))[0])
            raise ValueError(
                f"{where} must be 0 on a pure distribution (one class only); it is "
                f"{out[k]:.6g} at p = {p[k].tolist()}."
            )
        top = out[q]  # the uniform distribution (row q of the test distributions)
        if (out > top + 1e-9 * max(1.0, abs(top))).any():
            k = int(np.argmax(out))
            raise ValueError(
                f"{where} must be largest at the uniform distribution (off-centering moves that "
                f"maximum to theta); it is {out[k]:.6g} at p = {np.round(p[k], 4).tolist()}, "
                f"above {top:.6g} at the uniform p."
            )
        a = rng.dirichlet(np.ones(q), size=30)
        b = rng.dirichlet(np.ones(q), size=30)
        try:
            mid = np.asarray(func((a + b) / 2.0, **params), float)
            ends = (np.asarray(func(a, **params), float) + np.asarray(func(b, **params), float)) / 2
        except Exception as exc:  # the concavity probe calls the user's code too
            raise ValueError(
                f"{where}: calling it on random distributions of {q} classes (the concavity "
                f"check) raised {type(exc).__name__}: {exc}"
            ) from exc
        concave &= bool(np.all(mid >= ends - 1e-9))
    return concave


class _CustomKernel:
    """A custom measure's kernel: the user's function, checked where it is used.

    ``check(params)`` validates the function at the parameter values a tree or a page uses
    (:func:`_validate`, once per values: cached) and returns its concavity there. Each call
    checks the values returned: a NaN, an infinity or a negative value (below -1e-12) is a
    ValueError naming the measure, the parameter values and the distribution; an exception of
    the function is reported the same way. Pickles by name (see :func:`_restore`).
    """

    def __init__(self, name: str, func: Callable):
        self.name = name
        self.func = func
        self._checked: dict = {}
        self.__name__ = name

    def check(self, params: Mapping) -> bool:
        key = tuple(sorted((k, float(v)) for k, v in params.items()))
        if key not in self._checked:
            self._checked[key] = _validate(self.name, self.func, dict(key))
        return self._checked[key]

    def __call__(self, p, **kw):
        try:
            out = self.func(p, **kw)
        except Exception as exc:  # the user's code
            raise ValueError(
                f"{_at(self.name, kw)}: calling it on distributions of shape {np.shape(p)} "
                f"raised {type(exc).__name__}: {exc}"
            ) from exc
        out = np.asarray(out, dtype=np.float64)
        if out.shape != np.shape(p)[:-1]:
            raise ValueError(
                f"{_at(self.name, kw)} must return one value per distribution: for p of shape "
                f"{np.shape(p)} it returned shape {out.shape}."
            )
        bad = ~np.isfinite(out) | (out < -1e-12)
        if bad.any():
            k = np.argwhere(bad)[0]
            value = out[tuple(k)]
            dist = np.asarray(p, float)[tuple(k)]
            what = "is not finite" if not np.isfinite(value) else "is negative"
            raise ValueError(
                f"{_at(self.name, kw)} {what} ({value:.6g}) at p = "
                f"{np.round(dist, 6).tolist()}: a measure is finite and >= 0 everywhere."
            )
        return np.maximum(out, 0.0)

    def __reduce__(self):
        return (_restore, (self.name, *_origin(self.name), "kernel"))


def _origin(name: str) -> tuple:
    """(module, qualified name, registration keywords) of a custom measure's function."""
    func = _CUSTOM[name]
    return (
        getattr(func, "__module__", None),
        getattr(func, "__qualname__", None),
        dict(_KWARGS.get(name, {})),
    )


def _restore(name: str, module, qualname, kwargs: dict, what: str):
    """Unpickling of a custom measure (a fitted tree or forest that uses it): the measure
    registered in this process under ``name``; else its function's module is imported (its
    import may register it) and the function registered from there; else an error that says
    which module to import."""
    if name not in _CUSTOM and module and module != "__main__":
        try:
            mod = importlib.import_module(module)
        except ImportError:
            mod = None
        if mod is not None and name not in _CUSTOM and qualname and "<locals>" not in qualname:
            obj = mod
            for part in qualname.split("."):
                obj = getattr(obj, part, None)
            if callable(obj):
                register_measure(name, obj, **kwargs)
    if name not in _CUSTOM:
        where = (
            f"import the module {module!r} that defines it, or register it"
            if module and module != "__main__"
            else "register it (offcenter.register_measure) with the same function"
        )
        raise ImportError(
            f"this model uses the custom measure {name!r}, not registered in this process: "
            f"{where} before loading the model."
        )
    info = _registry.MEASURES[name]
    return info if what == "info" else getattr(info, what)


def _reduce_info(info: MeasureInfo):
    """Pickling of a MeasureInfo: a custom measure by name (:func:`_restore`), so that a tree
    or forest fitted with it pickles and loads where its module is importable; a built-in
    one as before."""
    if info.name in _CUSTOM and _registry.MEASURES.get(info.name) is info:
        return (_restore, (info.name, *_origin(info.name), "info"))
    return info.__reduce_ex__(2)


copyreg.pickle(MeasureInfo, _reduce_info)


def register_measure(
    name: str,
    func: Callable,
    *,
    label: str | None = None,
    params: Mapping | None = None,
    short: str | None = None,
    latex: str = "",
    description: str = "",
    reference: str = "",
    replace: bool = False,
) -> MeasureInfo:
    """Register a measure written in Python; it then works like a built-in one.

    Parameters
    ----------
    name : str
        The measure's name (``TreeClassifier(measure=name)``, setting keys): lower-case
        letters, digits, single underscores.
    func : callable
        ``func(p, **params) -> array``: p of shape (..., q), the last axis the class
        proportions (summing to 1, float64); returns shape ``p.shape[:-1]``. Validated on
        registration (see the module docs).
    label : str, optional
        Readable name (tables, legends); default: the name. ``short`` (default: the label) is
        the name in setting labels.
    params : mapping, optional
        ``{"gamma": default}`` or ``{"gamma": {"default": 0.5, "low": 0, "high": 1,
        "description": ..., "token": ...}}`` (or a :class:`ParamInfo`): any lower-case name but
        a setting's fields (``theta``, ``alpha``, ...); ``token`` is its word in setting keys
        (default: the name, or ``b``/``r`` for ``beta``/``rho``).
    latex, description, reference : str
        For the pages and the docs.
    replace : bool
        Replace a custom measure registered under the same name (a built-in never).

    Returns
    -------
    MeasureInfo
        The registry entry (``offcenter.get_measure(name)`` returns it too).

    Raises
    ------
    ValueError
        A bad name, a name taken, bad parameters, or a function failing the validation.
    TypeError
        ``func`` is not callable.
    """
    name = _check_name(name)
    if not callable(func):
        raise TypeError(f"func must be a function of p (a numpy array); got {func!r}.")
    taken = name in _registry.TREE_MEASURES or name in _registry._ALIASES
    if taken and not (replace and name in _CUSTOM):
        what = "a custom measure (pass replace=True)" if name in _CUSTOM else "a built-in measure"
        raise ValueError(f"the name {name!r} is taken by {what}.")
    label = str(label) if label is not None else name
    infos = tuple(_param_info(k, v, label) for k, v in (params or {}).items())
    defaults = {p.name: p.default for p in infos}
    concave = _validate(name, func, defaults)
    kernel = _CustomKernel(name, func)
    kernel._checked[tuple(sorted(defaults.items()))] = concave

    def function(p, **kw):
        values = info.validate_params(kw, fill_defaults=True)
        kernel.check(values)
        return scalar_or_array(kernel(as_distribution(p), **values))

    function.__name__ = name
    function.__doc__ = description or f"The custom measure {label} (registered by the user)."
    info = MeasureInfo(
        name=name,
        label=label,
        short=str(short) if short is not None else label,
        params=infos,
        theta="optional",
        latex=latex or rf"\mathrm{{{name}}}(p)",
        description=description or f"Custom measure {label}.",
        reference=reference or "user-defined (offcenter.register_measure)",
        function=function,
        kernel=kernel,
        concave=concave,
        notes="Registered with offcenter.register_measure.",
    )
    _registry.MEASURES[name] = info
    _registry.TREE_MEASURES[name] = info
    _CUSTOM[name] = func
    _KWARGS[name] = dict(
        label=label,
        params=params,
        short=short,
        latex=latex,
        description=description,
        reference=reference,
    )
    return info


def registration(name: str):
    """What re-registers a custom measure in another process: ``(name, func, kwargs)``, or
    None for a built-in measure. :class:`offcenter.ForestClassifier` sends it to its joblib
    workers with each tree, so a forest on a custom measure grows in parallel."""
    key = _registry.get_measure(name).name
    if key not in _CUSTOM:
        return None
    return key, _CUSTOM[key], dict(_KWARGS[key])


def ensure_registered(reg) -> None:
    """Register ``reg`` (from :func:`registration`) unless its name is known already."""
    if reg is not None and reg[0] not in _registry.TREE_MEASURES:
        register_measure(reg[0], reg[1], **reg[2])


def unregister_measure(name: str) -> None:
    """Remove a measure added by :func:`register_measure` (built-ins cannot be removed)."""
    if name not in _CUSTOM:
        raise ValueError(f"{name!r} is not a custom measure; custom: {sorted(_CUSTOM) or 'none'}.")
    del _CUSTOM[name]
    _KWARGS.pop(name, None)
    _registry.MEASURES.pop(name, None)
    _registry.TREE_MEASURES.pop(name, None)


def custom_measure_names() -> list[str]:
    """Names of the measures registered by :func:`register_measure`, in order."""
    return list(_CUSTOM)


def _remember(spec: str) -> None:
    known = [s for s in os.environ.get(PLUGINS_ENV, "").split(",") if s]
    if spec not in known:
        os.environ[PLUGINS_ENV] = ",".join([*known, spec])


def _load_spec(spec: str) -> None:
    """Import ``module`` (its import registers measures) or call ``module:function``."""
    if spec in _LOADED:
        return
    module, _, attr = spec.partition(":")
    if module == "offcenter" or module.startswith("offcenter."):
        # a plugin is the user's own module; the core's layers stay whole (tests/test_layers.py)
        raise ValueError(f"plugin {spec!r}: a plugin is a module of your own, not of offcenter.")
    try:
        obj = importlib.import_module(module)
        if attr:
            for part in attr.split("."):
                obj = getattr(obj, part)
            obj()
    except Exception as exc:
        raise ValueError(
            f"plugin {spec!r} could not be loaded: {type(exc).__name__}: {exc}"
        ) from exc
    _LOADED.add(spec)


def load_plugins(modules=(), *, entry_points: bool = True, strict: bool = False) -> list[str]:
    """Load measure plugins: modules given by path, and the ``offcenter.measures`` entry points.

    Parameters
    ----------
    modules : iterable of str
        ``"my_pkg.measures"`` (imported: its import calls :func:`register_measure`) or
        ``"my_pkg.measures:register"`` (imported, then the function called).
    entry_points : bool
        Also load every entry point of the group :data:`ENTRY_POINT_GROUP` of the installed
        packages (``importlib.metadata.entry_points``); its object is a function, called, or a
        module.
    strict : bool
        Raise on a plugin of ``modules`` that fails (the CLI); otherwise warn and go on (the
        app: one broken package must not take the pages down). A failing entry point only
        warns.

    Returns
    -------
    list of str
        The names of the measures registered by this call.

    Each plugin loaded is remembered in the ``OFFCENTER_PLUGINS`` environment variable, which
    worker processes (joblib's loky, dask on this machine) inherit and load at
    ``import offcenter``, so that a cross-validation in parallel knows the measures; joblib's
    reusable workers started earlier are stopped (the next parallel call starts fresh ones).
    Loading twice is harmless (a module is imported once; a function re-registering the same
    name should pass ``replace=True``).
    """

    before, loaded = set(_CUSTOM), set(_LOADED)
    specs = [(str(m).strip(), strict) for m in modules if str(m).strip()]
    if entry_points:  # an installed package's failure only warns
        specs += [(ep.value, False) for ep in _entry_points(group=ENTRY_POINT_GROUP)]
    for spec, must in specs:
        try:
            _load_spec(spec)
        except ValueError as exc:
            if must:
                raise
            warnings.warn(str(exc), UserWarning, stacklevel=2)
            continue
        _remember(spec)
    if _LOADED - loaded:
        _restart_workers()
    return [n for n in _CUSTOM if n not in before]


def _restart_workers() -> None:
    """Stop joblib's reusable worker processes (loky), if any: the next parallel call starts
    fresh ones, which inherit ``OFFCENTER_PLUGINS`` and so know the new measures."""
    try:
        from joblib.externals.loky import reusable_executor
    except ImportError:  # pragma: no cover - joblib without loky
        return
    executor = getattr(reusable_executor, "_executor", None)
    if executor is not None:
        executor.shutdown(wait=True)


def plugin_args(argv) -> list[str]:
    """The module paths of the ``--plugin X`` / ``--plugin=X`` options of a command line
    (read before the other options, whose settings may name a plugin's measure)."""
    out, args = [], list(argv)
    for i, a in enumerate(args):
        if a == "--plugin" and i + 1 < len(args):
            out.append(args[i + 1])
        elif a.startswith("--plugin="):
            out.append(a.split("=", 1)[1])
    return out


def _load_env_plugins() -> None:
    """At ``import offcenter``: load the plugins a parent process listed (worker processes)."""
    specs = [s for s in os.environ.get(PLUGINS_ENV, "").split(",") if s]
    for spec in specs:
        try:
            _load_spec(spec)
        except ValueError as exc:
            warnings.warn(str(exc), UserWarning, stacklevel=2)
