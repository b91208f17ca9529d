"""The Tree page's tree chart as the browser draws it, for AppTest tests.

The chart is a component (:mod:`offcenter.app.tree_chart`): its data carries the figure
without a selection, the next element (its selection) the selected node; :func:`offcenter.app.tree_chart.drawn_spec` puts
the outline where the browser puts it.
"""

from __future__ import annotations

import json

from offcenter.app.tree_chart import SELECTION_SUFFIX, drawn_spec


def tree_data(at, key: str = "tr_chart") -> dict | None:
    """The component's data of the tree chart ``key`` with its selection's ``selected`` (None:
    not drawn)."""
    components = at.get("bidi_component")
    charts = [c for c in components if c.proto.id.endswith("-" + key)]
    picks = [c for c in components if c.proto.id.endswith("-" + key + SELECTION_SUFFIX)]
    if not charts:
        return None
    return {
        **json.loads(charts[0].proto.json),
        "selected": json.loads(picks[0].proto.json)["selected"],
    }


def tree_spec(at, key: str = "tr_chart") -> dict | None:
    """The tree chart's figure as drawn, with the selected node outlined (None: not drawn)."""
    data = tree_data(at, key)
    return None if data is None else drawn_spec(data)
