"""Claim C4, tied vs untied, the jobs: problems and result files, the ODE's best learning rates
and escape times, SGD per (case, protocol, network), the null cases, attention vs untied."""
from __future__ import annotations

import math

import numpy as np

from ...hermite import sie
from ...io import load_result, save_result
from ...ode import escape_time, escape_times, integrate_ode
from ...problems import Problem
from ...sgd import simulate
from ... import escape
from ...escape import crossing_time, replicate_crossings
from ..common import ProgressLog, overlap_curves, seed_key

EXPERIMENT = "tied_untied"
NETWORKS = ("tied", "untied")
PROTOCOLS = ("same_lr", "best_lr")
#: escape thresholds, named in the section's ``escape`` block: the authors' early level and the macroscopic one
THRESHOLDS = ("authors", "macro")


def escapes(section) -> dict:
    """The section's escapes (:mod:`ssi.escape`): the thresholds ``authors`` and ``macro`` and
    ``macro_replicates`` (the replicates' own crossings of the macroscopic level)."""
    named = escape.named(section, EXPERIMENT)
    required = (*THRESHOLDS, "macro_replicates")
    if sorted(named) != sorted(required):
        raise ValueError(f"config {EXPERIMENT}.escape: the escapes {', '.join(required)} are required, got {sorted(named)}")
    return named


def thresholds(section, d: int) -> dict:
    """The escape thresholds at dimension d, ``{"authors": ..., "macro": ...}``."""
    named = escapes(section)
    return {k: named[k].value(d) for k in THRESHOLDS}



# --- problems, points, files -------------------------------------------------------------------
def problem(spec: dict, L: int, network: str) -> Problem:
    """The (target, activation) of a case or null run as a tied or untied feed-forward student."""
    try:
        return Problem(L=int(L), target=spec["target"], student=network, activation=spec.get("activation", "relu"))
    except ValueError as err:
        raise ValueError(f"config {EXPERIMENT} (target {spec['target']}, L={L}, {network}): {err}") from None


def attention_problem(spec: dict, L: int, network: str) -> Problem:
    """Part 4: attention with the trace reduction ("attention") or the untied network ("untied")."""
    if network == "attention":
        return Problem(L=int(L), target=spec["target"], student="attention", reduction="trace")
    return Problem(L=int(L), target=spec["target"], student="untied", activation=spec["activation"])


def stems(config, kind):
    """Result stems: "ode" per case, "sgd" per (case, protocol, network), "null" per run,
    "attention" per network."""
    root = f"{config['results_dir']}/{EXPERIMENT}"
    section = config[EXPERIMENT]
    if kind == "ode":
        return {c: f"{root}/ode_{c}" for c in section["cases"]}
    if kind == "sgd":
        return {(c, p, n): f"{root}/sgd_{c}_{p}_{n}" for c in section["cases"] for p in PROTOCOLS
                for n in NETWORKS}
    if kind == "null":
        return {r: f"{root}/null_{r}" for r in section["null_targets"]["runs"]}
    if kind == "attention":
        return {n: f"{root}/attention_{n}" for n in ("attention", "untied")}
    raise ValueError(f"kind={kind!r} is unknown; allowed: ode, sgd, null, attention")


def initial_overlap(spec: dict, d: int) -> float:
    """m₀ = sign·d^(−1/2) for every token (``m0_sign`` of the case, default +1)."""
    return float(spec.get("m0_sign", 1)) * d ** -0.5


# --- ODE: best learning rates and escape times -------------------------------------------------
#: the ODE gives up when the overlap falls to this fraction of |m₀| (the noise has won)
GIVE_UP = 0.25


def _ode_kwargs(prob, m0):
    kwargs = {"token_symmetric": True, "overlap": "rms"} if not prob.tied else {}
    return {"give_up_below": GIVE_UP * abs(m0), **kwargs}


def _ode_steps(prob, d, lr, level, m0, t_max):
    return escape_time(prob, d, lr, level, m0, t_max=t_max, **_ode_kwargs(prob, m0))


class EscapeMemo:
    """The ODE's escape steps of one student at every level, one integration per η.

    ``memo(lr, level)`` is ``_ode_steps(prob, d, lr, level, m0, t_max)``: the integration to the
    highest level records the others on the way (:func:`ssi.ode.escape_times`, the same numbers as
    one integration per level), and an η asked again is not integrated again.
    """

    def __init__(self, prob, d, levels, m0, t_max):
        self.prob, self.d, self.m0, self.t_max = prob, d, m0, t_max
        self.levels = tuple(float(v) for v in levels)
        self.solved = {}

    def __call__(self, lr, level):
        lr = float(lr)
        if lr not in self.solved:
            self.solved[lr] = escape_times(self.prob, self.d, lr, self.levels, self.m0, t_max=self.t_max,
                                           **_ode_kwargs(self.prob, self.m0))
        return self.solved[lr][float(level)]


def best_learning_rate(prob, d, level, m0, bounds, t_max, memo=None):
    """η in ``bounds`` minimising the ODE's steps to ``level`` (bounded search in log η).

    ``memo``: an :class:`EscapeMemo` of the same student, ``m0`` and ``t_max`` with ``level`` among
    its levels (its integrations serve the search and are kept for later questions).
    Returns (η, steps); steps is inf when no η in the bounds escapes by ``t_max``.
    """
    memo = memo or EscapeMemo(prob, d, (level,), m0, t_max)

    def cost(log_lr):
        steps = memo(math.exp(log_lr), level)
        return math.log(steps) if math.isfinite(steps) else 1e3 + log_lr  # no escape: push towards smaller η

    from scipy.optimize import minimize_scalar  # here: not every job of the family needs scipy

    res = minimize_scalar(cost, bounds=(math.log(bounds[0]), math.log(bounds[1])), method="bounded",
                          options={"xatol": 0.02})
    lr = float(math.exp(res.x))
    return lr, memo(lr, level)


def ode_case(config, case: str, out_stem, log=None) -> None:
    """For every ODE L of a case: best η per network, and escape steps at both thresholds under both protocols."""
    section = config[EXPERIMENT]
    spec = section["cases"][case]
    d = int(spec["d"])
    levels = thresholds(section, d)
    level = levels["macro"]
    m0 = initial_overlap(spec, d)
    Ls = np.array(sorted(set(spec["Ls"]) | set(spec.get("ode_Ls", []))), dtype=int)
    t_max = float(spec["ode_t_max"])
    progress = ProgressLog(log, f"{EXPERIMENT} ODE {case}")
    lr = {p: np.zeros((len(NETWORKS), Ls.size)) for p in PROTOCOLS}
    steps = {(p, k): np.zeros((len(NETWORKS), Ls.size)) for p in PROTOCOLS for k in THRESHOLDS}
    for j, L in enumerate(Ls):
        for i, net in enumerate(NETWORKS):
            prob = problem(spec, L, net)
            memo = EscapeMemo(prob, d, (level, *levels.values()), m0, t_max)
            lr["same_lr"][i, j] = float(spec["same_lr"])
            # the untied ODE (token-symmetric state) is the tied one slowed by L at every η, so
            # its best η is the tied one (tests/experiments/test_tied_untied.py checks the two searches agree)
            # best_lr_factor < 1 backs off from a cliff: at SIE 3 the ODE's escape time falls
            # with η until the noise wins, so its minimiser sits on the edge of non-escape
            lr["best_lr"][i, j] = (float(spec.get("best_lr_factor", 1.0))
                                   * best_learning_rate(prob, d, level, m0, spec["lr_search"], t_max, memo)[0]
                                   if net == "tied" else lr["best_lr"][0, j])
            for p in PROTOCOLS:
                for k in THRESHOLDS:
                    steps[(p, k)][i, j] = memo(lr[p][i, j], levels[k])
        progress.note(f"L={L}: best η tied {lr['best_lr'][0, j]:.4g}, untied {lr['best_lr'][1, j]:.4g}; "
                      f"macro steps same η {steps[('same_lr', 'macro')][:, j].tolist()}, "
                      f"best η {steps[('best_lr', 'macro')][:, j].tolist()}")
    arrays = {"Ls": Ls, **{f"lr_{p}": v for p, v in lr.items()},
              **{f"steps_{p}_{k}": v for (p, k), v in steps.items()}}
    save_result(out_stem, arrays, {"experiment": EXPERIMENT, "case": case, "d": d, "m0": m0,
                                   "levels": levels, "config": spec})


def _ode_lookup(config, case, protocol, network, L, ode_stem=None):
    data, _ = load_result(stems(config, "ode")[case] if ode_stem is None else ode_stem)
    j = int(np.nonzero(data["Ls"] == L)[0][0])
    i = NETWORKS.index(network)
    return float(data[f"lr_{protocol}"][i, j]), float(data[f"steps_{protocol}_macro"][i, j])


# --- SGD --------------------------------------------------------------------------------------
def sgd_point(config, case: str, protocol: str, network: str, out_stem, log=None, ode_stem=None) -> None:
    """SGD replicates of one (case, protocol, network) at every L of the case (the case's ODE result
    read from ``ode_stem``, by default its stem under the config's results folder)."""
    section = config[EXPERIMENT]
    spec = section["cases"][case]
    d = int(spec["d"])
    level = thresholds(section, d)["macro"]
    replicates = int(section["replicates"])
    m0 = initial_overlap(spec, d)
    progress = ProgressLog(log, f"{EXPERIMENT} {case} {protocol} {network} d={d} ({replicates} replicates)")
    arrays, lrs, horizons = {}, {}, {}
    for L in spec["Ls"]:
        prob = problem(spec, L, network)
        lr, ode_steps = _ode_lookup(config, case, protocol, network, L, ode_stem)
        if not math.isfinite(ode_steps):
            raise ValueError(f"config {EXPERIMENT}.cases.{case}: the ODE does not escape at L={L}, "
                             f"{network}, {protocol} (η = {lr:.4g}) by ode_t_max; change same_lr or lr_search")
        steps = int(math.ceil(float(section["horizon"]) * ode_steps))
        key = seed_key(config["seed"], EXPERIMENT, case, protocol, network, int(L))
        progress.note(f"L={L}: η = {lr:.5g}, up to {steps} steps")
        run = simulate(prob, d, lr, steps, replicates, seed=key, engine=config["engine"], m0=m0,
                       threshold=level, stop_at_threshold=True,
                       points_per_decade=section["points_per_decade"], progress=progress)
        arrays[f"steps_L{L}"] = run.steps
        arrays[f"overlap_L{L}"] = overlap_curves(run)
        lrs[int(L)], horizons[int(L)] = lr, steps
    save_result(out_stem, arrays, {"experiment": EXPERIMENT, "case": case, "protocol": protocol,
                                   "network": network, "d": d, "m0": m0, "lr": lrs, "horizon_steps": horizons,
                                   "replicates": replicates, "engine": config["engine"],
                                   "escape_level": level, "config": spec})


def escape_samples(steps, curves, level):
    """Crossing of the replicate-mean curve, and per-replicate crossings (inf: not reached)."""
    mean = crossing_time(steps, curves.mean(axis=0), level)
    return mean, replicate_crossings(steps, curves, level)


# --- null cases -----------------------------------------------------------------------------------
def null_point(config, run_name: str, out_stem, log=None) -> None:
    """Tied and untied SGD (no stopping) and their ODEs on one antisymmetric target."""
    section = config[EXPERIMENT]
    spec = section["null_targets"]["runs"][run_name]
    d, L, lr = int(spec["d"]), int(spec["L"]), float(spec["lr"])
    steps = int(round(float(spec["t_max"]) * d))
    replicates = int(section["replicates"])
    progress = ProgressLog(log, f"{EXPERIMENT} null {run_name} d={d} L={L} ({replicates} replicates)")
    arrays, sies = {}, {}
    horizon = float(spec["t_max"])
    t_eval = np.unique(np.clip(np.concatenate([[0.0], np.logspace(math.log10(1.0 / d), math.log10(horizon), 300)]),
                               0.0, horizon))
    for net in NETWORKS:
        prob = problem(spec, L, net)
        key = seed_key(config["seed"], EXPERIMENT, "null", run_name, net)
        run = simulate(prob, d, lr, steps, replicates, seed=key, engine=config["engine"], m0=d ** -0.5,
                       points_per_decade=section["points_per_decade"], progress=progress)
        arrays[f"steps_{net}"] = run.steps
        arrays[f"overlap_{net}"] = overlap_curves(run)
        kwargs = {} if prob.tied else {"overlap": "rms"}
        sol = integrate_ode(prob, lr, d ** -0.5, t_max=float(spec["t_max"]), t_eval=t_eval, **kwargs)
        arrays[f"ode_t_{net}"], arrays[f"ode_m_{net}"] = sol.t, np.abs(sol.m)
        sies[net] = sie(prob)
        progress.note(f"{net}: SIE {sies[net]}, final mean overlap {arrays[f'overlap_{net}'][:, -1].mean():.4f}")
    save_result(out_stem, arrays, {"experiment": EXPERIMENT, "run": run_name, "d": d, "L": L, "lr": lr,
                                   "steps": steps, "replicates": replicates, "sie": sies, "config": spec})


# --- attention vs untied square network --------------------------------------------------------------
def attention_point(config, network: str, out_stem, log=None) -> None:
    """Part 4: SGD and ODE escape of one network at every L, one η for both networks."""
    section = config[EXPERIMENT]
    spec = section["attention"]
    d, lr = int(spec["d"]), float(spec["lr"])
    levels = thresholds(section, d)
    level = levels["macro"]
    replicates = int(section["replicates"])
    m0 = d ** -0.5
    progress = ProgressLog(log, f"{EXPERIMENT} attention part, {network}, d={d} ({replicates} replicates)")
    arrays, meta_L = {}, {}
    quad = {"qmc_log2": int(spec["qmc_log2"])}
    for L in spec["Ls"]:
        prob = attention_problem(spec, L, network)
        kwargs = {"token_symmetric": True, "overlap": "rms"} if not prob.tied else {"quadrature": quad}
        t_ode = float(spec["ode_t_max"])
        sol = integrate_ode(prob, lr, m0, t_max=t_ode, threshold=level, stop_at_threshold=True, **kwargs)
        ode_macro = sol.crossing_time * d
        ode_authors = crossing_time(sol.t * d, np.abs(sol.m), levels["authors"])
        if not math.isfinite(ode_macro):
            raise ValueError(f"config {EXPERIMENT}.attention: the ODE of {network} at L={L} does not escape "
                             f"by ode_t_max={t_ode}")
        steps = int(math.ceil(float(spec.get("horizon", section["horizon"])) * ode_macro))
        key = seed_key(config["seed"], EXPERIMENT, "attention", network, int(L))
        progress.note(f"L={L}: ODE escape {ode_macro:.4g} steps; SGD up to {steps} steps")
        run = simulate(prob, d, lr, steps, replicates, seed=key, engine=config["engine"], m0=m0,
                       threshold=level, stop_at_threshold=True,
                       points_per_decade=section["points_per_decade"], progress=progress)
        arrays[f"steps_L{L}"] = run.steps
        arrays[f"overlap_L{L}"] = overlap_curves(run)
        arrays[f"ode_t_L{L}"], arrays[f"ode_m_L{L}"] = sol.t, np.abs(sol.m)
        meta_L[int(L)] = {"ode_macro": ode_macro, "ode_authors": ode_authors, "horizon": steps,
                          "sie": sie(prob)}
    save_result(out_stem, arrays, {"experiment": EXPERIMENT, "network": network, "d": d, "lr": lr,
                                   "m0": m0, "replicates": replicates, "escape_level": level,
                                   "per_L": meta_L, "config": spec})


