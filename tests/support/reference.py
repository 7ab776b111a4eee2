"""Reference implementations the tests compare the package with, written independently of it.

* numpy targets, students and losses straight from the formulas of docs/theory.md, "Model and
  conventions", and central finite differences (tests/unit/test_links.py,
  tests/unit/test_authors_conventions.py);
* plain Monte Carlo of the population expectations (docs/theory.md, "Sufficient statistics and
  population loss"; tests/unit/test_population.py);
* the two-sample comparison of laws used between SGD engines: means and standard deviations
  within ``N_SE`` standard errors, a Kolmogorov–Smirnov test at level ``KS_LEVEL``
  (tests/unit/sgd/test_simulators.py explains the error rates).
"""
from __future__ import annotations

import math

import numpy as np
from numpy.polynomial.hermite_e import hermeval
from scipy import stats

from ssi import Problem

#: central finite-difference step
FD_STEP = 1e-5
#: Monte Carlo sample size of ``mc_moments``
N_MC = 1_000_000
#: agreement required between two laws, in standard errors (mean and standard deviation)
N_SE = 4.0
#: a two-sample KS test must not reject at this level
KS_LEVEL = 1e-3
#: a law comparison counts only if the law moved by more than this many standard errors
MOVE_SE = 10.0


def softmax_rows(s):
    """Row softmax of a stack of matrices (..., L, L), stabilised by the row maximum."""
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)


def attention_matrix(q):
    return softmax_rows(q[:, :, None] * q[:, None, :])


def h_orthonormal(k, x):
    """h_k = He_k/√(k!) (numpy's HermiteE series, independent of links.hermite_he)."""
    coef = np.zeros(k + 1)
    coef[k] = 1.0
    return hermeval(x, coef) / math.sqrt(math.factorial(k))


def positional_pattern(a):
    a2 = a * a
    return softmax_rows(np.array([[a2, -a2], [-a2, a2]]))


def ref_target(p: Problem, z):
    """g(z) for z (n, L): (n,) or (n, L, L), straight from the formulas of the registry."""
    name, L = p.target, p.L
    if name == "linear":
        return z.sum(1) / math.sqrt(L)
    if name == "he4_sum_plus_diff":
        return -(h_orthonormal(4, z[:, 0]) + h_orthonormal(4, z[:, 1])) + (z[:, 0] - z[:, 1]) / math.sqrt(2)
    if name.startswith("he") and "_sum" in name:
        k = int(name[2])
        s = h_orthonormal(k, z).sum(1)
        return s / math.sqrt(L) if name.endswith("_norm") else s
    if name == "z1z2":
        return z[:, 0] * z[:, 1]
    if name == "z1z2z3":
        return z[:, 0] * z[:, 1] * z[:, 2]
    if name == "z1_minus_z2":
        return z[:, 0] - z[:, 1]
    if name == "he2_diff":
        return (z[:, 0] ** 2 - z[:, 1] ** 2) / math.sqrt(2)
    if name == "staircase":
        return (z[:, 0] + z[:, 0] * z[:, 1] + z[:, 0] * z[:, 1] * z[:, 2]) / math.sqrt(3)
    if name == "mixture":
        return (1 - p.omega) * attention_matrix(z) + p.omega * positional_pattern(p.a)
    return ref_scalable_target(name, z)


def ref_scalable_target(name, z):
    """The targets added for the authors' conventions (unscaled: target_scale = 1)."""
    if name == "z1":
        return z[:, 0]
    if name == "z1_plus_z2":
        return z[:, 0] + z[:, 1]
    if name == "staircase2":
        return z[:, 0] + z[:, 0] * z[:, 1]
    if name == "staircase3":
        return z[:, 0] + z[:, 0] * z[:, 1] + z[:, 0] * z[:, 1] * z[:, 2]
    if name == "complete_staircase":
        return z[:, 0] * np.prod(1 + z[:, 1:], axis=1)
    raise AssertionError(f"no reference for target {name}")


def activation(name, h):
    return {"relu": np.maximum(h, 0), "identity": h, "square": h ** 2,
            "he2": (h ** 2 - 1) / math.sqrt(2), "tanh": np.tanh(h), "sigmoid": 1 / (1 + np.exp(-h))}[name]


def ref_student(p: Problem, q):
    L = p.L
    if p.student == "attention":
        A = attention_matrix(q)
        if p.reduction == "identity":
            return A
        if p.reduction == "trace":
            return np.trace(A, axis1=1, axis2=2) / math.sqrt(L)
        u = np.full(L, 1 / math.sqrt(L)) if p.proj_left is None else np.asarray(p.proj_left)
        v = np.full(L, 1 / math.sqrt(L)) if p.proj_right is None else np.asarray(p.proj_right)
        return np.einsum("i,nij,j->n", u, A, v)
    if p.student in ("tied", "untied"):
        return activation(p.activation, q.sum(1) / math.sqrt(L))
    return ref_target(p, q)                                     # matched


def ref_loss(p: Problem, z, q):
    r = ref_student(p, q) - ref_target(p, z)
    return 0.5 * (r.reshape(len(q), -1) ** 2).sum(1)


def central_difference(loss, q, h=FD_STEP):
    """∂loss/∂q_l by central differences, for a vectorised loss of q (n, L)."""
    grad = np.empty_like(q)
    for l in range(q.shape[1]):
        step = np.zeros(q.shape[1])
        step[l] = h
        grad[:, l] = (loss(q + step) - loss(q - step)) / (2 * h)
    return grad



def mc_moments(problem, m, e_tokens=None, Q=None, *, n=N_MC, seed=0, convention="spec"):
    """Plain Monte Carlo of (ℓ, a z*, a q, a ξ, a, a²); returns means and standard errors.

    ``convention`` other than "spec" deliberately breaks the state convention (used to
    check that the comparison has power).
    """
    rng = np.random.default_rng(seed)
    L = problem.L
    zs = rng.standard_normal((n, L))
    xi = rng.standard_normal((n, L))
    zs.flags.writeable = xi.flags.writeable = False
    if problem.tied:
        s = math.sqrt(1 - m * m)
        if convention == "1-m":
            s = 1 - abs(m)
        z = m * zs + s * xi
        e = np.zeros(L) if e_tokens is None else np.asarray(e_tokens, float)
        q = z + (-e if convention == "e-sign" else e)
    else:
        c = np.sqrt(Q - m * m) if convention == "spec" else np.sqrt(Q)
        z = m * zs + c * xi
        q = z
    loss, a = problem.loss_and_grad(zs, q)
    means, errors = [], []
    for X in (loss[:, None], a * zs, a * q, a * xi, a, a * a):
        mean = X.mean(0)
        var = np.einsum("ij,ij->j", X, X) / n - mean * mean
        means.append(mean)
        errors.append(np.sqrt(np.maximum(var, 0.0) / n))
    return np.concatenate(means), np.concatenate(errors)


def statistics(run):
    """{name: (R, K) samples} of the statistics compared between engines."""
    out = {"m": run.m}
    if run.problem.pe != "none":
        out["e"] = run.e
    if run.m_tokens is not None:
        for l in range(run.problem.L):
            out[f"m_{l + 1}"] = run.m_tokens[:, :, l]
            out[f"Q_{l + 1}"] = run.Q_tokens[:, :, l]
    return out


def std_and_se(x):
    """Sample standard deviation and its delta-method standard error (no normality assumed)."""
    n = len(x)
    s = x.std(ddof=1)
    mu4 = np.mean((x - x.mean()) ** 4)
    var_s2 = max(mu4 - s ** 4, 0.0) / n
    return s, math.sqrt(var_s2) / (2 * s) if s > 0 else 0.0


def compare_samples(x, y):
    """(mean z-score, std z-score, KS p-value) of two samples; None when both are one constant."""
    if max(np.ptp(x), np.ptp(y)) <= 1e-12:          # a prescribed start (up to round-off)
        if abs(x.mean() - y.mean()) <= 1e-12:
            return None
        return math.inf, math.inf, 0.0
    se_mean = math.sqrt(x.var(ddof=1) / len(x) + y.var(ddof=1) / len(y))
    sx, ex = std_and_se(x)
    sy, ey = std_and_se(y)
    z_mean = abs(x.mean() - y.mean()) / se_mean
    z_std = abs(sx - sy) / math.hypot(ex, ey) if (ex or ey) else (0.0 if sx == sy else math.inf)
    return z_mean, z_std, stats.ks_2samp(x, y).pvalue


def law_differences(run_a, run_b):
    """Every (statistic, record) where the two runs' laws differ by the criteria of the module docstring."""
    assert np.array_equal(run_a.steps, run_b.steps)
    sa, sb = statistics(run_a), statistics(run_b)
    failures = []
    for name in sa:
        for k, step in enumerate(run_a.steps):
            result = compare_samples(sa[name][:, k], sb[name][:, k])
            if result is None:
                continue
            z_mean, z_std, p = result
            if z_mean > N_SE or z_std > N_SE or p < KS_LEVEL:
                failures.append(f"{name} at step {step}: mean {z_mean:.1f} SE, std {z_std:.1f} SE, KS p={p:.1e}")
    return failures


def movement(samples):
    """How far the law moved between the first and last record, in SE of mean and of std."""
    first, last = samples[:, 0], samples[:, -1]
    se_mean = math.sqrt(first.var(ddof=1) / len(first) + last.var(ddof=1) / len(last))
    s0, e0 = std_and_se(first)
    s1, e1 = std_and_se(last)
    return abs(last.mean() - first.mean()) / se_mean, abs(s1 - s0) / math.hypot(e0, e1)
