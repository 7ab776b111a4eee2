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
(crossing-time experiments: the crossing of the seed mean at the authors' 2/√d is exact);
the others run to their T. The ODE (docs/theory.md, "The ODE") is integrated at every
point where it is defined and cheap, and forecasts the cost of each job family.
"""
from __future__ import annotations

import json
import math
import time

import numpy as np

from ..io import atomic_write_text, load_result, save_result
from ..problems import Problem
from . import authors_candidates, authors_crossings, authors_verdicts
from .claim_text import VERDICTS, verdict_word
from .common import ProgressLog, crossing_time, loglog_slope, seed_key

EXPERIMENT = "authors"
#: the authors' students -> ours
STUDENT_KIND = {"plain_network": "untied", "tied_network": "tied", "attention": "attention"}
#: the escape level of the crossing numbers besides the authors' 2/√d
MACRO = 0.5
#: C5: a run has left (0, 0) when √(m² + e²) reaches this at the end (as figures/numbers/semantic_positional.json)
ESCAPED = 0.2


# --- the authors' names ---------------------------------------------------------------------
#: their loss -> our Problem.loss (torch MSELoss; the non-squared Frobenius norm)
LOSS = {"square": "mse", "frobenius": "frobenius"}
#: their attention reductions -> ours
REDUCTION = {"none": "identity", "trace": "trace", "projection": "projection"}


def _api():
    """ssi.authors (their names, learning rates, initial overlap)."""
    from .. import authors
    return authors


def their_lr(spec: dict, L: int) -> float:
    """Their learning rate: learning_rate_coefficient · scaling(L)."""
    lr = float(_api().learning_rate(float(spec["lr"]), spec["lr_scaling"], int(L)))
    return lr


def sweep_key(spec: dict) -> str:
    """"L" or "omega": the swept parameter of an experiment."""
    return next(iter(spec["sweep"]))


def point_L(spec: dict, value) -> int:
    return int(value) if sweep_key(spec) == "L" else int(spec.get("L", 2))


def problem(spec: dict, student: str, value) -> Problem:
    """Our Problem for one student and sweep value of an experiment, in the authors' conventions."""
    api = _api()
    L = point_L(spec, value)
    kw = {"L": L, "student": api.STUDENT_NAMES[student], "loss": LOSS[spec["loss"]]}
    if spec["target"] == "positional_semantic_model":
        kw.update(target="mixture", a=math.sqrt(float(spec["a_squared"])),
                  omega=float(value) if sweep_key(spec) == "omega" else 0.5)
    else:
        target = api.TARGET_NAMES[spec["target"]]
        if isinstance(target, str):
            kw["target"] = target
        else:                       # (our name, scale or scale(L)): e.g. sqrtH2sum = √L · he2_sum
            name, scale = target
            kw["target"] = name
            kw["target_scale"] = float(scale(L) if callable(scale) else scale)
    if student == "attention":
        kw["pe"] = spec.get("pe", "none")
        kw["reduction"] = REDUCTION[spec.get("reduction", "trace")]
    else:
        kw["activation"] = api.ACTIVATION_NAMES[spec.get("activation", "relu")]
    return Problem(**kw)


def initial_m(spec: dict) -> float:
    """m₀ of the overlapped start (every token), or the typical |m₀| = d^(−1/2) of the random one."""
    d = int(spec["d"])
    if spec["init"] == "random":
        return d ** -0.5
    return float(_api().initial_overlap(spec["ic_overlap"], d))


def replicates(spec: dict) -> int:
    """Replicates simulated per point: their ``seeds``, or ``decide_seeds`` when larger.

    Replicate r has the same random numbers whatever the count, so the first ``seeds``
    replicates are their experiment as run and all of them the many-seed rerun that decides."""
    return max(int(spec["seeds"]), int(spec.get("decide_seeds") or 0))


def points(spec: dict) -> list[tuple[str, object]]:
    """(student, sweep value) of every run of an experiment, in config order."""
    return [(s, v) for s in spec["students"] for v in spec["sweep"][sweep_key(spec)]]


def _value_key(value) -> str:
    return repr(float(value)) if isinstance(value, float) else str(int(value))


# --- cost model and job plan ------------------------------------------------------------------
def rate(config, student: str, L: int) -> float:
    """Steps per second per core of the reduced engine (config cost_model)."""
    kind = STUDENT_KIND[student]
    model = config[EXPERIMENT]["cost_model"][kind]
    growth = L * L if kind == "attention" else L
    return float(model["rate"]) / (1.0 + growth / float(model["L0"]))


def job_plan(config, name: str) -> list[dict]:
    """The SGD jobs of one experiment: {student, values, offset, count}.

    A point whose worst-case cost (T steps × :func:`replicates`) exceeds ``job_seconds`` is split into
    replicate blocks (never when ``stop_level`` is set: the stop reads the mean over all
    seeds); cheaper points of one student are grouped up to ``job_seconds``.
    """
    section = config[EXPERIMENT]
    spec = section["experiments"][name]
    budget, seeds, T = float(section["job_seconds"]), replicates(spec), int(spec["T"])
    jobs, group, group_cost = [], None, 0.0
    for student, value in points(spec):
        cost = T * seeds / rate(config, student, point_L(spec, value))
        if cost > budget:
            blocks = 1 if spec["stop_level"] is not None else min(seeds, math.ceil(cost / budget))
            size = math.ceil(seeds / blocks)
            for offset in range(0, seeds, size):
                jobs.append({"student": student, "values": [value], "offset": offset,
                             "count": min(size, seeds - offset)})
            continue
        if group is None or group["student"] != student or group_cost + cost > budget:
            group = {"student": student, "values": [], "offset": 0, "count": seeds}
            group_cost = 0.0
            jobs.append(group)
        group["values"].append(value)
        group_cost += cost
    return jobs


def stems(config, kind: str) -> dict:
    """Result stems: "sgd" per (experiment, job), "ode" per experiment."""
    root = f"{config['results_dir']}/{EXPERIMENT}"
    exps = config[EXPERIMENT]["experiments"]
    if kind == "sgd":
        return {(n, j): f"{root}/sgd_{n}_{j}" for n in exps for j in range(len(job_plan(config, n)))}
    if kind == "ode":
        return {n: f"{root}/ode_{n}" for n in exps}
    raise ValueError(f"kind={kind!r} is unknown; allowed: sgd, ode")


def check_config(config) -> None:
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


# --- SGD -------------------------------------------------------------------------------------------
def _sim_kwargs(spec: dict) -> dict:
    """simulate()'s initial condition: the authors' overlapped or random start, in law."""
    if spec["init"] == "random":
        return {"init": "random"}
    return {"init": "overlapped", "ic_overlap": spec["ic_overlap"], "ic_randomsign": bool(spec["ic_randomsign"])}


def overlap_curves(run) -> np.ndarray:
    """The authors' overlap (R, K): tied and attention |m|; untied (mean_l m_l²)^(1/2)."""
    if run.m_tokens is None:
        return np.abs(run.m)
    return np.sqrt(np.mean(run.m_tokens ** 2, axis=2))


def sgd_job(config, name: str, job: int, out_stem, log=None) -> None:
    """SGD replicates of one job of an experiment (reduced engine); arrays per sweep value."""
    from ..sgd import simulate

    section = config[EXPERIMENT]
    spec = section["experiments"][name]
    plan = job_plan(config, name)[job]
    d, T = int(spec["d"]), int(spec["T"])
    student = plan["student"]
    progress = ProgressLog(log, f"{EXPERIMENT} {name} job {job}: {student}, {sweep_key(spec)} = {plan['values']}, "
                                f"replicates {plan['offset']}..{plan['offset'] + plan['count'] - 1}")
    arrays, meta = {}, {}
    for value in plan["values"]:
        prob = problem(spec, student, value)
        lr = their_lr(spec, point_L(spec, value))
        key = seed_key(config["seed"], EXPERIMENT, name, student, _value_key(value))
        stop = None
        if spec["stop_level"] is not None:
            level = float(spec["stop_level"])
            stop = lambda done, m: bool(np.mean(np.abs(m)) >= level)  # noqa: E731
        start = time.monotonic()
        run = simulate(prob, d, lr, T, plan["count"], seed=key, engine=config["engine"],
                       replicate_offset=plan["offset"], points_per_decade=section["points_per_decade"],
                       progress=progress, stop_when=stop, **_sim_kwargs(spec))
        tag = f"{student}_{_value_key(value)}"
        arrays[f"steps_{tag}"] = run.steps
        arrays[f"overlap_{tag}"] = overlap_curves(run)
        arrays[f"e_{tag}"] = run.e
        meta[tag] = {"lr": lr, "steps_run": int(run.steps[-1]), "seconds": time.monotonic() - start}
        progress.note(f"{tag}: η = {lr:.4g}, {int(run.steps[-1])} steps, {meta[tag]['seconds']:.1f} s")
    save_result(out_stem, arrays, {"experiment": EXPERIMENT, "name": name, "job": job, "plan": plan,
                                   "points": meta, "d": d, "T": T, "engine": config["engine"], "config": spec})


def load_point(config, name: str, student: str, value, seeds: int | str | None = None):
    """(steps (K,), overlap (R, K), e (R, K)) of one point, replicate blocks joined in key order.

    ``seeds``: None for the experiment as they ran it (its first ``seeds`` replicates), "all"
    for every replicate simulated (:func:`replicates`), or a count."""
    tag = f"{student}_{_value_key(value)}"
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
    from ..ode import integrate_ode

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
        tag = f"{student}_{_value_key(value)}"
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
        meta[tag] = {"defined": True, "lr": lr, "seconds": time.monotonic() - start,
                     "steps_authors": crossing_time(t * d, np.abs(sol.m), 2 / math.sqrt(d)),
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
            info = meta["points"][f"{student}_{_value_key(value)}"]
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
    text = forecast_text(forecast(config), "cost forecast by the ODE (steps to 1.25 × the stop level crossing, or T)")
    atomic_write_text(out_path, text)
    return text


# --- numbers ---------------------------------------------------------------------------------------
#: seed-mean crossing (nan when the start is flagged, inf when not reached) and a/b; see authors_crossings
_mean_cross = authors_crossings.mean_crossing
_ratio = authors_crossings.ratio


def _switch(omegas, share):
    """First ω at which the share of positional runs reaches 1/2 (linear interpolation), or nan."""
    for i in range(1, len(omegas)):
        a, b = share[i - 1], share[i]
        if np.isfinite(a) and np.isfinite(b) and a < 0.5 <= b:
            return float(omegas[i - 1] + (0.5 - a) / (b - a) * (omegas[i] - omegas[i - 1]))
    return math.nan


def point_row(spec: dict, student: str, value, steps, ov, e, ode_point: dict) -> dict:
    """Numbers of one point from its replicates: crossings of the seed mean (2/√d and MACRO, a
    flagged start counted as no crossing: authors_crossings), final overlaps, shares; C5 shares."""
    d = int(spec["d"])
    steps = np.asarray(steps, float)
    authors_level = 2 / math.sqrt(d)
    row = {"student": student, sweep_key(spec): value, "lr": their_lr(spec, point_L(spec, value)),
           "seeds": int(ov.shape[0]), "steps_run": int(steps[-1]),
           "steps_mean_authors": _mean_cross(steps, ov, authors_level),
           "steps_mean_macro": _mean_cross(steps, ov, MACRO),
           "start_overlap_mean": authors_crossings.start_overlap(ov),
           "start_flagged_authors": authors_crossings.start_flagged(ov, authors_level),
           "start_flagged_macro": authors_crossings.start_flagged(ov, MACRO),
           "final_overlap_mean": float(ov[:, -1].mean()),
           "final_overlap_sd": float(ov[:, -1].std(ddof=1)) if ov.shape[0] > 1 else math.nan,
           "share_above_authors": float(np.mean(ov.max(axis=1) >= authors_level)),
           "share_above_macro": float(np.mean(ov.max(axis=1) >= MACRO)),
           "ode": bool(ode_point.get("defined"))}
    if ode_point.get("defined"):
        row["ode_steps_authors"] = ode_point["steps_authors"]
        row["ode_steps_macro"] = ode_point["steps_macro"]
    if spec["target"] == "positional_semantic_model":
        m_end, e_end = ov[:, -1], np.abs(e[:, -1])
        escaped = np.hypot(m_end, e_end) >= ESCAPED
        row.update({"final_abs_e_mean": float(e_end.mean()), "share_escaped": float(escaped.mean()),
                    "share_positional": float(np.mean(e_end[escaped] > m_end[escaped])) if escaped.any() else math.nan,
                    "share_semantic": float(np.mean(e_end[escaped] <= m_end[escaped])) if escaped.any() else math.nan})
    return row


def _own_gain(spec: dict, curves: dict, seed: int):
    """The gain fit of a file holding the untied and one other network over an L sweep, or None."""
    students = spec["students"]
    if not (sweep_key(spec) == "L" and len(students) == 2 and len(spec["sweep"]["L"]) > 1):
        return None
    other = [s for s in students if s != "plain_network"][0]
    pairs = {int(L): (curves[("plain_network", L)], curves[(other, L)]) for L in spec["sweep"]["L"]}
    return authors_crossings.gain_fit(pairs, 2 / math.sqrt(int(spec["d"])), seed, names=("plain_network", other))


def _pair_curves(config, untied: str, tied: str, seeds) -> dict:
    """{L: ((steps, curves) untied, (steps, curves) tied)} of a gain pair sitting in two files."""
    su, st = config[EXPERIMENT]["experiments"][untied], config[EXPERIMENT]["experiments"][tied]
    pairs = {}
    for L in su["sweep"]["L"]:
        if L in st["sweep"]["L"]:
            pairs[int(L)] = tuple((s.astype(float), c) for s, c in (
                load_point(config, untied, su["students"][0], L, seeds)[:2],
                load_point(config, tied, st["students"][0], L, seeds)[:2]))
    return pairs


def summarise(config) -> dict:
    """Key numbers of every experiment: per point crossings, final overlaps, shares; gains; C5 switch ω.

    Each experiment's numbers are those of the run as the authors made it (their seed count); an
    experiment with ``decide_seeds`` also gets ``decide`` ({seeds, rows}: the same numbers over all
    its replicates), and its gain fit (own or of its pair) a ``decide`` fit over all replicates."""
    section = config[EXPERIMENT]
    seed = int(config["seed"])
    out = {"experiments": {}}
    for name, spec in section["experiments"].items():
        d, T = int(spec["d"]), int(spec["T"])
        n_run, n_all = int(spec["seeds"]), replicates(spec)
        _, ode_meta = load_result(stems(config, "ode")[name])
        rows, rows_all, curves, curves_all = [], [], {}, {}
        for student, value in points(spec):
            steps, ov, e = load_point(config, name, student, value, "all")
            om = ode_meta["points"][f"{student}_{_value_key(value)}"]
            curves[(student, value)] = (steps.astype(float), ov[:n_run])
            curves_all[(student, value)] = (steps.astype(float), ov)
            rows.append(point_row(spec, student, value, steps, ov[:n_run], e[:n_run], om))
            if n_all > n_run:
                rows_all.append(point_row(spec, student, value, steps, ov, e, om))
        entry = {"file": spec["file"], "claim": spec["claim"], "role": spec["role"], "d": d, "T": T,
                 "seeds": n_run, "rows": rows}
        if sweep_key(spec) == "omega" and len(spec["sweep"]["omega"]) > 1:
            om = np.array(spec["sweep"]["omega"], float)
            share = np.array([r["share_positional"] for r in rows], float)
            entry["switch_omega"] = _switch(om, share)
            entry["share_not_escaped"] = float(1 - np.mean([r["share_escaped"] for r in rows]))
        gain = _own_gain(spec, curves, seed)
        if gain is not None:
            entry["gain"] = gain
        if n_all > n_run:
            entry["decide"] = {"seeds": n_all, "rows": rows_all}
            if gain is not None:
                gain["decide"] = dict(_own_gain(spec, curves_all, seed), seeds=n_all)
        out["experiments"][name] = entry
    out["gains"] = {}
    for untied, tied in section.get("gain_pairs", []):
        su, st = section["experiments"][untied], section["experiments"][tied]
        level = 2 / math.sqrt(int(su["d"]))
        fit = authors_crossings.gain_fit(_pair_curves(config, untied, tied, None), level, seed, names=(untied, tied))
        ode_u, ode_t = load_result(stems(config, "ode")[untied])[1], load_result(stems(config, "ode")[tied])[1]
        g = []
        for L in fit["Ls"]:
            a = ode_u["points"][f"{su['students'][0]}_{L}"]
            b = ode_t["points"][f"{st['students'][0]}_{L}"]
            g.append(_ratio(a["steps_authors"], b["steps_authors"]) if a.get("defined") and b.get("defined") else math.nan)
        fit["ode_gain"] = g
        fit["ode_exponent"] = loglog_slope(fit["Ls"], g)
        n_all = min(replicates(su), replicates(st))
        if n_all > max(int(su["seeds"]), int(st["seeds"])):
            fit["decide"] = authors_crossings.gain_fit(_pair_curves(config, untied, tied, n_all), level, seed,
                                                       names=(untied, tied))
            fit["decide"]["seeds"] = n_all
        out["gains"][f"{untied}/{tied}"] = fit
    candidates = authors_candidates.summarise(config)
    if candidates is not None:
        out["candidates"] = candidates
    return out


# --- figures ------------------------------------------------------------------------------------
def figure_names(config) -> list[str]:
    """One figure per experiment file, plus the C4 protocol candidates when configured."""
    extra = [authors_candidates.FIGURE] if authors_candidates.stems(config) else []
    return list(config[EXPERIMENT]["experiments"]) + extra


#: line styles of up to two students in one figure (ODE: dotted, thin)
_STUDENT_STYLES = ("-", (0, (5, 2)))
_ODE_STYLE = (0, (1, 1.2))


def _figure_title(spec) -> str:
    """One line: target, students, d, T, seeds, loss (their file name is the figure's name)."""
    from ..plotting import label, number

    students = " and ".join(label(s) for s in spec["students"])
    return (f"{label(spec['target'])}, {students}, $d$ = {spec['d']}, {number(float(spec['T']))} steps, "
            f"{spec['seeds']} seeds, {spec['loss']} loss")


def verdict_text(config, numbers, name) -> str | None:
    """The claim this experiment tests, measured against the paper (None for exploratory runs)."""
    from ..plotting import law, verdict_line

    spec = config[EXPERIMENT]["experiments"][name]
    e = numbers["experiments"][name]
    if spec["role"] == "exploratory" or spec["claim"] not in ("C4", "C5"):
        return None
    if spec["target"] in authors_verdicts.CLAIMED_GAIN:
        key, g = authors_verdicts.gain_of(name, numbers)
        if g is None:
            return "gain: no law (a network never reached $2/\\sqrt{d}$)"
        claimed = authors_verdicts.CLAIMED_GAIN[spec["target"]]
        basis = g.get("decide") or g                   # the many-seed rerun decides when there is one
        measured = law("L", basis.get("exponent"), basis.get("low"), basis.get("high"))
        if g.get("decide"):
            measured += f" ({basis['seeds']} seeds)"
        paper = "$L$" if claimed == 1 else f"$L^{{{claimed:g}}}$"
        return "gain " + verdict_line(measured, paper)
    if spec["target"] in authors_verdicts.NULL_TARGETS:
        c = authors_verdicts.null_counts(spec, e)
        return (f"measured ({c['seeds']} seeds): tied stays below {authors_verdicts.NULL_FACTOR:g}$\\,d^{{-1/2}}$ "
                f"in {c['tied_below']}/{c['tied']}, untied rises above in {c['untied_above']}/{c['untied']} "
                "· paper: the tied network never learns")
    if spec["target"] == "positional_semantic_model" and len(spec["sweep"]["omega"]) > 1:
        sw = e.get("switch_omega")
        measured = (f"switch at $\\omega$ = {sw:.3f}" if sw is not None and math.isfinite(sw)
                    else "no switch by the end")
        return f"measured: {measured} · paper: semantic, then positional as $\\omega$ grows"
    if spec["target"] == "positional_semantic_model":
        r = e["rows"][0]
        share = r.get("share_semantic")
        share = "n/a" if share is None or not math.isfinite(share) else f"{share:.0%}"
        return f"measured: {share} end semantic · paper: the runs end at the global (semantic) minimum"
    return None


def plot_experiment(config, numbers, name, out_paths) -> None:
    """Left: overlap vs steps, one colour per swept value (colour bar; SGD mean thick over its
    replicates, ODE dotted); right: the summary against L or ω, with the verdict."""
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize
    from matplotlib.lines import Line2D
    from matplotlib.ticker import MaxNLocator, NullFormatter

    from ..plotting import (BLACK, COLOURS, GREEN, GUIDE, WIDTH_DOUBLE, label, limits_to_data, new_figure,
                            place_legends, plain_log_ticks, save_figure)
    import matplotlib.pyplot as plt

    spec = config[EXPERIMENT]["experiments"][name]
    entry = numbers["experiments"][name]
    d = int(spec["d"])
    ode, _ = load_result(stems(config, "ode")[name])
    key = sweep_key(spec)
    values = spec["sweep"][key]
    semantic = spec["target"] == "positional_semantic_model"
    fig, (ax, ax2) = new_figure(ncols=2, nrows=1, width=WIDTH_DOUBLE, height=3.0, squeeze=True)
    cmap = plt.get_cmap("viridis")
    norm = Normalize(min(values), max(values) if max(values) > min(values) else min(values) + 1)
    shown = values if len(values) <= 12 else [values[i] for i in np.linspace(0, len(values) - 1, 6).round().astype(int)]
    styles = dict(zip(spec["students"], _STUDENT_STYLES))
    first_move = []
    for student in spec["students"]:
        for v in shown:
            colour = cmap(norm(v))
            steps, ov, e = load_point(config, name, student, v)
            keep = steps > 0
            for c in ov[:8]:
                ax.plot(steps[keep], c[keep], color=colour, lw=0.3, alpha=0.3, ls=styles[student])
            mean = ov.mean(axis=0)[keep]
            ax.plot(steps[keep], mean, color=colour, lw=1.3, ls=styles[student])
            moved = np.flatnonzero(mean > mean[0] + 0.1 * (mean.max() - mean[0])) if mean.size else []
            if len(moved):
                first_move.append(steps[keep][moved[0]])
            if semantic:
                ax.plot(steps[keep], np.abs(e).mean(axis=0)[keep], color=colour, lw=0.9, ls="-.")
            tag = f"t_{student}_{_value_key(v)}"
            if tag in ode:
                t = ode[tag] * d
                ax.plot(t[t > 0], ode[f"m_{student}_{_value_key(v)}"][t > 0], color=colour, lw=0.9, ls=_ODE_STYLE)
    ax.axhline(2 / math.sqrt(d), color=GUIDE, lw=0.6, ls=":", zorder=0.5)
    ax.set_xscale("log")
    # start a decade before the first mean curve leaves its start: the plateau before is flat
    left = 10 ** (math.floor(math.log10(min(first_move))) - 1) if first_move else 1.0
    ax.set_xlim(max(1.0, left), None)
    ax.set_xlabel("SGD steps")
    ax.set_ylabel("overlap" + (r" $|m|$, and $|e|$ (dash-dot)" if semantic else ""))
    if len(values) > 1:                      # one colour per swept value: a colour bar says which
        bar = fig.colorbar(ScalarMappable(norm=norm, cmap=cmap), ax=ax, shrink=0.9, pad=0.02)
        bar.ax.set_ylabel(label("L") if key == "L" else label("omega"), rotation=0, va="center", ha="left")
        if key == "L":
            bar.locator = MaxNLocator(integer=True)
            bar.update_ticks()
    style_handles = [Line2D([], [], color=BLACK, lw=1.3, ls=styles[s], label=f"{label(s)}, SGD mean")
                     for s in spec["students"]]
    style_handles += [Line2D([], [], color=BLACK, lw=0.9, ls=_ODE_STYLE, label="ODE"),
                      Line2D([], [], color=GUIDE, lw=0.6, ls=":", label=r"$2/\sqrt{d}$")]
    rows = entry["rows"]
    right_handles = []
    if semantic:
        om = np.array([r["omega"] for r in rows])
        ax2.plot(om, [r["final_overlap_mean"] for r in rows], "o-", ms=3, color=COLOURS["semantic"], label="m")
        ax2.plot(om, [r["final_abs_e_mean"] for r in rows], "s-", ms=3, color=COLOURS["positional"], label="e")
        ax2.plot(om, [r["share_escaped"] for r in rows], "^:", ms=3, color=GREEN, label="escaped")
        right_handles = [Line2D([], [], marker="o", ms=3, color=COLOURS["semantic"], label=r"final $|m|$, mean of seeds"),
                         Line2D([], [], marker="s", ms=3, color=COLOURS["positional"], label=r"final $|e|$, mean of seeds"),
                         Line2D([], [], marker="^", ms=3, ls=":", color=GREEN,
                                label=rf"share with $\sqrt{{m^2 + e^2}} \geq {ESCAPED:g}$")]
        sw = entry.get("switch_omega")
        if sw is not None and np.isfinite(sw):
            ax2.axvline(sw, color=BLACK, lw=0.8, ls="--", zorder=1)
            right_handles.append(Line2D([], [], color=BLACK, lw=0.8, ls="--", label=rf"switch $\omega$ = {sw:.3f}"))
        ax2.set_xlabel(label("omega"))
        ax2.set_ylabel("final overlap, share")
        ax2.set_ylim(-0.03, 1.05)
    else:
        crossing = any(np.isfinite(r["steps_mean_authors"]) for r in rows)
        decided = entry.get("decide")
        ys, missing, flagged = [], [], []
        for student in spec["students"]:
            colour = COLOURS[STUDENT_KIND[student]]
            mine = [r for r in rows if r["student"] == student]
            Ls = np.array([r["L"] for r in mine], float)
            if crossing:
                y = np.array([r["steps_mean_authors"] for r in mine], float)
                yo = np.array([r.get("ode_steps_authors", math.nan) for r in mine], float)
                ax2.plot(Ls, y, "o", ms=3.5, color=colour, zorder=3, label=student)
                ax2.plot(Ls, yo, color=colour, lw=1.0, ls=_ODE_STYLE, zorder=2)
                ys += [y, yo]
                missing += [f"{label(student)} $L$ = {int(r['L'])}" for r, v in zip(mine, y)
                            if not np.isfinite(v) and not r.get("start_flagged_authors")]
                flagged += [f"{label(student)} $L$ = {int(r['L'])}" for r in mine if r.get("start_flagged_authors")]
                if np.isfinite(y).any():
                    right_handles.append(Line2D([], [], marker="o", ms=3.5, ls="", color=colour,
                                                label=f"{label(student)}: SGD, seed mean"))
            else:
                y = np.array([r["final_overlap_mean"] for r in mine], float)
                ax2.plot(Ls, y, "o", ms=3.5, color=colour, zorder=3, label=student)
                ys.append(y)
                right_handles.append(Line2D([], [], marker="o", ms=3.5, ls="", color=colour,
                                            label=f"{label(student)}: final overlap, seed mean"))
            if decided:                        # the many-seed rerun that decides, beside their run
                many = [r for r in decided["rows"] if r["student"] == student]
                ym = np.array([r["steps_mean_authors" if crossing else "final_overlap_mean"] for r in many], float)
                ax2.plot([r["L"] for r in many], ym, "s", ms=3.5, mfc="none", color=colour, zorder=3)
                ys.append(ym)
                right_handles.append(Line2D([], [], marker="s", ms=3.5, ls="", mfc="none", color=colour,
                                            label=f"{label(student)}: mean of {decided['seeds']} seeds"))
        if crossing:
            right_handles.append(Line2D([], [], color=BLACK, lw=1.0, ls=_ODE_STYLE, label="ODE"))
            ax2.set_ylabel(r"steps to $2/\sqrt{d}$, seed mean")
            ax2.set_yscale("log")
            if missing:
                right_handles.append(Line2D([], [], ls="", label="not reached by the end: " + ", ".join(missing[:4])
                                            + (" …" if len(missing) > 4 else "")))
            if flagged:                        # docs/theory.md, "Crossings of the authors' level"
                right_handles.append(Line2D([], [], ls="", label="start already near the level, not a crossing: "
                                            + ", ".join(flagged[:3]) + (" …" if len(flagged) > 3 else "")))
        else:
            ax2.set_ylabel("final overlap, seed mean")
        all_L = np.array([r["L"] for r in rows], float)
        limits_to_data(ax2, x=all_L)
        limits_to_data(ax2, y=np.concatenate(ys) if ys else None, log=crossing)
        distinct = np.unique(all_L)
        ax2.set_xscale("log" if len(distinct) > 1 else "linear")
        ax2.set_xlabel(label("L"))
        plain_log_ticks(ax2)
        if len(distinct) <= 6:               # a few L: each one labelled
            ax2.set_xticks(distinct, [f"{L:g}" for L in distinct])
            ax2.xaxis.set_minor_formatter(NullFormatter())
    fig.suptitle(_figure_title(spec), fontsize=7)
    verdict = verdict_text(config, numbers, name)
    verdict = verdict.replace(" · ", "\n").replace(", untied", ",\nuntied") if verdict else None
    place_legends([(ax2, {"handles": right_handles, "fontsize": 6, "title": verdict, "title_fontsize": 6,
                          "alignment": "left"}),
                   (ax, {"handles": style_handles, "fontsize": 6})])
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


def plot(config, out_paths) -> None:
    """One figure per experiment; a path goes to the experiment named by its file name."""
    from .audit import clean_for_json

    numbers = clean_for_json(summarise(config))
    numbers = json.loads(json.dumps(numbers), parse_constant=float)
    _nan(numbers)
    for name in figure_names(config):
        paths = [p for p in out_paths if str(p).rsplit("/", 1)[-1].rsplit(".", 1)[0] == name]
        if paths and name == authors_candidates.FIGURE:
            authors_candidates.plot(config, numbers["candidates"], paths)
        elif paths:
            plot_experiment(config, numbers, name, paths)


def _nan(obj):
    """None -> nan in place (numbers read back from JSON)."""
    items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list) else []
    for k, v in list(items):
        if v is None:
            obj[k] = math.nan
        else:
            _nan(v)


def claim_rows(config, numbers) -> list[dict]:
    """Rows of figures/authors/CLAIMS.md: one per experiment file on which a claim rests.

    The verdict is :func:`ssi.experiments.authors_verdicts.verdict` in the claims table's words."""
    rows = []
    rule = "the rules of src/ssi/experiments/authors_verdicts.py (see docs/results/authors.md)"
    section = config[EXPERIMENT]["experiments"]
    numbers = json.loads(json.dumps(numbers))           # a copy: null -> nan below, as the verdicts expect
    _nan(numbers)
    for name, e in numbers["experiments"].items():
        agrees, why = authors_verdicts.verdict(name, config, numbers, {})
        if name not in section or verdict_word(agrees) not in VERDICTS:
            continue                                     # exploratory: no claim rests on it
        measured = f"{e['role']}; d = {e['d']}, T = {e['T']:.3g}, {e['seeds']} seed{'s' if e['seeds'] > 1 else ''}"
        key, g = authors_verdicts.gain_of(name, numbers)
        if g is not None:
            measured += (f"; gain{'' if key == name else f' ({key})'} ∝ L^{_fmt(g['exponent'])} "
                         f"[{_fmt(g['low'])}, {_fmt(g['high'])}]")
            if g.get("excluded"):
                measured += " (flagged starts left out: " + ", ".join(f"{x['network']} L = {x['L']}" for x in g["excluded"]) + ")"
            if g.get("decide"):
                measured += (f"; {g['decide']['seeds']} seeds: gain ∝ L^{_fmt(g['decide']['exponent'])} "
                             f"[{_fmt(g['decide']['low'])}, {_fmt(g['decide']['high'])}]")
        elif e.get("decide"):
            many, root_d = e["decide"]["rows"], math.sqrt(e["d"])
            measured += f"; {e['decide']['seeds']} seeds, final overlap × √d: " + ", ".join(
                f"{s} {min(r['final_overlap_mean'] for r in many if r['student'] == s) * root_d:.2f}–"
                f"{max(r['final_overlap_mean'] for r in many if r['student'] == s) * root_d:.2f}"
                for s in dict.fromkeys(r["student"] for r in many))
        if e.get("switch_omega", "absent") != "absent":
            measured += f"; switch ω {_fmt(e['switch_omega'], '.3f')}, not escaped {_fmt(e['share_not_escaped'], '.0%')}"
        rows.append({"claim": f"{e['claim']} {e['file']}", "paper": e["claim"], "measured": f"{measured}; {why}",
                     "headline": why, "verdict": verdict_word(agrees), "figure": f"{config['figures_dir']}/{name}.png",
                     "rule": rule,
                     "command": f"snakemake --cores all --configfile config/authors.yaml figures/authors/{name}.png"})
    cand = numbers.get("candidates")
    if cand:
        agrees, why = authors_verdicts.candidates_verdict(cand)
        measured = "; ".join(f"{k} ∝ L^{_fmt(g['exponent_sgd'])} [{_fmt(g['low'])}, {_fmt(g['high'])}] (ODE L^{_fmt(g['exponent_ode'])})"
                             for k, g in cand["gains"].items())
        rows.append({"claim": "C4 SIE 2: protocols for a gain ∝ L² (SGD at each network's ODE-best η)", "paper": "C4",
                     "measured": measured, "headline": why, "verdict": verdict_word(agrees),
                     "figure": f"{config['figures_dir']}/{authors_candidates.FIGURE}.png", "rule": rule,
                     "command": "snakemake --cores all --configfile config/authors.yaml "
                                f"figures/authors/{authors_candidates.FIGURE}.png"})
    return rows


_fmt = authors_verdicts._num


def their_hours(config, name: str) -> float:
    """CPU-hours of the authors' method for one experiment file: T × runs at their measured rate."""
    section = config[EXPERIMENT]
    spec = section["experiments"][name]
    return int(spec["T"]) * int(spec["seeds"]) * len(points(spec)) / float(section["their_rate"]) / 3600
