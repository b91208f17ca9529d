"""The Tree page's shareable state beyond the widgets: the data choice, target, features, type
overrides and hand edits, in the link (compact query-string text) and in a session file (JSON).

Pure functions, Streamlit-free (unit-tested without a page); the page glue is
:mod:`offcenter.app.tree_restore`.

Link encoding
-------------
- a list of column names: each name percent-encoded (``urllib.parse.quote``, so that ``,``
  ``:`` and ``%`` inside a name are escaped), joined by ``,``;
- the edits: ``l<node>`` (the node becomes a leaf) and ``s<node>:<feature>`` (the node splits
  on the best split of that feature), joined by ``,``, oldest first.

>>> from offcenter.app.tree_session import MakeLeaf, ForcedSplit
>>> text = encode_edits([ForcedSplit(0, "mutation_2"), MakeLeaf(3), ForcedSplit(1, "a,b: c")])
>>> text
's0:mutation_2,l3,s1:a%2Cb%3A%20c'
>>> decode_edits(text)
([ForcedSplit(node=0, feature='mutation_2'), MakeLeaf(node=3), ForcedSplit(node=1, feature='a,b: c')], [])

Session file
------------
JSON with ``format`` = :data:`FORMAT`, ``version`` = 1, ``data`` (``{"source": name}`` for a
bundled set, ``{"source": "upload", "name", "fingerprint"}`` for an upload: the file itself is
not in it), ``target``, ``features``, ``as_categorical``, ``as_numeric``, ``sample`` (the
"use a random sample" box, or null), ``setting`` (the measure setting's key, for readers),
``tree_params`` (the tree's parameters, for readers), ``page`` (the page's link values, read
back through the page's URL schema) and ``edits`` (``{"op": "split", "node", "feature"}`` /
``{"op": "leaf", "node"}``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from urllib.parse import quote, unquote

from offcenter.app.tree_session import ForcedSplit, MakeLeaf

__all__ = [
    "FORMAT",
    "Restore",
    "encode_names",
    "decode_names",
    "encode_edits",
    "decode_edits",
    "replay",
    "session_to_json",
    "session_from_json",
]

FORMAT = "offcenter tree session"
VERSION = 1
#: Most edits a link or file may carry (a longer list is cut, with a warning).
MAX_EDITS = 200


def encode_names(names: Iterable) -> str:
    """Column names as link text (percent-encoded, comma-separated).

    >>> encode_names(["age", "a,b"])
    'age,a%2Cb'
    """
    return ",".join(quote(str(n), safe="") for n in names)


def decode_names(text: str) -> list[str]:
    """The inverse of :func:`encode_names` (empty text: no names).

    >>> decode_names('age,a%2Cb')
    ['age', 'a,b']
    """
    if not text:
        return []
    return [unquote(t) for t in str(text).split(",")]


def encode_edits(edits: Iterable) -> str:
    """Edits as compact link text (see the module docs)."""
    out = []
    for e in edits:
        if isinstance(e, MakeLeaf):
            out.append(f"l{int(e.node)}")
        elif isinstance(e, ForcedSplit):
            out.append(f"s{int(e.node)}:{quote(str(e.feature), safe='')}")
        else:
            raise TypeError(f"edits: {e!r} is not a ForcedSplit or MakeLeaf edit")
    return ",".join(out)


def _node(text: str) -> int:
    if not text.isdigit():
        raise ValueError
    return int(text)


def decode_edits(text: str) -> tuple[list, list[str]]:
    """Link text -> (edits, warnings). An unreadable item is left out and named in a warning.

    >>> decode_edits("l2,x9,s:a")
    ([MakeLeaf(node=2)], ["edit 2 ('x9') is not readable; left out.", "edit 3 ('s:a') is not readable; left out."])
    """
    edits, warnings = [], []
    if not text:
        return edits, warnings
    items = str(text).split(",")
    if len(items) > MAX_EDITS:
        warnings.append(f"the link holds {len(items)} edits; only the first {MAX_EDITS} are used.")
        items = items[:MAX_EDITS]
    for i, item in enumerate(items, 1):
        try:
            if item.startswith("l"):
                edits.append(MakeLeaf(_node(item[1:])))
            elif item.startswith("s") and ":" in item:
                node, feature = item[1:].split(":", 1)
                if not feature:
                    raise ValueError
                edits.append(ForcedSplit(_node(node), unquote(feature)))
            else:
                raise ValueError
        except ValueError:
            warnings.append(f"edit {i} ({item[:40]!r}) is not readable; left out.")
    return edits, warnings


def replay(tree, edits: Iterable) -> tuple[object, list, list, list[str]]:
    """Apply edits in order to a fitted tree.

    Returns ``(edited tree, edits applied, the tree after each applied edit, warnings)``. An
    edit that no longer applies (a node that does not exist, a feature the tree does not have
    or that cannot split the node) is skipped and named in a warning; the later edits are
    still tried on the tree as it is.
    """
    applied, trees, warnings = [], [], []
    edits = list(edits)
    for i, e in enumerate(edits, 1):
        try:
            n_nodes = len(tree.tree_.nodes)
            if not 0 <= int(e.node) < n_nodes:
                raise ValueError(f"the tree has no node {e.node} (it has {n_nodes} nodes)")
            if isinstance(e, MakeLeaf) and tree.tree_.nodes[e.node].split is None:
                raise ValueError(f"node {e.node} is already a leaf")
            tree = e.apply(tree)
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            reason = str(exc).strip("'\"") or type(exc).__name__
            warnings.append(
                f"Edit {i} of {len(edits)} ({e.describe()}) was not restored: {reason}."
            )
            continue
        applied.append(e)
        trees.append(tree)
    return tree, applied, trees, warnings


@dataclass
class Restore:
    """What a link or a session file asks the page to restore.

    ``data`` is a bundled set's name or ``"upload"`` (then ``fingerprint`` and ``file_name``
    say which file); the other fields are None when the link or file does not set them
    (the page's defaults are kept).
    """

    origin: str  # "link" or "session file"
    data: str
    fingerprint: str = ""
    file_name: str = ""
    target: str | None = None
    features: list | None = None
    as_categorical: list = field(default_factory=list)
    as_numeric: list = field(default_factory=list)
    sample: bool | None = None
    edits: list = field(default_factory=list)
    page: dict = field(default_factory=dict)
    warnings: list = field(default_factory=list)
    seeded: bool = False  # the page has set the target, features ... for the data picked

    @property
    def empty(self) -> bool:
        """True when there is nothing beyond the page's own widgets to restore."""
        return (
            self.data != "upload"
            and self.target is None
            and self.features is None
            and not self.as_categorical
            and not self.as_numeric
            and self.sample is None
            and not self.edits
        )


def _edit_dict(e) -> dict:
    if isinstance(e, MakeLeaf):
        return {"op": "leaf", "node": int(e.node)}
    if isinstance(e, ForcedSplit):
        return {"op": "split", "node": int(e.node), "feature": str(e.feature)}
    raise TypeError(f"edits: {e!r} is not a ForcedSplit or MakeLeaf edit")


def session_to_json(
    *,
    data: str,
    target: str,
    features: Iterable,
    edits: Iterable,
    page: Mapping,
    setting: str = "",
    tree_params: Mapping | None = None,
    as_categorical: Iterable = (),
    as_numeric: Iterable = (),
    sample: bool | None = None,
    file_name: str = "",
    fingerprint: str = "",
) -> str:
    """The session file's text (see the module docs)."""
    src = {"source": data}
    if data == "upload":
        src.update({"name": str(file_name), "fingerprint": str(fingerprint)})
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "data": src,
        "target": str(target),
        "features": [str(f) for f in features],
        "as_categorical": [str(c) for c in as_categorical],
        "as_numeric": [str(c) for c in as_numeric],
        "sample": sample,
        "setting": setting,
        "tree_params": dict(tree_params or {}),
        "page": {str(k): str(v) for k, v in page.items()},
        "edits": [_edit_dict(e) for e in edits],
    }
    return json.dumps(doc, indent=1, ensure_ascii=False)


def _strings(doc: dict, name: str) -> list:
    v = doc.get(name, [])
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise ValueError(f"the session file's “{name}” is not a list of column names.")
    return list(v)


def _scalar_text(v) -> str | None:
    """A page value of a session file as the text a link would carry (None: not a value)."""
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, str):
        return v
    if isinstance(v, float):
        return repr(v)  # inf and nan included: the page's schema refuses them with a warning
    if isinstance(v, int):
        return str(v) if v.bit_length() < 64 else "inf"  # no 4,300-digit str() limit hit
    return None


def _page_values(page: dict) -> dict[str, str]:
    """The session file's page settings as link text; a value that is not a single value (a
    list, an object) is kept as text the schema refuses, so that it is named in a warning."""
    out = {}
    for k, v in page.items():
        text = _scalar_text(v)
        out[str(k)] = text if text is not None else f"<{type(v).__name__}>"
    return out


def session_from_json(text: str | bytes) -> Restore:
    """Read a session file; a file that is not one raises ValueError with a plain message.

    Unreadable edits are left out and named in ``Restore.warnings``.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValueError("This is not a session file: it is not UTF-8 text.") from None
    try:
        doc = json.loads(text)
    except (json.JSONDecodeError, TypeError):
        raise ValueError("This is not a session file: it is not JSON.") from None
    except RecursionError:  # JSON nested deeper than the interpreter's recursion limit
        raise ValueError("This is not a session file: its JSON is nested too deeply.") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError(
            "This is not an offcenter tree session file (download one with “Download the session”)."
        )
    if doc.get("version") != VERSION:
        raise ValueError(
            f"This session file has version {doc.get('version')!r}; this page reads version "
            f"{VERSION}."
        )
    src = doc.get("data")
    if not isinstance(src, dict) or not isinstance(src.get("source"), str):
        raise ValueError("The session file does not say which data set it was made on.")
    target = doc.get("target")
    if not isinstance(target, str):
        raise ValueError("The session file does not name its target column.")
    page = doc.get("page", {})
    if not isinstance(page, dict):
        raise ValueError("The session file's “page” settings are not a mapping.")
    sample = doc.get("sample")
    r = Restore(
        origin="session file",
        data=src["source"],
        fingerprint=str(src.get("fingerprint", "")),
        file_name=str(src.get("name", "")),
        target=target,
        features=_strings(doc, "features"),
        as_categorical=_strings(doc, "as_categorical"),
        as_numeric=_strings(doc, "as_numeric"),
        sample=sample if isinstance(sample, bool) else None,
        page=_page_values(page),
    )
    edits = doc.get("edits", [])
    if not isinstance(edits, list):
        raise ValueError("The session file's “edits” is not a list.")
    if len(edits) > MAX_EDITS:
        r.warnings.append(
            f"The session file holds {len(edits)} edits; only the first {MAX_EDITS} are used."
        )
    for i, e in enumerate(edits[:MAX_EDITS], 1):
        node = e.get("node") if isinstance(e, dict) else None
        ok_node = isinstance(node, int) and not isinstance(node, bool) and node >= 0
        if ok_node and e.get("op") == "leaf":
            r.edits.append(MakeLeaf(node))
        elif ok_node and e.get("op") == "split" and isinstance(e.get("feature"), str):
            r.edits.append(ForcedSplit(node, e["feature"]))
        else:
            r.warnings.append(f"Edit {i} of the session file is not readable; left out.")
    return r
