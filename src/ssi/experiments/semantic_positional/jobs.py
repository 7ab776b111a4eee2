"""Claim C5, semantic vs positional, the jobs: the landscape integrals, the two phase diagrams,
the SGD transition blocks, the long runs and the ODE end points."""
from __future__ import annotations

import math

import numpy as np

from ... import phase
from ...io import load_result, save_result
from ...population import expectations
from ...sgd import simulate
from ..common import ProgressLog, problem_from_spec, seed_key

EXPERIMENT = "semantic_positional"
DIAGRAMS = ("full", "zoom")


# --- configuration -------------------------------------------------------------------------------
def problem(config, omega: float, a: float):
    """The configured base problem with the mixture's ω and a."""
    spec = dict(config[EXPERIMENT]["problem"], omega=float(omega), a=float(a))
    return problem_from_spec(spec, f"{EXPERIMENT}.problem (omega={omega}, a={a})")


def omega_blocks(config):
    """The transition's ω values split into ``omega_blocks`` consecutive blocks (one job each)."""
    omegas = [float(w) for w in config[EXPERIMENT]["transition"]["omegas"]]
    n = int(config[EXPERIMENT]["transition"]["omega_blocks"])
    return [list(b) for b in np.array_split(np.array(omegas), n) if len(b)]


def runs(config):
    """name -> transition run spec (d, steps, replicates, omegas)."""
    section = config[EXPERIMENT]["transition"]
    out = {}
    for name, spec in section["runs"].items():
        out[name] = dict(spec, omegas=[float(w) for w in spec.get("omegas", section["omegas"])])
    return out


def stems(config, kind):
    """Result stems: "landscape", "diagram" (by name), "sgd" (by (run, block)), "ode", "long" (by group)."""
    root = f"{config['results_dir']}/{EXPERIMENT}"
    section = config[EXPERIMENT]
    if kind == "landscape":
        return {"landscape": f"{root}/landscape"}
    if kind == "diagram":
        return {name: f"{root}/diagram_{name}" for name in DIAGRAMS}
    if kind == "sgd":
        return {(name, b): f"{root}/sgd_{name}_b{b}" for name, spec in runs(config).items()
                for b in range(len(_blocks(spec["omegas"], section["transition"]["omega_blocks"])))}
    if kind == "ode":
        return {"ode": f"{root}/ode"}
    if kind == "long":
        return {g: f"{root}/long_g{g}" for g in range(int(section["long_run"]["groups"]))}
    raise ValueError(f"kind={kind!r} is unknown; allowed: landscape, diagram, sgd, ode, long")


def _blocks(omegas, n):
    return [list(map(float, b)) for b in np.array_split(np.array(omegas, float), int(n)) if len(b)]


# --- landscape and diagram -------------------------------------------------------------------------
def landscape_point(config, out_stem, log=None) -> None:
    """The (a, ω)-independent integrals and a quadrature check at a few states."""
    landscape_section(config[EXPERIMENT]["landscape"], out_stem, log)


def landscape_section(spec, out_stem, log=None) -> None:
    """:func:`landscape_point` from the config section ``semantic_positional.landscape`` (what it reads)."""
    progress = ProgressLog(log, f"{EXPERIMENT} landscape")
    land = phase.landscape(spec["nodes"], spec["fine"], spec["c_points"], spec["e_points"], spec["hessian_step"])
    check_e = np.array([0.0, 0.3, 0.9, 0.0, 0.6])
    check_m = np.array([0.0, 0.5, 0.1, 1.0, 0.8])
    base = phase.overlap_integral(check_e, check_m, spec["c_points"])
    more = phase.overlap_integral(check_e, check_m, spec["check_points"])
    progress.note(f"C with {spec['c_points']} vs {spec['check_points']} points: max |Δ| "
                  f"{np.max(np.abs(base - more)):.2e}")
    save_result(out_stem, {"e_nodes": land.e_nodes, "m_nodes": land.m_nodes, "C_nodes": land.C_nodes,
                           "e_fine": land.e_fine, "N_fine": land.N_fine, "M_fine": land.M_fine,
                           "C_ee": land.hessian_terms["C_ee"], "C_mm": land.hessian_terms["C_mm"],
                           "N_ee": land.hessian_terms["N_ee"], "M_ee": land.hessian_terms["M_ee"],
                           "check_e": check_e, "check_m": check_m, "check_C": base, "check_C_more": more},
                {"experiment": EXPERIMENT, "config": spec})


def load_landscape(config, load=load_result) -> phase.Landscape:
    """The landscape integrals saved by :func:`landscape_point` (read through ``load``)."""
    return read_landscape(stems(config, "landscape")["landscape"], load)


def read_landscape(stem, load=load_result) -> phase.Landscape:
    """The landscape integrals of the result ``stem`` (path without suffix; read through ``load``)."""
    data, _ = load(stem)
    terms = {k: (float(data[k]) if data[k].ndim == 0 else data[k]) for k in ("C_ee", "C_mm", "N_ee", "M_ee")}
    return phase.Landscape(data["e_nodes"], data["m_nodes"], data["C_nodes"], data["e_fine"], data["N_fine"],
                           data["M_fine"], terms)


def diagram_point(config, name: str, out_stem, log=None, landscape=None) -> None:
    """Classify the (a, ω) grid of diagram ``name`` (the landscape read from the result stem
    ``landscape``, by default the one under the config's results folder)."""
    spec = config[EXPERIMENT]["diagram"]
    land = load_landscape(config) if landscape is None else read_landscape(landscape)
    grid = phase.polar_grid(land, *spec["polar_grid"])
    a0, a1, na = spec[name]["a"]
    w0, w1, nw = spec[name]["omega"]
    a_values, omega_values = np.linspace(a0, a1, int(na)), np.linspace(w0, w1, int(nw))
    progress = ProgressLog(log, f"{EXPERIMENT} diagram {name} ({int(nw)} ω rows × {int(na)} a)")
    diagram = phase.phase_diagram(land, grid, a_values, omega_values, progress=progress)
    progress.note(f"refined {diagram.refined} non-corner grid minima; areas {phase.region_areas(diagram)['named']}")
    save_result(out_stem, {"a": a_values, "omega": omega_values, "region": diagram.region,
                           "global_positional": diagram.global_positional, "n_minima": diagram.n_minima,
                           "dynamics_positional": diagram.dynamics_positional, "global_e": diagram.global_e,
                           "global_m": diagram.global_m, "hessian_ee": diagram.hessian_ee,
                           "hessian_mm": diagram.hessian_mm},
                {"experiment": EXPERIMENT, "diagram": name, "refined": diagram.refined, "config": spec})


def line_prediction(config, land, a: float, omegas):
    """At fixed a, per ω: global minimum (e, m), number of minima, Hessian diagonal at (0, 0)."""
    grid = phase.polar_grid(land, *config[EXPERIMENT]["diagram"]["polar_grid"])
    diagram = phase.phase_diagram(land, grid, np.array([a]), np.asarray(omegas, float))
    return {"omega": np.asarray(omegas, float), "global_e": diagram.global_e[:, 0],
            "global_m": diagram.global_m[:, 0], "n_minima": diagram.n_minima[:, 0],
            "hessian_ee": diagram.hessian_ee[:, 0], "hessian_mm": diagram.hessian_mm[:, 0]}


# --- SGD ----------------------------------------------------------------------------------------------
def sgd_point(config, name: str, block: int, out_stem, log=None) -> None:
    """One block of ω values of transition run ``name``: final and recorded (m, e) per replicate."""
    section = config[EXPERIMENT]["transition"]
    spec = runs(config)[name]
    omegas = _blocks(spec["omegas"], section["omega_blocks"])[block]
    d, steps, reps = int(spec["d"]), int(spec["steps"]), int(spec["replicates"])
    progress = ProgressLog(log, f"{EXPERIMENT} {name} d={d} block {block} ({len(omegas)} ω × {reps} replicates)")
    ms, es, keys = [], [], []
    for i, omega in enumerate(omegas):
        key = seed_key(config["seed"], EXPERIMENT, "transition", d, omega)
        run = simulate(problem(config, omega, section["a"]), d, float(section["lr"]), steps, reps, seed=key,
                       engine=config["engine"], m0=0.0, e0=0.0, points_per_decade=section["points_per_decade"])
        ms.append(run.m)
        es.append(run.e)
        keys.append(list(key))
        progress((i + 1) * steps * reps, len(omegas) * steps * reps, force=True)
    save_result(out_stem, {"omega": np.array(omegas), "steps": run.steps, "m": np.array(ms), "e": np.array(es)},
                {"experiment": EXPERIMENT, "run": name, "block": block, "d": d, "steps": steps,
                 "replicates": reps, "lr": section["lr"], "a": section["a"], "engine": config["engine"],
                 "seed_keys": keys, "m0": 0.0, "e0": 0.0, "config": spec})


def long_point(config, group: int, out_stem, log=None) -> None:
    """One group of the long misaligned-region run (progress in the log)."""
    spec = config[EXPERIMENT]["long_run"]
    reps, groups = int(spec["replicates"]), int(spec["groups"])
    sizes = [len(b) for b in np.array_split(np.arange(reps), groups)]
    offset, size = sum(sizes[:group]), sizes[group]
    a = math.sqrt(float(spec["a2"]))
    d, steps = int(spec["d"]), int(float(spec["steps"]))
    key = seed_key(config["seed"], EXPERIMENT, "long", d, float(spec["omega"]), float(spec["a2"]))
    progress = ProgressLog(log, f"{EXPERIMENT} long run group {group} (replicates {offset}–{offset + size - 1}, "
                                f"steps per replicate)")
    run = simulate(problem(config, spec["omega"], a), d, float(spec["lr"]), steps, size, seed=key,
                   engine=config["engine"], m0=0.0, e0=0.0, replicate_offset=offset,
                   points_per_decade=spec["points_per_decade"], progress=progress)
    save_result(out_stem, {"steps": run.steps, "m": run.m, "e": run.e},
                {"experiment": EXPERIMENT, "group": group, "replicate_offset": offset, "d": d, "steps": steps,
                 "a": a, "seed_key": list(key), "engine": config["engine"], "config": spec})


# --- ODE ----------------------------------------------------------------------------------------------
def noise_table(prob, nodes: int, qmc_log2: int):
    """ν(e, m) = E Σ_l a_l² on a nodes × nodes grid of [0, 1]² (even in e and m), as a spline."""
    axis = np.linspace(0.0, 1.0, int(nodes))
    E, M = np.meshgrid(axis, axis)
    nu = expectations(prob, M, E, method="qmc", qmc_log2=int(qmc_log2)).a2.sum(axis=-1)
    from scipy.interpolate import RectBivariateSpline  # here: not every job of the family needs scipy

    return RectBivariateSpline(axis, axis, nu, kx=3, ky=3)


def ode_endpoint(land, nu, a, omega, lr, d, t_end, n_eval: int = 200):
    """ODE (docs/theory.md, "The ODE") (opposite PE, coordinates (e, m)) from m = e = d^(−1/2) to t_end.

    The drift uses the exact gradient of the landscape splines; ν = E Σ a_l² is interpolated
    (it enters only the η² noise term).
    """
    def rhs(_t, y):
        e, m = y
        ge = float(land.loss(a, omega, e, m, de=1))
        gm = float(land.loss(a, omega, e, m, dm=1))
        lam = m * gm + e * ge
        noise = 0.5 * lr * lr * float(nu.ev(min(abs(m), 1.0), min(abs(e), 1.0)))
        return [-lr * (ge - e * lam) - noise * e, -lr * (gm - m * lam) - noise * m]

    y0 = [d ** -0.5, d ** -0.5]
    t_eval = np.unique(np.clip(np.concatenate([[0.0], np.logspace(-1, math.log10(t_end), n_eval), [t_end]]),
                               0.0, t_end))
    from scipy.integrate import solve_ivp

    sol = solve_ivp(rhs, (0.0, t_end), y0, t_eval=t_eval, rtol=1e-8, atol=1e-11)
    return sol.t, sol.y[0], sol.y[1]


def ode_point(config, out_stem, log=None, landscape=None) -> None:
    """ODE end points for every transition run and ω, plus the trajectory of the long run (the
    landscape read from the result stem ``landscape``, by default the one under the config's
    results folder)."""
    section = config[EXPERIMENT]
    tr = section["transition"]
    land = load_landscape(config) if landscape is None else read_landscape(landscape)
    progress = ProgressLog(log, f"{EXPERIMENT} ODE")
    arrays = {}
    omegas = sorted({w for spec in runs(config).values() for w in spec["omegas"]})
    tables = {w: noise_table(problem(config, w, tr["a"]), section["ode"]["nu_nodes"], section["ode"]["qmc_log2"])
              for w in omegas}
    progress.note(f"ν tables for {len(omegas)} ω")
    for name, spec in runs(config).items():
        d, steps = int(spec["d"]), int(spec["steps"])
        ends = np.array([ode_endpoint(land, tables[w], tr["a"], w, tr["lr"], d, steps / d)[1:] for w in spec["omegas"]])
        arrays[f"{name}_omega"] = np.array(spec["omegas"])
        arrays[f"{name}_e"] = ends[:, 0, -1]
        arrays[f"{name}_m"] = ends[:, 1, -1]
        progress.note(f"{name}: done")
    lr_spec = section["long_run"]
    a = math.sqrt(float(lr_spec["a2"]))
    nu = noise_table(problem(config, lr_spec["omega"], a), section["ode"]["nu_nodes"], section["ode"]["qmc_log2"])
    t, e, m = ode_endpoint(land, nu, a, float(lr_spec["omega"]), float(lr_spec["lr"]), int(lr_spec["d"]),
                           float(lr_spec["steps"]) / int(lr_spec["d"]))
    arrays.update(long_t=t, long_e=e, long_m=m)
    save_result(out_stem, arrays, {"experiment": EXPERIMENT, "config": section["ode"], "m0": "d^-1/2",
                                   "e0": "d^-1/2"})


