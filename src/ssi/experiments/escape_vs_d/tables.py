"""The tables of docs/results/escape_vs_d.md, from the numbers file of claim C1.

Each function takes the parsed ``figures/numbers/escape_vs_d.json`` and returns markdown;
``snakemake pages`` renders them into the page (``<!-- gen:escape-vs-d-table NAME -->``).
"""
from __future__ import annotations

import math

from ...escape import Escape
from ..page_text import steps_text
from ..claim_text import interval, num, power_of_ten, signed, span

#: the claimed laws of the numbers file as d^p (log d)^b: (p, b)
LAW_POWERS = {"d": (1, 0), "d log² d": (1, 2), "d^2": (2, 0), "d^3": (3, 0)}


def _level(numbers, level: str) -> str:
    """The escape level of a fit or comparison ("early" or "macro") as the page writes it."""
    if level == "early":
        return Escape(numbers["early_multiple"], per_sqrt_d=True).level_text()
    return Escape(numbers["macro_level"]).level_text()


def fits_table(numbers) -> str:
    """Per SIE and level: the SGD exponent of the escape steps in d with its 95 % bootstrap
    interval, the ODE's on the same d and on its whole range, the predicted slope and the claimed
    law's local slope on the same d."""
    lines = ["| SIE | SGD d | level | SGD exponent [95 %] | ODE, same d | ODE d | ODE, its d | predicted | "
             "claimed law (local slope) |", "|---|---|---|---|---|---|---|---|---|"]
    for f in numbers["fits"]:
        lines.append(f"| {f['sie']} | {span(f['dims'])} | {_level(numbers, f['level'])} | "
                     f"{interval(f['exponent_sgd'], f['exponent_sgd_low'], f['exponent_sgd_high'])} | "
                     f"{num(f['exponent_ode_same_range'])} | {span(f['ode_dims'])} | {num(f['exponent_ode_all'])} | "
                     f"{num(f['exponent_predicted_same_range'])} | {f['claimed_law']} "
                     f"({num(f['exponent_claimed_same_range'])}) |")
    return "\n".join(lines)


def law_slope(law: str, d1: float, d2: float) -> float:
    """The log-log slope of the law d^p (log d)^b between d1 and d2."""
    p, b = LAW_POWERS[law]
    return p + b * math.log(math.log(d2) / math.log(d1)) / math.log(d2 / d1)


def decades_table(numbers) -> str:
    """Per SIE, at the macroscopic level: the ODE's slope over each decade of its d (between
    consecutive powers of ten) against the claimed law's slope over the same decade."""
    lines = ["| SIE | decade of d | ODE slope | claimed law's slope |", "|---|---|---|---|"]
    for f in numbers["fits"]:
        if f["level"] != "macro":
            continue
        steps = dict(zip(f["ode_dims"], f["ode_steps"]))
        decades = sorted(d for d in steps if power_of_ten(d).startswith("10") and power_of_ten(d) != str(d))
        for d1, d2 in zip(decades, decades[1:]):
            slope = math.log(steps[d2] / steps[d1]) / math.log(d2 / d1)
            lines.append(f"| {f['sie']} | {power_of_ten(d1)}–{power_of_ten(d2)} | {slope:.3f} | "
                         f"{law_slope(f['claimed_law'], d1, d2):.3f} |")
    return "\n".join(lines)


def escapes_table(numbers) -> str:
    """Per case, d and engine: the escape steps (replicate mean of the overlap reaching the level)
    at both levels against the ODE's, and the bootstrap resamples whose mean had not crossed."""
    lines = [f"| SIE | d | engine | early: SGD / ODE (steps) | {_level(numbers, 'macro')}: SGD / ODE (steps) | "
             "SGD / ODE | resamples not crossed (of the bootstrap) |", "|---|---|---|---|---|---|---|"]
    for r in numbers["rows"]:
        ratio = r["macro_steps"] / r["macro_ode"] if r["macro_ode"] else float("nan")
        lines.append(f"| {r['case'].replace('sie', '')} | {r['d']} | {r['engine']} | {steps_text(r['early_steps'])} / "
                     f"{steps_text(r['early_ode'])} | {steps_text(r['macro_steps'])} / {steps_text(r['macro_ode'])} | "
                     f"{num(r['early_steps'] / r['early_ode'])}, {num(ratio)} | "
                     f"{r['early_censored_resamples']}, {r['macro_censored_resamples']} of {numbers['bootstrap']} |")
    return "\n".join(lines)


def explicit_table(numbers) -> str:
    """The explicit R^d engine against the reduced one on the same points: escape steps, the
    difference of their logs and that difference in standard errors (bootstrap)."""
    lines = ["| SIE | d | level | reduced (steps) | explicit (steps) | log T_explicit − log T_reduced | in SE |",
             "|---|---|---|---|---|---|---|"]
    for e in numbers["explicit"]:
        lines.append(f"| {e['case'].replace('sie', '')} | {e['d']} | {_level(numbers, e['level'])} | {steps_text(e['reduced'])} | "
                     f"{steps_text(e['explicit'])} | {signed(e['log_ratio'], '.3f')} | {signed(e['z'])} |")
    largest = max((abs(e["z"]) for e in numbers["explicit"]), default=float("nan"))
    lines += ["", f"Largest |difference| in SE over the {len(numbers['explicit'])} comparisons: {num(largest)}."]
    return "\n".join(lines)


def cost_text(numbers) -> str:
    """The SGD steps of the result (steps run × replicates, per engine) and its two largest points."""
    total = {}
    for r in numbers["rows"]:
        total[r["engine"]] = total.get(r["engine"], 0) + r["steps_done"] * r["replicates"]
    largest = sorted((r for r in numbers["rows"] if r["engine"] == "reduced"),
                     key=lambda r: -r["steps_done"] * r["replicates"])[:2]
    engines = " and ".join(f"{steps_text(steps)} {engine}-engine SGD steps" for engine, steps in sorted(total.items(),
                                                                                                key=lambda kv: -kv[1]))
    points = " and ".join(f"k = {r['case'].replace('sie', '')} at d = {r['d']} ({steps_text(r['steps_done'] * r['replicates'])} "
                          "steps)" for r in largest)
    return f"{engines} (steps run × replicates); the largest are {points}"


TABLES = {"cost": cost_text, "fits": fits_table, "decades": decades_table, "escapes": escapes_table, "explicit": explicit_table}
