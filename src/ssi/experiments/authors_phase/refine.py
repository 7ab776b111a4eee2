"""The authors' phase diagram, the refined computation: derivatives of the basis by direct
quadrature (:func:`reference_derivatives`) and the refined classification of the cells where
their rule and ours differ (:func:`refine_cells`)."""
from __future__ import annotations

import numpy as np

from ... import phase
from .basis import coefficient_rows
from .rule import region_code


# --- the refined computation ------------------------------------------------------------------------
def central1(f, x0, h, axis):
    """First derivative of ``f`` along ``axis`` at ``x0`` (central differences of step ``h``)."""
    """4th-order central first derivative of the basis along e (axis 0) or m (axis 1) at x0."""
    pts = np.array([-2, -1, 1, 2], float) * h
    e = x0[0] + (pts if axis == 0 else 0 * pts)
    m = x0[1] + (pts if axis == 1 else 0 * pts)
    v = f(e, m)
    return (v[:, 0] - 8 * v[:, 1] + 8 * v[:, 2] - v[:, 3]) / (12 * h)


def central2(f, x0, h, axis):
    """Second derivative of ``f`` along ``axis`` at ``x0`` (central differences of step ``h``)."""
    """4th-order central second derivative of the basis along e (axis 0) or m (axis 1) at x0."""
    pts = np.array([-2, -1, 0, 1, 2], float) * h
    e = x0[0] + (pts if axis == 0 else 0 * pts)
    m = x0[1] + (pts if axis == 1 else 0 * pts)
    v = f(e, m)
    return (-v[:, 0] + 16 * v[:, 1] - 30 * v[:, 2] + 16 * v[:, 3] - v[:, 4]) / (12 * h * h)


def direct_basis(e, m, c_points: int, e_points: int) -> np.ndarray:
    """The six basis functions by direct quadrature without the 4-D rule's spurious m-dependence:
    C by :func:`ssi.phase.overlap_integral` (4-D, ``c_points``), N and M by
    :func:`ssi.phase.student_moments` (2-D, ``e_points``; they depend on e only)."""
    e, m = np.broadcast_arrays(np.asarray(e, float), np.asarray(m, float))
    N, M = phase.student_moments(e.ravel(), e_points)
    C = phase.overlap_integral(e.ravel(), m.ravel(), c_points)
    out = np.stack([N, C, M[:, 0, 0], M[:, 0, 1], M[:, 1, 0], M[:, 1, 1]])
    return out.reshape((6,) + e.shape)


def reference_derivatives(c_points: int, e_points: int, step: float) -> dict:
    """Basis derivatives that decide the corners and the initial direction, by direct quadrature
    (:func:`direct_basis`).

    A corner of the disk is a local minimum of R on the closed disk when the gradient points
    outwards and R curves upwards along the circle (first- and second-order conditions with a
    multiplier; the tangent is e at (0, 1) and m at (1, 0), where R is even in it):

    * positional (1, 0): ``R_e < 0`` and ``R_mm − R_e > 0``;
    * semantic (0, 1): ``R_m < 0`` and ``R_ee − R_m > 0``.

    Returns (6,) basis vectors (so that the value at (a, ω) is ``coefficient_rows(a, ω) @ v``):
    ``pos_slope`` (R_e at (1, 0)), ``pos_curv``, ``sem_slope`` (R_m at (0, 1)), ``sem_curv``,
    ``hess_ee`` and ``hess_mm`` (second derivatives at (0, 0)). Differences are 4th order with
    step ``step``; the one-sided m-derivative at m = 1 uses m = 1, 1−h, 1−2h, 1−3h (C is a
    smooth function of 1 − m², docs/theory.md, "Semantic and positional phases").
    """
    f = lambda e, m: direct_basis(e, m, c_points, e_points)  # noqa: E731
    h = float(step)
    pos_slope = central1(f, (1.0, 0.0), h, 0)
    pos_mm = central2(f, (1.0, 0.0), h, 1)
    m = 1.0 - h * np.arange(4.0)
    v = f(np.zeros(4), m)
    sem_slope = (11 * v[:, 0] - 18 * v[:, 1] + 9 * v[:, 2] - 2 * v[:, 3]) / (6 * h)
    sem_ee = central2(f, (0.0, 1.0), h, 0)
    return {"pos_slope": pos_slope, "pos_curv": pos_mm - pos_slope, "sem_slope": sem_slope,
            "sem_curv": sem_ee - sem_slope, "hess_ee": central2(f, (0.0, 0.0), 5 * h, 0),
            "hess_mm": central2(f, (0.0, 0.0), 5 * h, 1)}


def refine_cells(land: phase.Landscape, a, omega, ref: dict, polar_grid=(400, 400), c_points: int = 49,
                 e_points: int = 161, direct_check=None) -> dict:
    """The refined classification of a list of (a, ω) cells.

    * minima: :func:`ssi.phase.local_minima` on a finer polar grid (L-BFGS on the splines);
    * corners: the first/second-order conditions of :func:`reference_derivatives` (direct
      quadrature); ``corner_consistent`` says whether the minima list contains each corner
      exactly when its conditions hold;
    * initial direction: ``R_ee(0,0) < R_mm(0,0)`` from the direct-quadrature derivatives;
    * global minimum: the lowest of the list; where ``direct_check[k]`` is true and there are
      several minima, the two lowest are re-evaluated by :func:`direct_basis`
      (``global_confirmed``: the order is the same).

    At ω = 1 R does not depend on m (the minima are segments; ``degenerate``).
    """
    a = np.asarray(a, float)
    omega = np.asarray(omega, float)
    grid = phase.polar_grid(land, *polar_grid)
    rows = coefficient_rows(a, omega)
    val = {k: rows @ v for k, v in ref.items()}
    out = {"pos_kkt": (val["pos_slope"] < 0) & (val["pos_curv"] > 0),
           "sem_kkt": (val["sem_slope"] < 0) & (val["sem_curv"] > 0),
           "dynamics_positional": val["hess_ee"] < val["hess_mm"],
           **{k: val[k] for k in ("pos_slope", "pos_curv", "sem_slope", "sem_curv", "hess_ee", "hess_mm")}}
    n = a.size
    for k in ("n_minima", "pos_listed", "sem_listed", "global_confirmed"):
        out[k] = np.zeros(n, int)
    out["global_e"], out["global_m"] = np.zeros(n), np.zeros(n)
    for k in range(n):
        minima = phase.local_minima(land, grid, float(a[k]), float(omega[k]))
        out["n_minima"][k] = len(minima)
        out["global_e"][k], out["global_m"][k] = minima[0][0], minima[0][1]
        # corners come from the polar grid: (cos θ, sin θ) with θ = 0, π/2 (cos(π/2) ≈ 6e-17)
        out["pos_listed"][k] = any(abs(e - 1.0) < 1e-9 and abs(m) < 1e-9 for e, m, _ in minima)
        out["sem_listed"][k] = any(abs(e) < 1e-9 and abs(m - 1.0) < 1e-9 for e, m, _ in minima)
        out["global_confirmed"][k] = 1
        if direct_check is not None and direct_check[k] and len(minima) > 1:
            pts = np.array([minima[0][:2], minima[1][:2]])
            r = rows[k] @ direct_basis(pts[:, 0], np.minimum(pts[:, 1], 1.0), c_points, e_points)
            out["global_confirmed"][k] = int(r[0] <= r[1])
    out["corner_consistent"] = (out["pos_listed"] == out["pos_kkt"]) & (out["sem_listed"] == out["sem_kkt"])
    out["degenerate"] = omega >= 1.0
    out["global_positional"] = out["global_e"] > out["global_m"]
    out["global_positional_half"] = out["global_e"] > 0.5
    out["multiple"] = out["n_minima"] > 1
    out["region"] = region_code(out["global_positional"], out["dynamics_positional"], out["multiple"])
    return out


