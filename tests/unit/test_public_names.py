"""The package, the rules and the job scripts use numba and Snakemake through their public names
only: no ``numba.core`` (its registry, caching or event modules), no Snakemake internals
(``snakemake.io``, ``snakemake.iocontainers``, ``snakemake.script``, the rule and job objects), so
that an upgrade of either cannot break them unannounced.

It catches, for example, ``isinstance(f, numba.core.registry.CPUDispatcher)`` (the public test
is ``numba.extending.is_jitted``) or ``from snakemake.io import Wildcards``."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: the modules of numba and Snakemake that code here may import: their documented interfaces
PUBLIC = {"numba", "numba.extending", "numba.typed", "numba.types", "numba.config",
          "snakemake.utils", "snakemake.exceptions"}
#: an import of numba or Snakemake (``import x.y``, ``from x.y import z``), or a dotted use of numba
#: (``snakemake.input`` in a job script is the object Snakemake gives the script, not the package)
USE = re.compile(r"\b(?:from|import)\s+((?:numba|snakemake)(?:\.\w+)*)|(?<![\w.])(numba(?:\.\w+)+)")


def _files() -> list[Path]:
    files = [ROOT / "Snakefile", *sorted((ROOT / "src").rglob("*.py")), *sorted((ROOT / "workflow").rglob("*.py")),
             *sorted((ROOT / "workflow").rglob("*.smk"))]
    assert len(files) > 50
    return files


def _private(name: str) -> bool:
    module = name
    while module not in PUBLIC and "." in module:
        module = module.rsplit(".", 1)[0]
    # a public module's attribute (numba.config.X) is fine; a sub-module of it that is not listed is not
    return module not in PUBLIC or (name != module and name.split(".")[len(module.split("."))] in
                                    {"core", "np", "misc", "cpython", "io", "iocontainers", "script", "jobs", "dag",
                                     "rules", "workflow", "persistence"}) or any(p.startswith("_") for p in name.split(".")[1:])


def test_no_private_name_of_numba_or_snakemake():
    found = []
    for path in _files():
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#", 1)[0]
            for match in USE.finditer(code):
                name = match[1] or match[2]
                if _private(name):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {name}")
    assert not found, "\n".join(found)


def test_the_check_sees_a_private_name():
    """The names this test exists for are flagged; public ones are not."""
    assert _private("numba.core.registry.CPUDispatcher") and _private("snakemake.io")
    assert _private("snakemake.iocontainers") and _private("numba._helperlib")
    assert not _private("numba.extending") and not _private("numba.config.NUMBA_NUM_THREADS")
    assert not _private("numba") and not _private("snakemake.utils")
