"""The registry's target links g(z) and their gradients, per sample, compiled with numba.

``target_scalar`` and ``target_scalar_vjp`` are the two names through which every kernel of
:mod:`ssi.links` sees a scalar target: :mod:`ssi.kernels` compiles copies of those kernels
with a user's function in their place. ``mixture_value`` is the matrix-valued "mixture"
target. Codes and parameters: :mod:`ssi.codes` (docs/theory.md, "Model and conventions").
"""
from __future__ import annotations

import math

from numba import njit

from .codes import (M_SOFTMAX, SQRT2, SQRT3, T_COMPLETE_STAIRCASE, T_DIFF, T_FIRST_SUM, T_HE2_DIFF,
                    T_HE4_PLUS_DIFF, T_HE_SUM, T_LINEAR, T_PRODUCT, T_STAIRCASE_N)
from .softmax import softmax_rows

_jit = njit(cache=True, inline="always")


@_jit
def hermite_he(k, x):
    """Probabilists' Hermite polynomial He_k(x) (closed forms to k = 4, then the recurrence)."""
    if k == 0:
        return 1.0
    if k == 1:
        return x
    x2 = x * x
    if k == 2:
        return x2 - 1.0
    if k == 3:
        return x * (x2 - 3.0)
    if k == 4:
        return x2 * (x2 - 6.0) + 3.0
    h_prev = x * (x2 - 3.0)
    h = x2 * (x2 - 6.0) + 3.0
    for n in range(4, k):
        h_prev, h = h, x * h - n * h_prev
    return h


@_jit
def mixture_value(tparams, z, mats, slot):
    """mats[slot] = (1−ω) softmax_row(z zᵀ) + ω A(a), A(a) = softmax_row([[a², −a²], [−a², a²]])."""
    L = z.shape[0]
    omega = tparams[0]
    a2 = tparams[1] * tparams[1]
    softmax_rows(z, mats, M_SOFTMAX)
    for i in range(L):
        for j in range(L):
            pattern = 1.0 / (1.0 + math.exp((-2.0 if i == j else 2.0) * a2))
            mats[slot, i, j] = (1.0 - omega) * mats[M_SOFTMAX, i, j] + omega * pattern


@_jit
def target_scalar(tcode, tparams, z):
    """g(z) for the scalar targets."""
    L = z.shape[0]
    if tcode == T_LINEAR:
        s = 0.0
        for l in range(L):
            s += z[l]
        return tparams[0] * s / math.sqrt(L)
    if tcode == T_HE_SUM:
        k = int(tparams[0])
        s = 0.0
        for l in range(L):
            s += hermite_he(k, z[l])
        return tparams[1] * s
    if tcode == T_PRODUCT:
        p = 1.0
        for l in range(int(tparams[0])):
            p *= z[l]
        return tparams[1] * p
    if tcode == T_DIFF:
        return tparams[0] * (z[0] - z[1])
    if tcode == T_HE2_DIFF:
        return tparams[0] * ((z[0] * z[0] - z[1] * z[1]) / SQRT2)
    if tcode == T_HE4_PLUS_DIFF:
        c4 = tparams[0] / math.sqrt(24.0)
        return c4 * (hermite_he(4, z[0]) + hermite_he(4, z[1])) + tparams[1] * (z[0] - z[1])
    if tcode == T_FIRST_SUM:
        s = 0.0
        for l in range(int(tparams[0])):
            s += z[l]
        return tparams[1] * s
    if tcode == T_STAIRCASE_N:
        s = 0.0
        p = 1.0
        for l in range(int(tparams[0])):
            p *= z[l]
            s += p
        return tparams[1] * s
    if tcode == T_COMPLETE_STAIRCASE:
        p = z[0]
        for l in range(1, L):
            p *= 1.0 + z[l]
        return tparams[0] * p
    return tparams[0] * ((z[0] + z[0] * z[1] + z[0] * z[1] * z[2]) / SQRT3)      # T_STAIRCASE


@_jit
def target_scalar_vjp(tcode, tparams, z, c, grad):
    """grad = c ∂g/∂z for the scalar targets (length L)."""
    L = z.shape[0]
    for l in range(L):
        grad[l] = 0.0
    if tcode == T_LINEAR:
        for l in range(L):
            grad[l] = c * tparams[0] / math.sqrt(L)
    elif tcode == T_HE_SUM:
        k = int(tparams[0])
        for l in range(L):
            grad[l] = c * tparams[1] * k * hermite_he(k - 1, z[l])      # He_k' = k He_{k−1}
    elif tcode == T_PRODUCT:
        n = int(tparams[0])
        for l in range(n):
            p = 1.0
            for j in range(n):
                if j != l:
                    p *= z[j]
            grad[l] = c * tparams[1] * p
    elif tcode == T_DIFF:
        grad[0] = c * tparams[0]
        grad[1] = -c * tparams[0]
    elif tcode == T_HE2_DIFF:
        grad[0] = c * tparams[0] * SQRT2 * z[0]
        grad[1] = -c * tparams[0] * SQRT2 * z[1]
    elif tcode == T_HE4_PLUS_DIFF:
        c4 = 4.0 * tparams[0] / math.sqrt(24.0)                       # He_4' = 4 He_3
        grad[0] = c * (c4 * hermite_he(3, z[0]) + tparams[1])
        grad[1] = c * (c4 * hermite_he(3, z[1]) - tparams[1])
    elif tcode == T_FIRST_SUM:
        for l in range(int(tparams[0])):
            grad[l] = c * tparams[1]
    elif tcode == T_STAIRCASE_N:
        n = int(tparams[0])
        for j in range(n):                 # ∂/∂z_j Σ_k Π_{l≤k} z_l = Σ_{k≥j} Π_{l≤k, l≠j} z_l
            s = 0.0
            for k in range(j, n):
                p = 1.0
                for l in range(k + 1):
                    if l != j:
                        p *= z[l]
                s += p
            grad[j] = c * tparams[1] * s
    elif tcode == T_COMPLETE_STAIRCASE:
        for j in range(L):
            p = 1.0 if j == 0 else z[0]
            for l in range(1, L):
                if l != j:
                    p *= 1.0 + z[l]
            grad[j] = c * tparams[0] * p
    else:                                                           # T_STAIRCASE
        grad[0] = c * tparams[0] * (1.0 + z[1] + z[1] * z[2]) / SQRT3
        grad[1] = c * tparams[0] * (z[0] + z[0] * z[2]) / SQRT3
        grad[2] = c * tparams[0] * (z[0] * z[1]) / SQRT3

