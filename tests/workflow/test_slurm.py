"""The workflow's SLURM path, for real: C2 of the quick config through workflow/profiles/slurm
on a single-node SLURM started on this machine (tests/support/slurm.py); and, for every rule
family, that only the computing rules are not localrules.

The cluster needs root (the munge key, /etc/slurm/slurm.conf) and the Debian packages
slurmctld, slurmd, slurm-client and munge. Under CI (``CI`` set; CI runs as root) the test
installs the packages if missing and never skips: a failing apt-get or daemon fails it with the
daemons' log tails. Elsewhere it runs only where root and the packages are there, and otherwise
skips saying what is missing (it does not install system packages on a user's machine).

What the test cluster lacks compared with a real one, and the command line adds (the
profile keeps the user settings a real cluster needs, see its USER SETTINGS block):

* no accounting (no slurmdbd, so no ``sacct``): ``--slurm-status-command squeue``;
* no accounts: the profile's ``default-resources`` without ``slurm_account`` (given on the
  command line, which replaces the profile's whole ``default-resources``), plus
  ``--slurm-no-account``;
* its partition: ``slurm_partition=debug``;
* a short first status check (``--slurm-init-seconds-before-status-checks 2``, default 40 s)
  to keep the test short, and ``--slurm-keep-successful-logs`` to inspect the job logs.
"""
from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
import yaml

from support.slurm import PACKAGES, ClusterError, SlurmCluster, missing_binaries
from support.facilities import in_ci, require
from support.quickrun import QUICK, job_counts, make_workdir, quick_config, result_dirs, sha256, snakemake

ROOT = Path(__file__).resolve().parents[2]
PROFILE = "workflow/profiles/slurm"
#: what runs through SLURM for real: C2's numbers (its SGD and ODE sweep points as SLURM jobs, the
#: numbers on the submitting node). Not its figure: a figure states its finding from the verdict
#: file, which needs every result's numbers (the whole quick config)
TARGETS = ("two_phases_numbers",)
#: rules that must run as SLURM jobs (the sweeps); the localrules run on the submitting node
SWEEP_RULES = {"two_phases_sgd", "two_phases_ode"}
#: rules that must not be submitted (declared localrules: seconds of work)
LOCAL_RULES = {"two_phases_numbers"}


@pytest.fixture(scope="module")
def slurm_cluster():
    """A single-node SLURM for this module; the daemons are stopped by pid and
    /etc/slurm/slurm.conf is restored afterwards."""
    require(os.geteuid() == 0, "a test SLURM cluster needs root (CI runs as root)")
    if not in_ci():
        missing = missing_binaries()
        require(not missing, f"SLURM is not installed ({', '.join(missing)} missing); as root: "
                             f"apt-get install -y {' '.join(PACKAGES)} (CI installs them)")
    cluster = SlurmCluster(partition="debug")
    try:
        cluster.start()
    except ClusterError as exc:
        pytest.fail(f"could not start the single-node SLURM test cluster:\n{exc}", pytrace=False)
    yield cluster
    cluster.stop()


def cluster_options(partition: str) -> list[str]:
    """The command line that adapts workflow/profiles/slurm to the test cluster (module doc)."""
    profile = yaml.safe_load((ROOT / PROFILE / "config.yaml").read_text())
    resources = dict(profile["default-resources"])
    resources.pop("slurm_account", None)
    resources["slurm_partition"] = partition
    return ["--slurm-status-command", "squeue", "--slurm-no-account",
            "--slurm-init-seconds-before-status-checks", "2", "--slurm-keep-successful-logs",
            "--default-resources", *[f"{key}={value}" for key, value in resources.items()]]


@pytest.mark.slow
def test_quick_workflow_through_slurm(slurm_cluster, quick_cores2, tmp_path_factory):
    """C2 of the quick config (``TARGETS``) through the SLURM profile: exits 0; every non-local
    job (the SGD and ODE sweep points) was submitted to SLURM (one distinct SLURM job id per job
    in snakemake's output, and a job log .snakemake/slurm_logs/rule_<rule>/<wildcards>/<jobid>.log
    in which the job finished) and the localrule (numbers) ran on the submitting node; the
    result files and the numbers file are byte-identical to those of a local `--cores 2` run of the
    quick config in another folder (the session's ``quick_cores2``, tests/conftest.py). That the
    other families' numbers and plots stay local too is checked from their declarations below.
    (Before, the whole quick config ran through SLURM: 5–10 min, most of it the executor
    plugin's status-check back-off, for the same checks.)"""
    local = quick_cores2

    workdir = make_workdir(tmp_path_factory.mktemp("quick_slurm"))
    start = time.monotonic()
    # the targets first: --configfile and --default-resources take every word after them
    proc = snakemake(workdir, *TARGETS, "--profile", PROFILE, "--configfile", QUICK,
                     *cluster_options(slurm_cluster.partition), timeout=900)
    seconds = time.monotonic() - start
    out = proc.stdout
    print(f"C2 of the quick workflow through SLURM: {seconds:.0f} s")

    # "Using profile X" alone, or "Using profiles X and workflow specific profile profiles/default"
    assert re.search(rf"Using profiles? {re.escape(PROFILE)}\b", out)
    counts = job_counts(out)
    # the main process prints "rule X:" for a job it submits, "localrule X:" for one it runs
    remote = re.findall(r"^\s*rule (\w+):$", out, flags=re.M)
    local_ = re.findall(r"^\s*localrule (\w+):$", out, flags=re.M)
    assert sorted(remote + local_) == sorted(r for r, n in counts.items() if r != "total" for _ in range(n)), \
        (counts, remote, local_)
    assert set(remote) == SWEEP_RULES, f"submitted to SLURM: {set(remote)}, expected {SWEEP_RULES}"
    assert set(local_) == LOCAL_RULES, (remote, local_)
    submitted = dict(re.findall(r"Job (\d+) has been submitted with SLURM jobid (\d+)", out))
    assert len(submitted) == len(remote), (f"{len(submitted)} SLURM submissions for {len(remote)} "
                                           f"cluster jobs:\n{out[-4000:]}")
    assert len(set(submitted.values())) == len(remote), "two jobs share a SLURM job id"

    logs = workdir / ".snakemake" / "slurm_logs"
    log_files = sorted(logs.rglob("*.log"))
    assert {p.parts[len(logs.parts)] for p in log_files} == {f"rule_{r}" for r in remote}, log_files
    assert {p.stem for p in log_files} == set(submitted.values()), (log_files, submitted)
    for path in log_files:               # each job ran snakemake's jobstep executor, successfully
        text = path.read_text(errors="replace")
        assert "Finished jobid: 0" in text and "1 of 1 steps (100%) done" in text, f"{path}:\n{text[-2000:]}"

    numbers = result_dirs(workdir)[1] / "numbers" / "two_phases.json"
    assert sha256(numbers) == sha256(result_dirs(local["workdir"])[1] / "numbers" / "two_phases.json")
    ours, theirs = (result_dirs(w)[0] / "two_phases" for w in (workdir, local["workdir"]))
    npz = sorted(p.name for p in ours.glob("*.npz"))
    # an ODE and an SGD file per case and dimension of the quick config's C6
    cases = quick_config()["two_phases"]["cases"]
    assert npz == sorted(f"{kind}_{case}_d{d}.npz" for case, spec in cases.items() for d in spec["dims"]
                         for kind in ("ode", "sgd")), npz
    for name in npz:
        assert sha256(ours / name) == sha256(theirs / name), f"{name}: SLURM and local results differ"


def test_every_numbers_plot_and_bookkeeping_rule_is_a_localrule():
    """What the SLURM run shows for C2 holds for every family: each rule whose job is seconds of
    work (numbers, plots, report tables, manifest, claims, audits, hash list) is declared in a
    ``localrules:`` block, so a cluster profile submits only the computing rules."""
    rules, local = set(), set()
    for path in sorted((ROOT / "workflow/rules").glob("*.smk")):
        text = path.read_text()
        rules |= set(re.findall(r"^rule (\w+):", text, flags=re.M))
        for block in re.findall(r"^localrules:\n((?:[ \t]+\w+,?\n)+)", text, flags=re.M):
            local |= set(re.findall(r"\w+", block))
    bookkeeping = {r for r in rules if r.endswith(("_numbers", "_plot", "_docs"))
                   or r in {"manifest", "claims", "verify", "audit", "audit_compute", "result_hashes"}}
    assert {"two_phases_plot", "manifest", "claims", "audit", "tied_untied_numbers"} <= bookkeeping
    assert bookkeeping <= local, f"not declared local: {sorted(bookkeeping - local)}"
    assert local <= rules, f"localrules that are not rules: {sorted(local - rules)}"
    assert SWEEP_RULES <= rules - local


def test_stale_test_cluster_conf_is_removed_and_never_restored(tmp_path, monkeypatch):
    """A slurm.conf our test cluster wrote but never restored (the test was killed) is removed
    when no SLURM daemon runs, and is not backed up as if it were the machine's own; any other
    slurm.conf (a real cluster's) is left alone."""
    import support.slurm as slurm

    conf = tmp_path / "slurm.conf"
    monkeypatch.setattr(slurm, "SLURM_CONF", conf)
    monkeypatch.setattr(slurm, "_foreign_daemons", lambda: [])
    conf.write_text(f"{slurm.CONF_MARKER} for a single-node test cluster\nClusterName=x\n")
    assert slurm.remove_stale_conf() and not conf.exists()

    conf.write_text("ClusterName=site\n")
    assert not slurm.remove_stale_conf() and conf.read_text() == "ClusterName=site\n"

    conf.write_text(f"{slurm.CONF_MARKER}\n")
    monkeypatch.setattr(slurm, "_foreign_daemons", lambda: ["123 slurmctld"])
    assert not slurm.remove_stale_conf() and conf.exists()
