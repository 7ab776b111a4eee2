"""The authors' phase-diagram rule (claim C5) re-run on our landscape and compared with ours.

What the authors' script does (``analytic/`` of the public repository
IdePHICS/Sequence-Single-Index: ``positional-semantic_phase-diagram.py``, which imports
``compute_loss_matrix``, ``population_loss`` and ``steepest_direction_initialization`` from
``poploss_postional_semantic.py`` and the quadrature ``GaussHermiteQuadrature`` from
``gauss_hermite.py``). Facts only, stated in our words; the code below is ours.

Loss (``population_loss(e, m, omega, A, integration_points)``)
    ``½‖T − F‖²_F`` (``np.linalg.norm(..., ord="fro")**2``: the *squared* Frobenius norm, as
    ours), T = (1−ω) softmax_row(q* q*ᵀ) + ω A, F = softmax_row(q qᵀ), averaged over the 4-D
    Gaussian (q*₁, q*₂, q₁, q₂) with mean (0, 0, e, −e) and covariance
    [[I, m I], [m I, I]] by a tensor Gauss–Hermite rule (``roots_hermitenorm``, the points
    mapped by the Cholesky factor): with n points per axis, n⁴ evaluations. The student
    coordinates are then exactly our parametrisation q = m x + √(1−m²) ξ + e(1, −1) on the
    same nodes, so their value at n points equals the decomposition of :mod:`ssi.phase` with
    every term integrated by the *4-D* n-point rule (:func:`gh_basis`). Points with
    e² + m² > 1 get +inf.
(e, m) grid (``compute_loss_matrix``, ``cached_compute_loss_matrix``)
    a Cartesian ``resolution × resolution`` grid of [−1 + 10⁻⁶, 1 − 10⁻⁶]² (the square,
    not the quadrant; no symmetry used). ``resolution`` is the *same* number as the (a, ω)
    grid's: 200 in the active ("fast") setting, 100 in the commented "complete" one. With
    an even resolution neither e = 0 nor m = 0 is a grid line, and no grid point lies within
    0.005 of the corners (0, 1), (1, 0).
(a, ω) grids and quadrature
    fast (active): a ∈ linspace(0.7, 1, 200), ω ∈ linspace(0.4, 1, 200), 19 points, ``fast = True``;
    complete (commented out): a, ω ∈ linspace(0, 1, 100), 20 points, ``fast = False``.
    ``compute_loss_matrix`` defaults to 17 points, used by none of the diagram's calls.
Corner tests (``is_semantic_local_minima``, ``is_positional_local_minima``)
    the corner (0, 1 − 10⁻¹⁰) (resp. (1, 0)) is declared a local minimum when no point of a
    10 × 10 box of half-width r = 2.5/resolution around it (clipped to [−1+10⁻⁶, 1−10⁻⁶],
    points outside the disk ignored) has a lower loss.
Minima (``first_quadrant_local_minimas_guess``, ``augment_local_minimas``, ``cache_compute_minimas``)
    grid local minima: loss ≤ all 8 neighbours (+inf outside the disk and the square), with at
    least one pair of opposite neighbours inside the disk, in e ≥ 0, m ≥ 0; plus the grid's
    first-quadrant argmin. Then, for each corner that passes its box test, grid minima within
    r of it (e ≥ 1 − r, resp. m ≥ 1 − r) are dropped and the exact corner is appended.
    In fast mode the grid is *not computed at all* unless neither corner passes: the minima
    are then just the corners that pass.
Classification (``positional_global_minima``, ``positional_dynamic``, ``multiple_minimas``)
    * global: the e of the lowest-loss minimum in the list; positional when e > ½
      (``np.heaviside(x − .5, 0)``);
    * dynamics (``steepest_direction_initialization``, ``numerical_hessian_initialization``):
      the loss on a 10 × 10 grid of [−0.03, 0.03]² (``resolution=min(resolution, 10)``),
      ``np.gradient`` twice, the Hessian read at index (5, 5), i.e. at (e, m) = (h/2, h/2),
      h = 0.06/9, not at the origin; the eigenvector of the lowest eigenvalue
      (``np.linalg.eigh``); positional when its |e component| > ½;
    * multiple: more than one minimum in the list.
    Region code: global + 2·dynamics + 4·multiple, the same eight regions and colours as ours
    (:data:`ssi.phase.REGION_NAMES`; "misaligned" = semantic global minimum and positional
    initial direction, codes 2 and 6).

This module evaluates that rule (:class:`AuthorsRule`, :func:`authors_diagram`) with two
sources for the loss: ``"gh"``, their n-point 4-D rule (:func:`gh_basis`, our numba kernel),
which reproduces their diagram, and ``"spline"``, our landscape (:class:`ssi.phase.Landscape`).
Since R is linear in six (a, ω)-independent basis functions (docs/theory.md, "Semantic and
positional phases"), both are computed once per point set and every (a, ω) is a matrix product.
It then classifies the same (a, ω) grid with our rule (:func:`ssi.phase.phase_diagram`),
tabulates their regions against ours (:func:`confusion`) and decides every cell where they
differ by a refined computation (:func:`refine_cells`: finer polar grid and L-BFGS on the
splines, the corner conditions from exact derivatives, the minima's losses and the Hessian at
(0, 0) from direct quadrature with more points).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from .. import phase
from ..softmax import logistic
from ..io import load_result, save_result
from .common import ProgressLog

EXPERIMENT = "authors_phase"
#: loss sources of the authors' rule: their Gauss–Hermite rule, or our landscape splines
SOURCES = ("gh", "spline")
#: the three bits of the region code
BITS = ("global", "dynamics", "multiple")
#: verdicts on a differing bit (see :func:`verdicts`)
VERDICTS = ("ours", "theirs", "neither", "undecided", "convention", "degenerate")
#: their offsets from ±1 (grid edge, box edge) and of the semantic corner
_EDGE = 1e-6
_CORNER = 1e-10
#: half-width of their Hessian box and its points per axis
_HESS_HALF = 0.03
_BOX_POINTS = 10


# --- basis functions on arbitrary points ----------------------------------------------------------
@njit(cache=True, parallel=True)
def _gh_basis(e, m, x, w):
    """(N, C, M11, M22) at each (e_k, m_k) with the tensor 4-D rule on nodes x, weights w."""
    n = x.size
    out = np.zeros((4, e.size))
    for k in prange(e.size):
        s = math.sqrt(max(1.0 - m[k] * m[k], 0.0))
        acc_n = 0.0
        acc_c = 0.0
        acc_1 = 0.0
        acc_2 = 0.0
        for i in range(n):
            for j in range(n):
                s1 = logistic(x[i] * (x[i] - x[j]))
                s2 = logistic(x[j] * (x[j] - x[i]))
                mu1 = m[k] * x[i] + e[k]
                mu2 = m[k] * x[j] - e[k]
                wij = w[i] * w[j]
                for p in range(n):
                    q1 = mu1 + s * x[p]
                    for r in range(n):
                        q2 = mu2 + s * x[r]
                        f1 = logistic(q1 * (q1 - q2))
                        f2 = logistic(q2 * (q2 - q1))
                        ww = wij * w[p] * w[r]
                        acc_n += ww * (f1 * f1 + (1.0 - f1) ** 2 + f2 * f2 + (1.0 - f2) ** 2)
                        acc_c += ww * (s1 * f1 + (1.0 - s1) * (1.0 - f1) + s2 * f2 + (1.0 - s2) * (1.0 - f2))
                        acc_1 += ww * f1
                        acc_2 += ww * f2
        out[0, k] = acc_n
        out[1, k] = acc_c
        out[2, k] = acc_1
        out[3, k] = acc_2
    return out


def gh_basis(e, m, n_points: int) -> np.ndarray:
    """The six basis functions (N, C, M11, M12, M21, M22) of R at (e, m) by the authors' quadrature.

    Every term is integrated by the tensor n-point 4-D Gauss–Hermite rule over
    (z*₁, z*₂, ξ₁, ξ₂), so N and M depend (spuriously, by quadrature error) on m as well.

    Parameters
    ----------
    e, m : array_like
        States (broadcast); |m| ≤ 1.
    n_points : int
        Points per axis (the authors: 19 or 20).

    Returns
    -------
    ndarray, shape (6, *broadcast shape)
    """
    e, m = np.broadcast_arrays(np.asarray(e, float), np.asarray(m, float))
    if int(n_points) < 1:
        raise ValueError(f"n_points={n_points!r} must be a positive integer")
    x, w = phase.gauss_hermite(int(n_points))
    raw = _gh_basis(np.ascontiguousarray(e.ravel()), np.ascontiguousarray(m.ravel()), x, w)
    basis = np.stack([raw[0], raw[1], raw[2], 1.0 - raw[2], 1.0 - raw[3], raw[3]])
    return basis.reshape((6,) + e.shape)


def spline_basis(land: phase.Landscape, e, m) -> np.ndarray:
    """The six basis functions at (e, m) from our landscape splines (shape (6, *shape))."""
    e, m = np.broadcast_arrays(np.asarray(e, float), np.asarray(m, float))
    M = land.M(e)
    return np.stack([land.N(e), land.C(e, m), M[..., 0, 0], M[..., 0, 1], M[..., 1, 0], M[..., 1, 1]])


def symmetric_basis(fn, e, m) -> np.ndarray:
    """``fn(e, m)`` on a point set that is symmetric under e → −e and m → −m, computed at the
    distinct (|e|, |m|) only (R is even in each, exactly so for a symmetric tensor rule)."""
    e, m = np.broadcast_arrays(np.asarray(e, float), np.asarray(m, float))
    key = np.round(np.stack([np.abs(e.ravel()), np.abs(m.ravel())], 1), 12)
    uniq, inv = np.unique(key, axis=0, return_inverse=True)
    vals = fn(uniq[:, 0], uniq[:, 1])
    return vals[:, inv.ravel()].reshape((vals.shape[0],) + e.shape)


def coefficient_rows(a, omega) -> np.ndarray:
    """Coefficients (P, 6) of the basis in the (e, m)-dependent part of R at arrays a, ω."""
    return phase.coefficient_rows(a, omega)  # same basis order as ssi.phase


# --- the authors' rule ----------------------------------------------------------------------------
@dataclass
class AuthorsRule:
    """The point sets of the authors' rule for one ``resolution``.

    Attributes
    ----------
    resolution : int
        Points per axis of the (e, m) grid of [−1+10⁻⁶, 1−10⁻⁶]²; the corner boxes have
        half-width 2.5/resolution.
    fast : bool
        Their fast mode: the grid is searched only when neither corner passes its box test.
    """

    resolution: int
    fast: bool

    def __post_init__(self):
        if int(self.resolution) < 3:
            raise ValueError(f"resolution={self.resolution!r} must be an integer ≥ 3")
        res = int(self.resolution)
        axis = np.linspace(-1 + _EDGE, 1 - _EDGE, res)
        self.grid_e, self.grid_m = np.meshgrid(axis, axis)           # rows: m, columns: e
        self.inside = self.grid_e ** 2 + self.grid_m ** 2 <= 1
        self.radius = 2.5 / res
        r = self.radius
        lo, hi = -1 + _EDGE, 1 - _EDGE
        side = np.linspace(max(-r, lo), min(r, hi), _BOX_POINTS)
        near = np.linspace(max(1 - r, lo), min(1 + r, hi), _BOX_POINTS)
        self.sem_e, self.sem_m = np.meshgrid(side, near)
        self.pos_e, self.pos_m = np.meshgrid(near, side)
        self.sem_inside = self.sem_e ** 2 + self.sem_m ** 2 <= 1
        self.pos_inside = self.pos_e ** 2 + self.pos_m ** 2 <= 1
        self.corner_e = np.array([1.0, 0.0])                         # positional, semantic
        self.corner_m = np.array([0.0, 1.0 - _CORNER])
        h = np.linspace(-_HESS_HALF, _HESS_HALF, _BOX_POINTS)
        self.hess_axis = h
        self.hess_e, self.hess_m = np.meshgrid(h, h)
        # grid-minimum bookkeeping that depends on the geometry only
        pad = np.pad(self.inside, 1, constant_values=False)
        shifted = {(di, dj): pad[1 + di:1 + di + res, 1 + dj:1 + dj + res]
                   for di in (-1, 0, 1) for dj in (-1, 0, 1) if (di, dj) != (0, 0)}
        self.good = ((shifted[-1, -1] & shifted[1, 1]) | (shifted[-1, 0] & shifted[1, 0])
                     | (shifted[0, -1] & shifted[0, 1]) | (shifted[1, -1] & shifted[-1, 1]))
        self.quadrant = (self.grid_e >= 0) & (self.grid_m >= 0)

    def bases(self, source: str, land: phase.Landscape | None = None, n_points: int | None = None) -> dict:
        """The six basis functions on every point set of the rule: grid, boxes, corners, Hessian box."""
        if source == "gh":
            if n_points is None:
                raise ValueError("n_points is required for source='gh'")
            fn = lambda e, m: gh_basis(e, m, n_points)  # noqa: E731
        elif source == "spline":
            if land is None:
                raise ValueError("land is required for source='spline'")
            fn = lambda e, m: spline_basis(land, e, m)  # noqa: E731
        else:
            raise ValueError(f"source={source!r} is unknown; allowed: {', '.join(SOURCES)}")
        grid = np.full((6,) + self.grid_e.shape, np.nan)
        grid[:, self.inside] = symmetric_basis(fn, self.grid_e[self.inside], self.grid_m[self.inside])
        return {"grid": grid, "sem": fn(self.sem_e, self.sem_m), "pos": fn(self.pos_e, self.pos_m),
                "corners": fn(self.corner_e, self.corner_m),
                "hess": symmetric_basis(fn, self.hess_e, self.hess_m)}

    # -- the three bits ------------------------------------------------------------------------
    def dynamics(self, rows, bases):
        """|e component| of the lowest Hessian eigenvector (their finite differences) and the Hessian."""
        values = (rows @ bases["hess"].reshape(6, -1)).reshape(-1, _BOX_POINTS, _BOX_POINTS)
        h = self.hess_axis
        d_m, d_e = np.gradient(values, h, h, axis=(1, 2))
        d_mm, d_me = np.gradient(d_m, h, h, axis=(1, 2))
        d_em, d_ee = np.gradient(d_e, h, h, axis=(1, 2))
        c = _BOX_POINTS // 2
        H = np.empty((values.shape[0], 2, 2))
        H[:, 0, 0], H[:, 0, 1] = d_ee[:, c, c], d_me[:, c, c]
        H[:, 1, 0], H[:, 1, 1] = d_em[:, c, c], d_mm[:, c, c]
        lam, vec = np.linalg.eigh(H)                      # lower triangle, ascending eigenvalues
        low = np.argmin(lam, axis=1)
        v = vec[np.arange(len(low)), :, low]
        return np.abs(v[:, 0] / np.linalg.norm(v, axis=1)), H

    def corner_tests(self, rows, bases):
        """(positional corner passes, semantic corner passes, corner losses (P, 2))."""
        corners = rows @ bases["corners"]
        sem = rows @ bases["sem"].reshape(6, -1)
        pos = rows @ bases["pos"].reshape(6, -1)
        sem_ok = np.all((sem - corners[:, 1:2] >= 0) | ~self.sem_inside.ravel(), axis=1)
        pos_ok = np.all((pos - corners[:, 0:1] >= 0) | ~self.pos_inside.ravel(), axis=1)
        return pos_ok, sem_ok, corners

    def grid_minima(self, values):
        """Their grid minima (mask, first-quadrant argmin included) of values (P, res, res)."""
        padded = np.pad(values, ((0, 0), (1, 1), (1, 1)), constant_values=np.inf)
        res = values.shape[-1]
        is_min = np.isfinite(values)
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                if (di, dj) != (0, 0):
                    is_min &= values <= padded[:, 1 + di:1 + di + res, 1 + dj:1 + dj + res]
        mask = is_min & self.good & self.quadrant
        q = np.nonzero(self.quadrant.ravel())[0]
        first = q[np.argmin(values.reshape(values.shape[0], -1)[:, q], axis=1)]
        mask.reshape(mask.shape[0], -1)[np.arange(values.shape[0]), first] = True
        return mask

    def classify(self, a_values, omega_values, bases, progress=None) -> dict:
        """Their three bits on the tensor grid ``omega_values × a_values`` (arrays (n_ω, n_a))."""
        a_values = np.asarray(a_values, float)
        omega_values = np.asarray(omega_values, float)
        shape = (omega_values.size, a_values.size)
        out = {k: np.zeros(shape) for k in ("global_e", "global_m", "v_e", "H_ee", "H_mm", "H_em")}
        for k in ("n_minima", "pos_ok", "sem_ok", "grid_used"):
            out[k] = np.zeros(shape, int)
        flat_grid = bases["grid"].reshape(6, -1)
        inside = self.inside.ravel()
        ge, gm = self.grid_e.ravel(), self.grid_m.ravel()
        r = self.radius
        for row, omega in enumerate(omega_values):
            rows = coefficient_rows(a_values, np.full_like(a_values, omega))
            v_e, H = self.dynamics(rows, bases)
            pos_ok, sem_ok, corners = self.corner_tests(rows, bases)
            out["v_e"][row], out["H_ee"][row], out["H_mm"][row], out["H_em"][row] = v_e, H[:, 0, 0], H[:, 1, 1], H[:, 1, 0]
            out["pos_ok"][row], out["sem_ok"][row] = pos_ok, sem_ok
            need = ~(pos_ok | sem_ok) if self.fast else np.ones(a_values.size, bool)
            masks = None
            if need.any():
                values = np.full((int(need.sum()), flat_grid.shape[1]), np.inf)
                values[:, inside] = rows[need] @ flat_grid[:, inside]
                masks = self.grid_minima(values.reshape(-1, *self.grid_e.shape)).reshape(values.shape[0], -1)
                values_need = values
            if masks is not None:
                cells, points = np.nonzero(masks)
                bounds = np.searchsorted(cells, np.arange(masks.shape[0] + 1))
            k_need = 0
            for col in range(a_values.size):
                es, ms, ls = [], [], []
                if need[col]:
                    idx = points[bounds[k_need]:bounds[k_need + 1]]
                    keep = ~((ge[idx] >= 1 - r - 3 * _CORNER) & pos_ok[col]) & ~((gm[idx] >= 1 - r - 3 * _CORNER)
                                                                               & sem_ok[col])
                    idx = idx[keep]
                    es, ms, ls = list(ge[idx]), list(gm[idx]), list(values_need[k_need, idx])
                    k_need += 1
                if pos_ok[col]:
                    es.append(1.0), ms.append(0.0), ls.append(corners[col, 0])
                if sem_ok[col]:
                    es.append(0.0), ms.append(1.0), ls.append(corners[col, 1])
                best = int(np.argmin(ls))
                out["global_e"][row, col], out["global_m"][row, col] = es[best], ms[best]
                out["n_minima"][row, col] = len(ls)
                out["grid_used"][row, col] = need[col]
            if progress:
                progress(row + 1, omega_values.size)
        out["global_positional"] = out["global_e"] > 0.5
        out["dynamics_positional"] = out["v_e"] > 0.5
        out["multiple"] = out["n_minima"] > 1
        out["region"] = region_code(out["global_positional"], out["dynamics_positional"], out["multiple"])
        return out


def region_code(global_positional, dynamics_positional, multiple) -> np.ndarray:
    """global + 2·dynamics + 4·multiple (names in :data:`ssi.phase.REGION_NAMES`)."""
    return (np.asarray(global_positional).astype(int) + 2 * np.asarray(dynamics_positional).astype(int)
            + 4 * np.asarray(multiple).astype(int))


def confusion(theirs, ours) -> np.ndarray:
    """8 × 8 counts: rows their region code, columns ours."""
    theirs, ours = np.asarray(theirs).ravel(), np.asarray(ours).ravel()
    out = np.zeros((8, 8), int)
    np.add.at(out, (theirs, ours), 1)
    return out


# --- the refined computation ------------------------------------------------------------------------
def _central1(f, x0, h, axis):
    """4th-order central first derivative of the basis along e (axis 0) or m (axis 1) at x0."""
    pts = np.array([-2, -1, 1, 2], float) * h
    e = x0[0] + (pts if axis == 0 else 0 * pts)
    m = x0[1] + (pts if axis == 1 else 0 * pts)
    v = f(e, m)
    return (v[:, 0] - 8 * v[:, 1] + 8 * v[:, 2] - v[:, 3]) / (12 * h)


def _central2(f, x0, h, axis):
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
    pos_slope = _central1(f, (1.0, 0.0), h, 0)
    pos_mm = _central2(f, (1.0, 0.0), h, 1)
    m = 1.0 - h * np.arange(4.0)
    v = f(np.zeros(4), m)
    sem_slope = (11 * v[:, 0] - 18 * v[:, 1] + 9 * v[:, 2] - 2 * v[:, 3]) / (6 * h)
    sem_ee = _central2(f, (0.0, 1.0), h, 0)
    return {"pos_slope": pos_slope, "pos_curv": pos_mm - pos_slope, "sem_slope": sem_slope,
            "sem_curv": sem_ee - sem_slope, "hess_ee": _central2(f, (0.0, 0.0), 5 * h, 0),
            "hess_mm": _central2(f, (0.0, 0.0), 5 * h, 1)}


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


# --- configuration and results ------------------------------------------------------------------------
def _check_spec(config) -> dict:
    section = config.get(EXPERIMENT)
    if not isinstance(section, dict):
        raise ValueError(f"config {EXPERIMENT}: missing; expected keys polar_grid, diagrams, reference, refine")
    for name, spec in section["diagrams"].items():
        if not (isinstance(spec.get("fast"), bool) and int(spec.get("resolution", 0)) >= 3
                and int(spec.get("points", 0)) >= 1):
            raise ValueError(f"config {EXPERIMENT}.diagrams.{name}: needs fast (true/false), resolution (≥ 3) "
                             f"and points (≥ 1); got {spec!r}")
    return section


def stems(config, kind=None) -> dict:
    """Result stems: "reference" and one per configured diagram name (``kind`` "reference" or
    "diagram": only those)."""
    section = _check_spec(config)
    root = f"{config['results_dir']}/{EXPERIMENT}"
    out = {"reference": f"{root}/reference", **{name: f"{root}/diagram_{name}" for name in section["diagrams"]}}
    if kind is None:
        return out
    if kind not in ("reference", "diagram"):
        raise ValueError(f"kind={kind!r}: allowed None, 'reference', 'diagram'")
    return {k: v for k, v in out.items() if (k == "reference") == (kind == "reference")}


def reference_point(config, out_stem, log=None) -> None:
    """Direct-quadrature derivatives at the corners and the origin (:func:`reference_derivatives`),
    two coarser settings for their error, and the same derivatives by the authors' 4-D rule at
    the configured point counts (their quadrature error where the classification is decided)."""
    spec = _check_spec(config)["reference"]
    progress = ProgressLog(log, f"{EXPERIMENT} reference")
    start = time.monotonic()
    ref = reference_derivatives(spec["c_points"], spec["e_points"], spec["step"])
    coarse = reference_derivatives(spec["check_c_points"], spec["check_e_points"], spec["step"])
    wide = reference_derivatives(spec["c_points"], spec["e_points"], 2 * spec["step"])
    arrays = {f"ref_{k}": v for k, v in ref.items()}
    arrays.update({f"err_{k}": np.abs(ref[k] - coarse[k]) + np.abs(ref[k] - wide[k]) for k in ref})
    gh_points = [int(n) for n in spec["gh_points"]]
    arrays["gh_points"] = np.array(gh_points)
    for k in ref:
        arrays[f"gh_{k}"] = np.zeros((len(gh_points), 6))
    for i, n in enumerate(gh_points):
        f = lambda e, m, n=n: gh_basis(e, m, n)  # noqa: E731
        h = float(spec["step"])
        pos_slope = _central1(f, (1.0, 0.0), h, 0)
        m = 1.0 - h * np.arange(4.0)
        v = f(np.zeros(4), m)
        sem_slope = (11 * v[:, 0] - 18 * v[:, 1] + 9 * v[:, 2] - 2 * v[:, 3]) / (6 * h)
        vals = {"pos_slope": pos_slope, "pos_curv": _central2(f, (1.0, 0.0), h, 1) - pos_slope,
                "sem_slope": sem_slope, "sem_curv": _central2(f, (0.0, 1.0), h, 0) - sem_slope,
                "hess_ee": _central2(f, (0.0, 0.0), 5 * h, 0), "hess_mm": _central2(f, (0.0, 0.0), 5 * h, 1)}
        for k, val in vals.items():
            arrays[f"gh_{k}"][i] = val
        progress.note(f"{n}-point 4-D rule done")
    progress.note(f"done in {time.monotonic() - start:.1f} s")
    save_result(out_stem, arrays, {"experiment": EXPERIMENT, "config": spec,
                                   "seconds": round(time.monotonic() - start, 1)})


def load_reference(config):
    """(reference derivatives, their error bounds) saved by :func:`reference_point`."""
    data, _ = load_result(stems(config)["reference"])
    ref = {k[4:]: data[k] for k in data if k.startswith("ref_")}
    err = {k[4:]: data[k] for k in data if k.startswith("err_")}
    return ref, err


def diagram_point(config, name: str, out_stem, log=None) -> None:
    """The authors' rule (their quadrature and our landscape) and ours on diagram ``name``'s
    (a, ω) grid, and the refined classification of every cell where they differ."""
    from .semantic_positional import load_landscape

    section = _check_spec(config)
    if name not in section["diagrams"]:
        raise ValueError(f"diagram={name!r} is not configured; allowed: {', '.join(section['diagrams'])}")
    spec = section["diagrams"][name]
    land = load_landscape(config)
    ref, err = load_reference(config)
    a0, a1, na = spec["a"]
    w0, w1, nw = spec["omega"]
    a_values, omega_values = np.linspace(a0, a1, int(na)), np.linspace(w0, w1, int(nw))
    progress = ProgressLog(log, f"{EXPERIMENT} {name} ({int(nw)} ω × {int(na)} a)")
    seconds = {}
    start = time.monotonic()
    rule = AuthorsRule(int(spec["resolution"]), bool(spec["fast"]))
    bases = {"gh": rule.bases("gh", n_points=int(spec["points"])), "spline": rule.bases("spline", land)}
    seconds["bases"] = time.monotonic() - start
    progress.note(f"basis on the {rule.resolution}² (e, m) grid: {seconds['bases']:.1f} s")
    arrays = {"a": a_values, "omega": omega_values}
    for source in SOURCES:
        t = time.monotonic()
        res = rule.classify(a_values, omega_values, bases[source])
        seconds[f"their_rule_{source}"] = time.monotonic() - t
        for k in ("region", "n_minima", "global_e", "global_m", "v_e", "H_ee", "H_mm", "pos_ok", "sem_ok",
                  "grid_used"):
            arrays[f"{source}_{k}"] = res[k]
        progress.note(f"their rule, loss from {source}: {seconds[f'their_rule_{source}']:.1f} s")
    t = time.monotonic()
    ours = phase.phase_diagram(land, phase.polar_grid(land, *section["polar_grid"]), a_values, omega_values)
    seconds["our_rule"] = time.monotonic() - t
    arrays.update(ours_region=ours.region, ours_n_minima=ours.n_minima, ours_global_e=ours.global_e,
                  ours_global_m=ours.global_m, ours_hessian_ee=ours.hessian_ee, ours_hessian_mm=ours.hessian_mm)
    progress.note(f"our rule: {seconds['our_rule']:.1f} s")
    # quadrature: their n-point 4-D rule against our landscape on their grid (inside the disk)
    inside = rule.inside
    diff = np.abs(bases["gh"]["grid"][:, inside] - bases["spline"]["grid"][:, inside])
    arrays["quad_basis_max"] = diff.max(axis=1)
    arrays["quad_basis_argmax_e"] = rule.grid_e[inside][diff.argmax(axis=1)]
    arrays["quad_basis_argmax_m"] = rule.grid_m[inside][diff.argmax(axis=1)]
    A, W = np.meshgrid(a_values, omega_values)
    rows = coefficient_rows(A.ravel(), W.ravel())
    delta = bases["gh"]["grid"][:, inside] - bases["spline"]["grid"][:, inside]
    # max over (e, m) per (a, ω), in blocks (the full product would be cells × grid points)
    arrays["quad_loss_max"] = np.concatenate([np.abs(rows[i:i + 256] @ delta).max(axis=1)
                                              for i in range(0, rows.shape[0], 256)]).reshape(A.shape)
    # refinement of every cell where either version of their rule differs from ours
    t = time.monotonic()
    differ = (arrays["gh_region"] != ours.region) | (arrays["spline_region"] != ours.region)
    idx = np.flatnonzero(differ)
    glob_diff = ((arrays["gh_region"].ravel()[idx] ^ ours.region.ravel()[idx]) & 1).astype(bool)
    fine = refine_cells(land, A.ravel()[idx], W.ravel()[idx], ref, section["refine"]["polar_grid"],
                        section["reference"]["c_points"], section["reference"]["e_points"], direct_check=glob_diff)
    seconds["refine"] = time.monotonic() - t
    arrays["refined_index"] = idx
    for k, v in fine.items():
        arrays[f"refined_{k}"] = np.asarray(v)
    rows_idx = coefficient_rows(A.ravel()[idx], W.ravel()[idx])
    for k, e in err.items():
        arrays[f"refined_err_{k}"] = np.abs(rows_idx) @ e
    progress.note(f"refined {idx.size} cells: {seconds['refine']:.1f} s")
    save_result(out_stem, arrays, {"experiment": EXPERIMENT, "diagram": name, "config": spec,
                                   "polar_grid": section["polar_grid"], "refine": section["refine"],
                                   "seconds": {k: round(v, 1) for k, v in seconds.items()}})


# --- verdicts and numbers ---------------------------------------------------------------------------
def verdicts(data: dict, source: str = "gh") -> dict:
    """Per refined cell and bit: who is right where their rule (loss from ``source``) and ours differ.

    Returns a dict bit -> array of strings over the refined cells: "agree" (the bit is the
    same), "ours", "theirs", "neither", "undecided" (a margin within the reference's error,
    or the refined minima and the corner conditions disagree), "convention" (global bit: the
    refined global minimum is off both axes, where e > ½ and e > m differ) or "degenerate"
    (ω = 1, global and multiple bits: R does not depend on m, the minima are segments).
    """
    idx = data["refined_index"]
    theirs = data[f"{source}_region"].ravel()[idx]
    ours = data["ours_region"].ravel()[idx]
    truth = data["refined_region"]
    margin = {
        "dynamics": np.abs(data["refined_hess_ee"] - data["refined_hess_mm"])
        <= data["refined_err_hess_ee"] + data["refined_err_hess_mm"],
        "corners": (np.abs(data["refined_pos_slope"]) <= data["refined_err_pos_slope"])
        | (np.abs(data["refined_pos_curv"]) <= data["refined_err_pos_curv"])
        | (np.abs(data["refined_sem_slope"]) <= data["refined_err_sem_slope"])
        | (np.abs(data["refined_sem_curv"]) <= data["refined_err_sem_curv"]),
    }
    undecided = {"global": data["refined_global_confirmed"] == 0,
                 "dynamics": margin["dynamics"],
                 "multiple": margin["corners"] | ~data["refined_corner_consistent"].astype(bool)}
    degenerate = data["refined_degenerate"].astype(bool)
    out = {}
    for b, bit in enumerate(BITS):
        t, o, r = (theirs >> b) & 1, (ours >> b) & 1, (truth >> b) & 1
        v = np.where(o == r, "ours", np.where(t == r, "theirs", "neither")).astype(object)
        v[undecided[bit]] = "undecided"
        if bit == "global":
            # the refined global minimum lies on the circle between the axes: e > ½ (theirs) and
            # e > m (ours) are two conventions for a minimum that is neither semantic nor positional
            v[data["refined_global_positional"] != data["refined_global_positional_half"]] = "convention"
        if bit != "dynamics":
            v[degenerate] = "degenerate"
        v[t == o] = "agree"
        out[bit] = v.astype(str)
    return out


def _box(A, W, sel):
    return [float(A[sel].min()), float(A[sel].max()), float(W[sel].min()), float(W[sel].max())]


def summarise_diagram(data: dict, meta: dict) -> dict:
    """Areas, confusion tables, disagreements with their location, and the verdicts of one diagram."""
    A, W = np.meshgrid(data["a"], data["omega"])
    total = int(A.size)
    ours = data["ours_region"]
    out = {"a": [float(data["a"][0]), float(data["a"][-1]), int(data["a"].size)],
           "omega": [float(data["omega"][0]), float(data["omega"][-1]), int(data["omega"].size)],
           "cells": total, "config": meta["config"],
           "areas": {}, "confusion": {}, "disagreement": {}, "verdicts": {}}
    for label, reg in (("theirs", data["gh_region"]), ("their_rule_our_landscape", data["spline_region"]),
                       ("ours", ours)):
        out["areas"][label] = {phase.REGION_NAMES[k]: float(np.mean(reg == k)) for k in range(8)}
    idx = data["refined_index"]
    refined = np.full(total, -1)
    refined[idx] = data["refined_region"]
    for label, reg in (("theirs_vs_ours", data["gh_region"]), ("their_rule_our_landscape_vs_ours", data["spline_region"]),
                       ("theirs_vs_their_rule_our_landscape", None)):
        if reg is None:
            table = confusion(data["gh_region"], data["spline_region"])
            other, ref_reg = data["spline_region"], data["gh_region"]
        else:
            table = confusion(reg, ours)
            other, ref_reg = ours, reg
        cells = []
        for t in range(8):
            for o in range(8):
                if t != o and table[t, o]:
                    sel = (ref_reg == t) & (other == o)
                    cells.append({"theirs": phase.REGION_NAMES[t], "other": phase.REGION_NAMES[o],
                                  "count": int(table[t, o]), "fraction": float(table[t, o] / total),
                                  "a_min_max_omega_min_max": _box(A, W, sel),
                                  "omega_eq_1": int(np.sum(sel & (W >= 1.0)))})
        out["confusion"][label] = {"counts": table.tolist(), "off_diagonal": sorted(cells, key=lambda c: -c["count"])}
        differ = ref_reg != other
        bits = {bit: int(np.sum(((ref_reg ^ other) >> b) & 1)) for b, bit in enumerate(BITS)}
        out["disagreement"][label] = {"cells": int(differ.sum()), "fraction": float(differ.mean()), "bits": bits,
                                      "omega_eq_1": int(np.sum(differ & (W >= 1.0)))}
    for source, label in (("gh", "theirs"), ("spline", "their_rule_our_landscape")):
        v = verdicts(data, source)
        out["verdicts"][label] = {bit: {k: int(np.sum(v[bit] == k)) for k in
                                        VERDICTS}
                                  for bit in BITS}
    # of their wrong bits: would their rule be right with our (accurate) landscape? (quadrature vs rule)
    v = verdicts(data, "gh")
    sp_region = data["spline_region"].ravel()[idx]
    why = {}
    for b, bit in enumerate(BITS):
        wrong = np.isin(v[bit], ("ours",))
        fixed = (((sp_region >> b) & 1) == ((data["refined_region"] >> b) & 1)) & wrong
        why[bit] = {"their_bit_wrong": int(wrong.sum()), "right_with_our_landscape (quadrature)": int(fixed.sum()),
                    "wrong_with_our_landscape too (rule)": int((wrong & ~fixed).sum())}
    out["why_theirs_wrong"] = why
    # is their e > ½ threshold ever different from e > m at the refined global minimum?
    out["threshold_half_vs_e_gt_m"] = int(np.sum(data["refined_global_positional"] != data["refined_global_positional_half"]))
    out["refined_cells"] = int(idx.size)
    out["ours_vs_refined_region_differs"] = int(np.sum(ours.ravel()[idx] != data["refined_region"]))
    out["quadrature"] = {"basis_max_abs_diff_vs_ours": dict(zip(("N", "C", "M11", "M12", "M21", "M22"),
                                                              map(float, data["quad_basis_max"]))),
                         "at_e": data["quad_basis_argmax_e"].tolist(), "at_m": data["quad_basis_argmax_m"].tolist(),
                         "loss_max_abs_diff_over_grid": {"max": float(data["quad_loss_max"].max()),
                                                         "median": float(np.median(data["quad_loss_max"]))}}
    return out


def summarise(config) -> dict:
    """Numbers of every configured diagram and of the reference derivatives (no timings: the
    numbers are byte-reproducible; the seconds are in the results' JSON provenance)."""
    section = _check_spec(config)
    data, meta = load_result(stems(config)["reference"])
    ref = {"config": meta["config"], "gh_points": data["gh_points"].tolist()}
    names = ("N", "C", "M11", "M12", "M21", "M22")
    for k in ("pos_slope", "pos_curv", "sem_slope", "sem_curv", "hess_ee", "hess_mm"):
        ref[k] = {"direct": dict(zip(names, map(float, data[f"ref_{k}"]))),
                  "error_bound": dict(zip(names, map(float, data[f"err_{k}"]))),
                  "authors_rule": {int(n): dict(zip(names, map(float, row)))
                                   for n, row in zip(data["gh_points"], data[f"gh_{k}"])}}
    out = {"reference": ref, "diagrams": {}}
    for name in section["diagrams"]:
        d, m = load_result(stems(config)[name])
        out["diagrams"][name] = summarise_diagram(d, m)
    return out


# --- figure -------------------------------------------------------------------------------------------
#: marker colours of the differing bits in the comparison panel (Okabe–Ito black, purple, green)
BIT_COLOURS = {"global": "#000000", "dynamics": "#CC79A7", "multiple": "#009E73"}


def plot(config, out_paths, numbers=None, load=load_result) -> None:
    """Per diagram: their regions (their quadrature), ours, and the cells where they differ
    (coloured by the differing bit; open circle where the refined computation sides with them).

    ``load(stem)`` reads a result (ssi.experiments.figure_data: results/ or the figure data);
    ``numbers`` is not needed here."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from ..plotting import REGION_COLOURS, WIDTH_DOUBLE, new_figure, save_figure

    section = _check_spec(config)
    names = list(section["diagrams"])
    fig, axes = new_figure(ncols=3, nrows=len(names), width=WIDTH_DOUBLE, height=2.3 * len(names) + 1.3,
                           squeeze=False)
    cmap = ListedColormap(REGION_COLOURS)
    present = set()
    for row, name in enumerate(names):
        data, meta = load(stems(config)[name])
        a, w = data["a"], data["omega"]
        A, W = np.meshgrid(a, w)
        spec = meta["config"]
        theirs, ours = data["gh_region"], data["ours_region"]
        present |= set(np.unique(theirs)) | set(np.unique(ours))
        differ = theirs != ours
        titles = (f"{name}: the authors' rule ({spec['points']}-point quadrature)",
                  f"{name}: ours (polar grid and L-BFGS)",
                  f"{name}: {int(differ.sum())} cells differ ({100 * differ.mean():.2f} %)")
        for col, reg in enumerate((theirs, ours, ours)):
            ax = axes[row, col]
            ax.pcolormesh(a, w, reg, cmap=cmap, vmin=-0.5, vmax=7.5, shading="nearest", rasterized=True,
                          alpha=0.25 if col == 2 else 1.0)
            ax.set_xlim(a[0], a[-1])
            ax.set_ylim(w[0], w[-1])
            ax.set_xlabel("$a$")
            ax.set_ylabel(r"$\omega$", rotation=0, labelpad=6)
            ax.set_title(titles[col], fontsize=6.5)
        ax = axes[row, 2]
        v = verdicts(data, "gh")
        idx = data["refined_index"]
        for b, bit in enumerate(BITS):
            sel = np.flatnonzero((((theirs ^ ours) >> b) & 1).ravel())
            ax.scatter(A.ravel()[sel], W.ravel()[sel], s=2, color=BIT_COLOURS[bit], lw=0, rasterized=True)
            right = idx[v[bit] == "theirs"]
            ax.scatter(A.ravel()[right], W.ravel()[right], s=14, facecolors="none", edgecolors="k", lw=0.5)
    handles = [Patch(color=REGION_COLOURS[k], label=phase.REGION_NAMES[k]) for k in sorted(present)]
    handles += [Line2D([], [], ls="", marker="o", ms=4, color=c, label=f"cells where the {bit} bit differs")
                for bit, c in BIT_COLOURS.items()]
    handles += [Line2D([], [], ls="", marker="o", ms=5, mfc="none", mec="k",
                       label="the refined computation sides with the authors")]
    fig.legend(handles=handles, loc="outside lower center", ncol=2, fontsize=6, frameon=False)
    for path in out_paths:
        save_figure(fig, path)
    plt.close(fig)


#: share of differing cells below which their diagram counts as reproduced, and at or above which as different
C5_DIAGRAM_SAME, C5_DIAGRAM_DIFFERENT = 0.01, 0.10
C5_DIAGRAM_RULE = (f"their script's diagram against ours, cell by cell: reproduced when fewer than "
                   f"{100 * C5_DIAGRAM_SAME:g} % of the cells differ on every diagram; differs when "
                   f"{100 * C5_DIAGRAM_DIFFERENT:g} % or more differ on one; partly otherwise (the refined computation "
                   "then says whose cells are right)")


def c5_diagram_verdict(numbers) -> str:
    """Verdict of their diagram against ours (rule :data:`C5_DIAGRAM_RULE`)."""
    shares = [d["disagreement"]["theirs_vs_ours"]["fraction"] for d in numbers["diagrams"].values()]
    if not shares:
        return "undecided"
    if max(shares) < C5_DIAGRAM_SAME:
        return "reproduced"
    return "differs" if max(shares) >= C5_DIAGRAM_DIFFERENT else "partly"


def _right(d) -> tuple[int, int]:
    ver = d["verdicts"]["theirs"]
    return sum(v["ours"] for v in ver.values()), sum(v["theirs"] for v in ver.values())


def _box_text(d) -> str:
    a, w = d["a"], d["omega"]
    return "[0,1]²" if (a[0], a[1], w[0], w[1]) == (0, 1, 0, 1) else f"[{a[0]:g},{a[1]:g}]×[{w[0]:g},{w[1]:g}]"


def claim_rows(config, numbers) -> list[dict]:
    """Claims-table row: how far the authors' own rule is from our diagram, and who is right."""
    parts = []
    for name, d in numbers["diagrams"].items():
        dis = d["disagreement"]["theirs_vs_ours"]
        ours_right, theirs_right = _right(d)
        a, w = d["a"], d["omega"]
        parts.append(f"[{a[0]:g},{a[1]:g}]×[{w[0]:g},{w[1]:g}] ({a[2]}×{w[2]}): {100 * dis['fraction']:.2f} % of "
                     f"cells differ (bits: {', '.join(f'{k} {v}' for k, v in dis['bits'].items())}); refined: "
                     f"ours right on {ours_right}, theirs on {theirs_right} differing bits")
    shares = {name: d["disagreement"]["theirs_vs_ours"]["fraction"] for name, d in numbers["diagrams"].items()}
    ours = sum(_right(d)[0] for d in numbers["diagrams"].values())
    theirs = sum(_right(d)[1] for d in numbers["diagrams"].values())
    return [{
        "claim": "C5 semantic vs positional (authors' diagram rule)",
        "paper": "the phase diagram drawn by the authors' script",
        "measured": "; ".join(parts) + "; see docs/results/authors-phase.md",
        "headline": ("their script's diagram differs from ours on " + ", ".join(
            f"{100 * v:.2f} % of {_box_text(numbers['diagrams'][k])}" for k, v in shares.items())
            + f"; refined: ours right on {ours} differing bits, theirs on {theirs}"),
        "verdict": c5_diagram_verdict(numbers),
        "figure": "figures/authors/phase_diagram_comparison.png",
        "command": "snakemake --cores all authors_phase_plot",
        "rule": C5_DIAGRAM_RULE,
    }]


def markdown_tables(numbers) -> str:
    """The tables of docs/results/authors-phase.md from the numbers file (areas, confusion, verdicts)."""
    lines = []
    short = {k: name for k, name in enumerate(phase.REGION_NAMES)}
    for name, d in numbers["diagrams"].items():
        a, w, cells = d["a"], d["omega"], d["cells"]
        lines += [f"#### {name}: a ∈ [{a[0]:g}, {a[1]:g}] × ω ∈ [{w[0]:g}, {w[1]:g}], {a[2]} × {w[2]} cells; "
                  f"their rule with {d['config']['points']} points, (e, m) grid {d['config']['resolution']}², "
                  f"fast mode {d['config']['fast']}", "",
                  "| region | theirs | their rule on our landscape | ours |", "|---|---|---|---|"]
        for k in range(8):
            vals = [d["areas"][src][short[k]] for src in ("theirs", "their_rule_our_landscape", "ours")]
            if any(vals):
                lines.append(f"| {short[k]} | " + " | ".join(f"{100 * v:.2f} %" for v in vals) + " |")
        lines += ["", "| comparison | cells differing | fraction | global bit | dynamics bit | multiple bit | at ω = 1 |",
                  "|---|---|---|---|---|---|---|"]
        for label, dis in d["disagreement"].items():
            b = dis["bits"]
            lines.append(f"| {label.replace('_', ' ')} | {dis['cells']} | {100 * dis['fraction']:.2f} % | {b['global']} | "
                         f"{b['dynamics']} | {b['multiple']} | {dis['omega_eq_1']} |")
        lines += ["", "Off-diagonal cells, theirs → ours (count, a range, ω range, cells at ω = 1):", "",
                  "| theirs | ours | count | a | ω | at ω = 1 |", "|---|---|---|---|---|---|"]
        for c in d["confusion"]["theirs_vs_ours"]["off_diagonal"]:
            bx = c["a_min_max_omega_min_max"]
            lines.append(f"| {c['theirs']} | {c['other']} | {c['count']} | {bx[0]:.3f}–{bx[1]:.3f} | "
                         f"{bx[2]:.3f}–{bx[3]:.3f} | {c['omega_eq_1']} |")
        lines += ["", "Verdicts of the refined computation on the differing bits (theirs vs ours):", "",
                  "| bit | ours right | theirs right | neither | undecided | convention (minimum off both axes) "
                  "| degenerate (ω = 1) |", "|---|---|---|---|---|---|---|"]
        for bit, v in d["verdicts"]["theirs"].items():
            lines.append(f"| {bit} | {v['ours']} | {v['theirs']} | {v['neither']} | {v['undecided']} | "
                         f"{v['convention']} | {v['degenerate']} |")
        lines += ["", "Where their bit is wrong: right or wrong again when their rule runs on our landscape:", "",
                  "| bit | their bit wrong | right on our landscape (quadrature) | wrong on our landscape too (rule) |",
                  "|---|---|---|---|"]
        for bit, v in d["why_theirs_wrong"].items():
            lines.append(f"| {bit} | {v['their_bit_wrong']} | {v['right_with_our_landscape (quadrature)']} | "
                         f"{v['wrong_with_our_landscape too (rule)']} |")
        lines.append("")
    return "\n".join(lines)
