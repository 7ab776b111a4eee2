"""Explicit SGD with weights in R^d: the reference simulator.

Each replicate draws its own teacher w*, PE vectors and initial weights, and its
own tokens every step, from its own Generator; the replicates are then stepped
together with batched numpy. Construction (the authors'): w* and w(0) are drawn
first, and the PE vectors are orthonormalised against both, so e(0) = 0 for a
random start; a prescribed (m₀, e₀) is built in an orthonormal frame instead.
"""
from __future__ import annotations

import math
import os

import numpy as np

from .common import initial_signs, pe_coordinates

# Tokens are drawn in chunks of steps to cut Python overhead; the stream is the
# same whatever the chunk size (Generator.standard_normal fills in order).
_CHUNK_FLOATS = 1 << 18          # 2 MiB of tokens: stays in cache (4·10⁶ was 8–30 % slower)


def memory_needed(problem, d: int, replicates: int) -> int:
    """A lower bound on the bytes the explicit engine holds at once: per replicate, the teacher,
    the weights (L blocks for untied students), the L PE vectors and a step's L tokens (stacked
    once more across replicates), 8 bytes per coordinate of R^d."""
    weights = problem.L if not problem.tied else 1
    return 8 * replicates * d * (1 + weights + problem.L + 2 * problem.L)


def physical_memory() -> int | None:
    """Bytes of physical memory of this machine (None where the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def check_memory(problem, d: int, replicates: int, available: int | None = None) -> None:
    """Refuse, before anything is allocated, a size that cannot fit in this machine's memory."""
    available = physical_memory() if available is None else available
    needed = memory_needed(problem, d, replicates)
    if available is not None and needed > available:
        raise ValueError(f"engine='explicit' needs at least {needed / 2**30:.3g} GiB for d={d}, L={problem.L}, "
                         f"replicates={replicates} (weights, teacher, PE and tokens in R^d), more than this "
                         f"machine's {available / 2**30:.3g} GiB; engine='reduced' simulates the same law "
                         f"exactly, with memory and cost per step independent of d")


def _frame(rng, d, n):
    """n orthonormal vectors of R^d, uniformly random (columns)."""
    q, r = np.linalg.qr(rng.standard_normal((d, n)))
    return q * np.sign(np.diag(r))


def _initialise(problem, d, rng, m0, e_tokens, init=None):
    L = problem.L
    pe = problem.pe_matrix()
    k = pe.shape[1]
    if init is not None:
        return _authors_start(problem, d, rng, init)
    if problem.tied and m0 is None:
        w_star = rng.standard_normal(d)
        w0 = rng.standard_normal(d)
        basis = _frame(rng, d, k + 2)        # only used to orthonormalise the PE
        span, _ = np.linalg.qr(np.column_stack([w_star, w0, basis[:, :k]]))
        pe_basis = span[:, 2:2 + k]
        w_star *= math.sqrt(d) / np.linalg.norm(w_star)
        weights = w0 * (math.sqrt(d) / np.linalg.norm(w0))
    else:
        frame = _frame(rng, d, k + 1 + (1 if problem.tied else L))
        w_star = math.sqrt(d) * frame[:, 0]
        pe_basis = frame[:, 1:1 + k]
        if problem.tied:
            coords = pe_coordinates(problem, e_tokens)
            rho = math.sqrt(max(0.0, 1 - float(m0) ** 2 - coords @ coords))
            weights = math.sqrt(d) * (float(m0) * frame[:, 0] + pe_basis @ coords + rho * frame[:, 1 + k])
        elif m0 is None:
            weights = rng.standard_normal((L, d))
            weights *= math.sqrt(L * d) / np.linalg.norm(weights)
        else:
            m_tokens = np.broadcast_to(np.asarray(m0, float), (L,))
            u = frame[:, 1:1 + L].T
            weights = math.sqrt(d) * (m_tokens[:, None] * frame[:, 0] + np.sqrt(1 - m_tokens ** 2)[:, None] * u)
    positional = pe @ pe_basis.T               # (L, d): unit vectors p_l
    return w_star, positional, weights


def _authors_start(problem, d, rng, init):
    """The authors' starts in R^d (see :class:`~ssi.sgd.common.AuthorsInit`).

    "overlapped": w_l ∝ (1 − o) u_l + o s_l w* renormalised, with u_l uniform on the sphere of
    w*⊥, i.e. w_l = √d (s_l m₀ ŵ* + √(1 − m₀²) û_l); "random": each block a normalised Gaussian.
    The PE basis is orthonormalised exactly against w* and w(0) (e(0) = 0).
    """
    L = problem.L
    pe = problem.pe_matrix()
    k = pe.shape[1]
    n = 1 if problem.tied else L
    w_star = rng.standard_normal(d)
    w_star *= math.sqrt(d) / np.linalg.norm(w_star)
    if init.kind == "overlapped":
        signs = initial_signs(rng, n, init.randomsign)
        u = rng.standard_normal((n, d))
        u -= np.outer(u @ w_star / d, w_star)
        u *= (math.sqrt(d) / np.linalg.norm(u, axis=1))[:, None]
        weights = (init.m0 * signs)[:, None] * w_star + math.sqrt(1 - init.m0 ** 2) * u
    else:
        weights = rng.standard_normal((n, d))
    weights *= (math.sqrt(d) / np.linalg.norm(weights, axis=1))[:, None]
    if k:
        span, _ = np.linalg.qr(np.column_stack([w_star, weights[0], rng.standard_normal((d, k))]))
        pe_basis = span[:, 2:2 + k]
    else:
        pe_basis = np.zeros((d, 0))
    positional = pe @ pe_basis.T
    return w_star, positional, weights[0] if problem.tied else weights


class ExplicitEngine:
    """Batched explicit SGD over replicates (numpy)."""

    def __init__(self, problem, d, lr, rngs, m0, e_tokens, threshold, threads=1, init=None):
        check_memory(problem, d, len(rngs))
        self.problem, self.d, self.lr, self.rngs = problem, d, lr, rngs
        parts = [_initialise(problem, d, rng, m0, e_tokens, init) for rng in rngs]
        self.w_star = np.array([p[0] for p in parts])                  # (R, d)
        self.shift = np.array([p[1] for p in parts]) / math.sqrt(d)   # (R, L, d): p_l/√d
        self.weights = np.array([p[2] for p in parts])                # (R, d) or (R, L, d)
        self.threshold = math.inf if threshold is None else float(threshold)
        self.crossing = np.full((len(rngs), 1), -1, dtype=np.int64)
        if threshold is not None:                       # a start above the threshold crossed at step 0
            self.crossing[np.abs(self.observe()[0]) >= self.threshold, 0] = 0

    def observe(self):
        d = self.d
        if self.problem.tied:
            m = np.einsum("rd,rd->r", self.weights, self.w_star) / d
            e = np.einsum("rld,rd->rl", self.shift, self.weights)      # p_l·w/√d
            return m, e, None, None
        m_tokens = np.einsum("rld,rd->rl", self.weights, self.w_star) / d
        q_tokens = np.einsum("rld,rld->rl", self.weights, self.weights) / d
        return m_tokens.mean(axis=1), np.zeros_like(m_tokens), m_tokens, q_tokens

    def advance(self, n_steps, step0):
        L, d, R = self.problem.L, self.d, len(self.rngs)
        chunk = max(1, _CHUNK_FLOATS // (R * L * d))
        done = 0
        while done < n_steps:
            b = min(chunk, n_steps - done)
            tokens = np.stack([rng.standard_normal((b, L, d)) for rng in self.rngs], axis=1)
            tokens /= math.sqrt(d)
            for s in range(b):
                self._step(tokens[s])
                if self.threshold < math.inf:
                    m = self.observe()[0]
                    newly = (self.crossing[:, 0] < 0) & (np.abs(m) >= self.threshold)
                    self.crossing[newly, 0] = step0 + done + s + 1
            done += b

    def _step(self, x):
        """One SGD step for every replicate; x: tokens (R, L, d) with N(0, 1/d) entries."""
        d, lr = self.d, self.lr
        zstar = np.einsum("rld,rd->rl", x, self.w_star)
        if self.problem.tied:
            inputs = x + self.shift
            q = np.einsum("rld,rd->rl", inputs, self.weights)
            _, a = self.problem.loss_and_grad(zstar, q)
            self.weights -= lr * np.einsum("rl,rld->rd", a, inputs)
            self.weights *= (math.sqrt(d) / np.linalg.norm(self.weights, axis=1))[:, None]
        else:
            q = np.einsum("rld,rld->rl", x, self.weights)
            _, a = self.problem.loss_and_grad(zstar, q)
            self.weights -= lr * a[:, :, None] * x
            norms = np.sqrt(np.einsum("rld,rld->r", self.weights, self.weights))
            self.weights *= (math.sqrt(self.problem.L * d) / norms)[:, None, None]
