"""The authors' experimental conventions and names, as options of this package.

The paper's experiments were run with a PyTorch code whose configuration names and
conventions differ from this repository's (docs/theory.md, "The authors' conventions").
This module maps them onto the package:

* names: :data:`TARGET_NAMES`, :data:`ACTIVATION_NAMES`, :data:`STUDENT_NAMES`,
  :data:`REDUCTION_NAMES`, :data:`PE_NAMES`, :data:`LOSS_NAMES` and :func:`problem`;
* learning rates ``coefficient × scaling(L)``: :data:`LR_SCALINGS`, :func:`learning_rate`;
* initial conditions: ``ssi.simulate(..., init="overlapped" | "random", ic_overlap,
  ic_randomsign)``, with :func:`initial_overlap` the overlap the "overlapped" start gives;
* recording: :func:`measure_steps` (their loop records before step i when
  ``i % (T // n) == 0``) and the metrics of :class:`ssi.SGDRun` (``overlap``,
  ``positional_overlap``, ``normalized_overlap_component``).

Facts about their code that matter here
---------------------------------------
* Loss ``square`` is ``torch.nn.MSELoss`` (no ½, mean over output entries) = our
  ``loss="mse"``; ``frobenius`` is ``‖y − ŷ‖_F`` (not squared) = our ``loss="frobenius"``.
* Their optimiser adds ``−lr ∇ℓ`` and rescales each parameter to its previous norm over
  its last axis. Tied students (one vector w ∈ R^d) are renormalised to |w| = √d; the
  untied feed-forward student is ONE flattened vector of length L·d, so its renormalisation
  is joint, to |W|_F² = L d. Both are what our engines do (``lr`` has the same meaning:
  the step is ``−lr ∇_w ℓ`` with tokens of variance 1/d and PE ``p_l/√d``).
* Their "overlapped" start mixes ``(1 − o)`` times a unit-norm (√d) direction orthogonal to
  w* with ``o·w*`` and renormalises, so the start overlap is ``o/√((1 − o)² + o²)``,
  not ``o`` (≈ 0.11 for o = 1/√d at d = 100).
* Their opposite PE is a random direction from which the projections on the unit vectors
  ŵ(0) and ŵ* are subtracted separately, then normalised. When ŵ(0)·ŵ* = m₀ ≠ 0 this is
  not Gram–Schmidt: ``e(0) = p̂·w(0)/√d = −m₀ (ŵ*·g)/|g_⊥|`` and ``p̂·ŵ* = −m₀ (ŵ(0)·g)/|g_⊥|``
  (g the Gaussian draw), both of law ≈ N(0, m₀²/d): at d = 100 and o = 1/√d a standard
  deviation ≈ 0.011, at d = 1000 ≈ 0.0035 (and 0 for their ``ic_overlap: 0.`` runs, the
  positional/semantic ones). Our engines orthonormalise exactly (e(0) = 0, PE ⊥ w*): the
  reduced engine needs PE ⊥ w*, and the difference is a start O(m₀/√d), well inside the
  O(1/√d) fluctuations that SGD adds to e within the first d steps.
* Their ``overlap`` metric with ``norm: l2`` is ``‖(m_l)_l‖₂/√L`` (tied: ``|m|``); the sign
  is kept only with ``signed: true`` for tied students. Their positional/semantic configs
  spell the option ``metrics_kwargs`` while their runner reads ``metric_kwargs``, so those
  runs recorded ``|m|``, not the signed m.
"""
from __future__ import annotations

import math

import numpy as np

from .problems import Problem
from .sgd.common import initial_overlap  # noqa: F401 (part of this module's API)

__all__ = ["LR_SCALINGS", "learning_rate", "initial_overlap", "measure_steps", "TARGET_NAMES",
           "ACTIVATION_NAMES", "STUDENT_NAMES", "REDUCTION_NAMES", "PE_NAMES", "LOSS_NAMES", "problem",
           "target_scale"]

#: learning-rate scalings with the sequence length: name -> (function of L, description)
LR_SCALINGS: dict[str, tuple] = {
    "none": (lambda L: 1.0, "1"),
    "linear": (lambda L: float(L), "L"),
    "square": (lambda L: float(L) ** 2, "L²"),
    "sqrt": (lambda L: math.sqrt(L), "√L"),
    "cbrtsquare": (lambda L: (float(L) ** 2) ** (1 / 3), "L^(2/3)"),
    "sqrttimelog": (lambda L: math.sqrt(L) * math.log(L), "√L·log L (0 at L = 1)"),
}


def _check(parameter, value, registry):
    if value not in registry:
        raise ValueError(f"{parameter}={value!r} is unknown; allowed: {', '.join(sorted(registry))}")


def learning_rate(coefficient: float, scaling: str, L: int) -> float:
    """The authors' learning rate ``coefficient × scaling(L)``.

    Parameters
    ----------
    coefficient : float
        Their ``learning_rate_coefficient``.
    scaling : str
        Their ``learning_rate_scaling_with_L``, a key of :data:`LR_SCALINGS`.
    L : int
        Sequence length (≥ 1).

    Returns
    -------
    float
    """
    _check("scaling", scaling, LR_SCALINGS)
    if isinstance(L, bool) or not isinstance(L, (int, np.integer)) or L < 1:
        raise ValueError(f"L={L!r} is not allowed; L must be an integer ≥ 1")
    if isinstance(coefficient, bool) or not math.isfinite(coefficient):
        raise ValueError(f"coefficient={coefficient!r} is not allowed; it must be a finite number")
    return float(coefficient) * LR_SCALINGS[scaling][0](int(L))


def measure_steps(T: int, n: int) -> np.ndarray:
    """Steps at which the authors' loop records: ``i`` in ``0..T−1`` with ``i % (T // n) == 0``.

    They record before step ``i``, so the final state (step T) is not recorded; when
    ``n`` does not divide ``T`` there are more than ``n`` records. Pass the result as
    ``record=`` to :func:`ssi.simulate` (the run then stops at the last record: give
    ``steps=T`` and drop nothing, or append ``T`` to also see the final state).
    """
    T, n = int(T), int(n)
    if T < 1 or n < 1 or n > T:
        raise ValueError(f"T={T!r}, n={n!r} are not allowed; need 1 ≤ n ≤ T")
    return np.arange(0, T, T // n, dtype=np.int64)


# --- names -----------------------------------------------------------------------------
def _const(c):
    return lambda L: c


#: their ``ssi_function`` names -> (our registry target, target scale as a function of L)
TARGET_NAMES: dict[str, tuple] = {
    "sum": ("linear", lambda L: math.sqrt(L)),                 # Σ z_l
    "mean": ("linear", lambda L: 1 / math.sqrt(L)),            # (1/L) Σ z_l
    "sqrtsum": ("linear", lambda L: float(L)),                 # √L Σ z_l
    "inversesqrtsum": ("linear", _const(1.0)),                 # (1/√L) Σ z_l
    "z1": ("z1", _const(1.0)),
    "sqrtz1": ("z1", lambda L: math.sqrt(L)),
    "2sum": ("z1_plus_z2", _const(1.0)),
    "2product": ("z1z2", _const(1.0)),
    "inversesqrtH2sum": ("he2_sum_norm", _const(1.0)),         # (1/√L) Σ h_2(z_l)
    "H2sum": ("he2_sum", _const(1.0)),                         # Σ h_2(z_l)
    "sqrtH2sum": ("he2_sum", lambda L: math.sqrt(L)),
    "inverseH2sum": ("he2_sum", lambda L: 1 / L),
    "linearH2sum": ("he2_sum", lambda L: float(L)),
    "3product": ("z1z2z3", _const(1.0)),
    "2difference": ("z1_minus_z2", _const(1.0)),
    "2squaredifference": ("he2_diff", _const(1.0)),
    "basic_staircase": ("staircase2", _const(1.0)),
    "sqrtbasic_staircase": ("staircase2", lambda L: math.sqrt(L)),
    "sqrtdouble_staircase": ("staircase3", lambda L: math.sqrt(L)),
    "complete_staircase": ("complete_staircase", _const(1.0)),
    # their teacher type (not an ssi_function): (1 − ω) softmax(z zᵀ) + ω softmax(pre_softmax_A)
    "positional_semantic_model": ("mixture", _const(1.0)),
}

#: their ``activation`` names -> our :data:`ssi.problems.ACTIVATIONS`
ACTIVATION_NAMES = {"identity": "identity", "relu": "relu", "tanh": "tanh", "sigmoid": "sigmoid",
                    "square": "square", "H2": "he2"}

#: their student types -> our :data:`ssi.problems.STUDENTS` (their "ssi" student, an SSI
#: model with its own function, is used by none of their experiments and is not mapped)
STUDENT_NAMES = {"plain_network": "untied", "tied_network": "tied", "attention": "attention"}

#: their attention reductions -> ours ("projection" with their "uniform" choice and norm 1 is
#: our default projection u = v = (1/√L, ...))
REDUCTION_NAMES = {"none": "identity", "trace": "trace", "projection": "projection"}

#: their positional encodings -> ours
PE_NAMES = {"none": "none", "opposite": "opposite"}

#: their losses -> ours
LOSS_NAMES = {"square": "mse", "frobenius": "frobenius"}


def target_scale(name: str, L: int) -> float:
    """Scale of their target ``name`` relative to our registry target, at length L."""
    _check("target", name, TARGET_NAMES)
    return float(TARGET_NAMES[name][1](L))


def problem(L: int, target: str, student: str, *, activation: str | None = None,
            reduction: str | None = None, positional_encoding: str = "none", loss: str = "square",
            omega: float | None = None, pre_softmax_A=None) -> Problem:
    """A :class:`ssi.Problem` from the authors' configuration names.

    Parameters
    ----------
    L : int
    target : str
        Their ``teacher.function`` (``teacher_function``), a key of :data:`TARGET_NAMES`,
        or ``"positional_semantic_model"`` (their ``teacher.type``).
    student : str
        Their ``student.type`` (``student_type``), a key of :data:`STUDENT_NAMES`.
    activation : str, optional
        Their ``student.activation``, a key of :data:`ACTIVATION_NAMES` (feed-forward).
    reduction : str, optional
        Their ``student.reduction.type``, a key of :data:`REDUCTION_NAMES` (attention).
    positional_encoding : str
        Their ``student.positional_encoding.type``, a key of :data:`PE_NAMES`.
    loss : str
        Their ``loss`` (default theirs, "square"), a key of :data:`LOSS_NAMES`.
    omega : float, optional
        ``teacher.omega`` of the positional/semantic teacher.
    pre_softmax_A : 2×2 array_like, optional
        ``teacher.pre_softmax_A`` of the positional/semantic teacher; it must be
        ``[[c, −c], [−c, c]]`` with c ≥ 0, which is our pattern A(a) with a = √c.
    """
    _check("target", target, TARGET_NAMES)
    _check("student", student, STUDENT_NAMES)
    _check("positional_encoding", positional_encoding, PE_NAMES)
    _check("loss", loss, LOSS_NAMES)
    ours, _ = TARGET_NAMES[target]
    kwargs = dict(L=L, target=ours, student=STUDENT_NAMES[student], pe=PE_NAMES[positional_encoding],
                  loss=LOSS_NAMES[loss])
    if activation is not None:
        _check("activation", activation, ACTIVATION_NAMES)
        kwargs["activation"] = ACTIVATION_NAMES[activation]
    if reduction is not None:
        _check("reduction", reduction, REDUCTION_NAMES)
        kwargs["reduction"] = REDUCTION_NAMES[reduction]
    if ours == "mixture":
        if omega is None or pre_softmax_A is None:
            raise ValueError("target='positional_semantic_model' needs omega and pre_softmax_A")
        A = np.asarray(pre_softmax_A, dtype=float)
        c = float(A[0, 0]) if A.shape == (2, 2) else math.nan
        if not (A.shape == (2, 2) and c >= 0 and np.allclose(A, [[c, -c], [-c, c]], rtol=0, atol=1e-12)):
            raise ValueError(f"pre_softmax_A={pre_softmax_A!r} is not allowed; allowed: [[c, -c], [-c, c]] with c ≥ 0")
        kwargs.update(omega=float(omega), a=math.sqrt(c))
    else:
        if omega is not None or pre_softmax_A is not None:
            raise ValueError("omega and pre_softmax_A are only allowed with target='positional_semantic_model'")
        if isinstance(L, (int, np.integer)) and not isinstance(L, bool) and L >= 1:
            kwargs["target_scale"] = target_scale(target, L)
    return Problem(**kwargs)
