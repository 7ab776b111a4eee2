"""Batched jobs (``batch: true``, config/quick.yaml; workflow/rules/batch.smk): one job per rule
file, whose members run their own scripts in one process, give the same files as one job per point.

* the dry run of the quick config plans one ``batch_<rule file>`` job per rule file with more
  than one job and none of the member rules; with ``--config batch=False`` it plans the member
  rules and no batch;
* two rule files recomputed unbatched (``--config batch=False``) in a fresh folder give files
  byte-identical to the session's batched quick run: C2 (SGD and ODE points, numbers, figure)
  and C4 (whose SGD jobs read its ODE files: members ordered by what they read): results,
  provenance records, numbers and figures;
* each member writes its own log, and the batch's log lists every member.
"""
from __future__ import annotations

import pytest

from support.quickrun import QUICK, job_counts, make_workdir, result_dirs, sha256, snakemake

pytestmark = pytest.mark.slow

#: two rule files whose outputs are recomputed unbatched (C2: independent points; C4: SGD jobs
#: that read the ODE files of the same rule file)
FAMILIES = ("two_phases", "tied_untied")


def dry_run_counts(workdir, *args) -> dict[str, int]:
    """The jobs of a dry run of the quick config (another with ``--configfile`` in ``args``)."""
    if "--configfile" not in args:
        args = ("--configfile", QUICK, *args)
    return job_counts(snakemake(workdir, "-n", "--forceall", *args).stdout)


def family_files(workdir, family) -> dict[str, str]:
    """SHA-256 of every file the family's jobs write (results, their records, numbers, figures;
    not logs), by path relative to the folder."""
    results, figures = result_dirs(workdir)
    paths = [p for p in (results / family).rglob("*") if p.is_file()]
    paths += [p for p in figures.rglob(f"{family}*") if p.is_file() and "data" not in p.parts]
    paths += [p for p in (figures / "numbers").glob(f"{family}.json")]
    return {p.relative_to(workdir).as_posix(): sha256(p) for p in sorted(paths)}


def test_quick_config_plans_one_job_per_rule_file(tmp_path):
    workdir = make_workdir(tmp_path)
    batched = dry_run_counts(workdir)
    assert {f"batch_{f}" for f in FAMILIES} <= batched.keys()
    assert not {"two_phases_sgd", "two_phases_ode", "two_phases_plot", "tied_untied_sgd"} & batched.keys(), batched
    unbatched = dry_run_counts(workdir, "--config", "batch=False")
    assert not any(rule.startswith("batch_") for rule in unbatched), unbatched
    assert {"two_phases_sgd", "two_phases_ode", "two_phases_numbers", "two_phases_plot"} <= unbatched.keys()
    assert unbatched["total"] > 3 * batched["total"], (batched, unbatched)


def test_authors_config_can_be_batched(tmp_path):
    workdir = make_workdir(tmp_path)
    counts = dry_run_counts(workdir, "--configfile", "config/authors_quick.yaml", "--config", "batch=True")
    assert "batch_authors" in counts and "authors_sgd" not in counts, counts


def test_unbatched_jobs_write_the_same_bytes(quick_cores2, tmp_path):
    batched = quick_cores2["workdir"]
    workdir = make_workdir(tmp_path)
    results, figures = result_dirs(workdir)
    targets = [f"{figures.relative_to(workdir)}/{name}.png" for name in ("two_phases", "tied_untied_gain")]
    proc = snakemake(workdir, *targets, "--cores", "2", "--configfile", QUICK, "--config", "batch=False")
    counts = job_counts(proc.stdout)
    assert counts.get("tied_untied_sgd", 0) > 1 and not any(rule.startswith("batch_") for rule in counts), counts
    for family in FAMILIES:
        mine = family_files(workdir, family)
        assert len(mine) > 4, (family, mine)
        theirs = family_files(batched, family)
        assert mine == {k: theirs.get(k) for k in mine}, family


def test_members_write_their_logs(quick_cores2):
    results, _ = result_dirs(quick_cores2["workdir"])
    batch_log = (results / "logs" / "batch_tied_untied.log").read_text()
    member_logs = sorted((results / "logs").glob("tied_untied_sgd_*.log"))
    assert len(member_logs) > 1
    for log in member_logs:
        assert log.read_text().strip(), log
        assert log.relative_to(quick_cores2["workdir"]).as_posix() in batch_log
