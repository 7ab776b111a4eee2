"""The authors' phase-diagram rule, the basis: the six (a, ω)-independent functions of R at any
(e, m), by their 4-D Gauss–Hermite rule (:func:`gh_basis`, a numba kernel: unlike
:func:`ssi.phase.overlap_integral`, it integrates N and M by the 4-D rule too, in one sum) or
from our landscape splines (:func:`spline_basis`)."""
from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from ... import phase
from ...softmax import logistic


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

