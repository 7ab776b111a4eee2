"""Exact population moments of feed-forward students with a polynomial target
(docs/theory.md, "The ODE"; the feed-forward path of :mod:`ssi.population`).

Feed-forward students depend on ``q`` only through ``h = (1/√L) Σ_l q_l``. Conditional
expectations of Hermite polynomials given ``x = h/σ_h`` are explicit
(``E[He_α(w) | v·w = x] = v^α He_{|α|}(x)``), so the target's finite Hermite expansion (and that
of g², by the product formula) turns every moment into the activation times a polynomial in x,
integrated with the split Gauss rule of :func:`ssi.quadrature.split_normal_rule` (exact for a kink
of the activation at ``h = 0``), at a cost independent of L.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from .hermite_expansion import target_coefficients
from .quadrature import split_normal_rule


def sparse_index(alpha):
    """Multi-index as a tuple of (token, degree) pairs with degree > 0."""
    return tuple((l, k) for l, k in enumerate(alpha) if k)


def hermite_product(p1, p2):
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


@lru_cache(maxsize=16)
def _square(items):
    """:func:`hermite_product` of an expansion (given as its items) with itself, computed once."""
    terms = dict(items)
    return hermite_product(terms, terms)


class Expansion:
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
        self.max_power = int(self.pow.max(initial=0))

    def powers(self, rho):
        """ρ^α for every term.

        When every ρ_l is the same (token-symmetric states), the table ρ^k, k = 0..max, is indexed
        instead of raising every entry: the same products of the same factors, in the same order.
        """
        if rho.size and np.all(rho == rho[0]):
            table = np.full(self.max_power + 1, rho[0]) ** np.arange(self.max_power + 1)
            out = table[self.pow[:, 0]]
            for j in range(1, self.pow.shape[1]):
                out = out * table[self.pow[:, j]]
            return out
        return np.prod(rho[self.idx] ** self.pow, axis=1)


class HermiteFeedForward:
    """Feed-forward moments for a polynomial target, as 1-D integrals over x = h/σ_h.

    ``x`` is the standardised student pre-activation, a unit combination ``v·w`` of
    ``w = (z*, ξ)`` with ``v = (m/√L, c/√L)/σ_h``. For Hermite polynomials of w,
    ``E[He_α(w) | v·w = x] = v^α He_{|α|}(x)``; with the finite expansions of g and g²
    (product formula) and ``z*_l He_α = He_{α+e_l} + α_l He_{α−e_l}`` every moment becomes
    an integral over x of the activation times a polynomial in x, done with the split rule.
    Exact for polynomial targets, with a cost independent of L.
    """

    def __init__(self, problem, degree, n_x):
        self.problem, self.n_x = problem, n_x
        L = problem.L
        coef = target_coefficients(problem, degree)
        terms = {}
        for alpha, c in coef.items():
            c = c / np.prod([math.factorial(k) for k in alpha])
            if c != 0.0:
                terms[sparse_index(alpha)] = c
        terms = terms or {(): 0.0}
        self.g = Expansion(terms)
        self.g2 = Expansion(_square(tuple(terms.items())))
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
        self._cached = None
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

    def _tables(self, cut, x):
        """The Hermite columns each moment needs at the nodes x of the rule cut at ``cut`` (the
        last rule's are kept: without PE the cut is 0 at every state)."""
        if self._cached is None or self._cached[0] != cut:
            He = hermite_table(x, self.max_degree + 1)
            self._cached = (cut, (He[:, self.g.degree], He[:, self.g2.degree], He[:, self.g.degree + 1],
                                  He[:, self.g.degree[self.down_row] - 1]))
        return self._cached[1]

    def moments(self, m_vec, c_vec, e_tok):
        L = m_vec.size
        shift = e_tok.sum() / math.sqrt(L)
        sd_h = math.sqrt((m_vec @ m_vec + c_vec @ c_vec) / L)
        rho, kappa = m_vec / (math.sqrt(L) * sd_h), c_vec / (math.sqrt(L) * sd_h)
        cut = round(float(-shift / sd_h), 13)
        x, w = split_normal_rule(cut, self.n_x)
        S, dS = self._activation(sd_h * x + shift)
        He_g, He_g2, He_up, He_down = self._tables(cut, x)
        ga = self.g.coef * self.g.powers(rho)
        G1 = He_g @ ga                                                  # E[g | x]
        G2 = He_g2 @ (self.g2.coef * self.g2.powers(rho))               # E[g² | x]
        up = He_up @ ga                                                 # Σ a_α ρ^α He_{|α|+1}
        down = (self.g.coef[self.down_row] * self.down_k
                * np.prod(rho[self.g.idx[self.down_row]] ** self.down_pow, axis=1))
        Gz = up[:, None] * rho + (He_down * down) @ self.onehot
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


def hermite_table(x, order):
    out = np.empty((x.size, order + 1))
    out[:, 0] = 1.0
    if order >= 1:
        out[:, 1] = x
    for n in range(1, order):
        out[:, n + 1] = x * out[:, n] - n * out[:, n - 1]
    return out

