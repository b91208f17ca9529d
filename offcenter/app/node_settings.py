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

from collections.abc import Mapping

import pandas as pd
import streamlit as st

from offcenter.app import heavy_work, measure_params, tables, urlstate
from offcenter.app.charts import figure_spec, plotly_chart
from offcenter.app.downloads import csv_button, prepare_csv
from offcenter.measures.registry import TREE_MEASURES
from offcenter.measures.settings import MeasureSetting, comparison_settings
from offcenter.tree.inspect import agreement
from offcenter.viz.comparison import (
    LEAF_RULE_LABELS,
    NO_WINNER,
    NUMBER_FORMAT,
    chosen_split_table,
    flat_curves,
    imbalance_note,
    own_best_table,
    own_feature_table,
    predictions_table,
    prior_label,
    resolved_labels,
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
    optimum_steps,
    steps_markdown,
)
from offcenter.viz.tree import category_histogram_figure, class_histogram_figure, threshold_figure

DEFAULT_SETTING = "shannon"


class _Choices(Mapping):
    """:func:`offcenter.viz.comparison.setting_choices` as the registry holds them now (a
    measure registered after this module's import is offered too); rebuilt when the
    registry's measures change."""

    def __init__(self):
        self._names: tuple = ()
        self._choices: dict[str, MeasureSetting] = {}

    def _current(self) -> dict[str, MeasureSetting]:
        names = tuple((n, id(i)) for n, i in TREE_MEASURES.items())
        if names != self._names:
            self._choices, self._names = setting_choices(), names
        return self._choices

    def __getitem__(self, cid):
        return self._current()[cid]

    def __iter__(self):
        return iter(self._current())

    def __len__(self) -> int:
        return len(self._current())


#: The settings offered, by choice id (:func:`offcenter.viz.comparison.setting_choices`).
CHOICES = _Choices()


def node_comparison_settings(n_classes: int) -> list[MeasureSetting]:
    """The settings compared at a node: :func:`offcenter.comparison_settings`, and for two-class
    data DKM and the Hellinger distance (HDDT's criterion), the two measures built for skewed
    two-class data, so that they are in the comparison whatever the tree was grown with.

    >>> [s.key for s in node_comparison_settings(2)][-2:]
    ['dkm', 'hellinger']
    >>> "dkm" in [s.key for s in node_comparison_settings(3)]
    False
    """
    out = list(comparison_settings())
    if int(n_classes) == 2:
        out += [MeasureSetting("dkm"), MeasureSetting("hellinger")]
    return out


def url_fields() -> list[urlstate.Field]:
    """The page's URL fields of this module, as the registry holds them now: the setting's
    choice id, the leaf rule and the measures' parameters
    (:func:`offcenter.app.measure_params.url_fields`). The page's schema holds the function
    (:class:`~offcenter.app.urlstate.Schema` calls it whenever it is read)."""
    return [
        urlstate.Field("setting", "str", DEFAULT_SETTING, choices=tuple(CHOICES)),
        urlstate.Field("leaf_rule", "str", "majority", choices=tuple(LEAF_RULE_LABELS)),
        *measure_params.url_fields(),
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
    plain = setting.replace(params=None, alpha=None)
    for cid, s in CHOICES.items():
        if s.without_params() == plain:
            return cid
    return None


def choice_label(cid: str) -> str:
    """The label of a choice without its parameter values (set by the sliders below it), so
    that the list's labels never change under the user (``off-centered Daroczy, θ = prior``)."""
    return CHOICES[cid].label_without_params


def _use_setting(prefix: str, cid: str) -> None:
    st.session_state[prefix + "setting"] = cid


def numbers_config(df: pd.DataFrame) -> dict:
    """Column configs showing every float column with 6 significant digits."""
    return {
        c: st.column_config.NumberColumn(c, format=NUMBER_FORMAT)
        for c, dtype in df.dtypes.items()  # the dtypes, not the columns (a copy of attrs each)
        if pd.api.types.is_float_dtype(dtype)
    }


def show_table(df: pd.DataFrame, key: str, *, read_only: bool = True, **kwargs) -> None:
    """A table with the 6-significant-digit number format, no index
    (:func:`offcenter.app.tables.show_table`: static and readable in presentation mode).
    ``read_only``: ``df`` is a cached table that never changes (the node's tables, the step's
    verdict), converted to Arrow once (:func:`offcenter.app.tables.arrow_table`)."""
    tables.show_table(df, column_config=numbers_config(df), key=key, read_only=read_only, **kwargs)


# ------------------------------------------------------------------------------ settings
def pick_setting(prefix: str, class_counts, container=st) -> MeasureSetting:
    """The measure setting (without a score), chosen from labels, with its parameters.

    Draws the choice list (``{prefix}setting``), the sliders of the measure's parameters
    (``{prefix}<name>``: ``{prefix}beta``, a registered measure's own, from the registry), the
    exact label with the prior's numbers and, when the
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
    params = measure_params.draw_sliders(base.info.params, prefix, container)
    setting = base.replace(params=params)
    # labels are the package's own text (no user input): shown as they are
    container.caption("Exact setting: " + setting.label_for(class_counts))
    if setting.info.setting_note:  # a split criterion's (the registry's text)
        container.caption(setting.info.setting_note)
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
        list(LEAF_RULE_LABELS),
        format_func=LEAF_RULE_LABELS.get,
        key=prefix + "leaf_rule",
        help="Majority: a leaf predicts its most frequent class. Prior-aware: the class whose "
        "share in the leaf most exceeds its share in the whole data (p_leaf / prior largest).",
    )


# ------------------------------------------------------------------------------ tree report
@st.cache_resource(max_entries=64, show_spinner=False)
def cached_report(tree_key: str, _clf, _X, _y):
    """:func:`offcenter.viz.comparison.training_report` of the tree ``tree_key`` (it must
    identify the tree and its data), once per process; read-only; in the worker pool on many
    rows (:mod:`offcenter.app.heavy_work`)."""
    if heavy_work.is_heavy_rows(len(_X)):
        return heavy_work.run(training_report, _clf, _X, _y)
    return training_report(_clf, _X, _y)


def _report_csvs(rep, clf, X, y, stem: str) -> list[tuple]:
    """The training report's CSV downloads: (label, table or its callable, file name, key)."""
    return [
        (
            "Predictions (CSV)",
            lambda: predictions_table(clf, X, y=y),
            f"{stem}_predictions.csv",
            "tr_dl_pred",
        ),
        (
            "Confusion matrix (CSV)",
            lambda: rep.matrix.reset_index(names="true class"),
            f"{stem}_confusion.csv",
            "tr_dl_confusion",
        ),
    ]


def prepare_report(tree_key: str, clf, X, y, stem: str | None = None) -> None:
    """What :func:`show_training_report` shows of the tree ``tree_key`` with these ``stem``,
    computed ahead (a grow's background preparation): the report and, with ``stem``, its
    CSV files."""
    rep = cached_report(tree_key, clf, X, y)
    if stem is not None:
        for _label, frame, file_name, _key in _report_csvs(rep, clf, X, y, stem):
            prepare_csv(tree_key, file_name, frame)


def show_training_report(
    clf, X, y, tree_key: str | None = None, *, stem: str = "tree", container=None
) -> None:
    """The training confusion matrix with accuracy, balanced accuracy and the minority class's
    recall, precision and F1 (:func:`offcenter.viz.comparison.training_report`), the
    no-minority note, and the predictions (row, true class, leaf, class probabilities,
    predicted class)
    and confusion matrix as CSV files named ``{stem}_predictions.csv`` /
    ``{stem}_confusion.csv`` (computed once per ``tree_key`` when given: it must identify the
    tree and its data)."""
    box = st.container() if container is None else container
    try:
        rep = training_report(clf, X, y) if tree_key is None else cached_report(tree_key, clf, X, y)
    except heavy_work.Refused as exc:
        box.warning(exc.message)
        return
    with box:
        st.subheader("Predictions on the training rows")
        c1, c2 = st.columns([3, 2])
        with c1:
            tables.show_table(  # cached per tree: converted to Arrow once
                rep.matrix, hide_index=False, key="tr_confusion", read_only=tree_key is not None
            )
            for col, (label, frame, file_name, key) in zip(
                st.columns(2), _report_csvs(rep, clf, X, y, stem)
            ):
                with col:
                    csv_button(label, frame, file_name, key, rerun=False, cache_key=tree_key)
        with c2:
            m = str(rep.minority)[:30]
            tables.show_table(
                pd.DataFrame(
                    {
                        "metric": [
                            "accuracy",
                            "balanced accuracy",
                            f"recall of {m} (minority)",
                            f"precision of {m}",
                            f"F1 of {m}",
                        ],
                        "value": [
                            f"{v:.1%}"
                            for v in (
                                rep.accuracy,
                                rep.balanced_accuracy,
                                rep.minority_recall,
                                rep.minority_precision,
                                rep.minority_f1,
                            )
                        ],
                    }
                ),
                key="tr_metrics",
            )
            st.caption(
                f"{rep.leaves_predicting_minority} leaf(s) predict the minority class. Training "
                "rows only: an optimistic estimate (see Compare measures for cross-validation). "
                "A high recall with a low precision means the minority is predicted too often."
            )
        if rep.note:
            st.warning(md_escape(rep.note))


# ------------------------------------------------------------------------------ node comparison
def _optima_csv(tree_key: str, node_id: int, optima, stem: str) -> tuple:
    """The node's own-optima CSV download: (label, its table's callable, file name, key,
    cache key)."""
    return (
        "Download every setting's own splits (CSV, full precision)",
        lambda: optima.drop(columns=["groups"]),
        f"{stem}_node{node_id}_own_optima.csv",
        "tr_dl_own",
        f"{tree_key}/{node_id}",
    )


def prepare_node(tree_key: str, node, clf, stem: str | None = None) -> None:
    """What :func:`show_node_comparison` shows first of ``node`` (the tables cached under
    ``tree_key``) computed ahead (a grow's background preparation): its tables and, with
    ``stem``, its own-optima CSV."""
    tables = node_tables(tree_key, node.id, clf)
    if stem is not None and len(tables["cands"]):
        _label, frame, file_name, _key, cache_key = _optima_csv(
            tree_key, node.id, tables["optima"], stem
        )
        prepare_csv(cache_key, file_name, frame)


@st.cache_resource(max_entries=256, show_spinner=False)
def node_tables(tree_key: str, node: int, _clf) -> dict:
    """The node's tables, computed once per (tree, node) and shared by reruns (read-only):
    ``optima`` and ``cands`` (labels with the prior's numbers), ``best`` (own best per
    setting), ``chosen`` (the tree's split under every setting, None at a leaf), ``verdict``.
    (Which settings prefer some candidate to another is worked out only when the candidates'
    expander is open, as its table.)

    On a tree of more training rows than :data:`offcenter.app.heavy_work.Limits.rows` they are
    computed in the worker pool (:mod:`offcenter.app.heavy_work`; a refusal is not cached)."""
    if heavy_work.is_heavy_rows(len(_clf.training_data_.y)):
        return heavy_work.run(compute_node_tables, node, _clf)
    return compute_node_tables(node, _clf)


def compute_node_tables(node: int, clf) -> dict:
    """:func:`node_tables` computed here (in the process, or in a worker of the pool)."""
    prior = clf.prior_
    settings = node_comparison_settings(len(clf.classes_))
    optima, cands = clf.node_comparison(node, settings)  # one search for both
    labels = resolved_labels(optima.attrs["settings"], prior)  # once for the node's tables
    optima, cands = (
        with_prior_labels(optima, prior, labels),
        with_prior_labels(cands, prior, labels),
    )
    imps = clf.node_impurities(node, settings)
    imps.attrs["prior_labels"] = {k: labels[k] for k in imps.index if k in labels}
    split = clf.tree_.nodes[node].split
    out = {"optima": optima, "cands": cands, "impurities": imps}
    if len(cands):
        best = out["best"] = own_best_table(optima, imps)
        out["verdict"] = verdict(optima)
        out["chosen"] = (
            None if split is None else chosen_split_table(cands, optima, split.feature, best)
        )
    return out


@st.cache_resource(max_entries=256, show_spinner=False)
def impurity_table(tree_key: str, node: int, _clf) -> pd.DataFrame:
    """The node's impurity under each compared setting (``impurity``, then ``measure``: the
    setting's label with theta resolved on the prior), once per node (``tree_key``, as
    :func:`node_tables`) and process; read-only. The values first: a long label never pushes
    them out of a narrow column.

    The impurities are :func:`node_tables`' (the same call, made once per node: a first click
    computed them twice); where those tables are not to be had (the worker pool refused, no
    candidate split) they are computed here."""
    try:
        imps = node_tables(tree_key, node, _clf)["impurities"]
    except (heavy_work.Refused, ValueError, KeyError):
        imps = _clf.node_impurities(node, node_comparison_settings(len(_clf.classes_)))
    return impurity_frame(imps, _clf.prior_)


def impurity_frame(imps: pd.Series, prior) -> pd.DataFrame:
    """:func:`impurity_table`'s table of a node's :meth:`TreeClassifier.node_impurities`."""
    done = imps.attrs.get("prior_labels", {})  # resolved by compute_node_tables
    if all(k in done for k in imps.index):
        measure = [done[k] for k in imps.index]
    else:
        measure = prior_labels(imps.index, prior, imps.attrs.get("labels", {}))
    return pd.DataFrame({"impurity": imps.to_numpy(dtype=float), "measure": measure})


@st.cache_resource(max_entries=256, show_spinner=False)
def feature_table(tree_key: str, node: int, choice: str, _optima) -> pd.DataFrame:
    """:func:`offcenter.viz.comparison.own_feature_table` of the node under ``choice`` (a
    setting key, or ``"(all settings)"``), once per (tree, node, choice); read-only."""
    return own_feature_table(_optima, None if choice == "(all settings)" else [choice])


@st.cache_resource(max_entries=256, show_spinner=False)
def candidate_table(tree_key: str, node: int, keys: tuple, _cands) -> tuple:
    """:func:`offcenter.viz.explain.candidate_display` of the node for these settings."""
    return candidate_display(_cands, list(keys))


# The node's figures as plain dicts (offcenter.app.charts.figure_spec), built once per node and
# view and shared by reruns and sessions (read-only): a click on a node seen before, and every
# whole-page run, drew them anew (a third of a seen node's click). ``tree_key`` identifies the
# node's rows and split (tree_click.node_key), hence the arguments given with a leading ``_``.
@st.cache_resource(max_entries=64, show_spinner=False)
def threshold_chart(
    tree_key: str,
    node: int,
    feature: str,
    keys: tuple,
    normalise: bool,
    present: bool,
    _gains,
    _labels,
    chosen,
) -> dict:
    """:func:`offcenter.viz.tree.threshold_figure` of the node's feature (``_gains``:
    :func:`cached_thresholds`), once per (node, feature, settings shown, normalisation, view)."""
    return figure_spec(
        threshold_figure(
            _gains,
            _labels,
            feature,
            chosen=chosen,
            keys=list(keys),
            normalise=normalise,
            presentation=present,
        )
    )


@st.cache_resource(max_entries=64, show_spinner=False)
def class_histogram_chart(
    tree_key: str, node: int, feature: str, threshold, present: bool, _clf, _X, _y
) -> tuple[dict, int]:
    """:func:`offcenter.viz.tree.class_histogram_figure` of the node's numeric feature (its
    rows' values by class, ``threshold`` dashed) and the number of its missing values."""
    idx = _clf.node_indices(node)
    values = pd.to_numeric(_X[feature].iloc[idx], errors="coerce")
    fig = class_histogram_figure(
        values.to_numpy(dtype=float),
        _y.iloc[idx].to_numpy(),
        list(_clf.classes_),
        feature,
        threshold=threshold,
        presentation=present,
    )
    return figure_spec(fig), int(values.isna().sum())


@st.cache_resource(max_entries=64, show_spinner=False)
def category_chart(
    tree_key: str, node: int, feature: str, groups, present: bool, _clf, _X, _y
) -> dict:
    """:func:`offcenter.viz.tree.category_histogram_figure` of the node's nominal feature (its
    rows' categories by class, ``groups`` separated)."""
    column = next(c for c in _X.columns if str(c) == feature)
    idx = _clf.node_indices(node)
    return figure_spec(
        category_histogram_figure(
            _X[column].iloc[idx].tolist(),
            _y.iloc[idx].to_numpy(),
            list(_clf.classes_),
            feature,
            groups=groups,
            presentation=present,
        )
    )


@st.cache_resource(max_entries=256, show_spinner=False)
def cached_thresholds(tree_key: str, node: int, feature: str, _clf) -> pd.DataFrame:
    """:meth:`TreeClassifier.threshold_gains` of the node's feature under the comparison
    settings, once per (tree, node, feature), shared by sessions (read-only); in the worker
    pool on a tree of many rows (:mod:`offcenter.app.heavy_work`)."""
    settings = node_comparison_settings(len(_clf.classes_))
    if heavy_work.is_heavy_rows(len(_clf.training_data_.y)):
        return heavy_work.run(_clf.threshold_gains, node, feature, settings)
    return _clf.threshold_gains(node, feature, settings)


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


def show_node_comparison(
    clf,
    node,
    tree_key: str,
    tree_tag: str,
    *,
    stem: str = "tree",
    present: bool = False,
    X=None,
    y=None,
):
    """Everything about the settings at the selected node; returns the candidate table or None.

    1. Each setting's own best split with its gain, relative gain (gain / the node's impurity
       under that measure) and children's class counts and shares, and the verdict.
    2. The worked calculation of any setting's own best split of any feature (picked).
    3. The split this tree chose, scored under every setting.
    4. Every feature at the tree's thresholds under every setting (an expander).
    5. Gain against the threshold of a numeric feature, beside the histogram of that feature's
       values at the node by class (when the training rows ``X``, ``y`` are given).

    Downloads are named ``{stem}_node{id}_...csv`` (``stem`` names the data set and setting).
    """
    prior = clf.prior_
    own_label = clf.setting_.replace(alpha=None).label_for(prior)
    try:
        tables = node_tables(tree_key, node.id, clf)
        optima, cands = tables["optima"], tables["cands"]
    except heavy_work.Refused as exc:
        st.warning(exc.message)
        return None
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
        "Measures have different scales (Shannon up to log2 q bits, Gini up to 1 - 1/q, an "
        "off-centered measure up to 1), so raw gains of different measures are not comparable: "
        "**relative gain** = gain / the node's impurity under that measure, the share of it the "
        "split removes, is. The children's class counts and shares are those of each setting's "
        f"own best split (one [...] per child, classes in the order {md_escape(', '.join(map(str, clf.classes_)), 80)}). "
        f"'{NO_WINNER}': every feature scores the same under that setting. The Hellinger "
        "distance is a split criterion, not an impurity: no relative gain."
    )
    _pair_calculation(clf, node, optima, tree_tag)
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
    label, frame, file_name, key, cache_key = _optima_csv(tree_key, node.id, optima, stem)
    csv_button(label, frame, file_name, key, rerun=False, cache_key=cache_key)

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
            informative = informative_settings(cands)  # only here: the expander is open
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
            notes = dict.fromkeys(
                MeasureSetting.parse(k).info.score_note for k in shown_keys or keys
            )
            for note in filter(None, notes):  # a split criterion's (the registry's text)
                st.caption(note)
            csv_button(
                "Download the candidate table (CSV, full precision)",
                table,
                f"{stem}_node{node.id}_candidates.csv",
                "tr_dl_cands",
                rerun=False,
            )

    _threshold_section(clf, node, tree_key, tree_tag, cands, labels, present, X, y)
    _category_section(clf, node, tree_key, tree_tag, cands, present, X, y)
    return cands


def _pair_calculation(clf, node, optima, tree_tag: str) -> None:
    """The worked calculation of the own best split of a (setting, feature) pair the user
    picks (default: the tree's setting and its best feature)."""
    labels = dict(optima.attrs["settings"])
    keys = list(labels)
    chosen_key = optima.attrs.get("chosen_key", keys[0])
    box = st.expander(
        "Worked calculation of any setting's split (pick a setting and a feature)",
        key="tr_calc_open",
        on_change="rerun",  # computed only when open: a node click does not pay for it
    )
    if not box.open:
        return
    with box:
        c1, c2 = st.columns(2)
        key = c1.selectbox(
            "Setting",
            keys,
            index=keys.index(chosen_key) if chosen_key in keys else 0,
            format_func=lambda k: labels.get(k, k),
            key=f"tr_calc_setting_{tree_tag}_{node.id}",
        )
        sub = optima[(optima["setting_key"] == key).to_numpy(bool)]
        feats = [str(f) for f in sub["feature"]]
        if not feats:
            st.info("This setting has no candidate split here.")
            return
        best = sub[sub["is_best"].to_numpy(bool)]
        first = str(best["feature"].iloc[0]) if len(best) else feats[0]
        feat = c2.selectbox(
            "Feature (its best split under that setting)",
            feats,
            index=feats.index(first),
            key=f"tr_calc_feature_{tree_tag}_{node.id}_{key}",
        )
        try:
            steps = optimum_steps(clf, node.id, optima, key, feat)
        except ValueError as exc:
            st.info(md_escape(exc))
            return
        st.caption("Measure: " + labels.get(key, key))
        st.markdown(steps_markdown(steps))


def _threshold_section(
    clf, node, tree_key, tree_tag, cands, labels, present=False, X=None, y=None
) -> None:
    """Gain against the threshold of a numeric feature. The feature (``tr_thr_feature``, ""
    = the node's split feature) and the normalisation (``tr_thr_norm``) are the page's URL
    fields: a shared link shows the same plot."""
    S = st.session_state
    numeric_feats = [str(f) for f, k in zip(cands["feature"], cands["kind"]) if k == "numeric"]
    if not numeric_feats:
        return
    keys_all = list(labels)
    chosen_key = cands.attrs.get("chosen_key", keys_all[0])
    st.subheader("Gain against the threshold")
    default_f = (
        str(node.split.feature)
        if node.split is not None and str(node.split.feature) in numeric_feats
        else numeric_feats[0]
    )
    asked = str(S.get("tr_thr_feature", "") or "")
    g1, _ = st.columns([2, 1])
    feat = g1.selectbox(
        "Numeric feature",
        numeric_feats,
        index=numeric_feats.index(asked if asked in numeric_feats else default_f),
        key=f"tr_thr_feature_{tree_tag}_{node.id}",
    )
    S["tr_thr_feature"] = "" if feat == default_f else feat
    if not isinstance(S.get("tr_thr_norm"), bool):
        S["tr_thr_norm"] = False
    # on a row of its own: its label is never cut (presentation mode's larger type)
    norm = st.checkbox(
        "Divide each curve by its maximum",
        key="tr_thr_norm",
        help="Compares the shapes on one scale; a curve flat within 1e-9 stays at 0.",
    )
    st.caption(
        "Raw gains show how much impurity each threshold removes, on each measure's own scale; "
        "divided by its maximum, each curve's shape shows where that measure prefers to cut."
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
    try:
        gains = cached_thresholds(tree_key, node.id, feat, clf)
    except heavy_work.Refused as exc:
        st.warning(exc.message)
        return
    chosen_thr = (
        node.split.threshold if node.split is not None and str(node.split.feature) == feat else None
    )
    if len(gains) == 0:
        st.info("This feature takes a single value at this node: there is no threshold to try.")
        return
    shown = thr_keys or default_keys
    with_hist = X is not None and y is not None and feat in X.columns
    # side by side on a wide screen (Streamlit stacks columns on a narrow one)
    gcol, hcol = st.columns([3, 2]) if with_hist else (st.container(), None)
    plotly_chart(  # the figure's own dicts, not copied (offcenter.app.charts), once per node
        threshold_chart(
            tree_key,
            node.id,
            feat,
            tuple(shown),
            bool(norm),
            bool(present),
            gains,
            labels,
            None if chosen_thr is None else float(chosen_thr),
        ),
        container=gcol,
        width="stretch",
        key="tr_thr_chart",
    )
    if with_hist:
        hist_thr, thr_words = histogram_threshold(node, cands, feat)
        hist, missing = class_histogram_chart(
            tree_key, node.id, feat, hist_thr, bool(present), clf, X, y
        )
        plotly_chart(hist, container=hcol, width="stretch", key="tr_hist_chart")
        hcol.caption(
            f"{md_escape(feat, 40)} at node {node.id} by class"
            + (f"; {missing} missing value(s) not drawn" if missing else "")
            + (f"; dashed: {thr_words}" if hist_thr is not None else "")
            + "."
        )
    flat = flat_curves(gains, shown)
    if norm and flat:
        st.caption(
            "Left flat at 0 (its gains span less than 1e-9, dividing by the maximum would only "
            "show round-off): " + md_escape("; ".join(labels.get(k, k) for k in flat))
        )


def histogram_threshold(node, cands, feature: str) -> tuple[float | None, str]:
    """The threshold drawn on a numeric feature's histogram at ``node``, and its caption's
    words: the node's own threshold when it splits on ``feature``, else the best threshold of
    ``feature`` under the tree's setting (its row of ``cands``,
    :func:`offcenter.tree.inspect.candidates`), else none.

    >>> import pandas as pd
    >>> from offcenter.tree import TreeClassifier
    >>> X = pd.DataFrame({"x": [0.0, 1, 2, 3], "z": [0.0, 1, 0, 2]})
    >>> clf = TreeClassifier().fit(X, [0, 0, 1, 1])
    >>> histogram_threshold(clf.tree_.nodes[0], clf.candidates(0), "x")
    (1.5, "the tree's threshold")
    >>> histogram_threshold(clf.tree_.nodes[0], clf.candidates(0), "z")[1]
    "the best threshold of this feature under the tree's setting (the tree splits on another)"
    """
    split = node.split
    if split is not None and str(split.feature) == str(feature) and split.threshold is not None:
        return float(split.threshold), "the tree's threshold"
    rows = cands[(cands["feature"].astype(str) == str(feature)).to_numpy(bool)]
    if len(rows) and pd.notna(rows["threshold"].iloc[0]):
        return (
            float(rows["threshold"].iloc[0]),
            "the best threshold of this feature under the tree's setting (the tree splits on "
            "another)",
        )
    return None, ""


def category_groups(node, cands, feature: str) -> tuple[tuple | None, str]:
    """The grouping drawn on a nominal feature's bars at ``node``, and its caption's words:
    the node's own split when it is on ``feature``, else the best grouping of ``feature``
    under the tree's setting (the row of ``cands``, :func:`offcenter.tree.inspect.candidates`),
    else none.

    >>> import pandas as pd
    >>> from offcenter.tree import TreeClassifier
    >>> X = pd.DataFrame({"c": ["r", "g", "r", "b"], "d": ["u", "u", "v", "v"]})
    >>> clf = TreeClassifier(categorical="binary").fit(X, [0, 1, 0, 1])
    >>> category_groups(clf.tree_.nodes[0], clf.candidates(0), "c")[1]
    "the tree's split"
    >>> category_groups(clf.tree_.nodes[0], clf.candidates(0), "d")[1]
    "the best grouping of this feature under the tree's setting (the tree splits on another)"
    """
    split = node.split
    if split is not None and str(split.feature) == str(feature) and split.groups is not None:
        return tuple(split.groups), "the tree's split"
    rows = cands[(cands["feature"].astype(str) == str(feature)).to_numpy(bool)]
    if len(rows) and rows["groups"].iloc[0] is not None:
        return (
            tuple(rows["groups"].iloc[0]),
            "the best grouping of this feature under the tree's setting (the tree splits on "
            "another)",
        )
    return None, ""


def _category_section(clf, node, tree_key, tree_tag, cands, present=False, X=None, y=None) -> None:
    """Bars per category by class of a nominal feature at the node (dtreeviz's view of a
    categorical split), its children's groups dashed. The feature is the page's URL field
    ``cat_feature`` ("" = the node's split feature when nominal, else the first nominal)."""
    if X is None or y is None:
        return
    S = st.session_state
    nominal = [
        str(f)
        for f, k in zip(cands["feature"], cands["kind"])
        if k != "numeric" and str(f) in map(str, X.columns)
    ]
    if not nominal:
        return
    st.subheader("Categories by class at this node")
    default_f = (
        str(node.split.feature)
        if node.split is not None and str(node.split.feature) in nominal
        else nominal[0]
    )
    asked = str(S.get("tr_cat_feature", "") or "")
    feat = st.selectbox(
        "Nominal feature",
        nominal,
        index=nominal.index(asked if asked in nominal else default_f),
        key=f"tr_cat_feature_{tree_tag}_{node.id}",
    )
    S["tr_cat_feature"] = "" if feat == default_f else feat
    groups, what = category_groups(node, cands, feat)
    fig = category_chart(tree_key, node.id, feat, groups, bool(present), clf, X, y)
    left, _ = st.columns([3, 2]) if not present else (st.container(), None)
    plotly_chart(fig, container=left, width="stretch", key="tr_cat_chart")
    left.caption(
        f"{md_escape(feat, 40)} at node {node.id}: one bar per category, stacked by class"
        + (f"; dashed lines separate the children of {what}" if groups is not None else "")
        + "."
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
