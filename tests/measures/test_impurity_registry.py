"""The registry and the Impurity object that the pages and the tree read."""

import numpy as np
import pytest

import offcenter as oc
from offcenter.measures.registry import MEASURES, OFF_CENTER_LATEX, get_measure


def test_registry_entries_are_complete():
    assert list(MEASURES) == [
        "shannon",
        "gini",
        "misclassification",
        "daroczy",
        "rank_diversity",
        "asymmetric",
        "dkm",
    ]
    for name, info in MEASURES.items():
        assert info.name == name
        assert info.label and info.latex and info.description and info.reference
        assert callable(info.function) and callable(info.kernel)
        assert info.theta in ("optional", "builtin")
        for p in info.params:
            assert p.ui_low <= p.default <= p.ui_high
    assert "pi" in OFF_CENTER_LATEX


@pytest.mark.parametrize(
    "name, param", [(n, p.name) for n, info in MEASURES.items() for p in info.params]
)
def test_parameter_ranges_are_coherent(name, param):
    """The slider's range lies inside the valid range, and the measure is finite over the whole
    valid range a user can type (for an unbounded order: up to 1e6 for beta)."""
    info = MEASURES[name]
    p = next(x for x in info.params if x.name == param)
    assert p.low is None or p.low <= p.ui_low
    assert p.high is None or p.ui_high <= p.high
    assert p.ui_low < p.ui_high and p.ui_step > 0
    steps = (p.ui_high - p.ui_low) / p.ui_step
    assert abs(steps - round(steps)) < 1e-9
    orders = [p.ui_low, p.default, p.ui_high]
    if name == "daroczy":
        assert p.high is None  # every beta >= 0 is valid, and evaluated without overflow
        orders += [1024.5, 1025.0, 1e6]
    dist = np.array([[0.5, 0.3, 0.2], [1.0, 0.0, 0.0], [1 / 3, 1 / 3, 1 / 3]])
    for v in orders:
        values = oc.off_centered(dist, [0.6, 0.3, 0.1], name, **{param: v})
        assert np.all(np.isfinite(values)), (param, v)


def test_aliases_and_normalisation():
    assert get_measure("Entropy").name == "shannon"
    assert get_measure("rank-diversity").name == "rank_diversity"


@pytest.mark.parametrize("name", list(MEASURES))
def test_impurity_of_counts_matches_functions(name):
    info = MEASURES[name]
    counts = np.array([[3, 5, 2], [0, 0, 0], [10, 0, 0]], float)
    theta = np.array([0.5, 0.3, 0.2])
    imp = oc.Impurity(name, theta=theta, **info.defaults())
    values = imp.of_counts(counts)
    p = counts[0] / counts[0].sum()
    if info.theta == "builtin":
        expected = oc.asymmetric(p, theta)
    else:
        expected = oc.off_centered(p, theta, name, **info.defaults())
    assert values[0] == pytest.approx(expected, abs=1e-14)
    assert values[1] == 0.0 and values[2] == pytest.approx(0.0, abs=1e-14)
    assert imp.maximum(3) == pytest.approx(imp(theta), abs=1e-14)


def test_consistent_asymmetric_uses_each_rows_n():
    imp = oc.Impurity("asymmetric", theta=[0.8, 0.2], consistent=True)
    v = imp.of_counts([[9, 1], [90, 10]])
    assert v[0] == pytest.approx(oc.asymmetric([0.9, 0.1], [0.8, 0.2], n=10), abs=1e-14)
    assert v[1] == pytest.approx(oc.asymmetric([0.9, 0.1], [0.8, 0.2], n=100), abs=1e-14)
    assert v[0] != v[1]
    assert imp.maximum(2) == pytest.approx(1.0, abs=1e-14)


def test_keys_and_labels_are_distinct_across_comparison_settings():
    imps = oc.measures.settings.impurities(oc.comparison_settings(), [70, 30])
    keys = [i.key for i in imps]
    labels = [i.label for i in imps]
    assert len(set(keys)) == len(keys) and len(set(labels)) == len(labels)
    assert "oc_shannon" in keys and "asymmetric_consistent" in keys
    assert oc.Impurity("shannon", theta=[0.7, 0.3]) == imps[3]
    assert len({hash(i) for i in imps}) == len(imps)


def test_resolve_theta():
    np.testing.assert_allclose(oc.resolve_theta("prior", [30, 10]), [0.75, 0.25])
    np.testing.assert_allclose(oc.resolve_theta("uniform", [30, 10, 5]), [1 / 3] * 3)
    assert oc.resolve_theta(None, [1, 2]) is None


def test_gain_ratio_uses_uncentered_predictor_margin():
    table = np.array([[8, 2], [1, 9], [1, 0]], float)
    a = oc.association(table, "shannon", theta="prior")
    assert a.i_x == pytest.approx(oc.shannon(table.sum(1) / table.sum()), abs=1e-14)
    b = oc.association(table, "asymmetric")
    assert b.i_x == pytest.approx(oc.asymmetric(table.sum(1) / table.sum(), [1 / 3] * 3), abs=1e-14)
    c = oc.association(table, "asymmetric", consistent=True)
    assert c.i_x == pytest.approx(b.i_x) and c.i_y != b.i_y


def test_batched_tables():
    tables = np.array([[[3, 1], [1, 2]], [[2, 2], [2, 1]]], float)
    g = oc.gain(tables)
    assert g.shape == (2,)
    assert g[0] == pytest.approx(oc.gain(tables[0])) and g[1] == pytest.approx(oc.gain(tables[1]))
