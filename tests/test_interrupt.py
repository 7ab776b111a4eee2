"""Ctrl-C reaches every job (src/ssi/_interrupt.py): a process started by the workflow's
Snakemake process that missed the SIGINT (started while the signal was delivered) gets it
forwarded; the reduced engine returns to the interpreter between bounded chunks."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

from ssi import Problem, simulate
from ssi.sgd import reduced

#: a stand-in for Snakemake: installs the forwarding, starts a long "job" that does not get
#: the group's signal (its own session), then waits for it like Snakemake's executor does
PARENT = textwrap.dedent("""
    import subprocess, sys, time
    from ssi._interrupt import forward_interrupts
    forward_interrupts(grace=30, every=0.1)
    job = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"], start_new_session=True)
    print(job.pid, flush=True)
    try:
        time.sleep(120)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        job.wait()                       # Snakemake waits for its running jobs
        print("job ended", job.returncode, flush=True)
""")


def test_interrupt_is_forwarded_to_a_job_that_missed_it():
    """SIGINT to the parent only: the parent's KeyboardInterrupt still happens, and the job,
    which never got the signal itself, is interrupted within a few seconds (not 120 s)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True, env=env,
                              preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        job_pid = int(parent.stdout.readline())
        time.sleep(0.5)
        start = time.monotonic()
        os.kill(parent.pid, signal.SIGINT)
        out, _ = parent.communicate(timeout=60)
        elapsed = time.monotonic() - start
    finally:
        if parent.poll() is None:
            parent.kill()
    assert "interrupted" in out and "job ended" in out, out
    assert out.strip().endswith(str(-signal.SIGINT)), out      # the job died of SIGINT
    assert elapsed < 10, f"the job was stopped {elapsed:.1f} s after the interrupt"
    assert job_pid > 0


def test_reduced_engine_runs_in_bounded_chunks(monkeypatch):
    """A long block of steps is split into compiled calls of at most CHUNK_STEPS steps, with the
    same numbers (and crossing steps) as one call."""
    problem = Problem(L=2, target="he2_sum", student="attention", reduction="trace", pe="opposite")
    kwargs = dict(d=100, lr=0.5, steps=5000, replicates=3, seed=7, record=[0, 5000], m0=0.3, threshold=0.5)
    whole = simulate(problem, **kwargs)
    calls = []
    original = reduced.advance_tied

    def counting(*args):
        calls.append(args[2])
        return original(*args)

    monkeypatch.setattr(reduced, "CHUNK_STEPS", 777)
    monkeypatch.setattr(reduced, "advance_tied", counting)
    split = simulate(problem, **kwargs)
    assert max(calls) == 777 and sum(calls) == 3 * 5000
    assert (whole.m == split.m).all() and (whole.e_tokens == split.e_tokens).all()
    assert (whole.crossing == split.crossing).all()
