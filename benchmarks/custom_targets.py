"""Speed of a user's target (ssi.custom) against the registry kernel it copies, side by side.

Runs the reduced engine, the explicit engine (``steps // 100`` steps: numpy's work in R^d
dominates it, the target's kernel is a small part) and the quadrature of the population loss
for the registry target
``he4_sum_plus_diff`` and for the same function written by a user, in one process, after a
warm-up call that compiles both; prints the time ratio custom/registry (the goal: ≤ 2).
Times are CPU seconds of this process (``time.process_time``; the kernels run on one
thread), the best of ``repeats`` runs taken alternately, so that other load on the machine
slows both sides alike. Two copies: ``z**4`` (numba evaluates complex powers by exp/log, so
the matched student's gradient falls back to central differences, ssi.custom) and products
(the complex-step gradient). Usage: ``python benchmarks/custom_targets.py [steps]``.
"""
from __future__ import annotations

import math
import sys
import time
import warnings

import numpy as np

from ssi import Problem, population_loss, simulate
from ssi.custom import SlowTargetWarning

SQ2, SQ24 = math.sqrt(2.0), math.sqrt(24.0)


def my_he4_sum_plus_diff(z):
    h4 = (z[0] ** 4 - 6 * z[0] ** 2 + 3 + z[1] ** 4 - 6 * z[1] ** 2 + 3) / SQ24
    return -h4 + (z[0] - z[1]) / SQ2


def my_he4_products(z):
    a, b = z[0] * z[0], z[1] * z[1]
    return -(a * a - 6 * a + 3 + b * b - 6 * b + 3) / SQ24 + (z[0] - z[1]) / SQ2


def cpu_time(fun):
    start = time.process_time()
    fun()
    return time.process_time() - start


def main(steps=2_000_000, repeats=3):
    states = np.linspace(-0.9, 0.9, 7)
    rows = []
    for student in ("attention", "matched"):
        pe = "opposite" if student == "attention" else "none"
        e = 0.1 if pe == "opposite" else 0.0
        problems = {"registry": Problem(L=2, target="he4_sum_plus_diff", student=student, pe=pe)}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SlowTargetWarning)       # z**4: the central-difference gradient
            for label, fun in (("z**4", my_he4_sum_plus_diff), ("products", my_he4_products)):
                problems[label] = Problem(L=2, target=fun, student=student, pe=pe)
            for p in problems.values():                                      # compile every kernel
                simulate(p, d=1000, lr=0.5, steps=10, seed=0)
                simulate(p, d=1000, lr=0.5, steps=10, seed=0, engine="explicit")
                population_loss(p, states, e, budget=100_000, method="gh")
        best = {label: [math.inf] * 3 for label in problems}
        for _ in range(repeats):
            for label, p in problems.items():
                sgd = cpu_time(lambda: simulate(p, d=1000, lr=0.5, steps=steps, seed=0, record=[0, steps]))
                explicit = cpu_time(lambda: simulate(p, d=1000, lr=0.5, steps=steps // 100, seed=0,
                                                     record=[0, steps // 100], engine="explicit"))
                quad = cpu_time(lambda: population_loss(p, states, e, budget=100_000, method="gh"))
                best[label] = [min(b, t) for b, t in zip(best[label], (sgd, explicit, quad))]
        for i, what in enumerate(("reduced SGD", "explicit SGD", "quadrature")):
            r = best["registry"][i]
            for label in ("z**4", "products"):
                rows.append((student, what, label, r, best[label][i], best[label][i] / r))
    print(f"{'student':<10} {'what':<12} {'copy':<9} {'registry s':>11} {'custom s':>9} {'ratio':>6}")
    for student, what, label, r, c, ratio in rows:
        print(f"{student:<10} {what:<12} {label:<9} {r:11.3f} {c:9.3f} {ratio:6.2f}")
    return rows


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2_000_000)
