"""Shared vocabulary of the claims table: the keys of a claim row and the number formats of its cells.

Every result module's ``claim_rows(config, numbers)`` returns rows with the keys of
:data:`ROW_KEYS`; the verdict of a row and its reason come from :mod:`ssi.verdicts` (its words and
its one decisiveness rule), applied by the result module to its numbers as its ``rule`` text says
(rendered in figures/CLAIMS.md). This module holds no rule of its own.
"""
from __future__ import annotations

import math

from ..verdicts import VERDICTS

#: keys every claim row has ("rule": the verdict rule in words, for figures/CLAIMS.md; "reason": why
#: this verdict, in one phrase; "interval": the 95 % interval it rests on, or None)
ROW_KEYS = ("claim", "paper", "measured", "headline", "verdict", "reason", "interval", "figure", "command", "rule")
#: the README's measured cell: at most this many characters
HEADLINE_MAX = 160

_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def finite(x) -> bool:
    """True for a real finite number (None, nan and inf are not)."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def num(x, spec: str = ".2f") -> str:
    """``x`` formatted by ``spec``, or "n/a" when it is not a finite number."""
    return format(x, spec) if finite(x) else "n/a"


def interval(x, low, high, spec: str = ".2f") -> str:
    """"1.05 [0.92, 1.16]": an estimate with its interval."""
    return f"{num(x, spec)} [{num(low, spec)}, {num(high, spec)}]"


def power_of_ten(d) -> str:
    """10² for 100, 10⁵ for 100000; other numbers as they are."""
    d = int(d)
    k = round(math.log10(d)) if d > 0 else 0
    return f"10{str(k).translate(_SUPERSCRIPT)}" if d > 1 and 10 ** k == d else str(d)


def span(values) -> str:
    """"10²–10⁵" for the first and last of ``values`` when both are powers of ten, else "18–100"."""
    first, last = power_of_ten(values[0]), power_of_ten(values[-1])
    if first.startswith("10") and last.startswith("10") and first != str(values[0]) and last != str(values[-1]):
        return f"{first}–{last}"
    return f"{values[0]}–{values[-1]}"


def percent(x, spec: str = ".1f") -> str:
    """A fraction as a percentage: 0.0192 -> "1.9 %"."""
    return f"{format(100 * x, spec)} %" if finite(x) else "n/a"


def signed(x, spec: str = ".1f") -> str:
    """``x`` with its sign, "+2.3" or "-0.6"; a value that rounds to zero is "0.0", never "-0.0"."""
    text = format(x, "+" + spec)
    return text[1:] if float(text) == 0 else text


def signed_percent(x, spec: str = ".1f") -> str:
    """A signed fraction as a percentage: 0.09 -> "+9.0 %", -0.0001 -> "0.0 %"."""
    return f"{signed(100 * x, spec)} %" if finite(x) else "n/a"


def check_row(row: dict) -> dict:
    """``row`` unchanged when it has every key of :data:`ROW_KEYS` and a known verdict; else ValueError."""
    missing = [key for key in ROW_KEYS if key not in row]
    if missing:
        raise ValueError(f"claim row {row.get('claim')!r} lacks {', '.join(missing)}")
    if row["verdict"] not in VERDICTS:
        raise ValueError(f"claim row {row['claim']!r}: verdict {row['verdict']!r} is not one of {', '.join(VERDICTS)}")
    return row
