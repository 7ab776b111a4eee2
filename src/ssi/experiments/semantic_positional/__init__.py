"""Claim C5: semantic vs positional learning — the phase diagram and the SGD transition.

L = 2, target ``(1−ω) softmax_row(z* z*ᵀ) + ω A(a)``, attention student with opposite PE,
identity reduction, squared Frobenius loss (claim C5, the authors' parameters; docs/theory.md, "Semantic and positional phases"). Four parts:

* **Landscape** (:func:`landscape_point`): the (a, ω)-independent integrals of R
  (:func:`ssi.phase.landscape`) once, with a quadrature check (C with more points).
* **Phase diagram** (:func:`diagram_point`): every (a, ω) of a grid classified by
  :func:`ssi.phase.phase_diagram` — global minimum semantic/positional, lowest-curvature
  direction of the Hessian at (0, 0), number of local minima — on [0, 1]² and on the authors'
  zoom [0.7, 1] × [0.4, 1].
* **SGD transition** (:func:`sgd_point`): at a = 1, one-pass SGD from m₀ = e₀ = 0 for each ω
  of a block, ``replicates`` runs each; final (|m|, |e|). The loss is invariant under
  m → −m and under e → −e (see :mod:`ssi.phase`), so runs are folded into the first quadrant.
  :func:`ode_point` integrates the ODE (docs/theory.md, "The ODE") from m = e = d^(−1/2) with the drift
  from the landscape splines and the noise term ν = E Σ a_l² tabulated by
  :func:`ssi.population.expectations` on a coarse (e, m) grid.
* **Long run** (:func:`long_point`): a², ω in the misaligned region, T steps, groups of seeds.

A run counts as *not escaped* when its ``escape`` (:mod:`ssi.escape`: √(m² + e²) below the level at
the end, ``share_below``) says so, else *positional*
when |e| > |m| and *semantic* otherwise. The switch ω is where half of the escaped runs end
positional (only ω where at least half of the runs escaped count).

Modules: :mod:`~ssi.experiments.semantic_positional.jobs` (landscape, diagrams, SGD, ODE),
:mod:`~ssi.experiments.semantic_positional.numbers`, :mod:`~ssi.experiments.semantic_positional.figure`;
this package's ``__init__`` holds the claim rows.
"""
from __future__ import annotations

import math

import numpy as np

from ... import escape
from ...verdicts import MIN_ESCAPED, UNDECIDED, Verdict, check, combine
from ..claim_text import power_of_ten
from .numbers import fmt


#: a d counts for the switch when at most this share of its runs stayed at (0, 0) (the rule of ssi.verdicts)
C5_ESCAPED = 1 - MIN_ESCAPED
C5_RULE = ("the five regions of the paper each cover a non-zero area of the (a, ω) diagram, and at every d where at "
           "least half of the runs escaped (the rule of ssi.verdicts) the SGD switch ω (half of the escaped runs end "
           "positional, a = 1) lies nearer the diagram's switch of the initial direction than its switch of the global "
           "minimum (SGD follows the initial direction, the misaligned dynamics): reproduced when both hold; differs "
           "when one fails; undecided when no d has at least half of its runs escaped")


def _decided_transitions(numbers) -> list[dict]:
    return [t for t in numbers["transition"]
            if np.mean(t["not_escaped_fraction"]) <= C5_ESCAPED and t["switch_sgd"] is not None
            and math.isfinite(t["switch_sgd"])]


def c5_verdict(numbers) -> Verdict:
    """Verdict of C5 from the numbers file (rule :data:`C5_RULE`)."""
    named = numbers["diagrams"]["full"]["fractions"]["named"]
    empty = [k for k, v in named.items() if not v > 0]
    pred = numbers["prediction"]
    decided = _decided_transitions(numbers)
    if not decided:
        return Verdict(UNDECIDED, "no d with at least half of its runs escaped")
    astray = [t for t in decided
              if abs(t["switch_sgd"] - pred["switch_dynamics"]) >= abs(t["switch_sgd"] - pred["switch_global"])]
    return combine([check(not empty, "every region covers a non-zero area", f"regions with no area: {', '.join(empty)}"),
                    check(not astray, "the SGD switch follows the initial direction at every decided d",
                          "the SGD switch lies nearer the global minimum's at d = "
                          + ", ".join(str(t["d"]) for t in astray))])


def _c5_headline(numbers) -> str:
    pred = numbers["prediction"]
    named = numbers["diagrams"]["full"]["fractions"]["named"]
    decided = _decided_transitions(numbers)
    switches = ", ".join(f"{t['switch_sgd']:.3f} (d = {power_of_ten(t['d'])})" for t in decided[:2])
    return (f"misaligned region: {100 * named.get('misaligned dynamics', math.nan):.1f} % of [0,1]²; SGD switches at "
            f"ω = {switches}, by the initial direction ({pred['switch_dynamics']:.3f}), not the global minimum "
            f"({pred['switch_global']:.3f})")



def validate(config) -> None:
    """C5 checks beyond the schema: blocks and groups not more than their items, boxes ordered, the
    escape named (ValueError naming the key)."""
    section = config["semantic_positional"]
    where = "config semantic_positional"
    for name, box in section["diagram"].items():
        if name == "polar_grid":
            continue
        for key in ("a", "omega"):
            lo, hi, _ = box[key]
            if not hi > lo:
                raise ValueError(f"{where}.diagram.{name}.{key}: the end {hi} must exceed the start {lo}")
    tr = section["transition"]
    for name, run in tr["runs"].items():
        omegas = run.get("omegas", tr["omegas"])
        if tr["omega_blocks"] > len(omegas):
            raise ValueError(f"{where}.transition.omega_blocks={tr['omega_blocks']} exceeds the "
                             f"{len(omegas)} ω values of run {name}")
        if run["d"] < 5:
            raise ValueError(f"{where}.transition.runs.{name}.d={run['d']} is too small (d ≥ 5)")
    lr = section["long_run"]
    if lr["groups"] > lr["replicates"]:
        raise ValueError(f"{where}.long_run.groups={lr['groups']} exceeds replicates={lr['replicates']}")
    if lr["steps"] != int(lr["steps"]):
        raise ValueError(f"{where}.long_run.steps={lr['steps']} must be a whole number of steps")
    escape.named(section, "semantic_positional")


def claim_rows(config, numbers) -> list[dict]:
    """Claims-table row for C5."""
    full = numbers["diagrams"]["full"]["fractions"]["named"]
    zoom = numbers["diagrams"]["zoom"]["fractions"]["named"]
    areas = ", ".join(f"{k} {100 * v:.1f} %" for k, v in full.items())
    zareas = ", ".join(f"{k} {100 * v:.1f} %" for k, v in zoom.items())
    switch = "; ".join(f"d={r['d']} (T={r['steps']:.2g}, {r['replicates']} runs per ω): SGD {fmt(r['switch_sgd'])}, "
                       f"ODE {fmt(r['switch_ode'])}, {100 * np.mean(r['not_escaped_fraction']):.0f} % of runs "
                       "not escaped" for r in numbers["transition"])
    pred = numbers["prediction"]
    lr = numbers["long_run"]
    return [{
        "claim": "C5 semantic vs positional",
        "paper": "five regions in (a, ω), misaligned dynamics among them; SGD switches from semantic to positional with ω",
        "measured": (f"areas on [0,1]² (200×200): {areas}; on [0.7,1]×[0.4,1]: {zareas}. At a = 1 the global "
                     f"minimum turns positional at ω ≈ {fmt(pred['switch_global'])}, the initial direction at "
                     f"ω ≈ {fmt(pred['switch_dynamics'])}; switch ω (half of the escaped runs positional): {switch}. "
                     f"Long run (a² = {lr['a2']}, ω = {lr['omega']}, T = {lr['steps']:.0e}): {lr['positional']} of "
                     f"{lr['replicates']} end positional, {lr['semantic']} semantic, {lr['not_escaped']} not escaped "
                     f"(global minimum at (e, m) = ({lr['minima'][0]['e']:.2f}, {lr['minima'][0]['m']:.2f})); "
                     "see figures/semantic_positional_*.png"),
        "headline": _c5_headline(numbers),
        **c5_verdict(numbers).fields(),
        "figure": "figures/semantic_positional_transition.png",
        "command": "snakemake --cores all semantic_positional_plot",
        "rule": C5_RULE,
    }]


