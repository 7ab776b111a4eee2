"""What every experiment shares: problems and learning rates from the config, seed keys, progress logs."""
from __future__ import annotations

import math
import time
import zlib
from pathlib import Path

import numpy as np

from ..problems import Problem

#: bootstrap resamples of fitted exponents (fixed seed: the numbers are reproducible)
BOOTSTRAP = 2000

#: keys of a problem specification in the config (everything else is experiment-level)
PROBLEM_KEYS = ("L", "target", "student", "pe", "reduction", "activation", "omega", "a", "loss",
                "target_scale")


def problem_from_spec(spec: dict, where: str) -> Problem:
    """Build a Problem from a config mapping, naming the config key on error."""
    try:
        return Problem(**{k: spec[k] for k in PROBLEM_KEYS if k in spec})
    except ValueError as err:
        raise ValueError(f"config {where}: {err}") from None


def check_dimensions(problem: Problem, where: str, dims) -> None:
    """ValueError naming the config key ``where`` (e.g. ``two_phases.cases.sie1.dims``) when a d of
    ``dims`` is below what ``problem`` needs."""
    for d in dims:
        if d < problem.min_dimension():
            raise ValueError(f"config {where}: d={d} is too small; this problem needs d ≥ {problem.min_dimension()}")


def learning_rate(schedule: dict, d: int) -> float:
    """η(d) from a schedule mapping (docs/theory.md, "The ODE").

    ``{"lr": η0}`` or ``{"lr": η0, "scaling": "constant"}``: η0;
    ``{"scaling": "power", "exponent": x, "d_ref": d0}``: η0 (d/d0)^x (SIE k ≥ 3 uses x = −(k−2)/2);
    ``{"scaling": "inverse_log", "d_ref": d0}``: η0 log(d0)/log(d) (SIE 2).
    """
    lr = float(schedule["lr"])
    kind = schedule.get("scaling", "constant")
    d_ref = float(schedule.get("d_ref", 1000))
    if kind == "constant":
        return lr
    if kind == "power":
        return lr * (d / d_ref) ** float(schedule["exponent"])
    if kind == "inverse_log":
        return lr * math.log(d_ref) / math.log(d)
    raise ValueError(f"scaling={kind!r} is unknown; allowed: constant, power, inverse_log")


def describe_schedule(schedule: dict) -> str:
    """Human-readable η(d) for legends and the README."""
    lr = schedule["lr"]
    kind = schedule.get("scaling", "constant")
    d_ref = schedule.get("d_ref", 1000)
    if kind == "constant":
        return f"η = {lr:g}"
    if kind == "power":
        return f"η = {lr:g}·(d/{d_ref:g})^{schedule['exponent']:g}"
    return f"η = {lr:g}·log {d_ref:g}/log d"


def seed_key(base_seed: int, experiment: str, *point) -> tuple[int, ...]:
    """SeedSequence entropy for one parameter point: (base seed, experiment id, point ids).

    Strings are mapped to integers by CRC-32 and numbers are kept, so the key does not
    depend on job order, on --cores, or on which other points are configured.
    """
    def as_int(x):
        if isinstance(x, str):
            return zlib.crc32(x.encode())
        if isinstance(x, float):
            return zlib.crc32(repr(x).encode())
        return int(x)

    return (int(base_seed), as_int(experiment), *(as_int(p) for p in point))


class ProgressLog:
    """Writes "steps done, rate, time left" lines to a rule's log file, at most every few seconds."""

    def __init__(self, path, label: str, every: float = 5.0):
        self.path = Path(path) if path else None
        self.label = label
        self.every = every
        self.start = time.monotonic()
        self.last = -math.inf
        if self.path:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(f"{label}: started\n")

    def __call__(self, done: int, total: int, force: bool = False) -> None:
        now = time.monotonic()
        if self.path is None or (not force and now - self.last < self.every and done < total):
            return
        self.last = now
        elapsed = now - self.start
        rate = done / elapsed if elapsed > 0 else float("nan")
        left = (total - done) / rate if rate and rate > 0 else float("nan")
        with self.path.open("a") as handle:
            handle.write(f"{self.label}: {done}/{total} steps ({100 * done / max(total, 1):.1f}%), "
                         f"{rate:.3g} steps/s, {elapsed:.1f} s elapsed, ~{left:.1f} s left\n")

    def note(self, text: str) -> None:
        if self.path:
            with self.path.open("a") as handle:
                handle.write(f"{self.label}: {text}\n")


def overlap_curves(run) -> np.ndarray:
    """The authors' overlap of an SGD run, shape (R, K): |m| (tied, attention), the RMS of the token
    overlaps (mean_l m_l²)^(1/2) (untied); :meth:`ssi.sgd.SGDRun.overlap` with ``norm="l2"``."""
    return run.overlap("l2")


def t_max(spec, d: int) -> float:
    """Largest time of a run at dimension d: t_max·(d/d_ref)^t_max_exponent (d_ref of the schedule)."""
    d_ref = float(spec["schedule"].get("d_ref", 1000))
    return float(spec["t_max"]) * (d / d_ref) ** float(spec.get("t_max_exponent", 0.0))


def loglog_slope(dims, values, lo=-math.inf, hi=math.inf) -> float:
    """Least-squares slope of log(values) against log(dims) over the finite values with lo ≤ d ≤ hi
    (nan when fewer than two remain)."""
    dims, values = np.asarray(dims, float), np.asarray(values, float)
    keep = (dims >= lo) & (dims <= hi) & np.isfinite(values) & (values > 0)
    if keep.sum() < 2:
        return math.nan
    return float(np.polyfit(np.log(dims[keep]), np.log(values[keep]), 1)[0])


def fit_exponent(dims, samples, seed=0, statistic=np.median, quantiles=(0.025, 0.975)):
    """Log-log slope of a per-d statistic of replicates against d, with a bootstrap interval.

    Parameters
    ----------
    dims : sequence of int
    samples : sequence of arrays
        One array per d whose first axis is the replicates (e.g. escape steps, inf for a
        censored replicate, or the (R, K) overlap records).
    seed : int
        Seed of the bootstrap.
    statistic : callable or sequence of callables
        Maps a (resampled) array of one d to the time at that d (default: the median); one
        callable per d when it needs per-d data (e.g. the record steps).
    quantiles : pair of float
        Bootstrap quantiles of the interval (default 95 %).

    Returns
    -------
    (slope, low, high)
        Slope of the statistic, and the bootstrap quantiles (replicates resampled within each
        d), or nans when fewer than two d have a finite statistic.
    """
    stats = list(statistic) if isinstance(statistic, (list, tuple)) else [statistic] * len(samples)
    slope, low, high = bootstrap_slope(
        dims, {(i,): s for i, s in enumerate(samples)}, lambda pick: [f(pick(i)) for i, f in enumerate(stats)],
        seed=seed, n_boot=BOOTSTRAP, quantiles=quantiles)
    return (slope, low, high) if math.isfinite(low) else (math.nan, math.nan, math.nan)


def bootstrap_slope(x, samples: dict, statistic, seed=0, n_boot: int = 1000, quantiles=(0.025, 0.975)):
    """Log-log slope of ``statistic`` against ``x`` with a bootstrap interval over replicates.

    ``samples`` maps keys to arrays whose first axis is the replicates; ``statistic(pick)``
    returns the y values at ``x``, reading the array of a key through ``pick(*key)``.
    Replicates are resampled with replacement within each key (keys in the dict's order).
    Returns (slope, low, high) with the ``quantiles`` of the resampled slopes (low and high
    are nan when no resample gives a finite slope or the slope itself is not finite).
    """
    point = loglog_slope(x, statistic(lambda *key: samples[key]))
    rng = np.random.default_rng(seed)
    boot = []
    for _ in range(n_boot):
        drawn = {k: c[rng.integers(0, len(c), len(c))] for k, c in samples.items()}
        boot.append(loglog_slope(x, statistic(lambda *key: drawn[key])))
    boot = np.array(boot)
    boot = boot[np.isfinite(boot)]
    if not math.isfinite(point) or boot.size == 0:
        return point, math.nan, math.nan
    return point, float(np.quantile(boot, quantiles[0])), float(np.quantile(boot, quantiles[1]))
