"""The words of the C4-theory block of docs/results/tied_untied.md, from
figures/numbers/tied_untied_theory.json (the page generator's template lays them out:
workflow/templates/_c4_theory.md.j2)."""
from __future__ import annotations

from ...escape import AUTHORS, AUTHORS_MACRO
from ..claim_text import num


def context(numbers) -> dict:
    """What the block's template reads: the numbers file (``n``), its comparisons by key
    (``rows``), their ODE exponents over small L and at large L as printed (``small``, ``large``),
    the large-L window, the largest difference between the exponents at the two escape levels
    (``gap``), the ODE predictions the SGD runs were made at (``quoted``), and the two levels in
    words (``early``, ``macro``)."""
    rows = {r["key"]: r for r in numbers["comparisons"]}
    gap = max(abs(r[f"exponent_ode{w}_macro"] - r[f"exponent_ode{w}_authors"]) for r in numbers["comparisons"]
              for w in ("", "_small") if r[f"exponent_ode{w}_macro"] is not None)
    return {"n": numbers, "rows": rows, "check": numbers["best_lr_check"],
            "drift": numbers["attention_drift_exponent"],
            "att": {r["normalisation"]: r for r in numbers["students"] if r["student"].startswith("attention")}["sum"],
            "small": {k: num(r["exponent_ode_small_authors"]) for k, r in rows.items()},
            "large": {k: num(r["exponent_ode_authors"]) for k, r in rows.items()},
            "window": "{}–{}".format(*numbers["slope_window"]), "gap": gap,
            "quoted": numbers.get("ode_predictions") or [],
            "early": AUTHORS.level_text(), "macro": AUTHORS_MACRO.level_text()}
