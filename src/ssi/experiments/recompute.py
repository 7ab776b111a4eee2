"""The audit of the computation: a hash list of the result files, and a sample recomputed.

``snakemake result_hashes`` writes ``<figures_dir>/RESULT_HASHES.json``: the SHA-256 of every
``.npz`` result file of the config (the arrays; the ``.json`` records next to them carry the git
commit and are not listed), with the provenance of the run. ``snakemake audit_compute --config
audit_n=4 audit_seed=1`` draws ``audit_n`` entries of that list (``random.Random(audit_seed)``),
runs the same workflow rules for them in a fresh temporary folder (a nested ``snakemake
--directory``), and compares the bytes: code -> results in minutes, without the full run
(docs/reproducibility.md, "Auditing the computation").
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

from ..io import atomic_write_text, sha256_file
from .audit import versions_message

HASHES = "RESULT_HASHES.json"
#: config keys of the audit itself, not passed on to the recomputation
AUDIT_KEYS = ("audit_n", "audit_seed")


def write_result_hashes(result_files, config, out_path, log=None, rule=None, workflow_root=None) -> None:
    """Write the hash list of ``result_files`` (paths under ``config["results_dir"]``).

    Parameters
    ----------
    result_files : iterable of path
        The ``.npz`` result files.
    config : dict
        The workflow config (its ``results_dir``; the rest is hashed into the provenance).
    out_path : path
        The JSON file to write: ``{"files": {relative path: sha256}, "provenance": {...}}``.
    log : path, optional
        A text file that receives a one-line summary.
    rule, workflow_root : optional
        The workflow rule that writes the list and the folder holding the Snakefile: the code
        hash of the provenance covers that rule's code (:func:`ssi.provenance.committed_record`).
    """
    from ..provenance import committed_record

    root = Path(config["results_dir"])
    files = {Path(f).relative_to(root).as_posix(): sha256_file(f) for f in result_files}
    section = {k: v for k, v in config.items() if k not in ("results_dir", "figures_dir", *AUDIT_KEYS)}
    record = {"files": dict(sorted(files.items())), "provenance": committed_record(section, workflow_root, rule)}
    atomic_write_text(out_path, json.dumps(record, indent=2, sort_keys=True) + "\n")
    if log:
        atomic_write_text(log, f"{out_path}: {len(files)} result files\n")


def sample_entries(entries, n: int, seed: int) -> list[str]:
    """``n`` of ``entries`` (all of them if n ≥ their number), drawn by ``random.Random(seed)``
    from the sorted list: the same (n, seed) gives the same jobs on every machine."""
    entries = sorted(entries)
    if n < 1:
        raise ValueError(f"audit_n={n}: the number of result files to recompute must be ≥ 1")
    return sorted(random.Random(seed).sample(entries, min(n, len(entries))))


def recompute(config, snakefile, targets, workdir, cores: int) -> subprocess.CompletedProcess:
    """Run the workflow's rules for ``targets`` (paths relative to results_dir) in ``workdir``."""
    workdir = Path(workdir)
    nested = {k: v for k, v in config.items() if k not in AUDIT_KEYS}
    nested["results_dir"], nested["figures_dir"] = "results", "figures"
    (workdir / "config.yaml").write_text(yaml.safe_dump(nested, sort_keys=False))
    cmd = [sys.executable, "-m", "snakemake", "--snakefile", str(Path(snakefile).resolve()),
           "--directory", str(workdir), "--configfile", str(workdir / "config.yaml"),
           "--cores", str(cores), *[f"results/{t}" for t in targets]]
    env = dict(os.environ)
    env.pop("SNAKEMAKE_PROFILE", None)
    return subprocess.run(cmd, cwd=workdir, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def audit_compute(config, snakefile, hashes_path, n: int, seed: int, cores: int = 1, log=None) -> str:
    """Recompute ``n`` sampled result files into a temporary folder and compare them with the list.

    Every listed file that the recomputation made (the sample, and the results those jobs
    depend on) is compared. Raises ValueError naming each differing file, followed by the
    packages whose installed version differs from the one recorded in the list.

    Returns
    -------
    str
        The success message (also written to ``log``).
    """
    hashes_path = Path(hashes_path)
    if not hashes_path.is_file():
        raise ValueError(f"audit_compute: {hashes_path} not found; write it with "
                         f"`snakemake --cores all result_hashes` (after a full run)")
    expected = json.loads(hashes_path.read_text())["files"]
    chosen = sample_entries(expected, n, seed)
    with tempfile.TemporaryDirectory(prefix="ssi-audit-compute-") as tmp:
        proc = recompute(config, snakefile, chosen, tmp, cores)
        if proc.returncode != 0:
            message = f"audit_compute: the recomputation failed:\n{proc.stdout[-4000:]}"
            if log:
                atomic_write_text(log, message + "\n")
            raise ValueError(message)
        made = {name: sha256_file(Path(tmp, "results", name)) for name in expected
                if Path(tmp, "results", name).is_file()}
    problems = [f"{name}: not recomputed" for name in chosen if name not in made]
    problems += [f"{name}: recomputed bytes differ from {hashes_path.name}" + ("" if name in chosen else " (a dependency)")
                 for name, digest in sorted(made.items()) if digest != expected[name]]
    extra = len(made) - len([c for c in chosen if c in made])
    if problems:
        message = (f"audit_compute failed (audit_n={n}, audit_seed={seed}):\n  " + "\n  ".join(problems)
                   + "\n" + versions_message([hashes_path]))
    else:
        message = (f"audit_compute passed: {len(chosen)} of {len(expected)} result files recomputed "
                   f"(audit_n={n}, audit_seed={seed}){f' plus {extra} they depend on' if extra else ''}, "
                   f"identical to {hashes_path}: " + ", ".join(chosen))
    if log:
        atomic_write_text(log, message + "\n")
    if problems:
        raise ValueError(message)
    return message
