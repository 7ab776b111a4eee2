"""Command line: ``python -m ssi {sie, escape, list}`` (also installed as the ``ssi`` script).

``sie``     the SIE of a (target, student, PE) triple and its leading Taylor coefficients
            (:func:`ssi.hermite.sie_report`; definitions in docs/theory.md,
            "Hermite expansions and the SIE");
``escape``  the ODE's escape time in SGD steps for a given d and η (:func:`ssi.escape_time`;
            docs/theory.md, "The ODE");
``list``    every registry name with its description (:mod:`ssi.problems`).

``--target`` takes a registry name or ``MODULE:FUNCTION``, a user's target imported with
importlib (docs/custom_targets.md).

A bad name or value exits with status 2 and a message naming the option and what is allowed.
"""
from __future__ import annotations

import argparse
import importlib
import math
import sys

#: library parameter -> command-line option, for error messages
_OPTION_OF = {"L": "--L", "target": "--target", "student": "--student", "pe": "--pe",
              "reduction": "--reduction", "activation": "--activation", "omega": "--omega", "a": "--a",
              "max_order": "--max-order", "d": "--d", "lr": "--lr", "threshold": "--threshold", "m0": "--m0",
              "t_max": "--t-max"}


def _registries():
    from . import problems
    return {
        "targets": {k: v[3] for k, v in problems.TARGETS.items()},
        "students": {k: v[2] for k, v in problems.STUDENTS.items()},
        "pe": dict(problems.POSITIONAL_ENCODINGS),
        "reductions": {k: v[1] for k, v in problems.REDUCTIONS.items()},
        "activations": {k: v[1] for k, v in problems.ACTIVATIONS.items()},
    }


def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be an integer ≥ 1")
    return value


def _positive_float(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"{text!r} must be a finite number > 0")
    return value


def _level(text):
    """--threshold: a level of |m| (:func:`ssi.escape.parse_level`): a number, or ``k/sqrt(d)``."""
    from .escape import Escape, parse_level

    try:
        value = float(text)
    except ValueError:
        value = text
    try:
        level, per_sqrt_d = parse_level(value, "--threshold")
        return Escape(level, per_sqrt_d=per_sqrt_d)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _target_type(names):
    """--target: a registry name, or ``module:function`` imported (never evaluated) as a user's target."""
    def parse(text):
        if ":" not in text:
            if text not in names:
                raise argparse.ArgumentTypeError(
                    f"target={text!r} is unknown; allowed: {', '.join(repr(n) for n in sorted(names))}, "
                    "or MODULE:FUNCTION")
            return text
        module_name, _, attribute = text.partition(":")
        try:
            obj = importlib.import_module(module_name)
            for part in attribute.split("."):
                obj = getattr(obj, part)
        except (ImportError, AttributeError, ValueError) as err:
            raise argparse.ArgumentTypeError(f"target={text!r}: cannot import {attribute!r} from module "
                                             f"{module_name!r} ({type(err).__name__}: {err})") from None
        if not callable(obj):
            raise argparse.ArgumentTypeError(f"target={text!r} is not a function")
        return obj
    return parse


def _add_problem_options(parser, registries):
    group = parser.add_argument_group("problem (names: `python -m ssi list`)")
    group.add_argument("--L", type=_positive_int, required=True, help="sequence length (≥ 1)")
    group.add_argument("--target", required=True, type=_target_type(registries["targets"]), metavar="NAME",
                       help="target link: " + ", ".join(sorted(registries["targets"]))
                       + ", or MODULE:FUNCTION, a function g(z) of one sample z (docs/custom_targets.md)")
    group.add_argument("--student", required=True, choices=sorted(registries["students"]), metavar="NAME",
                       help="student: " + ", ".join(sorted(registries["students"])))
    group.add_argument("--pe", default="none", choices=sorted(registries["pe"]), metavar="NAME",
                       help="positional encoding (default none): " + ", ".join(sorted(registries["pe"])))
    group.add_argument("--reduction", choices=sorted(registries["reductions"]), metavar="NAME",
                       help="attention only: " + ", ".join(sorted(registries["reductions"]))
                       + " (default identity for the matrix target, trace otherwise)")
    group.add_argument("--activation", choices=sorted(registries["activations"]), metavar="NAME",
                       help="tied/untied only (default relu): " + ", ".join(sorted(registries["activations"])))
    group.add_argument("--omega", type=float, default=0.5, help="mixture target: weight ω ∈ [0, 1] (default 0.5)")
    group.add_argument("--a", type=float, default=1.0, help="mixture target: pattern strength a (default 1)")


def _build_parser():
    registries = _registries()
    parser = argparse.ArgumentParser(
        prog="python -m ssi",
        description="Sequence single-index models: SIE, ODE escape times and registry names "
                    "(theory: docs/theory.md).")
    sub = parser.add_subparsers(dest="command", metavar="{sie,escape,list}", required=True)

    p_sie = sub.add_parser("sie", help="SIE and leading Taylor coefficients of a problem",
                           description="Sequence information exponent of a (target, student, PE) triple "
                                       "and the leading Taylor coefficients of the population loss at "
                                       "(m, e) = (0, 0) (docs/theory.md, \"Hermite expansions and the SIE\").")
    _add_problem_options(p_sie, registries)
    p_sie.add_argument("--max-order", type=_positive_int, default=6,
                       help="largest total degree examined (default 6)")

    p_esc = sub.add_parser("escape", help="ODE escape time (steps) at dimension d and learning rate η",
                           description="Steps t·d at which the ODE's |m| first reaches the threshold, "
                                       "from m0 = d^(-1/2) unless given (docs/theory.md, \"The ODE\").")
    _add_problem_options(p_esc, registries)
    p_esc.add_argument("--d", type=_positive_int, required=True, help="dimension")
    p_esc.add_argument("--lr", type=_positive_float, required=True, help="learning rate η (our convention)")
    p_esc.add_argument("--threshold", type=_level, default=None,
                       help="level of |m|: a number, or a multiple of d^(-1/2) written k/sqrt(d) "
                            "(default: ssi.escape.DEFAULT_LEVEL, the macroscopic level)")
    p_esc.add_argument("--m0", type=float, default=None, help="initial overlap (default d^(-1/2))")
    p_esc.add_argument("--t-max", type=_positive_float, default=1e6,
                       help="give up after this time t = steps/d (default 1e6)")

    sub.add_parser("list", help="registry names with their descriptions",
                   description="Every name accepted by --target, --student, --pe, --reduction and "
                               "--activation, with its description.")
    return parser


def _problem(parser, args):
    from .problems import Problem
    try:
        return Problem(L=args.L, target=args.target, student=args.student, pe=args.pe,
                       reduction=args.reduction, activation=args.activation, omega=args.omega, a=args.a)
    except ValueError as err:
        _fail(parser, err)


def _fail(parser, err):
    """Exit with status 2 and the library's message, prefixed with the command-line option it is about
    (the library's messages start with the parameter they name: ``lr=... is not allowed; ...``)."""
    message = str(err)
    option = next((opt for name, opt in _OPTION_OF.items() if message.startswith(f"{name}=")), None)
    if option is None and message.startswith("target function"):
        option = "--target"
    if option is None:
        option = next((opt for name, opt in _OPTION_OF.items() if f" {name}=" in message), None)
    parser.error(f"{option}: {message}" if option else message)


def _format_monomial(key, tied):
    if tied:
        i, gamma = key
        parts = [f"m^{i}" if i > 1 else "m"] if i else []
        for j, g in enumerate(gamma):
            if g:
                name = "e" if len(gamma) == 1 else f"e{j + 1}"
                parts.append(f"{name}^{g}" if g > 1 else name)
        return "·".join(parts)
    return "·".join(f"m{l + 1}^{a}" if a > 1 else f"m{l + 1}" for l, a in enumerate(key) if a)


def _format_order(value):
    return "inf" if math.isinf(value) else str(int(value))


def _cmd_sie(parser, args, out):
    from .hermite import SIEUndetermined, sie_report
    problem = _problem(parser, args)
    try:
        report = sie_report(problem, max_order=args.max_order)
    except SIEUndetermined as err:
        print(f"SIE undetermined: {err}", file=sys.stderr)
        return 1
    print(f"problem: {problem!r}", file=out)
    print(f"SIE: {_format_order(report.order)}", file=out)
    print(f"SIE (joint, pure-e monomials included): {_format_order(report.joint_order)}", file=out)
    print(f"reason: {report.reason}", file=out)
    if report.leading:
        print(f"leading Taylor coefficients of R at (0, 0) (degree {_format_order(report.order)}):", file=out)
        for key, c in sorted(report.leading.items(), key=lambda kv: str(kv[0])):
            print(f"  {_format_monomial(key, problem.tied)}: {c:+.6g}", file=out)
        print(f"leading form descends along some direction with m ≠ 0: {report.descends}", file=out)
    return 0


def _cmd_escape(parser, args, out):
    from .ode import escape_time
    problem = _problem(parser, args)
    if args.m0 is not None and not (0 < abs(args.m0) <= 1):
        parser.error(f"--m0: m0={args.m0!r} is not allowed; 0 < |m0| ≤ 1")
    m0 = args.d ** -0.5 if args.m0 is None else args.m0
    from .escape import DEFAULT_LEVEL

    threshold = DEFAULT_LEVEL if args.threshold is None else args.threshold.value(args.d)
    try:
        steps = escape_time(problem, d=args.d, lr=args.lr, threshold=threshold, m0=m0, t_max=args.t_max)
    except ValueError as err:
        _fail(parser, err)
    print(f"problem: {problem!r}", file=out)
    print(f"d = {args.d}, lr = {args.lr:g}, m0 = {m0:.6g}, threshold |m| = {threshold:g}", file=out)
    if math.isinf(steps):
        print(f"escape steps: inf ({steps.reason})", file=out)
    else:
        print(f"escape steps: {steps:.6g} (t = steps/d = {steps / args.d:.6g})", file=out)
    return 0


def _cmd_list(out):
    titles = {"targets": "targets (--target)", "students": "students (--student)",
              "pe": "positional encodings (--pe)", "reductions": "reductions (--reduction)",
              "activations": "activations (--activation)"}
    for kind, names in _registries().items():
        print(f"{titles[kind]}:", file=out)
        width = max(len(n) for n in names)
        for name, description in names.items():
            print(f"  {name:<{width}}  {description}", file=out)
    return 0


def main(argv=None) -> int:
    """Entry point of ``python -m ssi`` and of the ``ssi`` script; returns the exit status."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    out = sys.stdout
    if args.command == "list":
        return _cmd_list(out)
    sub = parser._subparsers._group_actions[0].choices[args.command]
    if args.command == "sie":
        return _cmd_sie(sub, args, out)
    return _cmd_escape(sub, args, out)


if __name__ == "__main__":
    sys.exit(main())
