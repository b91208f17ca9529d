"""The Tree page's measure choice, leaf rule, training report and the comparison of settings.

Streamlit side of :mod:`offcenter.viz.comparison` (the tables) and
:func:`offcenter.tree.inspect.own_optima` / :func:`~offcenter.tree.inspect.agreement`:

- :func:`pick_setting`: the measure setting chosen as what it is (one list of
  :class:`~offcenter.MeasureSetting` labels), its exact label with the prior's numbers, and a
  suggestion (never a silent switch) to off-center on an imbalanced prior;
- :func:`pick_leaf_rule`: majority or prior-aware leaves;
- :func:`show_training_report`: confusion matrix and minority recall under the tree;
- :func:`show_node_comparison`: each setting's own best split at the node, the verdict, the
  split the tree chose scored under every setting, the candidate table and the gain against
  the threshold;
- :func:`show_worked_calculation`: the node's calculation titled by its exact setting.

Widget keys all start with the page's prefix (``tr_``). Numbers are shown with 6 significant
digits of the exact value (:data:`offcenter.viz.comparison.NUMBER_FORMAT`); the CSV downloads
keep full precision. User text (feature names, classes) is escaped or shown in tables only.
"""

from __future__ import annotations

import re

import pandas as pd
import streamlit as st

from offcenter.app import urlstate
from offcenter.app.charts import plotly_chart
from offcenter.app.downloads import csv_button
from offcenter.measures.settings import MeasureSetting
from offcenter.tree.inspect import agreement
from offcenter.viz.comparison import (
    LEAF_RULES,
    NO_WINNER,
    NUMBER_FORMAT,
    chosen_split_table,
    flat_curves,
    imbalance_note,
    own_best_table,
    own_feature_table,
    prior_label,
    setting_choices,
    training_report,
    with_prior_labels,
)
from offcenter.viz.explain import (
    candidate_display,
    informative_settings,
    md_escape,
    node_measure_label,
    node_split_steps,
    steps_markdown,
)
from offcenter.viz.tree import threshold_figure

CHOICES = setting_choices()
DEFAULT_SETTING = "shannon"


def url_fields() -> list[urlstate.Field]:
    """The page's URL fields of this module: the setting's choice id and the leaf rule."""
    return [
        urlstate.Field("setting", "str", DEFAULT_SETTING, choices=tuple(CHOICES)),
        urlstate.Field("leaf_rule", "str", "majority", choices=tuple(LEAF_RULES)),
    ]


def legacy_setting(params) -> str | None:
    """The choice id for a link of the earlier page (``measure``, ``theta``, ``consistent``
    parameters, theta "prior" when absent), or None when it has none or no such choice."""
    measure = params.get("measure")
    if not measure or params.get("setting"):
        return None
    theta = params.get("theta", "prior")
    try:
        s = MeasureSetting.parse(
            {
                "measure": str(measure),
                "theta": None if theta == "none" else str(theta),
                "consistent": str(params.get("consistent", "0")).lower() in ("1", "true"),
            }
        )
    except (ValueError, TypeError):
        return None
    return choice_id(s)


def upgrade_link(query) -> None:
    """Rewrite an earlier link's ``measure``/``theta``/``consistent`` into ``setting``."""
    cid = legacy_setting(query)
    if cid is not None:
        query["setting"] = cid
    for old in ("measure", "theta", "consistent"):
        if old in query:
            del query[old]


def choice_id(setting: MeasureSetting) -> str | None:
    """The choice id of a setting (parameters aside), or None when it is not offered."""
    plain = setting.replace(beta=None, rho=None, alpha=None)
    for cid, s in CHOICES.items():
        if s.replace(beta=None, rho=None) == plain:
            return cid
    return None


def choice_label(cid: str) -> str:
    """The label of a choice without its parameter values (set by the sliders below it), so
    that the list's labels never change under the user (``off-centered Daroczy, θ = prior``)."""
    return re.sub(r" \((β|ρ) = [^)]*\)", "", CHOICES[cid].label)


def _use_setting(prefix: str, cid: str) -> None:
    st.session_state[prefix + "setting"] = cid


def numbers_config(df: pd.DataFrame) -> dict:
    """Column configs showing every float column with 6 significant digits."""
    return {
        c: st.column_config.NumberColumn(c, format=NUMBER_FORMAT)
        for c in df.columns
        if pd.api.types.is_float_dtype(df[c])
    }


def show_table(df: pd.DataFrame, key: str, **kwargs) -> None:
    """``st.dataframe`` with the 6-significant-digit number format, no index."""
    st.dataframe(
        df, hide_index=True, column_config=numbers_config(df), key=key, width="stretch", **kwargs
    )


# ------------------------------------------------------------------------------ settings
def pick_setting(prefix: str, class_counts, container=st) -> MeasureSetting:
    """The measure setting (without a score), chosen from labels, with its parameters.

    Draws the choice list (``{prefix}setting``), the sliders of the measure's parameters
    (``{prefix}beta``, ``{prefix}rho``), the exact label with the prior's numbers and, when the
    prior is imbalanced and the measure is not off-centered, the suggestion to off-center with
    a button (``{prefix}suggest_oc``). Nothing is switched on without the user.
    """
    S = st.session_state
    key = prefix + "setting"
    if S.get(key) not in CHOICES:
        S[key] = DEFAULT_SETTING
    cid = container.selectbox(
        "Measure setting",
        list(CHOICES),
        format_func=choice_label,
        key=key,
        help="The measure and its off-centering, as they are: 'Shannon' is the plain entropy; "
        "'off-centered Shannon, θ = prior' is maximal at the class distribution of the data.",
    )
    base = CHOICES[cid]
    params = {}
    for p in base.info.params:
        params[p.name] = container.slider(
            f"{p.name} ({p.description.split(',')[0]})",
            float(p.ui_low),
            float(p.ui_high),
            step=float(p.ui_step),
            key=prefix + p.name,
        )
    setting = base.replace(**params)
    # labels are the package's own text (no user input): shown as they are
    container.caption("Exact setting: " + setting.label_for(class_counts))
    if setting.info.is_criterion:
        container.caption(
            "The Hellinger distance takes no theta: it is skew-insensitive by construction. Its "
            "node impurity (pruning costs, importances) is DKM."
        )
    note = imbalance_note(setting, class_counts)
    if note is not None:
        text, suggested = note
        container.info(md_escape(text))
        target = choice_id(suggested)
        if target is not None:
            container.button(
                f"Use {suggested.label}",
                key=prefix + "suggest_oc",
                on_click=_use_setting,
                args=(prefix, target),
            )
    return setting


def pick_leaf_rule(prefix: str, container=st) -> str:
    """The leaf rule radio (``{prefix}leaf_rule``): ``"majority"`` or ``"prior"``."""
    return container.radio(
        "Leaf prediction",
        list(LEAF_RULES),
        format_func=LEAF_RULES.get,
        key=prefix + "leaf_rule",
        help="Majority: a leaf predicts its most frequent class. Prior-aware: the class whose "
        "share in the leaf most exceeds its share in the whole data (p_leaf / prior largest).",
    )


# ------------------------------------------------------------------------------ tree report
@st.cache_resource(max_entries=64, show_spinner=False)
def _cached_report(tree_key: str, _clf, _X, _y):
    return training_report(_clf, _X, _y)


def show_training_report(clf, X, y, tree_key: str | None = None) -> None:
    """The training confusion matrix, accuracy and minority recall, and the no-minority note
    (computed once per ``tree_key`` when given: it must identify the tree and its data)."""
    rep = training_report(clf, X, y) if tree_key is None else _cached_report(tree_key, clf, X, y)
    st.subheader("Predictions on the training rows")
    c1, c2 = st.columns([2, 1])
    with c1:
        st.dataframe(rep.matrix, key="tr_confusion")
    with c2:
        st.metric(f"Minority recall (class {str(rep.minority)[:30]})", f"{rep.minority_recall:.1%}")
        st.metric("Accuracy", f"{rep.accuracy:.1%}")
        st.caption(
            f"{rep.leaves_predicting_minority} leaf(s) predict the minority class. Training rows "
            "only: an optimistic estimate (see Compare measures for cross-validation)."
        )
    if rep.note:
        st.warning(md_escape(rep.note))


# ------------------------------------------------------------------------------ node comparison
@st.cache_resource(max_entries=256, show_spinner=False)
def node_tables(tree_key: str, node: int, _clf) -> dict:
    """The node's tables, computed once per (tree, node) and shared by reruns (read-only):
    ``optima`` and ``cands`` (labels with the prior's numbers), ``best`` (own best per
    setting), ``chosen`` (the tree's split under every setting, None at a leaf), ``verdict``,
    ``informative`` (the settings that prefer some candidate to another)."""
    prior = _clf.prior_
    optima = with_prior_labels(_clf.own_optima(node), prior)
    cands = with_prior_labels(_clf.candidates(node), prior)
    split = _clf.tree_.nodes[node].split
    out = {"optima": optima, "cands": cands}
    out["informative"] = informative_settings(cands)
    if len(cands):
        out["best"] = own_best_table(optima)
        out["verdict"] = verdict(optima)
        out["chosen"] = None if split is None else chosen_split_table(cands, optima, split.feature)
    return out


@st.cache_resource(max_entries=256, show_spinner=False)
def feature_table(tree_key: str, node: int, choice: str, _optima) -> pd.DataFrame:
    """:func:`offcenter.viz.comparison.own_feature_table` of the node under ``choice`` (a
    setting key, or ``"(all settings)"``), once per (tree, node, choice); read-only."""
    return own_feature_table(_optima, None if choice == "(all settings)" else [choice])


@st.cache_resource(max_entries=256, show_spinner=False)
def candidate_table(tree_key: str, node: int, keys: tuple, _cands) -> tuple:
    """:func:`offcenter.viz.explain.candidate_display` of the node for these settings."""
    return candidate_display(_cands, list(keys))


@st.cache_data(max_entries=256, show_spinner=False)
def cached_thresholds(tree_key: str, node: int, feature: str, _clf) -> pd.DataFrame:
    return _clf.threshold_gains(node, feature)


def _code(text) -> str:
    """User text as an inline code span (shown literally: no markdown, no typography)."""
    return "`" + str(text).replace("`", "'").replace("\n", " ") + "`"


def verdict(optima: pd.DataFrame) -> tuple[str, str]:
    """("success" | "warning" | "info", markdown) of the settings' agreement
    (:func:`offcenter.tree.inspect.agreement` on the own optima): one line per distinct pick
    with the settings making it, then the settings without a winner."""
    a = agreement(optima)
    lines = [f"- {_code(pick)}: {'; '.join(a.labels[k] for k in keys)}" for pick, keys in a.groups]
    if a.no_winner:
        lines.append(f"- {NO_WINNER}: {'; '.join(a.labels[k] for k in a.no_winner)}")
    body = "\n".join(lines)
    if not a.picks:
        return "info", "**No winner**: all features tie under every setting."
    if a.agree:
        head = f"**All settings agree** on their own best split ({len(a.picks)} with a winner):"
        return "success", head + "\n" + body
    return "warning", "**The settings disagree** on their own best split:\n" + body


def show_node_comparison(clf, node, tree_key: str, tree_tag: str):
    """Everything about the settings at the selected node; returns the candidate table or None.

    1. Each setting's own best split (per setting, then per feature), with the verdict.
    2. The split this tree chose, scored under every setting.
    3. Every feature at the tree's thresholds under every setting (an expander).
    4. Gain against the threshold of a numeric feature.
    """
    prior = clf.prior_
    own_label = clf.setting_.replace(alpha=None).label_for(prior)
    try:
        tables = node_tables(tree_key, node.id, clf)
        optima, cands = tables["optima"], tables["cands"]
    except (ValueError, KeyError) as exc:
        st.info(f"No candidate splits at this node: {md_escape(exc)}")
        return None
    if not len(cands):
        st.info("No candidate splits at this node.")
        return None
    st.subheader("Each setting's own best split")
    st.caption(
        f"Node {node.id}. Every setting searches every feature for ITS best threshold or "
        f"grouping (not the tree's). The tree was grown with {own_label}."
    )
    kind, text = tables["verdict"]
    getattr(st, kind)(text)
    best = tables["best"]
    show_table(best, "tr_own_best")
    st.caption(
        f"'{NO_WINNER}': every feature scores the same under that setting (e.g. all "
        "misclassification gains 0), so it prefers no split."
    )
    labels = dict(optima.attrs["settings"])
    keys = list(labels)
    choice = st.selectbox(
        "Each feature's own best split under",
        ["(all settings)", *keys],
        format_func=lambda k: labels.get(k, k),
        key="tr_own_setting",
    )
    per_feature = feature_table(tree_key, node.id, choice, optima)
    show_table(per_feature, "tr_own_features", height=min(420, 38 + 35 * len(per_feature)))
    csv_button(
        "Download every setting's own splits (CSV, full precision)",
        optima.drop(columns=["groups"]),
        f"own_optima_node{node.id}.csv",
        "tr_dl_own",
        rerun=False,
    )

    st.subheader("The split this tree chose, scored under every setting")
    if node.split is None:
        st.info("This node is a leaf: the tree made no split here.")
    else:
        chosen = tables["chosen"]
        st.caption(
            f"The tree ({own_label}) splits on {md_escape(node.split.feature, 60)}. "
            "Rank: among the features at the tree's thresholds; gap: the setting's own best "
            "score minus this split's (0: the setting would choose it too)."
        )
        show_table(chosen, "tr_chosen_split")

    every = st.expander(
        "Every feature at the tree's thresholds, scored under every setting",
        key="tr_cand_open",
        on_change="rerun",  # drawn only when open: it is a wide table, rarely opened
    )
    if every.open:
        with every:
            shown_keys = st.multiselect(
                "Settings in the table",
                keys,
                default=keys,
                format_func=lambda k: labels.get(k, k),
                # keyed by the options: a tree grown with a new measure (a new column) shows them all
                key="tr_cand_keys_" + "|".join(keys),
            )
            table, _ = candidate_table(tree_key, node.id, tuple(shown_keys or keys), cands)
            informative = tables["informative"]
            if not informative:
                st.info(
                    "No measure prefers any split here: every candidate scores the same at the "
                    "tree's thresholds (the node is pure, or the features take one value here)."
                )
            no_pref = [labels[k] for k in keys if k not in informative]
            if no_pref:
                st.caption(
                    f"{NO_WINNER} at the tree's thresholds: " + md_escape("; ".join(no_pref))
                )
            # the rows where the settings' first choices differ are the 'measures disagree' column
            show_table(table, "tr_cand_table")
            if any(MeasureSetting.parse(k).info.is_criterion for k in shown_keys or keys):
                st.caption(
                    "For the Hellinger distance (HDDT), a split criterion, the gain and score columns "
                    "hold the Hellinger distance of the split (0 to √2), not an impurity decrease."
                )
            csv_button(
                "Download the candidate table (CSV, full precision)",
                table,
                f"candidates_node{node.id}.csv",
                "tr_dl_cands",
                rerun=False,
            )

    _threshold_section(clf, node, tree_key, tree_tag, cands, labels)
    return cands


def _threshold_section(clf, node, tree_key, tree_tag, cands, labels) -> None:
    numeric_feats = [f for f, k in zip(cands["feature"], cands["kind"]) if k == "numeric"]
    if not numeric_feats:
        return
    keys_all = list(labels)
    chosen_key = cands.attrs.get("chosen_key", keys_all[0])
    st.subheader("Gain against the threshold")
    default_f = (
        node.split.feature
        if node.split is not None and node.split.feature in numeric_feats
        else numeric_feats[0]
    )
    g1, g2 = st.columns([2, 1])
    feat = g1.selectbox(
        "Numeric feature",
        numeric_feats,
        index=numeric_feats.index(default_f),
        key=f"tr_thr_feature_{tree_tag}_{node.id}",
    )
    norm = g2.checkbox(
        "Divide each curve by its maximum",
        value=False,
        key="tr_thr_norm",
        help="Compares the shapes on one scale; a curve flat within 1e-9 stays at 0.",
    )
    default_keys = [k for k in keys_all if k == chosen_key] + [
        k for k in keys_all if k != chosen_key
    ][:2]
    thr_keys = st.multiselect(
        "Settings",
        keys_all,
        default=default_keys,
        format_func=lambda k: labels.get(k, k),
        # keyed by the tree's own setting, so that a new tree's curve is shown first
        key="tr_thr_keys_" + str(chosen_key),
    )
    gains = cached_thresholds(tree_key, node.id, feat, clf)
    chosen_thr = (
        node.split.threshold if node.split is not None and node.split.feature == feat else None
    )
    if len(gains) == 0:
        st.info("This feature takes a single value at this node: there is no threshold to try.")
        return
    shown = thr_keys or default_keys
    plotly_chart(  # the figure's own dicts, not copied (offcenter.app.charts)
        threshold_figure(gains, labels, feat, chosen=chosen_thr, keys=shown, normalise=norm),
        width="stretch",
        key="tr_thr_chart",
    )
    flat = flat_curves(gains, shown)
    if norm and flat:
        st.caption(
            "Left flat at 0 (its gains span less than 1e-9, dividing by the maximum would only "
            "show round-off): " + md_escape("; ".join(labels.get(k, k) for k in flat))
        )


def prior_labels(keys, prior, fallback: dict) -> list[str]:
    """The labels of setting keys with theta resolved on the prior (fallback: given labels)."""
    out = []
    for k in keys:
        try:
            out.append(prior_label(k, prior))
        except ValueError:
            out.append(fallback.get(k, k))
    return out


def show_worked_calculation(clf, node, alpha) -> None:
    """The node's worked calculation, titled by the exact setting it was chosen with."""
    st.subheader("The worked calculation of this node's split")
    steps = node_split_steps(clf, node.id, alpha=alpha)
    if steps is None:
        st.info(
            "This node is a leaf: it predicts "
            + md_escape(node.prediction, 40)
            + ". Choose a feature below to split it."
        )
        return
    st.caption("Measure: " + node_measure_label(clf, node.id))
    st.markdown(steps_markdown(steps))
