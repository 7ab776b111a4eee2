"""The reduced step of a tied attention student with the trace reduction, L ≥ 3, no positional
encoding, written out (C4's attention at L ≥ 3, the authors' attention_square_overlapped).

:func:`ssi.sgd.reduced.advance_tied` hands this kernel the problems it covers: state (m, ρ), a
registry scalar target, any of the losses. The step is the generic kernel's and :mod:`ssi.links`'
(``softmax_rows``' L ≥ 3 branch, ``reduce_attention``, ``softmax_vjp_diagonal``) in the same order
on the same draws of the same stream, so the numbers are the same bit for bit
(tests/unit/sgd/test_specialised_kernels.py), in one compiled loop with the softmax in a local
L × L array and no call per step; the tokens are drawn and projected as in :mod:`ssi.sgd.tied_ff`
(:func:`ssi.sgd.feedforward.draw_tied`).
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..codes import LOSS_HALF_SQUARE, R_TRACE, T_CUSTOM, T_MIXTURE
from ..softmax import score_softmax, trace_softmax_vjp
from ..escape import crossed
from .feedforward import (
    close_step,
    constants,
    descend,
    draw_tied,
    load_tied,
    loss_scale,
    store_tied,
    target_value,
)


@njit(inline="always")
def covers(L, k, tcode, scode_is_attention, reduction):
    """Whether :func:`advance_tied_attention` takes a problem (L tokens, ``k`` PE directions)."""
    return (L >= 3 and k == 0 and scode_is_attention and reduction == R_TRACE and tcode != T_MIXTURE
            and tcode != T_CUSTOM)


@njit(inline="always")
def _trace_of_softmax(q, A):
    """A = softmax_row(q qᵀ) (:func:`ssi.softmax.score_softmax`); return Σ_i A_ii (from 0)."""
    score_softmax(q, A)
    s = 0.0
    for i in range(q.shape[0]):
        s += A[i, i]
    return s


@njit(inline="always")
def _gradient(q, A, g, a):
    """a = ∂/∂q ⟨g I, softmax_row(q qᵀ)⟩ (``softmax.softmax_vjp_diagonal`` into a zeroed ``a``)."""
    for l in range(q.shape[0]):
        a[l] = 0.0
    trace_softmax_vjp(q, A, g, a)


@njit(inline="always")
def _update(m, rho, a, factor, lcode, step, n_star, n_perp):
    """m − η/d Σ_l a_l z_l (in token order), ρ_u = ρ − η/d Σ_l a_l v_l and Σ_l a_l², with a_l the
    half-square gradient ``a`` (times the loss's factor)."""
    a_sq = 0.0
    along_u = 0.0
    for l in range(a.shape[0]):
        al = a[l] if lcode == LOSS_HALF_SQUARE else a[l] * factor
        m, a_sq, along_u = descend(m, a_sq, along_u, al, step, n_star[l], n_perp[l])
    return m, rho - step * along_u, a_sq


@njit(nogil=True, cache=True, error_model="numpy")
def advance_tied_attention(stream, state, n_steps, d, lr, pe, tcode, tparams, sparams, lcode, threshold, crossing,
                           step0):
    """:func:`ssi.sgd.reduced.advance_tied` for the problems :func:`covers` takes (same arguments
    but the student code; the same numbers)."""
    L = pe.shape[0]
    n_star = np.empty(L)
    n_perp = np.empty(L)
    q = np.empty(L)
    a = np.empty(L)
    A = np.empty((L, L))
    step, rest_shape, gamma_b, gamma_c, he_sum, order, scale, _ = constants(d, lr, tcode, tparams, sparams)
    root = math.sqrt(L)
    s0, s1, s2, s3, m, rho, cross = load_tied(stream, state, crossing)
    for t in range(n_steps):
        s0, s1, s2, s3, _, y = draw_tied(s0, s1, s2, s3, m, rho, he_sum, order, n_star, n_perp, q)
        r = _trace_of_softmax(q, A) / root - target_value(he_sum, scale, y, tcode, tparams, n_star)
        _gradient(q, A, r / root, a)
        m, rho_u, a_sq = _update(m, rho, a, loss_scale(r, lcode), lcode, step, n_star, n_perp)
        s0, s1, s2, s3, m, rho = close_step(s0, s1, s2, s3, m, rho_u, a_sq, step, rest_shape, gamma_b, gamma_c)
        cross = crossed(cross, m, threshold, step0 + t + 1)
    store_tied(stream, state, crossing, s0, s1, s2, s3, m, rho, cross)
