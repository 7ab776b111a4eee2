"""Bad arguments to the public API (``ssi.__all__``, the custom-target classes, ``python -m ssi``)
are refused before any work with one line naming the parameter and what it takes:
:class:`ssi.problems.ArgumentKindError` (a TypeError, and a ValueError) for the wrong kind,
ValueError for a value out of range.

Every call below is one a newcomer makes; the message each gave before these checks is in the
docstring of its test. No call here reaches numba or the quadrature: each must fail first.
"""
from __future__ import annotations

import pytest

from ssi import Problem, cli, escape_time, integrate_ode, population_loss, sie, simulate
from ssi.custom import CustomActivation, CustomTarget
from ssi.ode import escape_times
from ssi.problems import ArgumentKindError


def g(z):
    """A user's target, passed where a Problem goes."""
    return z[0] * z[1]


P = Problem(L=2, target="he2_sum", student="attention")
UNTIED = Problem(L=2, target="he2_sum", student="untied")


def raises(kind, parameter, call):
    """Run ``call``; assert it raises ``kind`` with a one-line message naming ``parameter=``."""
    with pytest.raises(kind) as info:
        call()
    message = str(info.value)
    assert f"{parameter}=" in message, message
    assert "\n" not in message, message
    return message


def test_the_wrong_kind_is_a_type_error_and_a_value_error():
    """A caller catching bad input as ValueError (the command line) still catches the wrong kind."""
    assert issubclass(ArgumentKindError, TypeError) and issubclass(ArgumentKindError, ValueError)


@pytest.mark.parametrize("problem", [g, None, "he2_sum", 2])
def test_a_problem_argument_takes_a_problem(problem):
    """sie(g) with a plain function, and sie(None), raised AttributeError ("'function' object has no
    attribute 'loss'") from inside sie_report; integrate_ode, escape_time and population_loss raised
    AttributeError (no attribute 'L'); simulate a ValueError without the parameter's name."""
    for call in (lambda: sie(problem), lambda: integrate_ode(problem, 0.1, 0.1),
                 lambda: escape_time(problem, 100, 0.1, 0.5), lambda: population_loss(problem, 0.1),
                 lambda: simulate(problem, d=100, lr=0.1, steps=10)):
        message = raises(ArgumentKindError, "problem", call)
        assert "ssi.Problem" in message


def test_a_function_passed_as_problem_is_shown_the_right_call():
    """The message for sie(g) shows Problem(..., target=g, ...), the call the user meant."""
    assert "Problem(L=..., target=g, student=...)" in raises(ArgumentKindError, "problem", lambda: sie(g))


@pytest.mark.parametrize("kwargs, kind, parameter", [
    ({"L": "2"}, ArgumentKindError, "L"),               # before: ValueError, the same words
    ({"L": 0}, ValueError, "L"),
    ({"target": None}, ArgumentKindError, "target"),
    ({"target": 3.0}, ArgumentKindError, "target"),
    ({"student": None}, ArgumentKindError, "student"),
    ({"student": ["attention"]}, ArgumentKindError, "student"),   # before: TypeError: unhashable type: 'list'
    ({"student": "robot"}, ValueError, "student"),
    ({"target": "mixture", "omega": "x"}, ArgumentKindError, "omega"),   # before: could not convert string to float
    ({"target": "mixture", "omega": 1.5}, ValueError, "omega"),
    ({"target": "mixture", "a": None}, ArgumentKindError, "a"),   # before: TypeError: must be real number, not NoneType
    ({"target_scale": "2"}, ArgumentKindError, "target_scale"),
    ({"target_scale": 0}, ValueError, "target_scale"),
    ({"student": "tied", "activation": 3}, ArgumentKindError, "activation"),
    ({"reduction": "projection", "proj_left": ["a", "b"]}, ArgumentKindError, "proj_left"),
    ({"loss": 2}, ArgumentKindError, "loss"),
])
def test_problem(kwargs, kind, parameter):
    """Problem(student=["attention"]) raised TypeError "unhashable type: 'list'", omega="x" "could not
    convert string to float: 'x'", a=None "must be real number, not NoneType": none named the parameter."""
    arguments = {"L": 2, "target": "he2_sum", "student": "attention", **kwargs}
    raises(kind, parameter, lambda: Problem(**arguments))


@pytest.mark.parametrize("kwargs, kind, parameter", [
    ({"d": "100"}, ArgumentKindError, "d"),
    ({"d": 100.0}, ArgumentKindError, "d"),
    ({"d": 2}, ValueError, "d"),
    ({"lr": None}, ArgumentKindError, "lr"),
    ({"lr": -0.1}, ValueError, "lr"),
    ({"steps": 1e3}, ArgumentKindError, "steps"),
    ({"replicates": 0}, ValueError, "replicates"),
    ({"engine": "fast"}, ValueError, "engine"),
    ({"threshold": "0.5"}, ArgumentKindError, "threshold"),   # before: TypeError: '<' not supported ... 'str'
    ({"threshold": 1.5}, ValueError, "threshold"),
    ({"threads": 2.0}, ArgumentKindError, "threads"),
    ({"progress": 3}, ArgumentKindError, "progress"),          # before: 'int' object is not callable, mid-run
    ({"stop_when": "yes"}, ArgumentKindError, "stop_when"),
    ({"stop_at_threshold": "yes", "threshold": 0.5}, ArgumentKindError, "stop_at_threshold"),
    ({"m0": "x"}, ArgumentKindError, "m0"),                    # before: could not convert string to float: 'x'
    ({"m0": 1.5}, ValueError, "m0"),
])
def test_simulate(kwargs, kind, parameter):
    """simulate(threshold="0.5") raised TypeError "'<' not supported between instances of 'int' and
    'str'"; progress=3 ran the first block of steps, then raised "'int' object is not callable"."""
    arguments = {"d": 100, "lr": 0.1, "steps": 10, **kwargs}
    raises(kind, parameter, lambda: simulate(P, **arguments))


@pytest.mark.parametrize("args, kwargs, kind, parameter", [
    ((P, "a", 0.1), {}, ArgumentKindError, "lr"),             # before: could not convert string to float: 'a'
    ((P, 0.0, 0.1), {}, ValueError, "lr"),
    ((P, 0.1, None), {}, ArgumentKindError, "m0"),            # before: solve_ivp's "y0 must be finite"
    ((P, 0.1, "0.1"), {}, ArgumentKindError, "m0"),
    ((P, 0.1, float("nan")), {}, ValueError, "m0"),
    ((P, 0.1, 0.1, "0"), {}, ArgumentKindError, "e0"),
    ((P, 0.1, 0.1), {"t_max": "50"}, ArgumentKindError, "t_max"),
    ((P, 0.1, 0.1), {"t_max": -1.0}, ValueError, "t_max"),
    ((P, 0.1, 0.1), {"threshold": 2.0}, ValueError, "threshold"),   # before: integrated to t_max, never reached
    ((P, 0.1, 0.1), {"threshold": "0.5"}, ArgumentKindError, "threshold"),
    ((P, 0.1, 0.1), {"lr_schedule": 2.0}, ArgumentKindError, "lr_schedule"),
    ((P, 0.1, 0.1), {"noise": "no"}, ArgumentKindError, "noise"),
    ((P, 0.1, 0.1), {"rtol": 0}, ValueError, "rtol"),
    ((P, 0.1, 0.1), {"give_up_below": "0.01"}, ArgumentKindError, "give_up_below"),
    ((UNTIED, 0.1, 0.1), {"Q0": "one"}, ArgumentKindError, "Q0"),
    ((P, 0.1, 0.1), {"overlap": "max"}, ValueError, "overlap"),
])
def test_integrate_ode(args, kwargs, kind, parameter):
    """integrate_ode(p, "a", m0) raised "could not convert string to float: 'a'"; m0=None reached
    solve_ivp ("All components of the initial state `y0` must be finite"); threshold=2 integrated
    to t_max for a level |m| ≤ 1 never reaches."""
    raises(kind, parameter, lambda: integrate_ode(*args, **kwargs))


@pytest.mark.parametrize("args, kwargs, kind, parameter", [
    ((P, "100", 0.1, 0.5), {}, ArgumentKindError, "d"),     # before: unsupported operand type(s) for ** or pow()
    ((P, -100, 0.1, 0.5), {}, ValueError, "d"),
    ((P, 100, None, 0.5), {}, ArgumentKindError, "lr"),
    ((P, 100, 0.1, None), {}, ArgumentKindError, "threshold"),   # before: "stop_when_settled=True needs a threshold"
    ((P, 100, 0.1, 0.0), {}, ValueError, "threshold"),
    ((P, 100, 0.1, 0.5, "small"), {}, ArgumentKindError, "m0"),
    ((P, 100, 0.1, 0.5), {"t_max": None}, ArgumentKindError, "t_max"),
])
def test_escape_time(args, kwargs, kind, parameter):
    """escape_time(p, "100", ...) raised "unsupported operand type(s) for ** or pow(): 'str' and
    'float'"; threshold=None raised a message about stop_when_settled, an option not given."""
    raises(kind, parameter, lambda: escape_time(*args, **kwargs))


def test_escape_times():
    """escape_times shares escape_time's checks, and takes a list of levels."""
    raises(ArgumentKindError, "d", lambda: escape_times(P, "100", 0.1, [0.2, 0.5]))
    raises(ArgumentKindError, "thresholds", lambda: escape_times(P, 100, 0.1, ["0.2", "0.5"]))
    raises(ValueError, "threshold", lambda: escape_times(P, 100, 0.1, [0.2, 1.5]))


@pytest.mark.parametrize("args, kwargs, kind, parameter", [
    ((P, "a"), {}, ArgumentKindError, "m"),                  # before: could not convert string to float: 'a'
    ((P, None), {}, ArgumentKindError, "m"),
    ((P, [0.1, float("nan")]), {}, ValueError, "m"),
    ((P, 0.1, "0"), {}, ArgumentKindError, "e"),
    ((UNTIED, 0.1), {"Q": "one"}, ArgumentKindError, "Q"),
    ((P, 0.1), {"n_points": 2.5}, ArgumentKindError, "n_points"),   # before: numpy's "deg must be an integer"
    ((P, 0.1), {"n_points": 0}, ValueError, "n_points"),
    ((P, 0.1), {"method": "simpson"}, ValueError, "method"),
    ((P, 0.1), {"budget": "big"}, ArgumentKindError, "budget"),
])
def test_population_loss(args, kwargs, kind, parameter):
    """population_loss(p, "a") raised "could not convert string to float: 'a'"; n_points=2.5
    raised numpy's "deg must be an integer, received 2.5" from the Gauss–Hermite rule."""
    raises(kind, parameter, lambda: population_loss(*args, **kwargs))


@pytest.mark.parametrize("kwargs, kind, parameter", [
    ({"max_order": "6"}, ArgumentKindError, "max_order"),   # before: can only concatenate str (not "int") to str
    ({"max_order": 0}, ValueError, "max_order"),
    ({"tol": -1.0}, ValueError, "tol"),                      # before: no error, every coefficient counted
    ({"tol": None}, ArgumentKindError, "tol"),
    ({"definition": 1}, ArgumentKindError, "definition"),
    ({"definition": "literal"}, ValueError, "definition"),
])
def test_sie(kwargs, kind, parameter):
    """sie(p, max_order="6") raised TypeError "can only concatenate str (not "int") to str"; tol=-1
    was accepted."""
    raises(kind, parameter, lambda: sie(P, **kwargs))


@pytest.mark.parametrize("call, parameter", [
    (lambda: CustomTarget(None), "fun"),
    (lambda: CustomTarget(g, grad=1.0), "grad"),
    (lambda: CustomTarget(g, name=3), "name"),
    (lambda: CustomTarget(g, vectorized="yes"), "vectorized"),   # before: accepted, "yes" is true
    (lambda: CustomActivation(3), "fun"),
    (lambda: CustomActivation(abs, derivative="d"), "derivative"),
    (lambda: CustomActivation(abs, name=["relu"]), "name"),
])
def test_custom_targets_and_activations(call, parameter):
    """CustomTarget(g, vectorized="yes") was accepted (a non-empty string is true); CustomTarget(None)
    named ``target``, a parameter CustomTarget does not have."""
    raises(TypeError, parameter, call)


@pytest.mark.parametrize("args, option", [
    (["escape", "--L", "2", "--target", "he2_sum", "--student", "attention", "--d", "100", "--lr", "0.1",
      "--threshold", "2"], "--threshold"),
    (["sie", "--L", "2", "--target", "mixture", "--student", "attention", "--omega", "2"], "--omega"),
    (["sie", "--L", "x", "--target", "he2_sum", "--student", "attention"], "--L"),
    (["sie", "--L", "2", "--target", "he2_sum", "--student", "attention", "--max-order", "six"], "--max-order"),
])
def test_command_line(args, option, capsys):
    """``python -m ssi escape ... --threshold 2`` exited with "threshold=2.0 is not allowed", not
    naming the option ``--threshold`` the user typed."""
    with pytest.raises(SystemExit) as info:
        cli.main(args)
    assert info.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert option in last and "Traceback" not in last, last
