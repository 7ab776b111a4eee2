"""Every notebook executes as a notebook in a fresh clone with no results/ folder, redraws each of
its figures identical to the committed one, and gives exactly the committed executed copy
(figures/notebooks/<result>.ipynb, made by `snakemake --cores all notebooks`).

Needs the `notebooks` extra (nbconvert, ipykernel). A failure of the last check means the copies
are stale: run `snakemake --cores all notebooks` and commit figures/notebooks/.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RESULTS = sorted(p.stem for p in (ROOT / "figures" / "numbers").glob("*.json"))


@pytest.fixture(scope="module")
def fresh_clone(tmp_path_factory) -> Path:
    """The files a clone of this tree gets (tracked, or new and not ignored), without results/."""
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=ROOT,
                           check=True, stdout=subprocess.PIPE).stdout.decode().split("\0")
    clone = tmp_path_factory.mktemp("fresh_clone") / "repo"
    for name in filter(None, files):
        source = ROOT / name
        if source.is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, clone / name)
    assert not (clone / "results").exists()
    return clone


@pytest.mark.slow
@pytest.mark.parametrize("name", RESULTS)
def test_notebook_executes_in_a_fresh_clone_and_its_copy_is_current(fresh_clone, tmp_path, monkeypatch, name):
    pytest.importorskip("nbconvert")
    pytest.importorskip("ipykernel")
    import nbformat

    from ssi.experiments.notebook_build import execute

    monkeypatch.delenv("SSI_CONFIG", raising=False)
    # the kernel imports the clone's package (PYTHONPATH is ahead of the editable install)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(fresh_clone / "src"), os.environ.get("PYTHONPATH", "")]))
    out = tmp_path / f"{name}.ipynb"
    assert execute(fresh_clone / "notebooks" / f"{name}.py", out, fresh_clone) == []
    assert not (fresh_clone / "results").exists()
    notebook = nbformat.read(out, as_version=4)
    outputs = [o for cell in notebook.cells for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error" or o.get("name") == "stderr"]
    lines = [line for o in outputs if o.get("name") == "stdout" for line in o["text"].splitlines()
             if "redrawn from the committed" in line]
    assert lines and all("identical to" in line for line in lines), lines
    committed = ROOT / "figures" / "notebooks" / f"{name}.ipynb"
    assert committed.is_file(), f"{committed} missing: run `snakemake --cores all notebooks`"
    assert out.read_bytes() == committed.read_bytes(), \
        f"{committed} is not current: run `snakemake --cores all notebooks` and commit it"


def test_normalise_merges_a_print_split_across_stream_messages():
    """The kernel may send one print's text and its newline as two stdout messages (timing): the
    written notebook is the same either way, with the other outputs kept in order."""
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("nbconvert")
    from ssi.experiments.notebook_build import normalise

    def executed(*texts):
        cell = nbformat.v4.new_code_cell("print('a = 1')")
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=t) for t in texts]
        cell.outputs.append(nbformat.v4.new_output("display_data", data={"text/plain": "table"}))
        cell.outputs.append(nbformat.v4.new_output("stream", name="stdout", text="after\n"))
        return nbformat.writes(normalise(nbformat.v4.new_notebook(cells=[cell])))

    assert executed("a = 1", "\n") == executed("a = 1\n")
    outputs = nbformat.reads(executed("a = 1", "\n"), as_version=4).cells[0].outputs
    assert [o.output_type for o in outputs] == ["stream", "display_data", "stream"]
    assert outputs[0].text == "a = 1\n" and outputs[2].text == "after\n"
