"""Per-sample links (targets and students) and their gradients, compiled with numba.

Every function here works on one sample: a vector of L pre-activations. The
simulators call them inside their hot loops; the batch wrappers at the bottom
vectorise them over samples for quadrature, Monte Carlo and the explicit engine.

Codes (small integers, :mod:`ssi.codes`, also in this module's namespace) select the
target, the student link, the reduction and the activation; the named registries that map
user-facing names to these codes live in :mod:`ssi.problems`. A branch on an integer code
costs nothing next to the arithmetic and lets numba compile (and cache) one function for all
problems instead of one per combination. The scalar targets are in :mod:`ssi.target_links`
and the attention softmax in :mod:`ssi.softmax` (both re-exported here); this module
composes them into students and losses.

Scratch space is one preallocated array ``mats`` (4, L, L), indexed in place
(no slicing in the hot path: every slice of a numba array costs an atomic
reference count), and scalar outputs travel as floats.

Conventions (docs/theory.md, "Model and conventions"): ``y = g(z*)``, ``ŷ = f(q)``,
per-sample loss ``ℓ = ½‖ŷ − y‖²`` (squared Frobenius norm for matrix outputs), and the
per-token derivative ``a_l = ∂ℓ/∂q_l``. Other per-sample losses (the authors' conventions,
docs/theory.md, "The authors' conventions") are selected by a loss code: ``a`` is linear
in the output cotangent ``∂ℓ/∂ŷ``, so it is computed once for ½‖ŷ − y‖² (cotangent
``ŷ − y``) and rescaled: "mse" (torch's MSELoss, the mean of ``(ŷ − y)²`` over the
``n_out`` output entries) multiplies loss and ``a`` by ``2/n_out``; "frobenius"
(``‖ŷ − y‖``, not squared) has cotangent ``(ŷ − y)/‖ŷ − y‖``, so ``a`` is divided by
``‖ŷ − y‖`` (and is 0 where the residual vanishes).
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

# the codes are part of this module's namespace (links.T_LINEAR, ...)
from .codes import T_LINEAR, T_HE_SUM, T_PRODUCT, T_DIFF, T_HE2_DIFF, T_STAIRCASE  # noqa: F401
from .codes import T_MIXTURE, T_HE4_PLUS_DIFF, T_FIRST_SUM, T_STAIRCASE_N, T_COMPLETE_STAIRCASE, T_CUSTOM  # noqa: F401
from .codes import S_ATTENTION, S_FEEDFORWARD, S_MATCHED  # noqa: F401
from .codes import R_IDENTITY, R_TRACE, R_PROJECTION  # noqa: F401
from .codes import A_RELU, A_IDENTITY, A_SQUARE, A_HE2, A_TANH, A_SIGMOID, A_CUSTOM  # noqa: F401
from .codes import LOSS_HALF_SQUARE, LOSS_MSE, LOSS_FROBENIUS  # noqa: F401
from .codes import M_SOFTMAX, M_COTANGENT, M_TARGET, M_PATTERN  # noqa: F401
from .codes import SQRT2, SQRT3  # noqa: F401
from .softmax import attention2_mixture, attention2_scalar, logistic, softmax_rows, softmax_vjp, softmax_vjp_diagonal
from .target_links import hermite_he, mixture_value, target_scalar, target_scalar_vjp  # noqa: F401 (hermite_he)

_jit = njit(cache=True, inline="always")


def scratch(L):
    """Scratch array for :func:`loss_and_grad` at sequence length L."""
    return np.zeros((4, L, L))


@_jit
def activation(code, h):
    """σ(h) of the registry's activation ``code`` (``A_*``)."""
    if code == A_RELU:
        return max(h, 0.0)
    if code == A_IDENTITY:
        return h
    if code == A_SQUARE:
        return h * h
    if code == A_HE2:
        return (h * h - 1.0) / SQRT2
    if code == A_SIGMOID:
        return logistic(h)
    return math.tanh(h)


@_jit
def activation_derivative(code, h):
    """σ'(h) of the registry's activation ``code`` (``A_*``)."""
    if code == A_RELU:
        return 1.0 if h > 0.0 else 0.0
    if code == A_IDENTITY:
        return 1.0
    if code == A_SQUARE:
        return 2.0 * h
    if code == A_HE2:
        return SQRT2 * h
    if code == A_SIGMOID:
        s = logistic(h)
        return s * (1.0 - s)
    t = math.tanh(h)
    return 1.0 - t * t


@_jit
def reduce_attention(sparams, mats):
    """Scalar reduction of the attention matrix in mats[M_SOFTMAX] (trace or projection)."""
    L = mats.shape[1]
    s = 0.0
    if int(sparams[0]) == R_TRACE:
        for i in range(L):
            s += mats[M_SOFTMAX, i, i]
        return s / math.sqrt(L)
    for i in range(L):
        for j in range(L):
            s += sparams[1 + i] * mats[M_SOFTMAX, i, j] * sparams[1 + L + j]
    return s


@_jit
def student_scalar(scode, sparams, tcode, tparams, q, mats):
    """f(q) for the scalar students; attention leaves softmax_row(q qᵀ) in mats[M_SOFTMAX]."""
    if scode == S_ATTENTION:
        softmax_rows(q, mats, M_SOFTMAX)
        return reduce_attention(sparams, mats)
    if scode == S_FEEDFORWARD:
        L = q.shape[0]
        h = 0.0
        for l in range(L):
            h += q[l]
        return activation(int(sparams[0]), h / math.sqrt(L))
    return target_scalar(tcode, tparams, q)


@_jit
def student_matrix(scode, tparams, q, mats, slot):
    """mats[slot] = f(q) for the matrix-valued students (attention, identity reduction; matched mixture)."""
    if scode == S_ATTENTION:
        softmax_rows(q, mats, M_SOFTMAX)
        L = q.shape[0]
        for i in range(L):
            for j in range(L):
                mats[slot, i, j] = mats[M_SOFTMAX, i, j]
    else:
        mixture_value(tparams, q, mats, slot)


@_jit
def attention2_scalar_loss_and_grad(sparams, y, q, a):
    """Attention with a scalar reduction at L = 2, in registers (the paper's main case):
    :func:`ssi.softmax.attention2_scalar` on the reduction's parameters."""
    q0 = q[0]
    q1 = q[1]
    a0, a1, half_square = attention2_scalar(y, q0, q1, logistic(q0 * (q0 - q1)), logistic(q1 * (q1 - q0)),
                                            int(sparams[0]) == R_TRACE, sparams[1], sparams[2], sparams[3], sparams[4])
    a[0] = a0
    a[1] = a1
    return half_square


@_jit
def attention2_mixture_loss_and_grad(tparams, zstar, q, a):
    """The mixture target with the attention student (identity reduction) at L = 2, in registers.

    The same floating-point operations, in the same order, as the generic path
    (mixture_value, student_matrix, the squared residual, softmax_vjp), so the numbers are
    identical bit for bit; without the scratch matrices' loads and stores.
    """
    omega = tparams[0]
    a2 = tparams[1] * tparams[1]
    keep = 1.0 - omega
    p_diag = 1.0 / (1.0 + math.exp(-2.0 * a2))
    p_off = 1.0 / (1.0 + math.exp(2.0 * a2))
    a0, a1, loss = attention2_mixture(zstar[0], zstar[1], q[0], q[1], keep, omega, p_diag, p_off)
    a[0] = a0
    a[1] = a1
    return loss


@_jit
def half_square_loss_and_grad(tcode, tparams, scode, sparams, zstar, q, a, mats):
    """Per-sample loss ℓ = ½‖f(q) − g(z*)‖²; writes a = ∂ℓ/∂q into ``a``."""
    L = q.shape[0]
    for l in range(L):
        a[l] = 0.0
    if tcode == T_MIXTURE and scode == S_ATTENTION and L == 2:
        return attention2_mixture_loss_and_grad(tparams, zstar, q, a)
    if tcode == T_MIXTURE:
        mixture_value(tparams, zstar, mats, M_TARGET)
        student_matrix(scode, tparams, q, mats, M_COTANGENT)   # leaves softmax_row(q qᵀ) in M_SOFTMAX
        loss = 0.0
        for i in range(L):
            for j in range(L):
                r = mats[M_COTANGENT, i, j] - mats[M_TARGET, i, j]
                mats[M_COTANGENT, i, j] = r
                loss += 0.5 * r * r
        # the matched student is (1 − ω) softmax + constant
        softmax_vjp(q, mats, a, 1.0 if scode == S_ATTENTION else 1.0 - tparams[0])
        return loss
    return scalar_loss_and_grad(tcode, tparams, scode, sparams, target_scalar(tcode, tparams, zstar), q, a, mats)


@_jit
def scalar_loss_and_grad(tcode, tparams, scode, sparams, y, q, a, mats):
    """ℓ = ½ (f(q) − y)² for a scalar target value y; writes a = ∂ℓ/∂q into ``a`` (zeroed by the caller).

    The target enters only through y, and through (tcode, tparams) for the matched student;
    :mod:`ssi.custom` compiles copies of this function with a user's target in their place.
    """
    L = q.shape[0]
    if scode == S_ATTENTION and L == 2:
        return attention2_scalar_loss_and_grad(sparams, y, q, a)
    r = student_scalar(scode, sparams, tcode, tparams, q, mats) - y
    if scode == S_ATTENTION:
        if int(sparams[0]) == R_TRACE:          # cotangent (r/√L)·I
            softmax_vjp_diagonal(q, mats, r / math.sqrt(L), a)
        else:
            for i in range(L):
                for j in range(L):
                    mats[M_COTANGENT, i, j] = r * sparams[1 + i] * sparams[1 + L + j]
            softmax_vjp(q, mats, a, 1.0)
    elif scode == S_FEEDFORWARD:
        h = 0.0
        for l in range(L):
            h += q[l]
        g = r * activation_derivative(int(sparams[0]), h / math.sqrt(L)) / math.sqrt(L)
        for l in range(L):
            a[l] = g
    else:
        target_scalar_vjp(tcode, tparams, q, r, a)
    return 0.5 * r * r


@_jit
def loss_factor(lcode, half_square, n_out):
    """``(factor, loss)`` of loss ``lcode`` (not the half square) from ½‖R‖²: its a = ∂ℓ/∂q is the
    half-square loss's a times ``factor`` (the cotangent is linear in R, module docstring)."""
    if lcode == LOSS_MSE:
        c = 2.0 / n_out
        return c, c * half_square
    norm = math.sqrt(2.0 * half_square)                      # LOSS_FROBENIUS: ‖R‖
    return (1.0 / norm if norm > 0.0 else 0.0), norm


@njit(cache=True)   # not inlined: keeps the rarely taken branch out of the simulators' hot loop
def other_loss(lcode, half_square, a, n_out):
    """Loss ``lcode`` and its a = ∂ℓ/∂q from ½‖R‖² and the a of the half-square loss (rescaled in place)."""
    factor, loss = loss_factor(lcode, half_square, n_out)
    for l in range(a.shape[0]):
        a[l] *= factor
    return loss


# Not inlined into its callers (everything below it is): numba's IR inlining copies the whole
# inlined tree into every kernel, which made a cold compile of the kernels 4x slower (measured:
# 217 s vs 53 s of CPU for two problems on both engines), for no measurable gain per step and
# bit-identical results.
@njit(cache=True)
def loss_and_grad(tcode, tparams, scode, sparams, zstar, q, a, mats, lcode=LOSS_HALF_SQUARE):
    """Per-sample loss ℓ (default ½‖f(q) − g(z*)‖²); writes a = ∂ℓ/∂q into ``a``.

    ``mats``: scratch from :func:`scratch`; ``lcode``: one of the ``LOSS_*`` codes.
    """
    loss = half_square_loss_and_grad(tcode, tparams, scode, sparams, zstar, q, a, mats)
    if lcode == LOSS_HALF_SQUARE:
        return loss
    L = q.shape[0]
    return other_loss(lcode, loss, a, L * L if tcode == T_MIXTURE else 1)


# --- batch wrappers (vectorised over samples) --------------------------------
@njit(cache=True)
def batch_target(tcode, tparams, z, n_out):
    """g(z) for every row of z (n, L): array (n, n_out)."""
    n, L = z.shape
    out = np.empty((n, n_out))
    mats = np.zeros((4, L, L))
    for i in range(n):
        if tcode == T_MIXTURE:
            mixture_value(tparams, z[i], mats, M_TARGET)
            for j in range(n_out):
                out[i, j] = mats[M_TARGET, j // L, j % L]
        else:
            out[i, 0] = target_scalar(tcode, tparams, z[i])
    return out


@njit(cache=True)
def batch_student(scode, sparams, tcode, tparams, q, n_out):
    """f(q) for every row of q (n, L): array (n, n_out)."""
    n, L = q.shape
    out = np.empty((n, n_out))
    mats = np.zeros((4, L, L))
    for i in range(n):
        if tcode == T_MIXTURE:
            student_matrix(scode, tparams, q[i], mats, M_TARGET)
            for j in range(n_out):
                out[i, j] = mats[M_TARGET, j // L, j % L]
        else:
            out[i, 0] = student_scalar(scode, sparams, tcode, tparams, q[i], mats)
    return out


@njit(cache=True)
def batch_loss_and_grad(tcode, tparams, scode, sparams, zstar, q, lcode=LOSS_HALF_SQUARE):
    """Loss (n,) and a = ∂ℓ/∂q (n, L) for every row of zstar, q (n, L) (loss code ``lcode``)."""
    n, L = q.shape
    loss = np.empty(n)
    a = np.empty((n, L))
    mats = np.zeros((4, L, L))
    for i in range(n):
        loss[i] = loss_and_grad(tcode, tparams, scode, sparams, zstar[i], q[i], a[i], mats, lcode)
    return loss, a
