"""The frame-stack chunk cache (src/ssi/_frame_stack.py): a loop of calls across a chunk boundary
maps and unmaps a chunk at every call without it, and touches no new memory with it; it is
installed by a workflow job's set-up (``ssi.job_process.start_job``), not by ``import ssi`` nor by a
numba compilation.

Counts are page faults (``getrusage``), not times: they do not depend on the machine's load."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from ssi import _frame_stack

pytestmark = pytest.mark.skipif(not _frame_stack.supported(), reason="the cache applies to CPython 3.11-3.13 on POSIX")

#: calls per depth: at the depth that fills a chunk, each call maps a chunk (a page fault or more)
CALLS = 20_000

#: the largest number of page faults taken by CALLS calls of a function, over call depths 0-299
#: (a chunk holds ~150 of these frames)
WORST_DEPTH = textwrap.dedent(f"""
    import resource, sys
    if sys.argv[1] == "cache":
        from ssi import _frame_stack
        assert _frame_stack.install()
    def descend(n):
        # the inner calls are calls of this function (n = -1): frames of one size, so the depth
        # whose frame fills a chunk calls across the boundary at every call
        if n < 0:
            return 1
        if n == 0:
            total = 0
            for _ in range({CALLS}):
                total += descend(-1)
            return total
        return descend(n - 1)
    worst = 0
    for depth in range(300):
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        descend(depth)
        worst = max(worst, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
    print(worst)
""")


def _run(code: str, *args: str, **env: str) -> str:
    result = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300,
                            env={**os.environ, **env})
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_calls_across_a_chunk_boundary_reuse_the_chunk():
    """Without the cache, some depth takes a page fault per call (the interpreter's behaviour this
    module exists for: checked, else the test has nothing to show); with it, that depth takes
    fewer than one fault per 100 calls."""
    without = int(_run(WORST_DEPTH, "plain"))
    if without < CALLS // 2:
        pytest.skip(f"this interpreter does not map a chunk per call at a boundary ({without} faults)")
    with_cache = int(_run(WORST_DEPTH, "cache"))
    assert with_cache < CALLS // 100, (without, with_cache)


JOB_START = textwrap.dedent("""
    import numpy as np
    import ssi
    from ssi import _frame_stack
    from ssi.job_process import start_job
    from numba import njit
    @njit
    def fresh(x):
        return x + 1
    fresh(1)   # an uncached function: always a compilation
    before = _frame_stack.installed()
    start_job()
    print(before, _frame_stack.installed())
    ssi.links.batch_target(ssi.links.T_LINEAR, np.zeros(1), np.ones((3, 2)), 1)   # compiled or loaded
    # the interpreter runs on with the new allocator: arenas made and released
    for _ in range(3):
        junk = [object() for _ in range(200_000)]
        del junk
    print(sum(len(str(i)) for i in range(100_000)))
""")


def test_installed_by_the_job_set_up_only():
    """``import ssi`` and a compilation install nothing; ``start_job`` does, and the interpreter
    runs on; SSI_FRAME_STACK_CACHE=0 keeps CPython's allocator. (A package that installed the
    cache on import or at the first compilation prints "True True".)"""
    installed, total = _run(JOB_START).splitlines()
    assert installed == "False True"
    assert total == str(sum(len(str(i)) for i in range(100_000)))
    assert _run(JOB_START, SSI_FRAME_STACK_CACHE="0").splitlines()[0] == "False False"


FAILED_CACHE = textwrap.dedent("""
    import warnings
    from ssi import _frame_stack
    from numba import njit
    def broken():
        raise OSError("no mmap here")
    _frame_stack._compile_allocator = broken
    @njit
    def fresh(x):
        return x + 1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _frame_stack.install()
    value = fresh(1)
    print(value, _frame_stack.installed(), [str(w.message) for w in caught])
""")


def test_a_cache_that_cannot_be_compiled_leaves_the_job_alone():
    """If the allocator's functions fail to compile, CPython's allocator stays, a warning says so,
    and compilations go on."""
    value, installed, messages = _run(FAILED_CACHE).split(" ", 2)
    assert (value, installed) == ("2", "False")
    assert "frame-stack chunk cache is off" in messages and "no mmap here" in messages
