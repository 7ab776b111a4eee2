"""The documented commands as written, from a fresh clone (docs/workflow.md, "Audit"):

* the three audit levels: (a) seconds, `snakemake verify` (and the plain `sha256sum -c` of the
  manifest) with no results/; (b) minutes, `audit_compute` (its run is tests/workflow/test_audit_compute.py;
  here its documented command plans on the default config); (c) the full run then `audit` (its
  run, with a documented `--config` override, on the session's quick run is in
  tests/workflow/test_workflow.py; here the documented commands plan on a fresh clone);
* every `snakemake …` command shown in README.md and docs/workflow.md plans (dry run) on a fresh
  copy of the repository;
* `--config` overrides merge into config/config.yaml (and into config/authors.yaml), and with
  `--configfile` the default stays out;
* a schema violation stops with one line naming the key, the value and the rule;
* `snakemake audit` without results says what it needs, and how long making it takes, before
  the DAG is planned.

A "fresh clone" is a copy of the files git tracks that the workflow reads (Snakefile, config/,
workflow/, figures/), with no results/ and no .snakemake/.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from ssi.experiments import preflight
from support.quickrun import QUICK, completed_quick_run, job_counts, make_workdir, snakemake

ROOT = Path(__file__).resolve().parents[2]
AUTHORS = "config/authors.yaml"
#: the config files of the audit (figures folder, the manifest's folder)
FIGURE_DIRS = {None: "figures", AUTHORS: "figures/authors"}
#: the pages whose commands must run as written
PAGES = ("README.md", "docs/workflow.md")
#: Snakemake's schema dump, which a config error must not print
SCHEMA_DUMP = ("Failed validating", "On instance", "$defs", "$schema")


def fresh_clone(parent: Path) -> Path:
    """The workflow's files and the committed figures, as a fresh clone has them."""
    workdir = make_workdir(parent)
    shutil.copytree(ROOT / "figures", workdir / "figures")
    return workdir


def configfile_args(configfile):
    return ["--configfile", configfile] if configfile else []


# --- (a) seconds: verify ------------------------------------------------------------------------

@pytest.mark.parametrize("configfile", [None, AUTHORS])
def test_verify_passes_on_a_fresh_clone_without_results(tmp_path, configfile):
    """`snakemake verify --cores 1` checks every committed figure and numbers file against the
    manifest and passes, running that one job and making no result."""
    workdir = fresh_clone(tmp_path)
    committed = set(workdir.rglob("*.npz"))  # the figure data under figures/data
    proc = snakemake(workdir, "verify", "--cores", "1", *configfile_args(configfile))
    assert "verify passed" in proc.stdout, proc.stdout[-3000:]
    assert job_counts(proc.stdout) == {"verify": 1, "total": 1}
    assert set(workdir.rglob("*.npz")) == committed, "verify made results"


@pytest.mark.parametrize("configfile", [None, AUTHORS])
def test_plain_sha256sum_of_the_manifest_passes(tmp_path, configfile):
    """The documented plain equivalent, `cd <figures> && sha256sum -c MANIFEST.sha256`."""
    workdir = fresh_clone(tmp_path)
    proc = subprocess.run(["sha256sum", "--quiet", "-c", "MANIFEST.sha256"], cwd=workdir / FIGURE_DIRS[configfile],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_verify_names_every_changed_or_unlisted_file(tmp_path):
    """A changed PNG, a deleted numbers file and a figure dropped from the manifest: verify fails
    (non-zero exit) naming each of the three."""
    workdir = fresh_clone(tmp_path)
    figures = workdir / "figures"
    png = figures / "two_phases.png"
    png.write_bytes(png.read_bytes()[:-8] + b"\0" * 8)
    (figures / "numbers" / "positional.json").unlink()
    manifest = figures / "MANIFEST.sha256"
    manifest.write_text("".join(line + "\n" for line in manifest.read_text().splitlines()
                                if not line.endswith("  escape_vs_d.pdf")))
    proc = snakemake(workdir, "verify", "--cores", "1", check=False)
    assert proc.returncode != 0
    for expected in ("two_phases.png: file on disk differs from the manifest",
                     "numbers/positional.json: listed in the manifest but missing",
                     "escape_vs_d.pdf: made by the workflow but not listed in the manifest"):
        assert expected in proc.stdout, (expected, proc.stdout[-3000:])


# --- the commands of the README and docs/workflow.md --------------------------------------------

def documented_commands() -> list[str]:
    """Every `snakemake …` command in a code span or code block of ``PAGES``, as written (from
    ``snakemake`` on, `.venv/bin/` dropped), without those this test cannot plan: the SLURM
    profile (tests/workflow/test_slurm.py), the report (tests/workflow/test_report.py), placeholders."""
    commands = set()
    for page in PAGES:
        text = (ROOT / page).read_text()
        spans = re.findall(r"`([^`\n]+)`", text) + re.findall(r"^(?: {4}|\t)(.+)$", text, flags=re.M)
        for span in spans:
            span = re.split(r"\s#\s", span)[0]          # a shell comment after the command
            for part in re.split(r"&&|;|\bthen\b", span):
                match = re.search(r"(?:^|\s|/)(snakemake(?:\s+[^\s`]+)*)", part.strip())
                if match:
                    commands.add(match[1].strip())
    skip = ("--profile workflow/profiles/slurm", "--report", "…", "<", "--unlock", "--lint", "--help")
    return sorted(c for c in commands if not any(s in c for s in skip) and c != "snakemake")


def test_the_audit_levels_are_documented():
    """docs/workflow.md shows the three levels' commands as INTERFACES fix them."""
    commands = documented_commands()
    for expected in ("snakemake verify --cores 1",
                     "snakemake audit_compute --cores all --config audit_n=4 audit_seed=1",
                     "snakemake --cores all", "snakemake audit --cores 1",
                     "snakemake audit --cores 1 --config audit_rtol=0.05"):
        assert expected in commands, f"{expected!r} is not shown in {PAGES}: {commands}"
    assert "sha256sum -c MANIFEST.sha256" in (ROOT / "docs/workflow.md").read_text()


@pytest.mark.slow
@pytest.mark.parametrize("command", documented_commands())
def test_documented_command_plans_on_a_fresh_clone(tmp_path, command):
    """Each documented command, with `-n` added, plans without error on a fresh clone (the audit
    commands with their --config overrides on the default config included). Marked slow: ~20
    Snakemake starts; the inner loop keeps the audit's own commands (above and below)."""
    workdir = fresh_clone(tmp_path)
    args = command.split()[1:]
    proc = snakemake(workdir, *args, "-n", check=False, timeout=300)
    assert proc.returncode == 0, f"`{command} -n` failed:\n{proc.stdout[-3000:]}"
    assert "Error" not in proc.stdout, proc.stdout[-3000:]


# --- --config overrides -------------------------------------------------------------------------

def test_config_override_merges_into_the_default_config(tmp_path):
    """`--config figures_dir=elsewhere` on the default config: the plan writes the figures there and
    keeps every other key of config/config.yaml (results under results/, the paper's cases)."""
    workdir = fresh_clone(tmp_path)
    proc = snakemake(workdir, "-n", "--cores", "1", "--config", "figures_dir=elsewhere")
    assert "elsewhere/two_phases.png" in proc.stdout and "elsewhere/MANIFEST.sha256" in proc.stdout
    assert "results/two_phases/sgd_sie3_d" in proc.stdout          # a case of config.yaml only
    assert "figures/two_phases.png" not in proc.stdout


def test_configfile_keeps_the_default_config_out(tmp_path):
    """`--configfile config/quick.yaml --config audit_rtol=0.05`: quick.yaml plus the override, no
    case of config/config.yaml leaks in (quick.yaml has no two_phases sie3), same jobs as without."""
    workdir = fresh_clone(tmp_path)
    plain = snakemake(workdir, "-n", "--cores", "1", "--configfile", QUICK)
    override = snakemake(workdir, "-n", "--cores", "1", "--configfile", QUICK, "--config", "audit_rtol=0.05")
    assert job_counts(override.stdout) == job_counts(plain.stdout) and job_counts(plain.stdout)
    assert "two_phases/sgd_sie3" not in override.stdout
    assert "results/quick/results/two_phases/sgd_sie1_d" in override.stdout


#: (config file, override, the line expected, the schema named)
BAD_OVERRIDES = {
    "below_minimum": (None, "audit_rtol=-1", "config audit_rtol = -1: must be ≥ 0 (minimum in "
                      "workflow/schemas/config.schema.yaml)"),
    "unknown_key": (None, "replicas=3", "config replicas: unknown key ('replicas' was unexpected;"),
    "not_in_enum": (AUTHORS, "engine=fast", "config engine = 'fast': must be one of reduced, explicit (enum in "
                    "workflow/schemas/authors.schema.yaml)"),
    "wrong_type": (None, "seed=abc", "config seed = 'abc': must be of type integer (type in "
                   "workflow/schemas/config.schema.yaml)"),
}


@pytest.mark.parametrize("name", list(BAD_OVERRIDES))
def test_schema_violation_is_one_line(tmp_path, name):
    """A bad `--config` value stops Snakemake before the DAG with one line naming the key, the
    value and the rule (and the schema file), not Snakemake's dump of the schema."""
    configfile, override, expected = BAD_OVERRIDES[name]
    workdir = fresh_clone(tmp_path)
    proc = snakemake(workdir, "-n", "--cores", "1", *configfile_args(configfile), "--config", override,
                     check=False)
    assert proc.returncode != 0
    lines = [line for line in proc.stdout.splitlines() if line.startswith("config ")]
    assert len(lines) == 1 and lines[0].startswith(expected), proc.stdout
    assert not [s for s in SCHEMA_DUMP if s in proc.stdout], proc.stdout
    assert "Building DAG of jobs" not in proc.stdout
    assert len(proc.stdout.splitlines()) < 12, proc.stdout


# --- (c) the audit without results ---------------------------------------------------------------

@pytest.mark.parametrize("configfile", [None, AUTHORS])
def test_audit_without_results_says_what_it_needs_first(tmp_path, configfile):
    """On a fresh clone, `snakemake audit --cores 1 --config audit_rtol=0.05 -n` exits 0, and before
    the plan it says that the result files are missing, that they are the whole run, how long
    that takes (here: not measured), and the seconds-long check instead."""
    workdir = fresh_clone(tmp_path)
    proc = snakemake(workdir, "audit", "--cores", "1", *configfile_args(configfile), "--config", "audit_rtol=0.05",
                     "-n")
    out = proc.stdout
    name = configfile or preflight.DEFAULT_CONFIG
    match = re.search(r"^audit: the (\d+) result files it re-renders and recomputes from are missing.*$", out, re.M)
    assert match, out[-3000:]
    line = match[0]
    assert int(match[1]) > 10
    assert f"the whole run of {name} (time not measured)" in line
    assert f"snakemake verify --cores 1{' --configfile ' + configfile if configfile else ''}" in line
    assert out.index(line) < out.index("Job stats"), "the message comes after the plan"


def test_audit_says_the_measured_time_of_the_run(tmp_path):
    """With benchmarks/results/workflow.json holding the config's run, the message quotes it."""
    workdir = fresh_clone(tmp_path)
    timings = workdir / preflight.TIMINGS
    timings.parent.mkdir(parents=True)
    timings.write_text(json.dumps({"configs": {"config/config.yaml": {
        "wall_seconds": 1234.0, "cores": 2, "jobs": 115, "numba_cache": "cold", "commit": "x",
        "date": "2025-01-01", "machine": "m", "families": {}}}}))
    proc = snakemake(workdir, "audit", "--cores", "1", "-n")
    assert ("the whole run of config/config.yaml (about 21 min on 2 cores, 115 jobs "
            "(benchmarks/results/workflow.json))") in proc.stdout, proc.stdout[-3000:]


def test_timings_are_read_defensively(tmp_path):
    """A missing file, a missing entry, a malformed file or a non-positive time: "time not measured"."""
    assert preflight.run_time_text("config/config.yaml", tmp_path) == "time not measured"
    path = tmp_path / preflight.TIMINGS
    path.parent.mkdir(parents=True)
    for text in ("{", json.dumps({"configs": {}}), json.dumps({"configs": {"config/config.yaml": {"wall_seconds": -1}}}),
                 json.dumps({"configs": {"config/config.yaml": {"wall_seconds": "soon"}}}), json.dumps([1])):
        path.write_text(text)
        assert preflight.run_time_text("config/config.yaml", tmp_path) == "time not measured", text
    path.write_text(json.dumps({"configs": {"config/quick.yaml": {"wall_seconds": 95.0}}}))
    assert preflight.run_time_text("config/quick.yaml", tmp_path) == f"about 2 min ({preflight.TIMINGS.as_posix()})"


def test_times_in_docs_are_the_generated_ones():
    """docs/workflow.md's times table is what `snakemake pages` writes from the
    timings files now (a time typed by hand, or a stale one, fails)."""
    from pagegen import markers, timings

    text = (ROOT / "docs/workflow.md").read_text()
    start, end = text.index(markers.TIMES[0]), text.index(markers.TIMES[1])
    assert text[start + len(markers.TIMES[0]):end].strip() == timings.times_table(ROOT).strip(), \
        "docs/workflow.md is stale: run `snakemake pages --cores 1`"


# --- on the session's quick run: (a) and (c) as documented, the toy run as written ----------------

@pytest.fixture(scope="module")
def quick(quick_cores2, tmp_path_factory):
    return completed_quick_run(quick_cores2, tmp_path_factory)


@pytest.mark.slow
def test_toy_run_as_written_has_nothing_left_to_do(quick, quick_cores2):
    """The toy run as docs/workflow.md writes it, on the session's quick run (made with the same
    arguments and --cores 2): nothing left to do."""
    command = "snakemake --cores all --configfile config/quick.yaml"
    assert command in documented_commands()
    proc = snakemake(quick, *command.split()[1:])
    assert "Nothing to be done" in proc.stdout, proc.stdout[-3000:]


@pytest.mark.slow
def test_verify_on_the_quick_run(quick):
    """(a) on the completed quick run: `verify` and the plain sha256sum pass, `verify` running its
    one job. ((c), the audit with a documented `--config audit_rtol=…` override, on the same run:
    tests/workflow/test_workflow.py, test_audit_passes_on_completed_folder.)"""
    proc = snakemake(quick, "verify", "--cores", "1", "--configfile", QUICK)
    assert "verify passed" in proc.stdout and job_counts(proc.stdout) == {"verify": 1, "total": 1}
    check = subprocess.run(["sha256sum", "--quiet", "-c", "MANIFEST.sha256"], cwd=quick / "results/quick/figures",
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
