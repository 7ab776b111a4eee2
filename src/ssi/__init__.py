"""ssi: exact, fast online SGD for sequence single-index models and single-layer attention.

Public API (README "API"): Problem, simulate, integrate_ode, escape_time, population_loss, sie.
"""
from ._frame_stack import install_on_first_compile
from ._interrupt import exit_promptly_in_jobs
from ._jit_cache import package_cache

# in a workflow job only: Ctrl-C ends the job within seconds even inside a numba compilation
exit_promptly_in_jobs()
# a process that compiles (cold numba cache) keeps the interpreter's frame-stack chunks instead
# of mapping and unmapping one at every call across a chunk boundary (ssi/_frame_stack.py)
install_on_first_compile()

# every module that defines numba-jitted functions is imported inside this block (and listed
# in _jit_cache.JITTED) so that its compiled code is cached under a folder keyed by the sources
# it can depend on (see _jit_cache)
with package_cache():
    from . import escape  # noqa: F401
    from . import random_streams  # noqa: F401
    from . import softmax  # noqa: F401
    from . import target_links  # noqa: F401
    from . import links  # noqa: F401
    from . import kernels  # noqa: F401
    from . import phase  # noqa: F401
    from . import population  # noqa: F401
    from .sgd import feedforward  # noqa: F401
    from .sgd import tied2  # noqa: F401
    from .sgd import tied_attention  # noqa: F401
    from .sgd import tied_ff  # noqa: F401
    from .sgd import tied_matched  # noqa: F401
    from .sgd import untied_ff  # noqa: F401
    from .sgd import reduced  # noqa: F401
    from . import sie2_escape  # noqa: F401

from . import authors  # noqa: F401  (the authors' conventions and names)
from .hermite import sie
from .ode import escape_time, integrate_ode
from .population import population_loss
from .problems import Problem
from .sgd import SGDRun, simulate
from .version import __version__  # noqa: F401

__all__ = ["Problem", "simulate", "SGDRun", "integrate_ode", "escape_time", "population_loss", "sie"]
