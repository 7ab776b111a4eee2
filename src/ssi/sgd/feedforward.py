"""The per-step pieces of the reduced kernels written out per problem family: the feed-forward
student's (:mod:`ssi.sgd.untied_ff`, :mod:`ssi.sgd.tied_ff`) and those of every kernel whose state
is (m, ρ) or whose tokens are drawn as (z_l, v_l) (:mod:`ssi.sgd.tied_matched`,
:mod:`ssi.sgd.tied_attention`; :mod:`ssi.sgd.tied2` takes the χ² remainder and the crossing step).

The per-token gradient of σ((1/√L) Σ_l q_l) is a_l = r σ'(h/√L)/√L, the same for every token, so
it is one scalar (``links.scalar_loss_and_grad``'s feed-forward branch, the same operations).
"""
from __future__ import annotations

import math

from numba import njit

from ..codes import A_CUSTOM, LOSS_HALF_SQUARE, T_CUSTOM, T_HE_SUM, T_MIXTURE
from ..links import activation, activation_derivative, loss_factor
from ..random_streams import any_gamma, gamma_constants, load, normal, store
from ..target_links import hermite_he, target_scalar


@njit(inline="always")
def covers(tcode, scode_is_feedforward, acode):
    """Whether the feed-forward kernels take a problem: a registry activation (code ``acode``) and a
    registry scalar target, any of the loss codes."""
    return scode_is_feedforward and tcode != T_MIXTURE and tcode != T_CUSTOM and acode != A_CUSTOM


@njit(inline="always")
def constants(d, lr, tcode, tparams, sparams):
    """The per-call constants: η/d, the χ² shape of the d − 2 unseen directions and its sampler's
    constants, the He_k sum's order and scale, the activation code."""
    rest_shape = 0.5 * (d - 2)
    gamma_b, gamma_c = gamma_constants(rest_shape)
    he_sum = tcode == T_HE_SUM
    scale = tparams[1] if he_sum else 0.0
    return lr / d, rest_shape, gamma_b, gamma_c, he_sum, int(tparams[0]), scale, int(sparams[0])


@njit(inline="always")
def gradient(code, h, root, y, lcode):
    """a_l = ∂ℓ/∂q_l, the same for every token (h = Σ_l q_l, root = √L, y the target's value): the
    half-square loss's, rescaled for the other losses as ``links.other_loss`` does (one output entry)."""
    r = activation(code, h / root) - y
    a = r * activation_derivative(code, h / root) / root
    if lcode == LOSS_HALF_SQUARE:
        return a
    return a * loss_scale(r, lcode)


@njit(inline="always")
def loss_scale(r, lcode):
    """The loss's factor on the half-square gradient at residual ``r`` (one output entry; 1 for the
    half-square loss)."""
    return 1.0 if lcode == LOSS_HALF_SQUARE else loss_factor(lcode, 0.5 * r * r, 1)[0]


@njit(inline="always")
def tied_projection(z, v, m, rho):
    """q_l = x_l·w of a tied student without PE, written as the generic kernel's
    (0 + z_l m) + v_l ρ + 0 (an empty PE sum): the zeros change only the sign of an exact zero,
    and they are kept so that not even that differs."""
    return (0.0 + z * m) + v * rho + 0.0


@njit(inline="always")
def tied_token(s0, s1, s2, s3, m, rho, he_sum, k, h, y):
    """One token of :func:`draw_tied`: its coordinates z (along w*) and v (along u) and
    q = :func:`tied_projection`, with q added to ``h`` and He_k(z) to ``y`` (if ``he_sum``):
    ``(s0, s1, s2, s3, z, v, q, h, y)``. Scalars only, so that the caller's loop passes no array
    (an inlined call with an array argument counts references at every call)."""
    s0, s1, s2, s3, z = normal(s0, s1, s2, s3)
    s0, s1, s2, s3, v = normal(s0, s1, s2, s3)
    x = tied_projection(z, v, m, rho)
    h += x
    if he_sum:
        y += hermite_he(k, z)
    return s0, s1, s2, s3, z, v, x, h, y


@njit(inline="always")
def draw_tied(s0, s1, s2, s3, m, rho, he_sum, k, n_star, n_perp, q):
    """Draw the tokens' coordinates (z_l, v_l) of a tied student without PE and store them and q_l
    (:func:`tied_projection`); return the stream's state, Σ_l q_l and Σ_l He_k(z_l) (if ``he_sum``;
    in token order, from 0)."""
    h = 0.0
    y = 0.0
    for l in range(n_star.shape[0]):
        s0, s1, s2, s3, n_star[l], n_perp[l], q[l], h, y = tied_token(s0, s1, s2, s3, m, rho, he_sum, k, h, y)
    return s0, s1, s2, s3, h, y


@njit(inline="always")
def target_value(he_sum, scale, y, tcode, tparams, n_star):
    """The scalar target's value: ``scale`` times the He_k sum ``y`` accumulated over the draws, or
    ``target_links.target_scalar``."""
    return scale * y if he_sum else target_scalar(tcode, tparams, n_star)


@njit(inline="always")
def descend(m, a_sq, along_u, a, step, z, v):
    """One token's share of the tied gradient step: (m − η/d a z, Σa² + a², Σ a v + a v)."""
    return m - step * a * z, a_sq + a * a, along_u + a * v


@njit(inline="always")
def remainder(s0, s1, s2, s3, a_sq, rest_shape, gamma_b, gamma_c):
    """The χ² draw of the unseen directions' remainder (none when Σ a² = 0): ``(s0, s1, s2, s3, g)``."""
    if a_sq > 0.0:
        return any_gamma(s0, s1, s2, s3, rest_shape, gamma_b, gamma_c)
    return s0, s1, s2, s3, 0.0


@njit(inline="always")
def renormalise(m, rho_u, a_sq, step, g):
    """(m, ρ) on the unit sphere after adding the unseen directions' 2 (η/d)² Σ a² · g to ρ²."""
    rho = math.sqrt(rho_u * rho_u + 2.0 * step * step * a_sq * g) if a_sq > 0.0 else abs(rho_u)
    norm = rho * rho
    norm += m * m
    inverse = 1.0 / math.sqrt(norm)
    return m * inverse, rho * inverse


@njit(inline="always")
def close_step(s0, s1, s2, s3, m, rho_u, a_sq, step, rest_shape, gamma_b, gamma_c):
    """The end of a tied step from (m, ρ_u, Σ a²): the remainder's draw, then
    :func:`renormalise`: ``(s0, s1, s2, s3, m, ρ)``."""
    s0, s1, s2, s3, g = remainder(s0, s1, s2, s3, a_sq, rest_shape, gamma_b, gamma_c)
    m, rho = renormalise(m, rho_u, a_sq, step, g)
    return s0, s1, s2, s3, m, rho


@njit(inline="always")
def load_tied(stream, state, crossing):
    """A tied replicate's stream, state and crossing: ``(s0, s1, s2, s3, m, ρ, crossing)``."""
    s0, s1, s2, s3 = load(stream)
    return s0, s1, s2, s3, state[0], state[1], crossing[0]


@njit(inline="always")
def store_tied(stream, state, crossing, s0, s1, s2, s3, m, rho, cross):
    """Write back what :func:`load_tied` read."""
    state[0] = m
    state[1] = rho
    crossing[0] = cross
    store(stream, s0, s1, s2, s3)
