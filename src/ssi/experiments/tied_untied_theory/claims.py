"""The C4 theory row of the claims table: the settled answer at SIE 2, its headline and its verdict,
from the numbers of :mod:`ssi.experiments.tied_untied_theory` (docs/theory.md, "The SIE-2 escape
near m = 0")."""
from __future__ import annotations

import math

from ...verdicts import Verdict, check, combine


#: the comparisons a reader of "the gain T_untied/T_tied" has in mind (one η; each its best η; the
#: authors' own protocol)
NATURAL = ("same_lr", "best_lr", "authors_sqrt")
#: an ODE exponent this near the claimed 2 is the claimed law
ODE_NEAR = 0.1
#: the verdict rule of the C4 theory row, in words (figures/CLAIMS.md)
RULE = ("the ODE's exponent of the gain T_untied/T_tied at SIE 2, fitted over the config's large-L window (over the SGD range of L for a "
        "protocol whose tied network stops escaping before that window), under the three "
        "learning-rate protocols on an equal footing (one η for both networks; each at its ODE-best η; the authors' "
        "tied η·√L), each an exact computation (no sampling interval): reproduced when all three are within "
        f"{ODE_NEAR:g} of the claimed 2, differs when one is not")


def _row(numbers, key):
    return next(r for r in numbers["comparisons"] if r["key"] == key)


def _ode_exponent(row):
    """The ODE's exponent of a comparison at large L, or over its SGD range when it has no large-L
    value (the η·√L protocol stops escaping below L = 10³)."""
    value = row["exponent_ode_authors"]
    if value is None or not math.isfinite(value):
        value = row["sgd"][0]["exponent_ode"] if row["sgd"] else None
    return math.nan if value is None else value


def verdict(numbers) -> str:
    """"reproduced" when every natural comparison's ODE exponent is within :data:`ODE_NEAR` of 2,
    "differs" when one is not (:func:`verdict_of`'s word)."""
    return verdict_of(numbers).word


def verdict_of(numbers) -> Verdict:
    """The verdict of the C4 theory row with its reason (rule :data:`RULE`)."""
    words = {"same_lr": "one η", "best_lr": "best η each", "authors_sqrt": "authors' η√L"}
    parts = []
    for k in NATURAL:
        x = _ode_exponent(_row(numbers, k))
        parts.append(check(abs(x - 2) <= ODE_NEAR, f"ODE L^{_fmt(x)} within {ODE_NEAR:g} of L²",
                           f"ODE L^{_fmt(x)}, not L²"))
    return combine(parts, label=[words[k] for k in NATURAL])


def _sgd_text(row):
    if not row["sgd"]:
        return "no SGD"
    m = row["sgd"][0]
    return f"SGD L^{_fmt(m['exponent'])} [{_fmt(m['low'])}, {_fmt(m['high'])}]"


def settled_answer(numbers) -> str:
    """One sentence: the C4 answer at SIE 2 with its verdict, from the numbers."""
    same, best, auth = (_row(numbers, k) for k in NATURAL)
    alone, lin, att = (_row(numbers, k) for k in ("untied_alone", "linear_lr", "untied_over_attention"))
    # the ODE over L ≤ 8, as in the page's account of the crossover (not only at the SGD's L)
    att_small = att["exponent_ode_small_authors"]
    window = "{}–{}".format(*numbers["slope_window"])
    return (f"At SIE 2 the ODE gives T_untied/T_tied ∝ L^{_fmt(_ode_exponent(same))} with one η for both "
            f"({_sgd_text(same)}) and L^{_fmt(_ode_exponent(best))} with each network at its best η "
            f"({_sgd_text(best)}), L^{_fmt(_ode_exponent(auth))} under the authors' η·√L for the tied network "
            f"({_sgd_text(auth)}); L² appears only with the tied η L times the untied one "
            f"(ODE L^{_fmt(lin['exponent_ode_small_authors'])} over L ≤ 10) "
            f"or for the untied best-η time alone (L^{_fmt(alone['exponent_ode_authors'])} at L = {window}, "
            f"{_sgd_text(alone)} over L ≤ 10), and untied over attention falls from L^{_fmt(att_small)} "
            f"(L ≤ 8) to L^{_fmt(att['exponent_ode_authors'])} at L = {window}: {verdict(numbers)}.")


def headline(numbers) -> str:
    """The answer in under ~160 characters."""
    same, best, auth = (_row(numbers, k) for k in NATURAL)
    return (f"ODE gain ∝ L^{_fmt(_ode_exponent(same))} (one η), L^{_fmt(_ode_exponent(best))} (best η each), "
            f"L^{_fmt(_ode_exponent(auth))} (authors' η√L); L² only if the tied η is L× the untied one")


def claim_rows(config, numbers) -> list[dict]:
    """The C4 theory row: the settled answer, with the comparisons' exponents in full."""
    parts = []
    for r in numbers["comparisons"]:
        sgd = "; ".join(f"{m['text']}: L^{_fmt(m['exponent'])} [{_fmt(m['low'])}, {_fmt(m['high'])}] "
                        f"(ODE over the same L: {_fmt(m['exponent_ode'])})" for m in r["sgd"]
                        if m["low"] is not None and math.isfinite(m["low"]))
        parts.append(f"{r['text']}: asymptotically L^{r['asymptotic']:g} ({r['law']}); ODE at "
                     f"L = {numbers['slope_window'][0]}–{numbers['slope_window'][1]}: "
                     f"L^{_fmt(r['exponent_ode_authors'])}" + (f"; {sgd}" if sgd else ""))
    return [{
        "claim": "C4 ODE theory, SIE 2",
        "paper": "gain T_untied/T_tied ∝ L² for SIE 2",
        "measured": settled_answer(numbers) + " In full: " + " | ".join(parts),
        "headline": headline(numbers),
        **verdict_of(numbers).fields(),
        "figure": "figures/tied_untied_theory.png",
        "command": "snakemake --cores all tied_untied_theory_plot",
        "rule": RULE,
    }]


def _fmt(v):
    return "n/a" if v is None or not math.isfinite(v) else f"{v:.2f}"
