"""What the table of docs/results/two_phases.md reads, from the numbers file of claims C2 and C6
(the page generator's template ``_two_phases.md.j2`` lays it out)."""
from __future__ import annotations

from . import gap_in_se, relative_gap


def context(numbers) -> dict:
    """Per case and d (``rows``): the row of the numbers file with the SGD–ODE gap of its mean
    escape time in standard errors (``z``) and relative to the ODE's (``gap``); both None when
    some replicate did not escape or the ODE did not."""
    return {"rows": [{**r, "z": gap_in_se(r), "gap": relative_gap(r)} for r in numbers["rows"]]}
