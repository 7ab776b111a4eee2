"""Normal and χ² draws per second: ssi.random_streams against numba's per-draw generator, in one process.

Run as ``python benchmarks/random_streams.py`` from the repository root. Each rate is the
number of draws a compiled loop makes per second (summed, so that nothing is stored): the
streams of :mod:`ssi.random_streams` (SFC64, ziggurat normal, Marsaglia–Tsang gamma; state in
registers), and numba's ``Generator.standard_normal`` with the Marsaglia–Tsang gamma written
out on it (the reduced kernels' draws before :mod:`ssi.random_streams`). Single-threaded; the
χ² has d − 3 degrees of freedom (the tied kernels' χ²_{d−r−1} at r = 2).
"""
from __future__ import annotations

import os

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import math  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

try:
    import ssi  # noqa: F401
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from numba import njit  # noqa: E402

from ssi import random_streams as rs  # noqa: E402


@njit(cache=False)
def stream_normals(state, n):
    s0, s1, s2, s3 = rs.load(state)
    total = 0.0
    for _ in range(n):
        s0, s1, s2, s3, z = rs.normal(s0, s1, s2, s3)
        total += z
    rs.store(state, s0, s1, s2, s3)
    return total


@njit(cache=False)
def stream_gammas(state, n, shape):
    b, c = rs.gamma_constants(shape)
    s0, s1, s2, s3 = rs.load(state)
    total = 0.0
    for _ in range(n):
        s0, s1, s2, s3, g = rs.gamma(s0, s1, s2, s3, b, c)
        total += g
    rs.store(state, s0, s1, s2, s3)
    return total


@njit(cache=False)
def numba_normals(rng, n):
    total = 0.0
    for _ in range(n):
        total += rng.standard_normal()
    return total


@njit(cache=False)
def numba_gammas(rng, n, shape):
    # Marsaglia–Tsang on numba's per-draw normal and uniform (NumPy's algorithm, shape > 1)
    b = shape - 1.0 / 3.0
    c = 1.0 / math.sqrt(9.0 * b)
    total = 0.0
    for _ in range(n):
        while True:
            while True:
                x = rng.standard_normal()
                v = 1.0 + c * x
                if v > 0.0:
                    break
            v = v * v * v
            u = rng.random()
            if u < 1.0 - 0.0331 * (x * x) * (x * x) or math.log(u) < 0.5 * x * x + b * (1.0 - v + math.log(v)):
                total += b * v
                break
    return total


@njit(cache=False)
def exps(n):
    total = 0.0
    x = 0.1
    for _ in range(n):
        total += math.exp(-x)
        x += 1e-9
    return total


def per_second(run, pilot=10 ** 5, target=1.0):
    """Calls per second of ``run(n)`` (n calibrated to take about ``target`` seconds)."""
    run(10)
    n = pilot
    while True:
        start = time.perf_counter()
        run(n)
        elapsed = time.perf_counter() - start
        if elapsed > 0.2 * target:
            break
        n *= max(2, int(0.3 * target / max(elapsed, 1e-4)))
    n = max(1, int(n * target / elapsed))
    start = time.perf_counter()
    run(n)
    return n / (time.perf_counter() - start)


def rates(d=1000, target=1.0):
    """Draws per second of the new streams and of numba's per-draw generator, and exp per second."""
    state = rs.seed_state(np.random.SeedSequence(0))
    rng = np.random.default_rng(0)
    shape = 0.5 * (d - 3)
    return {
        "normal_per_s": per_second(lambda k: stream_normals(state, k), target=target),
        "gamma_per_s": per_second(lambda k: stream_gammas(state, k, shape), target=target),
        "numba_normal_per_s": per_second(lambda k: numba_normals(rng, k), target=target),
        "numba_gamma_per_s": per_second(lambda k: numba_gammas(rng, k, shape), target=target),
        "exp_per_s": per_second(exps, target=target),
    }


def main():
    r = rates()
    print(f"{'draws/s (one thread)':24s} {'ssi.random_streams':>18s} {'numba per-draw':>15s} {'ratio':>6s}")
    for name, new, old in (("standard normal", "normal_per_s", "numba_normal_per_s"),
                           ("χ²_{997} (gamma)", "gamma_per_s", "numba_gamma_per_s")):
        print(f"{name:24s} {r[new]:>18.3e} {r[old]:>15.3e} {r[new] / r[old]:>6.2f}")
    print(f"{'math.exp':24s} {r['exp_per_s']:>18.3e}")


if __name__ == "__main__":
    main()
