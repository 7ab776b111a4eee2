"""What both SGD engines share: argument checks, seeds, recording schedules, results."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..problems import Problem, check_choice, check_number, check_problem

ENGINES = ("reduced", "explicit")
#: the largest step count (and dimension) the simulators take: the recording schedule and the time
#: t = steps/d are computed in float64, which holds every integer exactly up to 2^53
MAX_STEPS = 2 ** 53


@dataclass
class SGDRun:
    """Recorded trajectories of one-pass spherical SGD.

    Attributes
    ----------
    steps : ndarray, shape (K,)
        SGD steps at which the state was recorded (t = steps/d).
    m : ndarray, shape (R, K)
        Overlap with the teacher, w·w*/d (untied: the mean of m_l).
    e : ndarray, shape (R, K)
        Positional overlap e_1 = p_1·w/√d (zeros without PE).
    e_tokens : ndarray, shape (R, K, L)
        All e_l (zeros without PE).
    m_tokens, Q_tokens : ndarray, shape (R, K, L), or None
        Untied only: m_l = w_l·w*/d and Q_l = |w_l|²/d.
    crossing : ndarray, shape (R,)
        First step at which |m| ≥ threshold (−1 when it never did, or no threshold).
    """

    problem: Problem
    d: int
    lr: float
    engine: str
    seed: object
    steps: np.ndarray
    m: np.ndarray
    e: np.ndarray
    e_tokens: np.ndarray
    crossing: np.ndarray
    m_tokens: np.ndarray | None = None
    Q_tokens: np.ndarray | None = None
    threshold: float | None = None

    @property
    def t(self) -> np.ndarray:
        """Time t = steps/d."""
        return self.steps / self.d

    # --- the authors' metrics (docs/theory.md, "The authors' conventions") -----------------
    def _token_overlaps(self) -> np.ndarray:
        """(R, K, n) overlaps per weight block: (m) for tied students, (m_l) for untied ones."""
        return self.m[:, :, None] if self.m_tokens is None else self.m_tokens

    def overlap(self, norm: str | None = "l2", signed: bool = False) -> np.ndarray:
        """The authors' ``overlap`` metric, shape (R, K) (``norm=None``: (R, K, n) blocks).

        ``norm="l2"``: ‖(m_l)_l‖₂/√L for untied students, |m| for tied ones; ``"l1"``:
        ‖(m_l)_l‖₁/L. ``signed=True`` keeps the sign when there is one block (tied students).
        """
        if norm not in ("l2", "l1", None):
            raise ValueError(f"norm={norm!r} is unknown; allowed: 'l2', 'l1', None")
        m = self._token_overlaps()
        if norm is None:
            return m.copy()
        n = m.shape[2]
        value = np.sqrt(np.sum(m * m, axis=2) / n) if norm == "l2" else np.sum(np.abs(m), axis=2) / n
        if signed and n == 1:
            value = value * np.sign(m[:, :, 0])
        return value

    @property
    def m_l2(self) -> np.ndarray:
        """‖(m_l)_l‖₂/√L (untied) or |m| (tied), shape (R, K): the authors' default overlap."""
        return self.overlap("l2")

    def normalized_overlap_component(self, component: int = 0) -> np.ndarray:
        """The authors' m_l/‖(m_j)_j‖₂ for token ``component`` (tied: sign of m), shape (R, K)."""
        m = self._token_overlaps()
        return m[:, :, component] / np.sqrt(np.sum(m * m, axis=2))

    @property
    def positional_overlap(self) -> np.ndarray:
        """The authors' positional overlap p_1·w/√d with |p_1| = 1, i.e. e_1, shape (R, K)."""
        return self.e


def check_arguments(problem, d, lr, steps, replicates, engine):
    """Raise ArgumentKindError (a TypeError) or ValueError naming the parameter and what is allowed."""
    check_problem(problem)
    check_choice("engine", engine, ENGINES)
    check_number("d", d, integer=True)
    if not problem.min_dimension() <= d <= MAX_STEPS:
        raise ValueError(f"d={d!r} is not allowed for L={problem.L}, pe={problem.pe!r}: "
                         f"d must be an integer ≥ {problem.min_dimension()} and ≤ 2^53 = {MAX_STEPS}")
    check_number("lr", lr, low=0, low_open=True)
    check_number("steps", steps, low=0, integer=True)
    if steps > MAX_STEPS:
        raise ValueError(f"steps={steps!r} is not allowed; steps must be ≤ 2^53 = {MAX_STEPS}, the largest count "
                         f"the recording schedule and t = steps/d (float64) represent exactly")
    check_number("replicates", replicates, low=1, integer=True)


def _is_int(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def replicate_generators(seed, replicates, replicate_offset=0):
    """One independent numpy Generator per replicate.

    Replicate i uses ``SeedSequence(seed, spawn_key=(replicate_offset + i,))``, so
    its stream depends only on (seed, its own key): not on how many replicates
    run together, in which order, or on how many threads.

    Parameters
    ----------
    seed : int or sequence of int
        The experiment/point key (e.g. ``(experiment_id, point_id)``).
    replicates : int
    replicate_offset : int
        Key of the first replicate (lets a sweep be split into blocks).
    """
    entropy = list(seed) if isinstance(seed, (tuple, list)) else [seed]
    if not entropy or not all(_is_int(s) and s >= 0 for s in entropy):
        raise ValueError(f"seed={seed!r} is not allowed; seed must be a non-negative integer or a sequence of them")
    if not _is_int(replicate_offset) or replicate_offset < 0:
        raise ValueError(f"replicate_offset={replicate_offset!r} must be an integer ≥ 0")
    return [np.random.Generator(np.random.PCG64(np.random.SeedSequence(entropy, spawn_key=(replicate_offset + i,))))
            for i in range(replicates)]


def record_schedule(steps, record=None, points_per_decade=40):
    """Sorted unique steps at which to record, always including 0 and ``steps``.

    ``record=None`` gives log-spaced points (``points_per_decade`` per decade), so a
    run of 10⁹ steps records a few hundred states.
    """
    if record is None:
        if steps == 0:
            return np.zeros(1, dtype=np.int64)
        n = max(2, int(math.ceil(points_per_decade * math.log10(max(steps, 10)))) + 1)
        grid = np.unique(np.round(np.logspace(0, math.log10(steps), n)).astype(np.int64))
        return np.unique(np.concatenate([[0], grid, [steps]]))
    rec = np.unique(np.asarray(record, dtype=np.int64))
    if rec.ndim != 1 or rec.size == 0 or rec[0] < 0 or rec[-1] > steps:
        raise ValueError(f"record must be a non-empty list of steps within [0, steps={steps}]")
    return rec


INITS = ("overlapped", "random")


@dataclass(frozen=True)
class AuthorsInit:
    """The authors' initial conditions (docs/theory.md, "The authors' conventions").

    ``kind="overlapped"``: every token block (one for tied students) is
    ``w_l ∝ (1 − o) u_l + o s_l w*`` renormalised to ``|w_l|² = d``, with ``u_l`` uniform on
    the sphere of radius √d orthogonal to w* and ``s_l = 1`` (or a uniform random sign per
    replicate and token, ``randomsign``): m_l(0) = s_l·m₀ with ``m₀ = o/√((1 − o)² + o²)``
    (:func:`initial_overlap`) and Q_l(0) = 1.
    ``kind="random"``: every token block uniform on its own sphere of radius √d (tied: the
    default uniform start; untied: Q_l(0) = 1 for every token, unlike the default uniform
    point of the sphere |W|²_F = L d).
    With PE the PE vectors are orthonormalised exactly against w* and w(0): e(0) = 0.
    """

    kind: str
    m0: float = 0.0             # overlapped: m₀ = o/√((1 − o)² + o²)
    randomsign: bool = False


def authors_init(problem, d, init, ic_overlap, ic_randomsign, m0, e0):
    """Validate the ``init`` options of :func:`ssi.simulate`; None when ``init`` is None."""
    if init is None:
        if ic_overlap is not None or ic_randomsign:
            raise ValueError("ic_overlap and ic_randomsign are options of init='overlapped'; init=None was given")
        return None
    if init not in INITS:
        raise ValueError(f"init={init!r} is unknown; allowed: None, {', '.join(INITS)}")
    if m0 is not None or e0 is not None:
        raise ValueError(f"init={init!r} and m0/e0 are mutually exclusive: give one or the other")
    if init == "random":
        if ic_overlap is not None or ic_randomsign:
            raise ValueError("ic_overlap and ic_randomsign are options of init='overlapped', not init='random'")
        return AuthorsInit("random")
    if not isinstance(ic_randomsign, (bool, np.bool_)):
        raise ValueError(f"ic_randomsign={ic_randomsign!r} is not allowed; allowed: True, False")
    return AuthorsInit("overlapped", initial_overlap(ic_overlap, d), bool(ic_randomsign))


def initial_overlap(o: float | None, d: int) -> float:
    """Overlap m₀ per token of the authors' "overlapped" start with mixing weight ``o``
    (docs/theory.md, "The authors' conventions"; also :func:`ssi.authors.initial_overlap`).

    The start is ``(1 − o) u + o w*`` (u ⊥ w*, |u| = |w*| = √d) renormalised to norm √d, so
    ``m₀ = o/√((1 − o)² + o²)``.

    Parameters
    ----------
    o : float or None
        Their ``ic_overlap`` ∈ [0, 1]; None gives their default ``d^(−1/2)``.
    d : int
        Dimension.
    """
    if o is None:
        o = 1 / math.sqrt(d)
    if isinstance(o, bool) or not isinstance(o, (int, float, np.integer, np.floating)) \
            or not math.isfinite(o) or not 0 <= o <= 1:
        raise ValueError(f"ic_overlap={o!r} is not allowed; ic_overlap must lie in [0, 1] (or None: d^(-1/2))")
    o = float(o)
    return o / math.sqrt((1 - o) ** 2 + o * o)



def initial_signs(rng, n, randomsign):
    """Signs s_l of the overlapped start: ones, or n uniform ±1 from the replicate's stream."""
    if not randomsign:
        return np.ones(n)
    return np.where(rng.random(n) < 0.5, -1.0, 1.0)


def pe_coordinates(problem, e_tokens):
    """Coordinates μ of w/√d on the orthonormal PE basis such that e_l = Σ_j pe[l, j] μ_j.

    The columns of ``problem.pe_matrix()`` are orthogonal but not unit ("opposite": (1, −1)),
    so μ = (peᵀpe)⁻¹ peᵀ e, not peᵀ e.
    """
    pe = problem.pe_matrix()
    return np.linalg.lstsq(pe, np.asarray(e_tokens, dtype=float), rcond=None)[0]


def initial_overlaps(problem, m0, e0):
    """Normalise the prescribed initial condition: (m0 per token or scalar, e per token)."""
    L = problem.L
    if m0 is not None:
        m0 = np.asarray(m0, dtype=float)
        if problem.tied and m0.ndim != 0:
            raise ValueError("m0 must be a number for tied students")
        if not problem.tied and m0.shape not in ((), (L,)):
            raise ValueError(f"m0 must be a number or {L} numbers for the untied student")
        if np.any(np.abs(m0) > 1) or not np.all(np.isfinite(m0)):
            raise ValueError(f"m0={m0} is not allowed; |m0| must be ≤ 1")
    e_tokens = np.zeros(L)
    if e0 is not None:
        if problem.pe == "none" or not problem.tied:
            if np.any(np.asarray(e0) != 0):
                raise ValueError(f"e0={e0!r} is not allowed with pe={problem.pe!r}: there is no positional overlap")
        elif problem.pe == "opposite":
            if np.ndim(e0) != 0:
                raise ValueError("e0 must be a number (e = e_1 = −e_2) for pe='opposite'")
            e_tokens = np.array([float(e0), -float(e0)])
        else:
            e_tokens = np.broadcast_to(np.asarray(e0, dtype=float), (L,)).copy()
    if problem.tied:
        pe_coords = pe_coordinates(problem, e_tokens)
        m_sq = 0.0 if m0 is None else float(m0) ** 2
        if m_sq + pe_coords @ pe_coords > 1:
            raise ValueError("m0² + |e0|² must be ≤ 1 (the weights live on the sphere |w|² = d)")
    return m0, e_tokens
