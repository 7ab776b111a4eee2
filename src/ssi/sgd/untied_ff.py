"""The reduced step of an untied feed-forward student, with the loss and gradient written out.

:func:`ssi.sgd.reduced.advance_untied` hands this kernel the problems it covers
(:func:`ssi.sgd.feedforward.covers`): the feed-forward student of a registry activation with any of
the losses (rescaled as ``links.other_loss`` does) and a registry scalar target. The per-token
gradient is one scalar (:func:`ssi.sgd.feedforward.gradient`); the target He_k sum is accumulated
while the tokens are drawn; the student's activation is read once per call. The operations are the
generic kernel's and :mod:`ssi.links`' (``student_scalar``, ``scalar_loss_and_grad``,
``target_scalar``) in the same order on the same draws of the same stream, so the numbers are the
same bit for bit (tests/unit/sgd/test_specialised_kernels.py).
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..random_streams import any_gamma, load, normal, store
from ..target_links import hermite_he
from ..escape import crossed
from .feedforward import constants, gradient, target_value


@njit(inline="always")
def renormalised_sum(mu, rho, norm):
    """Scale (μ, ρ) in place so that Σ_l (μ_l² + ρ_l²) = L, given ``norm``, the sum before; return
    Σ_l μ_l after (the untied students' spherical constraint, docs/theory.md, "The reduced simulator")."""
    L = mu.shape[0]
    inverse = math.sqrt(L / norm)
    m = 0.0
    for l in range(L):
        mu[l] *= inverse
        rho[l] *= inverse
        m += mu[l]
    return m


@njit(inline="always")
def _token(s0, s1, s2, s3, mu_l, rho_l, he_sum, k, h, y):
    """One token's draws z, v (scalars only: the caller stores them), μ_l z + ρ_l v added to ``h`` and
    He_k(z) to ``y`` (if ``he_sum``): ``(s0, s1, s2, s3, z, v, h, y)``."""
    s0, s1, s2, s3, z = normal(s0, s1, s2, s3)
    s0, s1, s2, s3, v = normal(s0, s1, s2, s3)
    h += mu_l * z + rho_l * v
    if he_sum:
        y += hermite_he(k, z)
    return s0, s1, s2, s3, z, v, h, y


@njit(inline="always")
def _draw(s0, s1, s2, s3, mu, rho, he_sum, k, n_star, n_perp):
    """Draw the tokens' coordinates (z_l, v_l) and store them; return the stream's state,
    h = Σ_l (μ_l z_l + ρ_l v_l) and Σ_l He_k(z_l) (if ``he_sum``; in token order, from 0)."""
    h = 0.0
    y = 0.0
    for l in range(mu.shape[0]):
        s0, s1, s2, s3, n_star[l], n_perp[l], h, y = _token(s0, s1, s2, s3, mu[l], rho[l], he_sum, k, h, y)
    return s0, s1, s2, s3, h, y


@njit(inline="always")
def _token_step(s0, s1, s2, s3, mu_l, rho_l, z, v, a, ca, twice, rest_shape, gamma_b, gamma_c):
    """One token's step (gradient ``a``, ca = η/d a, twice = 2 (η/d)² a²): μ_l − ca z, and ρ_l from
    ρ_l − ca v and its own χ² remainder (none when a = 0): ``(s0, s1, s2, s3, μ_l, ρ_l)`` after."""
    m = mu_l - ca * z
    rho_u = rho_l - ca * v
    if a != 0.0:
        s0, s1, s2, s3, g = any_gamma(s0, s1, s2, s3, rest_shape, gamma_b, gamma_c)
        p = math.sqrt(rho_u * rho_u + twice * g)
    else:
        p = abs(rho_u)
    return s0, s1, s2, s3, m, p


@njit(inline="always")
def _update(s0, s1, s2, s3, mu, rho, a, step, n_star, n_perp, rest_shape, gamma_b, gamma_c):
    """The step of (μ, ρ) in place with the per-token gradient ``a`` (:func:`_token_step`), then
    :func:`renormalised_sum`; return the stream's state and Σ_l μ_l."""
    ca = step * a
    twice = 2.0 * step * step * a * a
    norm = 0.0
    for l in range(mu.shape[0]):
        s0, s1, s2, s3, m, p = _token_step(s0, s1, s2, s3, mu[l], rho[l], n_star[l], n_perp[l], a, ca, twice,
                                           rest_shape, gamma_b, gamma_c)
        mu[l] = m
        rho[l] = p
        norm += m * m + p * p
    return s0, s1, s2, s3, renormalised_sum(mu, rho, norm)


@njit(inline="always")
def _load(stream, state, crossing):
    """A replicate's stream, (μ, ρ) (copies) and crossing: ``(s0, s1, s2, s3, μ, ρ, crossing)``."""
    L = state.shape[0] // 2
    s0, s1, s2, s3 = load(stream)
    return s0, s1, s2, s3, state[:L].copy(), state[L:].copy(), crossing[0]


@njit(inline="always")
def _store(stream, state, crossing, s0, s1, s2, s3, mu, rho, cross):
    """Write back what :func:`_load` read."""
    L = mu.shape[0]
    state[:L] = mu
    state[L:] = rho
    crossing[0] = cross
    store(stream, s0, s1, s2, s3)


@njit(nogil=True, cache=True, error_model="numpy")
def advance_untied_ff(stream, state, n_steps, d, lr, tcode, tparams, sparams, lcode, threshold, crossing, step0):
    """:func:`ssi.sgd.reduced.advance_untied` for the problems :func:`covers` takes (same arguments
    but the student code; the same numbers)."""
    L = state.shape[0] // 2
    n_star = np.empty(L)
    n_perp = np.empty(L)
    step, rest_shape, gamma_b, gamma_c, he_sum, k, scale, code = constants(d, lr, tcode, tparams, sparams)
    root = math.sqrt(L)
    s0, s1, s2, s3, mu, rho, cross = _load(stream, state, crossing)
    for t in range(n_steps):
        s0, s1, s2, s3, h, y = _draw(s0, s1, s2, s3, mu, rho, he_sum, k, n_star, n_perp)
        a = gradient(code, h, root, target_value(he_sum, scale, y, tcode, tparams, n_star), lcode)
        s0, s1, s2, s3, m = _update(s0, s1, s2, s3, mu, rho, a, step, n_star, n_perp, rest_shape, gamma_b, gamma_c)
        cross = crossed(cross, m / L, threshold, step0 + t + 1)
    _store(stream, state, crossing, s0, s1, s2, s3, mu, rho, cross)


@njit(nogil=True, cache=True, error_model="numpy")
def advance_untied_ff_pair(streams, states, crossings, i, j, n_steps, d, lr, tcode, tparams, sparams, lcode,
                           threshold, step0):
    """:func:`advance_untied_ff` for the replicates ``i`` and ``j`` (rows of ``streams``, ``states``,
    ``crossings``) at once, phase by phase: their steps are independent, so the processor overlaps
    them. Each replicate's numbers are those of :func:`advance_untied_ff`."""
    L = states.shape[1] // 2
    n_star = np.empty(L)
    n_perp = np.empty(L)
    m_star = np.empty(L)
    m_perp = np.empty(L)
    step, rest_shape, gamma_b, gamma_c, he_sum, k, scale, code = constants(d, lr, tcode, tparams, sparams)
    root = math.sqrt(L)
    s0, s1, s2, s3, mu, rho, cross = _load(streams[i], states[i], crossings[i])
    t0, t1, t2, t3, nu, sigma, other = _load(streams[j], states[j], crossings[j])
    for t in range(n_steps):
        h = 0.0
        y = 0.0
        f = 0.0
        x = 0.0
        for l in range(L):
            s0, s1, s2, s3, n_star[l], n_perp[l], h, y = _token(s0, s1, s2, s3, mu[l], rho[l], he_sum, k, h, y)
            t0, t1, t2, t3, m_star[l], m_perp[l], f, x = _token(t0, t1, t2, t3, nu[l], sigma[l], he_sum, k, f, x)
        a = gradient(code, h, root, target_value(he_sum, scale, y, tcode, tparams, n_star), lcode)
        b = gradient(code, f, root, target_value(he_sum, scale, x, tcode, tparams, m_star), lcode)
        ca = step * a
        cb = step * b
        twice_a = 2.0 * step * step * a * a
        twice_b = 2.0 * step * step * b * b
        norm = 0.0
        norm_b = 0.0
        for l in range(L):
            s0, s1, s2, s3, m, p = _token_step(s0, s1, s2, s3, mu[l], rho[l], n_star[l], n_perp[l], a, ca, twice_a,
                                               rest_shape, gamma_b, gamma_c)
            t0, t1, t2, t3, n, o = _token_step(t0, t1, t2, t3, nu[l], sigma[l], m_star[l], m_perp[l], b, cb, twice_b,
                                               rest_shape, gamma_b, gamma_c)
            mu[l] = m
            rho[l] = p
            nu[l] = n
            sigma[l] = o
            norm += m * m + p * p
            norm_b += n * n + o * o
        m = renormalised_sum(mu, rho, norm)
        n = renormalised_sum(nu, sigma, norm_b)
        cross = crossed(cross, m / L, threshold, step0 + t + 1)
        other = crossed(other, n / L, threshold, step0 + t + 1)
    _store(streams[i], states[i], crossings[i], s0, s1, s2, s3, mu, rho, cross)
    _store(streams[j], states[j], crossings[j], t0, t1, t2, t3, nu, sigma, other)
