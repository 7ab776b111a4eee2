"""The authors' method, our explicit engine and our reduced engine, side by side, in one process.

Run as ``python benchmarks/engines.py [--quick]`` from the repository root (``src/`` is put on
the path if ``ssi`` is not installed). Prints three tables and writes
``benchmarks/results/engines.json`` (committed: the documentation quotes its rates through
``snakemake pages``). Single-threaded (BLAS/OpenMP/numba/torch thread
pools pinned to 1 before anything is imported). Takes ~3 min on 2 cores (``--quick``: ~1 min).

1. Steps per second per core at d = 10³, 10⁴, 10⁵ for three problems — L = 2 attention with
   the trace reduction (he2_sum, opposite PE); L = 2 attention with the identity reduction
   (matrix-valued mixture target, C5); L = 10 untied feed-forward (ReLU, he2_sum) — for

   * the authors' method: one sample per step, autograd (torch, an optional benchmark-only
     dependency, not in pyproject.toml: ``pip install torch``, a CPU build). Without torch the
     table says so and shows our explicit engine with one replicate as the stand-in;
   * our explicit engine (weights in R^d, replicates batched with numpy);
   * our reduced engine (dimension-free, numba; ``docs/theory.md``, "The reduced simulator");

   and the ratios reduced/authors and explicit/authors, measured in the same process.
2. The physical limit of the reduced engine: the random numbers (normals, one χ² draw per
   token block when the step's gradient is not zero) and exponentials of one reduced step (the
   χ² draws counted, on average, from the raw outputs the engine takes from its streams during
   the timed run), against this machine's measured rates
   of the kernels' draws (:mod:`ssi.random_streams`) and ``math.exp`` in a compiled loop; the
   time per step these alone need (the bound), and the fraction of it the engine reaches. Side
   by side, the bound at the rates of numba's per-draw ``Generator.standard_normal`` and the
   Marsaglia–Tsang χ² on it (the kernels' draws before :mod:`ssi.random_streams`), measured in
   the same run (benchmarks/random_streams.py).
3. Scaling with work: wall time of the reduced engine against steps × replicates and d
   (linear in steps × replicates, flat in d), and with ``threads=2``.

Each measurement follows a warm-up call (compilation) and is calibrated to take about
``TARGET_SECONDS``; on a shared machine compare rows of one run, not runs.
"""
from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import platform  # noqa: E402
import subprocess  # noqa: E402
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
from ssi import random_streams as rs  # noqa: E402
from ssi.sgd.common import replicate_generators  # noqa: E402
from ssi.sgd.reduced import ReducedEngine  # noqa: E402

sys.path.insert(0, str(HERE))
from random_streams import rates as stream_rates  # noqa: E402  (benchmarks/random_streams.py)

try:
    import torch  # noqa: E402

    torch.set_num_threads(1)
except ImportError:            # optional: the table says so and uses a stand-in
    torch = None

TARGET_SECONDS = 1.0
DIMENSIONS = (10 ** 3, 10 ** 4, 10 ** 5)
REDUCED_REPLICATES = 16
EXPLICIT_REPLICATES = {10 ** 3: 16, 10 ** 4: 4, 10 ** 5: 2}

PROBLEMS = {
    "L=2 attention, trace": dict(
        problem=dict(L=2, target="he2_sum", student="attention", reduction="trace", pe="opposite"), lr=0.05),
    "L=2 attention, identity (mixture)": dict(
        problem=dict(L=2, target="mixture", student="attention", reduction="identity", pe="opposite",
                     omega=0.9, a=1.0), lr=0.05),
    "L=10 untied FF (relu)": dict(
        problem=dict(L=10, target="he2_sum", student="untied", activation="relu"), lr=0.005),
    # C1 and C6: the tied ReLU network without PE (specialised kernel)
    "L=2 tied FF (relu)": dict(
        problem=dict(L=2, target="he2_sum", student="tied", activation="relu"), lr=0.3),
    # the authors' conventions (config/authors.yaml): C5's mixture runs with the unsquared
    # Frobenius loss (specialised kernel), C4's attention at L ≥ 3 (generic kernel)
    "C5 mixture, L=2, frobenius loss": dict(
        problem=dict(L=2, target="mixture", student="attention", reduction="identity", pe="opposite",
                     omega=0.95, a=0.76, loss="frobenius"), lr=0.001),
    "L=6 attention, trace, mse loss": dict(
        problem=dict(L=6, target="he2_sum", student="attention", reduction="trace", loss="mse"), lr=5e-4),
}


def calibrated(run, pilot, target=TARGET_SECONDS):
    """Time ``run(n)`` with n chosen to take about ``target`` seconds; returns (n, seconds)."""
    n = pilot
    while True:
        start = time.perf_counter()
        run(n)
        elapsed = time.perf_counter() - start
        if elapsed > 0.2 * target or n >= 10 ** 10:
            break
        n *= max(2, int(0.3 * target / max(elapsed, 1e-4)))
    n = max(1, int(n * target / elapsed))
    start = time.perf_counter()
    run(n)
    return n, time.perf_counter() - start


# --- the authors' method: one sample per step, autograd ------------------------------------
def torch_loop(problem: Problem, d: int, lr: float, steps: int, seed: int = 0):
    """One-pass spherical SGD, one sample per step, gradient by torch autograd (float64)."""
    g = torch.Generator().manual_seed(seed)
    L = problem.L
    dt = torch.float64
    sqrt_d = math.sqrt(d)
    w_star = torch.randn(d, generator=g, dtype=dt)
    w_star *= sqrt_d / w_star.norm()
    tcode, tparams, _, _ = problem.codes
    if problem.tied:
        w = torch.randn(d, generator=g, dtype=dt)
        w *= sqrt_d / w.norm()
        basis, _ = torch.linalg.qr(torch.stack([w_star, w, torch.randn(d, generator=g, dtype=dt)], dim=1))
        shift = torch.outer(torch.tensor([1.0, -1.0], dtype=dt), basis[:, 2]) / sqrt_d
        matrix = problem.n_out > 1
        if matrix:
            omega, a2 = float(tparams[0]), float(tparams[1]) ** 2
            pattern = torch.softmax(torch.tensor([[a2, -a2], [-a2, a2]], dtype=dt), dim=1)
        for _ in range(steps):
            x = torch.randn(L, d, generator=g, dtype=dt) / sqrt_d
            z = x @ w_star
            wg = w.clone().requires_grad_(True)
            q = (x + shift) @ wg
            A = torch.softmax(torch.outer(q, q), dim=1)
            if matrix:
                y = (1 - omega) * torch.softmax(torch.outer(z, z), dim=1) + omega * pattern
                loss = 0.5 * ((A - y) ** 2).sum()
            else:
                y = ((z * z - 1) / math.sqrt(2)).sum()
                loss = 0.5 * (torch.diagonal(A).sum() / math.sqrt(L) - y) ** 2
            loss.backward()
            with torch.no_grad():
                w = w - lr * wg.grad
                w *= sqrt_d / w.norm()
        return w
    W = torch.randn(L, d, generator=g, dtype=dt)
    W *= math.sqrt(L * d) / W.norm()
    for _ in range(steps):
        x = torch.randn(L, d, generator=g, dtype=dt) / sqrt_d
        z = x @ w_star
        Wg = W.clone().requires_grad_(True)
        q = (x * Wg).sum(dim=1)
        y = ((z * z - 1) / math.sqrt(2)).sum()
        loss = 0.5 * (torch.relu(q.sum() / math.sqrt(L)) - y) ** 2
        loss.backward()
        with torch.no_grad():
            W = W - lr * Wg.grad
            W *= math.sqrt(L * d) / W.norm()
    return W


# --- physical limit: the rates of the reduced step's ingredients (benchmarks/random_streams.py) ---


def ingredients(problem: Problem) -> dict:
    """Normals and exponentials per reduced step (ssi.sgd.reduced's kernels); the χ² draws depend on
    the run (:func:`chi2_draws_per_step`)."""
    L = problem.L
    if problem.tied:
        r = problem.subspace_dim
        mixture = problem.target == "mixture"
        exps = 0
        if problem.student == "attention" and L == 2:
            # one per row for the student, and for the mixture's target; the constant pattern once per call
            exps = 4 if mixture else {"trace": 2, "projection": 2}.get(problem.reduction, 4)
        elif problem.student == "attention":
            # the softmax rows, one exponential per pair {i, j} (ssi.softmax.score_softmax)
            exps = L * (L + 1) // 2 * (2 if mixture else 1)
        return {"normals": L * (r + 1), "exps": exps}
    return {"normals": 2 * L, "exps": 0}


def raw_outputs_per_draw(d: int, n: int = 10 ** 6) -> tuple:
    """Raw 64-bit outputs that a normal and a χ²_{d−2} draw of ssi.random_streams take on average
    (the ziggurat's and Marsaglia–Tsang's rejections draw again), counted by the SFC64 counter
    word (``state[3]``, one per output) over ``n`` draws of each."""
    state = rs.seed_state(np.random.SeedSequence(3))
    counts = []
    for draw in (lambda: rs.normals(state, n), lambda: rs.chi2s(state, n, d - 2)):
        before = int(state[3])
        draw()
        counts.append((int(state[3]) - before) / n)
    return tuple(counts)


def chi2_draws_per_step(problem, d, lr, steps, normals, per_normal, per_chi2, replicates=REDUCED_REPLICATES):
    """The χ² draws a reduced step takes on average in the run that :func:`reduced_rate` times
    (same seed, replicates and steps): a kernel draws none when the step's gradient is zero, as a
    ReLU student's is on part of the steps. Counted from the raw outputs the replicates' streams
    give (their counter words) less the ``normals`` per step, at ``per_normal`` and ``per_chi2``
    outputs per draw (:func:`raw_outputs_per_draw`)."""
    engine = ReducedEngine(problem, d, lr, replicate_generators(1, replicates), None, None, None)
    before = engine.streams[:, 3].copy()
    engine.advance(steps, 0)
    raw = int((engine.streams[:, 3] - before).sum()) / (steps * replicates)
    return (raw - normals * per_normal) / per_chi2


def machine_rates(d: int) -> dict:
    """Draws per second of ssi.random_streams and of numba's per-draw generator, and exp per second."""
    return stream_rates(d, target=TARGET_SECONDS)


# --- measurements ------------------------------------------------------------------------------
def reduced_rate(problem, d, lr, replicates=REDUCED_REPLICATES, threads=1):
    def run(steps):
        simulate(problem, d=d, lr=lr, steps=steps, replicates=replicates, seed=1, record=[0, steps],
                 threads=threads)

    run(10)
    steps, seconds = calibrated(run, 1000)
    return replicates * steps / seconds, steps


def measure(name, spec, d):
    problem = Problem(**spec["problem"])
    lr = spec["lr"]
    reduced, steps = reduced_rate(problem, d, lr)
    row = {"problem": name, "d": d, "reduced": reduced, "reduced_steps": steps}
    R = EXPLICIT_REPLICATES[d]

    def explicit(steps, replicates=R):
        simulate(problem, d=d, lr=lr, steps=steps, replicates=replicates, seed=2, engine="explicit",
                 record=[0, steps])

    explicit(2)
    steps, seconds = calibrated(explicit, 5)
    row["explicit"] = R * steps / seconds
    if torch is not None:
        torch_loop(problem, d, lr, 3)
        steps, seconds = calibrated(lambda n: torch_loop(problem, d, lr, n), 20)
        row["authors"], row["authors_method"] = steps / seconds, "torch autograd, 1 sample/step"
    else:
        steps, seconds = calibrated(lambda n: explicit(n, 1), 5)
        row["authors"], row["authors_method"] = steps / seconds, "stand-in: explicit engine, 1 replicate"
    row["reduced_vs_authors"] = row["reduced"] / row["authors"]
    row["explicit_vs_authors"] = row["explicit"] / row["authors"]
    return row


def rate(x):
    return f"{x:.3g}" if x < 1e4 else f"{x:.2e}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="d = 10³ only, shorter measurements")
    args = parser.parse_args()
    global TARGET_SECONDS
    dims = DIMENSIONS
    if args.quick:
        TARGET_SECONDS, dims = 0.4, DIMENSIONS[:1]
    start = time.perf_counter()
    print("authors' method:", "torch " + torch.__version__ + " autograd, one sample per step" if torch is not None
          else "torch is NOT installed: the explicit engine with one replicate stands in (pip install torch==2.13.0)")

    rows = []
    for name, spec in PROBLEMS.items():
        for d in dims:
            rows.append(measure(name, spec, d))
    print("\n1. SGD steps per second per core (one thread); ratios to the authors' method in this run")
    head = f"{'problem':36s} {'d':>7s} | {'authors':>9s} {'explicit':>9s} {'reduced':>9s} | {'exp/auth':>8s} {'red/auth':>9s}"
    print(head + "\n" + "-" * len(head))
    for r in rows:
        print(f"{r['problem']:36s} {r['d']:>7d} | {rate(r['authors']):>9s} {rate(r['explicit']):>9s} "
              f"{rate(r['reduced']):>9s} | {r['explicit_vs_authors']:>8.1f} {r['reduced_vs_authors']:>9.0f}")
    print(f"(explicit: replicates per d {EXPLICIT_REPLICATES}; reduced: {REDUCED_REPLICATES} replicates)")

    print("\n2. Physical limit of the reduced step (d = 10³): draws and exps per step at this machine's rates")
    rates = machine_rates(1000)
    print(f"   measured in a compiled loop: ssi.random_streams {rate(rates['normal_per_s'])} normals/s, "
          f"{rate(rates['gamma_per_s'])} χ² draws/s; numba per-draw {rate(rates['numba_normal_per_s'])} normals/s, "
          f"{rate(rates['numba_gamma_per_s'])} χ² draws/s; {rate(rates['exp_per_s'])} exp/s")
    per_normal, per_chi2 = raw_outputs_per_draw(1000)
    print(f"   raw 64-bit outputs per draw: {per_normal:.4f} per normal, {per_chi2:.4f} per χ² draw; "
          "χ² draws per step counted in the timed runs")
    limits = []
    head = (f"{'problem':36s} | {'normals':>7s} {'χ²':>6s} {'exps':>4s} | {'bound numba':>11s} "
            f"{'bound new':>10s} {'new/numba':>9s} | {'reduced':>9s} {'fraction':>8s}")
    print(head + "\n" + "-" * len(head))
    for name, spec in PROBLEMS.items():
        problem = Problem(**spec["problem"])
        parts = ingredients(problem)
        timed = next(r for r in rows if r["problem"] == name and r["d"] == dims[0])
        parts["gammas"] = chi2_draws_per_step(problem, dims[0], spec["lr"], timed["reduced_steps"],
                                              parts["normals"], per_normal, per_chi2)
        seconds = (parts["normals"] / rates["normal_per_s"] + parts["gammas"] / rates["gamma_per_s"]
                   + parts["exps"] / rates["exp_per_s"])
        seconds_numba = (parts["normals"] / rates["numba_normal_per_s"]
                         + parts["gammas"] / rates["numba_gamma_per_s"] + parts["exps"] / rates["exp_per_s"])
        measured = timed["reduced"]
        limits.append({"problem": name, **parts, "limit_steps_per_s": 1 / seconds,
                       "limit_numba_steps_per_s": 1 / seconds_numba, "reduced": measured,
                       "fraction": measured * seconds})
        print(f"{name:36s} | {parts['normals']:>7d} {parts['gammas']:>6.2f} {parts['exps']:>4d} | "
              f"{rate(1 / seconds_numba):>11s} {rate(1 / seconds):>10s} {seconds_numba / seconds:>9.2f} | "
              f"{rate(measured):>9s} {measured * seconds:>8.0%}")

    print("\n3. Scaling of the reduced engine (L=2 attention, identity): wall seconds")
    spec = PROBLEMS["L=2 attention, identity (mixture)"]
    problem = Problem(**spec["problem"])
    scaling = []
    steps_list = (10 ** 4, 10 ** 5) if args.quick else (10 ** 4, 10 ** 5, 10 ** 6)
    head = f"{'steps':>8s} {'replicates':>10s} {'d':>9s} {'threads':>7s} | {'seconds':>8s} {'ns/step':>8s}"
    print(head + "\n" + "-" * len(head))
    simulate(problem, d=100, lr=spec["lr"], steps=10, replicates=2, seed=1, threads=2)
    for steps in steps_list:
        for replicates in (1, 8):
            for d in (10 ** 2, 10 ** 4, 10 ** 6):
                for threads in ((1, 2) if replicates > 1 else (1,)):
                    t0 = time.perf_counter()
                    simulate(problem, d=d, lr=spec["lr"], steps=steps, replicates=replicates, seed=1,
                             threads=threads, points_per_decade=10)
                    sec = time.perf_counter() - t0
                    scaling.append({"steps": steps, "replicates": replicates, "d": d, "threads": threads,
                                    "seconds": sec})
                    print(f"{steps:>8d} {replicates:>10d} {d:>9d} {threads:>7d} | {sec:>8.3f} "
                          f"{1e9 * sec / (steps * replicates):>8.0f}")
    total = time.perf_counter() - start
    print(f"\ntotal benchmark time {total:.0f} s; load average {os.getloadavg()}")
    out = HERE / "results" / "engines.json"
    out.parent.mkdir(exist_ok=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True, text=True).stdout.strip()
    out.write_text(json.dumps({
        "quick": args.quick, "commit": commit or "unknown",
        "rows": rows, "rates": {**rates, "raw_per_normal": per_normal, "raw_per_chi2": per_chi2},
        "limits": limits, "scaling": scaling, "total_seconds": total,
        "machine": {"platform": platform.platform(), "cpu_count": os.cpu_count(),
                    "python": platform.python_version(), "numpy": np.__version__, "numba": numba.__version__,
                    "torch": None if torch is None else torch.__version__, "load_average": os.getloadavg()},
        "date": time.strftime("%Y-%m-%d")}, indent=2) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
