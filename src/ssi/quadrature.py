"""Integration rules for the standard normal law (docs/theory.md, "The ODE").

Tensor Gauss–Hermite rules, independently scrambled Sobol point sets mapped to the normal law
(quasi-Monte Carlo, with an error estimate from the spread between scramblings), and Gauss rules
of the normal law cut at a point (exact for functions with a kink there, such as ReLU). They
are shared by the population moments (:mod:`ssi.population`), the Hermite coefficients
(:mod:`ssi.hermite_expansion`) and the SIE-2 escape coefficients (:mod:`ssi.sie2_escape`).
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from numpy.polynomial.hermite_e import hermegauss
from numpy.polynomial.legendre import leggauss

#: points per side of the split Gauss rule on the feed-forward h axis
FF_X_POINTS = 16

#: quasi-Monte Carlo defaults: 2**QMC_LOG2 points per scrambling, QMC_REPS scramblings
QMC_LOG2 = 14

QMC_REPS = 8


# --- integration rules -------------------------------------------------------------
@lru_cache(maxsize=64)
def gauss_hermite_rule(dim: int, n: int):
    """Tensor Gauss–Hermite rule for the standard normal law in ``dim`` dimensions.

    Parameters
    ----------
    dim : int
        Dimension.
    n : int
        Points per axis (the rule has ``n**dim`` points).

    Returns
    -------
    points : ndarray, shape (n**dim, dim)
    weights : ndarray, shape (n**dim,)
        Positive, summing to one.
    """
    x, w = hermegauss(n)
    w = w / w.sum()
    grids = np.meshgrid(*([x] * dim), indexing="ij")
    points = np.stack([g.ravel() for g in grids], axis=1)
    weights = np.ones(1)
    for _ in range(dim):
        weights = np.multiply.outer(weights, w).ravel()
    points.flags.writeable = False
    weights.flags.writeable = False
    return points, weights


@lru_cache(maxsize=64)
def sobol_normal_rule(dim: int, log2_points: int = QMC_LOG2, n_rep: int = QMC_REPS, seed: int = 0):
    """Independently scrambled Sobol point sets mapped to the standard normal law.

    Returns
    -------
    points : ndarray, shape (n_rep, 2**log2_points, dim)
        One scrambled set per repetition; the spread of the per-set means estimates
        the error.
    """
    # imported here: scipy.stats adds ~0.7 s to every `import ssi` (every workflow job)
    from scipy import special
    from scipy.stats import qmc

    sets = []
    for r in range(n_rep):
        sampler = qmc.Sobol(d=dim, scramble=True, seed=np.random.default_rng([seed, r, dim]))
        u = sampler.random_base2(log2_points)
        sets.append(special.ndtri(np.clip(u, 1e-16, 1 - 1e-16)))
    points = np.stack(sets)
    points.flags.writeable = False
    return points


def gauss_from_discrete(x, w, n):
    """n-point Gauss rule of a discrete measure (Stieltjes procedure + Golub–Welsch)."""
    mass = w.sum()
    p_prev = np.zeros_like(x)
    p = np.full_like(x, 1 / math.sqrt(mass))
    alpha, beta = np.empty(n), np.empty(n)
    b_prev = 0.0
    for k in range(n):
        alpha[k] = np.sum(w * x * p * p)
        r = (x - alpha[k]) * p - b_prev * p_prev
        beta[k] = math.sqrt(np.sum(w * r * r))
        p_prev, p, b_prev = p, r / beta[k], beta[k]
    J = np.diag(alpha) + np.diag(beta[:-1], 1) + np.diag(beta[:-1], -1)
    nodes, vecs = np.linalg.eigh(J)
    return nodes, mass * vecs[0] ** 2


@lru_cache(maxsize=4)
def _legendre(n):
    return leggauss(n)


@lru_cache(maxsize=256)
def split_normal_rule(c: float, n: int = FF_X_POINTS):
    """Gauss rules for the standard normal law on (−∞, c) and (c, ∞), concatenated.

    Integrates exactly (to rounding) the product of the normal density with functions
    that are polynomials of degree < 2n on each side of ``c``, e.g. ReLU kinks at ``c``.

    Returns
    -------
    nodes, weights : ndarray
        Weights sum to one.
    """
    from scipy import special  # imported here, as in sobol_normal_rule

    nodes, weights = [], []
    for lo, hi in ((min(c, -13.0) - 1.0, c), (c, max(c, 13.0) + 1.0)):
        lo, hi = max(lo, -14.0), min(hi, 14.0)
        if hi - lo < 1e-12 or special.ndtr(hi) - special.ndtr(lo) < 1e-30:
            continue
        t, v = _legendre(400)
        x = 0.5 * (hi - lo) * t + 0.5 * (hi + lo)
        wx = 0.5 * (hi - lo) * v * np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)
        xn, wn = gauss_from_discrete(x, wx, n)
        nodes.append(xn)
        weights.append(wn)
    nodes, weights = np.concatenate(nodes), np.concatenate(weights)
    weights = weights / weights.sum()
    nodes.flags.writeable = False
    weights.flags.writeable = False
    return nodes, weights

