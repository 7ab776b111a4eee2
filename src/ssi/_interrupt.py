"""Ctrl-C for the whole workflow: pass an interrupt on to the jobs that missed it.

Ctrl-C sends SIGINT to the terminal's foreground process group: Snakemake and the jobs
running at that moment. Snakemake then stops scheduling and waits for its running jobs
to end (its local executor does not signal them). A job whose process was started
while the signal was being delivered (Snakemake's worker thread was launching it) never
receives it and runs to its end, minutes for a paper-scale job, with Snakemake waiting.

:func:`forward_interrupts`, called once in the Snakemake process (the Snakefile), wraps
the SIGINT handler: Snakemake's own behaviour is unchanged (KeyboardInterrupt), and a
daemon thread sends SIGINT, for the next ``grace`` seconds, to every process started by
Snakemake that has not had it yet. A job ends on SIGINT within a fraction of a second
in most phases (compiled kernels return to the interpreter every ~0.05 s:
``ssi.sgd.reduced.CHUNK_STEPS``), and its atomic writes leave no partial file.

One phase does not return to the interpreter for long: numba's compilation of a kernel (cold
cache), whose LLVM passes are single native calls — seconds alone, minutes on a loaded machine
(measured: a first job still busy 12 s after SIGINT, 2 cores at load 8). Python runs its SIGINT
handler only between bytecodes, so such a job, and Snakemake waiting for it, ignored Ctrl-C for
that long. :func:`exit_promptly_in_jobs` (called at the top of each job script through
:func:`ssi.job_process.start_job`, active only in processes started under the workflow's
Snakemake, which sets ``SSI_WORKFLOW_PID``; importing :mod:`ssi` never calls it) therefore watches
for SIGINT from a thread, through :func:`signal.set_wakeup_fd`, which the interpreter writes to
as the signal arrives, whatever the main thread is doing: SIGINT still raises KeyboardInterrupt
(atomic writes clean up), and a job still alive ``grace`` seconds later ends with exit code 130.
"""
from __future__ import annotations

import os
import signal
import subprocess
import threading
import time

__all__ = ["forward_interrupts", "descendants", "exit_promptly_in_jobs"]

#: set by :func:`forward_interrupts` to the Snakemake process's pid, inherited by its jobs
WORKFLOW_PID = "SSI_WORKFLOW_PID"
#: exit code of a job that outlived the grace period after SIGINT (128 + SIGINT, as a shell)
EXIT_CODE = 128 + signal.SIGINT

_installed = False
_watching = False


def _children(pid: int) -> list[int]:
    """Direct children of ``pid`` (Linux /proc, else ``pgrep -P``)."""
    tasks = f"/proc/{pid}/task"
    if os.path.isdir(tasks):
        out = []
        try:
            for tid in os.listdir(tasks):
                try:
                    with open(f"{tasks}/{tid}/children") as handle:
                        out.extend(int(p) for p in handle.read().split())
                except OSError:
                    continue
        except OSError:
            return []
        return out
    try:
        text = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True, timeout=5).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return [int(p) for p in text.split()]


def descendants(pid: int | None = None) -> list[int]:
    """Every process below ``pid`` (default: this one), parents before children."""
    todo, out = [os.getpid() if pid is None else pid], []
    while todo:
        for child in _children(todo.pop()):
            if child not in out:
                out.append(child)
                todo.append(child)
    return out


def _forward(grace: float, every: float) -> None:
    done: set[int] = set()
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        for pid in descendants():
            if pid not in done:
                done.add(pid)
                try:
                    os.kill(pid, signal.SIGINT)
                except OSError:
                    pass
        time.sleep(every)


def forward_interrupts(grace: float = 60.0, every: float = 0.2) -> None:
    """Install the SIGINT wrapper in this (the Snakemake) process; see the module doc.

    A second call does nothing; nothing is installed when SIGINT is ignored (``nohup``) or
    when not called from the main thread.
    """
    global _installed
    if _installed or threading.current_thread() is not threading.main_thread():
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous in (signal.SIG_IGN, None):
        return

    def handler(signum, frame):
        threading.Thread(target=_forward, args=(grace, every), daemon=True, name="ssi-forward-sigint").start()
        if callable(previous):
            previous(signum, frame)
        else:                                   # SIG_DFL
            raise KeyboardInterrupt

    signal.signal(signal.SIGINT, handler)
    os.environ[WORKFLOW_PID] = str(os.getpid())      # jobs inherit it: exit_promptly_in_jobs
    _installed = True


def _watch(read_fd: int, grace: float) -> None:
    while True:
        try:
            data = os.read(read_fd, 64)
        except InterruptedError:
            continue
        except OSError:
            return
        if not data:
            return
        if signal.SIGINT in data:
            time.sleep(grace)
            os.write(2, f"ssi: still running {grace:g} s after SIGINT (in compiled code); exiting\n".encode())
            os._exit(EXIT_CODE)


def exit_promptly_in_jobs(grace: float = 5.0) -> bool:
    """In a job of the workflow (``SSI_WORKFLOW_PID`` set, and not this process), end the process
    ``grace`` seconds after a SIGINT if it is still running then (see the module doc).

    SIGINT keeps its handler (KeyboardInterrupt); a thread reads the signal numbers that the
    interpreter writes to the wakeup fd. Nothing is installed outside the workflow's jobs, off
    the main thread, or when the wakeup fd is already in use (asyncio). Returns whether the
    watch is active.
    """
    global _watching
    owner = os.environ.get(WORKFLOW_PID)
    if _watching or owner is None or owner == str(os.getpid()):
        return _watching
    if threading.current_thread() is not threading.main_thread():
        return False
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)
    try:
        previous = signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
    except ValueError:
        previous = None
    if previous != -1:                          # not the main interpreter, or the fd is taken
        if previous is not None:
            signal.set_wakeup_fd(previous)
        os.close(read_fd)
        os.close(write_fd)
        return False
    threading.Thread(target=_watch, args=(read_fd, grace), daemon=True, name="ssi-sigint-watch").start()
    _watching = True
    return True
