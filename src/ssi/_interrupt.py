"""Ctrl-C for the whole workflow: pass an interrupt on to the jobs that missed it.

Ctrl-C sends SIGINT to the terminal's foreground process group: Snakemake and the jobs
running at that moment. Snakemake then stops scheduling and waits for its running jobs
to end (its local executor does not signal them). A job whose process was started
while the signal was being delivered (Snakemake's worker thread was launching it) never
receives it and runs to its end, minutes for a paper-scale job, with Snakemake waiting.

:func:`forward_interrupts`, called once in the Snakemake process (``common.smk``), wraps
the SIGINT handler: Snakemake's own behaviour is unchanged (KeyboardInterrupt), and a
daemon thread sends SIGINT, for the next ``grace`` seconds, to every process started by
Snakemake that has not had it yet. A job ends on SIGINT within a fraction of a second
in any phase (compiled kernels return to the interpreter every ~0.05 s:
``ssi.sgd.reduced.CHUNK_STEPS``), and its atomic writes leave no partial file.
"""
from __future__ import annotations

import os
import signal
import subprocess
import threading
import time

__all__ = ["forward_interrupts", "descendants"]

_installed = False


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
    _installed = True
