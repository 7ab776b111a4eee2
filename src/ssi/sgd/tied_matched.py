"""The reduced step of the matched student on a He_k sum target without positional encoding, written out.

:func:`ssi.sgd.reduced.advance_tied` hands this kernel the problems it covers: the matched student
f(q) = c Σ_l He_k(q_l) on the target g(z) = c Σ_l He_k(z_l) (C1's and C6's SIE k cases), any L, no
PE direction (state (m, ρ)), any of the losses. The per-token gradient is
a_l = r c k He_{k−1}(q_l) (``target_links.target_scalar_vjp``), rescaled for the other losses as
``links.other_loss`` does. The operations are the generic kernel's and :mod:`ssi.links`' in the
same order on the same draws of the same stream, so the numbers are the same bit for bit
(tests/unit/sgd/test_specialised_kernels.py); the token projection is written as in
:mod:`ssi.sgd.tied_ff`.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..codes import LOSS_HALF_SQUARE, T_HE_SUM
from ..links import loss_factor
from ..random_streams import any_gamma, gamma_constants, load, normal, store
from ..target_links import hermite_he
from .tied_ff import renormalise


@njit(inline="always")
def covers(k, tcode, scode_is_matched):
    """Whether :func:`advance_tied_matched` takes a problem (``k`` PE directions)."""
    return k == 0 and scode_is_matched and tcode == T_HE_SUM


@njit(inline="always")
def _draw(s0, s1, s2, s3, m, rho, k, n_star, n_perp, q):
    """Draw the tokens' coordinates (z_l, v_l), store them and q_l; return the stream's state and
    Σ_l He_k(z_l), Σ_l He_k(q_l) (in token order, from 0)."""
    y = 0.0
    f = 0.0
    for l in range(n_star.shape[0]):
        s0, s1, s2, s3, z = normal(s0, s1, s2, s3)
        s0, s1, s2, s3, v = normal(s0, s1, s2, s3)
        n_star[l] = z
        n_perp[l] = v
        x = (0.0 + z * m) + v * rho + 0.0
        q[l] = x
        y += hermite_he(k, z)
        f += hermite_he(k, x)
    return s0, s1, s2, s3, y, f


@njit(inline="always")
def _update(m, rho, r, scale, k, factor, lcode, step, n_star, n_perp, q):
    """m − η/d Σ_l a_l z_l (in token order), ρ_u = ρ − η/d Σ_l a_l v_l and Σ_l a_l², with
    a_l = r c k He_{k−1}(q_l) (times the loss's factor)."""
    a_sq = 0.0
    along_u = 0.0
    for l in range(q.shape[0]):
        a = r * scale * k * hermite_he(k - 1, q[l])
        if lcode != LOSS_HALF_SQUARE:
            a *= factor
        a_sq += a * a
        along_u += a * n_perp[l]
        m -= step * a * n_star[l]
    return m, rho - step * along_u, a_sq


@njit(inline="always")
def _constants(d, lr, tparams):
    """η/d, the χ² shape of the d − 2 unseen directions and its sampler's constants, k and c."""
    rest_shape = 0.5 * (d - 2)
    gamma_b, gamma_c = gamma_constants(rest_shape)
    return lr / d, rest_shape, gamma_b, gamma_c, int(tparams[0]), tparams[1]


@njit(inline="always")
def _factor(r, lcode):
    """The loss's factor on the half-square gradient (one output entry)."""
    return 1.0 if lcode == LOSS_HALF_SQUARE else loss_factor(lcode, 0.5 * r * r, 1)[0]


@njit(nogil=True, cache=True, error_model="numpy")
def advance_tied_matched(stream, state, n_steps, d, lr, pe, tcode, tparams, sparams, lcode, threshold, crossing,
                         step0):
    """:func:`ssi.sgd.reduced.advance_tied` for the problems :func:`covers` takes (same arguments
    but the student code; the same numbers)."""
    L = pe.shape[0]
    m = state[0]
    rho = state[1]
    n_star = np.empty(L)
    n_perp = np.empty(L)
    q = np.empty(L)
    step, rest_shape, gamma_b, gamma_c, k, scale = _constants(d, lr, tparams)
    cross = crossing[0]
    s0, s1, s2, s3 = load(stream)
    for t in range(n_steps):
        s0, s1, s2, s3, y, f = _draw(s0, s1, s2, s3, m, rho, k, n_star, n_perp, q)
        r = scale * f - scale * y
        m, rho_u, a_sq = _update(m, rho, r, scale, k, _factor(r, lcode), lcode, step, n_star, n_perp, q)
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
def advance_tied_matched_pair(streams, states, crossings, i, j, n_steps, d, lr, pe, tcode, tparams, sparams, lcode,
                              threshold, step0):
    """:func:`advance_tied_matched` for the replicates ``i`` and ``j`` (rows of ``streams``,
    ``states``, ``crossings``) at once, phase by phase: their steps are independent, so the processor
    overlaps them. Each replicate's numbers are those of :func:`advance_tied_matched`."""
    L = pe.shape[0]
    m, rho = states[i, 0], states[i, 1]
    n, sigma = states[j, 0], states[j, 1]
    n_star = np.empty(L)
    n_perp = np.empty(L)
    q = np.empty(L)
    m_star = np.empty(L)
    m_perp = np.empty(L)
    p = np.empty(L)
    step, rest_shape, gamma_b, gamma_c, k, scale = _constants(d, lr, tparams)
    cross = crossings[i, 0]
    other = crossings[j, 0]
    s0, s1, s2, s3 = load(streams[i])
    t0, t1, t2, t3 = load(streams[j])
    for t in range(n_steps):
        s0, s1, s2, s3, y, f = _draw(s0, s1, s2, s3, m, rho, k, n_star, n_perp, q)
        t0, t1, t2, t3, x, h = _draw(t0, t1, t2, t3, n, sigma, k, m_star, m_perp, p)
        r = scale * f - scale * y
        u = scale * h - scale * x
        m, rho_u, a_sq = _update(m, rho, r, scale, k, _factor(r, lcode), lcode, step, n_star, n_perp, q)
        n, sigma_u, b_sq = _update(n, sigma, u, scale, k, _factor(u, lcode), lcode, step, m_star, m_perp, p)
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
