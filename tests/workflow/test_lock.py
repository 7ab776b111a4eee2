"""The lock file (requirements/lock.txt) agrees with pyproject.toml and environment.yml.

pyproject.toml and environment.yml give ranges; the lock gives the exact versions, with
hashes, that made the committed figures (docs/reproducibility.md, "The lock"). Checked here:
every requirement of pyproject.toml (runtime and every extra) and every package of
environment.yml is pinned in the lock at a version inside its range; every pin is exact
and hashed; the lock's Python (requirements/compile.sh) is environment.yml's and is allowed by
requires-python.
"""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "requirements" / "lock.txt"
COMPILE = ROOT / "requirements" / "compile.sh"
#: conda entries that are tooling, not packages of the project
CONDA_TOOLING = {"python", "pip"}


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def parse_lock(text: str) -> dict[str, dict]:
    """{normalised name: {"version": str, "hashes": [str]}} of a pip-tools/uv lock file."""
    entries, current = {}, None
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip().rstrip("\\").strip()
        if not line:
            continue
        if line.startswith("--hash="):
            if current is None:
                raise ValueError(f"hash before any requirement: {raw!r}")
            current["hashes"].append(line.removeprefix("--hash="))
            continue
        match = re.fullmatch(r"([A-Za-z0-9_.\-\[\],]+)\s*(==|===|>=|<=|~=|!=|>|<)?\s*([^\s;]*)\s*(;.*)?", line)
        if match is None:
            raise ValueError(f"cannot parse lock line {raw!r}")
        name = normalize(match[1].split("[")[0])
        current = {"operator": match[2], "version": match[3], "hashes": []}
        entries[name] = current
    return entries


def pyproject_requirements(pyproject: dict) -> list[tuple[str, Requirement]]:
    """(where, requirement) for the runtime dependencies and every extra."""
    project = pyproject["project"]
    out = [("dependencies", Requirement(line)) for line in project["dependencies"]]
    for extra, lines in project.get("optional-dependencies", {}).items():
        out += [(f"extra {extra}", Requirement(line)) for line in lines]
    return out


def conda_requirements(env: dict) -> tuple[list[tuple[str, SpecifierSet]], str | None]:
    """([(name, specifier)] of environment.yml's conda and pip packages, python version)."""
    out, python = [], None
    for entry in env["dependencies"]:
        if isinstance(entry, dict):
            out += [(normalize(Requirement(line).name), Requirement(line).specifier)
                    for line in entry.get("pip", []) if not line.strip().startswith("-")]
            continue
        match = re.fullmatch(r"(?:[\w.-]+::)?([A-Za-z0-9_.-]+)\s*(.*)", entry.strip())
        name, spec = normalize(match[1]), match[2].replace(" ", "")
        if name == "python":
            python = spec.lstrip("=")
        if name in CONDA_TOOLING:
            continue
        out.append((name, SpecifierSet(spec) if spec else SpecifierSet()))
    return out, python


def lock_problems(lock: dict, pyproject: dict, env: dict) -> list[str]:
    """Human-readable disagreements between the lock and the two range files (empty if none)."""
    problems = []
    for name, entry in sorted(lock.items()):
        if entry["operator"] != "==" or not entry["version"]:
            problems.append(f"{name}: not pinned with == in the lock")
        if not entry["hashes"]:
            problems.append(f"{name}: no --hash in the lock")
    checks = [(f"pyproject.toml {where}", normalize(r.name), r.specifier) for where, r in pyproject_requirements(pyproject)]
    conda, _ = conda_requirements(env)
    checks += [("environment.yml", name, spec) for name, spec in conda]
    for where, name, spec in checks:
        if name not in lock:
            problems.append(f"{name}: in {where}, missing from the lock")
        elif not spec.contains(Version(lock[name]["version"]), prereleases=True):
            problems.append(f"{name}: locked {lock[name]['version']} is outside {spec} ({where})")
    return problems


@pytest.fixture(scope="module")
def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


@pytest.fixture(scope="module")
def environment() -> dict:
    return yaml.safe_load((ROOT / "environment.yml").read_text())


def test_lock_agrees_with_pyproject_and_environment(pyproject, environment):
    """Every range of pyproject.toml (runtime and extras) and of environment.yml contains its
    locked version; every lock entry is an exact pin with at least one hash."""
    lock = parse_lock(LOCK.read_text())
    assert len(lock) > 20, "the lock holds too few packages"
    problems = lock_problems(lock, pyproject, environment)
    assert not problems, "requirements/lock.txt disagrees:\n" + "\n".join(problems)


def test_lock_python_is_the_environment_python(pyproject, environment):
    """The lock is compiled for environment.yml's Python, which requires-python allows."""
    match = re.search(r"--python-version\s+(\S+)", COMPILE.read_text())
    assert match, "requirements/compile.sh does not name --python-version"
    _, python = conda_requirements(environment)
    assert match[1] == python, f"lock for Python {match[1]}, environment.yml python={python}"
    assert SpecifierSet(pyproject["project"]["requires-python"]).contains(Version(python))
    assert "requirements/compile.sh" in LOCK.read_text().splitlines()[1], "lock not written by compile.sh"


def test_lock_problems_are_reported():
    """The check itself can fail: a version outside a range, a missing package, no hash, no pin."""
    lock = parse_lock(
        "numpy==1.26.0 \\\n    --hash=sha256:aa\n"
        "scipy==1.14.0\n"
        "pyyaml>=6 \\\n    --hash=sha256:bb\n"
    )
    assert lock["numpy"] == {"operator": "==", "version": "1.26.0", "hashes": ["sha256:aa"]}
    pyproject = {"project": {"dependencies": ["numpy>=2.0", "scipy>=1.13", "pyyaml>=6"],
                             "optional-dependencies": {"report": ["pygments>=2.17"]}}}
    env = {"dependencies": ["python=3.11", "numpy>=2.0", "pip", {"pip": ["-e ."]}]}
    problems = lock_problems(lock, pyproject, env)
    assert problems == [
        "pyyaml: not pinned with == in the lock",
        "scipy: no --hash in the lock",
        "numpy: locked 1.26.0 is outside >=2.0 (pyproject.toml dependencies)",
        "pygments: in pyproject.toml extra report, missing from the lock",
        "numpy: locked 1.26.0 is outside >=2.0 (environment.yml)",
    ]
