"""One value per ODE prediction across the committed numbers files
(src/ssi/experiments/tied_untied_theory/predictions.py): a prediction keyed by problem, d, level,
start and whose best η is made once and quoted, never recomputed, by every other file."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from ssi.experiments.authors import candidates as ac
from ssi.experiments import tied_untied_theory as tut
from ssi.experiments.tied_untied_theory import predictions as tp
from ssi.sgd.common import initial_overlap

ROOT = Path(__file__).resolve().parents[2]
NUMBERS = sorted((ROOT / "figures" / "numbers").glob("*.json")) + sorted(
    (ROOT / "figures" / "authors" / "numbers").glob("*.json"))
D = 1000
#: the authors' overlapped start at d = 1000 (their m₀ = o/√((1 − o)² + o²), o = d^(−½))
M0 = initial_overlap(None, D)


def _load(paths):
    return {str(p.relative_to(ROOT)): json.loads(p.read_text()) for p in paths}


def test_committed_numbers_files_hold_one_value_per_ode_prediction():
    """No key of ``ode_predictions`` has two values across figures/numbers/*.json and
    figures/authors/numbers/*.json, and every file quoting the ODE values beside SGD run "at the
    ODE's best η" carries them keyed.

    The case it catches: the attention network at its best η (d = 1000, level 2/√d, L = 2..8)
    was 5445, 2838, 2425, 1439, 2243 steps in figures/authors/numbers/authors.json (full ODE,
    coarse quadrature) and 5704, 3022, 2318, 1895, 1816 in figures/numbers/tied_untied_theory.json
    (reduced ODE from m₀ = d^(−½) instead of the runs' start), beside the same SGD points."""
    sources = _load(NUMBERS)
    problems = tp.conflicts(sources)
    assert not problems, "one ODE prediction, two values:\n" + "\n".join(problems)
    for name, numbers in sources.items():
        quoting = ("candidates" in numbers and "families" in numbers["candidates"]) or any(
            m["text"].startswith("SGD at the ODE's best η") for r in numbers.get("comparisons", [])
            for m in r.get("sgd", []))
        if quoting:
            assert tp.collect(numbers), (f"{name} quotes ODE predictions without their keys "
                                         "(ode_predictions): regenerate it")


def test_the_writers_agree_and_the_check_catches_a_recomputed_value():
    """The authors' file (authors_candidates.predictions) and the theory's quote of it
    (tied_untied_theory's candidate source) hold the same keyed values; a value recomputed from
    another start, 5704 steps instead of 5445 at L = 2 under the same key, is caught."""
    Ls = [2, 3]
    made = [tp.predict(tp.key("H2sum", "attention", L, D, tp.authors_level(D), M0)) for L in Ls]
    lr = {p["key"]["L"]: p["lr"] for p in made}
    ode = {p["key"]["L"]: p["steps"] for p in made}
    authors = {"candidates": {"d": D, "families": {"attention_H2sum": {
        "Ls": Ls, "steps_sgd": [5000.0, 2900.0], "steps_ode": [ode[L] for L in Ls], "exponent_sgd": -1.5,
        "low": -2.0, "high": -1.0}}, "gains": {}, "ode_predictions": ac.predictions("attention_H2sum", D, M0, lr, ode)}}
    quote = tut._candidate_source(authors["candidates"], "candidate_family", "attention_H2sum")
    theory = {"ode_predictions": quote["ode_predictions"]}
    assert quote["ode"] == [ode[L] for L in Ls]
    assert len(tp.collect(authors)) == len(tp.collect(theory)) == 2
    assert tp.conflicts({"authors.json": authors, "tied_untied_theory.json": theory}) == []
    # the authors' values at L = 2: 5445 steps at η = 0.432 (their MSE convention)
    assert ode[2] == pytest.approx(5444.9, abs=0.5) and lr[2] == pytest.approx(0.4319, abs=1e-3)
    wrong = json.loads(json.dumps(theory))
    wrong["ode_predictions"][0]["steps"] = 5704.4
    found = tp.conflicts({"authors.json": authors, "tied_untied_theory.json": wrong})
    assert len(found) == 1 and "5444.9" in found[0] and "5704.4" in found[0]
    # the same number from m₀ = d^(−½) is another quantity: its own key, no conflict
    other = tp.predict(tp.key("H2sum", "attention", 2, D, tp.authors_level(D), D ** -0.5))
    assert other["steps"] == pytest.approx(5704.4, abs=0.5)
    assert tp.conflicts({"a": authors, "b": {"ode_predictions": [other]}}) == []


def test_a_gain_quotes_both_families_predictions():
    """The theory's quote of the gain untied / attention carries the keyed predictions of both
    families at the gain's L, and the gain of the ODE that the authors' file holds."""
    Ls = [2, 3]
    fams = {"untied_H2sum": ("H2sum", "untied"), "attention_H2sum": ("H2sum", "attention")}
    entries, ode = [], {}
    for fam, (target, student) in fams.items():
        made = {L: tp.predict(tp.key(target, student, L, D, tp.authors_level(D), M0)) for L in Ls}
        ode[fam] = {L: p["steps"] for L, p in made.items()}
        entries += ac.predictions(fam, D, M0, {L: p["lr"] for L, p in made.items()}, ode[fam])
    gain = [ode["untied_H2sum"][L] / ode["attention_H2sum"][L] for L in Ls]
    candidates = {"d": D, "ode_predictions": entries, "families": {}, "gains": {"i_untied_over_attention": {
        "numerator": "untied_H2sum", "denominator": "attention_H2sum", "Ls": Ls, "gain_sgd": [1.9, 8.2],
        "gain_ode": gain, "exponent_sgd": 3.5, "low": 3.0, "high": 4.0}}}
    quote = tut._candidate_source(candidates, "candidate_gain", "i_untied_over_attention")
    assert quote["ode"] == gain and quote["text"] == "SGD at the ODE's best η, d = 1000"
    assert sorted((e["key"]["student"], e["key"]["L"]) for e in quote["ode_predictions"]) == [
        ("attention", 2), ("attention", 3), ("untied", 2), ("untied", 3)]
    assert tp.conflicts({"authors": {"candidates": candidates}, "theory": {"ode_predictions": quote["ode_predictions"]}}) == []


def test_attention_best_lr_is_a_minimum_and_monotone_in_L():
    """At d = 1000 from the authors' start, the attention network's best η rises and its steps
    to 2/√d fall from L = 2 to 8 (its drift A grows faster than its noise ν₀ there), and each η
    is a minimum of the ODE's steps (1 % either side costs more). The full-ODE search it replaces
    gave η = 0.43, 0.57, 0.63, 0.81, 0.65 (a 2¹¹-point quasi-Monte Carlo ν at L ≥ 4)."""
    Ls = [2, 3, 4, 6, 8]
    made = [tp.predict(tp.key("H2sum", "attention", L, D, tp.authors_level(D), M0)) for L in Ls]
    lrs, steps = [p["lr"] for p in made], [p["steps"] for p in made]
    assert all(a < b for a, b in zip(lrs, lrs[1:])), lrs
    assert all(a > b for a, b in zip(steps, steps[1:])), steps
    for p in made[:2]:
        for factor in (0.99, 1.01):
            k = dict(p["key"], lr=p["lr"] * factor)
            assert tp.predict(k)["steps"] > p["steps"]


def test_a_fixed_lr_prediction_uses_the_loss_convention():
    """η in the authors' MSE convention is half the η of ½(f − g)²: the same steps."""
    k = tp.key("H2sum", "tied", 3, D, tp.authors_level(D), M0, lr=0.1)
    half = tp.key("H2sum", "tied", 3, D, tp.authors_level(D), M0, lr=0.2, loss="half_square")
    assert tp.predict(k)["steps"] == pytest.approx(tp.predict(half)["steps"], rel=1e-12)
    assert math.isfinite(tp.predict(k)["steps"])


@pytest.mark.parametrize("field, value, words", [
    ("target", "H3sum", "target='H3sum' is unknown"), ("student", "relu", "student='relu' is unknown"),
    ("lr", -1.0, "lr=-1.0 is not allowed"), ("loss", "l1", "loss='l1' is unknown"),
    ("L", 1, "L=1 is not allowed")])
def test_bad_key_is_refused_with_the_parameter_named(field, value, words):
    args = {"target": "H2sum", "student": "attention", "L": 2, "d": D, "level": tp.authors_level(D), "m0": M0}
    args[field] = value
    with pytest.raises(ValueError, match=words.replace("(", r"\(")):
        tp.key(**args)
