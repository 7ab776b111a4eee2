"""The Sequence Information Exponent (docs/theory.md, "Hermite expansions and the SIE").

The Hermite coefficients it is built from, and their conventions, are in
:mod:`ssi.hermite_expansion`.

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
from dataclasses import dataclass, field

import numpy as np

from .hermite_expansion import (DEFAULT_MAX_ORDER, MAX_INDICES, alpha_factorial, as_matrix, hermite_coefficients,
                                multi_indices, polynomial_degree, student_coefficients, target_coefficients)
from .problems import check_choice, check_number, check_problem

__all__ = ["taylor_coefficients", "sie", "sie_report", "SIEReport", "SIEUndetermined"]

DEFAULT_TOL = 1e-7


class SIEUndetermined(ValueError):
    """Every Taylor coefficient up to ``max_order`` vanishes and no argument covers higher orders."""


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
    """Taylor coefficients of the population loss at the uninformative point (docs/theory.md, "Hermite expansions and the SIE").

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
        return {a: -_dot(g[a], f[a]) / alpha_factorial(a) for a in g_alphas}
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
                total += _dot(g[a], inner) / alpha_factorial(a)
            out[(i, gm)] = -total / alpha_factorial(gm)
    if pure:
        f2 = student_coefficients(problem, alphas=sorted(pure_betas), power=2, **kwargs)
        g0 = g[(0,) * L]
        for gm in multi_indices(k, max_order):
            if sum(gm) == 0:
                continue
            val = sum(c * (0.5 * np.sum(f2[beta]) - _dot(g0, f[beta])) for beta, c in ops[gm].items())
            out[(0, gm)] = float(val) / alpha_factorial(gm)
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


def _check_sie_arguments(problem, max_order, tol):
    check_problem(problem)
    check_number("max_order", max_order, low=1, integer=True)
    check_number("tol", tol, low=0, low_open=True)


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
    _check_sie_arguments(problem, max_order, tol)
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
        g2 = sum(float(np.sum(np.square(c))) / alpha_factorial(a) for a, c in g_coef.items())
    else:
        g2 = hermite_coefficients(lambda z: np.sum(as_matrix(problem.target_value(z)) ** 2, axis=1), L,
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
    """Sequence Information Exponent of a (target, student, PE) triple (docs/theory.md, "Hermite expansions and the SIE").

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
        coefficient, pure-``e`` monomials included (the literal reading of "the joint Taylor expansion").

    Returns
    -------
    int or float
        The SIE, or ``math.inf`` when the student provably never sees the target.

    Raises
    ------
    SIEUndetermined
        See :func:`sie_report`.
    """
    _check_sie_arguments(problem, max_order, tol)
    check_choice("definition", definition, ("overlap", "joint"))
    report = sie_report(problem, max_order=max_order, tol=tol, **kwargs)
    return report.order if definition == "overlap" else report.joint_order

