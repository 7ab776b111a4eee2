"""The code hash of a record covers the code of the job that wrote it, and the committed records
are current.

``test_committed_numbers_record_the_current_code`` compares each committed numbers file (and the
result hash list) with the code hash its rule would record now: it fails as soon as an edit to
that code leaves a committed file behind, and passes once the files are regenerated
(``snakemake --cores all`` with config/config.yaml and config/authors.yaml, then
``snakemake result_hashes``).
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ssi import provenance

ROOT = Path(__file__).resolve().parents[2]
#: every committed file with a provenance record
COMMITTED = sorted([*ROOT.glob("figures/numbers/*.json"), *ROOT.glob("figures/authors/numbers/*.json"),
                    *ROOT.glob("figures/**/RESULT_HASHES.json")])


@pytest.mark.parametrize("path", COMMITTED, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_committed_numbers_record_the_current_code(path):
    record = json.loads(path.read_text())["provenance"]
    assert record.get("rule"), (f"{path.relative_to(ROOT)} names no rule in its provenance: "
                                f"it predates per-job code hashes; regenerate it")
    current = provenance.code_hash(ROOT, record["rule"])
    assert record["code_sha256"] == current, (
        f"{path.relative_to(ROOT)}: recorded code_sha256 {record['code_sha256'][:12]}… but the code of "
        f"rule {record['rule']} hashes to {current[:12]}… now: regenerate it")


def _copy_workflow(tmp_path) -> Path:
    root = tmp_path / "repo"
    for name in ("workflow/rules", "workflow/scripts"):
        shutil.copytree(ROOT / name, root / name)
    shutil.copy(ROOT / "Snakefile", root / "Snakefile")
    return root


def test_the_code_of_a_job_is_its_rule_file_script_and_their_imports():
    files = provenance.job_sources("positional_numbers", ROOT)
    assert {"workflow/rules/positional.smk", "workflow/scripts/positional_numbers.py",
            "ssi/experiments/positional/__init__.py", "ssi/experiments/audit.py", "ssi/ode.py"} <= files.keys()
    assert "Snakefile" not in files
    assert not {"ssi/experiments/two_phases/__init__.py", "ssi/cli.py", "workflow/rules/two_phases.smk"} & files.keys()
    # a `run:` rule: the modules its rule file imports
    assert "ssi/experiments/recompute.py" in provenance.job_sources("result_hashes", ROOT)


def test_an_edit_outside_a_job_leaves_its_hash(tmp_path):
    root = _copy_workflow(tmp_path)
    first = provenance.code_hash(root, "positional_numbers")
    with open(root / "Snakefile", "a") as handle:
        handle.write("\nPRIORITY_FIGURE = 6\n")
    with open(root / "workflow/rules/two_phases.smk", "a") as handle:
        handle.write("\n# a comment\n")
    assert provenance.code_hash(root, "positional_numbers") == first
    with open(root / "workflow/scripts/positional_numbers.py", "a") as handle:
        handle.write("\n# a comment\n")
    assert provenance.code_hash(root, "positional_numbers") != first


def test_an_unknown_rule_is_named(tmp_path):
    with pytest.raises(ValueError, match="no_such_rule"):
        provenance.job_sources("no_such_rule", ROOT)
