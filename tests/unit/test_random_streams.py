"""The law of ssi.random_streams (docs/theory.md, "Random streams"): raw bits, moments, KS tests,
independence across replicates and chunks, determinism of the reduced engine."""
from __future__ import annotations

import math

import numpy as np
import pytest
from numba import njit
from scipy import stats

from ssi import Problem, random_streams, simulate
from ssi.sgd import reduced

#: moment tolerances in standard errors
K_SE = 5.0


def stream(*key):
    return random_streams.seed_state(np.random.SeedSequence(12345, spawn_key=key))


@pytest.mark.parametrize("key", [(0,), (1, 0), (7, 3)])
def test_raw_output_is_numpys_sfc64(key):
    reference = np.random.SFC64(np.random.SeedSequence(12345, spawn_key=key)).random_raw(10_000)
    state = stream(*key)
    first = random_streams.raw(state, 4_000)
    second = random_streams.raw(state, 6_000)           # the state carries over between calls
    assert np.array_equal(np.concatenate([first, second]), reference)


def test_ziggurat_tables_cover_equal_areas():
    _, w, f = random_streams.ziggurat_tables()
    x = np.append(w * 2.0 ** 52, 0.0)
    areas = x[1:-1] * (f[2:] - f[1:-1])                  # layers 1 … 255
    base = x[0] * f[0]
    assert np.allclose(areas, base, rtol=1e-9, atol=0)
    assert np.all(np.diff(x) < 0) and f[-1] == 1.0


def _moment_z(samples, moment, exact_mean, exact_var):
    """(sample mean of ``moment(samples)`` − exact) in standard errors."""
    values = moment(samples)
    return (values.mean() - exact_mean) / math.sqrt(exact_var / len(values))


def test_normal_moments():
    z = random_streams.normals(stream(1), 4_000_000)
    # E z = 0 (var 1), E z² = 1 (var 2), E z⁴ = 3 (var 105 − 9 = 96), E z³ = 0 (var 15)
    assert abs(_moment_z(z, lambda v: v, 0.0, 1.0)) < K_SE
    assert abs(_moment_z(z, lambda v: v * v, 1.0, 2.0)) < K_SE
    assert abs(_moment_z(z, lambda v: v ** 3, 0.0, 15.0)) < K_SE
    assert abs(_moment_z(z, lambda v: v ** 4, 3.0, 96.0)) < K_SE


def test_normal_tails():
    """P(|z| > r) (the ziggurat's tail branch) and P(|z| > 4) match within K_SE binomial SEs."""
    z = random_streams.normals(stream(2), 4_000_000)
    for level in (3.6541528853610088, 4.0):
        p = 2 * stats.norm.sf(level)
        count = np.count_nonzero(np.abs(z) > level)
        assert abs(count - p * len(z)) < K_SE * math.sqrt(p * (1 - p) * len(z))


# the kernels' χ² degrees of freedom d − r − 1 (tied) and d − 2 (untied) at small and large d
@pytest.mark.parametrize("dof", [1, 2, 3, 7, 997, 99_997])
def test_chi2_moments(dof):
    c = random_streams.chi2s(stream(3, dof), 2_000_000, float(dof))
    k = float(dof)
    # E c = k (var 2k); E c² = k(k + 2) (var E c⁴ − (E c²)², E c⁴ = k(k+2)(k+4)(k+6))
    assert abs(_moment_z(c, lambda v: v, k, 2 * k)) < K_SE
    m4 = k * (k + 2) * (k + 4) * (k + 6)
    assert abs(_moment_z(c, lambda v: v * v, k * (k + 2), m4 - (k * (k + 2)) ** 2)) < K_SE


@njit
def _marsaglia_tsang(state, n, shape):
    """n gamma(shape) draws (shape > 1) with Marsaglia and Tsang's squeeze alone before the exact test."""
    b = shape - 1.0 / 3.0
    c = 1.0 / math.sqrt(9.0 * b)
    out = np.empty(n)
    s0, s1, s2, s3 = random_streams.load(state)
    for i in range(n):
        while True:
            s0, s1, s2, s3, x = random_streams.normal(s0, s1, s2, s3)
            v = 1.0 + c * x
            if v <= 0.0:
                continue
            v = v * v * v
            s0, s1, s2, s3, u = random_streams.uniform(s0, s1, s2, s3)
            xx = x * x
            if u < 1.0 - 0.0331 * xx * xx or math.log(u) < 0.5 * xx + b * (1.0 - v + math.log(v)):
                out[i] = b * v
                break
    random_streams.store(state, s0, s1, s2, s3)
    return out


@pytest.mark.parametrize("shape", [1.05, 1.5, 3.5, 498.5, 49_998.5])
def test_gamma_squeeze_keeps_the_exact_tests_draws(shape):
    # the second squeeze accepts only what the exact test accepts: the same draws, bit for bit
    draws = random_streams.chi2s(stream(8, 1), 1_000_000, 2.0 * shape) / 2.0
    reference = _marsaglia_tsang(stream(8, 1), 1_000_000, shape)
    assert draws.tobytes() == reference.tobytes()


def test_gamma_squeeze_is_inside_the_exact_acceptance_region():
    # at the squeeze's edge (U just below 1 − κ b y⁴ − μ (1 + b), |y| ≤ 0.1), in floating point
    rng = np.random.default_rng(3)
    for b in (0.7, 3.2, 497.0, 5e5, 5e7):
        c = 1.0 / math.sqrt(9.0 * b)
        reach = min(8.0, random_streams._SQUEEZE_Y / c)       # the normal's range, within |y| ≤ 0.1
        x = rng.uniform(-reach, reach, 20_000)
        y = c * x
        v = 1.0 + y
        v = v * v * v
        edge = 1.0 - random_streams._SQUEEZE_KAPPA * b * y ** 4 - random_streams._SQUEEZE_MU * (1.0 + b)
        keep = edge > 0.0                           # where the squeeze can accept a uniform
        assert keep.mean() > 0.3
        x, y, v, edge = x[keep], y[keep], v[keep], edge[keep]
        u = np.nextafter(edge, 0.0)
        assert np.all(np.log(u) < 0.5 * x * x + b * (1.0 - v + np.log(v)))
        # the bound is tight enough to matter: with κ/2 the squeeze would accept draws the exact test rejects
        half = 1.0 - 0.5 * random_streams._SQUEEZE_KAPPA * b * y ** 4
        assert not np.all(np.log(half) < 0.5 * x * x + b * (1.0 - v + np.log(v)))


def test_normal_histogram():
    """Pearson χ² over 200 bins of width 0.05 on [−5, 5] (and the two tails), 4·10⁶ draws: a
    local error of one ziggurat layer (width 1/256 of the mass) shows here, not in the moments."""
    z = random_streams.normals(stream(8), 4_000_000)
    edges = np.concatenate([[-np.inf], np.linspace(-5.0, 5.0, 201), [np.inf]])
    observed = np.histogram(z, edges)[0]
    expected = len(z) * np.diff(stats.norm.cdf(edges))
    keep = expected > 20
    assert stats.chisquare(observed[keep], expected[keep] * observed[keep].sum() / expected[keep].sum()).pvalue > 1e-3


def test_normal_ks():
    z = random_streams.normals(stream(4), 1_000_000)
    assert stats.kstest(z, "norm").pvalue > 1e-3


@pytest.mark.parametrize("dof", [1, 3, 10, 997])
def test_chi2_ks(dof):
    c = random_streams.chi2s(stream(5, dof), 1_000_000, float(dof))
    assert stats.kstest(c, "chi2", args=(dof,)).pvalue > 1e-3


def test_adjacent_replicates_are_uncorrelated():
    """Normals of adjacent replicates' streams (the engine's keys (k, 0)): correlation within K_SE/√n."""
    n = 1_000_000
    states = random_streams.replicate_states([np.random.SeedSequence(9, spawn_key=(k, 0)) for k in range(4)])
    draws = [random_streams.normals(states[k], n) for k in range(4)]
    for k in range(3):
        assert abs(np.corrcoef(draws[k], draws[k + 1])[0, 1]) < K_SE / math.sqrt(n)
    # and a lag-1 correlation within one stream (successive draws, successive blocks)
    assert abs(np.corrcoef(draws[0][:-1], draws[0][1:])[0, 1]) < K_SE / math.sqrt(n)


def test_chunked_draws_are_the_same_bits():
    whole = random_streams.normals(stream(6), 100_000)
    state = stream(6)
    parts = [random_streams.normals(state, n) for n in (1, 999, 33_000, 66_000)]
    assert np.array_equal(np.concatenate(parts), whole)


# --- the reduced engine: same seed, same bytes, whatever the split -----------------------------
PROBLEMS = [dict(L=2, target="he2_sum", student="attention", reduction="trace", pe="opposite"),
            dict(L=3, target="he2_sum", student="untied", activation="relu")]


@pytest.mark.parametrize("spec", PROBLEMS)
def test_engine_is_deterministic_whatever_threads_chunks_and_blocks(spec, monkeypatch):
    problem = Problem(**spec)
    kwargs = dict(d=50, lr=0.1, steps=3_000, seed=(4, 2), record=[0, 1_000, 3_000])
    base = simulate(problem, replicates=4, **kwargs)
    threaded = simulate(problem, replicates=4, threads=2, **kwargs)
    blocks = [simulate(problem, replicates=2, replicate_offset=o, **kwargs) for o in (0, 2)]
    monkeypatch.setattr(reduced, "CHUNK_STEPS", 7)
    chunked = simulate(problem, replicates=4, **kwargs)
    for other in (threaded, chunked):
        assert other.m.tobytes() == base.m.tobytes()
    assert np.concatenate([b.m for b in blocks]).tobytes() == base.m.tobytes()
    assert base.m[:, -1].std() > 0                          # the replicates differ


def test_engine_streams_are_keyed_by_seed_and_replicate():
    """Replicate k's stream: SFC64 of SeedSequence(seed, spawn_key=(k, 0))."""
    from ssi.sgd.common import replicate_generators

    streams = reduced.replicate_streams(replicate_generators((4, 2), 3, replicate_offset=5))
    for i in range(3):
        expected = np.random.SFC64(np.random.SeedSequence([4, 2], spawn_key=(5 + i, 0))).random_raw(5)
        assert np.array_equal(random_streams.raw(streams[i].copy(), 5), expected)
