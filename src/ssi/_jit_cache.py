"""Where numba caches the package's compiled functions.

numba's own cache is keyed by the modification time of the file that defines a
function, not of the files it calls or inlines: after an edit of
:mod:`ssi.links`, a kernel in :mod:`ssi.sgd.reduced` would load stale machine
code. So the cache lives in a folder named after a hash of every source file of
the package: any edit gives a new folder and a clean compile. The folder is
under ``$SSI_NUMBA_CACHE`` if set, else ``$XDG_CACHE_HOME/ssi-numba`` (default
``~/.cache/ssi-numba``); numba's global setting is restored after the
package's modules are defined.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path

import numba

_PACKAGE = Path(__file__).resolve().parent


def source_hash() -> str:
    """Hash of the package's Python sources (paths and contents)."""
    digest = hashlib.sha256()
    for path in sorted(_PACKAGE.rglob("*.py")):
        digest.update(str(path.relative_to(_PACKAGE)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_dir() -> Path:
    """The cache folder for the current sources."""
    root = os.environ.get("SSI_NUMBA_CACHE")
    if root is None:
        root = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "ssi-numba"
    return Path(root) / source_hash()


@contextlib.contextmanager
def package_cache():
    """Define jitted functions inside this block to cache them under :func:`cache_dir`."""
    previous = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(cache_dir())
    try:
        yield
    finally:
        numba.config.CACHE_DIR = previous
