"""A completed quick-config run shared by tests/test_notebooks.py, test_report.py and
test_audit_compute.py (one run per pytest session, in a temporary copy of the workflow)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUICK = "config/quick.yaml"
COPIED = ("Snakefile", "config", "workflow", "notebooks")
#: generous: a quick run takes 1–3 min alone, 15 min on a loaded 2-core machine
TIMEOUT = 2400
_DONE: dict[str, Path] = {}


def environment(**extra) -> dict:
    """This interpreter's bin folder first on PATH, the package importable, no profile."""
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), *filter(None, [env.get("PYTHONPATH")])])
    env.pop("SNAKEMAKE_PROFILE", None)
    env.update(extra)
    return env


def make_workdir(parent: Path, extra=()) -> Path:
    """A fresh copy of the workflow files (and of ``extra`` folders such as ``src``) in parent/repo."""
    workdir = parent / "repo"
    workdir.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", ".snakemake", ".ipynb_checkpoints")
    for name in (*COPIED, *extra):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, workdir / name, ignore=ignore)
        else:
            shutil.copy2(source, workdir / name)
    return workdir


def run(cmd, cwd, check=True, timeout=TIMEOUT, **env) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=environment(**env), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, cmd))} failed ({proc.returncode}) in {cwd}:\n{proc.stdout[-6000:]}")
    return proc


def snakemake(workdir, *args, check=True, timeout=TIMEOUT, **env):
    return run([sys.executable, "-m", "snakemake", *args], workdir, check=check, timeout=timeout, **env)


def completed_quick_run(tmp_path_factory) -> Path:
    """The quick workflow run to completion (``snakemake --cores 2``), made once per session.
    ``SSI_QUICK_WORKDIR`` may name a folder where this already ran (a copy made by this module)."""
    if "quick" not in _DONE and os.environ.get("SSI_QUICK_WORKDIR"):
        _DONE["quick"] = Path(os.environ["SSI_QUICK_WORKDIR"])
    if "quick" not in _DONE:
        workdir = make_workdir(tmp_path_factory.mktemp("repro_quick"))
        try:
            snakemake(workdir, "--cores", "2", "--configfile", QUICK)
        except (AssertionError, subprocess.TimeoutExpired) as err:
            _DONE["quick"] = err             # fail the other tests at once instead of rerunning
            raise
        _DONE["quick"] = workdir
    if isinstance(_DONE["quick"], BaseException):
        raise AssertionError(f"the quick run failed earlier in this session: {_DONE['quick']}")
    return _DONE["quick"]
