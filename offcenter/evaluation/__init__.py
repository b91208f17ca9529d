"""Cross-validated evaluation of measure settings: the runner, metrics, statistics and the CLI."""
