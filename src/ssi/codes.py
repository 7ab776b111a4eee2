"""Integer codes of the per-sample links (docs/theory.md, "Model and conventions").

Small integers select the target, the student link, the reduction of the attention matrix,
the feed-forward activation and the per-sample loss inside the compiled kernels of
:mod:`ssi.links` (a branch on an integer code costs nothing next to the arithmetic, and one
compiled function serves every problem); the named registries that map user-facing names to
these codes are in :mod:`ssi.problems`. The scratch slots index the one preallocated array
``mats`` (4, L, L) the kernels work in.
"""
from __future__ import annotations

import math

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
