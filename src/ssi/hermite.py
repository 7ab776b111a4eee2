"""Hermite expansions of targets and students, and the Sequence Information Exponent (science.md §4).

Conventions
-----------
Probabilists' Hermite polynomials ``He_n`` (``E[He_n He_k] = n! δ_nk`` under N(0, 1)),
multi-indices ``α`` over tokens, ``He_α(z) = Π_l He_{α_l}(z_l)``, ``α! = Π_l α_l!`` and
coefficients ``c_α(f) = E[f(z) He_α(z)]``, so ``f = Σ_α c_α(f) He_α/α!``. For matrix
outputs (the "mixture" target) ``c_α`` is the vector of coefficients of the L² entries
and products of coefficients are dot products.

Taylor expansion of the population loss
---------------------------------------
With ``z = m z* + √(1−m²) ξ`` and Mehler's formula, the tied population loss is

    R(m, ε) = ½ E|g|² + ½ E|f_e|² − Σ_α c_α(g)·c_α(f_e) m^{|α|}/α!,   f_e(q) = f(q + Pε),

where ``ε`` are the PE coordinates (``e_tokens = P ε``, :meth:`Problem.pe_matrix`). Since
``∂_l`` acts on Hermite coefficients as a shift, ``c_α(∂_l f) = c_{α+e_l}(f)``, the Taylor
coefficient of ``m^i ε^γ`` (i ≥ 1) at (0, 0) is

    T(i, γ) = −(1/γ!) Σ_{|α|=i} c_α(g)/α! · Σ_β D_γ[β] c_{α+β}(f),
    D_γ = Π_j (Σ_l P_lj ∂_l)^{γ_j}  (expanded as Σ_β D_γ[β] ∂^β),

and the pure-ε coefficients (i = 0) come from ``½ E|f_e|² − c_0(g)·c_0(f_e)``, i.e. from
``c_β(|f|²)`` and ``c_β(f)``. Untied students have one overlap per token; their
coefficient of ``Π_l m_l^{α_l}`` is ``−c_α(g)·c_α(f)/α!`` (no PE).

Definition of the SIE used here
-------------------------------
The SIE is the lowest total degree ``i + |γ|`` of a non-zero Taylor coefficient of R at
the uninformative point (m, e) = (0, 0) **that involves the overlap** (i ≥ 1). Monomials
in ``e`` alone are excluded: their gradient has no ``m`` component, so they move the PE
overlaps and never the overlap with the teacher. A positive ``∂²R/∂e²`` (as for
He₄(z₁) + He₄(z₂) with opposite PE, where it is ≈ +0.52) only pins ``e`` at 0 and does
not make the landscape "non-flat" in the direction that matters for weak recovery. The
literal reading — lowest degree of any non-zero coefficient, pure-``e`` ones included —
is available as ``definition="joint"``.

"Not flat" does not mean "descending": the leading overlap form can rise in every
direction with ``m ≠ 0`` (e.g. ``+c m^k`` with ``k`` even and ``c > 0``: ``m = 0`` is then a
local minimum of the overlap landscape and small-``m`` gradient flow returns to it).
:func:`sie_report` gives the order together with the leading coefficients and a flag
``descends`` telling whether that form decreases along some direction with ``m ≠ 0``.

A coefficient counts as non-zero when its modulus exceeds ``tol · ‖g‖ · ‖f‖`` (L² norms
under the Gaussian measure, ``tol = 1e-7`` by default); Gauss–Hermite quadrature gives
symmetry zeros exactly, so ``tol`` only has to absorb rounding.

``math.inf`` is returned only when it is proven that the student never sees the target:

- symmetry: a signed token permutation ``σ`` with ``f_e∘σ = χ f_e`` for every ``e`` in the
  PE span (checked numerically at random points), for which the average of ``χ g∘σ``
  over the group of such ``σ`` vanishes (e.g. token-antisymmetric targets and tied
  students without PE, odd targets and attention without PE, ``(z₁² − z₂²)/√2`` and
  attention with opposite PE, for which ``q → (−q₂, −q₁)`` is a symmetry);
- degree: the target is a polynomial of degree ``D ≤ max_order``, the student does not
  depend on ``e`` (or there is no PE) and every coefficient up to ``D`` vanishes (e.g.
  He₃ sums and ReLU, whose Hermite coefficients of odd order ≥ 3 are zero).

Otherwise, when every coefficient up to ``max_order`` vanishes, :class:`SIEUndetermined`
is raised.
"""
from __future__ import annotations

import itertools
import math
import warnings
from dataclasses import dataclass, field

import numpy as np
from numpy.polynomial import polynomial as npoly

from . import links
from .population import gauss_hermite_rule, sobol_normal_rule, split_normal_rule, tied_state

__all__ = [
    "hermite_e",
    "multi_indices",
    "polynomial_degree",
    "hermite_coefficients",
    "target_coefficients",
    "student_coefficients",
    "activation_coefficients",
    "taylor_coefficients",
    "sie",
    "sie_report",
    "SIEReport",
    "SIEUndetermined",
]

DEFAULT_MAX_ORDER = 6
DEFAULT_TOL = 1e-7
#: largest tensor grid used for coefficients of non-polynomial functions
COEF_BUDGET = 300_000


class SIEUndetermined(ValueError):
    """Every Taylor coefficient up to ``max_order`` vanishes and no argument covers higher orders."""


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


def _factorial(alpha) -> float:
    return float(np.prod([math.factorial(a) for a in alpha]))


def _as_matrix(values) -> np.ndarray:
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
        y = _as_matrix(fun(z0 + t[:, None] * v))
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
    base = _as_matrix(fun(Z))
    moved = np.repeat(Z[None], L, axis=0)
    idx = np.arange(L)
    moved[idx, :, idx] = rng.standard_normal((L, 6))
    vals = _as_matrix(fun(moved.reshape(-1, L))).reshape(L, 6, -1)
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
    f_z = _as_matrix(fun(Z))
    f_0 = _as_matrix(fun(np.zeros((1, L))))
    f_s = _as_matrix(fun(single.reshape(-1, L))).reshape(4, len(support), -1)
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
    scalar = _as_matrix(fun(np.zeros((1, L)))).shape[1] == 1
    if alphas is None:
        alphas = _default_alphas(fun, L, order, support)
    alphas = [tuple(a) for a in alphas]
    order = max([sum(a) for a in alphas] + [0])
    inside = [a for a in alphas if all(a[l] == 0 for l in range(L) if l not in support)]
    out = {a: 0.0 for a in alphas}
    if not support:
        val = _as_matrix(fun(np.zeros((1, L))))[0]
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
        f_0 = _as_matrix(fun(np.zeros((1, L))))[0]
        mean = -(S - 1) * f_0
        for l in support:
            z = np.zeros((x.shape[0], L))
            z[:, l] = x[:, 0]
            vals = _as_matrix(fun(z))
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
        vals = _as_matrix(fun(embed(pts)))
        coefs = _coefficients_on_points(vals, pts, w, [project(a) for a in inside], order)
        out.update({a: coefs[project(a)] for a in inside})
        return _finish(out, scalar)
    warnings.warn(f"Hermite coefficients of a non-polynomial function of {S} tokens by "
                  "quasi-Monte Carlo: expect errors of order 1e-3", stacklevel=2)
    sets = sobol_normal_rule(S, 15, 4, seed)
    pts = np.concatenate([sets.reshape(-1, S), -sets.reshape(-1, S)])   # antithetic
    w = np.full(pts.shape[0], 1.0 / pts.shape[0])
    vals = _as_matrix(fun(embed(pts)))
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
        v = _as_matrix(problem.student_value(q + e_tok))
        return v if power == 1 else np.sum(v * v, axis=1)

    return hermite_coefficients(fun, L, order, alphas=alphas, **kwargs)


# --- Taylor coefficients of R at the uninformative point ------------------------------
def _pe_operator(P, gamma):
    """Expansion of Π_j (Σ_l P_lj ∂_l)^{γ_j} as {β: coefficient}."""
    L, k = P.shape
    op = {(0,) * L: 1.0}
    for j in range(k):
        for _ in range(gamma[j]):
            new = {}
            for beta, c in op.items():
                for l in range(L):
                    if P[l, j] != 0:
                        b = list(beta)
                        b[l] += 1
                        b = tuple(b)
                        new[b] = new.get(b, 0.0) + c * P[l, j]
            op = new
    return op


def _dot(a, b):
    return float(np.dot(np.atleast_1d(a), np.atleast_1d(b)))


def taylor_coefficients(problem, max_order: int = DEFAULT_MAX_ORDER, *, include_pure_e: bool = True,
                        g_coef=None, **kwargs):
    """Taylor coefficients of the population loss at the uninformative point (science.md §4).

    Parameters
    ----------
    problem : Problem
    max_order : int
        Largest total degree.
    include_pure_e : bool
        Also compute the coefficients of monomials in ``e`` alone (tied students with PE).

    Returns
    -------
    dict
        Tied students: ``(i, γ) -> T`` for the monomial ``m^i ε^γ`` (γ a multi-index over
        the PE coordinates, empty without PE), ``1 ≤ i + |γ| ≤ max_order``.
        Untied students: ``α -> T`` for the monomial ``Π_l m_l^{α_l}``.
    """
    L = problem.L
    g = target_coefficients(problem, max_order) if g_coef is None else g_coef
    g_alphas = [a for a, c in g.items() if 0 < sum(a) and np.any(np.abs(c) > 0)]
    if not problem.tied:
        f = student_coefficients(problem, alphas=g_alphas, **kwargs)
        return {a: -_dot(g[a], f[a]) / _factorial(a) for a in g_alphas}
    P = problem.pe_matrix()
    k = P.shape[1]
    if k and math.comb(k + max_order, max_order) > MAX_INDICES:
        raise ValueError(f"a PE of rank {k} has more than {MAX_INDICES} Taylor monomials of degree "
                         f"≤ {max_order}; lower max_order")
    gammas = multi_indices(k, max_order - 1) if k else [()]
    ops = {gm: _pe_operator(P, gm) for gm in gammas}
    needed = set()
    for a in g_alphas:
        for gm in gammas:
            if sum(a) + sum(gm) <= max_order:
                for beta in ops[gm]:
                    needed.add(tuple(x + y for x, y in zip(a, beta)))
    pure = include_pure_e and k > 0
    pure_betas = set()
    if pure:
        for gm in multi_indices(k, max_order):
            if sum(gm) > 0:
                ops.setdefault(gm, _pe_operator(P, gm))
                pure_betas.update(ops[gm])
    f = student_coefficients(problem, alphas=sorted(needed | pure_betas), **kwargs)
    out = {}
    for i in range(1, max_order + 1):
        for gm in (g for g in gammas if i + sum(g) <= max_order):
            total = 0.0
            for a in (a for a in g_alphas if sum(a) == i):
                inner = sum(c * np.asarray(f[tuple(x + y for x, y in zip(a, beta))])
                            for beta, c in ops[gm].items())
                total += _dot(g[a], inner) / _factorial(a)
            out[(i, gm)] = -total / _factorial(gm)
    if pure:
        f2 = student_coefficients(problem, alphas=sorted(pure_betas), power=2, **kwargs)
        g0 = g[(0,) * L]
        for gm in multi_indices(k, max_order):
            if sum(gm) == 0:
                continue
            val = sum(c * (0.5 * np.sum(f2[beta]) - _dot(g0, f[beta])) for beta, c in ops[gm].items())
            out[(0, gm)] = float(val) / _factorial(gm)
    return out


# --- the SIE -----------------------------------------------------------------------
def _signed_permutations(L, tied):
    """Candidate symmetries (perm, signs) and whether they form a group."""
    if not tied:
        if L <= 10:
            return [(tuple(range(L)), s) for s in itertools.product((1, -1), repeat=L)], True
        sign_sets = [(1,) * L, (-1,) * L] + [tuple(-1 if i == l else 1 for i in range(L)) for l in range(L)]
        return [(tuple(range(L)), s) for s in sign_sets], False
    if L <= 4:
        return [(p, s) for p in itertools.permutations(range(L))
                for s in itertools.product((1, -1), repeat=L)], True
    if L <= 6:
        return [(p, (g,) * L) for p in itertools.permutations(range(L)) for g in (1, -1)], True
    perms = [tuple(range(L))]
    for i, j in itertools.combinations(range(L), 2):
        p = list(range(L))
        p[i], p[j] = j, i
        perms.append(tuple(p))
    return [(p, (g,) * L) for p in perms for g in (1, -1)], False


def _symmetry_proof(problem, seed=3):
    """A signed-permutation argument that the student never sees the target, or None."""
    if problem.n_out != 1:
        return None
    L = problem.L
    rng = np.random.default_rng(seed)
    Z = rng.standard_normal((8, L))
    P = problem.pe_matrix()
    eps_samples = [np.zeros(P.shape[1])] + [rng.standard_normal(P.shape[1]) for _ in range(3)] \
        if P.shape[1] else [np.zeros(0)]
    shifts = [P @ eps for eps in eps_samples]
    f = problem.student_value
    base = [f(Z + s) for s in shifts]
    scale = max(np.max(np.abs(b)) for b in base) + 1e-300
    candidates, is_group = _signed_permutations(L, problem.tied)
    found = []
    chunk = max(1, 200_000 // (Z.shape[0] * L))
    for start in range(0, len(candidates), chunk):
        block = candidates[start:start + chunk]
        perms = np.array([p for p, _ in block])
        signs = np.array([s for _, s in block], dtype=float)
        moved_Z = Z[:, perms].transpose(1, 0, 2) * signs[:, None, :]      # (block, 8, L)
        moved = [f((moved_Z + s).reshape(-1, L)).reshape(len(block), -1) for s in shifts]
        for i, (perm, sgn) in enumerate(block):
            for chi in (1, -1):
                if all(np.max(np.abs(mv[i] - chi * b)) <= 1e-10 * scale for mv, b in zip(moved, base)):
                    found.append((perm, sgn, chi))
                    break
    Zg = rng.standard_normal((8, L))
    g = problem.target_value
    g_Z = g(Zg)
    g_scale = np.max(np.abs(g_Z)) + 1e-300
    # g∘σ at the test points for every symmetry found, in blocks
    g_moved = []
    for start in range(0, len(found), chunk):
        block = found[start:start + chunk]
        perms = np.array([p for p, _, _ in block])
        signs = np.array([s for _, s, _ in block], dtype=float)
        moved_Z = Zg[:, perms].transpose(1, 0, 2) * signs[:, None, :]
        g_moved.append(g(moved_Z.reshape(-1, L)).reshape(len(block), -1))
    g_moved = np.concatenate(g_moved) if g_moved else np.zeros((0, Zg.shape[0]))
    chis = np.array([chi for _, _, chi in found], dtype=float)
    if is_group and np.max(np.abs(chis @ g_moved / len(found))) <= 1e-10 * g_scale:
        return f"the average of χ·g∘σ over the {len(found)} signed token permutations σ with f_e∘σ = χ f_e vanishes"
    identity = tuple(range(L))
    for i, (perm, signs, chi) in enumerate(found):
        involution = all(perm[perm[l]] == l and signs[l] * signs[perm[l]] == 1 for l in range(L))
        if involution and (perm != identity or any(x != 1 for x in signs)):
            if np.max(np.abs(g_Z + chi * g_moved[i])) <= 2e-10 * g_scale:
                return f"f_e∘σ = {chi:+d}·f_e and g∘σ = {-chi:+d}·g for σ = (perm {perm}, signs {signs})"
    return None


@dataclass
class SIEReport:
    """The SIE of a (target, student, PE) triple and the evidence behind it.

    Attributes
    ----------
    order : int or float
        SIE (overlap definition, see the module docstring); ``math.inf`` if never seen.
    joint_order : int or float
        Lowest degree of any non-zero Taylor coefficient, pure-``e`` ones included.
    descends : bool or None
        Whether the leading overlap form decreases along some direction with ``m ≠ 0``
        (False: ``m = 0`` is a local minimum of that form); None when ``order`` is inf.
    leading : dict
        The non-zero Taylor coefficients of degree ``order`` involving the overlap.
    coefficients : dict
        All computed Taylor coefficients (see :func:`taylor_coefficients`).
    reason : str
        Why ``order`` is what it is.
    threshold : float
        Modulus above which a coefficient counts as non-zero.
    """

    order: float
    joint_order: float
    descends: bool | None
    leading: dict
    coefficients: dict = field(repr=False)
    reason: str = ""
    threshold: float = 0.0


def _depends_on_e(problem):
    P = problem.pe_matrix()
    if P.shape[1] == 0:
        return False
    rng = np.random.default_rng(4)
    Z = rng.standard_normal((8, problem.L))
    shifted = problem.student_value(Z + P @ rng.standard_normal(P.shape[1]))
    return not np.allclose(shifted, problem.student_value(Z), rtol=1e-12, atol=1e-12)


def _degree(key, tied):
    return key[0] + sum(key[1]) if tied else sum(key)


def _involves_m(key, tied):
    return key[0] >= 1 if tied else True


def _descends(problem, leading, order):
    """Does the degree-``order`` form Σ T m^i ε^γ (i ≥ 1) take negative values?"""
    rng = np.random.default_rng(5)
    if problem.tied:
        k = problem.pe_matrix().shape[1]
        dirs = rng.standard_normal((4000, 1 + k))
        dirs = np.concatenate([dirs, np.eye(1 + k)[:1], -np.eye(1 + k)[:1]])
        vals = np.zeros(dirs.shape[0])
        for (i, gm), c in leading.items():
            vals += c * dirs[:, 0] ** i * np.prod(dirs[:, 1:] ** np.asarray(gm, int), axis=1)
    else:
        dirs = rng.standard_normal((4000, problem.L))
        dirs = np.concatenate([dirs, np.ones((1, problem.L)), -np.ones((1, problem.L))])
        vals = np.zeros(dirs.shape[0])
        for a, c in leading.items():
            vals += c * np.prod(dirs ** np.asarray(a, int), axis=1)
    scale = max(abs(c) for c in leading.values())
    return bool(np.min(vals) < -1e-9 * scale)


def sie_report(problem, *, max_order: int = DEFAULT_MAX_ORDER, tol: float = DEFAULT_TOL,
               **kwargs) -> SIEReport:
    """SIE of a problem with its evidence (definitions in the module docstring).

    Parameters
    ----------
    problem : Problem
    max_order : int
        Largest total degree examined (≥ 6 recommended).
    tol : float
        Relative threshold: a coefficient is non-zero when ``|T| > tol · ‖g‖ · ‖f‖``.

    Raises
    ------
    SIEUndetermined
        All coefficients up to ``max_order`` vanish and neither a symmetry nor the
        degree argument proves that they vanish at every order.
    ValueError
        For ``problem.loss == "frobenius"``: the expansion above is that of a squared loss
        ("mse" is a multiple of it and has the same SIE).
    """
    if problem.loss == "frobenius":
        raise ValueError("loss='frobenius' has no Hermite expansion of R (it is not a squared loss); "
                         "the SIE is defined for loss='half_square' or 'mse'")
    proof = _symmetry_proof(problem)
    if proof is not None:
        return SIEReport(math.inf, math.inf if not _depends_on_e(problem) else _joint_only(
            problem, max_order, tol, **kwargs), None, {}, {}, "symmetry: " + proof)
    g = target_coefficients(problem, max_order)
    coef = taylor_coefficients(problem, max_order, g_coef=g, **kwargs)
    threshold = _threshold(problem, tol, g_coef=g, **kwargs)
    tied = problem.tied
    nonzero = {key: c for key, c in coef.items() if abs(c) > threshold}
    overlap = [_degree(key, tied) for key in nonzero if _involves_m(key, tied)]
    joint = [_degree(key, tied) for key in nonzero]
    joint_order = min(joint) if joint else math.inf
    if overlap:
        order = min(overlap)
        leading = {key: c for key, c in nonzero.items()
                   if _involves_m(key, tied) and _degree(key, tied) == order}
        return SIEReport(order, joint_order, _descends(problem, leading, order), leading, coef,
                         f"lowest non-zero overlap coefficient has degree {order}", threshold)
    D = polynomial_degree(problem.target_value, problem.L)
    if D is not None and D <= max_order and not (tied and _depends_on_e(problem)):
        return SIEReport(math.inf, joint_order, None, {}, coef,
                         f"degree: the target is a polynomial of degree {D} and every overlap "
                         f"coefficient up to that degree vanishes", threshold)
    raise SIEUndetermined(
        f"every overlap coefficient up to degree {max_order} vanishes for {problem!r} and no "
        "symmetry or degree argument covers the higher orders; increase max_order")


def _threshold(problem, tol, g_coef=None, **kwargs):
    """tol · ‖g‖ · ‖f‖ with the L²(Gaussian) norms E|g|², E|f|².

    E|g|² = Σ_α |c_α(g)|²/α! when g is a polynomial of degree within ``g_coef``,
    otherwise by quadrature.
    """
    L = problem.L
    zero = (0,) * L
    D = polynomial_degree(problem.target_value, L)
    if g_coef is not None and D is not None and D <= max(sum(a) for a in g_coef):
        g2 = sum(float(np.sum(np.square(c))) / _factorial(a) for a, c in g_coef.items())
    else:
        g2 = hermite_coefficients(lambda z: np.sum(_as_matrix(problem.target_value(z)) ** 2, axis=1), L,
                                  alphas=[zero])[zero]
    f2 = student_coefficients(problem, alphas=[zero], power=2, **kwargs)[zero]
    return tol * math.sqrt(max(float(np.sum(g2)), 1e-300) * max(float(np.sum(f2)), 1e-300))


def _joint_only(problem, max_order, tol, **kwargs):
    coef = taylor_coefficients(problem, max_order, **kwargs)
    threshold = _threshold(problem, tol, **kwargs)
    degrees = [_degree(k, True) for k, c in coef.items() if abs(c) > threshold]
    return min(degrees) if degrees else math.inf


def sie(problem, *, max_order: int = DEFAULT_MAX_ORDER, tol: float = DEFAULT_TOL,
        definition: str = "overlap", **kwargs):
    """Sequence Information Exponent of a (target, student, PE) triple (science.md §4).

    Parameters
    ----------
    problem : Problem
    max_order : int, default 6
        Largest total degree examined.
    tol : float, default 1e-7
        Relative threshold for a non-zero Taylor coefficient (see the module docstring).
    definition : {"overlap", "joint"}
        "overlap" (default): lowest degree of a non-zero Taylor coefficient of R at
        (m, e) = (0, 0) involving ``m``. "joint": lowest degree of any non-zero
        coefficient, pure-``e`` monomials included (the literal reading of science.md §4).

    Returns
    -------
    int or float
        The SIE, or ``math.inf`` when the student provably never sees the target.

    Raises
    ------
    SIEUndetermined
        See :func:`sie_report`.
    """
    if definition not in ("overlap", "joint"):
        raise ValueError(f"definition={definition!r} is unknown; allowed: overlap, joint")
    report = sie_report(problem, max_order=max_order, tol=tol, **kwargs)
    return report.order if definition == "overlap" else report.joint_order
