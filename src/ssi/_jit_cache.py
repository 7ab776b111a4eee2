"""Where numba caches the package's compiled functions.

numba's own cache is keyed by the modification time of the file that defines a
function, not of the files it calls or inlines: after an edit of
:mod:`ssi.links`, a kernel in :mod:`ssi.sgd.reduced` would load stale machine
code. So the cache lives in a folder named after a hash of the source files that
compiled code can depend on: the modules that define jitted functions
(:data:`JITTED`) and every module of the package they import, directly or not
(read from their ``import`` statements). An edit of one of those gives a new
folder and a clean compile; an edit elsewhere (experiments, plotting, command
line, tests) keeps the compiled code, which it cannot change. Inside that folder each
module's code sits under its path in the package (``ssi``, ``ssi_sgd``), not under a hash of
its absolute path as numba would put it, so that another checkout of the same sources (a fresh
clone, a copy in a test's temporary folder) loads the compiled code instead of compiling it
again (~1 min of CPU per kernel family). The folder is
under the package's cache folder (:func:`ssi.cache_folder.cache_root`: ``$SSI_NUMBA_CACHE``
if set, else ``$XDG_CACHE_HOME/ssi-numba``, default ``~/.cache/ssi-numba``); numba's global setting is restored after the
package's modules are defined.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
from pathlib import Path

import numba
from numba.core import caching

from .cache_folder import cache_root
from .source_graph import dependencies

_PACKAGE = Path(__file__).resolve().parent
#: the modules that define numba-jitted functions (imported in ``package_cache``, ssi/__init__.py)
JITTED = ("ssi.escape", "ssi.random_streams", "ssi.softmax", "ssi.target_links", "ssi.links", "ssi.kernels",
          "ssi.phase", "ssi.population",
          "ssi.sgd.feedforward", "ssi.sgd.tied2", "ssi.sgd.tied_attention", "ssi.sgd.tied_ff", "ssi.sgd.tied_matched",
          "ssi.sgd.untied_ff", "ssi.sgd.reduced", "ssi.sie2_escape")


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
    """The cache folder for the current sources."""
    return cache_root() / source_hash()


# recent numba (0.68 here) names these without the leading underscore; older releases with it
_UserProvidedLocator = getattr(caching, "UserProvidedCacheLocator", None) or caching._UserProvidedCacheLocator
_CacheImpl = getattr(caching, "CacheImpl", None) or caching._CacheImpl


class PackageCacheLocator(_UserProvidedLocator):
    """numba's locator for a user-given cache folder (``numba.config.CACHE_DIR``), for the
    package's own modules only, made independent of where the package is: the sub-folder is
    the module's folder relative to the package's parent (numba: a hash of its absolute path),
    and the freshness stamp is :func:`source_hash` (numba < 0.68: the file's modification
    time, which a fresh clone changes)."""

    @classmethod
    def get_suitable_cache_subpath(cls, py_file):
        return "_".join(Path(py_file).resolve().parent.relative_to(_PACKAGE.parent).parts)

    def get_source_stamp(self):
        return source_hash()

    @classmethod
    def from_function(cls, py_func, py_file):
        if not Path(py_file).resolve().is_relative_to(_PACKAGE):
            return None
        return super().from_function(py_func, py_file)


@contextlib.contextmanager
def package_cache():
    """Define jitted functions inside this block to cache them under :func:`cache_dir`, with
    :class:`PackageCacheLocator` (numba picks a function's locator when it is decorated)."""
    previous_dir, previous_locators = numba.config.CACHE_DIR, _CacheImpl._locator_classes
    numba.config.CACHE_DIR = str(cache_dir())
    _CacheImpl._locator_classes = [PackageCacheLocator, *previous_locators]
    try:
        yield
    finally:
        numba.config.CACHE_DIR = previous_dir
        _CacheImpl._locator_classes = previous_locators
