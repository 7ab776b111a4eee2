"""The benchmark files that the documentation quotes, read and put in words.

``benchmarks/results/workflow.json`` (written by benchmarks/workflow.py) and
``benchmarks/results/engines.json`` (written by benchmarks/engines.py); either may be absent, and
so may any entry: the words then say "not measured".
"""
from __future__ import annotations

import json
import math
from pathlib import Path

from ssi.experiments import preflight

#: the measured runs and commands (the same file the workflow's messages read)
WORKFLOW = preflight.TIMINGS
ENGINES = Path("benchmarks") / "results" / "engines.json"
NOT_MEASURED = "time not measured"


def load(root: Path, relative: Path) -> dict:
    """The JSON file ``root/relative``, or {} when it does not exist."""
    path = root / relative
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


#: seconds in words ("45 s", "12 min", "2.5 h"): the one rule, shared with the workflow's messages
duration = preflight.duration


def run_entry(root: Path, configfile: str) -> dict | None:
    """The recorded run of ``configfile`` (e.g. "config/quick.yaml"), or None (read as the
    workflow's messages read it: :func:`ssi.experiments.preflight.read_timings`)."""
    return preflight.read_timings(configfile, root)


def run_time(root: Path, configfile: str) -> str:
    """"about 20 min on 2 cores, cold numba cache" for a recorded run, else "time not measured"."""
    entry = run_entry(root, configfile)
    if not entry:
        return NOT_MEASURED
    shared = ", on a machine shared with other work" if entry.get("loaded") else ""
    return f"about {duration(entry['wall_seconds'])} on {entry['cores']} cores, {entry['numba_cache']} numba cache{shared}"


def command_time(root: Path, name: str) -> str:
    """"about 4 s" for a recorded command (benchmarks/workflow.py command NAME), else "time not measured"."""
    entry = read_command_timing(name, root)
    if not entry:
        return NOT_MEASURED
    return f"about {duration(entry['seconds'])}" + (" (shared machine)" if entry.get("loaded") else "")


def family_seconds(root: Path, configfile: str, family: str) -> str:
    """"35 jobs, 212 job-seconds" of one rule family in the recorded run, else "not measured"."""
    entry = run_entry(root, configfile)
    fam = (entry or {}).get("families", {}).get(family)
    if not fam:
        return "cost not measured"
    return (f"{fam['jobs']} jobs, {fam['job_seconds']:.0f} job-seconds in the recorded run of {configfile} "
            f"({_where(entry)})")


def _where(entry: dict) -> str:
    return (f"{entry['cores']} cores, {entry['numba_cache']} numba cache, commit {entry['commit']}, {entry['date']}"
            + (f"; {entry['note']}" if entry.get("note") else ""))


def runs_table(root: Path) -> str:
    """One row per recorded config run: wall time, jobs, job-seconds, cache, machine, commit, date."""
    configs = load(root, WORKFLOW).get("configs", {})
    if not configs:
        return "No run recorded yet (`python benchmarks/workflow.py run --configfile config/quick.yaml`)."
    lines = ["| config | wall | cores | jobs | job-seconds | numba cache | machine | commit | date | note |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for configfile, e in sorted(configs.items()):
        lines.append(f"| `{configfile}` | {duration(e['wall_seconds'])} | {e['cores']} | {e['jobs']} | "
                     f"{e.get('job_seconds', sum(f['job_seconds'] for f in e['families'].values())):.0f} | "
                     f"{e['numba_cache']} | {e['machine']} | {e['commit']} | {e['date']} | {e.get('note', '')} |")
    commands = load(root, WORKFLOW).get("commands", {})
    if commands:
        lines += ["", "| command | wall | exit | commit | date | note |", "|---|---|---|---|---|---|"]
        for name, e in sorted(commands.items()):
            lines.append(f"| {name}: `{e['command']}` | {duration(e['wall_seconds'])} | {e['exit_code']} | "
                         f"{e['commit']} | {e['date']} | {e.get('note', '')} |")
    return "\n".join(lines)


def families_table(root: Path, configfile: str) -> str:
    """Job-seconds per rule family of one recorded run, largest first, with their share."""
    entry = run_entry(root, configfile)
    if not entry:
        return f"`{configfile}`: {NOT_MEASURED}."
    total = sum(f["job_seconds"] for f in entry["families"].values()) or 1.0
    lines = [f"`{configfile}` ({_where(entry)}):", "",
             "| rule family (workflow/rules/) | jobs | job-seconds | share |", "|---|---|---|---|"]
    for name, f in sorted(entry["families"].items(), key=lambda kv: -kv[1]["job_seconds"]):
        lines.append(f"| {name} | {f['jobs']} | {f['job_seconds']:.0f} | {100 * f['job_seconds'] / total:.0f} % |")
    return "\n".join(lines)


def _rate(x: float) -> str:
    if 1e3 <= x < 1e4:
        return f"{x:,.0f}"
    if x >= 1e4:
        mantissa, exponent = f"{x:.1e}".split("e")
        return f"{mantissa}·10{_superscript(int(exponent))}"
    return f"{x:.3g}"


def _superscript(k: int) -> str:
    return str(k).translate(str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"))


def engine_speed(root: Path) -> str:
    """The reduced engine's rate for L = 2 attention and its ratio to the authors' method, in words."""
    data = load(root, ENGINES)
    rows = [r for r in data.get("rows", []) if r["problem"].startswith("L=2 attention")]
    if not rows:
        return "engine speed not measured (`python benchmarks/engines.py`)"
    low, high = min(r["reduced"] for r in rows), max(r["reduced"] for r in rows)
    dims = sorted({r["d"] for r in rows})
    where = "at any d" if len(dims) > 1 else f"at d = 10{_superscript(len(str(dims[0])) - 1)}"
    text = f"reduced engine, L = 2 attention: {_rate(low)}–{_rate(high)} steps/s on one core {where}"
    authors = [r for r in rows if "torch" in r.get("authors_method", "")]
    if authors:
        by_d = {}
        for r in authors:
            by_d[r["d"]] = min(by_d.get(r["d"], float("inf")), r["reduced_vs_authors"])
        text += ("; ≥ " + ", ".join(f"{v:,.0f}×" for _, v in sorted(by_d.items()))
                 + " the authors' autograd loop at d = "
                 + ", ".join(f"10{_superscript(len(str(d)) - 1)}" for d in sorted(by_d)))
    else:
        text += " (the authors' autograd loop not measured: no torch)"
    return text


def engines_table(root: Path) -> str:
    """Section 1 of benchmarks/engines.py: steps/s per engine and problem, and the ratios."""
    data = load(root, ENGINES)
    if not data.get("rows"):
        return "Not measured yet (`python benchmarks/engines.py`)."
    lines = [f"{data['machine']['platform']}, numpy {data['machine']['numpy']}, numba {data['machine']['numba']}, "
             f"torch {data['machine'].get('torch') or 'not installed'}; commit {data.get('commit', 'unknown')}, "
             f"{data.get('date', '')}{' (--quick)' if data.get('quick') else ''}.", "",
             "| problem | d | authors' method (steps/s) | explicit | reduced | reduced / authors |",
             "|---|---|---|---|---|---|"]
    for r in data["rows"]:
        lines.append(f"| {r['problem']} | {r['d']} | {_rate(r['authors'])} ({r['authors_method']}) | "
                     f"{_rate(r['explicit'])} | {_rate(r['reduced'])} | {r['reduced_vs_authors']:,.0f} |")
    return "\n".join(lines)


def bound_table(root: Path) -> str:
    """Section 2 of benchmarks/engines.py: the reduced step's random-number bound and how near it
    runs, at the rates of the kernels' generator and (when measured) of numba's per-draw one; and
    section 3: wall time against steps × replicates, d and threads."""
    data = load(root, ENGINES)
    if not data.get("limits"):
        return "Not measured yet (`python benchmarks/engines.py`)."
    rates = data["rates"]
    numba = "numba_normal_per_s" in rates
    lines = [f"Measured in a compiled loop: {_rate(rates['normal_per_s'])} normals/s, "
             f"{_rate(rates['gamma_per_s'])} χ² draws/s (the kernels' generator, ssi.random_streams)"
             + (f"; numba's per-draw generator {_rate(rates['numba_normal_per_s'])} normals/s, "
                f"{_rate(rates['numba_gamma_per_s'])} χ² draws/s" if numba else "")
             + f"; {_rate(rates['exp_per_s'])} exp/s.", "",
             "| problem | normals, χ² draws, exps per step | bound (steps/s) |"
             + (" bound at numba's per-draw rates |" if numba else "") + " reduced engine | share of the bound |",
             "|---|---|---|" + ("---|" if numba else "") + "---|---|"]
    for r in data["limits"]:
        lines.append(f"| {r['problem']} | {r['normals']}, {r['gammas']:.3g}, {r['exps']} | {_rate(r['limit_steps_per_s'])} | "
                     + (f"{_rate(r['limit_numba_steps_per_s'])} | " if numba else "")
                     + f"{_rate(r['reduced'])} | {100 * r['fraction']:.0f} % |")
    if data.get("scaling"):
        lines += ["", "Wall time of the reduced engine (L=2 attention, identity reduction) against steps × "
                  "replicates, d and threads (`benchmarks/engines.py`, section 3):", "",
                  "| steps | replicates | d | threads | seconds | ns per step and replicate |", "|---|---|---|---|---|---|"]
        for r in data["scaling"]:
            lines.append(f"| {r['steps']} | {r['replicates']} | {r['d']} | {r['threads']} | {r['seconds']:.3f} | "
                         f"{1e9 * r['seconds'] / (r['steps'] * r['replicates']):.0f} |")
    return "\n".join(lines)


def read_command_timing(name: str, root=".") -> dict | None:
    """The measured command ``name`` (e.g. ``verify``) in ``benchmarks/results/workflow.json``
    (``benchmarks/workflow.py command NAME -- …``), with ``seconds`` added, or None when absent."""
    try:
        entry = json.loads((Path(root) / WORKFLOW).read_text())["commands"][name]
        seconds = float(entry["wall_seconds"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return {**entry, "seconds": seconds} if math.isfinite(seconds) and seconds > 0 else None


def _measured(seconds: float, entry: dict, source: Path) -> str:
    where = ", ".join(str(entry[k]) for k in ("date", "machine") if entry.get(k))
    cores = f" on {entry['cores']} core{'s' if entry['cores'] != 1 else ''}" if isinstance(entry.get("cores"), int) else ""
    cache = f", {entry['numba_cache']} numba cache" if entry.get("numba_cache") in ("cold", "warm") else ""
    return f"{duration(seconds)}{cores}{cache} ({source.as_posix()}{': ' + where if where else ''})"


def times_table(root=".") -> str:
    """The table of docs/workflow.md: each documented run and audit level, its command and its
    measured time (``time not measured`` where the timings files do not have it)."""
    def run(configfile):
        entry = run_entry(root, configfile)
        return _measured(float(entry["wall_seconds"]), entry, WORKFLOW) if entry else NOT_MEASURED

    def check(name):
        entry = read_command_timing(name, root)
        return _measured(entry["seconds"], entry, WORKFLOW) if entry else NOT_MEASURED

    rows = [
        ("toy run (config/quick.yaml)", "snakemake --cores all --configfile config/quick.yaml", run("config/quick.yaml")),
        ("paper run (config/config.yaml)", "snakemake --cores all", run(preflight.DEFAULT_CONFIG)),
        ("the authors' experiments (config/authors.yaml)", "snakemake --cores all --configfile config/authors.yaml",
         run("config/authors.yaml")),
        ("audit (a): committed files against their manifest", "snakemake verify --cores 1",
         check("verify")),
        ("audit (b): a sample of results recomputed from nothing",
         "snakemake audit_compute --cores all --config audit_n=4 audit_seed=1",
         check("audit_compute")),
        ("audit (c): after the paper run, figures re-rendered and numbers recomputed", "snakemake audit --cores 1",
         check("audit")),
    ]
    lines = ["| what | command | time |", "|---|---|---|"]
    lines += [f"| {what} | `{command}` | {time} |" for what, command, time in rows]
    return "\n".join(lines) + "\n"
