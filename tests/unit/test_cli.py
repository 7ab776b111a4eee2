"""The command line ``python -m ssi`` (ssi.cli): each command runs as a subprocess and prints
what the library computes; bad input exits with status 2 naming the option.

The SIE values checked here are the ones derived in docs/theory.md, "Hermite expansions and
the SIE" (he2_sum with trace attention: 2; he4_sum_plus_diff: 4 without PE, 2 with opposite
PE), and each is cross-checked against ``ssi.hermite.sie`` in this process.
"""
from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ssi import cli, problems
from ssi.hermite import sie
from ssi.ode import escape_time
from ssi.problems import Problem

SRC = Path(__file__).resolve().parents[2] / "src"


def run_cli(*args):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(SRC) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return subprocess.run([sys.executable, "-m", "ssi", *args], capture_output=True, text=True,
                          env=env, timeout=600)


def _value(stdout, label):
    match = re.search(rf"^{re.escape(label)}: (\S+)$", stdout, re.M)
    assert match, f"no line {label!r} in:\n{stdout}"
    return match.group(1)


@pytest.mark.parametrize("args, problem", [
    (["--L", "2", "--target", "he2_sum", "--student", "attention", "--reduction", "trace"],
     Problem(L=2, target="he2_sum", student="attention", reduction="trace")),
    (["--L", "2", "--target", "he4_sum_plus_diff", "--student", "attention", "--pe", "opposite"],
     Problem(L=2, target="he4_sum_plus_diff", student="attention", pe="opposite")),
    (["--L", "2", "--target", "he4_sum_plus_diff", "--student", "attention"],
     Problem(L=2, target="he4_sum_plus_diff", student="attention")),
])
def test_sie_prints_the_sie_of_the_library(args, problem):
    done = run_cli("sie", *args)
    assert done.returncode == 0, done.stderr
    expected = {"he2_sum": 2, "he4_sum_plus_diff": 2 if problem.pe == "opposite" else 4}[problem.target]
    assert sie(problem) == expected
    assert _value(done.stdout, "SIE") == str(expected)
    assert _value(done.stdout, "SIE (joint, pure-e monomials included)") == str(sie(problem, definition="joint"))
    # the leading coefficients are listed, and have the SIE's degree
    assert f"(degree {expected}):" in done.stdout
    if problem.pe == "opposite":
        assert re.search(r"^  m·e: [-+]", done.stdout, re.M), done.stdout
    else:
        assert re.search(rf"^  m\^{expected}: [-+]", done.stdout, re.M), done.stdout


def test_sie_infinite_for_a_target_the_student_cannot_see():
    done = run_cli("sie", "--L", "2", "--target", "z1_minus_z2", "--student", "tied")
    assert done.returncode == 0, done.stderr
    assert sie(Problem(L=2, target="z1_minus_z2", student="tied")) == math.inf
    assert _value(done.stdout, "SIE") == "inf"
    assert re.search(r"^reason: symmetry: ", done.stdout, re.M), done.stdout


def test_escape_prints_the_ode_escape_time():
    done = run_cli("escape", "--L", "2", "--target", "he2_sum_norm", "--student", "matched",
                   "--d", "1000", "--lr", "0.1", "--threshold", "0.5")
    assert done.returncode == 0, done.stderr
    match = re.search(r"^escape steps: (\S+) \(t = steps/d = (\S+)\)$", done.stdout, re.M)
    assert match, done.stdout
    steps = float(match.group(1))
    expected = escape_time(Problem(L=2, target="he2_sum_norm", student="matched"), d=1000, lr=0.1,
                           threshold=0.5, t_max=1e6)
    assert math.isfinite(expected)
    assert steps == pytest.approx(expected, rel=1e-5)          # printed with 6 significant digits
    assert float(match.group(2)) == pytest.approx(expected / 1000, rel=1e-5)
    assert "m0 = 0.0316228" in done.stdout                      # default start d^(-1/2)


def test_list_lists_every_registry_key():
    done = run_cli("list")
    assert done.returncode == 0, done.stderr
    sections = re.split(r"^(\S.*):$", done.stdout, flags=re.M)[1:]
    listed = {title: {line.split()[0] for line in body.strip().splitlines()}
              for title, body in zip(sections[::2], sections[1::2])}
    expected = {
        "targets (--target)": problems.TARGETS,
        "students (--student)": problems.STUDENTS,
        "positional encodings (--pe)": problems.POSITIONAL_ENCODINGS,
        "reductions (--reduction)": problems.REDUCTIONS,
        "activations (--activation)": problems.ACTIVATIONS,
    }
    assert set(listed) == set(expected)
    for title, registry in expected.items():
        assert listed[title] == set(registry), title
    # with the descriptions
    assert problems.TARGETS["he4_sum_plus_diff"][3] in done.stdout


@pytest.mark.parametrize("command", ["sie", "escape", "list"])
def test_help_of_each_command(command, capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main([command, "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: python -m ssi {command}")
    if command != "list":
        for option in ("--L", "--target", "--student", "--pe", "--reduction", "--activation"):
            assert option in out


def test_bad_name_fails_cleanly_from_the_shell():
    done = run_cli("sie", "--L", "2", "--target", "no_such_target", "--student", "attention")
    assert done.returncode == 2
    assert done.stdout == ""
    assert "--target" in done.stderr and "no_such_target" in done.stderr
    for name in problems.TARGETS:                               # the allowed values are listed
        assert repr(name) in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("args, option, words", [
    (["sie", "--L", "2", "--target", "he2_sum", "--student", "robot"], "--student", ["attention", "untied"]),
    (["sie", "--L", "2", "--target", "he2_sum", "--student", "attention", "--pe", "sideways"], "--pe",
     ["opposite", "orthonormal"]),
    (["sie", "--L", "2", "--target", "he2_sum", "--student", "attention", "--reduction", "max"],
     "--reduction", ["trace", "projection"]),
    (["sie", "--L", "2", "--target", "he2_sum", "--student", "tied", "--activation", "gelu"],
     "--activation", ["relu", "tanh"]),
    (["sie", "--L", "3", "--target", "he2_sum", "--student", "attention", "--pe", "opposite"], "--pe",
     ["L = 2"]),
    (["sie", "--L", "1", "--target", "z1z2", "--student", "attention"], "--L", ["L ≥ 2"]),
    (["sie", "--L", "2", "--target", "he2_sum", "--student", "attention", "--activation", "relu"],
     "--activation", ["tied", "untied"]),
    (["escape", "--L", "2", "--target", "he2_sum", "--student", "attention", "--d", "0", "--lr", "0.1"],
     "--d", ["≥ 1"]),
    (["escape", "--L", "2", "--target", "he2_sum", "--student", "attention", "--d", "100", "--lr", "-1"],
     "--lr", ["> 0"]),
    (["escape", "--L", "2", "--target", "he2_sum", "--student", "attention", "--d", "100", "--lr", "0.1",
      "--m0", "1.5"], "--m0", ["≤ 1"]),
    (["frobnicate"], "frobnicate", ["sie", "escape", "list"]),
])
def test_bad_input_exits_2_naming_the_option(args, option, words, capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(args)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert option in err, err
    for word in words:
        assert word in err, err
