"""The reduced step of the matched student on a He_k sum target without positional encoding, written out.

:func:`ssi.sgd.reduced.advance_tied` hands this kernel the problems it covers: the matched student
f(q) = c Σ_l He_k(q_l) on the target g(z) = c Σ_l He_k(z_l) (C1's and C6's SIE k cases), any L, no
PE direction (state (m, ρ)), any of the losses. The per-token gradient is
a_l = r c k He_{k−1}(q_l) (``target_links.target_scalar_vjp``), rescaled for the other losses as
``links.other_loss`` does. The operations are the generic kernel's and :mod:`ssi.links`' in the
same order on the same draws of the same stream, so the numbers are the same bit for bit
(tests/unit/sgd/test_specialised_kernels.py); the token projection is the generic kernel's
(:func:`ssi.sgd.feedforward.tied_projection`).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..codes import LOSS_HALF_SQUARE, T_HE_SUM
from ..target_links import hermite_he
from ..escape import crossed
from .feedforward import (
    close_step,
    constants,
    descend,
    load_tied,
    loss_scale,
    remainder,
    renormalise,
    store_tied,
    tied_token,
)


@njit(inline="always")
def covers(k, tcode, scode_is_matched):
    """Whether :func:`advance_tied_matched` takes a problem (``k`` PE directions)."""
    return k == 0 and scode_is_matched and tcode == T_HE_SUM


@njit(inline="always")
def _draw(s0, s1, s2, s3, m, rho, k, n_star, n_perp, q):
    """Draw the tokens' coordinates (z_l, v_l), store them and q_l; return the stream's state and
    Σ_l He_k(z_l), Σ_l He_k(q_l) (in token order, from 0)."""
    h = 0.0
    y = 0.0
    f = 0.0
    for l in range(q.shape[0]):
        s0, s1, s2, s3, n_star[l], n_perp[l], x, h, y = tied_token(s0, s1, s2, s3, m, rho, True, k, h, y)
        q[l] = x
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
        m, a_sq, along_u = descend(m, a_sq, along_u, a, step, n_star[l], n_perp[l])
    return m, rho - step * along_u, a_sq


@njit(nogil=True, cache=True, error_model="numpy")
def advance_tied_matched(stream, state, n_steps, d, lr, pe, tcode, tparams, sparams, lcode, threshold, crossing,
                         step0):
    """:func:`ssi.sgd.reduced.advance_tied` for the problems :func:`covers` takes (same arguments
    but the student code; the same numbers)."""
    L = pe.shape[0]
    n_star = np.empty(L)
    n_perp = np.empty(L)
    q = np.empty(L)
    step, rest_shape, gamma_b, gamma_c, _, k, scale, _ = constants(d, lr, tcode, tparams, sparams)
    s0, s1, s2, s3, m, rho, cross = load_tied(stream, state, crossing)
    for t in range(n_steps):
        s0, s1, s2, s3, y, f = _draw(s0, s1, s2, s3, m, rho, k, n_star, n_perp, q)
        r = scale * f - scale * y
        m, rho_u, a_sq = _update(m, rho, r, scale, k, loss_scale(r, lcode), lcode, step, n_star, n_perp, q)
        s0, s1, s2, s3, m, rho = close_step(s0, s1, s2, s3, m, rho_u, a_sq, step, rest_shape, gamma_b, gamma_c)
        cross = crossed(cross, m, threshold, step0 + t + 1)
    store_tied(stream, state, crossing, s0, s1, s2, s3, m, rho, cross)


@njit(nogil=True, cache=True, error_model="numpy")
def advance_tied_matched_pair(streams, states, crossings, i, j, n_steps, d, lr, pe, tcode, tparams, sparams, lcode,
                              threshold, step0):
    """:func:`advance_tied_matched` for the replicates ``i`` and ``j`` (rows of ``streams``,
    ``states``, ``crossings``) at once, phase by phase: their steps are independent, so the processor
    overlaps them. Each replicate's numbers are those of :func:`advance_tied_matched`."""
    L = pe.shape[0]
    n_star = np.empty(L)
    n_perp = np.empty(L)
    q = np.empty(L)
    m_star = np.empty(L)
    m_perp = np.empty(L)
    p = np.empty(L)
    step, rest_shape, gamma_b, gamma_c, _, k, scale, _ = constants(d, lr, tcode, tparams, sparams)
    s0, s1, s2, s3, m, rho, cross = load_tied(streams[i], states[i], crossings[i])
    t0, t1, t2, t3, n, sigma, other = load_tied(streams[j], states[j], crossings[j])
    for t in range(n_steps):
        s0, s1, s2, s3, y, f = _draw(s0, s1, s2, s3, m, rho, k, n_star, n_perp, q)
        t0, t1, t2, t3, x, h = _draw(t0, t1, t2, t3, n, sigma, k, m_star, m_perp, p)
        r = scale * f - scale * y
        u = scale * h - scale * x
        m, rho_u, a_sq = _update(m, rho, r, scale, k, loss_scale(r, lcode), lcode, step, n_star, n_perp, q)
        n, sigma_u, b_sq = _update(n, sigma, u, scale, k, loss_scale(u, lcode), lcode, step, m_star, m_perp, p)
        s0, s1, s2, s3, g = remainder(s0, s1, s2, s3, a_sq, rest_shape, gamma_b, gamma_c)
        t0, t1, t2, t3, e = remainder(t0, t1, t2, t3, b_sq, rest_shape, gamma_b, gamma_c)
        m, rho = renormalise(m, rho_u, a_sq, step, g)
        n, sigma = renormalise(n, sigma_u, b_sq, step, e)
        cross = crossed(cross, m, threshold, step0 + t + 1)
        other = crossed(other, n, threshold, step0 + t + 1)
    store_tied(streams[i], states[i], crossings[i], s0, s1, s2, s3, m, rho, cross)
    store_tied(streams[j], states[j], crossings[j], t0, t1, t2, t3, n, sigma, other)
