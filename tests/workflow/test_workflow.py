"""The Snakemake workflow, end to end, on the quick config (config/quick.yaml).

Every test runs `snakemake` in a subprocess, in a temporary copy of
the repository's workflow files (Snakefile, profiles/, config/, workflow/, notebooks/): nothing is
written into the repository. The quick workflow runs to completion with ``--cores 2``
once per session (``quick_cores2`` in tests/conftest.py, shared with tests/workflow/test_slurm.py)
and here with ``--cores 1``, killed and resumed (one module fixture for both checks). The tests
that need a quick run are marked ``slow`` (``pytest -m "not slow"`` leaves them out;
``.ci/run`` runs everything). The numba cache (~/.cache/ssi-numba) is shared with them.

What is checked (docs/workflow.md):

* figures, the manifest and the result arrays do not depend on ``--cores``;
* a second run on a completed folder does nothing;
* ``snakemake audit`` passes on a completed folder, and fails naming every tampered file
  after a figure, a manifest line, a committed number and the results are changed;
* bad config values fail before any job runs, naming the config key;
* a run killed with SIGKILL resumes (``--unlock``, then ``--rerun-incomplete``) to the same
  figures (Ctrl-C and the same command again: tests/workflow/test_resume.py);
* the schema's problem enums are the registries of ssi.problems;
* ``snakemake --lint`` is clean; ``--report`` works; the default profile is used without a flag.

The notebooks are tested in tests/workflow/test_notebooks.py and tests/workflow/test_notebook_copies.py.
"""
from __future__ import annotations

import copy
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
import yaml

from ssi import problems
from support.quickrun import (QUICK, ROOT, assert_results_whole, copy_completed, environment, figure_hashes,
                              job_counts,
                              make_workdir, quick_config, result_arrays, result_dirs, sha256, snakemake, start_quick,
                              wait_for)



@pytest.fixture(scope="module")
def killed_cores1(tmp_path_factory):
    """The quick workflow with --cores 1, killed (SIGKILL to its process group) once the first
    result is written, then unlocked and resumed with --cores 1 to completion: dict as
    ``run_quick`` plus ``killed`` (what was checked right after the kill). One run serves both
    the resume test and the --cores 1 side of the cores comparison (a second, uninterrupted
    --cores 1 run would cost another whole quick run)."""
    workdir = make_workdir(tmp_path_factory.mktemp("killed_cores1"))
    results, figures = result_dirs(workdir)
    log = workdir.parent / "killed.log"
    proc = start_quick(workdir, log)
    wait_for(proc, lambda: any(results.rglob("*.json")), log)
    time.sleep(0.3)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)
    killed = {"manifest_written": (figures / "MANIFEST.sha256").exists()}
    assert_results_whole(workdir)          # right after the kill: no temporary file, every result whole
    plain = snakemake(workdir, "--cores", "1", "--configfile", QUICK, check=False)
    killed["plain_restart"] = (plain.returncode, plain.stdout)
    snakemake(workdir, "--unlock", "--configfile", QUICK)
    resumed = snakemake(workdir, "--cores", "1", "--rerun-incomplete", "--configfile", QUICK)
    return {"workdir": workdir, "output": resumed.stdout, "hashes": figure_hashes(workdir), "killed": killed}


# --- (a) figures do not depend on --cores ------------------------------------------------

@pytest.mark.slow
def test_figures_identical_across_cores(killed_cores1, quick_cores2):
    """--cores 1 (killed and resumed) and --cores 2, in separate folders, give byte-identical
    figures (PDF, PNG) and an identical MANIFEST.sha256."""
    h1, h2 = killed_cores1["hashes"], quick_cores2["hashes"]
    assert "MANIFEST.sha256" in h1
    assert any(name.endswith(".pdf") for name in h1) and any(name.endswith(".png") for name in h1)
    assert h1 == h2
    # the manifest lists exactly the figures (and numbers files) that are on disk
    _, figures = result_dirs(quick_cores2["workdir"])
    listed = {line.split(maxsplit=1)[1] for line in (figures / "MANIFEST.sha256").read_text().splitlines()}
    assert {n for n in h2 if n != "MANIFEST.sha256"} <= listed
    for name in listed:
        assert (figures / name).is_file(), f"{name} is in the manifest but not on disk"


@pytest.mark.slow
def test_results_identical_across_cores(killed_cores1, quick_cores2):
    """The simulated numbers themselves (every array of every .npz result) do not depend on
    --cores (nor on a kill and resume): seeds are keyed by (experiment, point, replicate), not by
    job order."""
    a1, a2 = result_arrays(killed_cores1["workdir"]), result_arrays(quick_cores2["workdir"])
    assert a1 and a1.keys() == a2.keys()
    for name in a1:
        assert a1[name].keys() == a2[name].keys(), name
        for key in a1[name]:
            np.testing.assert_array_equal(a1[name][key], a2[name][key], err_msg=f"{name}:{key}")
    # and the files themselves (ssi.io.npz_bytes writes no timestamps)
    r1, r2 = (result_dirs(run["workdir"])[0] for run in (killed_cores1, quick_cores2))
    for name in a1:
        assert sha256(r1 / name) == sha256(r2 / name), f"{name}: same arrays, different bytes"


# --- (b) a second run does nothing ------------------------------------------------------

@pytest.mark.slow
def test_second_run_does_nothing(quick_cores2):
    """On a completed folder, a dry run and a real run both report "Nothing to be done",
    and the real run rewrites no result or figure."""
    workdir = quick_cores2["workdir"]
    dry = snakemake(workdir, "-n", "--cores", "1", "--configfile", QUICK)
    assert "Nothing to be done" in dry.stdout, dry.stdout[-3000:]
    results, figures = result_dirs(workdir)
    before = {p: p.stat().st_mtime_ns for folder in (results, figures) for p in folder.rglob("*") if p.is_file()}
    real = snakemake(workdir, "--cores", "1", "--configfile", QUICK)
    assert "Nothing to be done" in real.stdout, real.stdout[-3000:]
    assert job_counts(real.stdout) == {}
    after = {p: p.stat().st_mtime_ns for folder in (results, figures) for p in folder.rglob("*") if p.is_file()}
    assert after == before


@pytest.mark.slow
def test_default_profile_is_used_without_a_flag(quick_cores2):
    """A plain `snakemake` from the repository root reads profiles/default/ (Snakemake's workflow
    profile, beside the Snakefile), whose keys are valid options and which sets
    rerun-incomplete; on a completed folder it does nothing. Fails if the profile is moved where
    Snakemake does not look (it then prints no "workflow specific profile")."""
    profile = yaml.safe_load((ROOT / "profiles/default/config.yaml").read_text())
    assert profile["rerun-incomplete"] is True
    proc = snakemake(quick_cores2["workdir"], "-n", "--cores", "1", "--configfile", QUICK)
    assert "Using workflow specific profile profiles/default" in proc.stdout, proc.stdout[-3000:]
    assert "Nothing to be done" in proc.stdout


def test_slurm_profile_declares_the_cluster_settings():
    """The SLURM profile uses the slurm executor, bounds the number of jobs, and leaves the
    partition and the account as explicit user settings; its keys are snakemake options.
    (Parsing it with snakemake needs snakemake-executor-plugin-slurm, the `cluster` extra.)"""
    profile = yaml.safe_load((ROOT / "workflow/profiles/slurm/config.yaml").read_text())
    assert profile["executor"] == "slurm"
    assert int(profile["jobs"]) >= 1
    assert {"slurm_partition", "slurm_account"} <= set(profile["default-resources"])
    text = (ROOT / "workflow/profiles/slurm/config.yaml").read_text()
    assert "USER SETTINGS" in text
    help_text = subprocess.run([sys.executable, "-m", "snakemake", "--help"], env=environment(),
                               capture_output=True, text=True, check=True).stdout
    for key in profile:
        assert f"--{key}" in help_text, f"{key} is not a snakemake option"


# --- (c) the audit ----------------------------------------------------------------------

@pytest.mark.slow
def test_audit_passes_on_completed_folder(quick_cores2, tmp_path):
    """`snakemake audit` re-renders every figure (two figure sets at a time, in forked
    processes, with --cores 2), compares it and the files on disk with the manifest and the
    numbers with results/, passes, and runs no other job. The tolerance is given as a documented
    `--config audit_rtol=…` override (merged into quick.yaml; 1e-12: as strict as the config's 0
    on the machine that made the run), and the audit reports it."""
    workdir = copy_completed(quick_cores2, tmp_path)
    proc = snakemake(workdir, "audit", "--configfile", QUICK, "--cores", "2", "--config", "audit_rtol=1e-12")
    assert "audit passed" in proc.stdout and "numbers files within rtol 1e-12" in proc.stdout, proc.stdout[-3000:]
    assert "result files it re-renders" not in proc.stdout          # nothing was missing
    assert job_counts(proc.stdout) == {"audit": 1, "total": 1}


#: the PNG that _tamper_png changes (the manifest-line change picks another one)
TAMPERED_PNG = "positional_escape.png"


def _tamper_manifest_line(results, figures):
    """the line of a top-level PNG (not one the other changes touch) in MANIFEST.sha256 gets another digest"""
    manifest = figures / "MANIFEST.sha256"
    lines = manifest.read_text().splitlines()
    i = next(i for i, line in enumerate(lines) if line.endswith(".png") and "/" not in line
             and not line.endswith(("two_phases.png", TAMPERED_PNG)))
    digest, named = lines[i].split(maxsplit=1)
    lines[i] = f"{'0' * len(digest)}  {named}"
    manifest.write_text("\n".join(lines) + "\n")
    return f"{named}: file on disk differs from the manifest"


def _tamper_png(results, figures):
    """the last 16 bytes of a PNG are zeroed"""
    png = figures / TAMPERED_PNG
    png.write_bytes(png.read_bytes()[:-16] + b"\0" * 16)
    return f"{png.name}: file on disk differs from the manifest"


def _tamper_numbers_value(results, figures):
    """one number of the committed numbers/escape_vs_d.json is changed"""
    numbers = figures / "numbers" / "escape_vs_d.json"
    record = json.loads(numbers.read_text())
    row = record["rows"][0]
    key = next(k for k, v in row.items() if isinstance(v, float))
    row[key] *= 1.001
    numbers.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
    return f"{numbers.name}: "


def _tamper_results(results, figures):
    """the C2 SGD results are rescaled by 1 + 1e-6 (as if made on another machine): the
    numbers recomputed from them no longer match the committed numbers/two_phases.json"""
    for path in (results / "two_phases").glob("sgd_*.npz"):
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
        arrays["m"] = arrays["m"] * (1 + 1e-6)
        np.savez_compressed(path, **arrays)
    return "two_phases.json: "


#: each changes a different family's files, so that what names one cannot come from another
TAMPERING = (_tamper_manifest_line, _tamper_png, _tamper_numbers_value, _tamper_results)


@pytest.mark.slow
def test_audit_names_every_tampered_file(quick_cores2, tmp_path):
    """After a figure, a manifest line, a committed number and the results are changed (four
    families, one change each), the audit fails (non-zero exit) and names every one of them
    with what is wrong (it does not stop at the first); and it rewrites none of the committed
    files (the manifest and the numbers are not rebuilt from the tampered files before
    comparing). One audit run for the four: each re-renders every figure set."""
    workdir = copy_completed(quick_cores2, tmp_path)
    results, figures = result_dirs(workdir)
    expected = {tamper.__name__: tamper(results, figures) for tamper in TAMPERING}
    committed = {p: sha256(p) for p in figures.rglob("*") if p.is_file()}
    proc = snakemake(workdir, "audit", "--configfile", QUICK, "--cores", "2", check=False)
    assert proc.returncode != 0, proc.stdout[-3000:]
    assert "audit failed" in proc.stdout
    for tamper, message in expected.items():
        assert message in proc.stdout, (tamper, message, proc.stdout[-3000:])
    assert job_counts(proc.stdout) == {"audit": 1, "total": 1}
    assert {p: sha256(p) for p in figures.rglob("*") if p.is_file()} == committed


# --- (d) bad configs fail before any job ------------------------------------------------

def _set(path, value):
    def edit(cfg):
        node = cfg
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return edit


def _update(path, **values):
    def edit(cfg):
        node = cfg
        for key in path:
            node = node[key]
        node.update(values)
    return edit


BAD_CONFIGS = {
    # name: (edit of quick.yaml, strings the error message must contain)
    "negative_d": (_set(("two_phases", "cases", "sie1", "dims"), [-300]),
                   ["config two_phases.cases.sie1.dims[0] = -300: must be ≥"]),
    "unknown_target": (_set(("two_phases", "cases", "sie1", "problem", "target"), "he9_sum"),
                       ["config two_phases.cases.sie1.problem.target = 'he9_sum': must be one of linear,"]),
    "zero_learning_rate": (_set(("two_phases", "cases", "sie2", "schedule", "lr"), 0.0),
                           ["config two_phases.cases.sie2.schedule.lr = 0.0: must be >"]),
    "negative_learning_rate": (_set(("two_phases", "cases", "sie2", "schedule", "lr"), -0.1),
                               ["config two_phases.cases.sie2.schedule.lr = -0.1: must be >"]),
    "zero_replicates": (_set(("two_phases", "replicates"), 0), ["config two_phases.replicates = 0: must be ≥ 1"]),
    "unknown_top_level_key": (_set(("replicas",), 4), ["config replicas: unknown key ('replicas' was unexpected"]),
    # valid for the schema, invalid as a problem: checked by common.smk through ssi.problems
    "untied_with_opposite_pe": (_update(("two_phases", "cases", "sie1", "problem"), student="untied", pe="opposite"),
                                ["two_phases.cases.sie1.problem", "pe='opposite'"]),
    "mixture_with_tied_student": (_update(("two_phases", "cases", "sie2", "problem"), target="mixture"),
                                  ["two_phases.cases.sie2.problem", "mixture"]),
}


@pytest.mark.parametrize("name", list(BAD_CONFIGS))
def test_bad_config_fails_before_any_job(tmp_path, name):
    """A modified quick.yaml with one bad value: snakemake exits non-zero while parsing, with a
    message naming the config key; no job starts and no results or figures folder appears."""
    edit, expected = BAD_CONFIGS[name]
    workdir = make_workdir(tmp_path)
    config = copy.deepcopy(quick_config())
    edit(config)
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(config, sort_keys=False))
    proc = snakemake(workdir, "--cores", "1", "--configfile", bad, check=False, timeout=120)
    assert proc.returncode != 0, proc.stdout[-3000:]
    for text in expected:
        assert text in proc.stdout, f"{text!r} not in:\n{proc.stdout[-3000:]}"
    assert "Failed validating" not in proc.stdout and "On instance" not in proc.stdout   # no schema dump
    assert "Building DAG of jobs" not in proc.stdout
    results, figures = result_dirs(workdir, config)
    assert not results.exists() and not figures.exists()
    assert not (workdir / "results").exists()


# --- (e) kill and resume ----------------------------------------------------------------

@pytest.mark.slow
def test_killed_run_resumes_to_same_figures(killed_cores1, quick_cores2):
    """SIGKILL of the whole process group once the first result is written (as on a node
    failure); no partial file is left; restarting needs `--unlock` (stale lock) and
    `--rerun-incomplete` (the job the kill caught); the resumed run ends with the same figures
    and manifest as the uninterrupted --cores 2 run, and no temporary file."""
    killed = killed_cores1["killed"]
    assert not killed["manifest_written"], "the kill came after the end of the run"
    code, output = killed["plain_restart"]
    assert code != 0
    assert "--unlock" in output or "--rerun-incomplete" in output, output[-3000:]
    assert "Nothing to be done" not in killed_cores1["output"]
    assert killed_cores1["hashes"] == quick_cores2["hashes"]
    workdir = killed_cores1["workdir"]
    assert_results_whole(workdir)
    assert "Nothing to be done" in snakemake(workdir, "-n", "--configfile", QUICK).stdout


# --- (f) the schema's enums are the registries --------------------------------------------

def test_schema_enums_are_the_registries():
    """target/student/pe/reduction/activation/loss in workflow/schemas/config.schema.yaml list
    exactly the keys of ssi.problems' registries (each once)."""
    schema = yaml.safe_load((ROOT / "workflow/schemas/config.schema.yaml").read_text())
    properties = schema["$defs"]["problem"]["properties"]
    registries = {"target": problems.TARGETS, "student": problems.STUDENTS,
                  "pe": problems.POSITIONAL_ENCODINGS, "reduction": problems.REDUCTIONS,
                  "activation": problems.ACTIVATIONS, "loss": problems.LOSSES}
    for key, registry in registries.items():
        enum = properties[key]["enum"]
        assert len(enum) == len(set(enum)), f"{key}: duplicate names in the schema"
        assert set(enum) == set(registry), (f"{key}: schema-only {sorted(set(enum) - set(registry))}, "
                                            f"registry-only {sorted(set(registry) - set(enum))}")


# --- (g) lint ---------------------------------------------------------------------------

@pytest.mark.parametrize("configfile", [None, QUICK])
def test_lint_is_clean(configfile):
    """`snakemake --lint` on the repository's workflow (paper and quick config) reports nothing."""
    args = ["--lint"] + (["--configfile", configfile] if configfile else [])
    proc = snakemake(ROOT, *args, check=False, timeout=120)
    assert proc.returncode == 0 and "Lints for" not in proc.stdout, proc.stdout[-6000:]


def test_conda_env_matches_environment_yml():
    """workflow/envs/ssi.yaml (the rules' `conda:` environment) pins the same python and the same
    lower bounds as environment.yml, and has every runtime dependency except the workflow tools."""
    def entries(path):
        out = {}
        for entry in yaml.safe_load(path.read_text())["dependencies"]:
            if isinstance(entry, str):
                name, _, spec = entry.partition(">=") if ">=" in entry else entry.partition("=")
                out[name.strip()] = spec.strip()
        return out

    rules_env, full = entries(ROOT / "workflow/envs/ssi.yaml"), entries(ROOT / "environment.yml")
    tooling = {"pip", "setuptools"}
    for name, spec in rules_env.items():
        if name not in tooling:
            assert full.get(name) == spec, f"{name}: {spec!r} in workflow/envs/ssi.yaml, {full.get(name)!r} in environment.yml"
    # the workflow tools and the `test` extra's tools: not used by jobs
    workflow_tools = {"snakemake", "jupytext", "pytest", "pytest-xdist", "nbconvert", "ipykernel", "pygments", "pip"}
    assert set(full) - workflow_tools <= set(rules_env)
    assert (ROOT / "workflow/envs/ssi.post-deploy.sh").is_file()


# --- (h) report -------------------------------------------------------------------------

@pytest.mark.slow
def test_report_has_the_captions(quick_cores2, tmp_path):
    """`snakemake --report` on a completed folder writes a non-empty HTML report that contains
    the figure's caption (workflow/report/two_phases.rst)."""
    report = tmp_path / "report.html"
    snakemake(quick_cores2["workdir"], "--report", report, "--configfile", QUICK)
    assert report.is_file() and report.stat().st_size > 0
    caption = (ROOT / "workflow/report/two_phases.rst").read_text()
    phrase = caption.split("(")[0].strip()          # "Two phases of training"
    assert len(phrase) > 10
    assert phrase in report.read_text(errors="replace")
