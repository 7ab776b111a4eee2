"""Problem definitions: named registries of targets, students, positional encodings,
reductions and activations, and the :class:`Problem` that ties them together.

Every name below is a registry key; an unknown name, or a parameter outside its
allowed range, raises ``ValueError`` naming the parameter and what is allowed.
The numerical links behind the names are in :mod:`ssi.links`.

The argument checks of the public functions (``Problem``, ``simulate``, ``integrate_ode``,
``escape_time``, ``population_loss``, ``sie``) are here too (``check_*``): each runs before any
work and raises one line naming the parameter and what it takes, :class:`ArgumentKindError`
(a TypeError, and a ValueError) for an argument of the wrong kind, ``ValueError`` for one out
of range.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from . import links
from .custom import CustomActivation, CustomTarget, as_activation, as_target
from .kernels import link_kernels, python_loss_and_grad, python_student

# --- registries ----------------------------------------------------------------
#: targets: name -> (code, parameters, smallest L, description)
TARGETS: dict[str, tuple[int, tuple[float, ...], int, str]] = {
    "linear": (links.T_LINEAR, (), 1, "(1/√L) Σ_l z_l: SIE 1."),
    **{
        f"he{k}_sum": (links.T_HE_SUM, (k, 1.0), 1,
                        f"Σ_l h_{k}(z_l), h_k = He_k/√(k!) orthonormal; variance L (unnormalised)."
                        + (" SIE 2." if k == 2 else ""))
        for k in range(1, 5)
    },
    **{
        f"he{k}_sum_norm": (links.T_HE_SUM, (k, None), 1,
                             f"(1/√L) Σ_l h_{k}(z_l): variance 1 (normalised).")
        for k in range(1, 5)
    },
    "z1z2": (links.T_PRODUCT, (2,), 2, "z_1 z_2: SIE 2."),
    "z1z2z3": (links.T_PRODUCT, (3,), 3, "z_1 z_2 z_3: SIE 3."),
    "z1_minus_z2": (links.T_DIFF, (), 2,
                    "z_1 − z_2: token-antisymmetric; invisible to tied students without PE."),
    "he2_diff": (links.T_HE2_DIFF, (), 2,
                 "(z_1² − z_2²)/√2 = h_2(z_1) − h_2(z_2): antisymmetric, invisible to tied students without PE."),
    "he4_sum_plus_diff": (links.T_HE4_PLUS_DIFF, (-1.0, 1 / math.sqrt(2)), 2,
                          "−(h_4(z_1) + h_4(z_2)) + (z_1 − z_2)/√2 (tokens 1 and 2; variance 3): the sign of the He₄ part "
                          "makes the m⁴ term of an attention student descend, so without PE the SIE is 4 "
                          "(the antisymmetric part is invisible); opposite PE sees the antisymmetric part "
                          "through an m·e term: SIE 2 (claim C3)."),
    "staircase": (links.T_STAIRCASE, (), 3, "(z_1 + z_1 z_2 + z_1 z_2 z_3)/√3: a staircase of degrees 1, 2, 3."),
    "z1": (links.T_FIRST_SUM, (1,), 1, "z_1: only the first token (SIE 1)."),
    "z1_plus_z2": (links.T_FIRST_SUM, (2,), 2, "z_1 + z_2: the first two tokens (SIE 1)."),
    "staircase2": (links.T_STAIRCASE_N, (2,), 2, "z_1 + z_1 z_2 (unnormalised staircase of degrees 1, 2)."),
    "staircase3": (links.T_STAIRCASE_N, (3,), 3,
                   "z_1 + z_1 z_2 + z_1 z_2 z_3 (unnormalised staircase of degrees 1, 2, 3)."),
    "complete_staircase": (links.T_COMPLETE_STAIRCASE, (), 2,
                           "z_1 Π_{l≥2} (1 + z_l): every monomial containing z_1, degrees 1..L."),
    "mixture": (links.T_MIXTURE, (), 2,
                "(1−ω) softmax_row(z zᵀ) + ω A(a), A(a) = softmax_row([[a², −a²], [−a², a²]]): "
                "semantic/positional mixture with L×L matrix output (L = 2)."),
}

#: students: name -> (link code, tied weights, description)
STUDENTS: dict[str, tuple[int, bool, str]] = {
    "attention": (links.S_ATTENTION, True,
                  "Tied single-layer attention R[softmax_row(q qᵀ)], q_l = (x_l + p_l/√d)·w."),
    "tied": (links.S_FEEDFORWARD, True, "Tied feed-forward σ((1/√L) Σ_l (x_l + p_l/√d)·w)."),
    "untied": (links.S_FEEDFORWARD, False,
               "Untied feed-forward σ((1/√L) Σ_l x_l·w_l), one weight vector per token, no PE."),
    "matched": (links.S_MATCHED, True, "Matched SSI student: the target's own link applied to q."),
}

#: positional encodings: name -> description (the matrix is built by pe_matrix)
POSITIONAL_ENCODINGS: dict[str, str] = {
    "none": "No positional encoding.",
    "opposite": "L = 2, p_2 = −p_1 (one unit vector, orthogonal to w*).",
    "orthonormal": "p_1..p_L orthonormal, orthogonal to w* (requires d ≥ L + 3).",
}

#: reductions of the attention matrix: name -> (code, description)
REDUCTIONS: dict[str, tuple[int, str]] = {
    "identity": (links.R_IDENTITY, "The L×L attention matrix itself (matrix output, Frobenius loss)."),
    "trace": (links.R_TRACE, "(1/√L) Tr A."),
    "projection": (links.R_PROJECTION, "uᵀ A v for fixed vectors u = proj_left, v = proj_right."),
}

#: feed-forward activations: name -> (code, description)
ACTIVATIONS: dict[str, tuple[int, str]] = {
    "relu": (links.A_RELU, "max(h, 0)"),
    "identity": (links.A_IDENTITY, "h"),
    "square": (links.A_SQUARE, "h²"),
    "he2": (links.A_HE2, "h_2(h) = (h² − 1)/√2"),
    "tanh": (links.A_TANH, "tanh h"),
    "sigmoid": (links.A_SIGMOID, "1/(1 + e^(−h))"),
}

#: per-sample losses: name -> (code, description) (docs/theory.md, "The authors' conventions")
LOSSES: dict[str, tuple[int, str]] = {
    "half_square": (links.LOSS_HALF_SQUARE, "½‖ŷ − y‖² (this repository's convention)."),
    "mse": (links.LOSS_MSE, "mean over output entries of (ŷ − y)² (torch MSELoss, the authors' 'square'): "
                            "(ŷ − y)² for scalar outputs, ‖ŷ − y‖²_F/L² for L×L outputs; = (2/n_out)·half_square."),
    "frobenius": (links.LOSS_FROBENIUS, "‖ŷ − y‖_F, not squared (the authors' 'frobenius'; |ŷ − y| for scalar "
                                        "outputs); gradient Jᵀ(ŷ − y)/‖ŷ − y‖."),
}


# --- argument checks of the public functions ----------------------------------------
class ArgumentKindError(TypeError, ValueError):
    """An argument of the wrong kind (None or a function where a Problem goes, a string where a
    number goes, ...). A TypeError; also a ValueError, so that code catching bad input as
    ValueError (the command line) catches it too."""


def _shown(value) -> str:
    """``repr(value)`` on one line, at most 60 characters, for messages."""
    text = " ".join(repr(value).split())
    return text if len(text) <= 60 else text[:57] + "..."


def check_choice(parameter: str, value, allowed) -> None:
    """ArgumentKindError unless ``value`` is a string, ValueError unless it is one of ``allowed``."""
    names = ", ".join(sorted(allowed))
    if not isinstance(value, str):
        raise ArgumentKindError(f"{parameter}={_shown(value)} is not allowed ({type(value).__name__}); "
                                f"{parameter} must be one of: {names}")
    if value not in allowed:
        raise ValueError(f"{parameter}={value!r} is unknown; allowed: {names}")



def check_number(parameter: str, value, *, low=None, high=None, low_open=False, high_open=False,
                 integer=False, optional=False) -> None:
    """ArgumentKindError unless ``value`` is a real number (an integer with ``integer``; None
    passes with ``optional``), ValueError unless it is finite and within the bounds
    (``low``/``high``, excluded with ``low_open``/``high_open``). The message names ``parameter``."""
    if value is None and optional:
        return
    if low is not None and high is not None:
        bounds = f" in {'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"
    elif low is not None:
        bounds = f" {'>' if low_open else '≥'} {low:g}"
    elif high is not None:
        bounds = f" {'<' if high_open else '≤'} {high:g}"
    else:
        bounds = ""
    allowed = (f"{parameter} must be {'an integer' if integer else 'a finite number'}{bounds}"
               + (" (or None)" if optional else ""))
    kinds = (int, np.integer) if integer else (int, float, np.integer, np.floating)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, kinds):
        raise ArgumentKindError(f"{parameter}={_shown(value)} is not allowed ({type(value).__name__}); {allowed}")
    if (not math.isfinite(value) or (low is not None and (value <= low if low_open else value < low))
            or (high is not None and (value >= high if high_open else value > high))):
        raise ValueError(f"{parameter}={_shown(value)} is not allowed; {allowed}")


def check_array(parameter: str, value, *, optional=False) -> None:
    """ArgumentKindError unless ``value`` is a real number or an array_like of real numbers (None
    passes with ``optional``), ValueError unless every entry is finite."""
    if value is None and optional:
        return
    try:
        kind = np.asarray(value).dtype.kind
    except (TypeError, ValueError):                 # ragged nested sequences
        kind = "O"
    allowed = f"{parameter} must be a real number or an array of real numbers" + (" (or None)" if optional else "")
    if kind not in "iuf":
        raise ArgumentKindError(f"{parameter}={_shown(value)} is not allowed ({type(value).__name__}); {allowed}")
    if not np.all(np.isfinite(value)):
        raise ValueError(f"{parameter}={_shown(value)} is not allowed; {allowed}, all finite")


def check_callable(parameter: str, value, takes: str, *, optional=True) -> None:
    """ArgumentKindError unless ``value`` is callable (None passes with ``optional``); ``takes``
    says what the function is called with, e.g. "a function of t"."""
    if value is None and optional:
        return
    if not callable(value):
        raise ArgumentKindError(f"{parameter}={_shown(value)} is not allowed ({type(value).__name__}); "
                                f"{parameter} must be {takes}" + (" (or None)" if optional else ""))


def check_flag(parameter: str, value) -> None:
    """ArgumentKindError unless ``value`` is True or False."""
    if not isinstance(value, (bool, np.bool_)):
        raise ArgumentKindError(f"{parameter}={_shown(value)} is not allowed ({type(value).__name__}); "
                                f"{parameter} must be True or False")


def check_problem(problem) -> None:
    """ArgumentKindError unless ``problem`` is a :class:`Problem`; for a function, the message
    shows how to make it the target of one."""
    if isinstance(problem, Problem):
        return
    hint = ""
    if callable(problem):
        name = getattr(problem, "__name__", "g")
        hint = (f"; to use your own target function, pass Problem(L=..., target={name}, student=...) "
                "(docs/custom_targets.md)")
    raise ArgumentKindError(f"problem={_shown(problem)} is not allowed ({type(problem).__name__}); problem must "
                            f"be an ssi.Problem, e.g. Problem(L=2, target='he2_sum', student='attention'){hint}")


@dataclass(frozen=True)
class Problem:
    """A sequence single-index learning problem (docs/theory.md, "Model and conventions").

    Parameters
    ----------
    L : int
        Sequence length (≥ 1).
    target : str or callable
        Target link name, a key of :data:`TARGETS`; or a user's function g(z) of one sample
        z of shape (L,) returning a real number, or a :class:`ssi.custom.CustomTarget`
        (docs/custom_targets.md).
    student : str
        Student name, a key of :data:`STUDENTS`.
    pe : str, default "none"
        Positional encoding, a key of :data:`POSITIONAL_ENCODINGS` (tied students only).
    reduction : str, optional
        Reduction of the attention matrix, a key of :data:`REDUCTIONS`
        (attention only; default "identity" for the matrix-valued target, "trace" otherwise).
    activation : str or callable, optional
        Feed-forward activation, a key of :data:`ACTIVATIONS` (tied/untied only; default "relu");
        or a user's function σ(h) of one real number, or a :class:`ssi.custom.CustomActivation`
        (docs/custom_targets.md, "Your own activation").
    omega : float, default 0.5
        Weight ω ∈ [0, 1] of the positional part of the "mixture" target.
    a : float, default 1.0
        Strength of the positional pattern A(a) of the "mixture" target.
    proj_left, proj_right : tuple of float, optional
        Vectors u, v (length L) of the "projection" reduction (default uniform 1/√L).
    loss : str, default "half_square"
        Per-sample loss, a key of :data:`LOSSES`: "half_square" ½‖ŷ − y‖², "mse"
        (mean over output entries of (ŷ − y)²), "frobenius" ‖ŷ − y‖ (not squared).
    target_scale : float, default 1.0
        Constant c ≠ 0 multiplying the target: the target is c·g (scalar targets only).
        The authors' scaled targets (e.g. √L Σ_l h_2(z_l)) are a registry target with a
        scale, see :mod:`ssi.authors`. The "matched" student uses the scaled link too.
    """

    L: int
    target: object
    student: str
    pe: str = "none"
    reduction: str | None = None
    activation: object = None
    omega: float = 0.5
    a: float = 1.0
    proj_left: tuple[float, ...] | None = None
    proj_right: tuple[float, ...] | None = None
    loss: str = "half_square"
    target_scale: float = 1.0
    _codes: tuple = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        L = self.L
        check_number("L", L, low=1, integer=True)
        if not isinstance(self.target, (str, CustomTarget)):
            check_callable("target", self.target, "a registry name (python -m ssi list) or a function g(z) of one "
                           "sample z (docs/custom_targets.md)", optional=False)
        custom = not isinstance(self.target, str)
        if custom:
            object.__setattr__(self, "target", as_target(self.target))
        else:
            check_choice("target", self.target, TARGETS)
        check_choice("student", self.student, STUDENTS)
        check_choice("pe", self.pe, POSITIONAL_ENCODINGS)
        check_choice("loss", self.loss, LOSSES)
        scale = self.target_scale
        check_number("target_scale", scale)
        if scale == 0:
            raise ValueError(f"target_scale={scale!r} is not allowed; target_scale must be a finite number ≠ 0")
        check_number("omega", self.omega, low=0, high=1)
        check_number("a", self.a)
        scale = float(scale)
        if custom:
            self.target.check(L)        # ValueError naming the function, SlowTargetWarning if Python only
            tcode, tdefaults, min_L = links.T_CUSTOM, (), 1
        else:
            tcode, tdefaults, min_L, _ = TARGETS[self.target]
        if L < min_L:
            raise ValueError(f"L={L} is too small for target={self.target!r}; it needs L ≥ {min_L}")
        if self.target == "mixture" and L != 2:
            raise ValueError(f"L={L} is not allowed for target='mixture'; it is defined for L = 2")
        if self.target == "mixture" and scale != 1.0:
            raise ValueError(f"target_scale={self.target_scale!r} is not allowed for target='mixture'; "
                             "allowed: 1 (the matrix-valued target is not rescaled)")
        scode, tied, _ = STUDENTS[self.student]
        matrix_target = tcode == links.T_MIXTURE

        reduction = self.reduction
        if self.student == "attention":
            if reduction is None:
                reduction = "identity" if matrix_target else "trace"
            check_choice("reduction", reduction, REDUCTIONS)
            if matrix_target != (reduction == "identity"):
                raise ValueError(
                    f"reduction={reduction!r} does not fit target={self.target!r}: the matrix-valued "
                    "target needs reduction='identity', scalar targets need 'trace' or 'projection'")
        elif reduction is not None:
            raise ValueError(f"reduction={reduction!r} is only allowed for student='attention'")
        if self.student in ("tied", "untied"):
            activation = "relu" if self.activation is None else self.activation
            if isinstance(activation, str):
                check_choice("activation", activation, ACTIVATIONS)
            else:
                if not isinstance(activation, CustomActivation):
                    check_callable("activation", activation, "a registry name (python -m ssi list) or a function "
                                   "σ(h) of one real number h (docs/custom_targets.md)", optional=False)
                activation = as_activation(activation)
                activation.check()      # ValueError naming the function
            if matrix_target:
                raise ValueError(f"target='mixture' has a matrix output; student={self.student!r} "
                                 "is scalar: use student='attention' or 'matched'")
        elif self.activation is not None:
            raise ValueError(f"activation={self.activation!r} is only allowed for students 'tied' and 'untied'")
        else:
            activation = None
        if not tied and self.pe != "none":
            raise ValueError(f"pe={self.pe!r} is not allowed for student='untied'; allowed: 'none'")
        if self.pe == "opposite" and L != 2:
            raise ValueError(f"pe='opposite' needs L = 2, got L={L}")

        left = right = None
        if reduction == "projection":
            check_array("proj_left", self.proj_left, optional=True)
            check_array("proj_right", self.proj_right, optional=True)
            left = np.full(L, 1 / math.sqrt(L)) if self.proj_left is None else np.asarray(self.proj_left, float)
            right = np.full(L, 1 / math.sqrt(L)) if self.proj_right is None else np.asarray(self.proj_right, float)
            for name, v in (("proj_left", left), ("proj_right", right)):
                if v.shape != (L,) or not np.all(np.isfinite(v)):
                    raise ValueError(f"{name} must be {L} finite numbers")
        elif self.proj_left is not None or self.proj_right is not None:
            raise ValueError("proj_left/proj_right are only allowed with reduction='projection'")

        if tcode == links.T_MIXTURE:
            tparams = np.array([float(self.omega), float(self.a)])
        elif tcode == links.T_HE_SUM:
            k, norm = tdefaults
            norm = 1 / math.sqrt(L) if norm is None else norm
            tparams = np.array([k, norm / math.sqrt(math.factorial(k)) * scale], float)
        elif tcode == links.T_HE4_PLUS_DIFF:
            tparams = np.array([c * scale for c in tdefaults], float)
        else:
            # (structural parameters..., scale): the links multiply by the last entry
            tparams = np.array(list(tdefaults) + [scale], float)
        if scode == links.S_ATTENTION:
            sparams = np.zeros(1 + 2 * L)
            sparams[0] = REDUCTIONS[reduction][0]
            if left is not None:
                sparams[1:1 + L], sparams[1 + L:] = left, right
        elif scode == links.S_FEEDFORWARD:
            code = links.A_CUSTOM if isinstance(activation, CustomActivation) else ACTIVATIONS[activation][0]
            sparams = np.array([code], float)
        else:
            sparams = np.zeros(1)
        object.__setattr__(self, "reduction", reduction)
        object.__setattr__(self, "activation", activation)
        object.__setattr__(self, "target_scale", scale)
        object.__setattr__(self, "_codes", (tcode, tparams, scode, sparams))

    # --- derived properties ----------------------------------------------------
    @property
    def tied(self) -> bool:
        """True when one weight vector is shared by all tokens."""
        return STUDENTS[self.student][1]

    @property
    def n_out(self) -> int:
        """Output size: L² for the matrix-valued target, 1 otherwise."""
        return self.L * self.L if self._codes[0] == links.T_MIXTURE else 1

    @property
    def loss_code(self) -> int:
        """Code of the per-sample loss for :mod:`ssi.links` (``links.LOSS_*``)."""
        return LOSSES[self.loss][0]

    @property
    def kernels(self):
        """The compiled link-level kernels of this problem (namespace, :func:`ssi.kernels.link_kernels`),
        or None for a user's target that numba cannot compile (the Python path of :mod:`ssi.kernels`)."""
        return link_kernels(self)

    @property
    def codes(self):
        """(target code, target params, student code, student params) for :mod:`ssi.links`."""
        return self._codes

    def pe_matrix(self) -> np.ndarray:
        """Coordinates of the unit PE vectors p_l in an orthonormal basis of their span, shape (L, k)."""
        if self.pe == "none":
            return np.zeros((self.L, 0))
        if self.pe == "opposite":
            return np.array([[1.0], [-1.0]])
        return np.eye(self.L)

    @property
    def subspace_dim(self) -> int:
        """r = dim span(w*, p_1..p_L): 1 + rank of the PE (docs/theory.md, "The reduced simulator")."""
        return 1 + self.pe_matrix().shape[1]

    def min_dimension(self) -> int:
        """Smallest d the simulators accept: the span of w*, the PE and one free direction, plus one."""
        return self.subspace_dim + 2

    # --- vectorised evaluation -------------------------------------------------
    def target_value(self, zstar) -> np.ndarray:
        """g(z*) for samples z* of shape (n, L): shape (n,) or (n, L, L)."""
        z = np.ascontiguousarray(zstar, dtype=float)
        tcode, tparams, _, _ = self._codes
        kernels = self.kernels
        if kernels is None:
            return self.target_scale * self.target.python_values(z)
        out = kernels.batch_target(tcode, tparams, z, self.n_out)
        if tcode == links.T_CUSTOM and not np.all(np.isfinite(out)):
            self.target.python_values(z[~np.isfinite(out[:, 0])])      # raises, naming the function
        return self._shape_output(out)

    def student_value(self, q) -> np.ndarray:
        """f(q) for pre-activations q of shape (n, L): shape (n,) or (n, L, L)."""
        q = np.ascontiguousarray(q, dtype=float)
        tcode, tparams, scode, sparams = self._codes
        kernels = self.kernels
        if kernels is None:
            out = python_student(self, q)
        else:
            out = kernels.batch_student(scode, sparams, tcode, tparams, q, self.n_out)
        if isinstance(self.activation, CustomActivation) and not np.all(np.isfinite(out)):
            h = q[~np.isfinite(out[:, 0])].sum(axis=1) / math.sqrt(self.L)
            self.activation.python_values(h)            # raises, naming the function
        return self._shape_output(out)

    def loss_and_grad(self, zstar, q):
        """Per-sample loss ℓ (``self.loss``; default ½‖f(q) − g(z*)‖²) and a = ∂ℓ/∂q, for arrays of shape (n, L).

        Returns
        -------
        loss : ndarray, shape (n,)
        a : ndarray, shape (n, L)
        """
        z = np.ascontiguousarray(zstar, dtype=float)
        q = np.ascontiguousarray(q, dtype=float)
        if z.shape != q.shape or z.ndim != 2 or z.shape[1] != self.L:
            raise ValueError(f"zstar and q must both have shape (n, {self.L}); got {z.shape} and {q.shape}")
        tcode, tparams, scode, sparams = self._codes
        kernels = self.kernels
        if kernels is None:
            return python_loss_and_grad(self, z, q)
        return kernels.batch_loss_and_grad(tcode, tparams, scode, sparams, z, q, self.loss_code)

    def _shape_output(self, out):
        if self.n_out == 1:
            return out[:, 0]
        return out.reshape(-1, self.L, self.L)
