"""ODE predictions of the SIE-2 escape, one function for every quantity, each value keyed.

A prediction is the escape of one student on one of the authors' ``c(L)·Σh₂`` targets, from the
start ``m0`` to ``level`` at dimension ``d``, under one learning-rate rule: at the η that minimises
the ODE's escape time (``ODE_BEST``, "the ODE's best η") or at a given η. It comes from the reduced
SIE-2 ODE (:mod:`ssi.sie2_escape`; docs/theory.md, "The SIE-2 escape near m = 0"), which is exact
along the token-symmetric states of the full ODE, with precise coefficients: closed forms for the
ReLU networks, the exact Laplace integral for the attention drift, and for its noise tensor
Gauss–Hermite (L ≤ 3) or :data:`ATTENTION_SAMPLES` Monte Carlo draws whose seed is fixed by the
key (relative standard error ≈ 5·10⁻⁴ of the time at 4 ≤ L ≤ 8). The best η is a bounded 1-D
minimisation of the exact escape-time integral in log η (tolerance 10⁻⁷).

Every value is written once, by the result that owns it (the authors' protocols job, in
``figures/authors/numbers/authors.json``); a numbers file that quotes it copies the keyed entry
(:func:`entry`) instead of recomputing, and :func:`conflicts` finds two values for one key across
numbers files (tests/experiments/test_ode_predictions_agree.py).
"""
from __future__ import annotations

import json
import math

from ... import sie2_escape as se
from ...escape import AUTHORS

#: the learning-rate rule of a prediction at the η minimising the ODE's escape time
ODE_BEST = "the ODE's best η"
#: η of a loss in units of the η of ½(f − g)² (the reduced ODE's): the authors' "square" loss,
#: torch MSE (f − g)², has twice the gradient, so its η is half
LOSS_LR_FACTOR = {"mse": 0.5, "half_square": 1.0}
#: Monte Carlo draws of the attention noise integral at 4 ≤ L ≤ 32; beyond, 2³⁰/L² of them
#: (at least 2¹²): the cost is ∝ samples·L² and the memory ∝ samples·L
ATTENTION_SAMPLES = 2 ** 20
#: scale c(L) of the authors' Σh₂ normalisations
SCALES = {"H2sum": lambda L: 1.0, "inversesqrtH2sum": lambda L: L ** -0.5, "inverseH2sum": lambda L: 1.0 / L,
          "sqrtH2sum": lambda L: L ** 0.5, "linearH2sum": lambda L: float(L)}
STUDENTS = ("tied", "untied", "attention")


def authors_level(d: int) -> float:
    """The authors' escape level at dimension ``d`` (:data:`ssi.escape.AUTHORS`)."""
    return AUTHORS.value(d)


def key(target: str, student: str, L: int, d: int, level: float, m0: float, lr=ODE_BEST,
        loss: str = "mse") -> dict:
    """The key of one prediction (a dict of JSON values; :func:`key_text` is its canonical form).

    Parameters
    ----------
    target : str
        The authors' name of the target, a key of :data:`SCALES`.
    student : str
        "tied" or "untied" (ReLU networks) or "attention" (trace reduction).
    L, d : int
    level, m0 : float
        Escape level and start of the overlap (|m| tied, RMS of the token overlaps untied).
    lr : str or float
        :data:`ODE_BEST`, or the η (in the convention of ``loss``).
    loss : str
        A key of :data:`LOSS_LR_FACTOR`: the convention of the η.
    """
    if target not in SCALES:
        raise ValueError(f"target={target!r} is unknown; allowed: {', '.join(SCALES)}")
    if student not in STUDENTS:
        raise ValueError(f"student={student!r} is unknown; allowed: {', '.join(STUDENTS)}")
    if loss not in LOSS_LR_FACTOR:
        raise ValueError(f"loss={loss!r} is unknown; allowed: {', '.join(LOSS_LR_FACTOR)}")
    if lr != ODE_BEST and not (isinstance(lr, (int, float)) and not isinstance(lr, bool) and lr > 0):
        raise ValueError(f"lr={lr!r} is not allowed; lr is {ODE_BEST!r} or a number > 0")
    if int(L) < (2 if student == "attention" else 1):
        raise ValueError(f"L={L!r} is not allowed; L ≥ 1 (attention: L ≥ 2)")
    return {"target": target, "student": student, "L": int(L), "d": int(d), "level": float(level),
            "m0": float(m0), "lr": lr if lr == ODE_BEST else float(lr), "loss": loss}


def key_text(k: dict) -> str:
    """Canonical text of a key (floats to 12 significant digits): equal keys, equal texts."""
    return json.dumps({n: (float(f"{v:.12g}") if isinstance(v, float) else v) for n, v in sorted(k.items())},
                      ensure_ascii=False)


def coefficients(target: str, student: str, L: int) -> se.Coefficients:
    """Coefficients of the reduced ODE of a student on ``c(L)·Σh₂`` (loss ½(f − g)²)."""
    L, c = int(L), SCALES[target](int(L))
    if student == "attention":
        from ..common import seed_key

        samples = min(ATTENTION_SAMPLES, max(2 ** 12, 2 ** 30 // (L * L)))
        nu = se.attention_noise(L, [c], samples=samples, seed=seed_key(0, "prediction", target, L))[0]
        return se.Coefficients(A=float(se.attention_drift([L], c)[0]), **nu)
    return se.feedforward(L, c, moments=se.RELU_MOMENTS, network=student)


def predict(k: dict) -> dict:
    """The prediction of a key (:func:`key`): ``{"key", "lr", "steps"}``.

    ``lr`` is the η in the key's loss convention (the ODE's best η, or the key's own), ``steps``
    the reduced ODE's steps ``d·t`` from ``m0`` to ``level`` at that η (``inf`` when the noise
    wins).
    """
    coef = coefficients(k["target"], k["student"], k["L"])
    factor = LOSS_LR_FACTOR[k["loss"]]
    m0, level = k["m0"], k["level"]
    eta = coef.best_lr(m0, level)[0] if k["lr"] == ODE_BEST else k["lr"] / factor
    return {"key": dict(k), "lr": eta * factor, "steps": coef.ode_escape_time(eta, m0, level) * k["d"]}


def entry(k: dict, lr: float, steps: float) -> dict:
    """The JSON entry of a prediction (what a numbers file lists under ``ode_predictions``)."""
    return {"key": dict(k), "lr": float(lr), "steps": float(steps)}


def collect(numbers, where: str = "") -> list[tuple[str, dict]]:
    """(where, entry) of every keyed prediction in a numbers dict (every ``ode_predictions`` list,
    at any depth)."""
    found = []
    if isinstance(numbers, dict):
        for name, value in numbers.items():
            if name == "ode_predictions" and isinstance(value, list):
                found += [(f"{where}/{name}", e) for e in value]
            else:
                found += collect(value, f"{where}/{name}")
    elif isinstance(numbers, list):
        for i, value in enumerate(numbers):
            found += collect(value, f"{where}[{i}]")
    return found


def conflicts(sources: dict, rtol: float = 1e-9) -> list[str]:
    """Keys that two entries give different values, in words.

    ``sources``: name (e.g. a file) -> numbers dict. Values differ when ``lr`` or ``steps`` differ
    by more than ``rtol`` relatively."""
    seen, out = {}, []
    for name, numbers in sources.items():
        for where, e in collect(numbers):
            k = key_text(e["key"])
            # a numbers file writes an infinite time (no escape) as null
            here = (f"{name}{where}", *(math.inf if e[v] is None else float(e[v]) for v in ("lr", "steps")))
            if k not in seen:
                seen[k] = here
                continue
            first = seen[k]
            if any(not math.isclose(a, b, rel_tol=rtol) for a, b in zip(first[1:], here[1:])):
                out.append(f"{k}: lr {first[1]:.6g}, steps {first[2]:.6g} in {first[0]}; "
                           f"lr {here[1]:.6g}, steps {here[2]:.6g} in {here[0]}")
    return out
