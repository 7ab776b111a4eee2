"""One-pass spherical SGD: the public entry point :func:`simulate` and its two engines."""
from __future__ import annotations

import numpy as np

from ..problems import check_array, check_callable, check_flag, check_number
from .common import SGDRun, authors_init, check_arguments, initial_overlaps, record_schedule, replicate_generators
from .explicit import ExplicitEngine
from .reduced import ReducedEngine

_ENGINES = {"reduced": ReducedEngine, "explicit": ExplicitEngine}

__all__ = ["simulate", "SGDRun"]


def simulate(problem, d, lr, steps, replicates=1, seed=0, *, engine="reduced", record=None,
             m0=None, e0=None, threshold=None, stop_at_threshold=False, replicate_offset=0,
             threads=1, points_per_decade=40, progress=None, stop_when=None, init=None, ic_overlap=None,
             ic_randomsign=False):
    """Run one-pass spherical SGD (docs/theory.md, "Model and conventions") on ``problem``.

    Parameters
    ----------
    problem : Problem
    d : int
        Dimension (≥ ``problem.min_dimension()``).
    lr : float
        Learning rate η > 0.
    steps : int
        Number of SGD steps (one fresh sample each); time t = steps/d.
    replicates : int
        Independent runs (each its own teacher, initialisation and data).
    seed : int or sequence of int
        Key of this run; replicate i uses SeedSequence(seed, spawn_key=(replicate_offset + i,)).
    engine : {"reduced", "explicit"}
        "reduced": exact dimension-free simulator (docs/theory.md, "The reduced simulator"), numba, cost per step
        independent of d. "explicit": weights in R^d, the reference.
    record : array of int, optional
        Steps at which to record; default log-spaced (``points_per_decade``), with 0 and ``steps``.
    m0 : float (untied: float or L floats), optional
        Prescribed initial overlap; default a uniformly random point of the sphere.
    e0 : float or array, optional
        Prescribed initial positional overlap (e_1 for pe="opposite", the e_l for
        pe="orthonormal"); default 0 (PE orthogonal to w(0), the authors' construction).
    threshold : float, optional
        Record, per replicate, the first step at which |m| ≥ threshold.
    stop_at_threshold : bool
        Stop at the first record at which every replicate has crossed ``threshold``.
    replicate_offset : int
        Key of the first replicate (split a sweep into blocks with identical numbers).
    threads : int
        Threads over replicates (reduced engine); results do not depend on it.
    progress : callable, optional
        Called as ``progress(steps_done, steps_total)`` after every record.
    stop_when : callable, optional
        Called as ``stop_when(steps_done, m)`` with the recorded overlaps ``m`` (R,) after every
        record; the run stops when it returns True (e.g. once the replicate mean has crossed a
        level). Stopping only truncates: each replicate's trajectory is its own stream.
    init : {None, "overlapped", "random"}
        The authors' initial conditions (docs/theory.md, "The authors' conventions"; exclusive
        with ``m0``/``e0``). "overlapped": each token block (one for tied students) is
        (1 − o) u + o s w* renormalised (u ⊥ w* uniform), i.e. m_l(0) = s_l m₀ with
        m₀ = o/√((1 − o)² + o²) (:func:`ssi.authors.initial_overlap`) and Q_l(0) = 1.
        "random": each token block uniform on its own sphere of radius √d (tied: the same
        law as the default; untied: Q_l(0) = 1). With PE, e(0) = 0 (exact orthonormalisation;
        the authors' projection leaves e(0) = O(m₀/√d), see :mod:`ssi.authors`).
    ic_overlap : float, optional
        "overlapped" only: o ∈ [0, 1], default d^(−1/2); 0 starts exactly orthogonal to w*.
    ic_randomsign : bool
        "overlapped" only: the sign s_l uniform ±1, drawn per replicate (and per token for
        untied students) from the replicate's own stream; default s_l = +1.

    Returns
    -------
    SGDRun
        ``steps`` (K,), ``m`` and ``e`` (R, K), ``e_tokens`` (R, K, L), ``crossing`` (R,),
        and for untied students ``m_tokens`` and ``Q_tokens`` (R, K, L).
    """
    check_arguments(problem, d, lr, steps, replicates, engine)
    check_number("threshold", threshold, low=0, high=1, low_open=True, optional=True)
    check_flag("stop_at_threshold", stop_at_threshold)
    check_number("threads", threads, low=1, integer=True)
    check_number("points_per_decade", points_per_decade, low=0, low_open=True)
    check_callable("progress", progress, "a function progress(steps_done, steps_total)")
    check_callable("stop_when", stop_when, "a function stop_when(steps_done, m)")
    check_array("m0", m0, optional=True)
    check_array("e0", e0, optional=True)
    start = authors_init(problem, d, init, ic_overlap, ic_randomsign, m0, e0)
    if threshold is None and stop_at_threshold:
        raise ValueError("stop_at_threshold=True needs a threshold")
    m0, e_tokens = initial_overlaps(problem, m0, e0)
    rngs = replicate_generators(seed, replicates, replicate_offset)
    schedule = record_schedule(steps, record, points_per_decade)
    sim = _ENGINES[engine](problem, d, float(lr), rngs, m0, e_tokens, threshold, threads, init=start)

    records = []
    done = 0
    for target in schedule:
        sim.advance(int(target - done), done)
        done = int(target)
        records.append(sim.observe())
        if progress is not None:
            progress(done, steps)
        if stop_at_threshold and np.all(sim.crossing >= 0):
            break
        if stop_when is not None and stop_when(done, records[-1][0]):
            break
    kept = schedule[:len(records)]
    m = np.stack([r[0] for r in records], axis=1)
    e_tokens_rec = np.stack([r[1] for r in records], axis=1)
    untied = not problem.tied
    return SGDRun(
        problem=problem, d=d, lr=float(lr), engine=engine, seed=seed, steps=kept, m=m,
        e=e_tokens_rec[:, :, 0].copy(), e_tokens=e_tokens_rec, crossing=sim.crossing[:, 0].copy(),
        m_tokens=np.stack([r[2] for r in records], axis=1) if untied else None,
        Q_tokens=np.stack([r[3] for r in records], axis=1) if untied else None,
        threshold=threshold,
    )
