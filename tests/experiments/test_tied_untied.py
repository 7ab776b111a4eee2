"""Claim C4 (ssi.experiments.tied_untied): tied vs untied networks.

* The token-symmetric reduction of the untied ODE (2 equations instead of 2L) equals the full
  untied ODE, and both equal the tied ODE slowed by L (docs/theory.md, "The ODE", with m_l = m, Q_l = 1):
  the ODE's gain is L at any η, and the best-η searches of the two networks agree.
* ``give_up_below`` stops a collapsing ODE without changing a finite escape.
* The SIEs the figures show: 1, 2, 3 for both networks on the three cases; ∞ for the tied
  network and finite for the untied one on the null targets.
* SGD: at SIE 1 the gain T_untied/T_tied at L = 4 agrees with the ODE's 4 within 4 standard
  errors (16 replicates per network); on z₁ − z₂ the tied overlap stays at the noise level
  while the untied one grows.
* The whole chain (ODE, SGD, null, attention, summarise, claim_rows, plot) on a tiny config.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from ssi import Problem, sie
from ssi.ode import escape_time, integrate_ode
from ssi.experiments import tied_untied as tu
from ssi.experiments.tied_untied import figure as tu_figure
from ssi.experiments.tied_untied import numbers as tu_numbers
from ssi.experiments import common
from ssi.experiments.tied_untied import jobs as tu_jobs
from ssi.sgd import simulate


def test_token_symmetric_ode_is_the_full_untied_ode_and_the_tied_one_slowed_by_L():
    L, eta = 3, 0.1
    untied = Problem(L=L, target="he2_sum", student="untied")
    tied = Problem(L=L, target="he2_sum", student="tied")
    t = np.linspace(0.0, 150.0, 7)
    full = integrate_ode(untied, eta, 0.03, t_max=t[-1], t_eval=t)
    sym = integrate_ode(untied, eta, 0.03, t_max=t[-1], t_eval=t, token_symmetric=True)
    slow = integrate_ode(tied, eta, 0.03, t_max=t[-1] / L, t_eval=t / L)
    np.testing.assert_allclose(sym.m, full.m, rtol=1e-6)
    np.testing.assert_allclose(sym.Q_tokens, full.Q_tokens, rtol=1e-6)
    np.testing.assert_allclose(sym.m, slow.m, rtol=1e-6)
    assert sym.m[-1] > 5 * sym.m[0]          # the state did move
    ratio = (escape_time(untied, 100, eta, 0.5, token_symmetric=True, overlap="rms")
             / escape_time(tied, 100, eta, 0.5))
    assert ratio == pytest.approx(L, rel=1e-5)


def test_token_symmetric_rejects_asymmetric_targets_and_states():
    with pytest.raises(ValueError, match="invariant under token permutations"):
        integrate_ode(Problem(L=2, target="z1_minus_z2", student="untied"), 0.1, 0.03, t_max=1.0,
                      token_symmetric=True)
    with pytest.raises(ValueError, match="same m0"):
        integrate_ode(Problem(L=2, target="linear", student="untied"), 0.1, [0.03, 0.05], t_max=1.0,
                      token_symmetric=True)
    with pytest.raises(ValueError, match="untied"):
        integrate_ode(Problem(L=2, target="linear", student="tied"), 0.1, 0.03, t_max=1.0, overlap="rms")


@pytest.mark.parametrize("network", ["tied", "untied"])
def test_escape_memo_answers_as_one_integration_per_question(network, monkeypatch):
    """The memo's steps are those of one integration per (η, level); it integrates once per η."""
    from ssi.experiments.tied_untied import jobs as jobs

    prob = tu_jobs.problem({"target": "he2_sum", "activation": "relu"}, 2, network)
    d, m0, t_max = 100, 0.1, 1e5
    memo = jobs.EscapeMemo(prob, d, (0.5, 0.2), m0, t_max)
    for lr in (0.05, 0.3):
        for level in (0.5, 0.2):
            assert float(memo(lr, level)) == float(jobs._ode_steps(prob, d, lr, level, m0, t_max))
    calls = []
    monkeypatch.setattr(jobs, "escape_times", lambda *a, **k: calls.append(a) or {})
    memo(0.05, 0.2), memo(0.3, 0.5)
    assert not calls


def test_best_learning_rate_is_the_same_for_both_networks():
    spec = {"target": "he2_sum", "activation": "relu"}
    d, m0 = 100, 0.1
    lr_t, steps_t = tu_jobs.best_learning_rate(tu_jobs.problem(spec, 2, "tied"), d, 0.5, m0, (0.003, 1.0), 1e5)
    lr_u, steps_u = tu_jobs.best_learning_rate(tu_jobs.problem(spec, 2, "untied"), d, 0.5, m0, (0.003, 1.0), 1e5)
    assert lr_u == pytest.approx(lr_t, rel=0.05)
    assert steps_u == pytest.approx(2 * steps_t, rel=1e-3)
    # the optimum is interior: η 30 % away on either side escapes later
    p = tu_jobs.problem(spec, 2, "tied")
    for f in (0.7, 1.3):
        assert escape_time(p, d, f * lr_t, 0.5, m0) > steps_t


def test_give_up_stops_a_collapse_and_keeps_an_escape():
    p = Problem(L=4, target="he2_sum", student="tied")
    assert math.isinf(escape_time(p, 100, 2.0, 0.5, give_up_below=0.025, t_max=1e6))
    finite = escape_time(p, 100, 0.2, 0.5)
    assert escape_time(p, 100, 0.2, 0.5, give_up_below=0.025) == pytest.approx(finite, rel=1e-9)


@pytest.mark.parametrize("target, activation, k", [("linear", "relu", 1), ("he2_sum", "relu", 2),
                                                    ("he3_sum_norm", "tanh", 3)])
def test_case_sies(target, activation, k):
    for net in tu_jobs.NETWORKS:
        assert sie(tu_jobs.problem({"target": target, "activation": activation}, 4, net)) == k


@pytest.mark.parametrize("target, k_untied", [("z1_minus_z2", 1), ("he2_diff", 2)])
def test_null_targets_are_invisible_to_the_tied_network(target, k_untied):
    spec = {"target": target}
    assert math.isinf(sie(tu_jobs.problem(spec, 2, "tied")))
    assert sie(tu_jobs.problem(spec, 2, "untied")) == k_untied


def test_sgd_gain_at_sie1_matches_the_ode():
    """Per-replicate crossings of 0.5 at L = 4, d = 1000, η = 0.5: mean untied / mean tied vs 4."""
    d, L, eta, R = 1000, 4, 0.5, 16
    spec = {"target": "linear", "activation": "relu"}
    times = {}
    for net in tu_jobs.NETWORKS:
        run = simulate(tu_jobs.problem(spec, L, net), d, eta, 40 * d, R, seed=(7, L, len(net)), m0=d ** -0.5,
                       threshold=0.5, stop_at_threshold=True, points_per_decade=200)
        _, each = tu_jobs.escape_samples(run.steps.astype(float), common.overlap_curves(run), 0.5)
        assert np.all(np.isfinite(each))
        times[net] = each
    ratio = times["untied"].mean() / times["tied"].mean()
    rel_se = math.sqrt(sum((t.std(ddof=1) / t.mean()) ** 2 / t.size for t in times.values()))
    ode_ratio = (escape_time(tu_jobs.problem(spec, L, "untied"), d, eta, 0.5, token_symmetric=True, overlap="rms")
                 / escape_time(tu_jobs.problem(spec, L, "tied"), d, eta, 0.5))
    assert ode_ratio == pytest.approx(L, rel=1e-5)
    assert abs(ratio / ode_ratio - 1) < 4 * rel_se + 0.02   # + the O(1/d) bias of the ODE (C2: ≤ 2 %)


def test_sgd_null_target_tied_stays_untied_learns():
    d, R = 1000, 8
    spec = {"target": "z1_minus_z2"}
    final = {}
    for net in tu_jobs.NETWORKS:
        run = simulate(tu_jobs.problem(spec, 2, net), d, 0.05, 60 * d, R, seed=(8, len(net)), m0=d ** -0.5)
        final[net] = common.overlap_curves(run)[:, -1]
    assert final["tied"].mean() < 4 * d ** -0.5
    assert np.all(final["untied"] > 0.5)


def tiny_config(tmp_path):
    return {
        "seed": 5, "engine": "reduced", "results_dir": str(tmp_path), "figures_dir": str(tmp_path / "fig"),
        "tied_untied": {
            "replicates": 4, "points_per_decade": 10, "horizon": 3,
            "escape": {"authors": {"level": "2/sqrt(d)", "overlap": "authors", "statistic": "mean_curve"},
                       "macro": {"level": 0.5, "overlap": "authors", "statistic": "mean_curve"},
                       "macro_replicates": {"level": 0.5, "overlap": "authors", "statistic": "median"}},
            "cases": {"sie1": {"target": "linear", "activation": "relu", "d": 100, "Ls": [1, 2, 4],
                               "same_lr": 0.5, "lr_search": [0.5, 4.0], "ode_t_max": 1e4}},
            "null_targets": {"runs": {"diff": {"target": "z1_minus_z2", "L": 2, "d": 100, "lr": 0.05,
                                               "t_max": 30}}},
            "attention": {"target": "he2_sum_norm", "activation": "square", "d": 50, "lr": 0.01,
                          "Ls": [2, 3], "ode_t_max": 1e5, "qmc_log2": 10},
        },
    }


@pytest.mark.slow
def test_pipeline_on_a_tiny_config(tmp_path):
    cfg = tiny_config(tmp_path)
    for case, stem in tu_jobs.stems(cfg, "ode").items():
        tu_jobs.ode_case(cfg, case, stem)
    for (case, protocol, net), stem in tu_jobs.stems(cfg, "sgd").items():
        tu_jobs.sgd_point(cfg, case, protocol, net, stem)
    for name, stem in tu_jobs.stems(cfg, "null").items():
        tu_jobs.null_point(cfg, name, stem)
    for net, stem in tu_jobs.stems(cfg, "attention").items():
        tu_jobs.attention_point(cfg, net, stem)
    numbers = tu_numbers.summarise(cfg)
    assert len(numbers["rows"]) == 3 * len(tu.PROTOCOLS)
    for row in numbers["rows"]:
        assert row["gain_ode_macro"] == pytest.approx(row["L"], rel=1e-4)
        assert math.isfinite(row["gain_macro"])
    for fit in numbers["fits"]:
        assert fit["exponent_ode"] == pytest.approx(1.0, abs=1e-4)
        if math.isfinite(fit["exponent_sgd_low"]):
            assert fit["exponent_sgd_low"] <= fit["exponent_sgd"] <= fit["exponent_sgd_high"]
    assert math.isinf(numbers["null"][0]["sie_tied"])
    assert len(numbers["attention"]) == 2
    rows = tu.claim_rows(cfg, numbers)
    assert rows[0]["claim"].startswith("C4")
    out = [tmp_path / "fig" / f"tied_untied_{n}.png" for n in tu_figure.FIGURE_NAMES]
    (tmp_path / "fig").mkdir()
    tu_figure.plot(cfg, out)
    assert all(p.stat().st_size > 0 for p in out)


def test_page_tables_quote_every_row_of_the_committed_numbers():
    """docs/results/tied_untied.md's tables (the page generator's _tied_untied.md.j2 on
    ssi.experiments.tied_untied.tables.context) list every (case, protocol) fit, every escape row,
    every attention L and every null run of the numbers file."""
    import json
    from pathlib import Path

    from pagegen.pages import result_table
    from ssi.experiments.tied_untied import tables as tables

    root = Path(__file__).resolve().parents[2]
    numbers = json.loads((root / "figures/numbers/tied_untied.json").read_text())
    body = {name: result_table(root, "tied_untied", name).strip("\n").splitlines()[2:]
            for name in ("fits", "escapes", "attention", "null")}
    assert len(body["fits"]) == len(numbers["fits"]) // len(tables.THRESHOLDS)
    assert len(body["escapes"]) == len(numbers["rows"])
    assert len(body["attention"]) == len(numbers["attention"])
    assert len(body["null"]) == len(numbers["null"])
    first = numbers["rows"][0]
    assert body["escapes"][0].startswith(f"| {first['case'].replace('sie', 'SIE ')} | {first['protocol'].replace('_', ' ')} | {first['L']} |")
