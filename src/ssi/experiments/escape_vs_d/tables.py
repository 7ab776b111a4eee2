"""What the tables of docs/results/escape_vs_d.md read, from the numbers file of claim C1 (the page
generator's template ``_escape_vs_d.md.j2`` lays them out)."""
from __future__ import annotations

import math

from ...escape import Escape
from ..claim_text import power_of_ten

#: the claimed laws of the numbers file as d^p (log d)^b: (p, b)
LAW_POWERS = {"d": (1, 0), "d log² d": (1, 2), "d^2": (2, 0), "d^3": (3, 0)}


def law_slope(law: str, d1: float, d2: float) -> float:
    """The log-log slope of the law d^p (log d)^b between d1 and d2."""
    p, b = LAW_POWERS[law]
    return p + b * math.log(math.log(d2) / math.log(d1)) / math.log(d2 / d1)


def decades(numbers) -> list[dict]:
    """Per SIE, at the macroscopic level: the ODE's slope over each decade of its d (between
    consecutive powers of ten) and the claimed law's slope over the same decade."""
    out = []
    for f in numbers["fits"]:
        if f["level"] != "macro":
            continue
        steps = dict(zip(f["ode_dims"], f["ode_steps"]))
        tens = sorted(d for d in steps if power_of_ten(d).startswith("10") and power_of_ten(d) != str(d))
        out += [{"sie": f["sie"], "d1": d1, "d2": d2, "ode": math.log(steps[d2] / steps[d1]) / math.log(d2 / d1),
                 "law": law_slope(f["claimed_law"], d1, d2)} for d1, d2 in zip(tens, tens[1:])]
    return out


def cost(numbers) -> dict:
    """The SGD steps of the result (steps run × replicates) per engine, largest first, and the two
    largest points of the reduced engine."""
    total = {}
    for r in numbers["rows"]:
        total[r["engine"]] = total.get(r["engine"], 0) + r["steps_done"] * r["replicates"]
    largest = sorted((r for r in numbers["rows"] if r["engine"] == "reduced"),
                     key=lambda r: -r["steps_done"] * r["replicates"])[:2]
    return {"engines": sorted(total.items(), key=lambda kv: -kv[1]), "largest": largest}


def context(numbers) -> dict:
    """What the page's tables read: the numbers file (``n``), the two escape levels in words
    (``levels``), :func:`decades`, :func:`cost`."""
    return {"n": numbers, "decades": decades(numbers), "cost": cost(numbers),
            "levels": {"early": Escape(numbers["early_multiple"], per_sqrt_d=True).level_text(),
                       "macro": Escape(numbers["macro_level"]).level_text()}}
