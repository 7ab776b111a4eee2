"""The function behind each ``<!-- gen:NAME ARG … -->`` span (NAME → text from committed files).

* ``run-time C``: wall time of the recorded run of config C ("config/quick.yaml");
* ``runs-table``: every recorded run and command (machine, commit, date);
* ``families C``: job-seconds per rule family of the recorded run of C;
* ``family-cost F [C]``: jobs and job-seconds of rule family F in the recorded run of C;
* ``command-time N``: wall time of the recorded command N (an audit level, the tests);
* ``engine-speed``, ``engines-table``, ``bound-table``: benchmarks/results/engines.json;
* ``registry``: the registry names of :mod:`ssi.problems`, one row per kind;
* ``finding``: the README's first finding, from the numbers files;
* ``verdicts``: how many claim rows carry each verdict;
* ``authors-phase-tables``: the tables of docs/results/authors-phase.md.
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from . import sources, timings
from .sources import authors_numbers, claim_rows

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
    from .. import problems

    kinds = {"targets (`--target`)": problems.TARGETS, "students (`--student`)": problems.STUDENTS,
             "positional encodings (`--pe`)": problems.POSITIONAL_ENCODINGS,
             "reductions (`--reduction`)": problems.REDUCTIONS, "activations (`--activation`)": problems.ACTIVATIONS}
    lines = ["| kind | names |", "|---|---|"]
    for kind, names in kinds.items():
        lines.append(f"| {kind} | " + ", ".join(f"`{n}`" for n in names) + " |")
    return "\n".join(lines)


@fragment("verdicts")
def _verdicts(root):
    from ..experiments.claim_text import VERDICTS

    counts = Counter(row["verdict"] for row in claim_rows(root))
    total = sum(counts.values())
    parts = [f"{counts[verdict]} {verdict}" for verdict in VERDICTS if counts[verdict]]
    return f"{total} rows: " + ", ".join(parts)


@fragment("finding")
def _finding(root):
    """The C4 surprise in one sentence: the gain at SIE 2 under the authors' protocol and the candidates."""
    rows = {row["claim"]: row for row in claim_rows(root)}
    numbers = authors_numbers(root)
    gain = numbers.get("gains", {}).get("square_sequencelength_plain/square_sequencelength_tied")
    cand = numbers.get("candidates", {}).get("gains", {}).get("i_untied_over_attention")
    ours = rows.get("C4 tied vs untied, SIE 2")
    if not (gain and cand and ours):
        return "the C4 comparison at SIE 2 has not been run"
    ours = ours["headline"].replace("gain ∝ ", "").split(" (d = ")[0]
    return (f"under the authors' own protocol (tied η scaled by √L) the gain T_untied/T_tied grows as "
            f"L^{gain['exponent']:.2f} [{gain['low']:.2f}, {gain['high']:.2f}] (ODE L^{gain['ode_exponent']:.2f}), and as "
            f"L^{cand['exponent_sgd']:.2f} [{cand['low']:.2f}, {cand['high']:.2f}] only for untied against attention, "
            f"each at its best η; with the paper's conventions, {ours}")


@fragment("authors-phase-tables")
def _authors_phase_tables(root):
    from ..experiments import authors_phase

    path = root / sources.config(root, sources.PAPER_CONFIG)["figures_dir"] / "numbers" / "authors_phase.json"
    return authors_phase.markdown_tables(json.loads(path.read_text(encoding="utf-8")))
