"""What the tables of docs/results/positional.md read, from the numbers file of claim C3 (the page
generator's template ``_positional.md.j2`` lays them out)."""
from __future__ import annotations

from ..claim_text import finite

#: the cases of the escape sweep, as the page names them
CASE_TEXT = {"none": "no PE", "opposite_same_lr": "opposite PE, same η", "opposite": "opposite PE, constant η"}


def speedup(numbers) -> dict | None:
    """The median escape without PE over the median with PE at the same η, over the d both cases
    ran: {"low", "high", "dims"}, or None without a common d."""
    medians = {(r["case"], r["d"]): r["steps_median"] for r in numbers["rows"]}
    common = sorted(d for case, d in medians if case == "none" and ("opposite_same_lr", d) in medians)
    ratios = [medians["none", d] / medians["opposite_same_lr", d] for d in common
              if finite(medians["none", d]) and finite(medians["opposite_same_lr", d])]
    return {"low": min(ratios), "high": max(ratios), "dims": common} if ratios else None


def context(numbers) -> dict:
    """What the page's tables read: the numbers file (``n``), the cases' names (``cases``) and
    :func:`speedup`."""
    return {"n": numbers, "cases": CASE_TEXT, "speedup": speedup(numbers)}
