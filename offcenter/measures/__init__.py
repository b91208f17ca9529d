"""The measures layer: entropies, off-centering, the registry, impurities and gain coefficients.

Built on numpy and pandas; never imports streamlit, plotly or a higher layer (checked
by tests/test_layers.py). Everything public is re-exported by
:mod:`offcenter`.
"""

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

__all__ = [
    "asymmetric",
    "boolean_distribution",
    "daroczy",
    "dkm",
    "gini",
    "misclassification",
    "rank_diversity",
    "shannon",
]
