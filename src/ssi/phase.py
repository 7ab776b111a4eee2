"""Semantic/positional landscape of the mixture target and its phase classification (claim C5).

Problem (claim C5; docs/theory.md, "Semantic and positional phases"): L = 2, target ``T = (1−ω) S(z*) + ω A(a)`` with
``S(z) = softmax_row(z zᵀ)`` and ``A(a) = softmax_row([[a², −a²], [−a², a²]])``; attention
student ``F = softmax_row(q qᵀ)``, opposite PE (``q = z + e·(1, −1)``), identity reduction,
loss ``ℓ = ½‖T − F‖²_F``. With ``z = m z* + √(1−m²) ξ`` (docs/theory.md, "Sufficient statistics and population loss"):

    R(e, m; a, ω) = ½ (1−ω)² E‖S‖² + ½ ω² ‖A‖² + ω(1−ω) ⟨E S, A⟩
                    + ½ N(e) − (1−ω) C(e, m) − ω ⟨A, M(e)⟩,

    N(e) = E‖F‖²,   M(e) = E F (2×2),   C(e, m) = E⟨S(z*), F(z + e)⟩.

``z`` is N(0, I) whatever m, so N and M depend on e only, and since F(z + 0) has the law of
S(z*), ``E‖S‖² = N(0)`` and ``E S = M(0)``. R is therefore a fixed quadratic polynomial in ω,
linear in the four entries of A, whose coefficients are one 2-D function C(e, m) (a 4-D
Gaussian integral per point) and three 1-D functions of e, computed once
(:func:`landscape`): the whole (a, ω) phase diagram costs a few vector operations per point.

Symmetries: R(e, m) = R(−e, m) = R(e, −m). (m → −m with z* → −z*: S and F are even;
e → −e with the token swap: S, F and A are invariant under P·P with P the swap.) So the
gradient vanishes at (0, 0), the Hessian there is diagonal in (e, m), and the minima come in
mirror quadruples: the first quadrant e, m ≥ 0 of the disk e² + m² ≤ 1 is enough.

Classification of one (a, ω) (the authors' three bits, analytic/positional-semantic
phase-diagram script of IdePHICS/Sequence-Single-Index, same thresholds):

- ``global_positional``: the global minimum (first quadrant) has e > m (the authors: e > ½);
- ``dynamics_positional``: the lowest-curvature direction of the Hessian at (0, 0) is e,
  i.e. ``R_ee(0,0) < R_mm(0,0)`` (the Hessian is diagonal, see above);
- ``multiple``: more than one local minimum in the closed first quadrant of the disk.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from .softmax import logistic

#: Gauss–Hermite points per axis of the 4-D integral C(e, m) (accuracy: see benchmarks/phase_diagram.py)
C_POINTS = 33
#: Gauss–Hermite points per axis of the 2-D integrals N(e), M(e)
E_POINTS = 121
#: minima whose losses differ by less than this are one (degenerate) minimum: at ω = 1 R does
#: not depend on m and its minima form a segment e = e*, the only exact tie in the diagram
DEGENERATE = 1e-11
#: names of the eight (global, dynamics, multiple) combinations, bit order global + 2·dynamics + 4·multiple
REGION_NAMES = (
    "unique semantic minimum",                                    # 000
    "unique positional minimum, semantic dynamics",               # 100
    "unique semantic minimum, misaligned (positional) dynamics",  # 010
    "unique positional minimum",                                  # 110
    "semantic global minimum + positional local minimum",        # 001
    "positional global minimum + semantic local, semantic dynamics",  # 101
    "semantic global minimum + positional local, misaligned dynamics",  # 011
    "positional global minimum + semantic local minimum",        # 111
)


def pattern(a: float) -> np.ndarray:
    """A(a) = softmax_row([[a², −a²], [−a², a²]]) (the authors' pattern)."""
    x = 1.0 / (1.0 + math.exp(-2.0 * a * a))
    return np.array([[x, 1.0 - x], [1.0 - x, x]])


def gauss_hermite(n: int):
    """Nodes and weights of the n-point Gauss–Hermite rule for the standard normal."""
    x, w = np.polynomial.hermite_e.hermegauss(int(n))
    return x, w / math.sqrt(2.0 * math.pi)


@njit(cache=True, parallel=True)
def _overlap_integral(e, m, x, w):
    """C(e_k, m_k) = E⟨S(z*), F(m z* + √(1−m²) ξ + e(1, −1))⟩ for each k, tensor Gauss–Hermite.

    For L = 2 a row softmax of q qᵀ is fixed by its diagonal: F₁₁ = σ(q₁(q₁ − q₂)),
    F₂₂ = σ(q₂(q₂ − q₁)), F₁₂ = 1 − F₁₁, F₂₁ = 1 − F₂₂.
    """
    n = x.size
    out = np.empty(e.size)
    for k in prange(e.size):
        s = math.sqrt(max(1.0 - m[k] * m[k], 0.0))
        total = 0.0
        for i in range(n):
            for j in range(n):
                a1, a2 = x[i], x[j]
                s1 = logistic(a1 * (a1 - a2))
                s2 = logistic(a2 * (a2 - a1))
                mu1 = m[k] * a1 + e[k]
                mu2 = m[k] * a2 - e[k]
                inner = 0.0
                for p in range(n):
                    q1 = mu1 + s * x[p]
                    row = 0.0
                    for r in range(n):
                        q2 = mu2 + s * x[r]
                        f1 = logistic(q1 * (q1 - q2))
                        f2 = logistic(q2 * (q2 - q1))
                        row += w[r] * (s1 * f1 + (1.0 - s1) * (1.0 - f1) + s2 * f2 + (1.0 - s2) * (1.0 - f2))
                    inner += w[p] * row
                total += w[i] * w[j] * inner
        out[k] = total
    return out


def overlap_integral(e, m, n_points: int = C_POINTS) -> np.ndarray:
    """C(e, m) = E⟨S(z*), F(z + e)⟩ at arrays of states (broadcast), 4-D Gauss–Hermite."""
    e, m = np.broadcast_arrays(np.asarray(e, float), np.asarray(m, float))
    x, w = gauss_hermite(n_points)
    return _overlap_integral(np.ascontiguousarray(e.ravel()), np.ascontiguousarray(m.ravel()), x, w
                             ).reshape(e.shape)


def student_moments(e, n_points: int = E_POINTS):
    """N(e) = E‖F‖² and M(e) = E F (shape (..., 2, 2)) with z ~ N(0, I₂), 2-D Gauss–Hermite."""
    e = np.asarray(e, float)
    x, w = gauss_hermite(n_points)
    X1, X2 = np.meshgrid(x, x, indexing="ij")
    W = np.outer(w, w)
    q1 = X1[None] + e.reshape(-1, 1, 1)
    q2 = X2[None] - e.reshape(-1, 1, 1)
    f1 = 0.5 * (1.0 + np.tanh(0.5 * q1 * (q1 - q2)))
    f2 = 0.5 * (1.0 + np.tanh(0.5 * q2 * (q2 - q1)))
    norm2 = f1 ** 2 + (1 - f1) ** 2 + f2 ** 2 + (1 - f2) ** 2
    N = np.einsum("kij,ij->k", norm2, W)
    F1 = np.einsum("kij,ij->k", f1, W)
    F2 = np.einsum("kij,ij->k", f2, W)
    M = np.stack([np.stack([F1, 1 - F1], -1), np.stack([1 - F2, F2], -1)], -2)
    return N.reshape(e.shape), M.reshape(e.shape + (2, 2))


@dataclass
class Landscape:
    """The (a, ω)-independent integrals of R, as smooth interpolants over the quadrant.

    Attributes
    ----------
    e_nodes, m_nodes : ndarray
        Grid (on [0, 1]) on which C was integrated; N and M use ``e_fine``.
    C_nodes : ndarray, shape (len(m_nodes), len(e_nodes))
    e_fine, N_fine, M_fine : ndarray
        e grid and N(e), M(e) (shape (n, 2, 2)) on it.
    hessian_terms : dict
        Second derivatives at (0, 0): ``C_ee``, ``C_mm``, ``N_ee`` and ``M_ee`` (2×2).
    """

    e_nodes: np.ndarray
    m_nodes: np.ndarray
    C_nodes: np.ndarray
    e_fine: np.ndarray
    N_fine: np.ndarray
    M_fine: np.ndarray
    hessian_terms: dict

    def __post_init__(self):
        # mirror onto [−1, 1]: C, N, M are even in e (and C in m), so the splines see the
        # symmetric continuation and have zero slope at 0
        e2 = np.concatenate([-self.e_nodes[:0:-1], self.e_nodes])
        m2 = np.concatenate([-self.m_nodes[:0:-1], self.m_nodes])
        C = np.concatenate([self.C_nodes[:0:-1], self.C_nodes], axis=0)
        C = np.concatenate([C[:, :0:-1], C], axis=1)
        # imported here: scipy.interpolate adds ~0.7 s to every `import ssi` (every workflow job)
        from scipy.interpolate import CubicSpline, RectBivariateSpline

        self._C = RectBivariateSpline(m2, e2, C, kx=5, ky=5)
        ef = np.concatenate([-self.e_fine[:0:-1], self.e_fine])
        self._N = CubicSpline(ef, np.concatenate([self.N_fine[:0:-1], self.N_fine]))
        M = self.M_fine.reshape(-1, 4)
        # the token swap maps e → −e and F₁₁ ↔ F₂₂, F₁₂ ↔ F₂₁
        M_neg = M[:0:-1][:, [3, 2, 1, 0]]
        self._M = CubicSpline(ef, np.concatenate([M_neg, M]), axis=0)
        self.N0 = float(self.N_fine[0])
        self.M0 = self.M_fine[0].copy()

    # --- basis functions --------------------------------------------------------------------
    def C(self, e, m, de: int = 0, dm: int = 0):
        """C(e, m) (or a derivative) from the spline; arrays broadcast."""
        e, m = np.broadcast_arrays(np.asarray(e, float), np.asarray(m, float))
        return self._C.ev(m.ravel(), e.ravel(), dx=dm, dy=de).reshape(e.shape)

    def N(self, e, de: int = 0):
        """N(e) = E‖F‖² (or a derivative)."""
        return self._N(np.asarray(e, float), de)

    def M(self, e, de: int = 0):
        """M(e) = E F, shape (..., 2, 2) (or a derivative)."""
        e = np.asarray(e, float)
        return self._M(e, de).reshape(e.shape + (2, 2))

    # --- the loss -----------------------------------------------------------------------------
    @staticmethod
    def coefficients(a, omega):
        """Coefficients (constant, c_N, c_C, c_M (2×2)) of R = const + c_N N + c_C C + ⟨c_M, M⟩."""
        A = pattern(a)
        return (0.5 * omega ** 2 * float(np.sum(A * A)), 0.5, -(1.0 - omega), -omega * A)

    def constant(self, a, omega) -> float:
        """The (e, m)-independent part of R."""
        A = pattern(a)
        return (0.5 * (1 - omega) ** 2 * self.N0 + 0.5 * omega ** 2 * float(np.sum(A * A))
                + omega * (1 - omega) * float(np.sum(self.M0 * A)))

    def loss(self, a, omega, e, m, de: int = 0, dm: int = 0):
        """R(e, m; a, ω) (or a partial derivative in e, m) at arrays of states."""
        A = pattern(a)
        e, m = np.broadcast_arrays(np.asarray(e, float), np.asarray(m, float))
        out = -(1.0 - omega) * self.C(e, m, de, dm)
        if dm == 0:
            out = out + 0.5 * self.N(e, de) - omega * np.einsum("...ij,ij->...", self.M(e, de), A)
            if de == 0:
                out = out + self.constant(a, omega)
        return out

    def hessian_diagonal(self, a, omega):
        """(R_ee, R_mm) at (0, 0) for arrays of a and ω (broadcast)."""
        h = self.hessian_terms
        a, omega = np.broadcast_arrays(np.asarray(a, float), np.asarray(omega, float))
        x = 1.0 / (1.0 + np.exp(-2.0 * a * a))
        Mee = np.asarray(h["M_ee"])
        A_dot = x * (Mee[0, 0] + Mee[1, 1]) + (1 - x) * (Mee[0, 1] + Mee[1, 0])
        Ree = 0.5 * h["N_ee"] - (1 - omega) * h["C_ee"] - omega * A_dot
        Rmm = -(1 - omega) * h["C_mm"] + 0.0 * a
        return Ree, Rmm

    def hessian(self, a, omega) -> np.ndarray:
        """Hessian of R at (e, m) = (0, 0) in the coordinates (e, m) (diagonal by symmetry)."""
        h = self.hessian_terms
        A = pattern(a)
        Ree = 0.5 * h["N_ee"] - (1 - omega) * h["C_ee"] - omega * float(np.sum(np.asarray(h["M_ee"]) * A))
        Rmm = -(1 - omega) * h["C_mm"]
        return np.array([[Ree, 0.0], [0.0, Rmm]])


def _second_derivative(f, h):
    """Fourth-order central difference of f'' at 0 from f(±h), f(±2h), f(0)."""
    v = f(np.array([-2 * h, -h, 0.0, h, 2 * h]))
    return float((-v[0] + 16 * v[1] - 30 * v[2] + 16 * v[3] - v[4]) / (12 * h * h))


def landscape(n_nodes: int = 41, n_fine: int = 401, c_points: int = C_POINTS, e_points: int = E_POINTS,
              hessian_step: float = 0.05) -> Landscape:
    """Integrate C on an ``n_nodes × n_nodes`` grid of [0, 1]², N and M on ``n_fine`` values of e.

    C is smooth in (e, m) up to m = 1 (its ξ-average is a series in 1 − m²), so a quintic
    spline through the nodes is accurate to ~1e-7 (tested against direct quadrature at
    off-node points in tests/unit/test_phase.py). The Hessian terms at (0, 0) are fourth-order
    central differences of the direct integrals.
    """
    nodes = np.linspace(0.0, 1.0, int(n_nodes))
    E, Mg = np.meshgrid(nodes, nodes)                   # rows: m, columns: e
    C = overlap_integral(E, Mg, c_points)
    e_fine = np.linspace(0.0, 1.0, int(n_fine))
    N, M = student_moments(e_fine, e_points)
    h = float(hessian_step)
    terms = {
        "C_ee": _second_derivative(lambda t: overlap_integral(t, 0.0 * t, c_points), h),
        "C_mm": _second_derivative(lambda t: overlap_integral(0.0 * t, t, c_points), h),
        "N_ee": _second_derivative(lambda t: student_moments(t, e_points)[0], h),
        "M_ee": np.array([[_second_derivative(lambda t, i=i, j=j: student_moments(t, e_points)[1][:, i, j], h)
                           for j in range(2)] for i in range(2)]),
    }
    return Landscape(nodes, nodes, C, e_fine, N, M, terms)


# --- minima ------------------------------------------------------------------------------------
@dataclass
class PolarGrid:
    """A (r, θ) grid of the closed first quadrant of the unit disk with the basis functions on it.

    ``r`` from 0 to 1 (the circle e² + m² = 1 is a grid line, so boundary minima are grid
    points), ``θ`` from 0 (the e axis, positional) to π/2 (the m axis, semantic).
    """

    r: np.ndarray
    theta: np.ndarray
    e: np.ndarray
    m: np.ndarray
    basis: np.ndarray      # (6, n_r, n_θ): N, C, M11, M12, M21, M22


def polar_grid(land: Landscape, n_r: int = 200, n_theta: int = 200) -> PolarGrid:
    """Evaluate the basis functions of R on the polar grid of the quadrant."""
    r = np.linspace(0.0, 1.0, int(n_r))
    theta = np.linspace(0.0, math.pi / 2, int(n_theta))
    Rr, Th = np.meshgrid(r, theta, indexing="ij")
    e, m = Rr * np.cos(Th), Rr * np.sin(Th)
    M = land.M(e)
    basis = np.stack([land.N(e), land.C(e, m), M[..., 0, 0], M[..., 0, 1], M[..., 1, 0], M[..., 1, 1]])
    return PolarGrid(r, theta, e, m, basis)


def coefficient_rows(a, omega):
    """Rows (P, 6) of basis coefficients of the (e, m)-dependent part of R for arrays a, ω."""
    a, omega = np.broadcast_arrays(np.asarray(a, float), np.asarray(omega, float))
    x = 1.0 / (1.0 + np.exp(-2.0 * a.ravel() ** 2))
    w = omega.ravel()
    return np.stack([np.full_like(w, 0.5), -(1 - w), -w * x, -w * (1 - x), -w * (1 - x), -w * x], axis=1)


def grid_minima(values: np.ndarray) -> np.ndarray:
    """Mask of the grid local minima (≤ all 8 neighbours) of values (P, n_r, n_θ) on the quadrant.

    Neighbours across θ = 0, θ = π/2 and r = 0 are mirror images (R is even in e and in m,
    and (−r, θ) is the mirror of (r, θ) through the origin); beyond r = 1 lies outside the disk.
    The origin is one point (kept as its θ = 0 copy), a minimum when no point of the first
    ring is lower.
    """
    values = np.ascontiguousarray(values, dtype=float)
    return _grid_minima(values.reshape(-1, *values.shape[-2:])).reshape(values.shape)


@njit(cache=True)
def _grid_minima(values):
    P, n_r, n_t = values.shape
    out = np.zeros(values.shape, np.bool_)
    for p in range(P):
        v0 = values[p, 0, 0]
        is_min = True
        for j in range(n_t):
            if values[p, 1, j] < v0:
                is_min = False
                break
        out[p, 0, 0] = is_min
        for i in range(1, n_r):
            for j in range(n_t):
                c = values[p, i, j]
                is_min = True
                for di in range(-1, 2):
                    ii = i + di
                    if ii >= n_r:                 # outside the disk
                        continue
                    for dj in range(-1, 2):
                        if di == 0 and dj == 0:
                            continue
                        jj = j + dj
                        if jj < 0:                # mirror across θ = 0
                            jj = 1
                        elif jj >= n_t:           # mirror across θ = π/2
                            jj = n_t - 2
                        if values[p, ii, jj] < c:
                            is_min = False
                            break
                    if not is_min:
                        break
                out[p, i, j] = is_min
    return out


def refine(land: Landscape, a: float, omega: float, r0: float, theta0: float):
    """Local minimum of R near (r0, θ0): L-BFGS-B in (r, θ) ∈ [0, 1] × [0, π/2] on the splines.

    Boundary minima (r = 1, or the axes) are minima of R restricted to the closed quadrant,
    which by the mirror symmetries are minima on the closed disk.
    """
    def fun(x):
        r, th = x
        e, m = r * math.cos(th), r * math.sin(th)
        val = float(land.loss(a, omega, e, m))
        ge = float(land.loss(a, omega, e, m, de=1))
        gm = float(land.loss(a, omega, e, m, dm=1))
        return val, np.array([ge * math.cos(th) + gm * math.sin(th),
                              r * (-ge * math.sin(th) + gm * math.cos(th))])

    from scipy.optimize import minimize   # here, not at the top: see Landscape.__post_init__

    res = minimize(fun, np.array([r0, theta0]), jac=True, method="L-BFGS-B",
                   bounds=[(0.0, 1.0), (0.0, math.pi / 2)], options={"ftol": 1e-14, "gtol": 1e-10})
    r, th = res.x
    return r * math.cos(th), r * math.sin(th), float(res.fun)


@dataclass
class PhaseDiagram:
    """Classification of a grid of (a, ω) points (arrays of shape (n_ω, n_a))."""

    a: np.ndarray
    omega: np.ndarray
    global_positional: np.ndarray
    dynamics_positional: np.ndarray
    n_minima: np.ndarray
    global_e: np.ndarray
    global_m: np.ndarray
    hessian_ee: np.ndarray
    hessian_mm: np.ndarray
    refined: int

    @property
    def multiple(self) -> np.ndarray:
        return self.n_minima > 1

    @property
    def region(self) -> np.ndarray:
        """Region code global + 2·dynamics + 4·multiple (names in :data:`REGION_NAMES`)."""
        return (self.global_positional.astype(int) + 2 * self.dynamics_positional.astype(int)
                + 4 * self.multiple.astype(int))


def local_minima(land: Landscape, grid: PolarGrid, a: float, omega: float, values=None, mask=None,
                 merge: float = 2e-3):
    """All local minima of R(·; a, ω) on the closed quadrant: grid minima refined by
    :func:`refine` (corner minima at (1, 0) and (0, 1) are exact critical points by symmetry and
    are kept as they are), then merged when closer than ``merge``.

    Returns
    -------
    list of (e, m, R) sorted by R.
    """
    if values is None:
        values = (coefficient_rows(a, omega) @ grid.basis.reshape(6, -1)).reshape(1, *grid.e.shape)
        mask = grid_minima(values)
        values, mask = values[0], mask[0]
    const = land.constant(a, omega)
    found = []
    n_r, n_t = grid.e.shape
    candidates = list(zip(*np.nonzero(mask)))
    if omega >= 1.0:
        # R depends on e only: its minima are segments e = e_k, |m| ≤ √(1 − e_k²); one
        # representative (e_k, 0) each, from the 1-D minima of the θ = 0 column (the e axis)
        col = values[:, 0]
        padded = np.concatenate([[col[1]], col, [np.inf]])
        candidates = [(i, 0) for i in np.nonzero((col <= padded[:-2]) & (col <= padded[2:]))[0]]
    for i, j in candidates:
        corner = i == n_r - 1 and j in (0, n_t - 1)
        if corner:
            e, m, val = float(grid.e[i, j]), float(grid.m[i, j]), float(values[i, j]) + const
        else:
            e, m, val = refine(land, a, omega, float(grid.r[i]), float(grid.theta[j]))
        if all(math.hypot(e - e2, m - m2) > merge and abs(val - v2) > DEGENERATE
               for e2, m2, v2 in found):
            found.append((e, m, val))
        else:   # keep the lower (then the more positional) representative
            k = next(k for k, (e2, m2, v2) in enumerate(found)
                     if math.hypot(e - e2, m - m2) <= merge or abs(val - v2) <= DEGENERATE)
            if (val, m) < (found[k][2], found[k][1]):
                found[k] = (e, m, val)
    return sorted(found, key=lambda t: (t[2], t[1]))


def phase_diagram(land: Landscape, grid: PolarGrid, a_values, omega_values, progress=None) -> PhaseDiagram:
    """Classify every (a, ω) of the tensor grid ``omega_values × a_values`` (see module docstring).

    Each ω row is one matrix product (n_a × 6)·(6 × grid) and one vectorised neighbour test;
    only non-corner grid minima are refined with scipy.
    """
    a_values = np.asarray(a_values, float)
    omega_values = np.asarray(omega_values, float)
    shape = (omega_values.size, a_values.size)
    out = {k: np.zeros(shape) for k in ("ge", "gm", "hee", "hmm")}
    n_min = np.zeros(shape, int)
    basis = grid.basis.reshape(6, -1)
    refined = 0
    n_r, n_t = grid.e.shape
    for row, omega in enumerate(omega_values):
        values = (coefficient_rows(a_values, np.full_like(a_values, omega)) @ basis).reshape(-1, n_r, n_t)
        masks = grid_minima(values)
        pos, sem = masks[:, -1, 0], masks[:, -1, -1]            # corners (1, 0) and (0, 1)
        count = masks.reshape(masks.shape[0], -1).sum(axis=1)
        simple = count == pos.astype(int) + sem                   # only corner minima: exact as they are
        vpos = np.where(pos, values[:, -1, 0], np.inf)
        vsem = np.where(sem, values[:, -1, -1], np.inf)
        sem_wins = vsem < vpos
        n_min[row] = count
        out["ge"][row] = np.where(sem_wins, 0.0, 1.0)
        out["gm"][row] = np.where(sem_wins, 1.0, 0.0)
        for col in np.nonzero(~simple)[0]:
            refined += int(count[col] - pos[col] - sem[col])
            minima = local_minima(land, grid, float(a_values[col]), float(omega), values[col], masks[col])
            n_min[row, col] = len(minima)
            out["ge"][row, col], out["gm"][row, col] = minima[0][0], minima[0][1]
        out["hee"][row], out["hmm"][row] = land.hessian_diagonal(a_values, omega)
        if progress:
            progress(row + 1, omega_values.size)
    return PhaseDiagram(a_values, omega_values, out["ge"] > out["gm"], out["hee"] < out["hmm"], n_min,
                        out["ge"], out["gm"], out["hee"], out["hmm"], refined)


def region_areas(diagram: PhaseDiagram) -> dict:
    """Fraction of the (a, ω) grid in each of the eight regions and in the five named ones of
    claim C5 (misaligned: semantic global minimum, positional lowest-curvature direction)."""
    reg = diagram.region
    total = reg.size
    areas = {name: float(np.sum(reg == code)) / total for code, name in enumerate(REGION_NAMES)}
    g, dyn, mult = diagram.global_positional, diagram.dynamics_positional, diagram.multiple
    named = {
        "unique semantic": float(np.mean(~g & ~mult)),
        "unique positional": float(np.mean(g & ~mult)),
        "semantic global + positional local": float(np.mean(~g & mult)),
        "positional global + semantic local": float(np.mean(g & mult)),
        "misaligned dynamics": float(np.mean(~g & dyn)),
    }
    return {"regions": areas, "named": named}
