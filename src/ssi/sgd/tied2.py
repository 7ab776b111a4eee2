"""The reduced step of a tied attention student at L = 2, in registers (the paper's main cases).

:func:`ssi.sgd.reduced.advance_tied` hands this kernel the problems it covers: two tokens, at most
one PE direction (subspace dimension r ≤ 2), the attention student with any of the losses (the
half-square loss's gradient, rescaled for the authors' "mse" and "frobenius" as ``links.other_loss``
does) and a registry target (scalar with the trace or projection reduction, or the matrix-valued mixture).
The state (μ_0, μ_1, ρ) and the loss and gradient live in scalar variables instead of small arrays,
the problem's constants (the target's and the reduction's parameters, the mixture's positional
pattern) are read once per call, and the crossing step is kept in a local. The operations are the
generic kernel's and :mod:`ssi.links`' (``attention2_scalar_loss_and_grad``,
``attention2_mixture_loss_and_grad``, ``target_scalar``) in the same order on the same draws of the
same stream, so the numbers are the same bit for bit (tests/unit/sgd/test_specialised_kernels.py).
"""
from __future__ import annotations

import math

from numba import njit

from ..codes import (
    LOSS_HALF_SQUARE,
    R_TRACE,
    SQRT2,
    T_COMPLETE_STAIRCASE,
    T_DIFF,
    T_FIRST_SUM,
    T_HE2_DIFF,
    T_HE4_PLUS_DIFF,
    T_HE_SUM,
    T_LINEAR,
    T_MIXTURE,
    T_PRODUCT,
    T_STAIRCASE_N,
)
from ..links import loss_factor
from ..random_streams import gamma_constants, load, normal, store
from ..softmax import attention2_mixture_from, attention2_row_exponentials, attention2_scalar
from ..target_links import hermite_he
from ..escape import crossed
from .feedforward import remainder

#: the target codes :func:`advance_tied2` takes: the mixture and the scalar targets defined at L = 2
TARGETS = (T_LINEAR, T_HE_SUM, T_PRODUCT, T_DIFF, T_HE2_DIFF, T_MIXTURE, T_HE4_PLUS_DIFF, T_FIRST_SUM,
           T_STAIRCASE_N, T_COMPLETE_STAIRCASE)


@njit(inline="always")
def covers(L, k, tcode, scode_is_attention):
    """Whether :func:`advance_tied2` takes a problem (L tokens, k PE directions, target ``tcode``;
    any of the loss codes)."""
    known = False
    for code in TARGETS:
        known = known or tcode == code
    return L == 2 and k <= 1 and scode_is_attention and known


@njit(inline="always")
def _logistic(x, e):
    """``softmax.logistic`` from x and e = e^(−|x|), without its branch (the same value: e^(−|x|)
    is its exponential on either side); the sign of x is random, so a branch would be mispredicted
    half the time."""
    return (1.0 if x >= 0.0 else e) / (1.0 + e)


@njit(inline="always")
def _target_exponentials(mixture, z0, z1):
    """The mixture target's exponentials e^(−|x|) of its two rows (x_i = z_i (z_0 − z_1); 1.0 for a
    scalar target, ``mixture`` false): ``(e_z0, e_z1)``. They depend on the draws alone. The
    kernels compute the exponentials of all their replicates in a row, the targets' first: exp is a
    call, around which the live floating-point values are saved and restored, so the calls are
    grouped (the numbers do not depend on the order)."""
    if mixture:
        return attention2_row_exponentials(z0, z1)
    return 1.0, 1.0


@njit(inline="always")
def _constants(d, lr, pe, tcode, tparams, sparams, lcode):
    """The per-call constants of :func:`_front` and :func:`_back` (a tuple)."""
    has_pe = pe.shape[1] == 1
    r = 2 if has_pe else 1
    pe0 = pe[0, 0] if has_pe else 0.0
    pe1 = pe[1, 0] if has_pe else 0.0
    rest_shape = 0.5 * (d - r - 1)
    gamma_b, gamma_c = gamma_constants(rest_shape)
    mixture = tcode == T_MIXTURE
    t0 = tparams[0]
    t1 = tparams[1] if tparams.shape[0] > 1 else 0.0
    a2 = t1 * t1 if mixture else 0.0
    p_diag = 1.0 / (1.0 + math.exp(-2.0 * a2))       # the mixture's positional pattern
    p_off = 1.0 / (1.0 + math.exp(2.0 * a2))
    trace = int(sparams[0]) == R_TRACE
    return (has_pe, pe0, pe1, lr / d, rest_shape, gamma_b, gamma_c, mixture, t0, t1, 1.0 - t0, t0,
            p_diag, p_off, trace, sparams[1], sparams[2], sparams[3], sparams[4], lcode)


@njit(inline="always")
def _draws(s0, s1, s2, s3, has_pe):
    """The normals of one step, token by token: its r coordinates on S, then the one along u (the
    generic kernel's order): ``(s0, s1, s2, s3, n_00, n_01, p_0, n_10, n_11, p_1)``."""
    s0, s1, s2, s3, n00 = normal(s0, s1, s2, s3)
    n01 = 0.0
    if has_pe:
        s0, s1, s2, s3, n01 = normal(s0, s1, s2, s3)
    s0, s1, s2, s3, p0 = normal(s0, s1, s2, s3)
    s0, s1, s2, s3, n10 = normal(s0, s1, s2, s3)
    n11 = 0.0
    if has_pe:
        s0, s1, s2, s3, n11 = normal(s0, s1, s2, s3)
    s0, s1, s2, s3, p1 = normal(s0, s1, s2, s3)
    return s0, s1, s2, s3, n00, n01, p0, n10, n11, p1


@njit(inline="always")
def _preactivation(mu0, mu1, rho, n0, n1, p, pe, has_pe):
    """q_l of one token from its draws."""
    acc = 0.0
    acc += n0 * mu0
    if has_pe:
        acc += n1 * mu1
    positional = 0.0
    if has_pe:
        positional += pe * mu1
    return acc + p * rho + positional


@njit(inline="always")
def target2(tcode, t0, t1, z0, z1):
    """``target_links.target_scalar`` at L = 2 on scalars (the same operations), for the codes of
    :data:`TARGETS`; ``t0``, ``t1`` are the target's parameters (0.0 for a missing one)."""
    if tcode == T_LINEAR:
        s = 0.0
        s += z0
        s += z1
        return t0 * s / math.sqrt(2)
    if tcode == T_HE_SUM:
        k = int(t0)
        s = 0.0
        s += hermite_he(k, z0)
        s += hermite_he(k, z1)
        return t1 * s
    if tcode == T_PRODUCT or tcode == T_FIRST_SUM or tcode == T_STAIRCASE_N:
        n = int(t0)
        p = 1.0
        s = 0.0
        if n >= 1:
            p *= z0
            s += z0 if tcode == T_FIRST_SUM else p
        if n >= 2:
            p *= z1
            s += z1 if tcode == T_FIRST_SUM else p
        return t1 * (p if tcode == T_PRODUCT else s)
    if tcode == T_DIFF:
        return t0 * (z0 - z1)
    if tcode == T_HE2_DIFF:
        return t0 * ((z0 * z0 - z1 * z1) / SQRT2)
    if tcode == T_HE4_PLUS_DIFF:
        c4 = t0 / math.sqrt(24.0)
        return c4 * (hermite_he(4, z0) + hermite_he(4, z1)) + t1 * (z0 - z1)
    p = z0                                                          # T_COMPLETE_STAIRCASE
    p *= 1.0 + z1
    return t0 * p


@njit(inline="always")
def _gradient(c, mixture, tcode, z0, z1, q0, q1, e_q0, e_q1, e_z0, e_z1):
    """(a_0, a_1) = ∂ℓ/∂q, given the step's exponentials (the student's,
    :func:`ssi.softmax.attention2_row_exponentials`, and :func:`_target_exponentials`): of the
    half-square loss, rescaled for the other losses as ``links.other_loss`` does (n_out = 4 matrix
    entries for the mixture, 1 otherwise); ``mixture`` is the problem's (``c[7]``), passed apart so that the paired kernels can
    be compiled for one kind of target."""
    t0, t1, keep, omega, p_diag, p_off, trace, u0, u1, v0, v1, lcode = c[8:]
    if mixture:
        a0, a1, half_square = attention2_mixture_from(z0, z1, q0, q1, keep, omega, p_diag, p_off, e_q0, e_q1,
                                                      e_z0, e_z1)
    else:
        a0, a1, half_square = attention2_scalar(target2(tcode, t0, t1, z0, z1), q0, q1, _logistic(q0 * (q0 - q1), e_q0),
                                                 _logistic(q1 * (q1 - q0), e_q1), trace, u0, u1, v0, v1)
    if lcode == LOSS_HALF_SQUARE:
        return a0, a1
    factor = loss_factor(lcode, half_square, 4 if mixture else 1)[0]
    return a0 * factor, a1 * factor


@njit(inline="always")
def _update(mu0, mu1, rho, a0, a1, n00, n01, p0, n10, n11, p1, c):
    """The gradient step: ``(μ_0, μ_1, ρ_u, |a|²)`` before the orthogonal remainder."""
    has_pe, pe0, pe1, step = c[:4]
    a_sq = 0.0
    along_u = 0.0
    a_sq += a0 * a0
    along_u += a0 * p0
    mu0 -= step * a0 * n00
    if has_pe:
        mu1 -= step * a0 * n01
        mu1 -= step * a0 * pe0
    a_sq += a1 * a1
    along_u += a1 * p1
    mu0 -= step * a1 * n10
    if has_pe:
        mu1 -= step * a1 * n11
        mu1 -= step * a1 * pe1
    return mu0, mu1, rho - step * along_u, a_sq


@njit(inline="always")
def _renormalise(mu0, mu1, rho_u, a_sq, g, c):
    """ρ from ρ_u and the remainder, then (μ, ρ) back onto the unit sphere."""
    has_pe = c[0]
    step = c[3]
    if a_sq > 0.0:
        rho = math.sqrt(rho_u * rho_u + 2.0 * step * step * a_sq * g)
    else:
        rho = abs(rho_u)
    norm = rho * rho
    norm += mu0 * mu0
    if has_pe:
        norm += mu1 * mu1
    inverse = 1.0 / math.sqrt(norm)
    return mu0 * inverse, mu1 * inverse, rho * inverse


@njit(inline="always")
def _front(s0, s1, s2, s3, mu0, mu1, rho, c):
    """A step's draws and the tokens' projections:
    ``(s0, s1, s2, s3, n_00, n_01, p_0, n_10, n_11, p_1, q_0, q_1)``."""
    has_pe, pe0, pe1 = c[:3]
    s0, s1, s2, s3, n00, n01, p0, n10, n11, p1 = _draws(s0, s1, s2, s3, has_pe)
    q0 = _preactivation(mu0, mu1, rho, n00, n01, p0, pe0, has_pe)
    q1 = _preactivation(mu0, mu1, rho, n10, n11, p1, pe1, has_pe)
    return s0, s1, s2, s3, n00, n01, p0, n10, n11, p1, q0, q1


@njit(inline="always")
def _back(s0, s1, s2, s3, mu0, mu1, rho, c, tcode, n00, n01, p0, n10, n11, p1, q0, q1, e_q0, e_q1, e_z0, e_z1):
    """The rest of a step from :func:`_front`'s values and the exponentials: the
    gradient, the update, the remainder's draw and the renormalisation: ``(s0, s1, s2, s3, μ_0, μ_1, ρ)``."""
    a0, a1 = _gradient(c, c[7], tcode, n00, n10, q0, q1, e_q0, e_q1, e_z0, e_z1)
    mu0, mu1, rho_u, a_sq = _update(mu0, mu1, rho, a0, a1, n00, n01, p0, n10, n11, p1, c)
    s0, s1, s2, s3, g = remainder(s0, s1, s2, s3, a_sq, c[4], c[5], c[6])
    mu0, mu1, rho = _renormalise(mu0, mu1, rho_u, a_sq, g, c)
    return s0, s1, s2, s3, mu0, mu1, rho


@njit(inline="always")
def _load_state(state, has_pe):
    r = 2 if has_pe else 1
    return state[0], state[1] if has_pe else 0.0, state[r]


@njit(inline="always")
def _store_state(state, has_pe, mu0, mu1, rho):
    state[0] = mu0
    if has_pe:
        state[1] = mu1
        state[2] = rho
    else:
        state[1] = rho


@njit(nogil=True, cache=True, error_model="numpy")
def advance_tied2(stream, state, n_steps, d, lr, pe, tcode, tparams, sparams, lcode, threshold, crossing, step0):
    """:func:`ssi.sgd.reduced.advance_tied` for the problems :func:`covers` takes (same arguments
    but the student code; the same numbers)."""
    c = _constants(d, lr, pe, tcode, tparams, sparams, lcode)
    has_pe = c[0]
    mu0, mu1, rho = _load_state(state, has_pe)
    cross = crossing[0]
    s0, s1, s2, s3 = load(stream)
    for t in range(n_steps):
        s0, s1, s2, s3, n00, n01, p0, n10, n11, p1, q0, q1 = _front(s0, s1, s2, s3, mu0, mu1, rho, c)
        e2, e3 = _target_exponentials(c[7], n00, n10)
        e0, e1 = attention2_row_exponentials(q0, q1)
        s0, s1, s2, s3, mu0, mu1, rho = _back(s0, s1, s2, s3, mu0, mu1, rho, c, tcode, n00, n01, p0, n10, n11, p1,
                                              q0, q1, e0, e1, e2, e3)
        cross = crossed(cross, mu0, threshold, step0 + t + 1)
    _store_state(state, has_pe, mu0, mu1, rho)
    crossing[0] = cross
    store(stream, s0, s1, s2, s3)


@njit(inline="always")
def _advance_pair(mixture, streams, states, crossings, i, j, n_steps, d, lr, pe, tcode, tparams, sparams, lcode,
                  threshold, step0):
    """:func:`advance_tied2` for the replicates ``i`` and ``j`` (rows of ``streams``, ``states``,
    ``crossings``) at once, with ``mixture`` (the mixture target, or a scalar one) a constant of the
    compiled kernel: the two replicates' steps are independent, so the processor overlaps them.
    Each replicate's numbers are those of :func:`advance_tied2` (the same operations on its own
    stream)."""
    c = _constants(d, lr, pe, tcode, tparams, sparams, lcode)
    has_pe = c[0]
    mu0, mu1, rho = _load_state(states[i], has_pe)
    nu0, nu1, sigma = _load_state(states[j], has_pe)
    cross = crossings[i, 0]
    other = crossings[j, 0]
    s0, s1, s2, s3 = load(streams[i])
    t0, t1, t2, t3 = load(streams[j])
    for t in range(n_steps):
        # the two replicates' steps phase by phase, so that their independent chains interleave
        s0, s1, s2, s3, n00, n01, p0, n10, n11, p1, q0, q1 = _front(s0, s1, s2, s3, mu0, mu1, rho, c)
        t0, t1, t2, t3, m00, m01, o0, m10, m11, o1, r0, r1 = _front(t0, t1, t2, t3, nu0, nu1, sigma, c)
        e2, e3 = _target_exponentials(mixture, n00, n10)
        f2, f3 = _target_exponentials(mixture, m00, m10)
        e0, e1 = attention2_row_exponentials(q0, q1)
        f0, f1 = attention2_row_exponentials(r0, r1)
        a0, a1 = _gradient(c, mixture, tcode, n00, n10, q0, q1, e0, e1, e2, e3)
        b0, b1 = _gradient(c, mixture, tcode, m00, m10, r0, r1, f0, f1, f2, f3)
        mu0, mu1, rho_u, a_sq = _update(mu0, mu1, rho, a0, a1, n00, n01, p0, n10, n11, p1, c)
        nu0, nu1, sigma_u, b_sq = _update(nu0, nu1, sigma, b0, b1, m00, m01, o0, m10, m11, o1, c)
        s0, s1, s2, s3, g = remainder(s0, s1, s2, s3, a_sq, c[4], c[5], c[6])
        t0, t1, t2, t3, h = remainder(t0, t1, t2, t3, b_sq, c[4], c[5], c[6])
        mu0, mu1, rho = _renormalise(mu0, mu1, rho_u, a_sq, g, c)
        nu0, nu1, sigma = _renormalise(nu0, nu1, sigma_u, b_sq, h, c)
        cross = crossed(cross, mu0, threshold, step0 + t + 1)
        other = crossed(other, nu0, threshold, step0 + t + 1)
    _store_state(states[i], has_pe, mu0, mu1, rho)
    _store_state(states[j], has_pe, nu0, nu1, sigma)
    crossings[i, 0] = cross
    crossings[j, 0] = other
    store(streams[i], s0, s1, s2, s3)
    store(streams[j], t0, t1, t2, t3)


# The paired kernels, one per kind of target (the engine picks one with :func:`paired_kernel`):
# compiled with ``mixture`` a constant, each is straight-line code for its target (measured faster
# than one kernel branching on the target's kind at every step).
@njit(nogil=True, cache=True, error_model="numpy")
def advance_tied2_pair(streams, states, crossings, i, j, n_steps, d, lr, pe, tcode, tparams, sparams, lcode,
                       threshold, step0):
    """:func:`_advance_pair` for a scalar target."""
    _advance_pair(False, streams, states, crossings, i, j, n_steps, d, lr, pe, tcode, tparams, sparams, lcode,
                  threshold, step0)


@njit(nogil=True, cache=True, error_model="numpy")
def advance_tied2_mixture_pair(streams, states, crossings, i, j, n_steps, d, lr, pe, tcode, tparams, sparams, lcode,
                               threshold, step0):
    """:func:`_advance_pair` for the mixture target."""
    _advance_pair(True, streams, states, crossings, i, j, n_steps, d, lr, pe, tcode, tparams, sparams, lcode,
                  threshold, step0)


# Two replicates per loop, not four: a kernel of four is a little faster per step for a scalar
# target, but compiling it (the step inlined four times) costs more than it saves in a run that
# starts from an empty numba cache.
def paired_kernel(tcode):
    """The kernel that advances two replicates of a problem with target code ``tcode`` (one that
    :func:`covers` takes)."""
    return advance_tied2_mixture_pair if tcode == T_MIXTURE else advance_tied2_pair
