"""ssi.phase: the semantic/positional landscape from (a, ω)-independent integrals (claim C5).

* The decomposed loss equals plain Monte Carlo of the per-sample loss of the registry's
  "mixture" problem (``Problem.loss_and_grad``) at several (a, ω, e, m), within 4 standard
  errors, and the package's ``population_loss`` within its QMC accuracy.
* The Gauss–Hermite integral C converges (the configured points vs more), the spline through
  the nodes reproduces direct quadrature off the nodes, and R has the symmetries the first
  quadrant relies on.
* The Hessian at (0, 0) from the stored terms equals finite differences of the spline loss.
* ``grid_minima`` finds the minima of synthetic functions on the polar grid (interior,
  boundary, corner, origin); ``local_minima`` agrees with a brute-force dense search.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from ssi import Problem, phase, population_loss


@pytest.fixture(scope="module")
def land():
    return phase.landscape(n_nodes=21, n_fine=201, c_points=25, e_points=81)


@pytest.fixture(scope="module")
def grid(land):
    return phase.polar_grid(land, 80, 80)


def mixture(a, omega):
    return Problem(L=2, target="mixture", student="attention", pe="opposite", omega=omega, a=a)


def monte_carlo_loss(problem, e, m, n, seed):
    rng = np.random.default_rng(seed)
    zs = rng.standard_normal((n, 2))
    q = m * zs + math.sqrt(1 - m * m) * rng.standard_normal((n, 2)) + np.array([e, -e])
    loss, _ = problem.loss_and_grad(zs, q)
    return loss.mean(), loss.std(ddof=1) / math.sqrt(n)


@pytest.mark.parametrize("a, omega, e, m", [
    (1.0, 0.3, 0.2, 0.5), (0.76, 0.95, 0.9, 0.1), (0.5, 0.6, 0.0, 0.99), (1.0, 1.0, 0.6, 0.3),
    (0.0, 0.0, 0.0, 0.0), (0.9, 0.7, 0.7, 0.7),
])
def test_loss_matches_monte_carlo_and_population_loss(land, a, omega, e, m):
    p = mixture(a, omega)
    mean, se = monte_carlo_loss(p, e, m, 400_000, seed=hash((a, omega, e, m)) % 2 ** 32)
    value = float(land.loss(a, omega, e, m))
    assert abs(value - mean) < 4 * se
    assert value == pytest.approx(float(population_loss(p, m, e)), abs=2e-4)


def test_quadrature_converges_and_spline_interpolates(land):
    e = np.array([0.05, 0.33, 0.71, 0.0, 0.52])
    m = np.array([0.12, 0.47, 0.69, 0.97, 0.02])
    direct = phase.overlap_integral(e, m, 25)
    assert np.max(np.abs(direct - phase.overlap_integral(e, m, 41))) < 5e-5
    assert np.max(np.abs(land.C(e, m) - direct)) < 1e-6
    N, M = phase.student_moments(e, 81)
    assert np.max(np.abs(land.N(e) - N)) < 1e-8
    assert np.max(np.abs(land.M(e) - M)) < 1e-8
    # rows of the student's attention sum to 1
    assert np.allclose(M.sum(axis=-1), 1.0)


def test_symmetries(land):
    e, m = 0.37, 0.58
    c = phase.overlap_integral(e, m, 17)
    assert phase.overlap_integral(-e, m, 17) == pytest.approx(c, abs=1e-12)
    assert phase.overlap_integral(e, -m, 17) == pytest.approx(c, abs=1e-12)
    # the token swap maps M(e) to M(−e) with F₁₁ ↔ F₂₂
    N, M = phase.student_moments(np.array([e, -e]), 41)
    assert N[0] == pytest.approx(N[1], abs=1e-12)
    assert M[0, 0, 0] == pytest.approx(M[1, 1, 1], abs=1e-12)
    assert float(land.loss(0.8, 0.6, -e, m)) == pytest.approx(float(land.loss(0.8, 0.6, e, m)), abs=1e-10)


@pytest.mark.parametrize("a, omega", [(1.0, 0.0), (1.0, 0.6), (0.5, 0.9), (0.8, 1.0)])
def test_hessian_terms_match_finite_differences(land, a, omega):
    H = land.hessian(a, omega)
    h = 0.02
    R = lambda e, m: float(land.loss(a, omega, e, m))  # noqa: E731
    ee = (R(h, 0) - 2 * R(0, 0) + R(-h, 0)) / h ** 2
    mm = (R(0, h) - 2 * R(0, 0) + R(0, -h)) / h ** 2
    assert H[0, 0] == pytest.approx(ee, abs=2e-3)
    assert H[1, 1] == pytest.approx(mm, abs=2e-3)
    diag = land.hessian_diagonal(np.array([a]), omega)
    assert diag[0][0] == pytest.approx(H[0, 0]) and diag[1][0] == pytest.approx(H[1, 1])


def test_pure_targets():
    """ω = 0: the student can equal the teacher at m = 1 (R = 0 there up to quadrature); the
    initial direction is semantic (R_mm < 0 < R_ee)."""
    land = phase.landscape(n_nodes=11, n_fine=101, c_points=33, e_points=81)
    assert abs(float(land.loss(1.0, 0.0, 0.0, 1.0))) < 1e-5
    H = land.hessian(1.0, 0.0)
    assert H[1, 1] < 0 < H[0, 0]
    H = land.hessian(1.0, 1.0)
    assert H[0, 0] < 0 and H[1, 1] == 0


def _synthetic(grid, f):
    return f(grid.e, grid.m)[None]


def test_grid_minima_on_synthetic_functions(grid):
    # interior minimum at (0.3, 0.4), symmetric in e and m
    f = lambda e, m: (e * e - 0.09) ** 2 + (m * m - 0.16) ** 2  # noqa: E731
    mask = phase.grid_minima(_synthetic(grid, f))[0]
    pts = [(grid.e[i, j], grid.m[i, j]) for i, j in zip(*np.nonzero(mask))]
    assert len(pts) == 1 and math.hypot(pts[0][0] - 0.3, pts[0][1] - 0.4) < 0.03
    # the origin: a minimum for e² + m², not for e² − m²
    assert phase.grid_minima(_synthetic(grid, lambda e, m: e * e + m * m))[0][0, 0]
    mask = phase.grid_minima(_synthetic(grid, lambda e, m: e * e - m * m))[0]
    assert not mask[0, 0] and mask[-1, -1] and mask.sum() == 1
    # both corners on the circle, nothing else
    mask = phase.grid_minima(_synthetic(grid, lambda e, m: -(e ** 4) - m ** 4))[0]
    assert mask[-1, 0] and mask[-1, -1] and mask.sum() == 2


@pytest.mark.parametrize("a, omega", [(1.0, 0.3), (1.0, 0.66), (0.9, 0.75), (0.76, 0.95), (0.2, 0.99)])
def test_local_minima_agree_with_brute_force(land, grid, a, omega):
    minima = phase.local_minima(land, grid, a, omega)
    # brute force: the global minimum over a dense Cartesian grid of the quadrant
    x = np.linspace(0, 1, 401)
    E, M = np.meshgrid(x, x)
    inside = E ** 2 + M ** 2 <= 1
    R = np.where(inside, land.loss(a, omega, E, M * inside), np.inf)
    k = np.argmin(R)
    assert minima[0][2] <= R.flat[k] + 1e-9
    assert math.hypot(minima[0][0] - E.flat[k], minima[0][1] - M.flat[k]) < 0.02
    for e, m, val in minima:
        assert e * e + m * m <= 1 + 1e-9
        assert val == pytest.approx(float(land.loss(a, omega, e, m)), abs=1e-12)


def test_phase_diagram_classifies_the_ends(land, grid):
    dg = phase.phase_diagram(land, grid, np.array([1.0]), np.array([0.0, 0.95]))
    assert not dg.global_positional[0, 0] and dg.global_m[0, 0] == pytest.approx(1.0)
    assert not dg.dynamics_positional[0, 0]
    assert dg.global_positional[1, 0] and dg.dynamics_positional[1, 0]
    areas = phase.region_areas(dg)
    assert sum(areas["regions"].values()) == pytest.approx(1.0)
