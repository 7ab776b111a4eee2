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
from ..target_links import hermite_he, target_scalar
from .feedforward import constants, gradient


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


@njit(nogil=True, cache=True, error_model="numpy")
def advance_untied_ff(stream, state, n_steps, d, lr, tcode, tparams, sparams, lcode, threshold, crossing, step0):
    """:func:`ssi.sgd.reduced.advance_untied` for the problems :func:`covers` takes (same arguments
    but the student code; the same numbers)."""
    L = state.shape[0] // 2
    mu = state[:L].copy()
    rho = state[L:].copy()
    n_star = np.empty(L)
    n_perp = np.empty(L)
    step, rest_shape, gamma_b, gamma_c, he_sum, k, scale, code = constants(d, lr, tcode, tparams, sparams)
    root = math.sqrt(L)
    cross = crossing[0]
    s0, s1, s2, s3 = load(stream)
    for t in range(n_steps):
        h = 0.0
        y = 0.0
        for l in range(L):
            s0, s1, s2, s3, z = normal(s0, s1, s2, s3)
            s0, s1, s2, s3, v = normal(s0, s1, s2, s3)
            n_star[l] = z
            n_perp[l] = v
            h += mu[l] * z + rho[l] * v
            if he_sum:
                y += hermite_he(k, z)
        y = scale * y if he_sum else target_scalar(tcode, tparams, n_star)
        a = gradient(code, h, root, y, lcode)
        ca = step * a
        twice = 2.0 * step * step * a * a
        norm = 0.0
        for l in range(L):
            m = mu[l] - ca * n_star[l]
            rho_u = rho[l] - ca * n_perp[l]
            if a != 0.0:
                s0, s1, s2, s3, g = any_gamma(s0, s1, s2, s3, rest_shape, gamma_b, gamma_c)
                p = math.sqrt(rho_u * rho_u + twice * g)
            else:
                p = abs(rho_u)
            mu[l] = m
            rho[l] = p
            norm += m * m + p * p
        m = renormalised_sum(mu, rho, norm)
        if cross < 0 and abs(m / L) >= threshold:
            cross = step0 + t + 1
    state[:L] = mu
    state[L:] = rho
    crossing[0] = cross
    store(stream, s0, s1, s2, s3)


@njit(nogil=True, cache=True, error_model="numpy")
def advance_untied_ff_pair(streams, states, crossings, i, j, n_steps, d, lr, tcode, tparams, sparams, lcode,
                           threshold, step0):
    """:func:`advance_untied_ff` for the replicates ``i`` and ``j`` (rows of ``streams``, ``states``,
    ``crossings``) at once, phase by phase: their steps are independent, so the processor overlaps
    them. Each replicate's numbers are those of :func:`advance_untied_ff`."""
    L = states.shape[1] // 2
    mu = states[i, :L].copy()
    rho = states[i, L:].copy()
    nu = states[j, :L].copy()
    sigma = states[j, L:].copy()
    n_star = np.empty(L)
    n_perp = np.empty(L)
    m_star = np.empty(L)
    m_perp = np.empty(L)
    step, rest_shape, gamma_b, gamma_c, he_sum, k, scale, code = constants(d, lr, tcode, tparams, sparams)
    root = math.sqrt(L)
    cross = crossings[i, 0]
    other = crossings[j, 0]
    s0, s1, s2, s3 = load(streams[i])
    t0, t1, t2, t3 = load(streams[j])
    for t in range(n_steps):
        h = 0.0
        y = 0.0
        f = 0.0
        x = 0.0
        for l in range(L):
            s0, s1, s2, s3, z = normal(s0, s1, s2, s3)
            s0, s1, s2, s3, v = normal(s0, s1, s2, s3)
            t0, t1, t2, t3, w = normal(t0, t1, t2, t3)
            t0, t1, t2, t3, u = normal(t0, t1, t2, t3)
            n_star[l] = z
            n_perp[l] = v
            m_star[l] = w
            m_perp[l] = u
            h += mu[l] * z + rho[l] * v
            f += nu[l] * w + sigma[l] * u
            if he_sum:
                y += hermite_he(k, z)
                x += hermite_he(k, w)
        y = scale * y if he_sum else target_scalar(tcode, tparams, n_star)
        x = scale * x if he_sum else target_scalar(tcode, tparams, m_star)
        a = gradient(code, h, root, y, lcode)
        b = gradient(code, f, root, x, lcode)
        ca = step * a
        cb = step * b
        twice_a = 2.0 * step * step * a * a
        twice_b = 2.0 * step * step * b * b
        norm = 0.0
        norm_b = 0.0
        for l in range(L):
            m = mu[l] - ca * n_star[l]
            rho_u = rho[l] - ca * n_perp[l]
            n = nu[l] - cb * m_star[l]
            sigma_u = sigma[l] - cb * m_perp[l]
            if a != 0.0:
                s0, s1, s2, s3, g = any_gamma(s0, s1, s2, s3, rest_shape, gamma_b, gamma_c)
                p = math.sqrt(rho_u * rho_u + twice_a * g)
            else:
                p = abs(rho_u)
            if b != 0.0:
                t0, t1, t2, t3, g = any_gamma(t0, t1, t2, t3, rest_shape, gamma_b, gamma_c)
                o = math.sqrt(sigma_u * sigma_u + twice_b * g)
            else:
                o = abs(sigma_u)
            mu[l] = m
            rho[l] = p
            nu[l] = n
            sigma[l] = o
            norm += m * m + p * p
            norm_b += n * n + o * o
        inverse = math.sqrt(L / norm)
        inverse_b = math.sqrt(L / norm_b)
        m = 0.0
        n = 0.0
        for l in range(L):
            mu[l] *= inverse
            rho[l] *= inverse
            m += mu[l]
            nu[l] *= inverse_b
            sigma[l] *= inverse_b
            n += nu[l]
        if cross < 0 and abs(m / L) >= threshold:
            cross = step0 + t + 1
        if other < 0 and abs(n / L) >= threshold:
            other = step0 + t + 1
    states[i, :L] = mu
    states[i, L:] = rho
    states[j, :L] = nu
    states[j, L:] = sigma
    crossings[i, 0] = cross
    crossings[j, 0] = other
    store(streams[i], s0, s1, s2, s3)
    store(streams[j], t0, t1, t2, t3)
