"""Does each of the authors' experiments, rerun with their conventions, agree with the paper's claim?

Verdicts are computed from the numbers of the authors' run (``figures/authors/numbers/authors.json``)
and of the default run (``figures/numbers/*.json``) by the rules below; nothing is typed in by hand.
They feed the verdict column of docs/results/authors.md and of the README's table
(``ssi.experiments.authors.summary``).

Evidence: an experiment the authors ran with too few seeds to decide (one per point) is also run
with ``decide_seeds`` replicates at the same parameters (config/authors.yaml; its first replicates
are their run as made). The verdict comes from that many-seed run, and the text shows theirs as run
beside it. Without it, a one-seed experiment is "undecided": one seed gives no interval.

Rules (the claim of each target is the paper's C4 / C5 statement, docs/theory.md):

Every verdict is one of :data:`ssi.verdicts.VERDICTS`, decided by the one rule of
:mod:`ssi.verdicts` (interval at most half the distance between the alternatives wide, at least half
of the runs escaped); "n/a" marks a file no claim rests on.

* C4 gain T_untied/T_tied at the seed-mean crossing of the authors' escape level
  (:data:`ssi.escape.AUTHORS`): the paper says ∝ L at SIE 1 and ∝ L² at SIE 2.
  :func:`ssi.verdicts.exponent_verdict`: "reproduced" when the claimed exponent is
  inside the 95 % bootstrap interval, "differs" when it is outside, "undecided" when the interval
  is wider than 0.5 (half the distance between L and L²) or there is no interval. A crossing from a start already near the level does not count
  (ssi.experiments.authors.crossings: seed-mean start ≥ level/√2); such points are left out of
  the fit and named. Why: the ODE's exponent on the same points (equal within ``ODE_AGREES``
  means the law is not a finite-d effect), and the learning-rate protocol when it makes the gain
  differ from the same-η claim.
* C4 null targets: the tied network never learns. "reproduced" when at every L the tied network's
  final seed-mean overlap is below ``NULL_FACTOR``·d^(−1/2) and the untied one's above it, each by
  two standard errors of the seed mean (its 95 % interval on one side of the level); "differs"
  when one of them is on the wrong side by as much; "undecided" otherwise (and with one seed).
* C5 transition: SGD switches from semantic to positional as ω grows. "undecided" when fewer than
  half of the runs escaped by T (:func:`ssi.verdicts.escaped_share`), else "reproduced" when a
  switch ω is defined (half of the escaped runs positional), "undecided" when none is;
  compared with the phase diagram's initial-direction and global-minimum switches (a = 1).
* C5 misaligned ("yellow") region: SGD is first drawn to the positional side but ends at the
  global minimum (semantic there). "reproduced" when most runs end semantic, "differs" otherwise.
* Exploratory files (their own label, or a "test" machine): "n/a".
"""
from __future__ import annotations

import math

from ...escape import AUTHORS
from ...verdicts import DIFFERS, MIN_ESCAPED, REPRODUCED, UNDECIDED, exponent_verdict

#: standard errors of the seed mean that put a null-target run on one side of the noise level
NULL_STANDARD_ERRORS = 2.0
#: SGD and ODE exponents closer than this are "the same law"
ODE_AGREES = 0.1
#: a null-target run "stays at the noise level" when its final overlap is ≤ NULL_FACTOR·d^(−1/2)
NULL_FACTOR = 1.5

#: their target name -> the gain exponent the paper claims for it (SIE 1: L, SIE 2: L²)
CLAIMED_GAIN = {"inversesqrtsum": 1.0, "sqrtz1": 1.0, "H2sum": 2.0, "inversesqrtH2sum": 2.0}
NULL_TARGETS = ("2difference", "2squaredifference")


def num(v, spec=".2f") -> str:
    """``v`` formatted by ``spec``, or "n/a" for None and a non-finite float."""
    return "n/a" if v is None or (isinstance(v, float) and not math.isfinite(v)) else format(v, spec)


def _finite(v) -> bool:
    return v is not None and isinstance(v, (int, float)) and math.isfinite(v)


def gain_of(name: str, numbers: dict) -> tuple[str, dict] | tuple[None, None]:
    """The gain fit of an experiment: its own (both networks in one file) or its pair's."""
    for key, g in numbers.get("gains", {}).items():
        if name in key.split("/"):
            return key, g
    g = numbers["experiments"][name].get("gain")
    if g and _finite(g.get("exponent")):
        return name, g
    return None, None


def _fit_text(g: dict, seeds_said: bool = False) -> str:
    """"L^x [low, high]" of a gain fit, or "L^x (one seed per point, no interval)" ("L^x (no
    interval)" when the text already says how many seeds: ``seeds_said``)."""
    if _finite(g.get("low")) and _finite(g.get("high")):
        return f"L^{num(g.get('exponent'))} [{num(g['low'])}, {num(g['high'])}]"
    return f"L^{num(g.get('exponent'))} ({'' if seeds_said else 'one seed per point, '}no interval)"


def _excluded_text(g: dict) -> str:
    """The points a flagged start left out of a gain fit, or ""."""
    out = g.get("excluded") or []
    if not out:
        return ""
    return " without " + ", ".join(f"{x['network']} L = {x['L']} (start {x['start'] / x['level']:.2f} of the level)"
                                   for x in out)


def _gain_verdict(spec: dict, g: dict, scalings: list[str], seeds: int) -> tuple[str, str]:
    claimed = CLAIMED_GAIN[spec["target"]]
    decided = g.get("decide")
    basis = decided if decided else g
    x, lo, hi, ode = basis.get("exponent"), basis.get("low"), basis.get("high"), g.get("ode_exponent")
    if not _finite(x):
        return "n/a", f"no gain defined (a network never reached {AUTHORS.level_text()})"
    agrees = exponent_verdict(x, lo, hi, claimed, name="gain exponent").word
    as_run = f"{_fit_text(g, seeds_said=bool(decided))}{_excluded_text(g)}"
    if decided:
        why = [f"{decided['seeds']} seeds: {_fit_text(decided)}{_excluded_text(decided)}, claimed L^{claimed:g}",
               f"as run ({seeds} seed{'s' if seeds > 1 else ''}): {as_run}"]
    else:
        why = [f"{as_run}, claimed L^{claimed:g}"]
    if _finite(ode):
        why.append(f"ODE L^{ode:.2f}" + (": same law (not finite-d)" if abs(ode - x) <= ODE_AGREES
                                           else ": SGD and ODE differ"))
    scaled = sorted({s for s in scalings if s not in (None, "none")})
    if scaled:
        why.append(f"their η scales with L ({', '.join(scaled)})")
    return agrees, "; ".join(why)


def _side(rows: list[dict], level: float, above: bool) -> tuple[int, int]:
    """(runs on the expected side of ``level`` by NULL_STANDARD_ERRORS standard errors,
    runs on the wrong side by as much); ``above``: the expected side is above the level."""
    right = wrong = 0
    for r in rows:
        mean, sd, n = r["final_overlap_mean"], r.get("final_overlap_sd"), r.get("seeds", 1)
        if not (_finite(mean) and _finite(sd) and n > 1):
            continue
        margin = NULL_STANDARD_ERRORS * sd / math.sqrt(n)
        low, high = mean - margin, mean + margin
        right += (low > level) if above else (high <= level)
        wrong += (high <= level) if above else (low > level)
    return right, wrong


def null_counts(spec: dict, e: dict) -> dict:
    """A null-target experiment judged on its many-seed rerun when there is one (else as run):
    ``tied``/``untied`` runs, how many end below/above NULL_FACTOR·d^-½ by NULL_STANDARD_ERRORS
    standard errors (``tied_below``, ``untied_above``) and on the wrong side by as much
    (``tied_wrong``, ``untied_wrong``), and the ``seeds`` per run."""
    level = NULL_FACTOR / math.sqrt(spec["d"])
    decided = e.get("decide")
    rows = decided["rows"] if decided else e["rows"]
    tied = [r for r in rows if r["student"] == "tied_network"]
    untied = [r for r in rows if r["student"] != "tied_network"]
    t_right, t_wrong = _side(tied, level, above=False)
    u_right, u_wrong = _side(untied, level, above=True)
    return {"tied": len(tied), "untied": len(untied), "tied_below": t_right, "untied_above": u_right,
            "tied_wrong": t_wrong, "untied_wrong": u_wrong, "seeds": rows[0]["seeds"] if rows else 0}


def _null_verdict(spec: dict, e: dict) -> tuple[str, str]:
    c = null_counts(spec, e)
    if c["tied_wrong"] or c["untied_wrong"]:
        agrees = DIFFERS
    elif c["tied_below"] == c["tied"] and c["untied_above"] == c["untied"]:
        agrees = REPRODUCED
    else:
        agrees = UNDECIDED
    seeds = c["seeds"]
    decided = e.get("decide")
    sqrt_d = math.sqrt(spec["d"])
    why = (f"{seeds} seed{'s' if seeds > 1 else ''}: tied below {NULL_FACTOR:g}·d^-½ in {c['tied_below']}/{c['tied']} L, "
           f"untied above it in {c['untied_above']}/{c['untied']} (by {NULL_STANDARD_ERRORS:g} standard errors)")
    if decided:
        scaled = {}
        for r in e["rows"]:
            scaled.setdefault("tied" if "tied" in r["student"] else "untied", []).append(r["final_overlap_mean"] * sqrt_d)
        as_run = ", ".join(f"{net} {min(v):.2f}" + (f"–{max(v):.2f}" if len(v) > 1 else "")
                           for net, v in sorted(scaled.items()))
        why += f"; as run ({e['rows'][0]['seeds']} seed), final overlap × √d: {as_run}"
    return agrees, why


def _transition_verdict(e: dict, default: dict) -> tuple[str, str]:
    pred = default.get("semantic_positional", {}).get("prediction", {})
    diagram = (f"; diagram (a = 1): initial direction turns at ω {num(pred.get('switch_dynamics'), '.3f')}, "
               f"global minimum at {num(pred.get('switch_global'), '.3f')}" if pred else "")
    switch, stuck = e.get("switch_omega"), e.get("share_not_escaped")
    if _finite(stuck) and 1 - stuck < MIN_ESCAPED:
        return UNDECIDED, ((f"switch ω {switch:.3f}, " if _finite(switch) else "")
                           + f"{num(stuck, '.0%')} not escaped (under {100 * MIN_ESCAPED:g} % escaped){diagram}")
    if _finite(switch):
        return REPRODUCED, f"switch ω {switch:.3f}, {num(stuck, '.0%')} not escaped{diagram}"
    return UNDECIDED, f"no switch at this T: {num(stuck, '.0%')} of runs not escaped{diagram}"


def _misaligned_verdict(e: dict) -> tuple[str, str]:
    r = e["rows"][0]
    ok = _finite(r.get("share_semantic")) and r["share_semantic"] > 0.5
    return (REPRODUCED if ok else DIFFERS), (f"{num(r.get('share_semantic'), '.0%')} end semantic (the global minimum), "
                                     f"final m̄ {num(r['final_overlap_mean'], '.3f')}")


def verdict(name: str, config: dict, numbers: dict, default: dict) -> tuple[str, str]:
    """(a word of :data:`ssi.verdicts.VERDICTS` or "n/a", why) for one experiment file, by the module's rules."""
    experiments = config["authors"]["experiments"]
    spec, e = experiments[name], numbers["experiments"][name]
    if spec["role"] == "exploratory" or spec["claim"] not in ("C4", "C5"):
        return "n/a", "exploratory run, no claim of the paper rests on it"
    if spec["claim"] == "C5":
        if len(spec["sweep"]["omega"]) == 1:
            return _misaligned_verdict(e)
        return _transition_verdict(e, default)
    if spec["target"] in NULL_TARGETS:
        return _null_verdict(spec, e)
    if spec["target"] in CLAIMED_GAIN:
        key, g = gain_of(name, numbers)
        if g is None:
            return "n/a", "no gain defined"
        names = [n for n in key.split("/") if n in experiments]
        scalings = [experiments[n].get("lr_scaling") for n in names]
        return _gain_verdict(spec, g, scalings, min(int(experiments[n]["seeds"]) for n in names))
    return "n/a", f"no rule for target {spec['target']}"


def candidates_verdict(cand: dict) -> tuple[str, str]:
    """Does a protocol of the candidates give gain ∝ L²? Each protocol by
    :func:`ssi.verdicts.exponent_verdict` against 2: "reproduced" when one of them is (named),
    "undecided" when none is but one is undecided, "differs" when all differ; the why lists (i) and
    (ii) with the ODE."""
    g = cand["gains"]
    labels = {"i_untied_over_attention": "(i) untied/attention", "ii_untied_alone": "(ii) untied alone"}
    each = {k: exponent_verdict(g[k]["exponent_sgd"], g[k]["low"], g[k]["high"], 2.0, name="gain exponent")
            for k in labels if k in g}
    hits = [k for k, v in each.items() if v.word == REPRODUCED]
    word = REPRODUCED if hits else UNDECIDED if any(v.word == UNDECIDED for v in each.values()) else DIFFERS
    parts = [f"{label} L^{num(g[k]['exponent_sgd'])} [{num(g[k]['low'])}, {num(g[k]['high'])}] "
             f"(ODE {num(g[k]['exponent_ode'])})" + (" too wide to decide" if each[k].word == UNDECIDED else "")
             for k, label in labels.items() if k in g]
    return word, (f"L² inside the interval of {', '.join(hits)}; " if hits else "") + "; ".join(parts)
