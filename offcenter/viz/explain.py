r"""The worked calculation of a split, written out with the node's own numbers.

As a teacher writes it on the board: the parent's class counts and frequencies, (for an
off-centered measure) the reference theta and the transformed frequencies, the parent impurity
with the formula filled in, each child's counts and impurity, the weights n_k / n, the weighted
sum I(Y|X) and the gain I(Y) - I(Y|X); for the normalised scores, I(X) and
:math:`\lambda_\alpha = \mathrm{gain} / (\alpha I(Y) + (1-\alpha) I(X))`.

:func:`split_steps` is pure (counts in, :class:`CalculationLine` list out); :func:`steps_markdown` renders
them for ``st.markdown``, with every user string (class labels, branch labels) passed through
:func:`md_escape` so that markdown, HTML and LaTeX in the data are shown as text.

Examples
--------
>>> from offcenter import Impurity
>>> steps = split_steps([9, 7], [[6, 2], [3, 5]], ["+", "-"], Impurity("shannon"),
...                     ["size = Small", "size = Large"])
>>> [s.title for s in steps]
['Parent node', 'Parent impurity', 'Child 1: size = Small', 'Child 2: size = Large', 'Weighted impurity of the children', 'Gain']
>>> round(steps[-1].value, 6)
0.105843
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from offcenter.measures.impurity import Impurity
from offcenter.measures.offcentering import _off_center
from offcenter.measures.scores import score_for
from offcenter.measures.settings import MeasureSetting
from offcenter.tree.inspect import without_attrs
from offcenter.tree.scoring import make_scorer
from offcenter.viz.format import fmt_calc as _f
from offcenter.viz.format import md_escape


@dataclass(frozen=True)
class CalculationLine:
    """One line of the worked calculation.

    ``text`` is markdown in which user strings are already escaped; ``latex`` (may be empty) is
    a formula with numbers only; ``value`` the number the step arrives at (or None).
    """

    title: str
    text: str
    latex: str
    value: float | None


def _expanded(imp: Impurity, p: np.ndarray) -> str:
    """The measure's formula with the frequencies filled in (LaTeX), for the common measures."""
    terms = [v for v in p if v > 0]
    name = imp.info.name
    if name == "shannon":
        inner = " + ".join(rf"{_f(v)}\log_2 {_f(v)}" for v in terms)
        return rf"-\left({inner}\right)"
    if name == "gini":
        return "1 - (" + " + ".join(rf"{_f(v)}^2" for v in p) + ")"
    if name == "misclassification":
        return rf"1 - \max({', '.join(_f(v) for v in p)})"
    return rf"{imp.info.short}({', '.join(_f(v) for v in p)})"


def _symbol(imp: Impurity) -> str:
    return r"\eta_\theta" if imp.off_centered else "I"


def _freq_steps(imp: Impurity, counts: np.ndarray) -> tuple[np.ndarray, str]:
    """Frequencies the measure is applied to, and the LaTeX showing how they were obtained."""
    n = counts.sum()
    p = counts / n if n > 0 else np.full(len(counts), 1.0 / len(counts))
    if imp.off_centered:
        pi = _off_center(p, imp.theta)
        return pi, (r"\pi^* = (" + ", ".join(_f(v) for v in pi) + ")")
    return p, ""


def _impurity_latex(imp: Impurity, counts: np.ndarray, value: float) -> str:
    p, _ = _freq_steps(imp, counts)
    if imp.info.theta == "builtin":
        return rf"{_symbol(imp)} = h_\theta({', '.join(_f(v) for v in counts / max(counts.sum(), 1))}) = {_f(value)}"
    return rf"{_symbol(imp)} = {_expanded(imp, p)} = {_f(value)}"


def _counts_text(counts: np.ndarray, classes: Sequence[str]) -> str:
    n = counts.sum()
    parts = []
    for cls, c in zip(classes, counts):
        share = f" ({c / n:.1%})" if n > 0 else ""
        parts.append(f"{md_escape(cls, 30)}: {int(round(c))}{share}")
    return ", ".join(parts)


def split_steps(
    parent_counts,
    children_counts,
    classes: Sequence[object],
    impurity: Impurity,
    branch_labels: Sequence[str],
    *,
    alpha: float | None = None,
    label: str | None = None,
    score: str | None = None,
) -> list[CalculationLine]:
    """The worked calculation of a split from its counts.

    Parameters
    ----------
    parent_counts : array_like (q,)
        Class counts at the node.
    children_counts : array_like (k, q)
        Class counts of each child (rows with missing values of the feature, if sent to a
        child, are included in that child's counts).
    classes : sequence
        Class labels (user text: escaped).
    impurity : Impurity
        The measure the tree uses (theta resolved).
    branch_labels : sequence of str
        One label per child (user text: escaped).
    alpha : float, optional
        With alpha, add I(X) and lambda_alpha (1: relative gain, 0: gain ratio, 0.5: Kvalseth).
    label : str, optional
        The measure's name in the text (default ``impurity.label``); a tree passes its
        :meth:`MeasureSetting.label_for` the training prior.
    score : str, optional
        The split score's name (default: implied by ``alpha``, else the measure's).

    The numbers are the scorer's (:meth:`offcenter.tree.scoring.SplitScorer.quantities`):
    this function writes them out, it does not compute them again.
    """
    parent = np.asarray(parent_counts, dtype=float)
    kids = np.asarray(children_counts, dtype=float)
    classes = [str(c) for c in classes]
    score, alpha = score_for(impurity.info, score, alpha)  # a page's alpha: where it applies
    n_max = max(1, int(np.ceil(parent.sum())))
    scorer = make_scorer(impurity, parent.size, n_max, alpha=alpha, score=score)
    qs = scorer.quantities(parent, kids)
    if "parts" in qs:  # a score of its own, not a decrease: its parts
        name = impurity.info.short if label is None else label
        return _parts_steps(parent, kids, classes, branch_labels, name, qs)
    n = parent.sum()
    sym = _symbol(impurity)
    steps = []
    p = parent / n if n > 0 else parent
    text = (
        f"n = {int(round(n))} examples: {_counts_text(parent, classes)}. "
        "Frequencies p = (" + ", ".join(_f(v) for v in p) + ")."
    )
    latex = ""
    if impurity.off_centered:
        theta = impurity.theta
        text += (
            " The measure is off-centered on θ = ("
            + ", ".join(_f(v) for v in theta)
            + "), so it is applied to the transformed "
            "frequencies π\\* (maximal impurity at p = θ)."
        )
        latex = _freq_steps(impurity, parent)[1]
    elif impurity.info.theta == "builtin":
        text += (
            " The asymmetric entropy peaks at θ = ("
            + ", ".join(_f(v) for v in impurity.theta)
            + ")"
            + (
                " and uses the Laplace estimate (n p + 1) / (n + q)."
                if impurity.consistent
                else "."
            )
        )
    steps.append(CalculationLine("Parent node", text, latex, None))
    i_parent = qs["node"]
    name = impurity.label if label is None else label
    steps.append(
        CalculationLine(
            "Parent impurity",
            f"{md_escape(name)} of the parent node.",
            _impurity_latex(impurity, parent, i_parent),
            i_parent,
        )
    )
    child_values = qs["children"]
    for k, (row, label, value) in enumerate(zip(kids, branch_labels, child_values)):
        pre = _freq_steps(impurity, row)[1] if row.sum() > 0 else ""
        latex = _impurity_latex(impurity, row, value) if row.sum() > 0 else rf"{sym} = 0"
        steps.append(
            CalculationLine(
                f"Child {k + 1}: {label}",
                f"n = {int(round(row.sum()))}: {_counts_text(row, classes)}.",
                (pre + r",\quad " + latex) if pre else latex,
                value,
            )
        )
    weights, weighted = qs["weights"], qs["children_impurity"]
    terms = " + ".join(
        rf"\tfrac{{{int(round(w * n))}}}{{{int(round(n))}}} \times {_f(v)}"
        for w, v in zip(weights, child_values)
    )
    steps.append(
        CalculationLine(
            "Weighted impurity of the children",
            "Each child's impurity weighted by its share of the parent's examples, n_k / n.",
            rf"{sym}(Y|X) = {terms} = {_f(weighted)}",
            weighted,
        )
    )
    gain = qs["gain"]
    steps.append(
        CalculationLine(
            "Gain",
            "The decrease of impurity from the parent to its children.",
            rf"\text{{gain}} = {sym}(Y) - {sym}(Y|X) = {_f(i_parent)} - {_f(weighted)} = {_f(gain)}",
            gain,
        )
    )
    if "denominator" not in qs and qs["score"] != gain:  # another score: its own numbers
        info = scorer.score_info
        extra = {k: v for k, v in qs.items() if k not in _DECREASE_QUANTITIES}
        shown = ", ".join(f"{k} = {_f(v) if isinstance(v, float) else v}" for k, v in extra.items())
        steps.append(
            CalculationLine(
                "Score",
                f"The split's score, the {md_escape(info.label)}: {md_escape(info.description)}"
                + (f" ({md_escape(shown)})." if shown else "."),
                rf"\text{{score}} = {_f(qs['score'])}",
                qs["score"],
            )
        )
    if "denominator" in qs:  # lambda_alpha's: I(X) and the normalised score
        alpha, i_x, score = qs["alpha"], qs["predictor"], qs["score"]
        steps.append(
            CalculationLine(
                "Normalised score",
                "I(X) is the same measure, uncentered, on the children's sizes; λ_α divides the gain "
                f"by α I(Y) + (1 − α) I(X) with α = {alpha:g}.",
                rf"I(X) = {_f(i_x)},\quad \lambda_{{{alpha:g}}} = \frac{{{_f(gain)}}}"
                rf"{{{alpha:g} \times {_f(i_parent)} + {1 - alpha:g} \times {_f(i_x)}}} = {_f(score)}",
                score,
            )
        )
    return steps


#: The quantities of an impurity decrease (:meth:`SplitScorer.quantities`) the steps above show.
_DECREASE_QUANTITIES = ("node", "children", "weights", "children_impurity", "gain", "score")


def _parts_steps(parent, kids, classes, branch_labels, name, qs) -> list[CalculationLine]:
    r"""The worked calculation of a split criterion's score from its parts (the Hellinger
    distance of HDDT, :func:`offcenter.measures.criteria.hellinger_parts`).

    Two classes: each child's share of the positives (the second class) and of the negatives,
    then :math:`d_H = \sqrt{\sum_k (\sqrt{a_k} - \sqrt{b_k})^2}`. More classes: the same for
    each class against the rest, and the largest (see :mod:`offcenter.measures.criteria`).
    """

    n = parent.sum()
    steps = [
        CalculationLine(
            "Parent node",
            f"n = {int(round(n))} examples: {_counts_text(parent, classes)}. "
            f"{md_escape(name)} is a split criterion, not an impurity decrease: it compares how "
            "each class spreads over the children, each class normalised by its own total "
            "(so the class ratio does not matter).",
            "",
            None,
        )
    ]
    q = parent.size
    values = []
    for part in qs["parts"]:
        c, a, b, d = part["class"], part["positive"], part["negative"], part["distance"]
        values.append(d)
        if a is None:
            continue
        pos = md_escape(classes[c], 30)
        neg = md_escape(classes[0], 30) if q == 2 else f"not {pos}"
        shares = "; ".join(
            f"{md_escape(lab, 40)}: {_f(x)} of {pos}, {_f(y)} of {neg}"
            for lab, x, y in zip(branch_labels, a, b)
        )
        terms = " + ".join(rf"(\sqrt{{{_f(x)}}} - \sqrt{{{_f(y)}}})^2" for x, y in zip(a, b))
        steps.append(
            CalculationLine(
                f"Class {classes[c]} against {'class ' + classes[0] if q == 2 else 'the rest'}"
                + ("" if q == 2 else f" (d_{c + 1})"),
                f"Share of each class in each child: {shares}.",
                rf"d_{{{'H' if q == 2 else c + 1}}} = \sqrt{{{terms}}} = {_f(d)}",
                d,
            )
        )
    value = qs["score"]
    if q > 2:
        steps.append(
            CalculationLine(
                "Hellinger distance of the split",
                "The largest distance of one class against the rest.",
                rf"d_H = \max({', '.join(_f(v) for v in values)}) = {_f(value)}",
                value,
            )
        )
    return steps


def steps_markdown(steps: Sequence[CalculationLine]) -> str:
    """The steps as one markdown string (numbered, formulas in display math)."""
    out = []
    for k, step in enumerate(steps, 1):
        out.append(f"**{k}. {md_escape(step.title, 80)}.** {step.text}")
        if step.latex:
            out.append(f"$$\n{step.latex}\n$$")
    return "\n\n".join(out)


def node_split_steps(
    clf, node_id: int, *, alpha: float | None = None
) -> list[CalculationLine] | None:
    """The worked calculation of the split a fitted tree made at a node (None for a leaf)."""
    nodes = clf.tree_.nodes
    node = nodes[node_id]
    if node.split is None:
        return None
    kids = np.array([nodes[c].counts for c in node.children], dtype=float)
    imp, label = _node_measure(clf, node)
    return split_steps(
        node.counts,
        kids,
        list(clf.classes_),
        imp,
        list(node.split.branch_labels),
        alpha=alpha,
        label=label,
    )


def node_measure_label(clf, node_id: int) -> str:
    """The exact label (theta resolved on the training prior) of the setting a node's split was
    chosen with: the title of its worked calculation."""
    imp, label = _node_measure(clf, clf.tree_.nodes[node_id])
    return imp.label if label is None else label


def _node_measure(clf, node) -> tuple[Impurity, str | None]:
    """The impurity a node's split was chosen with, and its label with theta resolved.

    ``node.setting_key`` is the key of the node's :class:`MeasureSetting` (a regrown subtree may
    use another measure than the tree); a tree without one falls back to ``clf.impurity_``.
    """
    setting = getattr(clf, "setting_", None)
    prior = getattr(clf, "prior_", None)
    if setting is None or prior is None:
        return clf.impurity_, None
    own_key = getattr(node, "setting_key", "")
    if own_key and own_key != setting.key:
        try:
            own = MeasureSetting.parse(own_key)
            return own.impurity(prior), own.label_for(prior)
        except ValueError:
            pass
    return clf.impurity_, setting.label_for(prior)


def best_under(cands) -> dict[str, list[str]]:
    """For each candidate feature, the measure settings (keys) under which it ranks first."""
    settings = list(cands.attrs.get("settings", []))
    out: dict[str, list[str]] = {str(f): [] for f in cands["feature"]}
    for key, _label in settings:
        col = f"rank:{key}"
        if col not in cands.columns or not _informative(cands, key):
            continue
        for feature, rank in zip(cands["feature"], cands[col]):
            if rank == 1:
                out[str(feature)].append(key)
    return out


def _informative(cands, key: str) -> bool:
    """False when every candidate has the same score under a setting (e.g. the misclassification
    error is often 0 for every split): such a setting has no preferred split."""
    col = f"score:{key}" if f"score:{key}" in cands.columns else f"gain:{key}"
    if col not in cands.columns:
        return False
    values = pd.to_numeric(cands[col], errors="coerce").dropna().to_numpy(dtype=float)
    return values.size > 0 and float(values.max() - values.min()) > 1e-12


def informative_settings(cands) -> list[str]:
    """Keys of the measure settings that prefer some candidate split to another."""
    plain = without_attrs(cands)  # a column of a frame with attrs deep-copies them
    return [k for k, _ in cands.attrs.get("settings", []) if _informative(plain, k)]


def disagreement(cands) -> list[bool]:
    """True for the rows ranked first by some measure settings but not by all of them.

    When every measure picks the same best split, no row is flagged; otherwise the rows that
    some measure prefers are (the ones a teacher would point at). A setting under which every
    candidate scores the same (no preference) is left out of the comparison.
    """
    plain = without_attrs(cands)
    settings = [
        k
        for k, _ in cands.attrs.get("settings", [])
        if f"rank:{k}" in cands.columns and _informative(plain, k)
    ]
    if not settings:
        return [False] * len(cands)
    firsts = best_under(cands)
    return [0 < len(firsts[str(f)]) < len(settings) for f in cands["feature"]]


def _snap(values) -> pd.Series:
    """Floats, with round-off below 1e-12 (a gain of 0 computed as -5.6e-17) shown as 0."""
    v = pd.to_numeric(values, errors="coerce").astype(float)
    return v.where(v.isna() | (v.abs() >= 1e-12), 0.0)


def candidate_display(cands, keys: Sequence[str] | None = None, *, scores: bool = True):
    """A readable copy of ``clf.candidates(node)``: one gain (and score) and rank column per
    measure, labelled with the measure's label, plus "best under" and "measures disagree".

    Column order: ``feature``, ``chosen``, then per measure ``gain · <label>``, ``score · <label>``
    (when it differs from the gain) and ``rank · <label>``, then the text columns ``best under``,
    ``measures disagree``, ``split`` and ``children counts``. Gains and scores are unrounded.

    Returns (DataFrame, list of bool disagreement flags); column names contain user-independent
    labels only, cell values may contain user text (show with st.dataframe, never as HTML).
    """
    settings = list(cands.attrs.get("settings", []))
    labels = dict(settings)
    keys = [k for k, _ in settings] if keys is None else list(keys)
    flags = disagreement(cands)
    firsts = best_under(cands)
    cands = without_attrs(cands)
    out = pd.DataFrame(
        {
            "feature": cands["feature"].astype(str),
            "split": cands["split"].astype(str),
            "children counts": cands["children_counts"].astype(str),
            "chosen": cands["chosen"].astype(bool),
        }
    )
    for key in keys:
        label = labels.get(key, key)
        if f"gain:{key}" in cands.columns:
            out[f"gain · {label}"] = _snap(cands[f"gain:{key}"])
        if (
            scores
            and f"score:{key}" in cands.columns
            and not np.allclose(
                cands[f"score:{key}"].astype(float),
                cands[f"gain:{key}"].astype(float),
                equal_nan=True,
            )
        ):
            out[f"score · {label}"] = _snap(cands[f"score:{key}"])
        if f"rank:{key}" in cands.columns:
            out[f"rank · {label}"] = pd.to_numeric(cands[f"rank:{key}"]).round().astype("Int64")
    out["best under"] = [
        ", ".join(labels.get(k, k) for k in firsts[str(f)]) for f in cands["feature"]
    ]
    out["measures disagree"] = flags
    # the feature, then the numbers per measure (visible without scrolling), the long text last;
    # numbers are kept exact (the page formats them, the CSV keeps full precision)
    front = ["feature", "chosen"]
    back = ["best under", "measures disagree", "split", "children counts"]
    out = out[front + [c for c in out.columns if c not in front + back] + back]
    return out.reset_index(drop=True), flags


def parse_counts(text: str) -> np.ndarray:
    """The children's class counts of an :func:`~offcenter.tree.inspect.own_optima` or
    :func:`~offcenter.tree.inspect.candidates` row (``"[426, 173] | [74, 95]"``) as an array
    of shape (children, classes).

    >>> parse_counts("[426, 173] | [74, 95]").tolist()
    [[426.0, 173.0], [74.0, 95.0]]
    """
    rows = [r.strip().strip("[]") for r in str(text).split("|") if r.strip()]
    if not rows:
        raise ValueError("no children's counts in this row.")
    return np.array([[float(v) for v in r.split(",")] for r in rows], dtype=float)


def optimum_steps(clf, node_id: int, optima, setting_key: str, feature) -> list[CalculationLine]:
    """The worked calculation of any setting's own best split of any feature at a node.

    ``optima`` is ``clf.own_optima(node_id, ...)``; the row of (``setting_key``, ``feature``)
    gives the children's class counts and the split's text; the measure is the setting's, with
    theta resolved on the training prior, and the tree's alpha (none for a split criterion).
    Raises ValueError when the pair has no valid split.
    """
    rows = optima[
        (optima["setting_key"].astype(str) == str(setting_key)).to_numpy(bool)
        & (optima["feature"].astype(str) == str(feature)).to_numpy(bool)
    ]
    if not len(rows) or not str(rows.iloc[0]["children_counts"]):
        raise ValueError(f"{feature!s} has no valid split under this setting at this node.")
    row = rows.iloc[0]
    kids = parse_counts(row["children_counts"])
    parent = clf.tree_.nodes[node_id].counts
    setting = MeasureSetting.parse(str(setting_key))
    prior = clf.prior_
    labels = [s.strip() for s in str(row["split"]).split(" / ")]
    if len(labels) != len(kids):
        labels = [f"child {k + 1}" for k in range(len(kids))]
    # scored like the tree (its score and alpha) when that applies to this setting's measure
    scored = setting.scored_like(clf.setting_)
    return split_steps(
        parent,
        kids,
        list(clf.classes_),
        setting.impurity(prior),
        labels,
        alpha=scored.alpha,
        label=setting.label_for(prior),
        score=scored.score,
    )
