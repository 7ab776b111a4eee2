"""Stop and go again, in a fresh clone, with the README's toy-run command as written.

One run serves two checks (``interrupted_clone``): the repository is cloned with git into a
temporary folder (the working tree's uncommitted changes committed on top, so that the clone is
what is being tested), the README's toy-run command (`.venv/bin/snakemake --cores all
--configfile config/quick.yaml`, run with this interpreter) is started, stopped with SIGINT to
its process group (what Ctrl-C does) once its first result is written and other jobs are
running, and then typed again with no extra flag. Checked:

* Ctrl-C stops the run with a non-zero exit, releases the lock and leaves only whole files;
* the same command again completes (profiles/default/ sets ``rerun-incomplete``: without it,
  Snakemake stops with IncompleteFilesException and asks for ``--rerun-incomplete``), and its
  figures, manifest and result files are byte-identical to the uninterrupted run of the session
  (``quick_cores2`` in tests/conftest.py);
* afterwards ``git status --porcelain`` in the clone is empty: the workflow writes only under
  git-ignored folders and changes no committed file; the install's leftovers (``.venv/``, the
  package's ``*.egg-info``) are ignored too.

The paper config's run is checked the same way by its own audit (docs/workflow.md, "Audit").
"""
from __future__ import annotations

import os
import shlex
import signal
import subprocess

import pytest

from support.quickrun import (QUICK, ROOT, TIMEOUT, assert_results_whole, figure_hashes, fresh_clone, git, result_dirs,
                              sha256, snakemake, start_quick, wait_for)

def readme_toy_run() -> list[str]:
    """The README's toy-run command (the code-block line that runs the quick config), as argv."""
    lines = [line.strip() for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
             if line.startswith("    ") and "snakemake" in line and f"--configfile {QUICK}" in line]
    assert len(lines) == 1, f"the README should show one toy-run command: {lines}"
    argv = shlex.split(lines[0])
    assert argv[0] == ".venv/bin/snakemake", argv
    return argv[1:]


@pytest.fixture(scope="module")
def interrupted_clone(tmp_path_factory):
    """The README's toy run in a fresh clone, stopped with SIGINT while its jobs run, then the
    same command again: dict with ``workdir``, ``interrupted`` (what was seen right after the
    stop) and ``resumed`` (the second run's output)."""
    clone = fresh_clone(tmp_path_factory.mktemp("interrupted"))
    args = readme_toy_run()
    results, figures = result_dirs(clone)
    log = clone.parent / "interrupted.log"
    proc = start_quick(clone, log, args)
    wait_for(proc, lambda: any(results.rglob("*.json")), log)
    os.killpg(proc.pid, signal.SIGINT)
    code = proc.wait(timeout=300)
    locks = clone / ".snakemake" / "locks"
    interrupted = {"code": code, "log": log.read_text(),
                   "manifest_written": (figures / "MANIFEST.sha256").exists(),
                   "locked": locks.exists() and any(locks.iterdir())}
    assert_results_whole(clone)            # right after the stop: no temporary file, every result whole
    resumed = snakemake(clone, *args, check=False, timeout=TIMEOUT)
    return {"workdir": clone, "interrupted": interrupted, "resumed": resumed}


@pytest.mark.slow
def test_ctrl_c_stops_and_releases_the_lock(interrupted_clone):
    """Ctrl-C in the middle of the jobs: a non-zero exit before the end of the run (no
    manifest yet), no lock left (else the same command would ask for --unlock)."""
    interrupted = interrupted_clone["interrupted"]
    assert interrupted["code"] != 0, interrupted["log"][-3000:]
    assert not interrupted["manifest_written"], "the interrupt came after the end of the run"
    assert not interrupted["locked"], "the lock was not released"


#: the files made from a committed file when it is there: a clone has it, the session's copy
#: (support.quickrun.make_workdir) does not (tied_untied_theory reads the authors' numbers file,
#: config tied_untied_theory.authors_numbers, when present)
DRAW_COMMITTED = ("tied_untied_theory.pdf", "tied_untied_theory.png", "numbers/tied_untied_theory.json")


def comparable(hashes: dict[str, str], manifest: str) -> dict[str, str]:
    """Figure hashes and manifest lines, leaving out ``DRAW_COMMITTED``."""
    out = {name: h for name, h in hashes.items() if name not in DRAW_COMMITTED and name != "MANIFEST.sha256"}
    out.update({f"manifest: {line}": "" for line in manifest.splitlines() if not line.endswith(DRAW_COMMITTED)})
    return out


@pytest.mark.slow
def test_same_command_again_resumes_to_the_bytes_of_an_uninterrupted_run(interrupted_clone, quick_cores2):
    """The same command, no extra flag, completes (it fails with IncompleteFilesException when
    profiles/default/ is not where Snakemake looks) and ends with the result files, figures and
    manifest of the uninterrupted run, byte for byte (but ``DRAW_COMMITTED``, made from more in a
    clone than in the session's copy)."""
    resumed = interrupted_clone["resumed"]
    assert resumed.returncode == 0, resumed.stdout[-4000:]
    assert "Nothing to be done" not in resumed.stdout, "the interrupt came after the last job"
    workdir = interrupted_clone["workdir"]
    assert_results_whole(workdir)
    mine, reference = (result_dirs(w)[0] for w in (workdir, quick_cores2["workdir"]))
    names = sorted(p.relative_to(reference).as_posix() for p in reference.rglob("*.npz"))
    assert names and names == sorted(p.relative_to(mine).as_posix() for p in mine.rglob("*.npz"))
    different = [n for n in names if sha256(mine / n) != sha256(reference / n)]
    assert not different, f"result files differ from the uninterrupted run: {different}"
    manifests = [(result_dirs(w)[1] / "MANIFEST.sha256").read_text() for w in (workdir, quick_cores2["workdir"])]
    assert comparable(figure_hashes(workdir), manifests[0]) == comparable(quick_cores2["hashes"], manifests[1])


@pytest.mark.slow
def test_git_status_is_clean_after_the_run(interrupted_clone):
    """After the README's toy run in a fresh clone, `git status --porcelain` is empty: a
    result, log or figure written outside the ignored folders, or a committed file changed,
    shows up here. The install's own leftovers are ignored as well."""
    workdir = interrupted_clone["workdir"]
    assert interrupted_clone["resumed"].returncode == 0
    status = git(workdir, "status", "--porcelain", "--untracked-files=all")
    assert status == "", f"the toy run left the git tree dirty:\n{status[:3000]}"
    install = [".venv/bin/python", "src/ssi_attention.egg-info/PKG-INFO", "build/lib/x.py"]
    ignored = subprocess.run(["git", "check-ignore", "--no-index", *install], cwd=workdir,
                             capture_output=True, text=True).stdout.split()
    assert sorted(ignored) == sorted(install), f"not ignored: {sorted(set(install) - set(ignored))}"


def test_readme_toy_run_command_is_found():
    """The command the tests above type is the README's, and is the quick config's toy run."""
    assert readme_toy_run()[-2:] == ["--configfile", QUICK]
