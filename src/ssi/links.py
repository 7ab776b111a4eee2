"""Per-sample links (targets and students) and their gradients, compiled with numba.

Every function here works on one sample: a vector of L pre-activations. The
simulators call them inside their hot loops; the batch wrappers at the bottom
vectorise them over samples for quadrature, Monte Carlo and the explicit engine.

Codes (small integers) select the target, the student link, the reduction and
the activation; the named registries that map user-facing names to these codes
live in :mod:`ssi.problems`. A branch on an integer code costs nothing next to
the arithmetic and lets numba compile (and cache) one function for all
problems instead of one per combination.

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

# --- target codes -----------------------------------------------------------
# the scalar targets carry a scale s (Problem.target_scale) as their last tparam, or folded in
T_LINEAR = 0       # s (1/√L) Σ z_l; tparams = (s,)
T_HE_SUM = 1       # c · Σ He_k(z_l); tparams = (k, c) with c = s·norm/√(k!)
T_PRODUCT = 2      # s Π_{l<n} z_l; tparams = (n, s)
T_DIFF = 3         # s (z_1 − z_2); tparams = (s,)
T_HE2_DIFF = 4     # s (z_1² − z_2²)/√2; tparams = (s,)
T_STAIRCASE = 5    # s (z_1 + z_1 z_2 + z_1 z_2 z_3)/√3; tparams = (s,)
T_MIXTURE = 6      # (1−ω) softmax_row(z zᵀ) + ω A(a); tparams = (ω, a)
T_HE4_PLUS_DIFF = 7  # c4 (h_4(z_1) + h_4(z_2)) + c1 (z_1 − z_2); tparams = (c4, c1), h_4 = He_4/√24
T_FIRST_SUM = 8    # s Σ_{l<n} z_l; tparams = (n, s)
T_STAIRCASE_N = 9  # s Σ_{k≤n} Π_{l≤k} z_l (z_1 + z_1 z_2 + ...); tparams = (n, s)
T_COMPLETE_STAIRCASE = 10  # s z_1 Π_{l≥2} (1 + z_l); tparams = (s,)
T_CUSTOM = 11      # a user's function (ssi.custom); tparams = (s,). Only ssi.custom's kernels take it

# --- student link codes -----------------------------------------------------
S_ATTENTION = 0    # R[softmax_row(q qᵀ)]; sparams = (reduction, left(L), right(L))
S_FEEDFORWARD = 1  # σ((1/√L) Σ q_l); sparams = (activation,)
S_MATCHED = 2      # the target's own link applied to q

# --- reductions (attention) -------------------------------------------------
R_IDENTITY = 0
R_TRACE = 1
R_PROJECTION = 2

# --- activations (feed-forward) ---------------------------------------------
A_RELU = 0
A_IDENTITY = 1
A_SQUARE = 2
A_HE2 = 3
A_TANH = 4
A_SIGMOID = 5
A_CUSTOM = 6       # a user's activation (ssi.custom); only ssi.custom's kernels take it

# --- per-sample losses -------------------------------------------------------
LOSS_HALF_SQUARE = 0   # ½‖ŷ − y‖² (ours)
LOSS_MSE = 1           # mean over the n_out output entries of (ŷ − y)² (torch MSELoss)
LOSS_FROBENIUS = 2     # ‖ŷ − y‖ (Frobenius norm, not squared)

# --- scratch slots: mats has shape (4, L, L) ---------------------------------
M_SOFTMAX = 0      # a softmax matrix softmax_row(q qᵀ)
M_COTANGENT = 1    # ∂ℓ/∂A for the attention matrix A
M_TARGET = 2       # the matrix-valued target
M_PATTERN = 3      # the positional pattern A(a)

SQRT2 = math.sqrt(2.0)
SQRT3 = math.sqrt(3.0)

_jit = njit(cache=True, inline="always")


def scratch(L):
    """Scratch array for :func:`loss_and_grad` at sequence length L."""
    return np.zeros((4, L, L))


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
def _softmax_rows(q, mats, slot):
    """mats[slot] = softmax_row(q qᵀ), computed stably (row maximum subtracted)."""
    L = q.shape[0]
    if L == 2:
        # two tokens: each row is a logistic function of x_i = q_i (q_0 − q_1);
        # one exponential per row, exp(−|x|) ≤ 1 keeps it stable
        for i in range(2):
            x = q[i] * (q[0] - q[1])
            small = math.exp(-abs(x))
            big = 1.0 / (1.0 + small)
            small *= big
            mats[slot, i, 0] = big if x >= 0.0 else small
            mats[slot, i, 1] = small if x >= 0.0 else big
        return
    for i in range(L):
        qi = q[i]
        biggest = qi * q[0]
        for j in range(1, L):
            biggest = max(biggest, qi * q[j])
        total = 0.0
        for j in range(L):
            v = math.exp(qi * q[j] - biggest)
            mats[slot, i, j] = v
            total += v
        inverse = 1.0 / total
        for j in range(L):
            mats[slot, i, j] *= inverse


@_jit
def _softmax_vjp(q, mats, grad, scale):
    """grad += scale · ∂/∂q ⟨G, softmax_row(q qᵀ)⟩, A in mats[M_SOFTMAX], G in mats[M_COTANGENT].

    With S_ij = q_i q_j: ∂/∂S_ij = A_ij (G_ij − Σ_k G_ik A_ik) =: H_ij and
    ∂/∂q_l = Σ_j (H_lj + H_jl) q_j.
    """
    L = q.shape[0]
    for i in range(L):
        inner = 0.0
        for k in range(L):
            inner += mats[M_COTANGENT, i, k] * mats[M_SOFTMAX, i, k]
        for j in range(L):
            h = scale * mats[M_SOFTMAX, i, j] * (mats[M_COTANGENT, i, j] - inner)
            grad[i] += h * q[j]
            grad[j] += h * q[i]


@_jit
def mixture_value(tparams, z, mats, slot):
    """mats[slot] = (1−ω) softmax_row(z zᵀ) + ω A(a), A(a) = softmax_row([[a², −a²], [−a², a²]])."""
    L = z.shape[0]
    omega = tparams[0]
    a2 = tparams[1] * tparams[1]
    _softmax_rows(z, mats, M_SOFTMAX)
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


@_jit
def _logistic(x):
    if x >= 0.0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


@_jit
def _activation(code, h):
    if code == A_RELU:
        return max(h, 0.0)
    if code == A_IDENTITY:
        return h
    if code == A_SQUARE:
        return h * h
    if code == A_HE2:
        return (h * h - 1.0) / SQRT2
    if code == A_SIGMOID:
        return _logistic(h)
    return math.tanh(h)


@_jit
def _activation_derivative(code, h):
    if code == A_RELU:
        return 1.0 if h > 0.0 else 0.0
    if code == A_IDENTITY:
        return 1.0
    if code == A_SQUARE:
        return 2.0 * h
    if code == A_HE2:
        return SQRT2 * h
    if code == A_SIGMOID:
        s = _logistic(h)
        return s * (1.0 - s)
    t = math.tanh(h)
    return 1.0 - t * t


@_jit
def _reduce_attention(sparams, mats):
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
        _softmax_rows(q, mats, M_SOFTMAX)
        return _reduce_attention(sparams, mats)
    if scode == S_FEEDFORWARD:
        L = q.shape[0]
        h = 0.0
        for l in range(L):
            h += q[l]
        return _activation(int(sparams[0]), h / math.sqrt(L))
    return target_scalar(tcode, tparams, q)


@_jit
def student_matrix(scode, tparams, q, mats, slot):
    """mats[slot] = f(q) for the matrix-valued students (attention, identity reduction; matched mixture)."""
    if scode == S_ATTENTION:
        _softmax_rows(q, mats, M_SOFTMAX)
        L = q.shape[0]
        for i in range(L):
            for j in range(L):
                mats[slot, i, j] = mats[M_SOFTMAX, i, j]
    else:
        mixture_value(tparams, q, mats, slot)


@_jit
def _attention2_scalar_loss_and_grad(sparams, y, q, a):
    """Attention with a scalar reduction at L = 2, in registers (the paper's main case).

    Row i of softmax_row(q qᵀ) is (σ(x_0), 1 − σ(x_0)) and (1 − σ(x_1), σ(x_1)) with
    x_0 = q_0 (q_0 − q_1), x_1 = q_1 (q_1 − q_0). With ∂ℓ/∂A = r C (C = I/√2 for the
    trace, u vᵀ for the projection), ∂ℓ/∂x_0 = r (C_00 − C_01) σ_0 (1 − σ_0) =: D_0 and
    ∂ℓ/∂x_1 = r (C_11 − C_10) σ_1 (1 − σ_1) =: D_1.
    """
    q0 = q[0]
    q1 = q[1]
    s0 = _logistic(q0 * (q0 - q1))
    s1 = _logistic(q1 * (q1 - q0))
    if int(sparams[0]) == R_TRACE:
        prediction = (s0 + s1) / SQRT2
        c0 = 1.0 / SQRT2
        c1 = c0
    else:
        u0, u1, v0, v1 = sparams[1], sparams[2], sparams[3], sparams[4]
        prediction = u0 * (s0 * v0 + (1.0 - s0) * v1) + u1 * ((1.0 - s1) * v0 + s1 * v1)
        c0 = u0 * (v0 - v1)
        c1 = u1 * (v1 - v0)
    r = prediction - y
    d0 = r * c0 * s0 * (1.0 - s0)
    d1 = r * c1 * s1 * (1.0 - s1)
    a[0] = d0 * (2.0 * q0 - q1) - d1 * q1
    a[1] = d1 * (2.0 * q1 - q0) - d0 * q0
    return 0.5 * r * r


@_jit
def _softmax2_row(x):
    """Row (A_i0, A_i1) of softmax_row(q qᵀ) at L = 2 from x = q_i (q_0 − q_1), as _softmax_rows."""
    small = math.exp(-abs(x))
    big = 1.0 / (1.0 + small)
    small *= big
    if x >= 0.0:
        return big, small
    return small, big


@_jit
def _attention2_mixture_loss_and_grad(tparams, zstar, q, a):
    """The mixture target with the attention student (identity reduction) at L = 2, in registers.

    The same floating-point operations, in the same order, as the generic path
    (mixture_value, student_matrix, the squared residual, _softmax_vjp), so the numbers are
    identical bit for bit; without the scratch matrices' loads and stores.
    """
    omega = tparams[0]
    a2 = tparams[1] * tparams[1]
    keep = 1.0 - omega
    p_diag = 1.0 / (1.0 + math.exp(-2.0 * a2))
    p_off = 1.0 / (1.0 + math.exp(2.0 * a2))
    z0 = zstar[0]
    z1 = zstar[1]
    s00, s01 = _softmax2_row(z0 * (z0 - z1))
    s10, s11 = _softmax2_row(z1 * (z0 - z1))
    q0 = q[0]
    q1 = q[1]
    A00, A01 = _softmax2_row(q0 * (q0 - q1))
    A10, A11 = _softmax2_row(q1 * (q0 - q1))
    g00 = A00 - (keep * s00 + omega * p_diag)
    g01 = A01 - (keep * s01 + omega * p_off)
    g10 = A10 - (keep * s10 + omega * p_off)
    g11 = A11 - (keep * s11 + omega * p_diag)
    loss = 0.0
    loss += 0.5 * g00 * g00
    loss += 0.5 * g01 * g01
    loss += 0.5 * g10 * g10
    loss += 0.5 * g11 * g11
    inner = 0.0
    inner += g00 * A00
    inner += g01 * A01
    h00 = A00 * (g00 - inner)
    h01 = A01 * (g01 - inner)
    inner = 0.0
    inner += g10 * A10
    inner += g11 * A11
    h10 = A10 * (g10 - inner)
    h11 = A11 * (g11 - inner)
    a0 = 0.0
    a1 = 0.0
    a0 += h00 * q0
    a0 += h00 * q0
    a0 += h01 * q1
    a1 += h01 * q0
    a1 += h10 * q0
    a0 += h10 * q1
    a1 += h11 * q1
    a1 += h11 * q1
    a[0] = a0
    a[1] = a1
    return loss


@_jit
def _half_square_loss_and_grad(tcode, tparams, scode, sparams, zstar, q, a, mats):
    """Per-sample loss ℓ = ½‖f(q) − g(z*)‖²; writes a = ∂ℓ/∂q into ``a``."""
    L = q.shape[0]
    for l in range(L):
        a[l] = 0.0
    if tcode == T_MIXTURE and scode == S_ATTENTION and L == 2:
        return _attention2_mixture_loss_and_grad(tparams, zstar, q, a)
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
        _softmax_vjp(q, mats, a, 1.0 if scode == S_ATTENTION else 1.0 - tparams[0])
        return loss
    return _scalar_loss_and_grad(tcode, tparams, scode, sparams, target_scalar(tcode, tparams, zstar), q, a, mats)


@_jit
def _scalar_loss_and_grad(tcode, tparams, scode, sparams, y, q, a, mats):
    """ℓ = ½ (f(q) − y)² for a scalar target value y; writes a = ∂ℓ/∂q into ``a`` (zeroed by the caller).

    The target enters only through y, and through (tcode, tparams) for the matched student;
    :mod:`ssi.custom` compiles copies of this function with a user's target in their place.
    """
    L = q.shape[0]
    if scode == S_ATTENTION and L == 2:
        return _attention2_scalar_loss_and_grad(sparams, y, q, a)
    r = student_scalar(scode, sparams, tcode, tparams, q, mats) - y
    if scode == S_ATTENTION:
        trace = int(sparams[0]) == R_TRACE
        for i in range(L):
            for j in range(L):
                if trace:
                    mats[M_COTANGENT, i, j] = r / math.sqrt(L) if i == j else 0.0
                else:
                    mats[M_COTANGENT, i, j] = r * sparams[1 + i] * sparams[1 + L + j]
        _softmax_vjp(q, mats, a, 1.0)
    elif scode == S_FEEDFORWARD:
        h = 0.0
        for l in range(L):
            h += q[l]
        g = r * _activation_derivative(int(sparams[0]), h / math.sqrt(L)) / math.sqrt(L)
        for l in range(L):
            a[l] = g
    else:
        target_scalar_vjp(tcode, tparams, q, r, a)
    return 0.5 * r * r


@njit(cache=True)   # not inlined: keeps the rarely taken branch out of the simulators' hot loop
def _other_loss(lcode, half_square, a, n_out):
    """Loss ``lcode`` and its a = ∂ℓ/∂q from ½‖R‖² and the a of the half-square loss (rescaled in place)."""
    L = a.shape[0]
    if lcode == LOSS_MSE:
        c = 2.0 / n_out
        for l in range(L):
            a[l] *= c
        return c * half_square
    norm = math.sqrt(2.0 * half_square)                      # LOSS_FROBENIUS: ‖R‖
    inverse = 1.0 / norm if norm > 0.0 else 0.0
    for l in range(L):
        a[l] *= inverse
    return norm


# Not inlined into its callers (everything below it is): numba's IR inlining copies the whole
# inlined tree into every kernel, which made a cold compile of the kernels 4x slower (measured:
# 217 s vs 53 s of CPU for two problems on both engines), for no measurable gain per step and
# bit-identical results.
@njit(cache=True)
def loss_and_grad(tcode, tparams, scode, sparams, zstar, q, a, mats, lcode=LOSS_HALF_SQUARE):
    """Per-sample loss ℓ (default ½‖f(q) − g(z*)‖²); writes a = ∂ℓ/∂q into ``a``.

    ``mats``: scratch from :func:`scratch`; ``lcode``: one of the ``LOSS_*`` codes.
    """
    loss = _half_square_loss_and_grad(tcode, tparams, scode, sparams, zstar, q, a, mats)
    if lcode == LOSS_HALF_SQUARE:
        return loss
    L = q.shape[0]
    return _other_loss(lcode, loss, a, L * L if tcode == T_MIXTURE else 1)


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
