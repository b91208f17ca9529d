"""offcenter: entropy measures for decision trees, with the off-centered entropy of
Lallich, Lenca and Vaillant (2007) for imbalanced classes.

>>> import offcenter as oc
>>> round(oc.off_centered([0.9, 0.1], theta=0.2), 6)
0.811278
"""

from typing import TYPE_CHECKING

from offcenter.measures.association import (
    Association,
    association,
    gain,
    gain_ratio,
    goodman_kruskal_tau,
    guttman_lambda,
    kvalseth,
    lambda_alpha,
    relative_gain,
    theil_u,
)
from offcenter.measures.criteria import SplitCriterion, hellinger_split
from offcenter.measures.custom import load_plugins, register_measure, unregister_measure
from offcenter.measures.entropies import (
    asymmetric,
    boolean_distribution,
    daroczy,
    dkm,
    gini,
    misclassification,
    rank_diversity,
    shannon,
)
from offcenter.measures.impurity import Impurity, resolve_theta
from offcenter.measures.offcentering import off_center, off_centered
from offcenter.measures.registry import (
    CRITERIA,
    MEASURES,
    TREE_MEASURES,
    MeasureInfo,
    ParamInfo,
    criterion_names,
    get_measure,
    measure_names,
)
from offcenter.measures.settings import MeasureSetting, comparison_settings

if TYPE_CHECKING:
    from offcenter.ensemble.forest import ForestClassifier
    from offcenter.ensemble.sklearn_compat import from_sklearn
    from offcenter.tree import TreeClassifier
    from offcenter.tree.categorical import HeuristicGroupingWarning

__version__ = "0.1.0"

__all__ = [
    "Association",
    "CRITERIA",
    "ForestClassifier",
    "HeuristicGroupingWarning",
    "Impurity",
    "MEASURES",
    "MeasureInfo",
    "MeasureSetting",
    "ParamInfo",
    "SplitCriterion",
    "TREE_MEASURES",
    "association",
    "asymmetric",
    "boolean_distribution",
    "comparison_settings",
    "criterion_names",
    "daroczy",
    "dkm",
    "from_sklearn",
    "gain",
    "gain_ratio",
    "get_measure",
    "gini",
    "goodman_kruskal_tau",
    "guttman_lambda",
    "hellinger_split",
    "kvalseth",
    "lambda_alpha",
    "load_plugins",
    "measure_names",
    "misclassification",
    "off_center",
    "off_centered",
    "rank_diversity",
    "register_measure",
    "relative_gain",
    "resolve_theta",
    "shannon",
    "theil_u",
    "TreeClassifier",
    "unregister_measure",
]


def __getattr__(name: str):
    """The estimators, imported on first use (PEP 562).

    They load scikit-learn and SciPy (about 2 s of CPU), which a process that only needs a
    measure, the launcher (``python -m offcenter.ops.serve``) or any other submodule does not
    pay: ``import offcenter.ops.serve`` imports this package first.
    """
    if name == "TreeClassifier":
        from offcenter.tree import TreeClassifier as value
    elif name == "HeuristicGroupingWarning":
        from offcenter.tree.categorical import HeuristicGroupingWarning as value
    elif name == "ForestClassifier":
        from offcenter.ensemble.forest import ForestClassifier as value
    elif name == "from_sklearn":
        from offcenter.ensemble.sklearn_compat import from_sklearn as value
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


# worker processes (joblib, dask) load the measure plugins their parent loaded
from offcenter.measures.custom import _load_env_plugins  # noqa: E402

_load_env_plugins()
