"""The reduced step of a tied feed-forward student without positional encoding, written out.

:func:`ssi.sgd.reduced.advance_tied` hands this kernel the problems it covers: the tied student
σ((1/√L) Σ_l x_l·w) with no PE direction (state (m, ρ)), any L, a registry activation, a registry
scalar target and any of the losses (:func:`ssi.sgd.feedforward.covers`). The per-token gradient is
one scalar (:func:`ssi.sgd.feedforward.gradient`), the state lives in two scalars, the target He_k
sum is accumulated while the tokens are drawn. The operations are the generic kernel's and
:mod:`ssi.links`' in the same order on the same draws of the same stream, so the numbers are the
same bit for bit (tests/unit/sgd/test_specialised_kernels.py). That includes the generic kernel's
token projection (:func:`ssi.sgd.feedforward.tied_projection`).
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..escape import crossed
from .feedforward import (
    close_step,
    constants,
    descend,
    draw_tied,
    gradient,
    load_tied,
    remainder,
    renormalise,
    store_tied,
    target_value,
    tied_token,
)
from .feedforward import covers as covers_feedforward


@njit(inline="always")
def covers(k, tcode, scode_is_feedforward, acode):
    """Whether :func:`advance_tied_ff` takes a problem (``k`` PE directions)."""
    return k == 0 and covers_feedforward(tcode, scode_is_feedforward, acode)


@njit(inline="always")
def _update(m, rho, a, step, n_star, n_perp):
    """The step's (m, ρ) before the unseen directions' χ² term: m − η/d Σ_l a z_l (in token order),
    ρ_u = ρ − η/d Σ_l a v_l, and Σ_l a²."""
    a_sq = 0.0
    along_u = 0.0
    for l in range(n_star.shape[0]):
        m, a_sq, along_u = descend(m, a_sq, along_u, a, step, n_star[l], n_perp[l])
    return m, rho - step * along_u, a_sq


@njit(nogil=True, cache=True, error_model="numpy")
def advance_tied_ff(stream, state, n_steps, d, lr, pe, tcode, tparams, sparams, lcode, threshold, crossing, step0):
    """:func:`ssi.sgd.reduced.advance_tied` for the problems :func:`covers` takes (same arguments
    but the student code; the same numbers)."""
    L = pe.shape[0]
    n_star = np.empty(L)
    n_perp = np.empty(L)
    q = np.empty(L)
    step, rest_shape, gamma_b, gamma_c, he_sum, k, scale, code = constants(d, lr, tcode, tparams, sparams)
    root = math.sqrt(L)
    s0, s1, s2, s3, m, rho, cross = load_tied(stream, state, crossing)
    for t in range(n_steps):
        s0, s1, s2, s3, h, y = draw_tied(s0, s1, s2, s3, m, rho, he_sum, k, n_star, n_perp, q)
        a = gradient(code, h, root, target_value(he_sum, scale, y, tcode, tparams, n_star), lcode)
        m, rho_u, a_sq = _update(m, rho, a, step, n_star, n_perp)
        s0, s1, s2, s3, m, rho = close_step(s0, s1, s2, s3, m, rho_u, a_sq, step, rest_shape, gamma_b, gamma_c)
        cross = crossed(cross, m, threshold, step0 + t + 1)
    store_tied(stream, state, crossing, s0, s1, s2, s3, m, rho, cross)


@njit(nogil=True, cache=True, error_model="numpy")
def advance_tied_ff_pair(streams, states, crossings, i, j, n_steps, d, lr, pe, tcode, tparams, sparams, lcode,
                         threshold, step0):
    """:func:`advance_tied_ff` for the replicates ``i`` and ``j`` (rows of ``streams``, ``states``,
    ``crossings``) at once, phase by phase: their steps are independent, so the processor overlaps
    them. Each replicate's numbers are those of :func:`advance_tied_ff`."""
    L = pe.shape[0]
    n_star = np.empty(L)
    n_perp = np.empty(L)
    q = np.empty(L)
    m_star = np.empty(L)
    m_perp = np.empty(L)
    p = np.empty(L)
    step, rest_shape, gamma_b, gamma_c, he_sum, k, scale, code = constants(d, lr, tcode, tparams, sparams)
    root = math.sqrt(L)
    s0, s1, s2, s3, m, rho, cross = load_tied(streams[i], states[i], crossings[i])
    t0, t1, t2, t3, n, sigma, other = load_tied(streams[j], states[j], crossings[j])
    for t in range(n_steps):
        h = 0.0
        y = 0.0
        f = 0.0
        x = 0.0
        for l in range(L):
            s0, s1, s2, s3, n_star[l], n_perp[l], q[l], h, y = tied_token(s0, s1, s2, s3, m, rho, he_sum, k, h, y)
            t0, t1, t2, t3, m_star[l], m_perp[l], p[l], f, x = tied_token(t0, t1, t2, t3, n, sigma, he_sum, k, f, x)
        a = gradient(code, h, root, target_value(he_sum, scale, y, tcode, tparams, n_star), lcode)
        b = gradient(code, f, root, target_value(he_sum, scale, x, tcode, tparams, m_star), lcode)
        m, rho_u, a_sq = _update(m, rho, a, step, n_star, n_perp)
        n, sigma_u, b_sq = _update(n, sigma, b, step, m_star, m_perp)
        s0, s1, s2, s3, g = remainder(s0, s1, s2, s3, a_sq, rest_shape, gamma_b, gamma_c)
        t0, t1, t2, t3, e = remainder(t0, t1, t2, t3, b_sq, rest_shape, gamma_b, gamma_c)
        m, rho = renormalise(m, rho_u, a_sq, step, g)
        n, sigma = renormalise(n, sigma_u, b_sq, step, e)
        cross = crossed(cross, m, threshold, step0 + t + 1)
        other = crossed(other, n, threshold, step0 + t + 1)
    store_tied(streams[i], states[i], crossings[i], s0, s1, s2, s3, m, rho, cross)
    store_tied(streams[j], states[j], crossings[j], t0, t1, t2, t3, n, sigma, other)
