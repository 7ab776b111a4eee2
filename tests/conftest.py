"""Fixtures shared by test files.

``quick_cores2``: the quick workflow (config/quick.yaml) run once to completion with
``--cores 2``, in a temporary copy of the repository, for the whole session: the workflow
tests (tests/test_workflow.py) inspect and copy it, and the SLURM test (tests/test_slurm.py)
compares its own run with it, instead of each running the quick workflow again.

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


@pytest.fixture(scope="session")
def quick_cores2(tmp_path_factory):
    """The quick workflow run to completion with --cores 2: dict with ``workdir``, ``output``,
    ``seconds``, ``hashes`` (test_workflow.run_quick). Tests must not modify the folder (copy it)."""
    from test_workflow import run_quick

    return run_quick(tmp_path_factory.mktemp("quick_cores2"), cores=2)
