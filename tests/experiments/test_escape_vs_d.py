"""Claim C1 (ssi.experiments.escape_vs_d): the SIEs of the family, the mean-crossing stop, the
theory laws, and the summary on tiny runs.

* The family (1/√2) Σ_l h_k(z_l) with the matched student, L = 2, has SIE k (computed by the
  Hermite code) and population loss exactly 1 − m^k; it is even in m for even k only.
* ``simulate(..., stop_when=...)`` only truncates: the records of a stopped run equal the first
  records of the full run with the same seed, so the mean crossing is the same.
* The small-m laws with the schedules of docs/theory.md, "The ODE", are the claim's laws: d^(k−1) for k ≥ 3,
  d log² d for k = 2 with η ∝ 1/log d, d for k = 1 with constant η.
* ``summarise`` on tiny runs: finite times, bars around the point, an interval containing the
  fitted slope, and the explicit engine agreeing with the reduced one within 3 standard errors.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from ssi import Problem, population_loss, sie
from ssi.experiments import escape_vs_d as E
from ssi.sgd import simulate


def family(k):
    return Problem(L=2, target=f"he{k}_sum_norm", student="matched")


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_family_has_sie_k_and_loss_one_minus_m_to_the_k(k):
    p = family(k)
    assert sie(p) == k
    m = np.array([-0.7, -0.2, 0.0, 0.3, 0.9])
    np.testing.assert_allclose(population_loss(p, m=m), 1 - m ** k, atol=1e-8)
    assert E.is_symmetric(p) == (k % 2 == 0)


def test_mean_crossing_interpolates_and_reports_inf():
    steps = np.array([0, 10, 100, 1000])
    m = np.array([[0.1, 0.2, 0.4, 0.8], [0.1, 0.2, 0.6, 0.8]])      # mean 0.1, 0.2, 0.5, 0.8
    assert E.mean_crossing(steps, m, 0.5) == pytest.approx(100.0)
    assert E.mean_crossing(steps, m, 0.35) == pytest.approx(math.exp(math.log(10) + 0.5 * math.log(10)))
    assert E.mean_crossing(steps, m, 0.9) == math.inf


def test_stop_when_only_truncates():
    p, d = family(2), 200
    args = dict(seed=(7, 1), m0=d ** -0.5, points_per_decade=20)
    full = simulate(p, d, 0.2, 40 * d, 8, **args)
    stop = E.mean_stopper(0.5, 1.25, symmetric=True)
    short = simulate(p, d, 0.2, 40 * d, 8, stop_when=stop, **args)
    K = short.steps.size
    assert K < full.steps.size
    np.testing.assert_array_equal(short.m, full.m[:, :K])
    stat = lambda run: E.overlap_statistic(run.m, True)  # noqa: E731
    assert E.mean_crossing(short.steps, stat(short), 0.5) == E.mean_crossing(full.steps, stat(full), 0.5)
    crossed = full.steps[np.argmax(stat(full).mean(axis=0) >= 0.5)]
    assert short.steps[-1] >= 1.25 * crossed and short.steps[-2] < 1.25 * crossed


@pytest.mark.parametrize("k, schedule", [
    (1, {"lr": 0.5}),
    (2, {"lr": 0.25, "scaling": "inverse_log", "d_ref": 100}),
    (3, {"lr": 0.002, "scaling": "power", "exponent": -0.5, "d_ref": 1000}),
    (4, {"lr": 1e-4, "scaling": "power", "exponent": -1, "d_ref": 100}),
])
def test_macro_law_with_the_science_schedules_is_the_claimed_law(k, schedule):
    dims = np.array([100, 1000, 10 ** 4, 10 ** 5])
    ratio = E.predicted_steps(k, "macro", schedule, dims) / E.claimed_steps(k, dims)
    np.testing.assert_allclose(ratio, ratio[0], rtol=1e-12)
    early = E.predicted_steps(k, "early", schedule, dims)
    # the authors' early level: √d for k = 1, d log d for k = 2 (η ∝ 1/log d), d^(k−1) for k ≥ 3
    expected = {1: np.sqrt(dims), 2: dims * np.log(dims)}.get(k, dims ** (k - 1.0))
    np.testing.assert_allclose(early / expected, (early / expected)[0], rtol=1e-12)


def _tiny_config(tmp_path):
    return {
        "seed": 1, "engine": "reduced", "results_dir": str(tmp_path),
        "escape_vs_d": {
            "replicates": 16, "points_per_decade": 20,
            "escape": {"early": {"level": "2/sqrt(d)", "overlap": "aligned_m", "statistic": "mean_curve",
                                 "censored": True},
                       "macro": {"level": 0.5, "overlap": "aligned_m", "statistic": "mean_curve", "censored": True}},
            "overshoot": 1.25, "bootstrap": 200,
            "cases": {"sie2": {"problem": {"L": 2, "target": "he2_sum_norm", "student": "matched"},
                               "schedule": {"lr": 0.25, "scaling": "inverse_log", "d_ref": 100},
                               "t_max": 400, "dims": [100, 300], "explicit_dims": [100],
                               "ode_dims": [100, 300]}},
        },
    }


def test_summarise_tiny_runs_and_explicit_engine_agrees(tmp_path):
    config = _tiny_config(tmp_path)
    for (case, d, engine), stem in E.stems(config, "sgd").items():
        E.sgd_point(config, case, d, engine, stem)
    for case, stem in E.stems(config, "ode").items():
        E.ode_point(config, case, stem)
    numbers = E.summarise(config)
    assert len(numbers["rows"]) == 3
    for row in numbers["rows"]:
        for level in E.LEVELS:
            assert math.isfinite(row[f"{level}_steps"]) and math.isfinite(row[f"{level}_ode"])
            assert row[f"{level}_low"] <= row[f"{level}_steps"] <= row[f"{level}_high"]
    for fit in numbers["fits"]:
        assert fit["sie"] == 2
        assert fit["exponent_sgd_low"] <= fit["exponent_sgd"] <= fit["exponent_sgd_high"]
    assert len(numbers["explicit"]) == 2
    for check in numbers["explicit"]:
        assert abs(check["z"]) < 3, check
    rows = E.claim_rows(config, numbers)
    assert len(rows) == 1 and "SIE 2" in rows[0]["claim"]


def test_page_tables_quote_every_row_of_the_committed_numbers():
    """docs/results/escape_vs_d.md's tables (the page generator's _escape_vs_d.md.j2 on
    ssi.experiments.escape_vs_d.tables.context) list every fit, every point and every
    explicit-engine comparison of the numbers file."""
    import json
    from pathlib import Path

    from pagegen.pages import result_table

    root = Path(__file__).resolve().parents[2]
    numbers = json.loads((root / "figures/numbers/escape_vs_d.json").read_text())
    rows = {name: [line for line in result_table(root, "escape_vs_d", name).splitlines()[2:] if line.startswith("|")]
            for name in ("fits", "escapes", "explicit")}
    assert len(rows["fits"]) == len(numbers["fits"])
    assert len(rows["escapes"]) == len(numbers["rows"])
    assert len(rows["explicit"]) == len(numbers["explicit"])


def test_law_slope_of_d_log_squared_d():
    """The local slope of d log² d over a decade: 1 + 2 log(log d₂/log d₁)/log(d₂/d₁)."""
    import math

    from ssi.experiments.escape_vs_d.tables import law_slope

    assert law_slope("d^3", 10, 100) == 3
    assert law_slope("d log² d", 100, 1000) == pytest.approx(1 + 2 * math.log(1.5) / math.log(10))
