"""The registry of results (ssi.experiments.registry) against what the repository holds.

The case it catches: a result added with its rule file and numbers but no registry entry (its claim
rows would be missing from the verdict file), or an entry naming a function its module does not
define, or a figure the manifests do not list.
"""
from __future__ import annotations

import importlib

from pathlib import Path

import pytest
import yaml

from ssi.experiments import registry

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = {"paper": "config/config.yaml", "authors": "config/authors.yaml"}


def _config(kind):
    return yaml.safe_load((ROOT / CONFIGS[kind]).read_text())


@pytest.mark.parametrize("kind", registry.CONFIG_KINDS)
def test_committed_numbers_files_are_the_registry_results(kind):
    config = _config(kind)
    committed = {p.stem for p in (ROOT / config["figures_dir"] / "numbers").glob("*.json")}
    assert committed == {result.name for result in registry.results(kind)}


@pytest.mark.parametrize("kind", registry.CONFIG_KINDS)
def test_registry_figures_are_the_manifest_figures(kind):
    """Every figure of every result is listed in its config's manifest (the summary is the only
    other figure of the paper config)."""
    config = _config(kind)
    folder = ROOT / config["figures_dir"]
    listed = {line.split(maxsplit=1)[1] for line in (folder / "MANIFEST.sha256").read_text().splitlines()}
    figures = {str(Path(f).relative_to(config["figures_dir"])) for result in registry.results(kind)
               for f in result.figure_files(config)}
    assert figures <= listed
    others = {name for name in listed if name.endswith((".pdf", ".png"))} - figures
    assert others == ({"summary.pdf", "summary.png"} if kind == "paper" else set())


@pytest.mark.parametrize("result", registry.RESULTS, ids=lambda r: r.name)
def test_entry_names_what_exists(result):
    for field in ("summarise", "claim_rows", "plot", "figures", "figure_data_reduction"):
        if getattr(result, field):
            assert result.function(field) is not None
    if result.tables:     # what its page's tables read, and the template that lays them out
        assert callable(importlib.import_module(f"ssi.experiments.{result.tables}").context)
        assert (ROOT / "workflow/templates" / f"_{result.name}.md.j2").is_file()
    assert (ROOT / "workflow/rules" / f"{result.name}.smk").is_file()
    assert (ROOT / "notebooks" / f"{result.name}.py").is_file() == result.notebook
    assert set(result.sections) <= set(_config(result.config))


def test_unknown_names_are_refused_with_the_allowed_ones():
    with pytest.raises(ValueError, match="unknown result 'nope'; the results are two_phases"):
        registry.get("nope")
    with pytest.raises(ValueError, match="allowed: paper, authors"):
        registry.results("quick")


@pytest.mark.parametrize("kind", registry.CONFIG_KINDS)
def test_validate_runs_each_results_checks(kind):
    """registry.validate calls every result's own ``validate``: the committed config passes, and a
    config that breaks one result's check beyond the schema fails naming that result's key (a d
    below what the problem needs in two_phases; an authors' experiment whose decide_seeds is not
    above its seeds)."""
    import copy

    config = _config(kind)
    registry.validate(config)
    broken = copy.deepcopy(config)
    if kind == "paper":
        case = next(iter(broken["two_phases"]["cases"]))
        broken["two_phases"]["cases"][case]["dims"] = [1]
        match = rf"two_phases\.cases\.{case}\.dims: d=1 is too small"
    else:
        name, spec = next((n, s) for n, s in broken["authors"]["experiments"].items() if s.get("decide_seeds"))
        spec["decide_seeds"] = spec["seeds"]
        match = rf"authors\.experiments\.{name}\.decide_seeds: .* must exceed seeds"
    with pytest.raises(ValueError, match=match):
        registry.validate(broken)
