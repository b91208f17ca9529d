"""Shareable page state: a typed schema of parameters encoded in the URL query string.

A page declares its parameters once, as a :class:`Schema` of :class:`Field` objects (type,
default, range, choices). :meth:`Schema.decode` turns the query string (``st.query_params``, a
mapping of strings) into validated Python values, falling back to the default and clamping to
the range, and returns a list of readable warnings for everything it had to fix; it never
raises on user input. :meth:`Schema.encode` turns values back into query-string values, leaving
out the ones equal to their default so that links stay short.

Pure functions and dataclasses only (no Streamlit import at module level): the tree and
comparison pages reuse them. :class:`PageState` is the one convention of the pages: each page's
module (``curve_pages``, ``tree_page``, ``compare_page``) subclasses it with the page's named
properties and callbacks, and the page scripts touch the session state only through it
(``tests/app/test_pages_hold_no_state.py``).

Keeping a page's state across pages: one way, one precedence
------------------------------------------------------------
Every page keeps its state with :func:`restore` (when the page opens) and :func:`save` +
:func:`sync_out` (once its widgets are drawn). The precedence is:

1. **a link rules when the page opens**: an address that names at least one of the page's
   fields (a shared link, a lesson step, the browser's back button) sets every field, those it
   leaves out taking their default: whoever opens a link sees what its sender saw;
2. else **the values the user left** (the copy :func:`save` keeps under ``{prefix}saved``):
   coming back through the navigation (an address without the page's fields) finds the page
   as it was;
3. during the page's own reruns **the widgets rule** (the address only follows them).

Pages open on the same data because :mod:`offcenter.app.data_picker` shares the data choice,
not because one page's link overrides another's memory. (The Compare page still fills its
widgets from its saved copy before reading the address, the opposite order: its two lines
``for _name, _value in S.get("cm_saved", {}).items(): S.setdefault(...)`` and
``urlstate.sync_in(...)`` become ``urlstate.restore(SCHEMA, S, st.query_params, PREFIX)``.)

Examples
--------
>>> schema = Schema([
...     Field("theta", "float", 0.2, low=0.01, high=0.99),
...     Field("curves", "strs", ("shannon",), choices=("shannon", "gini")),
...     Field("deriv", "bool", False),
... ])
>>> values, warnings = schema.decode({"theta": "1.5", "curves": "gini,foo"})
>>> values["theta"], values["curves"], values["deriv"]
(0.99, ('gini',), False)
>>> warnings[0]
'theta = 1.5 is above its maximum 0.99; using 0.99.'
>>> schema.encode({"theta": 0.3, "curves": ("shannon", "gini"), "deriv": True})
{'theta': '0.3', 'curves': 'shannon,gini', 'deriv': '1'}
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from offcenter.viz.format import fmt_exact as _fmt
from offcenter.viz.format import md_escape

__all__ = [
    "Field",
    "Schema",
    "FIELD_TYPES",
    "sync_in",
    "sync_out",
    "current_values",
    "reset",
    "restore",
    "save",
    "PageState",
    "quote_value",
    "cap_warnings",
    "for_display",
]

#: The supported field types: scalars and comma-separated lists.
FIELD_TYPES = ("float", "int", "bool", "str", "floats", "strs")

#: A number's text longer than this is refused unread (no number of a page needs more).
MAX_NUMBER_CHARS = 64
#: A text field longer than this falls back to its default.
MAX_TEXT_CHARS = 100_000
#: Most warnings one decoding returns (the rest are counted in a last one).
MAX_WARNINGS = 8
#: Most characters of a user's value quoted in a warning.
QUOTE_CHARS = 40

_TRUE = {"1", "true", "yes", "on", "t", "y"}
_FALSE = {"0", "false", "no", "off", "f", "n", ""}


def quote_value(text: object, limit: int = QUOTE_CHARS) -> str:
    """A user's value as a warning quotes it: ``repr`` of its first ``limit`` characters.

    The warning is plain text: the page escapes it before it is shown (:func:`for_display`).

    >>> quote_value("abc"), quote_value("x" * 50, limit=5)
    ("'abc'", "'xxxx…'")
    """
    s = str(text)
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    return repr(s)


def _listed(items: Sequence[str], limit: int = 5) -> str:
    shown = ", ".join(quote_value(t) for t in items[:limit])
    more = len(items) - limit
    return shown + (f" and {more:,} more" if more > 0 else "")


def _choices(choices: Sequence[str], limit: int = 12) -> str:
    more = len(choices) - limit
    return ", ".join(choices[:limit]) + (f", ... ({more} more)" if more > 0 else "")


def cap_warnings(warnings: Iterable[str], limit: int = MAX_WARNINGS) -> list[str]:
    """Warnings without repeats, at most ``limit`` of them (the rest counted in a last one).

    >>> cap_warnings(["a", "b", "a", "c", "d"], limit=2)
    ['a', 'b', '2 more values of the link were fixed.']
    """
    unique = list(dict.fromkeys(warnings))
    if len(unique) <= limit:
        return unique
    rest = len(unique) - limit
    return [
        *unique[:limit],
        f"{rest:,} more value{'s' if rest > 1 else ''} of the link were fixed.",
    ]


def for_display(warnings: Iterable[str], lead: str = "Link parameter fixed: ") -> list[str]:
    r"""Warnings as a page shows them (``st.warning`` renders markdown): deduplicated, capped
    (:func:`cap_warnings`), led by ``lead``, and escaped with
    :func:`offcenter.viz.format.md_escape` so that a link's text (``[log in](https://...)``,
    an image) reads as typed and is never a live link or an outside image.

    >>> for_display(["x = '[a](http://e)' is not a number"], lead="")
    ["x \\= \\'\\[a\\]\\(http\\://e\\)\\' is not a number"]
    """
    return [md_escape(lead + w) for w in cap_warnings(warnings)]


@dataclass(frozen=True)
class Field:
    """One URL parameter.

    Parameters
    ----------
    name : str
        The query-string key (and the dictionary key of the decoded values).
    kind : str
        One of :data:`FIELD_TYPES`: ``"float"``, ``"int"``, ``"bool"``, ``"str"``, or the lists
        ``"floats"`` and ``"strs"`` (comma-separated in the URL).
    default : Any
        Value used when the parameter is absent or unusable (a tuple for list kinds).
    low, high : float, optional
        Inclusive range of a number, or of every element of ``"floats"``; values outside are
        clamped, with a warning.
    choices : sequence of str, optional
        Allowed values of ``"str"`` / ``"strs"`` fields; others are dropped, with a warning.
    min_len, max_len : int, optional
        Allowed lengths of list fields; a list of the wrong length falls back to the default.
    step : float, optional
        Numbers are rounded to a multiple of ``step`` from ``low`` (or 0), as sliders do.
    """

    name: str
    kind: str
    default: Any
    low: float | None = None
    high: float | None = None
    choices: Sequence[str] | None = None
    min_len: int | None = None
    max_len: int | None = None
    step: float | None = None

    def __post_init__(self) -> None:
        if self.kind not in FIELD_TYPES:
            raise ValueError(f"unknown field kind {self.kind!r}; use one of {FIELD_TYPES}.")

    # ------------------------------------------------------------------ numbers
    def _number(self, text: str, warnings: list[str], label: str) -> float | None:
        """``text`` as a number of the field's type and range, or None (with a warning)
        when it is not a finite number. Never raises: huge, non-finite and overlong texts
        (``inf``, ``1e400``, a 400-digit integer) are refused before any arithmetic."""
        shown = quote_value(text)
        if len(text) > MAX_NUMBER_CHARS:
            warnings.append(f"{label} = {shown} is not a number; using the default.")
            return None
        try:
            x = float(text)
        except (TypeError, ValueError, OverflowError):
            warnings.append(f"{label} = {shown} is not a number; using the default.")
            return None
        if not math.isfinite(x):
            warnings.append(f"{label} = {shown} is not a finite number; using the default.")
            return None
        # clamp first: a finite but huge value (1e308) would overflow the snapping below
        if self.low is not None and x < self.low:
            warnings.append(
                f"{label} = {text} is below its minimum {_fmt(self.low)}; using {_fmt(self.low)}."
            )
            x = float(self.low)
        if self.high is not None and x > self.high:
            warnings.append(
                f"{label} = {text} is above its maximum {_fmt(self.high)}; using {_fmt(self.high)}."
            )
            x = float(self.high)
        if self.kind == "int" and not x.is_integer():
            rounded = float(math.trunc(x))
            warnings.append(f"{label} = {text} is not a whole number; using {int(rounded)}.")
            x = rounded
        if self.step:
            origin = self.low if self.low is not None else 0.0
            steps = (x - origin) / self.step
            if math.isfinite(steps):
                x = float(f"{origin + round(steps) * self.step:.10g}")
            if self.high is not None and x > self.high:  # a grid that does not reach high
                x = float(self.high)
            if self.low is not None and x < self.low:
                x = float(self.low)
        if self.kind == "int" and not (-(2**53) <= x <= 2**53):
            warnings.append(f"{label} = {text} is too large; using the default.")
            return None
        return x

    def decode(self, text: str | None, warnings: list[str]) -> Any:
        """Turn one query-string value into a validated value (the default when unusable).

        Never raises, whatever ``text`` is: every value is parsed into the field's type and
        range, and everything unusable falls back to the default with a warning.
        """
        if text is None:
            return self.default
        if not isinstance(text, str):
            if isinstance(text, (bool, int, float)):
                text = str(int(text)) if isinstance(text, bool) else str(text)
            else:
                warnings.append(f"{self.name} is not a single value; using the default.")
                return self.default
        text = text.strip()
        name = self.name
        if self.kind in ("float", "int"):
            x = self._number(text, warnings, name)
            if x is None:
                return self.default
            return int(x) if self.kind == "int" else x
        if self.kind == "bool":
            low = text.lower()
            if low in _TRUE:
                return True
            if low in _FALSE:
                return False
            warnings.append(
                f"{name} = {quote_value(text)} is not a yes/no value (use 1 or 0); "
                "using the default."
            )
            return self.default
        if self.kind == "str":
            if self.choices is not None and text not in self.choices:
                warnings.append(
                    f"{name} = {quote_value(text)} is not one of {_choices(self.choices)}; "
                    "using the default."
                )
                return self.default
            if len(text) > MAX_TEXT_CHARS:
                warnings.append(
                    f"{name} is {len(text):,} characters long (at most {MAX_TEXT_CHARS:,}); "
                    "using the default."
                )
                return self.default
            return text
        # lists
        items = [t.strip() for t in text.split(",") if t.strip() != ""]
        out: list[Any] = []
        if self.kind == "floats":
            if self.max_len is not None and len(items) > self.max_len:
                out = items  # too long: the length check below refuses it, parsing nothing
            else:
                for i, t in enumerate(items):
                    x = self._number(t, warnings, f"{name}[{i + 1}]")
                    if x is None:
                        return self.default
                    out.append(x)
        else:
            unknown: list[str] = []
            for t in items:
                if self.choices is not None and t not in self.choices:
                    if t not in unknown:
                        unknown.append(t)
                    continue
                if t not in out:
                    out.append(t)
            if unknown:
                warnings.append(
                    f"{name}: {_listed(unknown)} {'is' if len(unknown) == 1 else 'are'} not "
                    f"one of {_choices(self.choices)}; ignored."
                )
        if (self.min_len is not None and len(out) < self.min_len) or (
            self.max_len is not None and len(out) > self.max_len
        ):
            warnings.append(
                f"{name} has {len(out)} values but needs between {self.min_len or 0} and "
                f"{self.max_len if self.max_len is not None else 'any number of'}; "
                "using the default."
            )
            return self.default
        return tuple(out)

    def encode(self, value: Any) -> str:
        """Turn a value into its query-string text."""
        if self.kind == "bool":
            return "1" if value else "0"
        if self.kind == "int":
            return str(int(value))
        if self.kind == "float":
            return _fmt(float(value))
        if self.kind == "str":
            return str(value)
        if self.kind == "floats":
            return ",".join(_fmt(float(v)) for v in value)
        return ",".join(str(v) for v in value)

    def same_as_default(self, value: Any) -> bool:
        if self.kind in ("floats", "strs"):
            return tuple(value) == tuple(self.default)
        if self.kind == "float":
            return math.isclose(float(value), float(self.default), rel_tol=0, abs_tol=1e-12)
        return value == self.default


class Schema:
    """An ordered set of :class:`Field` objects: a page's shareable parameters.

    An item may also be a function returning fields, called whenever the schema is read: the
    fields that follow a registry (the measures' parameters, :mod:`offcenter.app.measure_params`)
    then include what was registered after the page's module was imported.

    >>> extra = [Field("b", "int", 1)]
    >>> schema = Schema([Field("a", "int", 0), lambda: extra])
    >>> extra.append(Field("c", "int", 2))
    >>> list(schema.fields)
    ['a', 'b', 'c']
    """

    def __init__(self, fields: Iterable[Field | Callable[[], Iterable[Field]]]):
        self._items = list(fields)
        self._static = None if any(callable(f) for f in self._items) else self._build()

    def _build(self) -> dict[str, Field]:
        out: dict[str, Field] = {}
        for item in self._items:
            for f in item() if callable(item) else (item,):
                if f.name in out:
                    raise ValueError(f"duplicate field {f.name!r}")
                out[f.name] = f
        return out

    @property
    def fields(self) -> dict[str, Field]:
        """The fields by name, in order."""
        return self._static if self._static is not None else self._build()

    def __contains__(self, name: str) -> bool:
        return name in self.fields

    def __iter__(self):
        return iter(self.fields.values())

    def defaults(self) -> dict[str, Any]:
        """The default value of every field."""
        return {name: f.default for name, f in self.fields.items()}

    def decode(self, params: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
        """Validate a query-string mapping: ``(values for every field, warnings)``.

        Unknown keys are ignored (other pages' parameters may share the URL). A value given as
        a list (repeated key) uses its last element.
        """
        warnings: list[str] = []
        values: dict[str, Any] = {}
        for name, f in self.fields.items():
            raw = params.get(name) if params is not None else None
            if isinstance(raw, (list, tuple)):
                raw = raw[-1] if raw else None
            values[name] = f.decode(raw, warnings)
        return values, cap_warnings(warnings)

    def encode(self, values: Mapping[str, Any], *, skip_defaults: bool = True) -> dict[str, str]:
        """Query-string values of ``values`` (fields equal to their default are left out)."""
        out: dict[str, str] = {}
        for name, f in self.fields.items():
            if name not in values:
                continue
            v = values[name]
            if skip_defaults and f.same_as_default(v):
                continue
            out[name] = f.encode(v)
        return out


#: Parameters shared by every page, kept in the URL whatever page writes its own parameters:
#: ``present=1`` is the presentation mode (large type for a projector).
GLOBAL_SCHEMA = Schema([Field("present", "bool", False)])


def sync_global(state: Mapping[str, Any], query: Any) -> dict:
    """Write the shared parameters of :data:`GLOBAL_SCHEMA` held in ``state`` (same names, no
    prefix) to the query string: set when not the default, removed otherwise; returns them.

    >>> q = {"theta": "0.3"}
    >>> sync_global({"present": True}, q), q
    ({'present': '1'}, {'theta': '0.3', 'present': '1'})
    >>> sync_global({"present": False}, q), q
    ({}, {'theta': '0.3'})
    """
    encoded = GLOBAL_SCHEMA.encode(current_values(GLOBAL_SCHEMA, state))
    for f in GLOBAL_SCHEMA:
        have = query.get(f.name)
        if f.name in encoded and have != encoded[f.name]:
            query[f.name] = encoded[f.name]
        elif f.name not in encoded and have is not None:
            del query[f.name]
    return encoded


# ----------------------------------------------------------------------------------------------
# Syncing with a page's session state (plain mappings: st.session_state and st.query_params
# behave as mappings, so these are tested with dicts).
# ----------------------------------------------------------------------------------------------


def _as_state_value(f: Field, value: Any) -> Any:
    # widgets such as st.multiselect hold lists
    return list(value) if f.kind in ("floats", "strs") else value


def sync_in(schema: Schema, state: Any, query: Mapping[str, Any], prefix: str = "") -> list[str]:
    """Fill missing ``state[prefix + name]`` from the query string (else the default).

    Keys already in ``state`` (the widgets' current values) are left alone, so the URL is read
    when the page opens (or after navigating back) and the widgets rule afterwards. Returns the
    warnings about query-string values that had to be fixed (empty when nothing was read).

    >>> state = {}
    >>> sync_in(Schema([Field("q", "int", 3, low=2, high=8)]), state, {"q": "12"}, "x_")
    ['q = 12 is above its maximum 8; using 8.']
    >>> state
    {'x_q': 8}
    """
    missing = [f for f in schema if prefix + f.name not in state]
    if not missing:
        return []
    values, warnings = Schema(missing).decode(query)
    for f in missing:
        state[prefix + f.name] = _as_state_value(f, values[f.name])
    return warnings


def current_values(schema: Schema, state: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """The values of the schema's fields held in ``state`` (defaults for missing ones)."""
    out = {}
    for f in schema:
        v = state.get(prefix + f.name, f.default)
        out[f.name] = tuple(v) if f.kind in ("floats", "strs") else v
    return out


def sync_out(schema: Schema, state: Mapping[str, Any], query: Any, prefix: str = "") -> dict:
    """Write the current values to the query string (non-default ones only); returns them.

    ``query`` needs ``to_dict()``-like reading (a dict or ``st.query_params``) and
    ``clear``/``update``; it is only rewritten when something changed. The shared parameters
    of :data:`GLOBAL_SCHEMA` already in ``query`` are kept (see :func:`sync_global`).
    """
    encoded = schema.encode(current_values(schema, state, prefix))
    existing = dict(query.to_dict() if hasattr(query, "to_dict") else query)
    # the shared parameters (presentation mode) are the pages' common business: keep them
    for f in GLOBAL_SCHEMA:
        if f.name not in schema and f.name in existing:
            encoded[f.name] = existing[f.name]
    if existing != encoded:
        query.clear()
        query.update(encoded)
    return encoded


def reset(schema: Schema, state: Any, query: Any, prefix: str = "") -> None:
    """Restore every field's default in ``state`` and clear the query string."""
    for f in schema:
        state[prefix + f.name] = _as_state_value(f, f.default)
    query.clear()


# ----------------------------------------------------------------------------------------------
# Keeping a page's settings across page switches
# ----------------------------------------------------------------------------------------------


def _saved_key(prefix: str) -> str:
    return prefix + "saved"


def save(
    schema: Schema, state: Any, prefix: str = "", values: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Copy the page's current values to ``state[prefix + "saved"]``; returns them.

    Streamlit drops the state of the widgets a run does not draw, so leaving a page loses its
    widget keys; the copy, under a key no widget uses, survives the other pages' runs (one copy
    per browser session: ``st.session_state`` is per session). Call it once the widgets are
    drawn; :func:`restore` reads it back. ``values`` (by field name) replaces the values read
    from ``state`` when the page uses something else than its widgets hold (a normalised theta).
    """
    if values is None:
        values = current_values(schema, state, prefix)
    state[_saved_key(prefix)] = {f.name: _as_state_value(f, values[f.name]) for f in schema}
    return dict(values)


def restore(
    schema: Schema,
    state: Any,
    query: Mapping[str, Any],
    prefix: str = "",
    anchor: str | None = None,
) -> list[str]:
    """Fill the page's state when it opens: from a link, else as the user left it.

    ``anchor`` names a field whose widget the page always draws (default: the schema's first
    field). When its key is missing from ``state``, the page was just opened (first visit, or
    back from another page: Streamlit dropped the page's widget keys) and every field is set
    afresh:

    - from the query string when it names at least one field of the page (a shared link, the
      browser's back button, a link of another page): the link rules, fields it leaves out take
      their default;
    - else from the copy :func:`save` kept (the user comes back through the navigation, which
      opens a page without a query string), fields never saved taking their default.

    During the page's own reruns only missing keys (widgets drawn on some runs only) are filled,
    from the saved copy, else the default. Returns the warnings about query-string values that
    had to be fixed.

    >>> schema = Schema([Field("theta", "float", 0.2), Field("tab", "str", "a")])
    >>> state = {}
    >>> restore(schema, state, {})
    []
    >>> state["theta"] = 0.3
    >>> _ = save(schema, state)
    >>> del state["theta"]  # another page ran: the widget's key is gone
    >>> restore(schema, state, {}), state["theta"]
    ([], 0.3)
    >>> del state["theta"]
    >>> restore(schema, state, {"theta": "0.5"}), state["theta"], state["tab"]
    ([], 0.5, 'a')
    """
    anchor = anchor if anchor is not None else next(iter(schema)).name
    saved = state.get(_saved_key(prefix)) or {}
    if prefix + anchor in state:
        for f in schema:
            if prefix + f.name not in state:
                state[prefix + f.name] = _as_state_value(f, saved.get(f.name, f.default))
        return []
    params = query.to_dict() if hasattr(query, "to_dict") else dict(query or {})
    if any(f.name in params for f in schema):
        values, warnings = schema.decode(params)
    else:
        values, warnings = schema.defaults(), []
        values.update({k: v for k, v in saved.items() if k in schema})
    for f in schema:
        state[prefix + f.name] = _as_state_value(f, values[f.name])
    return warnings


# ----------------------------------------------------------------------------------------------
# A page's state object: the one way a page script reads and writes its session state
# ----------------------------------------------------------------------------------------------


class PageState:
    """A page's state: its link fields (``schema``, keys ``prefix + name``) and its other keys,
    held in the session state, with the page's callbacks as methods.

    Each page's module subclasses it with named, typed properties (``TwoClassesState.cursor``)
    and callbacks (``TwoClassesState.set_cursor``); the page script builds one per run and never
    touches ``st.session_state`` itself. ``state`` and ``query`` default to Streamlit's
    ``st.session_state`` and ``st.query_params`` (imported when the object is built, so that this
    module stays importable without Streamlit); tests pass plain dicts.

    >>> class Page(PageState):
    ...     schema = Schema([Field("theta", "float", 0.2)])
    ...     prefix = "x_"
    >>> state, query = {}, {"theta": "0.4"}
    >>> page = Page(state, query)
    >>> page.opening, page.restore(), page.opening, state["x_theta"]
    (True, [], False, 0.4)
    >>> page.set("theta", 0.5); page.save()["theta"], page.sync_out(), query
    (0.5, {'theta': '0.5'}, {'theta': '0.5'})
    >>> page.reset(); state["x_theta"], query
    (0.2, {})
    """

    #: The page's link fields.
    schema: Schema
    #: The prefix of the page's session-state keys (its widget keys).
    prefix: str = ""
    #: The field whose widget the page always draws (None: the schema's first, see :func:`restore`).
    anchor: str | None = None

    def __init__(self, state: Any = None, query: Any = None) -> None:
        if state is None or query is None:
            import streamlit as st  # the pages' default; tests pass dicts

            state = st.session_state if state is None else state
            query = st.query_params if query is None else query
        self.state = state
        self.query = query

    def key(self, name: str) -> str:
        """The session-state key (the widget key) of the page's ``name``."""
        return self.prefix + name

    def get(self, name: str, default: Any = None) -> Any:
        """The value under the page's ``name`` (``default`` when missing)."""
        return self.state.get(self.prefix + name, default)

    def set(self, name: str, value: Any) -> None:
        """Set the value under the page's ``name``."""
        self.state[self.prefix + name] = value

    def default(self, name: str, value: Any) -> Any:
        """Set the page's ``name`` to ``value`` unless it is set; returns its value."""
        return self.state.setdefault(self.prefix + name, value)

    @property
    def opening(self) -> bool:
        """True when the page opens (its first field's key is missing, see :func:`restore`)."""
        anchor = self.anchor if self.anchor is not None else next(iter(self.schema)).name
        return self.prefix + anchor not in self.state

    def restore(self) -> list[str]:
        """:func:`restore` for this page: a link rules when it opens, else the saved values."""
        return restore(self.schema, self.state, self.query, self.prefix, self.anchor)

    def values(self) -> dict[str, Any]:
        """The page's link fields' current values (:func:`current_values`)."""
        return current_values(self.schema, self.state, self.prefix)

    def save(self, values: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """:func:`save` for this page (``values`` replaces what the widgets hold)."""
        return save(self.schema, self.state, self.prefix, values)

    def sync_out(self, values: Mapping[str, Any] | None = None) -> dict:
        """:func:`sync_out` for this page: the address follows the widgets, or ``values``."""
        held = self.state if values is None else {self.prefix + k: v for k, v in values.items()}
        return sync_out(self.schema, held, self.query, self.prefix)

    def reset(self) -> None:
        """Every field back to its default and the address cleared (:func:`reset`)."""
        reset(self.schema, self.state, self.query, self.prefix)

    def clicked_x(self, chart_key: str) -> float | None:
        """The x of the first point clicked on the chart drawn under ``chart_key``
        (``st.plotly_chart``'s selection), None when none."""
        chart = self.state.get(chart_key)
        points = chart.selection.points if chart is not None else []
        xs = [pt.get("x") for pt in points if isinstance(pt.get("x"), (int, float))]
        return float(xs[0]) if xs else None
