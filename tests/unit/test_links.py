"""Per-sample links (ssi.links) and Problem validation (ssi.problems).

What is checked, and how precisely:

* Forward pass: ``Problem.loss_and_grad`` returns ℓ = ½‖f(q) − g(z*)‖² equal to an
  independent numpy implementation of every target g and student f (docs/theory.md, "Model and conventions")
  to relative precision ``FORWARD_RTOL`` = 1e-10.
* Derivative: a_l = ∂ℓ/∂q_l equals the central finite difference of the numpy
  loss (and of the package's own loss) with step ``FD_STEP`` = 1e-5, to
  ``|a − a_fd| ≤ FD_RTOL · max(1, max_l |a_l|)`` with FD_RTOL = 1e-6 (truncation error
  ~ h² ℓ''' ≈ 1e-8 for the steepest links at |q| ≲ 4, round-off ~ ε ℓ / h ≈ 1e-9).
  This is done for EVERY valid (target, student) pair of the registries: attention with
  identity (matrix "mixture" target only), trace and projection (non-uniform vectors)
  reductions; tied and untied feed-forward with every activation; the matched student;
  at L = 2, 3 and 4 where the target allows it. L = 2 attention takes the closed-form
  fast path of links.py, L ≥ 3 the generic softmax vector–Jacobian product.
* The L = 2 fast path also agrees (to 1e-12) with the generic vjp of links.py called at
  L = 2 and with a numpy implementation of softmax_row(q qᵀ) and its gradient, also at
  extreme pre-activations (|q| up to 40), where it must stay finite.
* Target values against direct numpy formulas, and orthonormality of h_k = He_k/√(k!) by
  Gauss–Hermite quadrature.
* ``Problem`` rejects bad input with a ValueError naming the parameter.
"""
from __future__ import annotations

import math
import zlib

import numpy as np
import pytest
from numpy.polynomial.hermite_e import hermegauss

from ssi import Problem, links, softmax
from ssi.problems import ACTIVATIONS, STUDENTS, TARGETS
from support.reference import attention_matrix, central_difference, ref_loss, ref_student

FORWARD_RTOL = 1e-10
FD_RTOL = 1e-6
N_SAMPLES = 60
LS = (2, 3, 4)


# --- every valid (target, student) pair -------------------------------------------------
def _proj(L):
    left = tuple(np.linspace(0.3, 1.2, L))
    right = tuple([1.0, -0.5, 2.0, 0.25][:L])
    return left, right


def valid_problems():
    """(id, Problem kwargs) for every valid target × student × L ∈ {2, 3, 4}."""
    cases = []
    for target, (_, _, min_L, _) in TARGETS.items():
        for L in LS:
            if L < min_L or (target == "mixture" and L != 2):
                continue
            students = []
            if target == "mixture":
                students += [("attention-identity", dict(student="attention", reduction="identity"))]
            else:
                left, right = _proj(L)
                students += [("attention-trace", dict(student="attention", reduction="trace")),
                             ("attention-projection", dict(student="attention", reduction="projection",
                                                           proj_left=left, proj_right=right))]
                for act in ACTIVATIONS:
                    students += [(f"tied-{act}", dict(student="tied", activation=act)),
                                 (f"untied-{act}", dict(student="untied", activation=act))]
            students += [("matched", dict(student="matched"))]
            for sid, kw in students:
                extra = dict(omega=0.3, a=0.8) if target == "mixture" else {}
                cases.append(pytest.param(dict(L=L, target=target, **kw, **extra), id=f"{target}-{sid}-L{L}"))
    return cases


CASES = valid_problems()


def test_every_registry_entry_is_covered():
    """The case list spans every target, student, activation and reduction of the registries."""
    kws = [c.values[0] for c in CASES]
    assert {k["target"] for k in kws} == set(TARGETS)
    assert {k["student"] for k in kws} == set(STUDENTS)
    assert {k["activation"] for k in kws if "activation" in k} == set(ACTIVATIONS)
    assert {k["reduction"] for k in kws if "reduction" in k} == {"identity", "trace", "projection"}
    assert {k["L"] for k in kws if k["student"] == "attention"} >= {2, 3, 4}


def _samples(p: Problem, seed):
    """Random (z*, q): correlated as in SGD (q = m z* + √(1−m²) ξ + e), |q| up to ~4."""
    rng = np.random.default_rng(seed)
    n, L = N_SAMPLES, p.L
    z = rng.standard_normal((n, L))
    m = rng.uniform(-1, 1, (n, 1))
    q = m * z + np.sqrt(1 - m ** 2) * rng.standard_normal((n, L)) + rng.normal(0, 0.5, (n, L))
    if p.activation == "relu":      # stay away from the kink of the ReLU (finite differences)
        keep = np.abs(q.sum(1)) / math.sqrt(L) > 1e-3
        z, q = z[keep], q[keep]
    return z, q


@pytest.mark.parametrize("kwargs", CASES)
def test_loss_and_grad_forward_and_finite_differences(kwargs):
    p = Problem(**kwargs)
    z, q = _samples(p, seed=zlib.crc32(repr(sorted(kwargs.items())).encode()))
    loss, a = p.loss_and_grad(z, q)
    assert loss.shape == (len(q),) and a.shape == q.shape
    assert np.all(np.isfinite(loss)) and np.all(np.isfinite(a))
    # forward pass against numpy formulas
    np.testing.assert_allclose(loss, ref_loss(p, z, q), rtol=FORWARD_RTOL, atol=1e-13)
    out = p.student_value(q)
    np.testing.assert_allclose(out, ref_student(p, q), rtol=FORWARD_RTOL, atol=1e-13)
    # derivative against central differences of the numpy loss and of the package loss
    scale = np.maximum(1.0, np.abs(a).max(axis=1, keepdims=True))
    for loss_fn in (lambda qq: ref_loss(p, z, qq), lambda qq: p.loss_and_grad(z, qq)[0]):
        fd = central_difference(loss_fn, q)
        err = np.abs(a - fd) / scale
        assert err.max() <= FD_RTOL, f"max relative error {err.max():.2e} at sample {err.max(1).argmax()}"


@pytest.mark.parametrize("kwargs", [c for c in CASES if c.values[0]["L"] in (2, 3)][::7])
def test_single_sample_kernel_matches_batch(kwargs):
    """links.loss_and_grad on one sample (the simulators' hot path) = the batch wrapper."""
    p = Problem(**kwargs)
    z, q = _samples(p, seed=7)
    loss, a = p.loss_and_grad(z, q)
    tcode, tparams, scode, sparams = p.codes
    mats = links.scratch(p.L)
    out = np.empty(p.L)
    for i in range(len(q)):
        li = links.loss_and_grad(tcode, tparams, scode, sparams, z[i].copy(), q[i].copy(), out, mats)
        assert li == loss[i]
        np.testing.assert_array_equal(out, a[i])


# --- L = 2 attention: the closed-form fast path ------------------------------------------
def _attention2_reference(q, y, C):
    """Numpy loss and gradient of ½(⟨C, softmax_row(q qᵀ)⟩ − y)² (no links.py code)."""
    A = attention_matrix(q)
    r = np.einsum("ij,nij->n", C, A) - y
    G = r[:, None, None] * C                                   # ∂ℓ/∂A
    H = A * (G - (G * A).sum(axis=2, keepdims=True))           # ∂ℓ/∂S, S = q qᵀ
    a = np.einsum("nij,nj->ni", H + np.swapaxes(H, 1, 2), q)
    return 0.5 * r ** 2, a


@pytest.mark.parametrize("reduction", ["trace", "projection"])
def test_attention_L2_fast_path(reduction):
    rng = np.random.default_rng(11)
    kw = dict(proj_left=(0.9, -0.4), proj_right=(0.3, 1.7)) if reduction == "projection" else {}
    p = Problem(L=2, target="he2_sum", student="attention", reduction=reduction, **kw)
    C = np.eye(2) / math.sqrt(2) if reduction == "trace" else np.outer(kw["proj_left"], kw["proj_right"])
    q = np.concatenate([rng.normal(0, 1.5, (200, 2)),
                        np.array([[40.0, -40.0], [-40.0, 40.0], [40.0, 39.0], [25.0, 0.0], [0.0, 0.0],
                                  [1e-8, -1e-8], [-3.0, -3.0], [30.0, 30.0]])])
    z = rng.standard_normal(q.shape)
    y = p.target_value(z)
    loss, a = p.loss_and_grad(z, q)
    assert np.all(np.isfinite(loss)) and np.all(np.isfinite(a))
    ref_l, ref_a = _attention2_reference(q, y, C)
    np.testing.assert_allclose(loss, ref_l, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(a, ref_a, rtol=1e-10, atol=1e-12)
    # the generic vector–Jacobian product (ssi.softmax, in links' namespace), called at L = 2
    tcode, tparams, scode, sparams = p.codes
    mats = links.scratch(2)
    for i in range(len(q)):
        qi = q[i].copy()
        r = links.student_scalar(scode, sparams, tcode, tparams, qi, mats) - y[i]
        mats[links.M_COTANGENT] = r * C
        generic = np.zeros(2)
        links.softmax_vjp(qi, mats, generic, 1.0)
        np.testing.assert_allclose(a[i], generic, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(mats[links.M_SOFTMAX], attention_matrix(q[i:i + 1])[0], rtol=1e-12, atol=1e-300)


def test_attention_generic_path_large_inputs_stable():
    """L ≥ 3 softmax subtracts the row maximum: finite at |q| = 40."""
    p = Problem(L=3, target="he2_sum", student="attention")
    q = np.array([[40.0, -40.0, 3.0], [40.0, 40.0, -40.0]])
    loss, a = p.loss_and_grad(np.zeros_like(q), q)
    assert np.all(np.isfinite(loss)) and np.all(np.isfinite(a))
    np.testing.assert_allclose(p.student_value(q), ref_student(p, q), rtol=1e-12)


@pytest.mark.parametrize("L", [3, 5, 9])
def test_shared_exponential_softmax_and_trace_vjp(L):
    """L ≥ 3: softmax_row(q qᵀ) with one exponential per pair (i, j), on either side of the shared
    shift's limit (max q_l² ≤ 300, else row by row), and the trace reduction's vector–Jacobian
    product, against numpy (A, and H = A (G − Σ_k G_ik A_ik) with G = g I)."""
    rng = np.random.default_rng(L)
    limit = math.sqrt(softmax.SHARED_SHIFT_LIMIT)
    inside = rng.uniform(-1.0, 1.0, (50, L)) * limit
    inside[:, 0] = limit * (1.0 - 1e-9)                   # the shared shift, just inside its limit
    outside = rng.uniform(-1.0, 1.0, (50, L)) * limit
    outside[:, 0] = -limit * (1.0 + 1e-9)                 # row by row, just beyond it
    far = rng.normal(0.0, 30.0, (50, L))
    far[:, 0] = 40.0
    q = np.concatenate([rng.normal(0.0, 1.0, (300, L)), rng.normal(0.0, 6.0, (100, L)), inside, outside, far])
    g = 0.7
    for qi in q:
        A = np.empty((L, L))
        softmax.score_softmax(qi, A)
        ref = attention_matrix(qi[None])[0]
        np.testing.assert_allclose(A, ref, rtol=1e-12, atol=1e-300)
        grad = np.zeros(L)
        softmax.trace_softmax_vjp(qi, A, g, grad)
        G = g * np.eye(L)
        H = ref * (G - (G * ref).sum(axis=1, keepdims=True))
        np.testing.assert_allclose(grad, (H + H.T) @ qi, rtol=1e-10, atol=1e-12 * max(1.0, np.abs(qi).max()))


# --- target values ---------------------------------------------------------------------
def test_target_values_direct_formulas():
    rng = np.random.default_rng(3)
    z = rng.standard_normal((50, 4))
    s2 = math.sqrt(2)

    def g(target, L, **kw):
        return Problem(L=L, target=target, student="matched", **kw).target_value(z[:, :L])

    np.testing.assert_allclose(g("he2_sum", 3), ((z[:, :3] ** 2 - 1) / s2).sum(1), rtol=1e-13)
    he4 = (z ** 4 - 6 * z ** 2 + 3) / math.sqrt(24)
    np.testing.assert_allclose(g("he4_sum", 4), he4.sum(1), rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(g("he4_sum_norm", 4), he4.sum(1) / 2, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(g("he3_sum", 2), ((z[:, :2] ** 3 - 3 * z[:, :2]) / math.sqrt(6)).sum(1), rtol=1e-12)
    np.testing.assert_allclose(g("he1_sum_norm", 4), z.sum(1) / 2, rtol=1e-13)
    np.testing.assert_allclose(g("linear", 3), z[:, :3].sum(1) / math.sqrt(3), rtol=1e-13)
    np.testing.assert_allclose(g("z1z2", 4), z[:, 0] * z[:, 1], rtol=1e-13)
    np.testing.assert_allclose(g("z1z2z3", 4), z[:, 0] * z[:, 1] * z[:, 2], rtol=1e-13)
    np.testing.assert_allclose(g("z1_minus_z2", 3), z[:, 0] - z[:, 1], rtol=1e-13)
    np.testing.assert_allclose(g("he2_diff", 2), (z[:, 0] ** 2 - z[:, 1] ** 2) / s2, rtol=1e-13)
    np.testing.assert_allclose(g("staircase", 3),
                               (z[:, 0] + z[:, 0] * z[:, 1] + z[:, 0] * z[:, 1] * z[:, 2]) / math.sqrt(3),
                               rtol=1e-13)
    # mixture, written out for L = 2: (1−ω) softmax_row(z zᵀ) + ω softmax_row([[a², −a²], [−a², a²]])
    omega, a = 0.37, 1.3
    mix = g("mixture", 2, omega=omega, a=a)
    assert mix.shape == (50, 2, 2)
    z0, z1 = z[:, 0], z[:, 1]
    row0 = np.exp(np.stack([z0 * z0, z0 * z1], 1))
    row1 = np.exp(np.stack([z1 * z0, z1 * z1], 1))
    semantic = np.stack([row0 / row0.sum(1, keepdims=True), row1 / row1.sum(1, keepdims=True)], 1)
    diag = math.exp(a * a) / (math.exp(a * a) + math.exp(-a * a))
    pattern = np.array([[diag, 1 - diag], [1 - diag, diag]])
    np.testing.assert_allclose(mix, (1 - omega) * semantic + omega * pattern, rtol=1e-12)
    np.testing.assert_allclose(mix.sum(2), 1.0, rtol=1e-13)
    # extreme ω
    np.testing.assert_allclose(g("mixture", 2, omega=1.0, a=a), np.broadcast_to(pattern, (50, 2, 2)), rtol=1e-12)
    np.testing.assert_allclose(g("mixture", 2, omega=0.0, a=a), semantic, rtol=1e-12)


def test_hermite_targets_are_orthonormal():
    """E[h_j(z) h_k(z)] = δ_jk for the he{k}_sum targets at L = 1 (Gauss–Hermite, exact)."""
    x, w = hermegauss(30)
    w = w / w.sum()
    values = np.array([Problem(L=1, target=f"he{k}_sum", student="matched").target_value(x[:, None])
                       for k in range(1, 5)])
    gram = values @ np.diag(w) @ values.T
    np.testing.assert_allclose(gram, np.eye(4), atol=1e-12)
    means = values @ w
    np.testing.assert_allclose(means, 0.0, atol=1e-12)


def test_matched_student_is_the_target_link():
    rng = np.random.default_rng(5)
    for target in ("he3_sum", "staircase", "z1z2z3", "mixture"):
        L = 2 if target == "mixture" else 3
        p = Problem(L=L, target=target, student="matched")
        q = rng.standard_normal((20, L))
        np.testing.assert_allclose(p.student_value(q), p.target_value(q), rtol=1e-14)
        loss, a = p.loss_and_grad(q, q)
        np.testing.assert_allclose(loss, 0.0, atol=1e-28)
        np.testing.assert_allclose(a, 0.0, atol=1e-14)


def test_problem_defaults():
    assert Problem(L=2, target="he2_sum", student="attention").reduction == "trace"
    assert Problem(L=2, target="mixture", student="attention").reduction == "identity"
    assert Problem(L=2, target="he2_sum", student="tied").activation == "relu"
    assert Problem(L=2, target="mixture", student="attention").n_out == 4
    assert Problem(L=3, target="linear", student="untied").tied is False


# --- validation --------------------------------------------------------------------------
BAD_PROBLEMS = [
    (dict(L=2, target="nope", student="attention"), r"\btarget="),
    (dict(L=2, target="he2_sum", student="nope"), r"\bstudent="),
    (dict(L=2, target="he2_sum", student="attention", pe="nope"), r"\bpe="),
    (dict(L=2, target="he2_sum", student="attention", reduction="nope"), r"\breduction="),
    (dict(L=2, target="he2_sum", student="tied", activation="nope"), r"\bactivation="),
    (dict(L=2, target="he2_sum", student="untied", activation="softplus"), r"\bactivation="),
    (dict(L=2, target="mixture", student="attention", omega=1.5), r"\bomega="),
    (dict(L=2, target="mixture", student="attention", omega=-0.1), r"\bomega="),
    (dict(L=2, target="mixture", student="attention", omega=float("nan")), r"\bomega="),
    (dict(L=2, target="mixture", student="attention", a=float("inf")), r"\ba="),
    (dict(L=0, target="linear", student="tied"), r"\bL="),
    (dict(L=2.0, target="linear", student="tied"), r"\bL="),
    (dict(L=1, target="z1z2", student="attention"), r"\bL="),
    (dict(L=2, target="z1z2z3", student="tied"), r"\bL="),
    (dict(L=2, target="staircase", student="matched"), r"\bL="),
    (dict(L=3, target="mixture", student="attention"), r"\bL="),
    (dict(L=3, target="he2_sum", student="attention", pe="opposite"), r"\bpe="),
    (dict(L=3, target="he2_sum", student="untied", pe="orthonormal"), r"\bpe="),
    (dict(L=2, target="he2_sum", student="untied", pe="opposite"), r"\bpe="),
    (dict(L=2, target="he2_sum", student="tied", reduction="trace"), r"\breduction="),
    (dict(L=2, target="he2_sum", student="matched", reduction="identity"), r"\breduction="),
    (dict(L=2, target="mixture", student="attention", reduction="trace"), r"\breduction="),
    (dict(L=2, target="he2_sum", student="attention", reduction="identity"), r"\breduction="),
    (dict(L=2, target="he2_sum", student="attention", activation="relu"), r"\bactivation="),
    (dict(L=2, target="mixture", student="tied"), r"\bstudent="),
    (dict(L=2, target="he2_sum", student="attention", reduction="projection", proj_left=(1.0, 2.0, 3.0)),
     r"\bproj_left\b"),
    (dict(L=2, target="he2_sum", student="attention", reduction="projection", proj_right=(1.0, float("nan"))),
     r"\bproj_right\b"),
    (dict(L=2, target="he2_sum", student="attention", reduction="trace", proj_left=(1.0, 0.0)), r"\bproj_left"),
]


@pytest.mark.parametrize("kwargs, name", BAD_PROBLEMS,
                         ids=[f"{i}-{n.strip(chr(92)).strip('b=')}" for i, (_, n) in enumerate(BAD_PROBLEMS)])
def test_problem_rejects_bad_input(kwargs, name):
    with pytest.raises(ValueError, match=name):
        Problem(**kwargs)


def test_unknown_name_lists_allowed_values():
    with pytest.raises(ValueError, match="allowed: .*he2_sum"):
        Problem(L=2, target="he5_sum", student="attention")
    with pytest.raises(ValueError, match="allowed: .*relu"):
        Problem(L=2, target="linear", student="tied", activation="gelu")


def test_loss_and_grad_rejects_bad_shapes():
    p = Problem(L=2, target="he2_sum", student="attention")
    with pytest.raises(ValueError, match="zstar and q"):
        p.loss_and_grad(np.zeros((3, 2)), np.zeros((3, 3)))
