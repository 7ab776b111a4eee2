"""The authors' phase-diagram rule (:class:`AuthorsRule`: their (e, m) grid, corner box tests,
Hessian box, minima and classification) and the comparison of region codes (:func:`confusion`)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from ... import phase
from .basis import coefficient_rows, gh_basis, spline_basis, symmetric_basis

EXPERIMENT = "authors_phase"
#: loss sources of the authors' rule: their Gauss–Hermite rule, or our landscape splines
SOURCES = ("gh", "spline")
#: the three bits of the region code
BITS = ("global", "dynamics", "multiple")
#: verdicts on a differing bit (see :func:`verdicts`)
VERDICTS = ("ours", "theirs", "neither", "undecided", "convention", "degenerate")
#: their offsets from ±1 (grid edge, box edge) and of the semantic corner
EDGE = 1e-6
CORNER = 1e-10
#: half-width of their Hessian box and its points per axis
HESS_HALF = 0.03
BOX_POINTS = 10


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
        axis = np.linspace(-1 + EDGE, 1 - EDGE, res)
        self.grid_e, self.grid_m = np.meshgrid(axis, axis)           # rows: m, columns: e
        self.inside = self.grid_e ** 2 + self.grid_m ** 2 <= 1
        self.radius = 2.5 / res
        r = self.radius
        lo, hi = -1 + EDGE, 1 - EDGE
        side = np.linspace(max(-r, lo), min(r, hi), BOX_POINTS)
        near = np.linspace(max(1 - r, lo), min(1 + r, hi), BOX_POINTS)
        self.sem_e, self.sem_m = np.meshgrid(side, near)
        self.pos_e, self.pos_m = np.meshgrid(near, side)
        self.sem_inside = self.sem_e ** 2 + self.sem_m ** 2 <= 1
        self.pos_inside = self.pos_e ** 2 + self.pos_m ** 2 <= 1
        self.corner_e = np.array([1.0, 0.0])                         # positional, semantic
        self.corner_m = np.array([0.0, 1.0 - CORNER])
        h = np.linspace(-HESS_HALF, HESS_HALF, BOX_POINTS)
        self.hess_axis = h
        self.hess_e, self.hess_m = np.meshgrid(h, h)
        # grid-minimum bookkeeping that depends on the geometry only
        pad = np.pad(self.inside, 1, constant_values=False)
        shifted = {(di, dj): pad[1 + di:1 + di + res, 1 + dj:1 + dj + res]
                   for di in (-1, 0, 1) for dj in (-1, 0, 1) if (di, dj) != (0, 0)}
        self.good = ((shifted[-1, -1] & shifted[1, 1]) | (shifted[-1, 0] & shifted[1, 0])
                     | (shifted[0, -1] & shifted[0, 1]) | (shifted[1, -1] & shifted[-1, 1]))
        self.quadrant = (self.grid_e >= 0) & (self.grid_m >= 0)
        # the first quadrant is the block [i0:, j0:] of the grid (both axes ascending)
        i0, j0 = (int(np.argmax(self.grid_m[:, 0] >= 0)), int(np.argmax(self.grid_e[0] >= 0)))
        self.quadrant_corner = (i0, j0)

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
        values = (rows @ bases["hess"].reshape(6, -1)).reshape(-1, BOX_POINTS, BOX_POINTS)
        h = self.hess_axis
        d_m, d_e = np.gradient(values, h, h, axis=(1, 2))
        d_mm, d_me = np.gradient(d_m, h, h, axis=(1, 2))
        d_em, d_ee = np.gradient(d_e, h, h, axis=(1, 2))
        c = BOX_POINTS // 2
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
        """Their grid minima (mask, first-quadrant argmin included) of values (P, res, res).

        A point is a minimum when it is finite and ≤ its (up to 8) neighbours on the grid (their
        padding with +inf makes the comparisons across the border true).
        """
        P = values.shape[0]
        bounds, points = self.minimum_points(values)
        mask = np.zeros(values.shape, bool)
        mask.reshape(P, -1)[np.repeat(np.arange(P), np.diff(bounds)), points] = True
        return mask

    def minimum_points(self, values, where=None):
        """:meth:`grid_minima` as flat grid indices: cell p's minima are
        ``points[bounds[p]:bounds[p + 1]]``, in increasing order. ``values`` is (P, res, res), or
        (P, n) with the values at the flat grid indices ``where`` (n,) and +inf elsewhere."""
        i0, j0 = self.quadrant_corner
        P = values.shape[0]
        if where is None:
            where = np.arange(self.resolution ** 2)
        return _minimum_points(np.ascontiguousarray(values.reshape(P, -1)), where, self.good & self.quadrant, i0, j0)

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
        grid_inside = flat_grid[:, inside]
        inside_index = np.flatnonzero(inside)
        position = np.cumsum(inside) - 1                         # a grid index's column in grid_inside
        ge, gm = self.grid_e.ravel(), self.grid_m.ravel()
        r = self.radius
        for row, omega in enumerate(omega_values):
            rows = coefficient_rows(a_values, np.full_like(a_values, omega))
            v_e, H = self.dynamics(rows, bases)
            pos_ok, sem_ok, corners = self.corner_tests(rows, bases)
            out["v_e"][row], out["H_ee"][row], out["H_mm"][row], out["H_em"][row] = v_e, H[:, 0, 0], H[:, 1, 1], H[:, 1, 0]
            out["pos_ok"][row], out["sem_ok"][row] = pos_ok, sem_ok
            need = ~(pos_ok | sem_ok) if self.fast else np.ones(a_values.size, bool)
            if need.any():
                values = rows[need] @ grid_inside                  # the grid's values inside the disk
                bounds, points = self.minimum_points(values, inside_index)
            k_need = 0
            for col in range(a_values.size):
                es, ms, ls = [], [], []
                if need[col]:
                    idx = points[bounds[k_need]:bounds[k_need + 1]]
                    keep = ~((ge[idx] >= 1 - r - 3 * CORNER) & pos_ok[col]) & ~((gm[idx] >= 1 - r - 3 * CORNER)
                                                                               & sem_ok[col])
                    idx = idx[keep]
                    es, ms, ls = list(ge[idx]), list(gm[idx]), list(values[k_need, position[idx]])
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



@njit(inline="always")
def _smaller(a, b):
    return a if a < b else b


@njit
def _first_quadrant_argmin(v, i0, j0):
    """np.argmin of v[i0:, j0:] as a flat index of v (the first minimum; the first NaN, if any)."""
    width = v.shape[1] - j0
    k = np.argmin(v[i0:, j0:])
    return (i0 + k // width) * v.shape[1] + j0 + k % width


@njit
def _local_minima(v, allowed, out):
    """out[f] = (v finite, ≤ its up to 8 neighbours, allowed) at the flat index f = i·res + j.

    Without NaN, x ≤ every neighbour is x = the minimum of its 3 × 3 block (x included), taken
    separably (rows, then columns); with a NaN in v, the
    comparisons one by one (x ≤ NaN is false)."""
    res = v.shape[0]
    nan = False
    for i in range(res):
        for j in range(res):
            nan |= np.isnan(v[i, j])
    if nan:
        for i in range(res):
            for j in range(res):
                x = v[i, j]
                ok = allowed[i, j] and np.isfinite(x)
                for di in range(-1, 2):
                    for dj in range(-1, 2):
                        if 0 <= i + di < res and 0 <= j + dj < res:
                            ok = ok and x <= v[i + di, j + dj]
                out[i * res + j] = ok
        return
    across = np.empty((res, res))
    for i in range(res):
        across[i, 0] = _smaller(v[i, 0], v[i, 1])
        for j in range(1, res - 1):
            across[i, j] = _smaller(_smaller(v[i, j - 1], v[i, j]), v[i, j + 1])
        across[i, res - 1] = _smaller(v[i, res - 2], v[i, res - 1])
    for i in range(res):
        above = across[max(i - 1, 0)]
        below = across[min(i + 1, res - 1)]
        for j in range(res):
            x = v[i, j]
            block = _smaller(_smaller(above[j], across[i, j]), below[j])
            out[i * res + j] = allowed[i, j] and x == block and x < np.inf and x > -np.inf


@njit(cache=True, parallel=True)
def _minimum_points(values, where, allowed, i0, j0):
    """:meth:`AuthorsRule.minimum_points`: ``values`` (P, n) at the flat indices ``where`` of the
    (res, res) grid (+inf elsewhere), the mask ``allowed`` (res, res), the first quadrant from
    (i0, j0); returns (bounds (P + 1,), points)."""
    P, res = values.shape[0], allowed.shape[0]
    is_min = np.zeros((P, res * res), np.bool_)
    counts = np.zeros(P, np.int64)
    for p in prange(P):
        v = np.full(res * res, np.inf)
        for k in range(where.size):
            v[where[k]] = values[p, k]
        grid = v.reshape(res, res)
        _local_minima(grid, allowed, is_min[p])
        is_min[p, _first_quadrant_argmin(grid, i0, j0)] = True
        n = 0
        for f in range(res * res):
            n += is_min[p, f]
        counts[p] = n
    bounds = np.zeros(P + 1, np.int64)
    for p in range(P):
        bounds[p + 1] = bounds[p] + counts[p]
    points = np.empty(bounds[P], np.int64)
    for p in prange(P):
        k = bounds[p]
        for f in range(res * res):
            if is_min[p, f]:
                points[k] = f
                k += 1
    return bounds, points
