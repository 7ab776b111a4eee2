"""Packaging consistency: environment.yml and pyproject.toml agree, deps import."""

from __future__ import annotations

import importlib
import importlib.metadata
import re
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]

# Conda entries that are tooling, not runtime packages of the project.
CONDA_TOOLING = {"python", "pip"}
# Extras whose packages are part of the tested environment.
TESTED_EXTRAS = ("test",)
# Distribution name -> import name, where they differ.
IMPORT_NAMES = {"pyyaml": "yaml", "pytest-xdist": "xdist"}


def normalize(name: str) -> str:
    """Canonical package name: lowercase, runs of ``-``, ``_``, ``.`` -> ``-``."""
    return re.sub(r"[-_.]+", "-", name).lower()


def lower_bound(specifier) -> Version | None:
    """The ``>=`` bound of a packaging SpecifierSet, or None."""
    bounds = [Version(s.version) for s in specifier if s.operator == ">="]
    return max(bounds) if bounds else None


def parse_pep508(lines) -> dict[str, Version | None]:
    """{normalised name: lower bound} for a list of PEP 508 requirement strings."""
    out = {}
    for line in lines:
        req = Requirement(line)
        out[normalize(req.name)] = lower_bound(req.specifier)
    return out


_CONDA_SPEC = re.compile(r"^(?:[\w.-]+::)?(?P<name>[A-Za-z0-9_.-]+)\s*(?P<spec>.*)$")


def parse_conda(spec: str) -> tuple[str, str]:
    """Split a conda match spec such as ``numpy>=2.0`` into (name, version spec)."""
    m = _CONDA_SPEC.match(spec.strip())
    if m is None:
        raise ValueError(f"cannot parse conda spec {spec!r}")
    return normalize(m["name"]), m["spec"].replace(" ", "")


def conda_packages(env: dict) -> tuple[dict[str, Version | None], str | None]:
    """Runtime packages of an environment.yml (conda + pip section) and its python pin."""
    packages: dict[str, Version | None] = {}
    python = None
    for entry in env.get("dependencies", []):
        if isinstance(entry, dict):
            pip_lines = [
                line for line in entry.get("pip", []) if not line.strip().startswith("-")
            ]
            packages.update(parse_pep508(pip_lines))
            continue
        name, spec = parse_conda(entry)
        if name == "python":
            python = spec.lstrip("=")
        if name in CONDA_TOOLING:
            continue
        bound = None
        for part in spec.split(","):
            if part.startswith(">="):
                bound = Version(part[2:])
        packages[name] = bound
    return packages, python


def pyproject_packages(pyproject: dict) -> tuple[dict, dict]:
    """(required: runtime deps + tested extras, optional: other extras)."""
    project = pyproject["project"]
    required = parse_pep508(project["dependencies"])
    optional = {}
    for extra, lines in project.get("optional-dependencies", {}).items():
        target = required if extra in TESTED_EXTRAS else optional
        target.update(parse_pep508(lines))
    return required, optional


def differences(conda: dict, required: dict, optional: dict) -> list[str]:
    """Human-readable differences between the two package lists (empty if none)."""
    problems = []
    for name in sorted(set(required) - set(conda)):
        problems.append(f"{name}: in pyproject.toml, missing from environment.yml")
    for name in sorted(set(conda) - set(required) - set(optional)):
        problems.append(f"{name}: in environment.yml, missing from pyproject.toml")
    reference = {**optional, **required}
    for name in sorted(set(conda) & set(reference)):
        if conda[name] != reference[name]:
            problems.append(
                f"{name}: lower bound {conda[name]} in environment.yml "
                f"!= {reference[name]} in pyproject.toml"
            )
    return problems


@pytest.fixture(scope="module")
def pyproject() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)


@pytest.fixture(scope="module")
def environment() -> dict:
    with open(ROOT / "environment.yml") as f:
        return yaml.safe_load(f)


def test_environment_matches_pyproject(pyproject, environment):
    conda, _ = conda_packages(environment)
    required, optional = pyproject_packages(pyproject)
    problems = differences(conda, required, optional)
    assert not problems, "environment.yml and pyproject.toml differ:\n" + "\n".join(problems)


def test_python_version_matches(pyproject, environment):
    _, python = conda_packages(environment)
    requires = lower_bound(
        Requirement("python" + pyproject["project"]["requires-python"]).specifier
    )
    assert python is not None, "environment.yml does not pin python"
    assert Version(python) == requires, (
        f"environment.yml python={python} but pyproject requires-python >= {requires}"
    )


def test_differences_reports_mismatches():
    """The comparison itself can fail: a missing package and a differing bound."""
    conda = {"numpy": Version("2.0"), "extra-pkg": None}
    required = {"numpy": Version("1.26"), "scipy": Version("1.13")}
    problems = differences(conda, required, optional={})
    assert problems == [
        "scipy: in pyproject.toml, missing from environment.yml",
        "extra-pkg: in environment.yml, missing from pyproject.toml",
        "numpy: lower bound 2.0 in environment.yml != 1.26 in pyproject.toml",
    ]


def _tested_requirements() -> list[str]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        project = tomllib.load(f)["project"]
    lines = list(project["dependencies"])
    for extra in TESTED_EXTRAS:
        lines += project.get("optional-dependencies", {}).get(extra, [])
    return lines


@pytest.mark.parametrize("requirement", _tested_requirements())
def test_dependency_importable(requirement):
    req = Requirement(requirement)
    name = normalize(req.name)
    importlib.import_module(IMPORT_NAMES.get(name, name.replace("-", "_")))
    installed = Version(importlib.metadata.version(req.name))
    assert req.specifier.contains(installed, prereleases=True), (
        f"{req.name} {installed} installed, pyproject.toml requires {req.specifier}"
    )
