"""The audit of the computation on the quick config: `snakemake result_hashes` lists every
.npz result, `snakemake audit_compute --config audit_n=… audit_seed=…` recomputes a sample in a
temporary folder and passes on unchanged code, and fails naming the job after a 1 % change of a
learning rate in the code (docs/reproducibility.md, "Auditing the computation")."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from support.quickrun import QUICK, ROOT, completed_quick_run, snakemake
from ssi.experiments.recompute import HASHES, sample_entries
from ssi.io import sha256_file

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def listed(quick_cores2, tmp_path_factory):
    """A copy of a completed quick run with its hash list written by `snakemake result_hashes`."""
    workdir = completed_quick_run(quick_cores2, tmp_path_factory)
    proc = snakemake(workdir, "result_hashes", "--cores", "2", "--configfile", QUICK)
    config = yaml.safe_load((ROOT / QUICK).read_text())
    hashes = json.loads((workdir / config["figures_dir"] / HASHES).read_text())
    return {"workdir": workdir, "config": config, "hashes": hashes, "output": proc.stdout}


def test_result_hashes_lists_every_result(listed):
    """The list holds the SHA-256 of every .npz under results_dir (nothing else is simulated
    output) and the provenance of the run."""
    results = Path(listed["workdir"], listed["config"]["results_dir"])
    on_disk = {p.relative_to(results).as_posix(): sha256_file(p) for p in results.rglob("*.npz")}
    assert on_disk and listed["hashes"]["files"] == on_disk
    assert {"packages", "code_sha256", "config_sha256", "python", "platform"} <= listed["hashes"]["provenance"].keys()


def test_audit_compute_passes_on_unchanged_code(listed):
    """Three sampled result files recomputed from the code are byte-identical to the list; the
    message names them (the draw of ssi.experiments.recompute.sample_entries)."""
    proc = snakemake(listed["workdir"], "audit_compute", "--cores", "2", "--configfile", QUICK,
                     "--config", "audit_n=3", "audit_seed=1")
    assert "audit_compute passed: 3 of" in proc.stdout, proc.stdout[-3000:]
    for name in sample_entries(listed["hashes"]["files"], 3, 1):
        assert name in proc.stdout


def test_audit_compute_fails_after_a_learning_rate_change(listed, tmp_path):
    """With the package copied and its C2 SGD learning rate multiplied by 1.01, audit_compute
    fails and names each sampled C2 SGD result, and only those (the other sampled jobs do not use
    that line)."""
    workdir = listed["workdir"]
    shutil.copytree(ROOT / "src", workdir / "src", ignore=shutil.ignore_patterns("__pycache__"))
    module = workdir / "src/ssi/experiments/two_phases/__init__.py"
    text = module.read_text()
    line = 'lr = learning_rate(spec["schedule"], d)\n    steps = int(round(spec["t_max"] * d))'
    assert text.count(line) == 1, "sgd_point's learning-rate line moved; update this test"
    module.write_text(text.replace(line, line.replace("lr = learning_rate", "lr = 1.01 * learning_rate")))
    entries = listed["hashes"]["files"]
    seed = next(s for s in range(1000) if any(e.startswith("two_phases/sgd_") for e in sample_entries(entries, 2, s)))
    chosen = sample_entries(entries, 2, seed)
    proc = snakemake(workdir, "audit_compute", "--cores", "2", "--configfile", QUICK, "--config", "audit_n=2",
                     f"audit_seed={seed}", check=False, PYTHONPATH=str(workdir / "src"))
    assert proc.returncode != 0, proc.stdout[-3000:]
    assert "audit_compute failed" in proc.stdout, proc.stdout[-3000:]
    for name in chosen:
        named = f"{name}: recomputed bytes differ" in proc.stdout
        assert named == name.startswith("two_phases/sgd_"), (name, proc.stdout[-3000:])
    assert "is the installed one" in proc.stdout      # same packages: the reader is sent to the code
