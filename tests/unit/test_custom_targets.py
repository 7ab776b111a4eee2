"""A user's target (ssi.custom): copies of registry targets written as plain functions give the
registry's SIE, population loss, ODE and SGD; bad functions fail naming themselves.

Copies are written twice: per sample (compiled by numba, the fast path) and vectorised numpy
(``vectorized=True``, the Python path). The compiled copies run the kernels compiled afresh for
them (tens of seconds of numba compile each), so those tests are marked slow.
Statistical comparisons state their tolerance in standard errors of the difference.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from ssi import Problem, cli, integrate_ode, population_loss, sie, simulate
from ssi.custom import CustomTarget, SlowTargetWarning
from ssi.hermite import sie_report

SQ2 = math.sqrt(2.0)
SQ24 = math.sqrt(24.0)


# --- copies of registry targets, per sample (numba-compilable) ---------------------------
def my_linear(z):
    s = 0.0
    for l in range(z.shape[0]):
        s += z[l]
    return s / math.sqrt(z.shape[0])


def my_he2_sum(z):
    s = 0.0
    for l in range(z.shape[0]):
        s += (z[l] * z[l] - 1.0) / SQ2
    return s


def my_he4_sum_plus_diff(z):
    h4 = (z[0] ** 4 - 6 * z[0] ** 2 + 3 + z[1] ** 4 - 6 * z[1] ** 2 + 3) / SQ24
    return -h4 + (z[0] - z[1]) / SQ2


# --- the same, vectorised numpy ((n, L) -> (n,)) ------------------------------------------
def vec_linear(z):
    return z.sum(axis=1) / math.sqrt(z.shape[1])


def vec_he2_sum(z):
    return ((z * z - 1.0) / SQ2).sum(axis=1)


def vec_he4_sum_plus_diff(z):
    return -((z[:, :2] ** 4 - 6 * z[:, :2] ** 2 + 3) / SQ24).sum(axis=1) + (z[:, 0] - z[:, 1]) / SQ2


COPIES = {"linear": (my_linear, vec_linear), "he2_sum": (my_he2_sum, vec_he2_sum),
          "he4_sum_plus_diff": (my_he4_sum_plus_diff, vec_he4_sum_plus_diff)}
# the Python path warns about its speed (checked once below); the copies here are run on purpose
pytestmark = pytest.mark.filterwarnings("ignore::ssi.custom.SlowTargetWarning")
STATES = (np.array([0.0, 0.1, 0.4, 0.8, -0.3]), np.array([0.0, 0.05, -0.2, 0.3, 0.1]))


def _python_copy(name):
    return CustomTarget(COPIES[name][1], vectorized=True, name=f"vec_{name}")


# --- fast: the Python path -----------------------------------------------------------------
@pytest.mark.parametrize("name", list(COPIES))
def test_python_copy_gives_the_registry_sie_and_population_loss(name):
    for student, pe in (("attention", "opposite"), ("attention", "none"), ("matched", "none")):
        reg = Problem(L=2, target=name, student=student, pe=pe)
        cus = Problem(L=2, target=_python_copy(name), student=student, pe=pe)
        z = np.random.default_rng(0).standard_normal((50, 2))
        np.testing.assert_allclose(cus.target_value(z), reg.target_value(z), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(cus.loss_and_grad(z, z[::-1])[1], reg.loss_and_grad(z, z[::-1])[1],
                                   rtol=1e-7, atol=1e-9)      # matched: complex-step gradient
        e = STATES[1] if pe == "opposite" else 0.0
        # the same quadrature rule on both sides: equal to rounding (quadrature accuracy or better)
        np.testing.assert_allclose(population_loss(cus, STATES[0], e), population_loss(reg, STATES[0], e),
                                   rtol=1e-10, atol=1e-12)
        if student == "attention":
            assert sie(cus) == sie(reg)


@pytest.mark.parametrize("name", list(COPIES))
def test_python_copy_gives_the_registry_sie_report_and_ode(name):
    reg = Problem(L=2, target=name, student="attention", pe="opposite")
    cus = Problem(L=2, target=_python_copy(name), student="attention", pe="opposite")
    a, b = sie_report(reg), sie_report(cus)
    assert (b.order, b.joint_order, b.descends, b.reason) == (a.order, a.joint_order, a.descends, a.reason)
    assert b.leading.keys() == a.leading.keys()
    for key, value in a.leading.items():          # the same quadrature: equal to rounding
        assert b.leading[key] == pytest.approx(value, rel=1e-10)
    ode = [integrate_ode(p, lr=0.5, m0=0.1, e0=0.05, t_max=2.0) for p in (reg, cus)]
    np.testing.assert_allclose(ode[1].t, ode[0].t, rtol=1e-8)     # adaptive steps: equal to rounding
    np.testing.assert_allclose(ode[1].m, ode[0].m, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(ode[1].e, ode[0].e, rtol=1e-8, atol=1e-10)


def test_python_copy_feedforward_student():
    reg = Problem(L=2, target="he2_sum", student="tied", activation="relu")
    cus = Problem(L=2, target=_python_copy("he2_sum"), student="tied", activation="relu")
    np.testing.assert_allclose(population_loss(cus, STATES[0]), population_loss(reg, STATES[0]), rtol=1e-9)
    assert sie(cus) == sie(reg)


def test_not_numba_compilable_warns_and_runs_on_the_python_path():
    weights = {"a": 1.0 / SQ2}

    def dict_linear(z):             # a global dict: numba cannot type it
        return weights["a"] * (z[0] + z[1])

    with pytest.warns(SlowTargetWarning, match="dict_linear.*not numba-compilable"):
        cus = Problem(L=2, target=dict_linear, student="attention", pe="opposite")
    reg = Problem(L=2, target="linear", student="attention", pe="opposite")
    assert cus.kernels is None
    np.testing.assert_allclose(population_loss(cus, [0.2, 0.6], [0.1, -0.1]),
                               population_loss(reg, [0.2, 0.6], [0.1, -0.1]), rtol=1e-10)
    run = simulate(cus, d=20, lr=0.5, steps=30, replicates=2, seed=1, engine="explicit")
    ref = simulate(reg, d=20, lr=0.5, steps=30, replicates=2, seed=1, engine="explicit")
    np.testing.assert_allclose(run.m, ref.m, rtol=1e-9, atol=1e-12)   # same streams, same arithmetic
    with pytest.raises(ValueError, match="engine='reduced'.*dict_linear"):
        simulate(cus, d=20, lr=0.5, steps=10)


def _raises(z):
    raise RuntimeError("boom")


def _nan_at_zero(z):
    return math.nan if z[0] == 0.0 else z[0]


def _vector(z):
    return z * 2.0


@pytest.mark.parametrize("fun, words", [(_raises, ["_raises", "RuntimeError", "boom"]),
                                        (_nan_at_zero, ["_nan_at_zero", "nan"]),
                                        (_vector, ["_vector", "shape (2,)"])])
def test_bad_function_fails_naming_it(fun, words):
    with pytest.raises(ValueError) as info:
        Problem(L=2, target=fun, student="attention")
    for word in words:
        assert word in str(info.value)


def test_bad_vectorized_shape_and_grad():
    with pytest.raises(ValueError, match="vec_bad.*shape"):
        Problem(L=2, target=CustomTarget(lambda z: z, vectorized=True, name="vec_bad"), student="matched")
    with pytest.raises(ValueError, match="grad of target function"):
        Problem(L=2, target=CustomTarget(my_linear, grad=lambda z: np.ones(3)), student="matched")
    with pytest.raises(ValueError, match="target=3"):
        Problem(L=2, target=3, student="attention")


def test_cli_target_module_function(tmp_path, monkeypatch, capsys):
    (tmp_path / "mytargets.py").write_text(
        "def vec_he2(z):\n    return ((z * z - 1.0) / 2 ** 0.5).sum(axis=1)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    parse = cli._target_type({"he2_sum": ""})
    fun = parse("mytargets:vec_he2")
    assert callable(fun) and fun.__name__ == "vec_he2"
    for bad, word in (("nomodule_xyz:f", "nomodule_xyz"), ("mytargets:nothere", "nothere"), ("oops", "oops")):
        with pytest.raises(Exception, match=word):
            parse(bad)
    assert parse("he2_sum") == "he2_sum"


# --- slow: the compiled kernels ------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("name", list(COPIES))
def test_compiled_copy_same_population_loss_ode_and_reduced_sgd(name):
    """Compiled copy: same quadrature, ODE and reduced SGD (same seeds: the same numbers up to
    rounding of the copy's arithmetic), and the explicit engine."""
    reg = Problem(L=2, target=name, student="attention", pe="opposite")
    cus = Problem(L=2, target=COPIES[name][0], student="attention", pe="opposite")
    assert cus.kernels is not None
    np.testing.assert_allclose(population_loss(cus, *STATES), population_loss(reg, *STATES), rtol=1e-10, atol=1e-12)
    assert sie(cus) == sie(reg)
    ode = [integrate_ode(p, lr=0.5, m0=0.1, e0=0.05, t_max=5.0) for p in (reg, cus)]
    np.testing.assert_allclose(ode[1].m, ode[0].m, rtol=1e-8, atol=1e-10)
    kwargs = dict(d=100, lr=0.5, steps=2000, replicates=4, seed=5, m0=0.2, record=[0, 1000, 2000])
    runs = [simulate(p, **kwargs) for p in (reg, cus)]
    np.testing.assert_allclose(runs[1].m, runs[0].m, rtol=1e-6, atol=1e-8)


@pytest.mark.slow
def test_compiled_copy_same_sgd_in_law():
    """Independent seeds: the mean m(t) of the custom copy and of the registry target agree within
    4 standard errors of the difference, at every record (R = 400 replicates each)."""
    reg = Problem(L=2, target="he4_sum_plus_diff", student="attention", pe="opposite")
    cus = Problem(L=2, target=my_he4_sum_plus_diff, student="attention", pe="opposite")
    kwargs = dict(d=200, lr=0.5, steps=4000, replicates=400, m0=0.1, record=[1000, 2000, 4000])
    a = simulate(reg, seed=11, **kwargs).m
    b = simulate(cus, seed=12, **kwargs).m
    se = np.sqrt(a.var(axis=0, ddof=1) / a.shape[0] + b.var(axis=0, ddof=1) / b.shape[0])
    assert np.all(np.abs(a.mean(axis=0) - b.mean(axis=0)) <= 4 * se)
    assert np.all(se > 0)


def my_he4_products(z):         # he4_sum_plus_diff with powers written as products
    a, b = z[0] * z[0], z[1] * z[1]
    return -(a * a - 6 * a + 3 + b * b - 6 * b + 3) / SQ24 + (z[0] - z[1]) / SQ2


def test_compiled_complex_step_is_checked_against_python():
    """numba's complex z**4 goes through exp/log and loses the step where Re z < 0: detected."""
    powers, products = CustomTarget(my_he4_sum_plus_diff), CustomTarget(my_he4_products)
    assert not powers.complex_step_works(2)
    assert products.complex_step_works(2)
    # both compiled (complex_step_works checks and compiles g itself): the False above is numba's z**4
    assert powers.compiled is not None and products.compiled is not None


@pytest.mark.slow
def test_compiled_matched_student_gradient_complex_step_and_user_grad():
    reg = Problem(L=2, target="he4_sum_plus_diff", student="matched")
    z = np.random.default_rng(2).standard_normal((20, 2))
    q = np.random.default_rng(3).standard_normal((20, 2))
    _, a_ref = reg.loss_and_grad(z, q)

    def grad(x):
        h3 = (x ** 3 - 3 * x) * 4 / SQ24
        return np.array([-h3[0] + 1 / SQ2, -h3[1] - 1 / SQ2])

    # exact paths: the complex step (products) and the user's grad
    for target in (my_he4_products, CustomTarget(my_he4_sum_plus_diff, grad=grad)):
        _, a = Problem(L=2, target=target, student="matched").loss_and_grad(z, q)
        np.testing.assert_allclose(a, a_ref, rtol=1e-12, atol=1e-12)
    # z**4: central differences, with a warning saying why (their accuracy, h = 1e-6 (1 + |z|))
    with pytest.warns(SlowTargetWarning, match="my_he4_sum_plus_diff.*z\\*\\*n.*central differences"):
        p = Problem(L=2, target=my_he4_sum_plus_diff, student="matched")
        _, a = p.loss_and_grad(z, q)
    np.testing.assert_allclose(a, a_ref, rtol=1e-7, atol=1e-9)
    assert not np.array_equal(a, a_ref)        # the fallback really is the approximate one
    # the compiled reduced engine runs the matched student with both gradients
    kwargs = dict(d=100, lr=0.5, steps=2000, replicates=4, seed=5, m0=0.2, record=[0, 1000, 2000])
    ref = simulate(reg, **kwargs).m
    np.testing.assert_allclose(simulate(Problem(L=2, target=my_he4_products, student="matched"), **kwargs).m,
                               ref, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(simulate(p, **kwargs).m, ref, rtol=1e-5, atol=1e-7)
