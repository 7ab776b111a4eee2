"""The authors' own experiments (their ``experiments/*.yaml``), rerun in law with our engines.

Every section of ``config/authors.yaml`` is one of their experiment files, written with their
names (target functions, students, loss, learning-rate scaling) and mapped here to this
repository's registry (docs/theory.md, "The authors' conventions"):

* their loss "square" (torch MSELoss) and "frobenius" (non-squared ‖y − ŷ‖_F) are the
  ``loss`` of :class:`ssi.Problem`; their η is used as it is;
* their "overlapped" start gives m₀ = o/√((1 − o)² + o²) with o = ic_overlap or 1/√d
  (every token of an untied student), their "random" start a uniform point of each
  token's sphere;
* their overlap is |m| (tied, attention) and the RMS of the token overlaps (untied): the
  l2 norm divided by √L; their positional overlap e is signed.

One SGD job runs a group of sweep points of one student, or a block of the replicates of
one point (replicate keys do not depend on the blocking, so the numbers do not either).
Runs with ``stop_level`` stop once the replicate mean of the overlap has reached it
(crossing-time experiments: the crossing of the seed mean at the authors' escape level,
:data:`ssi.escape.AUTHORS`, is exact);
the others run to their T. The ODE (docs/theory.md, "The ODE") is integrated at every
point where it is defined and cheap, and forecasts the cost of each job family.

Modules, lowest first: :mod:`~ssi.experiments.authors.spec` (names, points, cost model, job
plan), :mod:`~ssi.experiments.authors.jobs` (SGD, ODE, forecast),
:mod:`~ssi.experiments.authors.numbers` (key numbers), :mod:`~ssi.experiments.authors.figure`;
this package's ``__init__`` checks the config and holds the claim rows.
"""
from __future__ import annotations

import json
import math

from . import candidates as authors_candidates
from . import verdicts as authors_verdicts
from .numbers import none_to_nan
from .spec import EXPERIMENT, point_L, points, problem, sweep_key, their_lr
from .verdicts import num
from ...verdicts import VERDICTS


def validate(config) -> None:
    """Checks beyond the schema: every problem builds, η > 0, d large enough; a ValueError names the key."""
    authors_candidates.check_config(config)
    for name, spec in config[EXPERIMENT]["experiments"].items():
        where = f"config authors.experiments.{name}"
        if spec["target"] == "positional_semantic_model" and "a_squared" not in spec:
            raise ValueError(f"{where}.a_squared: required by target positional_semantic_model")
        if sweep_key(spec) == "omega" and spec["target"] != "positional_semantic_model":
            raise ValueError(f"{where}.sweep: an omega sweep needs target positional_semantic_model")
        if spec.get("decide_seeds") is not None:
            if int(spec["decide_seeds"]) <= int(spec["seeds"]):
                raise ValueError(f"{where}.decide_seeds: {spec['decide_seeds']} must exceed seeds = {spec['seeds']}")
            if spec["stop_level"] is not None:
                raise ValueError(f"{where}.decide_seeds: needs stop_level: null (a stop on the mean of all "
                                 "replicates would cut their run short)")
        for student, value in points(spec):
            try:
                p = problem(spec, student, value)
                their_lr(spec, point_L(spec, value))
            except (ValueError, KeyError) as err:
                raise ValueError(f"{where} ({student}, {sweep_key(spec)}={value}): {err}") from None
            if int(spec["d"]) < p.min_dimension():
                raise ValueError(f"{where}.d: d={spec['d']} is too small; this problem needs d ≥ {p.min_dimension()}")



def _interval(g) -> list | None:
    """The 95 % interval a gain verdict rests on (the many-seed run's when there is one), or None."""
    if g is None:
        return None
    basis = g.get("decide") or g
    low, high = basis.get("low"), basis.get("high")
    ok = all(isinstance(x, (int, float)) and math.isfinite(x) for x in (low, high))
    return [float(low), float(high)] if ok else None


def claim_rows(config, numbers) -> list[dict]:
    """Rows of figures/authors/CLAIMS.md: one per experiment file on which a claim rests.

    The verdict is :func:`ssi.experiments.authors.verdicts.verdict`; ``key`` names the experiment
    file (the README's table of the authors' experiments finds its verdict by it)."""
    rows = []
    rule = "the rules of src/ssi/experiments/authors/verdicts.py (see docs/results/authors.md)"
    section = config[EXPERIMENT]["experiments"]
    numbers = json.loads(json.dumps(numbers))           # a copy: null -> nan below, as the verdicts expect
    none_to_nan(numbers)
    for name, e in numbers["experiments"].items():
        agrees, why = authors_verdicts.verdict(name, config, numbers, {})
        if name not in section or agrees not in VERDICTS:
            continue                                     # exploratory: no claim rests on it
        measured = f"{e['role']}; d = {e['d']}, T = {e['T']:.3g}, {e['seeds']} seed{'s' if e['seeds'] > 1 else ''}"
        key, g = authors_verdicts.gain_of(name, numbers)
        if g is not None:
            measured += (f"; gain{'' if key == name else f' ({key})'} ∝ L^{num(g['exponent'])} "
                         f"[{num(g['low'])}, {num(g['high'])}]")
            if g.get("excluded"):
                measured += " (flagged starts left out: " + ", ".join(f"{x['network']} L = {x['L']}" for x in g["excluded"]) + ")"
            if g.get("decide"):
                measured += (f"; {g['decide']['seeds']} seeds: gain ∝ L^{num(g['decide']['exponent'])} "
                             f"[{num(g['decide']['low'])}, {num(g['decide']['high'])}]")
        elif e.get("decide"):
            many, root_d = e["decide"]["rows"], math.sqrt(e["d"])
            measured += f"; {e['decide']['seeds']} seeds, final overlap × √d: " + ", ".join(
                f"{s} {min(r['final_overlap_mean'] for r in many if r['student'] == s) * root_d:.2f}–"
                f"{max(r['final_overlap_mean'] for r in many if r['student'] == s) * root_d:.2f}"
                for s in dict.fromkeys(r["student"] for r in many))
        if e.get("switch_omega", "absent") != "absent":
            measured += f"; switch ω {num(e['switch_omega'], '.3f')}, not escaped {num(e['share_not_escaped'], '.0%')}"
        rows.append({"claim": f"{e['claim']} {e['file']}", "paper": e["claim"], "measured": f"{measured}; {why}",
                     "headline": why, "verdict": agrees, "reason": why, "interval": _interval(g), "key": name,
                     "figure": f"{config['figures_dir']}/{name}.png", "rule": rule,
                     "command": f"snakemake --cores all --configfile config/authors.yaml figures/authors/{name}.png"})
    cand = numbers.get("candidates")
    if cand:
        agrees, why = authors_verdicts.candidates_verdict(cand)
        measured = "; ".join(f"{k} ∝ L^{num(g['exponent_sgd'])} [{num(g['low'])}, {num(g['high'])}] (ODE L^{num(g['exponent_ode'])})"
                             for k, g in cand["gains"].items())
        rows.append({"claim": "C4 SIE 2: protocols for a gain ∝ L² (SGD at each network's ODE-best η)", "paper": "C4",
                     "measured": measured, "headline": why, "verdict": agrees, "reason": why, "interval": None,
                     "key": "candidates",
                     "figure": f"{config['figures_dir']}/{authors_candidates.FIGURE}.png", "rule": rule,
                     "command": "snakemake --cores all --configfile config/authors.yaml "
                                f"figures/authors/{authors_candidates.FIGURE}.png"})
    return rows




def their_hours(config, name: str) -> float:
    """CPU-hours of the authors' method for one experiment file: T × runs at their measured rate."""
    section = config[EXPERIMENT]
    spec = section["experiments"][name]
    return int(spec["T"]) * int(spec["seeds"]) * len(points(spec)) / float(section["their_rate"]) / 3600

