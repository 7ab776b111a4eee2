"""The SIE-2 escape near m = 0 in closed form (docs/theory.md, "The SIE-2 escape near m = 0").

For the targets ``g = c Σ_l h₂(z*_l)`` (``h₂ = He₂/√2``, any scale ``c``) every student's ODE
(docs/theory.md, "The ODE") reduces exactly, along the token-symmetric states, to one equation

    dm/dt = κ m ρ(m),   ρ(m) = η A (1 − m²) − (η²/2) ν(m),   ν(m) = ν₀ + ν₂ m² + ν₄ m⁴,

with ``κ = 1`` for tied students and ``κ = 1/L`` for the untied network (state ``m_l = m``,
``Q_l = 1``). The drift is exactly linear in m times ``(1 − m²)`` because the target has Hermite
components of degree 2 only (Mehler), and the noise ``ν(m) = E[Σ_l a_l²]`` is a polynomial of
degree 4 in m for the same reason. :class:`Coefficients` holds ``(A, ν₀, ν₂, ν₄, κ)`` and gives
escape times (exact integral, leading order, reduced ODE) and best learning rates.

Where the coefficients come from:

* feed-forward students ``σ(h)``, ``h = L^(−1/2) Σ_l q_l``: closed forms in six Gaussian
  moments of the activation (:func:`activation_moments`, :func:`feedforward`);
* trace-reduced attention: ``A = √2 c E[q·∇f]`` by an exact Laplace-transform formula that
  costs the same at every L (:func:`attention_drift`); ``ν(m)`` by Gaussian integration over
  the student's L pre-activations only, the teacher's side being done by Mehler's formula
  (:func:`attention_noise`: tensor Gauss–Hermite for L ≤ 3, Monte Carlo with a standard
  error beyond).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
from numba import njit

__all__ = ["Coefficients", "activation_moments", "feedforward", "attention_drift", "attention_noise",
           "attention", "attention_sample_terms", "RELU_MOMENTS", "SQRT2"]

SQRT2 = math.sqrt(2.0)


@dataclass(frozen=True)
class Coefficients:
    """Coefficients of the reduced SIE-2 ODE
    ``dm/dt = κ m [η A (1 − m²) − (η²/2)(ν₀ + ν₂ m² + ν₄ m⁴)]``.

    Attributes
    ----------
    A : float
        Drift coefficient: ``∂_m R = −A m`` (population loss ``R``), so gradient flow gives
        ``dm/dt = κ η A m (1 − m²)``.
    nu0, nu2, nu4 : float
        Noise ``ν(m) = E[Σ_l a_l²]`` (tied; the untied network's per-token share is ``ν/L``).
    kappa : float
        1 for tied students, ``1/L`` for the untied network.
    nu0_se, nu2_se, nu4_se : float
        Standard errors of the ν's (0 when computed in closed form or by quadrature).
    """

    A: float
    nu0: float
    nu2: float = 0.0
    nu4: float = 0.0
    kappa: float = 1.0
    nu0_se: float = 0.0
    nu2_se: float = 0.0
    nu4_se: float = 0.0

    # --- the right-hand side ---------------------------------------------------------------------
    def rho(self, m, eta):
        """``ρ(m) = η A (1 − m²) − (η²/2) ν(m)``: the growth rate of ``log m`` (divided by κ)."""
        m2 = np.asarray(m, float) ** 2
        return eta * self.A * (1 - m2) - 0.5 * eta * eta * (self.nu0 + self.nu2 * m2 + self.nu4 * m2 * m2)

    def rate(self, eta) -> float:
        """``κ ρ(0) = κ (η A − η² ν₀/2)``: the exponential rate of the escape at small m."""
        return self.kappa * (eta * self.A - 0.5 * eta * eta * self.nu0)

    def rhs(self, m, eta):
        """``dm/dt`` of the reduced ODE."""
        return self.kappa * np.asarray(m, float) * self.rho(m, eta)

    # --- escape times ------------------------------------------------------------------------------
    def _terms(self, eta):
        """(ρ₀, ρ₂, ρ₄) with ρ(m) = ρ₀ − ρ₂ m² − ρ₄ m⁴."""
        return (eta * self.A - 0.5 * eta * eta * self.nu0, eta * self.A + 0.5 * eta * eta * self.nu2,
                0.5 * eta * eta * self.nu4)

    def escapes(self, eta, m0, m_th) -> bool:
        """True when ρ > 0 on [m₀, m_th] (ρ is a quadratic in m²: its ends and its vertex)."""
        r0, r2, r4 = self._terms(eta)
        us = [m0 * m0, m_th * m_th]
        if r4 != 0.0 and us[0] < -r2 / (2 * r4) < us[1]:
            us.append(-r2 / (2 * r4))
        return r0 > 0 and min(r0 - r2 * u - r4 * u * u for u in us) > 0

    def correction(self, eta, m_th, m0=0.0) -> float:
        """``C = ∫_{m₀}^{m_th} (ρ(0)/ρ(m) − 1) dm/m``: the O(1) part of the escape time beyond
        ``log(m_th/m₀)`` (``inf`` when ρ vanishes below ``m_th``).

        Closed form when ``ν₄ = 0``: ``−½ log((ρ₀ − ρ₂ m_th²)/(ρ₀ − ρ₂ m₀²))`` with
        ``ρ(m) = ρ₀ − ρ₂ m²``; otherwise a quadrature of a smooth integrand.
        """
        r0, r2, r4 = self._terms(eta)
        if not self.escapes(eta, m0, m_th):
            return math.inf
        if r4 == 0.0:
            return -0.5 * math.log((r0 - r2 * m_th ** 2) / (r0 - r2 * m0 ** 2))
        from scipy.integrate import quad

        value, _ = quad(lambda m: (r2 * m + r4 * m ** 3) / (r0 - r2 * m * m - r4 * m ** 4), m0, m_th,
                        epsabs=1e-13, epsrel=1e-11)
        return value

    def escape_time(self, eta, m0, m_th) -> float:
        """Exact time (t = steps/d) for m to go from ``m0`` to ``m_th``:
        ``[log(m_th/m₀) + C]/(κ ρ(0))``; ``inf`` when the noise wins (ρ ≤ 0 below ``m_th``)."""
        C = self.correction(eta, m_th, m0)
        rate = self.rate(eta)
        if not math.isfinite(C) or rate <= 0:
            return math.inf
        return (math.log(m_th / m0) + C) / rate

    def ode_escape_time(self, eta, m0, m_th, rtol=1e-10) -> float:
        """The same time from a numerical integration of the reduced ODE (``solve_ivp``)."""
        from scipy.integrate import solve_ivp

        if not self.escapes(eta, m0, m_th):
            return math.inf
        # integrate log m: the solution is smooth on the scale of the escape
        def rhs(t, y):
            return [self.kappa * float(self.rho(math.exp(y[0]), eta))]

        def hit(t, y):
            return y[0] - math.log(m_th)

        hit.terminal, hit.direction = True, 1.0
        horizon = 10 * self.escape_time(eta, m0, m_th)
        sol = solve_ivp(rhs, (0.0, horizon), [math.log(m0)], events=[hit], rtol=rtol, atol=1e-12,
                        method="DOP853")
        return float(sol.t_events[0][0]) if sol.t_events[0].size else math.inf

    # --- learning rates ----------------------------------------------------------------------------
    def lr_limit(self) -> float:
        """``2A/ν₀``: above it ρ(0) < 0 and the uninformative point is stable (no escape)."""
        return 2 * self.A / self.nu0

    def best_lr_leading(self) -> float:
        """``η* = A/ν₀``: maximises the rate ``η A − η² ν₀/2`` (best η as ``log(m_th/m₀) → ∞``)."""
        return self.A / self.nu0

    def best_time_leading(self, m0, m_th) -> float:
        """``(2ν₀/(κA²)) [log(m_th/m₀) + C(η*)]``: the escape time at ``η* = A/ν₀``."""
        return self.escape_time(self.best_lr_leading(), m0, m_th)

    def best_lr_first_order(self, m0, m_th) -> float:
        """η* with its first correction in ``1/log(m_th/m₀)``:
        ``A/ν₀ − C'(η₀) A² / (2 ν₀² [log(m_th/m₀) + C(η₀)])``, ``C'`` by a central difference."""
        eta0 = self.best_lr_leading()
        h = 1e-5 * eta0
        dC = (self.correction(eta0 + h, m_th, m0) - self.correction(eta0 - h, m_th, m0)) / (2 * h)
        ell = math.log(m_th / m0) + self.correction(eta0, m_th, m0)
        return eta0 - dC * self.A ** 2 / (2 * self.nu0 ** 2 * ell)

    def best_lr(self, m0, m_th, ode: bool = False) -> tuple[float, float]:
        """Numerical minimiser of the escape time over η (exact integral, or the reduced ODE's
        integration with ``ode=True``). Returns (η*, time at η*)."""
        from scipy.optimize import minimize_scalar

        time = self.ode_escape_time if ode else self.escape_time
        hi = self.lr_limit()

        def cost(log_eta):
            t = time(math.exp(log_eta), m0, m_th)
            return math.log(t) if math.isfinite(t) else 1e3 + log_eta

        res = minimize_scalar(cost, bounds=(math.log(1e-3 * hi), math.log(hi)), method="bounded",
                              options={"xatol": 1e-7})
        eta = float(math.exp(res.x))
        return eta, time(eta, m0, m_th)

    def untied(self, L: int) -> "Coefficients":
        """The untied network's coefficients: the same ones with ``κ = 1/L``."""
        return replace(self, kappa=1.0 / L)


# --- feed-forward students -------------------------------------------------------------------------
def activation_moments(activation: str = "relu", n: int = 48) -> dict:
    """Gaussian moments of an activation σ (x ~ N(0, 1)) that fix the feed-forward coefficients:

    ``mu2 = E[σ He₂]``, ``s0 = E[σ² σ'²]``, ``s1 = E[σ'²]``, ``n2 = E[σ σ'² He₂]``,
    ``k2 = E[σ'² He₂]``, ``k4 = E[σ'² He₄]``.

    The x axis is split at 0 (a Gauss rule on each side, exact for ReLU and polynomials); σ is
    the registry activation (through :class:`ssi.Problem`) and σ' a central difference.
    """
    from .quadrature import split_normal_rule
    from .problems import Problem

    prob = Problem(L=1, target="he2_sum", student="tied", activation=activation)
    x, w = split_normal_rule(0.0, n)
    step = 1e-6

    def sigma(h):
        return prob.student_value(np.asarray(h, float)[:, None])

    s = sigma(x)
    ds = (sigma(x + step) - sigma(x - step)) / (2 * step)
    he2, he4 = x * x - 1, x ** 4 - 6 * x * x + 3
    d2 = ds * ds
    return {"mu2": float(w @ (s * he2)), "s0": float(w @ (s * s * d2)), "s1": float(w @ d2),
            "n2": float(w @ (s * d2 * he2)), "k2": float(w @ (d2 * he2)), "k4": float(w @ (d2 * he4))}


#: :func:`activation_moments` of ReLU in closed form: μ₂ = n₂ = 1/√(2π), s₀ = s₁ = 1/2, k₂ = k₄ = 0
RELU_MOMENTS = {"mu2": 1 / math.sqrt(2 * math.pi), "s0": 0.5, "s1": 0.5, "n2": 1 / math.sqrt(2 * math.pi),
                "k2": 0.0, "k4": 0.0}


def feedforward(L: int, scale: float, activation: str = "relu", network: str = "tied",
                moments: dict | None = None) -> Coefficients:
    """Coefficients for the feed-forward student σ(L^(−1/2) Σ q_l) on ``g = scale·Σ_l h₂(z*_l)``:

    ``A = √2 c μ₂``, ``ν₀ = s₀ + c² L s₁``, ``ν₂ = 2c² k₂ − √2 c n₂``, ``ν₄ = c² k₄/2``
    (docs/theory.md, "The SIE-2 escape near m = 0"); untied: the same with ``κ = 1/L``.
    """
    if network not in ("tied", "untied"):
        raise ValueError(f"network={network!r} is unknown; allowed: tied, untied")
    mo = moments or activation_moments(activation)
    c = float(scale)
    coef = Coefficients(A=SQRT2 * c * mo["mu2"], nu0=mo["s0"] + c * c * L * mo["s1"],
                        nu2=2 * c * c * mo["k2"] - SQRT2 * c * mo["n2"], nu4=0.5 * c * c * mo["k4"])
    return coef.untied(L) if network == "untied" else coef


# --- trace-reduced attention ------------------------------------------------------------------------
def attention_drift(Ls, scale=1.0, *, n_x: int = 81, n_v: int = 201, n_y: int = 401) -> np.ndarray:
    """``A(L) = √2 c L β₂(L)`` of the trace-reduced attention ``f = L^(−1/2) Tr softmax(q qᵀ)``.

    ``β₂ = E[f He₂(q₁)] = L^(−1/2) (I₁ + (L − 1) I₂)`` with, by
    ``1/(1 + S) = ∫₀^∞ e^{−u(1+S)} du``
    applied to ``p_ll = 1/(1 + Σ_{k≠l} e^{q_l q_k − q_l²})`` and independence of the tokens,

        I₁ = E_x[He₂(x) ∫ e^{−u} M(u, x)^{L−1} du],   I₂ = E_x[∫ e^{−u} M(u, x)^{L−2} M₂(u, x) du],
        M = E_y exp(−u e^{xy − x²}),   M₂ = E_y[He₂(y) exp(−u e^{xy − x²})]

    (x, y standard normal): one-dimensional integrals whose cost does not depend on L.
    ``scale`` may be a number or an array over ``Ls``.
    """
    from scipy.special import log1p

    Ls = np.atleast_1d(np.asarray(Ls, int))
    x = np.linspace(0.0, 9.0, n_x)
    wx = np.full(n_x, x[1] - x[0])
    wx[0] *= 0.5
    wx[-1] *= 0.5
    # the integrand is even in x: trapezoid on [0, 9], doubled (the node x = 0 then counts once)
    wx = 2 * wx * np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)
    v = np.linspace(-45.0, 5.0, n_v)                                # u = e^v
    dv = v[1] - v[0]
    u = np.exp(v)
    y = np.linspace(-11.0, 11.0, n_y)
    wy = np.exp(-0.5 * y * y)
    wy /= wy.sum()
    I1 = np.zeros(Ls.size)
    I2 = np.zeros(Ls.size)
    for xi, wi in zip(x, wx):
        arg = np.exp(np.minimum(xi * y - xi * xi, 700.0))
        one_minus = -np.expm1(-np.outer(u, arg))               # 1 − exp(−u e^{xy−x²})
        # log M(u, x), accurate near M = 1; M = 0 (large u) kept finite so that 0·log M = 0
        logM = np.maximum(log1p(-np.minimum(one_minus @ wy, 1.0)), -1e300)
        M2 = -(one_minus @ (wy * (y * y - 1)))                  # E[He₂(y)(e^{…} − 1)], E He₂ = 0
        for j, L in enumerate(Ls):
            I1[j] += wi * (xi * xi - 1) * dv * np.sum(np.exp(-u + (L - 1) * logM) * u)
            if L >= 2:
                I2[j] += wi * dv * np.sum(np.exp(-u + (L - 2) * logM) * M2 * u)
    beta2 = np.where(Ls >= 2, (I1 + (Ls - 1) * I2) / np.sqrt(Ls), 0.0)   # L = 1: f ≡ 1
    return SQRT2 * np.asarray(scale, float) * Ls * beta2


@njit(cache=True)
def attention_sample_terms(q):
    """Per sample of q (n, L): rows f, G = |∇f|², Σ He₂(q_l), Σ He₄(q_l), Σ He₂(q_l)² of a (5, n) array.

    With ``E_lk = e^{q_l q_k}`` (symmetric: half of it is computed; |q| ≲ 6, no overflow),
    ``Z_l = Σ_k E_lk``, ``p_ll = E_ll/Z_l`` and ``q̄_l = Σ_k E_lk q_k/Z_l``:
    ``∂_k Σ_l p_ll = p_kk (2 q_k − q̄_k) − Σ_l p_ll p_lk q_l``.
    """
    n, L = q.shape
    out = np.empty((5, n))
    E = np.empty((L, L))
    Z, Zq, C, pd, w = np.empty(L), np.empty(L), np.empty(L), np.empty(L), np.empty(L)
    for s in range(n):
        x = q[s]
        Z[:] = 0.0
        Zq[:] = 0.0
        C[:] = 0.0
        for l in range(L):
            for k in range(l, L):
                e = math.exp(x[l] * x[k])
                E[l, k] = e
                Z[l] += e
                Zq[l] += e * x[k]
                if k > l:
                    Z[k] += e
                    Zq[k] += e * x[l]
        for l in range(L):
            pd[l] = E[l, l] / Z[l]
            w[l] = pd[l] * x[l] / Z[l]
        for l in range(L):                       # C_k = Σ_l p_ll q_l E_lk/Z_l
            C[l] += w[l] * E[l, l]
            for k in range(l + 1, L):
                C[k] += w[l] * E[l, k]
                C[l] += w[k] * E[l, k]
        f = G = S2 = S4 = Q2 = 0.0
        for l in range(L):
            g = pd[l] * (2 * x[l] - Zq[l] / Z[l]) - C[l]
            G += g * g
            f += pd[l]
            x2 = x[l] * x[l]
            S2 += x2 - 1.0
            S4 += x2 * (x2 - 6.0) + 3.0
            Q2 += (x2 - 1.0) ** 2
        out[0, s], out[1, s], out[2, s], out[3, s], out[4, s] = f / math.sqrt(L), G / L, S2, S4, Q2
    return out


def attention_noise(L: int, scales, *, samples: int = 4000, seed=0, gh_points: int = 64) -> list[dict]:
    """``ν₀, ν₂, ν₄`` (with standard errors) of trace-reduced attention on ``c·Σ h₂``, one dict per
    scale ``c`` of ``scales`` (the same draws serve every scale).

    Given the student's pre-activations q, Mehler's formula does the teacher's side:
    ``E[g | q] = c m² Σ_l h₂(q_l)`` and ``E[g² | q] = c² [Σ_l (m⁴ He₄(q_l)/2 + 2 m² He₂(q_l) + 1)
    + m⁴ Σ_{l≠k} h₂(q_l) h₂(q_k)]``, so ``ν(m) = E_q[|∇f|² E[(f − g)² | q]]`` is an integral over
    q alone: tensor Gauss–Hermite (``gh_points`` per axis) for L ≤ 3, Monte Carlo with ``samples``
    draws (``seed``: anything :class:`numpy.random.SeedSequence` takes) otherwise.
    """
    if L < 2:
        raise ValueError(f"L={L!r} is not allowed; attention needs L ≥ 2 (at L = 1 its output is constant)")
    if L <= 3:
        from .quadrature import gauss_hermite_rule

        q, w = gauss_hermite_rule(L, gh_points)
        f, G, S2, S4, Q2 = attention_sample_terms(np.ascontiguousarray(q))
        n_eff = None
    else:
        rng = np.random.default_rng(np.random.SeedSequence(seed))
        f, G, S2, S4, Q2 = attention_sample_terms(rng.standard_normal((samples, L)))
        w = np.full(f.size, 1.0 / f.size)
        n_eff = f.size
    out = []
    for c in np.atleast_1d(np.asarray(scales, float)):
        integrands = {"nu0": G * (f * f + c * c * L),
                      "nu2": G * S2 * (2 * c * c - SQRT2 * c * f),
                      "nu4": G * c * c * 0.5 * (S4 + S2 * S2 - Q2)}
        row = {}
        for key, vals in integrands.items():
            row[key] = float(w @ vals)
            row[f"{key}_se"] = 0.0 if n_eff is None else float(vals.std(ddof=1) / math.sqrt(n_eff))
        out.append(row)
    return out


def attention(L: int, scale: float, A: float | None = None, **noise_kwargs) -> Coefficients:
    """Coefficients of trace-reduced attention on ``scale·Σ_l h₂`` (drift by :func:`attention_drift`
    unless ``A`` is given, noise by :func:`attention_noise`)."""
    A = float(attention_drift([L], scale)[0]) if A is None else float(A)
    nu = attention_noise(L, [scale], **noise_kwargs)[0]
    return Coefficients(A=A, **nu)
