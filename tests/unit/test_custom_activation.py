"""A user's feed-forward activation (ssi.custom.CustomActivation): copies of the registry
activations "relu" and "tanh" written as plain functions give the registry's SIE, population
loss, ODE and SGD (same seeds, both engines); bad functions fail naming themselves.

The copies run the kernels compiled afresh for them (tens of seconds of numba compile per
activation), so those tests are marked slow. Tolerances: the relu copy with its exact
derivative does the registry's floating-point operations (asserted equal to 1e-12); the tanh
copy's derivative is the complex step Im tanh(h + iε)/ε, equal to 1 − tanh² only to rounding,
so its comparisons are to rounding amplified by the integrator (1e-10 on quadratures, 1e-8 on
the ODE, 1e-6 on 2000 SGD steps: the tolerances of tests/unit/test_custom_targets.py).
"""
from __future__ import annotations

import contextlib
import math

import numpy as np
import pytest

from ssi import Problem, escape_time, integrate_ode, population_loss, sie, simulate
from ssi.custom import CustomActivation, CustomTarget, SlowTargetWarning


def my_relu(h):
    return max(h, 0.0)


def my_relu_derivative(h):
    return 1.0 if h > 0.0 else 0.0


def my_tanh(h):
    return np.tanh(h)          # np.tanh takes complex input: the complex-step derivative applies


STATES_TIED = np.array([0.0, 0.1, 0.4, 0.8, -0.3])
STATES_UNTIED = np.array([[0.0, 0.0], [0.1, 0.3], [0.5, -0.2], [0.8, 0.8]])


# --- fast: checks (no kernel compile) ------------------------------------------------------
def test_derivative_methods():
    assert CustomActivation(my_relu, derivative=my_relu_derivative).derivative_method == "user"
    assert CustomActivation(my_tanh).derivative_method == "complex step"
    with pytest.warns(SlowTargetWarning, match="my_relu.*central differences"):
        assert CustomActivation(my_relu).derivative_method == "central differences"


def _raises(h):
    raise RuntimeError("boom")


def _nan_at_zero(h):
    return math.nan if h == 0.0 else h


def _inf_far(h):
    return math.inf if h > 5.0 else h


def _vector(h):
    return np.array([h, h])


_weights = {"a": 2.0}


def _dict_scale(h):            # a global dict: numba cannot type it
    return _weights["a"] * h


@pytest.mark.parametrize("fun, words", [(_raises, ["_raises", "RuntimeError", "boom"]),
                                        (_nan_at_zero, ["_nan_at_zero", "nan"]),
                                        (_inf_far, ["_inf_far", "inf"]),
                                        (_vector, ["_vector", "shape (2,)"]),
                                        (_dict_scale, ["_dict_scale", "not numba-compilable"])])
def test_bad_activation_fails_naming_it(fun, words):
    for student in ("tied", "untied"):
        with pytest.raises(ValueError) as info:
            Problem(L=2, target="he2_sum", student=student, activation=fun)
        for word in words:
            assert word in str(info.value)


def test_bad_derivative_and_arguments():
    with pytest.raises(ValueError, match="derivative '.*_raises' of activation function '.*my_relu' raised RuntimeError"):
        Problem(L=2, target="he2_sum", student="tied", activation=CustomActivation(my_relu, derivative=_raises))
    with pytest.raises(ValueError, match="derivative '.*_vector' of activation function '.*my_relu' returned .*shape"):
        Problem(L=2, target="he2_sum", student="tied", activation=CustomActivation(my_relu, derivative=_vector))
    with pytest.raises(ValueError, match="activation=3 is not allowed"):
        Problem(L=2, target="he2_sum", student="tied", activation=3)
    with pytest.raises(ValueError, match="only allowed for students 'tied' and 'untied'"):
        Problem(L=2, target="he2_sum", student="attention", activation=my_relu)
    with pytest.raises(ValueError, match="activation='nope' is unknown"):
        Problem(L=2, target="he2_sum", student="tied", activation="nope")


def test_registry_problem_unchanged():
    p = Problem(L=2, target="he2_sum", student="tied", activation="tanh")
    assert p.activation == "tanh" and p.codes[3][0] == 4
    assert Problem(L=2, target="he2_sum", student="untied").activation == "relu"


# --- slow: the compiled kernels --------------------------------------------------------------
COPIES = {"relu": CustomActivation(my_relu, derivative=my_relu_derivative), "tanh": CustomActivation(my_tanh)}
RTOL_SGD = {"relu": 1e-12, "tanh": 1e-6}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(COPIES))
def test_copy_gives_the_registry_links_sie_population_loss_and_ode(name):
    act = COPIES[name]
    rtol = 1e-12 if name == "relu" else 1e-10
    rng = np.random.default_rng(0)
    z, q = rng.standard_normal((50, 2)), 2 * rng.standard_normal((50, 2))
    for student, states in (("tied", STATES_TIED), ("untied", STATES_UNTIED)):
        reg = Problem(L=2, target="he2_sum", student=student, activation=name)
        cus = Problem(L=2, target="he2_sum", student=student, activation=act)
        assert cus.kernels is not None and cus.activation is act
        np.testing.assert_allclose(cus.student_value(q), reg.student_value(q), rtol=1e-14, atol=0)
        for i in range(2):      # loss and a = ∂ℓ/∂q: σ' is exact (relu) or the complex step (tanh)
            np.testing.assert_allclose(cus.loss_and_grad(z, q)[i], reg.loss_and_grad(z, q)[i],
                                       rtol=rtol, atol=1e-14)
        assert sie(cus) == sie(reg)
        # the same quadrature rule on both sides: equal to rounding
        np.testing.assert_allclose(population_loss(cus, states), population_loss(reg, states), rtol=rtol, atol=1e-14)
        m0 = 0.1 if student == "tied" else [0.1, 0.2]
        ode = [integrate_ode(p, lr=0.1, m0=m0, t_max=5.0) for p in (reg, cus)]
        np.testing.assert_allclose(ode[1].t, ode[0].t, rtol=1e-8)     # adaptive steps: equal to rounding
        np.testing.assert_allclose(ode[1].m, ode[0].m, rtol=1e-8, atol=1e-10)
    reg = Problem(L=2, target="linear", student="tied", activation=name)      # SIE 1: a short escape
    cus = Problem(L=2, target="linear", student="tied", activation=act)
    steps = [escape_time(p, d=500, lr=0.1, threshold=0.5, m0=0.1, t_max=50.0) for p in (reg, cus)]
    assert math.isfinite(steps[0]) and steps[1] == pytest.approx(steps[0], rel=1e-8)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(COPIES))
@pytest.mark.parametrize("student", ["tied", "untied"])
def test_copy_gives_the_registry_sgd_same_seeds_both_engines(name, student):
    reg = Problem(L=2, target="he2_sum", student=student, activation=name)
    cus = Problem(L=2, target="he2_sum", student=student, activation=COPIES[name])
    kwargs = dict(d=100, lr=0.1, steps=2000, replicates=4, seed=5, record=[0, 1000, 2000])
    for engine in ("reduced", "explicit"):
        a, b = (simulate(p, engine=engine, **kwargs).m for p in (reg, cus))
        np.testing.assert_allclose(b, a, rtol=RTOL_SGD[name], atol=RTOL_SGD[name] * 1e-2)


@pytest.mark.slow
def test_tied_with_pe_and_default_central_differences():
    """Tied student with opposite PE; relu without a derivative: central differences, exact away
    from |h| < 1e-6 (the quadrature nodes of the split rule), so the ODE agrees to 1e-8."""
    with pytest.warns(SlowTargetWarning, match="central differences"):
        act = CustomActivation(my_relu)
        cus = Problem(L=2, target="he4_sum_plus_diff", student="tied", pe="opposite", activation=act)
    reg = Problem(L=2, target="he4_sum_plus_diff", student="tied", pe="opposite", activation="relu")
    assert sie(cus) == sie(reg)
    ode = [integrate_ode(p, lr=0.1, m0=0.2, e0=0.05, t_max=5.0) for p in (reg, cus)]
    np.testing.assert_allclose(ode[1].m, ode[0].m, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(ode[1].e, ode[0].e, rtol=1e-8, atol=1e-10)


@pytest.mark.slow
def test_custom_target_and_custom_activation_together():
    """A user's target (compiled, and vectorised on the Python path) with a user's activation."""
    reg = Problem(L=2, target="he2_sum", student="untied", activation="tanh")
    targets = [lambda z: ((z[0] * z[0] - 1.0) + (z[1] * z[1] - 1.0)) / math.sqrt(2.0),
               CustomTarget(lambda z: ((z * z - 1.0) / math.sqrt(2.0)).sum(axis=1), vectorized=True)]
    for target in targets:
        with pytest.warns(SlowTargetWarning) if isinstance(target, CustomTarget) else contextlib.nullcontext():
            cus = Problem(L=2, target=target, student="untied", activation=COPIES["tanh"])
        np.testing.assert_allclose(population_loss(cus, STATES_UNTIED), population_loss(reg, STATES_UNTIED),
                                   rtol=1e-10, atol=1e-14)
        kwargs = dict(d=100, lr=0.1, steps=500, replicates=2, seed=3, engine="explicit")
        np.testing.assert_allclose(simulate(cus, **kwargs).m, simulate(reg, **kwargs).m, rtol=1e-6, atol=1e-8)
    with pytest.warns(SlowTargetWarning, match="central differences"):     # comparisons: no complex step
        bad = Problem(L=2, target="he2_sum", student="tied",
                      activation=lambda h: math.nan if h > 50.0 else h)     # finite at the check points
    with pytest.raises(ValueError, match="<lambda>.*returned nan"):
        bad.student_value(np.full((3, 2), 40.0))

