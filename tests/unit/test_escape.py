"""The escape definition (ssi.escape): parsing, words, crossings, and that no other file writes a level."""
import math
import re
from pathlib import Path

import numpy as np
import pytest
import yaml

from ssi import escape
from ssi.escape import Escape

ROOT = Path(__file__).resolve().parents[2]


def test_a_level_per_sqrt_d_is_read_from_config_and_scales_with_d():
    """``level: 2/sqrt(d)`` is 2/√d at every d (a parser that dropped the d would give 2 or fail)."""
    e = escape.from_config({"level": "2/sqrt(d)", "overlap": "abs_m", "statistic": "mean_curve"}, "x.escape")
    assert e.per_sqrt_d and e.value(100) == 0.2 and e.value(10_000) == 0.02
    assert escape.from_config({"level": "3/√d", "overlap": "m", "statistic": "median"}, "x").value(9) == 1.0
    with pytest.raises(ValueError, match="d is required"):
        e.value()


@pytest.mark.parametrize("block, where", [
    ({"level": "2/d", "overlap": "m", "statistic": "mean_curve"}, "x.escape.level"),
    ({"level": 1.5, "overlap": "m", "statistic": "mean_curve"}, "x.escape.level"),
    ({"level": 0.5, "overlap": "q", "statistic": "mean_curve"}, "x.escape.overlap"),
    ({"level": 0.5, "overlap": "m", "statistic": "mode"}, "x.escape.statistic"),
    ({"level": 0.5, "overlap": "m", "statistic": "mean", "censored": "yes"}, "x.escape.censored"),
    ({"level": 0.5, "overlap": "m"}, "x.escape"),
])
def test_a_bad_field_is_a_value_error_naming_its_key(block, where):
    """Each bad field names its config key (an error saying only "bad value" would fail)."""
    with pytest.raises(ValueError, match=re.escape(f"config {where}")):
        escape.from_config(block, "x.escape")


def test_words_and_symbol_say_the_definition():
    """The words name the statistic, the overlap and the level; a swapped statistic or level fails."""
    e = Escape(0.5, "m", "mean_curve")
    assert e.words() == "the first step at which the replicate mean of m reaches 0.5"
    assert Escape(2, "abs_m", "median", per_sqrt_d=True).words() == (
        "the median over replicates of the first step at which |m| reaches 2/√d")
    assert Escape(2, "abs_m", "median", per_sqrt_d=True).symbol() == r"$|m| = 2/\sqrt{d}$"
    assert "last simulated step" in Escape(0.5, censored=True).words()


def test_statistics_and_censoring():
    """Mean curve, median and mean of per-replicate crossings, and censoring at the last step,
    on curves whose crossings are known (100 and 1000 steps; one replicate never crosses)."""
    steps = np.array([1.0, 10.0, 100.0, 1000.0])
    curves = np.array([[0.0, 0.1, 0.5, 0.9], [0.0, 0.1, 0.2, 0.5]])
    assert Escape(0.5, statistic="mean_curve").steps(steps, curves) == pytest.approx(
        escape.crossing_time(steps, curves.mean(axis=0), 0.5))
    assert Escape(0.5, statistic="median").steps(steps, curves) == pytest.approx(550.0)
    assert Escape(0.5, statistic="mean").steps(steps, curves) == pytest.approx(550.0)
    never = np.array([[0.0, 0.1, 0.2, 0.3]])
    assert Escape(0.5).steps(steps, never) == math.inf
    assert Escape(0.5, censored=True).steps(steps, never) == 1000.0
    assert Escape(0.25, statistic="share_below").steps(steps, np.vstack([curves, never])) == pytest.approx(0.0)
    assert Escape(0.6, statistic="share_below").steps(steps, np.vstack([curves, never])) == pytest.approx(2 / 3)


def test_kernel_helper_records_the_first_crossing_only():
    """``crossed`` keeps the first step at which |overlap| ≥ threshold (a later step must not overwrite it)."""
    cross = -1
    for step, overlap in enumerate([0.1, -0.6, 0.7, 0.2], start=1):
        cross = escape.crossed(cross, overlap, 0.5, step)
    assert cross == 2
    assert list(escape.recorded_crossings(np.array([2, -1]))) == [2.0, math.inf]


def test_schema_lists_exactly_the_module_overlaps_and_statistics():
    """The schema's enums are the module's keys (an overlap added to one only fails here)."""
    schema = yaml.safe_load((ROOT / "workflow/schemas/config.schema.yaml").read_text())
    props = schema["$defs"]["escape"]["properties"]
    assert props["overlap"]["enum"] == list(escape.OVERLAPS)
    assert props["statistic"]["enum"] == list(escape.STATISTICS)


@pytest.mark.parametrize("name", ["config.yaml", "quick.yaml"])
def test_every_result_names_its_escapes_in_the_config(name):
    """Each result's ``escape`` block parses (a config still holding ``escape_level`` fails)."""
    config = yaml.safe_load((ROOT / "config" / name).read_text())
    for result in ("two_phases", "positional", "escape_vs_d", "tied_untied", "semantic_positional"):
        assert "escape_level" not in config[result]
        assert escape.named(config[result], result)


#: an escape level written outside ssi.escape and the config: the 2/√d level in code or words, a
#: macroscopic 0.5 said as the level an overlap reaches
LEVEL_LITERALS = re.compile(
    r"(?<![\w}])2 ?/ ?(?:math\.|np\.)?sqrt\(|2/√d|(?<![\w}])2/\\+sqrt\{+d|reaches 0\.5|level 0\.5|overlap 0\.5|= 0\.5\$|at \$0\.5"
    r"|threshold 0\.5|macroscopic 0\.5|\[\"escape_level\"\]\s*=|escape_level: 0\.5")


def _level_literals() -> list[str]:
    """``path:line: text`` of every line matching :data:`LEVEL_LITERALS` in the Snakefile, the
    package's sources and the workflow's code, reports and schemas (src/ssi/escape.py excepted)."""
    files = [ROOT / "Snakefile", *sorted((ROOT / "src").rglob("*.py")),
             *sorted(p for p in (ROOT / "workflow").rglob("*") if p.suffix in (".py", ".smk", ".rst", ".yaml"))]
    hits = []
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        if rel == "src/ssi/escape.py":
            continue
        hits += [f"{rel}:{i}: {line.strip()}" for i, line in enumerate(path.read_text().splitlines(), 1)
                 if LEVEL_LITERALS.search(line)]
    return hits


def test_no_escape_level_is_written_outside_the_escape_module_and_the_config():
    """Catches e.g. ``levels = {"authors": 2 / math.sqrt(d)}`` in a result module, a rule text
    "... reaches 0.5: reproduced when ...", or a label r"$2/\\sqrt{d}$": the level must come from
    the config through ssi.escape (Escape.value, .level_text(), .level_tex(), .words(), .symbol())."""
    hits = _level_literals()
    assert not hits, "escape levels written outside ssi.escape and config/:\n" + "\n".join(hits)


def test_the_literal_pattern_catches_the_cases_it_names():
    """The grep pattern itself: each spelling it must catch is caught, a plain 0.5 is not."""
    for line in ['lev = 2 / math.sqrt(d)', 'x = 2/np.sqrt(d)', 'text = "at 2/√d"', r'label=r"$2/\sqrt{d}$"',
                 r'f"at $2/\\sqrt{{d}}$ "', '"mean of the overlap reaches 0.5: reproduced"',
                 'label=r"$\\bar m = 0.5$"']:
        assert LEVEL_LITERALS.search(line), line
    for line in ["alpha=0.5", "m0 = d ** -0.5", "lw=0.5", r'"$\mathrm{He}_2/\sqrt{L}$"']:
        assert not LEVEL_LITERALS.search(line), line
