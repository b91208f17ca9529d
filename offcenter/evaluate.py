"""``python -m offcenter.evaluate``: the evaluation command line, and ``... study``: the KEEL study's.

``python -m offcenter.evaluate FILE.csv ...`` compares measure settings on your own data
(:mod:`offcenter.evaluation.cli`, the library's core); ``python -m offcenter.evaluate study ...``
runs or reports the KEEL study (:mod:`offcenter.studies.keel.cli`: its protocol, not the core's,
which never imports it). This entry point is the one place that knows both.
"""

import sys


def main(argv: list[str] | None = None) -> int:
    """Dispatch: ``study`` first goes to the KEEL study's command line, anything else to the
    evaluation's (the console script ``offcenter-evaluate`` is this function)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["study"]:
        from offcenter.studies.keel.cli import main as study_main  # noqa: PLC0415

        return study_main(args[1:])
    from offcenter.evaluation.cli import main as evaluation_main  # noqa: PLC0415

    return evaluation_main(argv)


if __name__ == "__main__":
    sys.exit(main())
