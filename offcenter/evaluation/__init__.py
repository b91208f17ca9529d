"""Cross-validated evaluation of measure settings: the runner, metrics, statistics, the CLI and
the reusable benchmark over many data sets (the KEEL study that uses it: offcenter.studies.keel)."""
