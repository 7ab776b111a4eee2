"""The tables of docs/results/positional.md, from the numbers file of claim C3.

Each function takes the parsed ``figures/numbers/positional.json`` and returns markdown;
``snakemake pages`` renders them into the page (``<!-- gen:positional-table NAME -->``).
"""
from __future__ import annotations

from ..page_text import steps_text
from ..claim_text import finite, interval, num, signed, span

#: the cases of the escape sweep, as the page names them
CASE_TEXT = {"none": "no PE", "opposite_same_lr": "opposite PE, same η", "opposite": "opposite PE, constant η"}


def _case(name: str) -> str:
    return CASE_TEXT.get(name, name)


def landscape_table(numbers) -> str:
    """Per target and PE: the SIE counted on the overlap m and on the joint expansion in (e, m),
    whether the loss descends from (0, 0), and the Hessian of R at (0, 0) (its e–e entry and its
    eigenvalues)."""
    lines = ["| target | PE | SIE of m | SIE, joint | descends from (0, 0) | ∂²R/∂e² | Hessian eigenvalues |",
             "|---|---|---|---|---|---|---|"]
    for r in numbers["landscape"]:
        eigen = ", ".join(signed(x, ".3f") for x in r["eigenvalues"])
        lines.append(f"| `{r['target']}` | {r['pe']} | {r['sie_overlap']} | {r['sie_joint']} | "
                     f"{'yes' if r['descends'] else 'no'} | {signed(r['hessian'][0][0], '.3f')} | {eigen} |")
    return "\n".join(lines)


def fits_table(numbers) -> str:
    """Per case: the exponent of the median escape steps in d (95 % bootstrap interval) and the
    ODE's, on the SGD's d and on the ODE's whole range."""
    lines = ["| case | η | SGD d | SGD exponent [95 %] | ODE, same d | ODE d | ODE, its d |",
             "|---|---|---|---|---|---|---|"]
    for f in numbers["fits"]:
        lines.append(f"| {_case(f['case'])} | {f['schedule']} | {span(f['dims'])} | "
                     f"{interval(f['exponent_sgd'], f['exponent_sgd_low'], f['exponent_sgd_high'])} | "
                     f"{num(f['exponent_ode_same_range'])} | {span(f['ode_dims'])} | {num(f['exponent_ode_all'])} |")
    return "\n".join(lines)


def escapes_table(numbers) -> str:
    """Per case and d: the replicates that escaped by t_max, the median escape steps with its
    quartiles (a replicate that did not escape counts as later than every one that did), the
    escape of the replicates' mean curve, and the ODE's."""
    lines = ["| case | d | η | escaped | median [quartiles] (steps) | mean curve | ODE |", "|---|---|---|---|---|---|---|"]
    for r in numbers["rows"]:
        q75 = steps_text(r["steps_q75"]) if finite(r["steps_q75"]) else "not escaped"
        lines.append(f"| {_case(r['case'])} | {r['d']} | {r['lr']:.3g} | {r['escaped_replicates']}/{r['replicates']} | "
                     f"{steps_text(r['steps_median'])} [{steps_text(r['steps_q25'])}, {q75}] | "
                     f"{steps_text(r['steps_mean_curve'])} | {steps_text(r['steps_ode'])} |")
    return "\n".join(lines)


def speedup_text(numbers) -> str:
    """"8–26× fewer steps for d = 32–178": the median escape without PE over the median with PE at
    the same η, over the d both cases ran."""
    medians = {(r["case"], r["d"]): r["steps_median"] for r in numbers["rows"]}
    common = sorted(d for case, d in medians if case == "none" and ("opposite_same_lr", d) in medians)
    ratios = [medians["none", d] / medians["opposite_same_lr", d] for d in common
              if finite(medians["none", d]) and finite(medians["opposite_same_lr", d])]
    if not ratios:
        return "no common d"
    return f"{min(ratios):.0f}–{max(ratios):.0f}× fewer steps for d = {span(common)}"


TABLES = {"landscape": landscape_table, "fits": fits_table, "escapes": escapes_table, "speedup": speedup_text}
