"""Hermite expansions of targets and students by quadrature (docs/theory.md, "Hermite expansions and the SIE").

Conventions
-----------
Probabilists' Hermite polynomials ``He_n`` (``E[He_n He_k] = n! δ_nk`` under N(0, 1)),
multi-indices ``α`` over tokens, ``He_α(z) = Π_l He_{α_l}(z_l)``, ``α! = Π_l α_l!`` and
coefficients ``c_α(f) = E[f(z) He_α(z)]``, so ``f = Σ_α c_α(f) He_α/α!``. For matrix
outputs (the "mixture" target) ``c_α`` is the vector of coefficients of the L² entries
and products of coefficients are dot products.

The Taylor coefficients of the population loss and the Sequence Information Exponent built on
these coefficients are in :mod:`ssi.information_exponent`; :mod:`ssi.hermite` gathers both.
"""
from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
from numpy.polynomial import polynomial as npoly

from . import links
from .quadrature import gauss_hermite_rule, sobol_normal_rule, split_normal_rule
from .state import tied_state

DEFAULT_MAX_ORDER = 6

#: largest tensor grid used for coefficients of non-polynomial functions
COEF_BUDGET = 300_000


# --- basic tools -------------------------------------------------------------------
def hermite_e(x, order: int) -> np.ndarray:
    """Probabilists' Hermite polynomials ``He_0..He_order`` at ``x``.

    Returns
    -------
    ndarray, shape x.shape + (order + 1,)
    """
    x = np.asarray(x, dtype=float)
    out = np.empty(x.shape + (order + 1,))
    out[..., 0] = 1.0
    if order >= 1:
        out[..., 1] = x
    for n in range(1, order):
        out[..., n + 1] = x * out[..., n] - n * out[..., n - 1]
    return out


def multi_indices(L: int, order: int, *, exact: bool = False):
    """Multi-indices over ``L`` tokens with ``|α| ≤ order`` (or ``== order``), graded order."""
    degrees = [order] if exact else range(order + 1)
    out = []
    for n in degrees:
        for combo in itertools.combinations_with_replacement(range(L), n):
            alpha = [0] * L
            for l in combo:
                alpha[l] += 1
            out.append(tuple(alpha))
    return sorted(set(out), key=lambda a: (sum(a), tuple(-x for x in a)))


def alpha_factorial(alpha) -> float:
    """α! = Π_l α_l! of a multi-index α."""
    return float(np.prod([math.factorial(a) for a in alpha]))


def as_matrix(values) -> np.ndarray:
    """Values of a function at n points as an (n, n_out) array (scalar outputs: one column)."""
    values = np.asarray(values, dtype=float)
    return values.reshape(values.shape[0], -1)


def polynomial_degree(fun, L: int, *, max_degree: int = 8, n_lines: int = 4, seed: int = 0,
                      rtol: float = 1e-9):
    """Total degree of ``fun`` if it is a polynomial of degree ≤ ``max_degree``, else None.

    ``fun`` maps points ``(n, L)`` to values ``(n,)`` or ``(n, ...)``. The degree is read off
    restrictions to random lines ``t ↦ fun(z + t v)``, fitted exactly at Chebyshev nodes.
    """
    rng = np.random.default_rng(seed)
    n_t = max_degree + 4
    t = 2.0 * np.cos(np.pi * (np.arange(n_t) + 0.5) / n_t)
    degree = 0
    for _ in range(n_lines):
        z0, v = rng.standard_normal(L), rng.standard_normal(L)
        y = as_matrix(fun(z0 + t[:, None] * v))
        scale = np.max(np.abs(y)) + 1e-300
        for D in range(max_degree + 1):
            coef = npoly.polyfit(t, y, D)
            if np.max(np.abs(npoly.polyval(t, coef).T - y)) <= rtol * scale * 10 ** (D / 4):
                degree = max(degree, D)
                break
        else:
            return None
    return degree


def _support(fun, L, seed=1):
    """Tokens that ``fun`` depends on (checked at random points)."""
    rng = np.random.default_rng(seed)
    Z = rng.standard_normal((6, L))
    base = as_matrix(fun(Z))
    moved = np.repeat(Z[None], L, axis=0)
    idx = np.arange(L)
    moved[idx, :, idx] = rng.standard_normal((L, 6))
    vals = as_matrix(fun(moved.reshape(-1, L))).reshape(L, 6, -1)
    scale = np.max(np.abs(base)) + 1e-300
    return [l for l in range(L) if np.max(np.abs(vals[l] - base)) > 1e-12 * scale]


def _is_additive(fun, L, support, seed=2):
    """True if ``fun(z) = Σ_{l∈support} f_l(z_l)`` (checked at random points)."""
    rng = np.random.default_rng(seed)
    Z = np.zeros((4, L))
    Z[:, support] = rng.standard_normal((4, len(support)))
    single = np.zeros((4, len(support), L))
    for k, l in enumerate(support):
        single[:, k, l] = Z[:, l]
    f_z = as_matrix(fun(Z))
    f_0 = as_matrix(fun(np.zeros((1, L))))
    f_s = as_matrix(fun(single.reshape(-1, L))).reshape(4, len(support), -1)
    rebuilt = f_s.sum(axis=1) - (len(support) - 1) * f_0
    return np.max(np.abs(rebuilt - f_z)) <= 1e-10 * (np.max(np.abs(f_z)) + 1)


#: most multi-indices a coefficient table may hold
MAX_INDICES = 50_000

def _default_alphas(fun, L, order, support):
    """Multi-indices that can carry a non-zero coefficient of ``fun``."""
    if len(support) > 1 and _is_additive(fun, L, support):
        out = [(0,) * L]
        for l in support:
            for k in range(1, order + 1):
                a = [0] * L
                a[l] = k
                out.append(tuple(a))
        return out
    if math.comb(len(support) + order, order) > MAX_INDICES:
        raise ValueError(f"a function of {len(support)} tokens has more than {MAX_INDICES} Hermite "
                         f"coefficients of order ≤ {order}; pass alphas or lower the order")
    out = []
    for sub in multi_indices(len(support), order):
        a = [0] * L
        for l, k in zip(support, sub):
            a[l] = k
        out.append(tuple(a))
    return out


def _coefficients_on_points(values, points, weights, alphas, order):
    """c_α = Σ_i w_i f(x_i) He_α(x_i) for every α (values (N, n_out), points (N, d))."""
    H = hermite_e(points, order)                      # (N, d, order+1)
    out = {}
    for alpha in alphas:
        basis = np.ones(points.shape[0])
        for l, a in enumerate(alpha):
            if a:
                basis = basis * H[:, l, a]
        out[alpha] = (weights * basis) @ values
    return out


def hermite_coefficients(fun, L: int, order: int = DEFAULT_MAX_ORDER, *, alphas=None,
                         n_points: int | None = None, method: str = "auto", seed: int = 0):
    """Multivariate Hermite coefficients ``c_α(f) = E[f(z) He_α(z)]``, z ~ N(0, I_L), by quadrature.

    The token support of ``f`` is detected first (coefficients with ``α`` outside it
    vanish). Polynomials get an exact Gauss–Hermite rule; additive functions
    ``Σ_l f_l(z_l)`` are integrated token by token; other functions use a tensor
    Gauss–Hermite grid over the support (points per axis ``n_points``, default the
    largest ≤ 60 within a budget) or, when that is too large, antithetic scrambled-Sobol
    quasi-Monte Carlo.

    Parameters
    ----------
    fun : callable
        Vectorised: ``(n, L)`` points to ``(n,)`` or ``(n, ...)`` values.
    L : int
        Number of tokens.
    order : int
        Largest ``|α|``.
    alphas : iterable of tuple, optional
        Only these multi-indices. Default: every ``|α| ≤ order`` that can be non-zero,
        i.e. supported on the tokens ``f`` depends on (and, for additive functions, on
        one token); missing keys are zero.
    n_points : int, optional
        Gauss–Hermite points per axis for non-polynomial functions.
    method : {"auto", "gh", "qmc"}

    Returns
    -------
    dict
        ``α -> c_α`` (float, or ndarray for vector/matrix outputs, flattened).
    """
    support = _support(fun, L)
    scalar = as_matrix(fun(np.zeros((1, L)))).shape[1] == 1
    if alphas is None:
        alphas = _default_alphas(fun, L, order, support)
    alphas = [tuple(a) for a in alphas]
    order = max([sum(a) for a in alphas] + [0])
    inside = [a for a in alphas if all(a[l] == 0 for l in range(L) if l not in support)]
    out = {a: 0.0 for a in alphas}
    if not support:
        val = as_matrix(fun(np.zeros((1, L))))[0]
        out.update({a: val for a in inside if sum(a) == 0})
        return _finish(out, scalar)
    degree = polynomial_degree(fun, L)
    S = len(support)

    def embed(points_s):
        z = np.zeros((points_s.shape[0], L))
        z[:, support] = points_s
        return z

    def project(alpha):
        return tuple(alpha[l] for l in support)

    additive = S > 1 and _is_additive(fun, L, support)
    if degree is not None:
        n = (degree + order) // 2 + 1
    else:
        n = n_points or int(min(60, max(12, math.floor(COEF_BUDGET ** (1 / (1 if additive else S))))))
    if additive and method != "qmc":
        # c_{k e_l} = E[f_l(z_l) He_k(z_l)] for k ≥ 1; mixed coefficients vanish
        x, w = gauss_hermite_rule(1, n)
        f_0 = as_matrix(fun(np.zeros((1, L))))[0]
        mean = -(S - 1) * f_0
        for l in support:
            z = np.zeros((x.shape[0], L))
            z[:, l] = x[:, 0]
            vals = as_matrix(fun(z))
            mean = mean + w @ vals
            for a in inside:
                if sum(a) > 0 and a[l] == sum(a):
                    out[a] = (w * hermite_e(x[:, 0], a[l])[:, a[l]]) @ vals
        for a in inside:
            if sum(a) == 0:
                out[a] = mean
        return _finish(out, scalar)
    use_gh = method == "gh" or (method == "auto" and n ** S <= 4 * COEF_BUDGET)
    if use_gh:
        pts, w = gauss_hermite_rule(S, n)
        vals = as_matrix(fun(embed(pts)))
        coefs = _coefficients_on_points(vals, pts, w, [project(a) for a in inside], order)
        out.update({a: coefs[project(a)] for a in inside})
        return _finish(out, scalar)
    warnings.warn(f"Hermite coefficients of a non-polynomial function of {S} tokens by "
                  "quasi-Monte Carlo: expect errors of order 1e-3", stacklevel=2)
    sets = sobol_normal_rule(S, 15, 4, seed)
    pts = np.concatenate([sets.reshape(-1, S), -sets.reshape(-1, S)])   # antithetic
    w = np.full(pts.shape[0], 1.0 / pts.shape[0])
    vals = as_matrix(fun(embed(pts)))
    coefs = _coefficients_on_points(vals, pts, w, [project(a) for a in inside], order)
    out.update({a: coefs[project(a)] for a in inside})
    return _finish(out, scalar)


def _finish(out, scalar):
    res = {}
    for a, v in out.items():
        v = np.asarray(v, dtype=float)
        res[a] = float(v.reshape(-1)[0]) if scalar and v.size == 1 else v.reshape(-1)
    return res


# --- targets and students ----------------------------------------------------------
def target_coefficients(problem, order: int = DEFAULT_MAX_ORDER, **kwargs):
    """Hermite coefficients ``c_α(g)`` of the target, ``|α| ≤ order`` (see :func:`hermite_coefficients`)."""
    return hermite_coefficients(problem.target_value, problem.L, order, **kwargs)


def activation_coefficients(problem, order: int = DEFAULT_MAX_ORDER, *, shift: float = 0.0,
                            power: int = 1, n_points: int = 40):
    """1-D Hermite coefficients ``c_n(σ(· + shift)^power)`` of a feed-forward activation.

    The Gauss rule is split at the kink of ReLU (``x = −shift``), so piecewise-polynomial
    activations are integrated exactly.
    """
    if problem.codes[2] != links.S_FEEDFORWARD:
        raise ValueError("activation_coefficients needs a feed-forward student")
    x, w = split_normal_rule(round(float(-shift), 13), n_points)
    L = problem.L
    q = np.repeat(((x + shift) / math.sqrt(L))[:, None], L, axis=1)
    vals = problem.student_value(q) ** power
    H = hermite_e(x, order)
    return (w * vals) @ H


def _feedforward_coefficients(problem, alphas, shift=0.0, power=1):
    order = max([sum(a) for a in alphas] + [0])
    c1 = activation_coefficients(problem, order, shift=shift, power=power)
    u = 1.0 / math.sqrt(problem.L)
    return {a: float(c1[sum(a)] * u ** sum(a)) for a in alphas}


def student_coefficients(problem, order: int = DEFAULT_MAX_ORDER, e=0.0, *, alphas=None, power=1,
                         **kwargs):
    """Hermite coefficients of the shifted student ``f_e(q) = f(q + e)`` (or of ``f_e**power``).

    Parameters
    ----------
    problem : Problem
    order : int
        Largest ``|α|``.
    e : array_like
        PE overlaps in the convention of :mod:`ssi.population` (opposite PE: ``e_1``;
        orthonormal: the L values ``e_l``).
    alphas : iterable of tuple, optional
        Only these multi-indices (default: all with ``|α| ≤ order``).
    power : {1, 2}
        2 gives the coefficients of ``|f_e|²`` (summed over matrix entries).

    Returns
    -------
    dict
        ``α -> c_α(f_e)``.
    """
    L = problem.L
    if alphas is None:
        if math.comb(L + order, order) > MAX_INDICES:
            raise ValueError(f"more than {MAX_INDICES} multi-indices for L={L}, order={order}; pass alphas")
        alphas = multi_indices(L, order)
    alphas = [tuple(a) for a in alphas]
    e_tok = tied_state(problem, 0.0, e)[3][0] if problem.tied else np.zeros(L)
    if problem.codes[2] == links.S_FEEDFORWARD:
        return _feedforward_coefficients(problem, alphas, e_tok.sum() / math.sqrt(L), power)

    def fun(q):
        v = as_matrix(problem.student_value(q + e_tok))
        return v if power == 1 else np.sum(v * v, axis=1)

    return hermite_coefficients(fun, L, order, alphas=alphas, **kwargs)
