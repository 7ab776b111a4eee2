"""Helpers for tests that need a completed quick-config run (tests/test_notebooks.py,
test_report.py, test_audit_compute.py): each gets its own copy of the session's single quick run."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUICK = "config/quick.yaml"
#: generous: a quick run takes 1–3 min alone, 15 min on a loaded 2-core machine
TIMEOUT = 2400


def environment(**extra) -> dict:
    """This interpreter's bin folder first on PATH, the package importable, no profile."""
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), *filter(None, [env.get("PYTHONPATH")])])
    env.pop("SNAKEMAKE_PROFILE", None)
    env.update(extra)
    return env


def run(cmd, cwd, check=True, timeout=TIMEOUT, **env) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=environment(**env), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, cmd))} failed ({proc.returncode}) in {cwd}:\n{proc.stdout[-6000:]}")
    return proc


def snakemake(workdir, *args, check=True, timeout=TIMEOUT, **env):
    return run([sys.executable, "-m", "snakemake", *args], workdir, check=check, timeout=timeout, **env)


def completed_quick_run(quick_cores2, tmp_path_factory) -> Path:
    """A private copy of the session's completed quick run (``quick_cores2`` in tests/conftest.py,
    ``snakemake --cores 2`` on config/quick.yaml, made once per session and shared with
    tests/test_workflow.py and tests/test_slurm.py), so that the caller may write into it.
    ``SSI_QUICK_WORKDIR`` may name a folder where the quick run already completed (used as is)."""
    if os.environ.get("SSI_QUICK_WORKDIR"):
        return Path(os.environ["SSI_QUICK_WORKDIR"])
    workdir = tmp_path_factory.mktemp("quick_copy") / "repo"
    shutil.copytree(quick_cores2["workdir"], workdir, symlinks=True)
    return workdir
