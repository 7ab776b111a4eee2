"""Provenance records: which software, code and config made a result or a numbers file.

Two records, because a committed file cannot name the commit that commits it
(docs/reproducibility.md, "Provenance"):

* :func:`committed_record` goes into ``figures/numbers/*.json`` (committed). It holds only
  what the same commit on the same kind of machine reproduces: the versions of
  :data:`PACKAGES`, the Python version, a coarse platform tag (system, machine, C library),
  :func:`code_hash` of the package and workflow sources (it stands for the commit: a dirty
  tree gives a hash that no commit has), and :func:`config_hash` of the config section.
* :func:`result_record` goes into every ``results/**/*.json`` (not committed): the same, plus
  the HEAD commit, a dirty flag and the full platform string. The same commit on the same
  machine gives the same bytes; a commit, a dirty tree or a new kernel changes only this record,
  never the arrays (``.npz``).

Neither holds a timestamp.
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import json
import platform
import subprocess
import sys
from pathlib import Path

#: the packages whose versions are recorded (those that can change a number or a figure byte,
#: and the workflow engine)
PACKAGES = ("numpy", "numba", "scipy", "matplotlib", "seaborn", "snakemake")
#: workflow sources, relative to the folder holding the Snakefile, that enter the code hash
WORKFLOW_SOURCES = ("Snakefile", "workflow/rules", "workflow/scripts", "workflow/schemas")
_PACKAGE = Path(__file__).resolve().parent


def package_versions(names=PACKAGES) -> dict[str, str | None]:
    """{name: installed version, or None when not installed}."""
    versions = {}
    for name in names:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def platform_tag() -> str:
    """System, machine and C library, e.g. ``Linux-x86_64-glibc2.36`` (no kernel release)."""
    libc, version = platform.libc_ver()
    return "-".join(part for part in (platform.system(), platform.machine(), f"{libc}{version}") if part)


def _source_files(workflow_root):
    files = [(f"ssi/{p.relative_to(_PACKAGE).as_posix()}", p) for p in _PACKAGE.rglob("*.py")
             if "__pycache__" not in p.parts]
    root = Path(workflow_root) if workflow_root is not None else Path.cwd()
    if (root / "Snakefile").is_file():
        for name in WORKFLOW_SOURCES:
            path = root / name
            candidates = [path] if path.is_file() else sorted(q for q in path.rglob("*") if q.is_file())
            files += [(q.relative_to(root).as_posix(), q) for q in candidates if "__pycache__" not in q.parts]
    return sorted(files)


def code_hash(workflow_root=None) -> str:
    """SHA-256 over the paths and bytes of the ``ssi`` package's ``.py`` files and, when
    ``workflow_root`` (default: the working directory) holds a Snakefile, of
    :data:`WORKFLOW_SOURCES` there. Edits to the docs, figures or tests do not change it."""
    digest = hashlib.sha256()
    for name, path in _source_files(workflow_root):
        digest.update(name.encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def config_hash(section) -> str:
    """SHA-256 of a config section as canonical JSON (sorted keys, no whitespace)."""
    text = json.dumps(section, sort_keys=True, separators=(",", ":"), default=_plain)
    return hashlib.sha256(text.encode()).hexdigest()


def git_state(cwd=None) -> tuple[str, bool | None]:
    """(HEAD commit, whether tracked files differ from it); ("unknown", None) outside git."""
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=cwd, capture_output=True,
                                text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=cwd,
                               capture_output=True, text=True, check=True).stdout.strip()
        return commit, bool(dirty)
    except (OSError, subprocess.CalledProcessError):
        return "unknown", None


def committed_record(section, workflow_root=None) -> dict:
    """The provenance of a committed numbers file (see the module docstring).

    Parameters
    ----------
    section : dict
        The config section the file is computed from (hashed, not copied).
    workflow_root : path, optional
        Folder holding the Snakefile (default: the working directory).

    Returns
    -------
    dict
        ``packages``, ``python``, ``platform``, ``code_sha256``, ``config_sha256``.
    """
    return {"packages": package_versions(), "python": platform.python_version(),
            "platform": platform_tag(), "code_sha256": code_hash(workflow_root),
            "config_sha256": config_hash(section)}


def result_record(section, workflow_root=None) -> dict:
    """The provenance of a result file: :func:`committed_record` plus ``git_commit``,
    ``git_dirty`` and ``platform_full`` (:func:`platform.platform`)."""
    commit, dirty = git_state(workflow_root)
    return {**committed_record(section, workflow_root), "git_commit": commit, "git_dirty": dirty,
            "platform_full": platform.platform()}


def version_differences(recorded: dict, current: dict | None = None) -> list[str]:
    """``name recorded -> installed`` for each package of ``recorded`` whose version differs now."""
    current = package_versions(tuple(recorded)) if current is None else current
    return [f"{name} {recorded[name]} -> {current.get(name)}" for name in sorted(recorded)
            if recorded[name] != current.get(name)]


def _plain(value):
    if hasattr(value, "item"):          # numpy scalars
        return value.item()
    if hasattr(value, "tolist"):
        return value.tolist()
    return str(value)


if __name__ == "__main__":  # pragma: no cover - a command-line helper for the docs
    # `python -m ssi.provenance` from the repository root: the record a run would write now
    print(json.dumps(result_record({}), indent=2, sort_keys=True))
    sys.exit(0)
