"""The authors' experiments, the jobs: SGD replicates of a job of the plan, the ODE of every point
where it is defined, and the cost forecast of the job families."""
from __future__ import annotations

import math
import time

import numpy as np

from ...io import atomic_write_text, load_result, save_result
from .spec import (EXPERIMENT, MACRO, initial_m, job_plan, point_L, points, problem, rate, replicates,
                           stems, sweep_key, their_lr, value_key)
from ...escape import AUTHORS, crossing_time
from ..common import ProgressLog, overlap_curves, seed_key


# --- SGD -------------------------------------------------------------------------------------------
def sim_kwargs(spec: dict) -> dict:
    """simulate()'s initial condition: the authors' overlapped or random start, in law."""
    if spec["init"] == "random":
        return {"init": "random"}
    return {"init": "overlapped", "ic_overlap": spec["ic_overlap"], "ic_randomsign": bool(spec["ic_randomsign"])}


def sgd_job(config, name: str, job: int, out_stem, log=None, plan=None) -> None:
    """SGD replicates of one job of an experiment (reduced engine); arrays per sweep value. ``plan``
    is the job's entry of :func:`job_plan` (computed from ``config`` when not given)."""
    from ...sgd import simulate

    section = config[EXPERIMENT]
    spec = section["experiments"][name]
    plan = job_plan(config, name)[job] if plan is None else plan
    d, T = int(spec["d"]), int(spec["T"])
    student = plan["student"]
    progress = ProgressLog(log, f"{EXPERIMENT} {name} job {job}: {student}, {sweep_key(spec)} = {plan['values']}, "
                                f"replicates {plan['offset']}..{plan['offset'] + plan['count'] - 1}")
    arrays, meta = {}, {}
    for value in plan["values"]:
        prob = problem(spec, student, value)
        lr = their_lr(spec, point_L(spec, value))
        key = seed_key(config["seed"], EXPERIMENT, name, student, value_key(value))
        stop = None
        if spec["stop_level"] is not None:
            level = float(spec["stop_level"])
            stop = lambda done, m: bool(np.mean(np.abs(m)) >= level)  # noqa: E731
        start = time.monotonic()
        run = simulate(prob, d, lr, T, plan["count"], seed=key, engine=config["engine"],
                       replicate_offset=plan["offset"], points_per_decade=section["points_per_decade"],
                       progress=progress, stop_when=stop, **sim_kwargs(spec))
        tag = f"{student}_{value_key(value)}"
        arrays[f"steps_{tag}"] = run.steps
        arrays[f"overlap_{tag}"] = overlap_curves(run)
        arrays[f"e_{tag}"] = run.e
        meta[tag] = {"lr": lr, "steps_run": int(run.steps[-1])}
        progress.note(f"{tag}: η = {lr:.4g}, {int(run.steps[-1])} steps, {time.monotonic() - start:.1f} s")
    save_result(out_stem, arrays, {"experiment": EXPERIMENT, "name": name, "job": job, "plan": plan,
                                   "points": meta, "d": d, "T": T, "engine": config["engine"], "config": spec})


def load_point(config, name: str, student: str, value, seeds: int | str | None = None):
    """(steps (K,), overlap (R, K), e (R, K)) of one point, replicate blocks joined in key order.

    ``seeds``: None for the experiment as they ran it (its first ``seeds`` replicates), "all"
    for every replicate simulated (:func:`replicates`), or a count."""
    tag = f"{student}_{value_key(value)}"
    parts = []
    for j, plan in enumerate(job_plan(config, name)):
        if plan["student"] == student and value in plan["values"]:
            arr, _ = load_result(stems(config, "sgd")[(name, j)])
            parts.append((plan["offset"], arr[f"steps_{tag}"], arr[f"overlap_{tag}"], arr[f"e_{tag}"]))
    parts.sort(key=lambda p: p[0])
    K = min(p[1].size for p in parts)
    spec = config[EXPERIMENT]["experiments"][name]
    R = replicates(spec) if seeds == "all" else int(spec["seeds"] if seeds is None else seeds)
    return (parts[0][1][:K], np.concatenate([p[2][:, :K] for p in parts])[:R],
            np.concatenate([p[3][:, :K] for p in parts])[:R])


# --- ODE and cost forecast ---------------------------------------------------------------------
def ode_defined(spec: dict, student: str, value) -> str | None:
    """None when the ODE is run at this point, else the reason it is not."""
    if not spec["ode"]:
        return "ode: false in the config"
    if "ode_max_L" in spec and point_L(spec, value) > int(spec["ode_max_L"]):
        return f"L > ode_max_L = {spec['ode_max_L']} (2L equations, L-dimensional expectations)"
    return None


def ode_experiment(config, name: str, out_stem, log=None) -> None:
    """The ODE at every point of an experiment where it is defined, from the authors' start."""
    from ...ode import integrate_ode

    section = config[EXPERIMENT]
    spec = section["experiments"][name]
    d, T = int(spec["d"]), int(spec["T"])
    t_max = T / d
    t_eval = np.unique(np.concatenate([[0.0], np.geomspace(1.0 / d, t_max, int(section["ode_points"]))]))
    m0 = initial_m(spec)
    e0 = 0.0
    if m0 == 0.0:       # from exactly (0, 0) the ODE never moves: start at the SGD noise level
        m0 = e0 = d ** -0.5
    progress = ProgressLog(log, f"{EXPERIMENT} ODE {name}")
    arrays, meta = {}, {}
    for student, value in points(spec):
        tag = f"{student}_{value_key(value)}"
        why = ode_defined(spec, student, value)
        if why is not None:
            meta[tag] = {"defined": False, "reason": why}
            continue
        prob = problem(spec, student, value)
        lr = their_lr(spec, point_L(spec, value))
        kwargs = {}
        if not prob.tied:
            kwargs["overlap"] = "rms"
            try:
                integrate_ode(prob, lr, m0, t_max=1e-9, token_symmetric=True, overlap="rms")
                kwargs["token_symmetric"] = True
            except ValueError:
                pass
        elif prob.student == "attention" and prob.L >= 4:
            kwargs["quadrature"] = {"qmc_log2": 12}
        start = time.monotonic()
        try:
            sol = integrate_ode(prob, lr, m0, e0 if prob.tied else 0.0, t_max=t_max, t_eval=t_eval,
                                give_up_below=None, **kwargs)
        except (ValueError, NotImplementedError) as err:
            meta[tag] = {"defined": False, "reason": str(err)}
            progress.note(f"{tag}: not defined ({err})")
            continue
        t = sol.t
        arrays[f"t_{tag}"], arrays[f"m_{tag}"], arrays[f"e_{tag}"] = t, np.abs(sol.m), sol.e
        progress.note(f"{tag}: η = {lr:.4g}, integrated in {time.monotonic() - start:.1f} s")
        meta[tag] = {"defined": True, "lr": lr,
                     "steps_authors": crossing_time(t * d, np.abs(sol.m), AUTHORS.value(d)),
                     "steps_macro": crossing_time(t * d, np.abs(sol.m), MACRO)}
        if spec["stop_level"] is not None:
            meta[tag]["steps_stop"] = crossing_time(t * d, np.abs(sol.m), float(spec["stop_level"]))
        progress.note(f"{tag}: {meta[tag]}")
    save_result(out_stem, arrays, {"experiment": EXPERIMENT, "name": name, "d": d, "T": T, "m0": m0, "e0": e0,
                                   "points": meta, "config": spec})


def forecast(config) -> list[dict]:
    """Per experiment: SGD steps by the ODE (to the stop level, or T), our CPU seconds by the
    cost model, and the authors' cost (T steps per run at ``their_rate``)."""
    section = config[EXPERIMENT]
    rows = []
    for name, spec in section["experiments"].items():
        _, meta = load_result(stems(config, "ode")[name])
        T, seeds, ours = int(spec["T"]), int(spec["seeds"]), replicates(spec)
        steps = seconds = 0.0
        for student, value in points(spec):
            info = meta["points"][f"{student}_{value_key(value)}"]
            n = T
            if spec["stop_level"] is not None and info.get("defined") and math.isfinite(info["steps_stop"] or math.nan):
                n = min(T, 1.25 * info["steps_stop"])
            steps += n * ours
            seconds += n * ours / rate(config, student, point_L(spec, value))
        their_steps = T * seeds * len(points(spec))
        rows.append({"name": name, "runs": ours * len(points(spec)), "jobs": len(job_plan(config, name)),
                     "steps": steps, "cpu_seconds": seconds, "their_steps": their_steps,
                     "their_cpu_hours": their_steps / float(section["their_rate"]) / 3600})
    return rows


def forecast_worst_case(config) -> list[dict]:
    """As :func:`forecast` without the ODE: every run to its T (printed when the workflow starts)."""
    section = config[EXPERIMENT]
    rows = []
    for name, spec in section["experiments"].items():
        T, seeds, ours = int(spec["T"]), int(spec["seeds"]), replicates(spec)
        pts = points(spec)
        seconds = sum(T * ours / rate(config, s, point_L(spec, v)) for s, v in pts)
        their_steps = T * seeds * len(pts)
        rows.append({"name": name, "runs": ours * len(pts), "jobs": len(job_plan(config, name)),
                     "steps": float(T * ours * len(pts)), "cpu_seconds": seconds, "their_steps": their_steps,
                     "their_cpu_hours": their_steps / float(section["their_rate"]) / 3600})
    return rows


def forecast_text(rows, title="cost forecast, every run to its T (before the ODE)") -> str:
    """The forecast ``rows`` (:func:`forecast`) as a fixed-width table with a total line.

    Parameters
    ----------
    rows : list of dict
        One row per experiment file (name, runs, jobs, steps, CPU seconds, theirs).
    title : str
        The table's first line ends with it.

    Returns
    -------
    str
        The table, newline-terminated.
    """
    lines = [f"authors' experiments: {title}; cost model of config/authors.yaml",
             f"{'experiment':42s} {'runs':>5s} {'jobs':>4s} {'our steps':>10s} {'our CPU s':>9s} "
             f"{'their steps':>11s} {'their CPU h':>11s}"]
    for r in rows:
        lines.append(f"{r['name']:42s} {r['runs']:5d} {r['jobs']:4d} {r['steps']:10.3g} {r['cpu_seconds']:9.0f} "
                     f"{r['their_steps']:11.3g} {r['their_cpu_hours']:11.1f}")
    tot = {k: sum(r[k] for r in rows) for k in ("steps", "cpu_seconds", "their_steps", "their_cpu_hours")}
    lines.append(f"{'total':42s} {'':5s} {sum(r['jobs'] for r in rows):4d} {tot['steps']:10.3g} "
                 f"{tot['cpu_seconds']:9.0f} {tot['their_steps']:11.3g} {tot['their_cpu_hours']:11.1f}")
    return "\n".join(lines) + "\n"


def write_forecast(config, out_path) -> str:
    """Write the forecast by the ODE (:func:`forecast`) to ``out_path``; returns its text."""
    text = forecast_text(forecast(config), "cost forecast by the ODE (steps to 1.25 × the stop level crossing, or T)")
    atomic_write_text(out_path, text)
    return text


