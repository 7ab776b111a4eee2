"""The numba cache folder of the workflow's jobs (src/ssi/_jit_cache.py) is keyed by the sources
that compiled code can depend on: the modules that define jitted functions and what they import
from the package. It is set through numba's own ``NUMBA_CACHE_DIR``; a plain ``import ssi`` keeps
numba's default (next to the sources)."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from ssi import _jit_cache, source_graph

SRC = Path(_jit_cache.__file__).resolve().parent


def _name(path: Path) -> str:
    return ".".join(("ssi", *path.relative_to(SRC).with_suffix("").parts))


def test_every_module_with_jitted_code_is_keyed():
    """Every module of the package that defines a cached jitted function is in JITTED (and
    imported by ssi/__init__.py), except ssi.experiments.authors_phase.basis and
    authors_phase_rule, which import only keyed modules (numba's own stamp of their file covers
    their edits)."""
    init = (SRC / "__init__.py").read_text()
    imported = set()
    for line in init.splitlines():
        m = re.match(r"from \.(\w*)\s+import (\w+)", line)
        if m:
            imported.add(".".join(p for p in ("ssi", m[1], m[2]) if p))
    assert set(_jit_cache.JITTED) <= imported
    defining = {_name(p) for p in SRC.rglob("*.py") if re.search(r"^\s*@(numba\.)?n?jit\b", p.read_text(), re.M)}
    assert defining - set(_jit_cache.JITTED) == {"ssi.experiments.authors_phase.basis",
                                                 "ssi.experiments.authors_phase.rule"}
    for module in defining - set(_jit_cache.JITTED):
        keyed = {_name(p) for p in _jit_cache.source_files()} | defining
        assert source_graph.direct_imports(module) <= keyed, module


def test_key_covers_the_imports_of_the_kernels_and_nothing_downstream():
    """The key's files include each jitted module and the modules they import (problems, links,
    sgd.common ...), and none of the modules that only use compiled code (experiments, plotting,
    command line, I/O, the interrupt handling), so that editing those keeps the cache."""
    names = {_name(p) for p in _jit_cache.source_files()}
    assert set(_jit_cache.JITTED) | {"ssi.problems", "ssi.sgd.common", "ssi._jit_cache"} <= names
    for module in ("ssi.cli", "ssi.plotting", "ssi.io", "ssi._interrupt", "ssi.experiments.two_phases", "ssi",
                   "ssi.authors", "ssi.information_exponent", "ssi.hermite", "ssi.ode"):
        assert module not in names
    # a module's own imports of the package are all in the key (closure)
    for path in _jit_cache.source_files():
        for imported in source_graph.direct_imports(source_graph.module_name(path)):
            assert source_graph.module_file(imported) in _jit_cache.source_files(), (path, imported)
    assert _jit_cache.cache_dir().name == _jit_cache.source_hash()


#: the key of a copy of the package, computed without running its ``__init__`` (no numba compilation)
_HASH_PROBE = """
import sys, types
package = types.ModuleType("ssi")
package.__path__ = [sys.argv[1]]
sys.modules["ssi"] = package
from ssi import _jit_cache
print(_jit_cache.source_hash())
"""


def _key_after_edit(tmp_path, edit=None):
    """The cache key of a copy of the package, with ``edit`` = (file, old text, new text) applied."""
    copy = tmp_path / ("edited" if edit else "plain") / "ssi"
    shutil.copytree(SRC, copy, ignore=shutil.ignore_patterns("__pycache__"))
    if edit:
        path, old, new = copy / edit[0], edit[1], edit[2]
        text = path.read_text()
        assert old in text, (edit[0], old)
        path.write_text(text.replace(old, new, 1))
    out = subprocess.run([sys.executable, "-c", _HASH_PROBE, str(copy)], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_key_is_the_same_for_a_copy(tmp_path):
    """A copy of the same sources has the same key (paths inside the package and contents only)."""
    assert _key_after_edit(tmp_path) == _jit_cache.source_hash()


def test_editing_the_authors_adapter_or_the_sie_report_keeps_the_key(tmp_path):
    """ssi.authors (the authors' names and conventions) and ssi.information_exponent (the SIE report)
    run no compiled code: editing them keeps the compiled kernels."""
    for i, edit in enumerate([
            ("authors.py", "def learning_rate(", "# an edit\ndef learning_rate("),
            ("information_exponent.py", "def sie_report(", "# an edit\ndef sie_report(")]):
        assert _key_after_edit(tmp_path / str(i), edit) == _jit_cache.source_hash(), edit[0]


def test_editing_a_link_function_changes_the_key(tmp_path):
    """The per-sample links are inlined into every kernel: editing one (a target, the softmax, a
    student) gives a new key, and a clean compile."""
    for i, edit in enumerate([
            ("target_links.py", "return tparams[1] * s\n", "return tparams[1] * s * 1.0\n"),
            ("softmax.py", "def logistic(x):\n", "def logistic(x):  # an edit\n"),
            ("links.py", "def student_scalar(", "# an edit\ndef student_scalar(")]):
        assert _key_after_edit(tmp_path / str(i), edit) != _jit_cache.source_hash(), edit[0]


_PROBE = """
import json, numpy as np
from ssi import links
links.batch_target(0, np.zeros(4), np.zeros((3, 2)), 1)
d = links.batch_target
print(json.dumps({"hits": sum(d.stats.cache_hits.values()), "misses": sum(d.stats.cache_misses.values())}))
"""


def _probe(copy: Path, **env: str) -> dict:
    """Cache hits and misses of one kernel in a fresh process running the package copied at ``copy``."""
    env = {**{k: v for k, v in os.environ.items() if k != _jit_cache.NUMBA_CACHE_DIR},
           "PYTHONPATH": str(copy), **env}
    out = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, check=True,
                         cwd=copy.parent).stdout
    return json.loads(out.splitlines()[-1])


def _index_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("links.*.nbi"))


def test_jobs_cache_under_the_keyed_folder_and_import_alone_keeps_numbas_default(tmp_path, monkeypatch):
    """With job_environment() (what the Snakefile gives its jobs) a first process compiles a
    kernel into cache_dir() and a second loads it (a cache hit); without it, numba caches next
    to the sources (__pycache__) as it does for any package, and nothing is written under the
    package's cache folder."""
    shutil.copytree(SRC, tmp_path / "job" / "ssi", ignore=shutil.ignore_patterns("__pycache__"))
    root = tmp_path / "cache"
    env = {"SSI_NUMBA_CACHE": str(root)}
    monkeypatch.setenv("SSI_NUMBA_CACHE", str(root))
    keyed = _jit_cache.job_environment()
    assert keyed == {"NUMBA_CACHE_DIR": str(root / _jit_cache.source_hash())}
    first, second = _probe(tmp_path / "job", **env, **keyed), _probe(tmp_path / "job", **env, **keyed)
    assert (first["hits"], first["misses"]) == (0, 1), first
    assert (second["hits"], second["misses"]) == (1, 0), second
    assert _index_files(root / _jit_cache.source_hash())
    assert not _index_files(tmp_path / "job")

    shutil.copytree(SRC, tmp_path / "plain" / "ssi", ignore=shutil.ignore_patterns("__pycache__"))
    plain_root = tmp_path / "plain-cache"
    plain = _probe(tmp_path / "plain", SSI_NUMBA_CACHE=str(plain_root))
    assert (plain["hits"], plain["misses"]) == (0, 1), plain
    assert _index_files(tmp_path / "plain" / "ssi" / "__pycache__")
    assert not plain_root.exists()
