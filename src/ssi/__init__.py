"""ssi: exact, fast online SGD for sequence single-index models and single-layer attention."""
from ._jit_cache import package_cache

with package_cache():
    from . import links  # noqa: F401  (defines the jitted links)
    from .sgd import reduced  # noqa: F401  (defines the jitted kernels)

from .problems import Problem
from .sgd import SGDRun, simulate

__version__ = "0.1.0"
__all__ = ["Problem", "simulate", "SGDRun"]
