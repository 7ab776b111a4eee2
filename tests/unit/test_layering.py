"""The package's modules are layered: no import cycle, no private name taken from another module
(docs/design.md, "Module map"). Modules are split by idea, not by a line count.

The import graph is read from the sources with :mod:`ssi.source_graph`, imports inside functions
included. What remains in ``ssi.experiments`` is listed in the named exception sets below, and
each exception is asserted to be still needed, so that a list cannot go stale.
"""
from __future__ import annotations

import ast
from pathlib import Path

from ssi import source_graph

SRC = source_graph.PACKAGE

#: import cycles still present (each a frozenset of the modules of one strongly connected component)
KNOWN_CYCLES: set[frozenset[str]] = set()
#: private names still imported across modules: (importing module, "module.name")
KNOWN_PRIVATE: set[tuple[str, str]] = set()


def _modules() -> dict[str, Path]:
    return {source_graph.module_name(p): p for p in sorted(SRC.rglob("*.py")) if "__pycache__" not in p.parts}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: source_graph.direct_imports(name) & set(modules) for name in modules}


def _cycles(graph) -> set[frozenset]:
    """The strongly connected components of more than one module, or of one module importing itself
    (Tarjan's algorithm)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), set()

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph[v]:
                out.add(frozenset(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _private_imports(module: str, path: Path) -> set[tuple[str, str]]:
    """Private names (leading underscore, not a module of the package) that ``module`` takes from
    another module of the package: ``from m import _x`` or ``m._x`` with ``m`` an imported module."""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    out, aliases = set(), {}
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            source = ".".join(base + ([node.module] if node.module else []))
            if source.split(".")[0] != "ssi":
                continue
            for alias in node.names:
                full = f"{source}.{alias.name}"
                if source_graph.module_file(full) is not None:
                    aliases[alias.asname or alias.name] = full
                elif _private(alias.name):
                    out.add((module, full))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "ssi" and alias.asname:
                    aliases[alias.asname] = alias.name
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
                and _private(node.attr) and source_graph.module_file(f"{aliases[node.value.id]}.{node.attr}") is None):
            out.add((module, f"{aliases[node.value.id]}.{node.attr}"))
    return {(m, n) for m, n in out if n.rsplit(".", 1)[0] != m}


def test_no_import_cycle():
    """No module of the package imports itself back through other modules, imports inside functions
    included (the known cycles of ssi.experiments aside, each still present)."""
    cycles = _cycles(_graph())
    assert cycles - KNOWN_CYCLES == set(), "import cycles: " + "; ".join(
        " <-> ".join(sorted(c)) for c in cycles - KNOWN_CYCLES)
    assert KNOWN_CYCLES - cycles == set(), "no longer cycles, drop them from KNOWN_CYCLES"


def test_no_private_name_across_modules():
    """No module takes a private name (``_x``) from another module of the package (the known ones of
    ssi.experiments aside, each still present)."""
    found = set()
    for module, path in _modules().items():
        found |= _private_imports(module, path)
    assert found - KNOWN_PRIVATE == set(), f"private names imported across modules: {sorted(found - KNOWN_PRIVATE)}"
    assert KNOWN_PRIVATE - found == set(), "no longer imported, drop them from KNOWN_PRIVATE"


def test_exceptions_are_only_in_the_experiments():
    """The exception sets name modules of ssi.experiments only: the core has none."""
    named = set().union(*KNOWN_CYCLES) | {m for m, _ in KNOWN_PRIVATE}
    assert all(name.startswith("ssi.experiments.") for name in named), named


def test_the_checks_see_a_cycle_and_a_private_import(tmp_path):
    """The cycle finder and the private-name reader catch what they look for."""
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == {frozenset("abc")}
    assert _cycles({"a": {"b"}, "b": set()}) == set()
    path = SRC / "sgd" / "reduced.py"
    fake = tmp_path / "probe.py"
    fake.write_text("from .common import _is_int\nfrom .. import links\nx = links._private_thing\n")
    found = _private_imports("ssi.sgd.reduced", fake)
    assert found == {("ssi.sgd.reduced", "ssi.sgd.common._is_int"), ("ssi.sgd.reduced", "ssi.links._private_thing")}
    assert path.is_file()


TESTS = Path(__file__).resolve().parents[1]


def _imported_modules(path: Path) -> set[str]:
    """The top-level names of every module ``path`` imports (inside functions included)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_no_test_file_imports_another():
    """Tests share code through tests/support (helpers) and tests/conftest.py (fixtures) only:
    no test module, conftest or support module imports a test module."""
    test_modules = {p.stem for p in TESTS.rglob("test_*.py")} | {"conftest"}
    assert len(test_modules) > 30, f"only {len(test_modules)} test modules found under {TESTS}"
    offenders = {p.relative_to(TESTS).as_posix(): sorted(_imported_modules(p) & test_modules)
                 for p in sorted(TESTS.rglob("*.py")) if "__pycache__" not in p.parts}
    assert not {k: v for k, v in offenders.items() if v}


def test_tests_mirror_the_code():
    """tests/unit holds the package's module tests, tests/experiments the claims' experiments,
    tests/workflow the pipeline and the repository; no test module lies loose in tests/, and the
    names are unique (pytest imports them by base name)."""
    loose = sorted(p.name for p in TESTS.glob("test_*.py"))
    assert not loose, f"test modules outside tests/unit, tests/experiments, tests/workflow: {loose}"
    stems = [p.stem for p in TESTS.rglob("test_*.py")]
    assert len(stems) == len(set(stems))
    for folder in ("unit", "experiments", "workflow"):
        assert any((TESTS / folder).rglob("test_*.py")), folder
