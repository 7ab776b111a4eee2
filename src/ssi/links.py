"""Per-sample links (targets and students) and their gradients, compiled with numba.

Every function here works on one sample: a vector of L pre-activations. The
simulators call them inside their hot loops; the batch wrappers at the bottom
vectorise them over samples for quadrature, Monte Carlo and the explicit engine.

Codes (small integers) select the target, the student link, the reduction and
the activation; the named registries that map user-facing names to these codes
live in :mod:`ssi.problems`. A branch on an integer code costs nothing next to
the arithmetic and lets numba compile (and cache) one function for all
problems instead of one per combination.

Conventions (science.md §2): ``y = g(z*)``, ``ŷ = f(q)``, per-sample loss
``ℓ = ½‖ŷ − y‖²`` (squared Frobenius norm for matrix outputs), and the
per-token derivative ``a_l = ∂ℓ/∂q_l``.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

# --- target codes -----------------------------------------------------------
T_LINEAR = 0       # (1/√L) Σ z_l
T_HE_SUM = 1       # scale · Σ h_k(z_l); tparams = (k, scale)
T_PRODUCT = 2      # Π_{l<n} z_l; tparams = (n,)
T_DIFF = 3         # z_1 − z_2
T_HE2_DIFF = 4     # (z_1² − z_2²)/√2
T_STAIRCASE = 5    # (z_1 + z_1 z_2 + z_1 z_2 z_3)/√3
T_MIXTURE = 6      # (1−ω) softmax_row(z zᵀ) + ω A(a); tparams = (ω, a)

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

SQRT2 = math.sqrt(2.0)
SQRT3 = math.sqrt(3.0)


@njit(cache=True)
def hermite_normalised(k, x):
    """Orthonormal probabilists' Hermite polynomial h_k(x) = He_k(x)/√(k!)."""
    if k == 0:
        return 1.0
    h_prev = 1.0
    h = x
    for n in range(1, k):
        # h_{n+1} = (x h_n − √n h_{n−1}) / √(n+1)
        h_prev, h = h, (x * h - math.sqrt(n) * h_prev) / math.sqrt(n + 1.0)
    return h


@njit(cache=True)
def _softmax_rows(q, out):
    """out = softmax_row(q qᵀ), shape (L, L), computed stably."""
    L = q.shape[0]
    for i in range(L):
        biggest = -np.inf
        for j in range(L):
            s = q[i] * q[j]
            if s > biggest:
                biggest = s
        total = 0.0
        for j in range(L):
            v = math.exp(q[i] * q[j] - biggest)
            out[i, j] = v
            total += v
        for j in range(L):
            out[i, j] /= total


@njit(cache=True)
def _softmax_vjp(q, A, G, grad, scale):
    """grad += scale · ∂/∂q ⟨G, softmax_row(q qᵀ)⟩ given A = softmax_row(q qᵀ).

    With S_ij = q_i q_j: ∂/∂S_ij = A_ij (G_ij − Σ_k G_ik A_ik) =: H_ij and
    ∂/∂q_l = Σ_j (H_lj + H_jl) q_j.
    """
    L = q.shape[0]
    for i in range(L):
        inner = 0.0
        for k in range(L):
            inner += G[i, k] * A[i, k]
        for j in range(L):
            h = scale * A[i, j] * (G[i, j] - inner)
            grad[i] += h * q[j]
            grad[j] += h * q[i]


@njit(cache=True)
def _positional_pattern(a, L, out):
    """A(a) = softmax_row([[a², −a²], [−a², a²]]) for L = 2 (science.md §7)."""
    a2 = a * a
    for i in range(L):
        for j in range(L):
            out[i, j] = 1.0 / (1.0 + math.exp(-2.0 * a2)) if i == j else 1.0 / (1.0 + math.exp(2.0 * a2))


@njit(cache=True)
def target_value(tcode, tparams, z, out, work):
    """Write g(z) into ``out`` (length 1, or L² row-major for matrix outputs)."""
    L = z.shape[0]
    if tcode == T_LINEAR:
        s = 0.0
        for l in range(L):
            s += z[l]
        out[0] = s / math.sqrt(L)
    elif tcode == T_HE_SUM:
        k = int(tparams[0])
        s = 0.0
        for l in range(L):
            s += hermite_normalised(k, z[l])
        out[0] = tparams[1] * s
    elif tcode == T_PRODUCT:
        n = int(tparams[0])
        p = 1.0
        for l in range(n):
            p *= z[l]
        out[0] = p
    elif tcode == T_DIFF:
        out[0] = z[0] - z[1]
    elif tcode == T_HE2_DIFF:
        out[0] = (z[0] * z[0] - z[1] * z[1]) / SQRT2
    elif tcode == T_STAIRCASE:
        out[0] = (z[0] + z[0] * z[1] + z[0] * z[1] * z[2]) / SQRT3
    elif tcode == T_MIXTURE:
        omega = tparams[0]
        A = work[:L * L].reshape((L, L))
        _softmax_rows(z, A)
        P = work[L * L:2 * L * L].reshape((L, L))
        _positional_pattern(tparams[1], L, P)
        for i in range(L):
            for j in range(L):
                out[i * L + j] = (1.0 - omega) * A[i, j] + omega * P[i, j]


@njit(cache=True)
def target_vjp(tcode, tparams, z, cot, grad, work):
    """Write Jᵀ cot into ``grad`` (length L), J = ∂g/∂z."""
    L = z.shape[0]
    for l in range(L):
        grad[l] = 0.0
    if tcode == T_LINEAR:
        for l in range(L):
            grad[l] = cot[0] / math.sqrt(L)
    elif tcode == T_HE_SUM:
        k = int(tparams[0])
        for l in range(L):
            # h_k' = √k h_{k−1}
            grad[l] = cot[0] * tparams[1] * math.sqrt(k) * hermite_normalised(k - 1, z[l])
    elif tcode == T_PRODUCT:
        n = int(tparams[0])
        for l in range(n):
            p = 1.0
            for j in range(n):
                if j != l:
                    p *= z[j]
            grad[l] = cot[0] * p
    elif tcode == T_DIFF:
        grad[0] = cot[0]
        grad[1] = -cot[0]
    elif tcode == T_HE2_DIFF:
        grad[0] = cot[0] * SQRT2 * z[0]
        grad[1] = -cot[0] * SQRT2 * z[1]
    elif tcode == T_STAIRCASE:
        grad[0] = cot[0] * (1.0 + z[1] + z[1] * z[2]) / SQRT3
        grad[1] = cot[0] * (z[0] + z[0] * z[2]) / SQRT3
        grad[2] = cot[0] * (z[0] * z[1]) / SQRT3
    elif tcode == T_MIXTURE:
        A = work[:L * L].reshape((L, L))
        _softmax_rows(z, A)
        _softmax_vjp(z, A, cot.reshape((L, L)), grad, 1.0 - tparams[0])


@njit(cache=True)
def _activation(code, h):
    if code == A_RELU:
        return h if h > 0.0 else 0.0
    if code == A_IDENTITY:
        return h
    if code == A_SQUARE:
        return h * h
    if code == A_HE2:
        return (h * h - 1.0) / SQRT2
    return math.tanh(h)


@njit(cache=True)
def _activation_derivative(code, h):
    if code == A_RELU:
        return 1.0 if h > 0.0 else 0.0
    if code == A_IDENTITY:
        return 1.0
    if code == A_SQUARE:
        return 2.0 * h
    if code == A_HE2:
        return SQRT2 * h
    t = math.tanh(h)
    return 1.0 - t * t


@njit(cache=True)
def student_value(scode, sparams, tcode, tparams, q, out, work):
    """Write f(q) into ``out``; the matched student uses the target's link."""
    L = q.shape[0]
    if scode == S_ATTENTION:
        A = work[2 * L * L:3 * L * L].reshape((L, L))
        _softmax_rows(q, A)
        reduction = int(sparams[0])
        if reduction == R_IDENTITY:
            for i in range(L):
                for j in range(L):
                    out[i * L + j] = A[i, j]
        elif reduction == R_TRACE:
            s = 0.0
            for i in range(L):
                s += A[i, i]
            out[0] = s / math.sqrt(L)
        else:
            s = 0.0
            for i in range(L):
                for j in range(L):
                    s += sparams[1 + i] * A[i, j] * sparams[1 + L + j]
            out[0] = s
    elif scode == S_FEEDFORWARD:
        h = 0.0
        for l in range(L):
            h += q[l]
        out[0] = _activation(int(sparams[0]), h / math.sqrt(L))
    else:
        target_value(tcode, tparams, q, out, work)


@njit(cache=True)
def loss_and_grad(tcode, tparams, scode, sparams, zstar, q, a, work):
    """Per-sample loss ℓ = ½‖f(q) − g(z*)‖² and a = ∂ℓ/∂q (written into ``a``).

    ``work`` is scratch space of length ≥ 5 L² + 2.
    """
    L = q.shape[0]
    n_out = L * L if (tcode == T_MIXTURE) else 1
    y = work[3 * L * L:3 * L * L + n_out]
    target_value(tcode, tparams, zstar, y, work)
    r = work[4 * L * L + 1:4 * L * L + 1 + n_out]
    student_value(scode, sparams, tcode, tparams, q, r, work)
    loss = 0.0
    for i in range(n_out):
        r[i] -= y[i]
        loss += 0.5 * r[i] * r[i]
    for l in range(L):
        a[l] = 0.0
    if scode == S_ATTENTION:
        A = work[2 * L * L:3 * L * L].reshape((L, L))   # left there by student_value
        G = work[:L * L].reshape((L, L))
        reduction = int(sparams[0])
        for i in range(L):
            for j in range(L):
                if reduction == R_IDENTITY:
                    G[i, j] = r[i * L + j]
                elif reduction == R_TRACE:
                    G[i, j] = r[0] / math.sqrt(L) if i == j else 0.0
                else:
                    G[i, j] = r[0] * sparams[1 + i] * sparams[1 + L + j]
        _softmax_vjp(q, A, G, a, 1.0)
    elif scode == S_FEEDFORWARD:
        h = 0.0
        for l in range(L):
            h += q[l]
        h /= math.sqrt(L)
        g = r[0] * _activation_derivative(int(sparams[0]), h) / math.sqrt(L)
        for l in range(L):
            a[l] = g
    else:
        cot = work[4 * L * L + 1 + n_out:4 * L * L + 1 + 2 * n_out]
        for i in range(n_out):
            cot[i] = r[i]
        target_vjp(tcode, tparams, q, cot, a, work)
    return loss


def work_size(L):
    """Length of the scratch array that :func:`loss_and_grad` needs."""
    return 6 * L * L + 4


# --- batch wrappers (vectorised over samples) --------------------------------
@njit(cache=True)
def batch_target(tcode, tparams, z, n_out):
    n, L = z.shape
    out = np.empty((n, n_out))
    work = np.empty(6 * L * L + 4)
    for i in range(n):
        target_value(tcode, tparams, z[i], out[i], work)
    return out


@njit(cache=True)
def batch_student(scode, sparams, tcode, tparams, q, n_out):
    n, L = q.shape
    out = np.empty((n, n_out))
    work = np.empty(6 * L * L + 4)
    for i in range(n):
        student_value(scode, sparams, tcode, tparams, q[i], out[i], work)
    return out


@njit(cache=True)
def batch_loss_and_grad(tcode, tparams, scode, sparams, zstar, q):
    n, L = q.shape
    loss = np.empty(n)
    a = np.empty((n, L))
    work = np.empty(6 * L * L + 4)
    for i in range(n):
        loss[i] = loss_and_grad(tcode, tparams, scode, sparams, zstar[i], q[i], a[i], work)
    return loss, a
