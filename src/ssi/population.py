"""Population loss R(m, e) and the Gaussian expectations behind the ODE
(docs/theory.md, "Sufficient statistics and population loss" and "The ODE").

State conventions
-----------------
Tied students (attention, tied feed-forward, matched), docs/theory.md, "Sufficient statistics and population loss":
    ``m = w·w*/d`` and the positional-encoding overlaps ``e``. The per-token shifts are
    ``e_l = p_l·w/√d``; they are given through their coordinates ``ε`` in the orthonormal
    basis of span(p_1..p_L) of :meth:`Problem.pe_matrix` (``e_tokens = P ε``):

    - ``pe="none"``: no ``e`` (must be 0);
    - ``pe="opposite"``: a scalar per state, ``e = e_1`` (and ``e_2 = −e_1``);
    - ``pe="orthonormal"``: a vector ``(..., L)`` of the ``e_l``.

    Pre-activations ``q_l = m z*_l + √(1−m²) ξ_l + e_l`` with ``z*, ξ`` i.i.d. N(0, 1).
Untied feed-forward students:
    ``m`` is ``(..., L)`` with ``m_l = w_l·w*/d`` and ``Q`` is ``(..., L)`` with
    ``Q_l = |w_l|²/d`` (default 1); ``z_l = m_l z*_l + √(Q_l − m_l²) ξ_l`` and ``q = z``.

Every quantity here is an expectation, over the same 2L Gaussians, of a function of
``Problem.loss_and_grad(z*, q)``; :func:`expectations` computes all of them with one
integration rule:

- attention and matched students: Gauss–Hermite tensor quadrature when 2L ≤ 6, over
  ``z`` (the student's pre-activations) and ``η`` with ``z* = m z + √(1−m²) η``; a
  polynomial side (target or student) gets the exact number of points, the other side
  the rest of a point budget. Scrambled-Sobol quasi-Monte Carlo when 2L > 6, and when
  neither side is a polynomial (the softmax "mixture" target with attention or matched
  students): softmax links are smooth but steep at large ``|q|``, tensor Gauss–Hermite
  then converges only algebraically (≈ 1 % on ``E[a²]`` at 26 points per axis);
- feed-forward students depend on ``q`` only through ``h = (1/√L) Σ_l q_l``. With a
  polynomial target (every registry target a feed-forward student accepts) the moments
  are 1-D integrals over ``x = h/σ_h``: conditional expectations of Hermite polynomials
  given ``x`` are explicit (``E[He_α(w) | v·w = x] = v^α He_{|α|}(x)``), so the target's
  finite Hermite expansion (and that of g², by the product formula) turns every moment
  into the activation times a polynomial in x. The x axis uses two Gauss rules for the
  normal law cut at the kink of the activation (``h = 0``), so ReLU is integrated
  exactly, at a cost independent of L. Otherwise (or with ``method="gh"``/``"qmc"``) the
  integral runs over ``x`` and ``ζ ∈ R^L`` (``z*`` given ``h``), ζ by Gauss–Hermite when
  ``L ≤ 5`` and quasi-Monte Carlo otherwise (2**(qmc_log2 − 4) ζ points per scrambling,
  each carrying the 2·16 nodes of the h axis). Plain Gauss–Hermite in ``(z*, ξ)`` is
  useless for ReLU at small ``m``: the kink hyperplane barely moves with ``m`` and the
  slope of ``E[a z*]`` in ``m`` is lost.

Quasi-Monte Carlo estimates come with a standard error from independent scramblings.
The rules are in :mod:`ssi.quadrature`, the broadcasting of states in :mod:`ssi.state`, the
exact feed-forward path in :mod:`ssi.population_hermite`.

Other per-sample losses (``Problem.loss``, docs/theory.md, "The authors' conventions"):
"mse" is ``(2/n_out)`` times the half-square loss, so the Hermite feed-forward path
rescales its moments (loss and ``E[a ·]`` by ``2/n_out``, ``E[a²]`` by its square);
"frobenius" ``‖f − g‖`` is not polynomial on either side, so it takes the general paths
(no exact axis; quasi-Monte Carlo by default, Gauss–Hermite with ``method="gh"``).
"""
from __future__ import annotations

import math
import types
from dataclasses import dataclass, replace
from functools import lru_cache, partial

import numpy as np
from numba import njit

from . import links
from .hermite_expansion import polynomial_degree
from .kernels import compiled_kernels, rebind, user_functions
from .population_hermite import HermiteFeedForward
from .problems import check_array, check_choice, check_number, check_problem
from .quadrature import (FF_X_POINTS, QMC_LOG2, QMC_REPS, gauss_hermite_rule, sobol_normal_rule,
                         split_normal_rule)
from .state import tied_state, untied_state

__all__ = [
    "Moments",
    "expectations",
    "population_loss",
    "population_gradient",
    "tied_state",
    "gauss_hermite_rule",
    "sobol_normal_rule",
    "split_normal_rule",
]


#: largest tensor Gauss–Hermite grid chosen by default (points)
GH_BUDGET = 500_000


#: ζ-axis Gauss–Hermite points of the feed-forward path (exact for targets of degree ≤ 4)
FF_ZETA_POINTS = 7


def _is_feedforward(problem) -> bool:
    return problem.codes[2] == links.S_FEEDFORWARD


# --- the moments -------------------------------------------------------------------
@dataclass(frozen=True)
class Moments:
    """Gaussian expectations at a set of states (docs/theory.md, "The ODE").

    Attributes
    ----------
    loss : ndarray, shape S
        Population loss ``R = E ℓ``.
    a_zstar, a_q, a_xi, a, a2 : ndarray, shape S + (L,)
        ``E[a_l z*_l]``, ``E[a_l q_l]``, ``E[a_l ξ_l]``, ``E[a_l]``, ``E[a_l²]`` per token,
        with ``a_l = ∂ℓ/∂q_l`` and ``ξ`` the standardised noise of the student's
        pre-activation (tied: ``z = m z* + √(1−m²) ξ``; untied: ``z_l = m_l z*_l + √(Q_l−m_l²) ξ_l``).
        For untied students ``q = z``.
    stderr : Moments or None
        Standard errors (quasi-Monte Carlo), None for quadrature.
    """

    loss: np.ndarray
    a_zstar: np.ndarray
    a_q: np.ndarray
    a_xi: np.ndarray
    a: np.ndarray
    a2: np.ndarray
    stderr: "Moments | None" = None

    @property
    def nu(self):
        """ν = E[Σ_l a_l²]."""
        return self.a2.sum(-1)

    @property
    def sum_a_zstar(self):
        """E[Σ_l a_l z*_l]."""
        return self.a_zstar.sum(-1)

    @property
    def sum_a_q(self):
        """E[Σ_l a_l q_l]."""
        return self.a_q.sum(-1)

    @property
    def sum_a_xi(self):
        """E[Σ_l a_l ξ_l]."""
        return self.a_xi.sum(-1)


_FIELDS = ("loss", "a_zstar", "a_q", "a_xi", "a", "a2")


def reduce_points(problem, zstar, q, z, xi, e_tok, weights, n_rep):
    """Weighted means of the per-point integrands; returns (mean, stderr) vectors.

    ``weights`` sum to one within each of the ``n_rep`` consecutive blocks of points.
    """
    loss, a = problem.loss_and_grad(zstar, q)
    cols = [loss[:, None], a * zstar, a * (z + e_tok), a * xi, a, a * a]
    vals = np.concatenate(cols, axis=1) * weights[:, None]
    per = vals.reshape(n_rep, -1, vals.shape[1]).sum(axis=1)
    if n_rep == 1:
        return per[0], None
    return per.mean(axis=0), per.std(axis=0, ddof=1) / math.sqrt(n_rep)


def _ff_points(m_vec, c_vec, shift, n_x, zeta_pts, zeta_w):
    """Points and weights of the feed-forward path for one state.

    With ``z_l = m_l z*_l + c_l ξ_l`` and ``h = (1/√L) Σ_l z_l`` (the student sees
    ``h + shift``, shift = (1/√L) Σ_l e_l), integrate over ``x = h/σ_h`` with a Gauss rule
    split at the kink ``h + shift = 0`` and over ``ζ``, where
    ``z* = β x + (I − ββᵀ)^{1/2} ζ`` with ``β = Cov(z*, h)/σ_h`` is z* given h.
    The moments are linear in ξ, so only ``E[ξ_l | z*, h] = c_l √L (h − b·z*)/|c|²``
    (b = m/√L) is needed.

    ``zeta_pts`` is (n_rep, n_z, L) and ``zeta_w`` (n_z,) weights summing to one.
    """
    L = m_vec.size
    b = m_vec / math.sqrt(L)
    c2 = c_vec * c_vec
    sd_h = math.sqrt(b @ b + c2.sum() / L)
    beta = b / sd_h
    nb2 = beta @ beta
    xs, wx = split_normal_rule(round(float(-shift / sd_h), 13), n_x)
    n_rep, nz = zeta_pts.shape[:2]
    if nb2 > 0:
        # (I − ββᵀ)^{1/2} ζ = ζ − (1 − √(1 − |β|²)) (β̂·ζ) β̂
        bhat = beta / math.sqrt(nb2)
        shrink = 1 - math.sqrt(max(1 - nb2, 0.0))
        zc = zeta_pts - shrink * (zeta_pts @ bhat)[..., None] * bhat
    else:
        zc = zeta_pts
    zstar = (beta * xs[:, None, None] + zc[:, None, :, :]).reshape(-1, L)
    h = np.broadcast_to((sd_h * xs)[None, :, None], (n_rep, xs.size, nz)).reshape(-1)
    r = h - zstar @ b                      # = (1/√L) Σ_l c_l ξ_l
    csum = c2.sum()
    xi = (math.sqrt(L) / csum) * r[:, None] * c_vec if csum > 0 else np.zeros_like(zstar)
    z = m_vec * zstar + c_vec * xi
    # the student sees only Σ_l q_l/√L = h + shift: put it in every token
    q = np.repeat(((h + shift) / math.sqrt(L))[:, None], L, axis=1)
    weights = np.tile(np.outer(wx, zeta_w).reshape(-1), n_rep)
    return zstar, q, z, xi, weights


@njit(cache=True)
def grid_moments(tcode, tparams, scode, sparams, lcode, Z, wz, E, we, product, m, s, e_tok):
    """Weighted sums of (ℓ, a z*, a q, a ξ, a, a²) over points z (rows of Z) and η (rows of E).

    The pre-activations are z, the teacher's z* = m z + s η (so that ξ = s z − m η and
    z = m z* + s ξ), q = z + e. With ``product`` the points are the tensor product of the
    two sets (weights wz_i we_j); otherwise row i of Z goes with row i of E (weight wz_i).
    """
    L = Z.shape[1]
    out = np.zeros(1 + 5 * L)
    zs = np.empty(L)
    q = np.empty(L)
    xi = np.empty(L)
    a = np.empty(L)
    work = np.zeros((4, L, L))   # scratch of links.loss_and_grad (links.scratch)
    for i in range(Z.shape[0]):
        j0 = 0 if product else i
        j1 = E.shape[0] if product else i + 1
        for j in range(j0, j1):
            w = wz[i] * we[j] if product else wz[i]
            for l in range(L):
                zs[l] = m * Z[i, l] + s * E[j, l]
                xi[l] = s * Z[i, l] - m * E[j, l]
                q[l] = Z[i, l] + e_tok[l]
            loss = links.loss_and_grad(tcode, tparams, scode, sparams, zs, q, a, work, lcode)
            out[0] += w * loss
            for l in range(L):
                wa = w * a[l]
                out[1 + l] += wa * zs[l]
                out[1 + L + l] += wa * q[l]
                out[1 + 2 * L + l] += wa * xi[l]
                out[1 + 3 * L + l] += wa
                out[1 + 4 * L + l] += wa * a[l]
    return out


def moments_kernel(problem):
    """The compiled :func:`grid_moments` for ``problem``: the registry's (looked up at each call), a
    copy compiled with a user's target or activation inlined (:mod:`ssi.kernels`), or None for a
    user's target that numba cannot compile (then :func:`python_grid_moments`)."""
    key = user_functions(problem)
    if key is None:
        return grid_moments
    if key[0] is not None and key[0].compiled is None:
        return None
    return _user_moments_kernel(*key)


@lru_cache(maxsize=32)
def _user_moments_kernel(spec, L, matched, activation):
    # grid_moments reaches the per-sample kernel as links.loss_and_grad: a stand-in module
    links_view = types.ModuleType("ssi.links (custom target)")
    links_view.loss_and_grad = compiled_kernels(spec, L, matched, activation).loss_and_grad
    return rebind(grid_moments, links=links_view)


def python_grid_moments(tcode, tparams, scode, sparams, lcode, Z, wz, E, we, product, m, s, e_tok, *, problem):
    """:func:`grid_moments` in numpy, through ``problem.loss_and_grad`` (the Python path of :mod:`ssi.kernels`)."""
    if product:
        Zp = np.repeat(Z, E.shape[0], axis=0)
        Ep = np.tile(E, (Z.shape[0], 1))
        w = np.outer(wz, we).reshape(-1)
    else:
        Zp, Ep, w = Z, E, wz
    zstar, xi = m * Zp + s * Ep, s * Zp - m * Ep
    return reduce_points(problem, zstar, Zp + e_tok, Zp, xi, e_tok[None, :], w, 1)[0]


def _axis_points(degree, points):
    """Gauss–Hermite points per axis that integrate a polynomial integrand exactly (None: not polynomial)."""
    return None if degree is None else max(2, points(degree))


class Integrator:
    """Chooses and holds the integration rule of a problem (see the module docstring)."""

    def __init__(self, problem, *, n_points=None, method="auto", budget=GH_BUDGET,
                 qmc_log2=QMC_LOG2, qmc_reps=QMC_REPS, seed=0, n_x=FF_X_POINTS):
        if method not in ("auto", "gh", "qmc"):
            raise ValueError(f"method={method!r} is unknown; allowed: auto, gh, qmc")
        self.problem = problem
        L = problem.L
        self.ff = _is_feedforward(problem)
        self.n_x = n_x
        dim = L if self.ff else 2 * L
        self.hermite = None
        squared = problem.loss != "frobenius"
        if self.ff:
            deg_g = polynomial_degree(problem.target_value, L) if method == "auto" and squared else None
            if deg_g:   # a polynomial target of degree ≥ 1 (σ' is read off two target values)
                # the expansion is of ½(σ − g)²; "mse" is (2/n_out)·half_square: rescale the moments
                half = problem if problem.loss == "half_square" else replace(problem, loss="half_square")
                self.hermite, self.method, self.n_rep = HermiteFeedForward(half, deg_g, n_x), "hermite", 1
                c = 2.0 / problem.n_out if problem.loss == "mse" else 1.0
                self.hermite_scale = np.concatenate([[c], np.full(4 * L, c), np.full(L, c * c)])
                return
            # the Frobenius loss has a kink where σ = g, off the split of the h axis: QMC by default
            use_gh = method == "gh" or (method == "auto" and L <= 5 and squared)
        elif squared:
            deg_g = polynomial_degree(problem.target_value, L)
            deg_f = polynomial_degree(problem.student_value, L)
            # when neither side is a polynomial (softmax target and student) scrambled Sobol
            # beats the tensor grid at equal cost: measured on the mixture target, 2^14 × 8
            # points give the ODE trajectory to 1e-3, a 21^4-point grid to 4e-3
            smooth_side = deg_g is not None or deg_f is not None
            use_gh = method == "gh" or (method == "auto" and dim <= 6 and smooth_side)
        else:
            # the Frobenius loss ‖f − g‖ is not a polynomial on either side (a kink where f = g):
            # no side is integrated exactly, and by default scrambled Sobol gives an error bar
            deg_g = deg_f = None
            use_gh = method == "gh"
        self.method = "gh" if use_gh else "qmc"
        if not use_gh:
            # feed-forward: each ζ point carries the 2·n_x nodes of the h axis
            log2 = max(qmc_log2 - 4, 6) if self.ff else qmc_log2
            self.points = sobol_normal_rule(dim, log2, qmc_reps, seed)
            self.w = np.full(self.points.shape[1], 1.0 / self.points.shape[1])
            self.n_rep = self.points.shape[0]
            return
        self.n_rep = 1
        if self.ff:
            pts, w = gauss_hermite_rule(L, int(n_points or FF_ZETA_POINTS))
            self.points, self.w = pts[None], w
            return
        # attention / matched: a tensor grid over z (student side) and η (teacher side).
        # Polynomial sides are integrated exactly: with D = max(deg f, deg g) the integrands
        # have degree ≤ 2 deg g + 2 in η and ≤ 4D − 1 in z (a² = (f − g)² |∂f|², a ξ, ...).
        n_eta = _axis_points(deg_g, lambda k: k + 2)
        n_z = None if deg_f is None or deg_g is None else max(2, 2 * max(deg_f, deg_g) + 1)
        fixed = (n_eta ** L if n_eta else 1) * (n_z ** L if n_z else 1)
        free_dims = L * ((n_eta is None) + (n_z is None))
        if free_dims:
            n_free = n_points or int(min(80, max(6, math.floor((budget / fixed) ** (1 / free_dims)))))
            n_eta, n_z = n_eta or n_free, n_z or n_free
        self.Z, self.wz = gauss_hermite_rule(L, n_z)
        self.E, self.we = gauss_hermite_rule(L, n_eta)

    def tied(self, m, e_tok):
        L = self.problem.L
        s = math.sqrt(max(1.0 - m * m, 0.0))
        if self.hermite is not None:
            vec, _ = self.hermite.moments(np.full(L, m), np.full(L, s), e_tok)
            return vec * self.hermite_scale, None
        if self.ff:
            zs, q, z, xi, w = _ff_points(np.full(L, m), np.full(L, s), e_tok.sum() / math.sqrt(L),
                                         self.n_x, self.points, self.w)
            return reduce_points(self.problem, zs, q, z, xi, e_tok[None, :], w, self.n_rep)
        tcode, tparams, scode, sparams = self.problem.codes
        lcode = self.problem.loss_code
        e_tok = np.ascontiguousarray(e_tok, dtype=float)
        grid = moments_kernel(self.problem)
        if grid is None:        # a user's target that numba cannot compile (ssi.custom): the same sums in numpy
            grid = partial(python_grid_moments, problem=self.problem)
        if self.method == "gh":
            return grid(tcode, tparams, scode, sparams, lcode, self.Z, self.wz, self.E, self.we,
                        True, m, s, e_tok), None
        per = np.array([
            grid(tcode, tparams, scode, sparams, lcode, np.ascontiguousarray(X[:, :L]), self.w,
                 np.ascontiguousarray(X[:, L:]), self.w, False, m, s, e_tok)
            for X in self.points])
        return per.mean(axis=0), per.std(axis=0, ddof=1) / math.sqrt(self.n_rep)

    def untied(self, m_vec, Q_vec):
        c_vec = np.sqrt(np.maximum(Q_vec - m_vec * m_vec, 0.0))
        if self.hermite is not None:
            vec, _ = self.hermite.moments(m_vec, c_vec, np.zeros(self.problem.L))
            return vec * self.hermite_scale, None
        zs, q, z, xi, w = _ff_points(m_vec, c_vec, 0.0, self.n_x, self.points, self.w)
        return reduce_points(self.problem, zs, q, z, xi, np.zeros((1, self.problem.L)), w, self.n_rep)


@lru_cache(maxsize=64)
def integrator(problem, n_points, method, budget, qmc_log2, qmc_reps, seed):
    """The :class:`Integrator` of ``problem`` with these options, built once per process."""
    return Integrator(problem, n_points=n_points, method=method, budget=budget,
                       qmc_log2=qmc_log2, qmc_reps=qmc_reps, seed=seed)


def expectations(problem, m, e=0.0, *, Q=None, n_points=None, method="auto", budget=GH_BUDGET,
                 qmc_log2=QMC_LOG2, qmc_reps=QMC_REPS, seed=0) -> Moments:
    """Population loss and the Gaussian expectations of the ODE at a set of states.

    Parameters
    ----------
    problem : Problem
    m : array_like
        Tied: overlaps ``m`` (any shape). Untied: ``(..., L)`` overlaps ``m_l``
        (a scalar is repeated over tokens).
    e : array_like, default 0
        Tied only: PE overlaps (opposite PE: ``e_1`` per state; orthonormal: ``(..., L)``).
    Q : array_like, optional
        Untied only: ``(..., L)`` squared norms ``Q_l = |w_l|²/d`` (default 1).
    n_points : int, optional
        Gauss–Hermite points per axis: attention/matched, of the non-polynomial side(s)
        of the ``(z, η)`` grid (default the largest ≤ 80 within ``budget`` points);
        feed-forward, of the ζ grid (default 7).
    method : {"auto", "gh", "qmc"}
        Integration method; "auto" as in the module docstring.
    budget : int
        Largest default Gauss–Hermite grid.
    qmc_log2, qmc_reps, seed : int
        Quasi-Monte Carlo: ``2**qmc_log2`` points per scrambling, ``qmc_reps`` scramblings.

    Returns
    -------
    Moments
        Arrays with the shape of the broadcast state (plus a token axis).
    """
    check_problem(problem)
    check_array("m", m)
    check_array("e", e)
    check_array("Q", Q, optional=True)
    check_number("n_points", n_points, low=1, integer=True, optional=True)
    check_choice("method", method, ("auto", "gh", "qmc"))
    for name, value in (("budget", budget), ("qmc_log2", qmc_log2), ("qmc_reps", qmc_reps), ("seed", seed)):
        check_number(name, value, low=1 if name != "seed" else 0, integer=True)
    integ = integrator(problem, n_points, method, budget, qmc_log2, qmc_reps, seed)
    L = problem.L
    if problem.tied:
        if Q is not None:
            raise ValueError("Q is only used for untied students")
        shape, m_flat, _, e_tok = tied_state(problem, m, e)
        results = [integ.tied(float(mi), ei) for mi, ei in zip(m_flat, e_tok)]
    else:
        if np.any(np.asarray(e) != 0):
            raise ValueError("untied students have no positional encoding: e must be 0")
        shape, m_flat, Q_flat = untied_state(problem, m, Q)
        results = [integ.untied(mi, Qi) for mi, Qi in zip(m_flat, Q_flat)]
    return _pack(results, shape, L)


def _pack(results, shape, L):
    def build(vecs):
        vecs = np.array(vecs).reshape(shape + (1 + 5 * L,))
        parts = [vecs[..., 0]] + [vecs[..., 1 + i * L:1 + (i + 1) * L] for i in range(5)]
        return dict(zip(_FIELDS, parts))

    means = build([r[0] for r in results])
    if results and results[0][1] is not None:
        return Moments(**means, stderr=Moments(**build([r[1] for r in results])))
    return Moments(**means)


def population_loss(problem, m, e=0.0, *, Q=None, n_points=None, method="auto", **kwargs):
    """Population loss ``R = E ℓ`` (docs/theory.md, "Sufficient statistics and population loss"), vectorised over states.

    ``ℓ`` is the problem's per-sample loss: ``½‖f(q) − g(z*)‖²`` by default, ``(2/n_out)``
    times that for ``loss="mse"``, ``‖f(q) − g(z*)‖`` for ``loss="frobenius"``.

    Parameters
    ----------
    problem : Problem
    m, e, Q
        State, in the conventions of the module docstring: tied students take ``m``
        and ``e`` (opposite PE: ``e = e_1``; orthonormal: ``(..., L)``); untied students
        take ``m`` and ``Q`` of shape ``(..., L)``.
    n_points, method, **kwargs
        Integration options of :func:`expectations`.

    Returns
    -------
    ndarray
        ``R`` with the broadcast shape of the states.
    """
    return expectations(problem, m, e, Q=Q, n_points=n_points, method=method, **kwargs).loss


def population_gradient(problem, m, e=0.0, **kwargs):
    """Gradient of the tied population loss in ``(m, ε)`` on the sphere (docs/theory.md, "The ODE").

    ``∂_m R = E[Σ_l a_l (z*_l − m ξ_l/√(1−m²))]`` and ``∂R/∂ε_j = Σ_l P_lj E[a_l]`` where
    ``ε`` are the PE coordinates (opposite PE: ``e_1``).

    Returns
    -------
    dR_dm : ndarray, shape S
    dR_de : ndarray, shape S + (k,)
        ``k`` = rank of the PE (0, 1 or L).
    """
    if not problem.tied:
        raise ValueError("population_gradient is defined for tied students")
    mom = expectations(problem, m, e, **kwargs)
    m_arr = np.broadcast_to(np.asarray(m, float), mom.loss.shape)
    s = np.sqrt(np.maximum(1 - m_arr ** 2, 1e-300))
    dm = mom.sum_a_zstar - m_arr * mom.sum_a_xi / s
    de = mom.a @ problem.pe_matrix()
    return dm, de

