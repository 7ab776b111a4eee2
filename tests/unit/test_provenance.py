"""Provenance records (ssi.provenance): what they hold, that they are reproducible, and that
the audit names the packages whose versions differ from the recorded ones."""
from __future__ import annotations

import json
import platform

from ssi import provenance
from ssi.experiments.audit import numbers_section, version_report, versions_message, write_numbers
from ssi.io import load_result, save_result


def test_result_record_holds_versions_code_config_and_commit(tmp_path):
    """A result's JSON carries the six package versions, Python, platform, the code and config
    hashes, the git commit and the dirty flag; writing the same result twice gives the same bytes."""
    for i in range(2):
        save_result(tmp_path / f"r{i}", {"x": [1.0, 2.0]}, {"config": {"lr": 0.5}, "d": 10})
    _, record = load_result(tmp_path / "r0")
    prov = record["provenance"]
    assert set(prov["packages"]) == set(provenance.PACKAGES)
    assert prov["packages"]["numpy"] == __import__("numpy").__version__
    assert prov["python"] == platform.python_version()
    assert prov["config_sha256"] == provenance.config_hash({"lr": 0.5})
    assert {"git_commit", "git_dirty", "code_sha256", "platform", "platform_full"} <= prov.keys()
    assert "time" not in json.dumps(record).lower()
    assert (tmp_path / "r0.json").read_bytes() == (tmp_path / "r1.json").read_bytes()
    assert (tmp_path / "r0.npz").read_bytes() == (tmp_path / "r1.npz").read_bytes()


def test_code_hash_follows_the_workflow_sources(tmp_path):
    """The code hash changes when a rule file changes, not when a figure or a doc changes."""
    (tmp_path / "Snakefile").write_text("rule all:\n")
    (tmp_path / "workflow/rules").mkdir(parents=True)
    (tmp_path / "workflow/rules/a.smk").write_text("x = 1\n")
    first = provenance.code_hash(tmp_path)
    (tmp_path / "README.md").write_text("docs\n")
    assert provenance.code_hash(tmp_path) == first
    (tmp_path / "workflow/rules/a.smk").write_text("x = 2\n")
    assert provenance.code_hash(tmp_path) != first


def test_config_hash_is_canonical():
    assert provenance.config_hash({"a": 1, "b": [1, 2]}) == provenance.config_hash({"b": [1, 2], "a": 1})
    assert provenance.config_hash({"a": 1}) != provenance.config_hash({"a": 1.01})


def test_numbers_file_provenance_has_no_commit(tmp_path):
    """A committed numbers file records versions, code and config hashes but no commit (the
    commit that commits it cannot be known) and no full platform string (kernel release)."""
    config = {"seed": 1, "engine": "reduced", "two_phases": {"replicates": 4}}
    write_numbers(tmp_path / "n.json", {"rows": [{"t": float("nan")}]}, config, "two_phases")
    record = json.loads((tmp_path / "n.json").read_text())
    assert record["rows"] == [{"t": None}]
    assert record["provenance"]["config_sha256"] == provenance.config_hash(numbers_section(config, "two_phases"))
    assert not {"git_commit", "git_dirty", "platform_full"} & record["provenance"].keys()


def test_version_report_names_the_differing_packages(tmp_path):
    """Recorded numpy 1.0 and scipy as installed: only numpy is named, with both versions."""
    installed = provenance.package_versions()
    recorded = dict(installed, numpy="1.0")
    (tmp_path / "n.json").write_text(json.dumps({"provenance": {"packages": recorded}}))
    lines = version_report([tmp_path / "n.json"])
    assert lines == [f"numpy: installed {installed['numpy']}, recorded 1.0 in 1 file (e.g. {tmp_path / 'n.json'})"]
    assert "numpy" in versions_message([tmp_path / "n.json"])
    (tmp_path / "n.json").write_text(json.dumps({"provenance": {"packages": installed}}))
    assert version_report([tmp_path / "n.json"]) == []
    assert "is the installed one" in versions_message([tmp_path / "n.json"])


def test_failed_audit_names_the_packages(tmp_path):
    """When the audit finds a file whose bytes differ, its message names the package whose
    installed version differs from the one recorded in a result's JSON."""
    import pytest

    from ssi.experiments.audit import audit

    (tmp_path / "fig.png").write_bytes(b"changed")
    (tmp_path / "MANIFEST.sha256").write_text(f"{'0' * 64}  fig.png\n")
    installed = provenance.package_versions()
    (tmp_path / "r.json").write_text(json.dumps({"provenance": {"packages": dict(installed, scipy="0.1")}}))
    with pytest.raises(ValueError) as failure:
        audit({"audit_rtol": 0.0}, {}, tmp_path / "MANIFEST.sha256", [], results=[tmp_path / "r.npz"])
    message = str(failure.value)
    assert "fig.png: file on disk differs from the manifest" in message
    assert f"scipy: installed {installed['scipy']}, recorded 0.1" in message
    assert "numpy:" not in message
