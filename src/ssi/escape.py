"""The escape time: the one definition every result reads.

An escape is timed when an *overlap* of the student with the teacher first reaches a *level*;
over the replicates of a run, a *statistic* turns the curves into one number. Each result names
its escape in its config block (``escape: {level: 0.5, overlap: abs_m, statistic: mean_curve}``)
and reads it through :func:`from_config`; the kernels, the ODE crossing, the numbers files, the
rule texts and the figure labels use :class:`Escape` and the crossing functions of this module,
so the definition is written here and in the config only.

Fields of an escape (config keys):

``level``
    A number (``0.5``), or a multiple of d^(-1/2) written ``"2/sqrt(d)"`` (the authors' early
    level, twice the typical random start |m₀| ≈ d^(-1/2)).
``overlap``
    What reaches the level: ``m``; ``abs_m`` (|m|); ``aligned_m`` (|m| when the population loss
    is even in m, else m); ``norm_me`` (√(m² + e²), semantic and positional overlap together);
    ``rms_tokens`` (the root mean square of the token overlaps); ``authors`` (the authors'
    overlap: |m| for tied and attention students, the root mean square over tokens for untied ones).
``statistic``
    ``mean_curve`` (the first crossing of the replicate-mean curve), ``median`` or ``mean`` (of
    the replicates' own first crossings), ``share_below`` (the share of runs whose overlap is
    still below the level at the end).
``censored`` (optional, default false)
    When true, a crossing not reached by the end of the run counts as the last simulated step
    (a lower bound at t_max) instead of infinity.
"""
from __future__ import annotations

import dataclasses
import math
import re

import numpy as np
from numba import njit

#: the macroscopic level: the command line's default (``ssi escape --threshold``)
DEFAULT_LEVEL = 0.5
#: overlap -> (words, TeX symbol)
OVERLAPS = {
    "m": ("m", "m"),
    "abs_m": ("|m|", "|m|"),
    "aligned_m": ("|m| (the signed m when the loss is not even in m)", "|m|"),
    "norm_me": ("√(m² + e²)", r"\sqrt{m^2 + e^2}"),
    "rms_tokens": ("the root mean square of the token overlaps", r"\sqrt{\langle m_l^2 \rangle_l}"),
    "authors": ("the authors' overlap (|m|; untied: the root mean square over tokens)", r"\bar m"),
}
#: statistic -> words, with {overlap} and {level}
STATISTICS = {
    "mean_curve": "the first step at which the replicate mean of {overlap} reaches {level}",
    "median": "the median over replicates of the first step at which {overlap} reaches {level}",
    "mean": "the mean over replicates of the first step at which {overlap} reaches {level}",
    "share_below": "the share of runs whose {overlap} is below {level} at the end",
}
_PER_SQRT_D = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*/\s*(?:sqrt\(d\)|√d)\s*$")


@dataclasses.dataclass(frozen=True)
class Escape:
    """One escape definition.

    Parameters
    ----------
    level : float
        The level, or its multiple of d^(-1/2) when ``per_sqrt_d``.
    overlap : str
        A key of :data:`OVERLAPS`.
    statistic : str
        A key of :data:`STATISTICS`.
    per_sqrt_d : bool
        The level is ``level / √d``.
    censored : bool
        A crossing not reached by the end counts as the last step (a lower bound).
    """

    level: float
    overlap: str = "abs_m"
    statistic: str = "mean_curve"
    per_sqrt_d: bool = False
    censored: bool = False

    def __post_init__(self):
        if isinstance(self.level, bool) or not isinstance(self.level, (int, float)) or not self.level > 0:
            raise ValueError(f"level must be a positive number, got {self.level!r}")
        if not self.per_sqrt_d and self.level > 1:
            raise ValueError(f"level must be at most 1 (an overlap), got {self.level!r}")
        if self.overlap not in OVERLAPS:
            raise ValueError(f"overlap must be one of {', '.join(OVERLAPS)}, got {self.overlap!r}")
        if self.statistic not in STATISTICS:
            raise ValueError(f"statistic must be one of {', '.join(STATISTICS)}, got {self.statistic!r}")
        if not isinstance(self.censored, bool):
            raise TypeError(f"censored must be true or false, got {self.censored!r}")

    def value(self, d=None) -> float:
        """The level as a number; ``d`` is needed for a multiple of d^(-1/2)."""
        if not self.per_sqrt_d:
            return float(self.level)
        if d is None:
            raise ValueError("d is required: the level is a multiple of d^(-1/2)")
        return float(self.level) / math.sqrt(d)

    def level_text(self) -> str:
        """The level as prose writes it: ``0.5`` or ``2/√d``."""
        return f"{self.level:g}/√d" if self.per_sqrt_d else f"{self.level:g}"

    def level_tex(self) -> str:
        """The level in TeX (no dollars): ``0.5`` or ``2/\\sqrt{d}``."""
        return rf"{self.level:g}/\sqrt{{d}}" if self.per_sqrt_d else f"{self.level:g}"

    def overlap_text(self) -> str:
        """The overlap in words: ``|m|``."""
        return OVERLAPS[self.overlap][0]

    def words(self) -> str:
        """The definition in words, e.g. "the first step at which the replicate mean of |m|
        reaches 0.5"; censoring is stated when it applies."""
        text = STATISTICS[self.statistic].format(overlap=self.overlap_text(), level=self.level_text())
        return text + (" (the last simulated step when it is not reached)" if self.censored else "")

    def symbol(self, relation: str = "=") -> str:
        """The condition in TeX (with dollars), e.g. ``$|m| = 0.5$`` (``relation`` "<": not escaped),
        for axis labels and legends."""
        return f"${OVERLAPS[self.overlap][1]} {relation} {self.level_tex()}$"

    def steps(self, steps, curves, d=None) -> float:
        """The statistic of this escape from per-replicate curves.

        Parameters
        ----------
        steps : array_like, shape (K,)
            Record steps (or times).
        curves : array_like, shape (R, K)
            The overlap of each replicate (already the overlap this escape reads).
        d : int, optional
            The dimension, for a level that is a multiple of d^(-1/2).

        Returns
        -------
        float
            The statistic; ``inf`` when not reached (the last step when censored); for
            ``share_below``, the share of replicates below the level at the last record.
        """
        level = self.value(d)
        steps, curves = np.asarray(steps, float), np.asarray(curves)
        if self.statistic == "share_below":
            return float(np.mean(curves[:, -1] < level))
        if self.statistic == "mean_curve":
            t = mean_crossing(steps, curves, level)
        else:
            each = replicate_crossings(steps, curves, level)
            t = float(np.median(each)) if self.statistic == "median" else float(each.mean())
        return float(steps[-1]) if self.censored and math.isinf(t) else t


#: the authors' escape: the seed-mean overlap (|m|; untied: the RMS over tokens) first reaching 2/√d
AUTHORS = Escape(2, "authors", "mean_curve", per_sqrt_d=True)
#: the authors' experiments' macroscopic escape: the same overlap and statistic at 0.5
AUTHORS_MACRO = Escape(0.5, "authors", "mean_curve")
#: C5 in the authors' experiments: the share of runs still near (0, 0), √(m² + e²) below 0.2 at the
#: end (the level of config/config.yaml's semantic_positional escape)
AUTHORS_LEFT_ORIGIN = Escape(0.2, "norm_me", "share_below")


def parse_level(value, key: str):
    """``(level, per_sqrt_d)`` from a config value: a number, or ``"k/sqrt(d)"`` (also ``"k/√d"``)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value), False
    match = _PER_SQRT_D.match(value) if isinstance(value, str) else None
    if match is None:
        raise ValueError(f"config {key}.level: a number in (0, 1] or a multiple of d^(-1/2) written "
                         f"'k/sqrt(d)' is allowed, got {value!r}")
    return float(match.group(1)), True


def from_config(block, key: str) -> Escape:
    """The :class:`Escape` of a config block ``{level, overlap, statistic[, censored]}``.

    Parameters
    ----------
    block : mapping
        The config block.
    key : str
        Its dotted config path, named in error messages (``two_phases.escape``).

    Raises
    ------
    ValueError
        A missing, unknown or invalid field, naming ``key`` and what is allowed.
    """
    if not hasattr(block, "keys"):
        raise ValueError(f"config {key}: a mapping with level, overlap, statistic is required, got {block!r}")
    fields = {"level", "overlap", "statistic", "censored"}
    unknown = set(block) - fields
    missing = {"level", "overlap", "statistic"} - set(block)
    if unknown or missing:
        raise ValueError(f"config {key}: fields are level, overlap, statistic and optionally censored; "
                         f"missing {sorted(missing)}, unknown {sorted(unknown)}")
    level, per_sqrt_d = parse_level(block["level"], key)
    try:
        return Escape(level, str(block["overlap"]), str(block["statistic"]), per_sqrt_d,
                      block.get("censored", False))
    except (ValueError, TypeError) as err:
        field, _, rest = str(err).partition(" ")
        raise ValueError(f"config {key}.{field}: {rest}") from None


def named(section, key: str) -> dict:
    """The named escapes of a result, ``{name: Escape}``, from its ``escape`` block: a mapping of
    names to blocks (a result with several levels), or one block (named ``"escape"``)."""
    block = section["escape"] if "escape" in section else None
    if block is None:
        raise ValueError(f"config {key}: an 'escape' block is required")
    if hasattr(block, "keys") and "level" in block:
        return {"escape": from_config(block, f"{key}.escape")}
    if not hasattr(block, "items") or not block:
        raise ValueError(f"config {key}.escape: one block {{level, overlap, statistic}} or a mapping of named blocks "
                         f"is required, got {block!r}")
    return {name: from_config(b, f"{key}.escape.{name}") for name, b in block.items()}


def of(section, key: str, name: str = "escape") -> Escape:
    """One escape of a result by name (``"escape"`` when the block holds one)."""
    escapes = named(section, key)
    if name not in escapes:
        raise ValueError(f"config {key}.escape: needs the escape {name!r}, has {sorted(escapes)}")
    return escapes[name]


# --- crossings ----------------------------------------------------------------------------------------
def crossing_time(t, m, level):
    """First time the curve m(t) reaches ``level`` (log-linear interpolation between records), or nan."""
    above = np.nonzero(m >= level)[0]
    if above.size == 0:
        return math.nan
    i = above[0]
    if i == 0:
        return float(t[0])
    t0, t1, m0, m1 = t[i - 1], t[i], m[i - 1], m[i]
    frac = (level - m0) / (m1 - m0)
    if t0 > 0:
        return float(math.exp(math.log(t0) + frac * (math.log(t1) - math.log(t0))))
    return float(t0 + frac * (t1 - t0))


def mean_crossing(steps, curves, level) -> float:
    """Steps at which the replicate mean of ``curves`` first reaches ``level``.

    Parameters
    ----------
    steps : array_like
        Record steps, shape (K,).
    curves : array_like
        Per-replicate curves, shape (R, K); their mean over replicates is crossed.
    level : float
        The level to reach.

    Returns
    -------
    float
        The crossing (:func:`crossing_time`: log-linear interpolation between records), or
        ``inf`` when the mean never reaches ``level``.
    """
    t = crossing_time(np.asarray(steps, float), np.asarray(curves).mean(axis=0), level)
    return math.inf if math.isnan(t) else t


def replicate_crossings(steps, curves, level) -> np.ndarray:
    """Each replicate's own first crossing of ``level`` (:func:`crossing_time`); ``inf`` where a
    replicate never reaches it. ``curves`` has shape (R, K)."""
    each = np.array([crossing_time(steps, c, level) for c in curves])
    return np.where(np.isnan(each), np.inf, each)


def recorded_crossings(crossing) -> np.ndarray:
    """Crossing steps recorded by a kernel (:func:`crossed`; -1: not reached) as floats, ``inf``
    where not reached."""
    crossing = np.asarray(crossing).astype(float)
    return np.where(crossing >= 0, crossing, np.inf)


def censor(t, last) -> float:
    """``t``, or ``last`` (a lower bound) when ``t`` is infinite: a crossing censored at the end."""
    return float(last) if math.isinf(t) else t


@njit(inline="always")
def crossed(cross, overlap, threshold, step):
    """The crossing step after ``step`` inside a kernel loop: ``step`` if none is recorded yet
    (``cross < 0``) and |overlap| ≥ threshold, else ``cross``."""
    return step if cross < 0 and abs(overlap) >= threshold else cross
