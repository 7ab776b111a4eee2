"""The switch ω of ssi.experiments.phase_switch: its one nan rule, on hand-made shares.

The rule: the first defined share ≥ ½ marks the switch; at the first grid point it is that ω,
after a defined grid point the switch is interpolated, after a nan (an undecided ω) it is nan."""
from __future__ import annotations

import math

import numpy as np
import pytest

from ssi.experiments.semantic_positional import numbers as semantic_positional_numbers
from ssi.experiments import phase_switch
from ssi.experiments.authors import numbers as authors_numbers
from ssi.experiments.phase_switch import switch_omega

NAN = np.nan
OMEGAS = [0.1, 0.2, 0.3, 0.4]


def test_interpolates_between_adjacent_defined_points():
    assert switch_omega(OMEGAS, [0.0, 0.25, 0.75, 1.0]) == pytest.approx(0.25)


def test_crossing_exactly_at_a_grid_point():
    assert switch_omega(OMEGAS, [0.0, 0.2, 0.5, 1.0]) == pytest.approx(0.3)
    assert switch_omega(OMEGAS, [0.5, 0.5, 1.0, 1.0]) == pytest.approx(0.1)


def test_no_crossing_is_nan():
    assert math.isnan(switch_omega(OMEGAS, [0.0, 0.1, 0.4, 0.49]))
    assert math.isnan(switch_omega(OMEGAS, [NAN, NAN, NAN, NAN]))
    assert math.isnan(switch_omega([], []))


def test_already_positional_at_the_first_omega():
    assert switch_omega(OMEGAS, [0.6, 1.0, 1.0, 1.0]) == pytest.approx(0.1)


def test_nan_at_the_start():
    # undecided ω before the crossing: the crossing between defined neighbours still counts
    assert switch_omega(OMEGAS, [NAN, 0.0, 1.0, 1.0]) == pytest.approx(0.25)
    # the first defined share is already ≥ ½, after an undecided ω: where it crossed is unknown
    assert math.isnan(switch_omega(OMEGAS, [NAN, 0.8, 1.0, 1.0]))


def test_nan_in_the_middle_is_not_crossed():
    assert math.isnan(switch_omega(OMEGAS, [0.0, NAN, 1.0, 1.0]))
    # the first share ≥ ½ follows a nan: nan, even if a later crossing between defined points exists
    assert math.isnan(switch_omega([0.1, 0.2, 0.3, 0.4, 0.5], [0.0, NAN, 0.7, 0.2, 0.9]))
    # the authors' d = 1000 transition (paper scale): no switch at that T
    assert math.isnan(switch_omega([0.58, 0.59, 0.6, 0.61, 0.62], [0.0, 0.0, NAN, 0.5, 1.0]))


def test_nan_at_the_end():
    assert switch_omega(OMEGAS, [0.0, 0.25, 0.75, NAN]) == pytest.approx(0.25)
    assert math.isnan(switch_omega(OMEGAS, [0.0, 0.25, NAN, NAN]))


def test_both_callers_use_it():
    assert authors_numbers.switch_omega is switch_omega
    assert phase_switch.switch_omega is switch_omega
    # semantic_positional drops undecided ω first (its committed ODE switch at d = 1000 bridges them)
    assert semantic_positional_numbers.switch_over_decided(OMEGAS, [0.0, NAN, 1.0, 1.0]) == pytest.approx(0.2)
