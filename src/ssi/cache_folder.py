"""The package's cache folder on this machine.

It holds the compiled kernels (:mod:`ssi._jit_cache`, one sub-folder per hash of their sources)
and the parsed import statements of the package's modules (:mod:`ssi.source_graph`). It is
``$SSI_NUMBA_CACHE`` if set, else ``$XDG_CACHE_HOME/ssi-numba`` (default ``~/.cache/ssi-numba``).
"""
from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path:
    """The package's cache folder (it need not exist yet)."""
    root = os.environ.get("SSI_NUMBA_CACHE")
    if root is None:
        root = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "ssi-numba"
    return Path(root)
