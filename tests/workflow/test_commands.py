"""Every command README.md and docs/*.md print works as written, from the repository root of a
fresh clone, and each is spelled one way across the pages.

A command is a code span or a code-block line (indented, or in a fenced block that is not
Python or output) that starts with a known program (``PROGRAMS``). How each is checked:

* ``snakemake …``: its dry run (``-n``) plans without error. The commands of README.md and
  docs/workflow.md are planned by tests/workflow/test_audit_levels.py; here, those only the other
  pages show;
* ``python …``, ``sha256sum …``, ``(cd … && …)``: run as written (``python`` is this
  interpreter); commands that write pages or run for minutes (``LONG``) run as ``--help``, and a
  placeholder (``…``, ``RULE``) is replaced by ``--help``;
* installs (``pip``, ``python3 -m venv``, ``conda``), ``pytest`` and the lock script are checked
  by parse: the files, extras and test paths they name exist.

One spelling per command: the manifest check is ``(cd <folder> && sha256sum -c MANIFEST.sha256)``
everywhere (the manifest's paths are relative to its folder: ``sha256sum -c
figures/MANIFEST.sha256`` fails from the root); the lock install is the README's install command
wherever it is shown whole; the audit levels name their target first.
"""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from support.quickrun import ROOT, environment, fresh_clone, snakemake

#: the pages whose commands are checked
PAGES = ("README.md", *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md")))
#: the pages whose snakemake commands tests/workflow/test_audit_levels.py plans already
PLANNED_ELSEWHERE = ("README.md", "docs/workflow.md")
#: the programs a command may start with (``.venv/bin/`` dropped; after ``(cd folder &&`` or an
#: environment variable ``NAME=value``)
PROGRAMS = ("snakemake", "python", "python3", "sha256sum", "pip", "conda", "pytest", "jupyter",
            "requirements/compile.sh")
#: commands that run for minutes or write committed pages: run with --help instead
LONG = ("python benchmarks/", "python notebooks/")
#: what marks a placeholder in a command
PLACEHOLDER = re.compile(r"…|\b[A-Z]{4,}\b(?!\.)|<[^>]*>")
#: placeholders a command is run with
EXAMPLES = {"RULE": "two_phases_numbers"}
#: the one spelling of the manifest check
MANIFEST_CHECK = re.compile(r"\(cd figures(/authors)? && sha256sum -c MANIFEST\.sha256\)")


def page_commands(text: str) -> list[str]:
    """The commands of a Markdown page, in order, as written (``.venv/bin/`` dropped; a trailing
    shell comment dropped; a chain ``a && b`` kept whole)."""
    spans = re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.S))
    blocks = []
    for lang, body in re.findall(r"```(\w*)\n(.*?)```", text, flags=re.S):
        if lang in ("", "bash", "sh", "shell"):
            blocks += body.splitlines()
    blocks += [line for line in re.sub(r"```.*?```", "", text, flags=re.S).splitlines() if line.startswith("    ")]
    out = []
    for raw in spans + blocks:
        command = re.split(r"\s#\s", raw.strip())[0].strip().replace(".venv/bin/", "")
        words = re.sub(r"^\(cd \S+ && |^[A-Z_]+=\S+ ", "", command).split()
        # a program and an argument: `snakemake` or `python -m ssi` alone names a tool
        module = words[2] if words[1:2] == ["-m"] and len(words) > 2 else ""
        if words and words[0] in PROGRAMS and len(words) > (3 if module and "." not in module else 1):
            out.append(command)
    return out


def commands() -> dict[str, set[str]]:
    """{command: pages that show it} over ``PAGES``."""
    found: dict[str, set[str]] = {}
    for page in PAGES:
        for command in page_commands((ROOT / page).read_text(encoding="utf-8")):
            found.setdefault(command, set()).add(page)
    return found


def kind(command: str) -> str:
    first = command.split()[0]
    if first == "snakemake":
        return "snakemake"
    if first in ("pip", "conda", "pytest", "jupyter", "requirements/compile.sh") or command.startswith(
            ("python3 -m venv", "python -m pytest", "python -m pip")):
        return "parse"
    return "run"


# --- one spelling per command ------------------------------------------------------------------

def spelling_problems(found: dict[str, set[str]], readme_install: str) -> list[str]:
    """Commands spelled another way than the chosen one (empty if none)."""
    problems = []
    for command, pages in sorted(found.items()):
        if "sha256sum" in command and not MANIFEST_CHECK.fullmatch(command):
            problems.append(f"{sorted(pages)}: `{command}`: write `(cd figures && sha256sum -c MANIFEST.sha256)`")
        if command.startswith("python3 -m venv") and command != readme_install:
            problems.append(f"{sorted(pages)}: `{command}`: the README's install is `{readme_install}`")
        words = command.split()
        for target in ("verify", "audit", "audit_compute"):
            if words[0] == "snakemake" and target in words[1:] and words[1] != target:
                problems.append(f"{sorted(pages)}: `{command}`: write `snakemake {target} --cores …`")
    return problems


def readme_install() -> str:
    return next(c for c in page_commands((ROOT / "README.md").read_text(encoding="utf-8"))
                if c.startswith("python3 -m venv"))


def test_one_spelling_per_command():
    """The manifest check, the lock install and the audit levels are written one way in every page."""
    problems = spelling_problems(commands(), readme_install())
    assert not problems, "\n".join(problems)


def test_spelling_problems_are_reported():
    """The check can fail: the manifest path from the root, another install, the target last."""
    found = {"sha256sum -c figures/MANIFEST.sha256": {"README.md"},
             "python3 -m venv .venv && pip install -e .": {"docs/workflow.md"},
             "snakemake --cores all audit": {"docs/reproducibility.md"},
             "(cd figures && sha256sum -c MANIFEST.sha256)": {"README.md"}}
    assert len(spelling_problems(found, "python3 -m venv .venv && pip install -r requirements/lock.txt")) == 3


def test_commands_are_found():
    """The extraction finds the README's commands and the manifest check of docs/workflow.md."""
    found = commands()
    assert "snakemake --cores all --configfile config/quick.yaml" in found
    assert "(cd figures && sha256sum -c MANIFEST.sha256)" in found
    assert any(c.startswith("python -m ssi list") for c in found)
    assert page_commands("Run `python -m ssi list`, not `snakemake` alone.\n\n    sha256sum -c X  # a comment\n") \
        == ["python -m ssi list", "sha256sum -c X"]


# --- every command works ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    """A fresh clone of the repository (the working tree's changes committed on top)."""
    return fresh_clone(tmp_path_factory.mktemp("commands"))


def parse_problems(command: str, root: Path) -> list[str]:
    """What a command checked by parse names that does not exist (empty if nothing)."""
    problems = []
    extras = set(tomllib.loads((root / "pyproject.toml").read_text())["project"]["optional-dependencies"])
    for extra in re.findall(r'"\.\[([\w,]+)\]"', command):
        problems += [f"no extra {e!r} in pyproject.toml" for e in extra.split(",") if e not in extras]
    for word in shlex.split(PLACEHOLDER.sub("", command).replace("&&", " ")):
        if re.fullmatch(r"(requirements|tests|notebooks|benchmarks|config)/[\w./-]*", word) or word == "environment.yml":
            if not (root / word).exists():
                problems.append(f"{word} does not exist")
    return problems


def run_form(command: str) -> str:
    """The shell form of a command that is run: ``python`` as this interpreter; a placeholder
    replaced by its example, or the command cut before its options and run as ``--help``; a long
    script compiled only, a long module as ``--help``."""
    for name, example in EXAMPLES.items():
        command = re.sub(rf"\b{name}\b", example, command)
    bare = re.sub(r"^[A-Z_]+=\S+ ", "", command)
    if bare.startswith(LONG) and " -m " not in bare:
        script = next(word for word in bare.split() if word.endswith(".py"))
        command = f"python -m py_compile {script}"
    elif bare.startswith(LONG) or PLACEHOLDER.search(command):
        command = re.split(r" --|" + PLACEHOLDER.pattern, command)[0].rstrip() + " --help"
    return re.sub(r"(^|&& |\(|=\S+ )python(?= )", lambda m: m[1] + shlex.quote(sys.executable), command)


#: {shell form: a command it checks}, one subprocess per distinct form
RUN = {run_form(c): c for c in sorted(commands(), reverse=True) if kind(c) == "run"}
PARSE = sorted(c for c, pages in commands().items() if kind(c) == "parse")
PLAN = sorted(c for c, pages in commands().items() if kind(c) == "snakemake" and not pages & set(PLANNED_ELSEWHERE)
              and "--cores" in c and not PLACEHOLDER.search(c) and "$(" not in c)


@pytest.mark.parametrize("form", sorted(RUN), ids=[RUN[f] for f in sorted(RUN)])
def test_command_runs_as_written(clone, form):
    """Run from the root of a fresh clone (or its --help form), exit 0."""
    command = RUN[form]
    proc = subprocess.run(["bash", "-c", form], cwd=clone, env=environment(), capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, f"`{command}` failed:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}"


@pytest.mark.parametrize("command", PARSE)
def test_install_and_test_commands_name_what_exists(command):
    """An install, test or lock command names only extras, files and test paths that exist."""
    assert not parse_problems(command, ROOT)


def test_parse_problems_are_reported():
    """The parse check can fail: an unknown extra, a missing lock file."""
    assert parse_problems('pip install -e ".[gpu]" -r requirements/nolock.txt', ROOT) == [
        "no extra 'gpu' in pyproject.toml", "requirements/nolock.txt does not exist"]


@pytest.mark.slow
@pytest.mark.parametrize("command", PLAN)
def test_snakemake_command_plans(clone, command):
    """A snakemake command only the other pages show: its dry run plans without error."""
    proc = snakemake(clone, *shlex.split(command)[1:], "-n", check=False, timeout=300)
    assert proc.returncode == 0, f"`{command} -n` failed:\n{proc.stdout[-3000:]}"
