"""A cache of the interpreter's frame-stack chunks, for numba's compilations on CPython < 3.14.

CPython 3.11 keeps the frames of Python functions on a per-thread stack made of 16 KiB
chunks. A call that does not fit in the current chunk maps a new one (``mmap``), and the
return from it unmaps it (``munmap``). A loop that calls a function exactly at a chunk's end
therefore maps, touches and unmaps a chunk at every call (CPython issue gh-142183, fixed by a
one-chunk cache in later 3.13 and 3.14 releases). numba's compiler is deeply recursive Python
and loops a lot: whether one of its loops sits on a chunk boundary depends on how deep the call
that starts the compilation is, so the same compilation can cost 4x more in one process than in
another. For example (Python 3.11.7, numba 0.68, cold cache), the ODE job of the tied/untied
experiment spent 85 s compiling :func:`ssi.links.loss_and_grad`, 56 s of them in the kernel
(8.4 million page faults), against 19 s with the cache below (0.24 million page faults); the
compiled code is the same.

The chunks are allocated through Python's arena allocator (``PyObject_SetArenaAllocator``, a
public C-API hook), as are the 1 MiB arenas of Python's small-object allocator. :func:`install`
replaces it with two small compiled functions (numba ``cfunc``) that do what CPython's do
(``mmap`` / ``munmap`` of the requested size) except that up to :data:`SLOTS` freed blocks of
exactly :data:`CHUNK` bytes, the frame-stack chunks, are kept and handed out again. Arenas of
every other size go straight to ``munmap``, so blocks mapped before the switch are unmapped by
the new functions exactly as by the old ones. The interpreter initialises every frame it puts
on a chunk, so a reused chunk needs no clearing (the upstream fix reuses chunks the same way).

A job of the workflow installs the cache by calling :func:`install` at its start
(:func:`ssi.job_process.start_job`); importing :mod:`ssi` installs nothing. The two functions are
cached by numba like the kernels, so a job whose kernels load from the cache pays only their
loading. Set ``SSI_FRAME_STACK_CACHE=0`` to keep CPython's allocator (the cache changes no
number, only the time a compilation takes).
"""
from __future__ import annotations

import ctypes
import mmap
import os
import sys
import sysconfig
import warnings

import numpy as np

__all__ = ["install", "installed", "supported"]

#: the size of a frame-stack chunk (CPython's DATA_STACK_CHUNK_SIZE, 3.11-3.13)
CHUNK = 16 * 1024
#: how many freed chunks are kept for reuse (a recursion oscillating across a few boundaries)
SLOTS = 8
#: environment variable: "0" keeps CPython's own allocator
ENABLE = "SSI_FRAME_STACK_CACHE"

_PROT, _FLAGS = mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_PRIVATE | getattr(mmap, "MAP_ANONYMOUS", 0)
#: what mmap returns on failure, (void *) -1
_MAP_FAILED = int(np.iinfo(np.uintp).max)
#: the C functions mmap and munmap, as numba types (set by _compile_allocator)
_C_MMAP = _C_MUNMAP = None

#: slot 0: how many chunks are kept; slots 1..SLOTS: their addresses (the allocator's context)
_kept = np.zeros(SLOTS + 1, dtype=np.uintp)
_state = {"tried": False, "installed": False}


class _ArenaAllocator(ctypes.Structure):
    """CPython's ``PyObjectArenaAllocator``: context, alloc(ctx, size), free(ctx, ptr, size)."""
    _fields_ = [("ctx", ctypes.c_void_p), ("alloc", ctypes.c_void_p), ("free", ctypes.c_void_p)]


def supported() -> bool:
    """Whether the cache applies: CPython 3.11-3.13 with the GIL, on a POSIX system, not disabled
    by ``SSI_FRAME_STACK_CACHE=0``."""
    return (sys.implementation.name == "cpython" and (3, 11) <= sys.version_info[:2] < (3, 14)
            and not sysconfig.get_config_var("Py_GIL_DISABLED") and os.name == "posix"
            and hasattr(mmap, "MAP_ANONYMOUS") and os.environ.get(ENABLE, "1") != "0")


def installed() -> bool:
    """Whether :func:`install` has replaced the arena allocator in this process."""
    return _state["installed"]


def _compile_allocator():
    """The two native functions of the allocator (compiled, or loaded from numba's cache, on demand)."""
    from numba import carray, cfunc, types

    # globals, not closure variables: numba keys a cached function by its closure's contents
    global _C_MMAP, _C_MUNMAP
    _C_MMAP = types.ExternalFunction(
        "mmap", types.uintp(types.uintp, types.uintp, types.intc, types.intc, types.intc, types.int64))
    _C_MUNMAP = types.ExternalFunction("munmap", types.intc(types.uintp, types.uintp))

    @cfunc(types.uintp(types.voidptr, types.uintp), cache=True)
    def alloc(ctx, size):
        kept = carray(ctx, SLOTS + 1, dtype=np.uintp)
        if size == CHUNK and kept[0] > 0:
            kept[0] -= 1
            return kept[1 + kept[0]]
        address = _C_MMAP(0, size, _PROT, _FLAGS, -1, 0)
        return 0 if address == _MAP_FAILED else address

    @cfunc(types.void(types.voidptr, types.uintp, types.uintp), cache=True)
    def free(ctx, address, size):
        kept = carray(ctx, SLOTS + 1, dtype=np.uintp)
        if size == CHUNK and kept[0] < SLOTS:
            kept[1 + kept[0]] = address
            kept[0] += 1
            return
        _C_MUNMAP(address, size)

    return alloc, free


def install() -> bool:
    """Replace the interpreter's arena allocator by the chunk-keeping one (once per process).

    The cache only saves time: if its two functions cannot be compiled, CPython's allocator stays,
    with a warning, and the job goes on.

    Returns
    -------
    bool
        Whether the cache is installed (False where :func:`supported` is False).
    """
    if _state["tried"] or not supported():
        return _state["installed"]
    _state["tried"] = True   # first: the compilation below must not try again
    try:
        alloc, free = _compile_allocator()
    except Exception as error:  # noqa: BLE001 (any failure leaves CPython's allocator in place)
        warnings.warn(f"ssi: the frame-stack chunk cache is off ({error!r})", RuntimeWarning, stacklevel=2)
        return False
    allocator = _ArenaAllocator(_kept.ctypes.data, alloc.address, free.address)
    ctypes.pythonapi.PyObject_SetArenaAllocator(ctypes.byref(allocator))
    # the interpreter keeps a copy of the structure; the functions must live as long as it
    _state["functions"] = (alloc, free, allocator)
    _state["installed"] = True
    return True

