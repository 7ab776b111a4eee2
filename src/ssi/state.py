"""States of the population dynamics, broadcast to flat arrays (docs/theory.md,
"Sufficient statistics and population loss"; conventions in :mod:`ssi.population`).

Tied students: the overlap ``m`` and the positional-encoding overlaps ``e``, given through their
coordinates ``ε`` in the orthonormal basis of :meth:`ssi.problems.Problem.pe_matrix`
(``e_tokens = P ε``). Untied feed-forward students: ``m_l`` and ``Q_l`` per token.
"""
from __future__ import annotations

import numpy as np


# --- states ------------------------------------------------------------------------
def tied_state(problem, m, e=0.0):
    """Broadcast a tied state to flat arrays.

    Parameters
    ----------
    problem : Problem
        A tied problem.
    m : array_like
        Overlaps ``m``.
    e : array_like
        PE overlaps in the convention of the module docstring.

    Returns
    -------
    shape : tuple
        Shape of the state array.
    m : ndarray, shape (S,)
    eps : ndarray, shape (S, k)
        PE coordinates (k = rank of the PE).
    e_tokens : ndarray, shape (S, L)
        Per-token shifts ``e_l``.
    """
    P = problem.pe_matrix()
    k = P.shape[1]
    m = np.asarray(m, dtype=float)
    e = np.asarray(e, dtype=float)
    if k == 0:
        if np.any(e != 0):
            raise ValueError("e must be 0 for pe='none'")
        shape = m.shape
        eps = np.zeros(m.shape + (0,))
    elif problem.pe == "opposite":
        m, e = np.broadcast_arrays(m, e)
        shape = m.shape
        eps = e[..., None]
    else:
        if e.ndim == 0:
            e = np.full(problem.L, float(e))
        if e.shape[-1] != problem.L:
            raise ValueError(f"e must have a last axis of length L={problem.L} for pe='orthonormal'")
        shape = np.broadcast_shapes(m.shape, e.shape[:-1])
        m = np.broadcast_to(m, shape)
        eps = np.broadcast_to(e, shape + (problem.L,))
    m = np.ascontiguousarray(m, dtype=float).reshape(-1)
    eps = np.ascontiguousarray(eps, dtype=float).reshape(m.size, k)
    if np.any(np.abs(m) > 1 + 1e-12):
        raise ValueError("m must lie in [−1, 1]")
    return shape, m, eps, eps @ P.T


def untied_state(problem, m, Q):
    """Broadcast an untied state ``m`` (..., L) and ``Q`` (..., L) (default 1) to flat arrays:
    (shape, m (S, L), Q (S, L)); ValueError unless Q_l ≥ m_l²."""
    L = problem.L
    m = np.asarray(m, dtype=float)
    if m.ndim == 0:
        m = np.full(L, float(m))
    Q = np.ones(L) if Q is None else np.asarray(Q, dtype=float)
    if m.shape[-1] != L or Q.shape[-1] != L:
        raise ValueError(f"untied m and Q must have a last axis of length L={L}")
    shape = np.broadcast_shapes(m.shape[:-1], Q.shape[:-1])
    m = np.broadcast_to(m, shape + (L,)).reshape(-1, L)
    Q = np.broadcast_to(Q, shape + (L,)).reshape(-1, L)
    if np.any(Q < m * m - 1e-12):
        raise ValueError("untied states need Q_l ≥ m_l²")
    return shape, m, Q

