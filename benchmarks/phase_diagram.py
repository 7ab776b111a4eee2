"""Benchmark of the semantic/positional phase diagram (claim C5): ours vs a direct approach.

Run as ``python benchmarks/phase_diagram.py [threads]`` from the repository root (``src/`` is
put on the path if ``ssi`` is not installed). Prints a table and writes
``benchmarks/phase_diagram.json`` (git-ignored). Takes about two minutes on 2 cores.

* **Ours** (:mod:`ssi.phase`): the (a, ω)-independent integrals once (C(e, m) on 41 × 41
  nodes with 33⁴ Gauss–Hermite points, N and M on 401 values of e), then the 200 × 200
  diagram on [0, 1]² (polar grid 200 × 200 of the quadrant, grid minima, refinement).
  Measured in full, with the paper config's parameters.
* **Direct**: the authors' method — for every (a, ω), the loss integrated anew on the 200 × 200
  (e, m) grid of [−1, 1]² (31 417 points in the disk), each a 4-D Gauss–Hermite integral with
  19 points per axis (their fast-mode setting). Two implementations are timed on a few states
  and extrapolated to 40 000 (a, ω) points: (i) the same compiled kernel as ours (the 4-D
  integral of C costs what the full loss costs: one sigmoid pair per node), (ii) the package's
  ``population_loss`` (default quasi-Monte Carlo, 2¹⁴ × 8 points) per state.
"""
from __future__ import annotations

import os
import sys

THREADS = int(sys.argv[1]) if len(sys.argv) > 1 else 2
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
os.environ.setdefault("NUMBA_NUM_THREADS", str(THREADS))

import json  # noqa: E402
import platform  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent
try:
    import ssi  # noqa: F401
except ImportError:
    sys.path.insert(0, str(HERE.parent / "src"))

from ssi import Problem, phase, population_loss  # noqa: E402

N_AW = 200 * 200                      # (a, ω) points of the full diagram
DISK_STATES = 31417                   # points of the authors' 200 × 200 grid of [−1, 1]² in the disk


def main():
    # warm-up (numba compilation)
    phase.overlap_integral(np.array([0.1]), np.array([0.2]), 5)
    phase.grid_minima(np.zeros((1, 5, 5)))

    t0 = time.perf_counter()
    land = phase.landscape(41, 401, 33, 121, 0.05)
    t_land = time.perf_counter() - t0
    t0 = time.perf_counter()
    grid = phase.polar_grid(land, 200, 200)
    diagram = phase.phase_diagram(land, grid, np.linspace(0, 1, 200), np.linspace(0, 1, 200))
    t_diag = time.perf_counter() - t0

    rng = np.random.default_rng(0)
    e = rng.uniform(-0.7, 0.7, 200)
    m = rng.uniform(-0.7, 0.7, 200)
    t0 = time.perf_counter()
    phase.overlap_integral(e, m, 19)
    per_state_gh = (time.perf_counter() - t0) / e.size
    p = Problem(L=2, target="mixture", student="attention", pe="opposite", omega=0.5, a=1.0)
    population_loss(p, 0.1, 0.1)
    t0 = time.perf_counter()
    population_loss(p, m[:10], e[:10])
    per_state_pop = (time.perf_counter() - t0) / 10

    direct_gh = per_state_gh * DISK_STATES * N_AW
    direct_pop = per_state_pop * DISK_STATES * N_AW
    ours = t_land + t_diag
    rows = {
        "threads": THREADS,
        "ours_landscape_s": t_land, "ours_diagram_s": t_diag, "ours_total_s": ours,
        "refined_minima": diagram.refined,
        "direct_gh19_per_state_s": per_state_gh, "direct_gh19_total_s": direct_gh,
        "direct_population_loss_per_state_s": per_state_pop, "direct_population_loss_total_s": direct_pop,
        "speedup_vs_gh19": direct_gh / ours, "speedup_vs_population_loss": direct_pop / ours,
        "machine": platform.processor() or platform.machine(), "python": platform.python_version(),
    }
    print(f"ours: landscape {t_land:.1f} s + 200×200 diagram {t_diag:.1f} s = {ours:.1f} s ({THREADS} threads)")
    print(f"direct, 19-point 4-D Gauss–Hermite per state ({per_state_gh * 1e3:.2f} ms): "
          f"{direct_gh:.3g} s = {direct_gh / 3600:.3g} h  ({direct_gh / ours:.3g}× ours)")
    print(f"direct, population_loss per state ({per_state_pop * 1e3:.1f} ms): "
          f"{direct_pop:.3g} s = {direct_pop / 86400:.3g} days ({direct_pop / ours:.3g}× ours)")
    (HERE / "phase_diagram.json").write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
