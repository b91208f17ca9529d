"""Every reference value of ../shared/spec/measures.md, to 1e-6 (and the sources' known slips)."""

import numpy as np
import pytest

import offcenter as oc

TOL = 1e-6
B = oc.boolean_distribution


# ---------------------------------------------------------------- Figure 1 (boolean, theta = 0.2)
@pytest.mark.parametrize("p, pi", [(0.1, 0.25), (0.6, 0.75), (0.2, 0.5)])
def test_figure1_transform(p, pi):
    assert oc.off_center(B(p), 0.2)[1] == pytest.approx(pi, abs=TOL)


@pytest.mark.parametrize("p, value", [(0.1, 0.811278), (0.6, 0.811278), (0.2, 1.0)])
def test_figure1_off_centered_shannon(p, value):
    assert oc.off_centered(B(p), 0.2) == pytest.approx(value, abs=TOL)
    assert oc.off_centered(B(p), [0.8, 0.2], "shannon") == pytest.approx(value, abs=TOL)


def test_figure1_asymmetric_and_shannon():
    assert oc.asymmetric(B(0.6), 0.2) == pytest.approx(0.6, abs=TOL)
    assert oc.asymmetric(B(0.2), 0.2) == pytest.approx(1.0, abs=TOL)
    assert oc.shannon(B(0.5)) == pytest.approx(1.0, abs=TOL)


# ---------------------------------------------------------------- Figure 2
FIG2 = [("daroczy", {"beta": b}) for b in (0, 0.5, 1, 2, 5)] + [("rank_diversity", {"rho": 0})]


@pytest.mark.parametrize("measure, params", FIG2)
def test_figure2_peak_and_ends(measure, params):
    assert oc.off_centered(B(0.2), 0.2, measure, **params) == pytest.approx(1.0, abs=TOL)
    assert oc.off_centered(B(0.0), 0.2, measure, **params) == pytest.approx(0.0, abs=TOL)
    assert oc.off_centered(B(1.0), 0.2, measure, **params) == pytest.approx(0.0, abs=TOL)
    grid = np.linspace(0, 1, 1001)
    values = oc.off_centered(B(grid), 0.2, measure, **params)
    assert values.max() == pytest.approx(1.0, abs=TOL)
    assert grid[np.argmax(values)] == pytest.approx(0.2, abs=1e-9) or params == {"beta": 0}


def test_figure2_beta0_is_flat_one_on_open_interval():
    inner = np.linspace(0.001, 0.999, 999)
    values = oc.off_centered(B(inner), 0.2, "daroczy", beta=0)
    np.testing.assert_allclose(values, 1.0, atol=1e-12)


# ---------------------------------------------------------------- q = 3
P3 = [0.5, 0.3, 0.2]
TH3 = [0.6, 0.3, 0.1]


def test_q3_off_center():
    np.testing.assert_allclose(oc.off_center(P3, TH3), [0.272727, 0.327273, 0.4], atol=TOL)


def test_q3_off_centered_shannon():
    assert oc.off_centered(P3, TH3) == pytest.approx(1.567369, abs=TOL)


@pytest.mark.parametrize(
    "beta, value", [(0.5, 1.694882), (1, 1.485475), (2, 1.24), (3, 1.12), (5, 1.0304)]
)
def test_q3_daroczy(beta, value):
    assert oc.daroczy(P3, beta) == pytest.approx(value, abs=TOL)


@pytest.mark.parametrize("rho, value", [(0, 1.0), (1, 1.4)])
def test_q3_rank_diversity(rho, value):
    assert oc.rank_diversity(P3, rho) == pytest.approx(value, abs=TOL)


# ---------------------------------------------------------------- worked examples
# lecture slides "Entropy and Information Gain", "edible": rows (Color, Size, Shape, Edible?)
EDIBLE = [
    ("Yellow", "Small", "Round", "+"),
    ("Yellow", "Small", "Round", "-"),
    ("Green", "Small", "Irregular", "+"),
    ("Green", "Large", "Irregular", "-"),
    ("Yellow", "Large", "Round", "+"),
    ("Yellow", "Small", "Round", "+"),
    ("Yellow", "Small", "Round", "+"),
    ("Yellow", "Small", "Round", "+"),
    ("Green", "Small", "Round", "-"),
    ("Yellow", "Large", "Round", "-"),
    ("Yellow", "Large", "Round", "+"),
    ("Yellow", "Large", "Round", "-"),
    ("Yellow", "Large", "Round", "-"),
    ("Yellow", "Large", "Round", "-"),
    ("Yellow", "Small", "Irregular", "+"),
    ("Yellow", "Large", "Irregular", "+"),
]


def _table(rows, column):
    values = sorted({r[column] for r in rows})
    return np.array(
        [[sum(1 for r in rows if r[column] == v and r[3] == c) for c in "+-"] for v in values],
        dtype=float,
    )


def test_lecture_slides_edible():
    assert len(EDIBLE) == 16
    assert sum(r[3] == "+" for r in EDIBLE) == 9
    assert oc.shannon([9 / 16, 7 / 16]) == pytest.approx(0.988699, abs=TOL)
    size = _table(EDIBLE, 1)  # Large, Small
    small = size[1] / size[1].sum()
    large = size[0] / size[0].sum()
    assert oc.shannon(small) == pytest.approx(0.811278, abs=TOL)
    assert oc.shannon(large) == pytest.approx(0.954434, abs=TOL)
    assert oc.gain(size) == pytest.approx(0.105843, abs=TOL)
    assert oc.gain(_table(EDIBLE, 0)) == pytest.approx(0.035514, abs=TOL)
    assert oc.gain(_table(EDIBLE, 2)) == pytest.approx(0.035880, abs=TOL)


def test_lecture_slides_known_slip_is_not_reproduced():
    # The slides say I(all) = 0.9836 and G(size) = 0.1008; both are slips.
    assert abs(oc.shannon([9 / 16, 7 / 16]) - 0.9836) > 1e-3
    assert abs(oc.gain(_table(EDIBLE, 1)) - 0.1008) > 1e-3


# Wikipedia, "Information gain (decision tree)": samples x mutations, class C / NC
MUTATIONS = np.array(
    [
        [1, 1, 1, 0],
        [1, 1, 0, 1],
        [1, 0, 1, 1],
        [0, 1, 1, 0],  # C1..C4
        [0, 0, 0, 0],
        [0, 1, 0, 0],
        [1, 1, 0, 0],  # NC1..NC3
    ]
)
CANCER = np.array([1, 1, 1, 1, 0, 0, 0])


def _mutation_table(rows, m):
    x = MUTATIONS[rows, m]
    y = CANCER[rows]
    return np.array([[np.sum((x == v) & (y == c)) for c in (1, 0)] for v in (1, 0)], float)


def test_wikipedia_mutations_root_gains():
    rows = np.arange(7)
    gains = [oc.gain(_mutation_table(rows, m)) for m in range(4)]
    np.testing.assert_allclose(gains, [0.128, 0.006, 0.522, 0.292], atol=5e-4)


def test_wikipedia_mutations_second_level_gains():
    rows = np.flatnonzero(MUTATIONS[:, 2] == 0)  # mutation 3 absent: C2, NC1, NC2, NC3
    assert list(CANCER[rows]) == [1, 0, 0, 0]
    gains = {m + 1: oc.gain(_mutation_table(rows, m)) for m in (0, 1, 3)}
    assert gains[4] == pytest.approx(0.811, abs=5e-4)
    assert gains[1] == pytest.approx(0.311, abs=5e-4)
    assert gains[2] == pytest.approx(0.123, abs=5e-4)


# NPFL054 lecture 5 (Hladká and Holub, Charles University): (+, -) counts
@pytest.mark.parametrize(
    "counts, g, h, e",
    [
        ((0, 6), 0, 0, 0),
        ((1, 5), 0.278, 0.65, 0.167),
        ((2, 4), 0.444, 0.918, 0.333),
        ((3, 3), 0.5, 1.0, 0.5),
    ],
)
def test_npfl054_table(counts, g, h, e):
    p = np.array(counts, float) / 6
    assert oc.gini(p) == pytest.approx(g, abs=5e-4)
    assert oc.shannon(p) == pytest.approx(h, abs=5e-3)
    assert oc.misclassification(p) == pytest.approx(e, abs=5e-4)


def test_iris_blog_post_first_split():
    # Iris: 50 setosa | 100 others on "petal width <= 0.8" (or petal length <= 2.45).
    table = np.array([[50, 0, 0], [0, 50, 50]], float)
    a = oc.association(table)
    assert a.i_y_given_x == pytest.approx(0.666667, abs=TOL)
    assert a.gain == pytest.approx(0.918296, abs=TOL)


@pytest.mark.parametrize(
    "p, beta, value",
    [
        # 1 - 0.7^1025 - 0.3^1025 over 1 - 2^-1024: 1 to the last digit (was inf)
        ([0.3, 0.7], 1025, 1.0),
        # 2^59 / (2^59 - 1) (1 - 2^-60 - 2 * 4^-60), worked with fractions
        ([0.5, 0.25, 0.25], 60, 1.0),
        ([0.5, 0.5], 1e6, 1.0),
        (P3, 1e6, 1.0),
        ([1.0, 0.0], 1e6, 0.0),
        # beta = 20: 2^19 / (2^19 - 1) (1 - 0.5^20 - 0.3^20 - 0.2^20), worked with fractions
        (P3, 20, 1.000000953641257),
    ],
)
def test_daroczy_large_beta_reference(p, beta, value):
    assert oc.daroczy(p, beta) == pytest.approx(value, rel=1e-14)


def test_off_centered_daroczy_large_beta_reference():
    # pi* = (0.75, 0.25) for p = (0.9, 0.1), theta = (0.8, 0.2); 1 - 0.75^2000 - 0.25^2000 = 1
    assert oc.off_centered([0.9, 0.1], 0.2, "daroczy", beta=2000) == 1.0
    assert oc.off_centered([0.9, 0.1], 0.2, "daroczy", beta=20) == pytest.approx(
        (1 - 0.75**20 - 0.25**20) / (1 - 2.0**-19), rel=1e-14
    )
