"""Claim C3 (ssi.experiments.positional): the SIEs the figures show, the Hessian, and the
summary on tiny runs.

* The SIE of every landscape panel and of the escape target is what the Hermite code
  computes, and equals the values stated in the figure captions and docs/results/positional.md: he2_sum 2 / 2,
  he4_sum 4 / 4 (joint 2 with PE: the pure-e term), he4_sum_plus_diff 4 / 2, with a
  descending leading form for the escape target in both cases.
* ``positional.hessian`` (central differences of ``population_loss``, step 1e-3) agrees with
  the Taylor coefficients of ``sie_report`` (an independent route: Hermite coefficients by
  quadrature) to 1e-4, and with a plain 5-point finite difference of the loss at another step.
* ``summarise`` on tiny SGD/ODE runs gives finite medians and an exponent interval that
  contains the point estimate; ``claim_rows`` builds its row.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from ssi import Problem, population_loss, sie
from ssi.experiments import positional
from ssi.hermite import sie_report


def attention(target, pe):
    return Problem(L=2, target=target, student="attention", pe=pe, reduction="trace")


@pytest.mark.parametrize("target, pe, overlap, joint", [
    ("he2_sum", "none", 2, 2),
    ("he2_sum", "opposite", 2, 2),
    ("he4_sum", "none", 4, 4),
    ("he4_sum", "opposite", 4, 2),
    ("he4_sum_plus_diff", "none", 4, 4),
    ("he4_sum_plus_diff", "opposite", 2, 2),
])
def test_landscape_sies(target, pe, overlap, joint):
    p = attention(target, pe)
    assert sie(p) == overlap
    assert sie(p, definition="joint") == joint


def test_escape_target_lowers_the_sie_and_descends():
    """4 → 2 with a descending leading form on both sides: −0.069 m⁴ without PE, an m·e
    term (−1/(2√2)) with opposite PE; ∂²R/∂e² ≈ +0.52 is the same with any centred target."""
    none, pe = sie_report(attention("he4_sum_plus_diff", "none")), sie_report(attention("he4_sum_plus_diff", "opposite"))
    assert (none.order, pe.order) == (4, 2)
    assert none.descends and pe.descends
    assert list(none.leading) == [(4, ())] and none.leading[(4, ())] < 0
    assert list(pe.leading) == [(1, (1,))]
    assert pe.leading[(1, (1,))] == pytest.approx(-0.5 / math.sqrt(2), rel=1e-6)
    # the He₄ part alone, with the trace student, has a rising m⁴ term (m = 0 a local minimum)
    assert not sie_report(attention("he4_sum", "none")).descends


@pytest.mark.parametrize("target", ["he2_sum", "he4_sum_plus_diff", "z1_minus_z2"])
def test_hessian_matches_taylor_coefficients(target):
    p = attention(target, "opposite")
    H = positional.hessian(p, 1e-3)
    coef = sie_report(p).coefficients
    expected = np.array([[2 * coef.get((0, (2,)), 0.0), coef.get((1, (1,)), 0.0)],
                         [coef.get((1, (1,)), 0.0), 2 * coef.get((2, (0,)), 0.0)]])
    np.testing.assert_allclose(H, expected, atol=1e-4)
    np.testing.assert_allclose(H, H.T)


def test_hessian_matches_an_independent_finite_difference():
    """5-point second differences at step 0.02 (error O(h⁴)) against the 3-point ones of the module."""
    p = attention("he4_sum_plus_diff", "opposite")
    h = 0.02
    R = lambda m, e: float(population_loss(p, m=m, e=e))  # noqa: E731
    d2 = lambda f: (-f(2 * h) + 16 * f(h) - 30 * f(0.0) + 16 * f(-h) - f(-2 * h)) / (12 * h * h)  # noqa: E731
    hee, hmm = d2(lambda x: R(0.0, x)), d2(lambda x: R(x, 0.0))
    hem = (R(h, h) - R(-h, h) - R(h, -h) + R(-h, -h)) / (4 * h * h)
    H = positional.hessian(p, 1e-3)
    np.testing.assert_allclose(H, [[hee, hem], [hem, hmm]], atol=2e-4)
    no_pe = positional.hessian(attention("he2_sum", "none"), 1e-3)
    assert no_pe[0, 0] == no_pe[0, 1] == 0.0
    assert no_pe[1, 1] == pytest.approx(2 * sie_report(attention("he2_sum", "none")).leading[(2, ())], abs=1e-4)


TINY = {
    "seed": 7, "engine": "reduced",
    "positional": {
        "replicates": 6, "points_per_decade": 8, "trajectory_d": 32,
        "escape": {"replicates": {"level": 0.5, "overlap": "abs_m", "statistic": "median"},
                   "curve": {"level": 0.5, "overlap": "abs_m", "statistic": "mean_curve"}},
        "landscape": {"problem": {"L": 2, "student": "attention", "reduction": "trace"},
                      "targets": ["he4_sum_plus_diff"], "grid": 9, "quadrature_points": 12, "hessian_step": 1e-3},
        "cases": {
            "opposite": {"problem": {"L": 2, "target": "he4_sum_plus_diff", "student": "attention",
                                     "reduction": "trace", "pe": "opposite"},
                         "schedule": {"lr": 0.2}, "t_max": 600, "dims": [32, 100], "ode_dims": [32, 100]},
        },
    },
}


@pytest.mark.slow
def test_summarise_on_tiny_runs(tmp_path):
    config = dict(TINY, results_dir=str(tmp_path / "results"), figures_dir=str(tmp_path / "figures"))
    for target, stem in positional.stems(config, "landscape").items():
        positional.landscape_point(config, target, stem)
    for case, stem in positional.stems(config, "ode").items():
        positional.ode_point(config, case, stem)
    for (case, d), stem in positional.stems(config, "sgd").items():
        positional.sgd_point(config, case, d, stem)
    numbers = positional.summarise(config)
    (entry,) = numbers["fits"]
    rows = positional.rows_of(numbers, "opposite")
    assert [r["d"] for r in rows] == [32, 100] and rows == numbers["rows"]
    for row in rows:
        assert row["escaped_replicates"] == 6 and math.isfinite(row["steps_median"])
        assert 0.3 < row["steps_median"] / row["steps_ode"] < 3
    assert entry["exponent_sgd_low"] <= entry["exponent_sgd"] <= entry["exponent_sgd_high"]
    sies = {(e["target"], e["pe"]): (e["sie_overlap"], e["sie_joint"]) for e in numbers["landscape"]}
    assert sies == {("he4_sum_plus_diff", "none"): (4, 4), ("he4_sum_plus_diff", "opposite"): (2, 2)}
    (row,) = positional.claim_rows(config, numbers)
    assert row["claim"].startswith("C3") and "SIE 4" in row["measured"]


def test_page_tables_quote_every_row_of_the_committed_numbers():
    """docs/results/positional.md's tables (the page generator's _positional.md.j2 on
    ssi.experiments.positional.tables.context) list every landscape, fit and escape row of the
    numbers file, and the PE speed-up over the common d."""
    import json
    from pathlib import Path

    from pagegen.pages import result_table

    root = Path(__file__).resolve().parents[2]
    numbers = json.loads((root / "figures/numbers/positional.json").read_text())
    for name, key in (("landscape", "landscape"), ("fits", "fits"), ("escapes", "rows")):
        assert len(result_table(root, "positional", name).strip("\n").splitlines()[2:]) == len(numbers[key]), name
    medians = {(r["case"], r["d"]): r["steps_median"] for r in numbers["rows"]}
    ratios = [medians["none", d] / medians["opposite_same_lr", d] for c, d in medians
              if c == "none" and ("opposite_same_lr", d) in medians]
    assert result_table(root, "positional", "speedup").startswith(f"{min(ratios):.0f}–{max(ratios):.0f}×")
