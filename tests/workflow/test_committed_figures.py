"""The figure checks (tests/support/figure_checks.py) on every committed figure, as it is drawn.

Each figure of the paper config is redrawn with its result's plotting function from the committed
numbers, figure data and verdict file (what the notebooks do), and the summary from the committed
verdict file and numbers; the drawn Figure objects, as the plotting functions hand them to
:func:`ssi.plotting.save_figure`, go through :func:`figure_checks.problems`. Nothing is written.

What this catches, for instance: the summary drawn with its verdict words in the Okabe–Ito green
and vermilion (contrast 3.42:1 and 3.87:1 on white, under the 4.5:1 the checks ask), or the
positional landscape's six panels on six colour scales under one colour-bar label — both in the
committed figures until they were mended. tests/unit/test_legibility.py shows each check failing
on a figure drawn to break it.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ssi.experiments import registry
from support.figure_checks import saved_figure_problems

ROOT = Path(__file__).resolve().parents[2]
CONFIG = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
FIGURES = ROOT / CONFIG["figures_dir"]
#: each redraw takes 1–20 s
pytestmark = pytest.mark.slow
REDRAWN = [result.name for result in registry.results("paper") if result.notebook]


@pytest.mark.parametrize("name", REDRAWN)
def test_committed_figures_pass_the_figure_checks(name, tmp_path):
    from ssi.experiments.figure_data import FigureData, numbers_from_json, plot_function
    from ssi.verdicts import rows_for

    entry = registry.get(name)
    numbers = numbers_from_json(FIGURES / "numbers" / f"{name}.json")
    load = FigureData(FIGURES / "data" / name, CONFIG["results_dir"])
    paths = [str(tmp_path / f"{Path(f).name}") for f in entry.figure_files(CONFIG)]
    found = saved_figure_problems(lambda: plot_function(name)(
        CONFIG, paths, numbers=numbers, load=load, verdicts=rows_for(FIGURES / "VERDICTS.json", name)))
    assert sorted(found) == sorted(Path(f).name for f in entry.figure_names(CONFIG))
    assert {figure: found_ for figure, found_ in found.items() if found_} == {}


def test_committed_summary_passes_the_figure_checks(tmp_path):
    from ssi.experiments import summary

    numbers_files = [FIGURES / "numbers" / f"{r.name}.json" for r in registry.results("paper")]
    rows, numbers = summary.load(FIGURES / "VERDICTS.json", numbers_files)
    found = saved_figure_problems(lambda: summary.plot(rows, numbers, [tmp_path / "summary.pdf",
                                                                        tmp_path / "summary.png"]))
    assert found == {"summary": []}

