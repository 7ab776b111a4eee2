"""Claim C4: tied vs untied feed-forward networks — the gain T_untied/T_tied against L.

Four parts (claim C4; reference parameters from the authors' published configurations):

* **Escape vs L.** For each configured case (an SIE 1, 2 and 3 target with a feed-forward
  activation) and each L, tied (one w for all tokens) and untied (one w_l per token)
  students start at m_l = m₀ = sign·d^(−1/2) for every token (positive sign: the paper's
  theory convention; the authors' "overlapped" code start gives m₀ = o/√((1−o)² + o²) ≈ 1.1/√d
  for o = 1/√d, docs/theory.md, "The authors' conventions") and are trained by one-pass SGD (reduced engine). Two
  learning-rate protocols: ``same_lr`` — one η for every L and both networks; ``best_lr`` —
  for each (network, L) the η that minimises the ODE's escape time to the ``macro`` level
  (bounded search in ``lr_search``). The escapes are named in the section's ``escape`` block
  (:mod:`ssi.escape`): the replicate mean of the authors' overlap (tied |m|; untied the
  "l2" overlap (mean_l m_l²)^(1/2)) at two thresholds, ``authors`` (their early level, a
  multiple of d^(−1/2)) and ``macro``; ``macro_replicates``, the median of per-replicate
  crossings of the macroscopic level, is also kept. SGD stops when every replicate's
  |mean_l m_l| has passed the ``macro`` level (the RMS overlap is ≥ |mean|, so both thresholds
  are reached before) or at ``horizon`` × the ODE's escape steps.
* **Gain.** gain(L) = T_untied/T_tied per protocol and threshold, with the log-log slope in L
  and a bootstrap interval (replicates resampled within each (network, L)); the ODE's gain
  beside it. For token-symmetric targets and initial states the untied ODE stays on
  m_l = m, Q_l = 1 and its right-hand side is the tied one divided by L
  (``integrate_ode(token_symmetric=True)`` integrates that one token), so the ODE's gain is
  exactly L at any η — the ODE's best η is then the same for both networks.
* **Null cases.** Token-antisymmetric targets (z₁ − z₂, (z₁² − z₂²)/√2) are invisible to the
  tied student (SIE ∞: the loss does not depend on m); the untied one learns them
  (w_1 → w*, w_2 → −w*: mean_l m_l stays 0, so the untied overlap shown is the RMS one).
* **Attention.** The trace-reduced attention student vs the untied square-activation network
  on (1/√L)Σ h₂(z*_l), L = 3..9, one η for both (the authors' comparison).

Modules: :mod:`~ssi.experiments.tied_untied.jobs` (problems, files, ODE, SGD),
:mod:`~ssi.experiments.tied_untied.numbers`, :mod:`~ssi.experiments.tied_untied.figure`; this
package's ``__init__`` holds the claim rows.
"""
from __future__ import annotations

import math

from ... import escape
from ...verdicts import DIFFERS, REPRODUCED, UNDECIDED, Verdict, combine, exponent_verdict
from ..claim_text import interval
from .figure import PROTOCOL_TEXT, sie_words
from .jobs import EXPERIMENT, NETWORKS, PROTOCOLS, attention_problem, escapes, problem
from .numbers import fit_of


def _x(v, fmt=".2f"):
    return "n/a" if v is None or (isinstance(v, float) and not math.isfinite(v)) else format(v, fmt)


#: the gain exponents the paper claims, by SIE (SIE ≥ 3: "∝ L or constant")
CLAIMED_GAIN = {1: (1.0,), 2: (2.0,)}
CLAIMED_GAIN_HIGH_SIE = (1.0, 0.0)
#: a null-target run "stays at the noise level" when its final overlap is ≤ NULL_FACTOR·d^(−1/2)
NULL_FACTOR = 1.5
C4_RULE = ("claimed exponent L^1 (SIE 1), L^2 (SIE 2), L^1 or L^0 (SIE ≥ 3); the SGD exponent under each learning-rate protocol (one η; each network at "
           "its ODE-best η) by the decisiveness rule of ssi.verdicts; the row takes the first of differs, undecided, "
           "reproduced of its two protocols")
C4_NULL_RULE = (f"reproduced when every tied run ends within {NULL_FACTOR:g}·d^-½ of zero overlap and every untied run "
                "ends above it; differs when a tied run rises above it; undecided when the tied runs stay but some "
                "untied run has not risen above it (too short a run to tell)")


def claimed_gain(k) -> tuple:
    """The gain exponents claim C4 allows at SIE ``k``."""
    return CLAIMED_GAIN.get(k, CLAIMED_GAIN_HIGH_SIE)


def c4_verdict(fits) -> Verdict:
    """Verdict of C4 at one SIE from its macroscopic fits, one per protocol (rule :data:`C4_RULE`)."""
    fits = list(fits)
    return combine([exponent_verdict(f["exponent_sgd"], f["exponent_sgd_low"], f["exponent_sgd_high"],
                                     claimed_gain(f["sie"]), name="gain exponent") for f in fits],
                   label=[PROTOCOL_TEXT.get(f.get("protocol"), f.get("protocol")) for f in fits])


def c4_null_verdict(null) -> Verdict:
    """Verdict of the C4 null targets (rule :data:`C4_NULL_RULE`)."""
    if not null:
        return Verdict(UNDECIDED, "no null-target run")
    still = sum(n["final_overlap_tied"] <= NULL_FACTOR * n["noise_level"] for n in null)
    learnt = sum(n["final_overlap_untied"] > NULL_FACTOR * n["noise_level"] for n in null)
    if still < len(null):
        return Verdict(DIFFERS, f"the tied network rises above {NULL_FACTOR:g}·d^-½ in {len(null) - still}/{len(null)} runs")
    if learnt < len(null):
        return Verdict(UNDECIDED, f"the untied network has not risen above {NULL_FACTOR:g}·d^-½ in "
                                  f"{len(null) - learnt}/{len(null)} runs")
    return Verdict(REPRODUCED, f"tied within {NULL_FACTOR:g}·d^-½ and untied above it in {len(null)}/{len(null)} runs")


def _claim_law(k) -> str:
    return " or ".join("constant" if c == 0 else ("L" if c == 1 else ("L²" if c == 2 else f"L^{c:g}")) for c in claimed_gain(k))



def validate(config) -> None:
    """C4: the section exists, every problem builds, d fits, the ODE search bounds are ordered,
    the escape is named (ValueError naming the key)."""
    if "tied_untied" not in config:
        raise ValueError("config: the section 'tied_untied' (claim C4) is missing")
    section = config["tied_untied"]
    for case, spec in section["cases"].items():
        where = f"tied_untied.cases.{case}"
        lo, hi = spec["lr_search"]
        if not lo < hi:
            raise ValueError(f"config {where}.lr_search: {spec['lr_search']} must be [low, high] with low < high")
        for L in list(spec["Ls"]) + list(spec.get("ode_Ls", [])):
            for net in NETWORKS:
                p = problem(spec, L, net)
                if spec["d"] < p.min_dimension():
                    raise ValueError(f"config {where}.d: d={spec['d']} is too small; L={L} needs d ≥ {p.min_dimension()}")
    for name, spec in section["null_targets"]["runs"].items():
        for net in NETWORKS:
            p = problem(spec, spec["L"], net)
            if spec["d"] < p.min_dimension():
                raise ValueError(f"config tied_untied.null.runs.{name}.d: d={spec['d']} is too small")
    spec = section["attention"]
    for L in spec["Ls"]:
        for net in ("attention", "untied"):
            try:
                attention_problem(spec, L, net)
            except ValueError as err:
                raise ValueError(f"config tied_untied.attention (L={L}, {net}): {err}") from None
    escape.named(section, "tied_untied")


def claim_rows(config, numbers) -> list[dict]:
    """Claims-table rows for C4: one per SIE (fitted gain exponent per protocol), one for the null targets."""
    command = "snakemake --cores all tied_untied_plot"
    named = escapes(config[EXPERIMENT])
    authors = named["authors"]
    rule = f"gain = T_untied/T_tied at the macroscopic escape ({named['macro'].words()}); {C4_RULE}"
    rows = []
    for case, spec in config[EXPERIMENT]["cases"].items():
        parts = []
        for protocol in PROTOCOLS:
            f = fit_of(numbers, case, protocol, "macro")
            a = fit_of(numbers, case, protocol, "authors")
            parts.append(f"SIE {sie_words(f['sie'])} ({spec['target']}, d={f['d']}, L={f['Ls'][0]}–{f['Ls'][-1]}), "
                         f"{PROTOCOL_TEXT[protocol]}: gain ∝ L^{_x(f['exponent_sgd'])} "
                         f"[{_x(f['exponent_sgd_low'])}, {_x(f['exponent_sgd_high'])}] at m̄ = {f['level']:g}, "
                         f"L^{_x(a['exponent_sgd'])} [{_x(a['exponent_sgd_low'])}, {_x(a['exponent_sgd_high'])}] "
                         f"at {authors.level_text()}; ODE L^{_x(f['exponent_ode'])}")
        fits = {p: fit_of(numbers, case, p, "macro") for p in PROTOCOLS}
        f = fits["same_lr"]
        measured = "; ".join(parts)
        if f["sie"] == 2 and numbers.get("attention"):
            att = ", ".join(f"L={r['L']}: {_x(r['ratio_macro'], '.2g')} (ODE {_x(r['ratio_ode_macro'], '.2g')})"
                            for r in numbers["attention"])
            measured += f". Attention (trace) vs untied square on (1/√L)Σh₂, T_untied/T_attention: {att}"
        rows.append({
            "claim": f"C4 tied vs untied, SIE {sie_words(f['sie'])}",
            "paper": f"gain T_untied/T_tied ∝ {_claim_law(f['sie'])}",
            "measured": measured + "; see figures/tied_untied_gain.png",
            "headline": (f"gain ∝ L^{interval(f['exponent_sgd'], f['exponent_sgd_low'], f['exponent_sgd_high'])} at one η, "
                         f"L^{interval(fits['best_lr']['exponent_sgd'], fits['best_lr']['exponent_sgd_low'], fits['best_lr']['exponent_sgd_high'])}"
                         f" at each network's best η (d = {f['d']}, L = {f['Ls'][0]}–{f['Ls'][-1]})"),
            **c4_verdict(fits.values()).fields(),
            "figure": "figures/tied_untied_gain.png",
            "command": command,
            "rule": rule,
        })
    null = numbers["null"]
    still = sum(n["final_overlap_tied"] <= NULL_FACTOR * n["noise_level"] for n in null)
    learnt = sum(n["final_overlap_untied"] > NULL_FACTOR * n["noise_level"] for n in null)
    rows.append({
        "claim": "C4 null targets",
        "paper": "targets the tied network never learns (gain 0) while the untied one does",
        "measured": "final mean overlap: " + "; ".join(
            f"{n['target']} L={n['L']} d={n['d']}: tied SIE {sie_words(n['sie_tied'])} ends at "
            f"{_x(n['final_overlap_tied'], '.3f')} (d^-½ = {n['noise_level']:.3f}), untied SIE "
            f"{sie_words(n['sie_untied'])} at {_x(n['final_overlap_untied'], '.2f')}" for n in null)
        + "; see figures/tied_untied_null.png",
        "headline": (f"tied overlap stays within {NULL_FACTOR:g}·d^-½ in {still}/{len(null)} runs "
                     f"(z₁ − z₂, (z₁² − z₂²)/√2; L = {min(n['L'] for n in null)}–{max(n['L'] for n in null)}); "
                     f"the untied one rises above it in {learnt}/{len(null)}"),
        **c4_null_verdict(null).fields(),
        "figure": "figures/tied_untied_null.png",
        "command": command,
        "rule": C4_NULL_RULE,
    })
    return rows
