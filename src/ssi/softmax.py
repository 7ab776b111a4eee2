"""The row softmax of q qᵀ (single-layer attention), its gradient, and the logistic function.

Per-sample and compiled with numba (inlined into the kernels of :mod:`ssi.links`); the
softmax works in the scratch array ``mats`` (4, L, L) at the slots of :mod:`ssi.codes`. At
L = 2 each row of softmax_row(q qᵀ) is a logistic function of x_i = q_i (q_0 − q_1), computed
with one exponential per row (docs/theory.md, "Model and conventions").
"""
from __future__ import annotations

import math

from numba import njit

from .codes import M_COTANGENT, M_SOFTMAX, SQRT2

_jit = njit(cache=True, inline="always")


@_jit
def logistic(x):
    """The logistic function 1/(1 + e^(−x)), computed stably (the exponential's argument is ≤ 0)."""
    if x >= 0.0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


@_jit
def softmax_rows(q, mats, slot):
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
    score_softmax(q, mats[slot])


#: the largest score max_ij q_i q_j with which :func:`score_softmax` shares one exponential between
#: the entries (i, j) and (j, i): every exponent then lies in [−2·SHARED_SHIFT_LIMIT, 0], far from
#: underflow
SHARED_SHIFT_LIMIT = 300.0


@_jit
def score_softmax(q, A):
    """A = softmax_row(q qᵀ), the row softmax of the scores q_i q_j, for any L.

    The scores are symmetric, so one exponential serves the entries (i, j) and (j, i) when every
    row is shifted by the same c = max_ij q_i q_j = max(q_max², q_min²) instead of its own maximum
    (docs/theory.md, "Model and conventions"): L(L + 1)/2 exponentials instead of L². Each row's
    own maximum q_i·(q_max or q_min) is ≥ 0, so the shift costs a row at most a factor e^(−c) and,
    for c ≤ :data:`SHARED_SHIFT_LIMIT`, no exponential underflows; beyond it (|q_l| > 17, never met
    by Gaussian projections) each row is shifted by its own maximum (:func:`score_row_softmax`).
    """
    L = q.shape[0]
    low = q[0]
    high = q[0]
    for j in range(1, L):
        low = min(low, q[j])
        high = max(high, q[j])
    shift = max(low * low, high * high)
    if shift > SHARED_SHIFT_LIMIT:
        for i in range(L):
            score_row_softmax(q, i, A[i])
        return
    for i in range(L):
        qi = q[i]
        for j in range(i):
            v = math.exp(qi * q[j] - shift)
            A[i, j] = v
            A[j, i] = v
        A[i, i] = math.exp(qi * qi - shift)
    for i in range(L):
        total = 0.0
        for j in range(L):
            total += A[i, j]
        inverse = 1.0 / total
        for j in range(L):
            A[i, j] *= inverse


@_jit
def score_row_softmax(q, i, row):
    """row = row i of softmax_row(q qᵀ), the softmax of the scores q_i q_j over j, computed stably
    (row maximum subtracted)."""
    L = q.shape[0]
    qi = q[i]
    biggest = qi * q[0]
    for j in range(1, L):
        biggest = max(biggest, qi * q[j])
    total = 0.0
    for j in range(L):
        v = math.exp(qi * q[j] - biggest)
        row[j] = v
        total += v
    inverse = 1.0 / total
    for j in range(L):
        row[j] *= inverse


@_jit
def softmax_vjp(q, mats, grad, scale):
    """grad += scale · ∂/∂q ⟨G, softmax_row(q qᵀ)⟩, A in mats[M_SOFTMAX], G in mats[M_COTANGENT].

    With S_ij = q_i q_j: ∂/∂S_ij = A_ij (G_ij − Σ_k G_ik A_ik) =: H_ij and
    ∂/∂q_l = Σ_j (H_lj + H_jl) q_j.
    """
    L = q.shape[0]
    for i in range(L):
        inner = 0.0
        for k in range(L):
            inner += mats[M_COTANGENT, i, k] * mats[M_SOFTMAX, i, k]
        # grad[i] in a local: the same additions in the same order as
        # "grad[i] += h q_j; grad[j] += h q_i" for each j, without a store and reload per step
        own = grad[i]
        for j in range(L):
            h = scale * mats[M_SOFTMAX, i, j] * (mats[M_COTANGENT, i, j] - inner)
            own += h * q[j]
            if j == i:
                own += h * q[i]
            else:
                grad[j] += h * q[i]
        grad[i] = own


@_jit
def softmax_vjp_diagonal(q, mats, g, grad):
    """:func:`softmax_vjp` with scale 1 and the diagonal cotangent G = g·I (the trace reduction),
    G not stored: :func:`trace_softmax_vjp` on A in mats[M_SOFTMAX]."""
    trace_softmax_vjp(q, mats[M_SOFTMAX], g, grad)


@_jit
def trace_softmax_vjp(q, A, g, grad):
    """grad += ∂/∂q ⟨g I, softmax_row(q qᵀ)⟩ given A = softmax_row(q qᵀ).

    With G = g I, H_ij = A_ij (G_ij − Σ_k G_ik A_ik) = g A_ij (δ_ij − A_ii) (:func:`softmax_vjp`), so
    ∂/∂q_l = Σ_j (H_lj + H_jl) q_j = g [A_ll (2 q_l − (A q)_l) − (Aᵀ v)_l] with v_j = A_jj q_j:
    two matrix-vector products instead of the L² branches of the general case.
    """
    L = q.shape[0]
    for l in range(L):
        along = 0.0
        across = 0.0
        for j in range(L):
            along += A[l, j] * q[j]
            across += A[j, l] * (A[j, j] * q[j])
        grad[l] += g * (A[l, l] * (2.0 * q[l] - along) - across)


@_jit
def attention2_row_exponentials(a0, a1):
    """The exponentials e^(−|x_i|) of the two rows of softmax_row(a aᵀ) at L = 2,
    x_i = a_i (a_0 − a_1) (written a_1 (a_0 − a_1) for row 1: the sign that |x| drops):
    ``(e_0, e_1)``."""
    return math.exp(-abs(a0 * (a0 - a1))), math.exp(-abs(a1 * (a0 - a1)))


@_jit
def softmax2_row_from(x, small):
    """Row (A_i0, A_i1) of softmax_row(q qᵀ) at L = 2 from x = q_i (q_0 − q_1) and its exponential
    ``small`` = e^(−|x|), with :func:`softmax_rows`' operations."""
    big = 1.0 / (1.0 + small)
    small *= big
    if x >= 0.0:
        return big, small
    return small, big



@_jit
def attention2_scalar(y, q0, q1, s0, s1, trace, u0, u1, v0, v1):
    """Attention with a scalar reduction at L = 2 against the target's value y, in registers:
    (a_0, a_1, ½ r²) with a = ∂(½ r²)/∂q, given s_0 = σ(x_0) and s_1 = σ(x_1) below (the caller's
    logistic function) and ``trace`` (the trace reduction, else the projection uᵀ A v with
    u = (u0, u1), v = (v0, v1)).

    Row i of softmax_row(q qᵀ) is (σ(x_0), 1 − σ(x_0)) and (1 − σ(x_1), σ(x_1)) with
    x_0 = q_0 (q_0 − q_1), x_1 = q_1 (q_1 − q_0). With ∂ℓ/∂A = r C (C = I/√2 for the
    trace, u vᵀ for the projection), ∂ℓ/∂x_0 = r (C_00 − C_01) σ_0 (1 − σ_0) =: D_0 and
    ∂ℓ/∂x_1 = r (C_11 − C_10) σ_1 (1 − σ_1) =: D_1.
    """
    if trace:
        prediction = (s0 + s1) / SQRT2
        c0 = 1.0 / SQRT2
        c1 = c0
    else:
        prediction = u0 * (s0 * v0 + (1.0 - s0) * v1) + u1 * ((1.0 - s1) * v0 + s1 * v1)
        c0 = u0 * (v0 - v1)
        c1 = u1 * (v1 - v0)
    r = prediction - y
    d0 = r * c0 * s0 * (1.0 - s0)
    d1 = r * c1 * s1 * (1.0 - s1)
    return d0 * (2.0 * q0 - q1) - d1 * q1, d1 * (2.0 * q1 - q0) - d0 * q0, 0.5 * r * r


@_jit
def attention2_grad(g00, g01, g10, g11, A00, A01, A10, A11, q0, q1):
    """(a_0, a_1), the gradient of ½‖G‖² in the two tokens' projections q at L = 2, from the
    residual G = softmax_row(q qᵀ) − target (entries g_ij) and the softmax A = softmax_row(q qᵀ):
    each row's softmax VJP, then the chain through the scores q_i q_j, in the generic path's order
    (softmax_vjp), so the numbers are its bit for bit."""
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
    return a0, a1


@_jit
def attention2_mixture_residual(z0, z1, q0, q1, keep, omega, p_diag, p_off, e_q0, e_q1, e_z0, e_z1):
    """The residual of the attention student against the mixture target at L = 2, entrywise:
    G = softmax_row(q qᵀ) − (keep·softmax_row(z* z*ᵀ) + ω·P), with P's diagonal and off-diagonal
    entries ``p_diag``, ``p_off``, given the rows' exponentials (:func:`attention2_row_exponentials`
    of q and of z*); returns (g00, g01, g10, g11) and the student's softmax (A00, A01, A10, A11), in
    the generic path's order (mixture_value, softmax_rows)."""
    s00, s01 = softmax2_row_from(z0 * (z0 - z1), e_z0)
    s10, s11 = softmax2_row_from(z1 * (z0 - z1), e_z1)
    A00, A01 = softmax2_row_from(q0 * (q0 - q1), e_q0)
    A10, A11 = softmax2_row_from(q1 * (q0 - q1), e_q1)
    g00 = A00 - (keep * s00 + omega * p_diag)
    g01 = A01 - (keep * s01 + omega * p_off)
    g10 = A10 - (keep * s10 + omega * p_off)
    g11 = A11 - (keep * s11 + omega * p_diag)
    return g00, g01, g10, g11, A00, A01, A10, A11


@_jit
def attention2_mixture(z0, z1, q0, q1, keep, omega, p_diag, p_off):
    """The attention student against the mixture target at L = 2 (:func:`attention2_mixture_residual`'s
    arguments but the exponentials): (a_0, a_1, ½‖G‖²), the loss summed entry by entry in row order
    and its gradient (:func:`attention2_grad`), in the generic path's order."""
    e_q0, e_q1 = attention2_row_exponentials(q0, q1)
    e_z0, e_z1 = attention2_row_exponentials(z0, z1)
    return attention2_mixture_from(z0, z1, q0, q1, keep, omega, p_diag, p_off, e_q0, e_q1, e_z0, e_z1)


@_jit
def attention2_mixture_from(z0, z1, q0, q1, keep, omega, p_diag, p_off, e_q0, e_q1, e_z0, e_z1):
    """:func:`attention2_mixture` given the rows' exponentials (:func:`attention2_mixture_residual`'s)."""
    g00, g01, g10, g11, A00, A01, A10, A11 = attention2_mixture_residual(z0, z1, q0, q1, keep, omega, p_diag, p_off,
                                                                         e_q0, e_q1, e_z0, e_z1)
    loss = 0.0
    loss += 0.5 * g00 * g00
    loss += 0.5 * g01 * g01
    loss += 0.5 * g10 * g10
    loss += 0.5 * g11 * g11
    a0, a1 = attention2_grad(g00, g01, g10, g11, A00, A01, A10, A11, q0, q1)
    return a0, a1, loss
