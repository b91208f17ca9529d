"""The KEEL study of docs/imbalanced_study.md: does the measure matter when the minority is rare?

Everything here is the study's, not a reusable piece: its protocol (the models, the anchors, the
settings and how each is fitted: :mod:`~offcenter.studies.keel.protocol`), its analysis (the
decision rule and the effects it reports: :mod:`~offcenter.studies.keel.analysis`), the wording
of its document (:mod:`~offcenter.studies.keel.summary`), its sensitivity runs and its
pre-registered confirmation read back (:mod:`~offcenter.studies.keel.sensitivity`,
:mod:`~offcenter.studies.keel.confirmation`) and its command line
(``python -m offcenter.evaluate study``: :mod:`~offcenter.studies.keel.cli`).
"""
