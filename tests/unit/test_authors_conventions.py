"""The authors' conventions as options of the package (ssi.authors, Problem(loss, target_scale),
simulate(init, ic_overlap, ic_randomsign), the authors' metrics of SGDRun).

What is checked, and how precisely:

* Losses "mse" and "frobenius": ``Problem.loss_and_grad`` against numpy formulas written from
  their definitions (mean over output entries of (ŷ − y)²; ‖ŷ − y‖_F) to rtol 1e-10, and
  a = ∂ℓ/∂q against central differences (tolerance as in tests/unit/test_links.py).
* Law equivalence reduced ≡ explicit for each new option, with the comparison of
  tests/unit/sgd/test_simulators.py (means and standard deviations within 4 SE, KS p > 1e-3, the law
  must move by > 10 SE), 400 replicates per engine at d = 300.
* The explicit engine against a plain one-sample numpy loop written here from the authors'
  model and step (attention with PE, identity reduction, mixture target, Frobenius loss;
  untied ReLU, he2_sum, MSE), with the same random stream: same numbers to rtol 1e-9.
* ODE ≈ reduced SGD at d = 10⁴ (16 replicates): absolute 0.02 on the replicate means, the
  tolerance of tests/unit/test_ode.py.
* population_loss and the ODE moments for mse/frobenius against plain Monte Carlo within
  4 combined standard errors; mse moments = exact multiples of the half-square ones.
* The authors' "overlapped" start in numpy: its overlap is ``initial_overlap(o, d)``, and
  their PE projection leaves e(0) with standard deviation ≈ m₀/√d (within 4 SE).
* Names: every target name maps to a problem whose target is their formula (rtol 1e-12);
  SIE on some new targets; learning-rate scalings; record steps; bad input.
"""
from __future__ import annotations

import copy
import dataclasses
import math

import numpy as np
import pytest
from support.reference import (central_difference, law_differences, mc_moments, movement, ref_student, ref_target,
                               statistics)

from ssi import Problem, authors, population_loss, simulate
from ssi.hermite import sie
from ssi.ode import integrate_ode
from ssi.population import expectations
from ssi.sgd.common import authors_init, initial_overlaps, replicate_generators
from ssi.sgd.explicit import ExplicitEngine

N_SE = 4.0
MOVE_SE = 10.0
SQRT2 = math.sqrt(2)


# --- per-sample losses -------------------------------------------------------------------
def ref_residual(p, z, q):
    """ŷ − y from tests/unit/test_links.py's numpy references (which take the unscaled targets)."""
    base = dataclasses.replace(p, target_scale=1.0)
    c = p.target_scale
    f = np.asarray(ref_student(base, q)) * (c if p.student == "matched" else 1.0)
    r = f - c * np.asarray(ref_target(base, z))
    return r.reshape(len(q), -1)


def ref_loss(p, z, q):
    r = ref_residual(p, z, q)
    if p.loss == "mse":
        return np.mean(r * r, axis=1)
    if p.loss == "frobenius":
        return np.sqrt(np.sum(r * r, axis=1))
    return 0.5 * np.sum(r * r, axis=1)


LOSS_PROBLEMS = [
    dict(L=2, target="he2_sum", student="attention", reduction="trace"),          # L = 2 fast path
    dict(L=3, target="staircase3", student="attention", reduction="projection",
         proj_left=(0.3, -0.5, 0.8), proj_right=(0.6, 0.1, -0.4)),                 # generic vjp
    dict(L=2, target="mixture", student="attention", omega=0.3, a=0.8),          # matrix output
    dict(L=3, target="he2_sum", student="untied", activation="relu", target_scale=math.sqrt(3)),
    dict(L=2, target="z1z2", student="matched"),
    dict(L=3, target="complete_staircase", student="tied", activation="sigmoid", target_scale=-0.7),
]


@pytest.mark.parametrize("loss", ["mse", "frobenius"])
@pytest.mark.parametrize("kwargs", LOSS_PROBLEMS, ids=[f"{k['target']}-{k['student']}" for k in LOSS_PROBLEMS])
def test_losses_forward_and_finite_differences(kwargs, loss):
    p = Problem(**kwargs, loss=loss)
    rng = np.random.default_rng(3)
    z, q = rng.standard_normal((2, 50, p.L))
    value, a = p.loss_and_grad(z, q)
    np.testing.assert_allclose(value, ref_loss(p, z, q), rtol=1e-10)
    fd = central_difference(lambda qq: ref_loss(p, z, qq), q)
    assert np.max(np.abs(a - fd)) <= 1e-6 * max(1.0, np.abs(a).max())
    half = Problem(**kwargs)
    _, a_half = half.loss_and_grad(z, q)
    if loss == "mse":       # (2/n_out)·half_square, exactly
        np.testing.assert_allclose(a, a_half * 2 / p.n_out, rtol=1e-14)


def test_frobenius_gradient_is_zero_at_zero_residual():
    p = Problem(L=2, target="he2_sum", student="matched", loss="frobenius")
    z = np.random.default_rng(0).standard_normal((5, 2))
    value, a = p.loss_and_grad(z, z)
    assert np.all(value == 0) and np.all(a == 0)


# --- reduced ≡ explicit in law -----------------------------------------------------------
D = 300
REPLICATES = 400
LAW_CASES = {
    "mse-tied-relu-he2_sum": dict(problem=dict(L=2, target="he2_sum", student="tied", loss="mse"),
                                  lr=0.25, steps=2000, sim=dict(m0=0.3)),
    "frobenius-attention-identity-mixture": dict(
        problem=dict(L=2, target="mixture", student="attention", pe="opposite", omega=0.3, loss="frobenius"),
        lr=1.0, steps=2000, sim=dict(m0=0.1, e0=0.1)),
    "overlapped-randomsign-untied-linear": dict(
        problem=dict(L=3, target="linear", student="untied", loss="mse"), lr=0.5, steps=1500,
        sim=dict(init="overlapped", ic_overlap=0.3, ic_randomsign=True), skip_start=True),
    "random-untied-he2_sum": dict(problem=dict(L=2, target="he2_sum", student="untied", target_scale=SQRT2),
                                  lr=0.5, steps=1500, sim=dict(init="random")),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(LAW_CASES))
def test_reduced_engine_has_the_law_of_the_explicit_engine(case):
    """Tolerances of tests/unit/sgd/test_simulators.py: |Δmean|, |Δstd| ≤ 4 SE, KS p > 1e-3 at 4 records
    (m; e with PE; m_l, Q_l untied), and the law of m moved by > 10 SE."""
    spec = LAW_CASES[case]
    p = Problem(**spec["problem"])
    steps = spec["steps"]
    record = [0, steps // 4, steps // 2, steps]
    runs = [simulate(p, D, spec["lr"], steps, replicates=REPLICATES, seed=seed, engine=engine,
                     record=record, **spec["sim"]) for seed, engine in ((1, "reduced"), (2, "explicit"))]
    for run in runs:
        assert max(movement(statistics(run)["m"])) > MOVE_SE, f"{run.engine}: the law of m did not move"
    if spec.get("skip_start"):
        # the overlapped start is the two-point law ±m₀ (tested exactly in test_overlapped_start_law):
        # rounding makes the explicit engine's atoms distinct for KS, and the delta-method SE of a
        # std vanishes for a symmetric two-point law; compare the later records only
        runs = [dataclasses.replace(run, steps=run.steps[1:], **{
            k: getattr(run, k)[:, 1:] for k in ("m", "e", "e_tokens", "m_tokens", "Q_tokens")
            if getattr(run, k) is not None}) for run in runs]
    failures = law_differences(*runs)
    assert not failures, "reduced and explicit engines differ:\n" + "\n".join(failures)


def test_overlapped_start_law():
    """Overlapped start: m_l(0) = ±m₀ and Q_l(0) = 1 in both engines; with random signs the
    fraction of + signs over 400 replicates × 3 tokens is 1/2 within 4 SE."""
    p = Problem(L=3, target="linear", student="untied")
    m0 = authors.initial_overlap(0.2, 100)
    for engine in ("reduced", "explicit"):
        run = simulate(p, 100, 0.1, 0, replicates=400, seed=4, engine=engine, init="overlapped",
                       ic_overlap=0.2, ic_randomsign=True)
        mt = run.m_tokens[:, 0]
        np.testing.assert_allclose(np.abs(mt), m0, rtol=1e-12)
        np.testing.assert_allclose(run.Q_tokens[:, 0], 1.0, rtol=1e-12)
        assert abs(np.mean(mt > 0) - 0.5) < N_SE * math.sqrt(0.25 / mt.size)
        fixed = simulate(p, 100, 0.1, 0, replicates=3, seed=4, engine=engine, init="overlapped")
        np.testing.assert_allclose(fixed.m_tokens[:, 0], authors.initial_overlap(None, 100), rtol=1e-12)
        tied = simulate(Problem(L=2, target="he2_sum", student="attention", pe="opposite"), 100, 0.1, 0,
                        replicates=3, seed=4, engine=engine, init="overlapped", ic_overlap=0.0)
        np.testing.assert_allclose(tied.m[:, 0], 0.0, atol=1e-12)
        np.testing.assert_allclose(tied.e[:, 0], 0.0, atol=1e-12)


# --- the explicit engine against a plain numpy loop ----------------------------------------
def softmax_rows(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def numpy_attention_frobenius_step(w, x, w_star, pe, lr, omega, a):
    """One step of the authors' attention student (PE p_l/√d, identity reduction) on the
    semantic/positional mixture with the Frobenius loss, written from the model's definition."""
    d = w.size
    inputs = x + pe / math.sqrt(d)
    q = inputs @ w
    z = x @ w_star
    A = softmax_rows(np.outer(q, q))
    Y = (1 - omega) * softmax_rows(np.outer(z, z)) + omega * softmax_rows(
        np.array([[a * a, -a * a], [-a * a, a * a]]))
    R = A - Y
    G = R / np.linalg.norm(R)                          # ∂‖R‖/∂A
    H = A * (G - np.sum(G * A, axis=1, keepdims=True))  # ∂ℓ/∂S, S = q qᵀ
    grad_q = (H + H.T) @ q
    w = w - lr * grad_q @ inputs
    return w * math.sqrt(d) / np.linalg.norm(w)


def numpy_untied_mse_step(W, x, w_star, lr):
    """One step of the untied ReLU student σ((1/√L) Σ x_l·w_l) on Σ_l h_2(z_l) with torch's MSE."""
    L, d = W.shape
    h = np.sum(x * W) / math.sqrt(L)
    z = x @ w_star
    y = np.sum(z * z - 1) / SQRT2
    grad_h = 2 * (max(h, 0.0) - y) * (1.0 if h > 0 else 0.0)
    W = W - lr * grad_h * x / math.sqrt(L)
    return W * math.sqrt(L * d) / np.linalg.norm(W)       # one flattened parameter: joint


@pytest.mark.parametrize("case", ["attention-frobenius", "untied-mse"])
def test_explicit_engine_matches_a_plain_numpy_loop(case):
    """Same replicate streams (init taken from the engine, then one token draw (L, d) per step):
    the weights after 300 steps agree to rtol 1e-9 (the law is trivially the same)."""
    d, steps, R = 200, 300, 3
    if case == "attention-frobenius":
        p = Problem(L=2, target="mixture", student="attention", pe="opposite", omega=0.4, a=0.9,
                    loss="frobenius")
        lr, kwargs = 2.0, dict(init="overlapped", ic_overlap=0.3, ic_randomsign=True)
    else:
        p = Problem(L=3, target="he2_sum", student="untied", activation="relu", loss="mse")
        lr, kwargs = 0.5, dict(init="random")
    start = authors_init(p, d, kwargs.pop("init"), kwargs.get("ic_overlap"), kwargs.get("ic_randomsign", False),
                         None, None)
    m0, e_tok = initial_overlaps(p, None, None)
    engine = ExplicitEngine(p, d, lr, replicate_generators(7, R), m0, e_tok, None, 1, init=start)
    streams = [copy.deepcopy(rng) for rng in engine.rngs]
    w0, w_star, shift = engine.weights.copy(), engine.w_star.copy(), engine.shift.copy()
    engine.advance(steps, 0)
    for r in range(R):
        w = w0[r]
        for _ in range(steps):
            x = streams[r].standard_normal((p.L, d)) / math.sqrt(d)
            if p.tied:
                w = numpy_attention_frobenius_step(w, x, w_star[r], shift[r] * math.sqrt(d), lr, p.omega, p.a)
            else:
                w = numpy_untied_mse_step(w, x, w_star[r], lr)
        np.testing.assert_allclose(engine.weights[r], w, rtol=1e-9, atol=1e-9)
        assert np.linalg.norm(w - w0[r]) > 0.1 * math.sqrt(d), "the weights barely moved"


# --- ODE ≈ SGD -----------------------------------------------------------------------------
ODE_D = 10_000
ODE_CASES = {
    # m₀ = e₀ = 0 is a fixed point of the mixture ODE: start from a small positive m₀
    "frobenius-attention-identity-mixture": (
        Problem(L=2, target="mixture", student="attention", pe="opposite", omega=0.3, loss="frobenius"),
        1.0, 0.1, 0.0, 25.0),
    "mse-untied-relu-he2_sum": (Problem(L=2, target="he2_sum", student="untied", loss="mse"), 0.1, 0.2, 0.0, 30.0),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(ODE_CASES))
def test_ode_matches_reduced_simulator(name):
    """Replicate means (16 replicates, d = 10⁴) within 0.02 of the ODE in m (untied: every m_l
    and Q_l; PE: e), and the overlap must have grown by more than 0.1."""
    problem, lr, m0, e0, t_max = ODE_CASES[name]
    record = np.unique(np.geomspace(1, t_max * ODE_D, 40).astype(int))
    run = simulate(problem, ODE_D, lr, int(t_max * ODE_D), replicates=16, seed=11, m0=m0,
                   e0=e0 if problem.tied else None, record=record)
    # Frobenius: quasi-Monte Carlo moments; 2^12 × 8 points per call keep the test at ~1 min
    quadrature = dict(qmc_log2=12) if problem.loss == "frobenius" else None
    sol = integrate_ode(problem, lr, m0, e0, t_max=t_max, t_eval=run.steps / ODE_D, quadrature=quadrature)
    assert np.max(np.abs(run.m.mean(0) - sol.m)) < 0.02
    assert sol.m[-1] - m0 > 0.1
    if problem.tied:
        assert np.max(np.abs(run.e.mean(0) - sol.e)) < 0.02
    else:
        assert np.max(np.abs(run.m_tokens.mean(0) - sol.m_tokens)) < 0.02
        assert np.max(np.abs(run.Q_tokens.mean(0) - sol.Q_tokens)) < 0.02


# --- population loss and moments ---------------------------------------------------------------
POP_CASES = [
    (dict(L=2, target="he2_sum", student="attention", reduction="trace"), 0.4, 0.0, None),
    (dict(L=2, target="mixture", student="attention", pe="opposite", omega=0.3), 0.3, 0.2, None),
    (dict(L=2, target="he2_sum", student="tied", pe="opposite"), 0.4, 0.2, None),
    (dict(L=3, target="he2_sum", student="untied"), np.array([0.3, -0.2, 0.5]), 0.0, np.array([0.8, 1.3, 0.9])),
]


@pytest.mark.parametrize("loss", ["mse", "frobenius"])
@pytest.mark.parametrize("kwargs, m, e, Q", POP_CASES, ids=[c[0]["target"] + "-" + c[0]["student"] for c in POP_CASES])
def test_population_loss_and_moments_against_monte_carlo(kwargs, m, e, Q, loss):
    """R from the problem's quadrature vs R from numpy formulas on 4·10⁵ plain Monte Carlo
    samples, and every ODE moment vs plain Monte Carlo of loss_and_grad: within 4 combined SE
    (Monte Carlo and, for quasi-Monte Carlo, the scrambling SE)."""
    p = Problem(**kwargs, loss=loss)
    rng = np.random.default_rng(5)
    n = 400_000
    zs, xi = rng.standard_normal((2, n, p.L))
    if p.tied:
        e_tok = np.array([e, -e]) if p.pe == "opposite" else np.zeros(p.L)
        q = m * zs + math.sqrt(1 - m * m) * xi + e_tok
        mom = expectations(p, m, e)
    else:
        e_tok = None
        q = m * zs + np.sqrt(Q - m * m) * xi
        mom = expectations(p, m, Q=Q)
    values = ref_loss(p, zs, q)
    R = population_loss(p, m, e) if p.tied else population_loss(p, m, Q=Q)
    se_quad = 0.0 if mom.stderr is None else float(mom.stderr.loss)
    se = math.hypot(values.std() / math.sqrt(n), se_quad)
    assert abs(float(R) - values.mean()) < N_SE * se, (float(R), values.mean(), se)
    mc, mc_se = mc_moments(p, m, e_tok, Q, n=n, seed=6)
    quad = np.concatenate([[float(mom.loss)], mom.a_zstar, mom.a_q, mom.a_xi, mom.a, mom.a2])
    qse = np.zeros_like(quad) if mom.stderr is None else np.concatenate(
        [[float(mom.stderr.loss)], mom.stderr.a_zstar, mom.stderr.a_q, mom.stderr.a_xi, mom.stderr.a, mom.stderr.a2])
    z = np.abs(quad - mc) / np.hypot(mc_se, qse)
    assert np.all(z < N_SE), z


@pytest.mark.parametrize("kwargs, m, e, Q", POP_CASES[:1] + POP_CASES[2:])
def test_mse_moments_are_multiples_of_the_half_square_ones(kwargs, m, e, Q):
    """mse = (2/n_out)·half_square: loss and E[a·] scale by c = 2/n_out, E[a²] by c²."""
    half = Problem(**kwargs)
    mse = Problem(**kwargs, loss="mse")
    args = dict(Q=Q) if Q is not None else dict(e=e)
    a, b = expectations(half, m, **args), expectations(mse, m, **args)
    c = 2.0 / half.n_out
    for field, power in (("loss", 1), ("a_zstar", 1), ("a_q", 1), ("a_xi", 1), ("a", 1), ("a2", 2)):
        np.testing.assert_allclose(getattr(b, field), c ** power * getattr(a, field), rtol=1e-10, atol=1e-14)


# --- the authors' initial condition built in numpy ------------------------------------------
def their_overlapped_start(rng, d, o, L=1):
    """The authors' OverlappedInitialCondition and opposite PE, from their description."""
    w_star = rng.standard_normal(d)
    w_star *= math.sqrt(d) / np.linalg.norm(w_star)
    raw = rng.standard_normal((L, d))
    raw *= math.sqrt(d) / np.linalg.norm(raw, axis=1, keepdims=True)
    orth = raw - np.outer(raw @ w_star / d, w_star)
    orth *= math.sqrt(d) / np.linalg.norm(orth, axis=1, keepdims=True)
    w = (1 - o) * orth + o * w_star
    w *= math.sqrt(d) / np.linalg.norm(w, axis=1, keepdims=True)
    g = rng.standard_normal(d)
    units = np.stack([w[0], w_star]) / math.sqrt(d)
    p = g - (units @ g) @ units                  # each projection subtracted separately
    p /= np.linalg.norm(p)
    return w_star, w, p


@pytest.mark.parametrize("o, d", [(1 / math.sqrt(10), 100), (0.1, 100), (1 / math.sqrt(1000), 1000), (0.0, 50)])
def test_initial_overlap_matches_their_construction(o, d):
    rng = np.random.default_rng(9)
    w_star, w, _ = their_overlapped_start(rng, d, o, L=3)
    np.testing.assert_allclose(w @ w_star / d, authors.initial_overlap(o, d), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(np.linalg.norm(w, axis=1) ** 2, d, rtol=1e-12)
    assert authors.initial_overlap(None, 100) == pytest.approx(0.1 / math.sqrt(0.81 + 0.01))
    assert authors.initial_overlap(None, 100) == pytest.approx(0.1104, abs=1e-4)


def test_their_pe_projection_leaves_e0_of_order_m0_over_sqrt_d():
    """ssi.authors: with m₀ ≠ 0 their PE gives e(0) and p̂·ŵ* of law ≈ N(0, m₀²/d) (our engines: 0).
    Over 2000 draws at d = 100, o = 1/√d the sample std of each is m₀/√d within 4 SE
    (SE of a std ≈ s/√(2n)) and the mean 0 within 4 SE."""
    d, n = 100, 2000
    rng = np.random.default_rng(12)
    m0 = authors.initial_overlap(None, d)
    e0, pw = np.empty(n), np.empty(n)
    for i in range(n):
        w_star, w, p = their_overlapped_start(rng, d, 1 / math.sqrt(d))
        e0[i], pw[i] = p @ w[0] / math.sqrt(d), p @ w_star / math.sqrt(d)
    expected = m0 / math.sqrt(d)
    for x in (e0, pw):
        assert abs(x.std() - expected) < N_SE * expected / math.sqrt(2 * n), (x.std(), expected)
        assert abs(x.mean()) < N_SE * expected / math.sqrt(n)


# --- names, scalings, records, metrics -------------------------------------------------------
THEIR_FUNCTIONS = {      # their ssi_function dictionary, from its definitions (z: (n, L))
    "sum": lambda z: z.sum(1), "mean": lambda z: z.mean(1),
    "sqrtsum": lambda z: math.sqrt(z.shape[1]) * z.sum(1),
    "inversesqrtsum": lambda z: z.sum(1) / math.sqrt(z.shape[1]),
    "z1": lambda z: z[:, 0], "sqrtz1": lambda z: math.sqrt(z.shape[1]) * z[:, 0],
    "2sum": lambda z: z[:, 0] + z[:, 1], "2product": lambda z: z[:, 0] * z[:, 1],
    "inversesqrtH2sum": lambda z: (z ** 2 - 1).sum(1) / SQRT2 / math.sqrt(z.shape[1]),
    "H2sum": lambda z: (z ** 2 - 1).sum(1) / SQRT2,
    "sqrtH2sum": lambda z: math.sqrt(z.shape[1]) * (z ** 2 - 1).sum(1) / SQRT2,
    "inverseH2sum": lambda z: (z ** 2 - 1).sum(1) / SQRT2 / z.shape[1],
    "linearH2sum": lambda z: z.shape[1] * (z ** 2 - 1).sum(1) / SQRT2,
    "3product": lambda z: z[:, 0] * z[:, 1] * z[:, 2],
    "2difference": lambda z: z[:, 0] - z[:, 1],
    "2squaredifference": lambda z: (z[:, 0] ** 2 - z[:, 1] ** 2) / SQRT2,
    "basic_staircase": lambda z: z[:, 0] + z[:, 0] * z[:, 1],
    "sqrtbasic_staircase": lambda z: math.sqrt(z.shape[1]) * (z[:, 0] + z[:, 0] * z[:, 1]),
    "sqrtdouble_staircase": lambda z: math.sqrt(z.shape[1]) * (z[:, 0] + z[:, 0] * z[:, 1]
                                                              + z[:, 0] * z[:, 1] * z[:, 2]),
    "complete_staircase": lambda z: z[:, 0] * np.prod(1 + z[:, 1:], axis=1),
}


@pytest.mark.parametrize("name", sorted(THEIR_FUNCTIONS))
@pytest.mark.parametrize("L", [3, 5])
def test_target_names_are_their_functions(name, L):
    p = authors.problem(L, name, "tied_network", activation="relu")
    z = np.random.default_rng(L).standard_normal((40, L))
    np.testing.assert_allclose(p.target_value(z), THEIR_FUNCTIONS[name](z), rtol=1e-12, atol=1e-12)


def test_every_name_is_mapped():
    assert set(authors.TARGET_NAMES) == set(THEIR_FUNCTIONS) | {"positional_semantic_model"}
    p = authors.problem(2, "positional_semantic_model", "attention", reduction="none",
                        positional_encoding="opposite", loss="frobenius", omega=0.95,
                        pre_softmax_A=[[0.5776, -0.5776], [-0.5776, 0.5776]])
    assert (p.target, p.student, p.pe, p.reduction, p.loss, p.omega) == (
        "mixture", "attention", "opposite", "identity", "frobenius", 0.95)
    assert p.a == pytest.approx(0.76)
    for theirs, ours in authors.ACTIVATION_NAMES.items():
        assert authors.problem(2, "H2sum", "plain_network", activation=theirs).activation == ours
    assert authors.problem(2, "H2sum", "attention", reduction="trace").loss == "mse"


@pytest.mark.parametrize("name, student, expected", [
    ("sqrtH2sum", "tied_network", 2), ("inverseH2sum", "plain_network", 2),
    ("basic_staircase", "plain_network", 1), ("2sum", "tied_network", 1),
    ("complete_staircase", "tied_network", 1)])
def test_sie_of_new_targets(name, student, expected):
    """The Hermite/SIE machinery reaches the new targets; a scale and the mse loss do not change the SIE."""
    L = 3
    p = authors.problem(L, name, student, activation="relu")
    assert sie(p) == expected
    assert sie(Problem(L=L, target=p.target, student=p.student, activation="relu")) == expected


def test_learning_rate_scalings():
    L, c = 7, 0.3
    expected = {"none": c, "linear": c * L, "square": c * L * L, "sqrt": c * math.sqrt(L),
                "cbrtsquare": c * L ** (2 / 3), "sqrttimelog": c * math.sqrt(L) * math.log(L)}
    assert set(authors.LR_SCALINGS) == set(expected)
    for name, value in expected.items():
        assert authors.learning_rate(c, name, L) == pytest.approx(value, rel=1e-14)


def test_measure_steps_and_metrics():
    assert np.array_equal(authors.measure_steps(10, 3), [0, 3, 6, 9])
    assert np.array_equal(authors.measure_steps(300_000, 300), np.arange(0, 300_000, 1000))
    p = Problem(L=3, target="he2_sum", student="untied")
    run = simulate(p, 100, 0.3, 100, replicates=2, seed=0, record=authors.measure_steps(100, 4),
                   init="overlapped", ic_randomsign=True)
    assert np.array_equal(run.steps, [0, 25, 50, 75])
    m = run.m_tokens
    np.testing.assert_allclose(run.m_l2, np.sqrt(np.mean(m ** 2, axis=2)), rtol=1e-14)
    np.testing.assert_allclose(run.overlap("l1"), np.mean(np.abs(m), axis=2), rtol=1e-14)
    np.testing.assert_allclose(run.normalized_overlap_component(1), m[:, :, 1] / np.linalg.norm(m, axis=2))
    tied = simulate(Problem(L=2, target="he2_sum", student="attention", pe="opposite"), 100, 0.3, 50,
                    replicates=2, seed=0, m0=-0.2, e0=0.1)
    np.testing.assert_allclose(tied.overlap(signed=True), tied.m)
    np.testing.assert_allclose(tied.m_l2, np.abs(tied.m))
    np.testing.assert_allclose(tied.positional_overlap, tied.e)


# --- bad input ---------------------------------------------------------------------------
_P = Problem(L=2, target="he2_sum", student="attention", pe="opposite")
_OK = dict(d=50, lr=0.1, steps=10, replicates=2, seed=0)


@pytest.mark.parametrize("call, name", [
    (lambda: Problem(L=2, target="he2_sum", student="tied", loss="square"), r"\bloss=.*half_square"),
    (lambda: Problem(L=2, target="he2_sum", student="tied", target_scale=0.0), r"\btarget_scale="),
    (lambda: Problem(L=2, target="mixture", student="attention", target_scale=2.0), r"\btarget_scale="),
    (lambda: simulate(_P, **_OK, init="overlapped", ic_overlap=-0.1), r"\bic_overlap="),
    (lambda: simulate(_P, **_OK, init="overlapped", ic_overlap=1.5), r"\bic_overlap="),
    (lambda: simulate(_P, **_OK, init="overlapped", m0=0.1), r"\binit=.*m0"),
    (lambda: simulate(_P, **_OK, init="random", e0=0.1), r"\binit=.*e0"),
    (lambda: simulate(_P, **_OK, init="gaussian"), r"\binit=.*overlapped"),
    (lambda: simulate(_P, **_OK, ic_overlap=0.1), r"\bic_overlap\b"),
    (lambda: simulate(_P, **_OK, init="random", ic_randomsign=True), r"\bic_randomsign\b"),
    (lambda: authors.learning_rate(0.1, "cube", 3), r"\bscaling=.*sqrt"),
    (lambda: authors.initial_overlap(-0.5, 100), r"\bic_overlap="),
    (lambda: authors.problem(2, "H3sum", "tied_network"), r"\btarget="),
    (lambda: authors.problem(2, "H2sum", "ssi"), r"\bstudent="),
    (lambda: authors.problem(2, "H2sum", "tied_network", loss="l1"), r"\bloss="),
    (lambda: authors.problem(2, "positional_semantic_model", "attention", reduction="none", omega=0.5,
                             pre_softmax_A=[[1, 0], [0, 1]]), r"\bpre_softmax_A="),
    (lambda: authors.measure_steps(10, 0), r"\bn="),
    (lambda: sie(Problem(L=2, target="he2_sum", student="tied", loss="frobenius")), r"\bloss='frobenius'"),
])
def test_bad_options_raise(call, name):
    with pytest.raises(ValueError, match=name):
        call()
