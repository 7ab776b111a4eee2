"""Speed of a user's target (ssi.custom) against the registry kernel it copies, side by side.

Runs the reduced engine (steps per second) and the quadrature of the population loss for
the registry target ``he4_sum_plus_diff`` and for the same function written by a user, in one
process, after a warm-up call that compiles both; prints the time ratio custom/registry
(the goal: ≤ 2). Usage: ``python benchmarks/custom_targets.py [steps]``.
"""
from __future__ import annotations

import math
import sys
import time

import numpy as np

from ssi import Problem, population_loss, simulate

SQ2, SQ24 = math.sqrt(2.0), math.sqrt(24.0)


def my_he4_sum_plus_diff(z):
    h4 = (z[0] ** 4 - 6 * z[0] ** 2 + 3 + z[1] ** 4 - 6 * z[1] ** 2 + 3) / SQ24
    return -h4 + (z[0] - z[1]) / SQ2


def best_of(fun, repeats=3):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fun()
        times.append(time.perf_counter() - start)
    return min(times)


def main(steps=2_000_000):
    rows = []
    for student in ("attention", "matched"):
        pe = "opposite" if student == "attention" else "none"
        reg = Problem(L=2, target="he4_sum_plus_diff", student=student, pe=pe)
        cus = Problem(L=2, target=my_he4_sum_plus_diff, student=student, pe=pe)
        timings = {}
        for label, p in (("registry", reg), ("custom", cus)):
            simulate(p, d=1000, lr=0.5, steps=10, seed=0)                 # compile
            population_loss(p, 0.3)
            sgd = best_of(lambda: simulate(p, d=1000, lr=0.5, steps=steps, seed=0, record=[0, steps]))
            states = np.linspace(-0.9, 0.9, 7)
            quad = best_of(lambda: population_loss(p, states, 0.1 if pe == "opposite" else 0.0, budget=100_000,
                                                   method="gh"))
            timings[label] = (sgd, quad)
        for i, what in enumerate(("reduced SGD", "quadrature")):
            r, c = timings["registry"][i], timings["custom"][i]
            rows.append((student, what, r, c, c / r))
    print(f"{'student':<10} {'what':<12} {'registry s':>11} {'custom s':>9} {'ratio':>6}")
    for student, what, r, c, ratio in rows:
        print(f"{student:<10} {what:<12} {r:11.3f} {c:9.3f} {ratio:6.2f}")
    return rows


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2_000_000)
