"""The authors' experiment files as our problems: their names and conventions, the sweep points,
replicate counts, the cost model and the job plan (lowest module of the authors' experiments).

The name tables (students, targets, activations, losses, reductions) are :mod:`ssi.authors`'."""
from __future__ import annotations

import math

from ... import escape
from ...problems import Problem

EXPERIMENT = "authors"
#: the crossing numbers' macroscopic escape level, beside the authors' early one (ssi.escape.AUTHORS_MACRO)
MACRO = escape.AUTHORS_MACRO.value()
#: C5: a run has left (0, 0) when √(m² + e²) reaches this at the end (ssi.escape.AUTHORS_LEFT_ORIGIN)
ESCAPED = escape.AUTHORS_LEFT_ORIGIN.value()


def authors_api():
    """ssi.authors (their names, learning rates, initial overlap)."""
    from ... import authors
    return authors


def their_lr(spec: dict, L: int) -> float:
    """Their learning rate: learning_rate_coefficient · scaling(L)."""
    lr = float(authors_api().learning_rate(float(spec["lr"]), spec["lr_scaling"], int(L)))
    return lr


def sweep_key(spec: dict) -> str:
    """"L" or "omega": the swept parameter of an experiment."""
    return next(iter(spec["sweep"]))


def point_L(spec: dict, value) -> int:
    """The sequence length L of a sweep point: the value of an L sweep, else the file's ``L`` (default 2)."""
    return int(value) if sweep_key(spec) == "L" else int(spec.get("L", 2))


def problem(spec: dict, student: str, value) -> Problem:
    """Our Problem for one student and sweep value of an experiment, in the authors' conventions."""
    api = authors_api()
    L = point_L(spec, value)
    kw = {"L": L, "student": api.STUDENT_NAMES[student], "loss": api.LOSS_NAMES[spec["loss"]]}
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
        kw["reduction"] = api.REDUCTION_NAMES[spec.get("reduction", "trace")]
    else:
        kw["activation"] = api.ACTIVATION_NAMES[spec.get("activation", "relu")]
    return Problem(**kw)


def initial_m(spec: dict) -> float:
    """m₀ of the overlapped start (every token), or the typical |m₀| = d^(−1/2) of the random one."""
    d = int(spec["d"])
    if spec["init"] == "random":
        return d ** -0.5
    return float(authors_api().initial_overlap(spec["ic_overlap"], d))


def replicates(spec: dict) -> int:
    """Replicates simulated per point: their ``seeds``, or ``decide_seeds`` when larger.

    Replicate r has the same random numbers whatever the count, so the first ``seeds``
    replicates are their experiment as run and all of them the many-seed rerun that decides."""
    return max(int(spec["seeds"]), int(spec.get("decide_seeds") or 0))


def points(spec: dict) -> list[tuple[str, object]]:
    """(student, sweep value) of every run of an experiment, in config order."""
    return [(s, v) for s in spec["students"] for v in spec["sweep"][sweep_key(spec)]]


def value_key(value) -> str:
    """The key of a sweep value in result names: repr of a float (ω), str of an int (L)."""
    return repr(float(value)) if isinstance(value, float) else str(int(value))


# --- cost model and job plan ------------------------------------------------------------------
def rate(config, student: str, L: int) -> float:
    """Steps per second per core of the reduced engine (config cost_model)."""
    kind = authors_api().STUDENT_NAMES[student]
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


