"""The ω at which the positional share reaches ½ (C5's switch), one rule for every caller.

The positional share is known on a grid of ω; an entry is nan where the direction is not decided
there (semantic_positional: fewer than half of the runs escaped, or the ODE has not left (0, 0);
the authors' files: no run escaped). Used by :mod:`ssi.experiments.semantic_positional.numbers` (SGD,
ODE and phase-diagram switches) and :mod:`ssi.experiments.authors.numbers` (the authors' C5 files).

**The rule.** Scan the grid in increasing order for the first *defined* share ≥ ½:

* if it is the first grid point, the share is at or above ½ from the start: the switch is that ω
  (it lies at or before the grid);
* if the grid point just before it is defined (and so below ½), the switch is linearly
  interpolated between the two (a share of exactly ½ at a grid point gives that ω);
* if the grid point just before it is nan, the share crosses ½ somewhere in an undecided gap:
  nan, no crossing is inferred across undecided ω;
* if no defined share reaches ½: nan.
"""
from __future__ import annotations

import math

import numpy as np

#: the share of positional runs that marks the switch
HALF = 0.5


def switch_omega(omegas, share) -> float:
    """First ω at which the positional ``share`` reaches ½ (the rule of the module docstring).

    Parameters
    ----------
    omegas : array_like
        Increasing grid of ω.
    share : array_like
        Positional share per ω; nan where the direction is not decided.

    Returns
    -------
    float
        The switch ω (linear interpolation between adjacent defined grid points), ``omegas[0]``
        when the first share is already ≥ ½, or nan (never reached, or reached only across a nan).
    """
    omegas, share = np.asarray(omegas, float), np.asarray(share, float)
    above = np.nonzero(np.isfinite(share) & (share >= HALF))[0]
    if above.size == 0:
        return math.nan
    i = int(above[0])
    if i == 0:
        return float(omegas[0])
    a, b = share[i - 1], share[i]
    if not np.isfinite(a):
        return math.nan
    return float(omegas[i - 1] + (HALF - a) / (b - a) * (omegas[i] - omegas[i - 1]))
