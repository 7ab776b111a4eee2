"""The README's install and test commands, and what CI runs.

* The README's install command installs the lock (requirements/lock.txt, hash-checked), then
  the package without dependencies: the versions that made the committed figures.
* ``.ci/run`` runs exactly the README's install command, then exactly its test command
  (character for character, extracted from README.md).
* The ranges of pyproject.toml (runtime and every extra), which someone adding the package to
  an environment of their own installs, still resolve together on the package index, to
  versions inside the ranges (slow: pip resolves ~150 packages). That the installed packages
  import and lie in the ranges is tests/workflow/test_environment.py; that the lock lies in the
  ranges is tests/workflow/test_lock.py.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
CI = ROOT / ".ci" / "run"
#: dependencies (of Snakemake) published as source only: the one package pip may build
SOURCE_ONLY = ("connection-pool",)
#: what ends a command line of .ci/run that records the exit status
STATUS_SUFFIX = " || status=$?"


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def code_block_lines(text: str) -> list[str]:
    """The lines of the indented code blocks of a Markdown text (list items' blocks included), stripped."""
    out, previous_blank = [], True
    in_block = False
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        if line.strip() and indent >= 4 and (in_block or previous_blank):
            out.append(line.strip())
            in_block = True
        elif line.strip():
            in_block = False
        previous_blank = not line.strip()
    return out


def readme_commands(text: str) -> dict[str, str]:
    """{"install": ..., "test": ...}: the README's code-block lines that create the environment
    and that run the test suite (exactly one each)."""
    lines = code_block_lines(text)
    found = {"install": [l for l in lines if l.startswith("python3 -m venv .venv")],
             "test": [l for l in lines if l.startswith(".venv/bin/python -m pytest")]}
    for kind, matches in found.items():
        if len(matches) != 1:
            raise ValueError(f"README.md should show one {kind} command in a code block, found {matches}")
    return {kind: matches[0] for kind, matches in found.items()}


def ci_commands(text: str) -> list[str]:
    """The command lines of .ci/run that install and test (those that record their exit status),
    in order, without the status suffix."""
    return [line.strip().removesuffix(STATUS_SUFFIX) for line in text.splitlines()
            if line.strip().endswith(STATUS_SUFFIX) and not line.lstrip().startswith("#")]


def ci_problems(readme: str, ci: str) -> list[str]:
    """How .ci/run departs from the README's install-then-test commands (empty if it does not)."""
    commands = readme_commands(readme)
    expected = [commands["install"], commands["test"]]
    found = ci_commands(ci)
    if found == expected:
        return []
    return [f".ci/run runs {found}, the README shows {expected}"]


def test_readme_install_is_the_lock():
    """The README's install command creates .venv, installs requirements/lock.txt with
    --require-hashes, then the package with --no-deps (nothing outside the lock)."""
    install = readme_commands(README.read_text(encoding="utf-8"))["install"]
    steps = [s.strip() for s in install.split("&&")]
    assert steps == ["python3 -m venv .venv",
                     ".venv/bin/pip install --require-hashes -r requirements/lock.txt",
                     ".venv/bin/pip install --no-deps -e ."], steps


def test_ci_runs_the_readme_commands():
    """.ci/run's install and test lines are the README's, character for character, in order."""
    problems = ci_problems(README.read_text(encoding="utf-8"), CI.read_text())
    assert not problems, problems
    assert "chromium" in CI.read_text() and '"$status" -eq 5' in CI.read_text()


def test_ci_problems_are_reported():
    """The check can fail: .ci/run installing the ranges while the README installs the lock."""
    readme = ("1. Install:\n\n       python3 -m venv .venv && .venv/bin/pip install -r requirements/lock.txt\n\n"
              "2. Test:\n\n       .venv/bin/python -m pytest -q tests\n")
    good = ("python3 -m venv .venv && .venv/bin/pip install -r requirements/lock.txt || status=$?\n"
            "    .venv/bin/python -m pytest -q tests || status=$?\n")
    assert ci_problems(readme, good) == []
    bad = good.replace("-r requirements/lock.txt", '-e ".[test]"')
    assert ci_problems(readme, bad)
    with pytest.raises(ValueError, match="one test command"):
        readme_commands(readme.replace(".venv/bin/python -m pytest", "pytest"))


def pyproject_ranges() -> list[str]:
    """The requirement lines of pyproject.toml: runtime and every extra."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    lines = list(project["dependencies"])
    for extra in project.get("optional-dependencies", {}).values():
        lines += [line for line in extra if line not in lines]
    return lines


def resolution_problems(report: dict, requirements: list[str]) -> list[str]:
    """How a ``pip install --report`` resolution misses the requirements (empty if it does not)."""
    versions = {normalize(item["metadata"]["name"]): Version(item["metadata"]["version"])
                for item in report["install"]}
    problems = []
    for line in requirements:
        req = Requirement(line)
        name = normalize(req.name)
        if name not in versions:
            problems.append(f"{name}: not in the resolution")
        elif not req.specifier.contains(versions[name], prereleases=True):
            problems.append(f"{name}: resolved {versions[name]}, outside {req.specifier}")
    return problems


def test_resolution_problems_are_reported():
    """The range check can fail: a package missing from the resolution, a version outside its range."""
    report = {"install": [{"metadata": {"name": "NumPy", "version": "1.26.4"}}]}
    assert resolution_problems(report, ["numpy>=2.0", "scipy>=1.13"]) == [
        "numpy: resolved 1.26.4, outside >=2.0", "scipy: not in the resolution"]


@pytest.mark.slow
def test_pyproject_ranges_resolve(tmp_path):
    """`pip install --dry-run` of every range of pyproject.toml (runtime and extras), ignoring what
    is installed, on this interpreter: pip finds one set of wheels that satisfies them all, inside
    the ranges. Fails when a range excludes every release, or two ranges conflict."""
    report_path = tmp_path / "report.json"
    requirements = pyproject_ranges()
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet",
                           "--only-binary", ":all:", "--no-binary", ",".join(SOURCE_ONLY), "--report", str(report_path), *requirements],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    problems = resolution_problems(json.loads(report_path.read_text()), requirements)
    assert not problems, problems
