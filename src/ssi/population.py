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

Other per-sample losses (``Problem.loss``, docs/theory.md, "The authors' conventions"):
"mse" is ``(2/n_out)`` times the half-square loss, so the Hermite feed-forward path
rescales its moments (loss and ``E[a ·]`` by ``2/n_out``, ``E[a²]`` by its square);
"frobenius" ``‖f − g‖`` is not polynomial on either side, so it takes the general paths
(no exact axis; quasi-Monte Carlo by default, Gauss–Hermite with ``method="gh"``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache, partial

import numpy as np
from numpy.polynomial.hermite_e import hermegauss
from numpy.polynomial.legendre import leggauss
from numba import njit

from . import links

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


def _gauss_from_discrete(x, w, n):
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
        xn, wn = _gauss_from_discrete(x, wx, n)
        nodes.append(xn)
        weights.append(wn)
    nodes, weights = np.concatenate(nodes), np.concatenate(weights)
    weights = weights / weights.sum()
    nodes.flags.writeable = False
    weights.flags.writeable = False
    return nodes, weights


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


def _untied_state(problem, m, Q):
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


def _reduce(problem, zstar, q, z, xi, e_tok, weights, n_rep):
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
def _grid_moments(tcode, tparams, scode, sparams, lcode, Z, wz, E, we, product, m, s, e_tok):
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


def _python_grid_moments(tcode, tparams, scode, sparams, lcode, Z, wz, E, we, product, m, s, e_tok, *, problem):
    """:func:`_grid_moments` in numpy, through ``problem.loss_and_grad`` (the Python path of ssi.custom)."""
    if product:
        Zp = np.repeat(Z, E.shape[0], axis=0)
        Ep = np.tile(E, (Z.shape[0], 1))
        w = np.outer(wz, we).reshape(-1)
    else:
        Zp, Ep, w = Z, E, wz
    zstar, xi = m * Zp + s * Ep, s * Zp - m * Ep
    return _reduce(problem, zstar, Zp + e_tok, Zp, xi, e_tok[None, :], w, 1)[0]


def _axis_points(degree, points):
    """Gauss–Hermite points per axis that integrate a polynomial integrand exactly (None: not polynomial)."""
    return None if degree is None else max(2, points(degree))


def _sparse(alpha):
    """Multi-index as a tuple of (token, degree) pairs with degree > 0."""
    return tuple((l, k) for l, k in enumerate(alpha) if k)


def _hermite_product(p1, p2):
    """Expansion of the product of two Hermite expansions {sparse α: a_α} (f = Σ a_α He_α).

    Token by token, He_m He_n = Σ_k C(m,k) C(n,k) k! He_{m+n−2k}.
    """
    out = {}
    for a, ca in p1.items():
        for b, cb in p2.items():
            da, db = dict(a), dict(b)
            terms = [((), ca * cb)]
            for l in sorted(set(da) | set(db)):
                m, n = da.get(l, 0), db.get(l, 0)
                opts = [(m + n - 2 * k, math.comb(m, k) * math.comb(n, k) * math.factorial(k))
                        for k in range(min(m, n) + 1)]
                terms = [(t + (((l, d),) if d else ()), c * w) for t, c in terms for d, w in opts]
            for t, c in terms:
                out[t] = out.get(t, 0.0) + c
    return {t: c for t, c in out.items() if c != 0.0}


class _Expansion:
    """A finite Hermite expansion in padded arrays: ρ^α and |α| for many α at once."""

    def __init__(self, terms):
        self.coef = np.array(list(terms.values()), dtype=float)
        width = max([len(t) for t in terms] + [1])
        self.idx = np.zeros((len(terms), width), dtype=int)
        self.pow = np.zeros((len(terms), width), dtype=int)
        for i, t in enumerate(terms):
            for j, (l, k) in enumerate(t):
                self.idx[i, j], self.pow[i, j] = l, k
        self.degree = self.pow.sum(axis=1)

    def powers(self, rho):
        """ρ^α for every term."""
        return np.prod(rho[self.idx] ** self.pow, axis=1)


class _HermiteFeedForward:
    """Feed-forward moments for a polynomial target, as 1-D integrals over x = h/σ_h.

    ``x`` is the standardised student pre-activation, a unit combination ``v·w`` of
    ``w = (z*, ξ)`` with ``v = (m/√L, c/√L)/σ_h``. For Hermite polynomials of w,
    ``E[He_α(w) | v·w = x] = v^α He_{|α|}(x)``; with the finite expansions of g and g²
    (product formula) and ``z*_l He_α = He_{α+e_l} + α_l He_{α−e_l}`` every moment becomes
    an integral over x of the activation times a polynomial in x, done with the split rule.
    Exact for polynomial targets, with a cost independent of L.
    """

    def __init__(self, problem, degree, n_x):
        from .hermite import target_coefficients

        self.problem, self.n_x = problem, n_x
        L = problem.L
        coef = target_coefficients(problem, degree)
        terms = {}
        for alpha, c in coef.items():
            c = c / np.prod([math.factorial(k) for k in alpha])
            if c != 0.0:
                terms[_sparse(alpha)] = c
        terms = terms or {(): 0.0}
        self.g = _Expansion(terms)
        self.g2 = _Expansion(_hermite_product(terms, terms))
        # entries (term, token, power) for z*_l He_α ∋ α_l He_{α−e_l}
        rows, toks, pows = [], [], []
        for i, t in enumerate(terms):
            for l, k in t:
                rows.append(i), toks.append(l), pows.append(k)
        self.down_row = np.array(rows, dtype=int)
        self.down_tok = np.array(toks, dtype=int)
        self.down_k = np.array(pows, dtype=float)
        self.down_pow = self.g.pow[self.down_row].copy()
        for e, (i, l) in enumerate(zip(rows, toks)):
            j = list(self.g.idx[i]).index(l)
            self.down_pow[e, j] -= 1
        self.onehot = np.zeros((len(rows), L))
        self.onehot[np.arange(len(rows)), self.down_tok] = 1.0
        self.max_degree = int(max(self.g2.degree.max(), self.g.degree.max() + 1))
        # two teacher inputs with different g: a(z*₁) − a(z*₂) = (g₂ − g₁) σ'/√L
        self.z_ref = np.zeros(L)
        g0 = float(problem.target_value(self.z_ref[None])[0])
        candidates = np.concatenate([np.eye(L)[:1] * np.array([[1.0], [2.0], [-1.0]]),
                                     np.random.default_rng(7).standard_normal((8, L))])
        values = problem.target_value(candidates) - g0
        best = int(np.argmax(np.abs(values)))
        if abs(values[best]) > 1e-6:
            self.z_alt, self.dg = candidates[best], float(values[best])
        else:   # constant target
            self.z_alt, self.dg = None, 0.0

    def _activation(self, h):
        """σ and σ' at the student's pre-activations h (through the public links)."""
        L = self.problem.L
        q = np.repeat((h / math.sqrt(L))[:, None], L, axis=1)
        sigma = self.problem.student_value(q)
        if self.z_alt is None:
            return sigma, np.zeros_like(sigma)
        _, a1 = self.problem.loss_and_grad(np.broadcast_to(self.z_ref, q.shape), q)
        _, a2 = self.problem.loss_and_grad(np.broadcast_to(self.z_alt, q.shape), q)
        return sigma, math.sqrt(L) * (a1[:, 0] - a2[:, 0]) / self.dg

    def moments(self, m_vec, c_vec, e_tok):
        L = m_vec.size
        shift = e_tok.sum() / math.sqrt(L)
        sd_h = math.sqrt((m_vec @ m_vec + c_vec @ c_vec) / L)
        rho, kappa = m_vec / (math.sqrt(L) * sd_h), c_vec / (math.sqrt(L) * sd_h)
        x, w = split_normal_rule(round(float(-shift / sd_h), 13), self.n_x)
        S, dS = self._activation(sd_h * x + shift)
        He = _hermite_table(x, self.max_degree + 1)
        ga = self.g.coef * self.g.powers(rho)
        G1 = He[:, self.g.degree] @ ga                                  # E[g | x]
        G2 = He[:, self.g2.degree] @ (self.g2.coef * self.g2.powers(rho))   # E[g² | x]
        up = He[:, self.g.degree + 1] @ ga                              # Σ a_α ρ^α He_{|α|+1}
        down = (self.g.coef[self.down_row] * self.down_k
                * np.prod(rho[self.g.idx[self.down_row]] ** self.down_pow, axis=1))
        Gz = up[:, None] * rho + (He[:, self.g.degree[self.down_row] - 1] * down) @ self.onehot
        Gxi = up[:, None] * kappa                                       # E[g ξ_l | x]
        pref = dS / math.sqrt(L)
        resid2 = S * S - 2 * S * G1 + G2                                # E[(σ − g)² | x]
        loss = 0.5 * (w @ resid2)
        a = np.full(L, w @ (pref * (S - G1)))
        a_zs = w @ (pref[:, None] * (S[:, None] * rho * x[:, None] - Gz))
        a_xi = w @ (pref[:, None] * (S[:, None] * kappa * x[:, None] - Gxi))
        a_z = m_vec * a_zs + c_vec * a_xi
        a2 = np.full(L, w @ (pref * pref * resid2))
        return np.concatenate([[loss], a_zs, a_z + e_tok * a, a_xi, a, a2]), None


def _hermite_table(x, order):
    out = np.empty((x.size, order + 1))
    out[:, 0] = 1.0
    if order >= 1:
        out[:, 1] = x
    for n in range(1, order):
        out[:, n + 1] = x * out[:, n] - n * out[:, n - 1]
    return out


class _Integrator:
    """Chooses and holds the integration rule of a problem (see the module docstring)."""

    def __init__(self, problem, *, n_points=None, method="auto", budget=GH_BUDGET,
                 qmc_log2=QMC_LOG2, qmc_reps=QMC_REPS, seed=0, n_x=FF_X_POINTS):
        from .hermite import polynomial_degree   # hermite imports this module

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
                self.hermite, self.method, self.n_rep = _HermiteFeedForward(half, deg_g, n_x), "hermite", 1
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
            return _reduce(self.problem, zs, q, z, xi, e_tok[None, :], w, self.n_rep)
        tcode, tparams, scode, sparams = self.problem.codes
        lcode = self.problem.loss_code
        e_tok = np.ascontiguousarray(e_tok, dtype=float)
        kernels = self.problem.kernels
        # a user's target that numba cannot compile (ssi.custom): the same sums in numpy
        grid = partial(_python_grid_moments, problem=self.problem) if kernels is None else kernels.grid_moments
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
        return _reduce(self.problem, zs, q, z, xi, np.zeros((1, self.problem.L)), w, self.n_rep)


@lru_cache(maxsize=64)
def _integrator(problem, n_points, method, budget, qmc_log2, qmc_reps, seed):
    return _Integrator(problem, n_points=n_points, method=method, budget=budget,
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
    integ = _integrator(problem, n_points, method, budget, qmc_log2, qmc_reps, seed)
    L = problem.L
    if problem.tied:
        if Q is not None:
            raise ValueError("Q is only used for untied students")
        shape, m_flat, _, e_tok = tied_state(problem, m, e)
        results = [integ.tied(float(mi), ei) for mi, ei in zip(m_flat, e_tok)]
    else:
        if np.any(np.asarray(e) != 0):
            raise ValueError("untied students have no positional encoding: e must be 0")
        shape, m_flat, Q_flat = _untied_state(problem, m, Q)
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
