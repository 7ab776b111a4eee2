"""The feed-forward student's per-step pieces, shared by the kernels written out for it
(:mod:`ssi.sgd.untied_ff`, :mod:`ssi.sgd.tied_ff`).

The per-token gradient of σ((1/√L) Σ_l q_l) is a_l = r σ'(h/√L)/√L, the same for every token, so
it is one scalar (``links.scalar_loss_and_grad``'s feed-forward branch, the same operations).
"""
from __future__ import annotations

from numba import njit

from ..codes import A_CUSTOM, LOSS_HALF_SQUARE, T_CUSTOM, T_HE_SUM, T_MIXTURE
from ..links import activation, activation_derivative, loss_factor
from ..random_streams import gamma_constants


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
    return a * loss_factor(lcode, 0.5 * r * r, 1)[0]
