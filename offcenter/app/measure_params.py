"""The measures' parameters on the pages: URL fields, sliders and drawn values, from the registry.

Every page that sets a measure's parameter reads it here, and this module reads the registry
(:func:`offcenter.measures.registry.parameters`): one URL field per parameter name, so that a
link and a session file (which holds the page's link values) carry it; its slider; the extra
values the curve pages draw at once (a parameter's ``presets``). A measure registered with a
new parameter (``gamma``) gets all of them with no other change; nothing here names a measure.

The fields are functions of the registry (:class:`offcenter.app.urlstate.Schema` calls them
whenever a schema is read), so a measure registered after the pages' modules were imported
is in their links too.

>>> [f.name for f in url_fields()]
['beta', 'rho']
>>> [f.name for f in preset_fields()]
['betas']
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence

from offcenter.app.urlstate import Field
from offcenter.measures.registry import MeasureInfo, ParamInfo, parameters
from offcenter.measures.settings import format_number

__all__ = [
    "url_fields",
    "snapped_url_fields",
    "preset_fields",
    "preset_choices",
    "slider_label",
    "draw_sliders",
    "chosen_values",
    "variants",
]


def _field(p: ParamInfo, *, snap: bool) -> Field:
    return Field(
        p.name,
        "float",
        p.default,
        low=p.ui_low,
        high=p.ui_high,
        step=p.ui_step if snap else None,
    )


def url_fields() -> list[Field]:
    """One float field per registered parameter (default, slider range; exact values: the
    Tree page's links keep what was set)."""
    return [_field(p, snap=False) for p in parameters().values()]


def snapped_url_fields() -> list[Field]:
    """:func:`url_fields` rounded to the slider's step (the curve pages)."""
    return [_field(p, snap=True) for p in parameters().values()]


def preset_choices(p: ParamInfo) -> tuple[str, ...]:
    """The extra values a curve page offers for ``p``, as URL and widget text.

    >>> preset_choices(parameters()["beta"])[:3]
    ('0', '0.25', '0.5')
    """
    return tuple(format_number(v) for v in p.presets)


def preset_fields() -> list[Field]:
    """A ``<name>s`` list field per parameter with presets (more values drawn at once)."""
    return [
        Field(f"{p.name}s", "strs", (), choices=preset_choices(p))
        for p in parameters().values()
        if p.presets
    ]


def slider_label(p: ParamInfo) -> str:
    """A slider's label: the glyph and the description's first clause.

    >>> slider_label(parameters()["beta"])
    'β: order of the generalized entropy'
    """
    return f"{p.glyph}: {p.description.split(',')[0]}"


def draw_sliders(params: Iterable[ParamInfo], prefix: str, container) -> dict[str, float]:
    """Draw one slider per parameter (a measure's :attr:`~offcenter.MeasureInfo.params`; key
    ``{prefix}<name>``) where ``container`` is; returns their values by name."""
    return {
        p.name: container.slider(
            slider_label(p),
            float(p.ui_low),
            float(p.ui_high),
            step=float(p.ui_step),
            key=prefix + p.name,
            help=p.description,
        )
        for p in params
    }


def chosen_values(p: ParamInfo, values: Mapping) -> list[float]:
    """The values of ``p`` a curve page draws: its slider's and the extra ones
    (``<name>s``), sorted, without duplicates.

    >>> chosen_values(parameters()["beta"], {"beta": 2.0, "betas": ("0.5", "2", "0")})
    [0.0, 0.5, 2.0]
    """
    extra: Sequence[str] = values.get(f"{p.name}s", ()) if p.presets else ()
    vals = {round(float(values.get(p.name, p.default)), 10)} | {round(float(v), 10) for v in extra}
    return sorted(vals)


def variants(info: MeasureInfo, values: Mapping) -> list[dict[str, float]]:
    """The parameter values of ``info`` a curve page draws: one dict per combination of the
    chosen values (:func:`chosen_values`); ``[{}]`` for a measure without parameters."""
    names = [p.name for p in info.params]
    chosen = [chosen_values(p, values) for p in info.params]
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*chosen)]
