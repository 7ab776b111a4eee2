"""Provenance records: which software, code and config made a result or a numbers file.

Two records, because a committed file cannot name the commit that commits it
(docs/reproducibility.md, "Provenance"):

* :func:`committed_record` goes into ``figures/numbers/*.json`` (committed). It holds only
  what the same code on the same kind of machine reproduces: the versions of
  :data:`PACKAGES`, the Python version, a coarse platform tag (system, machine, C library),
  the workflow ``rule`` that wrote it, :func:`code_hash` of the code that rule runs, and
  :func:`config_hash` of the config section.
* :func:`result_record` goes into every ``results/**/*.json`` (not committed): the same, plus
  the HEAD commit, a dirty flag and the full platform string. The same commit on the same
  machine gives the same bytes; a commit, a dirty tree or a new kernel changes only this record,
  never the arrays (``.npz``).

The code of a rule (:func:`job_sources`) is its rule file, its script, and the package modules
the script imports, directly or through other modules of the package (:mod:`ssi.source_graph`;
a ``run:`` rule: those its rule file imports). An edit elsewhere (another rule, a scheduling
constant in the Snakefile, the docs, the tests) leaves the hash, and so the committed numbers,
unchanged. Inside a Snakemake ``script:`` job the rule is found by itself (:func:`current_job`);
elsewhere (the CLI, a notebook) there is no rule, and the hash covers the whole package and
workflow.

Neither record holds a timestamp.
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import json
import platform
import re
import subprocess
import sys
from pathlib import Path

from .source_graph import dependencies, file_imports

#: the packages whose versions are recorded (those that can change a number or a figure byte,
#: and the workflow engine)
PACKAGES = ("numpy", "numba", "scipy", "matplotlib", "seaborn", "snakemake")
#: workflow sources, relative to the folder holding the Snakefile, that enter the code hash of a
#: record made outside a workflow rule
WORKFLOW_SOURCES = ("Snakefile", "workflow/rules", "workflow/scripts", "workflow/schemas")
#: the folder of the rule files, relative to the folder holding the Snakefile
RULES = "workflow/rules"
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


def current_job() -> tuple[str | None, Path | None]:
    """(rule, folder holding the Snakefile) of the Snakemake ``script:`` job this process runs,
    read from its ``snakemake`` object; (None, None) outside one."""
    job = getattr(sys.modules.get("__main__"), "snakemake", None)
    rule, scripts = getattr(job, "rule", None), getattr(job, "scriptdir", None)
    if not isinstance(rule, str) or not scripts:
        return None, None
    return rule, Path(scripts).resolve().parents[1]


def rule_block(rule: str, workflow_root=None) -> tuple[Path, str]:
    """(rule file, text of the rule's definition) of ``rule`` among the rule files of ``workflow_root``.

    Raises
    ------
    ValueError
        When no rule file defines ``rule``.
    """
    root = Path(workflow_root) if workflow_root is not None else Path.cwd()
    start = re.compile(rf"^rule {re.escape(rule)}:[ \t]*$", re.MULTILINE)
    for path in sorted((root / RULES).glob("*.smk")):
        text = path.read_text()
        found = start.search(text)
        if found:
            # the definition ends at the next line that is not indented (and not blank)
            end = re.compile(r"^\S", re.MULTILINE).search(text, found.end() + 1)
            return path, text[found.start():end.start() if end else len(text)]
    raise ValueError(f"provenance: no rule file under {root / RULES} defines the rule {rule!r}")


def job_sources(rule: str, workflow_root=None) -> dict[str, Path]:
    """The code a job of ``rule`` runs: its rule file, its script (``script:``), and the package
    modules the script imports, directly or not (a ``run:`` rule: those its rule file imports).

    Parameters
    ----------
    rule : str
        A rule of the workflow.
    workflow_root : path, optional
        Folder holding the Snakefile (default: the working directory).

    Returns
    -------
    dict
        Name (``ssi/ode.py``, ``workflow/rules/positional.smk``) -> file, sorted by name.
    """
    root = Path(workflow_root) if workflow_root is not None else Path.cwd()
    rule_file, block = rule_block(rule, root)
    files = {rule_file.relative_to(root).as_posix(): rule_file}
    script = re.search(r"^[ \t]+script:[ \t]*\n[ \t]+[\"']([^\"']+)[\"']", block, re.MULTILINE)
    if script:
        path = (rule_file.parent / script.group(1)).resolve()
        files[path.relative_to(root.resolve()).as_posix()] = path
        imported = file_imports(path)
    else:
        imported = file_imports(rule_file)
    for path in dependencies(imported).values():
        files[f"ssi/{path.relative_to(_PACKAGE).as_posix()}"] = path
    return dict(sorted(files.items()))


def code_hash(workflow_root=None, rule: str | None = None) -> str:
    """SHA-256 over the paths and bytes of the code a record covers.

    Parameters
    ----------
    workflow_root : path, optional
        Folder holding the Snakefile (default: the working directory).
    rule : str, optional
        A workflow rule: the hash covers :func:`job_sources`. Without one, it covers every
        ``.py`` file of the ``ssi`` package and, when ``workflow_root`` holds a Snakefile,
        :data:`WORKFLOW_SOURCES` there. Edits to the docs, figures or tests never change it.
    """
    files = sorted(job_sources(rule, workflow_root).items()) if rule else _source_files(workflow_root)
    digest = hashlib.sha256()
    for name, path in files:
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


def committed_record(section, workflow_root=None, rule: str | None = None) -> dict:
    """The provenance of a committed numbers file (see the module docstring).

    Parameters
    ----------
    section : dict
        The config section the file is computed from (hashed, not copied).
    workflow_root : path, optional
        Folder holding the Snakefile (default: the working directory).
    rule : str, optional
        The workflow rule that writes the file (default: that of :func:`current_job`, whose
        workflow folder then also replaces a missing ``workflow_root``).

    Returns
    -------
    dict
        ``packages``, ``python``, ``platform``, ``rule`` (None outside a rule), ``code_sha256``
        (:func:`code_hash` of that rule), ``config_sha256``.
    """
    if rule is None:
        rule, root = current_job()
        workflow_root = root if workflow_root is None else workflow_root
    return {"packages": package_versions(), "python": platform.python_version(),
            "platform": platform_tag(), "rule": rule, "code_sha256": code_hash(workflow_root, rule),
            "config_sha256": config_hash(section)}


def result_record(section, workflow_root=None, rule: str | None = None) -> dict:
    """The provenance of a result file: :func:`committed_record` plus ``git_commit``,
    ``git_dirty`` and ``platform_full`` (:func:`platform.platform`)."""
    commit, dirty = git_state(workflow_root)
    return {**committed_record(section, workflow_root, rule), "git_commit": commit, "git_dirty": dirty,
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
    # `python -m ssi.provenance [RULE]` from the repository root: the record a run (a job of RULE)
    # would write now
    print(json.dumps(result_record({}, rule=sys.argv[1] if len(sys.argv) > 1 else None), indent=2, sort_keys=True))
    sys.exit(0)
