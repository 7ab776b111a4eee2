"""Every result has a jupytext notebook, and each executes as a notebook on the quick config.

`jupytext --to notebook --execute` needs nbconvert and ipykernel (the `notebooks` extra). Each
notebook reads results/ through ssi.experiments.notebook and re-renders its figures with the
workflow's plotting function; here every re-rendered figure must be identical to the workflow's.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from quickrun import ROOT, completed_quick_run, run

#: one notebook per result (numbers file), named after it
RESULTS = sorted(p.stem for p in (ROOT / "figures" / "numbers").glob("*.json"))


def test_every_result_has_a_notebook_using_the_shared_helpers():
    """notebooks/<result>.py exists for each figures/numbers/<result>.json, is a percent-format
    jupytext notebook that opens with a markdown cell, and finds its results through
    ssi.experiments.notebook.results_config."""
    import jupytext

    assert len(RESULTS) >= 5
    for name in RESULTS:
        path = ROOT / "notebooks" / f"{name}.py"
        assert path.is_file(), f"no notebook for result {name}"
        notebook = jupytext.read(path)
        assert notebook.cells[0].cell_type == "markdown"
        assert sum(c.cell_type == "code" for c in notebook.cells) >= 3
        assert "results_config(" in path.read_text() and "ssi.experiments.notebook import" in path.read_text()


@pytest.fixture(scope="module")
def quick(quick_cores2, tmp_path_factory):
    return completed_quick_run(quick_cores2, tmp_path_factory)


@pytest.mark.slow
@pytest.mark.parametrize("name", RESULTS)
def test_notebook_executes_on_quick_results(quick, name):
    """`jupytext --to notebook --execute notebooks/<name>.py` succeeds (as a notebook, with a kernel),
    no cell errors, it falls back to the quick config, and every figure it re-renders is identical
    to the workflow's."""
    import nbformat

    # as documented: the .ipynb is written (and executed) next to the .py, in the run's copy
    out = quick / "notebooks" / f"{name}.ipynb"
    proc = run([sys.executable, "-m", "jupytext", "--to", "notebook", "--execute", f"notebooks/{name}.py"],
               quick, check=False, timeout=600)
    assert proc.returncode == 0, proc.stdout[-4000:]
    notebook = nbformat.read(out, as_version=4)
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert "using config/quick.yaml" in text
    rendered = [line for line in text.splitlines() if " bytes, " in line]
    assert rendered and all("identical to" in line for line in rendered), "\n".join(rendered)
