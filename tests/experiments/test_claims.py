"""The claims table's verdicts follow their stated rules, and every row is complete.

* each verdict rule (C1 … C6, the authors' diagram) on hand-made numbers: every verdict it can give,
  with the boundary cases of its tolerance;
* the rows of the committed numbers files: every key, a known verdict, a headline of at most 160
  characters, a figure that is a repository path;
* the README and figures/CLAIMS.md renderings (verdict column, escaped "|").
"""
from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml

from ssi.experiments import authors_phase, claims, escape_vs_d, positional, semantic_positional, tied_untied, two_phases
from ssi.experiments.claim_text import HEADLINE_MAX, ROW_KEYS, VERDICTS, check_row, span, verdict_word

ROOT = Path(__file__).resolve().parents[2]


# --- C1 -----------------------------------------------------------------------------------------
def c1_fit(x, low, high, claimed=1.0, ode=None):
    return {"exponent_claimed_same_range": claimed, "exponent_sgd": x, "exponent_sgd_low": low,
            "exponent_sgd_high": high, "exponent_ode_same_range": x if ode is None else ode}


@pytest.mark.parametrize("fit, verdict", [
    (c1_fit(1.02, 0.98, 1.05), "reproduced"),
    (c1_fit(1.03, 1.02, 1.04), "partly"),                    # outside, within 0.1, ODE the same
    (c1_fit(1.03, 1.02, 1.04, ode=1.20), "differs"),         # outside, ODE disagrees with SGD
    (c1_fit(1.20, 1.15, 1.25), "differs"),                   # outside by more than 0.1
    (c1_fit(math.nan, 0.9, 1.1), "undecided"),
])
def test_c1_verdict(fit, verdict):
    assert escape_vs_d.c1_verdict(fit) == verdict


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
    assert two_phases.c2_verdict(good) == "reproduced"        # a case not fully escaped is not held to the ODE
    assert two_phases.c2_verdict(good + [tp_row("sie2", 1000, 28.0, 29.0, final_sgd=0.70)]) == "partly"
    assert two_phases.c2_verdict(good + [tp_row("sie2", 1000, None, 29.0, escaped=3)]) == "partly"
    assert two_phases.c2_verdict([tp_row("sie2", 1000, None, 29.0, escaped=0)]) == "differs"


def test_c6_verdict():
    # a point is off when |t̄_SGD − t_ODE| exceeds 5 % of t_ODE by more than 3 standard errors of the mean
    within = [tp_row("sie2", 1000, 34.5, 30.0, se=1.0), tp_row("sie2", 100000, 46.0, 50.0, se=0.5)]
    assert two_phases.c6_verdict(within) == "reproduced"                     # 1.5 + 3·1.0, 2.5 + 3·0.5: at the limit
    assert two_phases.c6_verdict([tp_row("sie2", 1000, 35.1, 30.0), tp_row("sie2", 100000, 50.0, 50.0)]) == "partly"
    assert two_phases.c6_verdict([tp_row("sie2", 1000, 30.0, 30.0), tp_row("sie2", 100000, 55.6, 50.0)]) == "differs"
    assert two_phases.c6_verdict([tp_row("sie2", 100000, 58.0, 50.0, se=2.0)]) == "reproduced"  # 8 ≤ 2.5 + 6
    assert two_phases.c6_verdict([tp_row("sie2", 100000, 58.0, 50.0, se=1.0)]) == "differs"     # 8 > 2.5 + 3
    assert two_phases.c6_verdict([tp_row("sie3", 1000, 6e3, 7e3, escaped=9)]) == "undecided"  # censored: no mean
    assert two_phases.gap_in_se(tp_row("sie2", 1000, 31.0, 29.0, se=0.5)) == pytest.approx(4.0)
    assert two_phases.excess_in_se(tp_row("sie2", 1000, 32.0, 30.0, se=0.5)) == pytest.approx(1.0)


# --- C3 -------------------------------------------------------------------------------------------
def c3_numbers(pe_low=2.2, pe_high=2.3, plain_low=2.5, plain_high=3.4, sie_pe=2, ratio=10.0):
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
    assert positional.c3_verdict(c3_numbers()) == "reproduced"
    assert positional.c3_verdict(c3_numbers(pe_high=2.6)) == "partly"          # intervals overlap
    assert positional.c3_verdict(c3_numbers(sie_pe=4)) == "differs"           # the SIE does not drop
    assert positional.c3_verdict(c3_numbers(ratio=0.5)) == "differs"          # PE slower
    numbers = c3_numbers()
    numbers["fits"][1]["schedule"] = "η = 0.2"
    assert positional.c3_verdict(numbers) == "undecided"                      # no same-η pair


# --- C4 -------------------------------------------------------------------------------------------
def c4_fit(sie, low, high):
    return {"sie": sie, "exponent_sgd_low": low, "exponent_sgd_high": high}


def test_c4_verdict():
    assert tied_untied.c4_verdict([c4_fit(1, 0.99, 1.01), c4_fit(1, 0.97, 1.01)]) == "reproduced"
    assert tied_untied.c4_verdict([c4_fit(2, 0.86, 0.96), c4_fit(2, 0.92, 1.16)]) == "differs"
    assert tied_untied.c4_verdict([c4_fit(2, 1.9, 2.1), c4_fit(2, 0.92, 1.16)]) == "partly"
    # SIE ≥ 3: "∝ L or constant": either exponent counts
    assert tied_untied.c4_verdict([c4_fit(3, -0.49, 0.59), c4_fit(3, 0.53, 1.45)]) == "reproduced"
    assert tied_untied.c4_verdict([c4_fit(3, 1.6, 2.2), c4_fit(3, 1.7, 2.4)]) == "differs"
    assert tied_untied.c4_verdict([c4_fit(1, math.nan, 1.0)]) == "undecided"


def test_c4_null_verdict():
    def run(tied, untied):
        return {"final_overlap_tied": tied, "final_overlap_untied": untied, "noise_level": 0.0316}

    assert tied_untied.c4_null_verdict([run(0.033, 0.34), run(0.031, 0.14)]) == "reproduced"
    assert tied_untied.c4_null_verdict([run(0.033, 0.34), run(0.031, 0.04)]) == "partly"
    assert tied_untied.c4_null_verdict([run(0.2, 0.34)]) == "differs"
    assert tied_untied.c4_null_verdict([]) == "undecided"


# --- C5 -------------------------------------------------------------------------------------------
def c5_numbers(switch=0.652, misaligned=0.02, not_escaped=0.0):
    named = {"misaligned dynamics": misaligned, "unique semantic": 0.9, "unique positional": 0.03,
             "semantic global + positional local": 0.03, "positional global + semantic local": 0.02}
    return {"diagrams": {"full": {"fractions": {"named": named}}},
            "prediction": {"switch_dynamics": 0.645, "switch_global": 0.730},
            "transition": [{"d": 100, "switch_sgd": switch, "not_escaped_fraction": [not_escaped] * 3}]}


def test_c5_verdict():
    assert semantic_positional.c5_verdict(c5_numbers()) == "reproduced"
    assert semantic_positional.c5_verdict(c5_numbers(switch=0.72)) == "partly"        # follows the global minimum
    assert semantic_positional.c5_verdict(c5_numbers(misaligned=0.0)) == "partly"     # a region missing
    assert semantic_positional.c5_verdict(c5_numbers(switch=0.72, misaligned=0.0)) == "differs"
    assert semantic_positional.c5_verdict(c5_numbers(not_escaped=0.9)) == "undecided"


def test_c5_diagram_verdict():
    def numbers(*fractions):
        return {"diagrams": {f"g{i}": {"disagreement": {"theirs_vs_ours": {"fraction": f}}}
                             for i, f in enumerate(fractions)}}

    assert authors_phase.c5_diagram_verdict(numbers(0.005, 0.009)) == "reproduced"
    assert authors_phase.c5_diagram_verdict(numbers(0.005, 0.045)) == "partly"
    assert authors_phase.c5_diagram_verdict(numbers(0.02, 0.15)) == "differs"


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
    with pytest.raises(ValueError, match="verdict 'yes'"):
        check_row(row | {"verdict": "yes"})


def test_renderings():
    rows = committed_rows()
    readme = claims.readme_table(rows)
    header = next(line for line in readme.splitlines() if line.startswith("| claim"))
    assert header == "| claim | the paper says | measured | verdict | figure |"
    assert "|m|" not in readme.replace("\\|m\\|", "")          # every "|" inside a cell is escaped
    page = claims.claims_page(rows, "figures")
    assert "](escape_vs_d.png)" in page and "## Verdict rules" in page
    for row in rows:
        assert row["rule"] in page


def test_words():
    assert span([100, 1000, 100000]) == "10²–10⁵" and span([18, 56, 100]) == "18–100"
    assert [verdict_word(v) for v in ("yes", "no", "undecided", "n/a", "partly")] == [
        "reproduced", "differs", "undecided", "n/a", "partly"]


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
