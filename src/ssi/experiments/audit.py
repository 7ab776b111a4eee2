"""The manifest of figures, the claims table, and the audit that re-renders and compares."""
from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path

from ..io import atomic_write_text, sha256_file

MANIFEST = "MANIFEST.sha256"


def write_manifest(files, figures_dir, out_path, log=None) -> None:
    """``sha256  relative/path`` lines for ``files`` (paths relative to ``figures_dir``), sorted.

    ``log``: optional path of a text file that receives the same lines.
    """
    root = Path(figures_dir)
    lines = sorted(f"{sha256_file(f)}  {Path(f).relative_to(root).as_posix()}" for f in files)
    text = "\n".join(lines) + "\n"
    atomic_write_text(out_path, text)
    if log:
        atomic_write_text(log, f"{out_path}: {len(lines)} entries\n{text}")


def read_manifest(path) -> dict[str, str]:
    """relative path -> sha256."""
    entries = {}
    for line in Path(path).read_text().splitlines():
        digest, name = line.split(maxsplit=1)
        entries[name.strip()] = digest
    return entries


def rerender_and_compare(renderers: dict, manifest_path) -> list[str]:
    """Re-render every figure into a temporary folder; return the names whose hash differs."""
    expected = read_manifest(manifest_path)
    problems = []
    with tempfile.TemporaryDirectory(prefix="ssi-audit-") as tmp:
        for render in renderers.values():
            render(tmp)
        rendered = {p.name: sha256_file(p) for p in Path(tmp).iterdir() if p.is_file()}
    for name, digest in sorted(rendered.items()):
        if name not in expected:
            problems.append(f"{name}: not in the manifest")
        elif expected[name] != digest:
            problems.append(f"{name}: re-rendered bytes differ from the manifest")
    return problems


def compare_files_with_manifest(manifest_path) -> list[str]:
    """The manifest's entries whose file (relative to the manifest's folder) is missing or differs."""
    root = Path(manifest_path).parent
    problems = []
    for name, digest in sorted(read_manifest(manifest_path).items()):
        path = root / name
        if not path.is_file():
            problems.append(f"{name}: listed in the manifest but missing")
        elif sha256_file(path) != digest:
            problems.append(f"{name}: file on disk differs from the manifest")
    return problems


def audit(config, renderers: dict, manifest_path, numbers_files, log=None) -> str:
    """The `snakemake audit` check; raises ValueError naming every file that fails.

    1. every file listed in the manifest is on disk with the listed hash;
    2. every figure re-rendered from results/ into a temporary folder has the listed hash;
    3. each numbers file equals the numbers recomputed from results/ within
       ``config["audit_rtol"]`` (relative; 0 on the machine that made them).

    Returns the success message; the message or the failures also go to ``log``.
    """
    import importlib

    rtol = config["audit_rtol"]
    absent = [str(f) for f in (manifest_path, *numbers_files) if not Path(f).is_file()]
    if absent:
        raise ValueError(f"audit: {', '.join(absent)} not found; the audit compares results/ with the "
                         f"committed figures and numbers: make them first (`snakemake`)")
    problems = compare_files_with_manifest(manifest_path)
    problems += rerender_and_compare(renderers, manifest_path)
    for path in numbers_files:
        module = importlib.import_module(f"ssi.experiments.{Path(path).stem}")
        problems += [f"{Path(path).name}: {p}" for p in
                     compare_numbers(clean_for_json(module.summarise(config)), load_numbers(path), rtol)]
    if problems:
        message = "audit failed:\n  " + "\n  ".join(problems)
    else:
        message = (f"audit passed: {len(read_manifest(manifest_path))} manifest entries match the files, "
                   f"{len(renderers)} figure sets re-rendered identically, "
                   f"{len(numbers_files)} numbers files within rtol {rtol:g}")
    if log:
        atomic_write_text(log, message + "\n")
    if problems:
        raise ValueError(message)
    return message


def _flatten(value, prefix=""):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _flatten(v, f"{prefix}.{k}" if prefix else str(k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _flatten(v, f"{prefix}[{i}]")
    else:
        yield prefix, value


def compare_numbers(recomputed: dict, committed: dict, rtol: float) -> list[str]:
    """Differences between two numbers records: numbers beyond ``rtol`` (relative), other values unequal."""
    a, b = dict(_flatten(recomputed)), dict(_flatten(committed))
    problems = [f"{k}: missing in one of the records" for k in sorted(set(a) ^ set(b))]
    for key in sorted(set(a) & set(b)):
        x, y = a[key], b[key]
        if isinstance(x, (int, float)) and isinstance(y, (int, float)) and not isinstance(x, bool):
            if x is None or y is None:
                continue
            both_nan = isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y)
            if not both_nan and not math.isclose(x, y, rel_tol=rtol, abs_tol=0.0):
                problems.append(f"{key}: {x!r} vs committed {y!r} (rtol {rtol:g})")
        elif x != y:
            problems.append(f"{key}: {x!r} vs committed {y!r}")
    return problems


def load_numbers(path) -> dict:
    return json.loads(Path(path).read_text())


def clean_for_json(value):
    """Replace nan/inf by None (strict JSON) recursively."""
    if isinstance(value, dict):
        return {k: clean_for_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clean_for_json(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
