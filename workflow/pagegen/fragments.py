"""The function behind each ``<!-- gen:NAME ARG … -->`` span (NAME → text from committed files).

* ``run-time C``: wall time of the recorded run of config C ("config/quick.yaml");
* ``runs-table``: every recorded run and command (machine, commit, date);
* ``families C``: job-seconds per rule family of the recorded run of C;
* ``family-cost F [C]``: jobs and job-seconds of rule family F in the recorded run of C;
* ``command-time N``: wall time of the recorded command N (an audit level, the tests);
* ``engine-speed``, ``engines-table``, ``bound-table``: benchmarks/results/engines.json;
* ``registry``: the registry names of :mod:`ssi.problems`, one row per kind;
* ``finding``: the README's headline, from the verdict file (figures/VERDICTS.json);
* ``verdicts``: how many claim rows carry each verdict, from the verdict file;
* ``verdict-rule``: the decisiveness rule of :mod:`ssi.verdicts` in words;
* ``authors-phase-tables``: the tables of docs/results/authors-phase.md;
* ``tied-untied-table NAME``: the tables (fits, escapes, attention, null) of docs/results/tied_untied.md;
* ``escape-vs-d-table NAME``: the tables and cost (fits, decades, escapes, explicit, cost) of docs/results/escape_vs_d.md;
* ``positional-table NAME``: the tables (landscape, fits, escapes, speedup) of docs/results/positional.md;
* ``semantic-positional-table NAME``: the tables and sentences of docs/results/semantic_positional.md;
* ``authors-phase-table NAME``: the quadrature table and the counts of the prose of docs/results/authors-phase.md.
"""
from __future__ import annotations

import importlib
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from ssi.experiments import registry
from . import sources, timings

FRAGMENTS: dict[str, Callable[..., str]] = {}


def fragment(name: str):
    """Register the decorated function as the text of ``<!-- gen:name … -->``."""
    def register(function):
        FRAGMENTS[name] = function
        return function
    return register


def render(root: Path, name: str, args: list[str]) -> str:
    """The text of the span ``<!-- gen:name args -->`` of a page of the repository at ``root``."""
    if name not in FRAGMENTS:
        raise ValueError(f"unknown generated span gen:{name}; known: {', '.join(sorted(FRAGMENTS))}")
    return FRAGMENTS[name](root, *args)


@fragment("run-time")
def _run_time(root, configfile):
    return timings.run_time(root, configfile)


@fragment("runs-table")
def _runs_table(root):
    return timings.runs_table(root)


@fragment("families")
def _families(root, configfile):
    return timings.families_table(root, configfile)


@fragment("family-cost")
def _family_cost(root, family, configfile="config/config.yaml"):
    return timings.family_seconds(root, configfile, family)


@fragment("command-time")
def _command_time(root, name):
    return timings.command_time(root, name)


@fragment("engine-speed")
def _engine_speed(root):
    return timings.engine_speed(root)


@fragment("engines-table")
def _engines_table(root):
    return timings.engines_table(root)


@fragment("bound-table")
def _bound_table(root):
    return timings.bound_table(root)


@fragment("registry")
def registry_table(root=None) -> str:
    """Every registry name of :mod:`ssi.problems` by kind (``python -m ssi list`` gives the descriptions)."""
    from ssi import problems

    kinds = {"targets (`--target`)": problems.TARGETS, "students (`--student`)": problems.STUDENTS,
             "positional encodings (`--pe`)": problems.POSITIONAL_ENCODINGS,
             "reductions (`--reduction`)": problems.REDUCTIONS, "activations (`--activation`)": problems.ACTIVATIONS}
    lines = ["| kind | names |", "|---|---|"]
    for kind, names in kinds.items():
        lines.append(f"| {kind} | " + ", ".join(f"`{n}`" for n in names) + " |")
    return "\n".join(lines)


@fragment("verdicts")
def _verdicts(root):
    """How many rows of the paper config's verdict file carry each verdict."""
    content = sources.verdicts(root)
    counts = Counter(row["verdict"] for row in content["rows"])
    parts = [f"{counts[verdict]} {verdict}" for verdict in content["verdicts"] if counts[verdict]]
    return f"{sum(counts.values())} rows: " + ", ".join(parts)


@fragment("verdict-rule")
def _verdict_rule(root):
    """The decisiveness rule of :mod:`ssi.verdicts`, in words (its numbers from the module)."""
    from ssi import verdicts

    return verdicts.RULE


@fragment("finding")
def _finding(root):
    """The README's headline (≤ 60 words) from the paper config's verdict file (ssi.verdicts.headline)."""
    from ssi import verdicts

    return verdicts.headline(sources.verdicts(root))


@fragment("authors-phase-tables")
def _authors_phase_tables(root):
    from ssi.experiments import authors_phase

    path = root / sources.config(root, sources.PAPER_CONFIG)["figures_dir"] / "numbers" / "authors_phase.json"
    return authors_phase.markdown_tables(json.loads(path.read_text(encoding="utf-8")))


def _register_page_table(span: str, result: str) -> None:
    def page_table(root, name):
        tables = registry.get(result).table_functions()
        if name not in tables:
            raise ValueError(f"unknown table gen:{span} {name}; known: {', '.join(tables)}")
        path = root / sources.config(root, sources.PAPER_CONFIG)["figures_dir"] / "numbers" / f"{result}.json"
        return tables[name](json.loads(path.read_text(encoding="utf-8")))

    FRAGMENTS[span] = page_table


# the generated tables of the result pages whose tables module writes Markdown (``TABLES``): span
# "<result, dashed>-table" (a module with ``context`` instead is laid out by a template: pages.py)
for _result in registry.results("paper"):
    if _result.tables and hasattr(importlib.import_module(f"ssi.experiments.{_result.tables}"), "TABLES"):
        _register_page_table(_result.name.replace("_", "-") + "-table", _result.name)
