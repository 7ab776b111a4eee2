"""Verdicts: the four words a claim row may carry, the one rule that decides between them, and the
file that holds them.

Categories
----------
``reproduced``
    the paper's value lies in the row's 95 % interval (or, for an exact computation, the row's
    check holds).
``reproduced asymptotically``
    the paper's value lies outside the interval, but the row's SGD agrees with its ODE (the ODE's
    exponent over the same sizes lies in the SGD's interval) and the ODE's local slope tends to the
    paper's law: at the largest size computed it is within :data:`ASYMPTOTIC_DISTANCE` of the law's
    local slope there, and nearer to it than at the smallest size. The reason states how far, e.g.
    "ODE local slope 1.004 at d = 10⁵ → 1".
``differs``
    a decided row whose value is not the paper's.
``undecided``
    the data cannot decide (below).

The decisiveness rule (one for every row, paper config and the authors' alike)
------------------------------------------------------------------------------
A row is decided only when

1. at least :data:`MIN_ESCAPED` (half) of its runs escaped (a statistic of escape times over a
   minority of the runs says nothing about the others), and
2. its 95 % interval is no wider than :data:`WIDTH_FRACTION` (half) of the distance between the
   alternatives it separates: for an exponent, whose alternatives are laws one power apart (L and
   L², d and d², L and a constant), at most 0.5 wide; for a relative gap that the paper says is 0,
   against the tolerance it is held to, at most half that tolerance; and the interval must not
   straddle a boundary between the alternatives.

Otherwise the row is "undecided", and its reason says which condition failed. A row checked by an
exact computation (an SIE, an ODE, a phase diagram, a count of runs against a level) has no sampling
interval and is decided by its check. A row made of several parts (protocols, cases, points) takes
the first of differs, undecided, reproduced asymptotically, reproduced that one of its parts has
(:func:`combine`): one part that differs makes the row differ. A claim's rows are never averaged:
a claim shows one verdict when its rows agree, "differs" when one of them differs, and its rows
one by one otherwise (:func:`claim_verdict`).

The file
--------
Every verdict is written once, to ``<figures>/VERDICTS.json`` (:func:`verdict_file`, by the
workflow's rules ``verdicts`` and ``pages``, from the committed numbers files):
one entry per claim row with its claim, row, what the paper says, what was measured, the interval,
the verdict and its reason, and the claims' verdicts. The README's headline and tables,
figures/CLAIMS.md, the authors' table, the summary figure and the notebooks read it.
"""
from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

REPRODUCED = "reproduced"
ASYMPTOTIC = "reproduced asymptotically"
DIFFERS = "differs"
UNDECIDED = "undecided"
#: the verdicts a row may carry
VERDICTS = (REPRODUCED, ASYMPTOTIC, DIFFERS, UNDECIDED)
#: the order in which a part decides a row made of parts (the first one present wins)
PRECEDENCE = (DIFFERS, UNDECIDED, ASYMPTOTIC, REPRODUCED)

#: a decided row's 95 % interval is at most this fraction of the distance between its alternatives
WIDTH_FRACTION = 0.5
#: the distance between two exponent laws (L and L², d and d², L and a constant)
EXPONENT_SEPARATION = 1.0
#: at most this wide for an exponent
EXPONENT_WIDTH = WIDTH_FRACTION * EXPONENT_SEPARATION
#: a row is decided only when at least this share of its runs escaped
MIN_ESCAPED = 0.5
#: "reproduced asymptotically": the ODE's local slope at the largest size is this near the law's
ASYMPTOTIC_DISTANCE = 0.02

#: the rule in words (figures/CLAIMS.md shows it)
RULE = (f"a row is decided only when at least {100 * MIN_ESCAPED:g} % of its runs escaped and its 95 % interval is "
        f"no wider than {WIDTH_FRACTION:g} times the distance between the alternatives it separates (an exponent: "
        f"at most {EXPONENT_WIDTH:g} wide, the laws being one power apart; a relative gap held to a tolerance: at "
        f"most {WIDTH_FRACTION:g} times the tolerance) and does not straddle a boundary between them; else it is "
        "*undecided*. A "
        f"decided row is *reproduced* when the paper's value lies in its interval, *reproduced asymptotically* "
        f"when it does not but the SGD agrees with its ODE and the ODE's local slope at the largest size is within "
        f"{ASYMPTOTIC_DISTANCE:g} of the law's and nearer than at the smallest size, *differs* otherwise. Rows "
        "checked by an exact computation (an SIE, an ODE, a diagram, a count of runs) are decided by it. A row of "
        "several parts takes the first of differs, undecided, reproduced asymptotically, reproduced among them; "
        "a claim's rows are not averaged: one row that differs makes the claim differ")

#: the claims' short names (docs/theory.md, "Claims")
CLAIM_NAMES = {1: "escape time vs d", 2: "two phases", 3: "positional encoding", 4: "tied vs untied",
               5: "semantic vs positional", 6: "ODE describes SGD"}


@dataclass(frozen=True)
class Verdict:
    """A verdict word, the reason for it in one phrase, and the interval it rests on (or None)."""

    word: str
    reason: str
    interval: tuple[float, float] | None = None

    def __post_init__(self):
        if self.word not in VERDICTS:
            raise ValueError(f"verdict word {self.word!r} is not one of {', '.join(VERDICTS)}")

    def fields(self) -> dict:
        """The keys of a claim row: ``verdict``, ``reason``, ``interval`` ([low, high] or None)."""
        return {"verdict": self.word, "reason": self.reason,
                "interval": None if self.interval is None else [float(x) for x in self.interval]}


def finite(x) -> bool:
    """True for a real finite number (None, nan, inf and bools are not)."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _f(x, spec=".2f") -> str:
    return format(x, spec) if finite(x) else "n/a"


#: how the reason of an undecided verdict says why (the headline reads it back: :func:`undecided_note`)
FEW_ESCAPED = " escaped (fewer than"
TOO_WIDE = " wide (at most "


def undecided_note(reason: str) -> str:
    """Why a row is undecided, in three words or fewer, from its reason."""
    if TOO_WIDE in reason:
        return "intervals too wide"
    if FEW_ESCAPED in reason:
        return "too few escapes"
    return "no interval"


def escaped_share(escaped: int, runs: int, what: str = "runs") -> Verdict | None:
    """An "undecided" verdict when fewer than :data:`MIN_ESCAPED` of ``runs`` escaped, else None.

    Raises ValueError when ``runs`` is not positive or ``escaped`` is not in 0 … runs."""
    if not (isinstance(runs, int) and runs > 0 and isinstance(escaped, int) and 0 <= escaped <= runs):
        raise ValueError(f"escaped_share: escaped={escaped!r}, runs={runs!r}; allowed: integers 0 ≤ escaped ≤ runs, runs > 0")
    if escaped / runs < MIN_ESCAPED:
        return Verdict(UNDECIDED, f"{escaped}/{runs} {what}{FEW_ESCAPED} {100 * MIN_ESCAPED:g} %)")
    return None


def width_check(low, high, limit: float, name: str = "exponent") -> Verdict | None:
    """An "undecided" verdict when the interval [low, high] is missing or wider than ``limit``."""
    if not (finite(low) and finite(high)):
        return Verdict(UNDECIDED, f"no 95 % interval of the {name}")
    if high - low > limit:
        return Verdict(UNDECIDED, f"95 % interval of the {name} [{_f(low)}, {_f(high)}] is {high - low:.3g}{TOO_WIDE}"
                                  f"{limit:g} decides)", (low, high))
    return None


@dataclass(frozen=True)
class Approach:
    """How the ODE's local slope approaches the paper's law: the ODE's exponent over the SGD's sizes,
    its local slope and the law's at the smallest and at the largest size computed, and that size."""

    ode_same_range: float
    ode_first: float
    law_first: float
    ode_last: float
    law_last: float
    size: str

    @classmethod
    def from_curve(cls, sizes, ode, law, ode_same_range: float, symbol: str = "d") -> "Approach":
        """From the ODE's escape steps ``ode`` and the law's ``law`` (any prefactor) at ``sizes``."""
        if len(sizes) < 3 or len(ode) != len(sizes) or len(law) != len(sizes):
            raise ValueError("Approach.from_curve: sizes, ode and law need one value per size, at least 3")

        def slope(y, i):
            return math.log(y[i + 1] / y[i]) / math.log(sizes[i + 1] / sizes[i])

        return cls(ode_same_range, slope(ode, 0), slope(law, 0), slope(ode, len(sizes) - 2), slope(law, len(sizes) - 2),
                   f"{symbol} = {power_of_ten(sizes[-1])}")


def exponent_verdict(x, low, high, claimed, name: str = "exponent", approach: Approach | None = None,
                     separation: float = EXPONENT_SEPARATION) -> Verdict:
    """The verdict of a fitted exponent ``x`` [``low``, ``high``] against the paper's ``claimed``
    value (a number, or a tuple of values the paper allows), by the module's rule.

    ``approach``: the ODE's local slopes, for "reproduced asymptotically"; ``separation``: the
    distance between the alternatives (laws one power apart: 1)."""
    claims = tuple(claimed) if isinstance(claimed, (tuple, list)) else (claimed,)
    if not claims or not all(finite(c) for c in claims):
        raise ValueError(f"exponent_verdict: claimed={claimed!r}; allowed: a finite number or a tuple of them")
    law = " or ".join(f"{c:.3g}" for c in claims)
    too_wide = width_check(low, high, WIDTH_FRACTION * separation, name)
    if too_wide:
        return too_wide
    measured = f"{name} {_f(x)} [{_f(low)}, {_f(high)}]"
    if any(low <= c <= high for c in claims):
        return Verdict(REPRODUCED, f"{measured} holds the paper's {law}", (low, high))
    if approach is not None and len(claims) == 1:
        a = approach
        agrees = finite(a.ode_same_range) and low <= a.ode_same_range <= high
        near = abs(a.ode_last - a.law_last)
        if agrees and near <= ASYMPTOTIC_DISTANCE and near < abs(a.ode_first - a.law_first):
            tends = f"the law's {a.law_last:.3f} there" if abs(a.law_last - claims[0]) > 5e-4 else law
            return Verdict(ASYMPTOTIC, f"{measured} excludes {law}, but the ODE agrees ({_f(a.ode_same_range)}) and "
                                       f"its local slope is {a.ode_last:.3f} at {a.size} → {tends} (it was "
                                       f"{a.ode_first:.3f}, the law's {a.law_first:.3f}, at the smallest size)",
                           (low, high))
    return Verdict(DIFFERS, f"{measured} excludes the paper's {law}", (low, high))


def gap_verdict(gap, se, tolerance: float, what: str) -> Verdict:
    """A relative gap the paper says is 0, held to ``tolerance``: its 95 % interval gap ± 1.96 se must be
    at most ``WIDTH_FRACTION``·tolerance wide; reproduced inside ±tolerance, differs wholly outside,
    undecided when it straddles ±tolerance."""
    if not (finite(gap) and finite(se) and se >= 0):
        return Verdict(UNDECIDED, f"{what}: no gap measured")
    low, high = gap - 1.96 * se, gap + 1.96 * se
    text = f"{what}: gap {100 * gap:+.1f} % [{100 * low:+.1f}, {100 * high:+.1f}]"
    if high - low > WIDTH_FRACTION * tolerance:
        return Verdict(UNDECIDED, f"{text}, {100 * (high - low):.1f} % wide (at most "
                                  f"{100 * WIDTH_FRACTION * tolerance:g} % decides)", (low, high))
    if -tolerance <= low and high <= tolerance:
        return Verdict(REPRODUCED, f"{text} within ±{100 * tolerance:g} %", (low, high))
    if high < -tolerance or low > tolerance:
        return Verdict(DIFFERS, f"{text} outside ±{100 * tolerance:g} %", (low, high))
    return Verdict(UNDECIDED, f"{text} straddles ±{100 * tolerance:g} %", (low, high))


def rate_verdict(rate, low, high, expected: float, what: str) -> Verdict:
    """A quantity that should fall to 0 as d → ∞, fitted as ∝ d^(−rate) with 95 % interval [``low``,
    ``high``]: the alternatives are "does not fall" (rate 0) and the ``expected`` rate, so the interval
    must be at most ``WIDTH_FRACTION``·expected wide; reproduced when it lies above 0 (the quantity
    falls), differs when it holds 0 or lies below (it does not fall), undecided when wider."""
    if not (finite(expected) and expected > 0):
        raise ValueError(f"rate_verdict: expected={expected!r}; allowed: a finite number > 0")
    too_wide = width_check(low, high, WIDTH_FRACTION * expected, f"{what} rate")
    if too_wide:
        return too_wide
    text = f"{what} ∝ d⁻ʳ, r = {_f(rate)} [{_f(low)}, {_f(high)}]"
    if low > 0:
        return Verdict(REPRODUCED, f"{text} falls with d (expected {expected:g})", (low, high))
    return Verdict(DIFFERS, f"{text} does not fall with d (its interval holds 0 or lies below)", (low, high))

def check(ok: bool, holds: str, fails: str) -> Verdict:
    """The verdict of an exact check (no sampling interval): reproduced when ``ok``, else differs."""
    return Verdict(REPRODUCED, holds) if ok else Verdict(DIFFERS, fails)


def combine(parts: Iterable[Verdict], label=None) -> Verdict:
    """One verdict for a row made of ``parts``: the first of :data:`PRECEDENCE` present; its reason
    joins the reasons of the parts that carry that word (each prefixed by its ``label``, when given)."""
    parts = list(parts)
    if not parts:
        return Verdict(UNDECIDED, "nothing measured")
    labels = list(label) if label is not None else [None] * len(parts)
    word = next(w for w in PRECEDENCE if any(p.word == w for p in parts))
    reasons = [f"{lab}: {p.reason}" if lab else p.reason for p, lab in zip(parts, labels) if p.word == word]
    interval = next((p.interval for p in parts if p.word == word and p.interval is not None), None)
    return Verdict(word, "; ".join(reasons), interval)


def claim_verdict(words: Iterable[str]) -> str | None:
    """A claim's verdict from its rows': the common word, "differs" when a row differs, else None
    (the rows disagree without one differing: they are shown one by one)."""
    words = list(words)
    if not words:
        raise ValueError("claim_verdict: a claim needs at least one row")
    if DIFFERS in words:
        return DIFFERS
    return words[0] if len(set(words)) == 1 else None


# --- numbers in words ---------------------------------------------------------------------------------
_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def power_of_ten(d) -> str:
    """10² for 100, 10⁵ for 100000; other numbers as they are."""
    d = int(d)
    k = round(math.log10(d)) if d > 0 else 0
    return f"10{str(k).translate(_SUPERSCRIPT)}" if d > 1 and 10 ** k == d else str(d)


# --- the file -------------------------------------------------------------------------------------------
#: the keys of an entry of the verdict file
ENTRY_KEYS = ("claim", "row", "short", "result", "paper", "headline", "measured", "interval", "verdict", "reason",
              "rule", "figure", "command")


def claim_id(label: str) -> str:
    """"C4" of a row label "C4 tied vs untied, SIE 2" ("" when it has none)."""
    match = re.match(r"C(\d+)", label)
    return f"C{match.group(1)}" if match else ""


def short_label(label: str) -> str:
    """"C4 SIE 2" of "C4 tied vs untied, SIE 2": the claim and what tells the row from its siblings."""
    cid = claim_id(label)
    rest = label[len(cid):].strip()
    name = CLAIM_NAMES.get(int(cid[1:]), "") if cid else ""
    if name and rest.startswith(name):
        rest = rest[len(name):].lstrip(", ")
    elif name and rest.startswith(name.replace("time ", "")):
        rest = rest[len(name.replace("time ", "")):].lstrip(", ")
    if rest.startswith("(") and rest.endswith(")"):
        rest = rest[1:-1]
    rest = re.sub(r"\s*\(.*?\)$", "", rest.strip()) if rest.count("(") == 1 and not rest.endswith(")") else rest
    return f"{cid} {rest.strip()}".strip() if rest.strip() else cid


def entry(row: dict, result: str) -> dict:
    """The verdict-file entry of a claim row of ``result`` (a numbers-file stem)."""
    missing = [k for k in ("claim", "paper", "headline", "measured", "verdict", "reason", "rule", "figure", "command")
               if k not in row]
    if missing:
        raise ValueError(f"claim row {row.get('claim')!r} of {result} lacks {', '.join(missing)}")
    if row["verdict"] not in VERDICTS:
        raise ValueError(f"claim row {row['claim']!r}: verdict {row['verdict']!r} is not one of {', '.join(VERDICTS)}")
    out = {"claim": claim_id(row["claim"]), "row": row["claim"], "short": short_label(row["claim"]), "result": result,
           "paper": row["paper"], "headline": row["headline"], "measured": row["measured"],
           "interval": row.get("interval"), "verdict": row["verdict"], "reason": row["reason"], "rule": row["rule"],
           "figure": row["figure"], "command": row["command"]}
    for key in ("key",):
        if key in row:
            out[key] = row[key]
    return out


def claims_of(entries) -> dict:
    """Claim id -> its verdict (:func:`claim_verdict`; None: rows shown one by one), in claim order."""
    by_claim: dict[str, list[str]] = {}
    for e in entries:
        by_claim.setdefault(e["claim"], []).append(e["verdict"])
    return {c: claim_verdict(words) for c, words in sorted(by_claim.items(), key=lambda kv: _claim_number(kv[0]))}


def _claim_number(cid: str) -> int:
    return int(cid[1:]) if cid[1:].isdigit() else 1_000_000


def verdict_file(entries: list[dict]) -> dict:
    """The content of VERDICTS.json: the categories, the rule, every row's entry and the claims' verdicts.

    A row whose short label is its claim's bare id, in a claim of several rows, is named by the
    claim's short name ("C5 semantic vs positional" beside "C5 authors' diagram rule")."""
    entries = sorted(entries, key=lambda e: _claim_number(e["claim"]))
    rows_per_claim = {c: sum(e["claim"] == c for e in entries) for c in {e["claim"] for e in entries}}
    for e in entries:
        if e["short"] == e["claim"] and rows_per_claim[e["claim"]] > 1:
            e["short"] = f"{e['claim']} {CLAIM_NAMES.get(_claim_number(e['claim']), '')}".strip()
    return {"verdicts": list(VERDICTS), "rule": RULE, "rows": entries, "claims": claims_of(entries)}


def dumps(content: dict) -> str:
    """VERDICTS.json's text (sorted keys, two-space indent, one final newline)."""
    return json.dumps(content, indent=2, ensure_ascii=False, sort_keys=True, allow_nan=False) + "\n"


def load(path) -> dict:
    """A verdict file; ValueError naming the path when it is not one."""
    from pathlib import Path

    content = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(content, dict) or "rows" not in content or "claims" not in content:
        raise ValueError(f"{path} is not a verdict file (no rows and claims)")
    return content


def rows_of(content: dict, result: str | None = None, claim: str | None = None) -> list[dict]:
    """The entries of a verdict file of one ``result`` (numbers-file stem) and/or one ``claim`` ("C4")."""
    return [e for e in content["rows"] if (result is None or e["result"] == result)
            and (claim is None or e["claim"] == claim)]


def rows_for(path, result: str) -> list[dict]:
    """The rows of ``result`` (numbers-file stem) in the verdict file ``path``: what that result's
    figures state as their findings (ssi.plotting.finding_text)."""
    return rows_of(load(path), result)


# --- the headline -----------------------------------------------------------------------------------------
#: the README's headline: at most this many words
HEADLINE_WORDS = 60


def _names(rows, notes=None) -> str:
    """"C1 SIE 1 and 2, C4 SIE 1": short labels, one claim's grouped behind its id ("SIE" said once);
    ``notes``: short label -> a parenthesis said after it."""
    notes = notes or {}
    by_claim: dict[str, list[str]] = {}
    for e in rows:
        rest = e["short"][len(e["claim"]):].strip()
        by_claim.setdefault(e["claim"], []).append(rest + (f" ({notes[e['short']]})" if e["short"] in notes else ""))
    out = []
    for c, rest in by_claim.items():
        rest = [x for x in rest if x]
        if len(rest) > 1 and all(x.startswith("SIE ") for x in rest):
            rest = [rest[0]] + [x[4:] for x in rest[1:]]
        out.append(f"{c} {' and '.join(rest)}".strip())
    return ", ".join(out)


def headline(content: dict) -> str:
    """The README's headline (≤ :data:`HEADLINE_WORDS` words) from a verdict file: the rows under
    each verdict (a claim whose rows all share it by its id alone), and the reason of the first row
    that differs, to its first ";". ValueError when it would be longer."""
    rows = content["rows"]
    parts = []
    for word in VERDICTS:
        mine = [e for e in rows if e["verdict"] == word]
        if not mine:
            continue
        whole = {e["claim"] for e in mine if all(f["verdict"] == word for f in rows if f["claim"] == e["claim"])}
        listed = [{**e, "short": e["claim"]} if e["claim"] in whole else e for e in mine]
        listed = list({(e["claim"], e["short"]): e for e in listed}.values())
        notes = {}
        if word == DIFFERS:
            notes[listed[0]["short"]] = re.sub(r"^[^:]*: (?=\S+ exponent)", "", mine[0]["reason"].split("; ")[0])
        text = f"**{word}**: {_names(listed, notes)}"
        if word == UNDECIDED:
            text += f" ({' or '.join(dict.fromkeys(undecided_note(e['reason']) for e in mine))})"
        parts.append(text)
    sentence = "; ".join(parts) + "."
    if len(sentence.split()) > HEADLINE_WORDS:
        raise ValueError(f"the headline has {len(sentence.split())} words (at most {HEADLINE_WORDS}): {sentence}")
    return sentence[:2] + sentence[2].upper() + sentence[3:]
