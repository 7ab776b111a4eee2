"""The generated part of the C4-theory section of docs/results/tied_untied.md: tables and numbers
from figures/numbers/tied_untied_theory.json (rendered into the page by ``snakemake pages``)."""
from __future__ import annotations

import math

from ...escape import AUTHORS, AUTHORS_MACRO


def _f(v, spec=".2f"):
    return "n/a" if v is None or (isinstance(v, float) and not math.isfinite(v)) else format(v, spec)


def _sgd(m):
    Ls = m["Ls"]
    return (f"L^{_f(m['exponent'])} [{_f(m['low'])}, {_f(m['high'])}], L = {Ls[0]}–{Ls[-1]} "
            f"({m['text'].removeprefix('SGD').lstrip(', ')}; ODE over the same L: L^{_f(m['exponent_ode'])})")


def comparison_table(numbers) -> list[str]:
    lo, hi = numbers["slope_window"]
    lines = ["| comparison (target Σh₂ unless said) | law of the ODE near m = 0 | asymptotic exponent | "
             f"ODE, L ≤ 10 | ODE, L = {lo}–{hi} | SGD (95 % interval) |", "|---|---|---|---|---|---|"]
    for r in numbers["comparisons"]:
        large = f"L^{_f(r['exponent_ode_authors'])}"
        if r.get("exponent_lr0") is not None:
            large = f"{large} (at η = {numbers['attention_lr']:g}; η → 0: L^{_f(r['exponent_lr0'])})"
        if r["no_escape_from_L_closed_form"]:
            large = (f"{large} (η → 0; at η = {numbers['lr']:g} the tied network stops escaping at "
                     f"L ≈ {r['no_escape_from_L_closed_form']:.0f})")
        sgd = "<br>".join(_sgd(m) for m in r["sgd"]) or "—"
        lines.append(f"| {r['text']} | {r['law']} | {r['asymptotic']:g} | L^{_f(r['exponent_ode_small_authors'])} "
                     f"| {large} | {sgd} |")
    return lines


def student_table(numbers) -> list[str]:
    lo, hi = numbers["slope_window"]
    lines = ["| student | target | best-η time: asymptotic exponent | η*: asymptotic exponent | "
             f"ODE time exponent, L ≤ 10 | ODE time, η* exponents, L = {lo}–{hi} |", "|---|---|---|---|---|---|"]
    for r in numbers["students"]:
        logs = " (up to logs)" if r["student"].startswith("attention") else ""
        lines.append(f"| {r['student']} | {r['target']} | {_f(r['time_exponent'], 'g')}{logs} | "
                     f"{_f(r['lr_exponent'], 'g')}{logs} | "
                     f"{_f(r['time_exponent_ode_small'])} | {_f(r['time_exponent_ode'])}, {_f(r['lr_exponent_ode'])} |")
    return lines


def markdown(numbers) -> str:
    """The generated block of the page."""
    rows = {r["key"]: r for r in numbers["comparisons"]}
    check = numbers["best_lr_check"]
    drift = numbers["attention_drift_exponent"]
    att = {r["normalisation"]: r for r in numbers["students"] if r["student"].startswith("attention")}["sum"]
    small = {k: _f(rows[k]["exponent_ode_small_authors"]) for k in rows}
    window = "{}–{}".format(*numbers["slope_window"])
    large = {k: _f(rows[k]["exponent_ode_authors"]) for k in rows}
    gap = max(abs(r[f"exponent_ode{w}_macro"] - r[f"exponent_ode{w}_authors"]) for r in numbers["comparisons"]
              for w in ("", "_small") if r[f"exponent_ode{w}_macro"] is not None)
    out = [f"**{numbers['answer']}**", "",
           f"Escape from m₀ = d^(−½) to {AUTHORS.level_text()} at d = {numbers['d']} (the exponents at the "
           f"macroscopic {AUTHORS_MACRO.level_text()} are "
           f"in the numbers file; they differ from these by at most {gap:.2f}); fixed-η protocols at "
           f"η = {numbers['lr']:g} (the "
           f"authors' 2·10⁻⁴ with their (y − ŷ)² loss), the square-vs-attention one at "
           f"η = {numbers['attention_lr']:g}. ODE exponents are log-log least-squares slopes of the reduced "
           "ODE's escape times (best η by a bounded search on the same ODE).", ""]
    quoted = numbers.get("ode_predictions") or []
    if quoted:
        out[-2] += (" Beside the SGD run at the ODE's best η, the ODE is the prediction those runs were made at, "
                    f"from their start m₀ = {quoted[0]['key']['m0']:.4g} (the authors' overlapped start), "
                    "as the authors' numbers file holds it.")
    out += comparison_table(numbers) + [""]
    out += student_table(numbers) + [""]
    out += ["The measured non-integer exponents are crossovers between these laws:", "",
            f"- **same η, best η**: L exactly in the ODE at every L; the SGD's "
            f"L^{_f(rows['same_lr']['sgd'][0]['exponent'])} and L^{_f(rows['best_lr']['sgd'][0]['exponent'])} at "
            f"d = 100 are finite-d (the untied SGD escapes faster than the ODE at L ≥ 16, see above).",
            f"- **the authors' protocol** (tied η·√L): L^{small['authors_sqrt']} over L ≤ 10 is the "
            f"L^{{3/2}} law "
            f"itself; the noise factor (1 − η√L/η_c(L)) only matters near L ≈ "
            f"{rows['authors_sqrt']['no_escape_from_L_closed_form']:.0f}, where the tied network stops escaping.",
            f"- **untied alone at its best η**: its time is ∝ L(1 + L), local exponent 2 − 1/(L + 1): "
            f"L^{small['untied_alone']} over L ≤ 10, L^{large['untied_alone']} at L = {window}. The tied network's "
            f"best time is ∝ 1 + L (L^{small['tied_alone']} over L ≤ 10), so their ratio is exactly L.",
            f"- **attention at its best η**: its drift A = √2 E[q·∇f] first rises with L, then decays as "
            f"L^(−½) up to a "
            f"slowly growing factor (local exponent {_f(drift['1000'])} at L = 10³, {_f(drift['100000000'])} at "
            f"10⁸, exact integral), while ν₀ barely moves (L^{_f(att.get('nu0_exponent_ode'))} at "
            f"L = {window}): the best "
            f"time 2ν₀ log(m_th/m₀)/A² falls as L^{small['attention_alone']} over L ≤ 8, is shortest at "
            f"L = {numbers['attention_fastest_L']} and grows as L^{large['attention_alone']} at L = {window} "
            f"(→ L up to logarithms). Hence untied "
            f"over attention: L^{small['untied_over_attention']} over L ≤ 8, L^{large['untied_over_attention']} "
            f"at L = {window}; and untied square over attention at one η = {numbers['attention_lr']:g}: "
            f"L^{small['square_over_attention']} over L ≤ 10, L^{large['square_over_attention']} at L = {window} "
            f"(a fixed-η number; the η → 0 law L²β₂(L)/2 has local exponent "
            f"{_f(rows['square_over_attention'].get('exponent_lr0'))} there, → L^(1/2) up to logarithms).",
            f"- **best η**: A/ν₀ is within {100 * check['authors']:.1f} % of the ODE's numerical minimiser at "
            f"{AUTHORS.level_text()} (every normalisation, every L of the grid); at {AUTHORS_MACRO.level_text()} "
            "the leading A/ν₀ is off by up to "
            f"{100 * check['macro_leading']:.0f} % and the first-order formula by {100 * check['macro']:.1f} %."]
    return "\n".join(out) + "\n"

