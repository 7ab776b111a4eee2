"""The set-up of a workflow job's own process: one call, :func:`start_job`, at the top of each
job script (workflow/scripts/). Importing :mod:`ssi` does none of it.

* Ctrl-C ends the job within seconds even while numba compiles a kernel
  (:func:`ssi._interrupt.exit_promptly_in_jobs`; active only under the workflow's Snakemake);
* numba's compilations keep the interpreter's frame-stack chunks instead of mapping and unmapping
  one at every call across a chunk boundary (:func:`ssi._frame_stack.install`).

Neither changes a number; both only change how long a job takes to compile or to stop.
"""
from __future__ import annotations

from . import _frame_stack, _interrupt

__all__ = ["start_job"]


def start_job() -> None:
    """Set up this process as a job of the workflow (see the module doc); a second call does nothing."""
    _interrupt.exit_promptly_in_jobs()
    _frame_stack.install()
