"""The quick workflow (config/quick.yaml) as the tests run it: a temporary copy of the
repository's workflow files (its default profile included), ``snakemake`` in a subprocess, and what the tests read back
(figure hashes, result arrays, the job table). The session's single completed quick run is the
``quick_cores2`` fixture of tests/conftest.py; ``completed_quick_run`` gives a test its own copy."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parents[2]
QUICK = "config/quick.yaml"
#: what a temporary copy of the repository needs to run the workflow and the notebooks
COPIED = ("Snakefile", "profiles", "config", "workflow", "notebooks")
#: generous bound on one snakemake call: a quick run takes 15–60 s alone (depending on the
#: numba cache), up to 15 min on a loaded 2-core machine
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
    """Run ``cmd`` in ``cwd`` (stdout and stderr together in ``.stdout``); raise with the output's
    tail if it fails and ``check``."""
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=environment(**env), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, cmd))} failed ({proc.returncode}) in {cwd}:\n{proc.stdout[-6000:]}")
    return proc


def snakemake(workdir, *args, check=True, timeout=TIMEOUT, **env) -> subprocess.CompletedProcess:
    """Run ``snakemake *args`` in ``workdir``; returns the CompletedProcess (output in .stdout)."""
    return run([sys.executable, "-m", "snakemake", *args], workdir, check=check, timeout=timeout, **env)


def quick_config() -> dict:
    return yaml.safe_load((ROOT / QUICK).read_text())


def result_dirs(workdir: Path, config: dict | None = None) -> tuple[Path, Path]:
    """(results_dir, figures_dir) of a config, inside ``workdir``."""
    config = config or quick_config()
    return workdir / config["results_dir"], workdir / config["figures_dir"]


def make_workdir(parent: Path) -> Path:
    """A fresh copy of the repository's workflow files in ``parent``/repo."""
    workdir = parent / "repo"
    workdir.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", ".snakemake", ".ipynb_checkpoints")
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, workdir / name, ignore=ignore)
        else:
            shutil.copy2(source, workdir / name)
    return workdir


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def figure_hashes(workdir: Path) -> dict[str, str]:
    """SHA-256 of every figure (pdf, png, svg) and of MANIFEST.sha256, by path relative to figures/."""
    _, figures = result_dirs(workdir)
    files = [p for p in figures.rglob("*") if p.suffix in (".pdf", ".png", ".svg") or p.name == "MANIFEST.sha256"]
    return {p.relative_to(figures).as_posix(): sha256(p) for p in sorted(files)}


def result_arrays(workdir: Path) -> dict[str, dict[str, np.ndarray]]:
    """Every .npz result's arrays, by path relative to results/."""
    results, _ = result_dirs(workdir)
    out = {}
    for path in sorted(results.rglob("*.npz")):
        with np.load(path, allow_pickle=False) as data:
            out[path.relative_to(results).as_posix()] = {k: data[k] for k in data.files}
    return out


def assert_results_whole(workdir: Path) -> None:
    """No temporary file is left, and every result file on disk is whole (loads)."""
    results, figures = result_dirs(workdir)
    leftovers = [p for folder in (results, figures) if folder.exists() for p in folder.rglob("*.tmp")]
    assert not leftovers, f"temporary files left behind: {leftovers}"
    for path in results.rglob("*.npz"):
        with np.load(path, allow_pickle=False) as data:
            assert data.files, f"{path} holds no arrays"
    for path in results.rglob("*.json"):
        json.loads(path.read_text())


def run_quick(parent: Path, cores: int) -> dict:
    workdir = make_workdir(parent)
    proc = snakemake(workdir, "--cores", cores, "--configfile", QUICK)
    return {"workdir": workdir, "output": proc.stdout, "hashes": figure_hashes(workdir)}


def copy_completed(run: dict, parent: Path) -> Path:
    """A copy of a completed folder (modification times and .snakemake metadata kept)."""
    target = parent / "completed"
    shutil.copytree(run["workdir"], target, symlinks=True)
    return target


def job_counts(output: str) -> dict[str, int]:
    """The "Job stats" table of a snakemake run: rule -> count (empty if nothing ran)."""
    counts, lines = {}, output.splitlines()
    for i, line in enumerate(lines):
        if line.strip() == "Job stats:":
            for row in lines[i + 3:]:
                parts = row.split()
                if len(parts) != 2 or not parts[1].isdigit():
                    break
                counts[parts[0]] = int(parts[1])
            break
    return counts


def completed_quick_run(quick_cores2, tmp_path_factory) -> Path:
    """A private copy of the session's completed quick run (``quick_cores2`` in tests/conftest.py,
    ``snakemake --cores 2`` on config/quick.yaml, made once per session and shared with
    tests/workflow/test_workflow.py and tests/workflow/test_slurm.py), so that the caller may write into it.
    ``SSI_QUICK_WORKDIR`` may name a folder where the quick run already completed (used as is)."""
    if os.environ.get("SSI_QUICK_WORKDIR"):
        return Path(os.environ["SSI_QUICK_WORKDIR"])
    workdir = tmp_path_factory.mktemp("quick_copy") / "repo"
    shutil.copytree(quick_cores2["workdir"], workdir, symlinks=True)
    return workdir


def _default_sigint() -> None:
    # A process started in the background by a non-interactive shell (`.ci/run &`, nohup)
    # inherits SIGINT ignored, and so does everything it starts: Snakemake would then ignore
    # the test's Ctrl-C and run to the end. The workflow is started as from a terminal.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_quick(workdir: Path, log: Path, args=("--cores", "1", "--configfile", QUICK)) -> subprocess.Popen:
    """``snakemake *args`` (default: the quick workflow with --cores 1) in the background, in its
    own process group, with SIGINT at its default disposition (as from a terminal, whatever the
    test runner's); output to ``log``."""
    return subprocess.Popen([sys.executable, "-m", "snakemake", *map(str, args)],
                            cwd=workdir, env=environment(), stdout=log.open("w"), stderr=subprocess.STDOUT,
                            start_new_session=True, preexec_fn=_default_sigint)


def wait_for(proc: subprocess.Popen, predicate, log: Path, timeout: float = TIMEOUT) -> None:
    """Wait until ``predicate()`` is true; fail (with the log's tail) if the process ends first
    or the timeout passes (the process group is then killed)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if proc.poll() is not None:
            raise AssertionError(f"the workflow ended (exit {proc.returncode}) before the awaited "
                                 f"file appeared:\n{log.read_text()[-3000:]}")
        if time.monotonic() > deadline:
            os.killpg(proc.pid, signal.SIGKILL)
            raise AssertionError("the awaited file did not appear in time")
        time.sleep(0.05)


#: the identity of the commit that carries the working tree's changes in the clone
GIT_IDENTITY = ("-c", "user.name=tests", "-c", "user.email=tests@localhost")


def git(cwd: Path, *args: str) -> str:
    """``git *args`` in ``cwd``; its standard output."""
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return proc.stdout


def fresh_clone(parent: Path) -> Path:
    """``git clone`` of the repository into ``parent``/clone, with the working tree's changes
    (modified, deleted and new files that git does not ignore) committed on top."""
    clone = parent / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    listed = git(ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard").split("\0")
    for name in filter(None, listed):
        source, target = ROOT / name, clone / name
        if not source.exists():
            target.unlink(missing_ok=True)
        elif not target.exists() or target.read_bytes() != source.read_bytes():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    git(clone, "add", "-A")
    if git(clone, "status", "--porcelain"):
        git(clone, *GIT_IDENTITY, "commit", "--quiet", "-m", "the working tree's changes")
    assert git(clone, "status", "--porcelain") == ""
    return clone
