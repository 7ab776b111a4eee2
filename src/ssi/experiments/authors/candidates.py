"""C4 at SIE 2: the protocols that could give a gain ∝ L², by SGD at the ODE's best η.

:mod:`ssi.experiments.authors.protocols` finds, with the reduced ODE (the keyed predictions of
:mod:`ssi.experiments.tied_untied_theory.predictions`), the
learning rate that minimises each network's steps to the authors' escape level
(:data:`ssi.escape.AUTHORS`) at their SIE-2 settings
(d = 1000, torch-MSE loss, Σh₂, ReLU students, overlapped start). This module runs SGD at those
learning rates, so that the two candidates of the authors' C4 question are answered by SGD and
not only by the ODE:

* (i) each network at its own best η, the tied network being the trace-attention student:
  gain T_untied / T_attention;
* (ii) the untied time at its best η against a tied time that does not grow with L: the
  exponent of T_untied itself (a constant tied time), and the ratio to the tied ReLU network
  on (1/√L)Σh₂ at its own best η;
* for reference, the tied ReLU network on Σh₂ at its best η (gain T_untied / T_tied).

Times are the crossing of the seed-mean overlap (tied, attention |m|; untied RMS of the token
overlaps, as the authors measure) at the authors' escape level; exponents are log-log slopes over
L with a 95 % bootstrap interval over seeds.
"""
from __future__ import annotations

import math

import numpy as np

from ...io import load_result, save_result
from ...problems import Problem
from ..tied_untied_theory import predictions as tp
from .crossings import mean_crossing, ratio
from .spec import initial_m
from ..common import ProgressLog, bootstrap_slope, loglog_slope, overlap_curves, seed_key

EXPERIMENT = "authors"
#: best-η families of protocols.json: key -> (their target name, our student)
FAMILIES = {
    "untied_H2sum": ("H2sum", "untied"),
    "tied_H2sum": ("H2sum", "tied"),
    "attention_H2sum": ("H2sum", "attention"),
    "tied_inversesqrtH2sum": ("inversesqrtH2sum", "tied"),
}
#: (numerator, denominator or None) of each reported gain
GAINS = {
    "i_untied_over_attention": ("untied_H2sum", "attention_H2sum"),
    "ii_untied_alone": ("untied_H2sum", None),
    "ii_untied_over_tied_normalised": ("untied_H2sum", "tied_inversesqrtH2sum"),
    "untied_over_tied": ("untied_H2sum", "tied_H2sum"),
}


def problem(target: str, student: str, L: int) -> Problem:
    """Our Problem for one of the authors' Σh₂ normalisations and a student (ours: untied, tied,
    attention), with their MSE loss, ReLU feed-forward students and the trace reduction."""
    from ... import authors as api

    theirs = {ours: name for name, ours in api.STUDENT_NAMES.items()}[student]
    kw = {"reduction": "trace"} if student == "attention" else {"activation": "relu"}
    return api.problem(int(L), target, theirs, loss="square", **kw)


def check_config(config) -> None:
    """``authors.candidates`` needs ``authors.protocols`` (the ODE's best η); ValueError otherwise."""
    section = config[EXPERIMENT]
    if "candidates" in section and "protocols" not in section:
        raise ValueError("config authors.candidates: needs authors.protocols (the ODE's best learning rates)")


def stems(config) -> dict[str, str]:
    """Result stem of each family's SGD job (empty without ``authors.candidates``)."""
    if "candidates" not in config[EXPERIMENT]:
        return {}
    root = f"{config['results_dir']}/{EXPERIMENT}"
    return {key: f"{root}/candidates_{key}" for key in FAMILIES}


def _best(protocols_stem, key):
    """(Ls, best η, ODE steps to the authors' escape level) of one family, from the protocols result."""
    arrays, _ = load_result(protocols_stem)
    rows = arrays[f"best_{key}"]
    return rows[:, 0].astype(int), rows[:, 1], rows[:, 2]


def sgd_family(config, key: str, protocols_stem, out_stem, log=None) -> None:
    """SGD replicates of one family at the ODE's best η for every L (reduced engine).

    A run stops once the seed mean has reached ``stop_factor`` × the authors' escape level
    (:data:`ssi.escape.AUTHORS`), or after ``cap_factor`` × the ODE's steps to that level."""
    from ...sgd import simulate

    section = config[EXPERIMENT]
    spec, d = section["candidates"], int(section["protocols"]["d"])
    level = tp.authors_level(d)
    stop_level = float(spec["stop_factor"]) * level
    target, student = FAMILIES[key]
    Ls, lrs, ode_steps = _best(protocols_stem, key)
    progress = ProgressLog(log, f"{EXPERIMENT} candidates {key}: L = {Ls.tolist()}, {spec['seeds']} seeds")
    arrays, meta = {"Ls": Ls, "lr": lrs, "ode_steps": ode_steps}, {}
    for L, lr, n_ode in zip(Ls, lrs, ode_steps):
        cap = int(math.ceil(float(spec["cap_factor"]) * n_ode))
        run = simulate(problem(target, student, int(L)), d, float(lr), cap, int(spec["seeds"]),
                       seed=seed_key(config["seed"], EXPERIMENT, "candidates", key, int(L)),
                       engine=config["engine"], points_per_decade=int(spec["points_per_decade"]),
                       progress=progress, stop_when=lambda done, m: bool(np.mean(np.abs(m)) >= stop_level),
                       init="overlapped", ic_overlap=None)
        arrays[f"steps_{L}"], arrays[f"overlap_{L}"] = run.steps, overlap_curves(run)
        meta[str(int(L))] = {"lr": float(lr), "cap": cap, "steps_run": int(run.steps[-1])}
        progress.note(f"L = {L}: η = {lr:.4g}, {int(run.steps[-1])} steps (cap {cap})")
    save_result(out_stem, arrays, {"experiment": EXPERIMENT, "part": "candidates", "family": key, "d": d,
                                   "m0": initial_m({"d": d, "init": "overlapped", "ic_overlap": None}),
                                   "points": meta, "config": spec})


def _load(stem):
    arrays, meta = load_result(stem)
    Ls = arrays["Ls"].astype(int).tolist()
    runs = {L: (arrays[f"steps_{L}"].astype(float), arrays[f"overlap_{L}"]) for L in Ls}
    ode = dict(zip(Ls, arrays["ode_steps"].astype(float)))
    lr = dict(zip(Ls, arrays["lr"].astype(float)))
    return runs, ode, lr, meta


def predictions(key: str, d: int, m0: float, lr: dict, ode: dict) -> list[dict]:
    """The keyed ODE predictions (:mod:`ssi.experiments.tied_untied_theory.predictions`) a
    family's SGD ran at: per L, the ODE's best η and its steps to the authors' escape level."""
    target, student = FAMILIES[key]
    return [tp.entry(tp.key(target, student, L, d, tp.authors_level(d), m0), lr[L], ode[L]) for L in sorted(lr)]


def summarise(config) -> dict | None:
    """Per family: seed-mean steps to the authors' escape level (:data:`ssi.escape.AUTHORS`) per L
    (SGD and ODE) and the steps exponent; per gain of :data:`GAINS`: SGD exponent with its 95 %
    bootstrap interval beside the ODE's; under ``ode_predictions`` the keyed ODE predictions the SGD
    ran at (this file holds them)."""
    files = stems(config)
    if not files:
        return None
    d = int(config[EXPERIMENT]["protocols"]["d"])
    level = tp.authors_level(d)
    seed = int(config["seed"])
    fam = {key: _load(stem) for key, stem in files.items()}
    out = {"d": d, "level": level, "families": {}, "gains": {}, "ode_predictions": []}
    for key, (runs, ode, lr, meta) in fam.items():
        Ls = sorted(runs)
        fit = _fit(Ls, runs, None, level, seed)
        out["families"][key] = {
            "Ls": Ls, "lr": [lr[L] for L in Ls], "seeds": int(runs[Ls[0]][1].shape[0]),
            "steps_sgd": fit["values"], "steps_ode": [ode[L] for L in Ls],
            "share_crossed": [float(np.mean(runs[L][1].max(axis=1) >= level)) for L in Ls],
            "exponent_sgd": fit["exponent"], "low": fit["low"], "high": fit["high"],
            "exponent_ode": loglog_slope(Ls, [ode[L] for L in Ls])}
        out["ode_predictions"] += predictions(key, d, float(meta["m0"]), lr, ode)
    for name, (num, den) in GAINS.items():
        runs_n, ode_n = fam[num][0], fam[num][1]
        runs_d, ode_d = (fam[den][0], fam[den][1]) if den else (None, None)
        Ls = sorted(set(runs_n) & set(runs_d)) if den else sorted(runs_n)
        fit = _fit(Ls, runs_n, runs_d, level, seed)
        ode_gain = [ratio(ode_n[L], ode_d[L]) if den else ode_n[L] for L in Ls]
        out["gains"][name] = {"numerator": num, "denominator": den, "Ls": Ls, "gain_sgd": fit["values"],
                              "gain_ode": ode_gain, "exponent_sgd": fit["exponent"], "low": fit["low"],
                              "high": fit["high"], "exponent_ode": loglog_slope(Ls, ode_gain),
                              "two_in_interval": bool(fit["low"] <= 2.0 <= fit["high"])}
    return out


def _fit(Ls, runs_n, runs_d, level, seed):
    """Log-log slope over L of the seed-mean crossing time (or of the ratio of two), bootstrap over seeds."""
    samples = {("n", L): runs_n[L][1] for L in Ls}
    if runs_d is not None:
        samples.update({("d", L): runs_d[L][1] for L in Ls})

    def values(pick):
        num = [mean_crossing(runs_n[L][0], pick("n", L), level) for L in Ls]
        if runs_d is None:
            return np.array(num)
        return np.array([ratio(a, mean_crossing(runs_d[L][0], pick("d", L), level)) for a, L in zip(num, Ls)])

    slope, low, high = bootstrap_slope(Ls, samples, values, seed=seed, n_boot=1000)
    return {"values": values(lambda *k: samples[k]).tolist(), "exponent": slope, "low": low, "high": high}


FIGURE = "protocol_candidates"
