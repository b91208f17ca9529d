"""Where the fits run: joblib's processes, or a dask.distributed cluster.

One concern of the cross-validation (:mod:`offcenter.evaluation.runner` uses it).
"""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np
from joblib import Parallel, parallel_config

__all__ = ["parallel_fits"]


def _check_n_jobs(n_jobs):
    if n_jobs is None:
        return None
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs == 0:
        raise ValueError(
            f"n_jobs must be None, a positive number of workers or a negative one (-1: all "
            f"cores, -2: all but one...); got {n_jobs!r}."
        )
    return int(n_jobs)


def _check_backend(backend):
    """The joblib backend; for "dask", dask.distributed imported here, only when asked for."""
    if backend is None:
        return None
    if not isinstance(backend, str) or backend not in (
        "loky",
        "multiprocessing",
        "threading",
        "sequential",
        "dask",
    ):
        raise ValueError(
            f"backend must be None (joblib's default, worker processes), 'loky', "
            f"'multiprocessing', 'threading', 'sequential' or 'dask'; got {backend!r}."
        )
    if backend == "dask":
        try:
            import distributed  # the optional `distributed` extra: only when asked
        except ImportError:
            raise ImportError(
                "backend='dask' needs dask.distributed, an optional dependency: "
                "pip install 'offcenter[distributed]'."
            ) from None
        try:
            distributed.get_client()
        except ValueError:
            raise ValueError(
                "backend='dask' runs the fits on a dask.distributed cluster: connect to one "
                "first, e.g. distributed.Client('tcp://scheduler:8786') (or, on the command "
                "line, --scheduler ADDRESS)."
            ) from None
    return backend


@contextmanager
def parallel_fits(n_jobs=None, backend=None):
    """A joblib :class:`~joblib.Parallel` that runs fits, results in submission order.

    ``backend`` goes through ``joblib.parallel_config`` (which knows ``"dask"``); with a backend
    and ``n_jobs`` None, every worker of that backend is used.
    """
    config = {"n_jobs": n_jobs}
    if backend is not None:
        config.update(backend=backend, n_jobs=-1 if n_jobs is None else n_jobs)
    with parallel_config(**config):
        with Parallel(return_as="generator") as parallel:
            yield parallel
