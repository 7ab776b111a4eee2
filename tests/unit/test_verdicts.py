"""The one decisiveness rule of ssi.verdicts, its words, and how rows and claims are combined."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from ssi import verdicts as v

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("low, high, claimed, word", [
    (1.9, 2.3, 2.0, v.REPRODUCED),
    (0.86, 0.97, 2.0, v.DIFFERS),
    (-0.30, 1.28, (1.0, 0.0), v.UNDECIDED),   # C4 at SIE 3 as committed: holds both alternatives, 1.58 wide
    (2.63, 3.14, 3.0, v.UNDECIDED),           # C1 at SIE 4 as committed: 0.504 wide, over 0.5
    (1.75, 2.25, 2.0, v.REPRODUCED),          # exactly 0.5 wide decides
    (math.nan, 1.0, 1.0, v.UNDECIDED),
])
def test_exponent_rule(low, high, claimed, word):
    """An exponent's interval decides only when at most 0.5 wide (half the distance between laws one
    power apart): the committed C4 SIE 3 and C1 SIE 4 rows, which read "reproduced", are undecided."""
    verdict = v.exponent_verdict((low + high) / 2, low, high, claimed)
    assert verdict.word == word, verdict


def test_asymptotic_needs_the_ode_to_agree_and_approach():
    """C1 at SIE 1 as committed (1.02 [1.02, 1.03]; ODE 1.02, local slope 1.088 → 1.004) is
    "reproduced asymptotically"; the same with an ODE that does not approach, or disagrees, differs."""
    near = v.Approach(1.0235, 1.088, 1.0, 1.004, 1.0, "d = 10⁵")
    assert v.exponent_verdict(1.024, 1.016, 1.032, 1.0, approach=near).word == v.ASYMPTOTIC
    assert "1.004 at d = 10⁵ → 1" in v.exponent_verdict(1.024, 1.016, 1.032, 1.0, approach=near).reason
    far = v.Approach(1.0235, 1.088, 1.0, 1.03, 1.0, "d = 10⁵")
    assert v.exponent_verdict(1.024, 1.016, 1.032, 1.0, approach=far).word == v.DIFFERS
    apart = v.Approach(1.10, 1.088, 1.0, 1.004, 1.0, "d = 10⁵")
    assert v.exponent_verdict(1.024, 1.016, 1.032, 1.0, approach=apart).word == v.DIFFERS


def test_escaped_share_and_gap():
    """The authors' d = 1000 C5 run (41 % escaped) is undecided; half escaped decides."""
    assert v.escaped_share(26, 64).word == v.UNDECIDED
    assert v.escaped_share(32, 64) is None
    with pytest.raises(ValueError, match="escaped"):
        v.escaped_share(5, 0)
    assert v.gap_verdict(0.09, 0.039, 0.05, "gap").word == v.UNDECIDED         # C6 at SIE 2 as committed
    assert v.gap_verdict(0.0, 0.005, 0.05, "gap").word == v.REPRODUCED
    assert v.gap_verdict(0.10, 0.003, 0.05, "gap").word == v.DIFFERS


def test_combine_and_claim_verdict_never_average():
    """One part that differs makes a row differ, one row that differs makes a claim differ; there is
    no "partly" (C4's rows reproduced, differs, reproduced showed "partly" on the summary)."""
    parts = [v.Verdict(v.REPRODUCED, "a"), v.Verdict(v.DIFFERS, "b"), v.Verdict(v.UNDECIDED, "c")]
    assert v.combine(parts).word == v.DIFFERS and v.combine(parts).reason == "b"
    assert v.combine(parts[::2]).word == v.UNDECIDED
    assert v.claim_verdict([v.REPRODUCED, v.DIFFERS, v.REPRODUCED]) == v.DIFFERS
    assert v.claim_verdict([v.REPRODUCED, v.REPRODUCED]) == v.REPRODUCED
    assert v.claim_verdict([v.REPRODUCED, v.UNDECIDED]) is None
    assert "partly" not in v.VERDICTS
    with pytest.raises(ValueError, match="partly"):
        v.Verdict("partly", "x")


def test_headline_is_short_and_names_every_row():
    content = v.load(ROOT / "figures" / "VERDICTS.json")
    text = v.headline(content)
    assert len(text.split()) <= v.HEADLINE_WORDS
    for e in content["rows"]:
        assert e["claim"] in text
    longer = json.loads(json.dumps(content))
    longer["rows"] = [dict(e, verdict=v.DIFFERS, reason="x " * 80) for e in longer["rows"]]
    with pytest.raises(ValueError, match="words"):
        v.headline(longer)


def test_the_headline_says_why_a_row_is_undecided():
    """The parenthesis after the undecided rows is read from their reasons, as the verdict helpers
    word them: a row undecided for a wide interval does not read "few escapes", nor the reverse."""
    wide = v.width_check(0.1, 1.9, 0.5, "gain exponent")
    few = v.escaped_share(3, 16, "replicates")
    assert v.undecided_note(wide.reason) == "intervals too wide"
    assert v.undecided_note(few.reason) == "too few escapes"
    assert v.undecided_note(v.width_check(float("nan"), 1.0, 0.5).reason) == "no interval"
    row = {"claim": "C4", "short": "C4 SIE 3", "verdict": v.UNDECIDED}
    assert v.headline({"rows": [dict(row, reason=wide.reason)]}).endswith("C4 (intervals too wide).")
    both = [dict(row, reason=few.reason), dict(row, short="C4 SIE 4", reason=wide.reason)]
    assert v.headline({"rows": both}).endswith("(too few escapes or intervals too wide).")


def test_short_labels():
    assert v.short_label("C1 escape vs d, SIE 1") == "C1 SIE 1"
    assert v.short_label("C4 null targets") == "C4 null targets"
    assert v.short_label("C5 semantic vs positional (authors' diagram rule)") == "C5 authors' diagram rule"
    assert v.short_label("C2 two phases") == "C2"
