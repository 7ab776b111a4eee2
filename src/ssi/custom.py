"""Bring your own target: a user's function g: ℝ^L → ℝ in place of a registry target.

``Problem(L=2, target=my_g, student="attention", pe="opposite")`` works with ``sie``,
``sie_report``, ``population_loss``, ``integrate_ode`` and ``simulate`` (both engines);
docs/custom_targets.md has a worked example. ``g`` takes one sample, the L teacher
pre-activations ``z*`` as a 1-D float array, and returns a real number (docs/theory.md,
"Model and conventions": ``y = g(z*)``). It is checked on a few fixed points when the
``Problem`` is built: a function that raises, returns NaN/inf or a non-scalar gives a
``ValueError`` naming it.

How the function reaches the compiled kernels
---------------------------------------------
This module holds the user's functions and their checks; :mod:`ssi.kernels` compiles fresh
copies of the package's kernels with them inlined (the Python source of the registry's kernels,
its globals rebound), so the user's ``g`` runs in the hot loop exactly as a registry target.

The gradient ∂g/∂z (the matched student) is, in this order: the ``grad`` the user gives
(``grad(z)`` returns the L partial derivatives); else the complex-step derivative
``Im g(z + i h e_l)/h`` with h = 1e-20 computed from the same function (numba and
numpy compile/evaluate ``g`` for complex input too), exact to rounding for any ``g``
built from analytic operations, written into the kernel's scratch (no allocation per
step); else (``g`` uses abs, max, comparisons, …, or a complex power ``z**n``, n ≠ 2,
which numba computes by exp/log: :meth:`CustomTarget.complex_step_works`) central
differences, with a warning about their accuracy. An automatic-differentiation
library was not used: the ones on PyPI (autograd, jax, …) trace Python objects and
cannot run inside numba's nopython kernels, so they would force every step of the
simulators back into Python.

A function numba cannot compile still works, in Python, through the theory side
(``sie``, ``population_loss``, ``integrate_ode``) and the explicit engine, with a
:class:`SlowTargetWarning`; the reduced engine needs a compiled target and refuses it.
``vectorized=True`` declares that ``g`` takes an (n, L) array and returns (n,) values
(plain numpy is fine there): it runs on the Python path.

Bring your own activation
-------------------------
``Problem(L=2, target=..., student="tied" or "untied", activation=sigma)`` with a function
σ(h) of one real number (:class:`CustomActivation`): the same mechanism, the globals
``activation`` and ``activation_derivative`` of :mod:`ssi.links` rebound in the same fresh
copies of the kernels (:func:`ssi.kernels.compiled_kernels`, which also combines a user's target
and a user's activation). σ must be numba-compilable (no Python path); σ' is the user's
``derivative``, else the complex step, else central differences (with a warning).
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
from numba import njit
from numba.extending import is_jitted


#: step of the complex-step derivative (no subtraction: any tiny step is exact to rounding)
COMPLEX_STEP = 1e-20


class SlowTargetWarning(UserWarning):
    """A user's target runs in Python (numba could not compile it): much slower than the kernels."""


def _name_of(fun) -> str:
    py = getattr(fun, "py_func", fun)
    module = getattr(py, "__module__", None)
    name = getattr(py, "__qualname__", None) or getattr(py, "__name__", None) or repr(py)
    return f"{module}:{name}" if module and module != "__main__" else name


def jit_of(fun):
    """``fun`` itself when it is a numba dispatcher (``@njit``), else ``njit(fun)`` (compiled on first call)."""
    return fun if is_jitted(fun) else njit(fun)


def _first_line(err) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


def _is_real_scalar(arr) -> bool:
    """Whether ``arr`` (an np.asarray of a user function's return value) is one real number."""
    return arr.shape == () and np.issubdtype(arr.dtype, np.number) and not np.iscomplexobj(arr)


def _check_compiled_matches(label: str, compiled, values) -> None:
    """ValueError naming ``label`` when numba's values of a user function differ from Python's."""
    if not np.allclose(compiled, values, rtol=1e-12, atol=1e-12):
        raise ValueError(f"{label} gives different values compiled by numba ({compiled}) and in Python ({values})")


def _check_kinds(owner: str, functions, name, **flags) -> None:
    """TypeError naming the parameter of ``owner`` that is of the wrong kind: ``functions`` are
    (parameter, value, what it takes) with None allowed where "None" is in what it takes; ``name``
    a string or None; ``flags`` True or False. (The package's checks of the other public functions
    are in :mod:`ssi.problems`, on a floor above this module.)"""
    for parameter, value, takes in functions:
        if not callable(value) and not (value is None and takes.startswith("None")):
            raise TypeError(f"{owner}: {parameter}={value!r} is not allowed ({type(value).__name__}); "
                            f"{parameter} must be {takes}")
    if name is not None and not isinstance(name, str):
        raise TypeError(f"{owner}: name={name!r} is not allowed ({type(name).__name__}); name must be a string or None")
    for parameter, value in flags.items():
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{owner}: {parameter}={value!r} is not allowed ({type(value).__name__}); "
                            f"{parameter} must be True or False")


@dataclass(frozen=True, eq=False)
class CustomTarget:
    """A user's scalar target link g: ℝ^L → ℝ (see the module docstring).

    Parameters
    ----------
    fun : callable
        ``fun(z)`` for one sample z of shape (L,), returning a real number; a numba
        ``@njit`` function is used as is, a plain function is compiled with numba when it can be.
    grad : callable, optional
        ``grad(z)`` returning the L partial derivatives ∂g/∂z_l (matched student only);
        default: complex step, else central differences.
    name : str, optional
        Name in messages and reprs (default ``module:function``).
    vectorized : bool, default False
        ``fun`` takes an (n, L) array and returns (n,) values (Python path only).

    Two CustomTargets are equal when they wrap the same function objects.
    """

    fun: object
    grad: object = None
    name: str | None = None
    vectorized: bool = False
    _state: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self):
        _check_kinds("CustomTarget", (("fun", self.fun, "a function g(z) of one sample z"),
                                      ("grad", self.grad, "None or a function grad(z) of one sample z")),
                     self.name, vectorized=self.vectorized)
        if self.name is None:
            object.__setattr__(self, "name", _name_of(self.fun))

    def __eq__(self, other):
        return (isinstance(other, CustomTarget) and self.fun is other.fun and self.grad is other.grad
                and self.vectorized == other.vectorized)

    def __hash__(self):
        return hash((id(self.fun), id(self.grad), self.vectorized))

    def __repr__(self):
        return f"CustomTarget({self.name!r})"

    # --- checks -----------------------------------------------------------------------
    def _fail(self, what, z, err=None):
        where = f" at z = {np.array2string(np.asarray(z), precision=3)}" if z is not None else ""
        raise ValueError(f"target function {self.name!r} {what}{where}; it must map an array z of "
                         "shape (L,) to a finite real number") from err

    def python_values(self, z) -> np.ndarray:
        """g on every row of z (n, L) in Python, checked: shape (n,)."""
        z = np.asarray(z, dtype=float)
        if self.vectorized:
            try:
                out = np.asarray(self.fun(z.copy()))
            except Exception as err:          # noqa: BLE001 (any error of the user's code)
                self._fail(f"raised {type(err).__name__}: {err}", None, err)
            if out.shape not in ((z.shape[0],), (z.shape[0], 1)) or not np.issubdtype(out.dtype, np.number) \
                    or np.iscomplexobj(out):
                self._fail(f"returned shape {out.shape} ({out.dtype}) for an input of shape {z.shape}; "
                           f"vectorized=True expects ({z.shape[0]},)", None)
            out = out.reshape(-1).astype(float)
        else:
            out = np.empty(z.shape[0])
            fun = getattr(self.fun, "py_func", self.fun)
            for i, row in enumerate(z):
                out[i] = self._scalar(fun, row)
        bad = ~np.isfinite(out)
        if np.any(bad):
            self._fail(f"returned {out[bad][0]}", z[np.argmax(bad)])
        return out

    def _scalar(self, fun, row):
        try:
            v = fun(row.copy())
        except Exception as err:              # noqa: BLE001
            self._fail(f"raised {type(err).__name__}: {err}", row, err)
        arr = np.asarray(v)
        if not _is_real_scalar(arr):
            self._fail(f"returned {type(v).__name__} of shape {arr.shape}", row)
        return float(arr)

    def check(self, L: int) -> None:
        """Evaluate g at fixed points of ℝ^L (ValueError naming it), then try to compile it with numba."""
        key = ("checked", L)
        if key in self._state:
            return
        points = np.concatenate([np.zeros((1, L)), np.ones((1, L)),
                                 np.random.default_rng(0).standard_normal((4, L)) * 2.0])
        values = self.python_values(points)
        if self.grad is not None:
            for z in points[:2]:
                gz = np.asarray(self.grad(z.copy()), dtype=float)
                if gz.shape != (L,) or not np.all(np.isfinite(gz)):
                    raise ValueError(f"grad of target function {self.name!r} returned {gz!r} at z = {z}; "
                                     f"it must return {L} finite partial derivatives")
        if "jit" not in self._state:
            self._state["jit"] = self._compile(points, values)
        self._state[key] = True

    def _compile(self, points, values):
        """The numba dispatcher of g, or None (with a SlowTargetWarning) when numba cannot compile it."""
        if self.vectorized:
            warnings.warn(f"target function {self.name!r} is vectorized: it runs in Python (theory side and "
                          "explicit engine only, much slower than the compiled kernels; the reduced engine "
                          "needs a per-sample numba-compilable function)", SlowTargetWarning, stacklevel=4)
            return None
        jit = jit_of(self.fun)
        try:
            compiled = np.array([jit(np.ascontiguousarray(z)) for z in points], dtype=float)
        except Exception as err:              # noqa: BLE001 (numba's typing errors and the user's)
            first = _first_line(err)
            warnings.warn(f"target function {self.name!r} is not numba-compilable ({type(err).__name__}: "
                          f"{first}): it runs in Python through the theory side and the explicit engine, "
                          "10-1000x slower than the compiled kernels; engine='reduced' is unavailable",
                          SlowTargetWarning, stacklevel=4)
            return None
        _check_compiled_matches(f"target function {self.name!r}", compiled, values)
        return jit

    @property
    def compiled(self):
        """The numba dispatcher of g (None: Python only). Call :meth:`check` first."""
        return self._state.get("jit")

    # --- gradient in Python -----------------------------------------------------------
    def python_gradient(self, z) -> np.ndarray:
        """∂g/∂z on every row of z (n, L) in Python: user's grad, complex step or central differences."""
        z = np.asarray(z, dtype=float)
        n, L = z.shape
        if self.grad is not None:
            return np.array([np.asarray(self.grad(row.copy()), dtype=float) for row in z]).reshape(n, L)
        out = np.empty((n, L))
        if self._state.get("complex_step", True):
            try:
                for l in range(L):
                    zc = z.astype(complex)
                    zc[:, l] += 1j * COMPLEX_STEP
                    out[:, l] = self._complex_values(zc).imag / COMPLEX_STEP
                if np.all(np.isfinite(out)):
                    return out
            except Exception:                 # noqa: BLE001 (not complex-differentiable)
                pass
            self._state["complex_step"] = False
            warnings.warn(f"target function {self.name!r} does not take complex input: its gradient "
                          "(matched student) uses central differences (relative accuracy ~1e-8); "
                          "pass grad= for an exact one", SlowTargetWarning, stacklevel=3)
        for l in range(L):
            h = 1e-6 * (1.0 + np.abs(z[:, l]))
            up, down = z.copy(), z.copy()
            up[:, l] += h
            down[:, l] -= h
            out[:, l] = (self.python_values(up) - self.python_values(down)) / (2 * h)
        return out

    def _complex_values(self, zc):
        if self.vectorized:
            return np.asarray(self.fun(zc), dtype=complex).reshape(-1)
        fun = getattr(self.fun, "py_func", self.fun)
        return np.array([complex(fun(row.copy())) for row in zc])

    def complex_step_works(self, L: int) -> bool:
        """Whether the compiled g's complex-step gradient is finite and agrees with the one in Python.

        numba evaluates ``z ** n`` on complex numbers (n ≠ 2) by the general complex power
        (exp and log), which loses the tiny imaginary step where Re z < 0: the compiled
        complex step is then wrong (it is exact with products, z*z*z*z); numpy and Python
        use repeated multiplication for integer powers. The compiled gradient is compared
        with the Python one (:meth:`python_gradient`) at the fixed points of :meth:`check`;
        on disagreement the compiled kernels use central differences, with a warning.
        Runs :meth:`check` first (which compiles g) if the Problem has not.
        """
        key = ("jit_complex_step", L)
        if key not in self._state:
            self.check(L)                     # compiles g (self.compiled) if not done yet
            ok = False
            jit = self.compiled
            if jit is not None and self.grad is None:
                points = np.concatenate([np.zeros((1, L)), np.ones((1, L)), -np.ones((1, L)),
                                         np.random.default_rng(0).standard_normal((4, L)) * 2.0])
                try:
                    compiled = np.empty(points.shape)
                    for i, z in enumerate(points):
                        for l in range(L):
                            zc = z.astype(complex)
                            zc[l] += 1j * COMPLEX_STEP
                            compiled[i, l] = complex(jit(zc)).imag / COMPLEX_STEP
                    reference = self.python_gradient(points)
                    scale = np.maximum(1.0, np.abs(reference))
                    ok = bool(np.all(np.isfinite(compiled)) and np.all(np.abs(compiled - reference) <= 1e-6 * scale))
                except Exception:             # noqa: BLE001 (numba cannot type g on complex input)
                    ok = False
            self._state[key] = ok
        return self._state[key]


def as_target(target):
    """A CustomTarget from a function (or a CustomTarget, returned as is)."""
    return target if isinstance(target, CustomTarget) else CustomTarget(target)


# --- a user's feed-forward activation ------------------------------------------------------
#: pre-activations at which a user's activation (and its derivative) is checked when the Problem is built
ACTIVATION_CHECK_POINTS = (0.0, 1.0, -1.0, 0.5, -0.3, 2.5, -3.7, 8.0, -12.0)


@dataclass(frozen=True, eq=False)
class CustomActivation:
    """A user's feed-forward activation σ: ℝ → ℝ ("tied" and "untied" students).

    Parameters
    ----------
    fun : callable
        ``fun(h)`` for one real pre-activation h, returning a real number; compiled with
        numba (an ``@njit`` function is used as is). Unlike a target there is no Python
        path: a function numba cannot compile is refused (ValueError naming it).
    derivative : callable, optional
        ``derivative(h)`` = σ'(h), used as given (not compared with σ). Default: the
        complex-step derivative ``Im σ(h + i·1e-20)/1e-20`` of ``fun`` compiled for complex
        input, when it agrees with central differences at the check points; else central
        differences ``(σ(h + δ) − σ(h − δ))/2δ``, δ = 1e-6 (1 + |h|), with a warning.
    name : str, optional
        Name in messages and reprs (default ``module:function``).

    Two CustomActivations are equal when they wrap the same function objects.
    """

    fun: object
    derivative: object = None
    name: str | None = None
    _state: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self):
        _check_kinds("CustomActivation", (("fun", self.fun, "a function σ(h) of one real number h"),
                                          ("derivative", self.derivative, "None or a function σ'(h) of h")),
                     self.name)
        if self.name is None:
            object.__setattr__(self, "name", _name_of(self.fun))

    def __eq__(self, other):
        return isinstance(other, CustomActivation) and self.fun is other.fun and self.derivative is other.derivative

    def __hash__(self):
        return hash((id(self.fun), id(self.derivative)))

    def __repr__(self):
        return f"CustomActivation({self.name!r})"

    def _value(self, fun, h, what="activation function"):
        """fun(h) in Python, checked: a finite real number, else ValueError naming the function."""
        label = f"{what} {self.name!r}"
        h = float(h)
        try:
            v = fun(float(h))
        except Exception as err:              # noqa: BLE001 (any error of the user's code)
            raise ValueError(f"{label} raised {type(err).__name__}: {err} at h = {h!r}; it must map a "
                             "real number h to a finite real number") from err
        arr = np.asarray(v)
        if not _is_real_scalar(arr):
            raise ValueError(f"{label} returned {type(v).__name__} of shape {arr.shape} at h = {h!r}; it must "
                             "map a real number h to a finite real number")
        if not np.isfinite(arr):
            raise ValueError(f"{label} returned {float(arr)} at h = {h!r}; it must map a real number h to a "
                             "finite real number")
        return float(arr)

    def python_values(self, h) -> np.ndarray:
        """σ at every entry of the 1-D array h, in Python, checked (ValueError naming the function)."""
        fun = getattr(self.fun, "py_func", self.fun)
        return np.array([self._value(fun, x) for x in np.asarray(h, dtype=float).reshape(-1)])

    def check(self) -> None:
        """Evaluate σ (and the user's σ') at fixed points, compile them with numba, choose σ'."""
        if "checked" in self._state:
            return
        points = np.array(ACTIVATION_CHECK_POINTS)
        values = self.python_values(points)
        jit = self._compile(self.fun, points, values, "activation function")
        if self.derivative is not None:
            dfun = getattr(self.derivative, "py_func", self.derivative)
            what = f"derivative {_name_of(self.derivative)!r} of activation function"
            dvalues = np.array([self._value(dfun, x, what) for x in points])
            self._state["derivative"] = self._compile(self.derivative, points, dvalues, what)
            method = "user"
        elif self._complex_step_works(jit, points, values):
            method = "complex step"
        else:
            method = "central differences"
            warnings.warn(f"activation function {self.name!r} does not take complex input, or numba's complex "
                          "step disagrees with central differences for it (abs, max, comparisons, z**n): its "
                          "derivative uses central differences (relative accuracy ~1e-8, and a smoothed kink "
                          "within 1e-6 of it); pass derivative= for an exact one", SlowTargetWarning,
                          stacklevel=4)
        self._state.update(jit=jit, method=method, checked=True)

    def _compile(self, fun, points, values, what):
        jit = jit_of(fun)
        try:
            compiled = np.array([jit(float(x)) for x in points], dtype=float)
        except Exception as err:              # noqa: BLE001 (numba's typing errors and the user's)
            raise ValueError(f"{what} {self.name!r} is not numba-compilable ({type(err).__name__}: "
                             f"{_first_line(err)}); a user-defined activation must be: it runs inside the "
                             "compiled kernels (docs/custom_targets.md)") from err
        _check_compiled_matches(f"{what} {self.name!r}", compiled, values)
        return jit

    @staticmethod
    def _complex_step_works(jit, points, values) -> bool:
        """Whether the compiled complex step Im σ(h + iε)/ε is finite, has Re ≈ σ(h), and agrees with
        central differences of σ at the check points (relative 1e-5)."""
        try:
            out = [complex(jit(complex(x, COMPLEX_STEP))) for x in points]
            up = np.array([jit(float(x + 1e-6 * (1 + abs(x)))) for x in points], dtype=float)
            down = np.array([jit(float(x - 1e-6 * (1 + abs(x)))) for x in points], dtype=float)
        except Exception:                     # noqa: BLE001 (numba cannot type σ on complex input)
            return False
        step = 1e-6 * (1 + np.abs(points))
        central = (up - down) / (2 * step)
        cs = np.array([v.imag for v in out]) / COMPLEX_STEP
        real = np.array([v.real for v in out])
        scale = np.maximum(1.0, np.abs(central))
        return bool(np.all(np.isfinite(cs)) and np.allclose(real, values, rtol=1e-12, atol=1e-12)
                    and np.all(np.abs(cs - central) <= 1e-5 * scale))

    @property
    def compiled(self):
        """The numba dispatcher of σ. Call :meth:`check` first."""
        return self._state.get("jit")

    @property
    def compiled_derivative(self):
        """The numba dispatcher of the user's σ' (``derivative_method == "user"``), else None."""
        self.check()
        return self._state.get("derivative")

    @property
    def derivative_method(self) -> str:
        """How σ' is computed in the kernels: "user", "complex step" or "central differences"."""
        self.check()
        return self._state["method"]


def as_activation(activation):
    """A CustomActivation from a function (or a CustomActivation, returned as is)."""
    return activation if isinstance(activation, CustomActivation) else CustomActivation(activation)
