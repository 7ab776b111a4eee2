"""The reduced step of a tied attention student with the trace reduction, L ≥ 3, no positional
encoding, written out (C4's attention at L ≥ 3, the authors' attention_square_overlapped).

:func:`ssi.sgd.reduced.advance_tied` hands this kernel the problems it covers: state (m, ρ), a
registry scalar target, any of the losses. The step is the generic kernel's and :mod:`ssi.links`'
(``softmax_rows``' L ≥ 3 branch, ``reduce_attention``, ``softmax_vjp_diagonal``) in the same order
on the same draws of the same stream, so the numbers are the same bit for bit
(tests/unit/sgd/test_specialised_kernels.py), in one compiled loop with the softmax in a local
L × L array and no call per step; the token projection is written as in :mod:`ssi.sgd.tied_ff`.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..codes import LOSS_HALF_SQUARE, R_TRACE, T_CUSTOM, T_HE_SUM, T_MIXTURE
from ..links import loss_factor
from ..random_streams import any_gamma, gamma_constants, load, normal, store
from ..target_links import hermite_he, target_scalar
from .tied_ff import renormalise


@njit(inline="always")
def covers(L, k, tcode, scode_is_attention, reduction):
    """Whether :func:`advance_tied_attention` takes a problem (L tokens, ``k`` PE directions)."""
    return (L >= 3 and k == 0 and scode_is_attention and reduction == R_TRACE and tcode != T_MIXTURE
            and tcode != T_CUSTOM)


@njit(inline="always")
def _trace_of_softmax(q, A):
    """A = softmax_row(q qᵀ) (row maximum subtracted); return Σ_i A_ii (from 0)."""
    L = q.shape[0]
    for i in range(L):
        qi = q[i]
        biggest = qi * q[0]
        for j in range(1, L):
            biggest = max(biggest, qi * q[j])
        total = 0.0
        for j in range(L):
            v = math.exp(qi * q[j] - biggest)
            A[i, j] = v
            total += v
        inverse = 1.0 / total
        for j in range(L):
            A[i, j] *= inverse
    s = 0.0
    for i in range(L):
        s += A[i, i]
    return s


@njit(inline="always")
def _gradient(q, A, g, a):
    """a = ∂/∂q ⟨g I, softmax_row(q qᵀ)⟩ (``softmax.softmax_vjp_diagonal`` into a zeroed ``a``)."""
    L = q.shape[0]
    for l in range(L):
        a[l] = 0.0
    for i in range(L):
        inner = g * A[i, i]
        own = a[i]
        for j in range(L):
            h = A[i, j] * ((g if i == j else 0.0) - inner)
            own += h * q[j]
            if j == i:
                own += h * q[i]
            else:
                a[j] += h * q[i]
        a[i] = own


@njit(nogil=True, cache=True, error_model="numpy")
def advance_tied_attention(stream, state, n_steps, d, lr, pe, tcode, tparams, sparams, lcode, threshold, crossing,
                           step0):
    """:func:`ssi.sgd.reduced.advance_tied` for the problems :func:`covers` takes (same arguments
    but the student code; the same numbers)."""
    L = pe.shape[0]
    m = state[0]
    rho = state[1]
    n_star = np.empty(L)
    n_perp = np.empty(L)
    q = np.empty(L)
    a = np.empty(L)
    A = np.empty((L, L))
    step = lr / d
    rest_shape = 0.5 * (d - 2)
    gamma_b, gamma_c = gamma_constants(rest_shape)
    he_sum = tcode == T_HE_SUM
    order = int(tparams[0])
    scale = tparams[1] if he_sum else 0.0
    root = math.sqrt(L)
    cross = crossing[0]
    s0, s1, s2, s3 = load(stream)
    for t in range(n_steps):
        y = 0.0
        for l in range(L):
            s0, s1, s2, s3, z = normal(s0, s1, s2, s3)
            s0, s1, s2, s3, v = normal(s0, s1, s2, s3)
            n_star[l] = z
            n_perp[l] = v
            q[l] = (0.0 + z * m) + v * rho + 0.0
            if he_sum:
                y += hermite_he(order, z)
        y = scale * y if he_sum else target_scalar(tcode, tparams, n_star)
        r = _trace_of_softmax(q, A) / root - y
        _gradient(q, A, r / root, a)
        factor = 1.0 if lcode == LOSS_HALF_SQUARE else loss_factor(lcode, 0.5 * r * r, 1)[0]
        a_sq = 0.0
        along_u = 0.0
        for l in range(L):
            al = a[l] if lcode == LOSS_HALF_SQUARE else a[l] * factor
            a_sq += al * al
            along_u += al * n_perp[l]
            m -= step * al * n_star[l]
        rho_u = rho - step * along_u
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
