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

import pytest

from ssi import Problem, simulate
from ssi._interrupt import EXIT_CODE, WORKFLOW_PID
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



#: a workflow job deaf to SIGINT (its main thread in a native call that does not return on a
#: signal: here SIGINT is blocked in the main thread during a sleep, as in an LLVM pass of a
#: numba compilation); its set-up installs the watch since SSI_WORKFLOW_PID names another process
DEAF_JOB = textwrap.dedent("""
    import signal, time
    from ssi import _interrupt
    from ssi.job_process import start_job
    start_job()
    print(_interrupt._watching, flush=True)
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGINT])      # the watch thread still gets it
    time.sleep(120)
    print("slept", flush=True)
""")


def _environment(**extra):
    env = {k: v for k, v in os.environ.items() if k != WORKFLOW_PID}
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    env.update(extra)
    return env


def test_a_job_busy_in_native_code_ends_within_the_grace_period():
    """A workflow job whose main thread does not get back to the interpreter ends with exit code
    130 within the grace period (5 s) after SIGINT, not when the native call returns (120 s)."""
    job = subprocess.Popen([sys.executable, "-c", DEAF_JOB], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, env=_environment(**{WORKFLOW_PID: str(os.getpid())}),
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert job.stdout.readline().strip() == "True"
        time.sleep(0.2)
        start = time.monotonic()
        job.send_signal(signal.SIGINT)
        out, err = job.communicate(timeout=60)
        elapsed = time.monotonic() - start
    finally:
        if job.poll() is None:
            job.kill()
    assert job.returncode == EXIT_CODE, (job.returncode, out, err)
    assert "slept" not in out and "after SIGINT" in err
    assert 4.5 < elapsed < 30, f"ended {elapsed:.1f} s after SIGINT (grace 5 s)"


@pytest.mark.parametrize("owner", [None, "self"])
def test_no_watch_outside_the_workflow(owner):
    """Outside a workflow job (SSI_WORKFLOW_PID unset, or naming this very process: the Snakemake
    process itself) even the job set-up installs nothing: a job script run by hand leaves Ctrl-C
    alone. (``import ssi`` never installs it: tests/unit/test_import_side_effects.py.)"""
    code = "import os\n"
    if owner == "self":
        code += f"os.environ[{WORKFLOW_PID!r}] = str(os.getpid())\n"
    code += ("import ssi\nfrom ssi import _interrupt\nfrom ssi.job_process import start_job\nstart_job()\n"
             "print(_interrupt._watching, _interrupt.exit_promptly_in_jobs())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_environment(), timeout=120)
    assert out.stdout.split() == ["False", "False"], (out.stdout, out.stderr)
