"""The manifest of figures, the claims table, and the audit that re-renders and compares."""
from __future__ import annotations

import json
import math
import multiprocessing
import tempfile
from concurrent.futures import ProcessPoolExecutor
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


#: the calls that :func:`_in_parallel` hands to forked workers (closures cannot be pickled)
_CALLS: list = []


def _call(i: int):
    return _CALLS[i]()


def _in_parallel(calls: list, workers: int) -> list:
    """``[c() for c in calls]``, in ``workers`` forked processes when more than one (each figure
    set renders in its own process, as the plot jobs do: same bytes)."""
    if workers <= 1 or len(calls) <= 1:
        return [c() for c in calls]
    _CALLS[:] = calls
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(min(workers, len(calls)), mp_context=context) as pool:
            return list(pool.map(_call, range(len(calls))))
    finally:
        _CALLS.clear()


def rerender_and_compare(renderers: dict, manifest_path, workers: int = 1) -> list[str]:
    """Re-render every figure into a temporary folder (``workers`` figure sets at a time);
    return the names whose hash differs."""
    expected = read_manifest(manifest_path)
    problems = []
    with tempfile.TemporaryDirectory(prefix="ssi-audit-") as tmp:
        _in_parallel([lambda render=render: render(tmp) for render in renderers.values()], workers)
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


def verify(manifest_path, expected=(), log=None) -> str:
    """The seconds-long check of the committed files (`snakemake verify`), no results needed.

    1. every file listed in the manifest is on disk with the listed hash
       (:func:`compare_files_with_manifest`, what ``sha256sum -c`` does in the manifest's folder);
    2. every file of ``expected`` (the figures and numbers files the config makes) is listed.

    Returns the success message; raises ValueError naming every file that fails. The message
    also goes to ``log``.
    """
    manifest_path = Path(manifest_path)
    if not manifest_path.is_file():
        raise ValueError(f"verify: {manifest_path} not found; it lists the committed figures and numbers "
                         f"with their SHA-256 (made by `snakemake manifest`)")
    listed = read_manifest(manifest_path)
    problems = compare_files_with_manifest(manifest_path)
    root = manifest_path.parent
    for path in expected:
        name = Path(path).relative_to(root).as_posix()
        if name not in listed:
            problems.append(f"{name}: made by the workflow but not listed in the manifest")
    if problems:
        message = f"verify failed against {manifest_path}:\n  " + "\n  ".join(problems)
    else:
        message = (f"verify passed: the {len(listed)} files of {manifest_path} are on disk with their "
                   f"SHA-256, and they include all {len(expected)} figures and numbers files of the config")
    if log:
        atomic_write_text(log, message + "\n")
    if problems:
        raise ValueError(message)
    return message


def numbers_section(config, name) -> dict:
    """The config a numbers file is computed from: its section, the seed and the engine."""
    return {"seed": config["seed"], "engine": config["engine"], name: config[name]}


def write_numbers(path, summary: dict, config, name) -> None:
    """Write a numbers file: ``summary`` (nan/inf as null) plus ``provenance``
    (:func:`ssi.provenance.committed_record` of :func:`numbers_section`), sorted JSON."""
    from ..provenance import committed_record

    record = {**clean_for_json(summary), "provenance": committed_record(numbers_section(config, name))}
    atomic_write_text(path, json.dumps(record, indent=2, sort_keys=True) + "\n")


def recorded_packages(paths) -> dict[str, dict[str, str]]:
    """{path: provenance["packages"]} of the JSON files (numbers or results) that record them."""
    out = {}
    for path in paths:
        path = Path(path)
        if path.suffix != ".json":
            path = path.with_suffix(".json")
        try:
            packages = json.loads(path.read_text()).get("provenance", {}).get("packages")
        except (OSError, ValueError):
            continue
        if packages:
            out[str(path)] = packages
    return out


def version_report(paths, installed=None) -> list[str]:
    """One line per package whose installed version differs from one recorded in ``paths``:
    ``numpy: installed 2.3.1, recorded 2.4.6 in 3 files (e.g. figures/numbers/c.json)``."""
    from ..provenance import package_versions

    recorded = recorded_packages(paths)
    names = sorted({n for packages in recorded.values() for n in packages})
    installed = package_versions(tuple(names)) if installed is None else installed
    lines = []
    for name in names:
        where = {}
        for path, packages in recorded.items():
            if name in packages and packages[name] != installed.get(name):
                where.setdefault(packages[name], []).append(path)
        for version, files in sorted(where.items(), key=lambda kv: str(kv[0])):
            lines.append(f"{name}: installed {installed.get(name)}, recorded {version} in {len(files)} "
                         f"file{'s' if len(files) > 1 else ''} (e.g. {files[0]})")
    return lines


def audit(config, renderers: dict, manifest_path, numbers_files, log=None, results=(), workers: int = 1) -> str:
    """The `snakemake audit` check; raises ValueError naming every file that fails.

    1. every file listed in the manifest is on disk with the listed hash;
    2. every figure re-rendered from results/ into a temporary folder has the listed hash;
    3. each numbers file equals the numbers recomputed from results/ within
       ``config["audit_rtol"]`` (relative; 0 on the machine that made them); its
       ``provenance`` record is not compared.

    When something differs, the message also names the packages whose installed version
    differs from the one recorded in the numbers files or in the ``results`` (their
    ``.json``), so the reader knows where to look.

    Re-rendering and recomputing run ``workers`` figure sets / numbers files at a time (forked
    processes). Returns the success message; the message or the failures also go to ``log``.
    """
    from . import registry

    rtol = config["audit_rtol"]
    absent = [str(f) for f in (manifest_path, *numbers_files) if not Path(f).is_file()]
    if absent:
        raise ValueError(f"audit: {', '.join(absent)} not found; the audit compares results/ with the "
                         f"committed figures and numbers: make them first (`snakemake`)")
    problems = compare_files_with_manifest(manifest_path)
    problems += rerender_and_compare(renderers, manifest_path, workers)

    def recompute(path):
        return clean_for_json(registry.get(Path(path).stem).function("summarise")(config))

    recomputed = _in_parallel([lambda path=path: recompute(path) for path in numbers_files], workers)
    for path, numbers in zip(numbers_files, recomputed):
        committed = load_numbers(path)
        committed.pop("provenance", None)
        problems += [f"{Path(path).name}: {p}" for p in compare_numbers(numbers, committed, rtol)]
    if problems:
        message = "audit failed:\n  " + "\n  ".join(problems)
        message += "\n" + versions_message([*numbers_files, *results])
    else:
        message = (f"audit passed: {len(read_manifest(manifest_path))} manifest entries match the files, "
                   f"{len(renderers)} figure sets re-rendered identically, "
                   f"{len(numbers_files)} numbers files within rtol {rtol:g}")
    if log:
        atomic_write_text(log, message + "\n")
    if problems:
        raise ValueError(message)
    return message


def versions_message(paths) -> str:
    """The part of a failed audit's message that compares installed and recorded versions."""
    lines = version_report(paths)
    if lines:
        return ("package versions differ from those recorded (install requirements/lock.txt, "
                "docs/reproducibility.md):\n  " + "\n  ".join(lines))
    return ("every recorded package version (numpy, numba, scipy, matplotlib, seaborn, snakemake) "
            "is the installed one: look at the code, the config, Python or the platform")


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
