"""Which of the package's source files a module depends on, read from its ``import`` statements.

Two things are keyed on exactly the code they depend on: the numba cache (:mod:`ssi.jit_cache`:
the modules compiled code is built from) and the provenance of a result or numbers file
(:mod:`ssi.provenance`: the modules the job that wrote it imports). Both take the package's
modules a module imports, directly or through other modules of the package, imports inside
functions included. Nothing is imported or run: the files are parsed.

Every process that imports ``ssi`` needs the graph (the numba cache key), and parsing the
modules costs about a tenth of a second, a sixth of ``import ssi``. So the imports read from each
file are kept in the package's cache folder (:func:`ssi.cache_folder.cache_root`,
``import-graph.json``), keyed by the file's path and the hash of its bytes, under a stamp that
covers this file and the list of the package's modules (what a file's imports are read
against): an edit anywhere gives a fresh parse, never a stale one.
"""
from __future__ import annotations

import ast
import functools
import hashlib
import json
import os
import re
import tempfile
from pathlib import Path

from .cache_folder import cache_root

#: the folder of the ``ssi`` package
PACKAGE = Path(__file__).resolve().parent
#: the file, in the package's cache folder, that keeps the imports read from each module
CACHE_FILE = "import-graph.json"


def module_file(name: str) -> Path | None:
    """The source file of the package module ``name`` (``"ssi.ode"``, ``"ssi.sgd"``), or None.

    Examples
    --------
    >>> module_file("ssi.ode").name
    'ode.py'
    """
    parts = name.split(".")
    if parts[0] != "ssi":
        return None
    path = PACKAGE.joinpath(*parts[1:])
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def module_name(path: Path) -> str:
    """The dotted name of a source file of the package (``.../ssi/sgd/__init__.py`` -> ``ssi.sgd``)."""
    parts = Path(path).resolve().relative_to(PACKAGE).with_suffix("").parts
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(("ssi", *parts))


@functools.lru_cache(maxsize=1)
def _cache_stamp() -> str:
    """Hash of this file and of the list of the package's modules."""
    modules = sorted(p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)
    return hashlib.sha256(Path(__file__).read_bytes() + "\n".join(modules).encode()).hexdigest()[:16]


def _read_cache(path: Path) -> dict[str, list[str]]:
    """The entries of the cache file at ``path`` made under the current stamp ({} if none)."""
    try:
        data = json.loads(path.read_text())
        return dict(data["entries"]) if data.get("stamp") == _cache_stamp() else {}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


@functools.lru_cache(maxsize=1)
def _cached_entries() -> dict[str, list[str]]:
    return _read_cache(cache_root() / CACHE_FILE)


def _store(key: str, imports: frozenset[str]) -> None:
    """Add one entry to the cache file (merged with what other processes wrote; atomic; skipped
    when the folder is not writable)."""
    entries = _cached_entries()
    entries[key] = sorted(imports)
    path = cache_root() / CACHE_FILE
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        merged = {**_read_cache(path), **entries}
        with tempfile.NamedTemporaryFile("w", dir=path.parent, prefix=f".{path.name}.", delete=False) as f:
            json.dump({"stamp": _cache_stamp(), "entries": merged}, f, sort_keys=True)
        os.replace(f.name, path)
    except OSError:
        pass


@functools.lru_cache(maxsize=None)
def _direct_imports(path: Path) -> frozenset[str]:
    source = path.read_bytes()
    key = f"{path.relative_to(PACKAGE).as_posix()}:{hashlib.sha256(source).hexdigest()[:16]}"
    cached = _cached_entries().get(key)
    if cached is not None:
        return frozenset(cached)
    imports = _parse_direct_imports(path, source)
    _store(key, imports)
    return imports


def _parse_direct_imports(path: Path, source: bytes) -> frozenset[str]:
    package = ("ssi", *path.relative_to(PACKAGE).parent.parts)
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            base = list(package[:len(package) - node.level + 1]) if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            if module.split(".")[0] != "ssi":
                continue
            submodules = {f"{module}.{a.name}" for a in node.names if module_file(f"{module}.{a.name}")}
            out |= submodules
            if len(submodules) < len(node.names):
                out.add(module)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.split(".")[0] == "ssi"}
    return frozenset(n for n in out if module_file(n) is not None)


def direct_imports(name: str) -> set[str]:
    """The package modules that module ``name`` imports itself, anywhere in its file (inside
    functions too); a package counts only when a name is taken from its ``__init__``."""
    path = module_file(name)
    return set() if path is None else set(_direct_imports(path))


#: an import statement of a Snakemake rule file (not Python as a whole): ``from a import (b,\n c)``
#: or ``import a``, possibly indented (inside a ``run:`` block)
_SMK_IMPORT = re.compile(r"^[ \t]*(from[ \t]+[\w.]+[ \t]+import[ \t]+(?:\([^)]*\)|[^\n]*)|import[ \t]+[^\n]*)",
                         re.MULTILINE)


def file_imports(path) -> set[str]:
    """The package modules that a file outside the package imports by absolute name: a workflow
    script (``.py``, parsed) or a Snakemake rule file (its ``import`` statements, parsed one by
    one); a package counts only when a name is taken from its ``__init__``.

    Examples
    --------
    >>> sorted(file_imports(PACKAGE.parents[1] / "workflow" / "scripts" / "positional_numbers.py"))
    ['ssi.experiments.audit', 'ssi.experiments.positional']
    """
    path = Path(path)
    text = path.read_text()
    if path.suffix == ".py":
        trees = [ast.parse(text)]
    else:
        trees = [ast.parse(m.group(1).strip()) for m in _SMK_IMPORT.finditer(text)]
    out = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and not node.level and node.module \
                    and node.module.split(".")[0] == "ssi":
                submodules = {f"{node.module}.{a.name}" for a in node.names
                              if module_file(f"{node.module}.{a.name}")}
                out |= submodules
                if len(submodules) < len(node.names):
                    out.add(node.module)
            elif isinstance(node, ast.Import):
                out |= {a.name for a in node.names if a.name.split(".")[0] == "ssi"}
    return {n for n in out if module_file(n) is not None}


def dependencies(names) -> dict[str, Path]:
    """Modules ``names`` and every package module they import, directly or not: name -> file.

    Parameters
    ----------
    names : iterable of str
        Dotted module names of the package.

    Returns
    -------
    dict
        Module name -> source file, in sorted order of names.
    """
    seen, todo = {}, list(names)
    while todo:
        name = todo.pop()
        path = module_file(name)
        if path is None or name in seen:
            continue
        seen[name] = path
        todo.extend(_direct_imports(path))
    return dict(sorted(seen.items()))
