"""Which learning-rate protocol or target normalisation gives the authors' gain ∝ L² (the ODE).

At the SIE-2 settings of square-sequencelength-{plain,tied} (d = 1000, their η = 2·10⁻⁴ with torch
MSE, ReLU students, overlapped start, escape at the authors' level :data:`ssi.escape.AUTHORS`), the
ODE's escape steps of the tied and the untied network for L = 1..10:

* A. their protocol (tied η·√L, untied η) on every normalisation of Σh₂ in their function list;
* B. candidate (i): each network at its own ODE-best η, the tied network being the trace attention
  student (no PE) on Σh₂;
* C. candidate (ii): the untied network at its ODE-best η on Σh₂ against a tied network whose time
  does not grow with L (the tied ReLU network on (1/√L)Σh₂ at its own best η).

A is integrated with the full ODE; the best η and the steps at it of B and C are the keyed
predictions of :mod:`ssi.experiments.tied_untied_theory.predictions` (the reduced ODE, exact on
these states, with its best η by a 1-D minimisation): this job is where they are computed, and the
authors' numbers file the one that holds them. Exponents are log-log slopes over L. The SGD runs of
the same candidates are :mod:`ssi.experiments.authors.candidates`.
"""
from __future__ import annotations

import math

import numpy as np

from ...io import save_result
from ...ode import escape_time
from .candidates import problem
from .spec import initial_m
from ..common import ProgressLog, loglog_slope
from ..tied_untied_theory import predictions as tp

#: the best-η families: name -> (target, student, key of the config's list of L)
BEST_FAMILIES = {"untied_H2sum": ("H2sum", "untied", "Ls"), "tied_H2sum": ("H2sum", "tied", "Ls"),
                 "attention_H2sum": ("H2sum", "attention", "attention_Ls"),
                 "tied_inversesqrtH2sum": ("inversesqrtH2sum", "tied", "Ls")}


def protocols(spec: dict, stem, log_path=None) -> dict:
    """Compute A, B and C for the config section ``authors.protocols`` and write ``stem``.npz/.json.

    Parameters
    ----------
    spec : dict
        ``d``, ``lr``, ``Ls``, ``normalisations``, ``attention_Ls``, ``t_max``,
        ``qmc_log2`` (config/authors.yaml).
    stem : path
        The result file without suffix.
    log_path : path, optional
        The progress log.

    Returns
    -------
    dict
        The numbers written into the result's record.
    """
    d, lr0, Ls = int(spec["d"]), float(spec["lr"]), [int(L) for L in spec["Ls"]]
    level = tp.authors_level(d)
    m0 = initial_m({"d": d, "init": "overlapped", "ic_overlap": None})
    log = ProgressLog(log_path, "authors protocols (ODE)")

    def steps(p, lr):
        kw = {"token_symmetric": True, "overlap": "rms"} if not p.tied else {}
        if p.student == "attention" and p.L >= 4:
            kw["quadrature"] = {"qmc_log2": int(spec["qmc_log2"])}
        return escape_time(p, d, lr, level, m0, t_max=float(spec["t_max"]), give_up_below=0.25 * m0, **kw)

    arrays, out = {"Ls": np.array(Ls)}, {"d": d, "lr": lr0, "level": level, "m0": m0}
    for target in spec["normalisations"]:
        tu = np.array([steps(problem(target, "untied", L), lr0) for L in Ls])
        tt = np.array([steps(problem(target, "tied", L), lr0 * math.sqrt(L)) for L in Ls])
        arrays[f"A_{target}_untied"], arrays[f"A_{target}_tied"] = tu, tt
        out[f"A_{target}"] = {"exponent_gain": loglog_slope(Ls, tu / tt), "exponent_untied": loglog_slope(Ls, tu),
                              "exponent_tied": loglog_slope(Ls, tt), "gain": (tu / tt).tolist()}
        log.note(f"A {target}: {out[f'A_{target}']}")
    # B and C: each network at the ODE's best η (the keyed predictions)
    best = {}
    for key, (target, student, grid) in BEST_FAMILIES.items():
        rows = []
        for L in spec[grid]:
            p = tp.predict(tp.key(target, student, int(L), d, level, m0))
            rows.append((int(L), p["lr"], p["steps"]))
            log.note(f"best η {key} L={L}: η = {p['lr']:.4g}, steps {p['steps']:.4g}")
        arr = np.array(rows, float)
        arrays[f"best_{key}"] = arr
        best[key] = {"Ls": arr[:, 0].astype(int).tolist(), "lr": arr[:, 1].tolist(), "steps": arr[:, 2].tolist(),
                     "exponent_steps": loglog_slope(arr[:, 0], arr[:, 2]),
                     "exponent_lr": loglog_slope(arr[:, 0], arr[:, 1])}
    out["best"] = best
    untied = dict(zip(best["untied_H2sum"]["Ls"], best["untied_H2sum"]["steps"]))
    attention = dict(zip(best["attention_H2sum"]["Ls"], best["attention_H2sum"]["steps"]))
    common = [L for L in attention if L in untied]
    out["B_gain_untied_over_attention"] = {"Ls": common, "gain": [untied[L] / attention[L] for L in common],
                                           "exponent": loglog_slope(common, [untied[L] / attention[L] for L in common])}
    normalised = dict(zip(best["tied_inversesqrtH2sum"]["Ls"], best["tied_inversesqrtH2sum"]["steps"]))
    out["C_gain_untied_over_tied_normalised"] = {"Ls": Ls, "gain": [untied[L] / normalised[L] for L in Ls],
                                                 "exponent": loglog_slope(Ls, [untied[L] / normalised[L] for L in Ls])}
    save_result(stem, arrays, {"experiment": "authors", "part": "protocols", "numbers": out, "config": spec})
    return out
