"""Population loss and ODE expectations (ssi.population) against Monte Carlo and closed forms.

Monte Carlo samples the state exactly as docs/theory.md, "Sufficient statistics and population loss", writes it — z*, ξ i.i.d. N(0, 1),
q = m z* + √(1−m²) ξ + e (untied: z_l = m_l z*_l + √(Q_l − m_l²) ξ_l) — and never uses
the reparametrisations of the quadrature, so it checks them.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from ssi.population import expectations, population_gradient, population_loss
from ssi.problems import TARGETS, Problem
from support.reference import mc_moments

N_MC = 1_000_000
N_SE = 4.0            # agreement required, in Monte Carlo standard errors

# the shape of the states used below
M_TIED = -0.6
M_UNTIED = np.array([0.3, -0.2, 0.5])
Q_UNTIED = np.array([0.8, 1.3, 0.9])


def quad_vector(mom):
    return np.concatenate([[float(mom.loss)], mom.a_zstar, mom.a_q, mom.a_xi, mom.a, mom.a2])


def _scalar_students(L):
    proj = dict(proj_left=tuple(np.linspace(1.0, -0.5, L)), proj_right=tuple(np.linspace(0.3, 1.0, L)))
    attention = [dict(student="attention", reduction="trace")]
    if L > 1:   # at L = 1 the attention matrix is the constant 1 whatever the reduction
        attention.append(dict(student="attention", reduction="projection", **proj))
    return attention + [dict(student="tied"), dict(student="untied"), dict(student="matched")]


def registry_cases():
    """Every target × student of the registry, at the smallest valid L and at L = 2 or 3."""
    cases = []
    for target, (_, _, min_L, _) in TARGETS.items():
        if target.endswith("_norm"):
            # (1/√L) Σ h_k: identical to he{k}_sum at L = 1, so only L = 3 is new
            Ls, students = [3], None
        elif target == "mixture":
            Ls = [2]
            students = [dict(student="attention", reduction="identity"), dict(student="matched")]
        else:
            Ls, students = ([1, 3] if min_L == 1 else [2, 3] if min_L == 2 else [3]), None
        for L in Ls:
            for kw in students or _scalar_students(L):
                tied = kw["student"] != "untied"
                pe = "none"
                if tied and L == 2:
                    pe = "opposite"
                elif tied and L == 3:
                    pe = "orthonormal"
                cases.append(dict(L=L, target=target, pe=pe, **kw))
    return cases


def _id(case):
    extra = case.get("reduction") or ""
    return f"{case['target']}-L{case['L']}-{case['student']}{('-' + extra) if extra else ''}-{case['pe']}"


def _state(problem):
    """One state per problem: m < 0 (catches sign errors) and, with a PE, e off zero."""
    if not problem.tied:
        return M_UNTIED[:problem.L], None, Q_UNTIED[:problem.L]
    e = {"none": 0.0, "opposite": 0.25}.get(problem.pe, np.array([0.25, -0.3, 0.1])[:problem.L])
    return M_TIED, e, None


def _e_tokens(problem, e):
    if problem.pe == "opposite":
        return np.array([e, -e])
    return None if problem.pe == "none" else np.asarray(e)


@pytest.mark.parametrize("case", registry_cases(), ids=_id)
def test_expectations_match_monte_carlo(case):
    """Loss and every ODE moment within 4 standard errors (10⁶ Monte Carlo samples; the
    quasi-Monte Carlo error is added in quadrature where the rule is QMC).

    Deterministic (fixed seed); ~130 cases × 11–16 moments, so 4 SE leaves a few
    per-cent chance of a spurious failure for a new seed, none for this one.
    """
    problem = Problem(**case)
    m, e, Q = _state(problem)
    if problem.tied:
        mom = expectations(problem, m, e)
        mean, se = mc_moments(problem, m, _e_tokens(problem, e))
    else:
        mom = expectations(problem, m, Q=Q)
        mean, se = mc_moments(problem, m, Q=Q)
    quad = quad_vector(mom)
    if mom.stderr is not None:          # quasi-Monte Carlo (the mixture target)
        se = np.hypot(se, quad_vector(mom.stderr))
    slack = N_SE * se + 1e-9 * (1 + np.abs(mean))
    bad = np.abs(quad - mean) > slack
    assert not bad.any(), (f"quadrature {quad[bad]} vs Monte Carlo {mean[bad]} ± {se[bad]} "
                           f"(entries {np.flatnonzero(bad)} of loss, a z*, a q, a ξ, a, a²)")


@pytest.mark.parametrize("case, method", [
    (dict(L=3, target="he2_sum", student="attention", reduction="trace", pe="orthonormal"), "qmc"),
    (dict(L=6, target="he2_sum_norm", student="tied"), "qmc"),
    (dict(L=4, target="staircase", student="untied"), "qmc"),
    (dict(L=3, target="he2_sum", student="tied", pe="orthonormal"), "gh"),
    (dict(L=3, target="staircase", student="untied"), "gh"),
], ids=["attention-L3-qmc", "tied-L6-qmc", "untied-L4-qmc", "tied-L3-gh", "untied-L3-gh"])
def test_other_rules(case, method):
    """The rules that "auto" does not pick for these problems (feed-forward: the (x, ζ) grid
    instead of the Hermite reduction; attention: quasi-Monte Carlo) agree with Monte Carlo,
    within the combined error where the rule has one."""
    problem = Problem(**case)
    L = problem.L
    if problem.tied:
        e = np.linspace(0.2, -0.1, L) if problem.pe == "orthonormal" else 0.0
        mom = expectations(problem, 0.4, e, method=method)
        mean, se = mc_moments(problem, 0.4, _e_tokens(problem, e) if problem.pe != "none" else None, seed=7)
    else:
        m, Q = np.linspace(0.3, -0.2, L), np.linspace(0.8, 1.2, L)
        mom = expectations(problem, m, Q=Q, method=method)
        mean, se = mc_moments(problem, m, Q=Q, seed=7)
    quad = quad_vector(mom)
    if mom.stderr is not None:
        se = np.hypot(se, quad_vector(mom.stderr))
    assert np.all(np.abs(quad - mean) <= N_SE * se + 1e-9)


@pytest.mark.parametrize("convention", ["1-m", "e-sign", "untied-Q"])
def test_comparison_detects_a_wrong_convention(convention):
    """The Monte Carlo comparison has power: a wrong state convention fails it by far."""
    if convention == "untied-Q":
        problem = Problem(L=2, target="he2_sum", student="untied")
        m, Q = M_UNTIED[:2], Q_UNTIED[:2]
        quad = quad_vector(expectations(problem, m, Q=Q))
        mean, se = mc_moments(problem, m, Q=Q, convention="wrong-Q")
    else:
        problem = Problem(L=2, target="he2_sum", student="attention", pe="opposite")
        quad = quad_vector(expectations(problem, 0.5, 0.3))
        mean, se = mc_moments(problem, 0.5, [0.3, -0.3], convention=convention)
    assert np.max(np.abs(quad - mean) / (se + 1e-12)) > 3 * N_SE


# --- closed forms -------------------------------------------------------------------
@pytest.mark.parametrize("L", [1, 3])
def test_linear_target_identity_student(L):
    """g = (1/√L) Σ z*_l, f = (1/√L) Σ q_l: with h − u = (1/√L) Σ (q_l − z*_l),

    R = ½ E(h − u)² = ½ (1 + 1 − 2m) + ½ ē² = 1 − m + ē²/2, ē = (1/√L) Σ e_l, and
    E[Σ a z*] = E[(h − u) u] = m − 1, E[Σ a q] = E[(h − u) h] = 1 − m + ē², ν = 2 − 2m + ē².
    """
    problem = Problem(L=L, target="linear", student="tied", activation="identity", pe="orthonormal")
    m = np.array([-0.7, 0.0, 0.3, 0.95])
    e = np.linspace(-0.2, 0.3, L)
    ebar2 = e.sum() ** 2 / L
    mom = expectations(problem, m, e)
    np.testing.assert_allclose(mom.loss, 1 - m + ebar2 / 2, atol=1e-12)
    np.testing.assert_allclose(mom.sum_a_zstar, m - 1, atol=1e-12)
    np.testing.assert_allclose(mom.sum_a_q, 1 - m + ebar2, atol=1e-12)
    np.testing.assert_allclose(mom.nu, 2 - 2 * m + ebar2, atol=1e-12)


@pytest.mark.parametrize("k", [1, 2, 3, 4])
@pytest.mark.parametrize("L", [2, 3])
def test_matched_hermite_sums(k, L):
    """g = c Σ_l h_k(z*_l), f = c Σ_l h_k(q_l), h_k orthonormal. Tokens are independent and
    E h_k = 0, so R = ½ c² Σ_l E(h_k(z_l) − h_k(z*_l))² = ½ c² L (2 − 2 m^k) (Mehler:
    E[h_k(z*) h_k(z)] = m^k). c = 1 (he_k_sum): R = L (1 − m^k); c = 1/√L: R = 1 − m^k.
    """
    m = np.array([-0.8, -0.3, 0.0, 0.45, 0.9])
    R = population_loss(Problem(L=L, target=f"he{k}_sum", student="matched"), m)
    np.testing.assert_allclose(R, L * (1 - m ** k), atol=1e-11)
    R = population_loss(Problem(L=L, target=f"he{k}_sum_norm", student="matched"), m)
    np.testing.assert_allclose(R, 1 - m ** k, atol=1e-11)


def test_matched_products():
    """z₁z₂: R = ½ (E q₁²q₂² + E z₁²z₂² − 2 (E q₁z₁)²) = 1 − m². z₁z₂z₃: R = 1 − m³."""
    m = np.array([-0.6, 0.1, 0.7])
    np.testing.assert_allclose(population_loss(Problem(L=2, target="z1z2", student="matched"), m),
                               1 - m ** 2, atol=1e-12)
    np.testing.assert_allclose(population_loss(Problem(L=3, target="z1z2z3", student="matched"), m),
                               1 - m ** 3, atol=1e-12)


def test_matched_difference_with_opposite_pe():
    """f − g = (z₁ − z*₁) − (z₂ − z*₂) + 2e: R = ½ (2 (2 − 2m) + 4e²) = 2 (1 − m) + 2e²."""
    problem = Problem(L=2, target="z1_minus_z2", student="matched", pe="opposite")
    m, e = np.meshgrid([-0.5, 0.2, 0.6], [-0.3, 0.0, 0.4])
    np.testing.assert_allclose(population_loss(problem, m, e), 2 * (1 - m) + 2 * e ** 2, atol=1e-12)


@pytest.mark.parametrize("L", [1, 2, 3])
def test_relu_on_he2_sum(L):
    """Tied ReLU on Σ_l h_2(z*_l): E g² = L, E relu(h)² = ½ and, by Mehler,
    E[h_2(z*_l) relu(h)] = (m²/√2) c_2(relu) u_l² with c_2(relu) = φ(0) = 1/√(2π), u_l² = 1/L,
    so R = L/2 + 1/4 − m²/(2√π) for every L. The kink of ReLU makes this a test of the
    split rule: plain Gauss–Hermite misses the m² term at small m entirely.
    """
    problem = Problem(L=L, target="he2_sum", student="tied")
    m = np.array([-0.9, -0.01, 0.001, 0.05, 0.5])
    np.testing.assert_allclose(population_loss(problem, m), L / 2 + 0.25 - m ** 2 / (2 * math.sqrt(math.pi)),
                               rtol=0, atol=1e-12)
    dm, _ = population_gradient(problem, m)
    np.testing.assert_allclose(dm, -m / math.sqrt(math.pi), rtol=1e-10, atol=1e-14)


def test_untied_identity_student():
    """f = (1/√L) Σ z_l, g = (1/√L) Σ z*_l, tokens independent: R = (1/2L) Σ_l (Q_l + 1 − 2 m_l)."""
    problem = Problem(L=3, target="linear", student="untied", activation="identity")
    m = np.array([[0.1, -0.4, 0.7], [0.0, 0.0, 0.0]])
    Q = np.array([[0.5, 1.2, 1.3], [1.0, 1.0, 1.0]])
    np.testing.assert_allclose(population_loss(problem, m, Q=Q), (Q + 1 - 2 * m).sum(-1) / 6, atol=1e-12)


# --- API ----------------------------------------------------------------------------
def test_vectorised_over_states():
    problem = Problem(L=2, target="he2_sum", student="attention", pe="opposite")
    m = np.array([[0.1], [0.5]])
    e = np.array([0.0, 0.2, -0.3])
    R = population_loss(problem, m, e)
    assert R.shape == (2, 3)
    assert R[1, 2] == pytest.approx(float(population_loss(problem, 0.5, -0.3)), abs=1e-14)
    mom = expectations(Problem(L=3, target="he2_sum", student="untied"), np.zeros((4, 3)))
    assert mom.loss.shape == (4,) and mom.a.shape == (4, 3)


def test_gradient_matches_finite_differences():
    problem = Problem(L=2, target="z1_minus_z2", student="attention", pe="opposite")
    m, e, h = 0.3, 0.2, 1e-5
    dm, de = population_gradient(problem, m, e)
    fd_m = (population_loss(problem, m + h, e) - population_loss(problem, m - h, e)) / (2 * h)
    fd_e = (population_loss(problem, m, e + h) - population_loss(problem, m, e - h)) / (2 * h)
    assert float(dm) == pytest.approx(float(fd_m), abs=1e-6)
    assert float(de[0]) == pytest.approx(float(fd_e), abs=1e-6)


def test_invalid_states_raise():
    tied = Problem(L=2, target="he2_sum", student="attention")
    with pytest.raises(ValueError, match="m must lie"):
        population_loss(tied, 1.2)
    with pytest.raises(ValueError, match="pe='none'"):
        population_loss(tied, 0.2, 0.1)
    with pytest.raises(ValueError, match="length L"):
        population_loss(Problem(L=3, target="he2_sum", student="attention", pe="orthonormal"), 0.2, [0.1, 0.2])
    untied = Problem(L=2, target="he2_sum", student="untied")
    with pytest.raises(ValueError, match="Q_l"):
        population_loss(untied, [0.9, 0.1], Q=[0.5, 1.5])
    with pytest.raises(ValueError, match="method"):
        population_loss(tied, 0.2, method="simpson")


def test_hermite_powers_at_token_symmetric_states_are_exact():
    """The power table used when every ρ_l is equal gives the generic ρ^α bit for bit."""
    from ssi.population_hermite import Expansion

    terms = {((0, 1), (3, 2)): 1.0, ((1, 4),): 2.0, ((2, 1), (5, 3)): 0.5, (): 1.0, ((7, 6),): 1.0}
    expansion = Expansion(terms)
    for r in np.concatenate([np.random.default_rng(3).uniform(-1, 1, 500), [0.0, -0.0, 1.0, 1e-300]]):
        rho = np.full(8, r)
        generic = np.prod(rho[expansion.idx] ** expansion.pow, axis=1)
        np.testing.assert_array_equal(expansion.powers(rho).view(np.int64), generic.view(np.int64))
