"""Research studies made with the library: each study's protocol, its analysis and its wording.

Not the library's core: the core (``offcenter.measures``, ``tree``, ``ensemble``, ``data``,
``evaluation``) never imports a study (an import-linter contract, ``studies-apart``, checks it).
A study reuses the core's pieces (:mod:`offcenter.evaluation.benchmark`,
:mod:`offcenter.evaluation.fold_models`, :mod:`offcenter.evaluation.statistics`) and adds only
what it decides.
"""
