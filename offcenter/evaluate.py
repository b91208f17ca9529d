"""``python -m offcenter.evaluate``: the evaluation command line (see :mod:`offcenter.evaluation.cli`)."""

import sys

from offcenter.evaluation.cli import main

if __name__ == "__main__":
    sys.exit(main())
