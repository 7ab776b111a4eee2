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

A run counts as *not escaped* when √(m² + e²) < ``escape_level`` at the end, else *positional*
when |e| > |m| and *semantic* otherwise. The switch ω is where half of the escaped runs end
positional (only ω where at least half of the runs escaped count).
"""
from __future__ import annotations

import math

import numpy as np

from .. import phase
from ..io import load_result, save_result
from ..population import expectations
from ..sgd import simulate
from .claim_text import power_of_ten
from .common import ProgressLog, problem_from_spec, seed_key
from .phase_switch import switch_omega

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
    spec = config[EXPERIMENT]["landscape"]
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
    data, _ = load(stems(config, "landscape")["landscape"])
    terms = {k: (float(data[k]) if data[k].ndim == 0 else data[k]) for k in ("C_ee", "C_mm", "N_ee", "M_ee")}
    return phase.Landscape(data["e_nodes"], data["m_nodes"], data["C_nodes"], data["e_fine"], data["N_fine"],
                           data["M_fine"], terms)


def diagram_point(config, name: str, out_stem, log=None) -> None:
    """Classify the (a, ω) grid of diagram ``name``."""
    spec = config[EXPERIMENT]["diagram"]
    land = load_landscape(config)
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


def ode_point(config, out_stem, log=None) -> None:
    """ODE end points for every transition run and ω, plus the trajectory of the long run."""
    section = config[EXPERIMENT]
    tr = section["transition"]
    land = load_landscape(config)
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


# --- numbers ---------------------------------------------------------------------------------------
def classify(m, e, level):
    """+1 positional (|e| > |m|), 0 semantic, −1 not escaped (√(m² + e²) < level)."""
    m, e = np.abs(np.asarray(m)), np.abs(np.asarray(e))
    out = np.where(e > m, 1, 0)
    return np.where(np.hypot(m, e) < level, -1, out)


def positional_share(cls):
    """Per ω (rows of ``cls``): the share of escaped runs that ended positional, or nan when
    fewer than half of the runs escaped (then the direction is not decided yet)."""
    cls = np.asarray(cls)
    escaped = (cls >= 0).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = (cls == 1).sum(axis=1) / escaped
    return np.where(escaped * 2 >= cls.shape[1], share, np.nan)


def switch_over_decided(omegas, share) -> float:
    """The switch ω (:func:`ssi.experiments.phase_switch.switch_omega`) over the ω whose share is
    decided: undecided (nan) ω are dropped first, so the switch is interpolated across them.

    This result's choice (the authors' files keep undecided ω, and a crossing next to one is nan);
    with no nan it is ``phase_switch.switch_omega`` itself."""
    omegas, share = np.asarray(omegas, float), np.asarray(share, float)
    keep = np.isfinite(share)
    return switch_omega(omegas[keep], share[keep])


def load_transition(config, name, load=load_result):
    """(omega, steps, m (n_ω, R, K), e) of one transition run, blocks concatenated."""
    parts = [load(stem)[0] for (n, b), stem in sorted(stems(config, "sgd").items()) if n == name]
    return (np.concatenate([p["omega"] for p in parts]), parts[0]["steps"],
            np.concatenate([p["m"] for p in parts]), np.concatenate([p["e"] for p in parts]))


def load_long(config, load=load_result):
    """(steps, m (R, K), e (R, K)) of the long runs, groups concatenated."""
    parts = [load(stem)[0] for _, stem in sorted(stems(config, "long").items())]
    return parts[0]["steps"], np.concatenate([p["m"] for p in parts]), np.concatenate([p["e"] for p in parts])


def summarise(config) -> dict:
    """Key numbers: region areas of both diagrams, the transition (positional share and switch ω
    per d; SGD, ODE and phase-diagram prediction), where the long runs end."""
    section = config[EXPERIMENT]
    level = section["escape_level"]
    land = load_landscape(config)
    data, _ = load_result(stems(config, "landscape")["landscape"])
    out = {"escape_level": level, "quadrature_check_max_abs": float(np.max(np.abs(data["check_C"] - data["check_C_more"]))),
           "hessian_terms": {k: np.asarray(v).tolist() for k, v in land.hessian_terms.items()}, "diagrams": {}}
    for name, stem in stems(config, "diagram").items():
        dg, meta = load_result(stem)
        diag = phase.PhaseDiagram(dg["a"], dg["omega"], dg["global_positional"], dg["dynamics_positional"],
                                  dg["n_minima"], dg["global_e"], dg["global_m"], dg["hessian_ee"],
                                  dg["hessian_mm"], meta["refined"])
        areas = phase.region_areas(diag)
        span = (dg["a"][-1] - dg["a"][0]) * (dg["omega"][-1] - dg["omega"][0])
        out["diagrams"][name] = {"a": [float(dg["a"][0]), float(dg["a"][-1]), int(dg["a"].size)],
                                 "omega": [float(dg["omega"][0]), float(dg["omega"][-1]), int(dg["omega"].size)],
                                 "fractions": areas, "box_area": float(span),
                                 "max_minima": int(dg["n_minima"].max()), "refined": meta["refined"]}
    tr = section["transition"]
    ode, _ = load_result(stems(config, "ode")["ode"])
    rows = []
    all_omegas = sorted({w for spec in runs(config).values() for w in spec["omegas"]})
    pred = line_prediction(config, land, tr["a"], all_omegas)
    pred_pos = (pred["global_e"] > pred["global_m"]).astype(float)
    dyn_pos = (pred["hessian_ee"] < pred["hessian_mm"]).astype(float)
    out["prediction"] = {"omega": all_omegas, "global_positional": pred_pos.tolist(),
                         "dynamics_positional": dyn_pos.tolist(), "n_minima": pred["n_minima"].tolist(),
                         "switch_global": switch_over_decided(all_omegas, pred_pos),
                         "switch_dynamics": switch_over_decided(all_omegas, dyn_pos)}
    for name, spec in runs(config).items():
        omegas, steps, m, e = load_transition(config, name)
        cls = classify(m[:, :, -1], e[:, :, -1], level)
        frac_pos = positional_share(cls)
        ode_cls = classify(ode[f"{name}_m"], ode[f"{name}_e"], level)
        ode_dir = np.where(ode_cls < 0, np.nan, ode_cls).astype(float)
        rows.append({"run": name, "d": int(spec["d"]), "steps": int(spec["steps"]), "t": spec["steps"] / spec["d"],
                     "replicates": int(m.shape[1]), "omega": omegas.tolist(),
                     "positional_share_of_escaped": frac_pos.tolist(),
                     "positional_fraction": (cls == 1).mean(axis=1).tolist(),
                     "semantic_fraction": (cls == 0).mean(axis=1).tolist(),
                     "not_escaped_fraction": (cls == -1).mean(axis=1).tolist(),
                     "mean_abs_m": np.abs(m[:, :, -1]).mean(axis=1).tolist(),
                     "mean_abs_e": np.abs(e[:, :, -1]).mean(axis=1).tolist(),
                     "switch_sgd": switch_over_decided(omegas, frac_pos),
                     "switch_ode": switch_over_decided(ode[f"{name}_omega"], ode_dir),
                     "ode_classes": ode_cls.tolist()})
    out["transition"] = rows
    lr_spec = section["long_run"]
    steps, m, e = load_long(config)
    a = math.sqrt(float(lr_spec["a2"]))
    minima = phase.local_minima(land, phase.polar_grid(land, *section["diagram"]["polar_grid"]), a,
                                float(lr_spec["omega"]))
    H = land.hessian(a, float(lr_spec["omega"]))
    cls = classify(m[:, -1], e[:, -1], level)
    out["long_run"] = {"a2": lr_spec["a2"], "omega": lr_spec["omega"], "d": lr_spec["d"], "steps": lr_spec["steps"],
                       "replicates": int(m.shape[0]),
                       "final_abs_m": np.abs(m[:, -1]).tolist(), "final_abs_e": np.abs(e[:, -1]).tolist(),
                       "positional": int((cls == 1).sum()), "semantic": int((cls == 0).sum()),
                       "not_escaped": int((cls == -1).sum()),
                       "minima": [{"e": e_, "m": m_, "R": r_} for e_, m_, r_ in minima],
                       "hessian_ee": float(H[0, 0]), "hessian_mm": float(H[1, 1]),
                       "ode_final": {"e": float(ode["long_e"][-1]), "m": float(ode["long_m"][-1])}}
    return out


def _fmt(x, spec=".3f"):
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, spec)


#: a d counts for the switch when fewer than this share of its runs stayed at (0, 0)
C5_ESCAPED = 0.5
C5_RULE = ("the five regions of the paper each cover a non-zero area of the (a, ω) diagram, and at every d where most "
           "runs escaped the SGD switch ω (half of the escaped runs end positional, a = 1) lies nearer the diagram's "
           "switch of the initial direction than its switch of the global minimum (SGD follows the initial direction, "
           "the misaligned dynamics): reproduced when both hold; partly when one does; differs when neither; "
           "undecided when no d has most runs escaped")


def _decided_transitions(numbers) -> list[dict]:
    return [t for t in numbers["transition"]
            if np.mean(t["not_escaped_fraction"]) < C5_ESCAPED and t["switch_sgd"] is not None
            and math.isfinite(t["switch_sgd"])]


def c5_verdict(numbers) -> str:
    """Verdict of C5 from the numbers file (rule :data:`C5_RULE`)."""
    regions = all(v > 0 for v in numbers["diagrams"]["full"]["fractions"]["named"].values())
    pred = numbers["prediction"]
    decided = _decided_transitions(numbers)
    if not decided:
        return "undecided"
    follows = all(abs(t["switch_sgd"] - pred["switch_dynamics"]) < abs(t["switch_sgd"] - pred["switch_global"])
                  for t in decided)
    if regions and follows:
        return "reproduced"
    return "partly" if regions or follows else "differs"


def _c5_headline(numbers) -> str:
    pred = numbers["prediction"]
    named = numbers["diagrams"]["full"]["fractions"]["named"]
    decided = _decided_transitions(numbers)
    switches = ", ".join(f"{t['switch_sgd']:.3f} (d = {power_of_ten(t['d'])})" for t in decided[:2])
    return (f"misaligned region: {100 * named.get('misaligned dynamics', math.nan):.1f} % of [0,1]²; SGD switches at "
            f"ω = {switches}, by the initial direction ({pred['switch_dynamics']:.3f}), not the global minimum "
            f"({pred['switch_global']:.3f})")


def claim_rows(config, numbers) -> list[dict]:
    """Claims-table row for C5."""
    full = numbers["diagrams"]["full"]["fractions"]["named"]
    zoom = numbers["diagrams"]["zoom"]["fractions"]["named"]
    areas = ", ".join(f"{k} {100 * v:.1f} %" for k, v in full.items())
    zareas = ", ".join(f"{k} {100 * v:.1f} %" for k, v in zoom.items())
    switch = "; ".join(f"d={r['d']} (T={r['steps']:.2g}, {r['replicates']} runs per ω): SGD {_fmt(r['switch_sgd'])}, "
                       f"ODE {_fmt(r['switch_ode'])}, {100 * np.mean(r['not_escaped_fraction']):.0f} % of runs "
                       "not escaped" for r in numbers["transition"])
    pred = numbers["prediction"]
    lr = numbers["long_run"]
    return [{
        "claim": "C5 semantic vs positional",
        "paper": "five regions in (a, ω), misaligned dynamics among them; SGD switches from semantic to positional with ω",
        "measured": (f"areas on [0,1]² (200×200): {areas}; on [0.7,1]×[0.4,1]: {zareas}. At a = 1 the global "
                     f"minimum turns positional at ω ≈ {_fmt(pred['switch_global'])}, the initial direction at "
                     f"ω ≈ {_fmt(pred['switch_dynamics'])}; switch ω (half of the escaped runs positional): {switch}. "
                     f"Long run (a² = {lr['a2']}, ω = {lr['omega']}, T = {lr['steps']:.0e}): {lr['positional']} of "
                     f"{lr['replicates']} end positional, {lr['semantic']} semantic, {lr['not_escaped']} not escaped "
                     f"(global minimum at (e, m) = ({lr['minima'][0]['e']:.2f}, {lr['minima'][0]['m']:.2f})); "
                     "see figures/semantic_positional_*.png"),
        "headline": _c5_headline(numbers),
        "verdict": c5_verdict(numbers),
        "figure": "figures/semantic_positional_transition.png",
        "command": "snakemake --cores all semantic_positional_plot",
        "rule": C5_RULE,
    }]


# --- figures ---------------------------------------------------------------------------------------
def sie_text(config, omegas, a) -> str:
    """The SIEs :func:`ssi.hermite.sie` computes at (a, ω) for the given ω, for legends.

    At ω = 1 the target is the constant A(a) (no z*): every overlap coefficient vanishes and
    the SIE is undetermined/infinite; it is reported as such.
    """
    from ..hermite import SIEUndetermined, sie

    values = set()
    for omega in omegas:
        try:
            values.add(str(sie(problem(config, omega, a))))
        except SIEUndetermined:
            values.add("∞ (ω = 1: constant target)")
    return "SIE " + " / ".join(sorted(values))


def plot_diagram(config, out_paths, numbers=None, load=load_result) -> None:
    """The two phase diagrams (full square and the authors' zoom), regions in the colour-blind-safe
    colours of ssi.plotting.REGION_COLOURS; the line of the SGD runs and the long run marked."""
    from matplotlib.colors import ListedColormap
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from ..plotting import REGION_COLOURS, WIDTH_DOUBLE, new_figure, save_figure
    import matplotlib.pyplot as plt

    fig, axes = new_figure(ncols=2, nrows=1, width=WIDTH_DOUBLE, height=3.6, squeeze=False)
    cmap = ListedColormap(REGION_COLOURS)
    lr = config[EXPERIMENT]["long_run"]
    a_sgd = config[EXPERIMENT]["transition"]["a"]
    titles = {"full": "the whole square", "zoom": "zoom on the boundary"}
    for ax, (name, stem) in zip(axes[0], stems(config, "diagram").items()):
        dg, _ = load(stem)
        ax.pcolormesh(dg["a"], dg["omega"], dg["region"], cmap=cmap, vmin=-0.5, vmax=7.5, shading="nearest",
                      rasterized=True)
        # the SGD runs sit at a = 1, the right edge: a thick bar over the frame, not a line under it
        ax.plot([a_sgd] * 2, [dg["omega"][0], dg["omega"][-1]], color="k", lw=3.0, clip_on=False, zorder=4)
        ax.plot([math.sqrt(lr["a2"])], [lr["omega"]], marker="*", color="w", mec="k", ms=10, zorder=5)
        ax.set_xlim(dg["a"][0], dg["a"][-1])
        ax.set_ylim(dg["omega"][0], dg["omega"][-1])
        ax.set_xlabel("pattern strength $a$")
        ax.set_ylabel(r"positional weight $\omega$")
        ax.set_title(f"{titles.get(name, name)}: {dg['a'].size} × {dg['omega'].size} points", fontsize=7)
    present = sorted(set(np.unique(load(stems(config, "diagram")["full"])[0]["region"]))
                     | set(np.unique(load(stems(config, "diagram")["zoom"])[0]["region"])))
    handles = [Patch(color=REGION_COLOURS[k], label=phase.REGION_NAMES[k]) for k in present]
    handles += [Line2D([], [], color="k", lw=3.0, label=f"$a$ = {a_sgd:g}: the SGD runs of the transition figure"),
                Line2D([], [], ls="", marker="*", color="w", mec="k", ms=10,
                       label=rf"the long run ($a^2$ = {lr['a2']:g}, $\omega$ = {lr['omega']:g})")]
    fig.legend(handles=handles, loc="outside lower center", ncol=2, frameon=False, fontsize=6.5)
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


def plot_transition(config, out_paths, numbers=None, load=load_result) -> None:
    """Final |m| and |e| vs ω per run (SGD runs and means, ODE end points, the diagram's switches);
    each title gives the ω where SGD switches from semantic to positional."""
    from matplotlib.lines import Line2D

    from ..plotting import (BLACK, COLOURS, GREEN, GUIDE, PURPLE, WIDTH_DOUBLE, label, new_figure, number,
                            save_figure)
    import matplotlib.pyplot as plt

    numbers = summarise(config) if numbers is None else numbers
    ode, _ = load(stems(config, "ode")["ode"])
    names = list(runs(config))
    ncols = 2 if len(names) > 1 else 1
    nrows = -(-len(names) // ncols)
    fig, axes = new_figure(ncols=ncols, nrows=nrows, width=WIDTH_DOUBLE, height=2.2 * nrows + 0.8, squeeze=False)
    pred = numbers["prediction"]
    for idx, name in enumerate(names):
        ax = axes[idx // ncols, idx % ncols]
        omegas, steps, m, e = load_transition(config, name, load)
        row = next(r for r in numbers["transition"] if r["run"] == name)
        for val, key, colour in ((np.abs(m[:, :, -1]), "m", COLOURS["semantic"]),
                                 (np.abs(e[:, :, -1]), "e", COLOURS["positional"])):
            jitter = np.linspace(-0.004, 0.004, val.shape[1])
            ax.scatter((omegas[:, None] + jitter[None]).ravel(), val.ravel(), s=1.5, color=colour, alpha=0.25,
                       lw=0, rasterized=True)
            ax.plot(omegas, val.mean(axis=1), color=colour, lw=1.2, label=key, zorder=3)
            ax.plot(ode[f"{name}_omega"], np.abs(ode[f"{name}_{key}"]), color=BLACK, lw=0.9, ls="--", zorder=4)
        ax.step(pred["omega"], np.array(pred["global_positional"], float), where="mid", color=GUIDE, lw=0.8,
                ls=":", zorder=2)
        ax.plot(omegas, row["not_escaped_fraction"], color=GREEN, lw=0.8, label="not escaped", zorder=2)
        if pred["switch_dynamics"] == pred["switch_dynamics"]:
            ax.axvline(pred["switch_dynamics"], color=PURPLE, lw=0.8, ls="-.", zorder=1)
        ax.set_ylim(-0.03, 1.03)
        ax.set_xlim(-0.02, 1.02)
        ax.set_xlabel(label("omega"))
        ax.set_ylabel("final overlap")
        switch = row["switch_sgd"]
        switch = ("no switch by then" if switch is None or switch != switch
                  else f"switch at $\\omega$ = {switch:.3f}")
        ax.set_title(f"$d$ = {row['d']}, $t$ = {number(row['t'])}, {row['replicates']} runs: {switch}", fontsize=7)
    for idx in range(len(names), nrows * ncols):
        axes[idx // ncols, idx % ncols].set_visible(False)
    handles = [Line2D([], [], color=COLOURS["semantic"], lw=1.2, label=r"semantic overlap $|m|$ (runs, mean)"),
               Line2D([], [], color=COLOURS["positional"], lw=1.2, label=r"positional overlap $|e|$ (runs, mean)"),
               Line2D([], [], color=BLACK, lw=0.9, ls="--", label=r"ODE from $d^{-1/2}$"),
               Line2D([], [], color=GREEN, lw=0.8,
                      label=rf"share not escaped ($\sqrt{{m^2 + e^2}} < {numbers['escape_level']:g}$)"),
               Line2D([], [], color=PURPLE, lw=0.8, ls="-.",
                      label=rf"diagram: the initial direction turns positional ($\omega$ = {_fmt(pred['switch_dynamics'], '.3f')})"),
               Line2D([], [], color=GUIDE, lw=0.8, ls=":",
                      label=rf"diagram: the global minimum turns positional ($\omega$ = {_fmt(pred['switch_global'], '.3f')})")]
    fig.legend(handles=handles, loc="outside lower center", ncol=2, frameon=False, fontsize=6.5)
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


def plot_long(config, out_paths, numbers=None, load=load_result) -> None:
    """Long-run trajectories in the first quadrant of the (e, m) disk over the loss contours, and
    |m|, |e| against time; the title counts where the runs end."""
    from matplotlib.lines import Line2D

    from ..plotting import COLOURS, WIDTH_DOUBLE, YELLOW, label, new_figure, number, save_figure
    import matplotlib.pyplot as plt

    section = config[EXPERIMENT]
    spec = section["long_run"]
    a, omega = math.sqrt(float(spec["a2"])), float(spec["omega"])
    land = load_landscape(config, load)
    numbers = (summarise(config) if numbers is None else numbers)["long_run"]
    steps, m, e = load_long(config, load)
    ode, _ = load(stems(config, "ode")["ode"])
    fig, axes = new_figure(ncols=2, nrows=1, width=WIDTH_DOUBLE, height=3.2, squeeze=False)
    ax, ax_t = axes[0]
    r = np.linspace(0, 1, 201)
    th = np.linspace(0, math.pi / 2, 201)
    Rr, Th = np.meshgrid(r, th)
    E, M = Rr * np.cos(Th), Rr * np.sin(Th)
    R = land.loss(a, omega, E, M)
    image = ax.contourf(E, M, R, levels=30, cmap="viridis")
    ax.contour(E, M, R, levels=30, colors="k", linewidths=0.2)
    fig.colorbar(image, ax=ax, shrink=0.85, label="loss $R(e, m)$")
    for i in range(m.shape[0]):
        ax.plot(np.abs(e[i]), np.abs(m[i]), color="w", lw=0.4, alpha=0.6)
        ax.plot(abs(e[i, -1]), abs(m[i, -1]), "o", color="w", mec="k", ms=3)
    ax.plot(np.abs(ode["long_e"]), np.abs(ode["long_m"]), color=COLOURS["ode"], lw=1.6, ls="--")
    for k, mn in enumerate(numbers["minima"]):
        ax.plot(mn["e"], mn["m"], marker="*", color=YELLOW if k == 0 else "w", ms=12, mec="k", clip_on=False,
                zorder=5)
    ax.set_aspect("equal")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("positional overlap $|e|$")
    ax.set_ylabel("semantic overlap $|m|$")
    ax.set_title(rf"$a^2$ = {spec['a2']:g}, $\omega$ = {omega:g}, $d$ = {spec['d']}, "
                 f"{number(float(spec['steps']))} steps", fontsize=7, pad=9)
    t = steps / int(spec["d"])
    keep = t > 0
    for i in range(m.shape[0]):
        ax_t.plot(t[keep], np.abs(m[i, keep]), color=COLOURS["semantic"], lw=0.4, alpha=0.5)
        ax_t.plot(t[keep], np.abs(e[i, keep]), color=COLOURS["positional"], lw=0.4, alpha=0.5)
    ax_t.plot(ode["long_t"][1:], np.abs(ode["long_m"][1:]), color=COLOURS["semantic"], lw=1.6, ls="--", label="m")
    ax_t.plot(ode["long_t"][1:], np.abs(ode["long_e"][1:]), color=COLOURS["positional"], lw=1.6, ls="--",
              label="e")
    ax_t.set_xscale("log")
    ax_t.set_xlabel(label("t"))
    ax_t.set_ylabel("overlap")
    ax_t.set_title(f"measured: {numbers['semantic']} of {numbers['replicates']} runs end semantic, "
                   f"{numbers['positional']} positional", fontsize=7)
    handles = [Line2D([], [], color=COLOURS["semantic"], lw=1.2, label=r"semantic overlap $|m|$"),
               Line2D([], [], color=COLOURS["positional"], lw=1.2, label=r"positional overlap $|e|$"),
               Line2D([], [], color="w", lw=0.8, label="SGD runs (thin), their ends (dots)"),
               Line2D([], [], color=COLOURS["ode"], lw=1.6, ls="--", label="ODE (right: in the run's colour)"),
               Line2D([], [], ls="", marker="*", color=YELLOW, mec="k", ms=10, label="global minimum (semantic)")]
    for h in handles[2:3]:
        h.set_color("0.6")
    fig.legend(handles=handles, loc="outside lower center", ncol=3, frameon=False, fontsize=6.5)
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


def figure_data_reduction(file: str, key: str, array):
    """What the figures read of a result array (ssi.experiments.figure_data): the transition figure
    reads only the final record of each SGD run (and no step), so the extract keeps that record."""
    if file.startswith(f"{EXPERIMENT}/sgd_") and key in ("m", "e", "steps"):
        return array[..., -1:]
    return array


def plot(config, out_paths, numbers=None, load=load_result) -> None:
    """All three figures, dispatched on the file name (diagram, transition, long).

    ``numbers``: :func:`summarise` (computed once when None and a figure needs it); ``load(stem)``
    reads a result (ssi.experiments.figure_data: results/ or the figure data)."""
    groups = {"diagram": plot_diagram, "transition": plot_transition, "long": plot_long}
    for key, fn in groups.items():
        paths = [p for p in out_paths if f"semantic_positional_{key}." in str(p).rsplit("/", 1)[-1]]
        if paths:
            if numbers is None and key != "diagram":
                numbers = summarise(config)
            fn(config, paths, numbers, load)
