"""The numba cache folder of the workflow's jobs, keyed by the sources compiled code can depend on.

numba keys a cached function by the file that defines it (that file's modification time and
size), not by the files it calls or inlines: after an edit of :mod:`ssi.links`, a kernel of
:mod:`ssi.sgd.reduced` would load stale machine code. The workflow therefore gives its jobs
numba's own setting ``NUMBA_CACHE_DIR`` = :func:`cache_dir` (the Snakefile sets it in its
environment, which every job inherits): a folder named after a hash of the source files that
compiled code can depend on, the modules that define jitted functions (:data:`JITTED`) and every
module of the package they import, directly or not (read from their ``import`` statements). An
edit of one of those gives a new folder and a clean compile; an edit elsewhere (experiments,
plotting, command line, tests) keeps the compiled code, which it cannot change. Inside that folder
numba puts each module's code under a sub-folder named after the module's folder and a hash of its
absolute path, so each checkout of the sources compiles once. The folders are under the package's
cache folder (:func:`ssi.cache_folder.cache_root`: ``$SSI_NUMBA_CACHE`` if set, else
``$XDG_CACHE_HOME/ssi-numba``, default ``~/.cache/ssi-numba``); old folders are not cleaned up.

Importing :mod:`ssi` sets nothing: in a notebook or a script numba caches as it does by default
(next to each source file, keyed by that file alone).
"""
from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from .cache_folder import cache_root
from .source_graph import dependencies

_PACKAGE = Path(__file__).resolve().parent
#: the modules that define numba-jitted functions (all imported by ssi/__init__.py)
JITTED = ("ssi.escape", "ssi.random_streams", "ssi.softmax", "ssi.target_links", "ssi.links", "ssi.kernels", "ssi.phase", "ssi.population",
          "ssi.sgd.feedforward", "ssi.sgd.tied2", "ssi.sgd.tied_attention", "ssi.sgd.tied_ff", "ssi.sgd.tied_matched",
          "ssi.sgd.untied_ff", "ssi.sgd.reduced", "ssi.sie2_escape")
#: numba's environment variable for the folder of its cache
NUMBA_CACHE_DIR = "NUMBA_CACHE_DIR"


def source_files() -> list[Path]:
    """The sources compiled code can depend on: :data:`JITTED`, what they import from the package
    (transitively), and this file."""
    return sorted(dependencies((*JITTED, __name__)).values())


@functools.lru_cache(maxsize=1)
def source_hash() -> str:
    """Hash of :func:`source_files` (paths and contents), computed once per process."""
    digest = hashlib.sha256()
    for path in source_files():
        digest.update(str(path.relative_to(_PACKAGE)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_dir() -> Path:
    """The numba cache folder for the current sources (it need not exist yet)."""
    return cache_root() / source_hash()


def job_environment() -> dict[str, str]:
    """The environment variables that make a process started with them cache its compiled code
    under :func:`cache_dir` (numba reads them when it is imported).

    Returns
    -------
    dict
        ``{"NUMBA_CACHE_DIR": str(cache_dir())}``.
    """
    return {NUMBA_CACHE_DIR: str(cache_dir())}
