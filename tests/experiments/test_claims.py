"""The claims table's verdicts follow their stated rules, and every row is complete.

* each verdict rule (C1 … C6, the authors' diagram) on hand-made numbers: every verdict it can give
  (the words and the decisiveness rule of ssi.verdicts), with the boundary cases of its tolerance;
* the rows of the committed numbers files: every key, a known verdict, a headline of at most 160
  characters, a figure that is a repository path;
* the README and figures/CLAIMS.md renderings (verdict column, escaped "|").
"""
from __future__ import annotations

import math

import numpy as np
from pathlib import Path

import pytest
import yaml

from ssi.experiments import authors_phase, claims, escape_vs_d, positional, semantic_positional, tied_untied, two_phases
from ssi.experiments.claim_text import HEADLINE_MAX, ROW_KEYS, check_row, span
from ssi.verdicts import VERDICTS

ROOT = Path(__file__).resolve().parents[2]


# --- C1 -----------------------------------------------------------------------------------------
def c1_fit(x, low, high, claimed=1.0, ode=None, ode_steps=None):
    dims = [100, 1000, 10000, 100000]
    return {"sie": 1, "exponent_claimed_same_range": claimed, "exponent_sgd": x, "exponent_sgd_low": low,
            "exponent_sgd_high": high, "exponent_ode_same_range": x if ode is None else ode,
            "ode_dims": dims if ode_steps else [], "ode_steps": ode_steps or []}


#: an ODE whose local slope falls 1.09 → 1.04 → 1.004 toward the law d (slope 1)
APPROACHING = [100.0, 100.0 * 10 ** 1.09, 100.0 * 10 ** 2.13, 100.0 * 10 ** 3.134]


@pytest.mark.parametrize("fit, verdict", [
    (c1_fit(1.02, 0.98, 1.05), "reproduced"),
    (c1_fit(1.03, 1.02, 1.04, ode_steps=APPROACHING), "reproduced asymptotically"),   # tight, the ODE → 1
    (c1_fit(1.03, 1.02, 1.04), "differs"),                   # outside, no ODE slopes to show the approach
    (c1_fit(1.03, 1.02, 1.04, ode=1.20, ode_steps=APPROACHING), "differs"),   # the ODE disagrees with SGD
    (c1_fit(1.20, 1.15, 1.25), "differs"),
    (c1_fit(1.0, 0.7, 1.3), "undecided"),                    # 0.6 wide: more than 0.5
    (c1_fit(math.nan, math.nan, 1.1), "undecided"),
])
def test_c1_verdict(fit, verdict):
    """The precise row at SIE 1 (1.02 [1.02, 1.03], its ODE's local slope 1.004 at d = 10⁵) reads
    "reproduced asymptotically", not "partly"; a 0.6-wide interval reads undecided."""
    v = escape_vs_d.c1_verdict(fit)
    assert v.word == verdict, v
    if verdict == "reproduced asymptotically":
        assert "local slope is 1.004 at d = 10⁵ → 1" in v.reason


# --- C2 and C6 ------------------------------------------------------------------------------------
def tp_row(case, d, t_sgd, t_ode, escaped=16, final_sgd=0.84, final_ode=0.84, se=1.0):
    """A row of the two-phases numbers; the replicates' mean escape time is t_sgd ± se."""
    complete = escaped == 16
    return {"case": case, "d": d, "t_escape_sgd_mean_curve": t_sgd, "t_escape_ode": t_ode,
            "t_escape_sgd_replicate_median": t_sgd, "escaped_replicates": escaped, "replicates": 16,
            "t_escape_sgd_replicate_mean": t_sgd if complete else math.nan,
            "t_escape_sgd_replicate_se": se if complete else math.nan,
            "t_escape_sgd_replicate_sd": 4 * se if complete else math.nan,
            "abs_m_final_sgd_mean": final_sgd, "abs_m_final_ode": final_ode}


def test_c2_verdict():
    good = [tp_row("sie1", 1000, 2.3, 2.3), tp_row("sie3", 1000, 6e3, 7e3, escaped=9, final_sgd=0.6, final_ode=1.0)]
    assert two_phases.c2_verdict(good).word == "reproduced"   # a case not fully escaped is not held to the ODE
    assert two_phases.c2_verdict(good + [tp_row("sie2", 1000, 28.0, 29.0, final_sgd=0.70)]).word == "differs"
    few = two_phases.c2_verdict(good + [tp_row("sie2", 1000, None, 29.0, escaped=3)])
    assert few.word == "undecided" and "3/16 replicates escaped" in few.reason      # fewer than half escaped
    assert two_phases.c2_verdict([tp_row("sie2", 1000, None, 29.0, escaped=8)]).word == "differs"


def c6_numbers(*fits, sie3=True):
    """Two-phases numbers with the given (case, rate, low, high) fits and, when ``sie3``, the SIE 3 case at
    one d (9/16 replicates escaped), left out of C6."""
    rows, out = [], []
    for case, rate, low, high in fits:
        for d in (100, 1000, 10000, 100000):
            rows.append({**tp_row(case, d, 2.3, 2.3), "gap_sup": 0.1 * (d / 100) ** -rate, "gap_sup_se": 0.01,
                         "gap_sup_t": 1.0})
        out.append({"case": case, "dims": [100, 1000, 10000, 100000], "expected_rate": 0.5, "excluded": None,
                    "rate": rate, "rate_low": low, "rate_high": high, "prefactor": 0.1 * 100 ** rate})
    if sie3:
        rows.append({**tp_row("sie3", 1000, 6e3, 7e3, escaped=9), "gap_sup": 0.3, "gap_sup_se": 0.05,
                     "gap_sup_t": 5e3})
        out.append({"case": "sie3", "dims": [1000], "expected_rate": 0.5, "excluded": "1 d only"})
    return {"escape_level": 0.5, "rows": rows, "gap_fits": out}


def test_c6_verdict():
    """C6 is the fall with d of the SGD–ODE gap of the mean trajectory: reproduced when the rate's interval
    lies above 0, differs when it holds 0 (a gap that stays, e.g. a constant +9 % escape offset), undecided
    when wider than half the expected rate (0.25); SIE 3, at one d, is named with its escapes, not compared."""
    good = two_phases.c6_verdict(c6_numbers(("sie1", 0.5, 0.4, 0.6)))
    assert good.word == "reproduced" and good.interval == (0.4, 0.6)
    assert "SIE 3 not compared" in good.reason and "9/16 replicates escaped" in good.reason
    assert two_phases.c6_verdict(c6_numbers(("sie2", 0.05, -0.05, 0.15))).word == "differs"     # does not fall
    assert two_phases.c6_verdict(c6_numbers(("sie1", 0.5, 0.2, 0.8))).word == "undecided"       # 0.6 wide
    mixed = c6_numbers(("sie1", 0.5, 0.4, 0.6), ("sie2", 0.05, -0.05, 0.15))
    assert two_phases.c6_verdict(mixed).word == "differs"                   # one case that differs decides
    assert two_phases.c6_verdict(c6_numbers(sie3=True)).word == "undecided"  # nothing compared
    assert two_phases.gap_in_se(tp_row("sie2", 1000, 31.0, 29.0, se=0.5)) == pytest.approx(4.0)


def test_c6_claim_row_carries_the_rate():
    """The C6 row's interval is the rate's (the summary figure plots it) and its text names every d and SIE 3."""
    rows = two_phases.claim_rows({}, c6_numbers(("sie1", 0.5, 0.4, 0.6), ("sie2", 0.3, 0.2, 0.4)))
    c6 = next(r for r in rows if r["claim"].startswith("C6"))
    assert c6["verdict"] == "reproduced" and c6["interval"] == [0.4, 0.6]
    assert "10⁵" in c6["measured"] and "SIE 3 not compared" in c6["measured"] and "r = 0.50" in c6["headline"]
    c2 = next(r for r in rows if r["claim"].startswith("C2"))
    assert "9/16 replicates escaped" in c2["measured"] and "9/16 replicates escaped" in c2["headline"]


def test_trajectory_gap_and_its_rate():
    """The sup gap of the mean is found where it is (t = 2, not at t = 0, which is left out), and a gap
    ∝ d^-0.5 fits rate 0.5 with an interval holding it (bootstrap draws with 20 % scatter)."""
    t = np.array([0.0, 1.0, 2.0, 3.0])
    ode = np.array([0.0, 0.5, 0.8, 0.9])
    overlap = np.array([[0.5, 0.5, 0.7, 0.9], [0.5, 0.5, 0.7, 0.9]])
    assert two_phases.trajectory_gap(t, overlap, t, ode) == (pytest.approx(0.1), 2.0)
    dims = np.array([100, 1000, 10000, 100000])
    gaps = 0.1 * (dims / 100) ** -0.5
    draws = gaps * np.exp(np.random.default_rng(0).normal(0, 0.2, (1000, 4)))
    fit = two_phases.gap_rate(dims, gaps, draws)
    assert fit["rate"] == pytest.approx(0.5) and fit["rate_low"] < 0.5 < fit["rate_high"]
    assert fit["rate_high"] - fit["rate_low"] < 0.25
    with pytest.raises(ValueError, match="overlap"):
        two_phases.trajectory_gap(t, overlap[:, :3], t, ode)


# --- C3 -------------------------------------------------------------------------------------------
def c3_numbers(pe_low=2.2, pe_high=2.3, plain_low=2.6, plain_high=3.0, sie_pe=2, ratio=10.0):
    fit = {"target": "t", "schedule": "η = 0.005·(d/100)^-1", "dims": [32, 100]}
    rows = [{"case": c, "d": d, "steps_median": s} for d in (32, 100)
            for c, s in (("none", 1000.0 * ratio), ("opposite_same_lr", 1000.0))]
    return {"fits": [{**fit, "case": "none", "pe": "none", "exponent_sgd": 3.0, "exponent_sgd_low": plain_low,
                      "exponent_sgd_high": plain_high},
                     {**fit, "case": "opposite_same_lr", "pe": "opposite", "exponent_sgd": 2.25,
                      "exponent_sgd_low": pe_low, "exponent_sgd_high": pe_high}],
            "landscape": [{"target": "t", "pe": "none", "sie_overlap": 4}, {"target": "t", "pe": "opposite", "sie_overlap": sie_pe}],
            "rows": rows}


def test_c3_verdict():
    """The committed no-PE interval [2.55, 3.32] (0.77 wide) cannot decide: undecided, not reproduced."""
    assert positional.c3_verdict(c3_numbers()).word == "reproduced"
    assert positional.c3_verdict(c3_numbers(plain_low=2.55, plain_high=3.32)).word == "undecided"
    assert positional.c3_verdict(c3_numbers(pe_high=2.65)).word == "differs"      # decisive intervals overlap
    assert positional.c3_verdict(c3_numbers(sie_pe=4)).word == "differs"          # the SIE does not drop
    assert positional.c3_verdict(c3_numbers(ratio=0.5)).word == "differs"         # PE slower
    numbers = c3_numbers()
    numbers["fits"][1]["schedule"] = "η = 0.2"
    assert positional.c3_verdict(numbers).word == "undecided"                     # no same-η pair


def example_numbers(sie_m_pe=4, joint_pe=2, descends_pe=False, with_example=True):
    entry = {"target": positional.PAPER_EXAMPLE, "eigenvalues": [0.0, 0.519]}
    landscape = [{**entry, "pe": "none", "sie_overlap": 4, "sie_joint": 4, "descends": False},
                 {**entry, "pe": "opposite", "sie_overlap": sie_m_pe, "sie_joint": joint_pe, "descends": descends_pe}]
    return {"landscape": landscape if with_example else []}


def test_c3_example_verdict():
    """The paper's own C3 example, Σ He₄, as committed: the encoding lowers the joint SIE 4 → 2 through a
    rising pure-e term only; the SIE of m stays 4 and m = 0 stays a local minimum: differs (the claim rows
    had no row for it, only the repository's own target)."""
    verdict = positional.c3_example_verdict(example_numbers())
    assert verdict.word == "differs" and "SIE of m stays 4" in verdict.reason and "pure-e" in verdict.reason
    assert positional.c3_example_verdict(example_numbers(sie_m_pe=2, descends_pe=True)).word == "reproduced"
    assert positional.c3_example_verdict(example_numbers(sie_m_pe=2, descends_pe=False)).word == "differs"
    assert positional.c3_example_verdict(example_numbers(with_example=False)).word == "undecided"


# --- C4 -------------------------------------------------------------------------------------------
def c4_fit(sie, low, high, protocol="same_lr"):
    return {"sie": sie, "exponent_sgd": (low + high) / 2, "exponent_sgd_low": low, "exponent_sgd_high": high,
            "protocol": protocol}


def test_c4_verdict():
    """C4 at SIE 3 as committed, L^0.76 [-0.30, 1.28] and L^1.27 [0.36, 1.85], reads undecided (it read
    "reproduced": both alternatives 0 and 1 lie in the interval); one protocol that differs makes the
    row differ (it read "partly")."""
    def word(*fits):
        return tied_untied.c4_verdict(list(fits)).word

    assert word(c4_fit(1, 0.99, 1.01), c4_fit(1, 0.97, 1.01, "best_lr")) == "reproduced"
    assert word(c4_fit(2, 0.86, 0.96), c4_fit(2, 0.92, 1.16, "best_lr")) == "differs"
    assert word(c4_fit(2, 1.9, 2.1), c4_fit(2, 0.92, 1.16, "best_lr")) == "differs"
    assert word(c4_fit(3, -0.30, 1.28), c4_fit(3, 0.36, 1.85, "best_lr")) == "undecided"
    # SIE ≥ 3: "∝ L or constant": either exponent counts
    assert word(c4_fit(3, -0.2, 0.2), c4_fit(3, 0.8, 1.2, "best_lr")) == "reproduced"
    assert word(c4_fit(3, 1.6, 2.0), c4_fit(3, 1.7, 2.1, "best_lr")) == "differs"
    assert word(c4_fit(1, math.nan, 1.0)) == "undecided"


def test_c4_null_verdict():
    def run(tied, untied):
        return {"final_overlap_tied": tied, "final_overlap_untied": untied, "noise_level": 0.0316}

    assert tied_untied.c4_null_verdict([run(0.033, 0.34), run(0.031, 0.14)]).word == "reproduced"
    assert tied_untied.c4_null_verdict([run(0.033, 0.34), run(0.031, 0.04)]).word == "undecided"
    assert tied_untied.c4_null_verdict([run(0.2, 0.34)]).word == "differs"
    assert tied_untied.c4_null_verdict([]).word == "undecided"


# --- C5 -------------------------------------------------------------------------------------------
def c5_numbers(switch=0.652, misaligned=0.02, not_escaped=0.0):
    named = {"misaligned dynamics": misaligned, "unique semantic": 0.9, "unique positional": 0.03,
             "semantic global + positional local": 0.03, "positional global + semantic local": 0.02}
    return {"diagrams": {"full": {"fractions": {"named": named}}},
            "prediction": {"switch_dynamics": 0.645, "switch_global": 0.730},
            "transition": [{"d": 100, "switch_sgd": switch, "not_escaped_fraction": [not_escaped] * 3}]}


def test_c5_verdict():
    assert semantic_positional.c5_verdict(c5_numbers()).word == "reproduced"
    assert semantic_positional.c5_verdict(c5_numbers(switch=0.72)).word == "differs"     # follows the global minimum
    assert semantic_positional.c5_verdict(c5_numbers(misaligned=0.0)).word == "differs"  # a region missing
    assert semantic_positional.c5_verdict(c5_numbers(not_escaped=0.5)).word == "reproduced"   # half escaped decides
    assert semantic_positional.c5_verdict(c5_numbers(not_escaped=0.6)).word == "undecided"


def test_c5_diagram_verdict():
    def numbers(*fractions):
        return {"diagrams": {f"g{i}": {"disagreement": {"theirs_vs_ours": {"fraction": f}},
                                       "verdicts": {"theirs": {"b": {"ours": 3, "theirs": 1}}},
                                       "a": [0, 1, 10], "omega": [0, 1, 10]}
                             for i, f in enumerate(fractions)}}

    assert authors_phase.c5_diagram_verdict(numbers(0.005, 0.009)).word == "reproduced"
    assert authors_phase.c5_diagram_verdict(numbers(0.005, 0.045)).word == "differs"     # read "partly"
    assert authors_phase.c5_diagram_verdict(numbers(0.02, 0.15)).word == "differs"


# --- the rows of the committed numbers ------------------------------------------------------------
def committed_rows():
    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    return claims.collect_rows(config, sorted((ROOT / "figures" / "numbers").glob("*.json")))


def test_committed_rows_are_complete():
    rows = committed_rows()
    assert [r["claim"][:2] for r in rows] == sorted(r["claim"][:2] for r in rows)     # claim order
    assert {r["claim"][:2] for r in rows} == {"C1", "C2", "C3", "C4", "C5", "C6"}
    for row in rows:
        assert set(ROW_KEYS) <= set(row) and row["verdict"] in VERDICTS, row["claim"]
        assert len(row["headline"]) <= HEADLINE_MAX, (row["claim"], len(row["headline"]))
        assert row["figure"].startswith("figures/") and row["figure"].endswith(".png"), row["figure"]


def test_check_row_rejects_incomplete_rows():
    row = {key: "x" for key in ROW_KEYS} | {"verdict": "reproduced"}
    assert check_row(row) is row
    with pytest.raises(ValueError, match="lacks headline"):
        check_row({k: v for k, v in row.items() if k != "headline"})
    with pytest.raises(ValueError, match="verdict 'partly'"):
        check_row(row | {"verdict": "partly"})


def test_renderings():
    rows = committed_rows()
    content = claims.verdict_content(yaml.safe_load((ROOT / "config" / "config.yaml").read_text()),
                                     sorted((ROOT / "figures" / "numbers").glob("*.json")))
    from pagegen import pages

    readme = pages.readme_claims_table(ROOT, content)
    header = next(line for line in readme.splitlines() if line.startswith("| claim"))
    assert header == "| claim | the paper says | measured | verdict | figure |"
    assert "|m|" not in readme.replace("\\|m\\|", "")          # every "|" inside a cell is escaped
    page = pages.claims_page(ROOT, content, "figures")
    assert "](escape_vs_d.png)" in page and "## Verdict rules" in page
    for row in rows:
        assert row["rule"] in page


def test_words():
    assert span([100, 1000, 100000]) == "10²–10⁵" and span([18, 56, 100]) == "18–100"


def test_signed_numbers_never_print_minus_zero():
    """Gaps that round to zero print as 0.0, signed ones keep their sign."""
    from ssi.experiments.claim_text import signed, signed_percent

    assert signed(-0.04) == "0.0" and signed(0.04) == "0.0"
    assert signed(-0.6) == "-0.6" and signed(2.34) == "+2.3"
    assert signed_percent(-1e-5) == "0.0 %" and signed_percent(0.0904) == "+9.0 %"
    assert signed_percent(float("nan")) == "n/a"


def test_relative_gap_of_two_phases_rows():
    """(t̄_SGD − t_ODE)/t_ODE, None when a replicate did not escape (no SE) or the ODE did not."""
    from ssi.experiments.two_phases import gap_in_se, relative_gap

    row = {"t_escape_sgd_replicate_mean": 11.0, "t_escape_sgd_replicate_se": 0.5, "t_escape_ode": 10.0}
    assert relative_gap(row) == pytest.approx(0.1) and gap_in_se(row) == pytest.approx(2.0)
    assert relative_gap({**row, "t_escape_sgd_replicate_se": None}) is None
    assert relative_gap({**row, "t_escape_ode": None}) is None
