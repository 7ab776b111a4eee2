"""The notebooks (notebooks/<result>.py) and what they read: every result has one that tells its
story and redraws its figures with the package's plotting functions from committed files only
(figures/numbers/<result>.json and the figure data figures/data/<result>.npz + .json).

tests/workflow/test_notebook_copies.py executes each one as a notebook in a fresh clone without results/
and checks the committed executed copies (figures/notebooks/) are current.
"""
from __future__ import annotations

import hashlib
import math
import re
import subprocess
import sys

import pytest

from support.quickrun import QUICK, ROOT, completed_quick_run, environment

#: one notebook per result (numbers file), named after it
RESULTS = sorted(p.stem for p in (ROOT / "figures" / "numbers").glob("*.json"))
#: the parts of the story every notebook tells (markdown headings or bold openings)
STORY = ("What the paper claims", "What to look at", "What the figure shows", "Where it differs", "Change it")
#: the extracts are committed: keep them small (bytes, all results together). The largest is the
#: two-phases figure's, which draws every one of its 64 replicates' curves at the four d of C6's
#: gap fit, 100 record points per decade (about 1.6 MB).
FIGURE_DATA_BUDGET = 2_500_000
DRAW = re.compile(r'result\.draw\("([^"]+)"\)')


def notebook_text(name: str) -> str:
    return (ROOT / "notebooks" / f"{name}.py").read_text()


def test_every_result_has_a_notebook_that_tells_its_story():
    """notebooks/<result>.py for each figures/numbers/<result>.json: a percent-format jupytext
    notebook that opens with markdown, tells the claim, what to look at, what the figure shows,
    where it differs and how to change it, in markdown cells between short code cells; it reads the
    committed files through ssi.experiments.notebook.open_result and draws every figure it shows
    with Result.draw (the package's plotting function)."""
    import jupytext

    assert len(RESULTS) >= 6
    for name in RESULTS:
        path = ROOT / "notebooks" / f"{name}.py"
        assert path.is_file(), f"no notebook for result {name}"
        notebook = jupytext.read(path)
        cells = notebook.cells
        assert cells[0].cell_type == "markdown" and cells[0].source.startswith("# ")
        markdown = "\n".join(c.source for c in cells if c.cell_type == "markdown")
        missing = [part for part in STORY if part not in markdown]
        assert not missing, (name, missing)
        code = [c for c in cells if c.cell_type == "code"]
        assert sum(c.cell_type == "markdown" for c in cells) >= len(code) - 2, name
        long = [c.source for c in code if len(c.source.splitlines()) > 12]
        assert not long, (name, long)
        text = path.read_text()
        source = "\n".join(c.source for c in code)
        assert f'open_result("{name}")' in source
        assert "load_result" not in source and "results/" not in source and "stems(" not in source, name
        drawn = DRAW.findall(text)
        assert drawn, f"{name} draws no figure"
        for figure in drawn:
            assert (ROOT / "figures" / f"{figure}.png").is_file(), (name, figure)


def test_every_figure_of_a_result_is_drawn_by_its_notebook():
    """Each notebook redraws every figure of its result (the list its figure data records, from the
    workflow's figure list), each once, and these figures are in the manifest."""
    import json

    manifest = (ROOT / "figures" / "MANIFEST.sha256").read_text().split()[1::2]
    for name in RESULTS:
        figures = json.loads((ROOT / "figures" / "data" / f"{name}.json").read_text())["figures"]
        assert sorted(DRAW.findall(notebook_text(name))) == figures, name
        assert all(f"{figure}.png" in manifest for figure in figures), name


def test_figure_data_is_committed_small_and_in_the_manifest():
    """figures/data/<result>.npz and .json exist for every result, the manifest lists them with
    their hashes (so `sha256sum -c figures/MANIFEST.sha256` checks them), and all of them together
    stay under FIGURE_DATA_BUDGET bytes."""
    from ssi.experiments.audit import read_manifest

    manifest = read_manifest(ROOT / "figures" / "MANIFEST.sha256")
    total = 0
    for name in RESULTS:
        for ext in ("npz", "json"):
            path = ROOT / "figures" / "data" / f"{name}.{ext}"
            assert path.is_file(), path
            assert manifest.get(f"data/{name}.{ext}") == hashlib.sha256(path.read_bytes()).hexdigest(), path
            total += path.stat().st_size
    assert total <= FIGURE_DATA_BUDGET, f"figure data {total} bytes > {FIGURE_DATA_BUDGET}"


def test_figure_data_serves_only_what_it_holds():
    """FigureData answers a stem relative to the config's results folder with the recorded arrays
    and provenance keys; a stem it does not hold fails naming the command that rebuilds it; JSON
    nulls of the numbers come back as nan."""
    import yaml

    from ssi.experiments.figure_data import FigureData, numbers_from_json

    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    data = FigureData(ROOT / "figures" / "data" / "tied_untied", config["results_dir"])
    stem = f"{config['results_dir']}/tied_untied/null_diff_L2"
    arrays, meta = data(stem)
    assert meta["d"] == 1000 and arrays["overlap_tied"].ndim == 2
    with pytest.raises(KeyError, match="snakemake --cores all figure_data|rebuild it"):
        data(f"{config['results_dir']}/tied_untied/sgd_sie1_same_lr_tied")
    numbers = numbers_from_json(ROOT / "figures" / "numbers" / "tied_untied.json")
    assert math.isnan(numbers["null"][0]["sie_tied"])


def test_open_result_without_committed_files_says_what_makes_them(tmp_path, monkeypatch):
    """A config whose figures folder holds no numbers: one message naming the missing files and
    the command, no traceback."""
    from ssi.experiments import notebook

    (tmp_path / "Snakefile").write_text("")
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "x.yaml").write_text("results_dir: res\nfigures_dir: figs\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SSI_CONFIG", "config/x.yaml")
    with pytest.raises(SystemExit, match=r"figs/numbers/two_phases.json.*not found.*snakemake --cores all figs/data/two_phases.npz"):
        notebook.open_result("two_phases")


@pytest.fixture(scope="module")
def quick(quick_cores2, tmp_path_factory):
    return completed_quick_run(quick_cores2, tmp_path_factory)


@pytest.mark.slow
def test_notebooks_redraw_the_quick_figures_from_the_quick_figure_data(quick):
    """On a completed quick run (its own figure data, made by rule figure_data), every notebook runs
    as a script with SSI_CONFIG=config/quick.yaml and every figure it redraws is the quick run's,
    byte for byte: the extracts hold all that the figures read, at another scale too."""
    for name in RESULTS:
        proc = subprocess.run([sys.executable, f"notebooks/{name}.py"], cwd=quick, env=environment(SSI_CONFIG=QUICK),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
        assert proc.returncode == 0, (name, proc.stdout[-4000:])
        lines = [line for line in proc.stdout.splitlines() if "redrawn from the committed" in line]
        assert lines and all("identical to" in line for line in lines), (name, lines)
