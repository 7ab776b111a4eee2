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
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

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
