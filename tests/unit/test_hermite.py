"""Hermite coefficients, Taylor coefficients of R at (m, e) = (0, 0), and the SIE (ssi.hermite)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from ssi.hermite import (SIEUndetermined, activation_coefficients, hermite_coefficients, hermite_e,
                         multi_indices, polynomial_degree, sie, sie_report, student_coefficients,
                         taylor_coefficients)
from ssi.population import population_loss
from ssi.problems import Problem

PHI0 = 1 / math.sqrt(2 * math.pi)


def test_known_polynomial_is_recovered_exactly():
    """g = 3 He₂(z₁) He₁(z₂) − 2 He₃(z₂) + 0.5 has c_(2,1) = 3·2!·1! = 6,
    c_(0,3) = −2·3! = −12, c_(0,0) = 0.5 and no other coefficient."""
    def g(z):
        H1, H2 = hermite_e(z[:, 0], 3), hermite_e(z[:, 1], 3)
        return 3 * H1[:, 2] * H2[:, 1] - 2 * H2[:, 3] + 0.5

    coef = hermite_coefficients(g, 2, 6)
    expected = {(2, 1): 6.0, (0, 3): -12.0, (0, 0): 0.5}
    assert set(coef) == set(multi_indices(2, 6))
    for alpha, c in coef.items():
        assert c == pytest.approx(expected.get(alpha, 0.0), abs=1e-11), alpha
    assert polynomial_degree(g, 2) == 3


def test_relu_coefficients():
    """c_0 = φ(0), c_1 = ½ and c_n = φ(0) He_{n−2}(0) for n ≥ 2 (ReLU'' = δ): the odd
    coefficients of order ≥ 3 vanish."""
    c = activation_coefficients(Problem(L=1, target="linear", student="tied"), 8)
    he0 = hermite_e(0.0, 6)
    expected = [PHI0, 0.5] + [PHI0 * he0[n - 2] for n in range(2, 9)]
    np.testing.assert_allclose(c, expected, atol=1e-13)


def test_feedforward_student_coefficients_are_multinomial():
    """f(q) = σ(u·q), u = 1/√L: c_α(f) = c_|α|(σ) u^α, here checked against generic quadrature."""
    problem = Problem(L=2, target="he2_sum", student="tied", activation="tanh")
    fast = student_coefficients(problem, 5)
    slow = hermite_coefficients(problem.student_value, 2, 5, n_points=60)
    for alpha in fast:
        assert fast[alpha] == pytest.approx(slow[alpha], abs=1e-10)


def test_shift_acts_as_an_index_shift():
    """∂/∂e_l c_α(f_e) = c_{α+e_l}(f): finite differences of the shifted student's coefficients."""
    problem = Problem(L=2, target="he2_sum", student="attention", pe="orthonormal")
    h = 1e-4
    base = student_coefficients(problem, 5)
    plus = student_coefficients(problem, 4, e=[h, 0.0])
    minus = student_coefficients(problem, 4, e=[-h, 0.0])
    for alpha in multi_indices(2, 4):
        derivative = (plus[alpha] - minus[alpha]) / (2 * h)
        # the shifted grids carry quadrature errors of ~1e-6 that differ with the shift
        assert derivative == pytest.approx(base[(alpha[0] + 1, alpha[1])], abs=2e-5), alpha


@pytest.mark.parametrize("case, key, fd", [
    # z₁ − z₂, attention, opposite PE: the mixed term; T(1, 1) = ∂²R/∂m∂e
    (dict(target="z1_minus_z2", student="attention", pe="opposite"), (1, (1,)), "me"),
    # He₄ sums, attention, opposite PE: the pure-e curvature, T(0, 2) = ½ ∂²R/∂e²
    (dict(target="he4_sum", student="attention", pe="opposite"), (0, (2,)), "ee"),
    # mixture (ω = 0.5, a = 1): T(2, 0) = ½ ∂²R/∂m²
    (dict(target="mixture", student="attention", pe="opposite"), (2, (0,)), "mm"),
], ids=["z1-z2-mixed", "he4-ee", "mixture-mm"])
def test_taylor_coefficients_match_finite_differences(case, key, fd):
    problem = Problem(L=2, **case)
    T = taylor_coefficients(problem, 4)[key]
    h = 0.02

    def R(m, e):
        return float(population_loss(problem, m, e, n_points=50, method="gh"))

    if fd == "me":
        value = (R(h, h) - R(h, -h) - R(-h, h) + R(-h, -h)) / (4 * h * h)
    elif fd == "ee":
        value = (R(0, h) - 2 * R(0, 0) + R(0, -h)) / (2 * h * h)
    else:
        value = (R(h, 0) - 2 * R(0, 0) + R(-h, 0)) / (2 * h * h)
    assert T == pytest.approx(value, rel=2e-3, abs=1e-5)


def test_reference_values_of_the_issue():
    """Issue 3 quotes ∂²R/∂e² ≈ +0.52 for He₄(z₁)+He₄(z₂) with opposite PE and a mixed
    ∂²R/∂e∂m ≈ −0.35 for z₁ − z₂. With e = e_1 (e_2 = −e_1) and the unnormalised z₁ − z₂
    of the registry the mixed derivative is −0.500 = −0.354·√2: −0.35 is the derivative
    along the unit vector (1, −1)/√2 of the token shifts."""
    T = taylor_coefficients(Problem(L=2, target="he4_sum", student="attention", pe="opposite"), 2)
    assert 2 * T[(0, (2,))] == pytest.approx(0.519, abs=1e-3)
    T = taylor_coefficients(Problem(L=2, target="z1_minus_z2", student="attention", pe="opposite"), 2)
    assert T[(1, (1,))] == pytest.approx(-0.5, abs=1e-6)
    assert T[(1, (1,))] / math.sqrt(2) == pytest.approx(-0.354, abs=1e-3)


# --- the SIE -----------------------------------------------------------------------
@pytest.mark.parametrize("L", [2, 3])
@pytest.mark.parametrize("k, relu, tanh, attention, matched", [
    # ReLU has c_n = 0 for odd n ≥ 3, so it never sees He₃ sums (a pure degree-3
    # target): inf by the degree argument. Attention is even: odd targets never seen.
    (1, 1, 1, math.inf, 1),
    (2, 2, math.inf, 2, 2),    # tanh is odd: even targets never seen
    (3, math.inf, 3, math.inf, 3),
    (4, 4, math.inf, 4, 4),
])
def test_hermite_sums(L, k, relu, tanh, attention, matched):
    for norm in ("", "_norm"):
        target = f"he{k}_sum{norm}"
        assert sie(Problem(L=L, target=target, student="tied")) == relu
        assert sie(Problem(L=L, target=target, student="tied", activation="tanh")) == tanh
        assert sie(Problem(L=L, target=target, student="attention", reduction="trace")) == attention
        assert sie(Problem(L=L, target=target, student="matched")) == matched


def test_sign_of_the_leading_term():
    """The SIE says where the landscape stops being flat, not that it descends: ReLU and
    trace attention have c₄ < 0, so on He₄ sums the order-4 term rises (m = 0 is a local
    minimum of the overlap landscape) while the matched student descends."""
    for student in ("tied", "attention"):
        report = sie_report(Problem(L=2, target="he4_sum", student=student))
        assert report.order == 4 and report.descends is False
    assert sie_report(Problem(L=2, target="he4_sum", student="matched")).descends is True
    assert sie_report(Problem(L=2, target="he2_sum", student="tied")).descends is True


def test_products():
    assert sie(Problem(L=2, target="z1z2", student="tied")) == 2
    assert sie(Problem(L=2, target="z1z2", student="attention")) == 2
    assert sie(Problem(L=3, target="z1z2", student="untied")) == 2
    assert sie(Problem(L=3, target="z1z2z3", student="matched")) == 3
    assert sie(Problem(L=3, target="z1z2z3", student="tied", activation="tanh")) == 3
    assert sie(Problem(L=4, target="z1z2z3", student="untied", activation="tanh")) == 3
    # c₃(ReLU) = 0 and attention is even: z₁z₂z₃ is never seen
    assert sie(Problem(L=3, target="z1z2z3", student="tied")) == math.inf
    assert sie(Problem(L=3, target="z1z2z3", student="attention")) == math.inf


@pytest.mark.parametrize("target, untied", [("z1_minus_z2", 1), ("he2_diff", 2)])
def test_antisymmetric_targets(target, untied):
    """Token-antisymmetric targets: invisible to tied students without PE (token swap),
    visible to untied ones. Opposite PE keeps the symmetry q → (−q₂, −q₁) of attention:
    z₁ − z₂ (odd) becomes visible at degree 2 through the mixed (m, e) term, while
    (z₁² − z₂²)/√2 (even) stays invisible. Tied feed-forward students ignore an opposite
    PE (Σ_l p_l = 0) and any PE leaves them token-symmetric. An orthonormal PE gives
    z₁ − z₂ at degree 2 (m e) and (z₁² − z₂²)/√2 at degree 4 (m² e²)."""
    for L in (2, 3):
        assert sie(Problem(L=L, target=target, student="tied")) == math.inf
        assert sie(Problem(L=L, target=target, student="attention")) == math.inf
        assert sie(Problem(L=L, target=target, student="untied")) == untied
        assert sie(Problem(L=L, target=target, student="tied", pe="orthonormal")) == math.inf
    assert sie(Problem(L=2, target=target, student="tied", pe="opposite")) == math.inf
    with_pe = sie_report(Problem(L=2, target=target, student="attention", pe="opposite"))
    if target == "z1_minus_z2":
        assert with_pe.order == 2 and set(with_pe.leading) == {(1, (1,))} and with_pe.descends
    else:
        assert with_pe.order == math.inf and "symmetry" in with_pe.reason
    # an orthonormal PE breaks the symmetry; the even (z₁² − z₂²)/√2 then needs two
    # powers of e next to m² (odd-degree student coefficients vanish): degree 4
    assert sie(Problem(L=2, target=target, student="attention", pe="orthonormal")) == 2 * untied


def test_joint_definition_counts_pure_e_terms():
    """He₄ sums with opposite PE: the joint (e, m) expansion is not flat at degree 2
    (∂²R/∂e² > 0, the issue's "SIE 2") but nothing below degree 4 involves m."""
    problem = Problem(L=2, target="he4_sum", student="attention", pe="opposite")
    assert sie(problem, definition="joint") == 2
    assert sie(problem) == 4
    assert sie(Problem(L=2, target="he4_sum", student="attention")) == 4


def test_mixture_and_staircase():
    assert sie(Problem(L=2, target="mixture", student="attention", pe="opposite")) == 2
    assert sie(Problem(L=3, target="staircase", student="matched")) == 1
    assert sie(Problem(L=3, target="staircase", student="untied")) == 1
    # the degree-1 and degree-3 parts are odd: trace attention sees only z₁z₂
    assert sie(Problem(L=3, target="staircase", student="attention")) == 2


def test_undetermined_and_bad_arguments():
    # every overlap coefficient up to degree 3 vanishes for He₄ sums; with max_order 3
    # nothing proves the higher ones vanish
    with pytest.raises(SIEUndetermined):
        sie(Problem(L=2, target="he4_sum", student="attention", pe="opposite"), max_order=3)
    with pytest.raises(ValueError, match="definition"):
        sie(Problem(L=2, target="he2_sum", student="tied"), definition="lowest")
