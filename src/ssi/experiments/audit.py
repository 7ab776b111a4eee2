"""The manifest of figures, the claims table, and the audit that re-renders and compares."""
from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path

from ..io import atomic_write_text, sha256_file

MANIFEST = "MANIFEST.sha256"


def write_manifest(files, figures_dir, out_path) -> None:
    """``sha256  relative/path`` lines for ``files`` (paths relative to ``figures_dir``), sorted."""
    root = Path(figures_dir)
    lines = sorted(f"{sha256_file(f)}  {Path(f).relative_to(root).as_posix()}" for f in files)
    atomic_write_text(out_path, "\n".join(lines) + "\n")


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
