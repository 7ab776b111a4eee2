"""Exact dimension-free SGD (docs/theory.md, "The reduced simulator"), compiled with numba.

Fresh isotropic Gaussian tokens are invariant under the rotations that fix the
span S of w* and the PE vectors, so the law of one SGD step depends on w only
through its coordinates μ in an orthonormal basis of S (dimension r) and the
norm ρ of its component orthogonal to S (both scaled by 1/√d: |μ|² + ρ² = 1).
One step draws, per token, the r + 1 coordinates of x_l on S and on the current
orthogonal direction u; the remaining d − r − 1 coordinates enter only through
the squared norm of Σ_l a_l x_l⊥, which is exactly |a|² χ²_{d−r−1}/d (one can
also write it as aᵀKa with K Wishart; for a fixed a the two laws coincide, and one
χ² draw is cheaper than a Bartlett decomposition). Cost per step: O(L r) and
independent of d.

Untied students: one block per token (basis w*/√d, orthogonal norm ρ_l,
remainder a_l² χ²_{d−2}/d), renormalised jointly to Σ_l (μ_l² + ρ_l²) = L.

The kernels below are generic in the problem (codes read at run time). The tied L = 2 attention
problems, the tied feed-forward ones and the matched students on He_k sums without PE, and the
untied feed-forward ones go to kernels written out for them (:mod:`ssi.sgd.tied2`,
:mod:`ssi.sgd.tied_ff`, :mod:`ssi.sgd.tied_matched`, :mod:`ssi.sgd.untied_ff`: state and gradient in
scalars, the problem's constants read once per call), and the engine advances their
replicates two at a time (the two steps are independent, so the processor overlaps them); each
replicate's numbers are the generic kernels' bit for bit, whatever the pairing. Attention with the
trace reduction at L ≥ 3 without PE goes to :mod:`ssi.sgd.tied_attention` (unpaired: its step is
bound by the L² exponentials).
"""
from __future__ import annotations

import functools
import math
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit

from ..codes import LOSS_HALF_SQUARE, S_ATTENTION, S_FEEDFORWARD, S_MATCHED, T_CUSTOM, T_MIXTURE
from ..escape import crossed
from ..kernels import compiled_kernels, rebind, user_functions
from ..links import (
    attention2_mixture_loss_and_grad,
    attention2_scalar_loss_and_grad,
    loss_and_grad,
)
from ..random_streams import (
    any_gamma,
    gamma_constants,
    load,
    normal,
    replicate_states,
    store,
)
from ..target_links import target_scalar
from .common import initial_signs, pe_coordinates
from .feedforward import covers as covers_untied
from .tied2 import advance_tied2, covers, paired_kernel
from .tied_attention import advance_tied_attention
from .tied_attention import covers as covers_tied_attention
from .tied_ff import advance_tied_ff, advance_tied_ff_pair
from .tied_ff import covers as covers_tied_ff
from .tied_matched import advance_tied_matched, advance_tied_matched_pair
from .tied_matched import covers as covers_tied_matched
from .untied_ff import advance_untied_ff, advance_untied_ff_pair, renormalised_sum

#: most steps of one replicate per compiled call. A compiled loop does not return to the
#: interpreter, so Python's handlers for SIGINT/SIGTERM (Ctrl-C, Snakemake cancelling a job)
#: run only between calls; 2¹⁸ steps take ~0.05 s. The numbers do not depend on it (each
#: replicate's stream is drawn in order whatever the split).
CHUNK_STEPS = 1 << 18


@njit(cache=True)
def _any_loss_and_grad(tcode, tparams, scode, sparams, zstar, q, a, mats, lcode):
    # not inlined: keeps the other problems' code out of the hot loop of the paper's L = 2 cases
    return loss_and_grad(tcode, tparams, scode, sparams, zstar, q, a, mats, lcode)


@njit(inline="always")
def step_loss(tcode, tparams, scode, sparams, zstar, q, a, mats, lcode):
    """:func:`ssi.links.loss_and_grad`, the same operations, with the L = 2 attention student's
    half-square loss inlined and every other case behind a call (a small hot loop runs faster)."""
    if lcode == LOSS_HALF_SQUARE and scode == S_ATTENTION and q.shape[0] == 2 and tcode != T_CUSTOM:
        if tcode == T_MIXTURE:
            return attention2_mixture_loss_and_grad(tparams, zstar, q, a)
        return attention2_scalar_loss_and_grad(sparams, target_scalar(tcode, tparams, zstar), q, a)
    return _any_loss_and_grad(tcode, tparams, scode, sparams, zstar, q, a, mats, lcode)


@njit(nogil=True, cache=True)
def advance_tied(stream, state, n_steps, d, lr, pe, tcode, tparams, scode, sparams, lcode, threshold, crossing,
                 step0):
    """Advance one replicate of a tied student by ``n_steps`` SGD steps, in place.

    ``state`` = (μ_0 = m, μ_1..μ_k = PE-basis coordinates, ρ); ``pe`` is the (L, k)
    matrix of the PE vectors' coordinates. ``crossing[0]`` receives the first step
    at which |m| ≥ threshold (if still negative).
    """
    L = pe.shape[0]
    k = pe.shape[1]
    if covers(L, k, tcode, scode == S_ATTENTION):
        advance_tied2(stream, state, n_steps, d, lr, pe, tcode, tparams, sparams, lcode, threshold, crossing, step0)
        return
    if covers_tied_ff(k, tcode, scode == S_FEEDFORWARD, int(sparams[0])):
        advance_tied_ff(stream, state, n_steps, d, lr, pe, tcode, tparams, sparams, lcode, threshold, crossing, step0)
        return
    if covers_tied_attention(L, k, tcode, scode == S_ATTENTION, int(sparams[0])):
        advance_tied_attention(stream, state, n_steps, d, lr, pe, tcode, tparams, sparams, lcode, threshold, crossing,
                               step0)
        return
    if covers_tied_matched(k, tcode, scode == S_MATCHED):
        advance_tied_matched(stream, state, n_steps, d, lr, pe, tcode, tparams, sparams, lcode, threshold, crossing,
                             step0)
        return
    r = k + 1
    mu = state[:r]
    rho = state[r]
    noise = np.empty((L, r))
    noise_perp = np.empty(L)
    zstar = np.empty(L)
    q = np.empty(L)
    a = np.empty(L)
    mats = np.zeros((4, L, L))
    step = lr / d
    rest_shape = 0.5 * (d - r - 1)
    gamma_b, gamma_c = gamma_constants(rest_shape)
    s0, s1, s2, s3 = load(stream)
    for t in range(n_steps):
        for l in range(L):
            s = 0.0
            for j in range(r):
                s0, s1, s2, s3, v = normal(s0, s1, s2, s3)
                noise[l, j] = v
                s += v * mu[j]
            s0, s1, s2, s3, v = normal(s0, s1, s2, s3)
            noise_perp[l] = v
            positional = 0.0
            for j in range(k):
                positional += pe[l, j] * mu[1 + j]
            zstar[l] = noise[l, 0]
            q[l] = s + v * rho + positional
        step_loss(tcode, tparams, scode, sparams, zstar, q, a, mats, lcode)
        a_sq = 0.0
        along_u = 0.0
        for l in range(L):
            a_sq += a[l] * a[l]
            along_u += a[l] * noise_perp[l]
            for j in range(r):
                mu[j] -= step * a[l] * noise[l, j]
            for j in range(k):
                mu[1 + j] -= step * a[l] * pe[l, j]
        rho_u = rho - step * along_u
        if a_sq > 0.0:
            s0, s1, s2, s3, g = any_gamma(s0, s1, s2, s3, rest_shape, gamma_b, gamma_c)
            rho = math.sqrt(rho_u * rho_u + 2.0 * step * step * a_sq * g)
        else:
            rho = abs(rho_u)
        norm = rho * rho
        for j in range(r):
            norm += mu[j] * mu[j]
        inverse = 1.0 / math.sqrt(norm)
        for j in range(r):
            mu[j] *= inverse
        rho *= inverse
        crossing[0] = crossed(crossing[0], mu[0], threshold, step0 + t + 1)
    state[r] = rho
    store(stream, s0, s1, s2, s3)


@njit(nogil=True, cache=True)
def advance_untied(stream, state, n_steps, d, lr, tcode, tparams, scode, sparams, lcode, threshold, crossing, step0):
    """Advance one replicate of an untied student by ``n_steps`` SGD steps, in place.

    ``state`` = (μ_1..μ_L, ρ_1..ρ_L) with m_l = μ_l and Q_l = μ_l² + ρ_l².
    ``crossing[0]`` receives the first step at which |mean_l m_l| ≥ threshold.
    """
    if covers_untied(tcode, scode == S_FEEDFORWARD, int(sparams[0])):
        advance_untied_ff(stream, state, n_steps, d, lr, tcode, tparams, sparams, lcode, threshold, crossing, step0)
        return
    L = state.shape[0] // 2
    mu = state[:L]
    rho = state[L:]
    n_star = np.empty(L)
    n_perp = np.empty(L)
    q = np.empty(L)
    a = np.empty(L)
    mats = np.zeros((4, L, L))
    step = lr / d
    rest_shape = 0.5 * (d - 2)
    gamma_b, gamma_c = gamma_constants(rest_shape)
    s0, s1, s2, s3 = load(stream)
    for t in range(n_steps):
        for l in range(L):
            s0, s1, s2, s3, n_star[l] = normal(s0, s1, s2, s3)
            s0, s1, s2, s3, n_perp[l] = normal(s0, s1, s2, s3)
            q[l] = mu[l] * n_star[l] + rho[l] * n_perp[l]
        loss_and_grad(tcode, tparams, scode, sparams, n_star, q, a, mats, lcode)
        norm = 0.0
        for l in range(L):
            mu[l] -= step * a[l] * n_star[l]
            rho_u = rho[l] - step * a[l] * n_perp[l]
            if a[l] != 0.0:
                s0, s1, s2, s3, g = any_gamma(s0, s1, s2, s3, rest_shape, gamma_b, gamma_c)
                rho[l] = math.sqrt(rho_u * rho_u + 2.0 * step * step * a[l] * a[l] * g)
            else:
                rho[l] = abs(rho_u)
            norm += mu[l] * mu[l] + rho[l] * rho[l]
        m = renormalised_sum(mu, rho, norm)
        crossing[0] = crossed(crossing[0], m / L, threshold, step0 + t + 1)
    store(stream, s0, s1, s2, s3)


#: the registry's kernels, as compiled here (the engine pairs replicates only with them)
REGISTRY_KERNELS = (advance_tied, advance_untied)


def pair_kernel(problem, kernels):
    """The kernel that advances two of ``problem``'s replicates at once
    (:func:`ssi.sgd.tied2.advance_tied2_pair`, :func:`ssi.sgd.tied_ff.advance_tied_ff_pair`,
    :func:`ssi.sgd.tied_matched.advance_tied_matched_pair`, :func:`ssi.sgd.untied_ff.advance_untied_ff_pair`),
    or None: the registry's kernels ``kernels`` hand the problem to the kernel that it pairs."""
    if kernels[0] is not REGISTRY_KERNELS[0] or kernels[1] is not REGISTRY_KERNELS[1]:
        return None
    tcode, _, scode, sparams = problem.codes
    if problem.tied:
        if covers.py_func(problem.L, problem.subspace_dim - 1, tcode, scode == S_ATTENTION):
            return paired_kernel(tcode)
        if covers_tied_ff.py_func(problem.subspace_dim - 1, tcode, scode == S_FEEDFORWARD, int(sparams[0])):
            return advance_tied_ff_pair
        if covers_tied_matched.py_func(problem.subspace_dim - 1, tcode, scode == S_MATCHED):
            return advance_tied_matched_pair
        return None
    if covers_untied.py_func(tcode, scode == S_FEEDFORWARD, int(sparams[0])):
        return advance_untied_ff_pair
    return None


def advance_kernels(problem):
    """``(advance_tied, advance_untied)`` for ``problem``: the registry's kernels (looked up at each
    call, so that a test can monkeypatch them), or copies compiled with a user's target or
    activation inlined (:mod:`ssi.kernels`). The problem must have compiled kernels."""
    key = user_functions(problem)
    if key is None:
        return advance_tied, advance_untied
    return _user_advance_kernels(*key)


@functools.lru_cache(maxsize=32)
def _user_advance_kernels(spec, L, matched, activation):
    loss_and_grad = compiled_kernels(spec, L, matched, activation).loss_and_grad
    return (rebind(advance_tied, step_loss=loss_and_grad),
            rebind(advance_untied, loss_and_grad=loss_and_grad))


def initial_state(problem, d, rng, m0, e_tokens, init=None):
    """Initial reduced state of one replicate (exact marginals of the uniform sphere).

    Random initialisation (m0 None): tied, the w*-coordinate of a uniform point of
    the sphere, with PE orthogonal to w(0) (e = 0, the authors' construction);
    untied, a uniform point of the sphere |W|²_F = L d. ``init`` (an
    :class:`~ssi.sgd.common.AuthorsInit`) gives the authors' starts instead.
    """
    L = problem.L
    if init is not None:
        return _authors_state(problem, d, rng, init)
    if problem.tied:
        r = problem.subspace_dim
        state = np.zeros(r + 1)
        if m0 is None:
            g = rng.standard_normal()
            rest = 2.0 * rng.standard_gamma(0.5 * (d - 1))
            state[0] = g / math.sqrt(g * g + rest)
        else:
            state[0] = float(m0)
            state[1:r] = pe_coordinates(problem, e_tokens)
        state[r] = math.sqrt(max(0.0, 1.0 - state[:r] @ state[:r]))
        return state
    state = np.zeros(2 * L)
    if m0 is None:
        g = rng.standard_normal(L)
        rest = 2.0 * rng.standard_gamma(0.5 * (d - 1), size=L)
        scale = math.sqrt(L / (g @ g + rest.sum()))
        state[:L] = g * scale
        state[L:] = np.sqrt(rest) * scale
    else:
        state[:L] = np.broadcast_to(m0, (L,))
        state[L:] = np.sqrt(1.0 - state[:L] ** 2)
    return state


def _authors_state(problem, d, rng, init):
    """Reduced state of the authors' starts: per token block m_l and Q_l = 1 (tied: e = 0)."""
    L = problem.L
    n = 1 if problem.tied else L
    if init.kind == "overlapped":
        m = init.m0 * initial_signs(rng, n, init.randomsign)
        rho = np.full(n, math.sqrt(1.0 - init.m0 * init.m0))
    else:                  # "random": each block uniform on its own sphere
        g = rng.standard_normal(n)
        rest = 2.0 * rng.standard_gamma(0.5 * (d - 1), size=n)
        norm = np.sqrt(g * g + rest)
        m, rho = g / norm, np.sqrt(rest) / norm
    if problem.tied:
        state = np.zeros(problem.subspace_dim + 1)
        state[0], state[-1] = m[0], rho[0]
        return state
    return np.concatenate([m, rho])


def replicate_streams(rngs):
    """The per-step random streams of the replicates whose initial conditions ``rngs`` draw:
    replicate i's stream is seeded with the child ``SeedSequence(seed, spawn_key=(k, 0))`` of its
    generator's ``SeedSequence(seed, spawn_key=(k,))`` (docs/theory.md, "Random streams")."""
    sequences = [rng.bit_generator.seed_seq for rng in rngs]
    return replicate_states([np.random.SeedSequence(seq.entropy, spawn_key=(*seq.spawn_key, 0)) for seq in sequences])


def observe(problem, states):
    """(m, e_tokens, m_tokens, Q_tokens) of reduced states, shape (R, n_state)."""
    L = problem.L
    if problem.tied:
        r = problem.subspace_dim
        return states[:, 0].copy(), states[:, 1:r] @ problem.pe_matrix().T, None, None
    mu, rho = states[:, :L], states[:, L:]
    return mu.mean(axis=1), np.zeros_like(mu), mu.copy(), mu ** 2 + rho ** 2


class ReducedEngine:
    """Runs replicates of the reduced simulator block by block (between records)."""

    def __init__(self, problem, d, lr, rngs, m0, e_tokens, threshold, threads=1, init=None):
        if problem.kernels is None:
            raise ValueError(f"engine='reduced' needs a numba-compilable target; target function "
                             f"{problem.target.name!r} is not: use engine='explicit' (see docs/custom_targets.md)")
        self.problem, self.d, self.lr, self.rngs = problem, d, lr, rngs
        self.states = np.array([initial_state(problem, d, rng, m0, e_tokens, init) for rng in rngs])
        self.streams = replicate_streams(rngs)
        self.crossing = np.full((len(rngs), 1), -1, dtype=np.int64)
        self.threshold = math.inf if threshold is None else float(threshold)
        self.threads = threads
        self.pe = np.ascontiguousarray(problem.pe_matrix())
        if threshold is not None:                       # a start above the threshold crossed at step 0
            self.crossing[np.abs(self.observe()[0]) >= self.threshold, 0] = 0

    def observe(self):
        return observe(self.problem, self.states)

    def advance(self, n_steps, step0):
        if n_steps == 0:
            return
        indices = np.arange(len(self.rngs))
        if self.threads > 1:
            with ThreadPoolExecutor(self.threads) as pool:
                list(pool.map(lambda chunk: self._advance_replicates(chunk, n_steps, step0),
                              np.array_split(indices, self.threads)))
        else:
            self._advance_replicates(indices, n_steps, step0)

    def _advance_replicates(self, indices, n_steps, step0):
        tcode, tparams, scode, sparams = self.problem.codes
        lcode = self.problem.loss_code
        d = float(self.d)
        advance_tied, advance_untied = advance_kernels(self.problem)   # the registry's, or a user's target's
        pair = pair_kernel(self.problem, (advance_tied, advance_untied))
        if pair is not None:
            pe = (self.pe,) if self.problem.tied else ()
            for p in range(0, len(indices) - 1, 2):
                i, j = indices[p], indices[p + 1]
                for start in range(0, n_steps, CHUNK_STEPS):
                    n = min(CHUNK_STEPS, n_steps - start)
                    pair(self.streams, self.states, self.crossing, i, j, n, d, self.lr, *pe, tcode, tparams, sparams,
                         lcode, self.threshold, step0 + start)
            indices = indices[len(indices) - len(indices) % 2:]
        for i in indices:
            for start in range(0, n_steps, CHUNK_STEPS):
                n = min(CHUNK_STEPS, n_steps - start)
                if self.problem.tied:
                    advance_tied(self.streams[i], self.states[i], n, d, self.lr, self.pe, tcode, tparams, scode,
                                 sparams, lcode, self.threshold, self.crossing[i], step0 + start)
                else:
                    advance_untied(self.streams[i], self.states[i], n, d, self.lr, tcode, tparams, scode,
                                   sparams, lcode, self.threshold, self.crossing[i], step0 + start)
