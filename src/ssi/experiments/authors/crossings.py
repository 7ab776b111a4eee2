"""Crossing times of the authors' experiments and the gains built on them, with the rule that
decides when a crossing counts (docs/theory.md, "Model and conventions", weak recovery).

A crossing time measures escape: how long the seed-mean overlap takes to grow from its start to a
level. The authors' level (:data:`ssi.escape.AUTHORS`) is twice the typical start d^(−1/2)
(random start: |m₀| ≈ d^(−1/2); their overlapped start: m₀ ≈ 1.03·d^(−1/2) at d = 1000), so at
that level the crossing time is the time the overlap takes to double. A start that already sits
near the level "crosses" after a fluctuation, not an escape: one seed of a random start has
|m₀| = |g|·d^(−1/2) with g standard normal, above 1.4·d^(−1/2) once in six draws.

**The rule.** A crossing of ``level`` counts only when the seed-mean overlap at the first record
(step 0) is below ``START_FRACTION · level``, with ``START_FRACTION = 1/√2``: at least half of the
doubling, on the log scale, lies ahead. Otherwise the start is *flagged*: the crossing time is nan
(undefined, unlike inf, which means "not reached by T"), every gain that would use it is nan too,
so log-log fits leave that L out, and :func:`gain_fit` lists it under ``excluded``. The rule is
applied to each bootstrap resample as well.
"""
from __future__ import annotations

import math

import numpy as np

from ..common import bootstrap_slope, loglog_slope
from ...escape import mean_crossing as common_mean_crossing

#: a crossing of a level counts only when the seed-mean start is below this fraction of the level
START_FRACTION = 1.0 / math.sqrt(2.0)


def start_overlap(curves) -> float:
    """Seed-mean overlap at the first record (step 0) of ``curves`` (replicates, records)."""
    return float(np.asarray(curves, float)[:, 0].mean())


def start_flagged(curves, level: float) -> bool:
    """True when the seed-mean start is at or above ``START_FRACTION · level``: no crossing counts."""
    return start_overlap(curves) >= START_FRACTION * float(level)


def mean_crossing(steps, curves, level: float) -> float:
    """Steps at which the seed-mean overlap first reaches ``level``, with the flagged-start rule:
    :func:`ssi.experiments.common.mean_crossing` unless the start is flagged.

    Returns
    -------
    float
        The crossing (log-linear interpolation between records); ``inf`` when the mean never
        reaches the level; ``nan`` when the start is flagged (:func:`start_flagged`).
    """
    curves = np.asarray(curves, float)
    if start_flagged(curves, level):
        return math.nan
    return common_mean_crossing(steps, curves, level)


def ratio(a, b) -> float:
    """a/b; nan when b is 0 or either is not finite (a gain needs two finite crossings)."""
    a, b = float(a), float(b)
    return a / b if b > 0 and math.isfinite(a) and math.isfinite(b) else math.nan


def gain_fit(pairs: dict, level: float, seed: int, names=("untied", "tied"), n_boot: int = 1000) -> dict:
    """Gain T_untied/T_other at the seed-mean crossing of ``level`` against L, with a bootstrap interval.

    Parameters
    ----------
    pairs : dict
        ``{L: ((steps, curves) of the untied network, (steps, curves) of the other)}``, curves of
        shape (replicates, records).
    level : float
        The crossing level (the authors' escape level, :data:`ssi.escape.AUTHORS`).
    seed : int
        Seed of the bootstrap over replicates (resampled within each L and network).
    names : pair of str
        Names of the two networks in ``excluded``.

    Returns
    -------
    dict
        ``Ls``, ``gain`` (per L), ``exponent`` (log-log slope over the finite gains) and its 95 %
        bootstrap interval ``low``/``high`` (nan with one replicate per point), and ``excluded``:
        one entry ``{L, network, start, level}`` per flagged start.
    """
    Ls = sorted(pairs)
    samples = {(i, L): np.asarray(pairs[L][i][1], float) for L in Ls for i in (0, 1)}

    def gains(pick):
        return np.array([ratio(mean_crossing(pairs[L][0][0], pick(0, L), level),
                               mean_crossing(pairs[L][1][0], pick(1, L), level)) for L in Ls])

    excluded = [{"L": L, "network": names[i], "start": start_overlap(samples[(i, L)]), "level": float(level)}
                for L in Ls for i in (0, 1) if start_flagged(samples[(i, L)], level)]
    point = gains(lambda *k: samples[k])
    if any(samples[(i, L)].shape[0] < 2 for L in Ls for i in (0, 1)):
        return {"Ls": Ls, "gain": point.tolist(), "exponent": loglog_slope(Ls, point), "low": math.nan,
                "high": math.nan, "excluded": excluded}
    slope, low, high = bootstrap_slope(Ls, samples, gains, seed=seed, n_boot=n_boot)
    return {"Ls": Ls, "gain": point.tolist(), "exponent": slope, "low": low, "high": high, "excluded": excluded}
