"""Benchmark of the two SGD engines against a one-sample-per-step numpy loop.

Run as ``python benchmarks/simulators.py`` (from the repository root; ``src/`` is put on
the path if ``ssi`` is not installed). Prints a table and writes
``benchmarks/simulators.json`` (git-ignored). Takes about a minute or two on 2 cores.

For each problem (L = 2 attention, trace reduction, opposite PE, target he2_sum; L = 10
untied feed-forward, ReLU, target he2_sum) and each d ∈ {10³, 10⁴, 10⁵} it measures,
single-threaded (BLAS/OpenMP/numba thread pools pinned to 1 before numpy is imported):

* reduced engine: SGD steps per second (replicates × steps / wall time) with 64 replicates;
* explicit engine: the same with fewer replicates at large d;
* numpy loop: the authors' method without autograd — one w ∈ R^d, per step draw the
  tokens x (L, d), compute z*, q and the per-sample derivative with numpy, update,
  renormalise — steps per second;
* the ratio of each engine to the numpy loop, measured in the same run;
* for the explicit engine, the ratio of its time per step to the time of only drawing its
  R·L·d Gaussians per step (drawn exactly as the engine does, chunk by chunk from one
  Generator per replicate). Design target: ≤ 2.

Each measurement follows a warm-up call (numba compilation, caches) and a short pilot run
that sets the number of steps so that the measurement takes about ``TARGET_SECONDS``.
"""
from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import json  # noqa: E402
import math  # noqa: E402
import platform  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent
try:
    import ssi  # noqa: F401
except ImportError:
    sys.path.insert(0, str(HERE.parent / "src"))

import numba  # noqa: E402

from ssi import Problem, simulate  # noqa: E402
from ssi.sgd import explicit as explicit_module  # noqa: E402
from ssi.sgd.common import replicate_generators  # noqa: E402

TARGET_SECONDS = 1.5
DIMENSIONS = (10 ** 3, 10 ** 4, 10 ** 5)
REDUCED_REPLICATES = 64
EXPLICIT_REPLICATES = {10 ** 3: 16, 10 ** 4: 4, 10 ** 5: 2}

PROBLEMS = {
    "attention L=2 (trace, opposite PE, he2_sum)": dict(
        problem=dict(L=2, target="he2_sum", student="attention", reduction="trace", pe="opposite"), lr=0.05),
    "untied FF L=10 (relu, he2_sum)": dict(
        problem=dict(L=10, target="he2_sum", student="untied", activation="relu"), lr=0.005),
}


def calibrated(run, pilot_steps, target=TARGET_SECONDS):
    """Time ``run(steps)`` for a number of steps chosen to take about ``target`` seconds.

    Returns (steps, seconds). ``run`` must already be warm (compiled).
    """
    steps = pilot_steps
    while True:
        start = time.perf_counter()
        run(steps)
        elapsed = time.perf_counter() - start
        if elapsed > 0.2 * target or steps >= 10 ** 9:
            break
        steps *= max(2, int(0.3 * target / max(elapsed, 1e-4)))
    steps = max(1, int(steps * target / elapsed))
    start = time.perf_counter()
    run(steps)
    return steps, time.perf_counter() - start


# --- the baseline: one sample per step, numpy ------------------------------------------------
def numpy_loop(problem: Problem, d: int, lr: float, steps: int, seed: int = 0):
    """One-pass spherical SGD on one sample per step, numpy only (no autograd, no numba)."""
    rng = np.random.default_rng(seed)
    L = problem.L
    sqrt_d, sqrt_L = math.sqrt(d), math.sqrt(L)
    w_star = rng.standard_normal(d)
    w_star *= sqrt_d / np.linalg.norm(w_star)
    c2 = 1 / math.sqrt(2)
    if problem.tied:
        w = rng.standard_normal(d)
        w *= sqrt_d / np.linalg.norm(w)
        # opposite PE: p_1 = −p_2 = a unit vector orthogonal to w* and w(0)
        basis, _ = np.linalg.qr(np.column_stack([w_star, w, rng.standard_normal(d)]))
        shift = np.outer([1.0, -1.0], basis[:, 2]) / sqrt_d
        eye = np.eye(L) / sqrt_L
        for _ in range(steps):
            x = rng.standard_normal((L, d)) / sqrt_d
            zstar = x @ w_star
            inputs = x + shift
            q = inputs @ w
            y = (c2 * (zstar * zstar - 1)).sum()
            s = np.outer(q, q)
            s -= s.max(axis=1, keepdims=True)
            A = np.exp(s)
            A /= A.sum(axis=1, keepdims=True)
            r = np.trace(A) / sqrt_L - y
            G = r * eye
            H = A * (G - (G * A).sum(axis=1, keepdims=True))
            a = (H + H.T) @ q
            w -= lr * (a @ inputs)
            w *= sqrt_d / np.linalg.norm(w)
        return w
    W = rng.standard_normal((L, d))
    W *= math.sqrt(L * d) / np.linalg.norm(W)
    for _ in range(steps):
        x = rng.standard_normal((L, d)) / sqrt_d
        zstar = x @ w_star
        q = np.einsum("ld,ld->l", x, W)
        h = q.sum() / sqrt_L
        y = (c2 * (zstar * zstar - 1)).sum()
        r = max(h, 0.0) - y
        g = r / sqrt_L if h > 0 else 0.0
        W -= (lr * g) * x
        W *= math.sqrt(L * d) / np.linalg.norm(W)
    return W


def gaussian_draws(problem: Problem, d: int, replicates: int, steps: int, seed: int = 0):
    """Draw the explicit engine's Gaussians only: same chunks, one Generator per replicate."""
    L = problem.L
    rngs = replicate_generators(seed, replicates)
    chunk = max(1, explicit_module._CHUNK_FLOATS // (replicates * L * d))
    done = 0
    while done < steps:
        b = min(chunk, steps - done)
        for rng in rngs:
            rng.standard_normal((b, L, d))
        done += b


# --- measurements ----------------------------------------------------------------------------
def measure(name, spec, d):
    problem = Problem(**spec["problem"])
    lr = spec["lr"]
    row = {"problem": name, "L": problem.L, "d": d, "lr": lr}

    def reduced(steps):
        simulate(problem, d=d, lr=lr, steps=steps, replicates=REDUCED_REPLICATES, seed=1, engine="reduced",
                 record=[0, steps], threads=1)

    reduced(10)
    steps, seconds = calibrated(reduced, 1000)
    row["reduced"] = dict(replicates=REDUCED_REPLICATES, steps=steps, seconds=seconds,
                          steps_per_second=REDUCED_REPLICATES * steps / seconds)

    R = EXPLICIT_REPLICATES[d]

    def explicit(steps):
        simulate(problem, d=d, lr=lr, steps=steps, replicates=R, seed=2, engine="explicit", record=[0, steps])

    explicit(2)
    steps, seconds = calibrated(explicit, 5)
    row["explicit"] = dict(replicates=R, steps=steps, seconds=seconds, steps_per_second=R * steps / seconds)

    def draws(steps):
        gaussian_draws(problem, d, R, steps)

    steps, seconds = calibrated(draws, 5, target=0.5 * TARGET_SECONDS)
    row["gaussians"] = dict(replicates=R, steps=steps, seconds=seconds, steps_per_second=R * steps / seconds)

    def baseline(steps):
        numpy_loop(problem, d, lr, steps)

    baseline(2)
    steps, seconds = calibrated(baseline, 20)
    row["numpy_loop"] = dict(replicates=1, steps=steps, seconds=seconds, steps_per_second=steps / seconds)

    base = row["numpy_loop"]["steps_per_second"]
    row["reduced_vs_numpy"] = row["reduced"]["steps_per_second"] / base
    row["explicit_vs_numpy"] = row["explicit"]["steps_per_second"] / base
    row["explicit_vs_gaussians"] = row["gaussians"]["steps_per_second"] / row["explicit"]["steps_per_second"]
    return row


def format_rate(x):
    return f"{x:.3g}" if x < 1e4 else f"{x:.2e}"


def print_table(rows):
    header = (f"{'problem':44s} {'d':>7s} | {'reduced':>9s} {'explicit':>9s} {'numpy 1/step':>12s} | "
              f"{'red/np':>8s} {'exp/np':>7s} | {'exp/gauss':>9s}")
    print("SGD steps per second per core (single thread); ratios to the numpy one-sample loop;")
    print("exp/gauss = explicit time per step / time to draw its R·L·d Gaussians (target ≤ 2)")
    print(header)
    print("-" * len(header))
    for r in rows:
        print(f"{r['problem']:44s} {r['d']:>7d} | {format_rate(r['reduced']['steps_per_second']):>9s} "
              f"{format_rate(r['explicit']['steps_per_second']):>9s} "
              f"{format_rate(r['numpy_loop']['steps_per_second']):>12s} | "
              f"{r['reduced_vs_numpy']:>8.0f} {r['explicit_vs_numpy']:>7.1f} | {r['explicit_vs_gaussians']:>9.2f}")
    print(f"(reduced: {REDUCED_REPLICATES} replicates; explicit: replicates per d {EXPLICIT_REPLICATES})")


def main():
    start = time.perf_counter()
    rows = []
    for name, spec in PROBLEMS.items():
        for d in DIMENSIONS:
            rows.append(measure(name, spec, d))
            r = rows[-1]
            print(f"  measured {name}, d={d}: reduced {format_rate(r['reduced']['steps_per_second'])}/s, "
                  f"explicit {format_rate(r['explicit']['steps_per_second'])}/s, "
                  f"numpy {format_rate(r['numpy_loop']['steps_per_second'])}/s", flush=True)
    total = time.perf_counter() - start
    print()
    print_table(rows)
    print(f"\ntotal benchmark time {total:.0f} s")
    result = {
        "rows": rows,
        "total_seconds": total,
        "machine": {"platform": platform.platform(), "processor": platform.processor(),
                    "cpu_count": os.cpu_count(), "python": platform.python_version(),
                    "numpy": np.__version__, "numba": numba.__version__,
                    "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None},
        "settings": {"target_seconds": TARGET_SECONDS, "reduced_replicates": REDUCED_REPLICATES,
                     "explicit_replicates": EXPLICIT_REPLICATES},
        "date": time.strftime("%Y-%m-%dT%H:%M:%S"),
    }
    out = HERE / "simulators.json"
    out.write_text(json.dumps(result, indent=2, default=str))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
