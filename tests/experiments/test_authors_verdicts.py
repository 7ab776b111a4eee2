"""The verdict rules of ssi.experiments.authors.verdicts, on small hand-made numbers, and the
README's table of the authors' experiments against the committed numbers."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import yaml

from ssi.experiments import authors
from ssi.experiments.authors import verdicts as av

ROOT = Path(__file__).resolve().parents[2]


def _config(**experiments):
    return {"authors": {"experiments": experiments}}


def _spec(target="H2sum", claim="C4", role="production", scaling="none", d=1000, omegas=None, seeds=5):
    sweep = {"omega": omegas} if omegas is not None else {"L": [1, 2, 4]}
    return {"file": "x.yaml", "claim": claim, "role": role, "target": target, "lr_scaling": scaling, "d": d,
            "sweep": sweep, "seeds": seeds}


@pytest.mark.parametrize("low, high, expected", [(1.9, 2.1, "reproduced"), (1.4, 1.6, "differs"),
                                                  (2.01, 2.3, "differs"), (1.2, 2.4, "undecided"),
                                                  (1.7, 2.3, "undecided"), (0.75, 1.33, "undecided")])
def test_gain_verdict_is_the_claim_inside_the_interval(low, high, expected):
    """The one rule of ssi.verdicts: an interval wider than 0.5 is undecided, so their
    square-random fit L^1.05 [0.75, 1.33] (0.58 wide; it read "differs" under the old width 1.0)
    and a 0.6-wide interval holding 2 (it read "yes") are undecided."""
    numbers = {"gains": {}, "experiments": {"a": {"gain": {"exponent": (low + high) / 2, "low": low, "high": high}}}}
    agrees, why = av.verdict("a", _config(a=_spec()), numbers, {})
    assert agrees == expected and "claimed L^2" in why


def test_one_seed_gain_without_a_many_seed_run_is_undecided():
    numbers = {"gains": {"a/b": {"exponent": 1.0, "low": None, "high": None, "ode_exponent": 1.0}},
               "experiments": {"a": {}, "b": {}}}
    config = _config(a=_spec("inversesqrtsum", seeds=1), b=_spec("inversesqrtsum", scaling="linear", seeds=1))
    agrees, why = av.verdict("a", config, numbers, {})
    assert agrees == "undecided" and "no interval" in why and "same law" in why and "linear" in why


@pytest.mark.parametrize("low, high, expected", [(0.9, 1.1, "reproduced"), (1.2, 1.4, "differs")])
def test_one_seed_gain_is_decided_by_the_many_seed_run_and_shown_as_run(low, high, expected):
    """Their one-seed fit (L^1.31, one point left out for its start) is shown as run; the verdict
    is the 32-seed interval's."""
    excluded = [{"L": 10, "network": "tied_network", "start": 0.0616, "level": 0.0632}]
    gain = {"exponent": 1.31, "low": None, "high": None, "excluded": excluded,
            "decide": {"seeds": 32, "exponent": (low + high) / 2, "low": low, "high": high, "excluded": []}}
    numbers = {"gains": {}, "experiments": {"a": {"gain": gain}}}
    agrees, why = av.verdict("a", _config(a=_spec("inversesqrtsum", seeds=1)), numbers, {})
    assert agrees == expected
    assert why.startswith(f"32 seeds: L^{(low + high) / 2:.2f} [{low:.2f}, {high:.2f}], claimed L^1")
    assert "as run (1 seed): L^1.31 (no interval) without tied_network L = 10" in why


def test_null_transition_misaligned_and_exploratory_rules():
    level = av.NULL_FACTOR / math.sqrt(1000)
    sd = 0.1 * level                                # 2 standard errors over 32 seeds: 0.035 level
    rows = [{"student": "tied_network", "L": 2, "seeds": 32, "final_overlap_mean": 0.9 * level, "final_overlap_sd": sd},
            {"student": "plain_network", "L": 2, "seeds": 32, "final_overlap_mean": 3 * level, "final_overlap_sd": sd}]
    one = [dict(r, seeds=1, final_overlap_sd=math.nan) for r in rows]
    config = _config(n=_spec("2difference"), m=_spec("2difference"), u=_spec("2difference"),
                     o=_spec("2difference", seeds=1), t=_spec("positional_semantic_model", "C5", omegas=[0.1, 0.9]),
                     y=_spec("positional_semantic_model", "C5", omegas=[0.95]), s=_spec("sqrtz1", role="exploratory"))
    numbers = {"gains": {}, "experiments": {
        "n": {"rows": rows}, "m": {"rows": [dict(rows[0], final_overlap_mean=2 * level), rows[1]]},
        "u": {"rows": [dict(rows[0], final_overlap_mean=0.99 * level), rows[1]]},
        "o": {"rows": one, "decide": {"seeds": 32, "rows": rows}},
        "t": {"switch_omega": math.nan, "share_not_escaped": 0.6},
        "y": {"rows": [{"share_semantic": 0.9, "final_overlap_mean": 0.96}]}, "s": {}}}
    assert av.verdict("n", config, numbers, {})[0] == "reproduced"
    assert av.verdict("m", config, numbers, {})[0] == "differs"
    assert av.verdict("u", config, numbers, {})[0] == "undecided"     # within 2 standard errors of the level
    agrees, why = av.verdict("o", config, numbers, {})
    assert agrees == "reproduced" and why.startswith("32 seeds:") and "as run (1 seed)" in why
    del numbers["experiments"]["o"]["decide"]
    assert av.verdict("o", config, numbers, {})[0] == "undecided"     # one seed: no standard error
    assert av.verdict("t", config, numbers, {})[0] == "undecided"
    numbers["experiments"]["t"]["switch_omega"] = 0.64
    # a switch from 40 % of the runs (their d = 1000 run: 59 % not escaped) is undecided by its own rule
    assert av.verdict("t", config, numbers, {})[0] == "undecided"
    numbers["experiments"]["t"]["share_not_escaped"] = 0.5
    assert av.verdict("t", config, numbers, {})[0] == "reproduced"
    assert av.verdict("y", config, numbers, {})[0] == "reproduced"
    assert av.verdict("s", config, numbers, {})[0] == "n/a"


def test_every_authors_file_has_a_verdict_and_a_readme_row():
    """Each experiment of config/authors.yaml gets a verdict from the committed numbers, and the
    README's generated block lists every experiment file once, with the same verdicts (in the claims
    table's words, as the verdict file holds them); the exploratory files are named below the table."""
    from ssi.experiments.authors import summary as authors_summary
    from ssi.verdicts import VERDICTS, load

    words = authors_summary.verdict_words(load(ROOT / "figures/authors/VERDICTS.json"))

    config = yaml.safe_load((ROOT / "config/authors.yaml").read_text())
    numbers = json.loads((ROOT / "figures/authors/numbers/authors.json").read_text())
    authors.none_to_nan(numbers)
    default = {p.stem: json.loads(p.read_text()) for p in (ROOT / "figures/numbers").glob("*.json")}
    readme = (ROOT / "README.md").read_text()
    from pagegen import markers

    block = readme[readme.index(markers.AUTHORS[0]):readme.index(markers.AUTHORS[1])]
    for name, spec in config["authors"]["experiments"].items():
        agrees, why = av.verdict(name, config, numbers, default)
        assert agrees in (*VERDICTS, "n/a")
        lines = [line for line in block.splitlines() if f"`{spec['file'].removesuffix('.yaml')}`" in line]
        assert len(lines) == 1, (name, lines)
        if agrees == "n/a":
            assert lines[0].startswith("Exploratory"), (name, lines[0])
        else:
            assert f"| {why} | **{agrees}** |" in lines[0] and words[name] == agrees, (name, lines[0])
