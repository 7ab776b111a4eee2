"""The tables of docs/results/tied_untied.md, from the numbers file of claim C4.

Each function takes the parsed ``figures/numbers/tied_untied.json`` and returns a markdown table;
``snakemake pages`` renders them into the page (``<!-- gen:tied-untied NAME -->``), so that the
page quotes the committed numbers and nothing typed by hand.
"""
from __future__ import annotations

import math

from ...escape import Escape
from ..page_text import steps_text
from ..claim_text import interval, num, power_of_ten

#: the two escape thresholds of the numbers file: the macroscopic one and the authors' early one
THRESHOLDS = ("macro", "authors")


def level_text(fit) -> str:
    """The level of a fit of the numbers file as the page writes it (:meth:`ssi.escape.Escape.level_text`):
    the ``authors`` threshold is a multiple of d^(−1/2), the others a number."""
    if fit["threshold"] == "authors":
        return Escape(round(fit["level"] * math.sqrt(fit["d"]), 9), per_sqrt_d=True).level_text()
    return Escape(fit["level"]).level_text()
PROTOCOLS = ("same_lr", "best_lr")


def _case_label(case: str) -> str:
    return case.replace("sie", "SIE ")


def _steps_or_not_reached(x) -> str:
    text = steps_text(x)
    return "not reached" if text == "n/a" else text


def _lr_text(rows) -> str:
    """The learning rates of a protocol's rows: one η, or the first and last when it varies with L."""
    first, last = rows[0]["lr_tied"], rows[-1]["lr_tied"]
    if abs(first - last) <= 1e-9 * abs(first):
        return f"η = {first:.3g}"
    return f"η = {first:.3g} → {last:.3g}"


def _fit(fits, case, protocol, threshold):
    for f in fits:
        if (f["case"], f["protocol"], f["threshold"]) == (case, protocol, threshold):
            return f
    return None


def _slope(fit) -> str:
    if fit is None:
        return "n/a"
    return "L^" + interval(fit["exponent_sgd"], fit["exponent_sgd_low"], fit["exponent_sgd_high"])


def fits_table(numbers) -> str:
    """Per SIE case: the fitted exponent of the gain T_untied/T_tied in L (95 % bootstrap interval
    over replicates) under each protocol and threshold, and the ODE's exponent."""
    first = {t: next(f for f in numbers["fits"] if f["threshold"] == t) for t in THRESHOLDS}
    lines = [f"| case | target, activation, d, L | protocol | η | SGD, threshold {level_text(first['macro'])} | "
             f"SGD, threshold {level_text(first['authors'])} | ODE |",
             "|---|---|---|---|---|---|---|"]
    for case in dict.fromkeys(f["case"] for f in numbers["fits"]):
        rows = [r for r in numbers["rows"] if r["case"] == case]
        fit = next(f for f in numbers["fits"] if f["case"] == case)
        Ls = sorted({r["L"] for r in rows})
        setup = f"`{fit['target']}`, {fit['activation']}, d = {fit['d']}, L = {Ls[0]}–{Ls[-1]}"
        for protocol in PROTOCOLS:
            macro, authors = (_fit(numbers["fits"], case, protocol, t) for t in THRESHOLDS)
            protocol_rows = sorted((r for r in rows if r["protocol"] == protocol), key=lambda r: r["L"])
            if macro is None or not protocol_rows:
                continue
            lines.append(f"| {_case_label(case)} | {setup} | {protocol.replace('_', ' ')} | {_lr_text(protocol_rows)} | "
                         f"{_slope(macro)} | {_slope(authors)} | L^{num(macro['exponent_ode'])} |")
    return "\n".join(lines)


def escapes_table(numbers) -> str:
    """Per case, protocol and L: the tied and untied escape times (the macroscopic threshold; mean over replicates
    of the steps to escape) of SGD and the ODE, and the gain T_untied/T_tied of each."""
    lines = ["| case | protocol | L | η | tied: SGD / ODE (steps) | untied: SGD / ODE (steps) | gain: SGD / ODE |",
             "|---|---|---|---|---|---|---|"]
    for r in numbers["rows"]:
        lines.append(f"| {_case_label(r['case'])} | {r['protocol'].replace('_', ' ')} | {r['L']} | {r['lr_tied']:.3g} | "
                     f"{_steps_or_not_reached(r['steps_tied_macro'])} / {_steps_or_not_reached(r['ode_tied_macro'])} | "
                     f"{_steps_or_not_reached(r['steps_untied_macro'])} / {_steps_or_not_reached(r['ode_untied_macro'])} | "
                     f"{num(r['gain_macro'])} / {num(r['gain_ode_macro'])} |")
    return "\n".join(lines)


def attention_table(numbers) -> str:
    """Per L: escape times (the macroscopic threshold) of the attention and the untied network at one η, SGD and
    ODE, and their ratio T_untied/T_attention."""
    lines = ["| L | d | η | attention: SGD / ODE (steps) | untied: SGD / ODE (steps) | T_untied/T_attention: SGD / ODE |",
             "|---|---|---|---|---|---|"]
    for r in numbers.get("attention", []):
        lines.append(f"| {r['L']} | {r['d']} | {r['lr']:.3g} | {_steps_or_not_reached(r['steps_attention_macro'])} / "
                     f"{_steps_or_not_reached(r['ode_attention_macro'])} | {_steps_or_not_reached(r['steps_untied_macro'])} / "
                     f"{_steps_or_not_reached(r['ode_untied_macro'])} | {num(r['ratio_macro'])} / {num(r['ratio_ode_macro'])} |")
    return "\n".join(lines)


def null_table(numbers) -> str:
    """Per null-target run: the final overlap of the tied and untied networks (mean ± sd over
    replicates) against the ODE's, and the noise level d^(−1/2)."""
    lines = ["| target | L | d | η | steps | tied: SGD (± sd) / ODE | untied: SGD (± sd) / ODE | d^(−1/2) |",
             "|---|---|---|---|---|---|---|---|"]
    for r in numbers.get("null", []):
        lines.append(f"| `{r['target']}` | {r['L']} | {power_of_ten(r['d'])} | {r['lr']:.3g} | {_steps_or_not_reached(r['steps'])} | "
                     f"{num(r['final_overlap_tied'], '.3f')} (± {num(r['final_overlap_tied_sd'], '.3f')}) / "
                     f"{num(r['final_ode_tied'], '.3f')} | {num(r['final_overlap_untied'], '.3f')} "
                     f"(± {num(r['final_overlap_untied_sd'], '.3f')}) / {num(r['final_ode_untied'], '.3f')} | "
                     f"{num(r['noise_level'], '.3f')} |")
    return "\n".join(lines)


TABLES = {"fits": fits_table, "escapes": escapes_table, "attention": attention_table, "null": null_table}
