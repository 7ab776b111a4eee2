"""The high-dimensional ODE of one-pass spherical SGD (docs/theory.md, "The ODE") and escape times.

Time is ``t = steps/d``. Tied students evolve ``(m, ε)`` (``ε``: PE coordinates, e.g.
``e_1`` for opposite PE, see :mod:`ssi.population`); with ``a_l = ∂ℓ/∂q_l``,
``ν = E[Σ_l a_l²]`` and ``s = √(1 − m²)``:

    dm/dt   = −η E[Σ a_l z*_l] + η m E[Σ a_l q_l] − (η²/2) ν m
    dε_j/dt = −η (Σ_l P_lj E[a_l] + (ε_j/s) E[Σ a_l ξ_l]) + η ε_j E[Σ a_l q_l] − (η²/2) ν ε_j

which is the theory's ``−η(∂_m R − mΛ) − (η²/2)νm`` and
``−η((PPᵀ∇_e R)_l − e_l Λ) − (η²/2)ν e_l`` rewritten (the term ``(ε_j/s) E[Σ a ξ]`` is
``E[a_l x_l·p_j √d]`` by Gaussian conditioning, and collecting terms gives ``Λ``).
Untied feed-forward students evolve ``(m_l, Q_l)`` with the §5 equations.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .escape import Escape
from .population import integrator
from .problems import check_array, check_callable, check_flag, check_number, check_problem
from .state import tied_state

__all__ = ["ODESolution", "EscapeSteps", "integrate_ode", "escape_time", "escape_times", "sie_learning_rate",
           "ODE_BUDGET"]

#: default Gauss–Hermite budget (points) of the expectations at each right-hand-side call
ODE_BUDGET = 50_000

#: stationarity test of ``stop_when_settled`` (:class:`StationarityEvent`): over a window of time
#: [s, 2s), every coordinate stays within this many solver tolerances (rtol·|y| + atol)...
SETTLE_TOLERANCES = 10
#: ...moves no more than this factor times its range over the window before (a coordinate that
#: still grows, linearly or faster, has a ratio ≥ 2)...
SETTLE_GROWTH = 1.5
#: ...and the solver needs at least this many steps for the window (it crawls at its stability
#: limit around a fixed point; along a slow but accelerating drift it takes few, long steps)
SETTLE_MIN_STEPS = 32


@dataclass
class ODESolution:
    """Trajectory of the ODE.

    Attributes
    ----------
    t : ndarray, shape (K,)
        Times (t = steps/d).
    m : ndarray, shape (K,)
        Overlap (untied: mean of the ``m_l``, as ``SGDRun.m``, or their RMS with ``overlap="rms"``).
    e : ndarray, shape (K,)
        ``e_1`` (zero without PE).
    e_tokens : ndarray, shape (K, L)
        Per-token PE overlaps ``e_l``.
    m_tokens, Q_tokens : ndarray, shape (K, L), or None
        Untied students: ``m_l`` and ``Q_l``.
    crossing_time : float
        First time with ``|m| ≥ threshold`` (``nan`` if not reached or no threshold).
    status : int
        ``solve_ivp`` status (0: reached t_max, 1: stopped by an event: the threshold,
        ``give_up_below`` or ``stop_when_settled``).
    message : str
        Why the integration stopped, in words.
    settled : bool
        Stopped by ``stop_when_settled``: the state is stationary below the threshold.
    crossings : dict
        First time with ``|m| ≥ level`` for each level of ``record_at`` (``nan`` if not reached).
    """

    t: np.ndarray
    m: np.ndarray
    e: np.ndarray
    e_tokens: np.ndarray
    m_tokens: np.ndarray | None
    Q_tokens: np.ndarray | None
    crossing_time: float
    status: int
    message: str
    settled: bool = False
    crossings: dict = field(default_factory=dict)

    def steps(self, d: int) -> np.ndarray:
        """SGD steps ``t·d`` at dimension ``d``."""
        return self.t * d


class EscapeSteps(float):
    """The steps :func:`escape_time` returns (a float), with ``reason``: why it is ``inf`` when it
    is (threshold not reached by ``t_max``, overlap fell to ``give_up_below``, state settled below
    the threshold), or where the threshold was reached."""

    reason: str

    def __new__(cls, value, reason: str = ""):
        steps = super().__new__(cls, value)
        steps.reason = reason
        return steps

    def __reduce__(self):
        return (EscapeSteps, (float(self), self.reason))


class StationarityEvent:
    """A terminal ``solve_ivp`` event: the state has settled below the threshold.

    solve_ivp evaluates events at every accepted step (increasing t), and at earlier times only
    to locate a sign change. The accepted states are summarised over windows [s, 2s): each
    coordinate's range, the number of steps and the largest overlap. The state counts as settled
    when, over a closed window, the overlap stayed below the threshold, every coordinate stayed
    within ``SETTLE_TOLERANCES`` solver tolerances and did not move more than ``SETTLE_GROWTH``
    times its range over the window before, and the solver took ≥ ``SETTLE_MIN_STEPS`` steps.
    (An explicit solver at a stable fixed point dithers at its tolerance with steps at its
    stability limit, so without this test the integration to a far ``t_max`` never ends; the event
    changes no step, so results that do cross are unchanged.) The event is +1 before the time it
    settled and −1 from then on.
    """

    terminal = True
    direction = -1.0

    def __init__(self, overlap_of, threshold: float, rtol: float, atol: float):
        self.overlap_of, self.threshold, self.rtol, self.atol = overlap_of, threshold, rtol, atol
        self.last_t = -math.inf
        self.window = None          # the open window: start, end, lo, hi, steps, top overlap
        self.previous = None        # the last closed window's ranges
        self.settled_at = math.inf
        self.reason = ""

    def __call__(self, t, y):
        if t > self.last_t and math.isinf(self.settled_at):
            self.last_t = t
            self._record(t, np.asarray(y, dtype=float))
        return -1.0 if t >= self.settled_at else 1.0

    def _record(self, t, y):
        top = abs(self.overlap_of(y))
        w = self.window
        if w is not None and t < w["end"]:
            np.minimum(w["lo"], y, out=w["lo"])
            np.maximum(w["hi"], y, out=w["hi"])
            w["steps"] += 1
            w["top"] = max(w["top"], top)
            return
        if w is not None:
            self._close(w, t)
        start = max(t, np.finfo(float).tiny)
        self.window = {"start": start, "end": 2 * start, "lo": y.copy(), "hi": y.copy(), "steps": 1, "top": top}

    def _close(self, w, t):
        spread = w["hi"] - w["lo"]
        previous, self.previous = self.previous, spread
        if previous is None or w["steps"] < SETTLE_MIN_STEPS or w["top"] >= self.threshold:
            return
        scale = np.maximum(np.abs(w["lo"]), np.abs(w["hi"]))
        within = spread <= SETTLE_TOLERANCES * (self.rtol * scale + self.atol)
        not_growing = spread <= SETTLE_GROWTH * previous
        if np.all(within & not_growing):
            self.settled_at = t
            self.reason = (f"|m| settled at {self.overlap_of(w['hi']):.4g}, below the threshold {self.threshold:g}: "
                           f"over t ∈ [{w['start']:.4g}, {w['end']:.4g}] the state stayed within "
                           f"{SETTLE_TOLERANCES} solver tolerances (stationary), so |m| cannot reach the threshold")


def sie_learning_rate(d: float, k: float, base: float = 1.0) -> float:
    """Learning rate η(d) for the escape at SIE ``k`` (docs/theory.md, "The ODE").

    ``base`` for k = 1; ``base / log d`` for k = 2; ``base · d^(−(k−2)/2)`` for k ≥ 3,
    so that the drift ``η c_k m^(k−1)`` beats the noise ``(η²/2) ν m`` at m ≈ d^(−1/2).
    """
    if not (k >= 1) or math.isinf(k):
        raise ValueError(f"k={k!r} is not allowed; the SIE must be a finite number ≥ 1")
    if k == 1:
        return float(base)
    if k == 2:
        return float(base) / math.log(d)
    return float(base) * float(d) ** (-(k - 2) / 2)


def _check_token_symmetric(problem, seed=11):
    """Raise unless the target is invariant under token permutations (checked at random points)."""
    L = problem.L
    rng = np.random.default_rng(seed)
    z = rng.standard_normal((16, L))
    g = problem.target_value(z)
    for perm in (np.roll(np.arange(L), 1), np.r_[1, 0, 2:L] if L > 1 else np.arange(L)):
        if not np.allclose(problem.target_value(z[:, perm]), g, rtol=1e-10, atol=1e-10):
            raise ValueError(f"token_symmetric=True needs a target invariant under token permutations; "
                             f"{problem.target!r} is not")


def _rhs_factory(problem, lr, lr_schedule, noise, quadrature, token_symmetric=False):
    integ = integrator(problem, quadrature.get("n_points"), quadrature.get("method", "auto"),
                        quadrature.get("budget", ODE_BUDGET), quadrature.get("qmc_log2", 14),
                        quadrature.get("qmc_reps", 8), quadrature.get("seed", 0))
    L = problem.L
    P = problem.pe_matrix()
    noise_factor = 1.0 if noise else 0.0

    def unpack(vec):
        return (vec[1:1 + L], vec[1 + L:1 + 2 * L], vec[1 + 2 * L:1 + 3 * L],
                vec[1 + 3 * L:1 + 4 * L], vec[1 + 4 * L:1 + 5 * L])

    def eta(t):
        return lr * (lr_schedule(t) if lr_schedule is not None else 1.0)

    if problem.tied:
        def rhs(t, y):
            m = min(max(y[0], -1.0), 1.0)
            eps = y[1:]
            vec, _ = integ.tied(m, P @ eps)
            a_zs, a_q, a_xi, a, a2 = unpack(vec)
            n, nu, s_aq = eta(t), a2.sum(), a_q.sum()
            s = math.sqrt(max(1 - m * m, 0.0))
            ratio = eps / s if s > 1e-12 else np.zeros_like(eps)
            dm = -n * a_zs.sum() + n * y[0] * s_aq - noise_factor * 0.5 * n * n * nu * y[0]
            de = (-n * (P.T @ a + ratio * a_xi.sum()) + n * eps * s_aq
                  - noise_factor * 0.5 * n * n * nu * eps)
            return np.concatenate([[dm], de])
    else:
        def rhs(t, y):
            m, Q = y[:L], y[L:]
            Qc = np.maximum(Q, m * m)
            vec, _ = integ.untied(m, Qc)
            a_zs, a_z, _, _, a2 = unpack(vec)
            n, nu, s_az = eta(t), a2.sum(), a_z.sum()
            dm = -n * a_zs + (n / L) * m * s_az - noise_factor * (n * n / (2 * L)) * m * nu
            dQ = (-2 * n * a_z + noise_factor * n * n * a2 + (2 * n / L) * Q * s_az
                  - noise_factor * (n * n / L) * Q * nu)
            return np.concatenate([dm, dQ])

        if token_symmetric:
            # all tokens equivalent (symmetric target and initial state): the state (m_l, Q_l) =
            # (m, Q) for every l is invariant under the untied equations (docs/theory.md, "The ODE"), so
            # one token's pair (m, Q) is integrated, with the L-token moments at that state
            untied_rhs = rhs

            def rhs(t, y):
                return untied_rhs(t, np.repeat(y, L))[[0, L]]
    return rhs


def integrate_ode(problem, lr, m0, e0=0.0, t_max: float = 100.0, *, Q0=None, lr_schedule=None,
                  threshold: float | None = None, stop_at_threshold: bool = False, t_eval=None,
                  noise: bool = True, solver: str = "RK45", rtol: float = 1e-7, atol: float = 1e-10,
                  max_step: float = np.inf, quadrature: dict | None = None,
                  token_symmetric: bool = False, overlap: str = "mean",
                  give_up_below: float | None = None, stop_when_settled: bool = False,
                  record_at=()) -> ODESolution:
    """Integrate the ODE (docs/theory.md, "The ODE") with ``scipy.integrate.solve_ivp``.

    Parameters
    ----------
    problem : Problem
    lr : float
        Learning rate η.
    m0 : float or array_like
        Initial overlap (untied: a float or L values ``m_l``).
    e0 : float or array_like, default 0
        Tied: initial PE overlaps (opposite PE: ``e_1``; orthonormal: the L values ``e_l``).
    t_max : float
        Final time (t = steps/d).
    Q0 : array_like, optional
        Untied: initial ``Q_l`` (default 1).
    lr_schedule : callable, optional
        ``t -> factor``: the learning rate at time t is ``lr · lr_schedule(t)``.
    threshold : float, optional
        Record the first time with ``|m| ≥ threshold``.
    stop_at_threshold : bool
        Stop there.
    t_eval : array_like, optional
        Output times (default: the solver's steps).
    noise : bool
        Keep the η² (SGD noise) terms; False gives projected gradient flow.
    solver, rtol, atol, max_step
        Passed to ``solve_ivp``.
    quadrature : dict, optional
        Integration options of :func:`ssi.population.expectations` (``n_points``,
        ``method``, ``budget`` — default :data:`ODE_BUDGET` —, ``qmc_log2``, ``qmc_reps``, ``seed``).
    token_symmetric : bool
        Untied only: integrate one token's ``(m, Q)`` (2 equations instead of 2L), valid when
        the target is invariant under token permutations and every token starts at the same
        ``(m0, Q0)`` — the untied equations keep such a state symmetric. Checked on the target.
    overlap : {"mean", "rms"}
        Untied only: the overlap the threshold and ``m`` refer to, ``mean_l m_l`` or
        ``(mean_l m_l²)^(1/2)`` (the authors' "l2" overlap of untied networks).
    give_up_below : float, optional
        Stop (status 1, no crossing) when the overlap falls to this value: the noise term has
        won and the escape will not happen (saves integrating a collapsing state to ``t_max``).
    stop_when_settled : bool
        With a ``threshold`` and no ``lr_schedule`` (the equations are then autonomous): stop
        (status 1, ``settled``, no crossing) once the state has settled below the threshold — a
        stationary state never reaches it (see :class:`StationarityEvent` for the test). Without it,
        an explicit solver spends ~one step per unit of time at a stable fixed point, and a far
        ``t_max`` never ends.
    record_at : sequence of float
        More levels, none above ``threshold``: the first time ``|m|`` reaches each is recorded in
        ``ODESolution.crossings`` (non-terminal events: they change no step, so each time is the
        one an integration stopping at that level finds, the stationarity test included — it
        cannot fire on a window where ``|m|`` passed the lower level).

    Returns
    -------
    ODESolution
    """
    check_problem(problem)
    for name, value in (("lr", lr), ("t_max", t_max), ("rtol", rtol), ("atol", atol)):
        check_number(name, value, low=0, low_open=True)
    for name, value in (("m0", m0), ("e0", e0), ("record_at", record_at), ("Q0", Q0)):
        check_array(name, value, optional=name == "Q0")
    check_number("threshold", threshold, low=0, high=1, low_open=True, optional=True)
    check_number("give_up_below", give_up_below, low=0, optional=True)
    check_callable("lr_schedule", lr_schedule, "a function of the time t returning a factor of lr")
    for name, flag in (("stop_at_threshold", stop_at_threshold), ("noise", noise),
                       ("token_symmetric", token_symmetric), ("stop_when_settled", stop_when_settled)):
        check_flag(name, flag)
    L = problem.L
    quadrature = dict(quadrature or {})
    if stop_when_settled and threshold is None:
        raise ValueError("stop_when_settled=True needs a threshold (settled below what?)")
    if overlap not in ("mean", "rms"):
        raise ValueError(f"overlap={overlap!r} is unknown; allowed: mean, rms")
    if problem.tied and (token_symmetric or overlap != "mean"):
        raise ValueError("token_symmetric and overlap='rms' are options of untied students")
    if problem.tied:
        if Q0 is not None:
            raise ValueError("Q0 is only used for untied students")
        _, m_flat, eps, _ = tied_state(problem, m0, e0)
        if m_flat.size != 1:
            raise ValueError("integrate_ode takes one initial state")
        y0 = np.concatenate([m_flat, eps[0]])
    else:
        if np.any(np.asarray(e0) != 0):
            raise ValueError("untied students have no positional encoding: e0 must be 0")
        m_vec = np.broadcast_to(np.asarray(m0, float), (L,)).copy()
        Q_vec = np.ones(L) if Q0 is None else np.broadcast_to(np.asarray(Q0, float), (L,)).copy()
        y0 = np.concatenate([m_vec, Q_vec])
        if token_symmetric:
            _check_token_symmetric(problem)
            if np.ptp(m_vec) > 0 or np.ptp(Q_vec) > 0:
                raise ValueError("token_symmetric=True needs the same m0 and Q0 for every token")
            y0 = np.array([m_vec[0], Q_vec[0]])
    rhs = _rhs_factory(problem, float(lr), lr_schedule, noise, quadrature, token_symmetric)
    n_tok = 1 if token_symmetric else L

    def overlap_of(y):
        if problem.tied:
            return y[0]
        m_tok = y[:n_tok]
        return m_tok.mean() if overlap == "mean" else math.sqrt(np.mean(m_tok * m_tok))

    events = None
    crossing = math.nan
    if threshold is not None:
        if abs(overlap_of(y0)) >= threshold:
            crossing = 0.0

        def event(t, y):
            return abs(overlap_of(y)) - threshold

        event.terminal = bool(stop_at_threshold) and math.isnan(crossing)
        event.direction = 1.0
        events = [event] if math.isnan(crossing) else None
    crossings, recorded = {}, {}
    for level in record_at:
        level = float(level)
        if threshold is None or level > threshold:
            raise ValueError(f"record_at level {level:g} must not exceed the threshold {threshold}")
        if level in crossings:
            continue
        crossings[level] = 0.0 if abs(overlap_of(y0)) >= level else math.nan
        if math.isnan(crossings[level]):
            def passed(t, y, level=level):
                return abs(overlap_of(y)) - level

            passed.direction = 1.0
            recorded[level] = len(events or [])
            events = (events or []) + [passed]
    if give_up_below is not None:
        def collapse(t, y):
            return abs(overlap_of(y)) - give_up_below

        collapse.terminal = True
        collapse.direction = -1.0
        events = (events or []) + [collapse]
    stationarity = None
    if stop_when_settled and lr_schedule is None and math.isnan(crossing):
        stationarity = StationarityEvent(overlap_of, float(threshold), rtol, atol)
        events = (events or []) + [stationarity]
    from scipy.integrate import solve_ivp  # imported here: 0.5 s of every job's start-up otherwise

    sol = solve_ivp(rhs, (0.0, float(t_max)), y0, method=solver, t_eval=t_eval, events=events,
                    rtol=rtol, atol=atol, max_step=max_step)
    if threshold is not None and math.isnan(crossing) and sol.t_events[0].size:
        crossing = float(sol.t_events[0][0])
    for level, index in recorded.items():
        if sol.t_events[index].size:
            crossings[level] = float(sol.t_events[index][0])
    message = sol.message
    settled = stationarity is not None and sol.t_events[-1].size > 0
    if settled:
        message = stationarity.reason
    elif give_up_below is not None and sol.status == 1 and math.isnan(crossing):
        message = f"|m| fell to give_up_below = {give_up_below:g}: the noise term won, no escape"
    elif threshold is not None and math.isnan(crossing) and sol.status == 0:
        message = f"|m| did not reach the threshold {threshold:g} by t_max = {float(t_max):g}"
    Y = sol.y.T
    P = problem.pe_matrix()
    if problem.tied:
        m, e_tok = Y[:, 0], Y[:, 1:] @ P.T
        m_tok = Q_tok = None
    else:
        m_tok, Q_tok = Y[:, :n_tok], Y[:, n_tok:]
        if token_symmetric:
            m_tok, Q_tok = np.repeat(m_tok, L, axis=1), np.repeat(Q_tok, L, axis=1)
        m = m_tok.mean(axis=1) if overlap == "mean" else np.sqrt(np.mean(m_tok * m_tok, axis=1))
        e_tok = np.zeros((Y.shape[0], L))
    return ODESolution(t=sol.t, m=m, e=e_tok[:, 0], e_tokens=e_tok, m_tokens=m_tok, Q_tokens=Q_tok,
                       crossing_time=crossing, status=sol.status, message=message, settled=settled,
                       crossings=crossings)


def escape_time(problem, d: int, lr: float, threshold: float, m0: float | None = None, *,
                e0=0.0, t_max: float = 1e12, **kwargs) -> float:
    """Steps ``t·d`` at which the ODE's ``|m|`` first reaches ``threshold``.

    Parameters
    ----------
    problem : Problem
    d : int
        Dimension (sets the default start and converts time to steps).
    lr : float
        Learning rate (e.g. from :func:`sie_learning_rate`).
    threshold : float or ssi.escape.Escape
        Weak-recovery threshold on ``|m|``, or an escape definition whose level at ``d`` is used
        (:meth:`ssi.escape.Escape.value`).
    m0 : float, optional
        Initial overlap, default ``d^(−1/2)``.
    e0 : float or array_like
        Initial PE overlaps.
    t_max : float
        Give up after this time (finite).
    **kwargs
        Passed to :func:`integrate_ode`. ``stop_when_settled`` is on unless given: the
        integration stops once the state is stationary below the threshold.

    Returns
    -------
    EscapeSteps
        Steps to the threshold (a float), ``inf`` if not reached by ``t_max``, if the overlap fell
        to ``give_up_below``, or if the state settled below the threshold; ``.reason`` says which.
    """
    check_number("d", d, low=0, low_open=True)             # problem, lr, m0, e0, t_max: in integrate_ode
    if isinstance(threshold, Escape):
        threshold = threshold.value(d)
    check_number("threshold", threshold, low=0, high=1, low_open=True)
    m0 = d ** -0.5 if m0 is None else m0
    kwargs.setdefault("stop_when_settled", True)
    sol = integrate_ode(problem, lr, m0, e0, t_max, threshold=threshold, stop_at_threshold=True,
                        **kwargs)
    if math.isnan(sol.crossing_time):
        return EscapeSteps(math.inf, sol.message)
    return EscapeSteps(sol.crossing_time * d, f"|m| reached {threshold:g} at t = {sol.crossing_time:.6g}")


def escape_times(problem, d: int, lr: float, thresholds, m0: float | None = None, *,
                 e0=0.0, t_max: float = 1e12, **kwargs) -> dict:
    """:func:`escape_time` at several thresholds from one integration.

    The integration stops at the highest threshold and records where ``|m|`` first reaches the
    others (``record_at`` of :func:`integrate_ode`); each value equals the one
    :func:`escape_time` returns for that threshold alone.

    Returns
    -------
    dict
        threshold -> :class:`EscapeSteps`.
    """
    check_number("d", d, low=0, low_open=True)             # the other arguments: in integrate_ode
    check_array("thresholds", thresholds)
    levels = [float(v) for v in thresholds]
    top = max(levels)
    m0 = d ** -0.5 if m0 is None else m0
    kwargs.setdefault("stop_when_settled", True)
    sol = integrate_ode(problem, lr, m0, e0, t_max, threshold=top, stop_at_threshold=True,
                        record_at=[v for v in levels if v != top], **kwargs)
    out = {}
    for level in levels:
        t = sol.crossing_time if level == top else sol.crossings[level]
        out[level] = (EscapeSteps(math.inf, sol.message) if math.isnan(t) else
                      EscapeSteps(t * d, f"|m| reached {level:g} at t = {t:.6g}"))
    return out
