"""Claim C5, semantic vs positional, the numbers: each run's end classified (positional, semantic,
not escaped), the positional share and the switch ω per d (SGD, ODE, diagram prediction), the
diagrams' region areas, the long runs (figures/numbers/semantic_positional.json)."""
from __future__ import annotations

import math

import numpy as np

from ... import escape, phase
from ...io import load_result
from ..phase_switch import switch_omega
from .jobs import EXPERIMENT, line_prediction, load_landscape, runs, stems

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
    level = escape.of(section, EXPERIMENT).value()
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


def fmt(x, spec=".3f") -> str:
    """``x`` formatted by ``spec``, or "n/a" for None and nan."""
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, spec)

