"""Hermite expansions of targets and students, and the Sequence Information Exponent
(docs/theory.md, "Hermite expansions and the SIE").

The names of the two modules that do the work, gathered in one place: the Hermite
coefficients of targets and students by quadrature (:mod:`ssi.hermite_expansion`, with the
conventions: probabilists' ``He_n``, ``c_α(f) = E[f(z) He_α(z)]``) and the Taylor coefficients
of the population loss at the uninformative point with the SIE read off them
(:mod:`ssi.information_exponent`, with the definitions and when ``math.inf`` is returned).
"""
from __future__ import annotations

from .hermite_expansion import (COEF_BUDGET, DEFAULT_MAX_ORDER, MAX_INDICES, activation_coefficients,  # noqa: F401
                                hermite_coefficients, hermite_e, multi_indices, polynomial_degree,
                                student_coefficients, target_coefficients)
from .information_exponent import (DEFAULT_TOL, SIEReport, SIEUndetermined, sie, sie_report,  # noqa: F401
                                   taylor_coefficients)

__all__ = [
    "hermite_e",
    "multi_indices",
    "polynomial_degree",
    "hermite_coefficients",
    "target_coefficients",
    "student_coefficients",
    "activation_coefficients",
    "taylor_coefficients",
    "sie",
    "sie_report",
    "SIEReport",
    "SIEUndetermined",
]
