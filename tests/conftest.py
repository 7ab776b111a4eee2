"""Fixtures shared by test files.

``quick_cores2``: the quick workflow (config/quick.yaml) run once to completion with
``--cores 2``, in a temporary copy of the repository, for the whole session: the workflow
tests (tests/test_workflow.py) inspect and copy it, and the SLURM test (tests/test_slurm.py)
compares its own run with it, instead of each running the quick workflow again.

With pytest-xdist (``-n 2 --dist loadgroup``, the README's test command), every test that needs
a completed quick run (``quick_cores2``, the killed-and-resumed run, the SLURM cluster) is put
in one group, ``xdist_group("quick")``, so that they run on one worker and the quick run is
made once, while the other worker takes the rest of the suite.

At session start, a /etc/slurm/slurm.conf left by a killed test cluster is removed
(tests/cluster/slurm.remove_stale_conf): while it exists every Snakemake start waits ~9 s for
its vanished controller.
"""
from __future__ import annotations

import os

import pytest


def pytest_sessionstart(session):
    if os.geteuid() == 0:
        from cluster.slurm import remove_stale_conf

        if remove_stale_conf():
            print("conftest: removed a stale /etc/slurm/slurm.conf left by a killed test cluster")


#: fixtures that make (or stand on) a whole quick run: their tests share one xdist worker
QUICK_RUN_FIXTURES = {"quick_cores2", "killed_cores1", "slurm_cluster"}


@pytest.hookimpl(tryfirst=True)      # before xdist reads the marks (--dist loadgroup)
def pytest_collection_modifyitems(config, items):
    for item in items:
        if QUICK_RUN_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.xdist_group("quick"))


@pytest.fixture(scope="session")
def quick_cores2(tmp_path_factory):
    """The quick workflow run to completion with --cores 2: dict with ``workdir``, ``output``,
    ``seconds``, ``hashes`` (test_workflow.run_quick). Tests must not modify the folder (copy it)."""
    from test_workflow import run_quick

    return run_quick(tmp_path_factory.mktemp("quick_cores2"), cores=2)
