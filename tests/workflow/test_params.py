"""A job reads what its rule declares: every workflow script takes its parameters from
``snakemake.params`` (and its paths from input, output and log), never the whole config, and
every ``snakemake.params.<name>`` a script reads is a param of the rule that runs it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from ssi.experiments.job_config import point_config, section_config

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "workflow/scripts").glob("*.py"))
RULE_FILES = sorted((ROOT / "workflow/rules").glob("*.smk"))


def rule_blocks():
    """(rule name, its text) of every rule of the workflow's rule files."""
    for path in RULE_FILES:
        text = path.read_text()
        starts = list(re.finditer(r"^(?:rule|checkpoint) (\w+):", text, re.MULTILINE))
        for i, match in enumerate(starts):
            end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
            yield match.group(1), text[match.start():end]


def declared_params(block: str) -> set[str]:
    """The names under the ``params:`` directive of a rule's text."""
    match = re.search(r"^    params:\n((?:        .*\n|\n)*)", block, re.MULTILINE)
    return set(re.findall(r"^        (\w+)=", match.group(1), re.MULTILINE)) if match else set()


def script_rules() -> dict[str, list[tuple[str, set[str]]]]:
    """script file name -> [(rule, declared params)] of the rules that run it."""
    out = {}
    for name, block in rule_blocks():
        match = re.search(r'^    script:\n\s+"\.\./scripts/([\w.]+)"', block, re.MULTILINE)
        if match:
            out.setdefault(match.group(1), []).append((name, declared_params(block)))
    return out


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_no_script_reads_the_whole_config(script):
    """No workflow script mentions ``snakemake.config``: what a job reads is its rule's params."""
    lines = [f"{script.name}:{i}: {line.strip()}" for i, line in enumerate(script.read_text().splitlines(), 1)
             if "snakemake.config" in line]
    assert not lines, "scripts read the whole config instead of their rule's params:\n" + "\n".join(lines)


def test_every_param_a_script_reads_is_declared():
    """Each ``snakemake.params.<name>`` of a script is a param of every rule that runs the script."""
    rules = script_rules()
    assert rules, "no rule with a script found"
    missing = []
    for script in SCRIPTS:
        read = set(re.findall(r"snakemake\.params\.(\w+)", script.read_text())) - {"items", "get", "keys"}
        for rule, declared in rules.get(script.name, []):
            missing += [f"{script.name} (rule {rule}): params.{name}" for name in sorted(read - declared)]
    assert not missing, "params read but not declared:\n" + "\n".join(missing)


def test_the_check_sees_a_script_reading_the_config(tmp_path):
    """The scan above fails on a script that reads the whole config (it is not vacuous)."""
    script = tmp_path / "bad.py"
    script.write_text("x = snakemake.config['seed']  # noqa: F821\n")
    with pytest.raises(AssertionError, match="snakemake.config"):
        test_no_script_reads_the_whole_config(script)


def test_point_config_holds_only_the_point():
    """A point's config: its case (without d lists) as the only case, seed and engine on top."""
    point = {"case": {"t_max": 20, "problem": {"L": 2}}, "seed": 1, "engine": "reduced", "replicates": 4}
    config = point_config("two_phases", "sie1", point)
    assert config == {"seed": 1, "engine": "reduced",
                      "two_phases": {"replicates": 4, "cases": {"sie1": {"t_max": 20, "problem": {"L": 2}}}}}
    assert point == {"case": {"t_max": 20, "problem": {"L": 2}}, "seed": 1, "engine": "reduced", "replicates": 4}
    with pytest.raises(KeyError):
        config["two_phases"]["points_per_decade"]           # undeclared: not read unnoticed


def test_section_config_merges_section_and_entries():
    """``section`` is merged into the experiment's section, pairs are accepted, entries added."""
    config = section_config("tied_untied", [("seed", 3), ("section", {"replicates": 2}), ("attention", {"d": 5})],
                            extra={"k": 1})
    assert config == {"seed": 3, "tied_untied": {"replicates": 2, "attention": {"d": 5}, "extra": {"k": 1}}}
