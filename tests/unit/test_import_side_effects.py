"""``import ssi`` and a numba compilation leave the process as they found it: CPython's arena
allocator, the SIGINT handler and the signal wakeup fd untouched, no thread started, numba's
cache setting unchanged, and the workflow job's set-up (``ssi.job_process``) not run.

The probe runs in a fresh interpreter that looks like a workflow job (``SSI_WORKFLOW_PID`` names
another process), the case where the job set-up would act. A package whose ``__init__`` starts the
SIGINT watch of ``ssi._interrupt`` fails on the thread count and the wakeup fd, one that installs
the frame-stack cache at the first compilation fails on the allocator's functions, one that sets
numba's cache folder fails on ``numba.config.CACHE_DIR``."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

PROBE = textwrap.dedent("""
    import ctypes, json, signal, sys, threading

    class Allocator(ctypes.Structure):
        _fields_ = [("ctx", ctypes.c_void_p), ("alloc", ctypes.c_void_p), ("free", ctypes.c_void_p)]

    def allocator():
        found = Allocator()
        ctypes.pythonapi.PyObject_GetArenaAllocator(ctypes.byref(found))
        return [found.ctx, found.alloc, found.free]

    def state():
        fd = signal.set_wakeup_fd(-1)
        signal.set_wakeup_fd(fd)
        import numba
        return {"allocator": allocator(), "sigint": repr(signal.getsignal(signal.SIGINT)),
                "wakeup_fd": fd, "threads": threading.active_count(),
                "numba_cache_dir": numba.config.CACHE_DIR}

    before = state()
    import numpy as np
    import ssi
    from numba import njit

    @njit
    def users_own(x):           # a user's function: always a compilation
        return x + 1

    users_own(1)
    ssi.links.batch_target(ssi.links.T_LINEAR, np.zeros(1), np.ones((3, 2)), 1)   # compiled or loaded
    after = state()
    after["job_set_up"] = "ssi.job_process" in sys.modules
    print(json.dumps({"before": before, "after": after}))
""")


def test_import_and_compilation_leave_the_process_alone():
    """Allocator functions, SIGINT handler, wakeup fd, thread count and numba's cache folder are
    the same before ``import ssi`` and after it and two compilations, in a process that looks like
    a workflow job; the job set-up module is not even imported."""
    env = dict(os.environ)
    env.update(SSI_WORKFLOW_PID=str(os.getpid()), PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stderr
    seen = json.loads(out.stdout.splitlines()[-1])
    before, after = seen["before"], seen["after"]
    assert after.pop("job_set_up") is False
    assert after == before, (before, after)
