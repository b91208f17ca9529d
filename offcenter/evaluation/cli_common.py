"""What both command lines share (:mod:`offcenter.evaluation.cli` and
:mod:`offcenter.studies.keel.cli`): the error that exits with code 1, argument types and the
file writer. Its own module so that neither command line imports the other's internals (both
are dispatched to by :func:`offcenter.evaluate.main`; the core's never imports the study's).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from offcenter.evaluation.runner import parse_settings

__all__ = [
    "CliError",
    "comma_list_of",
    "int_at_least",
    "n_jobs_count",
    "settings_list",
    "write_text_file",
]


class CliError(Exception):
    """A problem with the data or the files: one line on stderr, exit code 1."""


def comma_list_of(allowed: tuple[str, ...]):
    """An argparse type: a comma-separated list of ``allowed`` words, lowercased, deduplicated
    in order; anything else is an ``ArgumentTypeError`` that names the choices."""

    def convert(text: str) -> list[str]:
        items = [t.strip().lower() for t in text.split(",") if t.strip()]
        bad = [t for t in items if t not in allowed]
        if not items or bad:
            raise argparse.ArgumentTypeError(
                f"expected a comma-separated list of {', '.join(allowed)}; got {text!r}"
            )
        return list(dict.fromkeys(items))

    return convert


def int_at_least(low: int):
    """An argparse type: a whole number of at least ``low``."""

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be >= {low}, got {value}")
        return value

    return convert


def settings_list(text: str):
    """An argparse type: measure settings, comma-separated
    (:func:`offcenter.evaluation.runner.parse_settings`)."""
    try:
        return parse_settings(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def n_jobs_count(text: str) -> int:
    """An argparse type: joblib's ``n_jobs`` (a whole number, not 0; -1 = every core)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value == 0:
        raise argparse.ArgumentTypeError("must not be 0 (-1 = every core, 1 = one at a time)")
    return value


def write_text_file(path: Path, text: str) -> None:
    """Write ``text`` to ``path``; a missing folder or an OS error is a :class:`CliError`."""
    try:
        if path.parent and not path.parent.exists():
            raise CliError(f"{path}: its folder {path.parent} does not exist")
        path.write_text(text, encoding="utf-8")
    except OSError as err:
        raise CliError(f"{path}: cannot be written ({err.strerror or err})") from None
