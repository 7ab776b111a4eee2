"""No call hangs on bad input: each case below used to run for hours (or until the memory ran out)
and now ends in seconds, with an answer or an error that names the parameter.

* ``escape_time`` stops once the ODE state is stationary below the threshold and returns ``inf``
  with the reason (``ssi.ode.StationarityEvent``); the stop changes no number of an escape that
  does happen;
* ``integrate_ode`` rejects a non-finite ``t_max``;
* ``simulate`` rejects step counts it cannot represent;
* the explicit engine refuses a size that cannot fit in memory before allocating, naming the
  reduced engine.

Each call runs under an alarm, so a hang fails the test instead of stalling the suite.
"""
from __future__ import annotations

import contextlib
import math
import signal
import tracemalloc

import numpy as np
import pytest

from ssi.ode import SETTLE_MIN_STEPS, StationarityEvent, escape_time, integrate_ode
from ssi.problems import Problem
from ssi.sgd import simulate
from ssi.sgd.common import MAX_STEPS
from ssi.sgd.explicit import check_memory, memory_needed

#: dm/dt = η(1 − m)(1 + m − ηm) (tests/unit/test_ode.py): for η > 2 the SGD noise holds m at the
#: stable fixed point 1/(η − 1) < 1
LINEAR_IDENTITY = Problem(L=2, target="linear", student="tied", activation="identity")
#: seconds within which every call here must return (most take well under one)
LIMIT = 60


@contextlib.contextmanager
def time_limit(seconds: int = LIMIT):
    """Raise TimeoutError in the block after ``seconds`` (a hang becomes a failure)."""
    def expire(signum, frame):
        raise TimeoutError(f"still running after {seconds} s: the call hangs")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# --- escape_time: a state settled below the threshold ------------------------------------------

@pytest.mark.parametrize("eta", [3.0, 2.5])
def test_escape_time_stops_at_a_fixed_point_below_the_threshold(eta):
    """With η > 2 the overlap settles at m* = 1/(η − 1) (0.5, 0.667) below the threshold 0.9:
    escape_time returns inf, and its reason says the state settled, at which |m|. (Without the
    stationarity stop, RK45 takes ~one step per unit of time at m*: 10¹² steps to t_max.)"""
    with time_limit():
        steps = escape_time(LINEAR_IDENTITY, 10_000, eta, 0.9)
    assert math.isinf(steps)
    assert "settled" in steps.reason and "0.9" in steps.reason, steps.reason
    fixed_point = 1 / (eta - 1)
    assert f"{fixed_point:.4g}" in steps.reason, steps.reason


def test_escape_time_stops_when_the_overlap_collapses_to_zero():
    """A learning rate at which the noise term wins at SIE 2 (m → 0, the other stable state)."""
    problem = Problem(L=2, target="he2_sum", student="tied", activation="relu")
    with time_limit():
        steps = escape_time(problem, 1000, 2.0, 0.5)
    assert math.isinf(steps) and "settled" in steps.reason, steps.reason


def test_integrate_ode_reports_a_settled_state():
    """integrate_ode with stop_when_settled: status 1, settled, no crossing, the last m at m*; by
    default (figures integrate to t_max) it integrates to t_max as before."""
    with time_limit():
        sol = integrate_ode(LINEAR_IDENTITY, 3.0, 0.01, t_max=1e12, threshold=0.9, stop_when_settled=True)
    assert sol.settled and sol.status == 1 and math.isnan(sol.crossing_time)
    assert sol.m[-1] == pytest.approx(0.5, abs=1e-6)
    plain = integrate_ode(LINEAR_IDENTITY, 3.0, 0.01, t_max=300.0, threshold=0.9)
    assert not plain.settled and plain.status == 0 and plain.t[-1] == 300.0


@pytest.mark.parametrize("case", ["sie3", "sie4"])
def test_stationarity_stop_changes_no_escape(case):
    """Slow escapes (the SIE 3 and 4 plateaus of config/config.yaml's C1 at their largest ODE d, and
    the closed-form escape) give the same steps, to the last bit, with and without the stop."""
    problem, d, lr, level = {
        "sie3": (Problem(L=2, target="he3_sum_norm", student="matched"), 10_000,
                 0.0022 * (10_000 / 1000) ** -0.5, 0.5),
        "sie4": (Problem(L=2, target="he4_sum_norm", student="matched"), 3162,
                 0.00012 * (3162 / 100) ** -1, 2.0 / 3162 ** 0.5),
    }[case]
    with time_limit():
        stopped = escape_time(problem, d, lr, level)
        plain = escape_time(problem, d, lr, level, stop_when_settled=False)
    assert math.isfinite(stopped) and float(stopped) == float(plain)
    assert "reached" in stopped.reason
    closed = escape_time(LINEAR_IDENTITY, 10_000, 0.3, 0.5, noise=False)
    assert float(closed) == float(escape_time(LINEAR_IDENTITY, 10_000, 0.3, 0.5, noise=False,
                                              stop_when_settled=False))


def _feed(event, times, states):
    """The event's values at accepted steps (times increasing), as solve_ivp calls it."""
    return [event(t, np.atleast_1d(y)) for t, y in zip(times, states)]


def test_stationarity_event_tells_a_plateau_from_a_fixed_point():
    """The test behind the stop, on made-up trajectories with many solver steps per window:
    dithering at the solver tolerance around a fixed point settles; a slow linear drift (a
    plateau, range ratio 2 between windows), an exponential departure from a saddle and any
    state above the threshold never do, however small their motion."""
    times = np.linspace(1e-3, 1000, 40_000)
    rng = np.random.default_rng(0)

    def event():
        return StationarityEvent(lambda y: y[0], threshold=0.9, rtol=1e-7, atol=1e-10)

    dither = 0.5 + 3e-8 * rng.uniform(-1, 1, times.size)
    fixed = event()
    values = _feed(fixed, times, dither)
    assert values[-1] == -1.0 and values[0] == 1.0 and math.isfinite(fixed.settled_at)
    assert "settled at 0.5" in fixed.reason
    for name, path in {"plateau": 1e-3 + 1e-12 * times,
                       # m held at a fixed point while another coordinate leaves a saddle
                       "saddle": np.column_stack([dither, 1e-30 * np.exp(0.06 * times)]),
                       "above the threshold": 0.95 + 3e-8 * rng.uniform(-1, 1, times.size)}.items():
        watch = event()
        assert set(_feed(watch, times, path)) == {1.0}, name
    # too few solver steps per window (long, accurate steps): never settles
    sparse = event()
    assert set(_feed(sparse, np.geomspace(1e-3, 1e3, 8 * SETTLE_MIN_STEPS), np.full(8 * SETTLE_MIN_STEPS, 0.5))) == {1.0}


# --- integrate_ode: t_max -----------------------------------------------------------------------

@pytest.mark.parametrize("t_max", [math.inf, math.nan, -1.0, 0.0, "10"])
def test_integrate_ode_rejects_a_t_max_it_cannot_reach(t_max):
    with time_limit(), pytest.raises(ValueError, match="t_max"):
        integrate_ode(LINEAR_IDENTITY, 0.3, 0.1, t_max=t_max)


def test_escape_time_rejects_an_infinite_t_max():
    with time_limit(), pytest.raises(ValueError, match="t_max=inf"):
        escape_time(LINEAR_IDENTITY, 1000, 0.3, 0.5, t_max=math.inf)


# --- simulate: step counts ----------------------------------------------------------------------

@pytest.mark.parametrize("steps", [MAX_STEPS + 1, 2 ** 63, 10 ** 30])
@pytest.mark.parametrize("engine", ["reduced", "explicit"])
def test_simulate_rejects_step_counts_it_cannot_represent(steps, engine):
    """Beyond 2^53 the float64 recording schedule cannot hold the count (at 2^63 its cast to int64
    overflows, and the run never ends): refused, naming steps and the bound."""
    with time_limit(), pytest.raises(ValueError, match=r"steps=\d+ is not allowed.*2\^53"):
        simulate(LINEAR_IDENTITY, d=100, lr=0.1, steps=steps, engine=engine)


def test_simulate_takes_the_largest_representable_count_up_to_its_records():
    """2^53 itself is allowed: with an explicit record list the run stops at its last record."""
    with time_limit():
        run = simulate(LINEAR_IDENTITY, d=100, lr=0.1, steps=MAX_STEPS, record=[0, 10])
    assert run.steps.tolist() == [0, 10]


# --- explicit engine: sizes that cannot fit -----------------------------------------------------

@pytest.mark.parametrize("d, replicates", [(10 ** 12, 1), (10 ** 9, 64)])
def test_explicit_engine_refuses_an_impossible_size_before_allocating(d, replicates):
    """Terabytes of R^d arrays: refused in well under a second with next to no memory allocated,
    and the message names the reduced engine."""
    tracemalloc.start()
    try:
        with time_limit(), pytest.raises(ValueError, match="engine='reduced'") as err:
            simulate(LINEAR_IDENTITY, d=d, lr=0.1, steps=10, replicates=replicates, engine="explicit")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert f"d={d}" in str(err.value) and "GiB" in str(err.value)
    assert peak < 50 * 2 ** 20, f"{peak / 2**20:.0f} MiB allocated before the refusal"


def test_memory_bound_is_below_what_the_engine_uses():
    """The refusal never turns away a size that fits: the bound is at most the engine's measured
    peak (tied and untied, with PE), and the check passes for any size within the memory given."""
    for problem in (Problem(L=2, target="he2_sum", student="tied", pe="opposite"),
                    Problem(L=3, target="he2_sum", student="untied")):
        d, replicates = 20_000, 3
        tracemalloc.start()
        try:
            simulate(problem, d=d, lr=0.1, steps=4, replicates=replicates, engine="explicit")
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        needed = memory_needed(problem, d, replicates)
        assert needed <= peak, (problem.student, needed, peak)
        check_memory(problem, d, replicates, available=needed)
        with pytest.raises(ValueError, match="engine='reduced'"):
            check_memory(problem, d, replicates, available=needed - 1)


def test_reduced_engine_takes_sizes_the_explicit_one_refuses():
    with time_limit():
        run = simulate(LINEAR_IDENTITY, d=10 ** 12, lr=0.1, steps=100, replicates=2, engine="reduced")
    assert run.m.shape[0] == 2 and np.all(np.isfinite(run.m))



def test_cli_escape_says_why_it_is_inf(capsys):
    """`python -m ssi escape` at the fixed point below the threshold: inf, with the reason."""
    from ssi.cli import main

    with time_limit():
        status = main(["escape", "--L", "2", "--target", "linear", "--student", "tied", "--activation", "identity",
                       "--d", "10000", "--lr", "3", "--threshold", "0.9", "--t-max", "1e12"])
    out = capsys.readouterr().out
    assert status == 0
    assert "escape steps: inf (|m| settled at 0.5, below the threshold 0.9" in out, out
