"""The tables of docs/results/semantic_positional.md, from the numbers file of claim C5.

Each function takes the parsed ``figures/numbers/semantic_positional.json`` and returns markdown;
``snakemake pages`` renders them into the page (``<!-- gen:semantic-positional-table NAME -->``).
"""
from __future__ import annotations

from ..claim_text import finite, num, percent, power_of_ten
from ..page_text import scientific, steps_text


def _box(diagram) -> str:
    (a_lo, a_hi, _), (w_lo, w_hi, _) = diagram["a"], diagram["omega"]
    return f"[{a_lo:g}, {a_hi:g}] × [{w_lo:g}, {w_hi:g}]"


def regions_table(numbers) -> str:
    """The area of each region of the phase diagram, as a fraction of the (a, ω) grid, in both
    boxes of the numbers file (regions of zero area in both are left out), and the misaligned
    dynamics (semantic global minimum, positional initial direction) in bold."""
    boxes = numbers["diagrams"]
    names = list(boxes)
    n = boxes[names[0]]["a"][2]
    lines = ["| region (a, ω) | " + " | ".join(_box(boxes[b]) for b in names) + " |", "|---" * (len(names) + 1) + "|"]
    for region in boxes[names[0]]["fractions"]["regions"]:
        areas = [boxes[b]["fractions"]["regions"].get(region, 0.0) for b in names]
        if any(areas):
            lines.append(f"| {region} | " + " | ".join(percent(x) for x in areas) + " |")
    misaligned = [boxes[b]["fractions"]["named"]["misaligned dynamics"] for b in names]
    lines.append("| **misaligned dynamics** (semantic global, positional initial direction) | "
                 + " | ".join(f"**{percent(x)}**" for x in misaligned) + " |")
    most = max(boxes[b]["max_minima"] for b in names)
    lines += ["", f"On the {n} × {n} grids: at most {most} local minima in the quadrant at any (a, ω)."]
    return "\n".join(lines)


def transition_table(numbers) -> str:
    """Per SGD run of the transition: d, steps (and t = steps/d), ω values, runs per ω, the switch ω
    of SGD (positional share of the escaped runs reaching ½) and of the ODE, and the runs that did
    not escape."""
    lines = ["| run | d | T (t) | ω values | runs per ω | switch ω, SGD | switch ω, ODE | runs not escaped |",
             "|---|---|---|---|---|---|---|---|"]
    for r in numbers["transition"]:
        share = r["not_escaped_fraction"]
        not_escaped = sum(share) / len(share) if share else float("nan")
        sgd = num(r["switch_sgd"], ".3f") if finite(r["switch_sgd"]) else "—"
        lines.append(f"| `{r['run']}` | {power_of_ten(r['d'])} | {steps_text(r['steps'])} ({r['t']:g}) | "
                     f"{len(r['omega'])} | {r['replicates']} | {sgd} | {num(r['switch_ode'], '.3f')} | "
                     f"{percent(not_escaped)} |")
    return "\n".join(lines)


def prediction_text(numbers) -> str:
    """Where, at a = 1, the diagram's initial direction and its global minimum turn positional."""
    p = numbers["prediction"]
    return (f"the initial direction turns positional at ω = {num(p['switch_dynamics'], '.3f')}, the global "
            f"minimum only at ω = {num(p['switch_global'], '.3f')}")


def long_run_text(numbers) -> str:
    """How the long run in the misaligned region ends, SGD and ODE."""
    r = numbers["long_run"]
    m, e = r["final_abs_m"], r["final_abs_e"]
    return (f"at T = {steps_text(r['steps'])} (t = {r['steps'] / r['d']:g}) {r['semantic']} of {r['replicates']} "
            f"runs end semantic and {r['positional']} positional ({r['not_escaped']} not escaped), "
            f"|m| ≥ {min(m):.3f}, |e| ≤ {max(e):.3f}; the ODE ends at m = {r['ode_final']['m']:.3f}, "
            f"e = {abs(r['ode_final']['e']):.3f}")


def quadrature_text(numbers) -> str:
    """The largest change of the 4-D integral C between the two quadrature orders of the run."""
    return f"at most {scientific(numbers['quadrature_check_max_abs'])}"


def cost_text(numbers) -> str:
    """The SGD steps of the result: per transition run ω values × runs × steps, plus the long run."""
    parts = [(f"`{r['run']}` {steps_text(len(r['omega']) * r['replicates'] * r['steps'])}",
              len(r["omega"]) * r["replicates"] * r["steps"]) for r in numbers["transition"]]
    long = numbers["long_run"]
    parts.append((f"long run {steps_text(long['replicates'] * long['steps'])}", long["replicates"] * long["steps"]))
    total = sum(steps for _, steps in parts)
    return f"{steps_text(total)} SGD steps (" + ", ".join(text for text, _ in parts) + ")"


TABLES = {"regions": regions_table, "transition": transition_table, "prediction": prediction_text,
          "long-run": long_run_text, "quadrature": quadrature_text, "cost": cost_text}
