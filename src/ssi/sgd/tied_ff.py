"""The reduced step of a tied feed-forward student without positional encoding, written out.

:func:`ssi.sgd.reduced.advance_tied` hands this kernel the problems it covers: the tied student
σ((1/√L) Σ_l x_l·w) with no PE direction (state (m, ρ)), any L, a registry activation, a registry
scalar target and any of the losses (:func:`ssi.sgd.feedforward.covers`). The per-token gradient is
one scalar (:func:`ssi.sgd.feedforward.gradient`), the state lives in two scalars, the target He_k
sum is accumulated while the tokens are drawn. The operations are the generic kernel's and
:mod:`ssi.links`' in the same order on the same draws of the same stream, so the numbers are the
same bit for bit (tests/unit/sgd/test_specialised_kernels.py). That includes the generic kernel's
token projection q_l = (0 + z_l m) + v_l ρ + 0 (an empty PE sum): the zeros change only the sign of
an exact zero, and they are kept so that not even that differs.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..random_streams import any_gamma, load, normal, store
from ..target_links import hermite_he, target_scalar
from .feedforward import constants, gradient
from .feedforward import covers as covers_feedforward


@njit(inline="always")
def covers(k, tcode, scode_is_feedforward, acode):
    """Whether :func:`advance_tied_ff` takes a problem (``k`` PE directions)."""
    return k == 0 and covers_feedforward(tcode, scode_is_feedforward, acode)


@njit(inline="always")
def _update(m, rho, a, step, n_star, n_perp):
    """The step's (m, ρ) before the unseen directions' χ² term: m − η/d Σ_l a z_l (in token order),
    ρ_u = ρ − η/d Σ_l a v_l, and Σ_l a²."""
    ca = step * a
    a_sq = 0.0
    along_u = 0.0
    for l in range(n_star.shape[0]):
        a_sq += a * a
        along_u += a * n_perp[l]
        m -= ca * n_star[l]
    return m, rho - step * along_u, a_sq


@njit(inline="always")
def renormalise(m, rho_u, a_sq, step, g):
    """(m, ρ) on the unit sphere after adding the unseen directions' 2 (η/d)² Σ a² · g to ρ²."""
    rho = math.sqrt(rho_u * rho_u + 2.0 * step * step * a_sq * g) if a_sq > 0.0 else abs(rho_u)
    norm = rho * rho
    norm += m * m
    inverse = 1.0 / math.sqrt(norm)
    return m * inverse, rho * inverse


@njit(nogil=True, cache=True, error_model="numpy")
def advance_tied_ff(stream, state, n_steps, d, lr, pe, tcode, tparams, sparams, lcode, threshold, crossing, step0):
    """:func:`ssi.sgd.reduced.advance_tied` for the problems :func:`covers` takes (same arguments
    but the student code; the same numbers)."""
    L = pe.shape[0]
    m = state[0]
    rho = state[1]
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
            h += (0.0 + z * m) + v * rho + 0.0
            if he_sum:
                y += hermite_he(k, z)
        y = scale * y if he_sum else target_scalar(tcode, tparams, n_star)
        a = gradient(code, h, root, y, lcode)
        m, rho_u, a_sq = _update(m, rho, a, step, n_star, n_perp)
        g = 0.0
        if a_sq > 0.0:
            s0, s1, s2, s3, g = any_gamma(s0, s1, s2, s3, rest_shape, gamma_b, gamma_c)
        m, rho = renormalise(m, rho_u, a_sq, step, g)
        if cross < 0 and abs(m) >= threshold:
            cross = step0 + t + 1
    state[0] = m
    state[1] = rho
    crossing[0] = cross
    store(stream, s0, s1, s2, s3)


@njit(nogil=True, cache=True, error_model="numpy")
def advance_tied_ff_pair(streams, states, crossings, i, j, n_steps, d, lr, pe, tcode, tparams, sparams, lcode,
                         threshold, step0):
    """:func:`advance_tied_ff` for the replicates ``i`` and ``j`` (rows of ``streams``, ``states``,
    ``crossings``) at once, phase by phase: their steps are independent, so the processor overlaps
    them. Each replicate's numbers are those of :func:`advance_tied_ff`."""
    L = pe.shape[0]
    m, rho = states[i, 0], states[i, 1]
    n, sigma = states[j, 0], states[j, 1]
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
            h += (0.0 + z * m) + v * rho + 0.0
            f += (0.0 + w * n) + u * sigma + 0.0
            if he_sum:
                y += hermite_he(k, z)
                x += hermite_he(k, w)
        y = scale * y if he_sum else target_scalar(tcode, tparams, n_star)
        x = scale * x if he_sum else target_scalar(tcode, tparams, m_star)
        a = gradient(code, h, root, y, lcode)
        b = gradient(code, f, root, x, lcode)
        m, rho_u, a_sq = _update(m, rho, a, step, n_star, n_perp)
        n, sigma_u, b_sq = _update(n, sigma, b, step, m_star, m_perp)
        g = 0.0
        if a_sq > 0.0:
            s0, s1, s2, s3, g = any_gamma(s0, s1, s2, s3, rest_shape, gamma_b, gamma_c)
        e = 0.0
        if b_sq > 0.0:
            t0, t1, t2, t3, e = any_gamma(t0, t1, t2, t3, rest_shape, gamma_b, gamma_c)
        m, rho = renormalise(m, rho_u, a_sq, step, g)
        n, sigma = renormalise(n, sigma_u, b_sq, step, e)
        if cross < 0 and abs(m) >= threshold:
            cross = step0 + t + 1
        if other < 0 and abs(n) >= threshold:
            other = step0 + t + 1
    states[i, 0], states[i, 1] = m, rho
    states[j, 0], states[j, 1] = n, sigma
    crossings[i, 0] = cross
    crossings[j, 0] = other
    store(streams[i], s0, s1, s2, s3)
    store(streams[j], t0, t1, t2, t3)
