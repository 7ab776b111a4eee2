"""The authors' experiments (config/authors.yaml): validation, job plan, conventions, tiny pipeline."""
from __future__ import annotations

import hashlib
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from snakemake.utils import validate

from ssi.experiments import authors as au
from ssi.experiments.authors import figure as au_figure
from ssi.experiments.authors import spec as au_spec
from ssi.experiments.figure_data import numbers_from_json
from support.quickrun import make_workdir

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = str(ROOT / "workflow" / "schemas" / "authors.schema.yaml")


def load(name):
    return yaml.safe_load((ROOT / "config" / name).read_text())


@pytest.mark.parametrize("name", ["authors.yaml", "authors_quick.yaml"])
def test_configs_validate_and_build(name):
    cfg = load(name)
    validate(cfg, SCHEMA)
    au.validate(cfg)


def test_every_authors_file_has_a_section():
    # their repository has 17 experiment files at experiments/*.yaml; each must be covered
    files = {spec["file"] for spec in load("authors.yaml")["authors"]["experiments"].values()}
    assert len(files) == 17


@pytest.mark.parametrize("key, value", [("loss", "hinge"), ("ic_overlap", -0.1), ("lr_scaling", "cubic"),
                                        ("target", "H3sum"), ("init", "zero")])
def test_bad_option_fails_at_validation_naming_the_key(key, value):
    cfg = load("authors_quick.yaml")
    cfg["authors"]["experiments"]["square_plain"][key] = value
    with pytest.raises(Exception) as err:
        validate(cfg, SCHEMA)
    assert key in str(err.value)


def test_schema_names_are_the_maps_of_ssi_authors():
    api = pytest.importorskip("ssi.authors")
    schema = yaml.safe_load(Path(SCHEMA).read_text())
    props = schema["$defs"]["experiment"]["properties"]
    assert set(props["lr_scaling"]["enum"]) == set(api.LR_SCALINGS)
    assert set(props["students"]["items"]["enum"]) == set(api.STUDENT_NAMES)
    assert set(props["activation"]["enum"]) <= set(api.ACTIVATION_NAMES)
    assert set(props["target"]["enum"]) - {"positional_semantic_model"} <= set(api.TARGET_NAMES)


def test_job_plan_covers_every_replicate_once_and_never_splits_a_stopped_point():
    cfg = load("authors.yaml")
    for name, spec in cfg["authors"]["experiments"].items():
        seen = {}
        for job in au_spec.job_plan(cfg, name):
            for v in job["values"]:
                seen.setdefault((job["student"], v), []).append((job["offset"], job["count"]))
        assert set(seen) == set(au.points(spec))
        for blocks in seen.values():
            covered = sorted(i for off, n in blocks for i in range(off, off + n))
            assert covered == list(range(au_spec.replicates(spec)))
            if spec["stop_level"] is not None:
                assert len(blocks) == 1


def test_overlapped_start_is_not_o():
    api = pytest.importorskip("ssi.authors")
    d = 1000
    o = d ** -0.5
    assert api.initial_overlap(None, d) == pytest.approx(o / math.sqrt((1 - o) ** 2 + o ** 2), rel=1e-12)
    assert api.initial_overlap(0.0, d) == 0.0


@pytest.mark.slow
def test_quick_authors_workflow_writes_figures_numbers_manifest(tmp_path):
    """The quick authors config through Snakemake: figures, numbers and a manifest, byte-reproducible."""
    cfg = load("authors_quick.yaml")
    cfg["results_dir"] = str(tmp_path / "res")
    cfg["figures_dir"] = str(tmp_path / "fig")
    conf = tmp_path / "authors_quick.yaml"
    conf.write_text(yaml.safe_dump(cfg))
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    workdir = make_workdir(tmp_path)      # a copy of the workflow files: Snakemake's lock and metadata stay out of the repository
    snake = [sys.executable, "-m", "snakemake", "--cores", "2", "--configfile", str(conf), "--quiet"]
    subprocess.run(snake, check=True, env=env, cwd=workdir)
    fig = tmp_path / "fig"
    names = au_figure.figure_names(cfg)
    for n in names:
        assert (fig / f"{n}.png").stat().st_size > 0
    assert (fig / "numbers" / "authors.json").is_file()
    manifest = (fig / "MANIFEST.sha256").read_text()
    assert f"{names[0]}.png" in manifest and "numbers/authors.json" in manifest
    # the one-seed experiment: shown as run (1 seed), decided over decide_seeds replicates
    import json
    entry = json.loads((fig / "numbers" / "authors.json").read_text())["experiments"]["linear_random"]
    assert entry["seeds"] == 1 and {r["seeds"] for r in entry["rows"]} == {1}
    assert entry["decide"]["seeds"] == 8 and {r["seeds"] for r in entry["decide"]["rows"]} == {8}
    assert entry["gain"]["decide"]["seeds"] == 8 and entry["gain"]["decide"]["low"] is not None
    assert "excluded" in entry["gain"] and "start_flagged_authors" in entry["rows"][0]
    # the figure checks (tests/support/figure_checks.py) on every figure, redrawn in this process
    # from the run's results: no committed figure data holds the authors' replicate curves
    from ssi.verdicts import rows_for
    from support.figure_checks import saved_figure_problems

    found = saved_figure_problems(lambda: au_figure.plot(
        cfg, [str(tmp_path / f"{n}.png") for n in names], numbers=numbers_from_json(fig / "numbers" / "authors.json"),
        verdicts=rows_for(fig / "VERDICTS.json", "authors")))
    assert sorted(found) == sorted(names)
    assert {n: p for n, p in found.items() if p} == {}
    first = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in fig.glob("*.png")}
    shutil.rmtree(fig)
    subprocess.run(snake + ["--forcerun", "authors_plot"], check=True, env=env, cwd=workdir)
    again = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in fig.glob("*.png")}
    assert first == again
