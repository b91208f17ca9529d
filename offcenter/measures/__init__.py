"""The measures layer: entropies, off-centering, the registry, impurities and gain coefficients.

Pure numpy; never imports streamlit or plotly. Everything public is re-exported by
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
