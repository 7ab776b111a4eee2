"""The import graph of the package (ssi.source_graph) and its cache file.

* the cached imports of every module equal a fresh parse of its file;
* a second process reads them from the cache file without parsing any module;
* an entry is used only for the bytes it was read from (an edited module is parsed again), and
  a cache file made under another stamp (another version of source_graph.py or another list of
  modules) is ignored;
* an unwritable cache folder only costs the parse.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import pytest

from ssi import source_graph

MODULES = sorted(p for p in source_graph.PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """source_graph with an empty cache folder and its in-process caches cleared."""
    monkeypatch.setenv("SSI_NUMBA_CACHE", str(tmp_path))
    for cached in (source_graph._direct_imports, source_graph._cached_entries, source_graph._cache_stamp):
        cached.cache_clear()
    yield tmp_path
    for cached in (source_graph._direct_imports, source_graph._cached_entries, source_graph._cache_stamp):
        cached.cache_clear()


def test_cached_imports_equal_a_fresh_parse(fresh):
    for path in MODULES:
        assert source_graph._direct_imports(path) == source_graph._parse_direct_imports(path, path.read_bytes()), path
    data = json.loads((fresh / source_graph.CACHE_FILE).read_text())
    assert data["stamp"] == source_graph._cache_stamp() and len(data["entries"]) == len(MODULES)


def test_another_process_reads_the_cache_without_parsing(fresh):
    for path in MODULES:
        source_graph._direct_imports(path)
    code = ("import ast, sys\n"
            "from ssi import source_graph\n"
            "def refuse(*args, **kwargs):\n"
            "    raise SystemExit('parsed a module')\n"
            "ast.parse = refuse\n"
            "print(len(source_graph.dependencies(['ssi.sgd.reduced', 'ssi.experiments.escape_vs_d'])))\n")
    env = {**os.environ, "SSI_NUMBA_CACHE": str(fresh), "PYTHONPATH": str(source_graph.PACKAGE.parent)}
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert int(proc.stdout) > 10


def plant(folder, stamp, entries):
    (folder / source_graph.CACHE_FILE).write_text(json.dumps({"stamp": stamp, "entries": entries}))


def key(path, source: bytes) -> str:
    return f"{path.relative_to(source_graph.PACKAGE).as_posix()}:{hashlib.sha256(source).hexdigest()[:16]}"


def test_an_entry_is_used_only_for_the_bytes_it_was_read_from(fresh):
    path = source_graph.module_file("ssi.ode")
    plant(fresh, source_graph._cache_stamp(), {key(path, path.read_bytes() + b"# edited"): ["ssi.cli"]})
    assert "ssi.cli" not in source_graph._direct_imports(path)
    source_graph._direct_imports.cache_clear()
    source_graph._cached_entries.cache_clear()
    plant(fresh, source_graph._cache_stamp(), {key(path, path.read_bytes()): ["ssi.cli"]})
    assert source_graph._direct_imports(path) == {"ssi.cli"}     # the entry for these bytes is used as is


def test_a_cache_file_of_another_stamp_is_ignored(fresh):
    path = source_graph.module_file("ssi.ode")
    plant(fresh, "another", {key(path, path.read_bytes()): ["ssi.cli"]})
    assert "ssi.cli" not in source_graph._direct_imports(path)
    assert source_graph._direct_imports(path) == source_graph._parse_direct_imports(path, path.read_bytes())


def test_an_unwritable_cache_folder_only_costs_the_parse(monkeypatch, fresh):
    blocked = fresh / "file"
    blocked.write_text("")
    monkeypatch.setenv("SSI_NUMBA_CACHE", str(blocked / "below"))
    path = source_graph.module_file("ssi.ode")
    assert source_graph._direct_imports(path) == source_graph._parse_direct_imports(path, path.read_bytes())
