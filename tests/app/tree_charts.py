"""The Tree page's tree chart as the browser draws it, for AppTest tests.

The chart is a component (:mod:`offcenter.app.tree_chart`): its data carries the figure
without a selection and the selected node; :func:`offcenter.app.tree_chart.drawn_spec` puts
the outline where the browser puts it.
"""

from __future__ import annotations

import json

from offcenter.app.tree_chart import drawn_spec


def tree_data(at, key: str = "tr_chart") -> dict | None:
    """The component's data of the tree chart ``key`` (None: not drawn)."""
    charts = [c for c in at.get("bidi_component") if c.proto.id.endswith(key)]
    return json.loads(charts[0].proto.json) if charts else None


def tree_spec(at, key: str = "tr_chart") -> dict | None:
    """The tree chart's figure as drawn, with the selected node outlined (None: not drawn)."""
    data = tree_data(at, key)
    return None if data is None else drawn_spec(data)
