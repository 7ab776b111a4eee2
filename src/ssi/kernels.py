"""The compiled kernels of a problem: the registry's, or copies compiled with a user's function.

:class:`ssi.problems.Problem` evaluates its target, student and loss through the link-level
kernels of :func:`link_kernels`: the batch wrappers of :mod:`ssi.links` for the registry's
targets and activations, or, for a user's target or activation (:mod:`ssi.custom`), fresh
copies of the same kernels with the user's function inlined.

How a user's function reaches the compiled kernels
--------------------------------------------------
Every kernel calls the target through two small inlined functions of :mod:`ssi.links`,
``target_scalar`` (the value) and ``target_scalar_vjp`` (its gradient, needed by the "matched"
student only), and the feed-forward activation through ``activation`` and
``activation_derivative``. :func:`compiled_kernels` compiles fresh copies of the kernels (the
same Python source, its globals rebound so that these names call the user's function,
:func:`rebind`) with numba: the user's function is inlined into the hot loop exactly as a
registry target, so the speed is the registry's (benchmarks/custom_targets.py) and the registry
kernels themselves are untouched. No string is evaluated. The copies are compiled once per
process and function (not cached on disk: numba's cache is keyed by source file, which the
registry kernels already use); the first call costs a compile of some seconds. The engines
specialise their own kernels the same way, rebinding ``loss_and_grad``
(:func:`ssi.population.moments_kernel`, :func:`ssi.sgd.reduced.advance_kernels`).

A target numba cannot compile has no compiled kernels (:func:`link_kernels` gives None): the
theory side and the explicit engine then run through the Python path at the bottom of this
module (:func:`python_loss_and_grad`, :func:`python_student`).
"""
from __future__ import annotations

import functools
import types
import warnings

import numpy as np
from numba import njit

from . import links
from .custom import COMPLEX_STEP, CustomActivation, CustomTarget, SlowTargetWarning, jit_of


def registry_kernels():
    """The registry's link-level kernels (namespace), looked up at each call (so that a test can
    monkeypatch them)."""
    return types.SimpleNamespace(
        batch_target=links.batch_target, batch_student=links.batch_student,
        batch_loss_and_grad=links.batch_loss_and_grad, loss_and_grad=links.loss_and_grad)


def user_functions(problem):
    """``(target, L, matched, activation)``, the arguments of :func:`compiled_kernels` for a problem
    with a user's target and/or activation (None for the parts from the registry); None when both
    come from the registry."""
    tcode, _, scode, _ = problem.codes
    custom_target = tcode == links.T_CUSTOM
    activation = problem.activation if isinstance(problem.activation, CustomActivation) else None
    if not custom_target and activation is None:
        return None
    return (problem.target if custom_target else None, problem.L, scode == links.S_MATCHED, activation)


def link_kernels(problem):
    """The link-level kernels of ``problem`` (namespace, see :func:`compiled_kernels`), or None for a
    user's target that numba cannot compile (the Python path)."""
    key = user_functions(problem)
    if key is None:
        return registry_kernels()
    if key[0] is not None and key[0].compiled is None:
        return None
    return compiled_kernels(*key)


# --- compiled kernels ---------------------------------------------------------------------
def activation_functions(spec: CustomActivation):
    """Inlined σ and σ' with the signatures of links.activation / links.activation_derivative."""
    spec.check()
    f = spec.compiled
    method = spec.derivative_method

    @njit(inline="always")
    def value(code, h):
        return f(h)

    if method == "user":
        df = spec.compiled_derivative

        @njit(inline="always")
        def derivative(code, h):
            return df(h)
    elif method == "complex step":
        @njit(inline="always")
        def derivative(code, h):
            return f(complex(h, COMPLEX_STEP)).imag / COMPLEX_STEP
    else:
        @njit(inline="always")
        def derivative(code, h):
            step = 1e-6 * (1.0 + abs(h))
            return (f(h + step) - f(h - step)) / (2.0 * step)
    return value, derivative


def rebind(dispatcher, **replacements):
    """A fresh numba function with the Python source of ``dispatcher`` and some globals replaced.

    Same options (inline, nogil) except the on-disk cache; the registry function is untouched.
    """
    py = dispatcher.py_func
    scope = dict(py.__globals__)
    scope.update(replacements)
    fun = types.FunctionType(py.__code__, scope, py.__name__, py.__defaults__, py.__closure__)
    fun.__kwdefaults__ = py.__kwdefaults__
    fun.__doc__ = py.__doc__
    options = {k: v for k, v in dispatcher.targetoptions.items() if k not in ("cache", "nopython")}
    return njit(**options)(fun)


@njit(inline="always")
def no_matched_vjp(tparams, z, c, out, mats):
    raise AssertionError("ssi.kernels: kernels compiled without the matched student's gradient")


def target_functions(spec: CustomTarget, L: int, matched: bool):
    """Inlined value (signature of links.target_scalar) and vjp(tparams, z, c, out, mats).

    ``vjp`` writes out = c ∂g/∂z without allocating: its complex (complex step) or real
    (central differences) copy of z lives in the kernel's scratch ``mats`` (links.scratch,
    4 L² floats), which the matched student does not otherwise use.
    """
    g = spec.compiled
    grad = spec.grad
    if not matched:
        vjp = no_matched_vjp
    elif grad is not None:
        grad = jit_of(grad)

        @njit(inline="always")
        def vjp(tparams, z, c, out, mats):
            d = grad(z)                       # the user's function: allocates if it returns a new array
            for l in range(z.shape[0]):
                out[l] = c * tparams[0] * d[l]
    elif spec.complex_step_works(L):
        @njit(inline="always")
        def vjp(tparams, z, c, out, mats):
            n = z.shape[0]
            zc = mats.reshape(mats.size).view(np.complex128)[:n]      # 2 L² ≥ L complex slots
            for l in range(n):
                zc[l] = z[l]
            for l in range(n):
                zc[l] = complex(z[l], COMPLEX_STEP)
                out[l] = c * tparams[0] * g(zc).imag / COMPLEX_STEP
                zc[l] = z[l]
    else:
        @njit(inline="always")
        def vjp(tparams, z, c, out, mats):
            n = z.shape[0]
            zh = mats.reshape(mats.size)[:n]
            for l in range(n):
                zh[l] = z[l]
            for l in range(n):
                h = 1e-6 * (1.0 + abs(z[l]))
                zh[l] = z[l] + h
                up = g(zh)
                zh[l] = z[l] - h
                down = g(zh)
                zh[l] = z[l]
                out[l] = c * tparams[0] * (up - down) / (2.0 * h)

    @njit(inline="always")
    def value(tcode, tparams, z):
        return tparams[0] * g(z)

    return value, vjp


@njit(inline="always")
def unreachable_vjp(tcode, tparams, z, c, grad):
    """Stand-in for links.target_scalar_vjp in the compiled copies: the matched student is handled
    before (compiled_kernels' half_square), so this branch never runs."""
    raise AssertionError("ssi.kernels: the matched student's gradient is computed in half_square")


@functools.lru_cache(maxsize=32)
def compiled_kernels(spec: CustomTarget | None, L: int, matched: bool = True,
                     activation: CustomActivation | None = None):
    """The link-level kernels of :mod:`ssi.links` with ``spec``'s function as the target and/or
    ``activation``'s as the feed-forward activation (namespace of dispatchers: ``batch_target``,
    ``batch_student``, ``batch_loss_and_grad``, ``batch_loss_and_grad_given_y`` and the per-sample
    ``loss_and_grad`` that the engines inline, :func:`ssi.population.moments_kernel`,
    :func:`ssi.sgd.reduced.advance_kernels`); ``spec=None``: the registry's targets.

    ``matched=False``: for the other students, which never need ∂g/∂z (not compiled then).
    Every kernel is compiled lazily, at its first call.
    """
    student_globals, scalar_globals = {}, {}
    if spec is not None:
        if spec.compiled is None:
            raise ValueError(f"target function {spec.name!r} is not numba-compilable: no compiled kernels")
        if matched and spec.grad is None and not spec.complex_step_works(L):
            warnings.warn(f"target function {spec.name!r}: numba's complex-step gradient is not exact for it "
                          "(no complex input, or a power z**n with n != 2, which numba evaluates by exp/log: "
                          "write it as a product); the compiled matched student uses central differences "
                          "(relative accuracy ~1e-8); pass grad= for an exact gradient", SlowTargetWarning,
                          stacklevel=3)
        value, vjp = target_functions(spec, L, matched)
        student_globals["target_scalar"] = value
        scalar_globals["target_scalar_vjp"] = unreachable_vjp
    if activation is not None:
        student_globals["activation"], scalar_globals["activation_derivative"] = activation_functions(activation)
    student = rebind(links.student_scalar, **student_globals)
    scalar = rebind(links.scalar_loss_and_grad, student_scalar=student, **scalar_globals)

    if spec is not None:
        s_matched = links.S_MATCHED

        @njit(inline="always")
        def half_square(tcode, tparams, scode, sparams, zstar, q, a, mats):
            y = value(tcode, tparams, zstar)
            if scode == s_matched:    # links.scalar_loss_and_grad's matched branch, with scratch for the vjp
                r = value(tcode, tparams, q) - y
                vjp(tparams, q, r, a, mats)
                return 0.5 * r * r
            for l in range(q.shape[0]):
                a[l] = 0.0
            return scalar(tcode, tparams, scode, sparams, y, q, a, mats)

        batch_target = rebind(links.batch_target, target_scalar=value)
    else:                             # a registry target (with a user's activation)
        half_square = rebind(links.half_square_loss_and_grad, scalar_loss_and_grad=scalar)
        batch_target = links.batch_target

    loss_and_grad = rebind(links.loss_and_grad, half_square_loss_and_grad=half_square)
    # batch_loss_and_grad_given_y (the Python path of a target) reaches links' functions and codes
    given_y_view = types.ModuleType("ssi.links (custom activation)")
    given_y_view.__dict__.update({k: v for k, v in vars(links).items() if not k.startswith("__")})
    given_y_view.scalar_loss_and_grad = scalar
    return types.SimpleNamespace(
        batch_target=batch_target,
        batch_student=rebind(links.batch_student, student_scalar=student),
        batch_loss_and_grad=rebind(links.batch_loss_and_grad, loss_and_grad=loss_and_grad),
        batch_loss_and_grad_given_y=rebind(batch_loss_and_grad_given_y, links=given_y_view),
        loss_and_grad=loss_and_grad,
    )


# --- the Python path (a target numba cannot compile) --------------------------------------
@njit(cache=True)
def batch_loss_and_grad_given_y(scode, sparams, y, q, lcode):
    """Loss (n,) and a = ∂ℓ/∂q (n, L) of a non-matched student for given target values y (n,)."""
    n, L = q.shape
    loss = np.empty(n)
    a = np.zeros((n, L))
    mats = np.zeros((4, L, L))
    dummy = np.ones(1)
    for i in range(n):
        half = links.scalar_loss_and_grad(links.T_LINEAR, dummy, scode, sparams, y[i], q[i], a[i], mats)
        loss[i] = half if lcode == links.LOSS_HALF_SQUARE else links.other_loss(lcode, half, a[i], 1)
    return loss, a


def python_loss_and_grad(problem, zstar, q):
    """Problem.loss_and_grad for a target on the Python path."""
    spec = problem.target
    scale = problem.target_scale
    y = scale * spec.python_values(zstar)
    _, _, scode, sparams = problem.codes
    if scode != links.S_MATCHED:
        given_y = activation_kernels(problem).batch_loss_and_grad_given_y
        return given_y(scode, sparams, y, q, problem.loss_code)
    r = scale * spec.python_values(q) - y
    a = (r * scale)[:, None] * spec.python_gradient(q)
    half = 0.5 * r * r
    if problem.loss == "mse":
        return 2.0 * half, 2.0 * a
    if problem.loss == "frobenius":
        norm = np.abs(r)
        inverse = np.divide(1.0, norm, out=np.zeros_like(norm), where=norm > 0)
        return norm, a * inverse[:, None]
    return half, a


def python_student(problem, q):
    """Problem.student_value for a target on the Python path (shape (n, 1))."""
    _, _, scode, sparams = problem.codes
    if scode == links.S_MATCHED:
        return (problem.target_scale * problem.target.python_values(q))[:, None]
    return activation_kernels(problem).batch_student(scode, sparams, links.T_LINEAR, np.ones(1), q, 1)


def activation_kernels(problem):
    """The batch kernels of a Python-path target's student: the registry's, or compiled for a user's
    activation (with the registry's target code T_LINEAR as a placeholder: the target enters through y)."""
    if isinstance(problem.activation, CustomActivation):
        return compiled_kernels(None, problem.L, False, problem.activation)
    return types.SimpleNamespace(batch_student=links.batch_student,
                                 batch_loss_and_grad_given_y=batch_loss_and_grad_given_y)
