"""Fixtures shared by test files.

``quick_cores2``: the quick workflow (config/quick.yaml) run once to completion with
``--cores 2``, in a temporary copy of the repository, for the whole session: the workflow
tests (tests/workflow/test_workflow.py) inspect and copy it, and the SLURM test (tests/workflow/test_slurm.py)
compares its own run with it, instead of each running the quick workflow again.

With pytest-xdist (``-n 2 --dist loadgroup``, the README's test command), the test modules that
need a completed quick run (``quick_cores2``, the killed-and-resumed run, the interrupted run in a
fresh clone, the SLURM cluster:
``QUICK_RUN_MODULES``) run on one worker as one unit, so the quick run is made once, while the
other worker takes the rest of the suite test by test.

The tests' processes (this one and those it starts) cache numba's compiled code in the folder
the workflow's jobs use (``NUMBA_CACHE_DIR``, set here unless already set).

At session start, a /etc/slurm/slurm.conf left by a killed test cluster is removed
(tests/support/slurm.remove_stale_conf): while it exists every Snakemake start waits ~9 s for
its vanished controller.
"""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

#: the tests' processes cache numba's compiled code where the workflow's jobs do (keyed by the
#: kernels' sources: ssi._jit_cache); read in a child process, since numba reads the setting when
#: it is imported and this process imports ssi later
if "NUMBA_CACHE_DIR" not in os.environ:
    _key = subprocess.run([sys.executable, "-c", "from ssi._jit_cache import job_environment as e; print(e()['NUMBA_CACHE_DIR'])"],
                          capture_output=True, text=True)
    if _key.returncode == 0 and _key.stdout.strip():
        os.environ["NUMBA_CACHE_DIR"] = _key.stdout.strip().splitlines()[-1]


def pytest_sessionstart(session):
    if os.geteuid() == 0:
        from support.slurm import remove_stale_conf

        if remove_stale_conf():
            print("conftest: removed a stale /etc/slurm/slurm.conf left by a killed test cluster")


#: fixtures that make (or stand on) a whole quick run
QUICK_RUN_FIXTURES = {"quick_cores2", "killed_cores1", "interrupted_clone", "slurm_cluster"}
#: the test modules that use them: with ``--dist loadgroup`` their tests form one unit of work
QUICK_RUN_MODULES = {"test_audit_compute.py", "test_audit_levels.py", "test_notebooks.py",
                     "test_report.py", "test_resume.py", "test_slurm.py", "test_workflow.py"}


def pytest_collection_modifyitems(config, items):
    outside = sorted({item.path.name for item in items
                      if QUICK_RUN_FIXTURES & set(getattr(item, "fixturenames", ()))} - QUICK_RUN_MODULES)
    if outside:
        raise pytest.UsageError(f"{outside} use a whole quick run ({sorted(QUICK_RUN_FIXTURES)}): add them to "
                                "QUICK_RUN_MODULES in tests/conftest.py")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup``: the modules of QUICK_RUN_MODULES go to one worker as one unit, every
    other test is scheduled on its own. (xdist's own grouping by ``xdist_group`` marks rewrites
    ``item._nodeid``, which pytest 9 no longer reads: it scheduled the marked tests on both
    workers, and the quick run was made twice.)"""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class QuickRunUnit(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            return "quick" if nodeid.split("::", 1)[0].rsplit("/", 1)[-1] in QUICK_RUN_MODULES else nodeid

    return QuickRunUnit(config, log)


@pytest.fixture(scope="session")
def quick_cores2(tmp_path_factory):
    """The quick workflow run to completion with --cores 2: dict with ``workdir``, ``output``,
    ``hashes`` (support.quickrun.run_quick). Tests must not modify the folder (copy it)."""
    from support.quickrun import run_quick

    return run_quick(tmp_path_factory.mktemp("quick_cores2"), cores=2)
